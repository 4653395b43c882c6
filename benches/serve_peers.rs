//! `dynalint serve` against the emulators teams use for the same job, on one machine in
//! one run: dynalite (npm) and moto's server (PyPI). For each: start-up time (spawn to
//! the first answer, the best of three), memory (resident at rest, with the table
//! loaded, and the peak under load), and PutItem / GetItem / Query / BatchWriteItem
//! throughput with p50/p99 latency and the server's CPU time per request at 1, 16 and
//! 128 concurrent clients, each a kept-alive connection sending the same requests back
//! to back. Writes overwrite the loaded table's 10,000 items, so every server holds the
//! same data whatever its speed. The servers run side by side and each figure is
//! measured in rounds that take the servers in turn, so that a busy moment of the
//! machine falls on all of them alike. Run it with the peers installed:
//!
//!   scripts/serve-bench
//!
//! which installs them (pinned) under target/serve-bench/ and runs this bench with
//! `SERVE_BENCH_DYNALITE` (dynalite's `cli.js`) and `SERVE_BENCH_MOTO` (the folder moto is
//! installed in) set; a peer not given is left out. `SERVE_BENCH_SECONDS` sets how long
//! each figure is measured for (default 3, in 10 rounds). Every server listens on
//! loopback only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsString;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// Any SigV4-shaped header: dynalite and moto want one (neither checks the signature),
/// dynalint ignores it.
const AUTH: &str = "Authorization: AWS4-HMAC-SHA256 Credential=dummy/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0000\r\nX-Amz-Date: 20240101T000000Z\r\n";

const PARTITIONS: usize = 1000;
const ITEMS_PER_PARTITION: usize = 10;
const CONCURRENCY: [usize; 3] = [1, 16, 128];

