//! `damiera match` through the real binary: a real match completes with sane totals and a PDN
//! that replays; scripted fake engines that play an illegal move, crash, hang or overstep the
//! clock lose with the right reason while the match goes on; the SPRT stops a match; the
//! engines' scores adjudicate wins and draws when asked; a bad engine command and a bad
//! opening line are one-line errors before any game.

use damiera::core::variant::Variant;
use damiera::engine::{Engine, MoveForm, Outcome};
use damiera::Color;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
mod common;
#[path = "common/pydraughts_pdn.rs"]
mod pydraughts_pdn;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");
const OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/openings/english-3move.txt"
);

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("match")
        .args(args)
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The value after `prefix` on the report line starting with it.
fn field<'a>(report: &'a str, prefix: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in:\n{report}"))
}

/// An executable shell script `name` in `dir` with the text `text`.
fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A fake native engine: a shell script that handshakes and then does `on_go` at `go`.
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; echo uciok;;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    script(dir, name, &text)
}

/// Plays a fake engine against damiera for one pair; it must lose both games by `reason`.
fn fake_loses(on_go: &str, reason: &str, tc: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake_engine(dir.path(), "fake", on_go);
    let pdn = dir.path().join("out.pdn");
    let mut args = vec![
        "--variant",
        "english",
        "--engine",
        fake.to_str().unwrap(),
        "--engine",
        BIN,
        "--name",
        "damiera",
        "--openings",
        OPENINGS,
        "--games",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ];
    args.extend_from_slice(tc);
    let out = run(&args);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "Games: "), "2 of 2", "{report}");
    assert_eq!(field(&report, "Results (fake first): "), "W 0 D 0 L 2");
    assert_eq!(field(&report, "Endings: "), format!("{reason} 2"));
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(
        pdn.matches(&format!("{{{reason}: fake")).count(),
        2,
        "{pdn}"
    );
    assert!(pdn.contains("FEN B:"), "the position is recorded: {pdn}");
    report
}

#[test]
fn illegal_move_loses() {
    fake_loses("echo 'bestmove 1-2'", "illegal move", &["--movetime", "10"]);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    fake_loses("exit 3", "crash", &["--movetime", "10"]);
}

#[test]
fn hang_loses_by_no_answer() {
    // movetime 10: given up after 10 + max(1000, 10) ms.
    fake_loses(":", "no answer", &["--movetime", "10"]);
}

#[test]
fn slow_move_loses_on_time() {
    fake_loses(
        "sleep 0.4; echo 'bestmove 9-13'",
        "time forfeit",
        &["--tc", "0.2+0"],
    );
}

