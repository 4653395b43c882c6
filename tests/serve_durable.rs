//! `dynalint serve` over time and across restarts. The crash test: `--data-dir`
//! killed with SIGKILL while 200 clients write; after a restart, every write the
//! server acknowledged is there, and every item that is there is exactly one a client
//! sent (never half of one, never half of a transaction). And the work DynamoDB does
//! in the background: Time to Live deleting expired items while the server runs.
//!
//! `small_crash` runs in the suite (a few hundred writes, one kill). `long_crash`
//! (ignored) is the long form, with figures: `scripts/crash-test`, or
//! `CRASH_ROUNDS=5 CRASH_KILL_AFTER=20000 cargo test --release --test serve_durable --
//! --ignored --nocapture`.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const TABLE: &str = "Crash";

/// A `dynalint serve --data-dir` child process and what it said when it started.
struct Served {
    child: Child,
    addr: SocketAddr,
    /// From spawning to listening (recovery included).
    ready: Duration,
    /// Its start-up lines on stderr.
    said: Vec<String>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path, extra: &[&str]) -> Served {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir)
        .args(extra)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut said = Vec::new();
    let addr = loop {
        let line = lines
            .next()
            .unwrap_or_else(|| panic!("serve exited before listening: {said:?}"))
            .unwrap();
        said.push(line.clone());
        if let Some(rest) = line.split("listening on http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap();
            break addr.parse().unwrap();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines.by_ref() {});
    Served {
        child,
        addr,
        ready: started.elapsed(),
        said,
    }
}

/// A kept-alive HTTP/1.1 connection speaking DynamoDB's protocol.
struct Client {
    stream: BufReader<TcpStream>,
}

impl Client {
    fn connect(addr: SocketAddr) -> std::io::Result<Client> {
        let stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        stream.set_nodelay(true)?;
        Ok(Client {
            stream: BufReader::new(stream),
        })
    }

    /// The status and body of one request; an error when the connection breaks
    /// (the server was killed): then the write is not acknowledged.
    fn call(&mut self, op: &str, body: &Value) -> std::io::Result<(u16, Value)> {
        let body = body.to_string();
        let head = format!(
            "POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810.{op}\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let s = self.stream.get_mut();
        s.write_all(head.as_bytes())?;
        s.write_all(body.as_bytes())?;
        let mut status_line = String::new();
        if self.stream.read_line(&mut status_line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status: u16 = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or(std::io::ErrorKind::InvalidData)?;
        let mut length = 0;
        loop {
            let mut line = String::new();
            if self.stream.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value
                        .trim()
                        .parse()
                        .map_err(|_| std::io::ErrorKind::InvalidData)?;
                }
            }
        }
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body)?;
        let json = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Ok((status, json))
    }
}

/// A write a client sent: one item, or a transaction's items.
#[derive(Clone)]
struct Sent {
    items: Vec<(String, Value)>,
}

/// The item writer `w` sends as its `i`-th write: its key, and a body whose size and
/// contents vary and which says what it should contain (`len`, `sum`), so that a torn
/// item could never pass for a whole one.
fn item(w: usize, i: usize, part: &str) -> (String, Value) {
    let key = format!("w{w:03}-{i:06}{part}");
    let size = (w * 7919 + i * 104_729) % 3000 + 1;
    let payload: String = (0..size)
        .map(|k| char::from(b'a' + ((w + i + k) % 26) as u8))
        .collect();
    let sum: u64 = payload.bytes().map(u64::from).sum();
    let item = json!({
        "pk": {"S": key},
        "payload": {"S": payload},
        "len": {"N": size.to_string()},
        "sum": {"N": sum.to_string()},
        "nested": {"M": {"w": {"N": w.to_string()}, "i": {"N": i.to_string()},
            "tags": {"SS": ["crash", format!("zz{part}")]}}},
    });
    (key, item)
}

/// What writers sent and what the server acknowledged.
#[derive(Default)]
struct Ledger {
    sent: Vec<Sent>,
    acked: Vec<Sent>,
}

