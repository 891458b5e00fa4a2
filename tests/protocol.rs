//! The native protocol as a front end sees it (docs/protocol.md): the `damiera` binary is
//! spawned with no subcommand and scripted through stdin. Every line it prints must be a
//! protocol line (checked on every read, see `engine_io::is_protocol_line`), every move it
//! names is checked against the library's move generator, and every error is followed by
//! `isready` → `readyok` and a check that the position did not change.

mod engine_io;

use damiera::core::variant::Variant;
use engine_io::{parse_info, EngineProcess, Info, Score, Setup};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// `stop` must be answered with `bestmove` within this (the issue's requirement; no margin).
const STOP_LATENCY: Duration = Duration::from_millis(50);

/// Russian: the king on h6 can reach a7 two ways (h6:f8:c5:a7 and h6:e3:a7).
const RUSSIAN_AMBIGUOUS: &str = "W:WKh6:Bb6,b8,e7,f4,g7";

fn engine() -> EngineProcess {
    EngineProcess::spawn()
}

/// Sets the variant and the position, and checks that `d` shows the library's FEN for it.
fn set_up(e: &mut EngineProcess, setup: &Setup) -> String {
    let lines = e.ask(&format!("setoption name Variant value {}", setup.variant));
    assert!(lines.is_empty(), "{lines:?}\n{}", e.dump());
    let lines = e.ask(&setup.command());
    assert!(lines.is_empty(), "{lines:?}\n{}", e.dump());
    let want = setup.library_fen().expect("a legal setup");
    assert_eq!(e.fen(), want, "{}", e.dump());
    want
}

/// Checks the lines of one finished search from `setup`: every `info` line parses, its PV is
/// legal, depths increase, and `bestmove` (the last line) is the last PV's first move with its
/// second as the ponder move. Returns the `info` lines and the best move.
fn check_search(setup: &Setup, lines: &[String]) -> (Vec<Info>, String) {
    let (last, infos) = lines.split_last().expect("at least bestmove");
    let infos: Vec<Info> = infos
        .iter()
        .map(|l| parse_info(l).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for (i, info) in infos.iter().enumerate() {
        let pv: Vec<&str> = info.pv.iter().map(String::as_str).collect();
        if let Err(e) = setup.check_line(&pv) {
            panic!("illegal pv in {:?}: {e}", lines[i]);
        }
        assert!(
            info.seldepth as usize >= info.pv.len(),
            "seldepth counts every ply reached, the PV's included: {:?}",
            lines[i]
        );
        match info.score {
            Score::Win(p) => assert!(p % 2 == 1, "the side to move wins on its own move"),
            Score::Loss(p) => assert!(p % 2 == 0, "the side to move loses on its own turn"),
            Score::Cp(c) => assert!(c.abs() < 30_000),
        }
        if i > 0 {
            let prev = &infos[i - 1];
            assert!(info.depth > prev.depth, "{lines:?}");
            assert!(
                info.nodes >= prev.nodes && info.time >= prev.time,
                "{lines:?}"
            );
        }
    }
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words[0], "bestmove", "{lines:?}");
    let best = words[1].to_string();
    setup
        .check_line(&words[1..2])
        .unwrap_or_else(|e| panic!("illegal bestmove {last:?}: {e}"));
    if let Some(info) = infos.last() {
        assert_eq!(
            best, info.pv[0],
            "bestmove is the PV's first move: {lines:?}"
        );
        match words.get(2..) {
            Some(["ponder", p]) => {
                assert_eq!(Some(p), info.pv.get(1).map(String::as_str).as_ref());
                setup
                    .check_line(&[&best, p])
                    .unwrap_or_else(|e| panic!("illegal ponder move {last:?}: {e}"));
            }
            Some([]) => assert_eq!(info.pv.len(), 1, "a ponder move when the PV has one"),
            other => panic!("bad bestmove line {last:?} ({other:?})"),
        }
    }
    (infos, best)
}

/// Runs `go <args>` from `setup` to its end and checks it; returns the infos, the best move
/// and how long the bestmove took.
fn go(e: &mut EngineProcess, setup: &Setup, args: &str) -> (Vec<Info>, String, Duration) {
    let sent = e.send(&format!("go {args}"));
    let lines = e.until_within("bestmove", engine_io::HANG);
    let took = lines.last().unwrap().at - sent;
    let texts: Vec<String> = lines.into_iter().map(|l| l.text).collect();
    let (infos, best) = check_search(setup, &texts);
    (infos, best, took)
}

/// Sends `command`, expects exactly one `info string error: ...` line, then checks the engine
/// still answers `isready` and still has the position `fen`.
fn expect_error(e: &mut EngineProcess, command: &str, fen: &str) -> String {
    let lines = e.ask(command);
    assert_eq!(
        lines.len(),
        1,
        "one error line for {command:?}\n{}",
        e.dump()
    );
    let msg = lines[0]
        .strip_prefix("info string error: ")
        .unwrap_or_else(|| panic!("an error line for {command:?}: {:?}", lines[0]))
        .to_string();
    assert_eq!(e.fen(), fen, "the position is unchanged after {command:?}");
    msg
}

// ---------------------------------------------------------------------------------------------
// uci, isready, setoption, ucinewgame

