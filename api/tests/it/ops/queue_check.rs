//! `leadgen-api queue-check`, the chart's `helm test` that a fresh release can queue a
//! search: against a running API and worker it passes once a worker ran the search; with
//! no worker it fails, saying so, when its time is up.

use std::{process::Stdio, time::Duration};

use super::upgrade::{ApiProcess, Deployment, this_api};

/// Runs the check as the test pod does (the release's settings in its environment).
async fn queue_check(deployment: &Deployment, api: &ApiProcess, timeout_secs: u64) -> (bool, String) {
    let out = tokio::process::Command::new(this_api())
        .args(["queue-check", "--timeout", &timeout_secs.to_string(), &api.base])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(deployment.vars())
        .stderr(Stdio::inherit())
        .output()
        .await
        .expect("leadgen-api queue-check");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_check_passes_once_a_worker_ran_its_search_and_fails_without_workers() {
    let deployment = Deployment::new(Duration::from_millis(50)).await;
    let api = ApiProcess::start(&this_api(), &deployment).await;

    // No worker: the search waits in the queue until the check gives up.
    let (ok, out) = queue_check(&deployment, &api, 3).await;
    assert!(!ok, "no worker, no pass: {out}");
    assert!(out.contains("no worker took the search within 3s"), "{out}");

    // A worker: it takes the search (the one left queued above first), and the check
    // passes with the worker's answer (the simulator accepts the check's key).
    let worker = deployment.worker(super::worker_process::worker_binary());
    let (ok, out) = queue_check(&deployment, &api, 60).await;
    assert!(ok, "{out}");
    assert!(
        out.contains("was queued and a worker ran it (complete; complete)"),
        "{out}"
    );

    // Run again (every `helm test`), it reuses its account.
    let (ok, out) = queue_check(&deployment, &api, 60).await;
    assert!(ok, "{out}");
    worker.stop_gracefully().await;
    api.stop().await;
}
