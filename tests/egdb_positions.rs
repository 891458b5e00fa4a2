//! Known endgame results from the checkers literature, checked against damiera's own English
//! databases (docs/egdb.md). Each position is copied from its source, named beside it; the
//! values come from the retrograde builder, and the expected results from the books.

use damiera::egdb::build::{build_unit, units};
use damiera::egdb::{variant_dir, Wld};
use damiera::{English, Rules, Variant};
use std::fs;

mod egdb_common;
use egdb_common::{build_all, value_of};

/// Edward Lasker, "Chess and Checkers: The Way to Mastership" (1918), part II, "Elementary
/// tactics", diagram 88: a king on 32 against a king on 26. "White wins by playing 32-27. With
/// this move White takes the opposition"; "if it had been Black's move ..., he would have gained
/// the opposition by 26-31 and White would have been compelled ... to draw."
///
/// Diagram 93 ("The First Position", same book): White kings on 19 and 23, a black king on 28
/// and a black man on 12. "White to Move and Win"; "If Black has the move the ending is a
/// draw."
///
/// The American Checker Federation's "Standard Positions" (acfcheckers.com, "Winning 1st
/// Position") give First Position with White's second king still a man, on 20, and White's
/// first king on 15 (its moves: 15-19, then 20-16-11-7-3 to crown): White wins.
///
/// The Checker Maven (Bob Newell, 2017-04-08, "Without", from Dr. Call's midget problems, the
/// line checked with the KingsRow engine): `B:W22,K5:BK15,K6`, "Black to Play and Win", a First
/// Position won without the move.
#[test]
fn lasker_opposition_and_first_position() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<English>(tmp.path(), 4);
    let v = |fen| value_of::<English>(tmp.path(), fen).value;
    assert_eq!(v("W:WK32:BK26"), Wld::Win, "Lasker 88, White to move");
    assert_eq!(v("B:WK32:BK26"), Wld::Draw, "Lasker 88, Black to move");
    assert_eq!(
        v("W:WK19,K23:BK28,12"),
        Wld::Win,
        "Lasker 93, White to move"
    );
    assert_eq!(
        v("B:WK19,K23:BK28,12"),
        Wld::Draw,
        "Lasker 93, Black to move"
    );
    assert_eq!(v("W:WK15,20:BK28,12"), Wld::Win, "ACF first position");
    assert_eq!(v("B:W22,K5:BK15,K6"), Wld::Win, "first position without");
}

/// Three kings against two win whoever is to move: The Checker Maven (Bob Newell, 2018-06-16),
/// `W:WK22,K23,K24:BK31,K32`, "Either to Play, White to Win" (the two kings in the double
/// corner). The win takes the exchange of a king that turns it into First Position's two kings
/// against one; the distance is to that first capture.
#[test]
fn three_kings_beat_two_in_the_double_corner() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = variant_dir(tmp.path(), Variant::English);
    fs::create_dir_all(&dir).expect("dir");
    // Only the kings-only tables: their conversions are captures into kings-only tables.
    for u in units::<English>(5) {
        if u.iter().all(|m| m.wm + m.bm == 0) {
            build_unit::<English>(&dir, &u, 2, &mut |_| {}).expect("unit");
        }
    }
    for fen in ["W:WK22,K23,K24:BK31,K32", "B:WK22,K23,K24:BK31,K32"] {
        let p = value_of::<English>(tmp.path(), fen);
        let want = if fen.starts_with('W') {
            Wld::Win
        } else {
            Wld::Loss
        };
        assert_eq!(p.value, want, "{fen}: {p:?}");
        // Within the 80-ply no-progress rule, with room to spare.
        assert!(
            p.distance.expect("distance") < u16::from(English::DRAW_PLIES),
            "{fen}: {p:?}"
        );
    }
}

/// Six-piece settings from Ben Boland's "Famous Positions in the Game of Checkers", as The
/// Checker Maven (Bob Newell) gives them, checked against the English 6-piece databases
/// (`damiera egdb build -v english -p 6 --dir DIR`, about an hour and 0.8 GB: docs/egdb.md),
/// which are too large to build in the test run. Run with
/// `DAMIERA_EGDB_DIR=DIR cargo test --release --test egdb_positions -- --ignored`.
///
/// - J. Sturges ("Sturges the Great", 2007-07-28): `W:WK19,K22,30:B12,21,K27`, White to play
///   and win.
/// - W. Strickland ("Negative Second Position"): `B:WK28,13,12:BK15,5,3`, Black to play and
///   win.
/// - F. Allen, "Leeds Express" 1866 ("A Plethora of Names"): `B:W17,12,K8:BK15,K9,3`, Black to
///   play and win.
#[test]
#[ignore = "needs the English 6-piece databases in DAMIERA_EGDB_DIR"]
fn six_piece_settings_from_famous_positions() {
    let root = std::env::var("DAMIERA_EGDB_DIR")
        .expect("DAMIERA_EGDB_DIR: a directory holding english/ built to 6 pieces");
    let db = damiera::egdb::Egdb::open(std::path::Path::new(&root), Variant::English, 6)
        .expect("the English 6-piece databases");
    for fen in [
        "W:WK19,K22,30:B12,21,K27",
        "B:WK28,13,12:BK15,5,3",
        "B:W17,12,K8:BK15,K9,3",
    ] {
        let pos = damiera::core::notation::fen::parse_fen::<English>(fen).expect("fen");
        let probe = db
            .probe(&pos)
            .unwrap_or_else(|| panic!("{fen}: not in the databases"));
        assert_eq!(probe.value, Wld::Win, "{fen}: {probe:?}");
    }
}
