//! A minimal HTTP/1.1 client over a plain TCP socket: enough to talk to the simulator
//! the way any client would, without pulling a TLS stack into the testkit.

use std::{net::SocketAddr, time::Duration};

use serde_json::Value;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

/// Test key that passes Google's format check and triggers nothing.
pub const KEY: &str = "AIzaSyA_plain_0123456789abcdefghijklmno";

/// An answer: status, lower-cased headers, and the body (JSON, or `Null` when empty).
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Value,
}

impl Reply {
    /// The value of a header.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// `error.status` of a Google error body.
    pub fn error_status(&self) -> &str {
        self.body["error"]["status"].as_str().unwrap_or_default()
    }

    /// `error.message` of a Google error body.
    pub fn error_message(&self) -> &str {
        self.body["error"]["message"].as_str().unwrap_or_default()
    }

    /// The place objects of a search answer.
    pub fn places(&self) -> Vec<Value> {
        self.body["places"].as_array().cloned().unwrap_or_default()
    }

    /// `nextPageToken`, if any.
    pub fn next_page_token(&self) -> Option<String> {
        self.body["nextPageToken"].as_str().map(str::to_owned)
    }
}

fn addr_of(base_url: &str) -> SocketAddr {
    base_url
        .trim_start_matches("http://")
        .parse()
        .expect("base_url is http://ip:port")
}

/// Sends a request and reads the whole answer.
pub async fn send(base_url: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Reply {
    let mut stream = TcpStream::connect(addr_of(base_url)).await.expect("connect");
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        base_url.trim_start_matches("http://"),
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    parse(&raw)
}

/// `POST /v1/places:searchText` with a key and a field mask.
pub async fn search(base_url: &str, key: &str, mask: &str, body: &Value) -> Reply {
    send(
        base_url,
        "POST",
        "/v1/places:searchText",
        &[("X-Goog-Api-Key", key), ("X-Goog-FieldMask", mask)],
        &body.to_string(),
    )
    .await
}

/// `search`, giving up after `limit`.
pub async fn search_within(base_url: &str, key: &str, mask: &str, body: &Value, limit: Duration) -> Option<Reply> {
    tokio::time::timeout(limit, search(base_url, key, mask, body))
        .await
        .ok()
}

fn parse(raw: &[u8]) -> Reply {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("header end");
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        body = dechunk(&body);
    }
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into()))
    };
    Reply { status, headers, body }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&data[..line_end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        out.extend_from_slice(&data[start..start + size]);
        data = &data[start + size + 2..];
    }
    out
}
