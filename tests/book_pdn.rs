//! `damiera book export`, `import` and `merge` (docs/book.md): an exported book read by
//! pydraughts 0.6.7 (its moves legal, its main line the book's best moves), a book imported
//! from games written here (entries, counts and scores worked out by hand), merged books, and
//! bad input refused in one line with exit status 2.

mod common;
#[path = "common/pydraughts_pdn.rs"]
mod pydraughts_pdn;

use damiera::book::{book_key, write, Book, Entry};
use damiera::core::variant::Variant;
use damiera::core::variant_position::VariantPosition;
use damiera::tools::pdn;
use std::collections::HashSet;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn damiera(args: &[&str], paths: &[&Path]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args).args(paths);
    c.output().expect("damiera runs")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Exit status 2 and one line on stderr, `error: ...`; the line.
fn refused(out: Output) -> String {
    let err = String::from_utf8(out.stderr).expect("UTF-8");
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// The book's best move at each position from the start, as PDN names, until a position
/// without book moves or one seen before.
fn best_line(book: &Book) -> Vec<String> {
    let mut pos = VariantPosition::start(book.variant());
    let mut seen = HashSet::new();
    let mut line = Vec::new();
    while seen.insert(book_key(&pos)) {
        let Some(best) = book.probe(&pos).into_iter().next() else {
            break;
        };
        line.push(pos.move_name_pdn(&best.mv));
        pos.play(&best.mv);
    }
    line
}

/// A FEN's side and its two lists of squares, each sorted (pydraughts and damiera list them in
/// different orders).
fn squares(fen: &str) -> Vec<(String, Vec<String>)> {
    fen.split(':')
        .map(|part| {
            let (colour, list) = part.split_at(1);
            let mut s: Vec<String> = list.split(',').map(str::to_string).collect();
            s.sort();
            (colour.to_string(), s)
        })
        .collect()
}

#[test]
fn an_exported_book_reads_in_pydraughts_with_the_best_moves_as_main_line() {
    let dir = tempfile::tempdir().unwrap();
    let book_path = dir.path().join("e.dmbk");
    ok(damiera(
        &["book", "build", "--variant", "english", "--positions", "30"],
        &[
            Path::new("--depth"),
            Path::new("2"),
            Path::new("--out"),
            &book_path,
        ],
    ));
    let book = Book::open(&book_path).unwrap();
    let best = best_line(&book);
    assert!(best.len() >= 3, "{best:?}");

    let tree = dir.path().join("tree.pdn");
    let said = ok(damiera(
        &["book", "export"],
        &[&book_path, Path::new("--pdn"), &tree],
    ));
    assert!(said.contains("1 game,"), "{said}");
    let text = std::fs::read_to_string(&tree).unwrap();
    assert!(text.contains("[GameType \"21\"]"), "{text}");
    assert!(
        text.contains(" (1. "),
        "the first move's alternatives: {text}"
    );
    // pydraughts drops the variations (a regex over the parentheses) and reads the main line;
    // its script fails on a move its rules reject.
    let games = pydraughts_pdn::replay(&tree);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, best);
    assert_eq!(
        (games[0].ending.as_str(), games[0].result_tag.as_str()),
        ("*", "*")
    );
    let mut end = VariantPosition::start(Variant::English);
    for m in &best {
        end.play_text(m).unwrap();
    }
    assert_eq!(squares(&games[0].fen), squares(&end.fen()));
    // damiera's reader skips the variations too.
    let ours = pdn::read_games(&text);
    let main: Vec<&str> = ours[0].moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(main, best);

    // One game per line: every line legal in pydraughts, the main line first, every book move
    // of the root and of the position after the best move in some line.
    let lines = dir.path().join("lines.pdn");
    ok(damiera(
        &["book", "export", "--lines"],
        &[&book_path, Path::new("--pdn"), &lines],
    ));
    let games = pydraughts_pdn::replay(&lines);
    assert!(games.len() > 10, "{}", games.len());
    assert_eq!(games[0].moves, best);
    let start = VariantPosition::start(Variant::English);
    for m in book.probe(&start) {
        let name = start.move_name_pdn(&m.mv);
        assert!(games.iter().any(|g| g.moves[0] == name), "{name}");
    }
    let mut after = start;
    after.play(&book.probe(&start)[0].mv);
    for m in book.probe(&after) {
        let name = after.move_name_pdn(&m.mv);
        assert!(
            games
                .iter()
                .any(|g| g.moves[0] == best[0] && g.moves.get(1) == Some(&name)),
            "{name}"
        );
    }

    // --max-ply 1: the root's moves only.
    let short = dir.path().join("short.pdn");
    ok(damiera(
        &["book", "export", "--max-ply", "1", "--lines"],
        &[&book_path, Path::new("--pdn"), &short],
    ));
    let games = pydraughts_pdn::replay(&short);
    assert_eq!(games.len(), book.probe(&start).len());
    assert!(games.iter().all(|g| g.moves.len() == 1));
}

