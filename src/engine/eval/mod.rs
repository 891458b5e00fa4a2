//! Static evaluation, in centi-men from the side to move's point of view.
//!
//! Two evaluations live here:
//! - [`learned`]: pattern weights and a few draughts terms, all fitted to self-play games by
//!   `damiera train` (docs/training.md). Each variant's weights are a file in
//!   `data/weights/`, embedded at build time and replaceable at run time
//!   ([`load_weights`], the `EvalFile` option).
//! - [`hand`]: the hand-set evaluation the project started with: what a variant plays with
//!   until it has learned weights, and what the first self-play games are played with.
//!
//! The evaluation owns its weights: the rules know nothing of it.

pub mod hand;
pub mod learned;

use crate::core::geometry::Geometry;
use crate::core::position::Position;
use crate::core::rules::{Color, Rules};
use crate::core::variant::Variant;
pub use learned::Net;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::OnceLock;

/// A position as square sets, the form the learned evaluation and the training data use.
/// Bit `i` is the square in row `i / n` counted from White's side and the `i % n`-th dark
/// square of that row from the left (internal columns, see [`crate::core::geometry`]), where `n` is
/// the board's dark squares a row: 4 on 8x8 (32 bits), 5 on 10x10 (50 bits). Turning the board
/// by 180° reverses the bits of the board's squares.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Planes {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Pieces of the second rank, either colour: kings (Dama in Damone).
    pub rank2: u64,
    /// Pieces of the third rank, either colour: Damone only (else 0).
    pub rank3: u64,
    /// Whether Black is to move.
    pub black_to_move: bool,
}

impl Planes {
    /// The same position seen from the other side: the board of `squares` squares (32 or 50)
    /// turned by 180°, the colours and the side to move swapped. Every variant's rules are
    /// symmetric under this, so its side-to-move evaluation must not change.
    pub fn flipped(&self, squares: u32) -> Planes {
        let rot = |x: u64| x.reverse_bits() >> (64 - squares);
        Planes {
            white: rot(self.black),
            black: rot(self.white),
            rank2: rot(self.rank2),
            rank3: rot(self.rank3),
            black_to_move: !self.black_to_move,
        }
    }
}

/// The 32 playable squares of an 8x8 padded bitboard (35 bits, ghosts 8, 17, 26) packed into
/// a `u32` in [`Planes`] order.
#[inline(always)]
pub const fn dense(padded: u64) -> u32 {
    ((padded & 0xFF)
        | ((padded >> 1) & 0xFF00)
        | ((padded >> 2) & 0xFF_0000)
        | ((padded >> 3) & 0xFF00_0000)) as u32
}

/// The inverse of [`dense`].
#[inline(always)]
pub const fn padded(dense: u32) -> u64 {
    let d = dense as u64;
    (d & 0xFF) | ((d & 0xFF00) << 1) | ((d & 0xFF_0000) << 2) | ((d & 0xFF00_0000) << 3)
}

/// The 50 playable squares of a 10x10 padded bitboard (54 bits, ghosts 10, 21, 32, 43) packed
/// in [`Planes`] order.
#[inline(always)]
pub const fn dense10(padded: u64) -> u64 {
    (padded & 0x3FF)
        | ((padded >> 1) & (0x3FF << 10))
        | ((padded >> 2) & (0x3FF << 20))
        | ((padded >> 3) & (0x3FF << 30))
        | ((padded >> 4) & (0x3FF << 40))
}

/// The inverse of [`dense10`].
#[inline(always)]
pub const fn padded10(d: u64) -> u64 {
    (d & 0x3FF)
        | ((d & (0x3FF << 10)) << 1)
        | ((d & (0x3FF << 20)) << 2)
        | ((d & (0x3FF << 30)) << 3)
        | ((d & (0x3FF << 40)) << 4)
}

/// [`padded`] (8x8) or [`padded10`] (`TEN`).
#[inline(always)]
pub const fn padded_of<const TEN: bool>(d: u64) -> u64 {
    if TEN {
        padded10(d)
    } else {
        padded(d as u32)
    }
}

/// [`dense`] (8x8) or [`dense10`] (`TEN`).
#[inline(always)]
pub const fn dense_of<const TEN: bool>(p: u64) -> u64 {
    if TEN {
        dense10(p)
    } else {
        dense(p) as u64
    }
}

/// The side-to-move evaluation of `pos` in centi-men: learned weights when the variant has
/// them ([`weights`]), else the hand-set evaluation.
#[inline]
pub fn evaluate<R: Rules>(pos: &Position<R>) -> i32 {
    match weights(R::VARIANT) {
        Some(net) if R::Board::WIDTH == 10 => evaluate10(net, pos),
        Some(net) => net.evaluate::<false>(&planes(pos), R::FLYING_KINGS),
        None => hand::evaluate(pos),
    }
}

