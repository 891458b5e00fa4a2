//! The Hub protocol: complete games driven by pydraughts 0.6.7's `HubEngine` (its own board
//! checks every move; `tests/pydraughts/hub_games.py`), the 0.5.7 internal numbering that
//! lidraughts-bot uses, an `error` line for every malformed input with the engine still
//! working afterwards, and the endgame database params.

mod common;

mod egdb_common;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn hub_games(extra: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/hub_games.py");
    let out = Command::new(common::python())
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_damiera"))
        .args(extra)
        .output()
        .expect("run hub_games.py");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

#[test]
fn pydraughts_plays_complete_games_in_every_variant() {
    let text = hub_games(&[]);
    for v in ["english", "italian", "russian", "brazilian"] {
        let games = text
            .lines()
            .filter(|l| l.starts_with(v) && l.contains(" plies "))
            .count();
        assert_eq!(
            games, 4,
            "{v}: four games (time+inc with ponder, move-time with stop, depth, nodes)"
        );
    }
}

/// International: pydraughts' `Board('standard')` against two `damiera hub` processes, the
/// engines set to the variant by pydraughts' own name.
#[test]
fn pydraughts_plays_complete_international_games() {
    let text = hub_games(&["--variants", "standard"]);
    let games = text
        .lines()
        .filter(|l| l.starts_with("standard") && l.contains(" plies "))
        .count();
    assert_eq!(
        games, 4,
        "four games (time+inc with ponder, move-time with stop, depth, nodes)"
    );
}

/// hub_games.py's four complete games of each of `variants` (pydraughts' names).
fn four_games_each(variants: &[&str]) {
    let text = hub_games(&["--variants", &variants.join(",")]);
    for v in variants {
        let games = text
            .lines()
            .filter(|l| l.starts_with(v) && l.contains(" plies "))
            .count();
        assert_eq!(games, 4, "{v}: four complete games\n{text}");
    }
}

/// Antidraughts and Breakthrough (lidraughts' variants): pydraughts' `Board('antidraughts')` and
/// `Board('breakthrough')`, whose rules decide each game's end, against two `damiera hub`
/// processes set to the variant by pydraughts' names.
#[test]
fn pydraughts_plays_complete_antidraughts_and_breakthrough_games() {
    four_games_each(&["antidraughts", "breakthrough"]);
}

/// Frisian and Frysk! as lidraughts-bot would play them: pydraughts' HubEngine sets `frisian`
/// and `frysk!`, sends the start and the moves (so the king-move counts follow from them), and
/// its Board checks every reply and decides each game's end.
#[test]
fn pydraughts_plays_complete_frisian_and_frysk_games() {
    four_games_each(&["frisian", "frysk!"]);
}

#[test]
fn pydraughts_057_internal_numbering() {
    let text = hub_games(&["--variants", "russian,brazilian", "--internal"]);
    assert_eq!(text.lines().filter(|l| l.contains(" plies ")).count(), 4);
}

#[path = "common/engine_process.rs"]
mod engine_process;
use engine_process::EngineProcess as Engine;

/// A `damiera hub` process with a line reader that times out instead of hanging.
impl Engine {
    fn hub() -> Engine {
        Engine::start(&["hub"])
    }

    /// The next line starting with `prefix`, skipping others; fails after 10 s.
    fn expect(&mut self, prefix: &str) -> String {
        self.until(prefix, 10).pop().unwrap()
    }

    /// Sends `line` and expects an `error message=...` reply, then checks the engine still
    /// searches: a ping, a position and a depth-3 search.
    fn rejects(&mut self, line: &str) {
        self.send(line);
        let err = self.expect("error ");
        assert!(err.starts_with("error message="), "{line}: {err}");
        self.send("ping");
        self.expect("pong");
        self.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15\"");
        self.send("level depth=3");
        self.send("go think");
        let done = self.expect("done ");
        assert!(done.starts_with("done move="), "{done}");
    }
}

