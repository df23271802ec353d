//! Integration tests of the Google fake (OAuth token endpoint, Sheets v4, Drive v3), over
//! real HTTP with reqwest as a client sees it.

use std::{net::SocketAddr, process::Stdio, time::Duration};

use leadgen_testkit::google_sim::{GoogleSim, SCOPE_DRIVE_FILE, SCOPE_SPREADSHEETS};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::Command,
};

const SPREADSHEET_MIME: &str = "application/vnd.google-apps.spreadsheet";
const INVALID_CREDENTIALS: &str = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

fn any_port() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

async fn sim() -> GoogleSim {
    GoogleSim::start(any_port()).await.expect("sim starts")
}

fn http() -> reqwest::Client {
    // reqwest is built without a default crypto provider; plain HTTP needs none, but the
    // client builder insists on one being installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// An answer: status, headers and the body as JSON (`Null` when empty or not JSON).
#[derive(Debug)]
struct Reply {
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Value,
}

impl Reply {
    fn error_status(&self) -> &str {
        self.body["error"]["status"].as_str().unwrap_or_default()
    }

    fn error_message(&self) -> &str {
        self.body["error"]["message"].as_str().unwrap_or_default()
    }
}

async fn reply(response: reqwest::Response) -> Reply {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.expect("body");
    Reply {
        status,
        headers,
        body: serde_json::from_str(&text).unwrap_or(Value::Null),
    }
}

/// Percent-encodes everything but unreserved characters, as a careful client encodes a
/// range in a path.
fn enc(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn form(pairs: &[(&str, &str)]) -> String {
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

async fn post_token(base: &str, pairs: &[(&str, &str)]) -> Reply {
    let response = http()
        .post(format!("{base}/token"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(pairs))
        .send()
        .await
        .expect("token request");
    reply(response).await
}

/// Exchanges a refresh token for an access token, as the app does.
async fn access_token(base: &str, refresh_token: &str) -> String {
    let answer = post_token(
        base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", "client-1"),
            ("client_secret", "secret-1"),
        ],
    )
    .await;
    assert_eq!(answer.status, 200, "{:?}", answer.body);
    answer.body["access_token"].as_str().expect("access_token").to_owned()
}

async fn get(base: &str, path: &str, token: &str) -> Reply {
    let response = http()
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .expect("GET");
    reply(response).await
}

async fn post(base: &str, path: &str, token: &str, body: &Value) -> Reply {
    let response = http()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("POST");
    reply(response).await
}

async fn create(base: &str, token: &str, body: &Value) -> Reply {
    post(base, "/v4/spreadsheets", token, body).await
}

async fn create_id(base: &str, token: &str, title: &str) -> String {
    let created = create(base, token, &json!({"properties": {"title": title}})).await;
    assert_eq!(created.status, 200, "{:?}", created.body);
    created.body["spreadsheetId"].as_str().expect("id").to_owned()
}

async fn append(base: &str, token: &str, id: &str, range: &str, query: &str, values: Value) -> Reply {
    let path = format!("/v4/spreadsheets/{id}/values/{}:append?{query}", enc(range));
    post(
        base,
        &path,
        token,
        &json!({"range": range, "majorDimension": "ROWS", "values": values}),
    )
    .await
}

/// A sim and an access token of `ann@example.com` with the export's scopes.
async fn sim_with_ann() -> (GoogleSim, String) {
    let sim = sim().await;
    let refresh = sim.grant_sheets("ann@example.com");
    let token = access_token(&sim.base_url, &refresh).await;
    (sim, token)
}

fn strings(rows: &[&[&str]]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|row| row.iter().map(|c| (*c).to_owned()).collect())
        .collect()
}

#[tokio::test]
async fn refresh_grant_leads_to_a_created_spreadsheet_that_can_be_read_back() {
    let sim = sim().await;
    let refresh = sim.grant_sheets("ann@example.com");
    let answer = post_token(
        &sim.base_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", "any"),
            ("client_secret", "any"),
        ],
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.body["token_type"], "Bearer");
    assert_eq!(answer.body["expires_in"], 3599);
    assert_eq!(answer.body["scope"], format!("{SCOPE_SPREADSHEETS} {SCOPE_DRIVE_FILE}"));
    assert!(
        answer.body.get("refresh_token").is_none(),
        "Google does not rotate refresh tokens"
    );
    let token = answer.body["access_token"].as_str().expect("token");

    let created = create(&sim.base_url, token, &json!({"properties": {"title": "Leads May"}})).await;
    assert_eq!(created.status, 200, "{:?}", created.body);
    let id = created.body["spreadsheetId"].as_str().expect("id");
    assert_eq!(id.len(), 44);
    assert!(id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert_eq!(
        created.body["spreadsheetUrl"],
        format!("https://docs.google.com/spreadsheets/d/{id}/edit")
    );
    assert_eq!(created.body["properties"]["title"], "Leads May");
    assert_eq!(created.body["properties"]["locale"], "en_US");
    assert_eq!(
        created.body["sheets"],
        json!([{"properties": {
            "sheetId": 0, "title": "Sheet1", "index": 0, "sheetType": "GRID",
            "gridProperties": {"rowCount": 1000, "columnCount": 26},
        }}])
    );

    let fetched = get(&sim.base_url, &format!("/v4/spreadsheets/{id}"), token).await;
    assert_eq!(fetched.status, 200);
    assert_eq!(fetched.body, created.body);
    let masked = get(
        &sim.base_url,
        &format!("/v4/spreadsheets/{id}?fields=spreadsheetId,properties.title,sheets.properties&includeGridData=false"),
        token,
    )
    .await;
    assert_eq!(masked.status, 200);
    assert_eq!(masked.body["properties"], json!({"title": "Leads May"}));
    assert!(masked.body.get("spreadsheetUrl").is_none(), "fields limits the answer");
    assert_eq!(masked.body["sheets"][0]["properties"]["title"], "Sheet1");

    let snapshot = sim.spreadsheet(id).expect("stored");
    assert_eq!(snapshot.owner, "ann@example.com");
    assert_eq!(snapshot.title, "Leads May");
    assert!(snapshot.created_by_app);
    assert_eq!(sim.spreadsheets_owned_by("ann@example.com"), vec![id.to_owned()]);

    let typo = create(&sim.base_url, token, &json!({"properties": {"titel": "x"}})).await;
    assert_eq!(typo.status, 400);
    assert_eq!(
        typo.error_message(),
        "Invalid JSON payload received. Unknown name \"titel\" at 'properties': Cannot find field."
    );
}

#[tokio::test]
async fn add_sheet_replies_with_the_new_tab_and_refuses_duplicate_names() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let id = create_id(base, &token, "Leads").await;
    let path = format!("/v4/spreadsheets/{id}:batchUpdate");

    let added = post(
        base,
        &path,
        &token,
        &json!({"requests": [{"addSheet": {"properties": {"title": "My Tab"}}}]}),
    )
    .await;
    assert_eq!(added.status, 200, "{:?}", added.body);
    assert_eq!(added.body["spreadsheetId"], id.as_str());
    let props = &added.body["replies"][0]["addSheet"]["properties"];
    assert_eq!(props["title"], "My Tab");
    assert_eq!(props["index"], 1);
    assert_eq!(props["sheetType"], "GRID");
    assert_eq!(props["gridProperties"], json!({"rowCount": 1000, "columnCount": 26}));
    assert!(props["sheetId"].as_i64().is_some_and(|n| n > 0));

    let duplicate = post(
        base,
        &path,
        &token,
        &json!({"requests": [{"addSheet": {"properties": {"title": "My Tab"}}}]}),
    )
    .await;
    assert_eq!(duplicate.status, 400);
    assert_eq!(duplicate.error_status(), "INVALID_ARGUMENT");
    assert_eq!(duplicate.body["error"]["code"], 400);
    assert_eq!(
        duplicate.error_message(),
        "Invalid requests[0].addSheet: A sheet with the name \"My Tab\" already exists. Please enter another name."
    );

    let unsupported = post(base, &path, &token, &json!({"requests": [{"updateCells": {}}]})).await;
    assert_eq!(unsupported.status, 400);
    let unknown = post(base, &path, &token, &json!({"requests": [{"addTab": {}}]})).await;
    assert_eq!(unknown.status, 400);
    assert!(
        unknown.error_message().contains("Unknown name \"addTab\""),
        "{}",
        unknown.error_message()
    );

    let tabs: Vec<String> = sim
        .spreadsheet(&id)
        .expect("stored")
        .tabs
        .into_iter()
        .map(|t| t.title)
        .collect();
    assert_eq!(tabs, ["Sheet1", "My Tab"]);
}

#[tokio::test]
async fn appends_land_after_the_previous_rows_of_quoted_tabs() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let created = create(
        base,
        &token,
        &json!({"properties": {"title": "Export"}, "sheets": [{"properties": {"title": "My Tab"}}, {"properties": {"title": "It's"}}]}),
    )
    .await;
    assert_eq!(created.status, 200, "{:?}", created.body);
    let id = created.body["spreadsheetId"].as_str().expect("id").to_owned();

    let header = append(
        base,
        &token,
        &id,
        "'My Tab'!A1",
        "valueInputOption=RAW",
        json!([["Name", "Phone", "City", "Rating"]]),
    )
    .await;
    assert_eq!(header.status, 200, "{:?}", header.body);
    assert!(
        header.body.get("tableRange").is_none(),
        "no table before the first append"
    );
    assert_eq!(header.body["updates"]["updatedRange"], "'My Tab'!A1:D1");

    let rows = append(
        base,
        &token,
        &id,
        "'My Tab'!A:D",
        "valueInputOption=RAW&insertDataOption=INSERT_ROWS",
        json!([["Acme", "+1 555", "Austin", 4.5], ["Bolt", "+1 556", "Boston", 4]]),
    )
    .await;
    assert_eq!(rows.status, 200, "{:?}", rows.body);
    assert_eq!(rows.body["spreadsheetId"], id.as_str());
    assert_eq!(rows.body["tableRange"], "'My Tab'!A1:D1");
    assert_eq!(
        rows.body["updates"],
        json!({"spreadsheetId": id, "updatedRange": "'My Tab'!A2:D3", "updatedRows": 2, "updatedColumns": 4, "updatedCells": 8})
    );

    let typed = append(
        base,
        &token,
        &id,
        "'It''s'",
        "valueInputOption=USER_ENTERED",
        json!([[1, true, "'=SUM(A1)"]]),
    )
    .await;
    assert_eq!(typed.status, 200, "{:?}", typed.body);
    assert_eq!(typed.body["updates"]["updatedRange"], "'It''s'!A1:C1");

    assert_eq!(
        sim.values(&id, "My Tab").expect("tab"),
        strings(&[
            &["Name", "Phone", "City", "Rating"],
            &["Acme", "+1 555", "Austin", "4.5"],
            &["Bolt", "+1 556", "Boston", "4"],
        ])
    );
    assert_eq!(
        sim.values(&id, "It's").expect("tab"),
        strings(&[&["1", "TRUE", "=SUM(A1)"]])
    );
    let grid = get(base, &format!("/v4/spreadsheets/{id}"), &token).await;
    assert_eq!(
        grid.body["sheets"][0]["properties"]["gridProperties"]["rowCount"], 1002,
        "INSERT_ROWS adds rows to the grid"
    );

    let unknown_tab = append(base, &token, &id, "Nope!A1", "valueInputOption=RAW", json!([["x"]])).await;
    assert_eq!(unknown_tab.status, 400);
    assert_eq!(unknown_tab.error_message(), "Unable to parse range: Nope!A1");
    let no_option = append(
        base,
        &token,
        &id,
        "'My Tab'!A1",
        "insertDataOption=INSERT_ROWS",
        json!([["x"]]),
    )
    .await;
    assert_eq!(no_option.status, 400);
    assert_eq!(no_option.error_status(), "INVALID_ARGUMENT");
    assert_eq!(
        sim.values(&id, "My Tab").expect("tab").len(),
        3,
        "refused appends write nothing"
    );
}

