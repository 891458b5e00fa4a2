//! The engine's side of the endgame databases (docs/egdb.md, "Probing in the engine"): the
//! `EgdbPath` option and its errors, probing in the search (`tbhits`, database scores, moves
//! that keep the win), `analyse --egdb`, the match referee's adjudication and `bench` without
//! databases. Every database is English up to 3 pieces (Antidraughts and Frisian in one
//! test), built in a temporary directory.

mod egdb_common;
mod engine_io;
use egdb_common::build_all;

use damiera::core::notation::fen::parse_fen;
use damiera::core::variant_position::VariantPosition;
use damiera::egdb::{Egdb, Wld};
use damiera::engine::search::DB_BOUND;
use damiera::engine::{Engine, DEFAULT_CONTEMPT_CM, MAX_EGDB_PIECES};
use damiera::tools::arena::{egdb_adjudication, GameResult};
use damiera::{English, Play, Variant};
use engine_io::{parse_info, EngineProcess, Score};
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

/// Two White kings against one Black king, White to move: a database win.
const WON: &str = "W:WK10,K14:BK27";

#[test]
fn a_bad_egdb_path_is_one_line_and_the_engine_keeps_working() {
    let mut e = EngineProcess::spawn();
    let lines = e.ask("setoption name EgdbPath value /nonexistent/egdb");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: option EgdbPath: ")
            && lines[0].contains("/nonexistent/egdb"),
        "{lines:?}"
    );
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    // Damone has no databases: a clear error from the library.
    let mut engine = Engine::new(Variant::Damone, 1);
    let err = engine
        .set_egdb(Some(Path::new("/tmp")), MAX_EGDB_PIECES)
        .unwrap_err();
    assert!(err.contains("Damone"), "{err}");
}

/// An engine process with the English tables to 3 pieces, built in the returned directory
/// (kept alive by the caller), loaded by `EgdbPath` without a word.
fn engine_with_tables() -> (tempfile::TempDir, EngineProcess) {
    let tmp = tempfile::tempdir().unwrap();
    build_all::<English>(tmp.path(), 3);
    let mut e = EngineProcess::spawn();
    let root = tmp.path().to_str().unwrap();
    let lines = e.ask(&format!("setoption name EgdbPath value {root}"));
    assert!(lines.is_empty(), "{lines:?}");
    (tmp, e)
}

#[test]
fn the_search_probes_the_database_and_keeps_the_win() {
    let (tmp, mut e) = engine_with_tables();
    let lines = e.ask(&format!("position fen {WON}"));
    assert!(lines.is_empty(), "{lines:?}");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let infos: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| parse_info(l).unwrap())
        .collect();
    let last = infos.last().expect("an info line");
    assert!(last.tbhits > 0, "{lines:?}");
    match last.score {
        Score::Cp(c) => assert!(c >= DB_BOUND, "{lines:?}"),
        s => panic!("a database win is a cp score, not {s:?}"),
    }
    let best = lines.last().unwrap().split(' ').nth(1).unwrap().to_string();
    // The move keeps the win: the database gives the opponent a loss after it.
    let db = Egdb::open(tmp.path(), Variant::English, 3).unwrap();
    let pos = parse_fen::<English>(WON).unwrap();
    assert_eq!(db.probe(&pos).unwrap().value, Wld::Win);
    let mv = <English as damiera::Notation>::parse_move(&pos, &best).unwrap();
    let after = English::make(&pos, &mv);
    assert_eq!(db.lookup(&after).unwrap().value, Wld::Loss, "{best}");
    // Unloaded by an empty value: no more hits.
    assert!(e.ask("setoption name EgdbPath value").is_empty());
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
}