/// The side-to-move evaluation (centi-men) of a 10x10 position by the learned weights `net`:
/// the hand-set evaluation's scaling of International king endings
/// ([`hand::drawish_scale`]) applies to the learned score too, through [`drawish_planes`],
/// the function the trainer uses.
#[inline]
pub(crate) fn evaluate10<R: Rules>(net: &Net, pos: &Position<R>) -> i32 {
    let p = planes(pos);
    let stm = net.evaluate::<true>(&p, R::FLYING_KINGS);
    let white = if pos.side() == Color::White {
        stm
    } else {
        -stm
    };
    stm * drawish_planes(&p, white) / 16
}

/// [`hand::drawish_scale`] on the [`Planes`] of a 10x10 position: the sixteenths of
/// `white_score` (White's view, centi-men) that [`evaluate`] keeps; `damiera train` fits the
/// learned weights through the same factor.
pub(crate) fn drawish_planes(p: &Planes, white_score: i32) -> i32 {
    let (strong, weak) = if white_score > 0 {
        (p.white, p.black)
    } else {
        (p.black, p.white)
    };
    hand::drawish_sixteenths(strong.count_ones(), weak.count_ones(), weak & p.rank2 != 0)
}

/// The [`Planes`] of a position of a `Rules` variant (8x8 or 10x10).
#[inline(always)]
pub fn planes<R: Rules>(pos: &Position<R>) -> Planes {
    let d = |b: u64| {
        if R::Board::WIDTH == 10 {
            dense_of::<true>(b)
        } else {
            dense_of::<false>(b)
        }
    };
    Planes {
        white: d(pos.pieces(Color::White).0),
        black: d(pos.pieces(Color::Black).0),
        rank2: d(pos.kings().0),
        rank3: 0,
        black_to_move: pos.side() == Color::Black,
    }
}

/// The padded bitboard of a [`Planes`] square set of a `Rules` variant: the inverse of the
/// packing [`planes`] does.
#[inline(always)]
pub fn unpack<R: Rules>(d: u64) -> u64 {
    if R::Board::WIDTH == 10 {
        padded10(d)
    } else {
        padded(d as u32)
    }
}

/// The index of a variant among [`Variant::ALL`] (the weights files' variant byte).
pub fn variant_index(v: Variant) -> usize {
    Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

/// The weights files shipped in `data/weights/`, one per variant that has been trained, in
/// [`Variant::ALL`] order (`None`: the variant plays with [`hand`]).
const EMBEDDED: [Option<&[u8]>; N] = [
    Some(include_bytes!("../../../data/weights/english.dmev")),
    Some(include_bytes!("../../../data/weights/italian.dmev")),
    Some(include_bytes!("../../../data/weights/brazilian.dmev")),
    Some(include_bytes!("../../../data/weights/russian.dmev")),
    Some(include_bytes!("../../../data/weights/damone.dmev")),
    Some(include_bytes!("../../../data/weights/international.dmev")),
];

/// The number of variants.
const N: usize = Variant::ALL.len();
static DEFAULTS: [OnceLock<Option<Net>>; N] = [const { OnceLock::new() }; N];
static LOADED: [AtomicPtr<Net>; N] = [const { AtomicPtr::new(std::ptr::null_mut()) }; N];
static HAND: [AtomicBool; N] = [const { AtomicBool::new(false) }; N];

/// The `EvalFile` value that selects the hand-set evaluation.
pub const HAND_SET: &str = "hand";

/// The learned weights variant `v` evaluates with: those loaded by [`load_weights`], else the
/// embedded file, else `None` (the hand-set evaluation, also chosen by [`HAND_SET`]).
#[inline(always)]
pub fn weights(v: Variant) -> Option<&'static Net> {
    let i = variant_index(v);
    if HAND[i].load(Ordering::Relaxed) {
        return None;
    }
    let p = LOADED[i].load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: pointers in LOADED come from `Box::into_raw` and are never freed (a search
        // may still be reading the old weights when new ones are loaded).
        return Some(unsafe { &*p });
    }
    DEFAULTS[i]
        .get_or_init(|| {
            EMBEDDED[i].and_then(|bytes| match Net::from_bytes(bytes, v) {
                Ok(n) => Some(n),
                Err(e) => {
                    log::error!("embedded {v} weights: {e}");
                    None
                }
            })
        })
        .as_ref()
}

