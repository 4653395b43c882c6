//! The HTTP/1.1 transport of `dynalint serve`: a listener with a bounded number of
//! connections, each on its own thread, and deadlines on every request, so that idle
//! or stuck clients can neither exhaust threads nor stall anyone else.
//!
//! - At most [`Limits::max_connections`] connections are served at once; one more is
//!   answered `503` at once and closed.
//! - A connection waits [`Limits::idle_timeout`] for a request to start; a request,
//!   once its first byte is in, must arrive whole (headers and body) within
//!   [`Limits::request_timeout`], or it is answered `408` and the connection closed.
//! - Headers are capped at [`MAX_HEADER_BYTES`]; a body over the caller's limit is
//!   reported as [`Incoming::TooLarge`] without being stored.
//!
//! Only what DynamoDB's JSON protocol needs: `Content-Length` bodies (no chunked
//! uploads: `411`), keep-alive, one response per request.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The largest request head (request line and headers) read.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// How many connections, and how long each may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    /// From the first byte of a request to its last.
    pub request_timeout: Duration,
    /// Waiting for the next request on a kept-alive connection.
    pub idle_timeout: Duration,
    /// The largest body stored; larger ones are [`Incoming::TooLarge`].
    pub max_body_bytes: usize,
}

/// What arrived on a connection.
#[derive(Debug)]
pub enum Incoming {
    Request {
        method: String,
        headers: Vec<(String, String)>,
        body: Vec<u8>,
    },
    /// A body over [`Limits::max_body_bytes`] (read past, not stored).
    TooLarge,
    /// Not HTTP we understand; the text says why.
    Malformed(String),
    /// Chunked or otherwise unsized body.
    LengthRequired,
    /// The request did not arrive whole within [`Limits::request_timeout`].
    TimedOut,
}

impl Incoming {
    /// A header's value, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        match self {
            Incoming::Request { headers, .. } => headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }
}

/// What the handler answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: String,
}

/// Turns an [`Incoming`] into a [`Reply`].
pub type Handler = Arc<dyn Fn(&Incoming) -> Reply + Send + Sync>;

/// A bound listener.
pub struct Listener {
    listener: TcpListener,
    addr: SocketAddr,
    limits: Limits,
    stopped: Arc<AtomicBool>,
    active: Arc<AtomicUsize>,
}

/// Stops [`Listener::serve`] from another thread.
#[derive(Clone)]
pub struct Stop {
    stopped: Arc<AtomicBool>,
    addr: SocketAddr,
}

impl Stop {
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
    }
}

impl Listener {
    pub fn bind(addr: SocketAddr, limits: Limits) -> io::Result<Listener> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        Ok(Listener {
            listener,
            addr,
            limits,
            stopped: Arc::new(AtomicBool::new(false)),
            active: Arc::new(AtomicUsize::new(0)),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn stop_handle(&self) -> Stop {
        Stop {
            stopped: Arc::clone(&self.stopped),
            addr: self.addr,
        }
    }

    /// Connections being served now.
    pub fn active(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.active)
    }

    /// Accepts connections until stopped. `busy` answers a connection over the bound.
    pub fn serve(&self, handler: Handler, busy: Reply) {
        for stream in self.listener.incoming() {
            if self.stopped.load(Ordering::SeqCst) {
                return;
            }
            let Ok(stream) = stream else { continue };
            let _ = stream.set_nodelay(true);
            let taken = self
                .active
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < self.limits.max_connections).then_some(n + 1)
                });
            if taken.is_err() {
                refuse(stream, &busy);
                continue;
            }
            let active = Arc::clone(&self.active);
            let handler = Arc::clone(&handler);
            let limits = self.limits;
            let spawned = thread::Builder::new()
                .name("dynalint-serve-conn".into())
                .spawn(move || {
                    connection(stream, &limits, &*handler);
                    active.fetch_sub(1, Ordering::SeqCst);
                });
            if spawned.is_err() {
                self.active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }
}

/// Answers a connection there is no room for, without waiting on it.
fn refuse(mut stream: TcpStream, busy: &Reply) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = write_reply(&mut stream, busy, false);
    let _ = stream.shutdown(Shutdown::Write);
    // Unread request bytes at close would reset the connection and lose the answer:
    // take what has already arrived, without waiting for more.
    if stream.set_nonblocking(true).is_ok() {
        let mut buf = [0u8; 16 * 1024];
        while matches!(stream.read(&mut buf), Ok(1..)) {}
    }
}

/// A reader whose every read ends by a deadline.
struct Deadline {
    stream: TcpStream,
    until: Instant,
}

impl Read for Deadline {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        self.stream.set_read_timeout(Some(left))?;
        self.stream.read(buf).map_err(|e| match e.kind() {
            io::ErrorKind::WouldBlock => io::ErrorKind::TimedOut.into(),
            _ => e,
        })
    }
}

