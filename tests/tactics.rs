//! Tactics: positions with a known winning shot, per variant, that the engine must solve at a
//! stated depth. Three kinds are mixed: a sacrifice that wins material (a "shot", "tiro",
//! "удар"), a forced promotion, and a known won ending.
//!
//! Each test gives the FEN, the expected move, the depth, and what the search must report
//! besides the move: a forced win (`Score::Win(p)` with `p` at most the stated plies) or a
//! material gain (at least the stated centi-men). Every position names its source: a
//! published problem, or a hand analysis written out line by line in the comment. No proof
//! relies on the engine. "Only capture" and "only move" in the analyses are the whole legal
//! move list of that position (captures are compulsory in all four variants); they were
//! checked against `damiera perft --divide`.
//!
//! Square names: English and Italian use numbers (English 1 = b8 ... 32 = g1, Black on 1-12
//! moving first; Italian FID 1 = a8 ... 32 = h1, White on 21-32), Brazilian and Russian use
//! algebraic squares with a1 dark (docs/rules.md). Squares are given both ways where it helps.
//!
//! Run in release: `cargo test --release --test tactics` (a few seconds; the deepest search,
//! `english_mindbender_star_move`, is depth 18).

use damiera::core::variant::Variant;
use damiera::engine::search::Limits;
use damiera::engine::{Depth, Engine, Event, GoRequest, MoveForm, Score};
use std::sync::mpsc;

/// What the search must report for the expected move, besides the move itself.
#[derive(Copy, Clone, Debug)]
enum Expect {
    /// A forced win, `Score::Win(p)`, with `p` at most this many plies.
    WinWithin(u32),
    /// At least this many centi-men for the side to move, or a win (a material gain).
    AtLeast(i32),
    /// Only the move is checked.
    MoveOnly,
}

/// A completed iteration: depth, score and principal variation.
type Iteration = (u32, Score, Vec<String>);

/// The engine, its best move and its last completed iteration after searching `fen` to `depth`.
fn search(variant: Variant, fen: &str, depth: u32) -> (Engine, Option<String>, Option<Iteration>) {
    // The thresholds below are in the hand-set evaluation's centi-men (a man = 100, positional
    // terms small): these tests check the search, so they search with that evaluation. The
    // learned English weights score these positions differently (docs/training.md).
    let mut engine = Engine::new(variant, 16);
    engine
        .set_eval_file(damiera::engine::eval::HAND_SET)
        .expect("hand-set evaluation");
    engine
        .set_position(Some(fen), &[])
        .unwrap_or_else(|e| panic!("{variant:?} {fen}: bad FEN: {e}"));
    let (tx, rx) = mpsc::channel();
    engine.go(
        GoRequest::new(
            Limits {
                depth: Some(Depth(depth)),
                ..Default::default()
            },
            MoveForm::Native,
        ),
        Box::new(move |ev| {
            let _ = tx.send(ev);
        }),
    );
    let mut last = None;
    let mut best = None;
    for ev in rx {
        match ev {
            Event::Info {
                depth, score, pv, ..
            } => last = Some((depth.0, score, pv)),
            Event::BestMove { best: b, .. } => {
                best = b;
                break;
            }
            _ => {}
        }
    }
    engine.wait();
    (engine, best, last)
}

/// Searches `fen` to `depth` and checks the best move is `expected` (any accepted notation,
/// compared after conversion to the engine's native name) and the score meets `expect`.
fn solve(variant: Variant, fen: &str, expected: &str, depth: u32, expect: Expect) {
    let (engine, best, last) = search(variant, fen, depth);
    let want = engine.move_name(expected).unwrap_or_else(|e| {
        panic!("{variant:?} {fen}: expected move {expected} is not legal: {e}")
    });
    let (d, score, pv) = last.expect("at least one completed iteration");
    let line = pv.join(" ");
    assert_eq!(
        best.as_deref(),
        Some(want.as_str()),
        "{variant:?} {fen}: depth {depth}: best move {best:?}, expected {want}; last iteration depth {d} score {score:?} pv {line}"
    );
    match expect {
        Expect::WinWithin(plies) => assert!(
            matches!(score, Score::Win(p) if p <= plies),
            "{variant:?} {fen}: expected a win within {plies} plies, got {score:?} (depth {d}, pv {line})"
        ),
        Expect::AtLeast(cp) => assert!(
            matches!(score, Score::Win(_)) || matches!(score, Score::Cp(c) if c >= cp),
            "{variant:?} {fen}: expected at least {cp} centi-men, got {score:?} (depth {d}, pv {line})"
        ),
        Expect::MoveOnly => {}
    }
}