#[tokio::test]
async fn values_get_answers_the_range_and_omits_empty_values() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let id = create_id(base, &token, "Read me").await;
    let appended = append(
        base,
        &token,
        &id,
        "Sheet1",
        "valueInputOption=RAW",
        json!([["a", "b"], ["c"]]),
    )
    .await;
    assert_eq!(appended.status, 200);

    let read = get(
        base,
        &format!("/v4/spreadsheets/{id}/values/{}", enc("Sheet1!A1:D")),
        &token,
    )
    .await;
    assert_eq!(read.status, 200, "{:?}", read.body);
    assert_eq!(
        read.body,
        json!({"range": "Sheet1!A1:D1000", "majorDimension": "ROWS", "values": [["a", "b"], ["c"]]})
    );
    let raw_colon = get(base, &format!("/v4/spreadsheets/{id}/values/Sheet1!B1:B2"), &token).await;
    assert_eq!(raw_colon.body["values"], json!([["b"]]));
    assert_eq!(raw_colon.body["range"], "Sheet1!B1:B2");

    let empty = get(
        base,
        &format!("/v4/spreadsheets/{id}/values/{}", enc("Sheet1!E1:F5")),
        &token,
    )
    .await;
    assert_eq!(empty.status, 200);
    assert_eq!(empty.body, json!({"range": "Sheet1!E1:F5", "majorDimension": "ROWS"}));

    let columns = get(
        base,
        &format!("/v4/spreadsheets/{id}/values/Sheet1?majorDimension=COLUMNS"),
        &token,
    )
    .await;
    assert_eq!(columns.body["values"], json!([["a", "c"], ["b"]]));
}