#[test]
fn handshake_names_the_engine_lists_every_option_then_uciok() {
    let mut e = engine();
    e.send("uci");
    let lines = e.until("uciok");
    let vars: Vec<String> = Variant::ALL
        .iter()
        .map(|v| format!("var {}", v.name()))
        .collect();
    assert_eq!(
        lines[0],
        format!("id name damiera {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author ") && lines[1].len() > "id author ".len());
    assert_eq!(
        lines[2..],
        [
            format!(
                "option name Variant type combo default english {}",
                vars.join(" ")
            ),
            "option name Hash type spin default 64 min 1 max 65536".to_string(),
            format!(
                "option name Threads type spin default 1 min 1 max {}",
                cores()
            ),
            "option name MoveOverhead type spin default 5 min 0 max 5000".to_string(),
            "option name Contempt type spin default 15 min -100 max 100".to_string(),
            "option name Level type spin default 20 min 0 max 20".to_string(),
            format!(
                "option name Seed type spin default 0 min 0 max {}",
                u32::MAX
            ),
            "option name DamoneWin type combo default all var all var damones".to_string(),
            "option name EvalFile type string default <empty>".to_string(),
            "option name EgdbPath type string default <empty>".to_string(),
            "option name EgdbPieces type spin default 15 min 0 max 15".to_string(),
            "option name OwnBook type check default true".to_string(),
            "option name BookFile type string default <empty>".to_string(),
            "option name BookMode type combo default best var best var good var random".to_string(),
            "option name BookPly type spin default 20 min 0 max 1000".to_string(),
            "uciok".to_string(),
        ]
    );
    // The combo lists the four variants of the issue, plus Damone.
    for v in ["english", "italian", "brazilian", "russian"] {
        assert!(vars.contains(&format!("var {v}")));
    }
    // The handshake may be repeated; nothing else is printed.
    e.send("uci");
    assert_eq!(e.until("uciok"), lines);
    assert!(e.sync().is_empty());
}

#[test]
fn isready_answers_readyok_every_time() {
    let mut e = engine();
    for _ in 0..5 {
        assert!(e.sync().is_empty(), "{}", e.dump());
    }
    // Before the handshake too, and with blank lines and surrounding spaces around it.
    e.send("");
    e.send("   isready   ");
    assert_eq!(e.until("readyok"), ["readyok"]);
}

#[test]
fn setoption_sets_each_option() {
    let mut e = engine();
    for v in Variant::ALL {
        // The variant's start position, whichever case the name is written in.
        let lines = e.ask(&format!(
            "setoption name Variant value {}",
            v.name().to_uppercase()
        ));
        assert!(lines.is_empty(), "{lines:?}");
        assert_eq!(e.fen(), Setup::start(v, &[]).library_fen().unwrap());
    }
    // Aliases of the variant names.
    for (alias, v) in [
        ("american", Variant::English),
        ("checkers", Variant::English),
        ("italian-damone", Variant::Damone),
    ] {
        assert!(e
            .ask(&format!("setoption name Variant value {alias}"))
            .is_empty());
        assert_eq!(e.fen(), Setup::start(v, &[]).library_fen().unwrap());
    }
    for ok in [
        "setoption name Hash value 1",
        "setoption name Hash value 16",
        "setoption name hash value 8",
        "setoption name Threads value 1",
        "setoption name MoveOverhead value 0",
        "setoption name MoveOverhead value 5000",
        "setoption name moveoverhead value 10",
        "setoption name Contempt value -100",
        "setoption name contempt value 100",
        "setoption name Contempt value 15",
        "setoption name DamoneWin value damones",
        "setoption name DamoneWin value ALL",
    ] {
        assert!(e.ask(ok).is_empty(), "{ok}: {}", e.dump());
    }
    // The engine still searches with its new table.
    let setup = Setup::start(Variant::English, &[]);
    set_up(&mut e, &setup);
    go(&mut e, &setup, "depth 5");
}

/// The machine's cores: the largest `Threads` the engine accepts.
fn cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(64)
}

#[test]
fn threads_up_to_the_cores_search_and_answer() {
    let mut e = engine();
    let setup = Setup::start(Variant::Italian, &["23-19", "10-14"]);
    set_up(&mut e, &setup);
    let n = cores();
    assert!(e
        .ask(&format!("setoption name Threads value {n}"))
        .is_empty());
    let (infos, best, _) = go(&mut e, &setup, "depth 9");
    assert_eq!(infos.last().unwrap().depth, 9);
    assert!(!best.is_empty());
    let (_, best, _) = go(&mut e, &setup, "movetime 100");
    assert!(!best.is_empty());
    let fen = e.fen();
    let msg = expect_error(
        &mut e,
        &format!("setoption name Threads value {}", n + 1),
        &fen,
    );
    assert!(msg.contains("Threads"), "{msg}");
}

#[test]
fn setoption_variant_resets_the_position_other_options_keep_it() {
    let mut e = engine();
    let setup = Setup::start(Variant::Russian, &["c3-d4", "f6-e5"]);
    let fen = set_up(&mut e, &setup);
    for cmd in [
        "setoption name Hash value 2",
        "setoption name Threads value 1",
        "setoption name MoveOverhead value 40",
        "setoption name DamoneWin value damones",
    ] {
        assert!(e.ask(cmd).is_empty());
        assert_eq!(e.fen(), fen, "{cmd} keeps the position");
    }
    assert!(e.ask("setoption name Variant value russian").is_empty());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::Russian, &[]).library_fen().unwrap()
    );
    // DamoneWin changes the rules of the Damone game being played: a new game.
    set_up(&mut e, &Setup::start(Variant::Damone, &["e2-d3"]));
    assert!(e.ask("setoption name DamoneWin value all").is_empty());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::Damone, &[]).library_fen().unwrap()
    );
}

