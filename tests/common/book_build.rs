//! A small opening book for the tests that use one (included with `#[path]`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds an English book of `positions` positions with depth-`depth` leaves into
/// `dir/english.dmbk` with `damiera book build`, and returns its path; fails the test if the
/// build fails.
pub fn english_book(dir: &Path, positions: u32, depth: u32) -> PathBuf {
    let book = dir.join("english.dmbk");
    let out = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["book", "build", "--variant", "english"])
        .args(["--positions", &positions.to_string()])
        .args(["--depth", &depth.to_string(), "--out"])
        .arg(&book)
        .output()
        .expect("damiera book build runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    book
}