/// `writers` clients write until `stop`; every acknowledged write is recorded.
fn write_until_killed(
    addr: SocketAddr,
    writers: usize,
    round: usize,
    acked: &Arc<AtomicUsize>,
    stop: &Arc<AtomicBool>,
) -> Ledger {
    let threads: Vec<_> = (0..writers)
        .map(|w| {
            let (acked, stop) = (Arc::clone(acked), Arc::clone(stop));
            std::thread::spawn(move || {
                let mut ledger = Ledger::default();
                let Ok(mut client) = Client::connect(addr) else {
                    return ledger;
                };
                let mut i = round * 1_000_000;
                while !stop.load(Ordering::SeqCst) {
                    // One write in ten is a transaction of three items.
                    let (op, body, sent) = if (w + i) % 10 == 9 {
                        let items: Vec<(String, Value)> =
                            ["-a", "-b", "-c"].iter().map(|p| item(w, i, p)).collect();
                        let actions: Vec<Value> = items
                            .iter()
                            .map(|(_, it)| json!({"Put": {"TableName": TABLE, "Item": it}}))
                            .collect();
                        (
                            "TransactWriteItems",
                            json!({ "TransactItems": actions }),
                            items,
                        )
                    } else {
                        let (key, it) = item(w, i, "");
                        (
                            "PutItem",
                            json!({"TableName": TABLE, "Item": it}),
                            vec![(key, it)],
                        )
                    };
                    let sent = Sent { items: sent };
                    ledger.sent.push(sent.clone());
                    match client.call(op, &body) {
                        Ok((200, _)) => {
                            ledger.acked.push(sent);
                            acked.fetch_add(1, Ordering::SeqCst);
                        }
                        Ok((status, answer)) => {
                            panic!("{op} answered {status}: {answer}")
                        }
                        Err(_) => break,
                    }
                    i += 1;
                }
                ledger
            })
        })
        .collect();
    let mut all = Ledger::default();
    for t in threads {
        let l = t.join().unwrap();
        all.sent.extend(l.sent);
        all.acked.extend(l.acked);
    }
    all
}

/// Every item of the table, by key.
fn scan_all(addr: SocketAddr) -> BTreeMap<String, Value> {
    let mut client = Client::connect(addr).unwrap();
    let mut items = BTreeMap::new();
    let mut start: Option<Value> = None;
    loop {
        let mut body = json!({ "TableName": TABLE });
        if let Some(s) = start.take() {
            body["ExclusiveStartKey"] = s;
        }
        let (status, page) = client.call("Scan", &body).unwrap();
        assert_eq!(status, 200, "{page}");
        for it in page["Items"].as_array().unwrap() {
            items.insert(it["pk"]["S"].as_str().unwrap().to_string(), it.clone());
        }
        match page.get("LastEvaluatedKey") {
            Some(k) => start = Some(k.clone()),
            None => return items,
        }
    }
}

/// What one kill and restart showed.
#[derive(Debug, Default)]
struct Figures {
    acknowledged: usize,
    found: usize,
    unacknowledged_found: usize,
    torn_tails: usize,
    restart: Duration,
    items_after: usize,
    /// From the first write to the kill.
    writing: Duration,
}

