//! A small LSP client for the tests: speaks framed JSON-RPC to the server (the real
//! `dynalint lsp` binary, or the library's server over in-memory pipes), keeps the
//! notifications it receives, and answers the server's own requests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};

/// How long any single wait may take on a loaded CI machine.
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Client {
    child: Option<Child>,
    server_thread: Option<thread::JoinHandle<()>>,
    to_server: Box<dyn Write + Send>,
    from_server: mpsc::Receiver<Message>,
    /// Notifications received but not yet looked at.
    pub inbox: VecDeque<Notification>,
    next_id: i32,
    /// The server process's stderr, shown only when the test fails: a passing run
    /// stays quiet even when the test provokes the server's error output.
    server_stderr: Arc<Mutex<String>>,
}

/// The fixture project, as an absolute canonical path.
pub fn fixture_root() -> PathBuf {
    std::fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("test-fixtures/_lsp")).unwrap()
}

/// Copies the fixture project to a temporary folder tests may write to.
pub fn fixture_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap().join("proj");
    copy_dir(&fixture_root(), &root);
    (dir, root)
}

/// Copies the fixture project `test-fixtures/<rel>` to a temporary folder.
pub fn copy_of(rel: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap().join("proj");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("test-fixtures")
            .join(rel),
        &root,
    );
    (dir, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// `file://` URI of an absolute path (the fixture paths are plain ASCII).
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The real binary (`dynalint lsp`), with extra environment variables.
pub fn binary_command(env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_dynalint"));
    cmd.arg("lsp");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

/// An in-memory byte pipe (`std::io::pipe` is newer than the crate's MSRV).
fn pipe() -> (PipeReader, PipeWriter) {
    let (tx, rx) = mpsc::channel();
    (
        PipeReader {
            rx,
            buf: Vec::new(),
            pos: 0,
        },
        PipeWriter(tx),
    )
}

struct PipeWriter(mpsc::Sender<Vec<u8>>);

impl Write for PipeWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(b.to_vec())
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct PipeReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl std::io::Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.buf = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Method of the pseudo-notification for bodies that are not LSP messages.
pub const UNPARSED: &str = "test/unparsed";

/// Reads one `Content-Length` framed body.
fn read_frame(r: &mut impl std::io::BufRead) -> Option<String> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut buf = vec![0u8; len?];
    r.read_exact(&mut buf).ok()?;
    String::from_utf8(buf).ok()
}

impl Client {
    /// Starts a server process and connects to its stdio.
    pub fn spawn(mut cmd: Command) -> Self {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the server");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let mut c = Self::over(Box::new(stdin), BufReader::new(stdout));
        let captured = Arc::clone(&c.server_stderr);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n @ 1..) = std::io::Read::read(&mut stderr, &mut buf) {
                if let Ok(mut s) = captured.lock() {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        c.child = Some(child);
        c
    }

    /// Closes the server's input, as a client that goes away does.
    pub fn close_input(&mut self) {
        self.to_server = Box::new(std::io::sink());
    }

    /// Runs the library's server on a thread, over in-memory pipes and the same transport
    /// `dynalint lsp` uses.
    pub fn in_process(options: dynalint::lsp::ServerOptions) -> Self {
        let (server_in, client_out) = pipe();
        let (client_in, server_out) = pipe();
        let (conn, io) =
            dynalint::lsp::transport::spawn(BufReader::new(server_in), server_out).unwrap();
        let server_thread = thread::spawn(move || {
            let _ = dynalint::lsp::serve(conn, options);
            let _ = io.join();
        });
        let mut c = Self::over(Box::new(client_out), BufReader::new(client_in));
        c.server_thread = Some(server_thread);
        c
    }

    fn over(
        to_server: Box<dyn Write + Send>,
        mut from: impl std::io::BufRead + Send + 'static,
    ) -> Self {
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            while let Some(body) = read_frame(&mut from) {
                // A body that is not an LSP message (a parse-error answer has a null id)
                // is handed over as a pseudo-notification carrying the raw JSON.
                let msg = serde_json::from_str::<Message>(&body).unwrap_or_else(|_| {
                    let raw: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                    Notification::new(UNPARSED.into(), raw).into()
                });
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        Self {
            child: None,
            server_thread: None,
            to_server,
            from_server: rx,
            inbox: VecDeque::new(),
            next_id: 0,
            server_stderr: Arc::default(),
        }
    }

    /// Writes raw bytes to the server (for malformed-message tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.to_server.write_all(bytes).unwrap();
        self.to_server.flush().unwrap();
    }

    fn send(&mut self, msg: Message) {
        msg.write(&mut self.to_server).unwrap();
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(Notification::new(method.into(), params).into());
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, method: &str, params: Value) -> Response {
        let id = self.send_request(method, params);
        self.response_to(&id)
    }

    /// Sends a request without waiting for its response; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> RequestId {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.send(Request::new(id.clone(), method.into(), params).into());
        id
    }

    /// Waits for the next response, whichever request it answers.
    pub fn next_response(&mut self) -> Response {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.next_message(deadline) {
                Some(Message::Response(r)) => return r,
                Some(_) => {}
                None => panic!("no response within {TIMEOUT:?}"),
            }
        }
    }

    /// Waits for the response with `id`, keeping notifications for later.
    pub fn response_to(&mut self, id: &RequestId) -> Response {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.next_message(deadline) {
                Some(Message::Response(r)) if &r.id == id => return r,
                Some(_) => {}
                None => panic!("no response to request {id:?} within {TIMEOUT:?}"),
            }
        }
    }

    /// Receives one message; answers server requests and queues notifications.
    fn next_message(&mut self, deadline: Instant) -> Option<Message> {
        let left = deadline.saturating_duration_since(Instant::now());
        let msg = self.from_server.recv_timeout(left).ok()?;
        match &msg {
            Message::Request(r) => {
                let resp = Response::new_ok(r.id.clone(), Value::Null);
                self.send(resp.into());
            }
            Message::Notification(n) => self.inbox.push_back(n.clone()),
            Message::Response(_) => {}
        }
        Some(msg)
    }

    /// Waits for a `publishDiagnostics` for `uri` that `accept` likes; returns its
    /// diagnostics. Earlier ones for that URI are skipped.
    pub fn diagnostics_where(
        &mut self,
        uri: &str,
        accept: impl Fn(&[Value]) -> bool,
    ) -> Vec<Value> {
        let deadline = Instant::now() + TIMEOUT;
        let mut last = None;
        loop {
            while let Some(n) = self
                .take(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            {
                let d = n.params["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                if accept(&d) {
                    return d;
                }
                last = Some(d);
            }
            if self.next_message(deadline).is_none() {
                panic!("no acceptable diagnostics for {uri} within {TIMEOUT:?}; last: {last:#?}");
            }
        }
    }

    /// Removes and returns the first queued notification `want` accepts.
    fn take(&mut self, want: impl Fn(&Notification) -> bool) -> Option<Notification> {
        let i = self.inbox.iter().position(want)?;
        self.inbox.remove(i)
    }

    /// How many `publishDiagnostics` for `uri` were received and not yet taken.
    pub fn queued_diagnostics(&self, uri: &str) -> usize {
        self.inbox
            .iter()
            .filter(|n| n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
            .count()
    }

    /// The next diagnostics published for `uri`.
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        self.diagnostics_where(uri, |_| true)
    }

    /// Waits for a notification with `method`, returning its params.
    pub fn notification(&mut self, method: &str) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(n) = self.take(|n| n.method == method) {
                return n.params;
            }
            if self.next_message(deadline).is_none() {
                panic!("no `{method}` within {TIMEOUT:?}");
            }
        }
    }

    /// Waits for a `window/logMessage` containing `needle`.
    pub fn log_containing(&mut self, needle: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(n) = self.take(|n| {
                n.method == "window/logMessage"
                    && n.params["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(needle))
            }) {
                return n.params["message"].as_str().unwrap_or_default().to_string();
            }
            if self.next_message(deadline).is_none() {
                panic!("no log message containing {needle:?} within {TIMEOUT:?}");
            }
        }
    }

    /// `initialize` + `initialized`, with a workspace folder at `root`.
    pub fn initialize(&mut self, root: &Path) -> Value {
        let r = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "workspaceFolders": [{ "uri": uri(root), "name": "fixture" }],
                "capabilities": {
                    "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } },
                    "textDocument": { "publishDiagnostics": { "relatedInformation": true } }
                }
            }),
        );
        assert!(r.error.is_none(), "initialize failed: {:?}", r.error);
        self.notify("initialized", json!({}));
        r.result.unwrap()
    }

    /// Opens a file of the project with its text from disk; returns its URI.
    pub fn open(&mut self, path: &Path, language: &str) -> (String, String) {
        let text = std::fs::read_to_string(path).unwrap();
        let u = uri(path);
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": u, "languageId": language, "version": 1, "text": text } }),
        );
        (u, text)
    }

    /// `shutdown` then `exit`; returns the process exit status when it is one.
    pub fn shutdown(mut self) -> Option<std::process::ExitStatus> {
        let r = self.request("shutdown", Value::Null);
        assert!(r.error.is_none(), "shutdown failed: {:?}", r.error);
        self.notify("exit", Value::Null);
        if let Some(t) = self.server_thread.take() {
            t.join().unwrap();
        }
        let mut child = self.child.take()?;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return Some(status);
            }
            assert!(
                Instant::now() < deadline,
                "server did not exit after `exit`"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Client {
    /// Waits for the server process to end on its own.
    pub fn wait_exit(mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("a server process");
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "server did not exit");
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if thread::panicking() {
            if let Ok(s) = self.server_stderr.lock() {
                eprintln!("--- the server's stderr ---\n{s}");
            }
        }
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Byte offset of a 0-based line and UTF-16 column, computed independently of the
/// server's code so the tests check its conversions.
pub fn offset_of(text: &str, line: u64, character: u64) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i as u64 == line {
            let mut units = 0u64;
            for (j, ch) in l.char_indices() {
                if units >= character || ch == '\n' {
                    return offset + j;
                }
                units += ch.len_utf16() as u64;
            }
            return offset + l.len();
        }
        offset += l.len();
    }
    text.len()
}

/// The 0-based line and UTF-16 column of a byte offset, independently computed.
pub fn position_of(text: &str, offset: usize) -> (u64, u64) {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before[start..].chars().map(|c| c.len_utf16() as u64).sum();
    (line, col)
}

/// Applies LSP `TextEdit`s (JSON) to a text, last first so offsets stay valid.
pub fn apply_edits(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let s = offset_of(
                text,
                r["start"]["line"].as_u64().unwrap(),
                r["start"]["character"].as_u64().unwrap(),
            );
            let t = offset_of(
                text,
                r["end"]["line"].as_u64().unwrap(),
                r["end"]["character"].as_u64().unwrap(),
            );
            (s, t, e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, t, new) in spans {
        out.replace_range(s..t, &new);
    }
    out
}

/// The `range` JSON of a byte span of `text`.
pub fn range_json(text: &str, start: usize, end: usize) -> Value {
    let (l0, c0) = position_of(text, start);
    let (l1, c1) = position_of(text, end);
    json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } })
}