#[test]
fn ucinewgame_returns_to_the_start_and_forgets_the_hash() {
    let mut e = engine();
    let setup = Setup::start(Variant::Italian, &["22-19", "11-15"]);
    let fen = set_up(&mut e, &setup);
    // A fixed-depth search is deterministic: a fresh engine and one after ucinewgame search
    // the same number of nodes, while a warm hash changes the count.
    let (cold, _, _) = go(&mut e, &setup, "depth 9");
    let (warm, _, _) = go(&mut e, &setup, "depth 9");
    assert_ne!(
        cold.last().unwrap().nodes,
        warm.last().unwrap().nodes,
        "a second search profits from the hash"
    );
    assert!(e.ask("ucinewgame").is_empty());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::Italian, &[]).library_fen().unwrap(),
        "ucinewgame sets the variant's start position"
    );
    assert!(e.ask(&setup.command()).is_empty());
    assert_eq!(e.fen(), fen);
    let (again, _, _) = go(&mut e, &setup, "depth 9");
    assert_eq!(
        cold.iter().map(|i| i.nodes).collect::<Vec<_>>(),
        again.iter().map(|i| i.nodes).collect::<Vec<_>>(),
        "after ucinewgame the search is the fresh engine's"
    );
    // The variant is kept.
    assert!(e.ask("ucinewgame").is_empty());
    assert!(e.fen().starts_with("W:W21,22"));
}

// ---------------------------------------------------------------------------------------------
// position and d

#[test]
fn position_startpos_and_fen_with_moves_in_each_notation() {
    let mut e = engine();
    let cases: Vec<Setup> = vec![
        // English: Black moves first, numbered squares, captures with x.
        Setup::start(Variant::English, &[]),
        Setup::start(Variant::English, &["11-15"]),
        Setup::start(Variant::English, &["11-15", "22-18", "15x22"]),
        Setup::start(Variant::English, &["11-15", "22-18", "15x22", "25x18"]),
        Setup::fen(Variant::English, "B:W21-32:B1-12", &["9-13"]),
        Setup::fen(Variant::English, "W:WK1,22:B18,K5", &["22x15"]),
        // Italian: White moves first, FID numbering.
        Setup::start(Variant::Italian, &["21-17"]),
        Setup::start(Variant::Italian, &["21-17", "10-13", "17x10", "5x14"]),
        // Brazilian: algebraic, captures with x (: accepted on input).
        Setup::start(Variant::Brazilian, &["c3-d4", "f6-e5", "d4xf6"]),
        Setup::fen(Variant::Brazilian, "W:Wc3:Bd4,h8", &["c3xe5"]),
        // Russian: algebraic, captures with :.
        Setup::start(Variant::Russian, &["c3-d4", "f6-e5", "d4:f6"]),
        Setup::fen(Variant::Russian, "W:Wc3:Bd4,h8", &["c3:e5"]),
        Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &["h6:f8:c5:a7"]),
        Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &["h6:e3:a7"]),
        // Italian Damone: algebraic.
        Setup::start(Variant::Damone, &["e2-d3"]),
    ];
    for setup in &cases {
        set_up(&mut e, setup);
    }
    // Other accepted forms give the same position as the native one: the other separator,
    // `from x to` when only one capture matches, and the Hub form `from x to x captured...`
    // (captured squares in any order).
    let same = |native: Setup, other: &[&str]| {
        (
            native.clone(),
            Setup {
                moves: other.iter().map(|m| m.to_string()).collect(),
                ..native
            },
        )
    };
    let pairs = vec![
        same(
            Setup::start(Variant::English, &["11-15", "22-18", "15x22"]),
            &["11-15", "22-18", "15x22x18"],
        ),
        same(
            Setup::start(Variant::Italian, &["21-17", "10-13", "17x10"]),
            &["21-17", "10-13", "17x10x13"],
        ),
        same(
            Setup::fen(Variant::Brazilian, "W:Wc3:Bd4,h8", &["c3xe5"]),
            &["c3:e5"],
        ),
        same(
            Setup::fen(Variant::Brazilian, "W:Wc3:Bd4,h8", &["c3xe5"]),
            &["c3xe5xd4"],
        ),
        same(
            Setup::fen(Variant::Russian, "W:Wc3:Bd4,h8", &["c3:e5"]),
            &["c3xe5"],
        ),
        same(
            Setup::fen(Variant::Russian, "W:Wc3:Bd4,h8", &["c3:e5"]),
            &["c3xe5xd4"],
        ),
        same(
            Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &["h6:f8:c5:a7"]),
            &["h6xa7xb6xe7xg7"],
        ),
        same(
            Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &["h6:e3:a7"]),
            &["h6xa7xf4xb6"],
        ),
        same(
            Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &["h6:e3:a7"]),
            &["h6xe3xa7"],
        ),
    ];
    for (native, other) in pairs {
        let want = set_up(&mut e, &native);
        assert!(e.ask(&other.command()).is_empty(), "{}", e.dump());
        assert_eq!(e.fen(), want, "{} = {}", other.command(), native.command());
    }
    // `position startpos` with an empty move list, and a FEN in brackets as PDN writes it.
    assert!(e.ask("setoption name Variant value english").is_empty());
    assert!(e.ask("position startpos moves").is_empty());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::English, &[]).library_fen().unwrap()
    );
    assert!(e.ask("position fen [FEN \"W:W18:B14\"]").is_empty());
    assert_eq!(e.fen(), "W:W18:B14");
}

