-- While a rolling upgrade to workspaces (0011) runs, the previous release's pods still
-- write the per-user tables: a user signing in, usage counted and released, a Places key
-- saved or removed, a subscription or delivery choice changed. These triggers carry each
-- such write into the workspace tables the new release reads, so nothing written during
-- the rollout is lost to it (the upgrade test, api/tests/it/ops/upgrade.rs, rolls a
-- release with searches in flight over this). The new release never writes the per-user
-- tables, so the triggers fire only for the old one's writes. A later release drops them
-- with the per-user tables, in a contract step (docs/operations.md, "Upgrades and restores").

-- A user the old release signs in gets the personal workspace the new one would make.
CREATE FUNCTION leadgen_sync_user_workspace() RETURNS trigger AS $$
BEGIN
    INSERT INTO workspaces (id, name, personal_of, created_at)
        VALUES (NEW.id, 'Personal', NEW.id, NEW.created_at) ON CONFLICT DO NOTHING;
    INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
        VALUES (NEW.id, NEW.id, 'owner', NEW.created_at) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_user_workspace AFTER INSERT ON users
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_user_workspace();

-- Usage: the old release adds to and takes from a counter; the same change is applied to
-- the personal workspace's counter (never below zero).
CREATE FUNCTION leadgen_sync_usage() RETURNS trigger AS $$
DECLARE
    change BIGINT := NEW.used - CASE WHEN TG_OP = 'UPDATE' THEN OLD.used ELSE 0 END;
BEGIN
    INSERT INTO workspace_usage (workspace_id, period, metric, used, last_grant)
        VALUES (NEW.user_id, NEW.period, NEW.metric, GREATEST(change, 0), NEW.last_grant)
        ON CONFLICT (workspace_id, period, metric) DO UPDATE SET
            used = GREATEST(workspace_usage.used + change, 0),
            last_grant = GREATEST(workspace_usage.last_grant, NEW.last_grant);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_usage AFTER INSERT OR UPDATE ON usage_counters
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_usage();

-- The Places key (the only secret that moved; Google links stay personal).
CREATE FUNCTION leadgen_sync_places_key() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.kind = 'places_api_key' THEN
            DELETE FROM workspace_secrets WHERE workspace_id = OLD.user_id AND kind = OLD.kind;
        END IF;
        RETURN NULL;
    END IF;
    IF NEW.kind = 'places_api_key' THEN
        INSERT INTO workspace_secrets (workspace_id, kind, key_id, nonce, ciphertext, preview, is_valid, checked_at, updated_at)
            VALUES (NEW.user_id, NEW.kind, NEW.key_id, NEW.nonce, NEW.ciphertext, NEW.preview, NEW.is_valid, NEW.checked_at, NEW.updated_at)
            ON CONFLICT (workspace_id, kind) DO UPDATE SET
                key_id = excluded.key_id, nonce = excluded.nonce, ciphertext = excluded.ciphertext,
                preview = excluded.preview, is_valid = excluded.is_valid, checked_at = excluded.checked_at,
                updated_at = excluded.updated_at;
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_places_key AFTER INSERT OR UPDATE OR DELETE ON user_secrets
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_places_key();

CREATE FUNCTION leadgen_sync_billing_customer() RETURNS trigger AS $$
BEGIN
    INSERT INTO workspace_billing_customers (workspace_id, customer_id, created_at)
        VALUES (NEW.user_id, NEW.customer_id, NEW.created_at)
        ON CONFLICT (workspace_id) DO UPDATE SET customer_id = excluded.customer_id;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_billing_customer AFTER INSERT OR UPDATE ON billing_customers
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_billing_customer();

CREATE FUNCTION leadgen_sync_subscription() RETURNS trigger AS $$
BEGIN
    INSERT INTO workspace_subscriptions (workspace_id, subscription_id, status, plan, current_period_end,
            cancel_at_period_end, has_payment_method, updated_at)
        VALUES (NEW.user_id, NEW.subscription_id, NEW.status, NEW.plan, NEW.current_period_end,
            NEW.cancel_at_period_end, NEW.has_payment_method, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            subscription_id = excluded.subscription_id, status = excluded.status, plan = excluded.plan,
            current_period_end = excluded.current_period_end,
            cancel_at_period_end = excluded.cancel_at_period_end,
            has_payment_method = excluded.has_payment_method, updated_at = excluded.updated_at;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_subscription AFTER INSERT OR UPDATE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_subscription();

CREATE FUNCTION leadgen_sync_delivery_preference() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM workspace_delivery_preferences WHERE workspace_id = OLD.user_id;
        RETURN NULL;
    END IF;
    INSERT INTO workspace_delivery_preferences (workspace_id, kind, spreadsheet_id, spreadsheet_name, updated_at)
        VALUES (NEW.user_id, NEW.kind, NEW.spreadsheet_id, NEW.spreadsheet_name, NEW.updated_at)
        ON CONFLICT (workspace_id) DO UPDATE SET
            kind = excluded.kind, spreadsheet_id = excluded.spreadsheet_id,
            spreadsheet_name = excluded.spreadsheet_name, updated_at = excluded.updated_at;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER leadgen_sync_delivery_preference AFTER INSERT OR UPDATE OR DELETE ON delivery_preferences
    FOR EACH ROW EXECUTE FUNCTION leadgen_sync_delivery_preference();
