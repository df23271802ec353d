//! `leadgen-worker` as a real process, optionally as a Kubernetes pod sees itself: in its
//! own PID and UTS namespaces (PID 1, its own hostname), via util-linux `unshare`.

use std::{
    path::PathBuf,
    process::{Child, Command, ExitStatus, Stdio},
    time::Duration,
};

use leadgen_testkit::places_sim::{MAX_RESULTS, PlacesSim};
use serde_json::Value;

use crate::{
    search::env::{Mode, SearchEnv},
    support::{TEST_ENCRYPTION_KEY, TEST_JWT_SECRET},
};

/// A distributed environment for worker processes: no in-process workers, Google at one
/// second a page (so each search spans a kill, a stop or a restart), no rate or daily
/// lead limit in the way.
pub async fn slow_distributed_env() -> SearchEnv {
    SearchEnv::start(
        Mode::Distributed,
        PlacesSim::builder().latency(Duration::from_millis(1_000)),
        0,
        vec![
            ("LEADGEN_PLACES_RPS", "1000".into()),
            // Many searches at once reserve more leads than the free daily allowance.
            ("LEADGEN_FREE_DAILY_LEADS", "0".into()),
        ],
    )
    .await
}

/// `target/<profile>/leadgen-worker`, next to this test's own `deps/` directory.
/// `./leadgen test` builds it just before the tests; a plain `cargo test` that finds none
/// builds it here (a nested cargo resolves features for this one package, so it may
/// rebuild dependencies: slow, but only the first time).
pub fn worker_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>");
    let binary = profile_dir.join("leadgen-worker");
    if !binary.exists() {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "-q", "-p", "leadgen-worker", "--bin", "leadgen-worker"])
            .status()
            .expect("cargo build");
        assert!(status.success(), "building leadgen-worker failed");
    }
    binary
}

