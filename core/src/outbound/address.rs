//! Which addresses an outbound fetch may reach. Website addresses and webhook endpoints
//! come from third parties, so anything that is not a public unicast address is refused:
//! a "website" must not point our servers at our own network or a cloud metadata service.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why `ip` may not be reached, in plain words, or `None` when it is a public address.
/// The words name the kind of address, never the address itself: a website's address is
/// third-party data and error messages can end up in logs.
pub fn refusal(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refusal_v4(v4),
        IpAddr::V6(v6) => refusal_v6(v6),
    }
}

fn refusal_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    if ip.is_unspecified() || a == 0 {
        Some("an unspecified address (0.0.0.0/8)")
    } else if ip.is_loopback() {
        Some("a loopback address")
    } else if ip == Ipv4Addr::new(169, 254, 169, 254) {
        Some("the cloud metadata address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_private() {
        Some("a private address")
    } else if a == 100 && (b & 0b1100_0000) == 64 {
        // 100.64.0.0/10: carrier-grade NAT, reachable inside a provider's network only.
        Some("a shared (carrier-grade NAT) address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if ip.is_broadcast() || a >= 240 {
        Some("a reserved address")
    } else if ip.is_documentation() || (a == 198 && (b & 0xfe) == 18) || (a == 192 && b == 0 && c == 0) {
        // Documentation, benchmarking (198.18.0.0/15) and protocol assignments
        // (192.0.0.0/24): never a business's web server.
        Some("a reserved address")
    } else {
        None
    }
}

fn refusal_v6(ip: Ipv6Addr) -> Option<&'static str> {
    // Addresses that carry an IPv4 address are judged by it: ::ffff:127.0.0.1 is loopback.
    if let Some(v4) = embedded_v4(ip) {
        return refusal_v4(v4);
    }
    let segments = ip.segments();
    if ip.is_unspecified() {
        Some("an unspecified address (::)")
    } else if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if (segments[0] & 0xfe00) == 0xfc00 {
        Some("a unique-local address")
    } else if (segments[0] & 0xffc0) == 0xfe80 {
        Some("a link-local address")
    } else if (segments[0] & 0xffc0) == 0xfec0 {
        Some("a site-local address")
    } else if segments[0] == 0x2001 && segments[1] == 0x0db8 {
        Some("a reserved address")
    } else if segments[0] == 0x2001 && segments[1] == 0 {
        // Teredo tunnels to an address we cannot check.
        Some("a tunnelled (Teredo) address")
    } else if segments[..4] == [0x0100, 0, 0, 0] {
        Some("a discard-only address")
    } else if (segments[0] & 0xe000) != 0x2000 {
        // Only 2000::/3 is allocated for global unicast.
        Some("a reserved address")
    } else {
        None
    }
}

/// The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d),
/// NAT64 (64:ff9b::a.b.c.d) or 6to4 (2002:aabb:ccdd::) address.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    let tail = || Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
    if let Some(v4) = ip.to_ipv4_mapped() {
        Some(v4)
    } else if (s[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_loopback() && !ip.is_unspecified())
        || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0]
    {
        Some(tail())
    } else if s[0] == 0x2002 {
        Some(Ipv4Addr::new(
            (s[1] >> 8) as u8,
            s[1] as u8,
            (s[2] >> 8) as u8,
            s[2] as u8,
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(s: &str) -> bool {
        refusal(s.parse().expect("an address")).is_some()
    }

    #[test]
    fn refuses_every_non_public_ipv4_range() {
        for ip in [
            "0.0.0.0",
            "0.1.2.3",
            "127.0.0.1",
            "127.255.255.254",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "169.254.0.1",
            "100.64.0.1",
            "224.0.0.1",
            "239.255.255.250",
            "255.255.255.255",
            "240.0.0.1",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "198.18.0.1",
            "192.0.0.8",
        ] {
            assert!(refused(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn refuses_every_non_public_ipv6_range() {
        for ip in [
            "::",
            "::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
            "ff0e::1",
            "2001:db8::1",
            "2001::1",
            "100::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "2002:c0a8:101::1",
            "fd00:ec2::254",
            "4000::1",
        ] {
            assert!(refused(ip), "{ip} must be refused");
        }
    }

    #[test]
    fn accepts_public_addresses() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.216.34",
            "172.32.0.1",
            "100.128.0.1",
            "2606:4700:4700::1111",
            "2a00:1450:4001:81c::200e",
            "::ffff:8.8.8.8",
            "2002:0808:0808::1",
            "64:ff9b::808:808",
        ] {
            assert!(!refused(ip), "{ip} is public");
        }
    }

    #[test]
    fn the_metadata_address_has_its_own_words() {
        assert_eq!(
            refusal("169.254.169.254".parse().expect("ip")),
            Some("the cloud metadata address")
        );
    }
}