#[test]
fn d_prints_a_diagram_and_the_fen() {
    let mut e = engine();
    let lines = e.ask("d");
    assert_eq!(
        lines,
        [
            " 8    b   b   b   b",
            " 7  b   b   b   b  ",
            " 6    b   b   b   b",
            " 5  .   .   .   .  ",
            " 4    .   .   .   .",
            " 3  w   w   w   w  ",
            " 2    w   w   w   w",
            " 1  w   w   w   w  ",
            "    a b c d e f g h",
            "Fen: B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        ]
    );
    // Kings are capitals; the FEN round-trips through `position fen`.
    assert!(e.ask("position fen W:WK1,22:B18,K5").is_empty());
    let lines = e.ask("d");
    assert!(
        lines.contains(&" 8    W   .   .   .".to_string()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "Fen: W:WK1,22:BK5,18");
}

// ---------------------------------------------------------------------------------------------
// go

#[test]
fn go_depth_reports_every_iteration_and_a_legal_bestmove_in_every_variant() {
    let mut e = engine();
    let setups = [
        Setup::start(Variant::English, &["11-15", "23-19"]),
        Setup::start(Variant::Italian, &["21-17"]),
        Setup::start(Variant::Brazilian, &["c3-d4", "f6-e5", "d4xf6"]),
        Setup::start(Variant::Russian, &["c3-d4", "f6-e5", "d4:f6"]),
        Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &[]),
        Setup::start(Variant::Damone, &[]),
    ];
    for setup in &setups {
        set_up(&mut e, setup);
        let (infos, _, _) = go(&mut e, setup, "depth 7");
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, (1..=7).collect::<Vec<_>>(), "{}", e.dump());
        for i in &infos {
            assert!(i.nodes > 0 && i.nps > 0 && i.seldepth >= 1, "{i:?}");
        }
    }
}

#[test]
fn go_finds_a_win_and_reports_it_in_plies() {
    let mut e = engine();
    // English, Black to move: 14x23 takes White's last piece.
    let setup = Setup::fen(Variant::English, "B:W18:B14", &[]);
    set_up(&mut e, &setup);
    let (infos, best, _) = go(&mut e, &setup, "depth 5");
    assert_eq!(best, "14x23");
    assert_eq!(infos.last().unwrap().score, Score::Win(1));
    // White to move with no piece left has no legal move: the game is over, and the engine
    // says so.
    let setup = Setup::fen(Variant::English, "W:W:B14", &[]);
    set_up(&mut e, &setup);
    e.send("go depth 3");
    assert_eq!(e.until("bestmove"), ["bestmove (none)"]);
}

#[test]
fn go_nodes_stops_near_the_node_budget() {
    let mut e = engine();
    let setup = Setup::start(Variant::Russian, &["c3-d4"]);
    set_up(&mut e, &setup);
    for budget in [1_000u64, 30_000, 200_000] {
        let (infos, _, _) = go(&mut e, &setup, &format!("nodes {budget}"));
        let last = infos.last().expect("at least one iteration");
        // The budget is checked every 1024 nodes (docs/protocol.md).
        assert!(
            last.nodes <= budget + 1024,
            "{} nodes for a budget of {budget}",
            last.nodes
        );
    }
}

#[test]
fn go_movetime_answers_within_the_time() {
    let mut e = engine();
    let setup = Setup::start(Variant::Brazilian, &["c3-d4", "f6-g5"]);
    set_up(&mut e, &setup);
    for ms in [50u64, 300] {
        let (_, _, took) = go(&mut e, &setup, &format!("movetime {ms}"));
        // The engine keeps MoveOverhead (5 ms) back for the transport, so the bestmove is
        // due within `ms`. The 50 ms on top are for process scheduling only: the machine
        // running the tests is shared and may deschedule either process.
        assert!(
            took <= Duration::from_millis(ms + 50),
            "movetime {ms} answered after {took:?}"
        );
    }
    // MoveOverhead 0: the full time is the engine's.
    assert!(e.ask("setoption name MoveOverhead value 0").is_empty());
    let (infos, _, took) = go(&mut e, &setup, "movetime 100");
    assert!(took <= Duration::from_millis(150), "{took:?}");
    assert!(infos.last().unwrap().time <= 100);
}

#[test]
fn go_movetime_uses_the_time_it_is_given() {
    // A middle game with many moves: the search goes on until movetime − MoveOverhead
    // (here 300 − 5 ms), cutting the last iteration, instead of stopping at half the time.
    let mut e = engine();
    let setup = Setup::start(Variant::English, &["11-15", "23-19", "8-11", "22-17"]);
    set_up(&mut e, &setup);
    let (_, best, took) = go(&mut e, &setup, "movetime 300");
    assert!(!best.is_empty());
    assert!(
        took >= Duration::from_millis(280),
        "answered after only {took:?}"
    );
}

