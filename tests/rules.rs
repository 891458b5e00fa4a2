//! One-ply rules tests: the legal moves of small positions, per variant and per rule article.
//! Positions and expected moves (collected in docs/rules.md) come from
//! the FID 2008 rulebook examples (via DCTL
//! test/src/core/model/italian.cpp), DCTL's regressions, pydraughts issue #28 and hand
//! analysis; each test names its source. Moves are written `fromxto` / `from-to` (short form)
//! or with every landing square (full form), in the variant's notation.

use damiera::core::movegen::{self, Duplicates};
use damiera::core::notation;
use damiera::{Brazilian, English, International, Italian, MoveList, Rules, Russian};

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

// ---- International (FMJD numbering 1-50). Positions and legal moves of the FMJD rule articles
// as collected in DCTL test/src/actions/rulebook/international.cpp (the French FFJD tutorial
// and the Italian translation of the official rules, FID 2008 RegTec_CAPO_II.pdf). ----

#[test]
fn international_3_4_and_3_9_quiet_moves() {
    assert_eq!(short::<International>("W:W28:B"), s(&["28-22", "28-23"]));
    assert_eq!(short::<International>("B:W:B13"), s(&["13-18", "13-19"]));
    let king28 = [
        "28-22", "28-17", "28-11", "28-6", "28-23", "28-19", "28-14", "28-10", "28-5", "28-32",
        "28-37", "28-41", "28-46", "28-33", "28-39", "28-44", "28-50",
    ];
    assert_eq!(short::<International>("W:WK28:B"), s(&king28));
    let king1 = [
        "1-6", "1-7", "1-12", "1-18", "1-23", "1-29", "1-34", "1-40", "1-45",
    ];
    assert_eq!(short::<International>("B:W:BK1"), s(&king1));
    let king23 = [
        "23-18", "23-12", "23-7", "23-1", "23-19", "23-14", "23-10", "23-5", "23-28", "23-32",
        "23-37", "23-41", "23-46", "23-29", "23-34", "23-40", "23-45",
    ];
    assert_eq!(short::<International>("W:WK23:B"), s(&king23));
}

#[test]
fn international_4_2_to_4_8_captures() {
    assert_eq!(short::<International>("W:W28,32:B23"), s(&["28x19"]));
    assert_eq!(
        short::<International>("W:W35:B30,K40"),
        s(&["35x24", "35x44"])
    );
    let range = ["46x19", "46x14", "46x10", "46x5"];
    assert_eq!(short::<International>("W:WK46:B23"), s(&range));
    let range = ["41x19", "41x14", "41x10", "41x5"];
    assert_eq!(short::<International>("W:WK41:B23"), s(&range));
    assert_eq!(short::<International>("W:W15:B8,19,20"), s(&["15x2"]));
    assert_eq!(
        short::<International>("W:W47:B13,14,22,24,31,34,K41,44"),
        s(&["47x49"])
    );
    assert_eq!(
        short::<International>("W:WK47:B9,12,33"),
        s(&["47x17", "47x21", "47x26"])
    );
    assert_eq!(
        short::<International>("W:WK1:B7,9,17,19,20,30,31,33,43,44"),
        s(&["1x15"])
    );
    // 4.8: captured pieces stay on the board until the move ends (Turkish strike).
    assert_eq!(
        short::<International>("W:WK41,49:B9,10,12,19,38"),
        s(&["41x43"])
    );
    assert_eq!(
        short::<International>("B:W27,28,38,39,42:BK25"),
        s(&["25x33"])
    );
}

#[test]
fn international_4_13_to_4_15_precedence_and_promotion() {
    // 4.13: the most pieces; 4.14: kings count as men.
    assert_eq!(
        short::<International>("W:W48:B24,K31,34,K42,43"),
        s(&["48x19"])
    );
    assert_eq!(
        short::<International>("W:WK48:B7,8,31,34,K42,44"),
        s(&["48x50"])
    );
    assert_eq!(
        short::<International>("W:W26:B12,K21,31,32"),
        s(&["26x8", "26x28"])
    );
    // 4.15: a man passing the back row during a capture stays a man.
    assert_eq!(short::<International>("W:W15:B9,10"), s(&["15x13"]));
    let pos = notation::parse_fen::<International>("W:W15:B9,10").unwrap();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    assert!(!list[0].promotes);
}

