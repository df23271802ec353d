//! The dense metro: one city of the world (Houston) where a few types hold thousands of
//! businesses, far more than one query's 60, so a client that must find every business
//! of an area (tiling it into rectangles) meets what it meets in a real large city.
//!
//! Real businesses are not spread evenly: most sit in a few centres (downtown, business
//! districts, suburban hubs) of different sizes, and the rest are scattered over the whole
//! city. A tiler that carves by counts must cope with both, so the layout here is two
//! thirds in clusters of Gaussian spread, one third uniform over the viewport.

use std::collections::BTreeMap;

use super::{
    cities::City,
    geo::{LatLng, Viewport},
    rng::Rng,
};

/// The city that holds the dense types.
pub const METRO_CITY: &str = "Houston";

/// Businesses of each dense type in the metro by default; other types keep their normal
/// density there.
pub const DEFAULT_METRO_DENSITY: &[(&str, u32)] = &[("dentist", 1_500), ("restaurant", 3_000)];

/// Share of a dense type's businesses scattered uniformly over the whole viewport.
const SCATTERED: f64 = 1.0 / 3.0;

/// Metres per degree of latitude.
const METRES_PER_DEGREE: f64 = 111_320.0;

/// Draws before giving up on a point inside the viewport and clamping one.
const PLACEMENT_ATTEMPTS: usize = 16;

/// A centre where businesses gather.
#[derive(Debug, Clone, Copy)]
struct Cluster {
    center: LatLng,
    /// Standard deviation of the spread, in metres: most of it lies within twice this.
    spread_m: f64,
    /// Share of the clustered businesses it holds (the shares sum to 1).
    weight: f64,
}

/// Houston's centres, biggest first.
const CLUSTERS: &[Cluster] = &[
    // Downtown and Midtown.
    Cluster {
        center: LatLng::new(29.7550, -95.3650),
        spread_m: 1_800.0,
        weight: 0.30,
    },
    // Uptown Galleria.
    Cluster {
        center: LatLng::new(29.7400, -95.4620),
        spread_m: 1_400.0,
        weight: 0.18,
    },
    // Medical Center and Rice Village.
    Cluster {
        center: LatLng::new(29.7080, -95.4000),
        spread_m: 1_100.0,
        weight: 0.12,
    },
    // Energy Corridor.
    Cluster {
        center: LatLng::new(29.7800, -95.6300),
        spread_m: 2_000.0,
        weight: 0.10,
    },
    // Greenspoint.
    Cluster {
        center: LatLng::new(29.9450, -95.4150),
        spread_m: 1_600.0,
        weight: 0.08,
    },
    // Pasadena.
    Cluster {
        center: LatLng::new(29.6900, -95.2050),
        spread_m: 2_000.0,
        weight: 0.08,
    },
    // Sugar Land.
    Cluster {
        center: LatLng::new(29.6000, -95.6200),
        spread_m: 2_400.0,
        weight: 0.08,
    },
    // Clear Lake.
    Cluster {
        center: LatLng::new(29.5750, -95.1400),
        spread_m: 1_800.0,
        weight: 0.06,
    },
];

/// How many businesses each dense type holds in the metro, by catalogue value.
pub type MetroDensity = BTreeMap<String, u32>;

/// The default [`MetroDensity`]: [`DEFAULT_METRO_DENSITY`].
pub fn default_density() -> MetroDensity {
    DEFAULT_METRO_DENSITY
        .iter()
        .map(|(value, count)| ((*value).to_owned(), *count))
        .collect()
}

/// How many businesses of `place_type` `city` holds when it is dense there; `None` for
/// the normal density.
pub(crate) fn dense_count(density: &MetroDensity, city: &City, place_type: &str) -> Option<u32> {
    if city.name != METRO_CITY {
        return None;
    }
    density.get(place_type).copied()
}

