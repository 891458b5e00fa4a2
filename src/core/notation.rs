//! Notation at the I/O boundary: square names, PDN FEN, and moves in each variant's notation.
//!
//! - Squares: English 1-32 (1 = b8, 29 = a1), Italian FID 1-32 (1 = a8, 32 = h1),
//!   International 1-50 (1 = b10, 46 = a1), algebraic `a1`..`h8` for Brazilian and Russian
//!   (WCDF, FID-I 2.4, FMJD; PDN GameTypes 20, 21, 22, 25, 26; see docs/rules.md).
//! - FEN (PDN 3.0): `[W|B]:W<list>:B<list>`, a `K` before a square marks a king, ranges such as
//!   `21-32` or `K1-K4` are accepted for numeric notation, the colour lists may come in either
//!   order, lidraughts' move counters (`:H0:F1`, [`FenCounters`]) may follow them. Output
//!   lists every square explicitly, White's list first.
//! - Moves: a quiet move is `from-to`; a capture lists every landing square, joined by the
//!   variant's separator (`11x18x25`, `c3:e5:g3`). On input `from x to` is accepted when it is
//!   unambiguous, and so is the Hub form `from x to x captured x captured ...`. PDN files are
//!   written in the shortest unambiguous form ([`move_name_pdn`]: `11x25`).
//!
//! Internally, column `x` of the geometry is the real file on boards where h1 is dark, and
//! its mirror image where a1 is dark: the rules do not change under the mirror.

use crate::core::bitboard::{Bitboard, Square};
use crate::core::geometry::Geometry;
use crate::core::movegen::{self, CaptureSink};
use crate::core::moves::{Move, MoveList};
use crate::core::position::Position;
use crate::core::rules::{Color, Numbering, Rules};
use std::fmt;

/// The real `(file, rank)` of an internal square, both 0-based from White's bottom-left.
pub fn file_rank<R: Rules>(sq: Square) -> (u8, u8) {
    let (x, y) = R::Board::coords(sq);
    let file = if R::A1_DARK {
        R::Board::WIDTH - 1 - x
    } else {
        x
    };
    (file, y)
}

/// The internal square at a real `(file, rank)`, if it is a playable (dark) square.
pub fn from_file_rank<R: Rules>(file: u8, rank: u8) -> Option<Square> {
    if file >= R::Board::WIDTH || rank >= R::Board::HEIGHT {
        return None;
    }
    let x = if R::A1_DARK {
        R::Board::WIDTH - 1 - file
    } else {
        file
    };
    R::Board::square_at(x, rank)
}

/// Per-row layout of a numbered board: squares per row, and whether row `r` (0 = top) starts on
/// the second file.
fn numbering_layout(n: Numbering) -> (u8, u8, bool) {
    // (squares per row, rows, whether even rows from the top start at file 1)
    match n {
        Numbering::English => (4, 8, true),
        Numbering::Italian => (4, 8, false),
        Numbering::International => (5, 10, true),
        Numbering::Algebraic => (0, 0, false),
    }
}

/// The number of a square in a numeric notation (1-based), or `None` for algebraic variants.
pub fn square_number<R: Rules>(sq: Square) -> Option<u8> {
    let (per_row, rows, even_offset) = numbering_layout(R::NUMBERING);
    if per_row == 0 {
        return None;
    }
    let (file, rank) = file_rank::<R>(sq);
    let r = rows - 1 - rank;
    let offset = if (r % 2 == 0) == even_offset { 1 } else { 0 };
    Some(r * per_row + (file - offset) / 2 + 1)
}

/// The internal square with number `n` in a numeric notation.
pub fn square_from_number<R: Rules>(n: u32) -> Option<Square> {
    let (per_row, rows, even_offset) = numbering_layout(R::NUMBERING);
    if per_row == 0 || n == 0 || n > per_row as u32 * rows as u32 {
        return None;
    }
    let i = (n - 1) as u8;
    let (r, c) = (i / per_row, i % per_row);
    let offset = if (r % 2 == 0) == even_offset { 1 } else { 0 };
    from_file_rank::<R>(2 * c + offset, rows - 1 - r)
}

/// The name of a square in the variant's notation (`"29"`, `"c3"`).
pub fn square_name<R: Rules>(sq: Square) -> String {
    match square_number::<R>(sq) {
        Some(n) => n.to_string(),
        None => {
            let (f, r) = file_rank::<R>(sq);
            format!("{}{}", (b'a' + f) as char, r + 1)
        }
    }
}

