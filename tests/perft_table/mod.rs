//! Reads the perft tables of `tests/perft/*.perft`, shared by `tests/perft.rs` and
//! `tests/damone_perft.rs`.
//!
//! Format, one item per line (`#` starts a comment line): `id <name>`, `fen <FEN>`,
//! `source <text>`, then any number of `drop <depth> <leaves>` and `keep <depth> <leaves>`
//! for the latest `fen`.

use damiera::core::movegen::Duplicates;

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
