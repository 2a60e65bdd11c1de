//! A small blocking HTTP/1.1 client for the server tests and the serve bench:
//! one request per connection, and a check that the whole body arrived.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// One response.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
    /// Whether the body had every byte its `Content-Length` (or its chunks) promised.
    pub complete: bool,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> std::io::Result<Response> {
    request(addr, "GET", path, &[], b"")
}

/// `POST path` with `body` of `content_type`.
pub fn post(addr: SocketAddr, path: &str, content_type: &str, body: &[u8]) -> std::io::Result<Response> {
    request(addr, "POST", path, &[("Content-Type", content_type)], body)
}

pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Response> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes())?;
    // The server may answer (413) and close before the whole body is sent.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let read = s.read_to_end(&mut raw);
    if read.is_err() && raw.is_empty() {
        read?;
    }
    Ok(parse(&raw))
}

fn parse(raw: &[u8]) -> Response {
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n");
    let Some(split) = split else {
        return Response { status: 0, headers: Vec::new(), body: String::new(), complete: false };
    };
    let head = String::from_utf8_lossy(&raw[..split]);
    let rest = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let find = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let (body, complete) = if find("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        dechunk(rest)
    } else if let Some(len) = find("content-length").and_then(|l| l.parse::<usize>().ok()) {
        (rest[..len.min(rest.len())].to_vec(), rest.len() == len)
    } else {
        (rest.to_vec(), true)
    };
    Response { status, headers, body: String::from_utf8_lossy(&body).into_owned(), complete }
}

/// A chunked body, and whether its last (empty) chunk arrived.
fn dechunk(mut rest: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::new();
    loop {
        let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else { return (out, false) };
        let size = String::from_utf8_lossy(&rest[..eol]);
        let Ok(n) = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16) else {
            return (out, false);
        };
        rest = &rest[eol + 2..];
        if n == 0 {
            return (out, true);
        }
        if rest.len() < n + 2 {
            out.extend_from_slice(rest);
            return (out, false);
        }
        out.extend_from_slice(&rest[..n]);
        rest = &rest[n + 2..];
    }
}