/// Why a square name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a square name at all.
    Malformed(String),
    /// A number or coordinate off this board.
    OutOfRange(String),
    /// A light (unplayable) square.
    Light(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Malformed(s) => write!(f, "'{s}' is not a square"),
            SquareError::OutOfRange(s) => write!(f, "square {s} is off the board"),
            SquareError::Light(s) => write!(f, "square {s} is a light square"),
        }
    }
}

/// Parses a square name in the variant's notation.
pub fn parse_square<R: Rules>(s: &str) -> Result<Square, SquareError> {
    let s = s.trim();
    if R::NUMBERING == Numbering::Algebraic {
        let b = s.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_alphabetic() || !b[1..].iter().all(u8::is_ascii_digit) {
            return Err(SquareError::Malformed(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase() - b'a';
        let rank: u32 = s[1..]
            .parse()
            .map_err(|_| SquareError::Malformed(s.to_string()))?;
        if file >= R::Board::WIDTH || rank == 0 || rank > R::Board::HEIGHT as u32 {
            return Err(SquareError::OutOfRange(s.to_string()));
        }
        from_file_rank::<R>(file, rank as u8 - 1).ok_or_else(|| SquareError::Light(s.to_string()))
    } else {
        if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) {
            return Err(SquareError::Malformed(s.to_string()));
        }
        let n: u32 = s
            .parse()
            .map_err(|_| SquareError::OutOfRange(s.to_string()))?;
        square_from_number::<R>(n).ok_or_else(|| SquareError::OutOfRange(s.to_string()))
    }
}

/// Why a FEN was rejected. Each message names the problem and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// lidraughts' move counters after a FEN's colour lists (`W:W21-32:B1-12:H0:F1`).
///
/// lidraughts (`draughts/format/Forsyth.scala`) writes `:H<n>`, the number of plies since "a
/// forced draw material combination" appeared (the count behind its endgame draw rules), and
/// `:F<n>`, the full-move number (1 at the start, incremented after Black's move). damiera
/// reads both and keeps neither in the position: `H` is not its no-progress counter (plies
/// without a capture or a man move, docs/rules.md) but lidraughts' endgame count, and a
/// position from any FEN starts both of damiera's counters at 0 (docs/rules.md, "FEN").
/// `F` only numbers the moves of a PDN game.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FenCounters {
    /// `H`: plies since the endgame material appeared (lidraughts); not used by damiera.
    pub halfmove: Option<u32>,
    /// `F`: the full-move number of the position (from 1).
    pub fullmove: Option<u32>,
}

/// A FEN cut into its parts: the side to move, the colour lists (`W...`, `B...`) and the
/// move counters.
pub(crate) struct FenParts<'a> {
    pub side: Color,
    pub lists: Vec<&'a str>,
    pub counters: FenCounters,
}

/// A move-counter field (`H0`, `F12`, lower case too): its letter (upper case) and number;
/// `None` for any other field.
///
/// Errors: an `H` or `F` followed by something that is not a number (a one-line message).
pub(crate) fn counter_field(field: &str) -> Option<Result<(char, u32), FenError>> {
    let field = field.trim();
    let mut chars = field.chars();
    let letter = chars.next()?.to_ascii_uppercase();
    if letter != 'H' && letter != 'F' {
        return None;
    }
    let digits = chars.as_str();
    let what = if letter == 'H' {
        "halfmove clock"
    } else {
        "full-move number"
    };
    Some(
        match digits.parse::<u32>() {
            Ok(n) if digits.bytes().all(|b| b.is_ascii_digit()) => Ok((letter, n)),
            _ => Err(FenError(format!(
                "field '{field}' is not a {what} ({letter} followed by a number)"
            ))),
        }
        .and_then(|(l, n)| {
            if l == 'F' && n == 0 {
                Err(FenError(format!(
                    "field '{field}': the full-move number starts at 1"
                )))
            } else {
                Ok((l, n))
            }
        }),
    )
}

