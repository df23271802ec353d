-- Saved searches (issue #29 items 3 and 4): a workspace's search kept under a name, run
-- on demand or on a schedule. Expand-only: a new table and a nullable column on
-- searches; an older process ignores both (it runs no schedule and links no run).
--
-- `request` is the search's body as `search_leads` takes it (JSON, camelCase), so any
-- option a search gains is saved too; `search` is the same search validated, in the
-- queue's form (what a run queues). `delivery` is JSON (webhook, email, sheet).
-- Times are Unix seconds; `next_run_at` is NULL when there is no schedule or it is
-- paused, and is what the scheduler claims with a conditional update.
CREATE TABLE saved_searches (
    id             TEXT PRIMARY KEY,
    workspace_id   TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    created_by     TEXT REFERENCES users (id) ON DELETE SET NULL,
    name           TEXT NOT NULL,
    request        TEXT NOT NULL,
    search         TEXT NOT NULL,
    client         TEXT,
    cron           TEXT,
    time_zone      TEXT,
    only_new       BIGINT NOT NULL DEFAULT 0 CHECK (only_new IN (0, 1)),
    delivery       TEXT NOT NULL DEFAULT '{}',
    paused         BIGINT NOT NULL DEFAULT 0 CHECK (paused IN (0, 1)),
    next_run_at    BIGINT,
    last_run_at    BIGINT,
    last_search_id TEXT,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX saved_searches_workspace_idx ON saved_searches (workspace_id, created_at);
CREATE INDEX saved_searches_due_idx ON saved_searches (next_run_at);

-- The saved search a run was started for (NULL for any other search). No foreign key:
-- a run stays in the history after its saved search is deleted.
ALTER TABLE searches ADD COLUMN saved_search_id TEXT;
CREATE INDEX searches_saved_search_idx ON searches (saved_search_id);
