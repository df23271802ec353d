//! A polygon area: one ring of points, checked once where it enters, and the geometry a
//! search needs of it: its bounding box (what Text Search's rectangular
//! `locationRestriction` and the tiles cover), whether a place lies strictly inside, and
//! whether a tile can hold any of it.
//!
//! Plain planar geometry with longitude as x and latitude as y: areas are at most
//! [`MAX_AREA_DEGREES`](super::options::MAX_AREA_DEGREES) wide and never cross the 180th
//! meridian, and Google's own `customArea` draws straight lines between the points in
//! the same way (see docs/decisions.md, "Polygon areas").

use super::tiling::{LatLng, Rect};

/// Most distinct points a ring may have.
pub const MAX_POLYGON_POINTS: usize = 500;
/// Smallest area a ring may enclose, in square degrees (about 1 m² at the equator):
/// below it the points are, for any search, on one line.
const MIN_AREA_SQ_DEGREES: f64 = 1e-10;
/// How close to an edge (degrees, about a millimetre) a point counts as on it.
const ON_EDGE: f64 = 1e-8;

/// Why a ring was refused; `Display` is the message for the user. Point numbers are
/// indices into `area.polygon` as the user sent it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRing {
    /// A point's latitude or longitude is out of range or not a number.
    #[error(
        "area.polygon[{0}] must have a latitude from -90 to 90 and a longitude from -180 to 180 (areas across the 180th meridian are not supported)."
    )]
    Coordinates(usize),
    /// Fewer than 3 distinct points.
    #[error("area.polygon must have at least 3 distinct points.")]
    TooFewPoints,
    /// More than [`MAX_POLYGON_POINTS`] (one more when closed).
    #[error("area.polygon may have at most {MAX_POLYGON_POINTS} points (and the first repeated last).")]
    TooManyPoints,
    /// Two edges cross or touch.
    #[error("area.polygon must not cross or touch itself: its edge from point {0} and its edge from point {1} meet.")]
    SelfIntersecting(usize, usize),
    /// The ring encloses no area.
    #[error("area.polygon encloses no area: its points lie on one line.")]
    ZeroArea,
}

/// A checked ring: 3 to [`MAX_POLYGON_POINTS`] points in the order given, open (the
/// closing point is implied), no two neighbours equal, no edges crossing, some area. It
/// is written as its points, and checked again when read (the queue carries it).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "Vec<LatLng>", into = "Vec<LatLng>")]
pub struct Ring(Vec<LatLng>);

impl TryFrom<Vec<LatLng>> for Ring {
    type Error = InvalidRing;

    fn try_from(points: Vec<LatLng>) -> Result<Self, InvalidRing> {
        Self::new(&points)
    }
}

impl From<Ring> for Vec<LatLng> {
    fn from(ring: Ring) -> Self {
        ring.0
    }
}

impl Ring {
    /// Checks `points`: given closed (last = first) or open; repeated neighbours count once.
    pub fn new(points: &[LatLng]) -> Result<Self, InvalidRing> {
        // Before anything else: the crossing check takes the square of the points.
        if points.len() > MAX_POLYGON_POINTS + 1 {
            return Err(InvalidRing::TooManyPoints);
        }
        if let Some(bad) = points.iter().position(|p| !p.is_on_earth()) {
            return Err(InvalidRing::Coordinates(bad));
        }
        // The ring, and where each of its points was in `points` (for the messages).
        let (mut ring, mut origin): (Vec<LatLng>, Vec<usize>) = (Vec::with_capacity(points.len()), Vec::new());
        for (i, p) in points.iter().enumerate() {
            if ring.last() != Some(p) {
                ring.push(*p);
                origin.push(i);
            }
        }
        while ring.len() > 1 && ring.first() == ring.last() {
            ring.pop();
            origin.pop();
        }
        if ring.len() < 3 {
            return Err(InvalidRing::TooFewPoints);
        }
        if ring.len() > MAX_POLYGON_POINTS {
            return Err(InvalidRing::TooManyPoints);
        }
        let flat = signed_area(&ring).abs() < MIN_AREA_SQ_DEGREES;
        match first_crossing(&ring) {
            // Points on one line fold back over themselves: say what the user drew.
            Some(_) if flat && on_one_line(&ring) => Err(InvalidRing::ZeroArea),
            Some((i, j)) => Err(InvalidRing::SelfIntersecting(origin[i], origin[j])),
            None if flat => Err(InvalidRing::ZeroArea),
            None => Ok(Self(ring)),
        }
    }

