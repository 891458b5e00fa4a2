//! The checks behind the fuzz targets (`fuzz/`, cargo fuzz with libFuzzer) and the property
//! tests that run the same checks in CI (`tests/fuzzing.rs`, proptest). Each function takes
//! arbitrary bytes and panics only if damiera breaks a promise on them:
//!
//! - [`fen`]: a FEN of any variant is parsed or refused without a panic; a parsed position's
//!   FEN parses back to the same position.
//! - [`move_text`]: move text in a position reached by legal moves is parsed or refused
//!   without a panic; a parsed move is legal, and its name parses back to it.
//! - [`pdn`]: a PDN file is read into games, and each is replayed or refused with a line and
//!   column, without a panic; a replayed game written back as move text replays the same.
//! - [`native_session`] and [`hub_session`]: protocol lines drive the real command loops
//!   in-process; every line is answered or ignored as documented and the loop ends at the
//!   end of input. Lines are bounded so that one input runs in well under a millisecond:
//!   searches to 2 plies (`depth 2` added to every `go`, `depth=2` to every Hub `level`), perft
//!   at most 5 plies, no `Hash` or `hash` change (a large table is tested by
//!   tests/reliability.rs), no weights files. Long searches meeting commands are tested by
//!   tests/protocol.rs and tests/reliability.rs.

// Each fuzz target includes this file and uses one of its checks.
#![allow(dead_code)]

use damiera::core::dispatch::{Dispatch, VariantFn};
use damiera::core::draughts::Draughts;
use damiera::core::movegen::Duplicates;
use damiera::core::moves::MoveList;
use damiera::core::variant::Variant;
use damiera::protocol::{self, InputError, Output};
use std::sync::Mutex;

/// The variant picked by a byte.
fn variant_of(b: u8) -> Variant {
    Variant::ALL[b as usize % Variant::ALL.len()]
}

struct FenCheck<'a>(&'a str);

impl VariantFn for FenCheck<'_> {
    type Output = ();
    fn call<G: Draughts>(self) {
        if let Ok(pos) = G::parse_fen(self.0) {
            let text = G::fen(&pos);
            let again = G::parse_fen(&text)
                .unwrap_or_else(|e| panic!("{}: own FEN {text:?} refused: {e}", G::NAME));
            assert_eq!(G::fen(&again), text, "{}", G::NAME);
            assert_eq!(G::key(&again), G::key(&pos), "{}: {text}", G::NAME);
            // Whatever was parsed can be played from.
            let mut list = MoveList::new();
            G::generate(&pos, &mut list, Duplicates::Drop);
            for mv in list.iter() {
                let _ = G::make(&pos, mv);
            }
        }
    }
}

/// `data[0]` picks the variant, the rest is FEN text.
pub fn fen(data: &[u8]) {
    let Some((&v, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    variant_of(v).dispatch(FenCheck(&text));
}

struct MoveCheck<'a> {
    plies: &'a [u8],
    text: &'a str,
}

impl VariantFn for MoveCheck<'_> {
    type Output = ();
    fn call<G: Draughts>(self) {
        // A position reached by legal moves chosen by the bytes.
        let mut pos = G::start();
        for &b in self.plies {
            let mut list = MoveList::new();
            G::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            pos = G::make(&pos, &list[b as usize % list.len()]);
        }
        let mut list = MoveList::new();
        G::generate(&pos, &mut list, Duplicates::Keep);
        if let Ok(mv) = G::parse_move(&pos, self.text) {
            assert!(
                list.contains(&mv),
                "{}: {:?} parsed to an illegal move in {}",
                G::NAME,
                self.text,
                G::fen(&pos)
            );
            let name = G::move_name(&pos, &mv);
            let back = G::parse_move(&pos, &name)
                .unwrap_or_else(|e| panic!("{}: own name {name} refused: {e}", G::NAME));
            assert!(back == mv, "{}: {name} parses to another move", G::NAME);
        }
    }
}

/// `data[0]` picks the variant, `data[1]` the number of plies played from the start (up to
/// 63), the next bytes choose those moves, and the rest is move text.
pub fn move_text(data: &[u8]) {
    let [v, n, rest @ ..] = data else {
        return;
    };
    let n = (*n as usize % 64).min(rest.len());
    let (plies, text) = rest.split_at(n);
    let text = String::from_utf8_lossy(text);
    variant_of(*v).dispatch(MoveCheck { plies, text: &text });
}

