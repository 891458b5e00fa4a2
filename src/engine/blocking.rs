//! Blocking search for the shell tools: a `go` that waits for its best move, optionally
//! cancelled from another thread.

use crate::engine::events::{Event, MoveForm};
use crate::engine::facade::Engine;
use crate::engine::request::GoRequest;
use crate::engine::search::Limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

impl Engine {
    /// Searches the current position within `limits` and waits for the end (a blocking
    /// [`Engine::go`], for the shell tools): `info` gets each [`Event::Info`] on the calling
    /// thread as the search reports it. Returns the best move and the expected reply, named
    /// in `form` (`None`: no legal move, or no reply).
    pub fn search(
        &mut self,
        limits: Limits,
        form: MoveForm,
        info: impl FnMut(Event),
    ) -> (Option<String>, Option<String>) {
        self.search_cancellable(limits, form, info, &AtomicBool::new(false))
    }

    /// [`Engine::search`] that another thread can end early: when `cancel` is set (it is read
    /// every [`CANCEL_POLL_MS`] milliseconds), the search stops and reports what it has, as
    /// after [`Engine::stop`].
    pub fn search_cancellable(
        &mut self,
        limits: Limits,
        form: MoveForm,
        mut info: impl FnMut(Event),
        cancel: &AtomicBool,
    ) -> (Option<String>, Option<String>) {
        let (tx, rx) = mpsc::channel();
        self.go(
            GoRequest {
                limits,
                ponder: false,
                form,
            },
            Box::new(move |ev| {
                let _ = tx.send(ev);
            }),
        );
        let mut best = (None, None);
        loop {
            if cancel.load(Ordering::SeqCst) {
                self.signal_stop();
            }
            match rx.recv_timeout(Duration::from_millis(CANCEL_POLL_MS)) {
                Ok(Event::BestMove { best: b, ponder }) => {
                    best = (b, ponder);
                    break;
                }
                Ok(ev) => info(ev),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        self.wait();
        best
    }
}

/// How often (milliseconds) [`Engine::search_cancellable`] looks at its cancel flag.
pub const CANCEL_POLL_MS: u64 = 20;
