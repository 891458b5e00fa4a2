//! A `damiera` child process driven over its stdin and stdout, with a reader thread so that a
//! test waiting for a line times out instead of hanging. Shared by the protocol tests (included
//! with `#[path]`; each adds the helpers of its own protocol in an `impl EngineProcess`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// The engine process, its stdin and the lines of its stdout.
pub struct EngineProcess {
    pub child: Child,
    pub stdin: ChildStdin,
    pub lines: Receiver<String>,
}

impl EngineProcess {
    /// Starts `damiera ARGS` (stderr discarded).
    pub fn start(args: &[&str]) -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start damiera");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines,
        }
    }

    /// Writes `line` and a newline, flushed.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Every line up to and including the first starting with `prefix`; fails after `secs`
    /// seconds without a line.
    pub fn until(&mut self, prefix: &str, secs: u64) -> Vec<String> {
        let mut got = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(secs))
                .unwrap_or_else(|_| panic!("no '{prefix}' line after {got:?}"));
            let done = line.starts_with(prefix);
            got.push(line);
            if done {
                return got;
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
