-- Users, encrypted secrets, sessions and pending sign-ins.
-- Flags are 0/1 integers and times are Unix seconds so one SQL text serves Postgres and
-- SQLite (see docs/decisions.md). No lead data is ever stored.

CREATE TABLE users (
    id          TEXT PRIMARY KEY,
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    email       TEXT NOT NULL,
    name        TEXT,
    picture     TEXT,
    onboarded   INTEGER NOT NULL DEFAULT 0 CHECK (onboarded IN (0, 1)),
    login_count INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    CONSTRAINT users_issuer_subject_key UNIQUE (issuer, subject)
);

-- One row per (user, kind) of secret: 'places_api_key', later 'google_refresh_token'.
CREATE TABLE user_secrets (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    key_id     TEXT NOT NULL,
    nonce      BLOB NOT NULL,
    ciphertext BLOB NOT NULL,
    preview    TEXT NOT NULL,
    is_valid   INTEGER CHECK (is_valid IN (0, 1)),
    checked_at INTEGER,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX user_secrets_key_id_idx ON user_secrets (key_id);

CREATE TABLE sessions (
    jti        TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issued_at  INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);

-- An OIDC sign-in between the redirect to the provider and its callback. Single use.
CREATE TABLE login_attempts (
    state         TEXT PRIMARY KEY,
    pkce_verifier TEXT NOT NULL,
    nonce         TEXT NOT NULL,
    feature       TEXT,
    created_at    INTEGER NOT NULL
);
