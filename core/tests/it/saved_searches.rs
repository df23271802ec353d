//! Saved searches in the store (issue #29): CRUD scoped to a workspace, the per-workspace
//! cap, and the conditional claim that lets exactly one of several schedulers start a due
//! run, on both stores.

use futures_util::future::join_all;
use leadgen_core::{
    ids::{SavedSearchId, SearchId, WorkspaceId},
    store::{SavedSearchFields, SearchRecord, Store},
};

use crate::{both_backends, store::identity};

fn fields(name: &str, next_run_at: Option<i64>) -> SavedSearchFields<'_> {
    SavedSearchFields {
        name,
        request: r#"{"businessType":"dentist","location":"Houston, TX"}"#,
        search: r#"{"business_type":"dentist","location":"Houston, TX"}"#,
        client: None,
        schedule: next_run_at.map(|_| ("* * * * *", "UTC")),
        only_new: true,
        delivery: r#"{"webhook":true}"#,
        paused: false,
        next_run_at,
    }
}

both_backends!(saved_searches_are_kept_per_workspace, |store: Store| async move {
    let jane = store.upsert_user_on_sign_in(&identity("jane")).await.expect("user");
    let omar = store.upsert_user_on_sign_in(&identity("omar")).await.expect("user");
    let (ws, other) = (WorkspaceId::personal(&jane.id), WorkspaceId::personal(&omar.id));
    let first = store
        .create_saved_search(&ws, &jane.id, &fields("Dentists", Some(1_000)))
        .await
        .expect("create");
    assert_eq!(first.name, "Dentists");
    assert_eq!((first.only_new, first.paused, first.next_run_at), (1, 0, Some(1_000)));
    assert_eq!(first.cron.as_deref(), Some("* * * * *"));
    assert_eq!(first.created_by.as_ref(), Some(&jane.id));
    let second = store
        .create_saved_search(&ws, &jane.id, &fields("Plumbers", None))
        .await
        .expect("create");
    let listed: Vec<_> = store
        .list_saved_searches(&ws)
        .await
        .expect("list")
        .into_iter()
        .map(|s| s.name)
        .collect();
    assert_eq!(listed, ["Plumbers", "Dentists"], "newest first");
    // Another workspace sees none of them, reads none, changes none, deletes none.
    assert!(store.list_saved_searches(&other).await.expect("list").is_empty());
    assert_eq!(store.saved_search(&other, &first.id).await.expect("get"), None);
    assert_eq!(
        store
            .update_saved_search(&other, &first.id, &fields("Hijacked", None))
            .await
            .expect("update"),
        None
    );
    assert!(!store.delete_saved_search(&other, &first.id).await.expect("delete"));

    let mut changed = fields("Dentists, weekly", None);
    changed.paused = true;
    let updated = store
        .update_saved_search(&ws, &first.id, &changed)
        .await
        .expect("update")
        .expect("found");
    assert_eq!(updated.name, "Dentists, weekly");
    assert_eq!((updated.paused, updated.next_run_at, updated.cron), (1, None, None));

    assert!(store.delete_saved_search(&ws, &second.id).await.expect("delete"));
    assert_eq!(store.saved_search(&ws, &second.id).await.expect("get"), None);
    assert!(!store.delete_saved_search(&ws, &second.id).await.expect("again"));
});

both_backends!(
    a_due_run_is_claimed_once_by_racing_schedulers,
    |store: Store| async move {
        let jane = store.upsert_user_on_sign_in(&identity("racer")).await.expect("user");
        let ws = WorkspaceId::personal(&jane.id);
        let saved = store
            .create_saved_search(&ws, &jane.id, &fields("Due", Some(1_000)))
            .await
            .expect("create");
        let not_yet = store
            .create_saved_search(&ws, &jane.id, &fields("Later", Some(5_000)))
            .await
            .expect("create");
        let due = store.due_saved_searches(2_000, 100).await.expect("due");
        assert_eq!(due.iter().map(|s| &s.id).collect::<Vec<_>>(), [&saved.id]);
        // The scheduler's health gauge: the due one is 1,000 s overdue; before it was due,
        // nothing is.
        assert_eq!(store.saved_search_overdue_secs(2_000).await.expect("overdue"), 1_000);
        assert_eq!(store.saved_search_overdue_secs(999).await.expect("overdue"), 0);
        assert!(!due.iter().any(|s| s.id == not_yet.id));

        // Sixteen schedulers read the same due value and claim at once: one wins.
        let claims = join_all((0..16).map(|_| store.claim_saved_run(&saved.id, 1_000, Some(2_060)))).await;
        let won = claims.into_iter().map(|c| c.expect("claim")).filter(|won| *won).count();
        assert_eq!(won, 1, "exactly one claim of a due run succeeds");
        let after = store.saved_search(&ws, &saved.id).await.expect("get").expect("found");
        assert_eq!(after.next_run_at, Some(2_060));
        assert!(store.due_saved_searches(2_000, 100).await.expect("due").is_empty());
        assert_eq!(
            store.saved_search_overdue_secs(2_000).await.expect("overdue"),
            0,
            "claimed: none overdue"
        );
        // A paused saved search is never claimed.
        let mut paused = fields("Paused", Some(1_000));
        paused.paused = true;
        let paused = store.create_saved_search(&ws, &jane.id, &paused).await.expect("create");
        assert!(
            !store
                .claim_saved_run(&paused.id, 1_000, Some(2_060))
                .await
                .expect("claim")
        );
        assert!(store.due_saved_searches(2_000, 100).await.expect("due").is_empty());
    }
);

both_backends!(a_run_links_its_search_to_the_saved_search, |store: Store| async move {
    let jane = store.upsert_user_on_sign_in(&identity("linker")).await.expect("user");
    let ws = WorkspaceId::personal(&jane.id);
    let saved = store
        .create_saved_search(&ws, &jane.id, &fields("Linked", None))
        .await
        .expect("create");
    let search_id = SearchId::random();
    store
        .create_search(&SearchRecord {
            id: search_id.clone(),
            user_id: jane.id.clone(),
            workspace_id: ws.clone(),
            business_type: "dentist".into(),
            status: "queued".into(),
            lead_budget: 10,
            leads_delivered: None,
            day: "2026-11-27".into(),
            month: "2026-11".into(),
        })
        .await
        .expect("search");
    store
        .record_saved_run(&ws, &saved.id, &search_id)
        .await
        .expect("record");
    let after = store.saved_search(&ws, &saved.id).await.expect("get").expect("found");
    assert_eq!(after.last_search_id.as_ref(), Some(&search_id));
    assert!(after.last_run_at.is_some());
    assert_eq!(
        store.saved_search_runs(&ws, &saved.id, 10).await.expect("runs"),
        std::slice::from_ref(&search_id)
    );
    // Another saved search has no runs; deleting this one keeps its run in the history.
    assert!(
        store
            .saved_search_runs(&ws, &SavedSearchId::random(), 10)
            .await
            .expect("runs")
            .is_empty()
    );
    assert!(store.delete_saved_search(&ws, &saved.id).await.expect("delete"));
    assert!(store.search_summary(&ws, &search_id).await.expect("summary").is_some());
});