/// Plays `plies` quiet moves from `fen`, checking the FMJD 6.3/6.4 counter is not out before the
/// last ply and is out after it. Each side shuffles one piece back and forth: it undoes its last
/// move when that is safe (no capture for the opponent after it), else plays its first safe quiet
/// move. `rule` names the counter that ran out (FMJD 6.1's 25 moves are the no-progress rule,
/// 6.3 and 6.4 the endgame rule).
fn international_draw_after(fen: &str, plies: u32, rule: &str) {
    use damiera::DrawRules;
    let mut pos = notation::parse_fen::<International>(fen).unwrap();
    let mut last: [Option<damiera::Move>; 2] = [None, None];
    for ply in 1..=plies {
        let mut list = MoveList::new();
        movegen::generate(&pos, &mut list);
        let safe: Vec<damiera::Move> = list
            .iter()
            .copied()
            .filter(|m| {
                let mut replies = MoveList::new();
                movegen::generate(&pos.make(m), &mut replies);
                !m.is_capture() && !m.promotes && !replies.iter().any(|r| r.is_capture())
            })
            .collect();
        let side = pos.side() as usize;
        let back = last[side].and_then(|l| {
            safe.iter()
                .copied()
                .find(|m| m.from == l.to && m.to == l.from)
        });
        let mv = back
            .or_else(|| safe.first().copied())
            .unwrap_or_else(|| panic!("{fen}: no safe quiet move at ply {ply}"));
        assert!(
            !<International as DrawRules>::draw_by_counter(&pos),
            "{fen}: drawn too early, before ply {ply}"
        );
        last[side] = Some(mv);
        pos = pos.make(&mv);
    }
    assert!(
        <International as DrawRules>::draw_by_counter(&pos),
        "{fen}: not drawn after {plies} plies"
    );
    assert_eq!(
        <International as DrawRules>::counter_draw(&pos),
        Some(rule),
        "{fen}: the counter that ran out"
    );
}

#[test]
fn international_6_3_and_6_4_endgame_counters() {
    // 6.3: three kings, two kings and a man, a king and two men against a king: 16 moves each.
    international_draw_after("W:WK47,K48,K49:BK1", 32, "endgame rule");
    international_draw_after("B:WK47,K48,K49:BK1", 32, "endgame rule");
    international_draw_after("W:WK47,K48,36:BK1", 32, "endgame rule");
    international_draw_after("W:WK47,36,37:BK1", 32, "endgame rule");
    international_draw_after("W:WK1:BK47,K48,K49", 32, "endgame rule");
    // 6.4: two kings, a king and a man, or a king against a king: 5 moves each.
    international_draw_after("W:WK47,K48:BK1", 10, "endgame rule");
    international_draw_after("W:WK47,36:BK1", 10, "endgame rule");
    international_draw_after("W:WK47:BK1", 10, "endgame rule");
    // Outside both classes only the 25-move king rule (6.1) applies: four kings against a
    // king, and three men against a king.
    international_draw_after("W:WK47,K48,K49,K50:BK1", 50, "no-progress rule");
    // Entering a class by a capture starts its count: the lone king takes one of four kings.
    let pos = notation::parse_fen::<International>("B:WK46,K47,K48,K28:BK5").unwrap();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    assert!(list.iter().all(|m| m.is_capture()));
    assert_eq!(pos.make(&list[0]).endgame_plies(), 0);
    // A promotion inside the class continues the count; one that enters it restarts it.
    let play = |fen: &str, moves: &[&str]| {
        let mut pos = notation::parse_fen::<International>(fen).unwrap();
        for m in moves {
            pos = pos.make(&notation::parse_move(&pos, m).unwrap());
        }
        pos
    };
    let inside = play("W:WK47,K48,9:BK45", &["47-42", "45-40", "9-3"]);
    assert_eq!(inside.endgame_plies(), 3, "promotion inside 6.3");
    let entering = play("W:WK47,8,9,10:BK45", &["47-42", "45-40", "9-3"]);
    assert_eq!(entering.endgame_plies(), 3, "four pieces: no class yet");
    let entering = play("W:W8,9,20:BK45", &["20-14", "45-40", "9-3"]);
    assert_eq!(entering.endgame_plies(), 0, "promotion entering 6.3");
}

