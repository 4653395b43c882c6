//! The TCP listener: accepts connections on a runtime of its own, never turning a
//! client away, until stopped.

use std::io;
use std::net::{SocketAddr, TcpListener as StdListener};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::transport::Transport;
use super::{Handler, Limits, Load};

/// File descriptors kept for other uses when the open-file limit bounds connections.
const RESERVED_FILES: u64 = 64;

/// Connections waiting to be accepted (std's `TcpListener::bind` listens with 128; a
/// test suite starting hundreds of clients at once would see connection retries).
const LISTEN_BACKLOG: i32 = 1024;

/// A bound listener.
pub struct Listener {
    listener: StdListener,
    addr: SocketAddr,
    transport: Transport,
    stop: Arc<watch::Sender<bool>>,
}

/// Stops [`Listener::serve`] from another thread.
#[derive(Clone)]
pub struct Stop {
    stop: Arc<watch::Sender<bool>>,
}

impl Stop {
    /// Makes [`Listener::serve`] return (at once if it has not started yet); open
    /// connections are closed.
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }
}

impl Listener {
    /// Binds `addr` (port 0 picks a free port), to answer through `handler`.
    pub fn bind(addr: SocketAddr, limits: Limits, handler: Handler) -> io::Result<Listener> {
        use socket2::{Domain, Protocol as Proto, Socket, Type};
        let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Proto::TCP))?;
        // As std does: a restart can bind the port its predecessor's closed
        // connections still name.
        #[cfg(unix)]
        socket.set_reuse_address(true)?;
        socket.bind(&addr.into())?;
        socket.listen(LISTEN_BACKLOG)?;
        let listener: StdListener = socket.into();
        let addr = listener.local_addr()?;
        Ok(Listener {
            listener,
            addr,
            transport: Transport::new(limits, handler),
            stop: Arc::new(watch::channel(false).0),
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn stop_handle(&self) -> Stop {
        Stop {
            stop: Arc::clone(&self.stop),
        }
    }

    /// Connections open now.
    pub fn active(&self) -> Arc<AtomicUsize> {
        self.transport.open()
    }

    /// What the transport holds now.
    pub fn load(&self) -> Load {
        self.transport.load()
    }

    /// The transport serving this listener's connections.
    pub fn transport(&self) -> Transport {
        self.transport.clone()
    }

    /// Accepts and serves connections until stopped, on a runtime of its own (one
    /// worker thread per core).
    pub fn serve(&self) -> io::Result<()> {
        let files = raise_open_file_limit();
        let limits = self.transport.0.limits;
        let max_connections = match files {
            Some(n) => limits
                .max_connections
                .min(n.saturating_sub(RESERVED_FILES).max(16) as usize),
            None => limits.max_connections,
        }
        .max(1);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("dynalint-serve")
            .build()?;
        let listener = self.listener.try_clone()?;
        listener.set_nonblocking(true)?;
        let mut stop = self.stop.subscribe();
        let transport = &self.transport;
        let open = transport.open();
        let result = runtime.block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener)?;
            while !*stop.borrow_and_update() {
                if open.load(Ordering::SeqCst) > max_connections {
                    // Over the bound: close the longest-idle connection, or wait for one
                    // to finish; new clients wait in the listen queue meanwhile.
                    transport.make_room(None);
                    tokio::select! {
                        changed = stop.changed() => if changed.is_err() { break },
                        _ = transport.0.closed.notified() => {}
                        _ = tokio::time::sleep(Duration::from_millis(10)) => {}
                    }
                    continue;
                }
                tokio::select! {
                    changed = stop.changed() => if changed.is_err() { break },
                    accepted = listener.accept() => match accepted {
                        Ok((stream, _)) => {
                            let _ = stream.set_nodelay(true);
                            // A client is never turned away: one over the bound makes
                            // the longest-idle other connection close instead.
                            let over = open.load(Ordering::SeqCst) >= max_connections;
                            let (id, served) = transport.connection_with_id(stream);
                            tokio::spawn(served);
                            if over {
                                transport.make_room(Some(id));
                            }
                        }
                        Err(_) => {
                            // Out of file descriptors, or a connection reset before it
                            // was accepted: make room, then try again in a moment.
                            transport.make_room(None);
                            tokio::time::sleep(Duration::from_millis(10)).await;
                        }
                    }
                }
            }
            Ok(())
        });
        runtime.shutdown_background();
        result
    }
}

/// Raises the soft open-file limit to the hard one (as Go's runtime does at start),
/// so that kept-alive clients are bounded by the machine rather than by a shell's
/// default; returns the limit now in force, if any.
#[cfg(unix)]
fn raise_open_file_limit() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let now = getrlimit(Resource::Nofile);
    let current = now.current?;
    // macOS refuses more than its per-process maximum: try a common one next.
    for want in [now.maximum.unwrap_or(u64::MAX).min(1 << 20), 10_240] {
        if want <= current {
            break;
        }
        let raised = Rlimit {
            current: Some(want),
            maximum: now.maximum,
        };
        if setrlimit(Resource::Nofile, raised).is_ok() {
            break;
        }
    }
    getrlimit(Resource::Nofile).current
}

#[cfg(not(unix))]
fn raise_open_file_limit() -> Option<u64> {
    None
}
