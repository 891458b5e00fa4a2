//! `damiera match`: an engine-vs-engine match runner (like cutechess-cli or fastchess, for
//! draughts). Usage, options and conventions: docs/match.md.
//!
//! Layout: [`engine_spec`] (how to start an engine, the limits of a `go`, why a move did not
//! come), [`process`] (child engines and their protocols) and [`dxp_engine`] (DXP followers),
//! each using `engine_spec` and not the other, and [`player`] above both; [`openings`]
//! (opening files and random openings), [`stats`] (Elo, pentanomial interval, GSPRT), [`pdn`]
//! (PDN output), [`match_file`] (the match's PDN file: resume, append, game order); `config` (the time control and the match configuration), `record` (a game's
//! result, ending and moves), `game` (one game, with one [`Engine`](crate::engine::Engine) as
//! the arbiter, never searched), `report` (the totals, the progress line and the final report),
//! `run` (the match on worker threads); this module declares them and re-exports their types.

mod config;
pub mod dxp_engine;
pub mod engine_spec;
mod game;
pub mod match_file;
pub mod openings;
pub mod pdn;
pub mod player;
pub mod process;
mod record;
mod report;
mod run;
pub mod stats;

pub use config::{
    DrawAdjudication, MatchConfig, TimeControl, WinAdjudication, DEPTH_ONLY_TIMEOUT_MS, TC_GRACE_MS,
};
pub use game::{egdb_adjudication, score_adjudication};
pub use record::{GameRecord, GameResult, MoveTimes, Reason};
pub use report::{progress_line, report_text, summary_json, MatchReport, Tally};
pub use run::{check_dxp_addresses, run_match, run_match_with};