/// Writes with `writers` clients until `kill_after` writes are acknowledged (and a
/// random moment more), kills the server with SIGKILL, restarts it and checks.
fn crash_round(
    dir: &Path,
    writers: usize,
    kill_after: usize,
    round: usize,
    expected: &mut BTreeMap<String, Value>,
    extra: &[&str],
) -> Figures {
    let mut served = serve(dir, extra);
    if round == 0 {
        let mut c = Client::connect(served.addr).unwrap();
        let (status, answer) = c
            .call(
                "CreateTable",
                &json!({"TableName": TABLE, "BillingMode": "PAY_PER_REQUEST",
                    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
                    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
                    "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}}),
            )
            .unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let acked = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let ledger = Arc::new(Mutex::new(None));
    let writing = {
        let (acked, stop, ledger) = (Arc::clone(&acked), Arc::clone(&stop), Arc::clone(&ledger));
        let addr = served.addr;
        std::thread::spawn(move || {
            let l = write_until_killed(addr, writers, round, &acked, &stop);
            *ledger.lock().unwrap() = Some(l);
        })
    };
    let began = Instant::now();
    let deadline = began + Duration::from_secs(600);
    while acked.load(Ordering::SeqCst) < kill_after {
        assert!(Instant::now() < deadline, "writers stalled");
        std::thread::sleep(Duration::from_millis(1));
    }
    // A moment within the next few milliseconds, so the kill lands mid-write.
    std::thread::sleep(Duration::from_micros(fastrand_micros(round)));
    served.child.kill().unwrap();
    let writing_time = began.elapsed();
    served.child.wait().unwrap();
    stop.store(true, Ordering::SeqCst);
    writing.join().unwrap();
    let ledger = ledger.lock().unwrap().take().unwrap();

    let restarted = serve(dir, extra);
    let torn_tails = restarted
        .said
        .iter()
        .map(|l| l.matches("never acknowledged").count())
        .sum();
    let found = scan_all(restarted.addr);
    // Every acknowledged write is there, whole.
    let mut figures = Figures {
        acknowledged: ledger.acked.len(),
        torn_tails,
        restart: restarted.ready,
        items_after: found.len(),
        writing: writing_time,
        ..Figures::default()
    };
    for sent in &ledger.acked {
        for (key, item) in &sent.items {
            assert_eq!(
                found.get(key),
                Some(item),
                "acknowledged write {key} lost or changed"
            );
            expected.insert(key.clone(), item.clone());
        }
        figures.found += 1;
    }
    // Every write that is there is exactly what was sent, and a transaction is there
    // whole or not at all.
    let acked_keys: BTreeSet<&String> = ledger
        .acked
        .iter()
        .flat_map(|s| s.items.iter().map(|(k, _)| k))
        .collect();
    for sent in &ledger.sent {
        let present: Vec<bool> = sent
            .items
            .iter()
            .map(|(k, _)| found.contains_key(k))
            .collect();
        assert!(
            present.iter().all(|p| *p) || present.iter().all(|p| !*p),
            "a transaction is there in part: {:?}",
            sent.items.iter().map(|(k, _)| k).collect::<Vec<_>>()
        );
        for (key, item) in &sent.items {
            if let Some(got) = found.get(key) {
                assert_eq!(got, item, "item {key} is not what was sent");
                if !acked_keys.contains(key) {
                    expected.insert(key.clone(), item.clone());
                }
            }
        }
        if present.iter().all(|p| *p) && !sent.items.iter().any(|(k, _)| acked_keys.contains(k)) {
            figures.unacknowledged_found += 1;
        }
    }
    // Nothing from earlier rounds went missing, nothing unexpected appeared.
    assert_eq!(
        found.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>()
    );
    figures
}

/// A few hundred microseconds to a few milliseconds, varying by round.
fn fastrand_micros(round: usize) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    (u64::from(nanos) + round as u64 * 7919) % 5000
}

fn report(round: usize, f: &Figures) {
    eprintln!(
        "round {round}: {} writes acknowledged in {:.2} s ({:.0}/s), {} found after restart ({} unacknowledged writes found too), {} torn tails dropped, {} items in the table, restart {:.3} s",
        f.acknowledged,
        f.writing.as_secs_f64(),
        f.acknowledged as f64 / f.writing.as_secs_f64().max(1e-9),
        f.found,
        f.unacknowledged_found,
        f.torn_tails,
        f.items_after,
        f.restart.as_secs_f64()
    );
}

#[test]
fn small_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut expected = BTreeMap::new();
    let f = crash_round(dir.path(), 200, 300, 0, &mut expected, &[]);
    report(0, &f);
    assert!(f.acknowledged >= 300);
    assert_eq!(f.found, f.acknowledged);
}

#[test]
#[ignore = "long form: scripts/crash-test"]
fn long_crash() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let rounds = env("CRASH_ROUNDS", 5);
    let kill_after = env("CRASH_KILL_AFTER", 20_000);
    let writers = env("CRASH_WRITERS", 200);
    // A small compaction threshold, so kills also land while snapshots are written.
    let compact = env("CRASH_COMPACT_AFTER_MB", 8).to_string();
    // CRASH_DIR keeps the data directory for a look afterwards.
    let tmp = tempfile::tempdir().unwrap();
    let dir = std::env::var_os("CRASH_DIR").map_or(tmp.path().to_path_buf(), Into::into);
    let mut expected = BTreeMap::new();
    let mut total = Figures::default();
    for round in 0..rounds {
        let f = crash_round(
            &dir,
            writers,
            kill_after,
            round,
            &mut expected,
            &["--compact-after", &compact],
        );
        report(round, &f);
        total.acknowledged += f.acknowledged;
        total.found += f.found;
        total.unacknowledged_found += f.unacknowledged_found;
        total.torn_tails += f.torn_tails;
        total.restart = total.restart.max(f.restart);
        total.items_after = f.items_after;
    }
    eprintln!(
        "total: {rounds} kills with {writers} writers: {} writes acknowledged, {} found, {} unacknowledged found, {} torn tails dropped, {} items at the end, slowest restart {:.3} s",
        total.acknowledged,
        total.found,
        total.unacknowledged_found,
        total.torn_tails,
        total.items_after,
        total.restart.as_secs_f64()
    );
}