#[test]
fn sprt_stops_a_lost_match() {
    // alpha = beta = 0.1 (bounds ±2.20): with only lost pairs the regularised LLR tends to
    // about -2.9, so the default ±2.94 would never be crossed (docs/match.md).
    let dir = tempfile::tempdir().unwrap();
    let fake = fake_engine(dir.path(), "fake", "echo 'bestmove 1-2'");
    let out = run(&[
        "--variant",
        "english",
        "--engine",
        fake.to_str().unwrap(),
        "--engine",
        BIN,
        "--openings",
        OPENINGS,
        "--games",
        "400",
        "--movetime",
        "10",
        "--sprt",
        "0,5,0.1,0.1",
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(
        field(&report, "SPRT: ").ends_with("H0 accepted"),
        "{report}"
    );
    let games: usize = field(&report, "Games: ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((2..400).contains(&games), "{report}");
}

/// The result token a variant's PDN writes (the sources are in docs/match.md): English as
/// CheckerBoard, Black's score first; the others PDN 3.0's draughts form, White's first.
fn token(variant: Variant, winner: Option<Color>) -> &'static str {
    match (variant, winner) {
        (Variant::English, Some(Color::Black)) => "1-0",
        (Variant::English, Some(Color::White)) => "0-1",
        (Variant::English, None) => "1/2-1/2",
        (_, Some(Color::White)) => "2-0",
        (_, Some(Color::Black)) => "0-2",
        (_, None) => "1-1",
    }
}

/// The name PDN readers want for the legal move `native` (every landing square): from and to
/// only, unless another legal capture goes from the same square to the same square.
fn shortest(e: &Engine, native: &str) -> String {
    let ends = |m: &str| {
        let squares: Vec<String> = m.split(['-', 'x', ':']).map(str::to_string).collect();
        (squares[0].clone(), squares[squares.len() - 1].clone())
    };
    let (from, to) = ends(native);
    let sep = native[from.len()..].chars().next().unwrap();
    let shared = e
        .legal_moves(MoveForm::Native)
        .iter()
        .filter(|m| ends(m) == (from.clone(), to.clone()))
        .count();
    if sep == '-' || shared > 1 {
        native.to_string()
    } else {
        format!("{from}{sep}{to}")
    }
}

/// Replays every game of a PDN file through the arbiter: every move is legal and written in
/// the shortest unambiguous form, and the result matches how the game ended. Returns the
/// number of games.
fn replay_pdn(variant: Variant, pdn: &str) -> usize {
    let mut n = 0;
    for game in pdn.split("[Event ").skip(1) {
        n += 1;
        let tag = |name: &str| -> Option<String> {
            let key = format!("[{name} \"");
            game.lines()
                .find_map(|l| l.strip_prefix(&key))
                .map(|v| v.trim_end_matches("\"]").to_string())
        };
        let fen = tag("FEN");
        let result = tag("Result").unwrap();
        let termination = tag("Termination").unwrap();
        let body = game.split("\n\n").nth(1).expect("move text");
        let body = body.split('{').next().unwrap();
        let mut e = Engine::new(variant, 1);
        let mut moves: Vec<String> = Vec::new();
        for tok in body.split_whitespace() {
            if tok.ends_with('.') || tok.ends_with("...") {
                continue;
            }
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            e.set_position(fen.as_deref(), &refs).unwrap();
            let native = e
                .move_name(tok)
                .unwrap_or_else(|err| panic!("{tok}: {err}"));
            assert_eq!(tok, shortest(&e, &native), "{game}");
            moves.push(native);
        }
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.set_position(fen.as_deref(), &refs).unwrap();
        let draw = token(variant, None);
        match termination.as_str() {
            "no legal move" => {
                assert!(matches!(e.outcome(), Some(Outcome::Win(..))));
                let winner = e.side_to_move().opponent();
                assert_eq!(result, token(variant, Some(winner)), "{game}");
            }
            "threefold repetition" | "no-progress rule" | "endgame rule" => {
                assert!(matches!(e.outcome(), Some(Outcome::Draw(_))), "{game}");
                assert_eq!(result, draw);
            }
            "max plies" | "draw adjudicated by score" => assert_eq!(result, draw),
            other => panic!("unexpected ending {other} in a damiera self-play game"),
        }
        let tail = game[game.rfind('}').expect("the final comment") + 1..].trim();
        assert_eq!(tail, result, "the move text ends with the result: {game}");
    }
    n
}

/// A FEN in damiera's canonical form (pydraughts lists squares in its own order).
fn canonical(v: Variant, fen: &str) -> String {
    let mut e = Engine::new(v, 1);
    e.set_position(Some(fen), &[])
        .unwrap_or_else(|err| panic!("{fen}: {err}"));
    e.fen()
}

/// Checks that pydraughts 0.6.7's PDNReader reads every game of the PDN file `file` as damiera
/// does: the same moves, all legal under pydraughts' rules to the end, the same final position,
/// and the result; returns the number of games.
fn pydraughts_reads(variant: Variant, file: &Path) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let ours = damiera::tools::pdn::read_games(&text);
    let theirs = pydraughts_pdn::replay(file);
    assert_eq!(theirs.len(), ours.len(), "{text}");
    for (t, g) in theirs.iter().zip(&ours) {
        let texts: Vec<&str> = g.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(t.moves, texts, "{text}");
        let r = damiera::tools::pdn::replay(g, variant).expect("damiera replays its own PDN");
        let mut e = Engine::new(variant, 1);
        let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
        e.set_position(r.start_fen.as_deref(), &moves).unwrap();
        assert_eq!(
            canonical(variant, &t.fen),
            e.fen(),
            "the same final position"
        );
        assert_eq!(Some(t.result_tag.as_str()), g.tag("Result"));
        assert_eq!(t.ending, t.result_tag, "the result token is the tag's");
    }
    theirs.len()
}

#[test]
fn real_match_completes_and_its_pdn_replays() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    let out = run(&[
        "--variant",
        "english",
        "--engine",
        BIN,
        "--name",
        "a",
        "--engine",
        BIN,
        "--name",
        "b",
        "--openings",
        OPENINGS,
        "--games",
        "6",
        "--movetime",
        "10",
        "--depth",
        "4",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
        "--sprt",
        "0,5",
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "Match: "), "a vs b");
    assert_eq!(field(&report, "Games: "), "6 of 6");
    let wdl: Vec<u64> = field(&report, "Results (a first): ")
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(wdl.iter().sum::<u64>(), 6, "{report}");
    let penta = field(&report, "Pentanomial [0, 0.5, 1, 1.5, 2]: ");
    assert!(penta.ends_with("(3 pairs)"), "{report}");
    assert!(report.contains("Elo: "), "{report}");
    assert!(field(&report, "Time per move, a: ").contains("moves)"));
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(replay_pdn(Variant::English, &pdn), 6);
    assert_eq!(pdn.matches("[GameType \"21\"]").count(), 6);
}

