//! `damiera book merge`: the union of books of one variant (docs/book.md, "Merging").
//!
//! Two entries are the same when they have the same key and move. Of the same entry in several
//! books the one of the greatest depth is kept (on a tie, the one of the earliest book), with
//! the counts of all of them summed (saturating at `u32::MAX`).

use crate::book::{Book, BookMove, Entry};
use crate::core::variant::Variant;
use std::collections::HashMap;
use std::fmt;

/// Why books cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No book was given.
    NoBooks,
    /// The book at `index` (0-based, in the order given) is of `found`, the first of
    /// `expected`.
    MixedVariants {
        /// The offending book's place in the list, from 0.
        index: usize,
        /// The first book's variant.
        expected: Variant,
        /// The offending book's variant.
        found: Variant,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoBooks => f.write_str("no book to merge"),
            MergeError::MixedVariants {
                index,
                expected,
                found,
            } => write!(
                f,
                "book {} is {}, book 1 is {}: books of one variant only",
                index + 1,
                found.name(),
                expected.name()
            ),
        }
    }
}

impl std::error::Error for MergeError {}

/// The union of `books`, all of one variant: every (key, move) of any of them once, the entry
/// of the greatest depth (ties: the earliest book's) with the sum of the counts (saturating).
///
/// # Errors
/// [`MergeError::NoBooks`] for an empty list; [`MergeError::MixedVariants`] for the first book
/// whose variant is not the first book's.
pub fn merge(books: &[Book]) -> Result<Book, MergeError> {
    let variant = books.first().ok_or(MergeError::NoBooks)?.variant();
    if let Some((index, b)) = books
        .iter()
        .enumerate()
        .find(|(_, b)| b.variant() != variant)
    {
        return Err(MergeError::MixedVariants {
            index,
            expected: variant,
            found: b.variant(),
        });
    }
    let mut merged: HashMap<(u64, BookMove), Entry> = HashMap::new();
    for e in books.iter().flat_map(|b| b.entries()) {
        merged
            .entry((e.key, e.mv))
            .and_modify(|kept| {
                let count = kept.count.saturating_add(e.count);
                if e.depth > kept.depth {
                    *kept = *e;
                }
                kept.count = count;
            })
            .or_insert(*e);
    }
    Ok(Book::new(variant, merged.into_values().collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, from: u8, score: i16, depth: u8, count: u32) -> Entry {
        Entry {
            key,
            mv: BookMove {
                from,
                to: from + 4,
                captured: 0,
            },
            score,
            depth,
            count,
        }
    }

    #[test]
    fn the_deepest_entry_is_kept_and_counts_are_summed() {
        let a = Book::new(
            Variant::English,
            vec![
                entry(1, 9, 10, 4, 3),
                entry(1, 10, 5, 6, 1),
                entry(2, 9, 0, 2, 7),
            ],
        );
        let b = Book::new(
            Variant::English,
            vec![
                entry(1, 9, -20, 8, u32::MAX),
                entry(1, 10, 50, 6, 2),
                entry(3, 1, 1, 0, 1),
            ],
        );
        let m = merge(&[a, b]).unwrap();
        let mut got = m.entries().to_vec();
        got.sort_by_key(|e| (e.key, e.mv));
        assert_eq!(
            got,
            [
                entry(1, 9, -20, 8, u32::MAX),
                entry(1, 10, 5, 6, 3),
                entry(2, 9, 0, 2, 7),
                entry(3, 1, 1, 0, 1),
            ]
        );
        let r = Book::new(Variant::Russian, vec![]);
        let e = Book::new(Variant::English, vec![]);
        assert_eq!(
            merge(&[e.clone(), e, r]).unwrap_err(),
            MergeError::MixedVariants {
                index: 2,
                expected: Variant::English,
                found: Variant::Russian
            }
        );
        assert_eq!(merge(&[]).unwrap_err(), MergeError::NoBooks);
    }
}
