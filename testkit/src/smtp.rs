//! A real SMTP server for tests: aiosmtpd (PyPI, `testkit/smtp/requirements.txt`), run
//! from `testkit/smtp/.venv`, which `./leadgen test` creates. Every message it accepts
//! is written to a Maildir the test reads, exactly as the server received it.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// A running aiosmtpd; stopped when dropped.
pub struct SmtpServer {
    child: Child,
    /// Where it listens.
    pub port: u16,
    maildir: PathBuf,
}

/// The Python of the environment `./leadgen test` makes for aiosmtpd.
fn python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("smtp/.venv/bin/python")
}

impl SmtpServer {
    /// Starts aiosmtpd on a free loopback port, writing to a fresh Maildir.
    ///
    /// Panics with the set-up step when the environment is missing.
    pub async fn start() -> Self {
        let python = python();
        assert!(
            python.exists(),
            "aiosmtpd is not installed: run ./leadgen test once (it creates {})",
            python.display()
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let maildir = std::env::temp_dir().join(format!("leadgen-smtp-{}", uuid::Uuid::new_v4().simple()));
        let child = Command::new(python)
            .args(["-m", "aiosmtpd", "-n", "-l"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-c", "aiosmtpd.handlers.Mailbox"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start aiosmtpd");
        let server = Self { child, port, maildir };
        let deadline = Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
            assert!(Instant::now() < deadline, "aiosmtpd did not start listening");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        server
    }

    /// `smtp://127.0.0.1:{port}`: plain SMTP on loopback, as a local relay is.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// The messages received so far, each as the raw text the server was sent.
    pub fn messages(&self) -> Vec<String> {
        let mut messages = Vec::new();
        for sub in ["new", "cur"] {
            let Ok(entries) = std::fs::read_dir(self.maildir.join(sub)) else {
                continue;
            };
            for entry in entries.flatten() {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    messages.push(text);
                }
            }
        }
        messages
    }

    /// Waits until at least `count` messages arrived (or `timeout` passed) and returns them.
    pub async fn wait_for(&self, count: usize, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let messages = self.messages();
            if messages.len() >= count || Instant::now() >= deadline {
                return messages;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.maildir);
    }
}
