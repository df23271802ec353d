//! Which hosts are exempt from the address check (`LEADGEN_OUTBOUND_ALLOWED_HOSTS`).

use url::Url;

/// The exemptions from the address refusal: `host:port` pairs whose fakes listen on
/// loopback in tests and demos. Empty in production.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutboundPolicy {
    /// Lower-case host (IPv6 without brackets) and port.
    allowed_hosts: Vec<(String, u16)>,
}

impl OutboundPolicy {
    /// A policy exempting `allowed_hosts` (`host:port` each). Entries that are not
    /// `host:port` exempt nothing: configuration checks them first with
    /// [`parse_allowed_hosts`], which names the bad entry.
    pub fn new(allowed_hosts: Vec<String>) -> Self {
        Self {
            allowed_hosts: allowed_hosts.iter().filter_map(|h| parse_entry(h).ok()).collect(),
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

/// Splits the setting's comma-separated `host:port` entries, or says which entry is not
/// one. Blank entries are skipped, so an empty setting exempts nothing.
pub fn parse_allowed_hosts(setting: &str) -> Result<Vec<String>, String> {
    setting
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| parse_entry(entry).map(|_| entry.to_owned()))
        .collect()
}

fn parse_entry(entry: &str) -> Result<(String, u16), String> {
    let bad = || format!("`{entry}` is not host:port (for example fake-web:8090 or 127.0.0.1:8090)");
    let (host, port) = entry.trim().rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() || port == 0 || (host.contains([':', '/', '@']) && host.parse::<std::net::Ipv6Addr>().is_err()) {
        return Err(bad());
    }
    Ok((host.to_ascii_lowercase(), port))
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
        assert_eq!(parse_allowed_hosts(""), Ok(vec![]));
        assert_eq!(
            parse_allowed_hosts(" a:1, b.test:8080 ,"),
            Ok(vec!["a:1".to_owned(), "b.test:8080".to_owned()])
        );
        assert_eq!(parse_allowed_hosts("[::1]:80"), Ok(vec!["[::1]:80".to_owned()]));
        for bad in [
            "localhost",
            "localhost:http",
            ":80",
            "a:0",
            "a:70000",
            "http://a:80",
            "user@a:80",
        ] {
            let err = parse_allowed_hosts(bad).expect_err(bad);
            assert!(err.contains(bad), "{err} names the entry");
        }
    }
}
