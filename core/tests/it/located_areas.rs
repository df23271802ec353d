//! Located areas on both stores: the viewport and what Google matched, read back as
//! written; a row from before the match was kept reads as unrecorded; a later locate
//! replaces both.

use leadgen_core::{
    search::{
        Located, Matched,
        tiling::{LatLng, Rect},
    },
    store::Store,
};

use crate::both_backends;

fn located(lat: f64, matched: Matched) -> Located {
    Located {
        area: Rect {
            low: LatLng { lat, lng: -97.8 },
            high: LatLng {
                lat: lat + 0.05,
                lng: -97.7,
            },
        },
        matched,
    }
}

both_backends!(a_located_area_keeps_what_google_matched, |store: Store| async move {
    assert_eq!(store.located_area("nowhere").await.expect("read"), None);
    let cases = [
        ("78704", located(30.22, Matched::PostalCode("ChIJzip78704".into()))),
        ("austin tx", located(30.1, Matched::Other)),
        ("older row", located(30.3, Matched::Unrecorded)),
    ];
    for (location, written) in &cases {
        store.remember_area(location, written).await.expect("write");
    }
    for (location, written) in &cases {
        let read = store.located_area(location).await.expect("read");
        assert_eq!(read.as_ref(), Some(written), "{location}");
    }
    // Located again (an older row refreshed): the new viewport and match replace both.
    let refreshed = located(30.31, Matched::PostalCode("ChIJrefreshed".into()));
    store.remember_area("older row", &refreshed).await.expect("write");
    assert_eq!(store.located_area("older row").await.expect("read"), Some(refreshed));
});
