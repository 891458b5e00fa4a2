//! The header the project's binary formats share: magic bytes, a format version and the
//! variant. Pattern weights (`DMEV`, [`super::learned`]), networks (`DMNN`,
//! [`super::network`]) and self-play data (`DMSP`, [`crate::tools::learn::data`]) all begin
//! with these 8 bytes, little-endian:
//!
//! | bytes | field |
//! |-------|-------|
//! | 0..4  | magic |
//! | 4..6  | format version, `u16` |
//! | 6     | variant index, `u8` ([`variant_index`], order of [`Variant::ALL`]) |
//! | 7     | 0 (`DMNN` version 2: the network's layer stacks) |
//!
//! What follows (sizes, a checksum, padding) is each format's own.

use super::weights::variant_index;
use crate::core::variant::Variant;

/// A binary format's header: what it writes and how its errors read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The magic bytes.
    pub magic: &'static [u8; 4],
    /// The format version this build writes and reads.
    pub version: u16,
    /// The whole header in bytes (the 8 shared ones and the format's own after them).
    pub len: usize,
    /// The error of bytes that do not start with [`Header::magic`] (e.g. "not a damiera
    /// network file (no DMNN header)").
    pub foreign: &'static str,
    /// What a file shorter than [`Header::len`] is called in its error: `Some("network")`
    /// gives "truncated: 12 bytes, a network header is 20"; `None` reports
    /// [`Header::foreign`] instead.
    pub short: Option<&'static str>,
    /// The format's name in a version error: "{format} version 2, this build reads 1".
    pub format: &'static str,
    /// The contents' name in a variant error: "{contents} English, not Italian".
    pub contents: &'static str,
}

impl Header {
    /// The 8 shared bytes for variant `v`: magic, version, variant index, 0.
    pub fn start(&self, v: Variant) -> [u8; 8] {
        let mut h = [0u8; 8];
        h[..4].copy_from_slice(self.magic);
        h[4..6].copy_from_slice(&self.version.to_le_bytes());
        h[6] = variant_index(v) as u8;
        h
    }

    /// Checks that `bytes` start with a header of this format for variant `v`, at least
    /// [`Header::len`] bytes long.
    ///
    /// # Errors
    /// No magic ([`Header::foreign`]), shorter than the header ([`Header::short`]), another
    /// format version, or another (or an unknown) variant: a one-line message.
    pub fn check(&self, bytes: &[u8], v: Variant) -> Result<(), String> {
        let ours = bytes.starts_with(self.magic);
        if !ours || (bytes.len() < self.len && self.short.is_none()) {
            return Err(self.foreign.into());
        }
        if let (true, Some(name)) = (bytes.len() < self.len, self.short) {
            return Err(format!(
                "truncated: {} bytes, a {name} header is {}",
                bytes.len(),
                self.len
            ));
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if version != self.version {
            return Err(format!(
                "{} version {version}, this build reads {}",
                self.format, self.version
            ));
        }
        let file_variant = Variant::ALL.get(bytes[6] as usize).copied();
        if file_variant != Some(v) {
            let name = file_variant.map_or("an unknown variant".to_string(), |x| x.to_string());
            return Err(format!("{} {name}, not {v}", self.contents));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Header = Header {
        magic: b"TEST",
        version: 3,
        len: 12,
        foreign: "not a test file",
        short: Some("test"),
        format: "test format",
        contents: "tests of",
    };

    #[test]
    fn start_and_check() {
        let mut b = TEST.start(Variant::Russian).to_vec();
        assert_eq!(&b[..4], b"TEST");
        assert_eq!(b[4..8], [3, 0, variant_index(Variant::Russian) as u8, 0]);
        assert_eq!(
            TEST.check(&b, Variant::Russian).unwrap_err(),
            "truncated: 8 bytes, a test header is 12"
        );
        b.resize(12, 0);
        assert_eq!(TEST.check(&b, Variant::Russian), Ok(()));
        assert_eq!(
            TEST.check(&b, Variant::English).unwrap_err(),
            "tests of russian, not english"
        );
        b[4] = 4;
        assert_eq!(
            TEST.check(&b, Variant::Russian).unwrap_err(),
            "test format version 4, this build reads 3"
        );
        assert_eq!(
            TEST.check(b"TES", Variant::Russian).unwrap_err(),
            "not a test file"
        );
        let no_short = Header {
            short: None,
            ..TEST
        };
        assert_eq!(
            no_short.check(b"TEST", Variant::Russian).unwrap_err(),
            "not a test file"
        );
    }
}
