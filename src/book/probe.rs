//! [`Book`]: a book's entries in memory, probed by position (docs/book.md, "Probing").
//!
//! A probe computes the position's key, finds its entries by binary search, and matches each
//! entry's move to a legal move of the position by its squares ([`book_move`]); an entry that
//! matches no legal move (a corrupted book, or a key collision) is skipped, so a probe never
//! gives an illegal move.

use super::entry::{BookMove, Entry};
use super::file::{read, BookError};
use super::key::{book_key, book_number};
use crate::core::moves::Move;
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use std::path::Path;

/// An opening book: its variant and its entries in file order.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    entries: Vec<Entry>,
}

/// What `book info` prints: the variant, the number of entries and of positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookInfo {
    /// The book's variant.
    pub variant: Variant,
    /// Its entries (moves).
    pub entries: usize,
    /// Its distinct positions (keys).
    pub positions: usize,
}

/// A book move matched to a legal move of the probed position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbedMove {
    /// The legal move.
    pub mv: Move,
    /// Its name in the variant's notation.
    pub name: String,
    /// The book's entry for it.
    pub entry: Entry,
}

/// The book form of `mv`, a legal move of `pos`: its squares in the book numbering.
pub fn book_move(pos: &VariantPosition, mv: &Move) -> BookMove {
    let squares = pos.move_squares(mv);
    let number = |name: &String| book_number(pos, name).expect("a square of the board");
    BookMove {
        from: number(&squares.path[0]),
        to: number(squares.path.last().expect("a move has two squares or more")),
        captured: squares
            .captured
            .iter()
            .fold(0, |m, s| m | 1u64 << (number(s) - 1)),
    }
}

impl Book {
    /// A book of `variant` holding `entries` (sorted here into the file order).
    pub fn new(variant: Variant, mut entries: Vec<Entry>) -> Book {
        entries.sort_by(Entry::file_order);
        Book { variant, entries }
    }

    /// Reads the book at `path` ([`read`]).
    ///
    /// # Errors
    /// [`read`]'s one line: unreadable, foreign, truncated or unsorted file.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let (variant, entries) = read(path)?;
        Ok(Book { variant, entries })
    }

    /// The book's variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries of `key`, best score first.
    pub fn entries_of(&self, key: u64) -> &[Entry] {
        let lo = self.entries.partition_point(|e| e.key < key);
        let hi = self.entries.partition_point(|e| e.key <= key);
        &self.entries[lo..hi]
    }

    /// The book's moves in `pos`, best score first: each entry of its key matched to a legal
    /// move; entries matching none are skipped. Empty for a position of another variant.
    pub fn probe(&self, pos: &VariantPosition) -> Vec<ProbedMove> {
        if pos.variant() != self.variant {
            return Vec::new();
        }
        let entries = self.entries_of(book_key(pos));
        if entries.is_empty() {
            return Vec::new();
        }
        let legal: Vec<(BookMove, Move)> = pos
            .legal_moves()
            .iter()
            .map(|mv| (book_move(pos, mv), *mv))
            .collect();
        entries
            .iter()
            .filter_map(|e| {
                let (_, mv) = legal.iter().find(|(b, _)| *b == e.mv)?;
                Some(ProbedMove {
                    mv: *mv,
                    name: pos.move_name(mv),
                    entry: *e,
                })
            })
            .collect()
    }

    /// The variant, entries and positions.
    pub fn info(&self) -> BookInfo {
        let positions = self
            .entries
            .windows(2)
            .filter(|w| w[0].key != w[1].key)
            .count()
            + usize::from(!self.entries.is_empty());
        BookInfo {
            variant: self.variant,
            entries: self.entries.len(),
            positions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_finds_legal_moves_and_skips_a_corrupted_entry() {
        let pos = VariantPosition::start(Variant::English);
        let key = book_key(&pos);
        let moves = pos.legal_moves();
        let first = book_move(&pos, &moves[0]);
        let entry = |mv, score| Entry {
            key,
            mv,
            score,
            depth: 1,
            count: 0,
        };
        let bogus = BookMove {
            from: 1,
            to: 32,
            captured: 0,
        };
        let book = Book::new(Variant::English, vec![entry(bogus, 90), entry(first, 10)]);
        let got = book.probe(&pos);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].mv, moves[0]);
        assert_eq!(book.info().positions, 1);
        assert!(book
            .probe(&VariantPosition::start(Variant::Italian))
            .is_empty());
    }

    #[test]
    fn every_legal_move_has_its_own_book_move() {
        // A capture choice with shared ends would collide without the captured set.
        for v in Variant::ALL {
            let pos = VariantPosition::start(v);
            let mut seen: Vec<BookMove> = pos
                .legal_moves()
                .iter()
                .map(|m| book_move(&pos, m))
                .collect();
            let n = seen.len();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len(), n, "{v:?}");
        }
    }
}
