//! A cloneable cancel token shared by the UI's Cancel button, the retry pipeline and the
//! transports (the browser one aborts its `fetch` through an AbortController).
//! `Arc<Mutex>` rather than `Rc<Cell>` so the native transport's worker threads may hold it.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

#[derive(Debug, Default)]
struct State {
    cancelled: bool,
    wakers: Vec<Waker>,
}

#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<Mutex<State>>);

impl CancelToken {
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every call that holds a clone of this token; idempotent.
    pub fn cancel(&self) {
        let wakers = match self.0.lock() {
            Ok(mut s) => {
                s.cancelled = true;
                std::mem::take(&mut s.wakers)
            }
            Err(_) => return,
        };
        for w in wakers {
            w.wake();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.lock().map(|s| s.cancelled).unwrap_or(true)
    }

    /// Resolves once [`cancel`](Self::cancel) has been called.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled(self.clone())
    }
}

/// The future of [`CancelToken::cancelled`].
pub struct Cancelled(CancelToken);

impl Future for Cancelled {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let Ok(mut s) = (self.0).0.lock() else {
            return Poll::Ready(());
        };
        if s.cancelled {
            return Poll::Ready(());
        }
        if !s.wakers.iter().any(|w| w.will_wake(cx.waker())) {
            s.wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn cancel_reaches_clones_and_wakes_waiters() {
        let token = CancelToken::new();
        let clone = token.clone();
        let mut waiting = clone.cancelled();
        assert!((&mut waiting).now_or_never().is_none());
        assert!(!clone.is_cancelled());
        token.cancel();
        assert!(clone.is_cancelled());
        assert!(waiting.now_or_never().is_some());
        token.cancel();
        assert!(token.is_cancelled());
    }

    #[test]
    fn cancel_from_another_thread_wakes_the_executor() {
        let token = CancelToken::new();
        let remote = token.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            remote.cancel();
        });
        futures::executor::block_on(token.cancelled());
        assert!(t.join().is_ok());
    }
}