/// Six games: five English ones (one from a FEN, one with an illegal move), one Italian.
/// English results: `1-0` Black (the first player) won, `0-1` White won.
const GAMES: &str = r#"[Event "g1"]
[GameType "21"]
[Result "1-0"]

1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "g2"]
[GameType "21"]
[Result "0-1"]

1. 11-15 23-19 2. 9-13 22-17 0-1

[Event "g3"]
[GameType "21"]

1. 11-15 22-18 2. 15x22 25x18 1/2-1/2

[Event "g4: the fourth ply is illegal"]
[GameType "21"]

1. 11-15 23-19 2. 8-11 5-5 3. 4-8 0-1

[Event "g5: Italian, skipped"]
[GameType "22"]

1. 11-15 23-19 1-0

[Event "g6: from the position after 1. 11-15 23-19"]
[GameType "21"]
[SetUp "1"]
[FEN "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"]

1. 8-11 22-17 0-1
"#;

/// The position after `moves` from the English start, as a FEN.
fn fen_after(moves: &[&str]) -> String {
    let mut pos = VariantPosition::start(Variant::English);
    for m in moves {
        pos.play_text(m).unwrap();
    }
    pos.fen()
}

#[test]
fn an_imported_book_holds_the_moves_of_two_games_or_more() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.pdn");
    std::fs::write(&games, GAMES).unwrap();
    let out = dir.path().join("imported.dmbk");
    let run = damiera(
        &["book", "import", "--variant", "english", "--min-games", "2"],
        &[Path::new("--pdn"), &games, Path::new("--out"), &out],
    );
    let err = String::from_utf8_lossy(&run.stderr).to_string();
    let said = ok(run);
    assert!(said.contains("4 entries, 4 positions"), "{said}");
    assert!(said.contains("from 5 games"), "{said}");
    assert!(
        err.contains("warning: 1 game of another variant skipped"),
        "{err}"
    );
    assert!(err.contains("warning: 1 game stopped"), "{err}");
    assert!(
        err.contains("games.pdn:21:24: "),
        "g4's bad move named: {err}"
    );

    // By hand (the mover's wins, draws, losses over the games that played the move; score
    // round(100 * (wins - losses) / games with a result)):
    // - start, 11-15 (Black): g1 won, g2 lost, g3 drawn, g4 lost: 4 games, 100 * -1 / 4 = -25;
    // - after 11-15, 23-19 (White): g1 lost, g2 won, g4 won: 3 games, 100 / 3 = 33;
    //   22-18 (g3 only) is dropped;
    // - after 11-15 23-19, 8-11 (Black): g1 won, g4 lost, g6 lost: 3 games, -33; 9-13 (g2)
    //   dropped;
    // - after 11-15 23-19 8-11, 22-17 (White): g1 lost, g6 won (g4 stopped before it):
    //   2 games, 0.
    let probe = |moves: &[&str]| {
        let said = ok(damiera(
            &["book", "probe", "--fen", &fen_after(moves)],
            &[&out],
        ));
        said.lines().skip(1).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(probe(&[]), ["11-15 11 15 - -25 0 4"]);
    assert_eq!(probe(&["11-15"]), ["23-19 23 19 - 33 0 3"]);
    assert_eq!(probe(&["11-15", "23-19"]), ["8-11 8 11 - -33 0 3"]);
    assert_eq!(probe(&["11-15", "23-19", "8-11"]), ["22-17 22 17 - 0 0 2"]);
    assert_eq!(
        ok(damiera(&["book", "info"], &[&out])),
        "variant english\nentries 4\npositions 4\n"
    );

    // --max-ply 1: only the first move of each game (g6's from its FEN); --min-games 1 keeps
    // every move.
    let first = dir.path().join("first.dmbk");
    ok(damiera(
        &["book", "import", "-v", "english", "--min-games", "1"],
        &[
            Path::new("--max-ply"),
            Path::new("1"),
            Path::new("--pdn"),
            &games,
            Path::new("--out"),
            &first,
        ],
    ));
    let said = ok(damiera(&["book", "probe"], &[&first]));
    assert_eq!(
        said.lines().skip(1).collect::<Vec<_>>(),
        ["11-15 11 15 - -25 0 4"]
    );
    assert!(ok(damiera(&["book", "info"], &[&first])).contains("entries 2\n"));
    let said = ok(damiera(
        &["book", "probe", "--fen", &fen_after(&["11-15", "23-19"])],
        &[&first],
    ));
    assert_eq!(
        said.lines().skip(1).collect::<Vec<_>>(),
        ["8-11 8 11 - -100 0 1"]
    );
}