fn request(op: &str, body: &str) -> Vec<u8> {
    format!(
        "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Amz-Target: DynamoDB_20120810.{op}\r\nContent-Type: application/x-amz-json-1.0\r\n{AUTH}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One client connection, kept alive while the server allows it.
struct Client {
    addr: SocketAddr,
    stream: Option<TcpStream>,
    pending: Vec<u8>,
}

impl Client {
    fn new(addr: SocketAddr) -> Client {
        Client {
            addr,
            stream: None,
            pending: Vec::new(),
        }
    }

    /// Sends a request, reads its answer: the status and body, or None when the
    /// connection failed.
    fn call(&mut self, request: &[u8]) -> Option<(u16, Vec<u8>)> {
        if self.stream.is_none() {
            let s = TcpStream::connect(self.addr).ok()?;
            s.set_nodelay(true).ok()?;
            s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
            self.stream = Some(s);
            self.pending.clear();
        }
        let stream = self.stream.as_mut()?;
        if stream.write_all(request).is_err() {
            self.stream = None;
            return None;
        }
        let mut buf = [0u8; 64 * 1024];
        loop {
            if let Some(answer) = take_answer(&mut self.pending) {
                if answer.close {
                    self.stream = None;
                }
                return Some((answer.status, answer.body));
            }
            match self.stream.as_mut()?.read(&mut buf) {
                Ok(0) | Err(_) => {
                    self.stream = None;
                    return None;
                }
                Ok(n) => self.pending.extend_from_slice(&buf[..n]),
            }
        }
    }
}

/// An answer read whole off a connection.
struct Answer {
    status: u16,
    body: Vec<u8>,
    /// The server closes the connection after it.
    close: bool,
}

/// Takes the first answer off `pending` once it has arrived whole.
fn take_answer(pending: &mut Vec<u8>) -> Option<Answer> {
    let end = pending.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&pending[..end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    if pending.len() < end + 4 + length {
        return None;
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = pending[end + 4..end + 4 + length].to_vec();
    pending.drain(..end + 4 + length);
    let close = head.starts_with("http/1.0") && !head.contains("connection: keep-alive")
        || head.contains("connection: close");
    Some(Answer {
        status,
        body,
        close,
    })
}

/// [`Client::call`] for the measurements' tasks.
async fn call_async(
    addr: SocketAddr,
    stream: &mut Option<tokio::net::TcpStream>,
    pending: &mut Vec<u8>,
    request: &[u8],
) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    if stream.is_none() {
        let s = tokio::net::TcpStream::connect(addr).await.ok()?;
        s.set_nodelay(true).ok()?;
        *stream = Some(s);
        pending.clear();
    }
    let s = stream.as_mut()?;
    if s.write_all(request).await.is_err() {
        *stream = None;
        return None;
    }
    let mut buf = [0u8; 16 * 1024];
    loop {
        if let Some(answer) = take_answer(pending) {
            if answer.close {
                *stream = None;
            }
            return Some(answer.status);
        }
        match stream.as_mut()?.read(&mut buf).await {
            Ok(0) | Err(_) => {
                *stream = None;
                return None;
            }
            Ok(n) => pending.extend_from_slice(&buf[..n]),
        }
    }
}

/// A server under test: how to start it, less its port.
struct Peer {
    name: &'static str,
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(&'static str, OsString)>,
}

struct Running {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts the server and times it to its first answer.
fn start(peer: &Peer, port: u16) -> (Running, Duration) {
    let addr: SocketAddr = ([127, 0, 0, 1], port).into();
    let t = Instant::now();
    let child = Command::new(&peer.program)
        .args(&peer.args)
        .envs(peer.env.iter().map(|(k, v)| (k, v)))
        .arg("--port")
        .arg(port.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", peer.name));
    let running = Running { child, addr };
    let list = request("ListTables", "{}");
    loop {
        if let Some((200, _)) = Client::new(addr).call(&list) {
            return (running, t.elapsed());
        }
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{} did not answer",
            peer.name
        );
        thread::sleep(Duration::from_millis(1));
    }
}

/// Resident memory now and at the peak, in MB.
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

fn item(pk: &str, sk: &str) -> String {
    format!(
        r#"{{"pk":{{"S":"{pk}"}},"sk":{{"S":"{sk}"}},"status":{{"S":"OPEN"}},"amount":{{"N":"1234.5"}},"note":{{"S":"a note of some forty characters or so...."}},"tags":{{"SS":["a","b","c"]}}}}"#
    )
}

fn set_up(addr: SocketAddr) {
    let mut c = Client::new(addr);
    let table = r#"{"TableName":"Bench","BillingMode":"PAY_PER_REQUEST","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}]}"#;
    let (status, body) = c.call(&request("CreateTable", table)).unwrap();
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    // dynalite keeps a new table CREATING for a while.
    let describe = request("DescribeTable", r#"{"TableName":"Bench"}"#);
    let t = Instant::now();
    while !String::from_utf8_lossy(&c.call(&describe).unwrap().1).contains("\"ACTIVE\"") {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "the table never became ACTIVE"
        );
        thread::sleep(Duration::from_millis(50));
    }
    let all: Vec<String> = (0..PARTITIONS)
        .flat_map(|p| {
            (0..ITEMS_PER_PARTITION).map(move |i| item(&format!("p{p}"), &format!("s{i}")))
        })
        .collect();
    for batch in all.chunks(25) {
        let puts: Vec<String> = batch
            .iter()
            .map(|i| format!(r#"{{"PutRequest":{{"Item":{i}}}}}"#))
            .collect();
        let body = format!(r#"{{"RequestItems":{{"Bench":[{}]}}}}"#, puts.join(","));
        let (status, body) = c.call(&request("BatchWriteItem", &body)).unwrap();
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert!(
            !String::from_utf8_lossy(&body).contains("\"PutRequest\""),
            "unprocessed items while loading"
        );
    }
}

#[derive(Clone, Copy)]
enum Op {
    PutItem,
    GetItem,
    Query,
    BatchWriteItem,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::PutItem => "PutItem",
            Op::GetItem => "GetItem",
            Op::Query => "Query",
            Op::BatchWriteItem => "BatchWriteItem",
        }
    }

    fn request(self, rng: &mut fastrand::Rng) -> Vec<u8> {
        let p = rng.usize(..PARTITIONS);
        let body = match self {
            Op::PutItem => format!(
                r#"{{"TableName":"Bench","Item":{}}}"#,
                item(
                    &format!("p{p}"),
                    &format!("s{}", rng.usize(..ITEMS_PER_PARTITION))
                )
            ),
            Op::GetItem => format!(
                r#"{{"TableName":"Bench","Key":{{"pk":{{"S":"p{p}"}},"sk":{{"S":"s{}"}}}}}}"#,
                rng.usize(..ITEMS_PER_PARTITION)
            ),
            Op::Query => format!(
                r#"{{"TableName":"Bench","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{{":p":{{"S":"p{p}"}}}}}}"#
            ),
            Op::BatchWriteItem => {
                // 25 distinct keys: all of three neighbouring partitions' items.
                let puts: Vec<String> = (0..25)
                    .map(|i| {
                        let partition = (p + i / ITEMS_PER_PARTITION) % PARTITIONS;
                        let key = (
                            format!("p{partition}"),
                            format!("s{}", i % ITEMS_PER_PARTITION),
                        );
                        format!(r#"{{"PutRequest":{{"Item":{}}}}}"#, item(&key.0, &key.1))
                    })
                    .collect();
                format!(r#"{{"RequestItems":{{"Bench":[{}]}}}}"#, puts.join(","))
            }
        };
        request(self.name(), &body)
    }
}

/// One figure's measurements, over its rounds.
#[derive(Default)]
struct Figures {
    times: Vec<Duration>,
    seconds: f64,
    errors: usize,
    cpu: Duration,
}

impl Figures {
    fn per_second(&self) -> f64 {
        self.times.len() as f64 / self.seconds
    }

    fn at(&mut self, q: f64) -> Duration {
        self.times.sort_unstable();
        self.times
            .get(((self.times.len().max(1) - 1) as f64 * q) as usize)
            .copied()
            .unwrap_or_default()
    }

    fn cpu_per_request(&self) -> Duration {
        self.cpu / (self.times.len().max(1) as u32)
    }
}

/// CPU time (user and system) the process has used so far.
fn cpu_time(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command's closing parenthesis; utime and stime are the
    // 12th and 13th of them, in clock ticks (100 a second on Linux).
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// `clients` connections sending `op` back to back for `seconds`, added to `into`.
/// The clients are tasks on one thread, not threads: 128 client threads on a small
/// machine would measure its scheduler more than the server.
fn measure(addr: SocketAddr, pid: u32, op: Op, clients: usize, seconds: f64, into: &mut Figures) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut connected = Vec::new();
        for _ in 0..clients {
            // Connected before the clock starts.
            let (mut stream, mut pending) = (None, Vec::new());
            let list = request("ListTables", "{}");
            call_async(addr, &mut stream, &mut pending, &list).await;
            connected.push((stream, pending));
        }
        let cpu = cpu_time(pid);
        let until = Instant::now() + Duration::from_secs_f64(seconds);
        let tasks: Vec<_> = connected
            .into_iter()
            .map(|(mut stream, mut pending)| {
                tokio::spawn(async move {
                    let mut rng = fastrand::Rng::new();
                    let mut times = Vec::new();
                    let mut errors = 0;
                    while Instant::now() < until {
                        let r = op.request(&mut rng);
                        let t = Instant::now();
                        match call_async(addr, &mut stream, &mut pending, &r).await {
                            Some(200) => times.push(t.elapsed()),
                            _ => errors += 1,
                        }
                    }
                    (times, errors)
                })
            })
            .collect();
        for task in tasks {
            let (t, e) = task.await.unwrap();
            into.times.extend(t);
            into.errors += e;
        }
        into.cpu += cpu_time(pid).saturating_sub(cpu);
        into.seconds += seconds;
    });
}

fn main() {
    let seconds: f64 = std::env::var("SERVE_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let mut peers = vec![Peer {
        name: "dynalint serve",
        program: env!("CARGO_BIN_EXE_dynalint").into(),
        args: vec!["serve".into(), "--bind".into(), "127.0.0.1".into()],
        env: Vec::new(),
    }];
    match std::env::var_os("SERVE_BENCH_DYNALITE") {
        Some(cli) => {
            // In memory (no --path) is dynalite's default; it binds every interface
            // unless told otherwise.
            peers.push(Peer {
                name: "dynalite",
                program: "node".into(),
                args: vec![cli, "--host".into(), "127.0.0.1".into()],
                env: Vec::new(),
            });
        }
        None => {
            println!("dynalite: left out (SERVE_BENCH_DYNALITE not set; see scripts/serve-bench)")
        }
    }
    match std::env::var_os("SERVE_BENCH_MOTO") {
        Some(dir) => {
            peers.push(Peer {
                name: "moto server",
                program: std::env::var_os("PYTHON").unwrap_or("python3".into()),
                args: ["-m", "moto.server", "--host", "127.0.0.1"]
                    .map(OsString::from)
                    .into(),
                env: vec![("PYTHONPATH", dir)],
            });
        }
        None => println!("moto: left out (SERVE_BENCH_MOTO not set; see scripts/serve-bench)"),
    }
    let ops = [Op::PutItem, Op::GetItem, Op::Query, Op::BatchWriteItem];
    const ROUNDS: usize = 10;
    println!(
        "serve peers: {seconds} s per figure in {ROUNDS} rounds, {} cores; a table of {} items in \
         {PARTITIONS} partitions, which the writes overwrite; BatchWriteItem writes 25 items \
         a request; latency in ms, the server's CPU time per request in µs",
        thread::available_parallelism().map_or(1, |n| n.get()),
        PARTITIONS * ITEMS_PER_PARTITION
    );
    println!(
        "{:<16} {:>10} {:>9} {:>10} {:>9}",
        "server", "start ms", "RSS MB", "loaded MB", "peak MB"
    );
    // Start-up: the best of three starts (the first may pay for a cold disk cache);
    // then each server once more, to keep.
    let mut running = Vec::new();
    for peer in &peers {
        let mut starts = Vec::new();
        for _ in 0..3 {
            let (server, took) = start(peer, free_port());
            starts.push(took);
            drop(server);
        }
        starts.sort_unstable();
        let (server, _) = start(peer, free_port());
        running.push((peer.name, server, starts[0]));
    }
    let mut at_rest = Vec::new();
    thread::sleep(Duration::from_millis(500));
    for (_, server, _) in &running {
        at_rest.push(memory(server.child.id()).0);
    }
    let mut loaded = Vec::new();
    for (_, server, _) in &running {
        set_up(server.addr);
        loaded.push(memory(server.child.id()).0);
    }
    let mut figures: Vec<Vec<Figures>> = running
        .iter()
        .map(|_| {
            (0..ops.len() * CONCURRENCY.len())
                .map(|_| Figures::default())
                .collect()
        })
        .collect();
    for (o, op) in ops.iter().enumerate() {
        for (c, clients) in CONCURRENCY.iter().enumerate() {
            for _ in 0..ROUNDS {
                for (s, (_, server, _)) in running.iter().enumerate() {
                    let into = &mut figures[s][o * CONCURRENCY.len() + c];
                    let pid = server.child.id();
                    measure(
                        server.addr,
                        pid,
                        *op,
                        *clients,
                        seconds / ROUNDS as f64,
                        into,
                    );
                }
            }
        }
    }
    for (s, (name, server, start)) in running.iter().enumerate() {
        println!(
            "{:<16} {:>10.0} {:>9.1} {:>10.1} {:>9.1}",
            name,
            start.as_secs_f64() * 1000.0,
            at_rest[s],
            loaded[s],
            memory(server.child.id()).1
        );
    }
    println!();
    println!(
        "{:<16} {:<15} {:>7} {:>12} {:>9} {:>9} {:>9} {:>7}",
        "server", "operation", "clients", "requests/s", "p50 ms", "p99 ms", "CPU µs", "errors"
    );
    for (o, op) in ops.iter().enumerate() {
        for (c, clients) in CONCURRENCY.iter().enumerate() {
            for (s, (name, _, _)) in running.iter().enumerate() {
                let f = &mut figures[s][o * CONCURRENCY.len() + c];
                println!(
                    "{:<16} {:<15} {:>7} {:>12.0} {:>9.2} {:>9.2} {:>9.0} {:>7}",
                    name,
                    op.name(),
                    clients,
                    f.per_second(),
                    f.at(0.5).as_secs_f64() * 1000.0,
                    f.at(0.99).as_secs_f64() * 1000.0,
                    f.cpu_per_request().as_secs_f64() * 1e6,
                    f.errors
                );
            }
        }
    }
}
