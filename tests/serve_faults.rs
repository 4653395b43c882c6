//! `dynalint serve` under bad input and faulty clients, all at once: idle kept-alive
//! connections, slowloris clients, bodies that never finish, pipelined garbage, an
//! oversized body and header floods. A normal client keeps being answered throughout,
//! and every faulty client gets its answer (408, 413, 400, 431) or is closed. The long
//! form, with figures (latency, memory): `cargo bench --bench serve_faults`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod serve_support;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use dynalint::engine::http::Limits;
use dynalint::engine::server::{DEFAULT_LIMITS, MAX_BODY_BYTES};
use serve_support::{list_tables, request, start, Conn};

/// Reads whatever the server sends until it closes; the status of its first answer.
fn first_status(mut s: TcpStream) -> Option<u16> {
    s.set_read_timeout(Some(serve_support::PATIENCE)).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("no answer: {e}"),
        }
    }
    let text = String::from_utf8_lossy(&out);
    text.split_whitespace().nth(1).and_then(|c| c.parse().ok())
}

#[test]
fn a_normal_client_is_served_through_every_fault_at_once() {
    let server = start(Limits {
        request_timeout: Duration::from_secs(2),
        ..DEFAULT_LIMITS
    });
    let addr = server.addr;
    let mut normal = Conn::open(addr);
    assert_eq!(normal.call(&list_tables()).status, 200);

    // 300 idle kept-alive connections, a third of them after a request.
    let mut idle: Vec<Conn> = (0..300).map(|_| Conn::open(addr)).collect();
    for c in idle.iter_mut().step_by(3) {
        assert_eq!(c.call(&list_tables()).status, 200);
    }

    // 50 slowloris clients: a byte of head every 100 ms, never the whole head.
    let slow: Vec<TcpStream> = (0..50).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let dripping = Arc::new(AtomicBool::new(true));
    let drip = {
        let slow: Vec<TcpStream> = slow.iter().map(|s| s.try_clone().unwrap()).collect();
        let dripping = Arc::clone(&dripping);
        thread::spawn(move || {
            let head = b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            let mut i = 0;
            while dripping.load(Ordering::SeqCst) {
                for mut s in &slow {
                    let byte = head.get(i).copied().unwrap_or(b'a');
                    let _ = s.write_all(&[byte]);
                }
                i += 1;
                thread::sleep(Duration::from_millis(100));
            }
        })
    };

    // Bodies that never finish.
    let stuck: Vec<TcpStream> = (0..5)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\nContent-Length: 1000000\r\n\r\n{\"a\":")
                .unwrap();
            s
        })
        .collect();

    // Pipelined garbage after good requests.
    let garbage: Vec<TcpStream> = (0..10)
        .map(|i| {
            let mut s = TcpStream::connect(addr).unwrap();
            let junk: Vec<u8> = (0..4096u32).map(|j| (j * 31 + i * 7) as u8).collect();
            let mut bytes = format!("{}{}", list_tables(), list_tables()).into_bytes();
            bytes.extend_from_slice(&junk);
            s.write_all(&bytes).unwrap();
            s
        })
        .collect();

    // A body over the limit, sent whole.
    let big = thread::spawn(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        let length = MAX_BODY_BYTES + (4 << 20);
        s.write_all(
            format!("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\nContent-Length: {length}\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..length >> 20 {
            if s.write_all(&chunk).is_err() {
                break;
            }
        }
        first_status(s)
    });

    // Header floods: too many headers, too many header bytes.
    let floods: Vec<TcpStream> = [
        (0..2000)
            .map(|i| format!("X-H{i}: v\r\n"))
            .collect::<String>(),
        format!("X-Long: {}\r\n", "a".repeat(1 << 20)),
    ]
    .iter()
    .map(|headers| {
        let mut s = TcpStream::connect(addr).unwrap();
        let _ = s.write_all(format!("POST / HTTP/1.1\r\nHost: x\r\n{headers}\r\n").as_bytes());
        s
    })
    .collect();

    // The normal client, throughout.
    let item = r#"{"TableName":"Faults","Item":{"pk":{"S":"a"},"n":{"N":"1"}}}"#;
    let table = r#"{"TableName":"Faults","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}"#;
    let created = normal.call(&request("CreateTable", table));
    assert_eq!(created.status, 200, "{created:?}");
    for _ in 0..200 {
        assert_eq!(normal.call(&request("PutItem", item)).status, 200);
        let got = normal.call(&request(
            "GetItem",
            r#"{"TableName":"Faults","Key":{"pk":{"S":"a"}}}"#,
        ));
        assert_eq!(got.json()["Item"]["n"]["N"], "1");
    }

    // Every faulty client got its answer, or was closed.
    assert_eq!(big.join().unwrap(), Some(413));
    for s in stuck {
        assert_eq!(first_status(s), Some(408));
    }
    for s in floods {
        assert!(matches!(first_status(s), Some(431) | None));
    }
    for s in garbage {
        assert_eq!(first_status(s), Some(200), "the good requests first");
    }
    for s in slow {
        assert_eq!(first_status(s), Some(408));
    }
    dripping.store(false, Ordering::SeqCst);
    drip.join().unwrap();
    // The idle clients are still served on their connections.
    for c in idle.iter_mut().step_by(10) {
        assert_eq!(c.call(&list_tables()).status, 200);
    }
    assert_eq!(normal.call(&list_tables()).status, 200);
}
