//! The match's PDN file (`--pdn`): the finished games of an earlier run read back for
//! `--resume`, each new game appended as it ends (an interrupted match keeps it), and the file
//! rewritten in game order when the match ends (docs/match.md, "Resuming").

use super::pdn::{read_finished, FinishedGame};
use crate::core::variant::Variant;
use std::fs::{File, OpenOptions};
use std::io::Write;

/// The finished games of the file at `path` (a `--resume` or `--report-only`), played between
/// the engines `names` in `v`; none when the file does not exist.
///
/// # Errors
/// The file cannot be read, or holds a game of other engines or another variant: one line
/// naming `path`.
pub fn read_earlier(path: &str, v: Variant, names: [&str; 2]) -> Result<Vec<FinishedGame>, String> {
    if !std::path::Path::new(path).exists() {
        return Ok(Vec::new());
    }
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("--resume: cannot read {path}: {e}"))?;
    read_finished(&text, v, names).map_err(|e| format!("--resume: {path}: {e}"))
}

/// Appends each game to the PDN file as it ends. The file is opened (and, without `resume`,
/// emptied) when the first game ends, so a match that fails to start leaves an earlier file as
/// it was. A write error is reported on stderr and the match goes on (its games are kept for
/// [`rewrite_in_order`]).
pub struct Appender {
    path: String,
    resume: bool,
    file: Option<File>,
}

impl Appender {
    /// An appender to `path`; with `resume`, after the games already there.
    pub fn new(path: &str, resume: bool) -> Appender {
        Appender {
            path: path.to_string(),
            resume,
            file: None,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Appends one game's PDN `text` and flushes it.
    pub fn append(&mut self, text: &str) {
        let path = &self.path;
        if self.file.is_none() {
            self.file = OpenOptions::new()
                .create(true)
                .append(self.resume)
                .write(true)
                .truncate(!self.resume)
                .open(path)
                .map_err(|e| eprintln!("error: cannot write {path}: {e}"))
                .ok();
        }
        if let Some(f) = &mut self.file {
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.flush()) {
                eprintln!("error: cannot write {path}: {e}");
            }
        }
    }
}

/// Rewrites the file at `path` with the `earlier` run's games as they were written and the
/// `new_games` (game index, PDN text), in game order, through a temporary file renamed over
/// it. An error is reported on stderr (the file then keeps every game, in the order played).
pub fn rewrite_in_order(path: &str, earlier: Vec<FinishedGame>, new_games: Vec<(usize, String)>) {
    let mut all: Vec<(usize, String)> = earlier
        .into_iter()
        .map(|g| (g.record.index, g.text))
        .chain(new_games)
        .collect();
    all.sort_by_key(|(i, _)| *i);
    let text: String = all.into_iter().map(|(_, t)| t).collect();
    let tmp = format!("{path}.tmp");
    if let Err(e) = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path)) {
        eprintln!("error: cannot rewrite {path} in game order: {e} (its games are all there)");
    }
}