#[test]
fn go_with_a_clock_uses_the_side_to_moves_time_and_increment() {
    let mut e = engine();
    // English: Black to move at the start.
    let black = Setup::start(Variant::English, &[]);
    set_up(&mut e, &black);
    // Black has 600 ms left (White plenty): it may plan at most a third of its time.
    let (_, _, took) = go(&mut e, &black, "wtime 100000 btime 600 winc 0 binc 0");
    assert!(took <= Duration::from_millis(200 + 50), "{took:?}");
    // White to move after one move: now wtime is the one that counts.
    let white = Setup::start(Variant::English, &["11-15"]);
    set_up(&mut e, &white);
    let (_, _, took) = go(&mut e, &white, "wtime 600 btime 100000 winc 0 binc 0");
    assert!(took <= Duration::from_millis(200 + 50), "{took:?}");
    // An increment is spent, but never more than the clock allows.
    let (_, _, took) = go(&mut e, &white, "wtime 300 btime 300 winc 2000 binc 2000");
    assert!(took <= Duration::from_millis(300), "{took:?}");
    // movestogo 1: the rest of the clock is for this move, still at most a third of it.
    let (_, _, took) = go(&mut e, &white, "wtime 900 btime 900 movestogo 1");
    assert!(took <= Duration::from_millis(300 + 50), "{took:?}");
    let (_, _, took) = go(
        &mut e,
        &white,
        "wtime 3000 btime 3000 winc 10 binc 10 movestogo 40",
    );
    assert!(took <= Duration::from_millis(1000 + 50), "{took:?}");
    // The parameters in any order.
    let (_, _, took) = go(
        &mut e,
        &white,
        "movestogo 5 binc 0 btime 2000 winc 0 wtime 400",
    );
    assert!(took <= Duration::from_millis(150 + 50), "{took:?}");
}

#[test]
fn go_infinite_searches_until_stop_and_stop_answers_within_50_ms() {
    let mut e = engine();
    let setups = [
        Setup::start(Variant::English, &[]),
        Setup::start(Variant::Italian, &["21-17"]),
        Setup::start(Variant::Brazilian, &[]),
        Setup::start(Variant::Russian, &["c3-d4"]),
        Setup::fen(Variant::English, "B:W18:B14", &[]),
        Setup::start(Variant::Damone, &[]),
    ];
    for (n, setup) in setups.iter().enumerate() {
        set_up(&mut e, setup);
        e.send("go infinite");
        // No bestmove before stop, however long it searches (here, even a won position).
        let mut lines = Vec::new();
        let until = Instant::now() + Duration::from_millis(300 + 100 * n as u64);
        while let Some(l) = e.recv_within(until.saturating_duration_since(Instant::now())) {
            assert!(!l.text.starts_with("bestmove"), "{}", e.dump());
            lines.push(l.text);
        }
        // isready is answered during the search, and does not end it.
        // Info lines of the running search may come before readyok, but no bestmove.
        let sent = e.send("isready");
        let mut ready = e.until_within("readyok", engine_io::HANG);
        let l = ready.pop().unwrap();
        assert!(l.at - sent < STOP_LATENCY, "{:?}", l.at - sent);
        for l in ready {
            assert!(l.text.starts_with("info"), "{}\n{}", l.text, e.dump());
            lines.push(l.text);
        }
        let sent = e.send("stop");
        let rest = e.until_within("bestmove", engine_io::HANG);
        let latency = rest.last().unwrap().at - sent;
        assert!(
            latency < STOP_LATENCY,
            "bestmove {latency:?} after stop\n{}",
            e.dump()
        );
        lines.extend(rest.into_iter().map(|l| l.text));
        check_search(setup, &lines);
        // stop with no search running prints nothing.
        assert!(e.ask("stop").is_empty());
    }
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    let mut e = engine();
    let setup = Setup::start(Variant::English, &["11-15", "23-19"]);
    set_up(&mut e, &setup);
    // Pondering ignores the clock: no bestmove while it lasts.
    e.send("go ponder wtime 1000 btime 1000");
    let mut lines: Vec<String> = Vec::new();
    while let Some(l) = e.recv_within(Duration::from_millis(700)) {
        assert!(!l.text.starts_with("bestmove"), "{}", e.dump());
        lines.push(l.text);
    }
    // ponderhit: the clock starts now, so the bestmove comes within a third of 1000 ms.
    let sent = e.send("ponderhit");
    let rest = e.until_within("bestmove", engine_io::HANG);
    let took = rest.last().unwrap().at - sent;
    assert!(took <= Duration::from_millis(333 + 50), "{took:?}");
    lines.extend(rest.into_iter().map(|l| l.text));
    check_search(&setup, &lines);
    // stop during pondering gives the bestmove at once.
    e.send("go ponder movetime 100");
    e.silent_for_bestmove(Duration::from_millis(300));
    let sent = e.send("stop");
    let rest = e.until_within("bestmove", engine_io::HANG);
    assert!(rest.last().unwrap().at - sent < STOP_LATENCY);
    // ponderhit with no search running prints nothing.
    assert!(e.ask("ponderhit").is_empty());
}

