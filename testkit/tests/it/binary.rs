//! The `places-sim` binary: its options, its ready line, and that it serves.

use std::{process::Stdio, time::Duration};

use serde_json::json;
use tokio::{
    io::{AsyncBufReadExt, BufReader},
    process::Command,
};

use crate::http::{KEY, search};

#[tokio::test]
async fn binary_prints_its_url_and_serves_with_the_given_options() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_places-sim"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--seed",
            "7",
            "--rpm",
            "2",
            "--latency-ms",
            "1",
            "--jitter-ms",
            "1",
            "--metro-density",
            "dentist=250",
        ])
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("places-sim starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(stdout).lines();
    let line = tokio::time::timeout(Duration::from_secs(20), lines.next_line())
        .await
        .expect("ready in time")
        .expect("read")
        .expect("a line");
    let base_url = line
        .strip_prefix("places-sim listening on ")
        .expect("ready line")
        .to_owned();
    assert!(base_url.starts_with("http://127.0.0.1:"), "{line}");

    let body = json!({"textQuery": "Restaurant in Austin"});
    let first = search(&base_url, KEY, "places.id", &body).await;
    assert_eq!(first.status, 200);
    let expected = leadgen_testkit::places_sim::World::new(7).expected_places("Restaurant in Austin", None);
    assert_eq!(first.places()[0]["id"], expected[0]["id"], "--seed sets the world");
    let truth = crate::http::send(&base_url, "GET", "/_sim/truth?type=dentist&city=Houston", &[], "").await;
    assert_eq!(truth.body["count"], 250, "--metro-density sets the metro's dentists");
    assert_eq!(search(&base_url, KEY, "places.id", &body).await.status, 200);
    assert_eq!(search(&base_url, KEY, "places.id", &body).await.status, 429, "--rpm 2");

    child.kill().await.expect("stop");

    let refused = Command::new(env!("CARGO_BIN_EXE_places-sim"))
        .args(["--listen", "127.0.0.1:0", "--fault-rate", "1.5"])
        .output()
        .await
        .expect("runs");
    assert!(!refused.status.success(), "a fault rate above 1 is refused");
    let bad_density = Command::new(env!("CARGO_BIN_EXE_places-sim"))
        .args(["--listen", "127.0.0.1:0", "--metro-density", "dentist"])
        .output()
        .await
        .expect("runs");
    assert!(!bad_density.status.success(), "TYPE=COUNT is required");
}
