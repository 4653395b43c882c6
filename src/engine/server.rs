//! `dynalint serve`: the engine behind DynamoDB's HTTP JSON protocol, so any AWS SDK
//! (dummy credentials, endpoint `http://127.0.0.1:PORT`) can use it as a local
//! DynamoDB. Requests are `POST /` with `X-Amz-Target: DynamoDB_20120810.<Op>` and an
//! `application/x-amz-json-1.0` body. Bad HTTP, bad JSON, unknown operations and
//! oversized bodies get DynamoDB-shaped errors; nothing a client sends stops it.

use std::io::Read;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use thiserror::Error;

use super::db::Engine;
use super::error::{DynamoError, ErrorKind};
use super::wire::error_to_json;

/// Largest request body accepted (DynamoDB's limit for a BatchWriteItem is 16 MB).
pub const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The `X-Amz-Target` prefix of DynamoDB's current API version.
const TARGET_PREFIX: &str = "DynamoDB_20120810.";

/// Why the server could not start.
#[derive(Debug, Error)]
pub enum ServeError {
    #[error("cannot listen on {addr}: {message}")]
    Bind { addr: SocketAddr, message: String },
}

/// A running HTTP endpoint over one in-memory engine.
pub struct Server {
    http: Arc<tiny_http::Server>,
    engine: Arc<Mutex<Engine>>,
}

/// Stops a [`Server`] from another thread.
#[derive(Clone)]
pub struct StopHandle(Arc<tiny_http::Server>);

impl StopHandle {
    /// Makes [`Server::serve`] return.
    pub fn stop(&self) {
        self.0.unblock();
    }
}

impl Server {
    /// Binds `addr` (port 0 picks a free port) with an empty engine.
    pub fn bind(addr: SocketAddr) -> Result<Server, ServeError> {
        let http = tiny_http::Server::http(addr).map_err(|e| ServeError::Bind {
            addr,
            message: e.to_string(),
        })?;
        Ok(Server {
            http: Arc::new(http),
            engine: Arc::new(Mutex::new(Engine::new())),
        })
    }

    /// The address actually bound.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.http.server_addr().to_ip()
    }

    /// A handle that stops [`Server::serve`].
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.http))
    }

    /// Answers requests until stopped.
    pub fn serve(&self) {
        for request in self.http.incoming_requests() {
            self.answer(request);
        }
    }

    fn answer(&self, mut request: tiny_http::Request) {
        let header = |name: &str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
                .map(|h| h.value.as_str().to_string())
        };
        let target = header("X-Amz-Target");
        let is_post = *request.method() == tiny_http::Method::Post;
        // Read at most one byte past the limit, to tell an oversized body.
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY_BYTES as u64 + 1)
            .read_to_end(&mut body);
        let (status, payload) = if !is_post && target.is_none() {
            // A plain GET is a health check, as on DynamoDB's endpoint.
            (200, Value::String("healthy: dynalint serve".into()))
        } else if read.is_err() {
            error(
                400,
                DynamoError::serialization("Could not read the request body"),
            )
        } else if body.len() > MAX_BODY_BYTES {
            error(
                413,
                DynamoError::validation(format!(
                    "Request body exceeds the maximum size of {MAX_BODY_BYTES} bytes"
                )),
            )
        } else {
            self.dispatch(target.as_deref(), &body)
        };
        let text = match &payload {
            Value::String(s) if status == 200 => s.clone(),
            other => other.to_string(),
        };
        let mut response = tiny_http::Response::from_string(text).with_status_code(status);
        for (k, v) in [
            ("Content-Type", "application/x-amz-json-1.0"),
            ("x-amzn-RequestId", "dynalint-serve"),
        ] {
            if let Ok(h) = tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()) {
                response.add_header(h);
            }
        }
        // A client that went away is not the server's problem.
        let _ = request.respond(response);
    }

    fn dispatch(&self, target: Option<&str>, body: &[u8]) -> (u16, Value) {
        let Some(op) = target.and_then(|t| t.strip_prefix(TARGET_PREFIX)) else {
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
        let mut engine = self.engine.lock().unwrap_or_else(|p| p.into_inner());
        // The engine answers every input with a value or an error; should a bug panic
        // anyway, the client gets a 500 and the server keeps serving.
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.handle(op, &json)));
        match result {
            Ok(Ok(v)) => (200, v),
            Ok(Err(e)) => error(
                if e.kind == ErrorKind::InternalServer {
                    500
                } else {
                    400
                },
                e,
            ),
            Err(_) => error(
                500,
                DynamoError::new(ErrorKind::InternalServer, "Internal server error"),
            ),
        }
    }
}

fn error(status: u16, e: DynamoError) -> (u16, Value) {
    (status, error_to_json(&e))
}

/// Serves an in-memory DynamoDB on `addr` until the process ends, saying where on
/// stderr. Binds loopback unless the caller passes another address.
pub fn run(addr: SocketAddr) -> Result<(), ServeError> {
    let server = Server::bind(addr)?;
    let bound = server.local_addr().unwrap_or(addr);
    eprintln!(
        "dynalint serve: in-memory DynamoDB listening on http://{bound}{}",
        if bound.ip().is_loopback() {
            " (loopback only)"
        } else {
            " (reachable from other hosts: no authentication)"
        }
    );
    server.serve();
    Ok(())
}