#[test]
fn go_during_a_search_ends_the_old_one_with_its_bestmove() {
    let mut e = engine();
    let setup = Setup::start(Variant::Italian, &[]);
    set_up(&mut e, &setup);
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("go depth 3");
    let first = e.until("bestmove");
    check_search(&setup, &first);
    let second = e.until("bestmove");
    let (infos, _) = check_search(&setup, &second);
    assert_eq!(infos.last().unwrap().depth, 3);
    // position during a search also ends it first.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("position startpos moves 22-19");
    let lines = e.until("bestmove");
    check_search(&setup, &lines);
    assert!(e.sync().is_empty());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::Italian, &["22-19"])
            .library_fen()
            .unwrap()
    );
}

// ---------------------------------------------------------------------------------------------
// perft

#[test]
fn perft_divides_and_matches_the_published_counts() {
    let mut e = engine();
    // English start (OEIS A133046, DCTL): 7, 49, 302, 1469.
    for (depth, total) in [(1u32, 7u64), (2, 49), (3, 302), (4, 1469)] {
        let lines = e.ask_until(&format!("perft {depth}"), "Nodes searched");
        let (last, divide) = lines.split_last().unwrap();
        assert_eq!(last, &format!("Nodes searched: {total}"));
        let mut moves = Vec::new();
        let mut sum = 0;
        for l in divide {
            let (mv, n) = l.split_once(": ").expect("<move>: <count>");
            moves.push(mv.to_string());
            sum += n.parse::<u64>().unwrap();
        }
        assert_eq!(sum, total, "{lines:?}");
        let mut legal = Setup::start(Variant::English, &[]).legal_moves();
        legal.sort();
        moves.sort();
        assert_eq!(moves, legal, "one divide line per legal move");
    }
    assert_eq!(
        e.ask_until("perft 0", "Nodes searched"),
        ["Nodes searched: 1"]
    );
    // Depth 5 of the other variants' start positions (tests/perft/*.perft).
    for (variant, total) in [("italian", 7361u64), ("brazilian", 7473), ("russian", 7482)] {
        assert!(e
            .ask(&format!("setoption name Variant value {variant}"))
            .is_empty());
        let lines = e.ask_until("perft 5", "Nodes searched");
        assert_eq!(lines.len(), 8, "{lines:?}");
        assert_eq!(lines[7], format!("Nodes searched: {total}"), "{variant}");
    }
    // From the current position, after moves.
    assert!(e.ask("setoption name Variant value english").is_empty());
    assert!(e.ask("position startpos moves 11-15 22-18").is_empty());
    assert_eq!(
        e.ask_until("perft 1", "Nodes searched"),
        ["15x22: 1", "Nodes searched: 1"]
    );
}

// ---------------------------------------------------------------------------------------------
// errors: each one line, the engine keeps its position and keeps answering

#[test]
fn unknown_command_is_an_error() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::English, &["11-15"]));
    for cmd in [
        "foo",
        "go2",
        "UCI",
        "position-startpos",
        "setoptions name Hash value 1",
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        let word = cmd.split(' ').next().unwrap();
        assert!(msg.contains(word), "{msg}");
    }
}

#[test]
fn unknown_option_and_bad_option_values_are_errors() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::Russian, &["c3-d4"]));
    let msg = expect_error(&mut e, "setoption name Ponder value true", &fen);
    assert!(msg.contains("Ponder"), "{msg}");
    for (cmd, what) in [
        ("setoption name Hash value 0", "Hash"),
        ("setoption name Hash value 65537", "Hash"),
        ("setoption name Hash value big", "Hash"),
        ("setoption name Hash", "Hash"),
        ("setoption name Threads value 65", "Threads"),
        ("setoption name Threads value 0", "Threads"),
        ("setoption name MoveOverhead value -1", "MoveOverhead"),
        ("setoption name MoveOverhead value 5001", "MoveOverhead"),
        ("setoption name Contempt value 101", "Contempt"),
        ("setoption name Contempt value -101", "Contempt"),
        ("setoption name Contempt value some", "Contempt"),
        ("setoption name Variant value killer", "killer"),
        ("setoption name Variant value", "variant"),
        ("setoption name DamoneWin value some", "DamoneWin"),
        ("setoption name DamoneWin", "DamoneWin"),
        ("setoption Hash value 1", "name"),
        ("setoption", "name"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
    }
    // The options kept their values: the variant is still Russian.
    assert!(e.ask("position startpos moves c3-d4 f6-e5").is_empty());
}

