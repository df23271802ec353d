-- Usage counters and search records. A search record holds what was asked (type) and
-- what it cost, never a lead.

CREATE TABLE usage_counters (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    period     TEXT NOT NULL,            -- '2026-11' for a month, '2026-11-21' for a day (UTC)
    metric     TEXT NOT NULL,            -- 'searches' or 'leads'
    used       BIGINT NOT NULL DEFAULT 0 CHECK (used >= 0),
    last_grant BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, period, metric)
);

CREATE TABLE searches (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    business_type   TEXT NOT NULL,
    status          TEXT NOT NULL,       -- queued, complete, failed, cancelled
    lead_budget     BIGINT NOT NULL,
    leads_delivered BIGINT,
    day             TEXT NOT NULL,
    month           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    finished_at     BIGINT
);
CREATE INDEX searches_user_id_idx ON searches (user_id, created_at);
