//! Points and rectangles, and the grid arithmetic cells and groups of cells share.

/// Smallest side (degrees, about 10 m) a rectangle is split to: more than 60 matches at one
/// spot (a mall) cannot be told apart by area, so such a leaf keeps the 60 it saw.
pub const MIN_SIDE: f64 = 0.000_1;

/// A point (degrees).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LatLng {
    /// Latitude.
    pub lat: f64,
    /// Longitude.
    pub lng: f64,
}

impl LatLng {
    /// Whether this is a point on Earth: finite, latitude within ±90, longitude within ±180.
    pub fn is_on_earth(&self) -> bool {
        self.lat.is_finite()
            && self.lng.is_finite()
            && (-90.0..=90.0).contains(&self.lat)
            && (-180.0..=180.0).contains(&self.lng)
    }
}

/// A rectangle as Google's `locationRestriction.rectangle` takes it: south-west `low`,
/// north-east `high`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rect {
    /// South-west corner.
    pub low: LatLng,
    /// North-east corner.
    pub high: LatLng,
}

impl Rect {
    /// Whether `p` lies inside (edges included).
    pub fn contains(&self, p: LatLng) -> bool {
        (self.low.lat..=self.high.lat).contains(&p.lat) && (self.low.lng..=self.high.lng).contains(&p.lng)
    }

    /// Whether `other` is the same rectangle up to 1e-9 degrees (a tenth of a millimetre):
    /// a rectangle read back from a checkpoint's JSON may differ in its last bit.
    pub fn same_as(&self, other: &Rect) -> bool {
        const EPSILON: f64 = 1e-9;
        [
            self.low.lat - other.low.lat,
            self.low.lng - other.low.lng,
            self.high.lat - other.high.lat,
            self.high.lng - other.high.lng,
        ]
        .iter()
        .all(|d| d.abs() < EPSILON)
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            low: LatLng {
                lat: self.low.lat.min(other.low.lat),
                lng: self.low.lng.min(other.low.lng),
            },
            high: LatLng {
                lat: self.high.lat.max(other.high.lat),
                lng: self.high.lng.max(other.high.lng),
            },
        }
    }

    pub(super) fn small(&self) -> bool {
        self.high.lat - self.low.lat <= MIN_SIDE || self.high.lng - self.low.lng <= MIN_SIDE
    }
}

/// The rectangle of cells `x0..x1` by `y0..y1` of `rect`'s `nx` by `ny` grid (the same
/// arithmetic for a cell and for a group of cells, so that they share their edges exactly).
pub(super) fn cells_rect(rect: Rect, nx: usize, ny: usize, (x0, x1): (usize, usize), (y0, y1): (usize, usize)) -> Rect {
    let edge = |low: f64, high: f64, i: usize, n: usize| {
        if i == 0 {
            low
        } else if i == n {
            high
        } else {
            low + (high - low) * i as f64 / n as f64
        }
    };
    Rect {
        low: LatLng {
            lat: edge(rect.low.lat, rect.high.lat, y0, ny),
            lng: edge(rect.low.lng, rect.high.lng, x0, nx),
        },
        high: LatLng {
            lat: edge(rect.low.lat, rect.high.lat, y1, ny),
            lng: edge(rect.low.lng, rect.high.lng, x1, nx),
        },
    }
}