#[test]
fn malformed_fen_is_an_error_and_keeps_the_position() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::English, &["11-15", "22-18"]));
    for (cmd, what) in [
        ("position fen X:W21:B1", "side to move"),
        ("position fen W:W33:B1", "33"),
        ("position fen W:W21:B1,21", "21"),
        ("position fen W:W21,21:B1", "21"),
        ("position fen W:W1:B5", "1"),
        ("position fen W:Q21:B1", "Q21"),
        ("position fen W:W2x:B1", "2x"),
        ("position fen", "fen"),
        ("position", "startpos"),
        ("position startpos 11-15", "startpos"),
        ("position fen W:W21:B1 moves 21-17 zz", "zz"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
    }
    // Algebraic variants: a light square and a square off the board.
    let fen = set_up(&mut e, &Setup::start(Variant::Russian, &[]));
    for (cmd, what) in [
        ("position fen W:Wa2:Bh8", "a2"),
        ("position fen W:Wi1:Bh8", "i1"),
        ("position fen W:W21-32:B1-12", "range"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
    }
}

#[test]
fn illegal_move_is_an_error_and_keeps_the_position() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::English, &["11-15"]));
    for (cmd, what) in [
        // White's move when Black is to move.
        ("position startpos moves 22-18", "22-18"),
        // The first moves legal, a later one not: nothing of the list is kept.
        ("position startpos moves 11-15 22-18 9-14", "9-14"),
        // A capture is compulsory.
        ("position startpos moves 11-15 22-18 10-14", "compulsory"),
        // Not a square of the board, not a move.
        ("position startpos moves 11-40", "40"),
        ("position startpos moves e3-f4", "e3"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
    }
    let fen = set_up(&mut e, &Setup::start(Variant::Russian, &["c3-d4"]));
    for (cmd, what) in [
        ("position startpos moves c3-d4 f6-e5 d4-c5", "d4-c5"),
        ("position startpos moves c3-d4 f6-e5 d4:b6", "d4:b6"),
        ("position startpos moves 22-18", "22"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
    }
}

#[test]
fn ambiguous_move_is_an_error_naming_the_candidates() {
    let mut e = engine();
    let fen = set_up(
        &mut e,
        &Setup::fen(Variant::Russian, RUSSIAN_AMBIGUOUS, &[]),
    );
    let msg = expect_error(
        &mut e,
        &format!("position fen {RUSSIAN_AMBIGUOUS} moves h6:a7"),
        &fen,
    );
    assert!(
        msg.contains("ambiguous") && msg.contains("h6:f8:c5:a7") && msg.contains("h6:e3:a7"),
        "{msg}"
    );
    // Also when the FEN is new: the old position stays, not the new FEN without its moves.
    let other = set_up(&mut e, &Setup::start(Variant::Russian, &[]));
    expect_error(
        &mut e,
        &format!("position fen {RUSSIAN_AMBIGUOUS} moves h6xa7"),
        &other,
    );
}

#[test]
fn bad_go_parameters_are_errors_and_start_no_search() {
    let mut e = engine();
    let setup = Setup::start(Variant::Italian, &["21-17"]);
    let fen = set_up(&mut e, &setup);
    for (cmd, what) in [
        ("go depth", "depth"),
        ("go depth x", "depth"),
        ("go nodes", "nodes"),
        ("go movetime -5", "movetime"),
        ("go wtime 1000 btime", "btime"),
        ("go wtime 1000 btime 1000 winc", "winc"),
        ("go binc", "binc"),
        ("go movestogo", "movestogo"),
        ("go depth 5 fast", "fast"),
        ("go mate 3", "mate"),
    ] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains(what), "{cmd}: {msg}");
        // Rejected as a whole: no search was started, so no bestmove comes.
        e.silent_for_bestmove(Duration::from_millis(150));
    }
    // The engine still searches when asked properly.
    go(&mut e, &setup, "depth 4");
}

#[test]
fn a_line_that_is_not_utf8_is_an_unknown_command_not_the_end() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::English, &["11-15"]));
    e.send_bytes(b"fo\xffo");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "one error line\n{}", e.dump());
    assert!(
        lines[0].starts_with("info string error: unknown command 'fo"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), fen);
    // A bad byte inside an otherwise good command: the command is rejected, nothing else.
    e.send_bytes(b"position startpos moves 11-15 22-1\xff8");
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(e.fen(), fen);
    // Lines ended by CR LF are read like lines ended by LF.
    e.send_bytes(b"position startpos moves 11-15 22-18\r");
    assert!(e.sync().is_empty(), "{}", e.dump());
    assert_eq!(
        e.fen(),
        Setup::start(Variant::English, &["11-15", "22-18"])
            .library_fen()
            .unwrap()
    );
}

#[test]
fn bad_perft_depth_is_an_error() {
    let mut e = engine();
    let fen = set_up(&mut e, &Setup::start(Variant::Brazilian, &[]));
    for cmd in ["perft", "perft x", "perft -1", "perft 21"] {
        let msg = expect_error(&mut e, cmd, &fen);
        assert!(msg.contains("perft"), "{cmd}: {msg}");
    }
}

// ---------------------------------------------------------------------------------------------
// quit, end of input, stdout and stderr

#[test]
fn quit_exits_with_status_0() {
    let mut e = engine();
    assert!(e.sync().is_empty());
    e.send("quit");
    let status = e
        .wait_exit(Duration::from_secs(1))
        .expect("exits within 1 s");
    assert!(status.success(), "{status:?}");
    assert!(e.remaining().is_empty());
}

#[test]
fn quit_during_a_search_exits_with_status_0() {
    let mut e = engine();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("quit");
    let status = e
        .wait_exit(Duration::from_secs(1))
        .expect("exits within 1 s");
    assert!(status.success(), "{status:?}");
}

#[test]
fn end_of_input_exits_with_status_0() {
    let mut e = engine();
    assert!(e.sync().is_empty());
    e.close_stdin();
    let status = e
        .wait_exit(Duration::from_secs(1))
        .expect("exits within 1 s");
    assert!(status.success(), "{status:?}");
}

#[test]
fn end_of_input_during_go_infinite_exits_with_status_0() {
    let mut e = engine();
    assert!(e.ask("setoption name Variant value russian").is_empty());
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    let status = e
        .wait_exit(Duration::from_secs(1))
        .expect("exits within 1 s");
    assert!(status.success(), "{status:?}");
}

