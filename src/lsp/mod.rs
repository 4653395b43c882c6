//! The language server (`dynalint lsp`). Only this module knows the LSP crates.
//!
//! It holds no pipeline of its own: each `dynalint.toml` is a
//! [`crate::project::Project`] the session keeps, told of the editor's changes and
//! asked to analyse with the open documents laid over the disk
//! ([`crate::project::Project::analyze_edits`]), after a short debounce, on a worker
//! thread ([`worker`]) while the message loop keeps answering; diagnostics are
//! published for the open documents and `dynalint.toml`. Byte spans become UTF-16
//! positions in [`convert`] only. Handlers live one per file in `handlers/`; each
//! runs behind `catch_unwind`, and the project isolates a file that panics
//! ([`crate::project::guard`]).

pub mod convert;
pub mod describe;
pub mod document;
pub mod frame;
pub mod handlers;
pub mod server;
pub mod session;
pub mod transport;
pub mod uri;
pub mod worker;

use lsp_server::Connection;
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability,
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern,
    HoverProviderCapability, InitializeParams, PositionEncodingKind, Registration,
    RegistrationParams, SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

pub use server::{Server, ServerOptions};
pub use session::Session;

/// Why the server stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    #[error("LSP protocol error: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    #[error("LSP transport error: {0}")]
    Io(#[from] std::io::Error),
    #[error("the client sent `exit` without `shutdown` first")]
    ExitWithoutShutdown,
    #[error("the client closed the connection without `shutdown`")]
    Disconnected,
}

/// Runs the server over stdin/stdout until the client says `exit`: what
/// `dynalint lsp` calls. Options come from the environment ([`ServerOptions::from_env`]).
pub fn run_stdio() -> Result<(), LspError> {
    let (connection, io) = transport::stdio()?;
    let result = serve(connection, ServerOptions::from_env());
    // The connection is dropped by now, so the writer drains and stops.
    io.join()?;
    result
}

/// What the server can do, as announced in `initialize`.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..Default::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..Default::default()
        })),
        ..Default::default()
    }
}

/// Serves one client on `connection`: the handshake, then the main loop until `exit`.
pub fn serve(connection: Connection, options: ServerOptions) -> Result<(), LspError> {
    let (id, raw) = connection.initialize_start()?;
    // A client that sends odd initialize params still gets a server: every field we
    // read is optional.
    let params: InitializeParams = serde_json::from_value(raw).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "dynalint".into(),
            version: Some(env!("CARGO_PKG_VERSION").into()),
        },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server::new(connection, options);
    let watch = params
        .capabilities
        .workspace
        .and_then(|w| w.did_change_watched_files)
        .and_then(|w| w.dynamic_registration)
        .unwrap_or(false);
    if watch {
        register_watchers(server.session());
    }
    server.run()
}

/// Asks the client to tell us about `.rs`, `dynalint.toml` and `Cargo.toml` files
/// changed outside the editor (a manifest decides which crates' functions a call can
/// reach), and templates (an inferred model is read from them).
fn register_watchers(session: &mut Session) {
    let watchers = [
        "**/dynalint.toml",
        "**/*.rs",
        "**/Cargo.toml",
        handlers::TEMPLATE_GLOB,
    ]
    .into_iter()
    .map(|g| FileSystemWatcher {
        glob_pattern: GlobPattern::String(g.into()),
        kind: None,
    })
    .collect();
    let options = DidChangeWatchedFilesRegistrationOptions { watchers };
    let params = RegistrationParams {
        registrations: vec![Registration {
            id: "dynalint-watched-files".into(),
            method: "workspace/didChangeWatchedFiles".into(),
            register_options: serde_json::to_value(options).ok(),
        }],
    };
    session.send_request("client/registerCapability", params);
}
