//! The message loop: each message from the client to its handler (one per file in
//! `handlers/`), each behind `catch_unwind`, and the debounced analysis when the
//! client is quiet. Above the handlers and the session they work on (`session.rs`):
//! it holds the shutdown state, nothing else.

use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response, ResponseError};
use lsp_types::MessageType;
use serde_json::Value;

use super::guard::panic_message;
use super::handlers;
use super::session::{error, params, HandlerResult, Session};
use super::LspError;

pub use super::session::{ServerOptions, CRASH_CODE, DEFAULT_DEBOUNCE};

/// The running server.
pub struct Server {
    session: Session,
    shutdown: bool,
}

impl Server {
    /// A server over an initialised connection.
    pub fn new(conn: Connection, options: ServerOptions) -> Self {
        Self {
            session: Session::new(conn, options),
            shutdown: false,
        }
    }

    /// The state the handlers work on.
    pub fn session(&mut self) -> &mut Session {
        &mut self.session
    }

    /// Serves until `exit`.
    pub fn run(&mut self) -> Result<(), LspError> {
        loop {
            let msg = match self.session.deadline {
                Some(deadline) => match self.session.conn.receiver.recv_deadline(deadline) {
                    Ok(m) => Some(m),
                    Err(e) if e.is_timeout() => None,
                    Err(_) => return self.disconnected(),
                },
                None => match self.session.conn.receiver.recv() {
                    Ok(m) => Some(m),
                    Err(_) => return self.disconnected(),
                },
            };
            match msg {
                None => self.session.flush_dirty(),
                Some(Message::Request(req)) => self.on_request(req),
                Some(Message::Notification(n)) if n.method == "exit" => {
                    return if self.shutdown {
                        Ok(())
                    } else {
                        Err(LspError::ExitWithoutShutdown)
                    };
                }
                Some(Message::Notification(n)) => self.on_notification(n),
                // Answers to our own requests (capability registration): nothing to do.
                Some(Message::Response(_)) => {}
            }
        }
    }

    fn disconnected(&self) -> Result<(), LspError> {
        if self.shutdown {
            Ok(())
        } else {
            Err(LspError::Disconnected)
        }
    }

    fn on_request(&mut self, req: Request) {
        let id = req.id.clone();
        let method = req.method.clone();
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch_request(req)));
        let response = match outcome {
            Ok(Ok(result)) => Response {
                id,
                result: Some(result),
                error: None,
            },
            Ok(Err(err)) => {
                self.session.log(
                    MessageType::WARNING,
                    format!("`{method}` failed: {}", err.message),
                );
                Response {
                    id,
                    result: None,
                    error: Some(err),
                }
            }
            Err(payload) => {
                let msg = format!(
                    "internal error in `{method}`: {}",
                    panic_message(payload.as_ref())
                );
                self.session.log(MessageType::ERROR, msg.clone());
                Response {
                    id,
                    result: None,
                    error: Some(error(ErrorCode::InternalError, msg)),
                }
            }
        };
        self.session.send(response.into());
    }

    fn dispatch_request(&mut self, req: Request) -> HandlerResult {
        if self.shutdown {
            return Err(error(
                ErrorCode::InvalidRequest,
                format!("`{}` after shutdown", req.method),
            ));
        }
        match req.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                Ok(Value::Null)
            }
            "textDocument/hover" => {
                handlers::hover::handle(&mut self.session, params(&req.method, req.params)?)
            }
            "textDocument/codeAction" => {
                handlers::code_action::handle(&mut self.session, params(&req.method, req.params)?)
            }
            other => Err(error(
                ErrorCode::MethodNotFound,
                format!("dynalint does not handle `{other}`"),
            )),
        }
    }

    fn on_notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch_notification(n)));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(err)) => self
                .session
                .log(MessageType::WARNING, format!("`{method}`: {}", err.message)),
            Err(payload) => self.session.log(
                MessageType::ERROR,
                format!(
                    "internal error in `{method}`: {}",
                    panic_message(payload.as_ref())
                ),
            ),
        }
    }

    fn dispatch_notification(&mut self, n: Notification) -> Result<(), ResponseError> {
        let m = n.method.as_str();
        match m {
            "textDocument/didOpen" => {
                handlers::did_open::handle(&mut self.session, params(m, n.params)?)
            }
            "textDocument/didChange" => {
                handlers::did_change::handle(&mut self.session, params(m, n.params)?)
            }
            "textDocument/didSave" => {
                handlers::did_save::handle(&mut self.session, params(m, n.params)?)
            }
            "textDocument/didClose" => {
                handlers::did_close::handle(&mut self.session, params(m, n.params)?)
            }
            "workspace/didChangeWatchedFiles" => {
                handlers::did_change_watched_files::handle(&mut self.session, params(m, n.params)?)
            }
            "initialized" => Ok(()),
            // `$/` notifications may be ignored (cancellation, tracing, progress).
            _ if m.starts_with("$/") => Ok(()),
            other => {
                self.session.log(
                    MessageType::LOG,
                    format!("ignoring unknown notification `{other}`"),
                );
                Ok(())
            }
        }
    }
}
