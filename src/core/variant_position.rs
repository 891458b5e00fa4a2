//! `VariantPosition`: a position of a variant chosen at run time, for the tools above the core
//! (the match referee, openings, PDN, the protocols' board translations), after shakmaty's
//! `VariantPosition`: an enum with one case per game, every method delegating to the generic
//! [`Draughts`] code through one `match` (the private `each!` macro). The search stays generic;
//! this is the typed boundary where a runtime [`Variant`] meets it.
//!
//! [`VariantGame`] adds the keys of the earlier positions, for threefold repetition, as the
//! engine's game keeps them.

use crate::core::bitboard::Square;
use crate::core::damone::{self, DamoneDraughts, DamoneWin, Rank};
use crate::core::draughts::{Draughts, DrawRules, Notation};
use crate::core::movegen::Duplicates;
use crate::core::moves::{Move, MoveList};
use crate::core::notation::{capture_paths, FenError, MoveError};
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::{
    Antidraughts, Brazilian, Breakthrough, Color, English, Frisian, Frysk, Goal, International,
    Italian, Numbering, Rules, Russian,
};
use crate::core::variant::Variant;
use std::fmt;

/// A position of any variant, with the variant's rules: Italian Damone carries its end-of-game
/// rule ([`DamoneWin`], ruling I.4), the others have none to choose.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariantPosition {
    /// English draughts.
    English(Position<English>),
    /// Italian draughts.
    Italian(Position<Italian>),
    /// Brazilian draughts.
    Brazilian(Position<Brazilian>),
    /// Russian draughts.
    Russian(Position<Russian>),
    /// Italian Damone, with its end-of-game rule.
    Damone(damone::Position, DamoneWin),
    /// International draughts.
    International(Position<International>),
    /// Antidraughts.
    Antidraughts(Position<Antidraughts>),
    /// Breakthrough.
    Breakthrough(Position<Breakthrough>),
    /// Frisian draughts.
    Frisian(Position<Frisian>),
    /// Frysk!.
    Frysk(Position<Frysk>),
}

/// The one `match` from a [`VariantPosition`] into generic code: binds the position to `$pos`
/// and the variant's [`Draughts`] type to `$g` (Damone's by its end-of-game rule), then runs
/// `$body`.
macro_rules! each {
    ($value:expr, |$g:ident, $pos:ident| $body:expr) => {
        match $value {
            VariantPosition::English($pos) => {
                type $g = English;
                $body
            }
            VariantPosition::Italian($pos) => {
                type $g = Italian;
                $body
            }
            VariantPosition::Brazilian($pos) => {
                type $g = Brazilian;
                $body
            }
            VariantPosition::Russian($pos) => {
                type $g = Russian;
                $body
            }
            VariantPosition::Damone($pos, DamoneWin::All) => {
                type $g = DamoneDraughts<false>;
                $body
            }
            VariantPosition::Damone($pos, DamoneWin::Damones) => {
                type $g = DamoneDraughts<true>;
                $body
            }
            VariantPosition::International($pos) => {
                type $g = International;
                $body
            }
            VariantPosition::Antidraughts($pos) => {
                type $g = Antidraughts;
                $body
            }
            VariantPosition::Breakthrough($pos) => {
                type $g = Breakthrough;
                $body
            }
            VariantPosition::Frisian($pos) => {
                type $g = Frisian;
                $body
            }
            VariantPosition::Frysk($pos) => {
                type $g = Frysk;
                $body
            }
        }
    };
}

/// How a game ended by the rules.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// This side won, by this rule.
    Win(Color, WinRule),
    /// A draw, and by which rule (`no-progress rule`, `endgame rule`, `threefold
    /// repetition`).
    Draw(&'static str),
}

