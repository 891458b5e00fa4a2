//! Italian Damone position and notation: the incrementally kept Zobrist key against a
//! from-scratch key on random games, FEN round trips and errors, move names and move parsing
//! (PDN paths, `from x to`, Hub form), parser robustness, and the size of the position type.

use damiera::core::damone::{self, notation, Damone, Position};
use damiera::core::movegen::Duplicates;
use damiera::core::notation::MoveError;
use damiera::{Color, MoveList, Notation, Play};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn pos(fen: &str) -> Position {
    notation::parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn damone_zobrist_key_matches_scratch_key_on_random_games() {
    let mut rng = StdRng::seed_from_u64(5);
    let mut plies = 0;
    for _ in 0..200 {
        let mut p = Damone::start();
        let mut list = MoveList::new();
        for _ in 0..200 {
            Damone::generate(&p, &mut list, Duplicates::Drop);
            assert_eq!(list.is_empty(), !Damone::has_moves(&p));
            if list.is_empty() {
                break;
            }
            let mv = list[rng.gen_range(0..list.len())];
            p = p.make(&mv);
            plies += 1;
            assert_eq!(p.key(), p.compute_key(), "{}", notation::fen(&p));
            // Every FEN reads back as the same position with the same key.
            let back = pos(&notation::fen(&p));
            assert_eq!(back, p);
            assert_eq!(back.key(), p.key());
        }
    }
    assert!(plies > 10_000, "{plies}");
}

#[test]
fn damone_position_is_small() {
    assert!(std::mem::size_of::<Position>() <= 48);
    assert_eq!(std::mem::size_of::<damiera::Move>(), 16);
}

#[test]
fn damone_side_to_move_and_rank_change_the_key() {
    let w = pos("W:WKe4:Bd7");
    assert_ne!(w.key(), pos("B:WKe4:Bd7").key());
    assert_ne!(w.key(), pos("W:WIe4:Bd7").key());
    assert_ne!(w.key(), pos("W:We4:Bd7").key());
}

#[test]
fn damone_start_fen_round_trips() {
    let p = Damone::start();
    assert_eq!(notation::fen(&p), damone::START_FEN);
    assert_eq!(p.side(), Color::White);
    assert_eq!(p.pieces(Color::White).count(), 8);
    assert_eq!(p.pieces(Color::Black).count(), 8);
    // Colors listed the other way round, pieces in another order, a PDN tag around it.
    let q = pos("[FEN \"W:Bb5,a4,Ka6,Kc8,c6,d7,e8,Ia8:Wh5,d1,e2,f3,g4,Kf1,Kh3,Ih1\"]");
    assert_eq!(q, p);
    let diagram = [
        " 8  i   k   p   .  ",
        " 7    .   p   .   .",
        " 6  k   p   .   .  ",
        " 5    p   .   .   P",
        " 4  p   .   .   P  ",
        " 3    .   .   P   K",
        " 2  .   .   P   .  ",
        " 1    .   P   K   I",
        "    a b c d e f g h",
    ];
    assert_eq!(Damone::diagram(&p), diagram.join("\n") + "\n");
}

#[test]
fn damone_fen_errors() {
    let err = |fen: &str| notation::parse_fen(fen).unwrap_err().to_string();
    assert!(err("W:We5:B").contains("light square"));
    assert!(err("W:Wz9:B").contains("off the board"));
    assert!(err("X:We4:B").contains("side to move"));
    assert!(err("W:We4,e4:B").contains("listed twice"));
    assert!(err("W:We4:Be4").contains("both white and black"));
    assert!(err("W:We4:W").contains("appears twice"));
    // A piece on its own promotion square would have gone up a rank.
    assert!(err("W:Wa6:B").contains("promotion square"));
    assert!(err("W:Wc8:B").contains("promotion square"));
    assert!(err("W:WKa8:B").contains("promotion square"));
    assert!(err("B:W:Bf1").contains("promotion square"));
    assert!(err("B:W:Bh3").contains("promotion square"));
    assert!(err("B:W:BKh1").contains("promotion square"));
    // Not promotion squares: a White Pedine on a8 (ruling I.2), a Dama on c8, any Damone.
    for fen in ["W:Wa8:B", "W:WKc8,Ka6:B", "W:WIa8:BIh1", "B:W:Bh1,Kf1,Kh3"] {
        assert!(notation::parse_fen(fen).is_ok(), "{fen}");
    }
    // Lower-case prefixes are accepted.
    assert_eq!(pos("W:Wih1,kf1:B"), pos("W:WIh1,Kf1:B"));
}

#[test]
fn damone_move_names() {
    let p = Damone::start();
    let mv = notation::parse_move(&p, "h5-g6").unwrap();
    assert_eq!(Damone::move_name(&p, &mv), "h5-g6");
    assert_eq!(Damone::move_name_hub(&mv), "h5-g6");
    // A capture lists every landing square; the Hub form from, to, then the captured squares.
    let p = pos("W:Wd1:Bc2,c4,c6");
    let mut list = MoveList::new();
    Damone::generate(&p, &mut list, Duplicates::Drop);
    assert_eq!(list.len(), 1);
    assert_eq!(Damone::move_name(&p, &list[0]), "d1xb3xd5xb7");
    assert_eq!(Damone::move_name_hub(&list[0]), "d1xb7xc2xc4xc6");
}

#[test]
fn damone_move_parsing() {
    let p = pos("W:Wd1:Bc2,c4,c6");
    let want = notation::parse_move(&p, "d1xb3xd5xb7").unwrap();
    for text in [
        "d1xb7",
        "d1:b3:d5:b7",
        "D1XB7",
        "d1xb7xc2xc4xc6",
        "d1xb7xc6xc4xc2",
    ] {
        assert_eq!(notation::parse_move(&p, text), Ok(want), "{text}");
    }
    // Wrong paths, a wrong captured set, a quiet move while a capture is compulsory.
    for text in ["d1xb3xd5", "d1xf3xd5xb7", "d1xb7xc2xc4"] {
        assert!(
            matches!(notation::parse_move(&p, text), Err(MoveError::Illegal(_))),
            "{text}"
        );
    }
    let e = notation::parse_move(&p, "d1-e2").unwrap_err().to_string();
    assert!(e.contains("compulsory"), "{e}");
    // Not moves at all.
    for text in ["d1", "d1-e2-f3", "d1-d2", "x", "d1xz9"] {
        assert!(
            matches!(notation::parse_move(&p, text), Err(MoveError::Syntax(_))),
            "{text}"
        );
    }
    // A ring back to the start square: both paths and the short form name one move.
    let r = pos("W:WKe2:Bd3,d5,f3,f5");
    let m = notation::parse_move(&r, "e2xe2").unwrap();
    assert_eq!(notation::parse_move(&r, "e2xg4xe6xc4xe2"), Ok(m));
    assert_eq!(notation::parse_move(&r, "e2xc4xe6xg4xe2"), Ok(m));
    assert_eq!(notation::parse_move(&r, "e2xe2xd3xd5xf3xf5"), Ok(m));
}

#[test]
fn damone_variant_names() {
    use damiera::Variant;
    assert_eq!("damone".parse::<Variant>(), Ok(Variant::Damone));
    assert_eq!("Italian-Damone".parse::<Variant>(), Ok(Variant::Damone));
    assert_eq!(Variant::Damone.name(), "damone");
}

proptest! {
    #[test]
    fn damone_fen_parser_never_panics(s in "\\PC{0,40}") {
        let _ = notation::parse_fen(&s);
    }

    #[test]
    fn damone_fen_like_input_never_panics(s in "[WB]:[WBKIki0-9a-h,:]{0,30}") {
        let _ = notation::parse_fen(&s);
    }

    #[test]
    fn damone_move_parser_never_panics(s in "[0-9a-hxX:-]{0,12}") {
        let _ = notation::parse_move(&Damone::start(), &s);
        let _ = notation::parse_move(&pos("W:WKe2:Bd3,d5,f3,f5"), &s);
    }
}
