-- Personal API tokens (issue #15): only a SHA-256 hash of each token is kept, with the
-- first characters to recognise it in a list. Scopes are names separated by spaces.
CREATE TABLE personal_tokens (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    token_hash   TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER,
    expires_at   INTEGER,
    CONSTRAINT personal_tokens_hash_key UNIQUE (token_hash)
);
CREATE INDEX personal_tokens_user_id_idx ON personal_tokens (user_id);