/// The rule by which a side won ([`Outcome::Win`]; the variant's [`Goal`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WinRule {
    /// The loser, to move, has no legal move ([`Goal::Standard`]).
    Blocked,
    /// The winner, to move, has no legal move (Antidraughts, [`Goal::NoMoveWins`]).
    NoMoveLeft,
    /// The winner has made a king (Breakthrough, [`Goal::FirstKingWins`]).
    King,
}

impl fmt::Display for Outcome {
    /// In words: `Black wins: White has no legal move`, `White wins: White has no legal
    /// move left` (Antidraughts), `White wins: White has a king` (Breakthrough),
    /// `draw: threefold repetition`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(c, WinRule::Blocked) => write!(
                f,
                "{} wins: {} has no legal move",
                c.name(),
                c.opponent().name()
            ),
            Outcome::Win(c, WinRule::NoMoveLeft) => {
                write!(f, "{} wins: {} has no legal move left", c.name(), c.name())
            }
            Outcome::Win(c, WinRule::King) => {
                write!(f, "{} wins: {} has a king", c.name(), c.name())
            }
            Outcome::Draw(rule) => write!(f, "draw: {rule}"),
        }
    }
}

/// How a game stands by the rules: lost for the side to move if it has no legal move (won in
/// Antidraughts; in Breakthrough a side facing a king has none), drawn
/// if the no-progress or an endgame counter has run out, or if the position stood twice before
/// in `history` (the keys of the earlier positions since the last irreversible move:
/// threefold repetition), else `None`. The one statement of these rules for the engine's game
/// and [`VariantGame`].
pub fn outcome<G: Draughts>(pos: &G::Position, history: &[u64]) -> Option<Outcome> {
    if !G::has_moves(pos) {
        let side = G::side(pos);
        return Some(match G::GOAL {
            Goal::NoMoveWins => Outcome::Win(side, WinRule::NoMoveLeft),
            Goal::FirstKingWins if G::opponent_crowned(pos) => {
                Outcome::Win(side.opponent(), WinRule::King)
            }
            _ => Outcome::Win(side.opponent(), WinRule::Blocked),
        });
    }
    if let Some(rule) = G::counter_draw(pos) {
        return Some(Outcome::Draw(rule));
    }
    let key = G::key(pos);
    (G::THREEFOLD_REPETITION && history.iter().filter(|&&k| k == key).count() >= 2)
        .then_some(Outcome::Draw("threefold repetition"))
}

/// The playable squares of `G`'s board with their file and rank, in notation order.
fn board_squares<G: Play>() -> Vec<(Square, u8, u8)> {
    let mut list = Vec::new();
    for file in 0..G::FILES {
        for rank in 0..G::RANKS {
            list.extend(G::square_at(file, rank).map(|sq| (sq, file, rank)));
        }
    }
    list.sort_by_key(|&(sq, _, _)| G::square_order(sq));
    list
}

/// A playable square of a board ([`VariantPosition::squares`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareView {
    /// Its name in the variant's notation (`"29"`, `"c3"`).
    pub name: String,
    /// Its file, 0-based from White's left (0 is the a-file).
    pub file: u8,
    /// Its rank, 0-based from White's side (0 is White's first rank).
    pub rank: u8,
}

/// The squares of a move ([`VariantPosition::move_squares`]), in the variant's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSquares {
    /// The moving piece's square, then every landing square (two squares for a quiet move).
    pub path: Vec<String>,
    /// The squares of the pieces taken, in notation order.
    pub captured: Vec<String>,
    /// Whether a man ends the move as a king.
    pub promotes: bool,
}

/// The rank of a piece on a square ([`VariantPosition::piece_on`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Piece {
    /// A man (Damone: a Pedine).
    Man,
    /// A king (Damone: a Dama).
    King,
    /// Italian Damone's highest rank.
    Damone,
}

/// What differs between the position types below [`Draughts`] and [`Play`] does not state: the
/// rank of the piece on a square, pieces per side.
trait Pieces {
    /// The piece on `sq`.
    fn piece(&self, sq: Square) -> Option<(Color, Piece)>;
    /// The number of `c`'s pieces.
    fn count(&self, c: Color) -> u32;
}

