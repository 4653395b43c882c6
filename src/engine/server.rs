//! `dynalint serve`: the engine behind DynamoDB's HTTP JSON protocol, so any AWS SDK
//! (dummy credentials, endpoint `http://127.0.0.1:PORT`) can use it as a local
//! DynamoDB. Requests are `POST /` with `X-Amz-Target: DynamoDB_20120810.<Op>` and an
//! `application/x-amz-json-1.0` body. Bad JSON, unknown operations, oversized bodies,
//! late requests and a busy server get DynamoDB-shaped errors (a request too broken for
//! hyper to read as HTTP gets hyper's bare `400`/`431`); nothing a client sends stops
//! it. The transport is [`super::http`]; what it serves is a [`Database`], in memory or
//! kept in a data directory (`--data-dir`), with its background work (Time to Live,
//! stream trimming, log compaction) running beside it.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use thiserror::Error;

use super::clock::Clock;
use super::database::{BackgroundThread, Database, BACKGROUND_EVERY};
use super::error::{DynamoError, ErrorKind};
use super::http::{Handler, Incoming, Limits, Listener, Load, Reply, Stop, Transport};
use super::persist::{PersistError, StoreOptions};
use super::wire::error_to_json;

/// Largest request body accepted (DynamoDB's limit for a BatchWriteItem is 16 MB).
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The `X-Amz-Target` prefix of DynamoDB's current API version.
const TARGET_PREFIX: &str = "DynamoDB_20120810.";
/// The `X-Amz-Target` prefix of DynamoDB Streams, served on the same endpoint.
const STREAMS_TARGET_PREFIX: &str = "DynamoDBStreams_20120810.";

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {message}")]
    Bind { addr: SocketAddr, message: String },
    #[error("cannot serve: {0}")]
    Serve(String),
    #[error("data directory {0}")]
    Data(#[from] PersistError),
}

/// The limits by default, chosen for a test suite pointed at `serve`:
/// - connections: as many as the open-file limit allows (idle ones cost a socket);
/// - a request (headers and body) must arrive within 10 s of its first byte;
/// - an idle kept-alive connection is closed after 120 s, longer than SDKs keep an
///   unused connection (the Rust SDK's pool: 90 s), so that clients close first and
///   never reuse a connection the server is closing;
/// - 256 requests read or run at once and 256 MB of request bodies held at once (the
///   engine runs one request at a time; the rest wait their turn).
pub const DEFAULT_LIMITS: Limits = Limits {
    max_connections: usize::MAX,
    request_timeout: Duration::from_secs(10),
    idle_timeout: Duration::from_secs(120),
    max_body_bytes: MAX_BODY_BYTES,
    max_in_flight: 256,
    max_buffered_bytes: 256 << 20,
};

/// A running HTTP endpoint over one database.
pub struct Server {
    http: Listener,
    /// Runs the database's background work while the server lives.
    _background: BackgroundThread,
}

/// Reads a [`Server`]'s load from another thread.
#[derive(Clone)]
pub struct LoadHandle(Transport);

impl LoadHandle {
    /// What the transport holds now.
    pub fn load(&self) -> Load {
        self.0.load()
    }
}

/// Stops a [`Server`] from another thread.
#[derive(Clone)]
pub struct StopHandle(Stop);

impl StopHandle {
    /// Makes [`Server::serve`] return.
    pub fn stop(&self) {
        self.0.stop();
    }
}

impl Server {
    /// Binds `addr` (port 0 picks a free port) with an empty engine.
    pub fn bind(addr: SocketAddr) -> Result<Server, ServeError> {
        Server::bind_with(addr, DEFAULT_LIMITS)
    }

    /// [`Server::bind`] with other connection limits.
    pub fn bind_with(addr: SocketAddr, limits: Limits) -> Result<Server, ServeError> {
        let db = Arc::new(Database::in_memory(Clock::system()));
        Server::bind_database(addr, limits, db, BACKGROUND_EVERY)
    }

    /// Binds `addr` over `db`, running its background work every `every`.
    pub fn bind_database(
        addr: SocketAddr,
        limits: Limits,
        db: Arc<Database>,
        every: Duration,
    ) -> Result<Server, ServeError> {
        let http = Listener::bind(addr, limits, handler(Arc::clone(&db))).map_err(|e| {
            ServeError::Bind {
                addr,
                message: e.to_string(),
            }
        })?;
        Ok(Server {
            http,
            _background: db.start_background(every),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        Some(self.http.local_addr())
    }

    /// A handle that stops [`Server::serve`].
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.http.stop_handle())
    }

    /// How many connections are open now.
    pub fn connections(&self) -> Arc<std::sync::atomic::AtomicUsize> {
        self.http.active()
    }

    /// What the transport holds now: connections, requests in flight, bytes buffered.
    pub fn load(&self) -> Load {
        self.http.load()
    }