    /// The points, open, in the order given.
    pub fn points(&self) -> &[LatLng] {
        &self.0
    }

    /// The smallest rectangle holding the ring.
    pub fn bounds(&self) -> Rect {
        let (mut low, mut high) = (self.0[0], self.0[0]);
        for p in &self.0[1..] {
            low.lat = low.lat.min(p.lat);
            low.lng = low.lng.min(p.lng);
            high.lat = high.lat.max(p.lat);
            high.lng = high.lng.max(p.lng);
        }
        Rect { low, high }
    }

    /// Whether `p` lies strictly inside: a point on an edge or a corner is outside (the
    /// area's border belongs to no one, so two areas drawn edge to edge share no place).
    pub fn contains(&self, p: LatLng) -> bool {
        if self.edges().any(|(a, b)| on_segment(a, b, p)) {
            return false;
        }
        // Even-odd rule: a ray to the east crosses the ring an odd number of times. Each
        // edge counts as holding its lower end and not its upper one, so a ray through a
        // corner is counted once, or not at all where the ring only touches it.
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.lat > p.lat) != (b.lat > p.lat) {
                let x = a.lng + (p.lat - a.lat) / (b.lat - a.lat) * (b.lng - a.lng);
                if p.lng < x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Whether `rect` may hold part of the area: false only when the two are certainly
    /// apart (a tile that is false holds no place strictly inside). Touching counts as
    /// overlapping, which costs at most a probe and keeps every place.
    pub fn overlaps(&self, rect: Rect) -> bool {
        let bounds = self.bounds();
        if rect.high.lat < bounds.low.lat
            || rect.low.lat > bounds.high.lat
            || rect.high.lng < bounds.low.lng
            || rect.low.lng > bounds.high.lng
        {
            return false;
        }
        if self.0.iter().any(|p| rect.contains(*p)) {
            return true;
        }
        let corners = corners(rect);
        if corners
            .iter()
            .any(|c| self.contains(*c) || self.edges().any(|(a, b)| on_segment(a, b, *c)))
        {
            return true;
        }
        // Neither holds a corner of the other: they overlap only where edges cross.
        let sides = (0..4).map(|i| (corners[i], corners[(i + 1) % 4]));
        sides
            .into_iter()
            .any(|(c, d)| self.edges().any(|(a, b)| segments_meet(a, b, c, d)))
    }

    /// The share of `rect`'s area inside the ring (0 to 1): what an estimate scales a
    /// tile's places by, taking them as spread evenly over it.
    pub fn share_of(&self, rect: Rect) -> f64 {
        let whole = (rect.high.lat - rect.low.lat) * (rect.high.lng - rect.low.lng);
        if whole <= 0.0 {
            return 0.0;
        }
        (signed_area(&clipped(&self.0, rect)).abs() / 2.0 / whole).clamp(0.0, 1.0)
    }

    /// The ring closed (first point repeated last) and counterclockwise, as Google's
    /// `customArea.polygon.coordinates` wants it.
    pub fn closed_counterclockwise(&self) -> Vec<LatLng> {
        let mut ring = self.0.clone();
        if signed_area(&ring) < 0.0 {
            ring.reverse();
        }
        ring.push(ring[0]);
        ring
    }

    /// The edges, the closing one included.
    fn edges(&self) -> impl Iterator<Item = (LatLng, LatLng)> + '_ {
        let n = self.0.len();
        (0..n).map(move |i| (self.0[i], self.0[(i + 1) % n]))
    }
}

/// `ring` cut to `rect` (Sutherland-Hodgman: one side of the rectangle at a time). A
/// concave ring may come out with edges doubled back along the rectangle's sides, which
/// add no area: only the area is used.
fn clipped(ring: &[LatLng], rect: Rect) -> Vec<LatLng> {
    // Each side as (is `p` inside, where `a`-`b` crosses the side).
    type Inside = fn(LatLng, Rect) -> bool;
    type Line = fn(Rect) -> f64;
    let sides: [(Inside, bool, Line); 4] = [
        (|p, r| p.lng >= r.low.lng, true, |r| r.low.lng),
        (|p, r| p.lng <= r.high.lng, true, |r| r.high.lng),
        (|p, r| p.lat >= r.low.lat, false, |r| r.low.lat),
        (|p, r| p.lat <= r.high.lat, false, |r| r.high.lat),
    ];
    let mut out = ring.to_vec();
    for (inside, vertical, at) in sides {
        let input = std::mem::take(&mut out);
        let Some(&last) = input.last() else { break };
        let line = at(rect);
        let cross_at = |a: LatLng, b: LatLng| {
            if vertical {
                let t = (line - a.lng) / (b.lng - a.lng);
                LatLng {
                    lat: a.lat + t * (b.lat - a.lat),
                    lng: line,
                }
            } else {
                let t = (line - a.lat) / (b.lat - a.lat);
                LatLng {
                    lat: line,
                    lng: a.lng + t * (b.lng - a.lng),
                }
            }
        };
        let mut previous = last;
        for &current in &input {
            match (inside(current, rect), inside(previous, rect)) {
                (true, true) => out.push(current),
                (true, false) => {
                    out.push(cross_at(previous, current));
                    out.push(current);
                }
                (false, true) => out.push(cross_at(previous, current)),
                (false, false) => {}
            }
            previous = current;
        }
    }
    out
}

