//! The simulator's HTTP server: `POST /v1/places:searchText`, `GET /v1/places/{id}`
//! (Place Details) and `POST /v1:computeInsights` as Google serves them, and a few
//! `/_sim/*` routes for tests, demos and benchmarks to read what happened and what
//! the world holds.

use std::{
    collections::HashMap,
    net::SocketAddr,
    sync::Arc,
    time::{Duration, Instant},
};

use poem::{
    Body, EndpointExt, Request, Response, Route, handler,
    http::StatusCode,
    web::{Data, Json},
};
use serde_json::{Value, json};

use super::{
    catalogue,
    cities::{CITIES, City},
    config::{PlacesSimBuilder, SimConfig},
    errors::{self, KeyFault},
    faults::Faults,
    geo::{LatLng, Viewport},
    insights,
    mask::apply_field_mask,
    pagination::{PageTokens, TokenError},
    request,
    sku::{Sku, details_mask_sku, mask_sku},
    stats::{Recorder, SimStats, max_in_window, request_identity},
    world::World,
};
use crate::sim::{
    quota::PerMinuteQuota,
    server::{Bound, SimServer},
};

/// Everything the handlers share.
#[derive(Debug)]
struct SimState {
    world: Arc<World>,
    tokens: PageTokens,
    quota: PerMinuteQuota,
    faults: Faults,
    recorder: Arc<Recorder>,
    /// The fake web's base URL, when `websiteUri` should point there.
    fake_web: Option<String>,
}

/// A running simulator; stops when dropped.
pub struct PlacesSim {
    /// Base URL to put in `LEADGEN_PLACES_BASE_URL`, e.g. `http://127.0.0.1:41234`.
    pub base_url: String,
    config: SimConfig,
    state: Arc<SimState>,
    server: SimServer,
}

impl PlacesSim {
    /// Starts a simulator with default settings on `addr` (port 0 picks a free one).
    pub async fn start(addr: SocketAddr) -> std::io::Result<Self> {
        Self::start_with(addr, SimConfig::default()).await
    }

    /// A builder for non-default settings.
    pub fn builder() -> PlacesSimBuilder {
        PlacesSimBuilder::default()
    }

