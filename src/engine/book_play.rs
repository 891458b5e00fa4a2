//! Playing from an opening book (docs/book.md, "In the engine"): the `BookMode` choice among
//! a position's book moves, deterministic given the `Seed` option, the position and the
//! number of games begun.

use crate::book::ProbedMove;

/// How the engine chooses among a position's book moves (option `BookMode`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BookMode {
    /// The move of the highest score (the first in the book on a tie).
    Best,
    /// A move drawn uniformly among those within [`GOOD_MARGIN_CM`] of the best.
    Good,
    /// A move drawn among those within [`RANDOM_MARGIN_CM`] of the best, weighted by how close
    /// to the best it is (the best weighs `RANDOM_MARGIN_CM + 1`, one at the margin).
    Random,
}

/// `BookMode` good: the margin below the best score, in centi-men.
pub const GOOD_MARGIN_CM: i32 = 10;
/// `BookMode` random: the margin below the best score, in centi-men.
pub const RANDOM_MARGIN_CM: i32 = 50;
/// The default `BookPly`: the book is used up to this ply of the game.
pub const DEFAULT_BOOK_PLY: u32 = 20;
/// The largest `BookPly`.
pub const MAX_BOOK_PLY: u32 = 1000;

impl BookMode {
    /// The mode of its option name (`best`, `good`, `random`, any case).
    pub fn from_name(name: &str) -> Option<BookMode> {
        match name.to_ascii_lowercase().as_str() {
            "best" => Some(BookMode::Best),
            "good" => Some(BookMode::Good),
            "random" => Some(BookMode::Random),
            _ => None,
        }
    }

    /// Its option name.
    pub fn name(self) -> &'static str {
        match self {
            BookMode::Best => "best",
            BookMode::Good => "good",
            BookMode::Random => "random",
        }
    }
}

/// The index in `moves` of the move `mode` plays, drawing from `random` (a number from
/// [`level_random`](crate::engine::search::level_random)); `None` when `moves` is empty.
pub fn choose_book_move(moves: &[ProbedMove], mode: BookMode, random: u64) -> Option<usize> {
    let score = |i: usize| i32::from(moves[i].entry.score);
    let best = (0..moves.len()).fold(None, |b: Option<usize>, i| match b {
        Some(j) if score(j) >= score(i) => Some(j),
        _ => Some(i),
    })?;
    let margin = match mode {
        BookMode::Best => return Some(best),
        BookMode::Good => GOOD_MARGIN_CM,
        BookMode::Random => RANDOM_MARGIN_CM,
    };
    let weight = |i: usize| -> u64 {
        let below = score(best) - score(i);
        if below > margin {
            0
        } else if mode == BookMode::Good {
            1
        } else {
            (margin + 1 - below) as u64
        }
    };
    let total: u64 = (0..moves.len()).map(weight).sum();
    let mut r = random % total;
    for i in 0..moves.len() {
        let w = weight(i);
        if r < w {
            return Some(i);
        }
        r -= w;
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::probe::book_move;
    use crate::book::{book_key, Entry};
    use crate::core::variant::Variant;
    use crate::core::variant_position::VariantPosition;
    use crate::engine::search::level_random;

    fn moves(scores: &[i16]) -> Vec<ProbedMove> {
        let pos = VariantPosition::start(Variant::English);
        pos.legal_moves()
            .iter()
            .zip(scores)
            .map(|(mv, &score)| ProbedMove {
                mv: *mv,
                name: pos.move_name(mv),
                entry: Entry {
                    key: book_key(&pos),
                    mv: book_move(&pos, mv),
                    score,
                    depth: 1,
                    count: 0,
                },
            })
            .collect()
    }

    #[test]
    fn best_good_and_random_stay_within_their_margins() {
        let m = moves(&[5, 40, 35, 0, -100, 20, 39]);
        assert_eq!(choose_book_move(&m, BookMode::Best, 7), Some(1));
        let mut good = std::collections::BTreeSet::new();
        let mut random = std::collections::BTreeSet::new();
        for r in 0..1000u64 {
            let r = level_random(r, 1, 0);
            good.insert(choose_book_move(&m, BookMode::Good, r).unwrap());
            random.insert(choose_book_move(&m, BookMode::Random, r).unwrap());
        }
        assert_eq!(good.into_iter().collect::<Vec<_>>(), vec![1, 2, 6]);
        assert_eq!(
            random.into_iter().collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 5, 6]
        );
        assert_eq!(choose_book_move(&[], BookMode::Random, 3), None);
    }
}
