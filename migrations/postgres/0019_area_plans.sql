-- An area's plan remembered (issue #30 item 2): per workspace, what a finished full
-- search learned about where its query's places lie, so that a later full search of the
-- same query and area fetches at once instead of probing the whole area again. Our own
-- rectangles and how many places Google listed in each (JSON): never a place id, a place's
-- position or anything else about a place. Found by digests of the Text Search body (less
-- its location) and of the area; read only while younger than LEADGEN_PLAN_MEMORY_DAYS.
-- Expand-only: a new table; an older process neither reads nor writes it.
CREATE TABLE area_plans (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- SHA-256 (hex) of the Text Search body without its location restriction.
    query_digest TEXT NOT NULL,
    -- SHA-256 (hex) of the area as asked (a polygon's ring, a circle, or the located rectangle).
    area_digest  TEXT NOT NULL,
    -- The plan (search::tiling::Remembered as JSON).
    plan         TEXT NOT NULL,
    -- When it was last learned or verified by a search, Unix seconds.
    planned_at   BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, query_digest, area_digest)
);