    /// A handle on the load, for another thread while this one serves.
    pub fn load_handle(&self) -> LoadHandle {
        LoadHandle(self.http.transport())
    }

    /// Answers requests until stopped.
    pub fn serve(&self) -> Result<(), ServeError> {
        self.http
            .serve()
            .map_err(|e| ServeError::Serve(e.to_string()))
    }
}

/// The HTTP handler over a database: DynamoDB's JSON protocol.
pub fn handler(db: Arc<Database>) -> Handler {
    Arc::new(move |incoming: &Incoming| answer(&db, incoming))
}

fn answer(db: &Database, incoming: &Incoming) -> Reply {
    let (status, payload) = match incoming {
        Incoming::Request { method, body, .. } => {
            let target = incoming.header("X-Amz-Target");
            if method != "POST" && target.is_none() {
                // A plain GET is a health check, as on DynamoDB's endpoint.
                (200, Value::String("healthy: dynalint serve".into()))
            } else {
                dispatch(db, target, body)
            }
        }
        Incoming::TooLarge => error(
            413,
            DynamoError::validation(format!(
                "Request body exceeds the maximum size of {MAX_BODY_BYTES} bytes"
            )),
        ),
        Incoming::TimedOut => error(
            408,
            DynamoError::serialization("The request did not arrive in time"),
        ),
        Incoming::Malformed(why) => error(
            400,
            DynamoError::serialization(format!("Could not read the request: {why}")),
        ),
        Incoming::Busy => error(
            503,
            DynamoError::new(
                ErrorKind::InternalServer,
                "The server is busy: try again in a moment",
            ),
        ),
    };
    reply((status, payload))
}

fn reply((status, payload): (u16, Value)) -> Reply {
    let body = match &payload {
        Value::String(s) if status == 200 => s.clone(),
        other => other.to_string(),
    };
    Reply {
        status,
        headers: vec![
            ("Content-Type", "application/x-amz-json-1.0".into()),
            ("x-amzn-RequestId", "dynalint-serve".into()),
        ],
        body,
    }
}

fn dispatch(db: &Database, target: Option<&str>, body: &[u8]) -> (u16, Value) {
    let Some(op) = target.and_then(|t| {
        t.strip_prefix(TARGET_PREFIX)
            .or_else(|| t.strip_prefix(STREAMS_TARGET_PREFIX))
    }) else {
        return error(400, DynamoError::new(ErrorKind::UnknownOperation, ""));
    };
    let json: Value = if body.is_empty() {
        Value::Object(Default::default())
    } else {
        match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(_) => {
                return error(
                    400,
                    DynamoError::serialization(
                        "Start of structure or map found where not expected",
                    ),
                )
            }
        }
    };
    // A panic in the engine is a 500 (Database::handle catches it).
    match durable_wait(db, || db.handle(op, &json)) {
        Ok(v) => (200, v),
        Err(e) => error(
            if e.kind == ErrorKind::InternalServer {
                500
            } else {
                400
            },
            e,
        ),
    }
}

/// Runs `f` on this runtime worker; when the database is durable, `f` waits for a
/// sync, so the worker hands its other connections to another thread meanwhile
/// (`block_in_place`): requests keep arriving during a sync, and the next sync
/// acknowledges them all (group commit) instead of one per worker.
fn durable_wait<T>(db: &Database, f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    let multi_thread =
        Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
    if db.is_durable() && multi_thread {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}

fn error(status: u16, e: DynamoError) -> (u16, Value) {
    (status, error_to_json(&e))
}

/// Where `run` keeps its data: nowhere (in memory), or a data directory.
#[derive(Debug, Clone, Default)]
pub struct DataDir {
    /// The directory, created if missing; `None` keeps everything in memory.
    pub path: Option<PathBuf>,
    /// When the log is compacted into a snapshot.
    pub options: StoreOptions,
}

/// Serves DynamoDB on `addr` until the process ends, in memory or kept in `data`,
/// saying where on stderr (and, with a data directory, what it held). Binds loopback
/// unless the caller passes another address.
pub fn run(addr: SocketAddr, limits: Limits, data: DataDir) -> Result<(), ServeError> {
    let (db, kept) = match &data.path {
        Some(dir) => {
            let (db, recovery) = Database::open(dir, Clock::system(), data.options)?;
            eprintln!("dynalint serve: loaded {recovery}");
            (db, format!("DynamoDB kept in {}", dir.display()))
        }
        None => (
            Database::in_memory(Clock::system()),
            "in-memory DynamoDB".to_string(),
        ),
    };
    let server = Server::bind_database(addr, limits, Arc::new(db), BACKGROUND_EVERY)?;
    let bound = server.local_addr().unwrap_or(addr);
    eprintln!(
        "dynalint serve: {kept} listening on http://{bound}{}",
        if bound.ip().is_loopback() {
            " (loopback only)"
        } else {
            " (reachable from other hosts: no authentication)"
        }
    );
    server.serve()
}
