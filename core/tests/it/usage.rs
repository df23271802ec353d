use leadgen_core::{
    ids::WorkspaceId,
    search::SearchStatus,
    store::Store,
    usage::{Tier, TierLimits, UsageDenied, UsageLimits, UsageService, periods},
};

use crate::{both_backends, store::identity};

fn limits(monthly: i64, daily: Option<i64>) -> UsageLimits {
    let tier = TierLimits {
        monthly_searches: monthly,
        daily_leads: daily,
    };
    UsageLimits { free: tier, pro: tier }
}

both_backends!(
    concurrent_searches_near_the_limit_never_exceed_it,
    |store: Store| async move {
        let user = store.upsert_user_on_sign_in(&identity("busy")).await.expect("user").id;
        // 7 searches left this month; 50 try at once.
        let usage = UsageService::new(store.clone(), limits(7, None));
        let month = periods(chrono::Utc::now()).month;
        store
            .grant_usage(&WorkspaceId::personal(&user), &month, "searches", 0, 7)
            .await
            .expect("row");
        let mut tasks = Vec::new();
        for _ in 0..50 {
            let (usage, user) = (usage.clone(), user.clone());
            tasks.push(tokio::spawn(async move {
                usage
                    .reserve(&WorkspaceId::personal(&user), &user, Tier::Free, "cafe")
                    .await
            }));
        }
        let mut granted = 0;
        let mut denied = 0;
        for t in tasks {
            match t.await.expect("join").expect("store") {
                Ok(_) => granted += 1,
                Err(UsageDenied::MonthlySearches { limit: 7, .. }) => denied += 1,
                Err(other) => panic!("unexpected denial {other:?}"),
            }
        }
        assert_eq!((granted, denied), (7, 43));
        assert_eq!(
            store
                .usage_used(&WorkspaceId::personal(&user), &month, "searches")
                .await
                .expect("used"),
            7
        );
    }
);

both_backends!(
    daily_leads_are_shared_out_without_overdraft,
    |store: Store| async move {
        let user = store.upsert_user_on_sign_in(&identity("leads")).await.expect("user").id;
        // 100 leads a day: a search reserves up to 60, so the second gets 40, the third none.
        let usage = UsageService::new(store.clone(), limits(1000, Some(100)));
        let first = usage
            .reserve(&WorkspaceId::personal(&user), &user, Tier::Free, "cafe")
            .await
            .expect("store")
            .expect("granted");
        let second = usage
            .reserve(&WorkspaceId::personal(&user), &user, Tier::Free, "cafe")
            .await
            .expect("store")
            .expect("granted");
        assert_eq!((first.lead_budget, second.lead_budget), (60, 40));
        let third = usage
            .reserve(&WorkspaceId::personal(&user), &user, Tier::Free, "cafe")
            .await
            .expect("store");
        assert_eq!(third, Err(UsageDenied::DailyLeads { limit: 100 }));
        let month = periods(chrono::Utc::now()).month;
        assert_eq!(
            store
                .usage_used(&WorkspaceId::personal(&user), &month, "searches")
                .await
                .expect("used"),
            2,
            "a denied search is given back"
        );

        // The first search delivered 12 leads: 48 come back, once, however often it settles.
        assert!(
            store
                .settle_search(
                    &WorkspaceId::personal(&user),
                    &first.search_id,
                    SearchStatus::Complete,
                    12
                )
                .await
                .expect("settle")
        );
        assert!(
            !store
                .settle_search(
                    &WorkspaceId::personal(&user),
                    &first.search_id,
                    SearchStatus::Complete,
                    12
                )
                .await
                .expect("again")
        );
        let p = periods(chrono::Utc::now());
        assert_eq!(
            store
                .usage_used(&WorkspaceId::personal(&user), &p.day, "leads")
                .await
                .expect("day"),
            52
        );
        assert_eq!(
            store
                .usage_used(&WorkspaceId::personal(&user), &p.month, "leads")
                .await
                .expect("month"),
            12
        );
        let record = store
            .search_record(&WorkspaceId::personal(&user), &first.search_id)
            .await
            .expect("read")
            .expect("some");
        assert_eq!((record.status.as_str(), record.leads_delivered), ("complete", Some(12)));
        let other = store.upsert_user_on_sign_in(&identity("other")).await.expect("user").id;
        assert!(
            store
                .search_record(&WorkspaceId::personal(&other), &first.search_id)
                .await
                .expect("read")
                .is_none(),
            "scoped to its owner"
        );
        assert!(
            !store
                .settle_search(
                    &WorkspaceId::personal(&other),
                    &second.search_id,
                    SearchStatus::Complete,
                    0
                )
                .await
                .expect("other"),
            "nor settled by another user"
        );
    }
);

