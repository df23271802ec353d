//! Workspaces (issue #28): the migration that moves every user's data into their personal
//! workspace, on a copy of a populated database of each store, and the last-owner rule
//! under concurrent changes.

use leadgen_core::{
    ids::{SearchId, UserId, WorkspaceId},
    store::{HistoryQuery, MemberChange, SecretKind, SecretOwner, Store},
    workspace::Role,
};
use leadgen_testkit::db::TestDatabase;
use sqlx::{AnyPool, Executor};

use crate::{both_backends, store::identity};

/// The last migration before workspaces.
const BEFORE_WORKSPACES: i64 = 10;

/// Tables the migration copies (old, new) and the rows both should hold.
const COPIED: &[(&str, &str)] = &[
    ("usage_counters", "workspace_usage"),
    ("billing_customers", "workspace_billing_customers"),
    ("subscriptions", "workspace_subscriptions"),
    ("delivery_preferences", "workspace_delivery_preferences"),
];

/// Tables that gain a `workspace_id` column.
const KEYED: &[&str] = &["searches", "personal_tokens", "webhook_endpoints", "webhook_deliveries"];

/// Every table the release before workspaces had.
const OLD_TABLES: &[&str] = &[
    "users",
    "user_secrets",
    "sessions",
    "usage_counters",
    "searches",
    "user_sheets",
    "billing_customers",
    "subscriptions",
    "billing_events",
    "personal_tokens",
    "webhook_endpoints",
    "webhook_deliveries",
    "delivery_preferences",
];

/// Writes, as the release before workspaces would have, two users' worth of every kind
/// of row.
async fn populate(pool: &AnyPool, users: &[&str], postgres: bool) {
    // A byte string literal in each dialect.
    let bytes = |hex: &str| {
        if postgres {
            format!("'\\x{hex}'::bytea")
        } else {
            format!("x'{hex}'")
        }
    };
    let (b0, b1, b2, b3, b4, b5) = (
        bytes("00"),
        bytes("01"),
        bytes("02"),
        bytes("03"),
        bytes("04"),
        bytes("05"),
    );
    for (n, user) in users.iter().enumerate() {
        let statements = [
            format!(
                "INSERT INTO users (id, issuer, subject, email, onboarded, login_count, created_at, updated_at)
                 VALUES ('{user}', 'https://id.example', 'sub-{user}', '{user}@example.com', 1, 3, 1000, 1000)"
            ),
            format!(
                "INSERT INTO user_secrets (user_id, kind, key_id, nonce, ciphertext, preview, updated_at)
                 VALUES ('{user}', 'places_api_key', 'k1', {b0}, {b1}, 'AIza••••{n}', 1000)"
            ),
            format!(
                "INSERT INTO user_secrets (user_id, kind, key_id, nonce, ciphertext, preview, updated_at)
                 VALUES ('{user}', 'google_refresh_token', 'k1', {b2}, {b3}, '1//0••••', 1000)"
            ),
            format!("INSERT INTO sessions (jti, user_id, issued_at, expires_at) VALUES ('j-{user}', '{user}', 1, 99999999999)"),
            format!(
                "INSERT INTO usage_counters (user_id, period, metric, used) VALUES ('{user}', '2026-11', 'searches', {})",
                n + 4
            ),
            format!("INSERT INTO usage_counters (user_id, period, metric, used) VALUES ('{user}', '2026-11', 'leads', 120)"),
            format!(
                "INSERT INTO searches (id, user_id, business_type, status, lead_budget, leads_delivered, day, month, created_at, finished_at)
                 VALUES ('s-{user}', '{user}', 'cafe', 'complete', 60, 12, '2026-11-20', '2026-11', 1000, 1010)"
            ),
            format!(
                "INSERT INTO user_sheets (user_id, spreadsheet_id, name, origin, added_at) VALUES ('{user}', 'sheet-{user}', 'Leads', 'created', 1000)"
            ),
            format!("INSERT INTO billing_customers (user_id, customer_id, created_at) VALUES ('{user}', 'cus_{user}', 1000)"),
            format!(
                "INSERT INTO subscriptions (user_id, subscription_id, status, plan, updated_at) VALUES ('{user}', 'sub_{user}', 'active', 'monthly', 1000)"
            ),
            format!(
                "INSERT INTO personal_tokens (id, user_id, name, prefix, token_hash, scopes, created_at)
                 VALUES ('t-{user}', '{user}', 'crm', 'lgp_{n}', 'hash-{user}', 'usage:read', 1000)"
            ),
            format!(
                "INSERT INTO webhook_endpoints (id, user_id, url, events, key_id, nonce, ciphertext, created_at, updated_at)
                 VALUES ('e-{user}', '{user}', 'https://hooks.example.com/{user}', 'search.completed', 'k1', {b4}, {b5}, 1000, 1000)"
            ),
            format!(
                "INSERT INTO webhook_deliveries (id, endpoint_id, user_id, message_id, event_type, attempt, latency_ms, succeeded, created_at)
                 VALUES ('d-{user}', 'e-{user}', '{user}', 'msg', 'search.completed', 1, 40, 1, 1000)"
            ),
            format!(
                "INSERT INTO delivery_preferences (user_id, kind, updated_at) VALUES ('{user}', 'email', 1000)"
            ),
        ];
        for statement in statements {
            pool.execute(sqlx::AssertSqlSafe(statement.as_str()))
                .await
                .unwrap_or_else(|e| panic!("{statement}: {e}"));
        }
    }
    pool.execute("INSERT INTO billing_events (event_id, event_type, received_at) VALUES ('evt_1', 'x', 1)")
        .await
        .expect("event");
}