#[tokio::test]
async fn drive_lists_only_the_callers_app_files_newest_first_in_pages() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let first = create_id(base, &token, "First").await;
    let second = create_id(base, &token, "Second").await;
    let third = create_id(base, &token, "Third").await;
    let outside = sim.create_spreadsheet("ann@example.com", "Made in the Sheets UI", &["Data"]);
    let bob = access_token(base, &sim.grant_sheets("bob@example.com")).await;
    create_id(base, &bob, "Bob's").await;
    // Touching the first file makes it the most recently modified.
    assert_eq!(
        append(base, &token, &first, "Sheet1", "valueInputOption=RAW", json!([["x"]]))
            .await
            .status,
        200
    );

    let q = enc("mimeType='application/vnd.google-apps.spreadsheet' and trashed=false");
    let page1 = get(base, &format!("/drive/v3/files?q={q}&spaces=drive&pageSize=2"), &token).await;
    assert_eq!(page1.status, 200, "{:?}", page1.body);
    assert_eq!(page1.body["kind"], "drive#fileList");
    assert_eq!(
        page1.body["files"],
        json!([
            {"kind": "drive#file", "id": first, "name": "First", "mimeType": SPREADSHEET_MIME},
            {"kind": "drive#file", "id": third, "name": "Third", "mimeType": SPREADSHEET_MIME},
        ])
    );
    let next = page1.body["nextPageToken"].as_str().expect("more pages");
    let page2 = get(
        base,
        &format!(
            "/drive/v3/files?q={q}&spaces=drive&pageSize=2&pageToken={next}&fields={}",
            enc("nextPageToken,files(id,name,modifiedTime)")
        ),
        &token,
    )
    .await;
    assert_eq!(page2.status, 200, "{:?}", page2.body);
    let files = page2.body["files"].as_array().expect("files");
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["id"], second.as_str());
    let mut keys: Vec<&String> = files[0].as_object().expect("file").keys().collect();
    keys.sort();
    assert_eq!(keys, ["id", "modifiedTime", "name"]);
    assert!(
        files[0]["modifiedTime"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z') && t.len() == 24)
    );
    assert!(page2.body.get("nextPageToken").is_none());
    assert!(page2.body.get("kind").is_none(), "only the requested fields");

    sim.mark_opened_with_app(&outside, "ann@example.com");
    let by_name = get(
        base,
        &format!("/drive/v3/files?q={q}&orderBy=name&fields={}", enc("files(name)")),
        &token,
    )
    .await;
    assert_eq!(
        by_name.body["files"],
        json!([{"name": "First"}, {"name": "Made in the Sheets UI"}, {"name": "Second"}, {"name": "Third"}])
    );

    let bad_q = get(base, &format!("/drive/v3/files?q={}", enc("mimeType = ")), &token).await;
    assert_eq!(bad_q.status, 400);
    assert_eq!(bad_q.error_message(), "Invalid Value");
    assert_eq!(
        bad_q.body["error"]["errors"][0],
        json!({"message": "Invalid Value", "domain": "global", "reason": "invalid", "location": "q", "locationType": "parameter"})
    );
    let foreign_token = get(
        base,
        &format!("/drive/v3/files?q={q}&pageSize=2&pageToken={next}"),
        &bob,
    )
    .await;
    assert_eq!(foreign_token.status, 400, "page tokens are bound to the caller");
}

