//! The fuzz targets' checks (`fuzz/checks.rs`, run for millions of executions by `cargo
//! fuzz`, see fuzz/README.md) as bounded property tests on stable Rust, in every test run:
//! random bytes, and random edits of the seed inputs in `fuzz/seeds/`.

#[path = "../fuzz/checks.rs"]
mod checks;

use proptest::prelude::*;
use std::path::Path;

/// The seed inputs of a fuzz target.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut out: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no seeds in {}", dir.display());
    out
}

/// A seed of `target` with a few random byte edits (replace, insert, delete).
fn edited_seed(target: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let all = seeds(target);
    (
        0..all.len(),
        prop::collection::vec((any::<u16>(), any::<u8>(), 0u8..3), 0..6),
    )
        .prop_map(move |(i, edits)| {
            let mut s = all[i].clone();
            for (at, byte, kind) in edits {
                let at = at as usize % (s.len() + 1);
                match kind {
                    0 if at < s.len() => s[at] = byte,
                    1 => s.insert(at, byte),
                    _ if at < s.len() => {
                        s.remove(at);
                    }
                    _ => {}
                }
            }
            s
        })
}

/// Text made of the characters that FENs, moves and protocol lines use.
fn texty(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(b"0123456789abcdefghWBK:,-x.= \n\"pqrstuvwPOSITIONgo".to_vec()),
        0..max,
    )
}

/// Text made of the characters of PDN files.
fn pdn_texty(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop::sample::select(b"0123456789abcdefgh[]\"GameTyp FEN:WBK,-x.{}()$%;*!? \n".to_vec()),
        0..max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn pdn_random_bytes(data in prop::collection::vec(any::<u8>(), 0..200)) {
        checks::pdn(&data);
    }

    #[test]
    fn pdn_random_text(data in pdn_texty(300)) {
        checks::pdn(&data);
    }

    #[test]
    fn pdn_edited_seeds(data in edited_seed("pdn")) {
        checks::pdn(&data);
    }

    #[test]
    fn fen_random_bytes(data in prop::collection::vec(any::<u8>(), 0..80)) {
        checks::fen(&data);
    }

    #[test]
    fn fen_texty(v in any::<u8>(), text in texty(80)) {
        let mut data = vec![v];
        data.extend(text);
        checks::fen(&data);
    }

    #[test]
    fn fen_edited_seeds(data in edited_seed("fen")) {
        checks::fen(&data);
    }

    #[test]
    fn move_text_random(data in prop::collection::vec(any::<u8>(), 0..60)) {
        checks::move_text(&data);
    }

    #[test]
    fn move_text_edited_seeds(data in edited_seed("move_text")) {
        checks::move_text(&data);
    }
}

proptest! {
    // Each case starts an engine and may search: fewer cases.
    #![proptest_config(ProptestConfig { cases: 50, ..ProptestConfig::default() })]

    #[test]
    fn native_edited_seeds(data in edited_seed("native")) {
        checks::native_session(&data);
    }

    #[test]
    fn native_texty(data in texty(200)) {
        checks::native_session(&data);
    }

    #[test]
    fn hub_edited_seeds(data in edited_seed("hub")) {
        checks::hub_session(&data);
    }

    #[test]
    fn reused_sessions(data in edited_seed("native"), hub in edited_seed("hub")) {
        checks::native_session_reused(&data);
        checks::hub_session_reused(&hub);
    }
}