#[test]
fn international_positions_of_51_characters() {
    // Scan's Hub form for 10x10 (protocols.md §1.3): side, then squares 1-50. After the
    // exchange 32-28 19-23 28x19 14x23 White is to move, and every White piece stands on 31-50.
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("set-param name=variant value=normal");
    e.send("init");
    e.expect("ready");
    e.rejects("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    e.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23 28x19 14x23\"");
    e.send("level depth=6");
    e.send("go think");
    let done = e.expect("done");
    let mv = done
        .split_whitespace()
        .find_map(|f| f.strip_prefix("move="))
        .expect("a move");
    let from: u32 = mv.split(['-', 'x']).next().unwrap().parse().unwrap();
    assert!(
        (31..=50).contains(&from),
        "a White man of 31-50 moves: {done}"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// Scan's Hub names of lidraughts' variants (protocols.md §1.3; lidraughts-bot maps
/// `breakthrough` to `bt`, `antidraughts` to `losing`): under `bt` a White man on 7 crowns and
/// wins at once (1 or 2), rather than any other move; under `losing` White, whose only move is
/// to take 22 (28x17), plays it.
#[test]
fn scan_names_bt_and_losing() {
    let board = |pieces: &[(usize, char)]| {
        let mut b = vec!['e'; 50];
        for &(sq, c) in pieces {
            b[sq - 1] = c;
        }
        b.into_iter().collect::<String>()
    };
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("set-param name=variant value=bt");
    e.send("init");
    e.expect("ready");
    e.send(&format!(
        "pos pos=W{}",
        board(&[(7, 'w'), (41, 'w'), (46, 'w'), (15, 'b'), (44, 'b')])
    ));
    e.send("level depth=4");
    e.send("go think");
    let done = e.expect("done");
    assert!(
        done.contains("move=7-1") || done.contains("move=7-2"),
        "the man crowns: {done}"
    );
    e.send("set-param name=variant value=losing");
    e.send("new-game");
    e.send(&format!(
        "pos pos=W{}",
        board(&[(28, 'w'), (22, 'b'), (5, 'b')])
    ));
    e.send("go think");
    let done = e.expect("done");
    assert!(done.contains("move=28x17"), "the forced capture: {done}");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn malformed_lines_get_errors_and_the_engine_goes_on() {
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("set-param name=variant value=english");
    e.send("init");
    e.expect("ready");
    e.rejects("pos pos=Wxyz");
    e.rejects("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwq");
    e.rejects("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-16 11-15\"");
    e.rejects("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-99\"");
    e.rejects("pos moves=\"11-15\"");
    e.rejects("set-param name=hash");
    e.rejects("set-param name=hash value=lots");
    e.rejects("set-param name=variant value=chess");
    e.rejects("set-param name=contempt value=101");
    e.rejects("set-param name=contempt value=lots");
    e.rejects("set-param name=skill value=21");
    e.rejects("set-param name=skill value=weak");
    e.rejects("set-param name=seed value=-3");
    e.rejects("level depth=");
    e.rejects("level time=soon");
    e.rejects("level");
    e.rejects("go sideways");
    e.rejects("level time=\"3");
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn unknown_commands_are_ignored_and_overlong_lines_are_errors() {
    // protocols.md §1.1 (Scan's protocol.txt): both sides "should ignore commands and
    // arguments that they don't understand"; the next answer is the ping's pong.
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("init");
    e.expect("ready");
    for line in [
        "frobnicate now",
        "get-param name=hash",
        "go-fish",
        "x=1 y=2",
    ] {
        e.send(line);
        e.send("ping");
        let next = e.expect("");
        assert_eq!(next, "pong", "{line}");
    }
    // A line longer than 1 MiB is answered with one error and skipped whole.
    e.send(&format!("pos moves=\"{}\"", "11-15 ".repeat(200_000)));
    let err = e.expect("");
    assert!(err.starts_with("error message="), "{err}");
    assert!(err.contains("bytes"), "{err}");
    e.rejects("pos moves=\"11-15\"");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn huge_times_are_accepted_and_stop_answers() {
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("init");
    e.expect("ready");
    for level in [
        "level time=1e300 inc=1e300",
        "level moves=1 time=1e300",
        "level move-time=1e300",
        "level time=18446744073709551615 inc=18446744073709551615",
    ] {
        e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        e.send(level);
        e.send("go think");
        e.send("ping");
        e.expect("pong");
        e.send("stop");
        let done = e.expect("done ");
        assert!(done.starts_with("done move="), "{level}: {done}");
    }
}

#[test]
fn end_of_input_exits() {
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("init");
    e.expect("ready");
    e.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    e.send("level infinite");
    e.send("go think");
    e.expect("info ");
    drop(std::mem::replace(&mut e.stdin, {
        // Close stdin: replace with a dummy pipe end that is dropped at once.
        let mut c = Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
        let s = c.stdin.take().unwrap();
        let _ = c.wait();
        s
    }));
    // The search is stopped, its `done` printed, and the process exits.
    e.expect("done ");
    for _ in 0..100 {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success());
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("still running 2 s after the end of input");
}

#[test]
fn egdb_path_and_egdb_pieces_params() {
    // Two White kings (10, 14) against a Black king (27), White to move: a database win (the
    // endgame database tests check its value). In pydraughts' internal form (protocols.md
    // §4.3) English square s is internal 33 - s with the colours swapped: internal side "B",
    // internal Black kings on 23 and 19, an internal White king on 6.
    let tmp = tempfile::tempdir().unwrap();
    egdb_common::build_all::<damiera::English>(tmp.path(), 3);
    let mut squares = ['e'; 32];
    squares[23 - 1] = 'B';
    squares[19 - 1] = 'B';
    squares[6 - 1] = 'W';
    let pos: String = std::iter::once('B').chain(squares).collect();
    let mut e = Engine::hub();
    e.send("hub");
    e.expect("wait");
    e.send("set-param name=variant value=english");
    e.send("set-param name=notation value=variant");
    e.rejects("set-param name=egdb-path value=/nonexistent/egdb");
    e.rejects("set-param name=egdb-pieces value=lots");
    e.send(&format!(
        "set-param name=egdb-path value=\"{}\"",
        tmp.path().display()
    ));
    e.send("init");
    e.expect("ready");
    e.send(&format!("pos pos={pos}"));
    e.send("level depth=6");
    e.send("go think");
    let mut last_score = None;
    let done = loop {
        let line = e.expect("");
        if let Some(s) = line
            .split_whitespace()
            .find_map(|f| f.strip_prefix("score="))
        {
            last_score = Some(s.parse::<f64>().unwrap());
        }
        if line.starts_with("done") {
            break line;
        }
    };
    // Hub scores are in men: a database win is above DB_BOUND centi-men.
    let score = last_score.expect("an info line with a score");
    assert!(
        score * 100.0 >= damiera::engine::search::DB_BOUND as f64,
        "{score}"
    );
    // The move keeps the win: after it the database gives Black a loss.
    let mv = done
        .split_whitespace()
        .find_map(|f| f.strip_prefix("move="))
        .expect("a move");
    let db = damiera::egdb::Egdb::open(tmp.path(), damiera::Variant::English, 3).unwrap();
    let start =
        damiera::core::notation::fen::parse_fen::<damiera::English>("W:WK10,K14:BK27").unwrap();
    let parsed = <damiera::English as damiera::Notation>::parse_move(&start, mv).unwrap();
    let after = <damiera::English as damiera::Play>::make(&start, &parsed);
    assert_eq!(
        db.lookup(&after).unwrap().value,
        damiera::egdb::Wld::Loss,
        "{done}"
    );
    // Capped to 2 pieces, the 3-piece position is the search's alone: no database score
    // (a new game: the transposition table forgets the database scores).
    e.send("set-param name=egdb-pieces value=2");
    e.send("new-game");
    e.send(&format!("pos pos={pos}"));
    e.send("level depth=2");
    e.send("go think");
    let info = e.expect("info");
    let score: f64 = info
        .split_whitespace()
        .find_map(|f| f.strip_prefix("score="))
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        score * 100.0 < damiera::engine::search::DB_BOUND as f64,
        "{info}"
    );
    e.expect("done");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn skill_sets_the_strength_level_and_seed_makes_it_reproducible() {
    // `skill` is the native `Level` (Hub's `level` is its time command); with the same seed,
    // the same moves.
    let play = |seed: u32| -> Vec<String> {
        let mut e = Engine::hub();
        e.send("hub");
        let mut params = Vec::new();
        loop {
            let l = e.expect("");
            if l == "wait" {
                break;
            }
            params.push(l);
        }
        assert!(
            params.contains(&"param name=skill value=20 type=int min=0 max=20".to_string()),
            "{params:?}"
        );
        e.send("set-param name=variant value=english");
        e.send("set-param name=skill value=3");
        e.send(&format!("set-param name=seed value={seed}"));
        e.send("init");
        e.expect("ready");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..6 {
            e.send(&format!(
                "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"{}\"",
                moves.join(" ")
            ));
            e.send("level move-time=5");
            e.send("go think");
            let done = e.expect("done ");
            let mv = done
                .split_whitespace()
                .find_map(|f| f.strip_prefix("move="))
                .expect("a move")
                .to_string();
            moves.push(mv);
        }
        e.send("quit");
        moves
    };
    let a = play(5);
    assert_eq!(a, play(5));
    assert_eq!(a.len(), 6);
}
