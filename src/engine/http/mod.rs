//! The HTTP transport of `dynalint serve`: hyper's HTTP/1.1 server (keep-alive,
//! pipelining, `Content-Length` and chunked bodies, `Expect: 100-continue`) and its
//! HTTP/2 server (prior knowledge), on a tokio runtime. What this module adds to hyper
//! is what a local DynamoDB shared by a test suite needs:
//!
//! - **Idle clients are never refused.** An idle connection costs a socket and a small
//!   task. Open connections are bounded only by [`Limits::max_connections`] and the
//!   process's open-file limit (raised to its hard limit at start); at that bound the
//!   longest-idle connection is closed to make room (clients reconnect transparently),
//!   and when none is idle a new connection waits in the listen queue.
//! - **Work and memory are bounded instead**: at most [`Limits::max_in_flight`]
//!   requests are read and executed at once, and at most [`Limits::max_buffered_bytes`]
//!   of request bodies are held at once; a request waits for its turn until its
//!   deadline and is then answered as [`Incoming::Busy`]. Headers are capped at
//!   [`MAX_HEADER_BYTES`] (hyper answers `431`), bodies at [`Limits::max_body_bytes`]
//!   ([`Incoming::TooLarge`], read past without being stored, or not read at all when
//!   the client waits for `100 Continue`).
//! - **Deadlines**: a request must arrive whole within [`Limits::request_timeout`] of
//!   its first byte ([`Incoming::TimedOut`], and the connection is closed); a
//!   connection with no request for [`Limits::idle_timeout`] is closed; a client that
//!   stops reading its answers is dropped after [`Limits::request_timeout`]. A waiting
//!   client holds no thread, so slow clients cannot starve the others.
//!
//! The handler ([`Handler`]) sees plain data ([`Incoming`]) and answers plain data
//! ([`Reply`]); [`Transport::connection`] serves any byte stream (the fuzz target feeds
//! it raw bytes), [`Listener`] serves TCP.

mod conn;
mod listener;
mod request;
mod transport;
mod wire;

use std::sync::Arc;
use std::time::Duration;

pub use listener::{Listener, Stop};
pub use transport::Transport;

/// The largest request head (request line and headers) read; a larger one is
/// answered `431` by hyper.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// How many requests, bytes and connections at once, and how long each may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once (also bounded by the open-file limit); at the bound
    /// the longest-idle connection is closed to make room, never a new one refused.
    pub max_connections: usize,
    /// From the first byte of a request to its last.
    pub request_timeout: Duration,
    /// How long a connection may wait for its next request.
    pub idle_timeout: Duration,
    /// The largest body stored; larger ones are [`Incoming::TooLarge`].
    pub max_body_bytes: usize,
    /// Requests being read or executed at once; more wait their turn.
    pub max_in_flight: usize,
    /// Bytes of request bodies held at once, across all requests; more wait.
    pub max_buffered_bytes: usize,
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
    /// The request did not arrive whole within [`Limits::request_timeout`].
    TimedOut,
    /// No room to read or run the request before its deadline.
    Busy,
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

/// Turns an [`Incoming`] into a [`Reply`]. It runs on the runtime's worker threads, so
/// it should answer promptly (the engine's operations are bounded by DynamoDB's own
/// limits: 1 MB pages, 100-item transactions).
pub type Handler = Arc<dyn Fn(&Incoming) -> Reply + Send + Sync>;

/// What a transport holds at a moment.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Load {
    /// Connections open (those closing after an error, heard out, included).
    pub connections: usize,
    /// Requests being read or run.
    pub in_flight: usize,
    /// Bytes of request bodies held.
    pub buffered_bytes: usize,
}
