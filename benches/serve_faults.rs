//! `dynalint serve` under faults, the long form of `tests/serve_faults.rs`: the real
//! binary with its defaults, and one fault after another added on top of the last:
//! 10,000 idle kept-alive connections, 1,000 slowloris clients, 100 bodies that never
//! finish, pipelined garbage, 100 MB bodies, header floods. For each, a normal client's
//! GetItem latency on its kept-alive connection, the server's memory and what the
//! faulty clients were answered. Prints figures, asserts nothing about time:
//!
//!   cargo bench --bench serve_faults
//!
//! `SERVE_FAULTS_SECONDS` sets how long each phase runs (default 12: longer than the
//! 10 s request timeout, so slow clients are timed out within a phase).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

const AUTH: &str = "Authorization: AWS4-HMAC-SHA256 Credential=dummy/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0\r\nX-Amz-Date: 20240101T000000Z\r\n";

fn request(op: &str, body: &str) -> String {
    format!(
        "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.{op}\r\nContent-Type: application/x-amz-json-1.0\r\n{AUTH}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Reads one answer on a kept-alive connection; its status.
fn answer(s: &mut TcpStream, pending: &mut Vec<u8>) -> Option<u16> {
    let mut buf = [0u8; 16 * 1024];
    loop {
        if let Some(end) = pending.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&pending[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            if pending.len() >= end + 4 + length {
                let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok());
                pending.drain(..end + 4 + length);
                return status;
            }
        }
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return None,
            Ok(n) => pending.extend_from_slice(&buf[..n]),
        }
    }
}

/// Reads until the server closes; the status of its first answer.
fn first_status(s: &mut TcpStream) -> Option<u16> {
    let mut out = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                if out.len() < 64 {
                    out.extend_from_slice(&buf[..n.min(64)]);
                }
            }
        }
    }
    let text = String::from_utf8_lossy(&out);
    text.split_whitespace().nth(1).and_then(|c| c.parse().ok())
}

struct Serve {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["serve", "--port", "0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    Serve { child, addr }
}

/// The server's resident memory now and at its peak, in MB.
fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (kb("VmRSS:") / 1024.0, kb("VmHWM:") / 1024.0)
}

/// Counts of what faulty clients were answered.
#[derive(Default)]
struct Seen {
    answers: [AtomicU64; 6], // 200, 400, 408, 413, 431, closed without an answer
}

impl Seen {
    fn note(&self, status: Option<u16>) {
        let i = match status {
            Some(200) => 0,
            Some(400) => 1,
            Some(408) => 2,
            Some(413) => 3,
            Some(431) => 4,
            _ => 5,
        };
        self.answers[i].fetch_add(1, Ordering::Relaxed);
    }

    fn take(&self) -> String {
        let names = ["200", "400", "408", "413", "431", "closed"];
        let parts: Vec<String> = names
            .iter()
            .zip(&self.answers)
            .filter_map(|(n, a)| {
                let v = a.swap(0, Ordering::Relaxed);
                (v > 0).then(|| format!("{n}×{v}"))
            })
            .collect();
        parts.join(" ")
    }
}

/// A fault that runs until told to stop: a loop of faulty clients.
fn fault(running: &Arc<AtomicBool>, f: impl Fn() + Send + 'static) -> thread::JoinHandle<()> {
    let running = Arc::clone(running);
    thread::spawn(move || {
        while running.load(Ordering::SeqCst) {
            f();
        }
    })
}