fn corners(rect: Rect) -> [LatLng; 4] {
    [
        rect.low,
        LatLng {
            lat: rect.low.lat,
            lng: rect.high.lng,
        },
        rect.high,
        LatLng {
            lat: rect.high.lat,
            lng: rect.low.lng,
        },
    ]
}

/// Twice the signed area of an open ring: positive when counterclockwise (longitude as x).
fn signed_area(ring: &[LatLng]) -> f64 {
    let n = ring.len();
    (0..n)
        .map(|i| {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            a.lng * b.lat - b.lng * a.lat
        })
        .sum()
}

/// The cross product of `b - a` and `c - a`: positive when `c` is left of `a -> b`.
fn cross(a: LatLng, b: LatLng, c: LatLng) -> f64 {
    (b.lng - a.lng) * (c.lat - a.lat) - (b.lat - a.lat) * (c.lng - a.lng)
}

/// Whether `p` lies on the segment `a`-`b` (within [`ON_EDGE`]).
fn on_segment(a: LatLng, b: LatLng, p: LatLng) -> bool {
    let length = ((b.lng - a.lng).powi(2) + (b.lat - a.lat).powi(2)).sqrt();
    if length == 0.0 {
        return (p.lng - a.lng).abs() <= ON_EDGE && (p.lat - a.lat).abs() <= ON_EDGE;
    }
    // Distance from the line, then within the segment's extent.
    cross(a, b, p).abs() / length <= ON_EDGE
        && p.lng >= a.lng.min(b.lng) - ON_EDGE
        && p.lng <= a.lng.max(b.lng) + ON_EDGE
        && p.lat >= a.lat.min(b.lat) - ON_EDGE
        && p.lat <= a.lat.max(b.lat) + ON_EDGE
}

