//! Perft against the published tables in `tests/perft/*.perft` (copied from the team's
//! reference notes, each position with its source). Counts up to `SHALLOW` leaves run in the
//! default test run; every count, however deep, runs with `cargo test --release -- --ignored`.

mod perft_table;

use damiera::core::notation;
use damiera::core::perft::perft;
use damiera::{Brazilian, English, International, Italian, Rules, Russian};

/// The largest leaf count checked in the default run (a fraction of a second each, release).
const SHALLOW: u64 = 30_000_000;

fn check<R: Rules>(text: &str, max_leaves: u64, min_leaves: u64) {
    let mut ran = 0;
    for c in perft_table::cases(text)
        .iter()
        .filter(|c| c.leaves <= max_leaves && c.leaves > min_leaves)
    {
        let pos = notation::parse_fen::<R>(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let got = perft(&pos, c.depth, c.dups);
        assert_eq!(
            got,
            c.leaves,
            "{} {} {:?} depth {}",
            R::NAME,
            c.id,
            c.dups,
            c.depth
        );
        ran += 1;
    }
    eprintln!("{}: {ran} perft counts checked", R::NAME);
}

const ENGLISH: &str = include_str!("perft/english.perft");
const ITALIAN: &str = include_str!("perft/italian.perft");
const RUSSIAN: &str = include_str!("perft/russian.perft");
const BRAZILIAN: &str = include_str!("perft/brazilian.perft");
const INTERNATIONAL: &str = include_str!("perft/international.perft");

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
