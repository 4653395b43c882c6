//! Framed JSON-RPC over a byte stream, tolerant of bad input.
//!
//! `lsp_server::Connection::stdio()` ends the connection on the first malformed
//! message (and allocates whatever a header announces; see [`super::frame`]). A
//! malformed message must not bring the server down, so this transport answers it
//! with a JSON-RPC parse error (null id: there is no request to answer) and reads on,
//! from the next message the reader can frame.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use lsp_server::{Connection, ErrorCode, Message};

use super::frame::{self, Frame};

/// The threads that move messages between the stream and the connection.
pub struct IoThreads {
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits until every message the server sent is written. The reader thread is
    /// not joined: it may be blocked on a client that never closes its end.
    pub fn join(self) -> io::Result<()> {
        self.writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the LSP writer thread panicked")))
    }
}

/// Serves a connection over stdin/stdout.
pub fn stdio() -> io::Result<(Connection, IoThreads)> {
    spawn(io::BufReader::new(io::stdin()), io::stdout())
}

/// Serves a connection over any reader/writer pair.
pub fn spawn(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> io::Result<(Connection, IoThreads)> {
    let (server, client) = Connection::memory();
    let out = Arc::new(Mutex::new(output));
    let writer_out = Arc::clone(&out);
    let to_client = client.receiver;
    let writer = thread::Builder::new()
        .name("dynalint-lsp-writer".into())
        .spawn(move || {
            for msg in to_client {
                let mut w = writer_out
                    .lock()
                    .map_err(|_| io::Error::other("the LSP output lock is poisoned"))?;
                msg.write(&mut *w)?;
            }
            Ok(())
        })?;
    let to_server = client.sender;
    thread::Builder::new()
        .name("dynalint-lsp-reader".into())
        .spawn(move || {
            let mut reader = frame::Reader::new(input);
            loop {
                match reader.read() {
                    Ok(Frame::Message(msg)) => {
                        let is_exit =
                            matches!(&msg, Message::Notification(n) if n.method == "exit");
                        if to_server.send(msg).is_err() || is_exit {
                            return;
                        }
                    }
                    Ok(Frame::End) => return,
                    Ok(Frame::TooLarge(n)) => {
                        eprintln!("dynalint lsp: skipping a message: {}", frame::too_large(n));
                        if let Ok(mut w) = out.lock() {
                            let _ = write_parse_error(&mut *w, &frame::too_large(n));
                            // Most likely a document too large to send: the user is told,
                            // not only the client's log.
                            let _ = write_show_message(&mut *w, &frame::too_large(n));
                        }
                    }
                    Ok(Frame::Bad(why)) => {
                        eprintln!("dynalint lsp: ignoring a malformed message: {why}");
                        if let Ok(mut w) = out.lock() {
                            let _ = write_parse_error(&mut *w, &why);
                        }
                    }
                    Err(e) => {
                        eprintln!("dynalint lsp: cannot read from the client: {e}");
                        return;
                    }
                }
            }
        })?;
    Ok((server, IoThreads { writer }))
}

/// A `window/showMessage` warning, written by the reader (which has no connection).
fn write_show_message(w: &mut dyn Write, detail: &str) -> io::Result<()> {
    let params = lsp_types::ShowMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message: format!("dynalint skipped a message from the editor: {detail}"),
    };
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "method": "window/showMessage",
        "params": params,
    })
    .to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}

/// JSON-RPC's answer to a message that cannot be parsed: an error with a null id
/// (`lsp_server::Response` cannot say null, so it is written by hand).
fn write_parse_error(w: &mut dyn Write, detail: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": ErrorCode::ParseError as i32, "message": detail },
    })
    .to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}
