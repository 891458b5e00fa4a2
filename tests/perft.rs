//! Perft against the published tables in `tests/perft/*.perft` (copied from the team's
//! reference notes, each position with its source). Counts up to `SHALLOW` leaves run in the
//! default test run; every count, however deep, runs with `cargo test --release -- --ignored`.

mod perft_table;

use damiera::{Brazilian, Draughts, English, Frisian, International, Italian, Russian};

/// The largest leaf count checked in the default run (a fraction of a second each, release).
const SHALLOW: u64 = 30_000_000;

/// Checks the counts of `text` with `min_leaves < leaves <= max_leaves` for `G`.
fn check<G: Draughts>(text: &str, max_leaves: u64, min_leaves: u64) {
    perft_table::check::<G>(text, min_leaves, max_leaves, |_, _| {});
}

const ENGLISH: &str = include_str!("perft/english.perft");
const ITALIAN: &str = include_str!("perft/italian.perft");
const RUSSIAN: &str = include_str!("perft/russian.perft");
const BRAZILIAN: &str = include_str!("perft/brazilian.perft");
const INTERNATIONAL: &str = include_str!("perft/international.perft");
const FRISIAN: &str = include_str!("perft/frisian.perft");

#[test]
fn english_perft_shallow() {
    check::<English>(ENGLISH, SHALLOW, 0);
}

#[test]
fn italian_perft_shallow() {
    check::<Italian>(ITALIAN, SHALLOW, 0);
}

#[test]
fn russian_perft_shallow() {
    check::<Russian>(RUSSIAN, SHALLOW, 0);
}

#[test]
fn brazilian_perft_shallow() {
    check::<Brazilian>(BRAZILIAN, SHALLOW, 0);
}

#[test]
fn international_perft_shallow() {
    check::<International>(INTERNATIONAL, SHALLOW, 0);
}

#[test]
fn frisian_perft_shallow() {
    check::<Frisian>(FRISIAN, SHALLOW, 0);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn english_perft_deep() {
    check::<English>(ENGLISH, u64::MAX, SHALLOW);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn italian_perft_deep() {
    check::<Italian>(ITALIAN, u64::MAX, SHALLOW);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn russian_perft_deep() {
    check::<Russian>(RUSSIAN, u64::MAX, SHALLOW);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn brazilian_perft_deep() {
    check::<Brazilian>(BRAZILIAN, u64::MAX, SHALLOW);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn international_perft_deep() {
    check::<International>(INTERNATIONAL, u64::MAX, SHALLOW);
}

#[test]
#[ignore = "deep perft: minutes; run with cargo test --release -- --ignored"]
fn frisian_perft_deep() {
    check::<Frisian>(FRISIAN, u64::MAX, SHALLOW);
}