async fn count(pool: &AnyPool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_owned()))
        .fetch_one(pool)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn migrates_a_populated_database(db: TestDatabase) {
    sqlx::any::install_default_drivers();
    let postgres = db.url.starts_with("postgres");
    let pool = AnyPool::connect(&db.url).await.expect("connect");
    let mut old = if postgres {
        sqlx::migrate!("../migrations/postgres")
    } else {
        sqlx::migrate!("../migrations/sqlite")
    };
    old.set_ignore_missing(true);
    old.run_to(BEFORE_WORKSPACES, &pool).await.expect("the release before");
    let users = [
        "0b0e5c1a-0000-4000-8000-00000000000a",
        "0b0e5c1a-0000-4000-8000-00000000000b",
    ];
    populate(&pool, &users, postgres).await;
    let mut before = Vec::new();
    for table in OLD_TABLES {
        before.push(count(&pool, &format!("SELECT COUNT(*) FROM {table}")).await);
    }

    let store = Store::connect(&db.url).await.expect("store");
    store.migrate().await.expect("workspaces migration");

    for (table, rows) in OLD_TABLES.iter().zip(&before) {
        assert_eq!(
            count(&pool, &format!("SELECT COUNT(*) FROM {table}")).await,
            *rows,
            "{table} keeps every row"
        );
    }
    // One personal workspace per user, its id the user's, its owner the user.
    assert_eq!(
        count(&pool, "SELECT COUNT(*) FROM workspaces WHERE id = personal_of").await,
        2
    );
    assert_eq!(
        count(
            &pool,
            "SELECT COUNT(*) FROM workspace_members WHERE workspace_id = user_id AND role = 'owner'"
        )
        .await,
        2
    );
    for table in KEYED {
        assert_eq!(
            count(
                &pool,
                &format!("SELECT COUNT(*) FROM {table} WHERE workspace_id IS NULL OR workspace_id <> user_id")
            )
            .await,
            0,
            "every {table} row is in its user's personal workspace"
        );
    }
    for (old, new) in COPIED {
        assert_eq!(
            count(&pool, &format!("SELECT COUNT(*) FROM {new}")).await,
            count(&pool, &format!("SELECT COUNT(*) FROM {old}")).await,
            "{new} holds every row of {old}"
        );
        assert_eq!(
            count(
                &pool,
                &format!("SELECT COUNT(*) FROM {new} WHERE workspace_id IN (SELECT user_id FROM {old})")
            )
            .await,
            count(&pool, &format!("SELECT COUNT(*) FROM {old}")).await,
            "each row of {new} is its user's personal workspace's"
        );
    }
    assert_eq!(
        count(&pool, "SELECT COUNT(*) FROM workspace_secrets WHERE workspace_id IN (SELECT id FROM users) AND kind = 'places_api_key'").await,
        2,
        "the Places keys move to the workspaces"
    );
    assert_eq!(
        count(
            &pool,
            "SELECT COUNT(*) FROM workspace_secrets WHERE kind <> 'places_api_key'"
        )
        .await,
        0,
        "the Google grant stays personal"
    );

    // And the new release reads them there, through the store.
    for (n, user) in users.iter().enumerate() {
        let user = UserId::from(*user);
        let personal = WorkspaceId::personal(&user);
        let listed = store.list_workspaces(&user).await.expect("list");
        assert_eq!(listed.len(), 1);
        assert!(listed[0].personal && listed[0].role == Role::Owner && listed[0].id == personal);
        let history = store
            .search_history(
                &personal,
                &HistoryQuery {
                    limit: 10,
                    ..HistoryQuery::default()
                },
            )
            .await
            .expect("history");
        assert_eq!(history.len(), 1);
        assert_eq!(history[0].id, SearchId::from(format!("s-{user}")));
        let key = store
            .secret(&SecretOwner::Workspace(personal.clone()), SecretKind::PlacesApiKey)
            .await
            .expect("key")
            .expect("the key is the workspace's");
        assert_eq!(key.preview, format!("AIza••••{n}"));
        assert!(
            store
                .secret(&SecretOwner::User(user.clone()), SecretKind::GoogleRefreshToken)
                .await
                .expect("grant")
                .is_some()
        );
        assert_eq!(
            store.usage_used(&personal, "2026-11", "searches").await.expect("usage"),
            i64::try_from(n + 4).expect("small")
        );
        assert!(store.subscription(&personal).await.expect("plan").is_some());
        assert_eq!(
            store.list_tokens(&personal, Some(&user)).await.expect("tokens").len(),
            1
        );
        assert_eq!(store.list_webhooks(&personal).await.expect("hooks").len(), 1);
        assert!(store.delivery_preference(&personal).await.expect("delivery").is_some());
    }

    // A row the previous release writes during the rollout (no workspace) is in its
    // user's personal workspace by the same rule.
    let user = users[0];
    pool.execute(sqlx::AssertSqlSafe(format!(
        "INSERT INTO searches (id, user_id, business_type, status, lead_budget, day, month, created_at)
         VALUES ('s-late', '{user}', 'cafe', 'queued', 60, '2026-11-21', '2026-11', 2000)"
    )))
    .await
    .expect("an old release's search");
    let personal = WorkspaceId::personal(&UserId::from(user));
    let history = store
        .search_history(
            &personal,
            &HistoryQuery {
                limit: 10,
                ..HistoryQuery::default()
            },
        )
        .await
        .expect("history");
    assert_eq!(history.first().map(|s| s.id.as_str()), Some("s-late"));
    // Migrating again changes nothing.
    store.migrate().await.expect("again");
    assert_eq!(count(&pool, "SELECT COUNT(*) FROM workspaces").await, 2);
    store.close().await;
    pool.close().await;
}

