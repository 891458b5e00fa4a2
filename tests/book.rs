//! The DMBK format against its document (docs/book.md): the reference Python reader
//! (`scripts/book_reader.py`, written from the document alone) agrees with `damiera book
//! probe` on every key of a built book, and the keys the document lists are damiera's.

use damiera::book::probe::book_move;
use damiera::book::{book_key, write, BookMove, Entry};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

/// The Python interpreter: `DAMIERA_PYTHON` if set, else `python3` (the reader needs only
/// the standard library).
fn python() -> String {
    std::env::var("DAMIERA_PYTHON").unwrap_or_else(|_| "python3".into())
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

fn reader() -> Command {
    let mut c = Command::new(python());
    c.arg(root().join("scripts/book_reader.py"));
    c
}

/// Positions of random walks from the start (a fixed LCG picks the moves), so the book holds
/// quiet moves, captures and transpositions; each with every legal move as an entry.
fn positions(variant: Variant, walks: u32, plies: u32) -> BTreeMap<u64, VariantPosition> {
    let mut out = BTreeMap::new();
    let mut rng: u64 = 0x2545_F491_4F6C_DD1D ^ variant as u64;
    for _ in 0..walks {
        let mut pos = VariantPosition::start(variant);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.insert(book_key(&pos), pos);
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = moves[(rng >> 33) as usize % moves.len()];
            pos.play(&mv);
        }
    }
    out
}

fn entries(positions: &BTreeMap<u64, VariantPosition>) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (i, (key, pos)) in positions.iter().enumerate() {
        for (j, mv) in pos.legal_moves().iter().enumerate() {
            let mv: BookMove = book_move(pos, mv);
            entries.push(Entry {
                key: *key,
                mv,
                score: ((i * 37 + j * 101) % 601) as i16 - 300,
                depth: (j % 20) as u8,
                count: (i * 7 + j) as u32,
            });
        }
    }
    entries
}

/// Everything after the move's name on each move line (the name is the variant's notation
/// in damiera and a plain `from-to` in the reader).
fn fields(probe: &str) -> Vec<String> {
    probe
        .lines()
        .map(|l| match l.split_once(' ') {
            Some(("key", _)) => l.to_string(),
            Some((_, rest)) => rest.to_string(),
            None => l.to_string(),
        })
        .collect()
}

