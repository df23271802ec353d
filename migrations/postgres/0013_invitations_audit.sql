-- Invitations and the audit log (issue #28 items 3 and 6). Expand-only: two new tables and
-- a nullable column; the previous release reads and writes none of them.

-- The email the identity provider vouched for (email_verified) at the user's last
-- sign-in; NULL when it did not, or when they last signed in through a release that did
-- not record it. Accepting an invitation needs it to be the invited address. (The address
-- itself, not a flag: a sign-in through the previous release during a rollout changes
-- users.email but not this, so a flag could vouch for an address it never saw.)
ALTER TABLE users ADD COLUMN verified_email TEXT;

-- Pending invitations only: accepting or revoking one deletes its row (the audit log keeps
-- the history), an expired one stays until pruned so its link can say it expired. The
-- token is never stored, only its SHA-256.
CREATE TABLE workspace_invitations (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    -- As the inviter typed it (trimmed), and lower-cased: one pending invitation per
    -- address and workspace, matched without regard to case.
    email        TEXT NOT NULL,
    email_key    TEXT NOT NULL,
    role         TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    token_hash   TEXT NOT NULL UNIQUE,
    invited_by   TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    CONSTRAINT workspace_invitations_email_key UNIQUE (workspace_id, email_key)
);
CREATE INDEX workspace_invitations_expires_idx ON workspace_invitations (expires_at);

-- Who did what in a workspace. `target` and `details` name settings, ids and figures:
-- never lead data. The actor is a user id without a foreign key, so an event outlives the
-- account that made it; NULL for the system (a plan changed by the billing provider).
-- Ids are UUID v7: their text order is their time order (the list's cursor).
CREATE TABLE audit_events (
    id           TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    at           BIGINT NOT NULL,
    actor_id     TEXT,
    action       TEXT NOT NULL,
    target       TEXT NOT NULL,
    details      TEXT NOT NULL
);
CREATE INDEX audit_events_workspace_idx ON audit_events (workspace_id, id);
CREATE INDEX audit_events_at_idx ON audit_events (at);
