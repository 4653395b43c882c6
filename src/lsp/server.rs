//! The message loop: each message from the client to its handler (one per file in
//! `handlers/`), each behind `catch_unwind`; the debounced analysis handed to a
//! worker when the client is quiet, and its result received like a message. It
//! never analyses itself, so `shutdown`, cancellations and requests about other
//! projects are answered while an analysis runs. Above the handlers and the session
//! they work on (`session.rs`): it holds the shutdown state, nothing else.

use std::panic::{catch_unwind, AssertUnwindSafe};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response, ResponseError};
use lsp_types::MessageType;
use serde_json::Value;

use super::handlers;
use super::session::{error, params, HandlerResult, Session};
use super::LspError;
use crate::project::guard::panic_message;

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
            let timer = match self.session.deadline {
                Some(deadline) => crossbeam_channel::at(deadline),
                None => crossbeam_channel::never(),
            };
            let msg = crossbeam_channel::select! {
                recv(self.session.conn.receiver) -> m => match m {
                    Ok(m) => Some(m),
                    Err(_) => return self.disconnected(),
                },
                recv(self.session.done_rx) -> done => {
                    if let Ok(done) = done {
                        for req in self.session.land(done) {
                            self.on_request(req);
                        }
                    }
                    continue;
                },
                recv(timer) -> _ => None,
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
        let Some(req) = self.wait_for_analysis(req) else {
            return;
        };
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

    /// A request about a file's findings waits for its project's analysis when that
    /// is not up to date and none is running (see `Session::park`); `None`: parked.
    fn wait_for_analysis(&mut self, req: Request) -> Option<Request> {
        let about_findings = matches!(
            req.method.as_str(),
            "textDocument/hover" | "textDocument/codeAction"
        );
        if self.shutdown || !about_findings {
            return Some(req);
        }
        let uri =
            serde_json::from_value::<lsp_types::Uri>(req.params["textDocument"]["uri"].clone());
        // A request the handler will refuse is refused now.
        let Some(config) = uri.ok().and_then(|u| self.session.locate(&u).ok()) else {
            return Some(req);
        };
        self.session.park(&config.1, req)
    }

    /// Answers a parked request the client cancelled (`$/cancelRequest`); a request
    /// being answered already or answered is left alone, as the protocol allows.
    fn cancel_request(&mut self, p: lsp_types::CancelParams) {
        let id = match p.id {
            lsp_types::NumberOrString::Number(n) => lsp_server::RequestId::from(n),
            lsp_types::NumberOrString::String(s) => lsp_server::RequestId::from(s),
        };
        if let Some(req) = self.session.unpark(&id) {
            let response = Response {
                id: req.id,
                result: None,
                error: Some(error(
                    ErrorCode::RequestCanceled,
                    format!("`{}` cancelled by the client", req.method),
                )),
            };
            self.session.send(response.into());
        }
    }

    /// Answers every request parked on an analysis before `shutdown` is answered (a
    /// client waits for each of its requests, and after `shutdown` none would come):
    /// as cancelled, the code a client takes quietly.
    fn wind_down(&mut self) {
        for req in self.session.wind_down() {
            let response = Response {
                id: req.id,
                result: None,
                error: Some(error(
                    ErrorCode::RequestCanceled,
                    format!("`{}` not answered: the server is shutting down", req.method),
                )),
            };
            self.session.send(response.into());
        }
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
                self.wind_down();
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
            "$/cancelRequest" => {
                self.cancel_request(params(m, n.params)?);
                Ok(())
            }
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