/// damiera against itself: `games` games of `variant` over the openings file at depth 2,
/// written to the PDN file `pdn`, with `extra` arguments; the match must complete.
fn self_match(variant: &str, openings: &Path, games: usize, pdn: &Path, extra: &[&str]) -> Output {
    let games = games.to_string();
    let mut args = vec![
        "--variant",
        variant,
        "--engine",
        BIN,
        "--engine",
        BIN,
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        &games,
        "--depth",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = run(&args);
    assert!(
        out.status.success(),
        "{variant}: {}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    out
}

#[test]
fn english_match_pdn_replays_in_pydraughts() {
    // Issue 31's check: 4 English games, read by pydraughts 0.6.7's PDNReader to the end.
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("out.pdn");
    let out = self_match("english", Path::new(OPENINGS), 4, &pdn, &[]);
    let report = text(&out.stdout);
    assert_eq!(field(&report, "Games: "), "4 of 4");
    let written = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(replay_pdn(Variant::English, &written), 4);
    assert_eq!(pydraughts_reads(Variant::English, &pdn), 4);
    for result in written.lines().filter_map(|l| l.strip_prefix("[Result \"")) {
        assert!(
            ["1-0\"]", "0-1\"]", "1/2-1/2\"]"].contains(&result),
            "CheckerBoard's English results: {result}"
        );
    }
}

#[test]
fn english_game_from_a_white_to_move_fen_replays_in_pydraughts() {
    // After 1. 11-15 (Black men on 1-10, 12 and 15): White, the second player, moves first.
    // pydraughts reads such a game only as `1. <White> <Black> 2. ...`.
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("w.txt");
    std::fs::write(
        &openings,
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15\n",
    )
    .unwrap();
    let pdn = dir.path().join("w.pdn");
    self_match("english", &openings, 2, &pdn, &[]);
    let written = std::fs::read_to_string(&pdn).unwrap();
    for game in written.split("[Event ").skip(1) {
        let body = game.split("\n\n").nth(1).expect("move text");
        let tokens: Vec<&str> = body.split_whitespace().collect();
        assert_eq!(tokens[0], "1.", "{game}");
        assert!(
            tokens[1].starts_with(['2', '3']) && tokens[3] == "2.",
            "White's move, Black's, then 2.: {game}"
        );
    }
    assert_eq!(replay_pdn(Variant::English, &written), 2);
    assert_eq!(pydraughts_reads(Variant::English, &pdn), 2);
}

#[test]
fn russian_and_international_match_pdns_read_back() {
    for (variant, name, opening) in [
        (Variant::Russian, "russian", "c3-d4 f6-e5\ne3-f4 b6-a5\n"),
        (
            Variant::International,
            "international",
            "32-28 19-23\n33-29 17-22\n",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let openings = dir.path().join("o.txt");
        std::fs::write(&openings, opening).unwrap();
        let pdn = dir.path().join("o.pdn");
        self_match(name, &openings, 4, &pdn, &["--max-plies", "80"]);
        let written = std::fs::read_to_string(&pdn).unwrap();
        assert_eq!(replay_pdn(variant, &written), 4, "{name}");
        // damiera's own reader: every game read and replayed by `analyse --pdn`.
        let out = Command::new(BIN)
            .args(["analyse", "--pdn", pdn.to_str().unwrap(), "--depth", "1"])
            .output()
            .expect("runs");
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).matches(&format!(", {name}, ")).count(), 4);
        assert_eq!(pydraughts_reads(variant, &pdn), 4, "{name}");
    }
}

#[test]
fn hub_engine_plays_russian_from_fens() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("ru.txt");
    // A FEN opening (Black to move after 1. c3-d4) and a move opening.
    std::fs::write(
        &openings,
        "# test\nB:Wa1,a3,b2,c1,d2,d4,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8\nc3-d4 f6-e5\n",
    )
    .unwrap();
    let pdn = dir.path().join("ru.pdn");
    let hub = format!("{BIN} hub");
    let out = run(&[
        "--variant",
        "russian",
        "--engine",
        &hub,
        "--engine-protocol",
        "hub",
        "--name",
        "hub",
        "--engine",
        BIN,
        "--name",
        "native",
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        "4",
        "--depth",
        "3",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "Games: "), "4 of 4");
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        pdn.contains("1... "),
        "a game from a Black-to-move FEN: {pdn}"
    );
    assert_eq!(replay_pdn(Variant::Russian, &pdn), 4);
}

