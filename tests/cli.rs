//! The `damiera perft` and `damiera bench` commands as a user runs them: output format, and
//! one-line errors with exit status 2 for bad input. Leaf counts are DCTL's published tables
//! (docs/perft.md).

use assert_cmd::Command;

fn damiera() -> Command {
    Command::cargo_bin("damiera").expect("binary built")
}

fn stdout_of(args: &[&str]) -> String {
    let out = damiera().args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn perft_prints_nodes_time_and_speed() {
    let out = stdout_of(&["perft", "--variant", "english", "--depth", "5"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Nodes searched: 7361");
    assert!(
        lines[1].starts_with("Time: ") && lines[1].ends_with(" s"),
        "{out}"
    );
    assert!(lines[2].starts_with("Nodes/second: "), "{out}");
}

#[test]
fn divide_lists_every_root_move() {
    let out = stdout_of(&["perft", "--variant", "italian", "--depth", "6", "--divide"]);
    let (divide, rest): (Vec<&str>, Vec<&str>) = out
        .lines()
        .partition(|l| !l.starts_with("Nodes") && !l.starts_with("Time"));
    // FID numbering: White's seven first moves (FID numbering, DCTL).
    let mut moves: Vec<&str> = divide
        .iter()
        .map(|l| l.split(':').next().unwrap())
        .collect();
    moves.sort();
    assert_eq!(
        moves,
        ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]
    );
    let sum: u64 = divide
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 36473);
    assert_eq!(rest[0], "Nodes searched: 36473");
}

#[test]
fn perft_from_a_fen_with_duplicates_keep_and_drop() {
    // DCTL: the English king loop counts 2 with keep and 1 with drop.
    let fen = "W:WK6:B9,10,17,18";
    let keep = stdout_of(&[
        "perft",
        "-v",
        "english",
        "--fen",
        fen,
        "-d",
        "1",
        "--duplicates",
        "keep",
    ]);
    let drop = stdout_of(&["perft", "-v", "english", "--fen", fen, "-d", "1"]);
    assert!(keep.starts_with("Nodes searched: 2\n"), "{keep}");
    assert!(drop.starts_with("Nodes searched: 1\n"), "{drop}");
}

#[test]
fn russian_captures_use_colons_in_divide() {
    let out = stdout_of(&[
        "perft",
        "-v",
        "russian",
        "--fen",
        "W:Wb6:Bc7,f6",
        "-d",
        "1",
        "--divide",
    ]);
    assert!(
        out.contains("b6:d8:g5: 1\n") && out.contains("b6:d8:h4: 1\n"),
        "{out}"
    );
}

/// Runs a bad command: exit status 2, nothing on stdout, one line on stderr containing `what`.
fn rejects(args: &[&str], what: &str) {
    let out = damiera().args(args).output().expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err} lacks {what}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_fens_are_one_line_errors_with_status_2() {
    rejects(
        &["perft", "-v", "english", "-d", "1", "--fen", "B:W33:B1"],
        "square 33 is off the board",
    );
    rejects(
        &["perft", "-v", "russian", "-d", "1", "--fen", "W:Wa2:Bb8"],
        "a2 is a light square",
    );
    rejects(
        &["perft", "-v", "english", "-d", "1", "--fen", "B:W1:B12"],
        "promotion row",
    );
    rejects(
        &["perft", "-v", "italian", "-d", "1", "--fen", "W:W21:B32"],
        "promotion row",
    );
    rejects(
        &["perft", "-v", "english", "-d", "1", "--fen", "B:W5,6:B6"],
        "both white and black",
    );
    rejects(
        &["perft", "-v", "english", "-d", "1", "--fen", "X:W5:B6"],
        "side to move",
    );
    rejects(
        &["perft", "-v", "brazilian", "-d", "1", "--fen", "W:Wz9:Bb8"],
        "square z9 is off the board",
    );
    rejects(
        &["perft", "-v", "english", "-d", "1", "--fen", ""],
        "empty FEN",
    );
}

#[test]
fn unknown_variant_is_a_one_line_error() {
    rejects(
        &["perft", "-v", "chess", "-d", "1"],
        "unknown variant 'chess'",
    );
}

#[test]
fn variant_aliases() {
    for alias in ["american", "checkers", "English"] {
        assert!(stdout_of(&["perft", "-v", alias, "-d", "3"]).starts_with("Nodes searched: 302\n"));
    }
}

/// The position lines of a `damiera bench` output: (variant, nodes).
fn bench_lines(text: &str) -> Vec<(String, u64)> {
    text.lines()
        .filter(|l| l.contains(" nodes "))
        .map(|l| {
            let mut w = l.split_whitespace();
            let variant = w.next().unwrap().to_string();
            let nodes = w
                .skip_while(|t| !t.contains(':'))
                .nth(1)
                .unwrap()
                .parse()
                .unwrap();
            (variant, nodes)
        })
        .collect()
}

/// `bench --variant` searches only that variant's positions, the same searches as in the
/// whole bench (one thread: the same nodes); `--threads 2` searches them all with two
/// threads; bad values are one-line errors.
#[test]
fn bench_by_variant_and_threads() {
    let all = bench_lines(&stdout_of(&["bench", "-d", "7"]));
    assert_eq!(all.len(), 12);
    let one = bench_lines(&stdout_of(&["bench", "-d", "7", "-v", "russian"]));
    let expected: Vec<_> = all
        .iter()
        .filter(|(v, _)| v == "russian")
        .cloned()
        .collect();
    assert_eq!(one, expected);
    assert_eq!(one.len(), 2);
    let two = bench_lines(&stdout_of(&["bench", "-d", "7", "--threads", "2"]));
    assert_eq!(two.len(), 12);
    assert!(two.iter().all(|(_, n)| *n > 0));
    rejects(&["bench", "--threads", "0"], "--threads must be 1 to");
    rejects(&["bench", "-v", "chess"], "unknown variant 'chess'");
}