fn main() {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut l = getrlimit(Resource::Nofile);
        l.current = l.maximum;
        let _ = setrlimit(Resource::Nofile, l);
    }
    let seconds: u64 = std::env::var("SERVE_FAULTS_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12);
    let server = serve();
    let addr = server.addr;
    let pid = server.child.id();
    let running = Arc::new(AtomicBool::new(true));
    let seen = Arc::new(Seen::default());

    let mut normal = TcpStream::connect(addr).unwrap();
    normal.set_nodelay(true).unwrap();
    let mut pending = Vec::new();
    let table = r#"{"TableName":"Faults","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}"#;
    normal
        .write_all(request("CreateTable", table).as_bytes())
        .unwrap();
    assert_eq!(answer(&mut normal, &mut pending), Some(200));
    let put = request(
        "PutItem",
        r#"{"TableName":"Faults","Item":{"pk":{"S":"a"},"n":{"N":"1"}}}"#,
    );
    normal.write_all(put.as_bytes()).unwrap();
    assert_eq!(answer(&mut normal, &mut pending), Some(200));
    let get = request(
        "GetItem",
        r#"{"TableName":"Faults","Key":{"pk":{"S":"a"}}}"#,
    );

    let mut phase = |name: &str, seen: &Seen| {
        let until = Instant::now() + Duration::from_secs(seconds);
        let mut times = Vec::new();
        let mut failed = 0;
        while Instant::now() < until {
            let t = Instant::now();
            normal.write_all(get.as_bytes()).unwrap();
            if answer(&mut normal, &mut pending) != Some(200) {
                failed += 1;
            }
            times.push(t.elapsed().as_micros() as u64);
            thread::sleep(Duration::from_millis(1));
        }
        times.sort_unstable();
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
        let (rss, peak) = memory(pid);
        println!(
            "{name:<32} {:>7} {:>6} {:>7} {:>8} {:>8} {:>6} {:>7.1} {:>7.1}  {}",
            times.len(),
            failed,
            at(0.5),
            at(0.99),
            times[times.len() - 1],
            open_connections(pid),
            rss,
            peak,
            seen.take()
        );
    };
    println!("dynalint serve (defaults) under faults added one after another; {seconds} s a phase");
    println!("a normal client's GetItem on its kept-alive connection, 1 ms apart; latency in µs; memory in MB");
    println!(
        "{:<32} {:>7} {:>6} {:>7} {:>8} {:>8} {:>6} {:>7} {:>7}  faulty clients' answers",
        "phase", "gets", "failed", "p50", "p99", "max", "conns", "RSS", "peak"
    );
    phase("baseline", &seen);

    // 10,000 idle kept-alive connections, each after one request.
    let mut idle = Vec::with_capacity(10_000);
    let list = request("ListTables", "{}");
    for _ in 0..10_000 {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(list.as_bytes()).unwrap();
        let mut p = Vec::new();
        seen.note(answer(&mut s, &mut p));
        idle.push(s);
    }
    phase("+ 10,000 idle kept-alive", &seen);

    // 1,000 slowloris clients: a byte of head every second each, reconnecting when
    // closed.
    let slowloris = {
        let seen = Arc::clone(&seen);
        let running = Arc::clone(&running);
        thread::spawn(move || {
            let head = b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            let mut slow: Vec<(TcpStream, usize)> = (0..1000)
                .map(|_| (TcpStream::connect(addr).unwrap(), 0))
                .collect();
            for (s, _) in &slow {
                s.set_nonblocking(true).unwrap();
            }
            while running.load(Ordering::SeqCst) {
                for (s, i) in &mut slow {
                    let byte = head.get(*i).copied().unwrap_or(b'a');
                    let mut probe = [0u8; 256];
                    let closed = match s.read(&mut probe) {
                        Ok(0) => true,
                        Ok(n) => {
                            let text = String::from_utf8_lossy(&probe[..n]).to_string();
                            seen.note(text.split_whitespace().nth(1).and_then(|c| c.parse().ok()));
                            true
                        }
                        Err(e) => e.kind() != ErrorKind::WouldBlock,
                    };
                    if closed || s.write(&[byte]).is_err() {
                        if let Ok(n) = TcpStream::connect(addr) {
                            n.set_nonblocking(true).unwrap();
                            *s = n;
                            *i = 0;
                        }
                    } else {
                        *i += 1;
                    }
                }
                thread::sleep(Duration::from_secs(1));
            }
        })
    };
    phase("+ 1,000 slowloris", &seen);

    // 100 bodies that never finish, reopened when closed.
    let mut stuck = Vec::new();
    for _ in 0..4 {
        let seen = Arc::clone(&seen);
        stuck.push(fault(&running, move || {
            let opened: Vec<TcpStream> = (0..25)
                .filter_map(|_| {
                    let mut s = TcpStream::connect(addr).ok()?;
                    let head = format!("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n{AUTH}Content-Length: 1000000\r\n\r\n{{\"a\":");
                    s.write_all(head.as_bytes()).ok()?;
                    Some(s)
                })
                .collect();
            for mut s in opened {
                seen.note(first_status(&mut s));
            }
        }));
    }
    phase("+ 100 bodies never finished", &seen);

    // Pipelined garbage: two good requests, then 64 KB of junk, on a new connection.
    let garbage = {
        let seen = Arc::clone(&seen);
        let list = list.clone();
        fault(&running, move || {
            let Ok(mut s) = TcpStream::connect(addr) else {
                return;
            };
            let mut bytes = format!("{list}{list}").into_bytes();
            bytes.extend((0..65_536u32).map(|j| (j.wrapping_mul(2_654_435_761) >> 24) as u8));
            let _ = s.write_all(&bytes);
            seen.note(first_status(&mut s));
        })
    };
    phase("+ pipelined garbage", &seen);

    // 100 MB bodies, one after another.
    let big = {
        let seen = Arc::clone(&seen);
        fault(&running, move || {
            let Ok(mut s) = TcpStream::connect(addr) else {
                return;
            };
            let length = 100usize << 20;
            let head = format!("POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.PutItem\r\n{AUTH}Content-Length: {length}\r\n\r\n");
            let _ = s.write_all(head.as_bytes());
            let chunk = vec![b' '; 1 << 20];
            for _ in 0..100 {
                if s.write_all(&chunk).is_err() {
                    break;
                }
            }
            seen.note(first_status(&mut s));
        })
    };
    phase("+ 100 MB bodies", &seen);

    // Header floods: 10,000 headers; a 1 MB header.
    let floods = {
        let seen = Arc::clone(&seen);
        let many: String = (0..10_000).map(|i| format!("X-H{i}: v\r\n")).collect();
        let long = format!("X-Long: {}\r\n", "a".repeat(1 << 20));
        fault(&running, move || {
            for headers in [&many, &long] {
                let Ok(mut s) = TcpStream::connect(addr) else {
                    return;
                };
                let _ =
                    s.write_all(format!("POST / HTTP/1.1\r\nHost: x\r\n{headers}\r\n").as_bytes());
                seen.note(first_status(&mut s));
            }
        })
    };
    phase("+ header floods", &seen);

    running.store(false, Ordering::SeqCst);
    for t in [slowloris, garbage, big, floods].into_iter().chain(stuck) {
        let _ = t.join();
    }
    drop(idle);
    phase("all faults gone", &seen);
}

/// Open sockets of the server process.
fn open_connections(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| {
            d.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
                .filter(|l| l.to_string_lossy().starts_with("socket:"))
                .count()
        })
        .unwrap_or(0)
}