#[tokio::test]
async fn unknown_expired_and_missing_access_tokens_get_401() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let unknown = get(base, "/v4/spreadsheets/1abc", "ya29.not-a-token").await;
    assert_eq!(unknown.status, 401);
    assert_eq!(unknown.error_status(), "UNAUTHENTICATED");
    assert_eq!(unknown.error_message(), INVALID_CREDENTIALS);
    assert!(
        unknown
            .headers
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("invalid_token"))
    );

    let id = create_id(base, &token, "Before expiry").await;
    sim.expire_access_tokens();
    let expired = get(base, &format!("/v4/spreadsheets/{id}"), &token).await;
    assert_eq!(expired.status, 401);
    assert_eq!(expired.body["error"]["details"][0]["reason"], "ACCESS_TOKEN_EXPIRED");
    let drive = get(base, "/drive/v3/files", &token).await;
    assert_eq!(drive.status, 401);
    assert_eq!(drive.body["error"]["errors"][0]["reason"], "authError");
    let fresh = access_token(base, &sim.grant_sheets("ann@example.com")).await;
    assert_eq!(get(base, &format!("/v4/spreadsheets/{id}"), &fresh).await.status, 200);

    let missing = reply(
        http()
            .get(format!("{base}/v4/spreadsheets/{id}"))
            .send()
            .await
            .expect("GET"),
    )
    .await;
    assert_eq!(missing.status, 401);
    assert_eq!(missing.error_status(), "UNAUTHENTICATED");
    let by_query = get(base, &format!("/v4/spreadsheets/{id}?access_token={fresh}"), "").await;
    assert_eq!(by_query.status, 401, "an empty Authorization header is not a token");
    let by_query = reply(
        http()
            .get(format!("{base}/v4/spreadsheets/{id}?access_token={fresh}"))
            .send()
            .await
            .expect("GET"),
    )
    .await;
    assert_eq!(by_query.status, 200, "access_token query parameter works");

    let short = GoogleSim::builder()
        .access_token_lifetime(Duration::from_millis(300))
        .start(any_port())
        .await
        .expect("starts");
    let token = access_token(&short.base_url, &short.grant_sheets("ann@example.com")).await;
    assert_eq!(create(&short.base_url, &token, &json!({})).await.status, 200);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(create(&short.base_url, &token, &json!({})).await.status, 401);
}

