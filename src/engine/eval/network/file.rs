//! The `DMNN` file: [`Network::to_bytes`] and [`Network::from_bytes`].

use super::model::{Layers, Network, Part, Stack};
use super::shape::{Shape, H, L1_OUT, L2, L3, MAX_BIAS, MAX_STACKS};
use crate::core::variant::Variant;
use crate::engine::eval::header::Header;

/// The network file's magic bytes.
pub const MAGIC: &[u8; 4] = b"DMNN";
/// The network file's format version (the features and layers above): 2, byte 7 the number of
/// layer stacks. A network of one stack is written as version 1 (byte 7 is 0 there), the
/// bytes builds before the stacks wrote and read; this build reads both.
pub const VERSION: u16 = 2;
/// Bytes before the payload in a network file.
pub const HEADER: usize = 20;

/// The network file's header ([`Header`]): `DMNN`, [`VERSION`], the variant; [`HEADER`]
/// bytes with the layer sizes and the checksum.
const FORMAT: Header = Header {
    magic: MAGIC,
    version: VERSION,
    len: HEADER,
    foreign: "not a damiera network file (no DMNN header)",
    short: Some("network"),
    format: "network format",
    contents: "network for",
};

/// Version 1's header: one layer stack.
const FORMAT_V1: Header = Header {
    version: 1,
    ..FORMAT
};

impl Network {
    /// The file form for the network's variant: little-endian, [`HEADER`] bytes of header
    /// then the payload.
    ///
    /// | bytes | field |
    /// |-------|-------|
    /// | 0..4   | magic `DMNN` |
    /// | 4..6   | format version `u16` ([`VERSION`]) |
    /// | 6      | variant index `u8` ([`crate::engine::eval::variant_index`]) |
    /// | 7      | version 2: layer stacks `u8`, 2 to [`MAX_STACKS`]; version 1 (one stack): 0 |
    /// | 8..16  | layer sizes, `u16` each: inputs (120 or 190), [`H`], [`L2`], [`L3`] |
    /// | 16..20 | CRC-32 of the payload `u32` |
    ///
    /// The payload: first-layer weights `i16`, input-major (input `f`'s `H` weights); its
    /// biases `i16`; second-layer weights `i8`, row-major (output `o`'s 256 weights, the side
    /// to move's 128 first); then each layer stack in turn (stack 0 first, [`Shape::stack`]):
    /// its second-layer weights `i8`, row-major (output `o`'s 256 weights, the side to move's
    /// 128 first), biases `i32`; third-layer weights `i8` row-major and biases `i32`; output
    /// weights `i8` and bias `i32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(self.payload_len());
        for x in self.l.w1.iter().chain(&self.l.b1) {
            payload.extend_from_slice(&x.to_le_bytes());
        }
        let mut put_layer = |rows: &mut dyn Iterator<Item = &i8>, biases: &[i32]| {
            payload.extend(rows.map(|&w| w as u8));
            for b in biases {
                payload.extend_from_slice(&b.to_le_bytes());
            }
        };
        for s in &self.l.stacks {
            put_layer(&mut s.w2.iter().flatten(), &s.b2);
            put_layer(&mut s.w3.iter().flatten(), &s.b3);
            put_layer(&mut s.w4.iter(), &[s.b4]);
        }
        let stacks = self.l.stacks.len();
        let mut out = Vec::with_capacity(HEADER + payload.len());
        if stacks == 1 {
            out.extend_from_slice(&FORMAT_V1.start(self.variant));
        } else {
            let mut start = FORMAT.start(self.variant);
            start[7] = stacks as u8;
            out.extend_from_slice(&start);
        }
        for size in [self.shape.inputs(), H, L2, L3] {
            out.extend_from_slice(&(size as u16).to_le_bytes());
        }
        out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Payload bytes of a network of this shape.
    fn payload_len(&self) -> usize {
        payload_len(self.shape, self.l.stacks.len())
    }

