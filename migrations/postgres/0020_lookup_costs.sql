-- What a workspace spends on its Google key outside its searches (issue #30): locating a
-- typed place for the map, and an estimate's locate request and completeness count. Each
-- is billed by Google like a search's requests, so the month's spend, the spend cap and
-- the breakdown by member and by client count it too. Metadata only: who, when, what
-- kind, the client an estimate was for, and the dollars; no place, no lead data.
-- Expand-only: a new table; an older process neither reads nor writes it (its month's
-- spend leaves these out, as before).
CREATE TABLE lookup_costs (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL,
    -- Calendar month (UTC), YYYY-MM, as searches.month.
    month        TEXT NOT NULL,
    -- 'locate' (the map) or 'estimate'.
    kind         TEXT NOT NULL,
    -- An estimate's client label as typed and case-folded (searches.client, client_key).
    client       TEXT,
    client_key   TEXT,
    cost_usd     DOUBLE PRECISION NOT NULL,
    -- Unix seconds.
    created_at   BIGINT NOT NULL
);
CREATE INDEX lookup_costs_workspace_month_idx ON lookup_costs (workspace_id, month);
