//! Where a connection is: between requests, reading one, answering one; shared by
//! its byte stream ([`super::wire::Wire`], which keeps the deadlines) and its requests.

use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Waker;

use tokio::time::Instant;

use super::transport::lock;

/// HTTP/2's connection preface: a connection starting with it speaks HTTP/2.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Protocol {
    /// This many bytes of the HTTP/2 preface seen so far.
    Sniffing(usize),
    Http1,
    Http2,
}

/// Where a connection is, shared by its [`super::wire::Wire`] and its requests.
pub(super) struct Conn {
    phase: Mutex<Phase>,
}

pub(super) struct Phase {
    /// Requests whose answer is not yet written.
    pub(super) in_flight: usize,
    /// When the first byte of a request not yet handed to the service arrived.
    pub(super) began: Option<Instant>,
    /// A request's body is being read (its bytes start no new request).
    pub(super) body: bool,
    /// When the connection last finished an answer, or opened.
    pub(super) idle_since: Instant,
    pub(super) protocol: Protocol,
    /// Asked to close, to make room for another connection.
    pub(super) evict: bool,
    /// Closing after an error: hear the client out (see `wire::linger`).
    pub(super) linger: bool,
    /// Wakes the connection's task when it is asked to close.
    pub(super) waker: Option<Waker>,
}

impl Phase {
    /// Between requests: nothing to answer, no request begun.
    pub(super) fn is_idle(&self) -> bool {
        self.in_flight == 0 && (self.began.is_none() || self.protocol == Protocol::Http2)
    }

    /// Bytes arrived.
    pub(super) fn saw(&mut self, bytes: &[u8], now: Instant) {
        if let Protocol::Sniffing(n) = self.protocol {
            let take = (H2_PREFACE.len() - n).min(bytes.len());
            self.protocol = if bytes[..take] != H2_PREFACE[n..n + take] {
                Protocol::Http1
            } else if n + take == H2_PREFACE.len() {
                Protocol::Http2
            } else {
                Protocol::Sniffing(n + take)
            };
        }
        if self.began.is_none() && !self.body {
            self.began = Some(now);
        }
    }
}

impl Conn {
    pub(super) fn new() -> Conn {
        Conn {
            phase: Mutex::new(Phase {
                in_flight: 0,
                began: None,
                body: false,
                idle_since: Instant::now(),
                protocol: Protocol::Sniffing(0),
                evict: false,
                linger: false,
                waker: None,
            }),
        }
    }

    pub(super) fn phase(&self) -> MutexGuard<'_, Phase> {
        lock(&self.phase)
    }
}

/// Counts a request in flight on its connection until its answer is written (hyper
/// drops the answer's body then).
pub(super) struct InFlight(pub(super) Arc<Conn>);

impl InFlight {
    /// A request's head has arrived: returns when its first byte did.
    pub(super) fn begin(conn: Arc<Conn>) -> (InFlight, Instant) {
        let began = {
            let mut p = conn.phase();
            p.in_flight += 1;
            p.body = true;
            p.began.take().unwrap_or_else(Instant::now)
        };
        (InFlight(conn), began)
    }

    /// The request's body is read: bytes from now on start the next request.
    pub(super) fn body_read(&self) {
        let mut p = self.0.phase();
        p.body = false;
        p.began = None;
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut p = self.0.phase();
        p.in_flight = p.in_flight.saturating_sub(1);
        p.idle_since = Instant::now();
    }
}
