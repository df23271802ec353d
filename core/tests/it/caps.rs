//! Per-user caps and limits hold under concurrency (issue #25): many creates at once, on
//! both stores, and exactly the cap succeed (counting first and inserting after let every
//! request of a burst see the same count and pass); test events are counted fleet-wide.

use futures_util::future::join_all;
use leadgen_core::{
    CoreError,
    ids::WorkspaceId,
    personal_tokens::{self, MAX_TOKENS_PER_USER, Scopes},
    store::Store,
    vault::Sealed,
    webhooks::{EventType, MAX_ENDPOINTS_PER_USER},
};

use crate::{both_backends, store::identity};

/// More than any cap: the burst fired at once.
const BURST: usize = 80;

/// How many of `results` succeeded; every failure must be the cap's refusal.
fn successes<T: std::fmt::Debug>(results: Vec<Result<T, CoreError>>) -> usize {
    let mut ok = 0;
    for result in results {
        match result {
            Ok(_) => ok += 1,
            Err(CoreError::Invalid(message)) => assert!(message.contains("already"), "{message}"),
            Err(other) => panic!("only the cap may refuse a create: {other:?}"),
        }
    }
    ok
}

both_backends!(token_cap_holds_under_a_burst, |store: Store| async move {
    let user = store.upsert_user_on_sign_in(&identity("burst")).await.expect("user");
    let scopes = Scopes::parse(&["usage:read"]).expect("scopes");
    let workspace = WorkspaceId::personal(&user.id);
    let tokens: Vec<_> = (0..BURST)
        .map(|i| (format!("t{i}"), personal_tokens::generate()))
        .collect();
    let creates = tokens
        .iter()
        .map(|(name, token)| store.create_token(&user.id, &workspace, name, token, &scopes, None));
    let created = successes(join_all(creates).await);
    let cap = usize::try_from(MAX_TOKENS_PER_USER).expect("cap");
    assert!(BURST > cap);
    assert_eq!(created, cap, "exactly the cap succeeds");
    assert_eq!(
        store
            .list_tokens(&WorkspaceId::personal(&user.id), Some(&user.id))
            .await
            .expect("list")
            .len(),
        cap
    );

    // Another user's cap is their own.
    let other = store.upsert_user_on_sign_in(&identity("other")).await.expect("user");
    store
        .create_token(
            &other.id,
            &WorkspaceId::personal(&other.id),
            "mine",
            &personal_tokens::generate(),
            &scopes,
            None,
        )
        .await
        .expect("another user's first token");
});

both_backends!(webhook_endpoint_cap_holds_under_a_burst, |store: Store| async move {
    let user = store.upsert_user_on_sign_in(&identity("burst")).await.expect("user");
    let sealed = Sealed {
        key_id: "k1".into(),
        nonce: vec![0; 12],
        ciphertext: vec![1; 48],
    };
    let workspace = WorkspaceId::personal(&user.id);
    let urls: Vec<String> = (0..BURST).map(|i| format!("https://hooks.example.com/{i}")).collect();
    let creates = urls
        .iter()
        .map(|url| store.create_webhook(&workspace, &user.id, url, &[EventType::SearchCompleted], &sealed));
    let created = successes(join_all(creates).await);
    let cap = usize::try_from(MAX_ENDPOINTS_PER_USER).expect("cap");
    assert_eq!(created, cap, "exactly the cap succeeds");
    assert_eq!(
        store
            .list_webhooks(&WorkspaceId::personal(&user.id))
            .await
            .expect("list")
            .len(),
        cap
    );
});

/// Distributed mode: the test-event limit is counted in Redis, so API replicas share it
/// (one replica's count is not a budget of its own).
#[tokio::test]
async fn the_test_event_limit_is_shared_by_replicas() {
    use leadgen_core::webhooks::{TEST_EVENT_WINDOW, TEST_EVENTS_PER_WINDOW, TestEventLimit};

    let prefix = format!("leadgen-test-{}", uuid::Uuid::new_v4().simple());
    let mut replicas = Vec::new();
    for _ in 0..2 {
        let client = redis::Client::open(leadgen_testkit::db::redis_url()).expect("client");
        let conn = redis::aio::ConnectionManager::new(client).await.expect("redis");
        replicas.push(TestEventLimit::redis(conn, &prefix));
    }
    let ada = leadgen_core::ids::UserId::from("ada");
    for n in 0..TEST_EVENTS_PER_WINDOW {
        let replica = &replicas[n as usize % 2];
        assert_eq!(replica.take(&ada).await.expect("count"), None, "event {n}");
    }
    for replica in &replicas {
        let wait = replica.take(&ada).await.expect("count").expect("over the limit");
        assert!(wait > TEST_EVENT_WINDOW / 2 && wait <= TEST_EVENT_WINDOW, "{wait:?}");
    }
    let bob = leadgen_core::ids::UserId::from("bob");
    assert_eq!(replicas[1].take(&bob).await.expect("count"), None, "per user");
}
