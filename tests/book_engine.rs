//! The engine plays from an opening book (docs/book.md, "In the engine"): a book built by
//! `damiera book build` is played at once within `BookPly` and searched past it; a corrupted
//! entry is skipped, never played; a bad `BookFile` is one error line and the old book stays;
//! `BookMode random` is a function of the `Seed`; Hub's `book-file` plays it too.

#[path = "common/book_build.rs"]
mod book_build;
use damiera::book::{book_key, read, HEADER_SIZE, RECORD_SIZE};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("damiera-book-engine-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An English book of 40 positions at depth 3, built once.
fn book() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| book_build::english_book(&dir(), 40, 3))
}

/// `damiera book probe`'s moves of `fen` (the start if `None`), best first.
fn probe(book: &Path, fen: Option<&str>) -> Vec<String> {
    let mut c = Command::new(BIN);
    c.args(["book", "probe"]).arg(book);
    if let Some(f) = fen {
        c.args(["--fen", f]);
    }
    let out = c.output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[path = "common/engine_process.rs"]
mod engine_process;
use engine_process::EngineProcess as Engine;

impl Engine {
    /// A native `go` from `position`: its book line (if any), its best move, the info lines
    /// seen and the time it took.
    fn go(&mut self, position: &str, go: &str) -> (Option<String>, String, usize, Duration) {
        self.send(position);
        let t = Instant::now();
        self.send(go);
        let lines = self.until("bestmove", 20);
        let took = t.elapsed();
        let book = lines
            .iter()
            .find(|l| l.starts_with("info string book "))
            .map(|l| l.split_whitespace().nth(3).unwrap().to_string());
        let infos = lines.iter().filter(|l| l.starts_with("info depth")).count();
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        (book, best, infos, took)
    }

    /// Sends a `setoption`, then `isready`; the lines before `readyok`.
    fn set(&mut self, name: &str, value: &str) -> Vec<String> {
        self.send(&format!("setoption name {name} value {value}"));
        self.send("isready");
        let mut l = self.until("readyok", 20);
        l.pop();
        l
    }
}

#[test]
fn the_book_move_is_played_at_once_within_book_ply_and_the_search_after() {
    let book = book();
    let best = probe(book, None);
    assert!(best.len() > 1, "{best:?}");
    let mut e = Engine::start(&[]);
    assert!(e.set("BookFile", book.to_str().unwrap()).is_empty());
    let (line, mv, infos, took) = e.go("position startpos", "go movetime 5000");
    assert_eq!(line.as_deref(), Some(best[0].as_str()));
    assert_eq!(mv, best[0]);
    assert_eq!(infos, 0, "no search");
    assert!(took < Duration::from_millis(1500), "{took:?}");
    // The reply in the book is played too, at ply 1.
    let fen_after = {
        let mut p = VariantPosition::start(Variant::English);
        let m = p
            .legal_moves()
            .iter()
            .copied()
            .find(|m| p.move_name(m) == best[0])
            .unwrap();
        p.play(&m);
        p.fen()
    };
    let reply = probe(book, Some(&fen_after));
    assert!(!reply.is_empty());
    let pos1 = format!("position startpos moves {}", best[0]);
    let (line, mv, _, _) = e.go(&pos1, "go depth 3");
    assert_eq!(
        (line.as_deref(), mv.as_str()),
        (Some(reply[0].as_str()), reply[0].as_str())
    );
    // Past BookPly, with OwnBook off, and for ponder: the search.
    assert!(e.set("BookPly", "0").is_empty());
    let (line, _, infos, _) = e.go(&pos1, "go depth 3");
    assert_eq!((line, infos), (None, 3));
    let (line, mv, _, _) = e.go("position startpos", "go depth 3");
    assert_eq!(
        (line.as_deref(), mv.as_str()),
        (Some(best[0].as_str()), best[0].as_str())
    );
    assert!(e.set("OwnBook", "false").is_empty());
    let (line, _, infos, _) = e.go("position startpos", "go depth 3");
    assert_eq!((line, infos), (None, 3));
    assert!(e.set("OwnBook", "true").is_empty());
    e.send("position startpos");
    e.send("go ponder depth 2");
    e.send("ponderhit");
    let lines = e.until("bestmove", 20);
    assert!(!lines.iter().any(|l| l.contains("book")), "{lines:?}");
    // Empty unloads the book.
    assert!(e.set("BookFile", "<empty>").is_empty());
    let (line, _, infos, _) = e.go("position startpos", "go depth 2");
    assert_eq!((line, infos), (None, 2));
}

#[test]
fn a_corrupted_entry_is_skipped_and_a_bad_file_is_one_error_line() {
    let book = book();
    let best = probe(book, None);
    // The start position's best record: the first of its key (records sorted by key, then
    // score). Its `from` byte is flipped to a square no board has.
    let (_, entries) = read(book).unwrap();
    let key = book_key(&VariantPosition::start(Variant::English));
    let i = entries.iter().position(|e| e.key == key).unwrap();
    let mut bytes = std::fs::read(book).unwrap();
    bytes[HEADER_SIZE + RECORD_SIZE * i + 16] ^= 0xc0;
    let bad = dir().join("corrupt.dmbk");
    std::fs::write(&bad, &bytes).unwrap();
    let left = probe(&bad, None);
    assert_eq!(left, best[1..].to_vec(), "the corrupted entry is skipped");
    let mut e = Engine::start(&[]);
    assert!(e.set("BookFile", bad.to_str().unwrap()).is_empty());
    let (line, mv, _, _) = e.go("position startpos", "go depth 3");
    assert_eq!(
        (line.as_deref(), mv.as_str()),
        (Some(left[0].as_str()), left[0].as_str())
    );

    // Garbage, a truncated book, a missing file: one error line each, the book kept.
    let garbage = dir().join("garbage.dmbk");
    std::fs::write(&garbage, b"this is not an opening book at all, not at all").unwrap();
    let truncated = dir().join("truncated.dmbk");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    for f in [garbage.clone(), truncated, dir().join("missing.dmbk")] {
        let lines = e.set("BookFile", f.to_str().unwrap());
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string error: option BookFile: "),
            "{lines:?}"
        );
        let (line, mv, _, _) = e.go("position startpos", "go depth 3");
        assert_eq!(
            (line.as_deref(), mv.as_str()),
            (Some(left[0].as_str()), left[0].as_str())
        );
    }
}

