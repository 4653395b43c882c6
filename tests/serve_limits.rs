//! `dynalint serve` under clients that hold on: connections are bounded (one more gets
//! 503 at once), and a client that never finishes its request neither blocks the
//! others nor holds its connection forever (it gets 408).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use dynalint::engine::http::Limits;
use dynalint::engine::server::{Server, StopHandle, MAX_BODY_BYTES};

fn start(
    limits: Limits,
) -> (
    SocketAddr,
    StopHandle,
    Arc<AtomicUsize>,
    thread::JoinHandle<()>,
) {
    let server = Server::bind_with("127.0.0.1:0".parse().unwrap(), limits).unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.stop_handle();
    let active = server.connections();
    let join = thread::spawn(move || server.serve());
    (addr, stop, active, join)
}

const LIST_TABLES: &str = "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 2\r\n\r\n{}";

/// Sends a request on `s` and reads one whole response; returns its status.
fn status_of(s: &mut TcpStream, request: &str) -> u16 {
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let text = String::from_utf8_lossy(&got).to_string();
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("Content-Length: "))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if body.len() >= length {
                return head
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse().ok())
                    .unwrap_or(0);
            }
        }
        match s.read(&mut buf) {
            Ok(0) => panic!("the connection closed mid-response: {text:?}"),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => panic!("no answer: {e}"),
        }
    }
}

/// Polls until `f` holds; the deadline only stops a broken server hanging the test.
fn eventually(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !f() {
        assert!(Instant::now() < deadline, "never: {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn connections_are_bounded_and_one_more_is_refused_at_once() {
    let limits = Limits {
        max_connections: 4,
        request_timeout: Duration::from_secs(60),
        idle_timeout: Duration::from_secs(60),
        max_body_bytes: MAX_BODY_BYTES,
    };
    let (addr, stop, active, join) = start(limits);
    let mut idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
    eventually("4 connections served", || {
        active.load(Ordering::SeqCst) == 4
    });
    // 40 more idle clients: each is refused, none gets a thread.
    for _ in 0..40 {
        let mut s = TcpStream::connect(addr).unwrap();
        assert_eq!(status_of(&mut s, LIST_TABLES), 503);
    }
    assert_eq!(active.load(Ordering::SeqCst), 4);
    // The connections that got in are served, again and again (keep-alive).
    assert_eq!(status_of(&mut idle[0], LIST_TABLES), 200);
    assert_eq!(status_of(&mut idle[0], LIST_TABLES), 200);
    // A client that leaves frees its place.
    drop(idle.pop());
    eventually("a place freed", || active.load(Ordering::SeqCst) == 3);
    let mut s = TcpStream::connect(addr).unwrap();
    assert_eq!(status_of(&mut s, LIST_TABLES), 200);
    drop(idle);
    drop(s);
    stop.stop();
    join.join().unwrap();
}

#[test]
fn a_stuck_request_neither_blocks_others_nor_waits_forever() {
    let limits = Limits {
        max_connections: 8,
        request_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(60),
        max_body_bytes: MAX_BODY_BYTES,
    };
    let (addr, stop, _, join) = start(limits);
    // Promises 100 bytes of body, sends 10, then waits.
    let mut stuck = TcpStream::connect(addr).unwrap();
    stuck
        .write_all(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{\"a\": 1234")
        .unwrap();
    // Another client is answered meanwhile.
    let mut other = TcpStream::connect(addr).unwrap();
    assert_eq!(status_of(&mut other, LIST_TABLES), 200);
    // The stuck one is told it ran out of time, and its connection closed.
    stuck
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut out = Vec::new();
    let _ = stuck.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("Connection: close"), "{text}");
    stop.stop();
    join.join().unwrap();
}