#[test]
fn logs_go_to_stderr_and_stdout_has_only_protocol_lines() {
    let dir = std::env::temp_dir().join(format!("damiera-protocol-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log_path = dir.join("stderr.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let mut e = EngineProcess::spawn_with(&[("RUST_LOG", "debug")], Stdio::from(log));
    // A session touching every command; every stdout line is checked as it arrives.
    e.send("uci");
    e.until("uciok");
    for cmd in [
        "setoption name Variant value brazilian",
        "ucinewgame",
        "position startpos moves c3-d4",
        "d",
        "perft 2",
        "frobnicate",
    ] {
        e.ask(cmd);
    }
    e.send("go depth 5");
    e.until("bestmove");
    e.send("go infinite");
    e.send("stop");
    e.until("bestmove");
    e.send("quit");
    assert!(e
        .wait_exit(Duration::from_secs(1))
        .expect("exits")
        .success());
    let stderr = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        stderr.contains("isready") && stderr.contains("perft 2"),
        "the debug log names the commands read: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// Strength levels (docs/protocol.md, "Strength levels")

/// The best moves of `game` (variant, then the moves played before each search) at `level`
/// with `seed`, in one engine process: one `go movetime 2000` per position (the level's node
/// budget ends each search long before), every search checked.
fn level_moves(variant: Variant, level: u32, seed: u64, plies: &[&[&str]]) -> Vec<(String, u64)> {
    let mut e = engine();
    assert!(e
        .ask(&format!("setoption name Level value {level}"))
        .is_empty());
    assert!(e
        .ask(&format!("setoption name Seed value {seed}"))
        .is_empty());
    let mut out = Vec::new();
    for moves in plies {
        let setup = Setup::start(variant, moves);
        set_up(&mut e, &setup);
        let (infos, best, _) = go(&mut e, &setup, "movetime 2000");
        out.push((best, infos.last().map_or(0, |i| i.nodes)));
    }
    out
}

/// A few English positions: the start and the Old Fourteenth's first moves.
const ENGLISH_LINE: [&[&str]; 4] = [
    &[],
    &["11-15"],
    &["11-15", "23-19", "8-11"],
    &["11-15", "23-19", "8-11", "22-17", "4-8"],
];

#[test]
fn a_level_plays_legal_moves_the_same_for_the_same_seed() {
    for level in [1, 6, 12] {
        let a = level_moves(Variant::English, level, 11, &ENGLISH_LINE);
        let b = level_moves(Variant::English, level, 11, &ENGLISH_LINE);
        assert_eq!(
            a, b,
            "level {level}: the same seed, the same moves and nodes"
        );
    }
    // Over several seeds a low level does not always play the same move from the start.
    let firsts: std::collections::BTreeSet<String> = (0..12)
        .map(|seed| {
            level_moves(Variant::English, 2, seed, &ENGLISH_LINE[..1])[0]
                .0
                .clone()
        })
        .collect();
    assert!(firsts.len() >= 2, "{firsts:?}");
}

#[test]
fn lower_levels_search_fewer_nodes_and_level_20_is_the_full_search() {
    let nodes = |level| level_moves(Variant::International, level, 1, &[&[]])[0].1;
    let (low, mid, high) = (nodes(2), nodes(9), nodes(17));
    assert!(low < mid && mid < high, "{low} {mid} {high}");
    // Level 20 is the full search: it uses its time (2 s) and searches far more.
    assert!(nodes(20) > 4 * high, "{}", nodes(20));
}

#[test]
fn level_0_plays_random_legal_moves() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let (best, _) = level_moves(Variant::Russian, 0, seed, &[&[]]).remove(0);
        seen.insert(best);
    }
    // Russian has 7 moves from the start; 16 draws see at least 3 of them.
    assert!(seen.len() >= 3, "{seen:?}");
}

#[test]
fn a_level_ponders_until_ponderhit_and_stops_at_once() {
    let mut e = engine();
    assert!(e.ask("setoption name Level value 5").is_empty());
    let setup = Setup::start(Variant::English, &["11-15", "23-19"]);
    set_up(&mut e, &setup);
    e.send("go ponder movetime 500");
    e.silent_for_bestmove(Duration::from_millis(400));
    let sent = e.send("ponderhit");
    let rest = e.until_within("bestmove", engine_io::HANG);
    assert!(rest.last().unwrap().at - sent < Duration::from_millis(500));
    e.send("go infinite");
    e.silent_for_bestmove(Duration::from_millis(300));
    let sent = e.send("stop");
    let rest = e.until_within("bestmove", engine_io::HANG);
    assert!(rest.last().unwrap().at - sent < STOP_LATENCY);
    let texts: Vec<String> = rest.into_iter().map(|l| l.text).collect();
    check_search(&setup, &texts);
}

#[test]
fn bad_level_and_seed_values_are_errors() {
    let mut e = engine();
    let fen = e.fen();
    for bad in ["21", "-1", "five", ""] {
        let msg = expect_error(&mut e, &format!("setoption name Level value {bad}"), &fen);
        assert!(msg.contains("Level"), "{msg}");
    }
    let msg = expect_error(&mut e, "setoption name Seed value 4294967296", &fen);
    assert!(msg.contains("Seed"), "{msg}");
}
