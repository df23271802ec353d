-- Where locations are: the viewport Google gave for a normalised location string
-- ("austin tx"), so that full-coverage searches and estimates of the same place pay for
-- the locate request once. Geography only: no lead data.
CREATE TABLE located_areas (
    location   TEXT PRIMARY KEY,
    low_lat    REAL NOT NULL,
    low_lng    REAL NOT NULL,
    high_lat   REAL NOT NULL,
    high_lng   REAL NOT NULL,
    located_at INTEGER NOT NULL
);

-- A search's coverage and what it cost the user's key (metadata, never leads).
ALTER TABLE searches ADD COLUMN coverage TEXT NOT NULL DEFAULT 'quick';
ALTER TABLE searches ADD COLUMN billable_requests INTEGER;
ALTER TABLE searches ADD COLUMN cost_usd REAL;
