-- How many places a search with an `exclude` found and how many of them were new
-- (issue #29 item 3: a saved search's runs appear in the history with both). NULL for a
-- search without an `exclude` and for searches before this release. Expand-only: two
-- nullable columns; an older process neither writes nor reads them.
ALTER TABLE searches ADD COLUMN found_count INTEGER;
ALTER TABLE searches ADD COLUMN new_count INTEGER;
