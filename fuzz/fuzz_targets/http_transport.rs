//! Fuzzes `dynalint serve`'s transport with raw bytes, as a client could send them on
//! a socket: whatever arrives (HTTP/1.1, the HTTP/2 preface, garbage, a request cut
//! short), the connection is served to its end without a panic or a hang, whatever it
//! answers is HTTP, and once it closes the transport holds nothing for it (no
//! connection counted open, no request in flight, no body bytes held).
//!
//! The bytes go through an in-memory pipe to `Transport::connection`, the code TCP
//! connections run, with the server's own handler over an empty in-memory database.
//! The runtime's clock is paused (it jumps to the next timer whenever nothing else can
//! run), so the deadlines of a request cut short expire at once instead of after 10 s.
#![no_main]

use std::sync::Arc;

use dynalint::engine::clock::Clock;
use dynalint::engine::database::Database;
use dynalint::engine::http::{Limits, Load, Transport};
use dynalint::engine::server::{handler, DEFAULT_LIMITS};
use libfuzzer_sys::fuzz_target;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// The default limits but a 64 KB body, so the fuzzer reaches "too large" too.
const LIMITS: Limits = Limits {
    max_body_bytes: 64 * 1024,
    max_buffered_bytes: 256 * 1024,
    ..DEFAULT_LIMITS
};

/// The HTTP/2 connection preface: a client starting with it speaks HTTP/2, whose
/// frames are binary.
const H2_PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

fuzz_target!(|data: &[u8]| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .start_paused(true)
        .build()
        .expect("a runtime");
    runtime.block_on(async {
        let db = Arc::new(Database::in_memory(Clock::system()));
        let transport = Transport::new(LIMITS, handler(db));
        // A small pipe makes requests and answers cross its buffer's boundaries.
        let (client, server) = tokio::io::duplex(512);
        let served = tokio::spawn(transport.connection(server));
        let (mut from_server, mut to_server) = tokio::io::split(client);
        let sent = async {
            // The server may close before reading everything: not an error here.
            let _ = to_server.write_all(data).await;
            let _ = to_server.shutdown().await;
        };
        let mut answers = Vec::new();
        let received = from_server.read_to_end(&mut answers);
        let ((), read) = tokio::join!(sent, received);
        read.expect("reading an in-memory pipe");
        served.await.expect("the connection's task panicked");
        if !answers.is_empty() && !data.starts_with(H2_PREFACE) {
            assert!(
                answers.starts_with(b"HTTP/1."),
                "not an HTTP/1 answer: {:?}",
                String::from_utf8_lossy(&answers[..answers.len().min(200)])
            );
        }
        // A closing connection may still linger in a task of its own (hearing the
        // client out for half a second); the paused clock ends that at once.
        for _ in 0..100 {
            if transport.load() == Load::default() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(transport.load(), Load::default(), "held after the connection closed");
    });
});
