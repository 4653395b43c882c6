//! A connection's byte stream as hyper reads and writes it, keeping the connection's
//! deadlines: idle, request and write timeouts, and closing to make room.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::StatusCode;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::conn::{Conn, Protocol};
use super::transport::{Registered, Shared};
use super::Reply;

/// How long a closed connection keeps reading what its client still sends, so that
/// the last answer is not lost to a reset, and how much it reads at most.
const LINGER: Duration = Duration::from_millis(500);
const LINGER_BYTES: usize = 16 << 20;

/// The one answer written outside hyper: to a request whose head does not arrive in
/// time, where hyper would close the connection without a word.
pub(super) fn written_reply(reply: &Reply) -> Bytes {
    let reason = StatusCode::from_u16(reply.status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("");
    let mut text = format!(
        "HTTP/1.1 {} {reason}\r\ncontent-length: {}\r\nconnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    for (name, value) in &reply.headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(&reply.body);
    Bytes::from(text)
}

/// A deadline that has passed.
#[derive(Debug, Clone, Copy)]
enum Expiry {
    /// No request for the idle timeout, or asked to make room: close quietly.
    Idle,
    /// A request's head did not arrive in time: answer 408 and close.
    Request,
    /// The client has not taken an answer in time: drop it.
    Write,
}

/// A connection's byte stream, as hyper reads and writes it, keeping its deadlines:
/// hyper sees the end of the stream when the connection has been idle too long or is
/// asked to make room, and an error when its client stops reading.
pub(super) struct Wire<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> {
    io: Option<I>,
    conn: Arc<Conn>,
    registered: Option<Registered>,
    request_timeout: Duration,
    idle_timeout: Duration,
    head_timed_out: Bytes,
    timer: Pin<Box<Sleep>>,
    timer_at: Instant,
    /// Since when a write has been waiting for the client to read.
    stalled_since: Option<Instant>,
    /// The end of the stream has been given to hyper.
    ended: bool,
}

impl<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> Wire<I> {
    pub(super) fn new(io: I, conn: Arc<Conn>, shared: &Shared, registered: Registered) -> Wire<I> {
        let far = Instant::now() + Duration::from_secs(86_400 * 365);
        Wire {
            io: Some(io),
            conn,
            registered: Some(registered),
            request_timeout: shared.limits.request_timeout,
            idle_timeout: shared.limits.idle_timeout,
            head_timed_out: shared.head_timed_out.clone(),
            timer: Box::pin(tokio::time::sleep_until(far)),
            timer_at: far,
            stalled_since: None,
            ended: false,
        }
    }

    /// The deadline that applies now, if it has passed; otherwise arms the timer.
    fn expired(&mut self, cx: &mut Context<'_>) -> Option<Expiry> {
        let (at, what) = {
            let mut p = self.conn.phase();
            if !p.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
                p.waker = Some(cx.waker().clone());
            }
            let mut next: Option<(Instant, Expiry)> = None;
            let mut consider = |at: Instant, what| {
                if next.is_none_or(|(t, _)| at < t) {
                    next = Some((at, what));
                }
            };
            if let Some(t) = self.stalled_since {
                consider(t + self.request_timeout, Expiry::Write);
            } else if p.in_flight == 0 {
                match p.began {
                    Some(t) if p.protocol != Protocol::Http2 => {
                        consider(t + self.request_timeout, Expiry::Request)
                    }
                    _ if p.evict => consider(p.idle_since, Expiry::Idle),
                    _ => consider(p.idle_since + self.idle_timeout, Expiry::Idle),
                }
            }
            next?
        };
        if at <= Instant::now() {
            return Some(what);
        }
        if at != self.timer_at {
            self.timer.as_mut().reset(at);
            self.timer_at = at;
        }
        self.timer.as_mut().poll(cx).is_ready().then_some(what)
    }

    /// Answers 408 to a request whose head did not arrive in time: best effort (the
    /// socket's buffer takes it whole unless the client has stopped reading).
    fn head_timed_out(&mut self, cx: &mut Context<'_>) {
        self.conn.phase().linger = true;
        if let Some(io) = self.io.as_mut() {
            let _ = Pin::new(io).poll_write(cx, &self.head_timed_out);
        }
    }

    fn wrote(&mut self, n: usize) {
        self.stalled_since = None;
        if n > 0 {
            self.conn.phase().idle_since = Instant::now();
        }
    }

    /// A write waits for the client: an error once it has waited too long.
    fn write_waits(&mut self, cx: &mut Context<'_>) -> Option<io::Error> {
        self.stalled_since.get_or_insert_with(Instant::now);
        self.expired(cx)
            .map(|_| io::Error::new(io::ErrorKind::TimedOut, "the client stopped reading"))
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> AsyncRead for Wire<I> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let Some(io) = this.io.as_mut().filter(|_| !this.ended) else {
            return Poll::Ready(Ok(()));
        };
        let before = buf.filled().len();
        match Pin::new(io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let got = &buf.filled()[before..];
                if !got.is_empty() {
                    this.conn.phase().saw(got, Instant::now());
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match this.expired(cx) {
                None => Poll::Pending,
                Some(Expiry::Write) => Poll::Ready(Err(io::ErrorKind::TimedOut.into())),
                Some(Expiry::Idle) => {
                    this.ended = true;
                    Poll::Ready(Ok(()))
                }
                Some(Expiry::Request) => {
                    this.ended = true;
                    this.head_timed_out(cx);
                    Poll::Ready(Ok(()))
                }
            },
        }
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> AsyncWrite for Wire<I> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let Some(io) = this.io.as_mut() else {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        };
        match Pin::new(io).poll_write(cx, data) {
            Poll::Ready(Ok(n)) => {
                this.wrote(n);
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this
                .write_waits(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e))),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let Some(io) = this.io.as_mut() else {
            return Poll::Ready(Err(io::ErrorKind::BrokenPipe.into()));
        };
        match Pin::new(io).poll_write_vectored(cx, bufs) {
            Poll::Ready(Ok(n)) => {
                this.wrote(n);
                Poll::Ready(Ok(n))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => this
                .write_waits(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e))),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.as_ref().is_some_and(|io| io.is_write_vectored())
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        let Some(io) = this.io.as_mut() else {
            return Poll::Ready(Ok(()));
        };
        match Pin::new(io).poll_flush(cx) {
            Poll::Ready(r) => Poll::Ready(r),
            Poll::Pending => this
                .write_waits(cx)
                .map_or(Poll::Pending, |e| Poll::Ready(Err(e))),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.io.as_mut() {
            Some(io) => Pin::new(io).poll_shutdown(cx),
            None => Poll::Ready(Ok(())),
        }
    }
}

impl<I: AsyncRead + AsyncWrite + Unpin + Send + 'static> Drop for Wire<I> {
    fn drop(&mut self) {
        if !self.conn.phase().linger {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if let Some(io) = self.io.take() {
            // The connection stays counted as open while it lingers.
            let registered = self.registered.take();
            runtime.spawn(async move {
                linger(io).await;
                drop(registered);
            });
        }
    }
}

/// Closes the writing side, then reads what the client still sends for a moment:
/// closing a socket with unread bytes resets the connection, and the client may lose
/// the answer it has not read yet.
async fn linger<I: AsyncRead + AsyncWrite + Unpin>(mut io: I) {
    let _ = tokio::time::timeout(LINGER, async {
        let _ = io.shutdown().await;
        let mut buf = vec![0u8; 16 * 1024];
        let mut left = LINGER_BYTES;
        while left > 0 {
            match io.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}
