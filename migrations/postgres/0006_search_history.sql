-- A search's history entry (issue #13): what was asked, whether it runs without a
-- listener, and why it failed. Metadata only: no lead data, ever.
ALTER TABLE searches ADD COLUMN location TEXT NOT NULL DEFAULT '';
ALTER TABLE searches ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
ALTER TABLE searches ADD COLUMN background BIGINT NOT NULL DEFAULT 0;
ALTER TABLE searches ADD COLUMN error_message TEXT;
