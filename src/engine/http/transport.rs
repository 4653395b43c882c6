//! The transport: hyper's servers over each connection, the limits shared by all of
//! them, and the choice of a connection to close at the connection bound.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;

use super::conn::Conn;
use super::request::respond;
use super::wire::{written_reply, Wire};
use super::{Handler, Incoming, Limits, Load, MAX_HEADER_BYTES};

/// Serves connections over one handler, within one set of [`Limits`].
#[derive(Clone)]
pub struct Transport(pub(super) Arc<Shared>);

pub(super) struct Shared {
    pub(super) limits: Limits,
    pub(super) handler: Handler,
    pub(super) http: auto::Builder<TokioExecutor>,
    pub(super) in_flight: Semaphore,
    pub(super) in_flight_cap: usize,
    pub(super) buffered: Semaphore,
    pub(super) buffered_cap: usize,
    /// Open connections, for choosing one to close at the bound.
    pub(super) conns: Mutex<HashMap<u64, Arc<Conn>>>,
    pub(super) next_id: AtomicU64,
    pub(super) open: Arc<AtomicUsize>,
    /// Signalled whenever a connection closes.
    pub(super) closed: Notify,
    /// The answer to a request whose head does not arrive in time (see [`super::wire::Wire`]).
    pub(super) head_timed_out: Bytes,
}

impl Transport {
    /// A transport answering through `handler`.
    pub fn new(limits: Limits, handler: Handler) -> Transport {
        let mut http = auto::Builder::new(TokioExecutor::new());
        // No header-read timer of hyper's own: it would also close idle connections,
        // silently; `Wire` keeps both deadlines.
        http.http1()
            .keep_alive(true)
            .half_close(true)
            .max_buf_size(MAX_HEADER_BYTES)
            .header_read_timeout(None);
        http.http2()
            .timer(TokioTimer::new())
            .max_concurrent_streams(128)
            .max_header_list_size(MAX_HEADER_BYTES as u32);
        let head_timed_out = written_reply(&handler(&Incoming::TimedOut));
        // A body of the largest size must be able to get its bytes.
        let buffered_cap = limits
            .max_buffered_bytes
            .max(limits.max_body_bytes)
            .min(Semaphore::MAX_PERMITS);
        let in_flight_cap = limits.max_in_flight.clamp(1, Semaphore::MAX_PERMITS);
        Transport(Arc::new(Shared {
            limits,
            handler,
            http,
            in_flight: Semaphore::new(in_flight_cap),
            in_flight_cap,
            buffered: Semaphore::new(buffered_cap),
            buffered_cap,
            conns: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            open: Arc::new(AtomicUsize::new(0)),
            closed: Notify::new(),
            head_timed_out,
        }))
    }

    /// Connections open now (those closing, whose client is still being heard out,
    /// included).
    pub fn open(&self) -> Arc<AtomicUsize> {
        Arc::clone(&self.0.open)
    }

    /// What the transport holds now.
    pub fn load(&self) -> Load {
        let s = &self.0;
        Load {
            connections: s.open.load(Ordering::SeqCst),
            in_flight: s.in_flight_cap - s.in_flight.available_permits(),
            buffered_bytes: s.buffered_cap - s.buffered.available_permits(),
        }
    }

    /// Serves one connection until it closes. It counts as open from this call on.
    pub fn connection<I>(&self, io: I) -> impl Future<Output = ()> + Send + 'static
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        self.connection_with_id(io).1
    }

    /// [`Transport::connection`], and the connection's id.
    pub(super) fn connection_with_id<I>(
        &self,
        io: I,
    ) -> (u64, impl Future<Output = ()> + Send + 'static)
    where
        I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let shared = Arc::clone(&self.0);
        let id = shared.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn::new());
        lock(&shared.conns).insert(id, Arc::clone(&conn));
        shared.open.fetch_add(1, Ordering::SeqCst);
        let registered = Registered {
            shared: Arc::clone(&shared),
            id,
        };
        let served = async move {
            let wire = Wire::new(io, Arc::clone(&conn), &shared, registered);
            let service = {
                let shared = Arc::clone(&shared);
                let conn = Arc::clone(&conn);
                hyper::service::service_fn(move |request| {
                    let shared = Arc::clone(&shared);
                    let conn = Arc::clone(&conn);
                    async move { Ok::<_, Infallible>(respond(&shared, conn, request).await) }
                })
            };
            let mut served =
                std::pin::pin!(shared.http.serve_connection(TokioIo::new(wire), service));
            if served.as_mut().await.is_err() {
                // Bad HTTP (hyper has answered it) or a broken connection: hear the
                // client out for a moment so the answer is not lost to a reset.
                conn.phase().linger = true;
            }
        };
        (id, served)
    }

    /// Asks the longest-idle connection but `spare` to close, unless one asked is
    /// still closing.
    pub(super) fn make_room(&self, spare: Option<u64>) {
        let conns = lock(&self.0.conns);
        let mut victim: Option<(Instant, &Arc<Conn>)> = None;
        for (id, c) in conns.iter() {
            let p = c.phase();
            if p.evict {
                return;
            }
            if Some(*id) != spare && p.is_idle() && victim.is_none_or(|(t, _)| p.idle_since < t) {
                victim = Some((p.idle_since, c));
            }
        }
        let Some((_, conn)) = victim else {
            return;
        };
        let mut p = conn.phase();
        p.evict = true;
        if let Some(w) = p.waker.take() {
            w.wake();
        }
    }
}

/// A connection's place in [`Shared::conns`] and the open count, given back on drop.
pub(super) struct Registered {
    shared: Arc<Shared>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        lock(&self.shared.conns).remove(&self.id);
        self.shared.open.fetch_sub(1, Ordering::SeqCst);
        self.shared.closed.notify_one();
    }
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