#[tokio::test]
async fn revoked_and_unknown_refresh_tokens_get_invalid_grant() {
    let sim = sim().await;
    let base = &sim.base_url;
    let refresh = sim.grant_sheets("ann@example.com");
    let token = access_token(base, &refresh).await;
    sim.revoke(&refresh);
    let refused = post_token(
        base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", "c"),
        ],
    )
    .await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.body,
        json!({"error": "invalid_grant", "error_description": "Token has been expired or revoked."})
    );
    assert_eq!(
        create(base, &token, &json!({})).await.status,
        401,
        "revoking also ends access tokens"
    );

    let unknown = post_token(
        base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", "1//0nope"),
            ("client_id", "c"),
        ],
    )
    .await;
    assert_eq!(unknown.body["error"], "invalid_grant");

    let other = sim.grant_sheets("bob@example.com");
    let revoked = http()
        .post(format!("{base}/revoke"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[("token", &other)]))
        .send()
        .await
        .expect("revoke");
    assert_eq!(revoked.status().as_u16(), 200);
    let again = post_token(
        base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &other),
            ("client_id", "c"),
        ],
    )
    .await;
    assert_eq!(again.body["error"], "invalid_grant");
}

#[tokio::test]
async fn the_token_endpoint_checks_the_configured_client_and_grant_type() {
    let sim = GoogleSim::builder()
        .client("app.apps.googleusercontent.com", "s3cret")
        .start(any_port())
        .await
        .expect("starts");
    let base = &sim.base_url;
    let refresh = sim.grant_sheets("ann@example.com");
    let with = |id: &'static str, secret: &'static str| {
        let refresh = refresh.clone();
        async move {
            post_token(
                base,
                &[
                    ("grant_type", "refresh_token"),
                    ("refresh_token", &refresh),
                    ("client_id", id),
                    ("client_secret", secret),
                ],
            )
            .await
        }
    };
    let unknown = with("other.apps.googleusercontent.com", "s3cret").await;
    assert_eq!(unknown.status, 401);
    assert_eq!(
        unknown.body,
        json!({"error": "invalid_client", "error_description": "The OAuth client was not found."})
    );
    let wrong_secret = with("app.apps.googleusercontent.com", "guess").await;
    assert_eq!(wrong_secret.status, 401);
    assert_eq!(wrong_secret.body["error"], "invalid_client");
    assert_eq!(with("app.apps.googleusercontent.com", "s3cret").await.status, 200);

    let basic = http()
        .post(format!("{base}/token"))
        .basic_auth("app.apps.googleusercontent.com", Some("s3cret"))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form(&[("grant_type", "refresh_token"), ("refresh_token", &refresh)]))
        .send()
        .await
        .expect("token");
    assert_eq!(basic.status().as_u16(), 200, "client_secret_basic works too");

    let code = post_token(
        base,
        &[
            ("grant_type", "authorization_code"),
            ("code", "x"),
            ("client_id", "app.apps.googleusercontent.com"),
        ],
    )
    .await;
    assert_eq!(code.status, 400);
    assert_eq!(code.body["error"], "unsupported_grant_type");
}