/// Checks the engine does not play `refuted` (a move that wins under another variant's rules
/// but loses under these).
fn avoids(variant: Variant, fen: &str, refuted: &str, depth: u32) {
    let (engine, best, last) = search(variant, fen, depth);
    let bad = engine
        .move_name(refuted)
        .unwrap_or_else(|e| panic!("{variant:?} {fen}: {refuted} is not legal: {e}"));
    assert_ne!(
        best.as_deref(),
        Some(bad.as_str()),
        "{variant:?} {fen}: depth {depth}: played the refuted {bad}; last iteration {last:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// English draughts (numbers: 1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1; Black moves down)
// ---------------------------------------------------------------------------------------------

/// Stroke. Source: The Checker Maven, "Beginner's Corner: Seeing is Believing" (18 May 2013),
/// http://www.bobnewell.net/nucleus/checkers.php?&itemid=815&catid=6&blogid=4 , White to play
/// and win, solution 22-17 13-22 29-25 22-29 30-25 29-22 21-17 22-13 6-1 13-6 1-10-3-12-19-28.
///
/// Hand check, every Black move being the only legal one:
/// 1. 22-17 (b4) 13x22 (a5 takes b4, lands c3).
/// 2. 29-25 (b2) 22x29 (takes b2, crowned on a1; the move ends).
/// 3. 30-25 (b2 again) 29x22 (the new king takes it back to c3; nothing more to take).
/// 4. 21-17 (b4) 22x13 (the king takes b4 to a5; it cannot go on over b6 = 9 as c7 = 6 is held).
/// 5. 6-1 crowns on b8 and empties c7: 13x6 (the king takes b6 = 9, lands c7).
/// 6. 1x10x3x12x19x28: the new White king takes c7, e7, g7, g5, g3 (6, 7, 8, 16, 24).
/// 7. Black has only the man on h4 = 20: 20-24 28x19 and Black has no piece: a win in 13 plies.
#[test]
fn english_stroke_seeing_is_believing() {
    solve(
        Variant::English,
        "W:W30,29,22,21,9,6:B24,20,16,13,8,7",
        "22-17",
        10,
        Expect::WinWithin(13),
    );
}

/// In-and-out and slip shot, Black to play. Source: The Checker Maven, "Beginner's Corner",
/// http://www.bobnewell.net/nucleus/checkers.php?&itemid=810&catid=6&blogid=4 , Black to play
/// and win: 3-7 11x2 9-13 2x9 13x31 9-14 31x24, Black wins.
///
/// Hand check:
/// 1. 3-7 (f8-e7): 11x2 is White's only capture (f6 takes e7, crowned on d8; the move ends).
/// 2. 9-13 (b6-a5) empties b6: the new king must jump out again, 2x9 (takes c7), the only capture.
/// 3. 13x22x31: a5 takes b4 and d2 and is crowned on e1 (written 13x22x31 by the engine).
///    Now White (K b6, men f2 = 27, c1 = 30) cannot save the f2 man from 31x24:
///    27-24 19x28; 27-23 19x26 30x23 31-27 and the e3 man falls (23-18 15x22, 23-19 15x24,
///    anything else 27x18); any other move 31x24, after which White has no capture.
///
/// Black ends with a king and two men against a king and a man: a man up.
#[test]
fn english_in_and_out_then_slip() {
    solve(
        Variant::English,
        "B:W30,27,26,17,11:B19,15,9,6,3",
        "3-7",
        8,
        Expect::AtLeast(100),
    );
}

/// Known won ending: king against king with the opposition. Source: Edward Lasker, *Chess and
/// Checkers: The Way to Mastership* (1918), Part II, chapter II, Diagram 88 (Project Gutenberg
/// eBook #4913): White king on 32, Black king on 26, "White wins by playing 32-27. With this move
/// White takes the opposition ... Whatever Black replies he is forced to the edge of the board and
/// finally he is obliged to let White capture his King." (with Black to move, 26-31 draws).
///
/// Lines after 32-27 (Black's king on d2 has four moves):
/// - 26-23 27x18 at once.
/// - 26-31 27-23: 31-26 23x30 or 31-27 23x32.
/// - 26-22 27-23 (Lasker's line), and 26-30 27-23: the king is driven to the edge, for instance
///   22-17 23-18 17-13 (or 17-21) 18-14 (or 18-22) and it cannot move without being taken, or
///   22-25 (30-25) 23-18 25-29 18-22 29-25 22x29.
#[test]
fn english_lasker_king_against_king() {
    solve(
        Variant::English,
        "W:WK32:BK26",
        "32-27",
        10,
        Expect::WinWithin(9),
    );
}

/// Forced promotion. Hand analysis (no published source).
/// White: 20 h4, 27 f2, 28 h2, 30 c1; Black: 6 c7, 15 e5, 18 d4, 22 c3.
/// 1. 30-26 (c1-d2): 22x31 is Black's only capture (c3 takes d2, crowned on e1; the move ends).
/// 2. 20-16 (h4-g5), a spare tempo: the new king's only move is the compulsory 31x24 (e1 takes
///    f2, lands g3).
/// 3. 28x19x10x1: h2 takes g3, e5 and c7 and is crowned on b8.
///
/// White: a king on 1 and a man on 16 against the man on 18: two pieces against one.
/// Two natural alternatives simply lose a man: 27-23 18x27 and 30-25 22x29.
#[test]
fn english_forced_crown_by_sacrifice() {
    solve(
        Variant::English,
        "W:W20,30,28,27:B6,18,15,22",
        "30-26",
        8,
        Expect::AtLeast(150),
    );
}

/// Two-way shot: whichever man Black takes with, White takes all three. Hand analysis.
/// White: 21 a3, 26 d2, 31 e1; Black: 10 d6, 18 d4, 19 f4.
/// 26-23 (d2-e3) is attacked twice, and Black must take (free choice between the two):
/// - 19x26 (f4 takes e3, lands d2) 31x22x15x6 (e1 takes d2, d4, d6);
/// - 18x27 (d4 takes e3, lands f2) 31x24x15x6 (e1 takes f2, f4, d6).
///
/// Black has no piece left: a win in 3 plies.
#[test]
fn english_two_way_shot() {
    solve(
        Variant::English,
        "W:W31,26,21:B19,10,18",
        "26-23",
        4,
        Expect::WinWithin(3),
    );
}

/// A deep published problem. Source: The Checker Maven, "Solution to CV-5: Mindbender",
/// composed by Brian Hinkle, https://www.bobnewell.net/nucleus/checkers.php?&itemid=1298&catid=6&blogid=4 ,
/// White to play and win, published as `W:WK5,K11,12,16,K19,21,25,28:B2,3,6,K10,13,14,20,26K`.
/// Solution: 5-9! ("a star move and the only one to win. Seven other moves merely draw")
/// 14-18 12-8 3x12 28-24 20x27 21-17 13x29 11-8 6x13 19-23 12x19 23x7 2x11 8x22 White wins
/// (the king on 22 holds the man on 13 and the king on 29: Wiswell's "Spread Eagle").
///
/// Reading of the FEN: the stray `26K` is taken as a Black man on 26 (d2). The published notes
/// support it: note B gives "3. 26-30 draws" as a Black resource (a man crowning), and at
/// 19-23 the solution gives 12x19 without mentioning 26x19, which a king on 26 could also play.
/// Every move of the solution is legal with a man on 26. The win is too deep to write out here;
/// the source is the proof (note B cites KingsRow). The test checks only the star move.
/// Depth 18: the search finds 5-9 from depth 17 on (before the LMR of docs/strength.md,
/// +48 Elo at equal time, reduced late moves less, it did from depth 16).
#[test]
fn english_mindbender_star_move() {
    solve(
        Variant::English,
        "W:WK5,K11,12,16,K19,21,25,28:B2,3,6,K10,13,14,20,26",
        "5-9",
        18,
        Expect::MoveOnly,
    );
}

// ---------------------------------------------------------------------------------------------
// Italian draughts (FID numbers: 1 = a8, 4 = g8, 29 = b1, 32 = h1; White moves up; men may not
// capture kings; capture precedence FID 6.6-6.10)
// ---------------------------------------------------------------------------------------------

/// Sacrifice with a triple capture and a crown (tiro). Hand analysis.
/// White: 17 a4, 25 a2, 27 e2, 31 f1; Black: 6 d7, 14 d5, 18 c4, 22 d3.
/// 1. 25-21 (a2-b3): 18x25 is Black's only capture (c4 takes b3, lands a2).
/// 2. 27x18x11x2: e2 takes d3, d5 and d7 and is crowned on c8.
/// 3. Black's last piece, the man on a2, has one move, 25-29, crowned on b1.
///
/// White: a king and two men (17, 31) against a lone king: three pieces against one.
#[test]
fn italian_sacrifice_three_for_one_and_crown() {
    solve(
        Variant::Italian,
        "W:W27,25,31,17:B14,6,22,18",
        "25-21",
        8,
        Expect::AtLeast(200),
    );
}

/// Forced promotion, then a double capture by the new king. Hand analysis.
/// White: 8 h7, 14 d5, 26 c2; Black: 6 d7, 7 f7, 11 e6. Black threatens 11x18 (e6 takes d5).
/// 1. 8-4 crowns on g8 and lets it happen: 11x18 is Black's only move (the f7 and d7 men have no
///    capture; a man may not take a king in any case, FID 5.3(b)).
/// 2. 4x11x2: the king takes f7 (landing e6, emptied by the capture) and d7 (landing c8).
/// 3. The man on c4 must step into the c2 man's reach: 18-21 26x17 or 18-22 26x19.
///
/// Black has no piece left: a win in 5 plies.
#[test]
fn italian_crown_then_double_capture() {
    solve(
        Variant::Italian,
        "W:W14,26,8:B7,6,11",
        "8-4",
        6,
        Expect::WinWithin(5),
    );
}

/// Shot where Black chooses the capture and both choices lose two men (FID 6.10: each capture
/// takes one man and no king is involved, so Black may choose). Hand analysis.
/// White: 18 c4, 27 e2, 31 f1; Black: 2 c8, 19 e4, 20 g4.
/// 27-23 (e2-f3) is attacked by both Black men:
/// - 19x28 (e4 takes f3, lands g2) 31x24x15 (f1 takes g2 and g4);
/// - 20x27 (g4 takes f3, lands e2) 31x22x15 (f1 takes e2 and e4).
///
/// Either way White has two men (c4, f5) against the man on c8.
#[test]
fn italian_shot_with_free_choice() {
    solve(
        Variant::Italian,
        "W:W27,31,18:B2,19,20",
        "27-23",
        8,
        Expect::AtLeast(150),
    );
}

/// Won ending: a king against two men on the edge. Hand analysis; it relies on FID 5.3(b): the
/// man on h3 may not take the king on g2, so it is blocked there.
/// White: king 28 g2; Black: men 16 h5, 24 h3.
/// After 28-23 (f3) Black has two moves:
/// - 24-28 (g2) 23x32 (f3 takes g2, lands h1); 16-20 (only move) 32-28; then 20-23 28x19, or
///   20-24 28-23 24-28 (only move) 23x32.
/// - 16-20 (g4) 23x16 (f3 takes g4, lands h5); 24-28 (only move) 16-20; the man crowns with
///   28-31 or 28-32, and 20-23 leaves the new king no safe square: K31: 31-27 23x30,
///   31-28 23x32; K32: 32-28 23x32.
///
/// Black loses every piece within 9 plies.
#[test]
fn italian_king_against_two_men() {
    solve(
        Variant::Italian,
        "W:WK28:B16,24",
        "28-23",
        10,
        Expect::WinWithin(9),
    );
}

/// Shot that works only because of FID 6.6 (take the most pieces). Hand analysis.
/// White: 19 e4, 22 d3, 30 d1, 32 h1; Black: 10 c6, 11 e6, 13 b5, 18 c4.
/// 1. 19-14 (e4-d5) offers a man. Black has two captures: 18x27 (c4 takes d3, lands e2: one man)
///    and 10x19x26 (c6 takes d5 and d3, lands c2: two men). Rule 6.6 makes 10x19x26 the only
///    legal move (11x18 is impossible: c4 is occupied).
/// 2. 30x21x14x7: d1 takes c2, c4 and e6, landing b3, d5, f7.
///
/// White: men on f7 (crowning next move) and h1 against the man on b5: two against one.
#[test]
fn italian_shot_by_precedence_most_pieces() {
    solve(
        Variant::Italian,
        "W:W19,22,30,32:B10,11,13,18",
        "19-14",
        8,
        Expect::AtLeast(100),
    );
}

// ---------------------------------------------------------------------------------------------
// Russian draughts (algebraic, a1 dark; men capture backwards; flying kings; free choice among
// captures; a man reaching the far row during a capture is crowned and goes on as a king)
// ---------------------------------------------------------------------------------------------

/// Known won ending: a king against two men. Source: "Борьба дамок с простыми",
/// https://draughts.narod.ru/articles/borbba_damok_s_prostymi.htm : "Белые: дамка g1; черные:
/// простые b8, e5. 1. g1—e3! ... 1...b8—c7. На 1...b8—a7 сразу же выигрывает 2. e3—c5 e5—f4
/// 3. c5—f2. 2. e3—a7. И как при 2...e5—f4, так и при 2...c7—d6 следует 3. a7—b8."
///
/// Check of every reply to 1. g1-e3:
/// - e5-d4 or e5-f4: the king takes it (e3:c5, e3:g5).
/// - b8-a7 2. e3-c5: a7-b6 c5:a7; e5-d4 c5:e3; e5-f4 3. c5-f2 and f4-e3, f4-g3 and a7-b6 are all
///   taken (f2:d4, f2:h4, f2:a7).
/// - b8-c7 2. e3-a7: c7-b6 a7:c5; e5-d4 a7:e3; c7-d6 or e5-f4 3. a7-b8 and every Black move
///   leaves a man en prise on the b8-h2 diagonal.
///
/// Each line leaves the king against at most one man, which it catches (a win in 13 plies).
#[test]
fn russian_king_against_two_men() {
    solve(
        Variant::Russian,
        "W:WKg1:Bb8,e5",
        "g1-e3",
        14,
        Expect::WinWithin(13),
    );
}

/// Shot through promotion in passing (kodeks 1.5.15). Hand analysis.
/// White: a5, b4, c5, e5; Black: c7, d2, d6, e7. Black threatens d6:f4.
/// 1. c5-b6 lets it happen: d6:f4 is Black's only capture (c7:a5 is blocked by the man on a5).
/// 2. b6:d8:g5:e3:c1: b6 takes c7 and reaches d8, where it is crowned at once and goes on as a
///    king: takes e7 (landing g5, where the capture continues), f4 (landing e3) and d2 (c1).
///
/// Black has no piece left: a win in 3 plies. Under Brazilian rules the man would go on from d8
/// as a man (d8xf6) and the shot fails.
#[test]
fn russian_promotion_in_passing() {
    solve(
        Variant::Russian,
        "W:Wa5,e5,c5,b4:Bd6,d2,e7,c7",
        "c5-b6",
        4,
        Expect::WinWithin(3),
    );
}

/// Stopping a man one step from crowning by locking it in. Source: kombinashki.ru, "Не пропустить
/// в дамки", diagram 24, https://kombinashki.ru/kn2_page7.php : "1. d4-e5! f6:d4 2. d2-e3 d4:f2
/// 3. b2-c3 b4:d2 4. c1:g1. Теперь очередь хода за черными, но сделать его они не могут. Их
/// шашка заперта!" The diagram is an image; the pieces here are the minimal setting in which
/// every move of that solution is legal (White d4, d2, b2, c1; Black f6, h2, b4).
///
/// Hand check: Black's h2 man crowns next move (h2-g1) unless White acts.
/// 1. d4-e5 f6:d4 (only capture).
/// 2. d2-e3 d4:f2 (only capture).
/// 3. b2-c3 b4:d2 (only capture).
/// 4. c1:e3:g1 takes d2 and f2 and lands on g1, in front of the h2 man.
///
/// Black's only piece has no move, and a side with no legal move loses: a win in 7 plies.
#[test]
fn russian_lock_the_runaway_man() {
    solve(
        Variant::Russian,
        "W:Wd4,d2,b2,c1:Bf6,h2,b4",
        "d4-e5",
        8,
        Expect::WinWithin(7),
    );
}

/// Forced promotion and a king's sweep. Hand analysis.
/// White: c7, f2, g5; Black: b2, e7, f6.
/// 1. c7-d8 crowns and abandons g5: f6:h4 is Black's only capture.
/// 2. d8:f6:a1: the king takes e7 and must land on f6, the only landing square from which the
///    capture goes on, then takes b2 (landing a1).
/// 3. h4-g3 (the last man's only move) f2:h4.
///
/// A win in 5 plies. (1. c7-b8 instead: f6:h4 and the king on b8 has nothing to take while the
/// b2 man crowns.)
#[test]
fn russian_crown_and_sweep() {
    solve(
        Variant::Russian,
        "W:Wg5,f2,c7:Bf6,e7,b2",
        "c7-d8",
        6,
        Expect::WinWithin(5),
    );
}

// ---------------------------------------------------------------------------------------------
// Brazilian draughts (as Russian, but: majority capture rule, CBD 12; a man is crowned only if
// its move ends on the far row, CBD 13)
// ---------------------------------------------------------------------------------------------

/// Shot that relies on CBD 13 (no promotion in passing). Hand analysis.
/// White: a1, d2, f2, g1; Black: a3, a7, e5, e7.
/// 1. a1-b2 offers two men: a3xc1xe3 is Black's only capture. The man passes c1, its crowning
///    square, without being crowned (the move does not end there), so it must go on as a man over
///    d2 and stop on e3.
/// 2. f2xd4xf6xd8 takes e3, e5 and e7 and is crowned on d8, where the move ends.
/// 3. a7-b6 (the last man's only move) d8xa5.
///
/// A win in 5 plies. Under Russian rules the same a1-b2 loses two men: the man is crowned on c1
/// and goes on as a king, a3:c1:f4 (or g5, h6), out of reach; see `brazilian_shot_is_not_russian`.
#[test]
fn brazilian_no_promotion_in_passing() {
    solve(
        Variant::Brazilian,
        "W:Wg1,d2,f2,a1:Be5,e7,a7,a3",
        "a1-b2",
        6,
        Expect::WinWithin(5),
    );
}

/// Shot that relies on the majority rule (CBD 12) and on CBD 13. Hand analysis.
/// White: b2, b4, d2, e5; Black: a3, g3, g5, h6.
/// 1. e5-f6 gives Black three captures: g5xe7 (one man), a3xc5 (one man, b4) and a3xc1xe3 (two
///    men, b2 and d2; the man passes c1 without being crowned). The majority rule leaves only
///    a3xc1xe3.
/// 2. f6xh4xf2xd4 takes g5, g3 and e3.
///
/// White: men on b4 and d4 against the man on h6: two against one. Under Russian rules (free
/// choice) Black answers g5:e7 and White is a man down; see `brazilian_shot_is_not_russian`.
#[test]
fn brazilian_majority_rule_shot() {
    solve(
        Variant::Brazilian,
        "W:Wd2,e5,b2,b4:Ba3,h6,g3,g5",
        "e5-f6",
        8,
        Expect::AtLeast(100),
    );
}

/// The two Brazilian shots above fail under Russian rules, and the Russian engine must not play
/// them: after 1. a1-b2 a3:c1:f4 White is two men down (the man is crowned on c1 in passing);
/// after 1. e5-f6 g5:e7 (free choice, no majority rule) White has no capture and is a man down.
#[test]
fn brazilian_shot_is_not_russian() {
    avoids(Variant::Russian, "W:Wg1,d2,f2,a1:Be5,e7,a7,a3", "a1-b2", 6);
    avoids(Variant::Russian, "W:Wd2,e5,b2,b4:Ba3,h6,g3,g5", "e5-f6", 8);
}

/// Two for one with a crown. Hand analysis.
/// White: a1, a5, g3, h4; Black: c3, e3, e7, h8.
/// 1. g3-f4: e3xg5 is Black's only capture.
/// 2. h4xf6xd8 takes g5 and e7 and is crowned on d8.
///
/// White: a king and two men (a1, a5) against two men (c3, h8).
#[test]
fn brazilian_two_for_one_and_crown() {
    solve(
        Variant::Brazilian,
        "W:Wh4,a1,a5,g3:Be3,h8,c3,e7",
        "g3-f4",
        8,
        Expect::AtLeast(150),
    );
}

/// The kombinashki.ru lock (see `russian_lock_the_runaway_man` for the source and the line):
/// under CBD rules every move of the solution is the same (each capture takes one piece and no
/// man reaches the far row during a capture), so it wins the same way.
#[test]
fn brazilian_lock_the_runaway_man() {
    solve(
        Variant::Brazilian,
        "W:Wd4,d2,b2,c1:Bf6,h2,b4",
        "d4-e5",
        8,
        Expect::WinWithin(7),
    );
}

/// The king against two men of `russian_king_against_two_men` (draughts.narod.ru). No man
/// reaches the far row in any line, and wherever the king can take two men it must take both
/// under either rule set (a Russian king must go on capturing), so the majority and promotion
/// rules change nothing: the same 1. g1-e3! wins.
#[test]
fn brazilian_king_against_two_men() {
    solve(
        Variant::Brazilian,
        "W:WKg1:Bb8,e5",
        "g1-e3",
        14,
        Expect::WinWithin(13),
    );
}

/// Antidraughts (lidraughts: the side that cannot move wins), by hand. International squares:
/// 22 = d6, 28 = e5, 33 = f4, 5 = j10. 1. 33-28 (f4-e5) puts the man next to Black's 22 (d6)
/// with 33 behind it empty: 22x33 is Black's only move (captures are compulsory; the man on
/// 5 has none), and White, to move with no piece left, has no legal move: White wins in 2
/// plies. (33-29 gives nothing away.)
#[test]
fn antidraughts_give_the_last_man_away() {
    solve(
        Variant::Antidraughts,
        "W:W33:B5,22",
        "33-28",
        4,
        Expect::WinWithin(2),
    );
}

/// Breakthrough (lidraughts: the first king wins), by hand. 7 = c9, 1 = b10, 2 = d10, 46 = a1,
/// 15 = j8, 44 = h2. White has no capture (nothing of Black's stands next to 7 or 46), and
/// 7-1 crowns at once: a win in one ply. 7-2 is blocked by Black's man on 2, which cannot be
/// taken (beyond it is off the board).
#[test]
fn breakthrough_crown_at_once() {
    solve(
        Variant::Breakthrough,
        "W:W7,46:B2,15,44",
        "7-1",
        4,
        Expect::WinWithin(1),
    );
}
