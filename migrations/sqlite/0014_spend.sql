-- Spend for agencies (issue #28 item 7): a search's client label, and a workspace's
-- monthly spend cap on its Google key. Expand-only: nullable columns and indexes; an
-- older process ignores them (its searches carry no client; it does not enforce a cap).

-- The client a search was run for, as typed (trimmed), and its case-folded form (folded
-- in Rust, so both stores filter and group the same way, beyond ASCII too). An agency's
-- client, never lead data.
ALTER TABLE searches ADD COLUMN client TEXT;
ALTER TABLE searches ADD COLUMN client_key TEXT;
CREATE INDEX searches_workspace_client_idx ON searches ((COALESCE(workspace_id, user_id)), client_key);
-- The month's spend and breakdown read a workspace's searches by month.
CREATE INDEX searches_workspace_month_idx ON searches ((COALESCE(workspace_id, user_id)), month);

-- What the workspace's searches may spend on its Google key in a calendar month (UTC),
-- in US cents; NULL: no cap.
ALTER TABLE workspaces ADD COLUMN monthly_spend_cap_cents BIGINT;