/// Cuts a PDN FEN into its parts, for any game's FEN. Accepts the FEN bare, quoted or as a
/// `[FEN "..."]` tag, with or without a final `.`, and lidraughts' move counters (`:H0:F1`,
/// [`FenCounters`]) after the colour lists.
///
/// Errors: an empty FEN, a side to move that is not `W` or `B`, a field that is neither a
/// colour list nor a move counter, a malformed or repeated counter.
pub(crate) fn fen_parts(text: &str) -> Result<FenParts<'_>, FenError> {
    let mut s = text.trim();
    if let Some(inner) = s.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        s = inner.trim();
    }
    let s = s.trim_matches('"').trim().trim_end_matches('.');
    if s.is_empty() {
        return Err(FenError("empty FEN".into()));
    }
    let mut fields = s.split(':');
    let side = match fields.next().map(str::trim) {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        Some(other) => return Err(FenError(format!("side to move '{other}' is not W or B"))),
        None => unreachable!("split yields at least one field"),
    };
    let mut parts = FenParts {
        side,
        lists: Vec::new(),
        counters: FenCounters::default(),
    };
    for field in fields {
        let field = field.trim();
        match counter_field(field) {
            Some(counter) => {
                let (letter, n) = counter?;
                let slot = if letter == 'H' {
                    &mut parts.counters.halfmove
                } else {
                    &mut parts.counters.fullmove
                };
                if slot.replace(n).is_some() {
                    return Err(FenError(format!("the {letter} field appears twice")));
                }
            }
            None if field.starts_with(['W', 'w', 'B', 'b']) => parts.lists.push(field),
            None => {
                return Err(FenError(format!(
                    "field '{field}' is neither a colour list (W..., B...) nor a move counter (H<plies>, F<move number>)"
                )))
            }
        }
    }
    Ok(parts)
}

/// The move counters of a PDN FEN (lidraughts' `:H<n>:F<n>`; both `None` when absent).
///
/// Errors: those of [`parse_fen`] about the side to move, the fields and the counters (the
/// colour lists are not checked here).
pub fn fen_counters(text: &str) -> Result<FenCounters, FenError> {
    fen_parts(text).map(|p| p.counters)
}

/// Parses a PDN FEN in the variant's notation. lidraughts' move counters (`:H0:F1`) may follow
/// the colour lists; they are read and not kept ([`FenCounters`]).
///
/// Errors: a bad side to move, a field that is neither a colour list nor a move counter, a
/// malformed counter, a malformed or off-board square, a light square, a square listed twice
/// or for both colours, a man on the row where it would be crowned.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, FenError> {
    let FenParts { side, lists, .. } = fen_parts(text)?;
    let mut sets = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let mut seen = [false; 2];
    for field in lists {
        let (colour, list) = match field.as_bytes()[0] {
            b'W' | b'w' => (Color::White, &field[1..]),
            _ => (Color::Black, &field[1..]),
        };
        if seen[colour as usize] {
            return Err(FenError(format!(
                "the {} list appears twice",
                colour_name(colour)
            )));
        }
        seen[colour as usize] = true;
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            for (sq, king) in parse_item::<R>(item)? {
                let name = square_name::<R>(sq);
                if sets[0].contains(sq) || sets[1].contains(sq) {
                    let other = if sets[colour as usize].contains(sq) {
                        colour
                    } else {
                        colour.opponent()
                    };
                    return Err(FenError(if other == colour {
                        format!("square {name} is listed twice for {}", colour_name(colour))
                    } else {
                        format!("square {name} is listed for both white and black")
                    }));
                }
                if !king && movegen::promotion_row::<R>(colour).contains(sq) {
                    return Err(FenError(format!(
                        "a {} man on {name}, its promotion row, must be a king",
                        colour_name(colour)
                    )));
                }
                sets[colour as usize] = sets[colour as usize].with(sq);
                if king {
                    kings = kings.with(sq);
                }
            }
        }
    }
    Ok(Position::from_parts(sets[0], sets[1], kings, side))
}

/// One FEN list item: `sq`, `Ksq`, or a numeric range `a-b` / `Ka-Kb` / `Ka-b`.
fn parse_item<R: Rules>(item: &str) -> Result<Vec<(Square, bool)>, FenError> {
    let (king, rest) = match item.strip_prefix(['K', 'k']) {
        Some(r) => (true, r),
        None => (false, item),
    };
    let sq_err = |e: SquareError| FenError(e.to_string());
    if let Some((a, b)) = rest.split_once('-') {
        if R::NUMBERING == Numbering::Algebraic {
            return Err(FenError(format!("range '{item}' needs numeric squares")));
        }
        let b = b.strip_prefix(['K', 'k']).unwrap_or(b);
        let (lo, hi): (u32, u32) = match (a.trim().parse(), b.trim().parse()) {
            (Ok(lo), Ok(hi)) if lo <= hi => (lo, hi),
            _ => return Err(FenError(format!("'{item}' is not a range of squares"))),
        };
        (lo..=hi)
            .map(|n| {
                parse_square::<R>(&n.to_string())
                    .map(|sq| (sq, king))
                    .map_err(sq_err)
            })
            .collect()
    } else {
        Ok(vec![(parse_square::<R>(rest).map_err(sq_err)?, king)])
    }
}

