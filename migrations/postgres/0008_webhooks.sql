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
    nonce           BYTEA NOT NULL,
    ciphertext      BYTEA NOT NULL,
    enabled         BIGINT NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
    disabled_reason TEXT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX webhook_endpoints_user_id_idx ON webhook_endpoints (user_id);

CREATE TABLE webhook_deliveries (
    id          TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message_id  TEXT NOT NULL,
    event_type  TEXT NOT NULL,
    attempt     BIGINT NOT NULL,
    status_code BIGINT,
    latency_ms  BIGINT NOT NULL,
    error       TEXT,
    succeeded   BIGINT NOT NULL CHECK (succeeded IN (0, 1)),
    created_at  BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX webhook_deliveries_message_idx ON webhook_deliveries (endpoint_id, message_id);
