//! The text protocols on stdin/stdout: the native UCI-style loop ([`native`], docs/protocol.md)
//! and Hub ([`hub`], Scan 3.1's protocol as pydraughts and lidraughts-bot speak it); and DXP
//! over TCP ([`dxp`], docs/dxp.md).
//!
//! This module holds what both share: bounded line reading ([`input_lines`]), the output that
//! the command loop and the search thread write to ([`Output`]), and [`run`], which picks the
//! protocol from the first line. The two front ends import from here and never from each
//! other.

pub mod dxp;
pub mod hub;
pub mod native;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The longest input line accepted, in bytes (1 MiB: a `position` line with some 100,000
/// moves). A longer line is read to its end, discarded and reported as [`InputError::TooLong`].
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Where protocol lines go: shared by the command loop and the search thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Lines to `w` (stdout in the binary, a buffer in tests).
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes it. A write error (the reader went away) is ignored: the
    /// loop ends when its input does.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// A line that could not be taken as a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The line was longer than [`MAX_LINE_BYTES`]; its length in bytes.
    TooLong(usize),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::TooLong(n) => write!(
                f,
                "line of {n} bytes ignored (at most {MAX_LINE_BYTES} bytes)"
            ),
        }
    }
}

/// The input of a protocol loop: one item per line.
pub type Input<'a> = &'a mut dyn Iterator<Item = Result<String, InputError>>;

/// The lines of `input`, up to the end of input or a read error, each at most
/// [`MAX_LINE_BYTES`] long (a longer one is skipped to its end and given as an error). A line
/// that is not UTF-8 is decoded lossily (so it reads as an unknown command or a bad argument)
/// rather than ending the session.
pub fn input_lines(input: impl BufRead) -> impl Iterator<Item = Result<String, InputError>> {
    BoundedLines { input, done: false }
}

struct BoundedLines<R> {
    input: R,
    done: bool,
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = Result<String, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut line = Vec::new();
        let mut len = 0usize;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[],
            };
            if buf.is_empty() {
                // End of input (or an error): the last line may lack its newline.
                self.done = true;
                if len == 0 {
                    return None;
                }
                break;
            }
            let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], true),
                None => (buf, false),
            };
            len = len.saturating_add(chunk.len());
            if len <= MAX_LINE_BYTES {
                line.extend_from_slice(chunk);
            } else {
                line = Vec::new();
            }
            let used = chunk.len() + found as usize;
            self.input.consume(used);
            if found {
                break;
            }
        }
        if len > MAX_LINE_BYTES {
            return Some(Err(InputError::TooLong(len)));
        }
        Some(Ok(String::from_utf8_lossy(&line).into_owned()))
    }
}

/// Runs a protocol session on `input`: Hub if the first non-empty line is `hub`, the native
/// protocol otherwise, until `quit` or the end of input.
pub fn run(input: impl BufRead, out: Output) {
    let mut lines = input_lines(input);
    let mut first = None;
    for item in lines.by_ref() {
        match item {
            Ok(l) if l.trim().is_empty() => continue,
            other => {
                first = Some(other);
                break;
            }
        }
    }
    let Some(first) = first else { return };
    if matches!(&first, Ok(l) if l.trim() == "hub") {
        hub::run_after_hub(&mut lines, out);
    } else {
        let mut rest = std::iter::once(first).chain(lines);
        native::run(&mut rest, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_whole_and_reported() {
        let mut text = b"isready\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 5));
        text.extend_from_slice(b"\nquit");
        let lines: Vec<_> = input_lines(std::io::BufReader::with_capacity(7, &text[..])).collect();
        assert_eq!(
            lines,
            [
                Ok("isready".to_string()),
                Err(InputError::TooLong(MAX_LINE_BYTES + 5)),
                Ok("quit".to_string())
            ]
        );
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_kept_and_bad_utf8_is_lossy() {
        let mut text = vec![b'y'; MAX_LINE_BYTES];
        text.extend_from_slice(b"\n\xff\n");
        let lines: Vec<_> = input_lines(&text[..]).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].as_ref().map(|l| l.len()), Ok(MAX_LINE_BYTES));
        assert_eq!(lines[1], Ok("\u{fffd}".to_string()));
    }
}
