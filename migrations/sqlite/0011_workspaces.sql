-- (SQLite reads `INSERT ... SELECT ... ON CONFLICT` only with a WHERE in the SELECT: hence `WHERE 1 = 1`.)
-- Workspaces (issue #28): the tenant becomes a workspace, shared by its members, instead
-- of one person. Every user has a personal workspace whose id EQUALS the user's id, so
-- every backfill below is `workspace_id = user_id` and needs no id generation (SQLite has
-- no UUID function), and a row an older process writes during a rollout (user_id set,
-- workspace_id NULL) is in its user's personal workspace by the same rule: reads use
-- COALESCE(workspace_id, user_id). See docs/decisions.md, "Workspaces".
-- Expand-only: new tables, nullable columns, indexes and copies; the old tables and
-- columns stay, unused by this release, for the previous one.

CREATE TABLE workspaces (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- The user whose personal workspace this is (then id = personal_of); NULL for a
    -- shared workspace.
    personal_of TEXT UNIQUE REFERENCES users (id) ON DELETE CASCADE,
    created_at  INTEGER NOT NULL
);

CREATE TABLE workspace_members (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);

INSERT INTO workspaces (id, name, personal_of, created_at)
    SELECT id, 'Personal', id, created_at FROM users WHERE 1 = 1
    ON CONFLICT DO NOTHING;
INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
    SELECT id, id, 'owner', created_at FROM users WHERE 1 = 1
    ON CONFLICT DO NOTHING;

-- Rows that belong to a workspace one by one: a nullable column, backfilled.
ALTER TABLE searches ADD COLUMN workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE personal_tokens ADD COLUMN workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE webhook_endpoints ADD COLUMN workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE;
ALTER TABLE webhook_deliveries ADD COLUMN workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE;
UPDATE searches SET workspace_id = user_id WHERE workspace_id IS NULL;
UPDATE personal_tokens SET workspace_id = user_id WHERE workspace_id IS NULL;
UPDATE webhook_endpoints SET workspace_id = user_id WHERE workspace_id IS NULL;
UPDATE webhook_deliveries SET workspace_id = user_id WHERE workspace_id IS NULL;
CREATE INDEX searches_workspace_idx ON searches ((COALESCE(workspace_id, user_id)), created_at);
CREATE INDEX personal_tokens_workspace_idx ON personal_tokens ((COALESCE(workspace_id, user_id)));
CREATE INDEX webhook_endpoints_workspace_idx ON webhook_endpoints ((COALESCE(workspace_id, user_id)));

-- Rows keyed by their user: the key changes, so each gets a table keyed by workspace and
-- its rows are copied (the old tables stay for the previous release).
CREATE TABLE workspace_secrets (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL,
    key_id       TEXT NOT NULL,
    nonce        BLOB NOT NULL,
    ciphertext   BLOB NOT NULL,
    preview      TEXT NOT NULL,
    is_valid     INTEGER CHECK (is_valid IN (0, 1)),
    checked_at   INTEGER,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, kind)
);
CREATE INDEX workspace_secrets_key_id_idx ON workspace_secrets (key_id);
-- The Places key moves; the Google refresh token (Sheets) stays personal in user_secrets.
INSERT INTO workspace_secrets (workspace_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
    SELECT user_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at
    FROM user_secrets WHERE kind = 'places_api_key'
    ON CONFLICT DO NOTHING;

CREATE TABLE workspace_usage (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    period       TEXT NOT NULL,
    metric       TEXT NOT NULL,
    used         INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    last_grant   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (workspace_id, period, metric)
);
INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant)
    SELECT user_id, period, metric, used, last_grant FROM usage_counters WHERE 1 = 1
    ON CONFLICT DO NOTHING;

CREATE TABLE workspace_billing_customers (
    workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    customer_id  TEXT NOT NULL UNIQUE,
    created_at   INTEGER NOT NULL
);
INSERT INTO workspace_billing_customers (workspace_id, customer_id, created_at)
    SELECT user_id, customer_id, created_at FROM billing_customers WHERE 1 = 1
    ON CONFLICT DO NOTHING;

CREATE TABLE workspace_subscriptions (
    workspace_id         TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    subscription_id      TEXT NOT NULL,
    status               TEXT NOT NULL,
    plan                 TEXT NOT NULL,
    current_period_end   INTEGER,
    cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
    has_payment_method   INTEGER NOT NULL DEFAULT 0,
    updated_at           INTEGER NOT NULL
);
INSERT INTO workspace_subscriptions (workspace_id, subscription_id, status, plan, current_period_end,
        cancel_at_period_end, has_payment_method, updated_at)
    SELECT user_id, subscription_id, status, plan, current_period_end, cancel_at_period_end,
        has_payment_method, updated_at
    FROM subscriptions WHERE 1 = 1
    ON CONFLICT DO NOTHING;

CREATE TABLE workspace_delivery_preferences (
    workspace_id     TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('email', 'sheets')),
    spreadsheet_id   TEXT,
    spreadsheet_name TEXT,
    updated_at       INTEGER NOT NULL
);
INSERT INTO workspace_delivery_preferences (workspace_id, kind, spreadsheet_id, spreadsheet_name, updated_at)
    SELECT user_id, kind, spreadsheet_id, spreadsheet_name, updated_at FROM delivery_preferences WHERE 1 = 1
    ON CONFLICT DO NOTHING;