#[test]
fn time_to_live_deletes_expired_items_while_the_server_runs() {
    use dynalint::engine::clock::Clock;
    use dynalint::engine::database::Database;
    use dynalint::engine::server::{Server, DEFAULT_LIMITS};

    let clock = Clock::manual(1_700_000_000.0);
    let db = Arc::new(Database::in_memory(clock.clone()));
    let server = Server::bind_database(
        "127.0.0.1:0".parse().unwrap(),
        DEFAULT_LIMITS,
        db,
        Duration::from_millis(20),
    )
    .unwrap();
    let addr = server.local_addr().unwrap();
    let stop = server.stop_handle();
    let serving = std::thread::spawn(move || server.serve());
    let mut c = Client::connect(addr).unwrap();
    let mut ok = |op: &str, body: Value| {
        let (status, answer) = c.call(op, &body).unwrap();
        assert_eq!(status, 200, "{op}: {answer}");
        answer
    };
    ok(
        "CreateTable",
        json!({"TableName": "Sessions", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [{"AttributeName": "id", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "id", "KeyType": "HASH"}]}),
    );
    ok(
        "UpdateTimeToLive",
        json!({"TableName": "Sessions", "TimeToLiveSpecification": {"AttributeName": "expires", "Enabled": true}}),
    );
    for (id, expires) in [
        ("short", "1700000060"),
        ("long", "1700003600"),
        ("none", ""),
    ] {
        let mut item = json!({"id": {"S": id}});
        if !expires.is_empty() {
            item["expires"] = json!({ "N": expires });
        }
        ok("PutItem", json!({"TableName": "Sessions", "Item": item}));
    }
    let ids = |ok: &mut dyn FnMut(&str, Value) -> Value| -> Vec<String> {
        let mut ids: Vec<String> = ok("Scan", json!({"TableName": "Sessions"}))["Items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["id"]["S"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    clock.advance(61.0);
    let deadline = Instant::now() + Duration::from_secs(30);
    while ids(&mut ok) != ["long", "none"] {
        assert!(
            Instant::now() < deadline,
            "the expired item was never deleted"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    clock.advance(3600.0);
    while ids(&mut ok) != ["none"] {
        assert!(
            Instant::now() < deadline,
            "the second expired item was never deleted"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    stop.stop();
    serving.join().unwrap().unwrap();
}

#[test]
fn a_second_server_cannot_use_the_same_data_directory() {
    let dir = tempfile::tempdir().unwrap();
    let _first = serve(dir.path(), &[]);
    let second = Command::new(env!("CARGO_BIN_EXE_dynalint"))
        .args(["serve", "--port", "0", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(
        stderr.contains("another `dynalint serve` is using this data directory"),
        "{stderr}"
    );
}