impl<R: Rules> Pieces for Position<R> {
    fn piece(&self, sq: Square) -> Option<(Color, Piece)> {
        self.piece_at(sq)
            .map(|(c, king)| (c, if king { Piece::King } else { Piece::Man }))
    }
    fn count(&self, c: Color) -> u32 {
        self.pieces(c).count()
    }
}

impl Pieces for damone::Position {
    fn piece(&self, sq: Square) -> Option<(Color, Piece)> {
        self.piece_at(sq).map(|(c, rank)| {
            let piece = match rank {
                Rank::Pedine => Piece::Man,
                Rank::Dama => Piece::King,
                Rank::Damone => Piece::Damone,
            };
            (c, piece)
        })
    }
    fn count(&self, c: Color) -> u32 {
        self.pieces(c).count()
    }
}

impl VariantPosition {
    /// The start position of `variant` (Damone with its default end of game,
    /// [`DamoneWin::All`]).
    pub fn start(variant: Variant) -> VariantPosition {
        match variant {
            Variant::English => VariantPosition::English(Position::start()),
            Variant::Italian => VariantPosition::Italian(Position::start()),
            Variant::Brazilian => VariantPosition::Brazilian(Position::start()),
            Variant::Russian => VariantPosition::Russian(Position::start()),
            Variant::Damone => VariantPosition::Damone(damone::Position::start(), DamoneWin::All),
            Variant::International => VariantPosition::International(Position::start()),
            Variant::Antidraughts => VariantPosition::Antidraughts(Position::start()),
            Variant::Breakthrough => VariantPosition::Breakthrough(Position::start()),
            Variant::Frisian => VariantPosition::Frisian(Position::start()),
            Variant::Frysk => VariantPosition::Frysk(Position::start()),
        }
    }

    /// The position of a PDN FEN in `variant`'s notation.
    ///
    /// # Errors
    /// The variant's FEN parser's [`FenError`] (bad side, field, counter or square).
    pub fn from_fen(variant: Variant, fen: &str) -> Result<VariantPosition, FenError> {
        let mut p = VariantPosition::start(variant);
        each!(&mut p, |G, pos| *pos = G::parse_fen(fen)?);
        Ok(p)
    }

    /// The position of `fen`, or the start position when `None`.
    ///
    /// # Errors
    /// As [`VariantPosition::from_fen`].
    pub fn new(variant: Variant, fen: Option<&str>) -> Result<VariantPosition, FenError> {
        match fen {
            None => Ok(VariantPosition::start(variant)),
            Some(f) => VariantPosition::from_fen(variant, f),
        }
    }

    /// The same position under Italian Damone's end-of-game rule `win` (ruling I.4); the other
    /// variants have no such rule and are returned unchanged.
    pub fn with_damone_win(self, win: DamoneWin) -> VariantPosition {
        match self {
            VariantPosition::Damone(p, _) => VariantPosition::Damone(p, win),
            other => other,
        }
    }

    /// Italian Damone's end-of-game rule (ruling I.4); `None` for the other variants.
    pub fn damone_win(&self) -> Option<DamoneWin> {
        match self {
            VariantPosition::Damone(_, win) => Some(*win),
            _ => None,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        each!(self, |G, _p| <G as Play>::VARIANT)
    }

    /// The PDN FEN, every square listed, White's list first.
    pub fn fen(&self) -> String {
        each!(self, |G, p| G::fen(p))
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        each!(self, |G, p| G::side(p))
    }

    /// The Zobrist key (pieces and side to move).
    pub fn key(&self) -> u64 {
        each!(self, |G, p| G::key(p))
    }

    /// The legal moves, once per distinct move ([`Duplicates::Drop`]), in generation order.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        each!(self, |G, p| G::generate(p, &mut list, Duplicates::Drop));
        list
    }