#[tokio::test]
async fn unknown_refresh_tokens_can_be_adopted_for_browser_tests() {
    let sim = GoogleSim::builder()
        .accept_unknown_refresh_tokens(true)
        .start(any_port())
        .await
        .expect("starts");
    let token = access_token(&sim.base_url, "refresh-from-the-oidc-fake").await;
    let id = create_id(&sim.base_url, &token, "Adopted").await;
    let digest = hex::encode(Sha256::digest(b"refresh-from-the-oidc-fake"));
    let identity = format!("user-{}", &digest[..8]);
    assert_eq!(sim.spreadsheet(&id).expect("stored").owner, identity);
    let again = access_token(&sim.base_url, "refresh-from-the-oidc-fake").await;
    let listed = get(&sim.base_url, "/drive/v3/files", &again).await;
    assert_eq!(
        listed.body["files"][0]["id"],
        id.as_str(),
        "the same token is the same identity"
    );
    sim.revoke("refresh-from-the-oidc-fake");
    let refused = post_token(
        &sim.base_url,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", "refresh-from-the-oidc-fake"),
            ("client_id", "c"),
        ],
    )
    .await;
    assert_eq!(
        refused.body["error"], "invalid_grant",
        "a revoked adopted token stays revoked"
    );
}

#[tokio::test]
async fn tokens_without_a_needed_scope_get_403_scope_insufficient() {
    let (sim, ann) = sim_with_ann().await;
    let base = &sim.base_url;
    let id = create_id(base, &ann, "Scoped").await;

    let drive_only = access_token(base, &sim.grant("ann@example.com", &["drive.readonly"])).await;
    let refused = append(base, &drive_only, &id, "Sheet1", "valueInputOption=RAW", json!([["x"]])).await;
    assert_eq!(refused.status, 403);
    assert_eq!(refused.error_status(), "PERMISSION_DENIED");
    assert_eq!(
        refused.error_message(),
        "Request had insufficient authentication scopes."
    );
    assert_eq!(
        refused.body["error"]["details"][0]["@type"],
        "type.googleapis.com/google.rpc.ErrorInfo"
    );
    assert_eq!(
        refused.body["error"]["details"][0]["reason"],
        "ACCESS_TOKEN_SCOPE_INSUFFICIENT"
    );
    assert_eq!(refused.body["error"]["details"][0]["domain"], "googleapis.com");
    assert_eq!(
        get(base, &format!("/v4/spreadsheets/{id}"), &drive_only).await.status,
        200,
        "reads are allowed"
    );

    let sheets_only = access_token(base, &sim.grant("ann@example.com", &[SCOPE_SPREADSHEETS])).await;
    let listing = get(base, "/drive/v3/files", &sheets_only).await;
    assert_eq!(listing.status, 403);
    assert_eq!(listing.body["error"]["errors"][0]["reason"], "insufficientPermissions");

    let profile_only = access_token(base, &sim.grant("ann@example.com", &["openid", "email"])).await;
    assert_eq!(create(base, &profile_only, &json!({})).await.status, 403);
    assert!(sim.values(&id, "Sheet1").expect("tab").is_empty());
}

