//! The thread the engine runs its searches and perfts on: made at the first job and kept, one
//! job at a time.

use std::sync::mpsc;
use std::thread::JoinHandle;

/// A job for the [`Runner`]'s thread: a search or a perft.
pub(super) type Job = Box<dyn FnOnce() + Send>;

/// The thread that runs searches and perfts, one job at a time. It is made at the first job
/// and kept, so that a `go` costs no thread creation (a front end sends thousands).
#[derive(Default)]
pub(super) struct Runner {
    thread: Option<RunnerThread>,
    /// Whether a job was sent and not yet waited for.
    busy: bool,
}

struct RunnerThread {
    jobs: mpsc::Sender<Job>,
    done: mpsc::Receiver<()>,
    handle: JoinHandle<()>,
}

impl Runner {
    /// Runs `job` on the thread (after the previous job has ended).
    pub(super) fn run(&mut self, job: Job) {
        self.wait();
        let mut job = Some(job);
        for _ in 0..2 {
            if self.thread.is_none() {
                self.thread = RunnerThread::start();
            }
            let Some(t) = &self.thread else { break };
            match t.jobs.send(job.take().expect("sent once")) {
                Ok(()) => {
                    self.busy = true;
                    return;
                }
                // The thread is gone (a job panicked): start another.
                Err(mpsc::SendError(j)) => {
                    job = Some(j);
                    self.thread = None;
                }
            }
        }
        log::error!("cannot start the search thread");
    }

    /// Waits for the running job to end (a search waiting for `stop` is woken to see it).
    pub(super) fn wait(&mut self) {
        if !self.busy {
            return;
        }
        self.busy = false;
        if let Some(t) = &self.thread {
            // A search waiting for `stop` (infinite or ponder) sleeps parked: wake it.
            t.handle.thread().unpark();
            if t.done.recv().is_err() {
                // The job panicked and took the thread with it.
                self.thread = None;
            }
        }
    }
}

impl RunnerThread {
    fn start() -> Option<RunnerThread> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (tx, done) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(32 << 20)
            .spawn(move || {
                for job in rx {
                    job();
                    if tx.send(()).is_err() {
                        break;
                    }
                }
            });
        match handle {
            Ok(handle) => Some(RunnerThread { jobs, done, handle }),
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                None
            }
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        self.wait();
        if let Some(t) = self.thread.take() {
            drop(t.jobs);
            let _ = t.handle.join();
        }
    }
}
