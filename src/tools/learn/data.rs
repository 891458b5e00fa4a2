//! The training-data format `damiera selfplay` writes and `damiera-train` reads.
//!
//! A file is a 16-byte header, then records of [`record_size`] bytes (20 on 8x8, 28 on 10x10),
//! all little-endian:
//!
//! | bytes | header field |
//! |---|---|
//! | 0..4 | magic `DMSP` |
//! | 4..6 | format version, `u16` (1) |
//! | 6 | variant index in [`Variant::ALL`] order |
//! | 7..16 | zero |
//!
//! | 8x8 bytes | 10x10 bytes | record field |
//! |---|---|---|
//! | 0..16 | 0..24 | [`Planes`]: white, black, rank2, rank3 (`u32` each); on 10x10 white, black, rank2 (`u64` each, no third rank) |
//! | 16..18 | 24..26 | search score, White's view, centi-men, `i16` (clamped to ±[`SCORE_CLAMP`]) |
//! | 18 | 26 | bit 0: Black to move; bits 1-2: result (0 Black won, 1 draw, 2 White won) |
//! | 19 | 27 | ply of the game (saturating at 255) |

use crate::core::dispatch::Dispatch;
use crate::core::variant::Variant;
use crate::engine::eval::header::Header;
use crate::engine::eval::Planes;
use std::io::{self, Read, Write};

/// Magic bytes of a data file.
pub const MAGIC: &[u8; 4] = b"DMSP";
/// Format version.
pub const VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER: usize = 16;

/// A data file's header ([`Header`]): `DMSP`, [`VERSION`], the variant, zeros to [`HEADER`]
/// bytes.
const FORMAT: Header = Header {
    magic: MAGIC,
    version: VERSION,
    len: HEADER,
    foreign: "not a damiera self-play file (no DMSP header)",
    short: None,
    format: "format",
    contents: "positions of",
};
/// Record size in bytes of the 8x8 variants.
pub const RECORD: usize = 20;
/// Record size in bytes of the 10x10 variant.
pub const RECORD10: usize = 28;
/// The largest record.
pub const MAX_RECORD: usize = RECORD10;

/// The record size of variant `v`'s files.
pub fn record_size(v: Variant) -> usize {
    if v.squares() == 32 {
        RECORD
    } else {
        RECORD10
    }
}
/// Search scores are clamped to this many centi-men (won positions included).
pub const SCORE_CLAMP: i32 = 3000;

/// A game's result from White's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Black won.
    BlackWin = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl Outcome {
    /// White's score: 0, 0.5 or 1.
    pub fn white_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One training position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Sample {
    /// The position.
    pub planes: Planes,
    /// The self-play search's score, White's view, centi-men.
    pub score: i16,
    /// How the game ended.
    pub outcome: Outcome,
    /// The ply of the game (saturating at 255).
    pub ply: u8,
}

impl Sample {
    /// The record's bytes: the first `n` of the array, `n` the record size of the board
    /// (`ten`: 10x10).
    pub fn to_bytes(&self, ten: bool) -> ([u8; MAX_RECORD], usize) {
        let mut b = [0u8; MAX_RECORD];
        let p = &self.planes;
        let at = if ten {
            b[0..8].copy_from_slice(&p.white.to_le_bytes());
            b[8..16].copy_from_slice(&p.black.to_le_bytes());
            b[16..24].copy_from_slice(&p.rank2.to_le_bytes());
            24
        } else {
            b[0..4].copy_from_slice(&(p.white as u32).to_le_bytes());
            b[4..8].copy_from_slice(&(p.black as u32).to_le_bytes());
            b[8..12].copy_from_slice(&(p.rank2 as u32).to_le_bytes());
            b[12..16].copy_from_slice(&(p.rank3 as u32).to_le_bytes());
            16
        };
        b[at..at + 2].copy_from_slice(&self.score.to_le_bytes());
        b[at + 2] = p.black_to_move as u8 | (self.outcome as u8) << 1;
        b[at + 3] = self.ply;
        (b, at + 4)
    }

    /// A record from its bytes ([`RECORD`] of them on 8x8, [`RECORD10`] if `ten`).
    ///
    /// # Errors
    /// A result field of 3, set reserved bits, squares off the board or overlapping sets.
    pub fn from_bytes(b: &[u8], ten: bool) -> Result<Sample, String> {
        let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes")) as u64;
        let q = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let (planes, at) = if ten {
            let (white, black, rank2) = (q(0), q(8), q(16));
            if (white | black | rank2) >> 50 != 0 {
                return Err("squares beyond the 50 of the board".into());
            }
            (
                Planes {
                    white,
                    black,
                    rank2,
                    rank3: 0,
                    black_to_move: false,
                },
                24,
            )
        } else {
            (
                Planes {
                    white: u(0),
                    black: u(4),
                    rank2: u(8),
                    rank3: u(12),
                    black_to_move: false,
                },
                16,
            )
        };
        let flags = b[at + 2];
        let outcome = match (flags >> 1) & 3 {
            0 => Outcome::BlackWin,
            1 => Outcome::Draw,
            2 => Outcome::WhiteWin,
            _ => return Err("bad result field".into()),
        };
        if flags >> 3 != 0 {
            return Err("reserved flag bits set".into());
        }
        let planes = Planes {
            black_to_move: flags & 1 != 0,
            ..planes
        };
        if planes.white & planes.black != 0
            || (planes.rank2 | planes.rank3) & !(planes.white | planes.black) != 0
        {
            return Err("overlapping square sets".into());
        }
        Ok(Sample {
            planes,
            score: i16::from_le_bytes([b[at], b[at + 1]]),
            outcome,
            ply: b[at + 3],
        })
    }
}

/// Writes a header for variant `v`.
///
/// # Errors
/// The writer's.
pub fn write_header(w: &mut dyn Write, v: Variant) -> io::Result<()> {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(&FORMAT.start(v));
    w.write_all(&h)
}

/// Reads a whole data file of variant `v`.
///
/// # Errors
/// An unreadable file, a bad header, another variant, a partial last record or a bad record:
/// one line naming the file.
pub fn read_file(path: &str, v: Variant) -> Result<Vec<Sample>, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    read_bytes(&bytes, v).map_err(|e| format!("{path}: {e}"))
}

