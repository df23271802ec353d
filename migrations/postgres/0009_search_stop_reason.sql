-- Why a search ended early (issue #26): `max_cost` or `allowance`, so its history entry
-- says "Stopped: daily limit reached" rather than "Complete". Expand-only: older
-- processes ignore the columns.
ALTER TABLE searches ADD COLUMN stop_reason TEXT;
-- 1 once a search that failed before any Google answer gave its monthly search back, so
-- a retried job cannot give it back twice.
ALTER TABLE searches ADD COLUMN search_refunded INTEGER NOT NULL DEFAULT 0;
