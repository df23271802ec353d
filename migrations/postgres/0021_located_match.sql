-- What Google matched a located location with (issue #30): '' for a city or anything else
-- that is not a postal code, or the postal code's place id, the region the completeness
-- meter counts (the Aggregate API's region.place). NULL on rows cached before: such a row
-- still serves a city, and a postal code is located again once. Geography only.
-- Expand-only: an older process neither reads nor writes the column.
ALTER TABLE located_areas ADD COLUMN matched_postal_code TEXT;