#[test]
fn bad_engine_is_a_one_line_error_before_any_game() {
    for cmd in ["/nonexistent/engine", "false"] {
        let out = run(&[
            "--variant",
            "english",
            "--engine",
            cmd,
            "--engine",
            BIN,
            "--openings",
            OPENINGS,
            "--games",
            "2",
            "--movetime",
            "10",
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: engine '") && err.contains(cmd),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn bad_opening_is_a_one_line_error_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.txt");
    std::fs::write(&f, "# ok\n11-15 23-19\n11-15 22-18 10-14\n").unwrap();
    let out = run(&[
        "--variant",
        "english",
        "--engine",
        BIN,
        "--engine",
        BIN,
        "--openings",
        f.to_str().unwrap(),
        "--games",
        "2",
        "--movetime",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bad.txt:3: illegal move 3 '10-14'"), "{err}");
    let out = run(&[
        "--variant",
        "english",
        "--engine",
        BIN,
        "--engine",
        BIN,
        "--openings",
        "/nonexistent/openings.txt",
        "--games",
        "2",
        "--movetime",
        "10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/openings.txt"));
}

#[test]
fn ctrl_c_still_writes_the_report_and_the_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("int.pdn");
    let child = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "english",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--openings",
            OPENINGS,
            "--games",
            "40",
            "--movetime",
            "40",
            "--pdn",
            pdn.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{report}");
    assert!(
        field(&report, "Games: ").ends_with("of 40 (interrupted)"),
        "{report}"
    );
    assert!(pdn.exists());
}

/// `--resume` goes on with a match from its PDN file: a first run of 4 games, then the same
/// match asked for 8 plays only games 5-8; the file then holds games 1-8 in order, the first
/// four as first written, and the report counts all 8 (its totals are the PDN's results).
/// Asked again, nothing is played and nothing changes. Another match's file, or a file that
/// is not a match's PDN, is a one-line error that leaves the file as it was.
#[test]
fn resume_goes_on_with_a_match_from_its_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("resume.pdn");
    let args = |games: &str, second: &str| -> Vec<String> {
        [
            "--variant",
            "english",
            "--engine",
            BIN,
            "--name",
            "a",
            "--engine",
            BIN,
            "--name",
            second,
            "--openings",
            OPENINGS,
            "--games",
            games,
            "--depth",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
            "--resume",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let go = |a: Vec<String>| Command::new(BIN).arg("match").args(a).output().unwrap();
    let rounds = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("[Round"))
            .map(String::from)
            .collect()
    };
    let out = go(args("4", "b"));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(field(&text(&out.stdout), "Games: "), "4 of 4");
    let first = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(rounds(&first).len(), 4);

    let out = go(args("8", "b"));
    let report = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("resuming: 4 games read from"));
    assert_eq!(field(&report, "Games: "), "8 of 8");
    let all = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        all.starts_with(&first),
        "the first games are kept as written"
    );
    let want: Vec<String> = (1..=8).map(|r| format!("[Round \"{r}\"]")).collect();
    assert_eq!(rounds(&all), want);
    assert_eq!(replay_pdn(Variant::English, &all), 8);
    // The report's totals are those of the 8 games in the file ("a" first).
    let mut wdl = [0u64; 3];
    for game in all.split("[Event ").skip(1) {
        let tag = |n: &str| {
            game.lines()
                .find_map(|l| l.strip_prefix(&format!("[{n} \"")))
                .and_then(|v| v.strip_suffix("\"]"))
                .unwrap()
                .to_string()
        };
        let a_white = tag("White") == "a";
        let k = match (tag("Result").as_str(), a_white) {
            ("1/2-1/2", _) => 1,
            ("0-1", true) | ("1-0", false) => 0, // English: 0-1 is a White win
            _ => 2,
        };
        wdl[k] += 1;
    }
    let shown: Vec<u64> = field(&report, "Results (a first): ")
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(shown, wdl.to_vec(), "{report}");
    assert!(field(&report, "Pentanomial [0, 0.5, 1, 1.5, 2]: ").ends_with("(4 pairs)"));

    let out = go(args("8", "b"));
    assert!(out.status.success());
    assert_eq!(field(&text(&out.stdout), "Games: "), "8 of 8");
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), all);

    let out = go(args("10", "c"));
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("game 1 is a against b, not a against c") && err.lines().count() == 1,
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), all);

    // A match that cannot start (here: no such engine) leaves the file alone, even without
    // --resume.
    let mut bad = args("2", "b");
    bad.retain(|a| a != "--resume");
    let engine = bad.iter().rposition(|a| a == BIN).unwrap();
    bad[engine] = "/nonexistent/engine".to_string();
    assert!(!go(bad).status.success());
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), all);

    std::fs::write(&pdn, "[Event \"x\"]\n[GameType \"20\"]\n\n32-28 *\n").unwrap();
    let err = text(&go(args("2", "b")).stderr);
    assert!(err.contains("line 1: a game of another variant"), "{err}");
}