/// Whether segments `a`-`b` and `c`-`d` share any point (crossing, touching or overlapping).
fn segments_meet(a: LatLng, b: LatLng, c: LatLng, d: LatLng) -> bool {
    let (d1, d2) = (cross(c, d, a), cross(c, d, b));
    let (d3, d4) = (cross(a, b, c), cross(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    on_segment(c, d, a) || on_segment(c, d, b) || on_segment(a, b, c) || on_segment(a, b, d)
}

/// Whether every point lies on the line through the first one and the one farthest from it.
fn on_one_line(ring: &[LatLng]) -> bool {
    let first = ring[0];
    let distance = |p: &LatLng| ((p.lng - first.lng).powi(2) + (p.lat - first.lat).powi(2)).sqrt();
    let far = ring
        .iter()
        .copied()
        .max_by(|a, b| distance(a).total_cmp(&distance(b)))
        .unwrap_or(first);
    let length = distance(&far);
    length == 0.0 || ring.iter().all(|p| cross(first, far, *p).abs() / length <= ON_EDGE)
}

/// The first two edges that meet other than at the corner neighbours share, by the index
/// of their first points; neighbours that fold back over each other count too.
fn first_crossing(ring: &[LatLng]) -> Option<(usize, usize)> {
    let n = ring.len();
    let edge = |i: usize| (ring[i], ring[(i + 1) % n]);
    for i in 0..n {
        let (a, b) = edge(i);
        for j in i + 1..n {
            let (c, d) = edge(j);
            let neighbours = j == i + 1 || (i == 0 && j == n - 1);
            if !neighbours {
                if segments_meet(a, b, c, d) {
                    return Some((i, j));
                }
                continue;
            }
            // Neighbours share a corner; they meet elsewhere only if one folds back along
            // the other (the far end of one lies on the other).
            let (far_of_first, far_of_second) = if j == i + 1 { (a, d) } else { (b, c) };
            if on_segment(c, d, far_of_first) || on_segment(a, b, far_of_second) {
                return Some((i, j));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(lat: f64, lng: f64) -> LatLng {
        LatLng { lat, lng }
    }

    fn square() -> Ring {
        Ring::new(&[p(0.0, 0.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, 0.0)]).expect("square")
    }

    /// A "C" open to the east: the notch (0.25..0.75 latitude, 0.5..1 longitude) is outside.
    fn concave() -> Ring {
        Ring::new(&[
            p(0.0, 0.0),
            p(0.0, 1.0),
            p(0.25, 1.0),
            p(0.25, 0.5),
            p(0.75, 0.5),
            p(0.75, 1.0),
            p(1.0, 1.0),
            p(1.0, 0.0),
        ])
        .expect("concave")
    }

    #[test]
    fn a_ring_is_taken_open_or_closed_and_its_neighbours_once() {
        let open = square();
        let closed = Ring::new(&[p(0.0, 0.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 0.0)]).expect("closed");
        assert_eq!(open, closed);
        let repeated = Ring::new(&[p(0.0, 0.0), p(0.0, 1.0), p(0.0, 1.0), p(1.0, 1.0), p(1.0, 0.0)]).expect("valid");
        assert_eq!(repeated, open);
        assert_eq!(open.points().len(), 4);
        assert_eq!(
            open.bounds(),
            Rect {
                low: p(0.0, 0.0),
                high: p(1.0, 1.0)
            }
        );
    }

    #[test]
    fn bad_rings_are_refused_saying_why() {
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(1.0, 1.0), p(0.0, 0.0)]),
            Err(InvalidRing::TooFewPoints)
        );
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(0.0, 0.0), p(1.0, 1.0), p(1.0, 1.0)]),
            Err(InvalidRing::TooFewPoints),
            "four points, two distinct"
        );
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(0.0, 1.0), p(91.0, 1.0)]),
            Err(InvalidRing::Coordinates(2))
        );
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(0.0, f64::NAN), p(1.0, 1.0)]),
            Err(InvalidRing::Coordinates(1))
        );
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(0.5, 0.5), p(1.0, 1.0)]),
            Err(InvalidRing::ZeroArea),
            "on one line"
        );
        // A bow tie: the edges 0->1 and 2->3 cross at (0.5, 0.5).
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(1.0, 1.0), p(1.0, 0.0), p(0.0, 1.0)]),
            Err(InvalidRing::SelfIntersecting(0, 2))
        );
        // A spike folding back along its neighbour.
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(0.0, 2.0), p(0.0, 1.0), p(1.0, 1.0)]),
            Err(InvalidRing::SelfIntersecting(0, 1))
        );
        // An uneven bow tie (some area left over): still refused.
        assert_eq!(
            Ring::new(&[p(0.0, 0.0), p(2.0, 2.0), p(2.0, 0.0), p(0.0, 1.0)]),
            Err(InvalidRing::SelfIntersecting(0, 2))
        );
        // A ring passing twice through one point.
        assert_eq!(
            Ring::new(&[
                p(0.0, 0.0),
                p(0.0, 1.0),
                p(1.0, 1.0),
                p(0.0, 1.0),
                p(-1.0, 2.0),
                p(-1.0, 0.0)
            ]),
            Err(InvalidRing::SelfIntersecting(0, 2))
        );
        let many: Vec<LatLng> = (0..=MAX_POLYGON_POINTS)
            .map(|i| {
                let a = i as f64 / (MAX_POLYGON_POINTS + 1) as f64 * std::f64::consts::TAU;
                p(a.sin(), a.cos())
            })
            .collect();
        assert_eq!(Ring::new(&many), Err(InvalidRing::TooManyPoints));
        assert!(Ring::new(&many[..MAX_POLYGON_POINTS]).is_ok(), "500 points are fine");
    }

    #[test]
    fn a_concave_ring_holds_only_what_is_strictly_inside() {
        let c = concave();
        assert!(c.contains(p(0.5, 0.25)), "the back of the C");
        assert!(c.contains(p(0.1, 0.9)), "the lower arm");
        assert!(c.contains(p(0.9, 0.9)), "the upper arm");
        assert!(!c.contains(p(0.5, 0.75)), "in the notch");
        assert!(!c.contains(p(0.5, 1.5)), "east of it all");
        assert!(!c.contains(p(-0.1, 0.5)), "south of it");
        // On the border: edges and corners are outside.
        assert!(!c.contains(p(0.0, 0.5)), "on the south edge");
        assert!(!c.contains(p(0.5, 0.5)), "on the notch's back edge");
        assert!(!c.contains(p(0.25, 0.75)), "on the notch's lower edge");
        assert!(!c.contains(p(1.0, 1.0)), "a corner");
        assert!(!c.contains(p(0.0, 0.0)), "the first corner");
    }

    #[test]
    fn a_ray_through_corners_is_counted_right() {
        // The east ray from (0.25, 0.25) runs along the notch's lower edge and through two
        // corners; from (0.75, 0.1) along the upper edge. Both points are inside.
        let c = concave();
        assert!(c.contains(p(0.25, 0.25)));
        assert!(c.contains(p(0.75, 0.1)));
        // A diamond: the ray from a point level with its east and west corners.
        let diamond = Ring::new(&[p(0.0, 1.0), p(1.0, 2.0), p(2.0, 1.0), p(1.0, 0.0)]).expect("diamond");
        assert!(diamond.contains(p(1.0, 1.0)));
        assert!(
            !diamond.contains(p(1.0, -0.5)),
            "west of the west corner, level with it"
        );
        assert!(!diamond.contains(p(1.0, 2.5)), "east of the east corner");
        assert!(!diamond.contains(p(0.1, 0.2)), "beside the south corner");
    }

    #[test]
    fn either_direction_is_one_area_and_google_gets_it_counterclockwise_and_closed() {
        let cw = Ring::new(&[p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0), p(0.0, 1.0)]).expect("clockwise");
        let ccw = square();
        for probe in [p(0.5, 0.5), p(1.5, 0.5), p(0.0, 0.5)] {
            assert_eq!(cw.contains(probe), ccw.contains(probe));
        }
        let google = cw.closed_counterclockwise();
        assert_eq!(google.len(), 5);
        assert_eq!(google.first(), google.last());
        assert!(signed_area(&google[..4]) > 0.0);
        assert_eq!(ccw.closed_counterclockwise()[..4], *ccw.points());
    }

    #[test]
    fn tiles_apart_from_the_ring_are_known_to_be_apart() {
        let c = concave();
        let r = |lat0, lng0, lat1, lng1| Rect {
            low: p(lat0, lng0),
            high: p(lat1, lng1),
        };
        assert!(!c.overlaps(r(0.3, 0.6, 0.7, 0.9)), "inside the notch");
        assert!(!c.overlaps(r(2.0, 2.0, 3.0, 3.0)), "far away");
        assert!(c.overlaps(r(0.4, 0.4, 0.6, 0.6)), "across the notch's back edge");
        assert!(c.overlaps(r(0.4, 0.1, 0.6, 0.2)), "wholly inside");
        assert!(c.overlaps(r(-1.0, -1.0, 2.0, 2.0)), "holding it all");
        assert!(
            c.overlaps(r(0.1, 0.9, 0.9, 0.95)),
            "across both arms, no corner inside either"
        );
        assert!(c.overlaps(r(0.3, 0.5, 0.7, 0.9)), "touching the notch's back edge");
        // A triangle's corner pokes through a tile's side without a corner inside.
        let tri = Ring::new(&[p(0.0, 0.0), p(0.0, 2.0), p(1.0, 1.0)]).expect("triangle");
        assert!(tri.overlaps(r(0.8, 0.9, 2.0, 1.1)));
        assert!(!tri.overlaps(r(0.8, 0.0, 2.0, 0.5)), "beside the slope");
    }

    #[test]
    fn a_tiles_share_inside_the_ring_is_its_clipped_area() {
        let c = concave();
        let r = |lat0, lng0, lat1, lng1| Rect {
            low: p(lat0, lng0),
            high: p(lat1, lng1),
        };
        let near = |a: f64, b: f64| (a - b).abs() < 1e-9;
        assert!(near(c.share_of(r(0.0, 0.0, 1.0, 1.0)), 0.75), "the notch is a quarter");
        assert!(near(c.share_of(r(0.3, 0.6, 0.7, 0.9)), 0.0), "inside the notch");
        assert!(near(c.share_of(r(0.1, 0.1, 0.2, 0.2)), 1.0), "wholly inside");
        assert!(
            near(c.share_of(r(0.0, 0.4, 1.0, 0.6)), 0.75),
            "across the notch's back edge"
        );
        assert!(near(c.share_of(r(2.0, 2.0, 3.0, 3.0)), 0.0), "far away");
    }
}
