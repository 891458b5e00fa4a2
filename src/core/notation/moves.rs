//! Moves and diagrams in each variant's notation, written once over [`Play`] for every game
//! (the [`crate::core::rules::Rules`] variants and Italian Damone). Each function takes a
//! position alone: its game comes from [`PlayPosition`].
//!
//! A quiet move is `from-to`; a capture lists every landing square, joined by the variant's
//! separator (`11x18x25`, `c3:e5:g3`, Damone `d4xf6xh8`). On input `from x to` is accepted when
//! it is unambiguous, and so is the Hub form `from x to x captured x captured ...`. PDN files
//! are written in the shortest unambiguous form ([`move_name_pdn`]: `11x25`).

use crate::core::bitboard::{Bitboard, Square};
use crate::core::movegen::{CaptureSink, Duplicates};
use crate::core::moves::{Move, MoveList};
use crate::core::play::{Play, PlayPosition};
use crate::core::squares::SquareError;
use std::fmt;

/// The game of position type `P`.
type PlayOf<P> = <P as PlayPosition>::Play;

/// Collects the landing-square paths of one move.
struct PathSink {
    target: Move,
    best: Option<u32>,
    path: Vec<Square>,
    paths: Vec<Vec<Square>>,
}

impl CaptureSink for PathSink {
    const PATHS: bool = true;
    fn add(&mut self, mv: Move, key: u32, _may_repeat: bool) {
        if mv != self.target || self.best.is_some_and(|b| key < b) {
            return;
        }
        if self.best.is_some_and(|b| key > b) {
            self.paths.clear();
        }
        self.best = Some(key);
        self.paths.push(self.path.clone());
    }
    fn land(&mut self, sq: Square) {
        self.path.push(sq);
    }
    fn unland(&mut self) {
        self.path.pop();
    }
}

/// Every path of landing squares (after `from`, ending on `to`) by which the legal capture `mv`
/// can be played. Empty for a quiet move.
pub fn capture_paths<P: PlayPosition>(pos: &P, mv: &Move) -> Vec<Vec<Square>> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut sink = PathSink {
        target: *mv,
        best: None,
        path: Vec::new(),
        paths: Vec::new(),
    };
    PlayOf::<P>::captures_into(pos, &mut sink);
    sink.paths
}

/// A move in the variant's PDN notation: `from-to`, or every landing square of a capture
/// joined by the variant's separator.
pub fn move_name<P: PlayPosition>(pos: &P, mv: &Move) -> String {
    move_name_nth(pos, mv, 0)
}

/// [`move_name`] with the `nth` of the capture's paths (wrapping around), so that the
/// duplicates listed by [`crate::core::movegen::Duplicates::Keep`] get each their own name.
pub fn move_name_nth<P: PlayPosition>(pos: &P, mv: &Move, nth: usize) -> String {
    let name = PlayOf::<P>::square_name;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let sep = PlayOf::<P>::CAPTURE_SEPARATOR.to_string();
    let mut parts = vec![name(mv.from)];
    let paths = capture_paths(pos, mv);
    match paths.get(nth % paths.len().max(1)) {
        Some(path) => parts.extend(path.iter().map(|&sq| name(sq))),
        None => parts.push(name(mv.to)),
    }
    parts.join(&sep)
}

/// Whether a capture's name needs its landing squares: another legal move of `legal` goes
/// from the same square to the same square (`legal` holds each distinct move once).
fn needs_path(legal: &MoveList, mv: &Move) -> bool {
    mv.is_capture()
        && legal
            .iter()
            .any(|m| m.from == mv.from && m.to == mv.to && m != mv)
}

/// A move in the shortest form PDN readers take: `from-to`, a capture `from x to` (Russian
/// `from:to`), and every landing square ([`move_name`]) only when another legal capture goes
/// from the same square to the same square.
///
/// This is what lidraughts writes (`PdnDump.scala`, `Replay.unambiguousPdnMoves`) and
/// CheckerBoard (`move_to_pdn_english`, CheckerBoard.c), and what readers that want from x to
/// expect: pydraughts 0.6.7's PDN reader, CheckerBoard's engines' `islegal` (from and to only).
pub fn move_name_pdn<P: PlayPosition>(pos: &P, mv: &Move) -> String {
    let name = PlayOf::<P>::square_name;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let mut legal = MoveList::new();
    PlayOf::<P>::generate(pos, &mut legal, Duplicates::Drop);
    if needs_path(&legal, mv) {
        move_name(pos, mv)
    } else {
        format!(
            "{}{}{}",
            name(mv.from),
            PlayOf::<P>::CAPTURE_SEPARATOR,
            name(mv.to)
        )
    }
}

