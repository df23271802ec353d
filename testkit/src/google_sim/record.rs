//! A log of the requests the fake answered, so tests can assert retries and back-off.

use std::sync::Mutex;

use serde::Serialize;

/// One answered request (token, Sheets or Drive; `/_sim/*` is not logged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedRequest {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path with percent-escapes decoded, e.g. `/v4/spreadsheets/1abc/values/'My Tab'!A1:append`.
    pub path: String,
    /// The raw query string, if any (`valueInputOption=RAW&insertDataOption=INSERT_ROWS`).
    pub query: Option<String>,
    /// The status answered.
    pub status: u16,
}

/// Requests in the order they were answered.
#[derive(Debug, Default)]
pub(crate) struct RequestLog {
    entries: Mutex<Vec<RecordedRequest>>,
}

impl RequestLog {
    pub(crate) fn push(&self, request: RecordedRequest) {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).push(request);
    }

    pub(crate) fn all(&self) -> Vec<RecordedRequest> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Decodes `%XX` escapes (not `+`, which is literal in a path). Invalid escapes and
/// non-UTF-8 results are kept as sent, as no valid client sends them.
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_but_not_plus() {
        assert_eq!(percent_decode("%27My%20Tab%27%21A1%3AD"), "'My Tab'!A1:D");
        assert_eq!(percent_decode("a+b%zz%4"), "a+b%zz%4");
        assert_eq!(percent_decode("caf%C3%A9"), "café");
    }
}
