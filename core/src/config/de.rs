//! The deserializers the settings read through: each turns what the file or the
//! environment holds into the field's final type, refusing a bad value in words the
//! operator reads (`'-3' must be a whole number, 0 or more`). The error carries the key
//! path; `variables::config_error` turns it into the variable's name.

use std::{fmt::Display, net::SocketAddr, time::Duration};

use secrecy::{ExposeSecret, SecretString};
use serde::{
    Deserialize, Deserializer,
    de::{Error, Unexpected},
};
use url::Url;

/// Separates a field from its problem in a section check's message (see [`field_error`]).
pub(super) const FIELD_MARK: char = '\u{1f}';

/// A refusal raised by a section's own check of what requires what (the Stripe section
/// without its webhook secret): the message names the field, so the error maps to that
/// field's variable rather than to the section.
pub(super) fn field_error<E: Error>(field: &str, problem: impl Display) -> E {
    E::custom(format_args!("{FIELD_MARK}{field}{FIELD_MARK}{problem}"))
}

/// `'{value}' must be {expected}`, for a value that read but is out of bounds.
fn refuse<E: Error>(value: Unexpected<'_>, expected: &str) -> E {
    E::invalid_value(value, &expected)
}

/// Text, trimmed.
pub(super) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(String::deserialize(d)?.trim().to_owned())
}

/// Text, trimmed; blank is unset.
pub(super) fn optional_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(d)?
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty()))
}

/// A secret, trimmed; blank is unset.
pub(super) fn optional_secret<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SecretString>, D::Error> {
    Ok(Option::<SecretString>::deserialize(d)?
        .map(|v| v.expose_secret().trim().to_owned())
        .filter(|v| !v.is_empty())
        .map(SecretString::from))
}

/// An `http` or `https` URL.
pub(super) fn http_url<'de, D: Deserializer<'de>>(d: D) -> Result<Url, D::Error> {
    let value = text(d)?;
    parse_http_url(&value).map_err(|expected| refuse(Unexpected::Str(&value), &expected))
}

/// `value` as an `http` or `https` URL, or what it must be.
pub(super) fn parse_http_url(value: &str) -> Result<Url, String> {
    match Url::parse(value) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => Ok(url),
        Ok(_) => Err("an http or https URL".to_owned()),
        Err(e) => Err(format!("an http or https URL ({e})")),
    }
}

/// A socket address such as `127.0.0.1:8080`.
pub(super) fn listen<'de, D: Deserializer<'de>>(d: D) -> Result<SocketAddr, D::Error> {
    let value = text(d)?;
    value
        .parse()
        .map_err(|_| refuse(Unexpected::Str(&value), "a socket address such as 127.0.0.1:8080"))
}

/// A socket address, or `off` (`none`) for no listener.
pub(super) fn optional_listen<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SocketAddr>, D::Error> {
    let value = text(d)?;
    match value.as_str() {
        "off" | "none" => Ok(None),
        v => v
            .parse()
            .map(Some)
            .map_err(|_| refuse(Unexpected::Str(v), "a socket address such as 127.0.0.1:9090, or 'off'")),
    }
}

/// A whole number from `min` to `max`, described as `{unit} from {min} to {max}`.
pub(super) fn whole_in<'de, D: Deserializer<'de>>(d: D, min: i64, max: i64, unit: &str) -> Result<u64, D::Error> {
    let n = i64::deserialize(d)?;
    if (min..=max).contains(&n) {
        // Callers' bounds start at 0 or more, so `n` is not negative here.
        Ok(n.unsigned_abs())
    } else {
        Err(refuse(Unexpected::Signed(n), &format!("{unit} from {min} to {max}")))
    }
}

/// A whole number, 0 or more.
pub(super) fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let n = i64::deserialize(d)?;
    if n < 0 {
        return Err(refuse(Unexpected::Signed(n), "a whole number, 0 or more"));
    }
    Ok(n)
}

/// A whole number, 0 or more, where 0 means none.
pub(super) fn whole_or_none<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Some(whole(d)?).filter(|n| *n > 0))
}

/// Seconds from `min` to `max`.
pub(super) fn seconds_in<'de, D: Deserializer<'de>>(d: D, min: i64, max: i64) -> Result<Duration, D::Error> {
    whole_in(d, min, max, "a whole number of seconds").map(Duration::from_secs)
}

/// A number from `min` to `max`, described as `{unit} from {min} to {max}`.
pub(super) fn number_in<'de, D: Deserializer<'de>>(d: D, min: f64, max: f64, unit: &str) -> Result<f64, D::Error> {
    let n = f64::deserialize(d)?;
    if n.is_finite() && (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(refuse(Unexpected::Float(n), &format!("{unit} from {min} to {max}")))
    }
}

/// Comma-separated entries, each read by `parse` (which says what an entry must be);
/// blank entries are skipped, so an empty list is none.
pub(super) fn list<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, D::Error> {
    text(d)?
        .split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .map(|entry| parse(entry).map_err(|expected| refuse(Unexpected::Str(entry), &expected)))
        .collect()
}
