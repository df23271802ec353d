-- An estimate's probe answers (issue #30 item 2), per workspace: the rectangles its free
-- IDs-only probes asked about and the place ids Google listed in each, so that the full
-- search that follows it (the web app estimates first) does not ask Google the same again.
-- Place ids only (Google lets a place id be kept); nothing else about a place. Found by
-- the same digests as area_plans; read only while younger than 15 minutes, and pruned
-- with the area plans.
-- Expand-only: a new table; an older process neither reads nor writes it.
CREATE TABLE estimate_probes (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- SHA-256 (hex) of the Text Search body without its location restriction.
    query_digest TEXT NOT NULL,
    -- SHA-256 (hex) of the area as asked (a polygon's ring, a circle, or the located rectangle).
    area_digest  TEXT NOT NULL,
    -- The answers (search::ProbeAnswers as JSON).
    answers      TEXT NOT NULL,
    -- When the estimate probed, Unix seconds.
    probed_at    BIGINT NOT NULL,
    PRIMARY KEY (workspace_id, query_digest, area_digest)
);