both_backends!(the_report_has_the_specs_shape_and_levels, |store: Store| async move {
    let user = store
        .upsert_user_on_sign_in(&identity("report"))
        .await
        .expect("user")
        .id;
    let usage = UsageService::new(store.clone(), limits(20, Some(1000)));
    for (searches, approaching, near, over) in [
        (14, false, false, false),
        (15, true, false, false),
        (18, false, true, false),
        (20, false, false, true),
    ] {
        let month = periods(chrono::Utc::now()).month;
        let used = store
            .usage_used(&WorkspaceId::personal(&user), &month, "searches")
            .await
            .expect("used");
        store
            .grant_usage(&WorkspaceId::personal(&user), &month, "searches", searches - used, 20)
            .await
            .expect("grant");
        let report = usage
            .report(&WorkspaceId::personal(&user), Tier::Free, None)
            .await
            .expect("report");
        assert_eq!(report.usage.current, searches);
        assert_eq!(report.usage.remaining, 20 - searches);
        assert_eq!(
            (
                report.status.is_approaching_limit,
                report.status.is_near_limit,
                report.status.is_over_limit
            ),
            (approaching, near, over),
            "at {searches} of 20"
        );
        assert!(!report.api_key.configured);
    }
    let json = serde_json::to_value(
        usage
            .report(&WorkspaceId::personal(&user), Tier::Free, Some(1_795_000_000))
            .await
            .expect("report"),
    )
    .expect("json");
    for path in [
        "/usage/current",
        "/usage/limit",
        "/usage/remaining",
        "/usage/percentage",
        "/period/resetDate",
        "/period/daysUntilReset",
        "/apiKey/configured",
        "/apiKey/lastUpdated",
        "/tier/current",
        "/tier/name",
        "/status/isOverLimit",
        "/status/isNearLimit",
        "/status/isApproachingLimit",
        "/recommendations",
    ] {
        assert!(json.pointer(path).is_some(), "missing {path} in {json}");
    }
    assert_eq!(json["usage"]["percentage"], 100.0);
});

both_backends!(
    grants_on_a_counter_not_yet_written_never_pass_the_limit,
    |store: Store| async move {
        let user = store.upsert_user_on_sign_in(&identity("fresh")).await.expect("user").id;
        let workspace = WorkspaceId::personal(&user);
        // The first grant writes the counter: it takes no more than the limit.
        assert_eq!(
            store
                .grant_usage(&workspace, "2026-12", "leads", 60, 25)
                .await
                .expect("grant"),
            25
        );
        assert_eq!(
            store
                .grant_usage(&workspace, "2026-12", "leads", 60, 25)
                .await
                .expect("grant"),
            0
        );
        assert_eq!(
            store
                .grant_usage(&workspace, "2026-11", "leads", 0, 25)
                .await
                .expect("grant"),
            0
        );
        assert_eq!(
            store
                .grant_usage(&workspace, "2026-10", "leads", 5, 0)
                .await
                .expect("grant"),
            0
        );
        // 40 grants of 3 at once on a counter nobody wrote yet: 10 full ones, 1 of 2.
        let mut tasks = Vec::new();
        for _ in 0..40 {
            let (store, workspace) = (store.clone(), workspace.clone());
            tasks.push(tokio::spawn(async move {
                store.grant_usage(&workspace, "2027-01", "searches", 3, 32).await
            }));
        }
        let mut grants = Vec::new();
        for t in tasks {
            grants.push(t.await.expect("join").expect("store"));
        }
        grants.sort_unstable();
        assert_eq!(grants.iter().sum::<i64>(), 32);
        assert_eq!(grants.iter().filter(|&&g| g == 3).count(), 10);
        assert_eq!(grants.iter().filter(|&&g| g == 2).count(), 1);
        assert_eq!(
            store
                .usage_counters(
                    &workspace,
                    &[
                        ("2027-01", "searches"),
                        ("2026-12", "leads"),
                        ("2026-12", "searches"),
                        ("2026-10", "leads")
                    ]
                )
                .await
                .expect("counters"),
            vec![32, 25, 0, 0],
            "each counter in the order asked, 0 where none was written"
        );
        // Another workspace's counters are its own.
        let other = store.upsert_user_on_sign_in(&identity("other")).await.expect("user").id;
        assert_eq!(
            store
                .usage_counters(&WorkspaceId::personal(&other), &[("2027-01", "searches")])
                .await
                .expect("counters"),
            vec![0]
        );
    }
);