    /// Reads [`Network::to_bytes`]'s form for variant `v`.
    ///
    /// # Errors
    /// Not a network file (no `DMNN`), another format version, another variant, a number
    /// of layer stacks out of range, other layer sizes, truncated or padded, a checksum
    /// mismatch, or a bias out of ±[`MAX_BIAS`]: a one-line message.
    pub fn from_bytes(bytes: &[u8], v: Variant) -> Result<Network, String> {
        let shape = Shape::of(v);
        let v1 = bytes.get(4..6) == Some(&[1, 0]);
        if v1 {
            FORMAT_V1.check(bytes, v)?;
        } else {
            FORMAT.check(bytes, v)?;
        }
        let stacks = match (v1, bytes[7] as usize) {
            (true, 0) => 1,
            (false, n @ 2..=MAX_STACKS) => n,
            (_, n) => {
                return Err(format!(
                    "{n} in the layer-stack byte, this build reads 0 (version 1) or 2 to \
                     {MAX_STACKS} (version 2)"
                ))
            }
        };
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let sizes = [u16_at(8), u16_at(10), u16_at(12), u16_at(14)];
        let expected = [shape.inputs(), H, L2, L3].map(|x| x as u16);
        if sizes != expected {
            let show = |s: [u16; 4]| format!("{}-{}-{}-{}-1", s[0], s[1], s[2], s[3]);
            return Err(format!(
                "layer sizes {}, this build reads {} for {v}",
                show(sizes),
                show(expected)
            ));
        }
        let payload = &bytes[HEADER..];
        let want = payload_len(shape, stacks);
        if payload.len() != want {
            return Err(format!(
                "truncated or padded: {} bytes of weights, expected {want}",
                payload.len()
            ));
        }
        let crc = u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        if crc32fast::hash(payload) != crc {
            return Err("checksum mismatch (corrupt file)".into());
        }
        let mut r = Reader { bytes: payload };
        let w1 = (0..shape.inputs() * H).map(|_| r.i16()).collect();
        let b1 = std::array::from_fn(|_| r.i16());
        let stacks: Vec<Stack> = (0..stacks)
            .map(|_| {
                Stack::fill(|part| match part {
                    Part::W2 | Part::W3 | Part::W4 => i32::from(r.i8()),
                    Part::B2 | Part::B3 | Part::B4 => r.i32(),
                })
            })
            .collect();
        let out_of_range = |b: &i32| !(-MAX_BIAS..=MAX_BIAS).contains(b);
        let bad_bias = |s: &Stack| s.b2.iter().chain(&s.b3).chain([&s.b4]).any(out_of_range);
        if stacks.iter().any(bad_bias) {
            return Err(format!("a bias out of ±{MAX_BIAS} (corrupt file)"));
        }
        Ok(Network::from_layers(v, shape, Layers { w1, b1, stacks }))
    }
}

/// Payload bytes of a network of `shape` with `stacks` layer stacks ([`Network::to_bytes`]).
pub(super) fn payload_len(shape: Shape, stacks: usize) -> usize {
    2 * (shape.inputs() * H + H) + stacks * ((L1_OUT * L2 + 4 * L2) + (L2 * L3 + 4 * L3) + (L3 + 4))
}

/// Little-endian reads from a payload whose length has been checked (a read past the end
/// gives 0 rather than panicking).
struct Reader<'a> {
    bytes: &'a [u8],
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        if let Some((head, rest)) = self.bytes.split_first_chunk::<N>() {
            out = *head;
            self.bytes = rest;
        }
        out
    }
    fn i8(&mut self) -> i8 {
        i8::from_le_bytes(self.take())
    }
    fn i16(&mut self) -> i16 {
        i16::from_le_bytes(self.take())
    }
    fn i32(&mut self) -> i32 {
        i32::from_le_bytes(self.take())
    }
}