/// `data[0]` picks the variant of games without a GameType, the rest is a PDN file.
pub fn pdn(data: &[u8]) {
    let [v, rest @ ..] = data else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    for game in damiera::tools::pdn::read_games(&text) {
        let Ok(variant) = damiera::tools::pdn::variant_of(&game, Some(variant_of(*v))) else {
            continue;
        };
        match damiera::tools::pdn::replay(&game, variant) {
            Ok(r) => {
                // The moves as damiera writes them read back to the same game.
                let mut again = String::new();
                if let Some(f) = &r.start_fen {
                    again.push_str(&format!("[FEN \"{f}\"]\n"));
                }
                again.push('\n');
                again.push_str(&r.moves.join(" "));
                again.push_str(" *\n");
                let games = damiera::tools::pdn::read_games(&again);
                let last = games.last().expect("a game");
                let back = damiera::tools::pdn::replay(last, variant)
                    .unwrap_or_else(|e| panic!("own move text refused: {e}\n{again}"));
                assert_eq!(back.moves, r.moves, "{again}");
            }
            Err(e) => assert!(e.span.line >= 1 && e.span.col >= 1, "{e}"),
        }
    }
}

/// The lines of `data`, bounded for fuzzing (see the module documentation).
fn session_lines(data: &[u8]) -> Vec<Result<String, InputError>> {
    bounded_lines(data)
        .into_iter()
        .map(|l| match l {
            // The last `depth` of a go command counts: searches stop at 2 plies.
            Ok(t) if t.trim_start().starts_with("go") => Ok(format!("{t} depth 2")),
            other => other,
        })
        .collect()
}

fn bounded_lines(data: &[u8]) -> Vec<Result<String, InputError>> {
    protocol::input_lines(data)
        .filter(|l| match l {
            Ok(l) => {
                let lower = l.to_ascii_lowercase();
                let perft_ok = match lower.trim_start().strip_prefix("perft") {
                    Some(rest) => rest.trim().parse::<u32>().is_ok_and(|d| d <= 5),
                    None => true,
                };
                perft_ok && !lower.contains("hash") && !lower.contains("evalfile")
            }
            Err(_) => true,
        })
        .take(64)
        .collect()
}

fn sink() -> Output {
    Output::new(Box::new(std::io::sink()))
}

/// Protocol lines to a new native session ([`protocol::native::run`]).
pub fn native_session(data: &[u8]) {
    let lines = session_lines(data);
    let mut it = lines.into_iter();
    protocol::native::run(&mut it, sink());
}

/// Hub lines, bounded like the native ones and without weights files. The first `depth` of a
/// `level` counts, so one is put first; `pos` resets the limits, so a `level depth=2` follows
/// it.
fn hub_lines(data: &[u8]) -> Vec<Result<String, InputError>> {
    let mut out = vec![Ok("level depth=2".to_string())];
    for l in bounded_lines(data) {
        match l {
            Ok(t) if t.contains("eval-file") => {}
            Ok(t) if t.trim_start().starts_with("level") => {
                out.push(Ok(t.replacen("level", "level depth=2", 1)));
            }
            Ok(t) if t.trim_start().starts_with("pos") => {
                out.push(Ok(t));
                out.push(Ok("level depth=2".to_string()));
            }
            other => out.push(other),
        }
    }
    out
}

/// Protocol lines to a new Hub session, after its `hub` command.
pub fn hub_session(data: &[u8]) {
    let mut it = hub_lines(data).into_iter();
    protocol::hub::run_after_hub(&mut it, sink());
}

static NATIVE: Mutex<Option<protocol::native::Session>> = Mutex::new(None);
static HUB: Mutex<Option<protocol::hub::Session>> = Mutex::new(None);

/// As [`native_session`], but on one session kept from input to input (the engine is made
/// once, which makes fuzzing some ten times faster). After each input the session is at the
/// English start position again, with the options the input left; a `quit` or another variant
/// ends it and the next input gets a new one.
pub fn native_session_reused(data: &[u8]) {
    let mut guard = NATIVE.lock().unwrap_or_else(|p| p.into_inner());
    let session = guard.get_or_insert_with(|| protocol::native::Session::new(sink()));
    for line in session_lines(data) {
        if !session.handle(line) {
            *guard = None;
            return;
        }
    }
    session.finish();
    if session.variant() == Variant::English {
        session.handle(Ok("position startpos".to_string()));
    } else {
        *guard = None;
    }
}

/// As [`hub_session`], on one Hub session kept from input to input (see
/// [`native_session_reused`]).
pub fn hub_session_reused(data: &[u8]) {
    let mut guard = HUB.lock().unwrap_or_else(|p| p.into_inner());
    let session = guard.get_or_insert_with(|| protocol::hub::Session::new(sink()));
    for line in hub_lines(data) {
        if !session.handle(line) {
            *guard = None;
            return;
        }
    }
    session.finish();
    if session.variant() != Variant::English {
        *guard = None;
    }
}
