-- Billing: each user's Stripe customer (created once), their current subscription as
-- Stripe last described it, and the webhook events already applied (each applied once,
-- recorded in the same transaction as its effect).

CREATE TABLE billing_customers (
    user_id     TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    customer_id TEXT NOT NULL UNIQUE,
    created_at  INTEGER NOT NULL
);

CREATE TABLE subscriptions (
    user_id              TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    subscription_id      TEXT NOT NULL,
    status               TEXT NOT NULL,     -- Stripe's: active, trialing, past_due, canceled, ...
    plan                 TEXT NOT NULL,     -- 'monthly', 'yearly', or the price id when unknown
    current_period_end   INTEGER,
    cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
    has_payment_method   INTEGER NOT NULL DEFAULT 0,
    updated_at           INTEGER NOT NULL
);

CREATE TABLE billing_events (
    event_id    TEXT PRIMARY KEY,
    event_type  TEXT NOT NULL,
    received_at INTEGER NOT NULL
);
