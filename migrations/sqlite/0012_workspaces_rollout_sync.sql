-- While a rolling upgrade to workspaces (0011) runs, the previous release's pods still
-- write the per-user tables: a user signing in, usage counted and released, a Places key
-- saved or removed, a subscription or delivery choice changed. These triggers carry each
-- such write into the workspace tables the new release reads, so nothing written during
-- the rollout is lost to it (the same triggers as migrations/postgres; an embedded SQLite
-- deployment is one process and never runs two releases at once, but both stores move
-- together). The new release never writes the per-user tables, so the triggers fire only
-- for the old one's writes. A later release drops them with the per-user tables, in a
-- contract step (docs/operations.md, "Upgrades and restores").

CREATE TRIGGER leadgen_sync_user_workspace AFTER INSERT ON users BEGIN
    INSERT INTO workspaces (id, name, personal_of, created_at)
        VALUES (NEW.id, 'Personal', NEW.id, NEW.created_at) ON CONFLICT DO NOTHING;
    INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
        VALUES (NEW.id, NEW.id, 'owner', NEW.created_at) ON CONFLICT DO NOTHING;
END;

CREATE TRIGGER leadgen_sync_usage_insert AFTER INSERT ON usage_counters BEGIN
    INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant)
        VALUES (NEW.user_id, NEW.period, NEW.metric, max(NEW.used, 0), NEW.last_grant)
        ON CONFLICT (workspace_id, period, metric) DO UPDATE SET
            used = max(workspace_usage.used + NEW.used, 0),
            last_grant = max(workspace_usage.last_grant, NEW.last_grant);
END;

CREATE TRIGGER leadgen_sync_usage_update AFTER UPDATE ON usage_counters BEGIN
    INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant)
        VALUES (NEW.user_id, NEW.period, NEW.metric, max(NEW.used - OLD.used, 0), NEW.last_grant)
        ON CONFLICT (workspace_id, period, metric) DO UPDATE SET
            used = max(workspace_usage.used + NEW.used - OLD.used, 0),
            last_grant = max(workspace_usage.last_grant, NEW.last_grant);
END;

CREATE TRIGGER leadgen_sync_places_key_upsert AFTER INSERT ON user_secrets
    WHEN NEW.kind = 'places_api_key' BEGIN
    INSERT INTO workspace_secrets (workspace_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
        VALUES (NEW.user_id, NEW.kind, NEW.key_id, NEW.nonce, NEW.ciphertext, NEW.preview, NEW.is_valid, NEW.checked_at, NEW.updated_at)
        ON CONFLICT (workspace_id, kind) DO UPDATE SET
            key_id = excluded.key_id, nonce = excluded.nonce, ciphertext = excluded.ciphertext,
            preview = excluded.preview, is_valid = excluded.is_valid, checked_at = excluded.checked_at,
            updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_places_key_update AFTER UPDATE ON user_secrets
    WHEN NEW.kind = 'places_api_key' BEGIN
    INSERT INTO workspace_secrets (workspace_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
        VALUES (NEW.user_id, NEW.kind, NEW.key_id, NEW.nonce, NEW.ciphertext, NEW.preview, NEW.is_valid, NEW.checked_at, NEW.updated_at)
        ON CONFLICT (workspace_id, kind) DO UPDATE SET
            key_id = excluded.key_id, nonce = excluded.nonce, ciphertext = excluded.ciphertext,
            preview = excluded.preview, is_valid = excluded.is_valid, checked_at = excluded.checked_at,
            updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_places_key_delete AFTER DELETE ON user_secrets
    WHEN OLD.kind = 'places_api_key' BEGIN
    DELETE FROM workspace_secrets WHERE workspace_id = OLD.user_id AND kind = OLD.kind;
END;

CREATE TRIGGER leadgen_sync_billing_customer AFTER INSERT ON billing_customers BEGIN
    INSERT INTO workspace_billing_customers (workspace_id, customer_id, created_at)
        VALUES (NEW.user_id, NEW.customer_id, NEW.created_at)
        ON CONFLICT (workspace_id) DO UPDATE SET customer_id = excluded.customer_id;
END;

CREATE TRIGGER leadgen_sync_subscription_insert AFTER INSERT ON subscriptions BEGIN
    INSERT INTO workspace_subscriptions (workspace_id, subscription_id, status, plan, current_period_end,
            cancel_at_period_end, has_payment_method, updated_at)
        VALUES (NEW.user_id, NEW.subscription_id, NEW.status, NEW.plan, NEW.current_period_end,
            NEW.cancel_at_period_end, NEW.has_payment_method, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            subscription_id = excluded.subscription_id, status = excluded.status, plan = excluded.plan,
            current_period_end = excluded.current_period_end,
            cancel_at_period_end = excluded.cancel_at_period_end,
            has_payment_method = excluded.has_payment_method, updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_subscription_update AFTER UPDATE ON subscriptions BEGIN
    INSERT INTO workspace_subscriptions (workspace_id, subscription_id, status, plan, current_period_end,
            cancel_at_period_end, has_payment_method, updated_at)
        VALUES (NEW.user_id, NEW.subscription_id, NEW.status, NEW.plan, NEW.current_period_end,
            NEW.cancel_at_period_end, NEW.has_payment_method, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            subscription_id = excluded.subscription_id, status = excluded.status, plan = excluded.plan,
            current_period_end = excluded.current_period_end,
            cancel_at_period_end = excluded.cancel_at_period_end,
            has_payment_method = excluded.has_payment_method, updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_delivery_preference_insert AFTER INSERT ON delivery_preferences BEGIN
    INSERT INTO workspace_delivery_preferences (workspace_id, kind, spreadsheet_id, spreadsheet_name, updated_at)
        VALUES (NEW.user_id, NEW.kind, NEW.spreadsheet_id, NEW.spreadsheet_name, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            kind = excluded.kind, spreadsheet_id = excluded.spreadsheet_id,
            spreadsheet_name = excluded.spreadsheet_name, updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_delivery_preference_update AFTER UPDATE ON delivery_preferences BEGIN
    INSERT INTO workspace_delivery_preferences (workspace_id, kind, spreadsheet_id, spreadsheet_name, updated_at)
        VALUES (NEW.user_id, NEW.kind, NEW.spreadsheet_id, NEW.spreadsheet_name, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            kind = excluded.kind, spreadsheet_id = excluded.spreadsheet_id,
            spreadsheet_name = excluded.spreadsheet_name, updated_at = excluded.updated_at;
END;

CREATE TRIGGER leadgen_sync_delivery_preference_delete AFTER DELETE ON delivery_preferences BEGIN
    DELETE FROM workspace_delivery_preferences WHERE workspace_id = OLD.user_id;
END;