/// The PDN FEN of a position, every square listed, White's list first.
pub fn fen<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side().letter());
    for c in [Color::White, Color::Black] {
        out.push(':');
        out.push(c.letter());
        let mut squares: Vec<Square> = pos.pieces(c).iter().collect();
        squares.sort_by_key(|&sq| sort_key::<R>(sq));
        let items: Vec<String> = squares
            .iter()
            .map(|&sq| {
                let k = if pos.kings().contains(sq) { "K" } else { "" };
                format!("{k}{}", square_name::<R>(sq))
            })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

/// Sort order for listing squares: by number, or by file then rank.
fn sort_key<R: Rules>(sq: Square) -> (u8, u8) {
    match square_number::<R>(sq) {
        Some(n) => (n, 0),
        None => file_rank::<R>(sq),
    }
}

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
pub fn capture_paths<R: Rules>(pos: &Position<R>, mv: &Move) -> Vec<Vec<Square>> {
    if !mv.is_capture() {
        return Vec::new();
    }
    let mut sink = PathSink {
        target: *mv,
        best: None,
        path: Vec::new(),
        paths: Vec::new(),
    };
    movegen::captures_into(pos, &mut sink);
    sink.paths
}

/// A move in the variant's PDN notation: `from-to`, or every landing square of a capture
/// joined by the variant's separator.
pub fn move_name<R: Rules>(pos: &Position<R>, mv: &Move) -> String {
    move_name_nth(pos, mv, 0)
}

/// [`move_name`] with the `nth` of the capture's paths (wrapping around), so that the
/// duplicates listed by [`crate::core::movegen::Duplicates::Keep`] get each their own name.
pub fn move_name_nth<R: Rules>(pos: &Position<R>, mv: &Move, nth: usize) -> String {
    let name = square_name::<R>;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let sep = R::CAPTURE_SEPARATOR.to_string();
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
pub(crate) fn needs_path(legal: &MoveList, mv: &Move) -> bool {
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
pub fn move_name_pdn<R: Rules>(pos: &Position<R>, mv: &Move) -> String {
    let name = square_name::<R>;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let mut legal = MoveList::new();
    movegen::generate(pos, &mut legal);
    if needs_path(&legal, mv) {
        move_name(pos, mv)
    } else {
        format!("{}{}{}", name(mv.from), R::CAPTURE_SEPARATOR, name(mv.to))
    }
}

/// A move in Hub form: `from-to`, or `from x to x captured...` with captured squares in
/// ascending order of their notation (Scan 3.1 protocol.txt; pydraughts matches captures by from, to and the sorted captured set).
pub fn move_name_hub<R: Rules>(mv: &Move) -> String {
    let name = square_name::<R>;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let mut caps: Vec<Square> = mv.captured.iter().collect();
    caps.sort_by_key(|&sq| sort_key::<R>(sq));
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
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
    let mut legal = MoveList::new();
    movegen::generate(pos, &mut legal);
    find_move(
        text,
        &legal,
        parse_square::<R>,
        |mv| capture_paths(pos, mv),
        |mv| move_name(pos, mv),
    )
}

/// The move of `legal` that `text` names, for any game's notation: `square` reads one square,
/// `paths` gives a capture's landing-square paths and `name` a move's name (for the candidates
/// of an ambiguous move). The forms accepted are those of [`parse_move`].
///
/// Errors: [`MoveError::Syntax`] for text that is not a move, [`MoveError::Illegal`] when no
/// legal move fits, [`MoveError::Ambiguous`] when several do.
pub(crate) fn find_move(
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

/// The position as an ASCII diagram (White at the bottom, `w`/`b` men, `W`/`B` kings, `.` an
/// empty dark square, blank a light square), with file letters or square numbers.
pub fn diagram<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::new();
    let (w, h) = (R::Board::WIDTH, R::Board::HEIGHT);
    for rank in (0..h).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..w {
            let c = match from_file_rank::<R>(file, rank) {
                None => ' ',
                Some(sq) => match pos.piece_at(sq) {
                    None => '.',
                    Some((Color::White, false)) => 'w',
                    Some((Color::White, true)) => 'W',
                    Some((Color::Black, false)) => 'b',
                    Some((Color::Black, true)) => 'B',
                },
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