/// `--draw-adjudication` and `--win-adjudication` read the engines' `info` scores. Two
/// damieras whose scores a `sed` wrapper rewrites, one always +5 men and one always −5 (so
/// both agree that the first leads), end every game at once with a win for the first,
/// whichever colour it has; two plain damieras with a bound of 100 men draw every game after
/// 2 plies. The PDN's endings read back.
#[test]
fn score_adjudication_ends_games_by_the_engines_scores() {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = |name: &str, cp: &str| -> PathBuf {
        let text =
            format!("#!/bin/sh\n\"{BIN}\" \"$@\" | sed -u 's/score cp -*[0-9]*/score cp {cp}/'\n");
        script(dir.path(), name, &text)
    };
    let sure = wrapper("sure", "500");
    let doubt = wrapper("doubt", "-500");
    let pdn = dir.path().join("win.pdn");
    let out = run(&[
        "--variant",
        "english",
        "--engine",
        sure.to_str().unwrap(),
        "--engine",
        doubt.to_str().unwrap(),
        "--openings",
        OPENINGS,
        "--games",
        "2",
        "--depth",
        "2",
        "--win-adjudication",
        "1,300",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "Results (sure first): "), "W 2 D 0 L 0");
    assert_eq!(field(&report, "Endings: "), "win adjudicated by score 2");
    assert!(
        report.contains("Win adjudication: both engines at least 300 cm for one side for 1 moves")
    );
    let games = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(
        games
            .matches("{win adjudicated by score: both engines gave")
            .count(),
        2,
        "{games}"
    );

    let pdn = dir.path().join("draw.pdn");
    let out = self_match(
        "english",
        Path::new(OPENINGS),
        4,
        &pdn,
        &["--draw-adjudication", "2,1,10000"],
    );
    let report = text(&out.stdout);
    assert_eq!(
        field(&report, "Endings: "),
        "draw adjudicated by score 4",
        "{report}"
    );
    assert_eq!(
        replay_pdn(Variant::English, &std::fs::read_to_string(&pdn).unwrap()),
        4
    );
    let again = self_match("english", Path::new(OPENINGS), 4, &pdn, &["--report-only"]);
    let reread = text(&again.stdout);
    assert_eq!(field(&reread, "Endings: "), "draw adjudicated by score 4");
    assert_eq!(field(&reread, "Results (damiera-1 first): "), "W 0 D 4 L 0");
}