/// Antidraughts and Frisian read their own tables (the side without a move wins; kings only):
/// `analyse --egdb` states the stored value of a quiet position, and a search of it probes.
/// Breakthrough, where a promotion ends the game, has none: one line.
#[test]
fn antidraughts_and_frisian_analyse_with_their_tables() {
    fn check<R: damiera::Rules>(fen: &str) {
        let tmp = tempfile::tempdir().unwrap();
        build_all::<R>(tmp.path(), 3);
        let db = Egdb::open(tmp.path(), R::VARIANT, 3).unwrap();
        let pos = parse_fen::<R>(fen).unwrap();
        let value = db
            .probe(&pos)
            .expect("a quiet position the tables hold")
            .value;
        let out = Command::new(BIN)
            .args(["analyse", "-v", R::NAME, "-f", fen, "-d", "4", "--egdb"])
            .arg(tmp.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(
            text.contains(&format!("db {}", value.name())),
            "{}: {text}",
            R::NAME
        );
    }
    // Antidraughts: two White men against a Black king. Frisian: two kings against one.
    check::<damiera::core::rules::Antidraughts>("W:W45,47:BK3");
    check::<damiera::core::rules::Frisian>("W:WK10,K14:BK27");
    let mut engine = Engine::new(Variant::Breakthrough, 1);
    let err = engine
        .set_egdb(Some(Path::new("/tmp")), MAX_EGDB_PIECES)
        .unwrap_err();
    assert!(
        err.contains("breakthrough has no endgame databases"),
        "{err}"
    );
}

#[test]
fn analyse_says_db_win() {
    let tmp = tempfile::tempdir().unwrap();
    build_all::<English>(tmp.path(), 3);
    let out = Command::new(BIN)
        .args(["analyse", "-v", "english", "-f", WON, "-d", "4", "--egdb"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("db win in "), "{text}");
    // Without the option nothing is said of databases.
    let out = Command::new(BIN)
        .args(["analyse", "-v", "english", "-f", WON, "-d", "4"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("db "));
}

#[test]
fn the_referee_adjudicates_positions_the_database_holds() {
    let tmp = tempfile::tempdir().unwrap();
    build_all::<English>(tmp.path(), 3);
    let db = Egdb::open(tmp.path(), Variant::English, 3).unwrap();
    let pos = |fen: &str| VariantPosition::new(Variant::English, Some(fen)).unwrap();
    let (r, note) = egdb_adjudication(&db, &pos(WON)).expect("held");
    assert_eq!(r, GameResult::WhiteWin, "{note}");
    assert!(note.contains("endgame database"), "{note}");
    // One king each: a draw.
    let (r, _) = egdb_adjudication(&db, &pos("W:WK1:BK32")).expect("held");
    assert_eq!(r, GameResult::Draw);
    // A capture pending, or more pieces than the tables: the game goes on.
    assert!(egdb_adjudication(&db, &pos("W:WK18:BK14,K32")).is_none());
    assert!(egdb_adjudication(&db, &pos("W:WK10,K14:BK27,K32")).is_none());

    // The match tool from a database position: both games adjudicated at once.
    let openings = tmp.path().join("openings.txt");
    std::fs::write(&openings, format!("{WON}\n")).unwrap();
    let pdn = tmp.path().join("out.pdn");
    let out = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "english",
            "--engine",
            BIN,
            "--engine",
            BIN,
        ])
        .args(["--name", "a", "--name", "b", "--games", "2", "--depth", "2"])
        .arg("--openings")
        .arg(&openings)
        .arg("--pdn")
        .arg(&pdn)
        .arg("--egdb")
        .arg(tmp.path())
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(
        pdn.matches("[Termination \"adjudicated by the endgame database\"]")
            .count(),
        2,
        "{pdn}"
    );
}

/// Without `--egdb` nothing is probed: `bench -d 9` gives the signature of the search and the
/// built-in weights (docs/egdb.md lists it; it changes with any change to either, e.g. 774,967
/// since Italian Damone's network, 661,166 before).
#[test]
fn bench_without_databases_keeps_its_node_count() {
    let out = Command::new(BIN)
        .args(["bench", "-d", "9"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Total nodes: 774967"), "{text}");
}

/// `damiera egdb convert` plays database-won positions out under the full rules: with the
/// databases the engine wins every one of a small sample (the real run, 200 positions of 4-5
/// pieces at 100 ms a move, is a benchmark: docs/egdb.md).
#[test]
fn convert_wins_the_won_positions() {
    let tmp = tempfile::tempdir().unwrap();
    build_all::<English>(tmp.path(), 3);
    let out = Command::new(BIN)
        .args([
            "egdb",
            "convert",
            "-v",
            "english",
            "-p",
            "3",
            "--positions",
            "6",
        ])
        .args(["--movetime", "20", "--each", "--dir"])
        .arg(tmp.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("White wins").count(), 6, "{text}");
    assert!(
        text.contains("winning side: 6 won, 0 drawn, 0 lost of 6"),
        "{text}"
    );
}

/// `Contempt` (docs/protocol.md): a draw scores `-Contempt` for the engine. One king each
/// (`W:WK1:BK32`, no capture pending) is a database draw after every move, so the root's
/// score is exactly the draw's value: the default contempt, then 0, then 40.
#[test]
fn contempt_scores_a_database_draw_below_level() {
    let (_tmp, mut e) = engine_with_tables();
    assert!(e.ask("position fen W:WK1:BK32").is_empty());
    let root_score = |e: &mut EngineProcess| {
        e.send("go depth 4");
        let lines = e.until("bestmove");
        let last = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| parse_info(l).unwrap())
            .next_back()
            .expect("an info line");
        assert!(last.tbhits > 0, "{lines:?}");
        last.score
    };
    assert_eq!(root_score(&mut e), Score::Cp(-DEFAULT_CONTEMPT_CM));
    assert!(e.ask("setoption name Contempt value 0").is_empty());
    assert_eq!(root_score(&mut e), Score::Cp(0));
    assert!(e.ask("setoption name Contempt value 40").is_empty());
    assert_eq!(root_score(&mut e), Score::Cp(-40));
    // Out of range: one error line, the contempt kept.
    let lines = e.ask("setoption name Contempt value 101");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: option Contempt needs a number from -100"),
        "{lines:?}"
    );
    assert_eq!(root_score(&mut e), Score::Cp(-40));
    // A new game of the variant keeps it.
    assert!(e.ask("setoption name Variant value english").is_empty());
    assert!(e.ask("position fen W:WK1:BK32").is_empty());
    assert_eq!(root_score(&mut e), Score::Cp(-40));
}
