//! What every variant's rules declare: the sides ([`Color`]), how men promote ([`Promotion`]),
//! which capture must be taken ([`Precedence`]), how squares are numbered ([`Numbering`]), how a
//! game is won ([`Goal`]), and
//! the [`Rules`] trait that each variant's zero-sized type implements.

use crate::core::geometry::Geometry;
use crate::core::variant::Variant;

/// A side. White's men move towards increasing rows (`y`), Black's towards row 0.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    /// The side that starts on the low rows (`y` = 0..2).
    White = 0,
    /// The side that starts on the high rows.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The side's name as a sentence writes it: `White` or `Black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// The side's name in lower case, as error messages write it: `white` or `black`.
    pub const fn lowercase_name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The FEN letter of this side: `W` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

/// What happens when a man reaches the far row.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Promotion {
    /// It becomes a king and the move ends there, even in the middle of a capture
    /// (English, Italian).
    EndsMove,
    /// It becomes a king at once and a capture goes on as a king (Russian).
    ContinuesAsKing,
    /// Only a move that ends on the far row promotes; a capture passing it goes on as a man
    /// (Brazilian, International).
    AtEnd,
}

/// Which captures a player may choose among.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Precedence {
    /// Any capture, as long as the chosen sequence is completed (English, Russian).
    Free,
    /// A capture of the most pieces, kings and men counting alike (Brazilian, International).
    Quantity,
    /// Italian precedence, FID articles 6.6-6.10: most pieces, then capture with a king, then most
    /// kings, then kings met earliest.
    Italian,
    /// Frisian precedence (DFS rules 10 and 11; lidraughts' `Frisian.captureValue`): the capture
    /// of the highest value, a king worth more than a man and less than two (lidraughts counts
    /// 199 against 100: men + 2 x kings first, then fewer kings); at equal value a capture with
    /// a king before one with a man.
    Frisian,
}

/// How a game is won (docs/rules.md, "Antidraughts" and "Breakthrough"). In every variant a
/// side without a legal move has no move to play; the goal says what that means, and what else
/// ends a game.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Goal {
    /// The side to move without a legal move (no pieces, or all blocked) has lost (every
    /// variant's rulebook; FMJD 5.1 for International).
    Standard,
    /// Antidraughts (lidraughts): the side to move without a legal move has *won*.
    NoMoveWins,
    /// Breakthrough (lidraughts; Scan's `bt`): the first side to end a move with a king has
    /// won. The side to move facing a king of the opponent has lost: it has no legal move.
    FirstKingWins,
}

/// How the dark squares of a board are numbered, or named. The one square-numbering concept:
/// a variant's own notation ([`Rules::NUMBERING`]), the Hub protocol's two numberings and the
/// numeric squares of PDN files are each one of these values. Numbers run over the dark
/// squares row by row, `files / 2` to a row; which square is dark follows from the board
/// (a1 dark, or h1 dark on the Italian board).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Numbering {
    /// From the top-left as White sees it, left to right: English 1 = b8, 29 = a1 (WCDF);
    /// Italian 1 = a8, 32 = h1 (FID Italian rules 2.4); International 1 = b10, 46 = a1 (FMJD);
    /// on Russian and Brazilian boards lidraughts' numbers (PDN GameType notation `N2`) and
    /// pydraughts' internal squares.
    TopLeft,
    /// From the bottom-left as White sees it, left to right: 1 = a1, 2 = c1, ..., 32 = h8 (PDN
    /// GameType notation `N0`; pydraughts' Russian and Brazilian numbers).
    BottomLeft,
    /// From the bottom-right as White sees it, right to left, i.e. [`Numbering::TopLeft`] seen
    /// from Black's side: on the English board 1 = g1, 4 = a1, 32 = b8 (pydraughts' internal
    /// English squares, `33 - n`).
    BottomRight,
    /// `a1`..`h8`: file letter, then rank.
    Algebraic,
}

/// A variant's rules. Implemented by zero-sized types; all knowledge is in constants.
pub trait Rules: Copy + Default + Send + Sync + std::fmt::Debug + 'static {
    /// The board the variant is played on.
    type Board: Geometry;
    /// The variant's name as the CLI and protocols spell it.
    const NAME: &'static str;
    /// The runtime variant these rules are.
    const VARIANT: Variant;
    /// The start position as a PDN FEN in the variant's own notation.
    const START_FEN: &'static str;
    /// Whether square a1 is dark (false for the Italian board, where h1 is dark).
    const A1_DARK: bool;
    /// How squares are numbered in notation.
    const NUMBERING: Numbering;
    /// The separator between squares of a capture in PDN (`x` or `:`).
    const CAPTURE_SEPARATOR: char;
    /// Kings move and capture along whole free diagonals.
    const FLYING_KINGS: bool;
    /// Men capture backwards as well as forwards.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Men may capture kings.
    const MEN_CAPTURE_KINGS: bool;
    /// What a man reaching the far row does.
    const PROMOTION: Promotion;
    /// Which captures are allowed when there is a choice.
    const PRECEDENCE: Precedence;
    /// Plies without progress (see [`Rules::resets_draw_counter`]) after which the game is
    /// drawn; 0: the variant has no such rule (Antidraughts, Breakthrough).
    const DRAW_PLIES: u8;
    /// How a game is won ([`Goal`]); [`Goal::Standard`] unless the variant says otherwise.
    const GOAL: Goal = Goal::Standard;
    /// Men and kings also capture along files and ranks, over the next dark square in line
    /// (Frisian; [`crate::core::geometry::Dir::ORTHOGONAL`]). Quiet moves stay diagonal.
    const ORTHOGONAL_CAPTURES: bool = false;
    /// The most non-capturing moves one king may make in a row while its side still has men
    /// (Frisian: 3, DFS rule 7); 0: no limit. The count and the king's square are part of the
    /// position ([`crate::core::position::Position::king_moves`]).
    const KING_MOVE_LIMIT: u8 = 0;
    /// Whether the third occurrence of a position draws the game (false in Frisian, whose
    /// rules have no repetition draw; lidraughts `threefoldRepetition`).
    const THREEFOLD_REPETITION: bool = true;

    /// Whether a move resets the no-progress counter of [`Rules::DRAW_PLIES`]:
    /// `man_moved` (a man made the move), `captured` (it took pieces), `promoted` (a man became
    /// a king).
    fn resets_draw_counter(man_moved: bool, captured: bool, promoted: bool) -> bool;

    /// Whether the variant has endgame counters ([`Rules::endgame_draw_plies`]).
    const ENDGAME_COUNTERS: bool = false;

    /// The endgame draw counter for a material class with at most 4 pieces on the board, in
    /// plies: the game is drawn once the position has stayed that many plies in the class
    /// (entered by a capture or a promotion). 0: no counter. Arguments are pieces and kings of
    /// White, then of Black.
    fn endgame_draw_plies(white: u32, white_kings: u32, black: u32, black_kings: u32) -> u8 {
        let _ = (white, white_kings, black, black_kings);
        0
    }
}
