//! One-ply rules tests: the legal moves of small positions, per variant and per rule article.
//! Positions and expected moves (collected in docs/rules.md) come from
//! the FID 2008 rulebook examples (via DCTL
//! test/src/core/model/italian.cpp), DCTL's regressions, pydraughts issue #28 and hand
//! analysis; each test names its source. Moves are written `fromxto` / `from-to` (short form)
//! or with every landing square (full form), in the variant's notation.

use damiera::movegen::{self, Duplicates};
use damiera::{notation, Brazilian, English, Italian, MoveList, Rules, Russian};

/// The legal moves in short form (`from-to`, `fromxto`), sorted.
fn short<R: Rules>(fen: &str) -> Vec<String> {
    let pos = notation::parse_fen::<R>(fen).expect("test FEN parses");
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    let name = notation::square_name::<R>;
    let mut v: Vec<String> = list
        .iter()
        .map(|m| {
            format!(
                "{}{}{}",
                name(m.from),
                if m.is_capture() { "x" } else { "-" },
                name(m.to)
            )
        })
        .collect();
    v.sort();
    v
}

/// The legal moves with every landing square, sorted.
fn full<R: Rules>(fen: &str) -> Vec<String> {
    let pos = notation::parse_fen::<R>(fen).expect("test FEN parses");
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| notation::move_name(&pos, m)).collect();
    v.sort();
    v
}

fn counts<R: Rules>(fen: &str) -> (u64, u64) {
    let pos = notation::parse_fen::<R>(fen).expect("test FEN parses");
    (
        movegen::count(&pos, Duplicates::Drop),
        movegen::count(&pos, Duplicates::Keep),
    )
}

fn s(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    v.sort();
    v
}

// ---- Italian (FID numbering; FID 2008 examples via DCTL italian.cpp ----

#[test]
fn italian_5_3_man_captures_forward() {
    assert_eq!(short::<Italian>("W:W30:B27"), s(&["30x23"]));
    // Men only forward: the man on 24 takes 20, not 28 behind it.
    assert_eq!(short::<Italian>("W:W24:B20,28"), s(&["24x15"]));
}

#[test]
fn italian_4_7_king_captures_both_ways() {
    assert_eq!(short::<Italian>("W:WK24:B20,28"), s(&["24x15", "24x31"]));
}

#[test]
fn italian_5_3b_man_cannot_capture_king() {
    // DCTL regressions: the man simply has no capture.
    assert_eq!(short::<Italian>("W:W30:BK26"), s(&["30-27"]));
    assert_eq!(short::<Italian>("W:W32:BK28"), Vec::<String>::new());
}

#[test]
fn italian_5_9_capture_continues() {
    assert_eq!(short::<Italian>("W:W31:B12,20,28"), s(&["31x8"]));
}

#[test]
fn italian_6_6_most_pieces() {
    assert_eq!(short::<Italian>("W:WK27:B5,6,13,15,21,23"), s(&["27x25"]));
    assert_eq!(short::<Italian>("W:WK21,31:B10,18,27"), s(&["31x6"]));
}

#[test]
fn italian_6_7_capture_with_king() {
    assert_eq!(short::<Italian>("W:WK23,31:B19,26,27"), s(&["23x21"]));
}

#[test]
fn italian_6_8_most_kings() {
    assert_eq!(short::<Italian>("W:WK23:B19,K28"), s(&["23x32"]));
}

#[test]
fn italian_6_9_kings_earliest() {
    assert_eq!(
        short::<Italian>("W:WK30:B10,12,18,K20,K26,27"),
        s(&["30x5"])
    );
}

#[test]
fn italian_6_9_alioto_two_kings() {
    // Alioto Domenico to Ed Gilbert: K26,K18,m10 beats K27,m20,K12 (pydraughts also allows
    // 30x7, a known deviation, docs/rules.md).
    assert_eq!(
        short::<Italian>("W:WK30:B10,K12,K18,20,K26,K27"),
        s(&["30x5"])
    );
}

#[test]
fn italian_6_10_free_choice() {
    assert_eq!(
        short::<Italian>("W:WK22:B18,19,27"),
        s(&["22x13", "22x15", "22x31"])
    );
    assert_eq!(
        short::<Italian>("W:WK31:B18,20,K27,K28"),
        s(&["31x13", "31x15"])
    );
}

#[test]
fn italian_promotion_by_capture_ends_move() {
    // DCTL cross-variant position W:W11:B6,7: the mirrored board gives 11x2 and 11x4, both crowning.
    assert_eq!(short::<Italian>("W:W11:B6,7"), s(&["11x2", "11x4"]));
}

// ---- English (WCDF) ----

#[test]
fn english_promotion_ends_move() {
    // WCDF: crowned "and the move terminates": the new king does not go on to take 27.
    assert_eq!(short::<English>("B:W26,27:B22"), s(&["22x31"]));
    assert_eq!(short::<English>("W:W11:B6,7"), s(&["11x2"]));
}

