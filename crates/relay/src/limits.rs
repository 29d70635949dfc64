//! How many relayed sockets may be open: in total and per client address. A session holds a
//! [`Permit`] from before its upgrade until it ends; shutdown waits on [`Limits::wait_idle`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

/// Why a new socket was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Full {
    /// The relay holds `--max-sockets` already (HTTP 503).
    Total(usize),
    /// This client address holds `--max-sockets-per-client` already (HTTP 429).
    PerClient(usize),
}

impl Full {
    /// A short explanation for the refusal body and the log (names no address).
    pub fn message(self) -> String {
        match self {
            Full::Total(n) => {
                format!("the relay is at its limit of {n} open sockets (--max-sockets)")
            }
            Full::PerClient(n) => format!(
                "this client address is at its limit of {n} open sockets (--max-sockets-per-client)"
            ),
        }
    }
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// The socket limits and the current counts.
#[derive(Debug)]
pub struct Limits {
    max_total: usize,
    /// `0` means no per-address limit (e.g. behind a proxy, where every client has its address).
    max_per_client: usize,
    counts: Mutex<Counts>,
    idle: Notify,
}

/// One open socket's share of the limits, given back when dropped.
#[derive(Debug)]
pub struct Permit {
    limits: Arc<Limits>,
    client: IpAddr,
}

impl Limits {
    /// Limits of `max_total` sockets and `max_per_client` per address (`0`: none per address).
    pub fn new(max_total: usize, max_per_client: usize) -> Arc<Self> {
        Arc::new(Self {
            max_total,
            max_per_client,
            counts: Mutex::new(Counts::default()),
            idle: Notify::new(),
        })
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a place for a socket from `client`, or says which limit is reached.
    pub fn acquire(self: &Arc<Self>, client: IpAddr) -> Result<Permit, Full> {
        let mut counts = self.counts();
        if counts.total >= self.max_total {
            return Err(Full::Total(self.max_total));
        }
        let mine = counts.per_client.entry(client).or_insert(0);
        if self.max_per_client > 0 && *mine >= self.max_per_client {
            return Err(Full::PerClient(self.max_per_client));
        }
        *mine += 1;
        counts.total += 1;
        Ok(Permit {
            limits: self.clone(),
            client,
        })
    }

    /// Sockets open now.
    pub fn open(&self) -> usize {
        self.counts().total
    }

    /// Resolves once no socket is open.
    pub async fn wait_idle(&self) {
        loop {
            let notified = self.idle.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.open() == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.limits.counts();
        counts.total -= 1;
        if let Some(n) = counts.per_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                counts.per_client.remove(&self.client);
            }
        }
        if counts.total == 0 {
            self.limits.idle.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_and_per_client_limits_are_enforced_and_given_back() {
        let limits = Limits::new(3, 2);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        let a1 = limits.acquire(a).unwrap();
        let _a2 = limits.acquire(a).unwrap();
        assert_eq!(limits.acquire(a).unwrap_err(), Full::PerClient(2));
        let _b1 = limits.acquire(b).unwrap();
        assert_eq!(limits.acquire(b).unwrap_err(), Full::Total(3));
        drop(a1);
        assert_eq!(limits.open(), 2);
        let _a3 = limits.acquire(a).unwrap();
        assert!(Full::Total(3).message().contains("--max-sockets"));
    }

    #[test]
    fn zero_means_no_per_client_limit() {
        let limits = Limits::new(5, 0);
        let a: IpAddr = [127, 0, 0, 1].into();
        let permits: Vec<_> = (0..5).map(|_| limits.acquire(a).unwrap()).collect();
        assert_eq!(limits.acquire(a).unwrap_err(), Full::Total(5));
        drop(permits);
        assert_eq!(limits.open(), 0);
        assert!(limits.counts().per_client.is_empty());
    }

    #[tokio::test]
    async fn wait_idle_resolves_when_the_last_permit_goes() {
        let limits = Limits::new(5, 0);
        limits.wait_idle().await;
        let permit = limits.acquire([127, 0, 0, 1].into()).unwrap();
        let waiter = tokio::spawn({
            let limits = limits.clone();
            async move { limits.wait_idle().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(permit);
        waiter.await.unwrap();
    }
}