    /// A legal move in the variant's notation (every landing square of a capture).
    pub fn move_name(&self, mv: &Move) -> String {
        each!(self, |G, p| G::move_name(p, mv))
    }

    /// A legal move in the shortest unambiguous PDN form (`11x25`).
    pub fn move_name_pdn(&self, mv: &Move) -> String {
        each!(self, |G, p| G::move_name_pdn(p, mv))
    }

    /// A move in the Hub form (`from x to x captured...`, the variant's square names).
    pub fn move_name_hub(&self, mv: &Move) -> String {
        each!(self, |G, _p| G::move_name_hub(mv))
    }

    /// The legal move that `text` names, in any form the variant's notation reads.
    ///
    /// # Errors
    /// A malformed, illegal or ambiguous move ([`MoveError`]).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        each!(self, |G, p| G::parse_move(p, text))
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move) {
        each!(self, |G, p| *p = G::make(p, mv))
    }

    /// Plays the legal move that `text` names and gives it back in the variant's notation.
    ///
    /// # Errors
    /// As [`VariantPosition::parse_move`]; the position is then unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.parse_move(text)?;
        let name = self.move_name(&mv);
        self.play(&mv);
        Ok(name)
    }

    /// Whether positions before `mv` can never recur after it (the bound of repetition).
    pub fn is_irreversible(&self, mv: &Move) -> bool {
        each!(self, |G, p| G::is_irreversible(p, mv))
    }

    /// How the game stands by the rules of the position alone: lost for the side to move if it
    /// has no legal move, drawn if the no-progress or an endgame counter has run out, else
    /// `None`. Repetition needs the game's history: [`VariantGame::outcome`].
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, |G, p| outcome::<G>(p, &[]))
    }

    /// The number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        each!(self, |G, p| G::piece_count(p))
    }

    /// The number of `c`'s pieces.
    pub fn pieces_of(&self, c: Color) -> u32 {
        each!(self, |_G, p| p.count(c))
    }

    /// The piece on the square named `square` in the variant's notation (`"29"`, `"c3"`), or
    /// `Ok(None)` if it is empty.
    ///
    /// # Errors
    /// `square` is not a square of the variant's board (the name is given back).
    pub fn piece_on(&self, square: &str) -> Result<Option<(Color, Piece)>, String> {
        each!(self, |G, p| {
            let sq = G::parse_square(square).map_err(|_| square.to_string())?;
            Ok(p.piece(sq))
        })
    }

    /// The number of playable squares of the variant's board (32, or 50 for International).
    pub fn square_count(&self) -> u32 {
        each!(self, |G, _p| <G as Play>::SQUARES as u32)
    }

    /// Whether the variant's kings fly (Brazilian, Russian, International).
    pub fn flying_kings(&self) -> bool {
        each!(self, |G, _p| <G as Play>::FLYING_KINGS)
    }

    /// The board's playable squares in notation order (1 first, or a1, c1, ... for algebraic
    /// notation), each with its place: what a board drawing needs.
    pub fn squares(&self) -> Vec<SquareView> {
        each!(self, |G, _p| board_squares::<G>()
            .into_iter()
            .map(|(sq, file, rank)| SquareView {
                name: G::square_name(sq),
                file,
                rank,
            })
            .collect())
    }

    /// The piece on each square of [`VariantPosition::squares`], in the same order.
    pub fn pieces(&self) -> Vec<Option<(Color, Piece)>> {
        each!(self, |G, p| board_squares::<G>()
            .into_iter()
            .map(|(sq, _, _)| p.piece(sq))
            .collect())
    }

    /// The board's size: files and ranks (8 and 8, or 10 and 10).
    pub fn board_size(&self) -> (u8, u8) {
        each!(self, |G, _p| (<G as Play>::FILES, <G as Play>::RANKS))
    }

    /// The square numbering the variant writes (numbers, or [`Numbering::Algebraic`]).
    pub fn numbering(&self) -> Numbering {
        each!(self, |G, _p| <G as Play>::NUMBERING)
    }

    /// The squares of a legal move, in the variant's notation: the moving piece's square and
    /// every landing square (the first of the capture's paths, as [`VariantPosition::move_name`]
    /// names it), and the squares of the pieces it takes, in notation order.
    pub fn move_squares(&self, mv: &Move) -> MoveSquares {
        each!(self, |G, p| {
            let name = G::square_name;
            let mut path = vec![name(mv.from)];
            match capture_paths(p, mv).first() {
                Some(landings) => path.extend(landings.iter().map(|&sq| name(sq))),
                None => path.push(name(mv.to)),
            }
            let mut taken: Vec<Square> = mv.captured.iter().collect();
            taken.sort_by_key(|sq| G::square_order(*sq));
            MoveSquares {
                path,
                captured: taken.into_iter().map(name).collect(),
                promotes: mv.promotes,
            }
        })
    }
}

