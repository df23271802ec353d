use leadgen_core::{
    session::Claims,
    store::{LoginAttempt, Store},
    time::now_unix,
    user::ProviderIdentity,
};

use crate::both_backends;

pub fn identity(subject: &str) -> ProviderIdentity {
    ProviderIdentity {
        issuer: "https://id.example".into(),
        subject: subject.into(),
        email: format!("{subject}@example.com"),
        name: Some(format!("User {subject}")),
        picture: None,
        email_verified: true,
    }
}

both_backends!(sign_in_creates_then_updates_the_same_user, |store: Store| async move {
    let first = store.upsert_user_on_sign_in(&identity("alice")).await.expect("create");
    assert!(first.is_first_login());
    assert!(first.needs_onboarding());

    let mut changed = identity("alice");
    changed.email = "alice@new.example".into();
    let second = store.upsert_user_on_sign_in(&changed).await.expect("update");
    assert_eq!(second.id, first.id, "same issuer and subject is the same user");
    assert_eq!(second.email, "alice@new.example");
    assert!(!second.is_first_login());

    let mut other_issuer = identity("alice");
    other_issuer.issuer = "https://other.example".into();
    let third = store.upsert_user_on_sign_in(&other_issuer).await.expect("other issuer");
    assert_ne!(third.id, first.id, "the same subject at another issuer is another user");
});

both_backends!(onboarding_is_per_user, |store: Store| async move {
    let a = store.upsert_user_on_sign_in(&identity("a")).await.expect("a");
    let b = store.upsert_user_on_sign_in(&identity("b")).await.expect("b");
    assert!(store.complete_onboarding(&a.id).await.expect("complete"));
    assert!(!store.user(&a.id).await.expect("a").expect("a").needs_onboarding());
    assert!(store.user(&b.id).await.expect("b").expect("b").needs_onboarding());
    assert!(!store.complete_onboarding(&"no-such-user".into()).await.expect("none"));
});

both_backends!(
    sessions_are_active_until_revoked_or_expired,
    |store: Store| async move {
        let user = store.upsert_user_on_sign_in(&identity("s")).await.expect("user");
        let other = store.upsert_user_on_sign_in(&identity("t")).await.expect("user");
        let now = now_unix();
        let claims = Claims {
            sub: user.id.to_string(),
            jti: "j1".into(),
            iat: now,
            exp: now + 600,
            iss: "leadgen".into(),
        };
        store.create_session(&claims).await.expect("create");
        let live = store.user_of_active_session(&user.id, "j1").await.expect("active");
        assert_eq!(live.map(|u| u.id), Some(user.id.clone()), "the live session's user");
        assert!(
            store
                .user_of_active_session(&other.id, "j1")
                .await
                .expect("other user")
                .is_none(),
            "a jti is bound to its user"
        );
        assert!(
            !store.revoke_session(&other.id, "j1").await.expect("revoke as other"),
            "others cannot revoke it"
        );
        assert!(store.revoke_session(&user.id, "j1").await.expect("revoke"));
        assert!(
            store
                .user_of_active_session(&user.id, "j1")
                .await
                .expect("revoked")
                .is_none()
        );

        let expired = Claims {
            jti: "j2".into(),
            iat: now - 900,
            exp: now - 1,
            ..claims
        };
        store.create_session(&expired).await.expect("create expired");
        assert!(
            store
                .user_of_active_session(&user.id, "j2")
                .await
                .expect("expired")
                .is_none()
        );
    }
);

both_backends!(login_attempts_are_single_use, |store: Store| async move {
    let attempt = LoginAttempt {
        state: "state-1".into(),
        pkce_verifier: "verifier".into(),
        nonce: "nonce".into(),
        feature: Some("sheets".into()),
        created_at: now_unix(),
    };
    store.save_login_attempt(&attempt).await.expect("save");
    assert_eq!(store.take_login_attempt("state-1").await.expect("take"), Some(attempt));
    assert_eq!(store.take_login_attempt("state-1").await.expect("again"), None);

    let stale = LoginAttempt {
        state: "old".into(),
        pkce_verifier: "v".into(),
        nonce: "n".into(),
        feature: None,
        created_at: now_unix() - 3600,
    };
    store.save_login_attempt(&stale).await.expect("save stale");
    assert_eq!(
        store.take_login_attempt("old").await.expect("take stale"),
        None,
        "expired attempts are refused"
    );
});
