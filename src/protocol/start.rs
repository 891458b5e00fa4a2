//! The protocol a session speaks, chosen by its first line ([`run`]).

use super::lines::{input_lines, Output};
use super::{hub, native};
use std::io::BufRead;

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
