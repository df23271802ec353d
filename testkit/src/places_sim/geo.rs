//! Coordinates and the two region shapes Text Search takes: Google's `Viewport`
//! (rectangle with `low` = south-west and `high` = north-east corners) and `Circle`.

use serde::Serialize;

/// Mean Earth radius used for distances.
const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A point, serialised as Google's `LatLng` (`{"latitude", "longitude"}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatLng {
    /// Degrees, -90..=90.
    pub latitude: f64,
    /// Degrees, -180..=180.
    pub longitude: f64,
}

impl LatLng {
    /// A point from degrees.
    pub const fn new(latitude: f64, longitude: f64) -> Self {
        Self { latitude, longitude }
    }

    /// Great-circle distance in metres.
    pub fn distance_m(self, other: LatLng) -> f64 {
        let (lat1, lat2) = (self.latitude.to_radians(), other.latitude.to_radians());
        let dlat = lat2 - lat1;
        let dlng = (other.longitude - self.longitude).to_radians();
        let a = (dlat / 2.0).sin().powi(2) + lat1.cos() * lat2.cos() * (dlng / 2.0).sin().powi(2);
        2.0 * EARTH_RADIUS_M * a.sqrt().asin()
    }
}

/// A closed latitude-longitude rectangle, serialised as Google's `Viewport`
/// (`{"low": LatLng, "high": LatLng}`). When `low.longitude > high.longitude` the
/// rectangle crosses the 180° meridian, as Google documents.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Viewport {
    /// South-west corner.
    pub low: LatLng,
    /// North-east corner.
    pub high: LatLng,
}

impl Viewport {
    /// A rectangle from its south-west and north-east corners.
    pub const fn new(low: LatLng, high: LatLng) -> Self {
        Self { low, high }
    }

    /// Whether the point lies inside or on the border.
    pub fn contains(&self, p: LatLng) -> bool {
        (self.low.latitude..=self.high.latitude).contains(&p.latitude)
            && self
                .longitude_spans()
                .iter()
                .any(|(lo, hi)| (*lo..=*hi).contains(&p.longitude))
    }

    /// Whether the two rectangles share at least one point.
    pub fn intersects(&self, other: &Viewport) -> bool {
        let lat = self.low.latitude <= other.high.latitude && other.low.latitude <= self.high.latitude;
        lat && self.longitude_spans().iter().any(|(a_lo, a_hi)| {
            other
                .longitude_spans()
                .iter()
                .any(|(b_lo, b_hi)| a_lo <= b_hi && b_lo <= a_hi)
        })
    }

    /// The middle point (of the non-wrapping case, which is all the simulator's cities use).
    pub fn center(&self) -> LatLng {
        LatLng::new(
            (self.low.latitude + self.high.latitude) / 2.0,
            (self.low.longitude + self.high.longitude) / 2.0,
        )
    }

    /// Whether Google would refuse it: an empty latitude range, or the documented empty
    /// longitude range (`low = 180`, `high = -180`).
    pub fn is_empty(&self) -> bool {
        self.low.latitude > self.high.latitude || (self.low.longitude == 180.0 && self.high.longitude == -180.0)
    }

    /// Longitude intervals covered, split in two when crossing the 180° meridian.
    fn longitude_spans(&self) -> Vec<(f64, f64)> {
        if self.low.longitude <= self.high.longitude {
            vec![(self.low.longitude, self.high.longitude)]
        } else {
            vec![(self.low.longitude, 180.0), (-180.0, self.high.longitude)]
        }
    }
}

/// A circle, as Google's `Circle` (`{"center": LatLng, "radius": metres}`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Circle {
    /// Centre point.
    pub center: LatLng,
    /// Radius in metres (Google accepts 0.0..=50000.0).
    pub radius: f64,
}

/// A `locationBias` region: Text Search accepts a rectangle or a circle there (and only
/// a rectangle as `locationRestriction`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Area {
    /// `{"rectangle": Viewport}`.
    Rectangle(Viewport),
    /// `{"circle": Circle}`.
    Circle(Circle),
}

impl Area {
    /// Whether the point lies in the region.
    pub fn contains(&self, p: LatLng) -> bool {
        match self {
            Self::Rectangle(v) => v.contains(p),
            Self::Circle(c) => c.center.distance_m(p) <= c.radius,
        }
    }

    /// The region's middle.
    pub fn center(&self) -> LatLng {
        match self {
            Self::Rectangle(v) => v.center(),
            Self::Circle(c) => c.center,
        }
    }

    /// A rectangle enclosing the region, to find the cities it touches.
    pub fn bounds(&self) -> Viewport {
        match self {
            Self::Rectangle(v) => *v,
            Self::Circle(c) => {
                let dlat = (c.radius / EARTH_RADIUS_M).to_degrees();
                let dlng = dlat / c.center.latitude.to_radians().cos().max(0.01);
                Viewport::new(
                    LatLng::new(c.center.latitude - dlat, c.center.longitude - dlng),
                    LatLng::new(c.center.latitude + dlat, c.center.longitude + dlng),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(a: (f64, f64), b: (f64, f64)) -> Viewport {
        Viewport::new(LatLng::new(a.0, a.1), LatLng::new(b.0, b.1))
    }

    #[test]
    fn rectangles_contain_their_border_and_can_cross_the_antimeridian() {
        let r = rect((30.0, -98.0), (31.0, -97.0));
        assert!(r.contains(LatLng::new(30.0, -97.0)));
        assert!(r.contains(LatLng::new(30.5, -97.5)));
        assert!(!r.contains(LatLng::new(31.01, -97.5)));
        let wrap = rect((-10.0, 170.0), (10.0, -170.0));
        assert!(wrap.contains(LatLng::new(0.0, 179.0)));
        assert!(wrap.contains(LatLng::new(0.0, -179.0)));
        assert!(!wrap.contains(LatLng::new(0.0, 0.0)));
        assert!(wrap.intersects(&rect((-1.0, -175.0), (1.0, -172.0))));
        assert!(!r.intersects(&rect((32.0, -98.0), (33.0, -97.0))));
        assert!(rect((31.0, 0.0), (30.0, 1.0)).is_empty());
    }

    #[test]
    fn distances_and_circles() {
        // One degree of latitude is about 111 km.
        let d = LatLng::new(30.0, -97.0).distance_m(LatLng::new(31.0, -97.0));
        assert!((110_000.0..112_500.0).contains(&d), "{d}");
        let c = Area::Circle(Circle {
            center: LatLng::new(30.0, -97.0),
            radius: 1000.0,
        });
        assert!(c.contains(LatLng::new(30.005, -97.0)));
        assert!(!c.contains(LatLng::new(30.02, -97.0)));
        assert!(c.bounds().contains(LatLng::new(30.008, -97.008)));
    }
}