    pub(crate) async fn start_with(addr: SocketAddr, config: SimConfig) -> std::io::Result<Self> {
        let bound = Bound::bind(addr).await?;
        let state = Arc::new(SimState {
            world: Arc::new(
                World::with_metro_density(config.seed, config.metro_density.clone())
                    .with_unlisted(config.unlisted.iter().cloned()),
            ),
            tokens: PageTokens::new(config.seed),
            quota: PerMinuteQuota::new(config.rpm_quota),
            faults: Faults::new(
                config.seed,
                config.latency,
                config.jitter,
                config.fault_rate,
                config.slow_delay,
            ),
            recorder: Arc::new(Recorder::new()),
            fake_web: config.fake_web_url.clone(),
        });
        let app = Route::new()
            .at("/v1/places:searchText", poem::post(search_text))
            .at("/v1:computeInsights", poem::post(compute_insights))
            .at("/v1/places/:place_id", poem::get(place_details))
            .at("/_sim/stats", poem::get(stats))
            .at("/_sim/requests", poem::get(requests))
            .at("/_sim/reset", poem::post(reset))
            .at("/_sim/cities", poem::get(cities))
            .at("/_sim/truth", poem::get(truth))
            .data(state.clone());
        Ok(Self {
            base_url: bound.base_url(),
            config,
            state,
            server: bound.serve(app),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    /// The settings it runs with.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// Counters so far.
    pub fn stats(&self) -> SimStats {
        self.state.recorder.snapshot()
    }

    /// The world it serves, to compute expected answers.
    pub fn world(&self) -> &World {
        &self.state.world
    }

    /// The world's cities.
    pub fn cities(&self) -> &'static [City] {
        &CITIES
    }

    /// Every place the simulator returns for this query, over all pages (see
    /// [`World::expected_places`]).
    pub fn expected_places(&self, text_query: &str, included_type: Option<&str>) -> Vec<Value> {
        self.state.world.expected_places(text_query, included_type)
    }

    /// When each request with `key` arrived, since the simulator started.
    pub fn requests_for(&self, key: &str) -> Vec<Duration> {
        self.state.recorder.arrivals(key)
    }

    /// The most requests with `key` that arrived within any `window` (for example, to
    /// check a client's rate limiter with a 1 s window).
    pub fn max_requests_in_window(&self, key: &str, window: Duration) -> usize {
        max_in_window(&self.state.recorder.arrivals(key), window)
    }

    /// Clears counters, request times, quota windows and `FLAKY` memory.
    pub fn reset(&self) {
        self.state.reset();
    }
}

impl SimState {
    fn reset(&self) {
        self.recorder.reset();
        self.quota.reset();
        self.faults.reset();
    }

    /// Google's answer to one `searchText` request, checked in the order Google's front
    /// end checks: key, project state, quota, back end, then the request itself.
    fn answer(&self, key: &str, mask: Option<&str>, body: &[u8], arrived: Instant) -> Response {
        if key.is_empty() {
            return errors::missing_key();
        }
        if !well_formed_key(key) {
            return errors::invalid_key();
        }
        if let Some(fault) = KeyFault::of(key) {
            return fault.response();
        }
        if let Err(wait) = self.quota.admit(key, arrived) {
            return errors::rate_limited(self.quota.limit(), wait);
        }
        if self.faults.should_fail(key, body) {
            return errors::unavailable();
        }
        let Some(mask) = mask.map(str::trim).filter(|m| !m.is_empty()) else {
            return errors::missing_field_mask();
        };
        let sku = match mask_sku(mask) {
            Ok(sku) => sku,
            Err(path) => return errors::unknown_mask_path(&path),
        };
        let request = match request::parse(body) {
            Ok(r) => r,
            Err(rejection) => return rejection.response(),
        };
        let offset = match &request.page_token {
            None => 0,
            Some(token) => match self.tokens.redeem(token, &request.fingerprint) {
                Ok(offset) => offset,
                Err(TokenError::Unknown) => return errors::invalid_argument("Invalid page_token."),
                Err(TokenError::OtherRequest) => {
                    return errors::invalid_argument(
                        "The request parameters do not match those of the request that returned the page_token.",
                    );
                }
            },
        };

        let results = self.world.answer(&request.search);
        self.recorder.billed(sku, request_identity(key, mask, body));
        let mut page: Vec<Value> = results.iter().skip(offset).take(request.page_size).cloned().collect();
        if let Some(base) = &self.fake_web {
            page.iter_mut().for_each(|place| on_fake_web(place, base));
        }
        if page.is_empty() {
            // Google answers a search without results with an empty message.
            return ok_json(&json!({}));
        }
        let next = offset + page.len();
        let mut response = json!({ "places": page });
        if next < results.len() {
            response["nextPageToken"] = json!(self.tokens.issue(&request.fingerprint, next));
        }
        ok_json(&apply_field_mask(&response, mask))
    }
}

impl SimState {
    /// Google's answer to one Place Details request: the same checks as Text Search
    /// (key, project state, quota, back end), then the mask (without the `places.`
    /// prefix) and the place: 404 `NOT_FOUND` for an id the world does not hold.
    fn details(&self, key: &str, mask: Option<&str>, place_id: &str, arrived: Instant) -> Response {
        if key.is_empty() {
            return errors::missing_key();
        }
        if !well_formed_key(key) {
            return errors::invalid_key();
        }
        if let Some(fault) = KeyFault::of(key) {
            return fault.response();
        }
        if let Err(wait) = self.quota.admit(key, arrived) {
            return errors::rate_limited(self.quota.limit(), wait);
        }
        if self.faults.should_fail(key, place_id.as_bytes()) {
            return errors::unavailable();
        }
        let Some(mask) = mask.map(str::trim).filter(|m| !m.is_empty()) else {
            return errors::missing_field_mask();
        };
        let sku = match details_mask_sku(mask) {
            Ok(sku) => sku,
            Err(path) => return errors::unknown_mask_path(&path),
        };
        let Some(place) = self.world.place(place_id) else {
            return errors::not_found(&format!("Place ID {place_id} was not found."));
        };
        self.recorder
            .billed(sku, request_identity(key, mask, place_id.as_bytes()));
        let mut place = place.to_json();
        if let Some(base) = &self.fake_web {
            on_fake_web(&mut place, base);
        }
        ok_json(&apply_field_mask(&place, mask))
    }

    /// Google's answer to one `computeInsights` request: the same key checks as Text
    /// Search (key, project state, back end), then the request itself. Its quota is
    /// another API's, so Text Search's per-minute quota does not apply.
    fn insights(&self, key: &str, body: &[u8]) -> Response {
        if key.is_empty() {
            return errors::missing_key();
        }
        if !well_formed_key(key) {
            return errors::invalid_key();
        }
        if let Some(fault) = KeyFault::of(key) {
            return fault.response();
        }
        if self.faults.should_fail(key, body) {
            return errors::unavailable();
        }
        let request = match insights::parse(body) {
            Ok(r) => r,
            Err(refusal) => return refusal.response(),
        };
        match request.answer(&request.matches(&self.world)) {
            Ok(answer) => {
                self.recorder
                    .billed(Sku::PlacesAggregate, request_identity(key, "computeInsights", body));
                ok_json(&answer)
            }
            Err(message) => errors::invalid_argument(&message),
        }
    }
}

/// Points a place's `websiteUri` (`https://{slug}.example.com/`) at its fake-web site.
fn on_fake_web(place: &mut Value, base: &str) {
    let slug = place
        .get("websiteUri")
        .and_then(Value::as_str)
        .and_then(|uri| uri.strip_prefix("https://"))
        .and_then(|host| host.strip_suffix(".example.com/"))
        .map(str::to_owned);
    if let Some(slug) = slug {
        place["websiteUri"] = json!(crate::fake_web::site_url(base, &slug));
    }
}

/// Google's key format: `AIza` and at least 31 more of `[A-Za-z0-9_-]`.
fn well_formed_key(key: &str) -> bool {
    key.starts_with("AIza")
        && key.len() >= 35
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn ok_json(value: &Value) -> Response {
    Response::builder()
        .status(StatusCode::OK)
        .content_type("application/json; charset=UTF-8")
        .body(value.to_string())
}

/// The API key and field mask of a request: headers, or the `key` and `fields`/`$fields`
/// query parameters, which Google's system parameters also accept.
fn key_and_mask(req: &Request) -> (String, Option<String>) {
    let params: HashMap<String, String> = req.params().unwrap_or_default();
    let key = req
        .header("x-goog-api-key")
        .or_else(|| params.get("key").map(String::as_str))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let mask = req
        .header("x-goog-fieldmask")
        .map(str::to_owned)
        .or_else(|| params.get("fields").or_else(|| params.get("$fields")).cloned());
    (key, mask)
}

/// The key and field mask travel as headers, or as the `key` and `fields`/`$fields`
/// query parameters, which Google's system parameters also accept.
#[handler]
async fn search_text(req: &Request, body: Body, state: Data<&Arc<SimState>>) -> Response {
    let body = body.into_vec().await.unwrap_or_default();
    let (key, mask) = key_and_mask(req);
    let mask = mask.as_deref();
    let arrived = state.recorder.arrival((!key.is_empty()).then_some(key.as_str()));
    // Answer (and bill) when the latency is over, as a server does when its work is done;
    // meanwhile the request is in flight. A client that hangs up meanwhile is billed all
    // the same (the server is not told).
    let _in_flight = state.recorder.pending();
    let delay = state.faults.delay(&key);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    state.answer(&key, mask, &body, arrived)
}

/// `computeInsights`: the key as the `X-Goog-Api-Key` header or the `key` parameter,
/// after the same simulated latency as Text Search.
#[handler]
async fn compute_insights(req: &Request, body: Body, state: Data<&Arc<SimState>>) -> Response {
    let body = body.into_vec().await.unwrap_or_default();
    let params: HashMap<String, String> = req.params().unwrap_or_default();
    let key = req
        .header("x-goog-api-key")
        .or_else(|| params.get("key").map(String::as_str))
        .unwrap_or_default()
        .trim()
        .to_owned();
    state.recorder.insights_arrival();
    let _in_flight = state.recorder.pending();
    let delay = state.faults.delay(&key);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    state.insights(&key, &body)
}

/// `GET /v1/places/{placeId}`: the key and field mask as headers, or as the `key` and
/// `fields`/`$fields` query parameters; `languageCode`, `regionCode` and `sessionToken`
/// are taken and do not change the answer (the world speaks one language). After the
/// same simulated latency as Text Search.
#[handler]
async fn place_details(
    req: &Request,
    poem::web::Path(place_id): poem::web::Path<String>,
    state: Data<&Arc<SimState>>,
) -> Response {
    let (key, mask) = key_and_mask(req);
    let mask = mask.as_deref();
    let arrived = state
        .recorder
        .details_arrival((!key.is_empty()).then_some(key.as_str()));
    let _in_flight = state.recorder.pending();
    let delay = state.faults.delay(&key);
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    state.details(&key, mask, &place_id, arrived)
}

#[handler]
fn stats(state: Data<&Arc<SimState>>) -> Json<SimStats> {
    Json(state.recorder.snapshot())
}

/// `GET /_sim/requests?key=K`: arrival times of K's requests, in ms since start.
#[handler]
fn requests(req: &Request, state: Data<&Arc<SimState>>) -> Response {
    let params: HashMap<String, String> = req.params().unwrap_or_default();
    let Some(key) = params.get("key") else {
        return sim_error("missing query parameter: key");
    };
    let millis: Vec<u64> = state
        .recorder
        .arrivals(key)
        .iter()
        .map(|d| d.as_millis() as u64)
        .collect();
    ok_json(&json!({ "key": key, "timestampsMs": millis }))
}

/// `POST /_sim/reset`: clears counters, request times, quota windows and `FLAKY` memory.
#[handler]
fn reset(state: Data<&Arc<SimState>>) -> StatusCode {
    state.reset();
    StatusCode::NO_CONTENT
}

/// `GET /_sim/cities`: the world's cities, with viewports and ZIP codes.
#[handler]
fn cities() -> Json<&'static [City]> {
    Json(&CITIES)
}

/// `GET /_sim/truth?type=dentist&low=29.5,-95.8&high=30.1,-95.0` (or `city=Houston` for a
/// city's whole viewport; optional `minRating=4.0`): every business a search for the type
/// could find in the rectangle, uncapped ([`World::truth`]), as
/// `{"type", "count", "placeIds"}`. A bad parameter answers 400 `{"error": "..."}`.
#[handler]
fn truth(req: &Request, state: Data<&Arc<SimState>>) -> Response {
    let params: HashMap<String, String> = req.params().unwrap_or_default();
    let query = match TruthQuery::parse(&params, &state.world) {
        Ok(query) => query,
        Err(message) => return sim_error(&message),
    };
    let ids: Vec<String> = state
        .world
        .truth(query.place_type, &query.area, query.min_rating)
        .into_iter()
        .map(|p| p.id)
        .collect();
    ok_json(&json!({ "type": query.place_type, "count": ids.len(), "placeIds": ids }))
}

/// The checked parameters of `GET /_sim/truth`.
struct TruthQuery {
    place_type: &'static str,
    area: Viewport,
    min_rating: Option<f64>,
}

impl TruthQuery {
    fn parse(params: &HashMap<String, String>, world: &World) -> Result<Self, String> {
        let value = params.get("type").ok_or("missing query parameter: type")?;
        let place_type = catalogue::find(value.trim())
            .ok_or_else(|| format!("type is not a catalogue value: {value}"))?
            .value;
        let area = match (params.get("city"), params.get("low"), params.get("high")) {
            (Some(city), None, None) => {
                world
                    .city(city)
                    .ok_or_else(|| format!("no such city: {city}"))?
                    .viewport
            }
            (None, Some(low), Some(high)) => {
                let area = Viewport::new(lat_lng(low, "low")?, lat_lng(high, "high")?);
                if area.is_empty() {
                    return Err("the rectangle is empty: low must be south of high".to_owned());
                }
                area
            }
            _ => return Err("give either city, or both low and high".to_owned()),
        };
        let min_rating = params
            .get("minRating")
            .map(|r| r.trim().parse::<f64>())
            .transpose()
            .map_err(|e| format!("minRating is not a number: {e}"))?;
        if min_rating.is_some_and(|r| !(0.0..=5.0).contains(&r)) {
            return Err("minRating must be between 0.0 and 5.0".to_owned());
        }
        Ok(Self {
            place_type,
            area,
            min_rating,
        })
    }
}

/// "lat,lng" in degrees.
fn lat_lng(text: &str, name: &str) -> Result<LatLng, String> {
    let parsed = text
        .split_once(',')
        .and_then(|(lat, lng)| Some((lat.trim().parse::<f64>().ok()?, lng.trim().parse::<f64>().ok()?)));
    match parsed {
        Some((lat, lng)) if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lng) => {
            Ok(LatLng::new(lat, lng))
        }
        _ => Err(format!("{name} must be \"lat,lng\" in degrees, got {text:?}")),
    }
}

/// 400 with the simulator's own error shape (not Google's: `/_sim/*` is no Google API).
fn sim_error(message: &str) -> Response {
    Response::builder()
        .status(StatusCode::BAD_REQUEST)
        .content_type("application/json")
        .body(json!({ "error": message }).to_string())
}