/// lidraughts' Antidraughts and Breakthrough: how their games end ([`outcome`]).
mod lidraughts_ends {
    use damiera::core::notation::{parse_fen, parse_move};
    use damiera::core::variant_position::{outcome, Outcome, WinRule};
    use damiera::{Antidraughts, Breakthrough, Color, DrawRules, International, Play};

    /// A side to move without a legal move (here: without a piece) has lost in International
    /// (FMJD 5.1) and won in Antidraughts (lidraughts' `Antidraughts.winner`).
    #[test]
    fn no_move_loses_in_international_and_wins_in_antidraughts() {
        let pos = parse_fen::<International>("W:W:B5").unwrap();
        assert_eq!(
            outcome::<International>(&pos, &[]),
            Some(Outcome::Win(Color::Black, WinRule::Blocked))
        );
        let pos = parse_fen::<Antidraughts>("W:W:B5").unwrap();
        assert_eq!(
            outcome::<Antidraughts>(&pos, &[]),
            Some(Outcome::Win(Color::White, WinRule::NoMoveLeft))
        );
        assert_eq!(
            outcome::<Antidraughts>(&pos, &[]).unwrap().to_string(),
            "White wins: White has no legal move left"
        );
    }

    /// Breakthrough: the move that crowns ends the game (lidraughts' `Breakthrough.specialEnd`):
    /// the opponent, to move, has no legal move and has lost; a FEN whose side to move has a
    /// king is refused (the game ended when it was made).
    #[test]
    fn breakthrough_ends_at_the_first_king() {
        let pos = parse_fen::<Breakthrough>("W:W7,46:B15,44").unwrap();
        assert_eq!(outcome::<Breakthrough>(&pos, &[]), None);
        let mv = parse_move(&pos, "7-1").unwrap();
        let after = <Breakthrough as Play>::make(&pos, &mv);
        assert!(!<Breakthrough as Play>::has_moves(&after));
        assert_eq!(
            <Breakthrough as Play>::count(&after, damiera::Duplicates::Keep),
            0
        );
        assert_eq!(
            outcome::<Breakthrough>(&after, &[]),
            Some(Outcome::Win(Color::White, WinRule::King))
        );
        // In International the same move crowns and Black plays on.
        let pos = parse_fen::<International>("W:W7,46:B15,44").unwrap();
        let after = <International as Play>::make(&pos, &parse_move(&pos, "7-1").unwrap());
        assert!(<International as Play>::has_moves(&after));
        let err = parse_fen::<Breakthrough>("W:WK1,46:B15,44").unwrap_err();
        assert!(err.to_string().contains("has a king"), "{err}");
        assert!(parse_fen::<Breakthrough>("B:WK1,46:B15,44").is_ok());
    }

    /// Neither variant has International's move-count draws (lidraughts'
    /// `InsufficientWinningMaterial`: none for Antidraughts; Breakthrough restarts its history
    /// every move): 60 king moves without a capture draw International (FMJD 6.1, 50 plies),
    /// not Antidraughts.
    #[test]
    fn no_move_count_draws() {
        let fen = "W:WK1,K2,K3:BK48,K49,K50";
        let mut pos = parse_fen::<International>(fen).unwrap();
        pos.set_quiet_plies(60);
        assert!(International::draw_by_counter(&pos));
        let mut pos = parse_fen::<Antidraughts>(fen).unwrap();
        pos.set_quiet_plies(60);
        assert!(!Antidraughts::draw_by_counter(&pos));
        assert_eq!(outcome::<Antidraughts>(&pos, &[]), None);
    }
}