/// The most earlier positions a game keeps for repetition detection (the engine's game and
/// [`VariantGame`]), in plies: more than any variant's no-progress limit (80 plies) or the
/// counter's range (255). A Damone game, where a Pedine move resets the counter without being
/// irreversible, could in principle repeat a position from further back; such a repetition is
/// not seen.
pub const MAX_HISTORY: usize = 256;

/// A game in progress: the position and the keys of the earlier positions since the last
/// irreversible move (at most the last 256), for threefold repetition, as the engine's game
/// keeps them.
#[derive(Clone, Debug)]
pub struct VariantGame {
    pos: VariantPosition,
    history: Vec<u64>,
}

impl VariantGame {
    /// A game from `pos`, with no earlier positions.
    pub fn new(pos: VariantPosition) -> VariantGame {
        VariantGame {
            pos,
            history: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &VariantPosition {
        &self.pos
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: &Move) {
        if self.pos.is_irreversible(mv) {
            self.history.clear();
        } else {
            if self.history.len() == MAX_HISTORY {
                self.history.remove(0);
            }
            self.history.push(self.pos.key());
        }
        self.pos.play(mv);
    }

    /// Plays the legal move that `text` names and gives it back in the variant's notation.
    ///
    /// # Errors
    /// As [`VariantPosition::parse_move`]; the game is then unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.pos.parse_move(text)?;
        let name = self.pos.move_name(&mv);
        self.play(&mv);
        Ok(name)
    }

    /// How the game stands: [`VariantPosition::outcome`], else a draw when the position has
    /// stood twice before with the same side to move (threefold repetition).
    pub fn outcome(&self) -> Option<Outcome> {
        each!(&self.pos, |G, p| outcome::<G>(p, &self.history))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip_and_moves() {
        for v in Variant::ALL {
            let p = VariantPosition::start(v);
            assert_eq!(p.variant(), v);
            let q = VariantPosition::from_fen(v, &p.fen()).unwrap();
            assert_eq!(q.fen(), p.fen());
            let mut r = p;
            let mv = p.legal_moves()[0];
            let name = r.play_text(&p.move_name(&mv)).unwrap();
            assert_eq!(name, p.move_name(&mv));
            assert_ne!(r.side(), p.side());
            assert_eq!(p.pieces_of(Color::White), p.pieces_of(Color::Black));
            assert_eq!(p.outcome(), None);
        }
        let p = VariantPosition::start(Variant::International);
        assert_eq!(p.square_count(), 50);
        assert!(p.flying_kings());
        assert_eq!(p.piece_on("46"), Ok(Some((Color::White, Piece::Man))));
        assert_eq!(p.piece_on("25"), Ok(None));
        assert!(p.piece_on("51").is_err());
        assert!(!VariantPosition::start(Variant::Damone).flying_kings());
    }
}
