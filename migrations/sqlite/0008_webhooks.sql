-- Webhook endpoints and their delivery log (issue #15). The signing secret is sealed with
-- the vault (AES-256-GCM) like the Places key, since deliveries need it in clear to sign.
-- The log records when, which event, which attempt, the status code and the latency of
-- each delivery attempt: never the payload (search.completed carries leads).
CREATE TABLE webhook_endpoints (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,
    key_id          TEXT NOT NULL,
    nonce           BLOB NOT NULL,
    ciphertext      BLOB NOT NULL,
    enabled         INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_reason TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_user_id_idx ON webhook_endpoints (user_id);

CREATE TABLE webhook_deliveries (
    id          TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message_id  TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    attempt     INTEGER NOT NULL,
    status_code INTEGER,
    latency_ms  INTEGER NOT NULL,
    error       TEXT,
    succeeded   INTEGER NOT NULL CHECK (succeeded IN (0, 1)),
    created_at  INTEGER NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX webhook_deliveries_message_idx ON webhook_deliveries (endpoint_id, message_id);