/// Frisian (the Frisian federation's rules, "O n" = its rule n; lidraughts' `Frisian.scala`
/// where the rules leave a number open; docs/rules.md "Frisian"). Each position was checked by
/// hand; the first three also give pydraughts 0.6.7's answer except where marked.
mod frisian {
    use super::short;
    use damiera::core::notation::{fen, parse_fen, parse_move};
    use damiera::core::variant_position::{outcome, Outcome};
    use damiera::{Color, Frisian, International, MoveList, Play, Position};

    /// O 10-11 with lidraughts' values (king 199, man 100): three kings (597) outweigh five men
    /// (500). The man on 46 takes the kings on 36, 16 and 7 along the a-file and the ninth
    /// rank; the man on 50 could take five men. pydraughts (king 1.5) takes the men instead:
    /// tests/differential.rs shows it.
    #[test]
    fn three_kings_outweigh_five_men() {
        assert_eq!(
            short::<Frisian>("W:W46,50:BK36,K16,K7,40,20,14,29,38"),
            ["46x8"]
        );
    }

    /// O 11: "two men are worth more than one king": the man on 46 takes the men on 41 and 32,
    /// not the man on 50 the king on 40.
    #[test]
    fn two_men_outweigh_one_king() {
        assert_eq!(short::<Frisian>("W:W46,50:B32,K40,41"), ["46x28"]);
    }

    /// O 11: at equal value the king captures: the king on 46 and the men on 45 and 50 can
    /// each take one man; only the king's captures (every landing square behind 41) are legal.
    #[test]
    fn at_equal_value_the_king_captures() {
        assert_eq!(
            short::<Frisian>("W:WK46,50,45:B41,40"),
            ["46x10", "46x14", "46x19", "46x23", "46x28", "46x32", "46x37", "46x5"]
        );
    }

    /// O 4, O 8: men capture along files and ranks, over the next dark square (28 over 18 to
    /// 8, over 27 to 26, over 29 to 30, over 38 to 48); kings fly along them.
    #[test]
    fn orthogonal_captures() {
        assert_eq!(
            short::<Frisian>("W:W28:B18,27,29,38"),
            ["28x26", "28x30", "28x48", "28x8"]
        );
        // The king on 46 flies up the a-file over 26 and lands on 16, 6.
        assert_eq!(short::<Frisian>("W:WK46:B26"), ["46x16", "46x6"]);
    }