#[tokio::test]
async fn another_identitys_spreadsheet_is_403_until_shared_and_unknown_ids_404() {
    let sim = sim().await;
    let base = &sim.base_url;
    let bobs = sim.create_spreadsheet("bob@example.com", "Bob's leads", &["Leads", "Notes"]);
    let ann = access_token(base, &sim.grant("ann@example.com", &["spreadsheets"])).await;

    let denied = get(base, &format!("/v4/spreadsheets/{bobs}"), &ann).await;
    assert_eq!(denied.status, 403);
    assert_eq!(denied.error_status(), "PERMISSION_DENIED");
    assert_eq!(denied.error_message(), "The caller does not have permission");
    let denied_write = append(base, &ann, &bobs, "Leads", "valueInputOption=RAW", json!([["x"]])).await;
    assert_eq!(denied_write.status, 403);

    sim.share(&bobs, "ann@example.com");
    let shared = get(base, &format!("/v4/spreadsheets/{bobs}"), &ann).await;
    assert_eq!(shared.status, 200);
    assert_eq!(shared.body["sheets"][1]["properties"]["title"], "Notes");
    assert_eq!(
        append(base, &ann, &bobs, "Leads", "valueInputOption=RAW", json!([["x"]]))
            .await
            .status,
        200
    );

    // With only drive.file, sharing is not enough: the app must have created or opened it.
    let file_only = access_token(base, &sim.grant("ann@example.com", &["drive.file"])).await;
    assert_eq!(
        get(base, &format!("/v4/spreadsheets/{bobs}"), &file_only).await.status,
        403
    );
    sim.mark_opened_with_app(&bobs, "ann@example.com");
    assert_eq!(
        get(base, &format!("/v4/spreadsheets/{bobs}"), &file_only).await.status,
        200
    );

    let missing = get(
        base,
        "/v4/spreadsheets/1DoesNotExist0000000000000000000000000000000",
        &ann,
    )
    .await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.error_status(), "NOT_FOUND");
    assert_eq!(missing.error_message(), "Requested entity was not found.");
}

#[tokio::test]
async fn the_write_quota_answers_429_per_identity() {
    let sim = GoogleSim::builder()
        .write_quota_per_minute(2)
        .start(any_port())
        .await
        .expect("starts");
    let base = &sim.base_url;
    let ann = access_token(base, &sim.grant_sheets("ann@example.com")).await;
    let id = create_id(base, &ann, "Quota").await;
    assert_eq!(
        append(base, &ann, &id, "Sheet1", "valueInputOption=RAW", json!([["1"]]))
            .await
            .status,
        200
    );
    let limited = append(base, &ann, &id, "Sheet1", "valueInputOption=RAW", json!([["2"]])).await;
    assert_eq!(limited.status, 429);
    assert_eq!(limited.error_status(), "RESOURCE_EXHAUSTED");
    assert!(
        limited
            .error_message()
            .starts_with("Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets.googleapis.com'"),
        "{}",
        limited.error_message()
    );
    assert_eq!(limited.body["error"]["details"][0]["reason"], "RATE_LIMIT_EXCEEDED");
    assert_eq!(sim.values(&id, "Sheet1").expect("tab"), strings(&[&["1"]]));
    assert_eq!(
        get(base, &format!("/v4/spreadsheets/{id}/values/Sheet1"), &ann)
            .await
            .status,
        200,
        "reads are not writes"
    );
    let bob = access_token(base, &sim.grant_sheets("bob@example.com")).await;
    assert_eq!(create(base, &bob, &json!({})).await.status, 200, "quotas are per user");
}

#[tokio::test]
async fn fail_next_injects_google_errors_then_recovers() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let id = create_id(base, &token, "Flaky").await;
    sim.fail_next(2, 503);
    for _ in 0..2 {
        let failed = append(base, &token, &id, "Sheet1", "valueInputOption=RAW", json!([["x"]])).await;
        assert_eq!(failed.status, 503);
        assert_eq!(
            failed.body,
            json!({"error": {"code": 503, "message": "The service is currently unavailable.", "status": "UNAVAILABLE"}})
        );
    }
    assert_eq!(
        append(base, &token, &id, "Sheet1", "valueInputOption=RAW", json!([["x"]]))
            .await
            .status,
        200
    );
    assert_eq!(
        sim.append_sizes(&id),
        vec![1],
        "failed requests did not reach the spreadsheet"
    );

    sim.fail_next(1, 500);
    let drive = get(base, "/drive/v3/files", &token).await;
    assert_eq!(drive.status, 500);
    assert_eq!(drive.error_status(), "INTERNAL");
    assert_eq!(drive.body["error"]["errors"][0]["reason"], "backendError");
    sim.fail_next(1, 429);
    assert_eq!(
        get(base, &format!("/v4/spreadsheets/{id}"), &token)
            .await
            .error_status(),
        "RESOURCE_EXHAUSTED"
    );

    let appends: Vec<u16> = sim
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/values/Sheet1:append"))
        .map(|r| r.status)
        .collect();
    assert_eq!(appends, [503, 503, 200]);
}

