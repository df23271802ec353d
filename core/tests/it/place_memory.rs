//! The place memory (issue #29) on both stores: ids only, per workspace, the setting, and
//! forgetting.

use leadgen_core::{ids::WorkspaceId, search::Exclude, store::Store};

use crate::{both_backends, store::identity};

fn ids(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| format!("ChIJ{n}")).collect()
}

fn set(names: &[&str]) -> std::collections::HashSet<String> {
    ids(names).into_iter().collect()
}

both_backends!(
    seen_and_exported_places_are_remembered_per_workspace,
    |store: Store| async move {
        let alice = store.upsert_user_on_sign_in(&identity("pm-a")).await.expect("user");
        let bob = store.upsert_user_on_sign_in(&identity("pm-b")).await.expect("user");
        store.ensure_personal_workspace(&alice.id).await.expect("ws");
        store.ensure_personal_workspace(&bob.id).await.expect("ws");
        let (a, b) = (
            WorkspaceId::from(alice.id.to_string()),
            WorkspaceId::from(bob.id.to_string()),
        );
        assert!(store.place_memory_enabled(&a).await.expect("setting"), "on by default");

        store.remember_places(&a, &ids(&["1", "2", "3"])).await.expect("seen");
        // A page may list a place twice (and an id may be missing): each is written once.
        let mut again = ids(&["3", "4", "4"]);
        again.push(String::new());
        store.remember_places(&a, &again).await.expect("seen again");
        store.mark_exported(&a, &ids(&["2", "9"])).await.expect("exported");
        assert_eq!(
            store.excluded_places(&a, Exclude::Seen).await.expect("seen"),
            set(&["1", "2", "3", "4", "9"]),
            "an exported place the searches never sent is remembered too"
        );
        assert_eq!(
            store.excluded_places(&a, Exclude::Exported).await.expect("exported"),
            set(&["2", "9"])
        );
        assert!(store.excluded_places(&a, Exclude::None).await.expect("none").is_empty());
        assert!(
            store
                .excluded_places(&b, Exclude::Seen)
                .await
                .expect("other")
                .is_empty(),
            "another workspace's memory is its own"
        );
        let three = store.place_memory_entry(&a, "ChIJ3").await.expect("read").expect("row");
        assert!(three.first_seen_at > 0 && three.last_seen_at >= three.first_seen_at);
        assert_eq!(three.last_exported_at, None);
        let two = store.place_memory_entry(&a, "ChIJ2").await.expect("read").expect("row");
        assert!(two.last_exported_at.is_some_and(|at| at >= two.first_seen_at));
        assert_eq!(store.place_memory_entry(&b, "ChIJ3").await.expect("read"), None);

        // Off: nothing more is recorded and nothing is left out, but nothing is lost.
        assert!(store.set_place_memory(&a, false).await.expect("off"));
        assert!(!store.place_memory_enabled(&a).await.expect("setting"));
        store.remember_places(&a, &ids(&["5"])).await.expect("ignored");
        store.mark_exported(&a, &ids(&["6"])).await.expect("ignored");
        assert!(store.excluded_places(&a, Exclude::Seen).await.expect("off").is_empty());
        assert!(store.set_place_memory(&a, true).await.expect("on"));
        assert_eq!(
            store.excluded_places(&a, Exclude::Seen).await.expect("back"),
            set(&["1", "2", "3", "4", "9"]),
            "kept while off; nothing recorded while off"
        );

        store.remember_places(&b, &ids(&["1"])).await.expect("b");
        assert_eq!(store.forget_place_memory(&a).await.expect("forget"), 5);
        assert!(store.excluded_places(&a, Exclude::Seen).await.expect("gone").is_empty());
        assert_eq!(
            store.excluded_places(&b, Exclude::Seen).await.expect("b kept"),
            set(&["1"]),
            "forgetting is per workspace"
        );
        assert_eq!(store.forget_place_memory(&a).await.expect("again"), 0);
    }
);

both_backends!(
    a_whole_search_s_worth_of_places_is_remembered_in_one_call_however_many,
    |store: Store| async move {
        let user = store.upsert_user_on_sign_in(&identity("pm-page")).await.expect("user");
        store.ensure_personal_workspace(&user.id).await.expect("ws");
        let workspace = WorkspaceId::from(user.id.to_string());
        // More places than SQLite binds in one statement (32,766 parameters), an id
        // repeated across statements; an export of more than one statement's worth.
        let names: Vec<String> = (0..33_000).map(|i| format!("page-{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut sent = ids(&names);
        sent.insert(1_500, ids(&names[..1])[0].clone());
        store.remember_places(&workspace, &sent).await.expect("33,000 at once");
        store
            .mark_exported(&workspace, &ids(&names[..1_200]))
            .await
            .expect("1,200 exported");
        assert_eq!(
            store.excluded_places(&workspace, Exclude::Seen).await.expect("seen"),
            set(&names)
        );
        assert_eq!(
            store
                .excluded_places(&workspace, Exclude::Exported)
                .await
                .expect("exported"),
            set(&names[..1_200])
        );
    }
);
