//! pydraughts 0.6.7's PDN reader on a file damiera wrote (tests/pydraughts/pdn_replay.py), for
//! the tests that check the written PDN reads in a real peer. Include it with
//! `#[path = "common/pydraughts_pdn.rs"] mod pydraughts_pdn;` next to `mod common;`.

use super::common;
use std::path::Path;

/// One game as pydraughts 0.6.7 read and replayed it (tests/pydraughts/pdn_replay.py).
pub struct PyGame {
    /// The game terminator its reader found.
    pub ending: String,
    /// The `[Result]` tag.
    pub result_tag: String,
    /// The final position, pydraughts' variant FEN.
    pub fen: String,
    /// The moves as read.
    pub moves: Vec<String>,
}

/// Every game of `file` as pydraughts' PDNReader reads it, each replayed through its rules
/// (the script fails on a move they reject).
pub fn replay(file: &Path) -> Vec<PyGame> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/pdn_replay.py");
    let py = std::process::Command::new(common::python())
        .arg(script)
        .arg(file)
        .output()
        .expect("python runs");
    assert!(
        py.status.success(),
        "pydraughts on {}: {}",
        file.display(),
        String::from_utf8_lossy(&py.stderr)
    );
    String::from_utf8_lossy(&py.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "{l}");
            PyGame {
                ending: f[1].to_string(),
                result_tag: f[2].to_string(),
                fen: f[3].to_string(),
                moves: f[4].split_whitespace().map(str::to_string).collect(),
            }
        })
        .collect()
}
