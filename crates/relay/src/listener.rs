//! The relay's listening socket, which the graceful shutdown closes itself.
//!
//! axum drops its listener only some time after the graceful-shutdown signal, on the server's
//! own task, so the relay could log "no longer accepting" while the port still accepted
//! connections (the shutdown test connected once in four runs under load). [`Closable`] drops
//! the listener when told and then says so; the shutdown waits for that before it logs.

use std::net::SocketAddr;

use axum::serve::Listener;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch};

/// A TCP listener for `axum::serve` that stops accepting, and closes its socket, on request.
pub struct Closable {
    inner: Option<TcpListener>,
    addr: SocketAddr,
    close: watch::Receiver<bool>,
    closed: Option<oneshot::Sender<()>>,
}

/// Asks a [`Closable`] to close; resolves once its socket is closed.
pub struct CloseHandle {
    close: watch::Sender<bool>,
    closed: oneshot::Receiver<()>,
}

impl Closable {
    /// Wraps `listener`; the handle closes it.
    pub fn new(listener: TcpListener) -> std::io::Result<(Closable, CloseHandle)> {
        let addr = listener.local_addr()?;
        let (close_tx, close_rx) = watch::channel(false);
        let (closed_tx, closed_rx) = oneshot::channel();
        let listener = Closable {
            inner: Some(listener),
            addr,
            close: close_rx,
            closed: Some(closed_tx),
        };
        let handle = CloseHandle {
            close: close_tx,
            closed: closed_rx,
        };
        Ok((listener, handle))
    }
}

impl CloseHandle {
    /// Closes the listening socket and waits until it is closed (the server's accept loop
    /// gets back to it between two connections). `false` if the server is gone.
    pub async fn close(self) -> bool {
        let _ = self.close.send(true);
        self.closed.await.is_ok()
    }
}

impl Listener for Closable {
    type Io = TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (TcpStream, SocketAddr) {
        if let Some(inner) = &mut self.inner {
            // A dropped handle counts as a close request too.
            tokio::select! {
                accepted = Listener::accept(inner) => return accepted,
                _ = self.close.wait_for(|&close| close) => {}
            }
        }
        self.inner = None;
        if let Some(closed) = self.closed.take() {
            let _ = closed.send(());
        }
        std::future::pending().await
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        Ok(self.addr)
    }
}
