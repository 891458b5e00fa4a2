//! Perft against the published tables in `tests/perft/*.perft` (copied from the team's
//! reference notes, each position with its source). Counts up to `SHALLOW` leaves run in the
//! default test run; every count, however deep, runs with `cargo test --release -- --ignored`.

use damiera::movegen::Duplicates;
use damiera::perft::perft;
use damiera::{notation, Brazilian, English, Italian, Rules, Russian};

/// The largest leaf count checked in the default run (a fraction of a second each, release).
const SHALLOW: u64 = 30_000_000;

struct Case {
    id: String,
    fen: String,
    dups: Duplicates,
    depth: u32,
    leaves: u64,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, rest) = line.split_once(' ').expect("key value");
        match key {
            "id" => id = rest.to_string(),
            "fen" => fen = rest.to_string(),
            "source" => {}
            "drop" | "keep" => {
                let (d, n) = rest.split_once(' ').expect("depth count");
                out.push(Case {
                    id: id.clone(),
                    fen: fen.clone(),
                    dups: if key == "drop" {
                        Duplicates::Drop
                    } else {
                        Duplicates::Keep
                    },
                    depth: d.parse().expect("depth"),
                    leaves: n.parse().expect("count"),
                });
            }
            other => panic!("unknown key {other}"),
        }
    }
    out
}

fn check<R: Rules>(text: &str, max_leaves: u64, min_leaves: u64) {
    let mut ran = 0;
    for c in cases(text)
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