/// Loads a weights file for variant `v` (the `EvalFile` option); an empty `path` returns to
/// the built-in weights, [`HAND_SET`] (`hand`) selects the hand-set evaluation. Loaded weights
/// are never freed, since a search running meanwhile keeps reading them: each distinct file
/// costs its size once (about 400 KB on 8x8, 730 KB on 10x10), and loading the same file again costs nothing.
///
/// # Errors
/// A missing or unreadable file, a bad header, a truncated file, a checksum mismatch or a file
/// for another variant: one line naming the file; the weights in use stay.
pub fn load_weights(v: Variant, path: &str) -> Result<(), String> {
    let i = variant_index(v);
    if path.is_empty() || path == HAND_SET {
        LOADED[i].store(std::ptr::null_mut(), Ordering::Release);
        HAND[i].store(path == HAND_SET, Ordering::Release);
        return Ok(());
    }
    let (net, bytes) = read_file(v, path)?;
    // The same weights loaded again reuse their first copy, so that a front end that sets
    // the option at every game does not grow the process.
    let mut loaded = LOADED_NETS.lock().unwrap_or_else(|p| p.into_inner());
    let hash = fnv1a(&bytes);
    let net: &'static Net = match loaded.iter().find(|(vv, h, _)| *vv == v && *h == hash) {
        Some(&(_, _, n)) => n,
        None => {
            let n: &'static Net = Box::leak(Box::new(net));
            loaded.push((v, hash, n));
            n
        }
    };
    LOADED[i].store(net as *const Net as *mut Net, Ordering::Release);
    HAND[i].store(false, Ordering::Release);
    Ok(())
}

/// Reads the weights file at `path` for variant `v` (at most 8 MiB), without loading it into
/// the evaluation: the starting point of `damiera train --init`.
///
/// # Errors
/// As [`load_weights`]: one line naming the file.
pub fn read_weights(v: Variant, path: &str) -> Result<Net, String> {
    read_file(v, path).map(|(net, _)| net)
}

/// The weights at `path` and the file's bytes.
fn read_file(v: Variant, path: &str) -> Result<(Net, Vec<u8>), String> {
    let bytes = read_bounded(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let net = Net::from_bytes(&bytes, v).map_err(|e| format!("{path}: {e}"))?;
    Ok((net, bytes))
}

/// Every weights file loaded so far: variant, FNV-1a hash of the file, the weights.
static LOADED_NETS: std::sync::Mutex<Vec<(Variant, u64, &'static Net)>> =
    std::sync::Mutex::new(Vec::new());

/// The largest weights file read (the bound on a file is 8 MiB).
const MAX_FILE_BYTES: u64 = 8 << 20;

/// The bytes of a regular file of at most [`MAX_FILE_BYTES`] (a FIFO or a device such as
/// `/dev/zero` is refused rather than read forever).
fn read_bounded(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "{} bytes, more than a weights file's {MAX_FILE_BYTES}",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}

/// FNV-1a, 64 bits, of `bytes`.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Whether variant `v` evaluates with learned weights now.
pub fn is_learned(v: Variant) -> bool {
    weights(v).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense10_round_trip_and_rotation() {
        let all = crate::core::geometry::Board10::ALL.0;
        assert_eq!(dense10(all), (1 << 50) - 1);
        assert_eq!(padded10((1 << 50) - 1), all);
        use crate::core::geometry::Geometry;
        for y in 0..10u8 {
            for x in 0..10u8 {
                if let Some(sq) = crate::core::geometry::Board10::square_at(x, y) {
                    let rot = crate::core::geometry::Board10::square_at(9 - x, 9 - y).unwrap();
                    let d = dense10(1 << sq.index());
                    assert_eq!(d.count_ones(), 1);
                    assert_eq!(padded10(d), 1 << sq.index());
                    assert_eq!(d.reverse_bits() >> 14, dense10(1 << rot.index()));
                }
            }
        }
    }

    #[test]
    fn dense_round_trip_and_rotation() {
        let all = crate::core::geometry::Board8::ALL.0;
        assert_eq!(dense(all), u32::MAX);
        assert_eq!(padded(u32::MAX), all);
        for i in 0..32 {
            assert_eq!(dense(padded(1 << i)), 1 << i);
        }
        // The square (x, y) and its 180° image (7 - x, 7 - y) are bits i and 31 - i.
        use crate::core::geometry::Geometry;
        for y in 0..8u8 {
            for x in 0..8u8 {
                if let Some(sq) = crate::core::geometry::Board8::square_at(x, y) {
                    let rot = crate::core::geometry::Board8::square_at(7 - x, 7 - y).unwrap();
                    let d = dense(1 << sq.index());
                    assert_eq!(d.reverse_bits(), dense(1 << rot.index()));
                }
            }
        }
    }
}
