-- Where locations are: the viewport Google gave for a normalised location string
-- ("austin tx"), so that full-coverage searches and estimates of the same place pay for
-- the locate request once. Geography only: no lead data.
CREATE TABLE located_areas (
    location   TEXT PRIMARY KEY,
    low_lat    DOUBLE PRECISION NOT NULL,
    low_lng    DOUBLE PRECISION NOT NULL,
    high_lat   DOUBLE PRECISION NOT NULL,
    high_lng   DOUBLE PRECISION NOT NULL,
    located_at BIGINT NOT NULL
);

-- A search's coverage and what it cost the user's key (metadata, never leads).
ALTER TABLE searches ADD COLUMN coverage TEXT NOT NULL DEFAULT 'quick';
ALTER TABLE searches ADD COLUMN billable_requests BIGINT;
ALTER TABLE searches ADD COLUMN cost_usd DOUBLE PRECISION;
