//! Areas' plans remembered (issue #30 item 2) on both stores: per workspace, per query and
//! area, within the window, and a row that cannot be read is none; an estimate's probe
//! answers likewise, for minutes.

use std::time::Duration;

use leadgen_core::{
    ids::WorkspaceId,
    search::{
        PlanKey, ProbeAnswer, ProbeAnswers,
        tiling::{LatLng, Rect, Remembered, RememberedFetch},
    },
    store::Store,
};

use crate::{both_backends, store::identity};

fn rect(lat: f64) -> Rect {
    Rect {
        low: LatLng { lat, lng: -95.5 },
        high: LatLng {
            lat: lat + 0.1,
            lng: -95.4,
        },
    }
}

fn plan(places: u32) -> Remembered {
    Remembered {
        fetches: vec![
            RememberedFetch {
                rect: rect(29.6),
                places,
            },
            RememberedFetch {
                rect: rect(29.7),
                places: 7,
            },
        ],
        unfetched: vec![rect(29.8)],
    }
}

fn key(query: &str, area: &str) -> PlanKey {
    PlanKey {
        query: query.into(),
        area: area.into(),
    }
}

/// Whether `read` is `written` up to the last bit of each coordinate (JSON floats may come
/// back a bit off).
fn same(read: Option<Remembered>, written: &Remembered) -> bool {
    read.is_some_and(|read| {
        read.fetches.len() == written.fetches.len()
            && read.unfetched.len() == written.unfetched.len()
            && read
                .fetches
                .iter()
                .zip(&written.fetches)
                .all(|(a, b)| a.places == b.places && a.rect.same_as(&b.rect))
            && read.unfetched.iter().zip(&written.unfetched).all(|(a, b)| a.same_as(b))
    })
}

async fn workspace(store: &Store, name: &str) -> WorkspaceId {
    let user = store.upsert_user_on_sign_in(&identity(name)).await.expect("user");
    store.ensure_personal_workspace(&user.id).await.expect("ws");
    WorkspaceId::from(user.id.to_string())
}

both_backends!(
    a_plan_is_remembered_per_workspace_query_and_area,
    |store: Store| async move {
        let a = workspace(&store, "plans-a").await;
        let b = workspace(&store, "plans-b").await;
        let dentists = key("q-dentist", "houston");
        assert_eq!(store.area_plan(&a, &dentists, 30).await.expect("read"), None);

        store
            .remember_area_plan(&a, &dentists, &plan(41), 30)
            .await
            .expect("write");
        assert!(
            same(store.area_plan(&a, &dentists, 30).await.expect("read"), &plan(41)),
            "read back as written"
        );
        assert_eq!(
            store.area_plan(&b, &dentists, 30).await.expect("read"),
            None,
            "another workspace sees nothing"
        );
        assert_eq!(
            store
                .area_plan(&a, &key("q-restaurant", "houston"), 30)
                .await
                .expect("read"),
            None,
            "another query sees nothing"
        );
        assert_eq!(
            store
                .area_plan(&a, &key("q-dentist", "austin"), 30)
                .await
                .expect("read"),
            None,
            "another area sees nothing"
        );

        // A later search replaces it.
        store
            .remember_area_plan(&a, &dentists, &plan(59), 30)
            .await
            .expect("rewrite");
        assert!(same(store.area_plan(&a, &dentists, 30).await.expect("read"), &plan(59)));
        assert_eq!(store.area_plan_count(&a).await.expect("count"), 1);
        assert_eq!(store.area_plan_count(&b).await.expect("count"), 0);
    }
);

both_backends!(
    a_plan_past_its_window_is_not_read_and_is_forgotten,
    |store: Store| async move {
        let a = workspace(&store, "plans-expiry").await;
        let old = key("q", "old");
        store.remember_area_plan(&a, &old, &plan(10), 30).await.expect("write");
        // Learned this second: within a day, but not within no time at all.
        assert!(same(store.area_plan(&a, &old, 1).await.expect("read"), &plan(10)));
        assert_eq!(
            store.area_plan(&a, &old, 0).await.expect("read"),
            None,
            "past its window"
        );
        // Writing forgets the workspace's plans past the window (here: every earlier one).
        store
            .remember_area_plan(&a, &key("q", "new"), &plan(12), 0)
            .await
            .expect("write");
        assert_eq!(store.area_plan_count(&a).await.expect("count"), 1);
        assert_eq!(store.area_plan(&a, &old, 30).await.expect("read"), None, "forgotten");
        assert!(same(
            store.area_plan(&a, &key("q", "new"), 30).await.expect("read"),
            &plan(12)
        ));
    }
);

fn answers(ids: &[&str]) -> ProbeAnswers {
    ProbeAnswers(vec![
        ProbeAnswer {
            rect: rect(29.6),
            ids: ids.iter().map(|id| id.to_string()).collect(),
        },
        ProbeAnswer {
            rect: rect(29.7),
            ids: Vec::new(),
        },
    ])
}