/// Serves one connection: requests until the client closes, asks to close, or errs.
fn connection(stream: TcpStream, limits: &Limits, handler: &(dyn Fn(&Incoming) -> Reply + Sync)) {
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let _ = out.set_write_timeout(Some(limits.request_timeout));
    let mut input = BufReader::new(Deadline {
        stream,
        until: Instant::now() + limits.idle_timeout,
    });
    loop {
        input.get_mut().until = Instant::now() + limits.idle_timeout;
        match input.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(_) => {}
        }
        input.get_mut().until = Instant::now() + limits.request_timeout;
        let (incoming, keep_alive) = read_request(&mut input, limits);
        let reply = handler(&incoming);
        let ok = matches!(incoming, Incoming::Request { .. });
        let keep = ok && keep_alive;
        if write_reply(&mut out, &reply, keep).is_err() || !keep {
            linger(&mut input, &mut out);
            return;
        }
    }
}

/// Closes after an answer: stop writing, then read what the client still sends for a
/// moment, so the answer is not lost to a reset.
fn linger(input: &mut BufReader<Deadline>, out: &mut TcpStream) {
    let _ = out.flush();
    let _ = out.shutdown(Shutdown::Write);
    input.get_mut().until = Instant::now() + Duration::from_millis(500);
    let _ = io::copy(&mut input.take(16 << 20), &mut io::sink());
}

/// Reads one request; the flag says whether the connection may stay open.
fn read_request(input: &mut BufReader<Deadline>, limits: &Limits) -> (Incoming, bool) {
    let mut head: Vec<String> = Vec::new();
    let mut head_bytes = 0usize;
    loop {
        let mut line = Vec::new();
        let room = (MAX_HEADER_BYTES - head_bytes) as u64 + 1;
        match input.by_ref().take(room).read_until(b'\n', &mut line) {
            Ok(0) => return (Incoming::Malformed("the request ended early".into()), false),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::TimedOut => return (Incoming::TimedOut, false),
            Err(_) => return (Incoming::Malformed("unreadable request".into()), false),
        }
        head_bytes += line.len();
        if head_bytes > MAX_HEADER_BYTES {
            return (
                Incoming::Malformed(format!("request headers over {MAX_HEADER_BYTES} bytes")),
                false,
            );
        }
        if !line.ends_with(b"\n") {
            return (Incoming::Malformed("the request ended early".into()), false);
        }
        let text = String::from_utf8_lossy(&line)
            .trim_end_matches(['\r', '\n'])
            .to_string();
        if text.is_empty() {
            if head.is_empty() {
                continue; // stray blank lines between requests are allowed
            }
            break;
        }
        head.push(text);
    }
    let mut parts = head[0].split_whitespace();
    let (Some(method), Some(_target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return (Incoming::Malformed("bad request line".into()), false);
    };
    if !version.starts_with("HTTP/1.") {
        return (Incoming::Malformed("not HTTP/1.x".into()), false);
    }
    let mut headers = Vec::new();
    for line in &head[1..] {
        let Some((k, v)) = line.split_once(':') else {
            return (Incoming::Malformed("bad header line".into()), false);
        };
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    let keep_alive = match get("connection").as_deref() {
        Some("close") => false,
        Some("keep-alive") => true,
        _ => version == "HTTP/1.1",
    };
    if get("transfer-encoding").is_some_and(|t| t != "identity") {
        return (Incoming::LengthRequired, false);
    }
    let length = match get("content-length") {
        None => 0,
        Some(v) => match v.parse::<u64>() {
            Ok(n) => n,
            Err(_) => return (Incoming::Malformed("bad Content-Length".into()), false),
        },
    };
    if length > limits.max_body_bytes as u64 {
        // Read it past (by the deadline), so the answer reaches a client still sending.
        let _ = io::copy(&mut input.by_ref().take(length), &mut io::sink());
        return (Incoming::TooLarge, false);
    }
    let mut body = Vec::with_capacity(length as usize);
    match input.by_ref().take(length).read_to_end(&mut body) {
        Ok(n) if n as u64 == length => {}
        Ok(_) => return (Incoming::Malformed("the body ended early".into()), false),
        Err(e) if e.kind() == io::ErrorKind::TimedOut => return (Incoming::TimedOut, false),
        Err(_) => return (Incoming::Malformed("unreadable body".into()), false),
    }
    (
        Incoming::Request {
            method: method.to_string(),
            headers,
            body,
        },
        keep_alive,
    )
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

fn write_reply(out: &mut TcpStream, reply: &Reply, keep_alive: bool) -> io::Result<()> {
    // One write: head and body leave in the same segment when they fit.
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Length: {}\r\nConnection: {}\r\n",
        reply.status,
        reason(reply.status),
        reply.body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    );
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    head.push_str(&reply.body);
    out.write_all(head.as_bytes())?;
    out.flush()
}
