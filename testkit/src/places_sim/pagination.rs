//! Opaque page tokens. A token carries the offset of the next page and a fingerprint of
//! the request that produced it, sealed with a keyed hash, so it cannot be forged or
//! guessed, and a request that changes anything but `pageToken`, `pageSize` or
//! `maxResultCount` is refused, as Google documents for `page_token`.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use serde_json::Value;

use super::rng::hash_parts;

const VERSION: u8 = 1;
const FINGERPRINT_LEN: usize = 16;
const MAC_LEN: usize = 16;
const PAYLOAD_LEN: usize = 1 + 2 + FINGERPRINT_LEN;

/// Request fields that may change from page to page.
const PAGING_FIELDS: &[&str] = &["pageToken", "pageSize", "maxResultCount"];

/// Why a token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenError {
    /// Not a token this simulator issued (garbled, forged, or from another seed).
    Unknown,
    /// A real token, sent with different search parameters.
    OtherRequest,
}

/// Issues and checks page tokens for one simulator.
#[derive(Debug, Clone)]
pub(crate) struct PageTokens {
    secret: [u8; 32],
}

/// A request's identity for paging purposes.
pub(crate) type Fingerprint = [u8; FINGERPRINT_LEN];

impl PageTokens {
    /// Tokens keyed by the seed: stable across restarts of the same world.
    pub(crate) fn new(seed: u64) -> Self {
        Self {
            secret: hash_parts(&[b"places-sim/page-token", &seed.to_be_bytes()]),
        }
    }

    /// A token for the page starting at `offset` of the request `fingerprint`.
    pub(crate) fn issue(&self, fingerprint: &Fingerprint, offset: usize) -> String {
        let mut token = Vec::with_capacity(PAYLOAD_LEN + MAC_LEN);
        token.push(VERSION);
        token.extend_from_slice(&u16::try_from(offset).unwrap_or(u16::MAX).to_be_bytes());
        token.extend_from_slice(fingerprint);
        let mac = self.mac(&token);
        token.extend_from_slice(&mac);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// The offset a token points at, if it was issued for this same request.
    pub(crate) fn redeem(&self, token: &str, fingerprint: &Fingerprint) -> Result<usize, TokenError> {
        let bytes = URL_SAFE_NO_PAD.decode(token.trim()).map_err(|_| TokenError::Unknown)?;
        if bytes.len() != PAYLOAD_LEN + MAC_LEN || bytes[0] != VERSION {
            return Err(TokenError::Unknown);
        }
        let (payload, mac) = bytes.split_at(PAYLOAD_LEN);
        if self.mac(payload) != mac {
            return Err(TokenError::Unknown);
        }
        if &payload[3..] != fingerprint {
            return Err(TokenError::OtherRequest);
        }
        Ok(usize::from(u16::from_be_bytes([payload[1], payload[2]])))
    }

    fn mac(&self, payload: &[u8]) -> [u8; MAC_LEN] {
        let digest = hash_parts(&[&self.secret, payload]);
        let mut mac = [0u8; MAC_LEN];
        mac.copy_from_slice(&digest[..MAC_LEN]);
        mac
    }
}

/// The fingerprint of a `searchText` body: every field except the paging ones, in a
/// canonical form where an absent field equals its proto3 default (`""`, `0`, `false`).
pub(crate) fn fingerprint(body: &Value) -> Fingerprint {
    let mut canonical = String::new();
    if let Value::Object(map) = body {
        let mut keys: Vec<&String> = map
            .iter()
            .filter(|(k, v)| !PAGING_FIELDS.contains(&k.as_str()) && !is_default(v))
            .map(|(k, _)| k)
            .collect();
        keys.sort();
        for key in keys {
            canonical.push_str(key);
            canonical.push('=');
            write_canonical(&map[key], &mut canonical);
            canonical.push(';');
        }
    }
    let digest = hash_parts(&[b"places-sim/request", canonical.as_bytes()]);
    let mut out = [0u8; FINGERPRINT_LEN];
    out.copy_from_slice(&digest[..FINGERPRINT_LEN]);
    out
}

fn is_default(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(_) => false,
    }
}

/// JSON with sorted keys and numbers as `f64`, so `30` and `30.0` are the same request.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(key);
                out.push(':');
                write_canonical(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                write_canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Number(n) => out.push_str(&format!("{:?}", n.as_f64().unwrap_or_default())),
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_token_round_trips_only_for_its_own_request() {
        let tokens = PageTokens::new(1);
        let request = json!({"textQuery": "Restaurant in Austin", "includedType": "restaurant", "pageSize": 20});
        let print = fingerprint(&request);
        let token = tokens.issue(&print, 20);
        assert_eq!(tokens.redeem(&token, &print), Ok(20));

        let next_page = json!({"textQuery": "Restaurant in Austin", "includedType": "restaurant", "pageSize": 5, "pageToken": token});
        assert_eq!(
            tokens.redeem(&token, &fingerprint(&next_page)),
            Ok(20),
            "paging fields may change"
        );

        let other = json!({"textQuery": "Restaurant in Austin", "includedType": "cafe"});
        assert_eq!(
            tokens.redeem(&token, &fingerprint(&other)),
            Err(TokenError::OtherRequest)
        );
        assert_eq!(tokens.redeem("not-a-token", &print), Err(TokenError::Unknown));
        assert_eq!(
            PageTokens::new(2).redeem(&token, &print),
            Err(TokenError::Unknown),
            "another world's token"
        );
    }

    #[test]
    fn tampering_is_detected() {
        let tokens = PageTokens::new(1);
        let print = fingerprint(&json!({"textQuery": "x"}));
        let token = tokens.issue(&print, 20);
        let mut bytes = URL_SAFE_NO_PAD.decode(&token).expect("base64");
        bytes[2] = 40; // jump to offset 40 without the key
        assert_eq!(
            tokens.redeem(&URL_SAFE_NO_PAD.encode(bytes), &print),
            Err(TokenError::Unknown)
        );
    }

    #[test]
    fn defaults_and_number_spelling_do_not_change_the_request() {
        let a = fingerprint(
            &json!({"textQuery": "x", "includedType": "", "strictTypeFiltering": false,
            "locationBias": {"circle": {"center": {"latitude": 30, "longitude": -97}, "radius": 500}}}),
        );
        let b = fingerprint(
            &json!({"locationBias": {"circle": {"radius": 500.0, "center": {"longitude": -97.0, "latitude": 30.0}}},
            "textQuery": "x"}),
        );
        assert_eq!(a, b);
    }
}
