-- Place memory (issue #29 item 1): per workspace, the Google place ids its searches have
-- sent, and when. IDs only, on purpose: Google's terms allow keeping place ids
-- indefinitely, and nothing else about a place (never a name, address, phone, website or
-- rating) is stored here. Expand-only: a new table and a defaulted column; an older
-- process neither records nor excludes.
CREATE TABLE place_memory (
    workspace_id     TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    place_id         TEXT NOT NULL,
    -- Unix seconds.
    first_seen_at    INTEGER NOT NULL,
    last_seen_at     INTEGER NOT NULL,
    -- NULL until one of the workspace's exports held the place.
    last_exported_at INTEGER,
    PRIMARY KEY (workspace_id, place_id)
);

-- Whether the workspace's searches record and may exclude places (1, the default) or
-- leave no trace (0).
ALTER TABLE workspaces ADD COLUMN place_memory INTEGER NOT NULL DEFAULT 1 CHECK (place_memory IN (0, 1));