#[test]
fn the_python_reader_agrees_with_book_probe_on_every_key() {
    let dir = std::env::temp_dir().join(format!("damiera-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for variant in Variant::ALL {
        let positions = positions(variant, 2, 24);
        let path = dir.join(format!("{}.dmbk", variant.name()));
        let entries = entries(&positions);
        assert!(
            entries.iter().any(|e| e.mv.captured != 0),
            "{variant:?}: the book holds captures"
        );
        assert_eq!(write(&path, variant, &entries).unwrap(), entries.len());

        let info = run(Command::new(BIN).args(["book", "info"]).arg(&path));
        let want = format!(
            "variant {}\nentries {}\npositions {}\n",
            variant.name(),
            entries.len(),
            positions.len()
        );
        assert_eq!(info, want);
        let py = run(reader().arg(&path).arg("--fen").arg("W:W:B"));
        assert!(py.starts_with(&want), "{py}");

        let keys = run(reader().arg(&path).arg("--keys"));
        let want_keys: Vec<String> = positions.keys().map(|k| format!("{k:016x}")).collect();
        assert_eq!(keys.lines().collect::<Vec<_>>(), want_keys, "{variant:?}");

        for pos in positions.values() {
            let fen = pos.fen();
            let ours = run(Command::new(BIN)
                .args(["book", "probe"])
                .arg(&path)
                .args(["--fen", &fen]));
            let theirs = run(reader().arg(&path).args(["--fen", &fen]));
            let theirs: String = theirs.lines().skip(3).map(|l| format!("{l}\n")).collect();
            assert_eq!(fields(&ours), fields(&theirs), "{variant:?} {fen}");
            let moves = pos.legal_moves().len();
            assert_eq!(ours.lines().count(), moves + 1, "{variant:?} {fen}: {ours}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The rows of docs/book.md's "Documented keys" table: variant, FEN, key.
fn documented_keys() -> Vec<(Variant, String, u64)> {
    let doc = std::fs::read_to_string(root().join("docs/book.md")).unwrap();
    // The section's table only: other tables start with a variant's name too.
    let section = doc.split("## Documented keys").nth(1).expect("the section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let rows: Vec<_> = section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let variant = cells.get(1)?.parse::<Variant>().ok()?;
            let fen = cells.get(3)?.trim_matches('`').to_string();
            let key = u64::from_str_radix(cells.get(4)?.trim_matches('`'), 16).ok()?;
            Some((variant, fen, key))
        })
        .collect();
    assert!(rows.len() >= 6, "the document lists every start key");
    rows
}

#[test]
fn the_documented_keys_are_damieras_and_the_readers() {
    for (variant, fen, key) in documented_keys() {
        let pos = VariantPosition::from_fen(variant, &fen).unwrap();
        assert_eq!(book_key(&pos), key, "{variant:?} {fen}");
        let py = run(reader().args(["--key", "--variant", variant.name(), "--fen", &fen]));
        assert_eq!(py.trim(), format!("{key:016x}"), "{variant:?} {fen}");
    }
    for variant in Variant::ALL {
        let start = book_key(&VariantPosition::start(variant));
        assert!(
            documented_keys()
                .iter()
                .any(|(v, _, k)| *v == variant && *k == start),
            "{variant:?}'s start key is documented"
        );
    }
}

#[test]
fn a_bad_book_is_refused_in_one_line_with_status_2() {
    let dir = std::env::temp_dir().join(format!("damiera-book-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: &Path = &dir.join("bad.dmbk");
    std::fs::write(path, b"DMBK\x01\x00\x00\x20").unwrap();
    let out = Command::new(BIN)
        .args(["book", "info"])
        .arg(path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("truncated"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn build(out: &Path, positions: u32, threads: u32) {
    run(Command::new(BIN)
        .args(["book", "build", "--variant", "english", "--depth", "4"])
        .args(["--positions", &positions.to_string()])
        .args(["--threads", &threads.to_string()])
        .arg("--out")
        .arg(out));
}

#[test]
fn a_resumed_build_and_a_two_thread_build_equal_one_build() {
    let dir = std::env::temp_dir().join(format!("damiera-book-build-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (one, resumed, two) = (dir.join("one"), dir.join("resumed"), dir.join("two"));
    build(&one, 24, 1);
    build(&resumed, 10, 1);
    build(&resumed, 24, 1);
    build(&two, 24, 2);
    let bytes = std::fs::read(&one).unwrap();
    assert_eq!(bytes, std::fs::read(&resumed).unwrap(), "resumed");
    assert_eq!(bytes, std::fs::read(&two).unwrap(), "two threads");
    let info = run(Command::new(BIN).args(["book", "info"]).arg(&one));
    assert!(info.contains("positions 24"), "{info}");
    // The start's moves are in the book, best first, each legal.
    let probe = run(Command::new(BIN).args(["book", "probe"]).arg(&one));
    assert_eq!(probe.lines().count(), 1 + 7, "{probe}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The moves `damiera book probe` lists for the position after `moves` from the start.
fn book_moves(book: &Path, variant: Variant, moves: &[&str]) -> Vec<String> {
    let mut pos = VariantPosition::start(variant);
    for m in moves {
        pos.play_text(m).unwrap();
    }
    let out = run(Command::new(BIN)
        .args(["book", "probe"])
        .arg(book)
        .args(["--fen", &pos.fen()]));
    out.lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect()
}

#[test]
fn an_openings_files_lines_enter_the_book_and_lead_to_its_roots() {
    let dir = std::env::temp_dir().join(format!("damiera-book-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Three ACF ballots (data/openings/english-3move.txt): two share 9-13 21-17.
    let openings = dir.join("ballots.txt");
    std::fs::write(
        &openings,
        "# three ballots\n9-13 21-17 5-9\n9-13 21-17 6-9\n11-15 23-19 8-11\n",
    )
    .unwrap();
    let (book, resumed) = (dir.join("lines.dmbk"), dir.join("resumed.dmbk"));
    let build = |out: &Path, positions: &str| {
        run(Command::new(BIN)
            .args(["book", "build", "--variant", "english", "--depth", "3"])
            .args(["--positions", positions, "--from"])
            .arg(&openings)
            .arg("--out")
            .arg(out))
    };
    let said = build(&book, "12");
    assert!(said.contains("12 positions expanded"), "{said}");
    // From the start only the lines' moves, each position of a line once.
    let mut first = book_moves(&book, Variant::English, &[]);
    first.sort();
    assert_eq!(first, ["11-15", "9-13"]);
    assert_eq!(book_moves(&book, Variant::English, &["9-13"]), ["21-17"]);
    let mut third = book_moves(&book, Variant::English, &["9-13", "21-17"]);
    third.sort();
    assert_eq!(third, ["5-9", "6-9"]);
    assert_eq!(
        book_moves(&book, Variant::English, &["11-15", "23-19"]),
        ["8-11"]
    );
    // The roots are expanded with every legal move (White's 7 replies after 5-9).
    let root = book_moves(&book, Variant::English, &["9-13", "21-17", "5-9"]);
    assert_eq!(root.len(), 7, "{root:?}");
    // 12 expanded + start, 9-13, 11-15, 9-13 21-17, 11-15 23-19 from the lines.
    let info = run(Command::new(BIN).args(["book", "info"]).arg(&book));
    assert!(info.contains("positions 17"), "{info}");
    // A line's score is the negamax of the roots below it: the start's best entry is minus
    // the best reply's score one ply down.
    let probe = |fen_moves: &[&str]| -> Vec<i32> {
        let mut pos = VariantPosition::start(Variant::English);
        for m in fen_moves {
            pos.play_text(m).unwrap();
        }
        run(Command::new(BIN)
            .args(["book", "probe"])
            .arg(&book)
            .args(["--fen", &pos.fen()]))
        .lines()
        .skip(1)
        .map(|l| l.split(' ').nth(4).unwrap().parse().unwrap())
        .collect()
    };
    let after_913 = probe(&["9-13"]);
    let after_1115 = probe(&["11-15"]);
    let mut start = probe(&[]);
    start.sort();
    let mut want = vec![-after_913[0], -after_1115[0]];
    want.sort();
    assert_eq!(start, want);
    // Resuming through the lines gives the same bytes.
    build(&resumed, "5");
    build(&resumed, "12");
    assert_eq!(
        std::fs::read(&book).unwrap(),
        std::fs::read(&resumed).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_whose_leaves_are_valued_through_the_pipe_equals_the_local_build() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let dir = std::env::temp_dir().join(format!("damiera-book-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (local, piped) = (dir.join("local.dmbk"), dir.join("piped.dmbk"));
    let args = ["book", "build", "-v", "russian", "--depth", "4"];
    run(Command::new(BIN)
        .args(args)
        .args(["--positions", "15", "--out"])
        .arg(&local));
    // The other end of the pipe: each batch of FENs valued by `damiera book values`.
    let mut child = Command::new(BIN)
        .args(args)
        .args(["--positions", "15", "--leaf-pipe", "--out"])
        .arg(&piped)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut batches = 0;
    loop {
        let mut line = String::new();
        if from.read_line(&mut line).unwrap() == 0 {
            break;
        }
        let Some(n) = line.trim().strip_prefix("leaves ") else {
            assert!(line.contains("15 positions expanded"), "{line}");
            continue;
        };
        let n: usize = n.parse().unwrap();
        let mut fens = String::new();
        for _ in 0..n {
            from.read_line(&mut fens).unwrap();
        }
        let mut values = Command::new(BIN)
            .args(["book", "values", "-v", "russian", "--depth", "4"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        values
            .stdin
            .take()
            .unwrap()
            .write_all(fens.as_bytes())
            .unwrap();
        let out = values.wait_with_output().unwrap();
        assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), n);
        to.write_all(&out.stdout).unwrap();
        to.flush().unwrap();
        batches += 1;
    }
    assert!(child.wait().unwrap().success());
    assert!(batches >= 15, "one batch an expansion and one for the root");
    assert_eq!(
        std::fs::read(&local).unwrap(),
        std::fs::read(&piped).unwrap()
    );

    // A pipe that answers garbage stops the build in one line, its book kept.
    let out = Command::new(BIN)
        .args(args)
        .args(["--positions", "30", "--leaf-pipe", "--out"])
        .arg(&piped)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"not a value\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.trim_end().ends_with("'not a value' is not VALUE DEPTH"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&local).unwrap(),
        std::fs::read(&piped).unwrap()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_movetime_build_records_the_depth_each_leaf_reached() {
    let dir = std::env::temp_dir().join(format!("damiera-book-time-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("t.dmbk");
    run(Command::new(BIN)
        .args(["book", "build", "-v", "italian", "--movetime", "20"])
        .args(["--positions", "3", "--out"])
        .arg(&book));
    let probe = run(Command::new(BIN).args(["book", "probe"]).arg(&book));
    let depths: Vec<u32> = probe
        .lines()
        .skip(1)
        .map(|l| l.split(' ').nth(5).unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.len(), 7, "{probe}");
    assert!(depths.iter().all(|&d| d >= 2), "{probe}");
    std::fs::remove_dir_all(&dir).unwrap();
}
