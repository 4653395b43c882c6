//! One request: its body read within the limits (bytes buffered, requests in flight,
//! the request's deadline), then the handler's answer.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, SizeHint};
use hyper::header::{HeaderName, HeaderValue, CONNECTION, EXPECT};
use hyper::{Request, Response, StatusCode, Version};
use tokio::sync::SemaphorePermit;
use tokio::time::{timeout_at, Instant};

use super::conn::{Conn, InFlight};
use super::transport::Shared;
use super::Incoming;

/// An answer's body: the reply's bytes, and the request's place in flight.
pub(super) struct Answer {
    body: Full<Bytes>,
    _in_flight: InFlight,
}

impl Body for Answer {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// Answers one request: reads its body within the limits, runs the handler.
pub(super) async fn respond(
    shared: &Shared,
    conn: Arc<Conn>,
    request: Request<hyper::body::Incoming>,
) -> Response<Answer> {
    let (in_flight, began) = InFlight::begin(conn);
    let deadline = began + shared.limits.request_timeout;
    let http1 = request.version() < Version::HTTP_2;
    let (incoming, close, permits) = read_request(shared, request, deadline).await;
    in_flight.body_read();
    if close {
        in_flight.0.phase().linger = true;
    }
    let reply = (shared.handler)(&incoming);
    drop(permits);
    let status = StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = Response::new(Answer {
        body: Full::new(Bytes::from(reply.body)),
        _in_flight: in_flight,
    });
    *response.status_mut() = status;
    let headers = response.headers_mut();
    for (name, value) in reply.headers {
        if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(&value),
        ) {
            headers.insert(name, value);
        }
    }
    if close && http1 {
        // The body was not read to its end: the connection cannot carry another request.
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// What a request holds while it is read and run.
type Permits<'a> = (Option<SemaphorePermit<'a>>, Option<SemaphorePermit<'a>>);

/// Reads a request's body by `deadline`, within the limits; the flag says the
/// connection must close after the answer (its body was not read to the end).
async fn read_request(
    shared: &Shared,
    request: Request<hyper::body::Incoming>,
    deadline: Instant,
) -> (Incoming, bool, Permits<'_>) {
    let limits = &shared.limits;
    let (parts, mut body) = request.into_parts();
    let over = |n: u64| n > limits.max_body_bytes as u64;
    let length = body.size_hint().exact();
    if length.is_some_and(over) {
        let waits = parts
            .headers
            .get(EXPECT)
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"100-continue"));
        if waits || parts.version >= Version::HTTP_2 {
            // The client sends nothing more unless asked (HTTP/2 resets the stream).
            return (Incoming::TooLarge, true, (None, None));
        }
        return (too_large(&mut body, deadline).await, true, (None, None));
    }
    let Ok(Ok(turn)) = timeout_at(deadline, shared.in_flight.acquire()).await else {
        return (Incoming::Busy, true, (None, None));
    };
    let mut held = match length {
        Some(n @ 1..) => match timeout_at(deadline, shared.buffered.acquire_many(n as u32)).await {
            Ok(Ok(p)) => Some(p),
            _ => return (Incoming::Busy, true, (Some(turn), None)),
        },
        _ => None,
    };
    let mut data = Vec::with_capacity(length.unwrap_or(0) as usize);
    loop {
        let frame = match timeout_at(deadline, body.frame()).await {
            Err(_) => return (Incoming::TimedOut, true, (Some(turn), held)),
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                let why = format!("unreadable body: {e}");
                return (Incoming::Malformed(why), true, (Some(turn), held));
            }
            Ok(Some(Ok(frame))) => frame,
        };
        let Ok(chunk) = frame.into_data() else {
            continue; // trailers
        };
        if over((data.len() + chunk.len()) as u64) {
            drop(data);
            return (
                too_large(&mut body, deadline).await,
                true,
                (Some(turn), held),
            );
        }
        if length.is_none() && !chunk.is_empty() {
            // A body of unknown length takes its bytes as they come.
            match timeout_at(deadline, shared.buffered.acquire_many(chunk.len() as u32)).await {
                Ok(Ok(p)) => match held.as_mut() {
                    Some(h) => h.merge(p),
                    None => held = Some(p),
                },
                _ => return (Incoming::Busy, true, (Some(turn), held)),
            }
        }
        data.extend_from_slice(&chunk);
    }
    let headers = parts
        .headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let incoming = Incoming::Request {
        method: parts.method.as_str().to_string(),
        headers,
        body: data,
    };
    (incoming, false, (Some(turn), held))
}

/// Reads an oversized body past (by the deadline, storing nothing), so that the
/// answer reaches a client that is still sending.
async fn too_large(body: &mut hyper::body::Incoming, deadline: Instant) -> Incoming {
    loop {
        match timeout_at(deadline, body.frame()).await {
            Err(_) => return Incoming::TimedOut,
            Ok(None | Some(Err(_))) => return Incoming::TooLarge,
            Ok(Some(Ok(_))) => {}
        }
    }
}