fn entry(pos: &VariantPosition, mv: &str, score: i16, depth: u8, count: u32) -> Entry {
    let m = pos.parse_move(mv).unwrap();
    Entry {
        key: book_key(pos),
        mv: damiera::book::probe::book_move(pos, &m),
        score,
        depth,
        count,
    }
}

#[test]
fn merged_books_sum_counts_and_keep_the_deepest_entry() {
    let dir = tempfile::tempdir().unwrap();
    let start = VariantPosition::start(Variant::English);
    let (a, b, c) = (
        dir.path().join("a.dmbk"),
        dir.path().join("b.dmbk"),
        dir.path().join("c.dmbk"),
    );
    write(
        &a,
        Variant::English,
        &[
            entry(&start, "11-15", 10, 4, 3),
            entry(&start, "9-13", 5, 2, 1),
        ],
    )
    .unwrap();
    write(
        &b,
        Variant::English,
        &[
            entry(&start, "11-15", -7, 6, 2),
            entry(&start, "9-13", 40, 2, 5),
            entry(&start, "10-14", 1, 0, 1),
        ],
    )
    .unwrap();
    let out = dir.path().join("m.dmbk");
    let said = ok(damiera(
        &["book", "merge"],
        &[&a, &b, Path::new("--out"), &out],
    ));
    assert!(said.contains("3 entries, 1 positions"), "{said}");
    let probe = ok(damiera(&["book", "probe"], &[&out]));
    // 11-15: b's entry (depth 6 > 4), counts 3 + 2; 9-13: a tie at depth 2, a's, 1 + 5.
    assert_eq!(
        probe.lines().skip(1).collect::<Vec<_>>(),
        [
            "9-13 9 13 - 5 2 6",
            "10-14 10 14 - 1 0 1",
            "11-15 11 15 - -7 6 5"
        ]
    );

    let russian = VariantPosition::start(Variant::Russian);
    write(&c, Variant::Russian, &[entry(&russian, "c3-d4", 0, 1, 1)]).unwrap();
    let err = refused(damiera(
        &["book", "merge"],
        &[&a, &b, &c, Path::new("--out"), &out],
    ));
    assert!(err.contains("russian") && err.contains("english"), "{err}");
    // The output was not touched by the refused merge.
    assert!(ok(damiera(&["book", "info"], &[&out])).contains("entries 3\n"));
}

#[test]
fn bad_input_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.pdn");
    std::fs::write(&garbage, b"\x00\xff\x13 this is { not ( a PDN file\n\x7f").unwrap();
    let out = dir.path().join("out.dmbk");
    let err = refused(damiera(
        &["book", "import", "--variant", "english", "--min-games", "1"],
        &[Path::new("--pdn"), &garbage, Path::new("--out"), &out],
    ));
    assert!(err.contains("garbage.pdn"), "{err}");
    assert!(!out.exists());
    let missing = dir.path().join("missing.pdn");
    refused(damiera(
        &["book", "import", "--variant", "english", "--min-games", "1"],
        &[Path::new("--pdn"), &missing, Path::new("--out"), &out],
    ));
    refused(damiera(
        &["book", "import", "--variant", "english", "--min-games", "0"],
        &[Path::new("--pdn"), &garbage, Path::new("--out"), &out],
    ));

    // Not a book: export and merge refuse it.
    let pdn = dir.path().join("x.pdn");
    let err = refused(damiera(
        &["book", "export"],
        &[&garbage, Path::new("--pdn"), &pdn],
    ));
    assert!(err.contains("magic") || err.contains("truncated"), "{err}");
    assert!(!pdn.exists());
    let book = dir.path().join("b.dmbk");
    write(&book, Variant::English, &[]).unwrap();
    refused(damiera(
        &["book", "merge"],
        &[&book, &garbage, Path::new("--out"), &out],
    ));
    // A book without a move at the root, and a bad --fen.
    let err = refused(damiera(
        &["book", "export"],
        &[&book, Path::new("--pdn"), &pdn],
    ));
    assert!(err.contains("no move in the root"), "{err}");
    refused(damiera(
        &["book", "export", "--fen", "X:W1"],
        &[&book, Path::new("--pdn"), &pdn],
    ));
}