#[tokio::test]
async fn each_append_records_its_row_count_and_request() {
    let (sim, token) = sim_with_ann().await;
    let base = &sim.base_url;
    let id = create_id(base, &token, "Batches").await;
    for n in [3, 1, 5] {
        let rows: Vec<Value> = (0..n).map(|i| json!([format!("row {i}")])).collect();
        let answer = append(
            base,
            &token,
            &id,
            "'Sheet1'!A:A",
            "valueInputOption=RAW",
            Value::Array(rows),
        )
        .await;
        assert_eq!(answer.status, 200);
        assert_eq!(answer.body["updates"]["updatedRows"], n);
    }
    assert_eq!(sim.append_sizes(&id), vec![3, 1, 5]);
    assert_eq!(sim.values(&id, "Sheet1").expect("tab").len(), 9);
    let recorded: Vec<_> = sim
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with(":append"))
        .collect();
    assert_eq!(recorded.len(), 3);
    assert_eq!(
        recorded[0].path,
        format!("/v4/spreadsheets/{id}/values/'Sheet1'!A:A:append")
    );
    assert_eq!(recorded[0].query.as_deref(), Some("valueInputOption=RAW"));
    assert!(sim.requests().iter().any(|r| r.path == "/token" && r.status == 200));
}

#[tokio::test]
async fn bodies_over_ten_megabytes_are_refused() {
    let (sim, token) = sim_with_ann().await;
    let id = create_id(&sim.base_url, &token, "Big").await;
    let cell = "x".repeat(1024);
    let rows: Vec<Value> = (0..10_500).map(|_| json!([cell])).collect();
    let answer = append(
        &sim.base_url,
        &token,
        &id,
        "Sheet1",
        "valueInputOption=RAW",
        Value::Array(rows),
    )
    .await;
    assert_eq!(answer.status, 400);
    assert_eq!(
        answer.error_message(),
        "Request payload size exceeds the limit: 10485760 bytes."
    );
    assert!(sim.append_sizes(&id).is_empty());
}

#[tokio::test]
async fn the_binary_serves_the_sim_routes_with_the_given_client() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_google-sim"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--client-id",
            "cid",
            "--client-secret",
            "csecret",
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("google-sim starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .expect("ready in time")
        .expect("read")
        .expect("a line");
    let base = line
        .strip_prefix("google-sim listening on ")
        .expect("ready line")
        .to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{line}");

    let granted = reply(
        http()
            .post(format!("{base}/_sim/grants"))
            .json(&json!({"identity": "ann@example.com"}))
            .send()
            .await
            .expect("grant"),
    )
    .await;
    let refresh = granted.body["refreshToken"].as_str().expect("refreshToken").to_owned();
    let wrong_client = post_token(
        &base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", "x"),
        ],
    )
    .await;
    assert_eq!(wrong_client.status, 401, "--client-id is enforced");
    let answer = post_token(
        &base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", "cid"),
            ("client_secret", "csecret"),
        ],
    )
    .await;
    let token = answer.body["access_token"].as_str().expect("token").to_owned();
    let id = create_id(&base, &token, "From the browser").await;
    assert_eq!(
        append(&base, &token, &id, "Sheet1", "valueInputOption=RAW", json!([["a", 1]]))
            .await
            .status,
        200
    );

    let all = reply(
        http()
            .get(format!("{base}/_sim/spreadsheets"))
            .send()
            .await
            .expect("list"),
    )
    .await;
    assert_eq!(all.body[0]["id"], id.as_str());
    assert_eq!(all.body[0]["owner"], "ann@example.com");
    assert_eq!(
        all.body[0]["tabs"][0],
        json!({"title": "Sheet1", "sheetId": 0, "rows": [["a", "1"]]})
    );
    let one = reply(
        http()
            .get(format!("{base}/_sim/spreadsheets/{id}"))
            .send()
            .await
            .expect("one"),
    )
    .await;
    assert_eq!(one.body["title"], "From the browser");
    assert_eq!(one.body["appendSizes"], json!([1]));

    let expire = http()
        .post(format!("{base}/_sim/expire-access-tokens"))
        .send()
        .await
        .expect("expire");
    assert!(expire.status().is_success());
    assert_eq!(get(&base, &format!("/v4/spreadsheets/{id}"), &token).await.status, 401);
    let revoke = http()
        .post(format!("{base}/_sim/revoke"))
        .json(&json!({"refreshToken": refresh}))
        .send()
        .await
        .expect("revoke");
    assert!(revoke.status().is_success());
    let refused = post_token(
        &base,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", &refresh),
            ("client_id", "cid"),
            ("client_secret", "csecret"),
        ],
    )
    .await;
    assert_eq!(refused.body["error"], "invalid_grant");

    child.kill().await.expect("stop");
}