#[test]
fn english_1_20_free_choice_completed() {
    // 10x17 (one piece) and 10x19x26 (two) are both legal; neither may stop early.
    assert_eq!(
        full::<English>("B:W14,15,23:B10,6"),
        s(&["10x17", "10x19x26"])
    );
}

#[test]
fn english_men_capture_kings() {
    assert_eq!(short::<English>("W:W30:BK26"), s(&["30x23"]));
}

#[test]
fn english_king_loop_duplicates() {
    // DCTL: the king goes round the four men either way: keep 2, drop 1.
    assert_eq!(counts::<English>("W:WK6:B9,10,17,18"), (1, 2));
}

// ---- Russian (kodeks 2004, pydraughts #28) ----

#[test]
fn russian_1_5_15_promotion_in_passing_continues() {
    // b6:d8 crowns, and the new king must go on over f6.
    assert_eq!(
        full::<Russian>("W:Wb6:Bc7,f6"),
        s(&["b6:d8:g5", "b6:d8:h4"])
    );
    // DCTL position W:W11:B6,7 in algebraic: f6:d8 crowns, then b6 or a5 as a king.
    assert_eq!(
        full::<Russian>("W:Wf6:Bc7,e7"),
        s(&["f6:d8:a5", "f6:d8:b6"])
    );
    let pos = notation::parse_fen::<Russian>("W:Wf6:Bc7,e7").unwrap();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    assert!(list.iter().all(|m| m.promotes), "both moves end as a king");
}

#[test]
fn russian_pydraughts_issue_28() {
    // One legal move: crowned on f8, the king must land on b4 to go on over d2.
    assert_eq!(full::<Russian>("W:Wh6:Bg7,c5,d2"), s(&["h6:f8:b4:e1"]));
}

#[test]
fn russian_1_5_3_free_choice() {
    assert_eq!(
        full::<Russian>("W:Wa3,e3:Bb4,d6,f4"),
        s(&["a3:c5:e7", "e3:g5"])
    );
}

#[test]
fn russian_king_must_land_where_capture_continues() {
    assert_eq!(
        full::<Russian>("W:WKa1:Bc3,f4"),
        s(&["a1:e5:g3", "a1:e5:h2"])
    );
}

#[test]
fn russian_flying_king_two_on_a_line() {
    // DCTL position W:WK29:B22,11: a1 over c3 and f6 to g7 or h8 (drop 2).
    assert_eq!(short::<Russian>("W:WKa1:Bc3,f6"), s(&["a1xg7", "a1xh8"]));
}

#[test]
fn russian_ring_duplicates() {
    // DCTL position W:W6:B9,10,17,18 and W:WK6:...: man loop drop 1, king loop drop 3.
    assert_eq!(counts::<Russian>("W:Wc7:Bb6,d6,b4,d4").0, 1);
    assert_eq!(counts::<Russian>("W:Wc7:Bb6,d6,b4,d4").1, 2);
    assert_eq!(counts::<Russian>("W:WKc7:Bb6,d6,b4,d4").0, 3);
}

// ---- Brazilian (CBD) ----

#[test]
fn brazilian_13_no_promotion_in_passing() {
    // The man crosses d8 and ends on f6 still a man.
    assert_eq!(full::<Brazilian>("W:Wb6:Bc7,e7"), s(&["b6xd8xf6"]));
    let pos = notation::parse_fen::<Brazilian>("W:Wb6:Bc7,e7").unwrap();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    assert!(!list[0].promotes);
    // DCTL position W:W11:B6,7 in algebraic: only f6xd8xb6.
    assert_eq!(full::<Brazilian>("W:Wf6:Bc7,e7"), s(&["f6xd8xb6"]));
}

#[test]
fn brazilian_12_majority() {
    // The Russian free-choice position: only the two-piece capture is allowed here.
    assert_eq!(full::<Brazilian>("W:Wa3,e3:Bb4,d6,f4"), s(&["a3xc5xe7"]));
}

#[test]
fn brazilian_identical_captures_counted_once() {
    // CBD identical captures (pydraughts lists 2): a man round a ring of four, either way: 2 sequences, 1 move.
    assert_eq!(counts::<Brazilian>("W:Wc3:Bd4,f4,f2,d2"), (1, 2));
    assert_eq!(short::<Brazilian>("W:Wc3:Bd4,f4,f2,d2"), s(&["c3xc3"]));
    assert_eq!(counts::<Brazilian>("W:WKc7:Bb6,d6,b4,d4").0, 3);
}

#[test]
fn brazilian_flying_king_two_on_a_line() {
    assert_eq!(short::<Brazilian>("W:WKa1:Bc3,f6"), s(&["a1xg7", "a1xh8"]));
}
