//! Italian Damone rules tests: one per rule and per precedence level, on small hand-built
//! positions whose legal moves are reasoned out in each test's comment. Rules: rules.md §D and
//! the project's rulings §I 1-5 (docs/rules.md, "Italian Damone").
//!
//! Squares are algebraic on the Italian board (h1 dark: a square is dark when its file letter
//! a=1..h=8 plus its rank is odd). White is South (Damone corner h1), Black is North (a8).
//! A White Pedine moves NW (forward), NE and SW (sideways); a Black Pedine SE (forward), NE
//! and SW. FEN prefixes: `K` Dama, `I` Damone, none Pedine.

use damiera::core::damone::{self, notation, DamoneWin, Position};
use damiera::core::movegen::Duplicates;
use damiera::{DrawRules, MoveList, Notation};

fn pos(fen: &str) -> Position {
    notation::parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves in short form (`from-to`, `fromxto`), sorted.
fn short(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut list = MoveList::new();
    damone::movegen::generate(&p, &mut list);
    let name = notation::square_name;
    let mut v: Vec<String> = list
        .iter()
        .map(|m| {
            let sep = if m.is_capture() { "x" } else { "-" };
            format!("{}{sep}{}", name(m.from), name(m.to))
        })
        .collect();
    v.sort();
    v
}

/// The legal moves with every landing square, sorted.
fn full(fen: &str) -> Vec<String> {
    let p = pos(fen);
    let mut list = MoveList::new();
    damone::movegen::generate(&p, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| notation::move_name(&p, m)).collect();
    v.sort();
    v
}

/// The FEN after the only legal move.
fn after_only_move(fen: &str) -> String {
    let p = pos(fen);
    let mut list = MoveList::new();
    damone::movegen::generate(&p, &mut list);
    assert_eq!(list.len(), 1, "{fen}: {list:?}", list = list.as_slice());
    notation::fen(&p.make(&list[0]))
}

fn s(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    v.sort();
    v
}

// ---- Movement ----

#[test]
fn damone_start_position_first_moves() {
    // perft.md §3.6: the eight first moves of South (White), who moves first (ruling I.1).
    assert_eq!(
        short(damone::START_FEN),
        s(&["h1-g2", "f1-g2", "h3-g2", "d1-c2", "e2-d3", "f3-e4", "g4-f5", "h5-g6"])
    );
}

#[test]
fn damone_pedine_moves_forward_and_sideways() {
    // pergioco: a White Pedine on e4 goes to d3, d5 or f5 (not f3, backward).
    assert_eq!(short("W:We4:B"), s(&["e4-d3", "e4-d5", "e4-f5"]));
    // A Black Pedine on d5 goes SE to e4 (forward), NE to e6 or SW to c4; not NW to c6.
    assert_eq!(short("B:W:Bd5"), s(&["d5-c4", "d5-e4", "d5-e6"]));
}

#[test]
fn damone_dama_and_damone_move_one_square_in_all_directions() {
    // Not flying (Winther): one square each way, four moves from e4.
    assert_eq!(short("W:WKe4:B"), s(&["e4-d3", "e4-d5", "e4-f3", "e4-f5"]));
    assert_eq!(short("W:WIe4:B"), s(&["e4-d3", "e4-d5", "e4-f3", "e4-f5"]));
}

// ---- Captures and ranks ----

#[test]
fn damone_pedine_captures_forward_and_sideways_not_backward() {
    // White e4: d3 is SW (sideways), captured to c2; f3 is SE (backward): not capturable.
    assert_eq!(short("W:We4:Bd3,f3"), s(&["e4xc2"]));
    // Black c4: d3 is SE (forward) -> e2; b5 is NW (backward) for Black: not capturable.
    assert_eq!(short("B:Wd3,b5:Bc4"), s(&["c4xe2"]));
}

#[test]
fn damone_rank_pedine_cannot_capture_dama() {
    // A Pedine takes only Pedines: next to a Dama or a Damone it simply has no capture, and
    // its quiet moves are legal (d5 is occupied).
    assert_eq!(short("W:We4:BKd5"), s(&["e4-d3", "e4-f5"]));
    assert_eq!(short("W:We4:BId5"), s(&["e4-d3", "e4-f5"]));
    assert_eq!(short("W:We4:Bd5"), s(&["e4xc6"]));
}

#[test]
fn damone_rank_dama_cannot_capture_damone() {
    // A Dama takes Damas and Pedines, never a Damone.
    assert_eq!(short("W:WKe4:BId5"), s(&["e4-d3", "e4-f3", "e4-f5"]));
    assert_eq!(short("W:WKe4:BKd5"), s(&["e4xc6"]));
    assert_eq!(short("W:WKe4:Bd5"), s(&["e4xc6"]));
    // Mid-capture too: after d1xb3 the Dama stands next to the Damone on c4 and stops.
    assert_eq!(full("W:WKd1:Bc2,Ic4"), s(&["d1xb3"]));
}

#[test]
fn damone_rank_damone_captures_every_rank() {
    assert_eq!(short("W:WIe4:BId5"), s(&["e4xc6"]));
    assert_eq!(short("W:WIe4:BKd5"), s(&["e4xc6"]));
    assert_eq!(short("W:WIe4:Bd5"), s(&["e4xc6"]));
}

#[test]
fn damone_capture_is_compulsory() {
    // The Damone on h1 could step to g2, but the Pedine's capture is compulsory.
    assert_eq!(short("W:WIh1,e4:Bd5"), s(&["e4xc6"]));
}

#[test]
fn damone_capture_continues() {
    // d1 takes c2 (NW) to b3, c4 (NE) to d5, c6 (NW) to b7: the sequence must go on.
    assert_eq!(full("W:Wd1:Bc2,c4,c6"), s(&["d1xb3xd5xb7"]));
}

#[test]
fn damone_capturing_piece_leaves_its_square() {
    // Ruling I.12: a Dama on e2 takes a ring of four (f3, f5, d5, d3) back to e2.
    assert_eq!(short("W:WKe2:Bd3,d5,f3,f5"), s(&["e2xe2"]));
}

// ---- Promotion ----

/// The legal moves with every landing square and whether they promote, sorted.
fn with_promotion(fen: &str) -> Vec<(String, bool)> {
    let p = pos(fen);
    let mut list = MoveList::new();
    damone::movegen::generate(&p, &mut list);
    let mut v: Vec<(String, bool)> = list
        .iter()
        .map(|m| (notation::move_name(&p, m), m.promotes))
        .collect();
    v.sort();
    v
}

fn sp(v: &[(&str, bool)]) -> Vec<(String, bool)> {
    let mut v: Vec<(String, bool)> = v.iter().map(|&(m, p)| (m.to_string(), p)).collect();
    v.sort();
    v
}

#[test]
fn damone_pedine_promotes_on_enemy_dama_squares() {
    // White b7: NW to a8 (the enemy Damone corner: no promotion), NE to c8 and SW to a6 (the
    // enemy Damas' start squares: promotion).
    assert_eq!(
        with_promotion("W:Wb7:B"),
        sp(&[("b7-a6", true), ("b7-a8", false), ("b7-c8", true)])
    );
    // Black g2: SW to f1 and NE to h3 promote; SE to h1 (White's Damone corner) does not.
    assert_eq!(
        with_promotion("B:W:Bg2"),
        sp(&[("g2-f1", true), ("g2-h1", false), ("g2-h3", true)])
    );
}

#[test]
fn damone_dama_promotes_on_enemy_damone_corner() {
    // A White Dama stepping onto a8 becomes a Damone; a Black Dama onto h1.
    let p = pos("W:WKb7:B");
    let mv = notation::parse_move(&p, "b7-a8").unwrap();
    assert!(mv.promotes);
    assert_eq!(notation::fen(&p.make(&mv)), "B:WIa8:B");
    let p = pos("B:W:BKg2");
    let mv = notation::parse_move(&p, "g2-h1").unwrap();
    assert!(mv.promotes);
    assert_eq!(notation::fen(&p.make(&mv)), "W:W:BIh1");
    // A Dama on f1 or c8 (not its promotion squares) stays a Dama.
    let p = pos("W:WKd7:B");
    let mv = notation::parse_move(&p, "d7-c8").unwrap();
    assert!(!mv.promotes);
}

#[test]
fn damone_promotion_by_capture_ends_move() {
    // Ruling I.2. e6 takes d7 and lands on c8, where it becomes a Dama; as a Dama it could
    // take b7 to a6, but the move ends on c8.
    assert_eq!(full("W:We6:Bd7,b7"), s(&["e6xc8"]));
    assert_eq!(after_only_move("W:We6:Bd7,b7"), "B:WKc8:Bb7");
    // The same on a6: c4xa6 promotes, and b7 (which the new Dama could take to c8) stays.
    assert_eq!(after_only_move("W:Wc4:Bb5,b7"), "B:WKa6:Bb7");
    // A Dama reaching a8 by a capture becomes a Damone (it could not go on from the corner).
    assert_eq!(after_only_move("W:WKc6:Bb7"), "B:WIa8:B");
}

#[test]
fn damone_dama_on_enemy_dama_square_keeps_capturing() {
    // Ruling I.2: c8 and a6 promote Pedines, not Damas, so a Dama goes on from there.
    assert_eq!(full("W:WKe6:Bd7,b7"), s(&["e6xc8xa6"]));
    assert_eq!(full("W:WKc4:Bb5,b7"), s(&["c4xa6xc8"]));
}

#[test]
fn damone_pedine_on_damone_corner_stays_pedine() {
    // Ruling I.2: a White Pedine reaching a8, by a step or by a capture, stays a Pedine, and
    // there it can never move again (its only neighbour, b7, is behind it).
    assert_eq!(after_only_move("W:Wc6:Bb7"), "B:Wa8:B");
    let stuck = pos("W:Wa8:Bh5");
    assert!(!damone::movegen::has_moves(&stuck));
    assert!(short("W:Wa8:Bb7").is_empty(), "a8 cannot capture backwards");
}

// ---- Precedence (ruling I.3: pieces, capturing rank, Damones, Damas) ----

#[test]
fn damone_precedence_1_most_pieces() {
    // The Pedine on d1 takes two (c2, c4); the Damone on h1 takes one (g2). Quantity first,
    // even against the higher-ranked capturing piece.
    assert_eq!(full("W:WIh1,d1:Bc2,c4,g2"), s(&["d1xb3xd5"]));
    // Without c4 both take one: the Damone wins on rank (level 2).
    assert_eq!(full("W:WIh1,d1:Bc2,g2"), s(&["h1xf3"]));
    // d1xb3xd5 (c2, c4) and d1xf3xd5 (e2, e4) take two, but the second goes on sideways (SW)
    // over c4 to b3: three pieces, the only legal move.
    assert_eq!(full("W:Wd1:Bc2,c4,e2,e4"), s(&["d1xf3xd5xb3"]));
}

#[test]
fn damone_precedence_2_capturing_rank() {
    // Each takes one Pedine: Pedine d1 (c2), Dama f1 (g2), Damone e4 (d5). Damone first.
    assert_eq!(short("W:Wd1,Kf1,Ie4:Bc2,g2,d5"), s(&["e4xc6"]));
    assert_eq!(short("W:Wd1,Kf1:Bc2,g2"), s(&["f1xh3"]));
    // Level 2 comes before the captured ranks: the Damone taking a Pedine beats the Dama
    // taking a Dama.
    assert_eq!(short("W:WKf1,Ie4:BKg2,d5"), s(&["e4xc6"]));
}

#[test]
fn damone_precedence_3_damones_captured() {
    // The Damone on e4 takes two either way: d5 (Damone) then b7 (Pedine) to a8, or f5 (Dama)
    // then f7 (Dama) to e8. The line with the Damone wins, though the other takes more Damas
    // (the highest-ranked captured piece first, the rule text's (iii)).
    assert_eq!(full("W:WIe4:BId5,b7,Kf5,Kf7"), s(&["e4xc6xa8"]));
    // One each: the Damone beats the Dama.
    assert_eq!(full("W:WIe4:BId5,Kf5"), s(&["e4xc6"]));
}

#[test]
fn damone_precedence_4_damas_captured() {
    // The Dama on e4 takes one either way: d5 (Dama) or f5 (Pedine). The Dama wins.
    assert_eq!(full("W:WKe4:BKd5,f5"), s(&["e4xc6"]));
    // A Damone taking a Dama beats a Damone taking a Pedine.
    assert_eq!(full("W:WIe4:BKd5,f5"), s(&["e4xc6"]));
}

#[test]
fn damone_precedence_5_free_choice() {
    // Ties on the whole key are all legal: two Pedines, one each way.
    assert_eq!(full("W:WKe4:Bd5,f5"), s(&["e4xc6", "e4xg6"]));
}

// ---- Duplicates (ruling I.11) ----

#[test]
fn damone_duplicate_captures_counted_once() {
    // The ring e2 -> g4 -> e6 -> c4 -> e2 can be run either way round: one move under Drop,
    // two paths under Keep, with a name each.
    for fen in ["W:WKe2:Bd3,d5,f3,f5", "W:WIe2:Bd3,d5,f3,f5"] {
        let p = pos(fen);
        assert_eq!(damone::movegen::count(&p, Duplicates::Drop), 1);
        assert_eq!(damone::movegen::count(&p, Duplicates::Keep), 2);
        let mut list = MoveList::new();
        damone::movegen::generate_with(&p, &mut list, Duplicates::Keep);
        let mut names: Vec<String> = (0..2)
            .map(|i| damone::Damone::move_name_nth(&p, &list[i], i))
            .collect();
        names.sort();
        assert_eq!(names, s(&["e2xc4xe6xg4xe2", "e2xg4xe6xc4xe2"]));
    }
}

// ---- End of game and draws ----

#[test]
fn damone_no_legal_move_loses() {
    // Ruling I.4: a side with no legal move (all blocked, or no pieces) has lost.
    let blocked = pos("W:Wa8:BIh1");
    assert!(!damone::movegen::has_moves(&blocked));
    assert!(damone::is_lost(&blocked, DamoneWin::All));
    let none = pos("W:W:BIh1");
    assert!(damone::is_lost(&none, DamoneWin::All));
    // With the option DamoneWin = damones, losing every Damone loses too.
    let no_damone = pos("W:WKe4:BIa8");
    assert!(!damone::is_lost(&no_damone, DamoneWin::All));
    assert!(damone::is_lost(&no_damone, DamoneWin::Damones));
    assert!(!damone::is_lost(
        &pos(damone::START_FEN),
        DamoneWin::Damones
    ));
}

#[test]
fn damone_draw_counter_ruling_i5() {
    // The counter counts Dama and Damone moves; a Pedine move, a capture or a promotion
    // resets it. 80 plies draw.
    let mut p = pos("W:WIh1,Ke4,d3:BIa8,Kd7");
    for (mv, plies) in [
        ("e4-f5", 1),
        ("d7-e8", 2),
        ("h1-g2", 3),
        ("a8-b7", 4),
        ("d3-c4", 0),
    ] {
        let m = notation::parse_move(&p, mv).unwrap();
        // None of these moves bounds repetitions: even the Pedine move d3-c4, which resets
        // the counter, can be undone sideways (c4-d3).
        assert!(!damone::Damone::is_irreversible(&p, &m), "{mv}");
        p = p.make(&m);
        assert_eq!(p.quiet_plies(), plies, "{mv}");
    }
    p.set_quiet_plies(79);
    assert!(!damone::Damone::draw_by_counter(&p));
    let m = notation::parse_move(&p, "e8-f7").unwrap();
    assert!(damone::Damone::draw_by_counter(&p.make(&m)));
    // A Dama promoting to a Damone resets it.
    let mut q = pos("W:WKb7:BIh1");
    q.set_quiet_plies(50);
    let m = notation::parse_move(&q, "b7-a8").unwrap();
    assert_eq!(q.make(&m).quiet_plies(), 0);
    // A promotion can never be undone: earlier positions cannot recur.
    assert!(damone::Damone::is_irreversible(&q, &m));
}

#[test]
fn damone_ruling_i4_damones_win_option() {
    // Ruling I.4: by default a side loses only when it has no legal move; with the option
    // `DamoneWin = damones` a side to move that has lost all its Damones has lost. White here
    // has a Pedine and a Dama but no Damone: it has moves (f1-e2, f1-g2, h1-g2 ...) under the
    // default rule and none under the option.
    use damiera::core::damone::{Damone, DamoneDraughts};
    use damiera::{MoveList, Notation, Play};
    let fen = "W:Wh1,Kf1:BIa8,b5";
    let pos = <Damone as Notation>::parse_fen(fen).unwrap();
    assert!(<Damone as Play>::has_moves(&pos));
    let mut list = MoveList::new();
    <DamoneDraughts<true> as Play>::generate(&pos, &mut list, damiera::Duplicates::Drop);
    assert!(list.is_empty());
    assert!(!<DamoneDraughts<true> as Play>::has_moves(&pos));
    // Black still has its Damone: the option changes nothing for it.
    let black = <Damone as Notation>::parse_fen("B:Wh1,Kf1:BIa8,b5").unwrap();
    assert!(<DamoneDraughts<true> as Play>::has_moves(&black));
}