/// A point of a dense type: in a cluster, or (a third of them) anywhere in the viewport.
pub(crate) fn place_point(rng: &mut Rng, viewport: &Viewport) -> LatLng {
    if rng.chance(SCATTERED) {
        return uniform(rng, viewport);
    }
    let cluster = pick_cluster(rng);
    for _ in 0..PLACEMENT_ATTEMPTS {
        let (north, east) = (gaussian(rng) * cluster.spread_m, gaussian(rng) * cluster.spread_m);
        let lat = cluster.center.latitude + north / METRES_PER_DEGREE;
        let lng = cluster.center.longitude + east / (METRES_PER_DEGREE * cluster.center.latitude.to_radians().cos());
        let point = LatLng::new(lat, lng);
        if viewport.contains(point) {
            return point;
        }
    }
    // A cluster at the city's edge: keep the business in the city, on its border.
    LatLng::new(
        cluster
            .center
            .latitude
            .clamp(viewport.low.latitude, viewport.high.latitude),
        cluster
            .center
            .longitude
            .clamp(viewport.low.longitude, viewport.high.longitude),
    )
}

fn pick_cluster(rng: &mut Rng) -> &'static Cluster {
    let mut draw = rng.unit();
    for cluster in CLUSTERS {
        if draw < cluster.weight {
            return cluster;
        }
        draw -= cluster.weight;
    }
    // Rounding of the weights: the last centre takes the remainder.
    &CLUSTERS[CLUSTERS.len() - 1]
}

fn uniform(rng: &mut Rng, v: &Viewport) -> LatLng {
    LatLng::new(
        v.low.latitude + (v.high.latitude - v.low.latitude) * rng.unit(),
        v.low.longitude + (v.high.longitude - v.low.longitude) * rng.unit(),
    )
}

/// A standard normal draw (Box-Muller).
fn gaussian(rng: &mut Rng) -> f64 {
    // 1 - unit is in (0, 1], so the logarithm is finite.
    let radius = (-2.0 * (1.0 - rng.unit()).ln()).sqrt();
    radius * (std::f64::consts::TAU * rng.unit()).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::places_sim::cities::CITIES;

    fn metro() -> &'static City {
        CITIES
            .iter()
            .find(|c| c.name == METRO_CITY)
            .expect("the metro is a city")
    }

    #[test]
    fn cluster_weights_sum_to_one_and_centres_lie_in_the_metro() {
        let total: f64 = CLUSTERS.iter().map(|c| c.weight).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
        assert!(CLUSTERS.iter().all(|c| metro().viewport.contains(c.center)));
        assert!(CLUSTERS.windows(2).all(|w| w[0].weight >= w[1].weight), "biggest first");
    }

    #[test]
    fn most_points_gather_in_clusters_and_a_third_is_scattered() {
        let city = metro();
        let mut rng = Rng::new(11);
        let points: Vec<LatLng> = (0..6_000).map(|_| place_point(&mut rng, &city.viewport)).collect();
        assert!(points.iter().all(|p| city.viewport.contains(*p)));
        let near_a_centre = |p: &LatLng| CLUSTERS.iter().any(|c| c.center.distance_m(*p) <= 2.5 * c.spread_m);
        let clustered = points.iter().filter(|p| near_a_centre(p)).count() as f64 / points.len() as f64;
        // Two thirds in clusters (about 95% of them within 2.5 spreads) plus the scattered
        // points that happen to fall near a centre.
        assert!((0.62..0.75).contains(&clustered), "{clustered}");
        // Downtown holds the most: 30% of the clustered two thirds.
        let downtown = points
            .iter()
            .filter(|p| CLUSTERS[0].center.distance_m(**p) <= 2.0 * CLUSTERS[0].spread_m)
            .count() as f64
            / points.len() as f64;
        assert!((0.16..0.24).contains(&downtown), "{downtown}");
        // The far half of the city is not empty: the scattered third reaches it.
        let north = points.iter().filter(|p| p.latitude > 29.97).count();
        assert!(north > 100, "{north}");
    }

    #[test]
    fn only_the_metro_is_dense() {
        let density = default_density();
        assert_eq!(dense_count(&density, metro(), "dentist"), Some(1_500));
        assert_eq!(dense_count(&density, metro(), "restaurant"), Some(3_000));
        assert_eq!(dense_count(&density, metro(), "plumber"), None);
        assert_eq!(dense_count(&density, &CITIES[0], "dentist"), None);
    }
}