/// Whether `read` holds `written`'s rectangles (to the last bit) and ids, in order.
fn same_answers(read: Option<ProbeAnswers>, written: &ProbeAnswers) -> bool {
    read.is_some_and(|read| {
        read.0.len() == written.0.len()
            && read
                .0
                .iter()
                .zip(&written.0)
                .all(|(a, b)| a.ids == b.ids && a.rect.same_as(&b.rect))
    })
}

both_backends!(
    an_estimates_probe_answers_wait_per_workspace_query_and_area_within_their_window_for_one_search,
    |store: Store| async move {
        let kept = Duration::from_secs(15 * 60);
        let a = workspace(&store, "probes-a").await;
        let b = workspace(&store, "probes-b").await;
        let dentists = key("q-dentist", "houston");
        assert_eq!(
            store.take_estimate_probes(&a, &dentists, kept).await.expect("take"),
            None
        );
        assert!(
            !store
                .add_estimate_probes(&a, &dentists, &answers(&["p1"]))
                .await
                .expect("add"),
            "nothing left to add to"
        );

        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p1", "p2"]), kept)
            .await
            .expect("write");
        for (workspace, key, what) in [
            (&b, &dentists, "another workspace"),
            (&a, &key("q-restaurant", "houston"), "another query"),
            (&a, &key("q-dentist", "austin"), "another area"),
        ] {
            assert_eq!(
                store.take_estimate_probes(workspace, key, kept).await.expect("take"),
                None,
                "{what} sees nothing"
            );
        }
        // Probed this second: within the window, but not within no time at all (and a
        // take that finds none removes nothing).
        assert_eq!(
            store
                .take_estimate_probes(&a, &dentists, Duration::ZERO)
                .await
                .expect("take"),
            None,
            "past its window"
        );
        // The estimate's probes that go on add to them while they wait.
        assert!(
            store
                .add_estimate_probes(&a, &dentists, &answers(&["p1", "p2", "p4"]))
                .await
                .expect("add")
        );
        let taken = store.take_estimate_probes(&a, &dentists, kept).await.expect("take");
        assert!(same_answers(taken, &answers(&["p1", "p2", "p4"])), "taken as added");
        // A search took them: gone for the next, and nothing to add to.
        assert_eq!(
            store.take_estimate_probes(&a, &dentists, kept).await.expect("take"),
            None
        );
        assert!(
            !store
                .add_estimate_probes(&a, &dentists, &answers(&["p1", "p2", "p4", "p5"]))
                .await
                .expect("add"),
            "taken: the probes stop"
        );

        // A later estimate replaces them; pruning leaves answers within the window.
        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p6"]), kept)
            .await
            .expect("write");
        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p3"]), kept)
            .await
            .expect("rewrite");
        assert_eq!(store.prune_estimate_probes(kept).await.expect("prune"), 0);
        let taken = store.take_estimate_probes(&a, &dentists, kept).await.expect("take");
        assert!(same_answers(taken, &answers(&["p3"])));
        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p3"]), kept)
            .await
            .expect("write");
        assert_eq!(store.prune_estimate_probes(Duration::ZERO).await.expect("prune"), 1);
        assert_eq!(
            store.take_estimate_probes(&a, &dentists, kept).await.expect("take"),
            None,
            "forgotten"
        );
    }
);

both_backends!(
    a_newer_estimate_of_the_workspace_stops_the_adds_to_the_older_ones_answers,
    |store: Store| async move {
        let kept = Duration::from_secs(15 * 60);
        let a = workspace(&store, "newer-a").await;
        let b = workspace(&store, "newer-b").await;
        let (dentists, restaurants) = (key("q-dentist", "houston"), key("q-restaurant", "houston"));
        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p1"]), kept)
            .await
            .expect("write");
        store
            .leave_estimate_probes(&b, &dentists, &answers(&["p1"]), kept)
            .await
            .expect("write");
        // Estimates are stamped in whole seconds: the next one is a second later.
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        store
            .leave_estimate_probes(&a, &restaurants, &answers(&["r1"]), kept)
            .await
            .expect("write");
        // The user estimated restaurants since: the dentists' probes (on whichever API
        // process) find no row of theirs to add to and stop; the answers left stay for a
        // search of the dentists.
        assert!(
            !store
                .add_estimate_probes(&a, &dentists, &answers(&["p1", "p2"]))
                .await
                .expect("add"),
            "superseded"
        );
        assert!(
            store
                .add_estimate_probes(&a, &restaurants, &answers(&["r1", "r2"]))
                .await
                .expect("add"),
            "the newest goes on"
        );
        assert!(
            store
                .add_estimate_probes(&b, &dentists, &answers(&["p1", "p2"]))
                .await
                .expect("add"),
            "another workspace's goes on"
        );
        let taken = store.take_estimate_probes(&a, &dentists, kept).await.expect("take");
        assert!(same_answers(taken, &answers(&["p1"])), "kept as the estimate left them");
        // Re-estimating the same search makes it the newest again.
        store
            .leave_estimate_probes(&a, &dentists, &answers(&["p1"]), kept)
            .await
            .expect("write");
        assert!(
            store
                .add_estimate_probes(&a, &dentists, &answers(&["p1", "p3"]))
                .await
                .expect("add")
        );
    }
);