/// A move in Hub form: `from-to`, or `from x to x captured...` with captured squares in
/// ascending order of their notation (Scan 3.1 protocol.txt; pydraughts matches captures by from, to and the sorted captured set).
pub fn move_name_hub<G: Play>(mv: &Move) -> String {
    let name = G::square_name;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let mut caps: Vec<Square> = mv.captured.iter().collect();
    caps.sort_by_key(|&sq| G::square_order(sq));
    let mut parts = vec![name(mv.from), name(mv.to)];
    parts.extend(caps.into_iter().map(name));
    parts.join("x")
}

/// Why a move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move at all.
    Syntax(String),
    /// A well-formed move that is not legal here.
    Illegal(String),
    /// The text fits several legal moves; they are listed.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "{s}"),
            MoveError::Illegal(s) => write!(f, "illegal move {s}"),
            MoveError::Ambiguous(s, c) => {
                write!(f, "ambiguous move {s}: could be {}", c.join(" or "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Parses a move in the variant's notation and finds it among the legal moves.
///
/// Accepted: `from-to`; a capture with every landing square (`x` or `:` between squares);
/// `from x to` when only one capture goes from there to there; the Hub form
/// `from x to x captured...`.
pub fn parse_move<P: PlayPosition>(pos: &P, text: &str) -> Result<Move, MoveError> {
    let mut legal = MoveList::new();
    PlayOf::<P>::generate(pos, &mut legal, Duplicates::Drop);
    find_move(
        text,
        &legal,
        PlayOf::<P>::parse_square,
        |mv| capture_paths(pos, mv),
        |mv| move_name(pos, mv),
    )
}

/// The move of `legal` that `text` names: `square` reads one square,
/// `paths` gives a capture's landing-square paths and `name` a move's name (for the candidates
/// of an ambiguous move). The forms accepted are those of [`parse_move`].
///
/// Errors: [`MoveError::Syntax`] for text that is not a move, [`MoveError::Illegal`] when no
/// legal move fits, [`MoveError::Ambiguous`] when several do.
fn find_move(
    text: &str,
    legal: &MoveList,
    square: impl Fn(&str) -> Result<Square, SquareError>,
    paths: impl Fn(&Move) -> Vec<Vec<Square>>,
    name: impl Fn(&Move) -> String,
) -> Result<Move, MoveError> {
    let t = text.trim();
    let quiet = t.contains('-');
    let parts: Vec<&str> = if quiet {
        t.split('-').collect()
    } else {
        t.split(['x', 'X', ':']).collect()
    };
    if parts.len() < 2 || (quiet && parts.len() != 2) {
        return Err(MoveError::Syntax(format!(
            "'{t}' is not a move (use from-to or fromxto)"
        )));
    }
    let mut squares = Vec::with_capacity(parts.len());
    for p in &parts {
        squares.push(square(p).map_err(|e| MoveError::Syntax(format!("in move '{t}': {e}")))?);
    }
    let (from, rest) = (squares[0], &squares[1..]);
    let mut found: Vec<Move> = Vec::new();
    for mv in legal.iter().filter(|m| m.from == from) {
        let ok = if quiet {
            !mv.is_capture() && mv.to == rest[0]
        } else if !mv.is_capture() {
            false
        } else {
            let as_path = mv.to == *rest.last().expect("at least two squares")
                && (rest.len() == 1 || paths(mv).iter().any(|p| p.as_slice() == rest));
            let as_hub = rest.len() >= 2
                && mv.to == rest[0]
                && rest[1..].iter().fold(Bitboard::EMPTY, |b, &s| b.with(s)) == mv.captured
                && mv.captured.count() as usize == rest.len() - 1;
            as_path || as_hub
        };
        if ok && !found.contains(mv) {
            found.push(*mv);
        }
    }
    match found.len() {
        1 => Ok(found[0]),
        0 => {
            let why = if quiet && legal.first().is_some_and(Move::is_capture) {
                " (a capture is compulsory)"
            } else {
                ""
            };
            Err(MoveError::Illegal(format!("{t}{why}")))
        }
        _ => Err(MoveError::Ambiguous(
            t.to_string(),
            found.iter().map(&name).collect(),
        )),
    }
}

/// The position as an ASCII diagram, White at the bottom: the game's piece letters
/// ([`Play::piece_letter`]: `w`/`b` men and `W`/`B` kings, Damone's `P`/`K`/`I` for White and
/// lower case for Black), `.` an empty dark square, blank a light square, rank numbers on the
/// left and file letters below.
pub fn diagram<P: PlayPosition>(pos: &P) -> String {
    let mut out = String::new();
    let (w, h) = (PlayOf::<P>::FILES, PlayOf::<P>::RANKS);
    for rank in (0..h).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..w {
            let c = match PlayOf::<P>::square_at(file, rank) {
                None => ' ',
                Some(sq) => PlayOf::<P>::piece_letter(pos, sq).unwrap_or('.'),
            };
            out.push(' ');
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..w {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}
