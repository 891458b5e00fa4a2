//! The learned weights a search evaluates with, as an engine option: the files embedded from
//! `data/weights/` (parsed once, the first time a variant asks for them), the `EvalFile`
//! option's choice ([`Evaluation`]: built in, hand-set, or a file read at run time) and the
//! reading of a weights file. Nothing here is mutable state: the [`crate::engine::Engine`]
//! keeps each variant's [`Evaluation`] and hands its weights (an `Arc<Net>`) to the search,
//! and `damiera selfplay` passes them in its configuration.

use super::learned::Net;
use crate::core::variant::Variant;
use std::sync::{Arc, OnceLock};

/// The index of a variant among [`Variant::ALL`] (the weights files' variant byte).
pub fn variant_index(v: Variant) -> usize {
    Variant::ALL.iter().position(|&x| x == v).unwrap_or(0)
}

/// The number of variants.
const N: usize = Variant::ALL.len();

/// The weights files shipped in `data/weights/`, one per variant that has been trained, in
/// [`Variant::ALL`] order (`None` would leave a variant the hand-set evaluation): an
/// evaluation network (`DMNN`) for every variant. Each file is the one that won its match
/// against the one before (docs/strength.md "Evaluation network", docs/training.md for the
/// commands). [`Net::from_bytes`] tells a network from pattern weights (`DMEV`, which load
/// through `EvalFile`) by its magic.
const EMBEDDED: [Option<&[u8]>; N] = [
    Some(include_bytes!("../../../data/weights/english-d10d.dmnn")),
    Some(include_bytes!("../../../data/weights/italian-g1.dmnn")),
    Some(include_bytes!("../../../data/weights/brazilian-g2.dmnn")),
    Some(include_bytes!("../../../data/weights/russian-g2.dmnn")),
    Some(include_bytes!("../../../data/weights/damone-g1.dmnn")),
    Some(include_bytes!(
        "../../../data/weights/international-g3.dmnn"
    )),
    Some(include_bytes!("../../../data/weights/antidraughts-g1.dmnn")),
    Some(include_bytes!("../../../data/weights/breakthrough-g1.dmnn")),
    Some(include_bytes!("../../../data/weights/frisian-g1.dmnn")),
    Some(include_bytes!("../../../data/weights/frysk-g1.dmnn")),
];

/// The embedded weights, parsed at the first use of each variant (immutable afterwards).
static BUILT_IN: [OnceLock<Option<Arc<Net>>>; N] = [const { OnceLock::new() }; N];

/// The weights embedded from `data/weights/` for variant `v`, parsed once; `None` when the
/// variant has none (or its embedded file is bad, which is logged): it plays with the
/// hand-set evaluation.
pub fn built_in(v: Variant) -> Option<Arc<Net>> {
    let i = variant_index(v);
    BUILT_IN[i]
        .get_or_init(|| {
            EMBEDDED[i].and_then(|bytes| match Net::from_bytes(bytes, v) {
                Ok(n) => Some(Arc::new(n)),
                Err(e) => {
                    log::error!("embedded {v} weights: {e}");
                    None
                }
            })
        })
        .clone()
}

/// The `EvalFile` value that selects the hand-set evaluation.
pub const HAND_SET: &str = "hand";

/// What a variant evaluates with, as the `EvalFile` option (Hub `eval-file`, the shell tools'
/// `--eval-file`) chooses it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The weights embedded from `data/weights/` ([`built_in`]): an empty value, the default.
    #[default]
    BuiltIn,
    /// The hand-set evaluation ([`super::hand`], Damone's [`super::damone`]): [`HAND_SET`].
    Hand,
    /// Weights read from a file.
    File(Arc<Net>),
}

impl Evaluation {
    /// The evaluation an `EvalFile` value chooses for variant `v`: empty, the built-in
    /// weights; [`HAND_SET`] (`hand`), the hand-set evaluation; else the weights file at that
    /// path, read now (at most 8 MiB: about 400 KB on 8x8, 730 KB on 10x10).
    ///
    /// # Errors
    /// A missing or unreadable file, a bad header, a truncated file, a checksum mismatch or a
    /// file for another variant: one line naming the file.
    pub fn from_eval_file(v: Variant, value: &str) -> Result<Evaluation, String> {
        match value {
            "" => Ok(Evaluation::BuiltIn),
            HAND_SET => Ok(Evaluation::Hand),
            path => read_weights(v, path).map(|net| Evaluation::File(Arc::new(net))),
        }
    }

    /// The learned weights variant `v` evaluates with under this choice (`None`: the
    /// hand-set evaluation).
    pub fn weights(&self, v: Variant) -> Option<Arc<Net>> {
        match self {
            Evaluation::BuiltIn => built_in(v),
            Evaluation::Hand => None,
            Evaluation::File(net) => Some(Arc::clone(net)),
        }
    }
}

/// Reads the weights file at `path` for variant `v` (at most 8 MiB): what `EvalFile` loads
/// ([`Evaluation::from_eval_file`]) and the starting point of `damiera-train patterns --init`.
///
/// # Errors
/// A missing or unreadable file, a bad header, a truncated file, a checksum mismatch or a file
/// for another variant: one line naming the file.
pub fn read_weights(v: Variant, path: &str) -> Result<Net, String> {
    let bytes = read_bounded(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    Net::from_bytes(&bytes, v).map_err(|e| format!("{path}: {e}"))
}

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
