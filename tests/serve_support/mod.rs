//! Helpers for the `dynalint serve` tests: an in-process server on an ephemeral
//! loopback port, stopped on drop, and a raw HTTP/1.1 client that reads answers by
//! their `content-length`, so the tests see exactly what goes over the wire.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use dynalint::engine::http::Limits;
use dynalint::engine::http::Load;
use dynalint::engine::server::{LoadHandle, ServeError, Server, StopHandle, DEFAULT_LIMITS};

/// How long any single wait may take on a loaded CI machine: only a broken server
/// reaches it.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A server running on its own thread.
pub struct Running {
    pub addr: SocketAddr,
    pub open: Arc<AtomicUsize>,
    pub load: LoadHandle,
    stop: StopHandle,
    join: Option<thread::JoinHandle<Result<(), ServeError>>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop.stop();
        if let Some(join) = self.join.take() {
            let served = join.join().unwrap();
            if !thread::panicking() {
                served.unwrap();
            }
        }
    }
}

/// Starts a server with these limits.
pub fn start(limits: Limits) -> Running {
    let server = Server::bind_with("127.0.0.1:0".parse().unwrap(), limits).unwrap();
    Running {
        addr: server.local_addr().unwrap(),
        open: server.connections(),
        load: server.load_handle(),
        stop: server.stop_handle(),
        join: Some(thread::spawn(move || server.serve())),
    }
}

/// Starts a server with the defaults.
pub fn start_default() -> Running {
    start(DEFAULT_LIMITS)
}

/// A request for `op` with a JSON body, on a kept-alive connection.
pub fn request(op: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.{op}\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// ListTables, the cheapest request.
pub fn list_tables() -> String {
    request("ListTables", "{}")
}

/// One answer as read from the wire.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    /// The head, header names lowercased.
    pub head: String,
    pub body: String,
}

impl Answer {
    /// The value of a header, by lowercase name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k == name).then(|| v.trim())
        })
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not JSON: {self:?}"))
    }
}

/// A connection that reads answers one at a time, keeping what follows.
pub struct Conn {
    pub stream: TcpStream,
    pending: Vec<u8>,
}

impl Conn {
    pub fn open(addr: SocketAddr) -> Conn {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        Conn {
            stream,
            pending: Vec::new(),
        }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    /// Sends a request and reads its answer.
    pub fn call(&mut self, request: &str) -> Answer {
        self.send(request.as_bytes());
        self.answer()
            .unwrap_or_else(|| panic!("no answer to {request:?}"))
    }

    /// Reads the next answer; None when the connection closes first.
    pub fn answer(&mut self) -> Option<Answer> {
        let mut buf = [0u8; 64 * 1024];
        loop {
            if let Some(end) = find(&self.pending, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&self.pending[..end]).to_string();
                let head = head
                    .lines()
                    .enumerate()
                    .map(|(i, l)| match l.split_once(':') {
                        Some((k, v)) if i > 0 => format!("{}:{v}", k.to_ascii_lowercase()),
                        _ => l.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("\r\n");
                let status: u16 = head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                let informational = (100..200).contains(&status);
                let have = self.pending.len() - end - 4;
                if informational || have >= length {
                    let length = if informational { 0 } else { length };
                    let body = String::from_utf8_lossy(&self.pending[end + 4..end + 4 + length])
                        .to_string();
                    self.pending.drain(..end + 4 + length);
                    return Some(Answer { status, head, body });
                }
            }
            match self.stream.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return None,
                Err(e) => panic!("no answer: {e}"),
            }
        }
    }

    /// True when the server closes the connection (after any answers still to read).
    pub fn closed(&mut self) -> bool {
        let mut buf = [0u8; 64 * 1024];
        loop {
            match self.stream.read(&mut buf) {
                Ok(0) => return true,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
                Err(_) => return false,
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Polls until `f` holds; the deadline only stops a broken server hanging the test.
pub fn eventually(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !f() {
        assert!(Instant::now() < deadline, "never: {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

/// Open connections now.
pub fn open(running: &Running) -> usize {
    running.open.load(Ordering::SeqCst)
}

/// What the server holds now.
pub fn load(running: &Running) -> Load {
    running.load.load()
}
