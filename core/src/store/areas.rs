//! Located areas (see `search::locate`): a normalised location string, the viewport
//! Google gave for it and whether it matched a postal code (`matched_postal_code`: NULL
//! on rows from before it was kept, '' for anything else, or the code's place id).
//! Geography, shared by every user; never lead data.

use super::handle::Store;
use crate::{
    search::{
        AreaCache, Located, Matched,
        tiling::{LatLng, Rect},
    },
    time::now_unix,
};

/// How long a located area is trusted: cities do not move, but Google refines viewports.
const AREA_TTL_SECS: i64 = 30 * 24 * 3600;

impl Store {
    /// The area remembered for `location` (normalised), if fresh.
    #[tracing::instrument(skip(self))]
    pub async fn located_area(&self, location: &str) -> crate::CoreResult<Option<Located>> {
        let row: Option<(f64, f64, f64, f64, Option<String>)> = sqlx::query_as(
            "SELECT low_lat, low_lng, high_lat, high_lng, matched_postal_code
             FROM located_areas WHERE location = $1 AND located_at > $2",
        )
        .bind(location)
        .bind(now_unix() - AREA_TTL_SECS)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(low_lat, low_lng, high_lat, high_lng, matched)| Located {
            area: Rect {
                low: LatLng {
                    lat: low_lat,
                    lng: low_lng,
                },
                high: LatLng {
                    lat: high_lat,
                    lng: high_lng,
                },
            },
            matched: match matched {
                None => Matched::Unrecorded,
                Some(id) if id.is_empty() => Matched::Other,
                Some(id) => Matched::PostalCode(id),
            },
        }))
    }

    /// Remembers the area of `location` (normalised).
    #[tracing::instrument(skip(self))]
    pub async fn remember_area(&self, location: &str, located: &Located) -> crate::CoreResult<()> {
        let Located { area, matched } = located;
        let matched = match matched {
            Matched::Unrecorded => None,
            Matched::Other => Some(""),
            Matched::PostalCode(id) => Some(id.as_str()),
        };
        sqlx::query(
            "INSERT INTO located_areas (location, low_lat, low_lng, high_lat, high_lng, located_at, matched_postal_code)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (location) DO UPDATE SET low_lat = excluded.low_lat, low_lng = excluded.low_lng,
                 high_lat = excluded.high_lat, high_lng = excluded.high_lng, located_at = excluded.located_at,
                 matched_postal_code = excluded.matched_postal_code",
        )
        .bind(location)
        .bind(area.low.lat)
        .bind(area.low.lng)
        .bind(area.high.lat)
        .bind(area.high.lng)
        .bind(now_unix())
        .bind(matched)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl AreaCache for Store {
    async fn get(&self, location: &str) -> Option<Located> {
        // A cache that cannot be read only costs one more request.
        self.located_area(location)
            .await
            .inspect_err(|e| tracing::warn!(error = %e, "could not read the located-area cache"))
            .ok()
            .flatten()
    }

    async fn put(&self, location: &str, located: &Located) {
        if let Err(e) = self.remember_area(location, located).await {
            tracing::warn!(error = %e, "could not remember a located area");
        }
    }
}
