//! The databases against an independent check: a plain AND-OR search that plays to the end of
//! the game (a side with no piece or no legal move loses) from random positions of every
//! database, with no database and no evaluation. Wherever it proves a result within its depth,
//! the stored value must be the same; a position the search proves neither way is not checked.
//! The search shares only the move generator with the builder (as `egdb verify` does), not the
//! retrograde propagation, the index or the files.

use damiera::core::bitboard::{Bitboard, Square};
use damiera::core::geometry::Geometry;
use damiera::core::movegen;
use damiera::egdb::build::{build, BuildOptions};
use damiera::egdb::{Egdb, Wld};
use damiera::{
    Brazilian, Color, Duplicates, English, International, Italian, MoveList, Play, Position, Rules,
    Russian,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The result for the side to move proven within `depth` plies, if any.
fn prove<R: Rules>(pos: &Position<R>, depth: u32) -> Option<Wld> {
    let mut list = MoveList::new();
    R::generate(pos, &mut list, Duplicates::Drop);
    if list.is_empty() {
        return Some(Wld::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_win = true;
    for mv in list.iter() {
        match prove(&R::make(pos, mv), depth - 1) {
            Some(Wld::Loss) => return Some(Wld::Win),
            Some(Wld::Win) => {}
            _ => all_win = false,
        }
    }
    all_win.then_some(Wld::Loss)
}

/// A random position of `pieces` pieces, both sides on the board (men never on the row where
/// they would be crowned), either side to move.
fn random_position<R: Rules>(rng: &mut StdRng, pieces: u32) -> Position<R> {
    let squares: Vec<Square> = R::Board::ALL.iter().collect();
    loop {
        let (mut sets, mut kings) = ([Bitboard::EMPTY; 2], Bitboard::EMPTY);
        let mut ok = true;
        for i in 0..pieces {
            // The first piece is White's, the second Black's, the rest either.
            let color = match i {
                0 => Color::White,
                1 => Color::Black,
                _ if rng.gen_bool(0.5) => Color::White,
                _ => Color::Black,
            };
            let sq = squares[rng.gen_range(0..squares.len())];
            let king = rng.gen_bool(0.5);
            if (sets[0] | sets[1]).contains(sq)
                || (!king && movegen::promotion_row::<R>(color).contains(sq))
            {
                ok = false;
                break;
            }
            sets[color as usize] = sets[color as usize].with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
        if ok {
            let side = if rng.gen_bool(0.5) {
                Color::White
            } else {
                Color::Black
            };
            return Position::from_parts(sets[0], sets[1], kings, side);
        }
    }
}

/// Builds `R`'s databases up to `pieces`, then checks `samples` random positions of every
/// piece count from 2 to `pieces` against [`prove`] to `depth` plies. Returns how many the
/// search proved.
fn agree<R: Rules>(pieces: u32, samples: usize, depth: u32) -> usize {
    let tmp = tempfile::tempdir().expect("tempdir");
    let opts = BuildOptions {
        root: tmp.path().to_path_buf(),
        pieces,
        threads: 2,
        progress: false,
    };
    build::<R>(&opts).expect("build");
    let db = Egdb::open(tmp.path(), R::VARIANT, pieces).expect("open");
    let mut rng = StdRng::seed_from_u64(33);
    let mut proven = 0;
    for n in 2..=pieces {
        for _ in 0..samples {
            let pos = random_position::<R>(&mut rng, n);
            let stored = db.lookup(&pos).expect("covered").value;
            if let Some(result) = prove(&pos, depth) {
                proven += 1;
                assert_eq!(stored, result, "{}: {pos:?}", R::NAME);
            }
        }
    }
    let total = samples * (pieces as usize - 1);
    eprintln!("{}: {proven} of {total} random positions proven", R::NAME);
    // The check must bite: a good share of the positions is proven either way.
    assert!(
        proven * 20 >= total,
        "{}: only {proven} of {total} proven",
        R::NAME
    );
    proven
}

#[test]
fn english_values_agree_with_a_plain_search() {
    agree::<English>(4, 1000, 6);
}

#[test]
fn italian_values_agree_with_a_plain_search() {
    agree::<Italian>(3, 1000, 6);
}

#[test]
fn brazilian_values_agree_with_a_plain_search() {
    agree::<Brazilian>(3, 1000, 5);
}

#[test]
fn russian_values_agree_with_a_plain_search() {
    agree::<Russian>(3, 1000, 5);
}

#[test]
fn international_values_agree_with_a_plain_search() {
    agree::<International>(3, 500, 4);
}
