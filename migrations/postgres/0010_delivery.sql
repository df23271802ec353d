-- Automatic delivery of a full search when it finishes (issue #26 item 2): one row per
-- user who chose one. `kind` is `email` (a CSV to the account's own address) or `sheets`
-- (a new tab in `spreadsheet_id`, one of the user's sheets). No row: no delivery.
-- Expand-only: older processes ignore the table and the column.
CREATE TABLE delivery_preferences (
    user_id          TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'sheets')),
    spreadsheet_id   TEXT,
    spreadsheet_name TEXT,
    updated_at       BIGINT NOT NULL
);

-- How a search's automatic delivery went, in the history: `sent`, or `failed` with
-- `delivery_detail` saying why in plain words. NULL: none was asked for.
ALTER TABLE searches ADD COLUMN delivery_kind TEXT;
ALTER TABLE searches ADD COLUMN delivery_status TEXT;
ALTER TABLE searches ADD COLUMN delivery_detail TEXT;