/// Parses a data file's bytes (see [`read_file`]).
///
/// # Errors
/// As [`read_file`], without the file name.
pub fn read_bytes(bytes: &[u8], v: Variant) -> Result<Vec<Sample>, String> {
    FORMAT.check(bytes, v)?;
    let body = &bytes[HEADER..];
    let size = record_size(v);
    if !body.len().is_multiple_of(size) {
        return Err(format!(
            "truncated: {} bytes after the header is not a whole number of {size}-byte records",
            body.len()
        ));
    }
    body.chunks_exact(size)
        .enumerate()
        .map(|(i, c)| {
            Sample::from_bytes(c, v.squares() == 50).map_err(|e| format!("record {i}: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let s = Sample {
            planes: Planes {
                white: 0xFFF,
                black: 0xFFF0_0000,
                rank2: 0x8000_0001,
                rank3: 0,
                black_to_move: true,
            },
            score: -1234,
            outcome: Outcome::WhiteWin,
            ply: 77,
        };
        let mut buf = Vec::new();
        write_header(&mut buf, Variant::Russian).unwrap();
        let (b, n) = s.to_bytes(false);
        assert_eq!(n, RECORD);
        buf.extend_from_slice(&b[..n]);
        let (b, n) = Sample {
            outcome: Outcome::Draw,
            ..s
        }
        .to_bytes(false);
        buf.extend_from_slice(&b[..n]);
        let back = read_bytes(&buf, Variant::Russian).unwrap();
        assert_eq!(
            back,
            vec![
                s,
                Sample {
                    outcome: Outcome::Draw,
                    ..s
                }
            ]
        );
        assert!(read_bytes(&buf, Variant::English)
            .unwrap_err()
            .contains("russian"));
        assert!(read_bytes(&buf[..buf.len() - 1], Variant::Russian)
            .unwrap_err()
            .contains("truncated"));
        assert!(read_bytes(b"garbage", Variant::Russian).is_err());
    }

    #[test]
    fn records_of_10x10_round_trip() {
        let s = Sample {
            planes: Planes {
                white: (1 << 20) - 1,
                black: ((1 << 20) - 1) << 30,
                rank2: 1 << 49,
                rank3: 0,
                black_to_move: false,
            },
            score: 321,
            outcome: Outcome::BlackWin,
            ply: 200,
        };
        let mut buf = Vec::new();
        write_header(&mut buf, Variant::International).unwrap();
        let (b, n) = s.to_bytes(true);
        assert_eq!(n, RECORD10);
        buf.extend_from_slice(&b[..n]);
        assert_eq!(read_bytes(&buf, Variant::International).unwrap(), vec![s]);
        assert!(read_bytes(&buf, Variant::Brazilian).is_err());
        // A square beyond the 50th is refused.
        buf[HEADER + 7] = 0x80;
        assert!(read_bytes(&buf, Variant::International)
            .unwrap_err()
            .contains("beyond"));
    }
}