/// Why pod-like workers cannot run here, if they cannot: `unshare` needs util-linux and
/// root (CAP_SYS_ADMIN) for new PID, UTS and mount namespaces.
pub fn pods_unavailable() -> Option<String> {
    match Command::new("unshare")
        .args(["--pid", "--uts", "--fork", "--mount-proc", "sh", "-c", "hostname probe"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
    {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "unshare --pid --uts --mount-proc failed ({}): it needs root; {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Some(format!("util-linux unshare is not installed: {e}")),
    }
}

/// How to start one worker.
#[derive(Default)]
pub struct Launch<'a> {
    /// Run it as a pod: in new PID and UTS namespaces with this hostname.
    pub pod_hostname: Option<&'a str>,
    /// `LEADGEN_WORKER_NAME` (what the chart sets from the pod's name).
    pub name: Option<&'a str>,
    /// More environment variables.
    pub extra: Vec<(&'a str, String)>,
    /// Where to keep every line the worker logs (for scans of what it writes).
    pub log: Option<std::sync::Arc<std::sync::Mutex<Vec<String>>>>,
    /// Another `leadgen-worker` than this build's (the upgrade test's release N).
    pub binary: Option<PathBuf>,
}

/// What a worker process connects to.
pub struct Target<'a> {
    /// `DATABASE_URL`.
    pub database_url: &'a str,
    /// `LEADGEN_REDIS_PREFIX`.
    pub prefix: &'a str,
    /// `LEADGEN_PLACES_BASE_URL`.
    pub places_url: &'a str,
}

/// A running worker process; killed if the test ends first.
pub struct WorkerProcess {
    child: Option<Child>,
    /// The name it gave itself in the fleet.
    pub name: String,
    /// Its `/metrics`.
    pub metrics_url: String,
    /// Under `unshare`, the worker is the launcher's child; this is its host PID.
    pub worker_pid: u32,
}

impl WorkerProcess {
    /// Starts a worker against `env` and waits until it says it is taking jobs.
    pub fn start(env: &SearchEnv, launch: Launch<'_>) -> Self {
        let target = Target {
            database_url: &env.app._db.url,
            prefix: env.prefix(),
            places_url: &env.sim.base_url,
        };
        Self::start_on(&target, launch)
    }

    /// Starts a worker against `target` and waits until it says it is taking jobs.
    pub fn start_on(target: &Target<'_>, launch: Launch<'_>) -> Self {
        let binary = launch.binary.clone().unwrap_or_else(worker_binary);
        let mut command = match launch.pod_hostname {
            Some(hostname) => {
                let mut c = Command::new("unshare");
                c.args(["--pid", "--uts", "--fork", "--mount-proc", "--kill-child=SIGKILL"])
                    .args(["sh", "-c", r#"hostname "$0" && exec "$1""#, hostname])
                    .arg(&binary);
                c
            }
            None => Command::new(&binary),
        };
        command
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", target.database_url)
            .env("REDIS_URL", leadgen_testkit::db::redis_url())
            .env("LEADGEN_REDIS_PREFIX", target.prefix)
            .env("LEADGEN_ENCRYPTION_KEY", TEST_ENCRYPTION_KEY)
            .env("LEADGEN_JWT_SECRET", TEST_JWT_SECRET)
            .env("LEADGEN_PLACES_BASE_URL", target.places_url)
            .env("LEADGEN_PLACES_RPS", "1000")
            .env("LEADGEN_FREE_DAILY_LEADS", "0")
            .env("LEADGEN_WORKER_METRICS_LISTEN", "127.0.0.1:0")
            .env(
                "RUST_LOG",
                std::env::var("WORKER_LOG").unwrap_or_else(|_| "warn".into()),
            );
        if let Some(name) = launch.name {
            command.env("LEADGEN_WORKER_NAME", name);
        }
        for (k, v) in &launch.extra {
            command.env(k, v);
        }
        let mut child = command.stdout(Stdio::piped()).spawn().expect("start leadgen-worker");
        let stdout = child.stdout.take().expect("stdout");
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let log = launch.log.clone();
        std::thread::spawn(move || {
            use std::io::BufRead;
            let mut metrics = String::new();
            let echo = std::env::var_os("WORKER_LOG").is_some();
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if echo {
                    eprintln!("[worker] {line}");
                }
                if let Some(log) = &log {
                    log.lock().unwrap_or_else(|e| e.into_inner()).push(line.clone());
                }
                if let Some(url) = line.strip_prefix("leadgen-worker metrics on ") {
                    metrics = url.trim().to_owned();
                }
                if let Some(name) = line
                    .strip_prefix("leadgen-worker ")
                    .and_then(|rest| rest.strip_suffix(" is taking jobs"))
                {
                    let _ = ready_tx.send((name.to_owned(), metrics.clone()));
                }
            }
        });
        let (name, metrics_url) = ready_rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the worker starts taking jobs within 60 s");
        let worker_pid = match launch.pod_hostname {
            Some(_) => child_of(child.id()).expect("the worker inside the pod"),
            None => child.id(),
        };
        Self {
            child: Some(child),
            name,
            metrics_url,
            worker_pid,
        }
    }

    /// `leadgen_jobs_running` as the worker reports it now.
    pub async fn jobs_running(&self) -> f64 {
        let text = reqwest::get(&self.metrics_url)
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        text.lines()
            .find_map(|l| l.strip_prefix("leadgen_jobs_running "))
            .and_then(|v| v.trim().parse().ok())
            .expect("jobs_running sample")
    }

    /// Sends `signal` (e.g. `KILL`, `TERM`) to the worker itself.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([format!("-{signal}"), self.worker_pid.to_string()])
            .status()
            .expect("kill");
        assert!(status.success(), "kill -{signal} {}", self.worker_pid);
    }

    /// Waits up to `limit` for the process (or its pod) to exit.
    pub async fn wait_exit(mut self, limit: Duration) -> ExitStatus {
        let mut child = self.child.take().expect("a running worker");
        let deadline = std::time::Instant::now() + limit;
        loop {
            if let Some(exit) = child.try_wait().expect("wait") {
                return exit;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{} did not exit within {limit:?}", self.name);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGTERM, then wait (up to the grace period a pod would get) for a clean exit.
    pub async fn stop_gracefully(self) {
        self.signal("TERM");
        let name = self.name.clone();
        let exit = self.wait_exit(Duration::from_secs(30)).await;
        assert!(exit.success(), "{name} exits cleanly on SIGTERM: {exit}");
    }
}

impl Drop for WorkerProcess {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The PID of `parent`'s child process (read from /proc), waiting briefly for it.
fn child_of(parent: u32) -> Option<u32> {
    for _ in 0..100 {
        let found = std::fs::read_dir("/proc")
            .ok()?
            .filter_map(Result::ok)
            .find_map(|entry| {
                let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                // `pid (comm) state ppid ...`: comm may hold spaces, so split after ')'.
                let ppid: u32 = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
                (ppid == parent).then_some(pid)
            });
        if found.is_some() {
            return found;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

/// A finished search's events: it completed, and every lead the simulator holds for it
/// arrived exactly once, in Google's order, numbered without gaps.
pub fn assert_every_lead_once(env: &SearchEnv, kind: &str, city: &str, events: &[(u64, Value)]) {
    assert_leads_once(&env.sim, kind, city, events);
}

/// [`assert_every_lead_once`] against the simulator `sim`.
pub fn assert_leads_once(sim: &PlacesSim, kind: &str, city: &str, events: &[(u64, Value)]) {
    let last = &events.last().expect("events").1;
    assert_eq!(last["type"], "complete", "{kind} in {city} ended with {last}");
    let leads: Vec<String> = events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["lead"]["placeId"].as_str().expect("place id").to_owned())
        .collect();
    let unique: std::collections::HashSet<&String> = leads.iter().collect();
    assert_eq!(unique.len(), leads.len(), "{kind} in {city}: a lead was sent twice");
    let business_type = leadgen_core::catalogue::find(kind).expect("catalogue type");
    let expected: Vec<String> = sim
        .expected_places(&business_type.text_query(city), Some(kind))
        .iter()
        .take(MAX_RESULTS)
        .map(|p| p["id"].as_str().expect("id").to_owned())
        .collect();
    assert_eq!(leads, expected, "{kind} in {city}: every lead arrives, in order");
    let found: Vec<u64> = events
        .iter()
        .filter(|(_, e)| e["type"] == "business_found")
        .map(|(_, e)| e["found"].as_u64().expect("found"))
        .collect();
    assert_eq!(
        found,
        (1..=leads.len() as u64).collect::<Vec<_>>(),
        "numbered without gaps"
    );
    let results = last["results"].as_array().expect("results").len();
    assert_eq!(results, leads.len(), "{kind} in {city}: complete lists every lead");
}
