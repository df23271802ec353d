//! Runs one async test body on both backends.

use leadgen_core::store::Store;
use leadgen_testkit::db::TestDatabase;

/// A migrated store on a fresh database, kept alive with its database.
pub struct TestStore {
    pub store: Store,
    _db: TestDatabase,
}

impl TestStore {
    pub async fn sqlite() -> Self {
        Self::open(TestDatabase::sqlite()).await
    }

    pub async fn postgres() -> Self {
        Self::open(TestDatabase::postgres().await).await
    }

    async fn open(db: TestDatabase) -> Self {
        let store = Store::connect(&db.url).await.expect("connect");
        store.migrate().await.expect("migrate");
        Self { store, _db: db }
    }
}

/// `both_backends!(name, |store| async move { ... })` defines `name::sqlite` and
/// `name::postgres`.
#[macro_export]
macro_rules! both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;

            #[tokio::test]
            async fn sqlite() {
                let t = $crate::backends::TestStore::sqlite().await;
                ($body)(t.store.clone()).await;
            }

            #[tokio::test]
            async fn postgres() {
                let t = $crate::backends::TestStore::postgres().await;
                ($body)(t.store.clone()).await;
                t.store.close().await;
            }
        }
    };
}
