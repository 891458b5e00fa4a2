//! Position invariants: the incrementally kept Zobrist key against a from-scratch key on random
//! game walks, FEN round trips, parser robustness on arbitrary input, and the sizes of the hot
//! types.

use damiera::core::movegen;
use damiera::core::notation;
use damiera::{Brazilian, English, Italian, Move, MoveList, Position, Rules, Russian};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn random_walks<R: Rules>(games: usize, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = Position::<R>::start();
        let mut list = MoveList::new();
        for _ in 0..200 {
            movegen::generate(&pos, &mut list);
            assert_eq!(list.is_empty(), !movegen::has_moves(&pos));
            if list.is_empty() {
                break;
            }
            let mv = list[rng.gen_range(0..list.len())];
            pos = pos.make(&mv);
            plies += 1;
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "{} {}",
                R::NAME,
                notation::fen(&pos)
            );
            // The FEN of every position reads back as the same position with the same key.
            let back = notation::parse_fen::<R>(&notation::fen(&pos)).expect("own FEN parses");
            assert_eq!(back, pos);
            assert_eq!(back.key(), pos.key());
        }
    }
    plies
}

#[test]
fn zobrist_key_matches_scratch_key_on_random_games() {
    assert!(random_walks::<English>(100, 1) > 1000);
    assert!(random_walks::<Italian>(100, 2) > 1000);
    assert!(random_walks::<Brazilian>(100, 3) > 1000);
    assert!(random_walks::<Russian>(100, 4) > 1000);
}

#[test]
fn hot_types_are_small() {
    assert_eq!(std::mem::size_of::<Move>(), 16);
    assert!(std::mem::size_of::<Position<English>>() <= 40);
}

#[test]
fn side_to_move_changes_the_key() {
    let w = notation::parse_fen::<Russian>("W:Wc3:Bf6").unwrap();
    let b = notation::parse_fen::<Russian>("B:Wc3:Bf6").unwrap();
    assert_ne!(w.key(), b.key());
}

proptest! {
    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,40}") {
        let _ = notation::parse_fen::<English>(&s);
        let _ = notation::parse_fen::<Russian>(&s);
    }

    #[test]
    fn fen_like_input_never_panics(s in "[WB]:[WBK0-9a-h,:-]{0,30}") {
        let _ = notation::parse_fen::<Italian>(&s);
        let _ = notation::parse_fen::<Brazilian>(&s);
    }

    #[test]
    fn move_parser_never_panics(s in "[0-9a-hxX:-]{0,12}") {
        let pos = Position::<English>::start();
        let _ = notation::parse_move(&pos, &s);
        let pos = Position::<Russian>::start();
        let _ = notation::parse_move(&pos, &s);
    }
}