#[tokio::test]
async fn a_populated_sqlite_database_moves_into_personal_workspaces() {
    migrates_a_populated_database(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn a_populated_postgres_database_moves_into_personal_workspaces() {
    migrates_a_populated_database(TestDatabase::postgres().await).await;
}

both_backends!(
    owners_demoting_and_removing_each_other_leave_an_owner,
    |store: Store| async move {
        let a = store.upsert_user_on_sign_in(&identity("owner-a")).await.expect("a").id;
        let b = store.upsert_user_on_sign_in(&identity("owner-b")).await.expect("b").id;
        for round in 0..8 {
            let team = store
                .create_workspace(&a, &format!("team {round}"))
                .await
                .expect("team")
                .id;
            assert!(store.add_member(&team, &b, Role::Owner).await.expect("b joins"));
            // Each demotes the other (even rounds) or removes the other (odd rounds), at
            // the same moment.
            let (one, two) = if round % 2 == 0 {
                let (x, y) = tokio::join!(
                    store.set_member_role(&team, &b, Role::Member),
                    store.set_member_role(&team, &a, Role::Admin)
                );
                (x.expect("a's change"), y.expect("b's change"))
            } else {
                let (x, y) = tokio::join!(store.remove_member(&team, &b), store.remove_member(&team, &a));
                (x.expect("a's change").change, y.expect("b's change").change)
            };
            let owners = store
                .list_members(&team)
                .await
                .expect("members")
                .into_iter()
                .filter(|m| m.role == Role::Owner)
                .count();
            assert_eq!(owners, 1, "round {round}: one owner left ({one:?}, {two:?})");
            assert!(
                [one, two].contains(&MemberChange::Done) && [one, two].contains(&MemberChange::LastOwner),
                "round {round}: one change went through, the other was refused: {one:?}, {two:?}"
            );
        }
        // The last owner can neither leave nor be demoted.
        let solo = store.create_workspace(&a, "solo").await.expect("solo").id;
        assert_eq!(
            store.remove_member(&solo, &a).await.expect("leave").change,
            MemberChange::LastOwner
        );
        assert_eq!(
            store.set_member_role(&solo, &a, Role::Member).await.expect("demote"),
            MemberChange::LastOwner
        );
        // A personal workspace cannot be deleted; a shared one can, with what it holds.
        assert!(
            !store
                .delete_workspace(&WorkspaceId::personal(&a))
                .await
                .expect("personal")
        );
        assert!(store.delete_workspace(&solo).await.expect("shared"));
        assert!(store.member_role(&solo, &a).await.expect("role").is_none());
    }
);
