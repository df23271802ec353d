-- How a saved search's last delivery by each channel went (issue #29 item 5): one row
-- per saved search and channel (webhook, email, sheet), replaced by every attempt, so the
-- saved search answers `lastDelivery` without a log to prune. Never a lead: the status,
-- a sentence for the user (where it went, or why not) and when. Expand-only: a new
-- table; an older process ignores it.
CREATE TABLE saved_search_deliveries (
    saved_search_id TEXT NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
    workspace_id    TEXT NOT NULL,
    channel         TEXT NOT NULL CHECK (channel IN ('webhook', 'email', 'sheet')),
    status          TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    detail          TEXT,
    search_id       TEXT,
    at              BIGINT NOT NULL,
    PRIMARY KEY (saved_search_id, channel)
);