/// The book moves `BookMode random` plays with `seed` along the first plies of the game,
/// choosing each next position by the move played.
fn random_line(seed: u64) -> Vec<String> {
    let mut e = Engine::start(&[]);
    assert!(e.set("BookFile", book().to_str().unwrap()).is_empty());
    assert!(e.set("BookMode", "random").is_empty());
    assert!(e.set("Seed", &seed.to_string()).is_empty());
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..4 {
        let pos = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let (line, mv, _, _) = e.go(&pos, "go depth 1");
        if line.is_none() {
            break;
        }
        assert_eq!(line.as_deref(), Some(mv.as_str()));
        moves.push(mv);
    }
    moves
}

#[test]
fn random_mode_is_a_function_of_the_seed() {
    let start = probe(book(), None);
    let lines: Vec<Vec<String>> = (1..=8).map(random_line).collect();
    for (s, l) in lines.iter().enumerate().take(3) {
        assert_eq!(*l, random_line(s as u64 + 1), "seed {}", s + 1);
    }
    for l in &lines {
        assert!(!l.is_empty() && start.contains(&l[0]), "{l:?}");
    }
    let distinct: BTreeSet<&Vec<String>> = lines.iter().collect();
    assert!(distinct.len() > 1, "eight seeds, one line: {lines:?}");
}

#[test]
fn hub_plays_the_book_move() {
    let best = probe(book(), None);
    let mut e = Engine::start(&["hub"]);
    e.send("hub");
    let params = e.until("wait", 20);
    for p in ["book", "book-file", "book-mode", "book-ply"] {
        let prefix = format!("param name={p} ");
        assert!(
            params.iter().any(|l| l.starts_with(&prefix)),
            "{p}: {params:?}"
        );
    }
    e.send("set-param name=book-file value=/nonexistent/book.dmbk");
    let err = e.until("error ", 20);
    assert!(err.last().unwrap().starts_with("error message="), "{err:?}");
    e.send(&format!(
        "set-param name=book-file value=\"{}\"",
        book().display()
    ));
    e.send("init");
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    e.send("level depth=6");
    e.send("go think");
    let lines = e.until("done ", 20);
    let info = lines
        .iter()
        .find(|l| l.starts_with("info book="))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let done = lines.last().unwrap();
    // English in Hub's internal numbering is mirrored, so compare the move of the two lines,
    // and that it is a move of the book by its count of moves.
    let hub_move = done.trim_start_matches("done move=").trim_matches('"');
    assert!(info.contains(hub_move), "{info} / {done}");
    assert!(!best.is_empty());
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
}

#[test]
fn the_match_report_counts_the_book_moves_of_each_engine() {
    // The book holds the start position, so the engine with the book answers its first move
    // from it in the game where it moves first; the engine without it never does.
    let book = book();
    let out = Command::new(BIN)
        .args(["match", "-v", "english", "--engine", BIN, "--name", "book"])
        .arg("--option")
        .arg(format!("BookFile={}", book.display()))
        .args([
            "--engine", BIN, "--name", "nobook", "--games", "2", "--depth", "2",
        ])
        .args(["--random-openings", "1", "--opening-plies", "0"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("Book moves, book: "))
        .unwrap_or_else(|| panic!("no book line in {text}"));
    let n: u64 = line["Book moves, book: ".len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(n >= 1, "{line}");
    assert!(!text.contains("Book moves, nobook"), "{text}");
}
