//! The databases against an independent check: a plain AND-OR search that plays to the end of
//! the game (a side with no piece or no legal move loses; in Antidraughts it wins) from random
//! positions of every database, with no database and no evaluation. Wherever it proves a result within its depth,
//! the stored value must be the same; a position the search proves neither way is not checked.
//! The search shares only the move generator with the builder (as `egdb verify` does), not the
//! retrograde propagation, the index or the files.
//!
//! And against pydraughts 0.6.7's rules (`tests/pydraughts/prove.py`, the same AND-OR search
//! over pydraughts' own move generator): where it forces a result within a few plies, the
//! stored value is that result.

mod common;
mod egdb_common;
use egdb_common::build_all;

use damiera::core::bitboard::{Bitboard, Square};
use damiera::core::geometry::Geometry;
use damiera::core::movegen;
use damiera::core::notation::fen::fen;
use damiera::core::rules::{Antidraughts, Frisian, Goal};
use damiera::egdb::{Egdb, Wld};
use damiera::{
    Brazilian, Color, Duplicates, English, International, Italian, MoveList, Play, Position, Rules,
    Russian,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The result for the side to move proven within `depth` plies, if any. A side without a
/// legal move has lost, or won in Antidraughts (lidraughts' rule, docs/rules.md).
fn prove<R: Rules>(pos: &Position<R>, depth: u32) -> Option<Wld> {
    let mut list = MoveList::new();
    R::generate(pos, &mut list, Duplicates::Drop);
    if list.is_empty() {
        return Some(if R::GOAL == Goal::NoMoveWins {
            Wld::Win
        } else {
            Wld::Loss
        });
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
/// they would be crowned; kings only where the databases hold only kings, in Frisian),
/// either side to move.
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
            let king = R::KING_MOVE_LIMIT > 0 || rng.gen_bool(0.5);
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

/// `R`'s databases up to `pieces`, built under `root`.
fn built<R: Rules>(root: &Path, pieces: u32) -> Egdb {
    build_all::<R>(root, pieces);
    Egdb::open(root, R::VARIANT, pieces).expect("open")
}

/// Builds `R`'s databases up to `pieces`, then checks `samples` random positions of every
/// piece count from 2 to `pieces` against [`prove`] to `depth` plies. Returns how many the
/// search proved.
fn agree<R: Rules>(pieces: u32, samples: usize, depth: u32) -> usize {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = built::<R>(tmp.path(), pieces);
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

#[test]
fn antidraughts_values_agree_with_a_plain_search() {
    agree::<Antidraughts>(3, 500, 4);
}

#[test]
fn frisian_kings_agree_with_a_plain_search() {
    agree::<Frisian>(3, 300, 3);
}

/// Builds `R`'s databases up to 3 pieces and checks `samples` random 3-piece positions against
/// pydraughts' forced results within `depth` plies. Returns how many pydraughts proved.
fn agree_with_pydraughts<R: Rules>(samples: usize, depth: u32) -> usize {
    let tmp = tempfile::tempdir().expect("tempdir");
    let db = built::<R>(tmp.path(), 3);
    let mut rng = StdRng::seed_from_u64(6);
    let positions: Vec<Position<R>> = (0..samples)
        .map(|_| random_position::<R>(&mut rng, 3))
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/prove.py");
    let mut child = Command::new(common::python())
        .arg(script)
        .args(["--variant", R::NAME, "--depth", &depth.to_string()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run prove.py");
    let input: String = positions.iter().map(|p| fen(p) + "\n").collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write FENs");
    let out = child.wait_with_output().expect("prove.py");
    assert!(out.status.success(), "prove.py failed");
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), positions.len(), "one answer per FEN");
    let mut proven = 0;
    for (pos, answer) in positions.iter().zip(&lines) {
        let result = match answer.as_str() {
            "win" => Wld::Win,
            "loss" => Wld::Loss,
            _ => continue,
        };
        proven += 1;
        let stored = db.lookup(pos).expect("covered").value;
        assert_eq!(stored, result, "{}: {}", R::NAME, fen(pos));
    }
    eprintln!("{}: pydraughts proved {proven} of {samples}", R::NAME);
    assert!(proven * 20 >= samples, "{}: only {proven} proven", R::NAME);
    proven
}

#[test]
fn english_values_agree_with_pydraughts() {
    agree_with_pydraughts::<English>(120, 3);
}

#[test]
fn italian_values_agree_with_pydraughts() {
    agree_with_pydraughts::<Italian>(120, 3);
}

#[test]
fn russian_values_agree_with_pydraughts() {
    agree_with_pydraughts::<Russian>(80, 2);
}

#[test]
fn brazilian_values_agree_with_pydraughts() {
    agree_with_pydraughts::<Brazilian>(80, 2);
}

#[test]
fn international_values_agree_with_pydraughts() {
    agree_with_pydraughts::<International>(50, 2);
}

#[test]
fn antidraughts_values_agree_with_pydraughts() {
    agree_with_pydraughts::<Antidraughts>(50, 2);
}

#[test]
fn frisian_kings_agree_with_pydraughts() {
    agree_with_pydraughts::<Frisian>(50, 2);
}
