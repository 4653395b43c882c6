//! `dynalint serve`'s limits: idle clients are never refused (at the connection bound
//! the longest-idle one makes room), a client that never finishes its request gets
//! 408 and neither blocks the others nor holds its connection forever, an idle
//! connection is closed after the idle timeout, and a request waits for room in the
//! bytes buffered instead of being refused.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use std::io::ErrorKind;
use std::time::Duration;

use dynalint::engine::http::Limits;
use dynalint::engine::server::DEFAULT_LIMITS;
use serve_support::{eventually, list_tables, load, open, request, start, start_default, Conn};

#[test]
fn at_the_connection_bound_the_longest_idle_connection_makes_room() {
    let server = start(Limits {
        max_connections: 4,
        ..DEFAULT_LIMITS
    });
    let mut held: Vec<Conn> = (0..4).map(|_| Conn::open(server.addr)).collect();
    // The first is a kept-alive client between requests, as SDKs leave them.
    assert_eq!(held[0].call(&list_tables()).status, 200);
    // The server counts a connection idle from when it let go of its last answer,
    // which can lag the client's read by a little under load: a pause makes the
    // first one the longest idle for certain, as a client between requests is.
    std::thread::sleep(Duration::from_millis(300));
    for c in &mut held[1..] {
        assert_eq!(c.call(&list_tables()).status, 200);
    }
    eventually("4 connections open", || open(&server) == 4);
    // A fifth client is served, and the one idle longest is closed for it.
    let mut fifth = Conn::open(server.addr);
    assert_eq!(fifth.call(&list_tables()).status, 200);
    assert!(held[0].closed(), "the longest-idle connection is closed");
    eventually("back within the bound", || open(&server) <= 4);
    // The others are still served on their kept-alive connections.
    for c in &mut held[2..] {
        assert_eq!(c.call(&list_tables()).status, 200);
    }
    // Many more clients, one after another: none is refused.
    for _ in 0..20 {
        let mut c = Conn::open(server.addr);
        assert_eq!(c.call(&list_tables()).status, 200);
    }
}

#[test]
fn many_idle_clients_are_never_refused() {
    let server = start_default();
    let mut idle: Vec<Conn> = (0..300).map(|_| Conn::open(server.addr)).collect();
    for c in idle.iter_mut().step_by(3) {
        assert_eq!(c.call(&list_tables()).status, 200);
    }
    let mut late = Conn::open(server.addr);
    assert_eq!(late.call(&list_tables()).status, 200);
    // Every idle client can still use its connection.
    for c in idle.iter_mut().step_by(7) {
        assert_eq!(c.call(&list_tables()).status, 200);
    }
    eventually("all 301 connections open", || open(&server) == 301);
}

#[test]
fn a_stuck_body_times_out_with_408_without_blocking_others() {
    let server = start(Limits {
        request_timeout: Duration::from_secs(1),
        ..DEFAULT_LIMITS
    });
    // Promises 100 bytes of body, sends 10, then waits.
    let mut stuck = Conn::open(server.addr);
    stuck.send(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 100\r\n\r\n{\"a\": 1234");
    // Another client is answered meanwhile.
    let mut other = Conn::open(server.addr);
    assert_eq!(other.call(&list_tables()).status, 200);
    // The stuck one is told it ran out of time, and its connection closed.
    let late = stuck.answer().expect("an answer");
    assert_eq!(late.status, 408, "{late:?}");
    assert_eq!(late.header("connection"), Some("close"));
    assert_eq!(
        late.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    assert!(stuck.closed());
}

#[test]
fn a_stuck_head_times_out_with_408() {
    let server = start(Limits {
        request_timeout: Duration::from_secs(1),
        ..DEFAULT_LIMITS
    });
    let mut stuck = Conn::open(server.addr);
    stuck.send(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Tar");
    let late = stuck.answer().expect("an answer");
    assert_eq!(late.status, 408, "{late:?}");
    assert_eq!(late.header("connection"), Some("close"));
    assert_eq!(
        late.json()["__type"],
        "com.amazon.coral.service#SerializationException"
    );
    assert!(stuck.closed());
    // A kept-alive client that has finished a request and waits is not "stuck".
    let mut kept = Conn::open(server.addr);
    assert_eq!(kept.call(&list_tables()).status, 200);
    kept.stream
        .set_read_timeout(Some(Duration::from_millis(2500)))
        .unwrap();
    let mut buf = [0u8; 16];
    let e = std::io::Read::read(&mut kept.stream, &mut buf).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
        "{e}"
    );
}

#[test]
fn an_idle_connection_is_closed_after_the_idle_timeout() {
    let server = start(Limits {
        idle_timeout: Duration::from_secs(1),
        ..DEFAULT_LIMITS
    });
    let mut kept = Conn::open(server.addr);
    assert_eq!(kept.call(&list_tables()).status, 200);
    assert!(kept.closed(), "closed quietly, with no answer");
    let mut silent = Conn::open(server.addr);
    assert!(silent.closed());
    eventually("no connection open", || open(&server) == 0);
}

#[test]
fn a_request_waits_for_room_in_the_bytes_buffered() {
    let server = start(Limits {
        max_body_bytes: 1000,
        max_buffered_bytes: 1000,
        request_timeout: Duration::from_secs(60),
        ..DEFAULT_LIMITS
    });
    // The first request holds the whole budget while its body arrives.
    let body = format!("{{}}{}", " ".repeat(998));
    let first_request = request("ListTables", &body);
    let (head, rest) = first_request.split_at(first_request.len() - 900);
    let mut first = Conn::open(server.addr);
    first.send(head.as_bytes());
    eventually("the first request holds the budget", || {
        load(&server).buffered_bytes == 1000
    });
    let mut second = Conn::open(server.addr);
    second.send(list_tables().as_bytes());
    eventually("the second request waits its turn", || {
        load(&server).in_flight == 2
    });
    assert_eq!(load(&server).buffered_bytes, 1000);
    // Once the first has its body and is answered, the second gets its turn.
    first.send(rest.as_bytes());
    assert_eq!(first.answer().unwrap().status, 200);
    assert_eq!(second.answer().unwrap().status, 200);
}

#[test]
fn a_body_over_the_limit_is_refused_before_it_is_sent_when_the_client_asks() {
    let server = start_default();
    let mut c = Conn::open(server.addr);
    c.send(
        format!(
            "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
            dynalint::engine::server::MAX_BODY_BYTES + 1
        )
        .as_bytes(),
    );
    let refused = c.answer().unwrap();
    assert_eq!(refused.status, 413, "{refused:?}");
    assert_eq!(refused.header("connection"), Some("close"));
    assert_eq!(
        refused.json()["__type"],
        "com.amazon.coral.validate#ValidationException"
    );
}