    /// The legal moves' short names after `moves` from `fen`, and the position.
    fn after(fen_text: &str, moves: &[&str]) -> (Vec<String>, Position<Frisian>) {
        let mut pos = parse_fen::<Frisian>(fen_text).unwrap();
        for m in moves {
            let mv = parse_move(&pos, m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos = <Frisian as Play>::make(&pos, &mv);
        }
        (short::<Frisian>(&fen(&pos)), pos)
    }

    /// O 7: a king makes at most three non-capturing moves in a row while its side has men;
    /// a man move frees it. The count is part of the position and of its FEN (lidraughts'
    /// `+<black>+<white>` field).
    #[test]
    fn a_king_moves_three_times_in_a_row() {
        let start = "W:WK50,46:BK5";
        let (moves, pos) = after(start, &["50-45", "5-10", "45-50", "10-5", "50-45", "5-10"]);
        assert_eq!(pos.king_moves(Color::White).0, 3);
        assert_eq!(fen(&pos), "W:WK45,46:BK10:+0+345");
        assert_eq!(moves, ["46-41"], "the king on 45 is held");
        let (_, pos) = after(&fen(&pos), &["46-41"]);
        assert_eq!(
            pos.king_moves(Color::White),
            (0, None),
            "a man move frees it"
        );
        // Two king moves: still free.
        let (moves, _) = after(start, &["50-45", "5-10", "45-50", "10-5"]);
        assert!(moves.contains(&"50-45".to_string()), "{moves:?}");
    }

    /// O 7 as lidraughts reads it: only the king that made the moves is held; another king
    /// moves freely, and a count without a square (an older lidraughts FEN) holds every king.
    /// Without men the limit lapses.
    #[test]
    fn the_limit_holds_one_king() {
        assert_eq!(short::<Frisian>("W:WK28,46:BK5:+0+328"), ["46-41"]);
        let both = short::<Frisian>("W:WK28,K33,46:BK5:+0+328");
        assert!(both.contains(&"33-39".to_string()) && !both.iter().any(|m| m.starts_with("28")));
        assert_eq!(short::<Frisian>("W:WK28,K33,46:BK5:+0+3"), ["46-41"]);
        let pos = parse_fen::<Frisian>("W:WK28:BK5:+0+328").unwrap();
        assert_eq!(pos.king_moves(Color::White), (0, None), "no men: no count");
    }

    /// The king-move field: read and written as lidraughts does (Black first, two-digit
    /// square); a count above 3, a square without the side's king, or the field in a variant
    /// without the limit are errors.
    #[test]
    fn king_move_field() {
        let pos = parse_fen::<Frisian>("W:WK28,46:B5,K1:+201+328").unwrap();
        assert_eq!(fen(&pos), "W:WK28,46:BK1,5:+201+328");
        assert_eq!(
            fen(&parse_fen::<Frisian>("W:WK28,46:B5:+0+0").unwrap()),
            "W:WK28,46:B5"
        );
        for bad in [
            "W:WK28,46:B5:+0+428",
            "W:WK28,46:B5:+0+333",
            "W:WK28,46:B5:+0",
            "W:WK28,46:B5:+x+0",
        ] {
            assert!(parse_fen::<Frisian>(bad).is_err(), "{bad}");
        }
        assert!(parse_fen::<International>("W:WK28,46:B5:+0+328").is_err());
    }

    /// Plays `plies` non-capturing moves from `fen` (the first legal move after which the
    /// opponent has no capture), checking the game is not over before the last.
    fn shuffle(fen_text: &str, plies: usize) -> Option<Outcome> {
        let mut pos = parse_fen::<Frisian>(fen_text).unwrap();
        for ply in 0..plies {
            assert_eq!(outcome::<Frisian>(&pos, &[]), None, "ply {ply}");
            let mut list = MoveList::new();
            <Frisian as Play>::generate(&pos, &mut list, damiera::Duplicates::Drop);
            let mv = list
                .iter()
                .find(|m| {
                    !m.is_capture()
                        && !<Frisian as Play>::has_captures(&<Frisian as Play>::make(&pos, m))
                })
                .expect("a quiet move");
            pos = <Frisian as Play>::make(&pos, mv);
        }
        outcome::<Frisian>(&pos, &[])
    }

    /// O 15: two kings against one king: 7 moves each (14 plies), then drawn; lidraughts: one
    /// king against one king, 2 moves each (4 plies).
    #[test]
    fn few_kings_draw() {
        assert_eq!(
            shuffle("W:WK46,K50:BK1", 14),
            Some(Outcome::Draw("endgame rule"))
        );
        assert_eq!(
            shuffle("W:WK46:BK1", 4).map(|o| o.to_string()),
            Some("draw: endgame rule".to_string())
        );
        // Three kings against one play on.
        assert_eq!(shuffle("W:WK46,K50,K49:BK1", 30), None);
    }

    /// No repetition draw in Frisian (O 1-17 have none; lidraughts switches threefold
    /// repetition off): the same history draws International.
    #[test]
    fn no_repetition_draw() {
        let pos = parse_fen::<Frisian>("W:WK28,46:BK5,1").unwrap();
        let key = <Frisian as Play>::key(&pos);
        assert_eq!(outcome::<Frisian>(&pos, &[key, key]), None);
        let pos = parse_fen::<International>("W:WK28,46:BK5,1").unwrap();
        let key = <International as Play>::key(&pos);
        assert!(matches!(
            outcome::<International>(&pos, &[key, key]),
            Some(Outcome::Draw(_))
        ));
    }
}
