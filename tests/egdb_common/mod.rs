//! Shared by the endgame-database tests: building a variant's databases into a directory, and
//! reading one position's stored value from the table files.

use damiera::core::notation::fen::parse_fen;
use damiera::egdb::build::{build, material_of, placement, BuildOptions, TableSet};
use damiera::egdb::material::canonical;
use damiera::egdb::{decode, variant_dir, Probe};
use damiera::{Position, Rules};
use std::path::Path;

/// Builds every table of `R` up to `pieces` pieces into `<root>/<variant>/` (two threads).
pub fn build_all<R: Rules>(root: &Path, pieces: u32) {
    let opts = BuildOptions {
        root: root.to_path_buf(),
        pieces,
        threads: 2,
    };
    build::<R>(&opts, &mut |_| {}).expect("build");
}

/// The stored value of a position (either side to move), read from the table files.
#[allow(dead_code)]
pub fn value_of<R: Rules>(root: &Path, fen: &str) -> Probe {
    let pos: Position<R> = parse_fen(fen).expect("fen");
    let p = placement(&canonical(&pos));
    let m = material_of(&p);
    let mut set = TableSet::default();
    set.load::<R>(&variant_dir(root, R::VARIANT), m)
        .expect("table");
    decode(set.entry::<R>(m, &p).expect("entry"))
}
