//! What a game leaves: its [`GameResult`], the [`Reason`] it ended, the [`MoveTimes`] of each
//! engine and the whole [`GameRecord`] (moves, comments, start position) that the report and
//! the PDN writer read.

use crate::core::draughts::{ENDGAME_RULE, NO_PROGRESS_RULE};
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::tools::pdn::result_token;
use std::time::Duration;

/// A game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWin,
    /// Black won.
    BlackWin,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The winner, `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWin => Some(Color::White),
            GameResult::Draw => None,
            GameResult::BlackWin => Some(Color::Black),
        }
    }

    /// The variant's PDN result token ([`result_token`]: `2-0`, `1-1`, `0-2`; in
    /// English `1-0` Black won, `1/2-1/2`, `0-1` White won).
    pub fn token(self, v: Variant) -> &'static str {
        result_token(v, self.winner())
    }

    pub(super) fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWin,
            Color::Black => GameResult::BlackWin,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// The side to move had no legal move and lost.
    NoLegalMove,
    /// The side to move had no legal move left and won (Antidraughts).
    NoMoveLeft,
    /// The winner made the first king (Breakthrough).
    FirstKing,
    /// Draw by threefold repetition.
    Repetition,
    /// Draw by the variant's no-progress rule.
    NoProgress,
    /// Draw by an endgame counter (International's FMJD 6.3 and 6.4, Frisian's, Frysk!'s).
    EndgameRule,
    /// Draw by adjudication at `--max-plies`.
    MaxPlies,
    /// A loss by an illegal or unparsable move.
    IllegalMove,
    /// A loss on time (`--tc`).
    TimeForfeit,
    /// A loss by the engine process exiting or closing its output.
    Crash,
    /// A loss by no answer in time (`--movetime` / `--depth`).
    NoAnswer,
    /// A DXP engine resigned: GAMEEND reason 1 ("I lose") instead of a move.
    Resignation,
    /// A DXP engine ended the game with GAMEEND reason 0, 2 or 3 instead of a move (Moby Dam
    /// and Scan do at the GAMEREQ's move count): adjudicated by the rules, a draw when they do
    /// not decide the position.
    PeerEnded,
    /// Adjudicated by the endgame databases (`--egdb`): the position was in them.
    Egdb,
    /// A draw adjudicated by the engines' scores (`--draw-adjudication`).
    ScoreDraw,
    /// A win adjudicated by the engines' scores (`--win-adjudication`).
    ScoreWin,
}

impl Reason {
    /// The reason as the report and the PDN write it.
    pub fn text(self) -> &'static str {
        match self {
            Reason::NoLegalMove => "no legal move",
            Reason::NoMoveLeft => "no legal move left",
            Reason::FirstKing => "first king",
            Reason::Repetition => "threefold repetition",
            Reason::NoProgress => NO_PROGRESS_RULE,
            Reason::EndgameRule => ENDGAME_RULE,
            Reason::MaxPlies => "max plies",
            Reason::IllegalMove => "illegal move",
            Reason::TimeForfeit => "time forfeit",
            Reason::Crash => "crash",
            Reason::NoAnswer => "no answer",
            Reason::Resignation => "resignation",
            Reason::PeerEnded => "peer ended the game",
            Reason::Egdb => "adjudicated by the endgame database",
            Reason::ScoreDraw => "draw adjudicated by score",
            Reason::ScoreWin => "win adjudicated by score",
        }
    }

    /// Every reason, in report order.
    pub const ALL: [Reason; 16] = [
        Reason::NoLegalMove,
        Reason::NoMoveLeft,
        Reason::FirstKing,
        Reason::Repetition,
        Reason::NoProgress,
        Reason::EndgameRule,
        Reason::MaxPlies,
        Reason::IllegalMove,
        Reason::TimeForfeit,
        Reason::Crash,
        Reason::NoAnswer,
        Reason::Resignation,
        Reason::PeerEnded,
        Reason::Egdb,
        Reason::ScoreDraw,
        Reason::ScoreWin,
    ];
}

/// Time statistics of one engine: total and maximum milliseconds and the number of moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// Sum of the move times in milliseconds.
    pub total_ms: f64,
    /// Longest move in milliseconds.
    pub max_ms: f64,
    /// Moves timed.
    pub moves: u64,
}

impl MoveTimes {
    pub(super) fn add(&mut self, d: Duration) {
        let ms = d.as_secs_f64() * 1000.0;
        self.total_ms += ms;
        self.max_ms = self.max_ms.max(ms);
        self.moves += 1;
    }

    pub(super) fn merge(&mut self, o: &MoveTimes) {
        self.total_ms += o.total_ms;
        self.max_ms = self.max_ms.max(o.max_ms);
        self.moves += o.moves;
    }

    /// Mean milliseconds per move (0 with no move).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_ms / self.moves as f64
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game number from 0 (games 2k and 2k+1 are a pair on one opening).
    pub index: usize,
    /// Which engine (0 or 1) played White.
    pub white_engine: usize,
    /// The opening's start FEN (`None`: the start position).
    pub start_fen: Option<String>,
    /// The side to move at the start FEN (or the start position).
    pub start_side: Color,
    /// The opening line as written.
    pub opening_text: String,
    /// The opening's moves (native names).
    pub opening_moves: Vec<String>,
    /// The moves played by the engines (native names).
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: Reason,
    /// Details for forfeits: who, what, and the position (FEN).
    pub detail: String,
    /// Move times per engine (indexed by engine, not color).
    pub times: [MoveTimes; 2],
    /// The times of the moves each engine played from its opening book (a subset of
    /// `times`; [`super::process::EngineProcess::last_from_book`]).
    pub book: [MoveTimes; 2],
}

impl GameRecord {
    /// Opening moves then game moves.
    pub fn all_moves(&self) -> impl Iterator<Item = &String> {
        self.opening_moves.iter().chain(self.moves.iter())
    }

    /// The first engine's score in this game (1, 0.5 or 0).
    pub fn first_engine_score(&self) -> f64 {
        match (self.result, self.white_engine) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWin, 0) | (GameResult::BlackWin, 1) => 1.0,
            _ => 0.0,
        }
    }

    /// The PDN comment: the reason, plus the details of a forfeit.
    pub fn comment(&self) -> String {
        if self.detail.is_empty() {
            self.reason.text().to_string()
        } else {
            format!("{}: {}", self.reason.text(), self.detail)
        }
    }
}
