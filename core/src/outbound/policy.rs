//! Which hosts are exempt from the address check (`LEADGEN_OUTBOUND_ALLOWED_HOSTS`).

use url::Url;

use crate::config::{Config, parse_host_port};

/// The exemptions from the address refusal: `host:port` pairs whose fakes listen on
/// loopback in tests and demos. Empty in production.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutboundPolicy {
    /// Lower-case host (IPv6 without brackets) and port.
    allowed_hosts: Vec<(String, u16)>,
}

impl OutboundPolicy {
    /// A policy exempting `allowed_hosts` (`host:port` each). Entries that are not
    /// `host:port` exempt nothing: configuration checks them first, naming the bad entry.
    pub fn new(allowed_hosts: Vec<String>) -> Self {
        Self {
            allowed_hosts: allowed_hosts.iter().filter_map(|h| parse_host_port(h).ok()).collect(),
        }
    }

    /// No exemption: every address is checked.
    pub fn strict() -> Self {
        Self::default()
    }

    /// Whether `url`'s host and port (the scheme's default when none is written) are
    /// exempt from the address check.
    pub fn is_exempt(&self, url: &Url) -> bool {
        let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
            return false;
        };
        let host = host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        self.allowed_hosts.iter().any(|(h, p)| *h == host && *p == port)
    }
}

// Declared here rather than in `config`, which imports nothing of the domain.
impl Config {
    /// The guarded client's policy: the exemptions of `LEADGEN_OUTBOUND_ALLOWED_HOSTS`.
    pub fn outbound_policy(&self) -> OutboundPolicy {
        OutboundPolicy::new(self.outbound.allowed_hosts.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).expect("a URL")
    }

    #[test]
    fn exempts_exactly_the_named_host_and_port() {
        let policy = OutboundPolicy::new(vec!["127.0.0.1:8090".into(), "Fake-Web:80".into(), "[::1]:9000".into()]);
        assert!(policy.is_exempt(&url("http://127.0.0.1:8090/x")));
        assert!(!policy.is_exempt(&url("http://127.0.0.1:8091/x")), "another port");
        assert!(policy.is_exempt(&url("http://fake-web/")), "the scheme's default port");
        assert!(!policy.is_exempt(&url("https://fake-web/")), "443 is not 80");
        assert!(policy.is_exempt(&url("http://[::1]:9000/")));
        assert!(!OutboundPolicy::strict().is_exempt(&url("http://127.0.0.1:8090/")));
    }

    #[test]
    fn the_setting_is_checked_entry_by_entry() {
        let hosts = |value: &str| {
            Config::from_lookup(|name| (name == "LEADGEN_OUTBOUND_ALLOWED_HOSTS").then(|| value.to_owned()))
                .map(|c| c.outbound.allowed_hosts)
        };
        assert_eq!(hosts("").expect("empty"), Vec::<String>::new());
        assert_eq!(hosts(" a:1, b.test:8080 ,").expect("two"), ["a:1", "b.test:8080"]);
        assert_eq!(hosts("[::1]:80").expect("IPv6"), ["[::1]:80"]);
        for bad in [
            "localhost",
            "localhost:http",
            ":80",
            "a:0",
            "a:70000",
            "http://a:80",
            "user@a:80",
        ] {
            let err = hosts(bad).expect_err(bad);
            assert_eq!(err.variable, "LEADGEN_OUTBOUND_ALLOWED_HOSTS");
            assert!(err.problem.contains(bad), "{err} names the entry");
        }
    }
}
