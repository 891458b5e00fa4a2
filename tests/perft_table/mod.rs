//! Reads the perft tables of `tests/perft/*.perft` and checks them, for any game ([`check`]):
//! the one runner of `tests/perft.rs` (the five men-and-kings variants) and
//! `tests/damone_perft.rs` (Italian Damone, with its further checks).
//!
//! Format, one item per line (`#` starts a comment line): `id <name>`, `fen <FEN>`,
//! `source <text>`, then any number of `drop <depth> <leaves>` and `keep <depth> <leaves>`
//! for the latest `fen`.

use damiera::core::movegen::Duplicates;
use damiera::core::perft::perft;
use damiera::Draughts;

/// One published count: `leaves` at `depth` plies from `fen`, with duplicates per `dups`.
pub struct Case {
    pub id: String,
    pub fen: String,
    pub dups: Duplicates,
    pub depth: u32,
    pub leaves: u64,
}

/// Every count of a table, in file order. Panics on a malformed line (the tables are test data).
pub fn cases(text: &str) -> Vec<Case> {
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

/// Checks every count of `table` with `min < leaves <= max` by `G`'s bulk-counting perft, and
/// hands each case with its position to `also` (a game's further checks). Returns the number of
/// counts checked.
pub fn check<G: Draughts>(
    table: &str,
    min: u64,
    max: u64,
    mut also: impl FnMut(&Case, &G::Position),
) -> usize {
    let mut ran = 0;
    for c in cases(table)
        .iter()
        .filter(|c| c.leaves > min && c.leaves <= max)
    {
        let pos = G::parse_fen(&c.fen).unwrap_or_else(|e| panic!("{}: {e}", c.id));
        let got = perft::<G>(&pos, c.depth, c.dups);
        assert_eq!(
            got,
            c.leaves,
            "{} {} {:?} depth {}",
            G::NAME,
            c.id,
            c.dups,
            c.depth
        );
        also(c, &pos);
        ran += 1;
    }
    eprintln!("{}: {ran} perft counts checked", G::NAME);
    ran
}
