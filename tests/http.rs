//! A small blocking HTTP/1.1 client for the server tests and the serve bench, and
//! the bounded load test both run: connections kept alive, and every response
//! checked for the whole body its headers promised.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

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

/// One connection to the server, kept alive between requests.
pub struct Conn {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
}

impl Conn {
    pub fn open(addr: SocketAddr) -> std::io::Result<Conn> {
        let s = TcpStream::connect(addr)?;
        s.set_read_timeout(Some(Duration::from_secs(30)))?;
        s.set_nodelay(true)?;
        Ok(Conn {
            addr,
            reader: BufReader::new(s),
        })
    }

    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> std::io::Result<Response> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.addr);
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if method == "POST" {
            head.push_str(&format!("Content-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let s = self.reader.get_mut();
        s.write_all(head.as_bytes())?;
        // The server may answer (413) and close before the whole body is sent.
        let _ = s.write_all(body);
        self.read()
    }

    fn read(&mut self) -> std::io::Result<Response> {
        let mut line = String::new();
        self.reader.read_line(&mut line)?;
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let mut headers = Vec::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        let find = |n: &str| {
            headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v): &(String, String)| v.clone())
        };
        let (body, complete) = if find("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
            self.dechunk()
        } else if let Some(len) = find("content-length").and_then(|l| l.parse::<usize>().ok()) {
            let mut body = Vec::with_capacity(len);
            let got = (&mut self.reader)
                .take(len as u64)
                .read_to_end(&mut body)
                .unwrap_or(0);
            (body, got == len)
        } else {
            let mut body = Vec::new();
            let _ = self.reader.read_to_end(&mut body);
            (body, true)
        };
        Ok(Response {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
            complete,
        })
    }

    /// A chunked body, and whether its last (empty) chunk arrived.
    fn dechunk(&mut self) -> (Vec<u8>, bool) {
        let mut out = Vec::new();
        let mut line = String::new();
        loop {
            line.clear();
            if self.reader.read_line(&mut line).unwrap_or(0) == 0 {
                return (out, false);
            }
            let Ok(n) = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
            else {
                return (out, false);
            };
            let mut chunk = vec![0; n + 2];
            if self.reader.read_exact(&mut chunk).is_err() {
                return (out, false);
            }
            if n == 0 {
                return (out, true);
            }
            out.extend_from_slice(&chunk[..n]);
        }
    }
}

/// `GET path` on a connection of its own.
pub fn get(addr: SocketAddr, path: &str) -> std::io::Result<Response> {
    request(addr, "GET", path, &[], b"")
}

/// `POST path` with `body` of `content_type`, on a connection of its own.
pub fn post(
    addr: SocketAddr,
    path: &str,
    content_type: &str,
    body: &[u8],
) -> std::io::Result<Response> {
    request(addr, "POST", path, &[("Content-Type", content_type)], body)
}

pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<Response> {
    let mut all = vec![("Connection", "close")];
    all.extend_from_slice(headers);
    Conn::open(addr)?.send(method, path, &all, body)
}

/// What a load test saw.
#[derive(Debug, Default)]
pub struct Load {
    pub requests: usize,
    /// Failed requests (no answer, or a status other than 200), the first few described.
    pub errors: usize,
    pub first_errors: Vec<String>,
    pub incomplete: usize,
    /// Milliseconds each search-as-you-type request took, and each check.
    pub search_ms: Vec<f64>,
    pub check_ms: Vec<f64>,
}

impl Load {
    fn add(&mut self, other: Load) {
        self.requests += other.requests;
        self.errors += other.errors;
        self.incomplete += other.incomplete;
        self.search_ms.extend(other.search_ms);
        self.check_ms.extend(other.check_ms);
        for e in other.first_errors {
            if self.first_errors.len() < 5 {
                self.first_errors.push(e);
            }
        }
    }
}

/// The `p`-th percentile (0-100) of `ms`.
pub fn percentile(ms: &mut [f64], p: f64) -> f64 {
    if ms.is_empty() {
        return 0.0;
    }
    ms.sort_by(f64::total_cmp);
    let i = ((p / 100.0) * (ms.len() - 1) as f64).round() as usize;
    ms[i.min(ms.len() - 1)]
}

/// `clients` clients for `length`, each typing `questions` one key at a time (the
/// results fragment fetched for every prefix of three letters or more, as the page
/// does), and after every question checking a shipped scenario (from `shipped`)
/// or posting `pasted` to the API in turn.
pub fn load(
    addr: SocketAddr,
    clients: usize,
    length: Duration,
    questions: &[String],
    shipped: &[String],
    pasted: &str,
) -> Load {
    assert!(
        addr.ip().is_loopback(),
        "the load test runs on the loopback address only"
    );
    let end = Instant::now() + length;
    let mut total = Load::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|c| {
                scope.spawn(move || client(addr, (c, clients), end, questions, shipped, pasted))
            })
            .collect();
        for h in handles {
            total.add(h.join().expect("client thread"));
        }
    });
    total
}

/// Client `c` of `clients`.
fn client(
    addr: SocketAddr,
    (c, clients): (usize, usize),
    end: Instant,
    questions: &[String],
    shipped: &[String],
    pasted: &str,
) -> Load {
    let mut seen = Load::default();
    let mut conn: Option<Conn> = None;
    let mut round = c;
    while Instant::now() < end {
        let q = &questions[round % questions.len()];
        let cuts: Vec<usize> = q
            .char_indices()
            .map(|(i, _)| i)
            .skip(3)
            .chain([q.len()])
            .collect();
        for cut in cuts {
            let path = format!("/search/results?q={}", encode(&q[..cut]));
            if let Some(ms) = one(&mut conn, addr, &mut seen, "GET", &path, b"") {
                seen.search_ms.push(ms);
            }
        }
        let check = if round % 2 == 0 && !shipped.is_empty() {
            one(
                &mut conn,
                addr,
                &mut seen,
                "GET",
                &format!("/check/{}", shipped[round % shipped.len()]),
                b"",
            )
        } else {
            one(
                &mut conn,
                addr,
                &mut seen,
                "POST",
                "/api/check",
                pasted.as_bytes(),
            )
        };
        if let Some(ms) = check {
            seen.check_ms.push(ms);
        }
        round += clients;
    }
    seen
}

/// One request on the client's connection (opened again after a failure); its time in ms.
fn one(
    conn: &mut Option<Conn>,
    addr: SocketAddr,
    seen: &mut Load,
    method: &str,
    path: &str,
    body: &[u8],
) -> Option<f64> {
    let start = Instant::now();
    seen.requests += 1;
    let res = match conn {
        Some(c) => c.send(method, path, &[("Content-Type", "application/yaml")], body),
        None => Conn::open(addr).and_then(|mut c| {
            let r = c.send(method, path, &[("Content-Type", "application/yaml")], body);
            *conn = Some(c);
            r
        }),
    };
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let fail = match &res {
        Ok(r) if r.status == 200 && r.complete => None,
        Ok(r) if !r.complete => {
            seen.incomplete += 1;
            Some(format!(
                "{method} {path}: incomplete body ({} bytes)",
                r.body.len()
            ))
        }
        Ok(r) => Some(format!("{method} {path}: status {}", r.status)),
        Err(e) => Some(format!("{method} {path}: {e}")),
    };
    match fail {
        None => Some(ms),
        Some(msg) => {
            seen.errors += 1;
            if seen.first_errors.len() < 5 {
                seen.first_errors.push(msg);
            }
            *conn = None;
            None
        }
    }
}

/// `text` percent-encoded for a query string.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
