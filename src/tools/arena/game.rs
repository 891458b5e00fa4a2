//! One game between two engines: the [`Seat`]s of a worker (engine processes restarted when
//! they die) and [`play_game`]: a [`VariantGame`] as the arbiter checks every move, plays it once
//! and ends the game by the rules; the clocks and the no-answer limits of each move; the
//! adjudications (`--egdb`, [`egdb_adjudication`]; the engines' scores, [`score_adjudication`]).

use super::config::{DrawAdjudication, WinAdjudication};
use super::engine_spec::{EngineSpec, Failure, GoLimits, MoveRequest, Protocol};
use super::openings::Opening;
use super::player::Player;
use super::{
    process, GameRecord, GameResult, MatchConfig, MoveTimes, Reason, TimeControl,
    DEPTH_ONLY_TIMEOUT_MS, TC_GRACE_MS,
};
use crate::core::draughts::{ENDGAME_RULE, NO_PROGRESS_RULE};
use crate::core::moves::Move;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::{Outcome, VariantGame, VariantPosition, WinRule};
use crate::egdb::{Egdb, Wld};
use crate::engine::eval::probe_position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
/// The two engine processes of one worker, restarted when they die.
pub(super) struct Seat {
    pub(super) spec: EngineSpec,
    pub(super) proc: Option<Player>,
}

impl Seat {
    pub(super) fn ensure(
        &mut self,
        variant: Variant,
        abort: &Arc<AtomicBool>,
    ) -> Result<(), String> {
        if self.proc.as_ref().is_some_and(|p| p.alive()) {
            return Ok(());
        }
        self.proc = None;
        self.proc = Some(Player::start(&self.spec, variant, Arc::clone(abort))?);
        Ok(())
    }
}

/// Plays one game. `seats[e]` is engine `e`; `white` is the engine playing White. Returns
/// `None` if the match was aborted during the game. A DXP engine is told how the game ended
/// (GAMEEND with the result).
pub(super) fn play_game(
    cfg: &MatchConfig,
    index: usize,
    opening: &Opening,
    seats: &mut [Seat; 2],
    abort: &Arc<AtomicBool>,
) -> Option<GameRecord> {
    let mut hub_moves = Vec::new();
    let rec = play_moves(cfg, index, opening, seats, abort, &mut hub_moves)?;
    for s in seats.iter_mut() {
        if let Some(p) = s.proc.as_mut() {
            p.game_over(&hub_moves, rec.result, rec.reason);
        }
    }
    Some(rec)
}

/// The moves of [`play_game`]; `hub_moves` gets the game's moves in Hub form when an engine
/// speaks Hub or DXP.
fn play_moves(
    cfg: &MatchConfig,
    index: usize,
    opening: &Opening,
    seats: &mut [Seat; 2],
    abort: &Arc<AtomicBool>,
    hub_moves: &mut Vec<String>,
) -> Option<GameRecord> {
    let mut game = Game::new(cfg, index, opening, seats, hub_moves);
    // New game for both engines (restarting dead ones).
    for c in [Color::White, Color::Black] {
        let e = game.engine_of(c);
        let ok = seats[e]
            .ensure(cfg.variant, abort)
            .map_err(|err| err.to_string())
            .and_then(|_| {
                seats[e]
                    .proc
                    .as_mut()
                    .expect("started")
                    .new_game()
                    .map_err(|f| format!("{f:?}"))
            });
        if abort.load(Ordering::SeqCst) {
            return None;
        }
        if let Err(err) = ok {
            let detail = format!("{} could not start a game: {err}", seats[e].spec.name);
            return game.finish(GameResult::win_for(c.opponent()), Reason::Crash, detail);
        }
    }
    loop {
        if abort.load(Ordering::SeqCst) {
            return None;
        }
        if let Some((r, reason, detail)) = game.adjudicate() {
            return game.finish(r, reason, detail);
        }
        match game.step(seats, abort) {
            Step::Played => {}
            Step::Over(r, reason, detail) => return game.finish(r, reason, detail),
            Step::Aborted => return None,
        }
    }
}

/// What one move of a game came to.
enum Step {
    /// The move was played: the game goes on.
    Played,
    /// The game is over: the result, the reason and a note.
    Over(GameResult, Reason, String),
    /// The match was aborted during the move.
    Aborted,
}

/// A game in progress: the arbiter's game, the moves in each form, the record so far, and the
/// engines' scores and clocks.
struct Game<'a> {
    cfg: &'a MatchConfig,
    /// The engine (0 or 1) playing White.
    white: usize,
    /// The start position's FEN (`None`: the variant's start).
    fen: Option<&'a str>,
    /// The Hub position string of the start.
    hub_start: String,
    /// The game as the arbiter plays it.
    arb: VariantGame,
    /// The native names of the moves since the start (opening moves included).
    all: Vec<String>,
    /// Whether an engine speaks Hub or DXP (the moves are then kept in Hub form too).
    needs_hub: bool,
    /// The moves in Hub form (filled only when `needs_hub`).
    hub_moves: &'a mut Vec<String>,
    rec: GameRecord,
    /// The side making the first engine move (after the opening).
    first_mover: Color,
    /// The engines' scores, one per engine move (centi-men from the mover's view), for
    /// `--draw-adjudication` and `--win-adjudication`; the first engine move is
    /// `first_mover`'s.
    scores: Vec<Option<i32>>,
    /// Under `--tc`: milliseconds left on White's and Black's clocks.
    clocks: Option<[i64; 2]>,
    /// Under `--tc`: the increment in milliseconds (0 otherwise).
    inc: u64,
}

impl<'a> Game<'a> {
    /// The game of `opening` (its moves played) for game number `index`; `hub_moves` gets
    /// the Hub forms when an engine of `seats` speaks Hub or DXP.
    fn new(
        cfg: &'a MatchConfig,
        index: usize,
        opening: &'a Opening,
        seats: &[Seat; 2],
        hub_moves: &'a mut Vec<String>,
    ) -> Game<'a> {
        let white = index % 2;
        let fen = opening.fen.as_deref();
        let start = VariantPosition::new(cfg.variant, fen).expect("checked opening");
        let start_side = start.side();
        let hub_start = process::hubsq::position(&start).unwrap_or_default();
        let mut arb = VariantGame::new(start);
        let all: Vec<String> = opening.moves.clone();
        // Hub forms of the moves so far (computed only when a Hub engine plays).
        let needs_hub = seats.iter().any(|s| s.spec.protocol != Protocol::Native);
        for m in &all {
            let mv = arb.position().parse_move(m).expect("checked opening");
            if needs_hub {
                hub_moves.push(hub_form(arb.position(), &mv));
            }
            arb.play(&mv);
        }
        let rec = GameRecord {
            index,
            white_engine: white,
            start_fen: opening.fen.clone(),
            start_side,
            opening_text: opening.text.clone(),
            opening_moves: opening.moves.clone(),
            moves: Vec::new(),
            result: GameResult::Draw,
            reason: Reason::MaxPlies,
            detail: String::new(),
            times: [MoveTimes::default(); 2],
            book: [MoveTimes::default(); 2],
        };
        let first_mover = arb.position().side();
        Game {
            cfg,
            white,
            fen,
            hub_start,
            arb,
            all,
            needs_hub,
            hub_moves,
            rec,
            first_mover,
            scores: Vec::new(),
            clocks: cfg.tc.fischer.map(|(b, _)| [b as i64, b as i64]),
            inc: cfg.tc.fischer.map(|(_, i)| i).unwrap_or(0),
        }
    }

    /// The engine (0 or 1) playing `c`.
    fn engine_of(&self, c: Color) -> usize {
        if c == Color::White {
            self.white
        } else {
            1 - self.white
        }
    }

    /// The record of the game ended with `r` for `reason`.
    fn finish(self, r: GameResult, reason: Reason, detail: String) -> Option<GameRecord> {
        let mut rec = self.rec;
        rec.result = r;
        rec.reason = reason;
        rec.detail = detail;
        Some(rec)
    }

    /// Whether the game ends before the next move: by the rules, by the endgame databases
    /// (`--egdb`), at `--max-plies`, or by the engines' scores; the result, reason and note.
    fn adjudicate(&self) -> Option<(GameResult, Reason, String)> {
        match self.arb.outcome() {
            Some(Outcome::Win(c, rule)) => {
                let reason = match rule {
                    WinRule::Blocked => Reason::NoLegalMove,
                    WinRule::NoMoveLeft => Reason::NoMoveLeft,
                    WinRule::King => Reason::FirstKing,
                };
                return Some((GameResult::win_for(c), reason, String::new()));
            }
            Some(Outcome::Draw(why)) => {
                let reason = match why {
                    ENDGAME_RULE => Reason::EndgameRule,
                    NO_PROGRESS_RULE => Reason::NoProgress,
                    _ => Reason::Repetition,
                };
                return Some((GameResult::Draw, reason, String::new()));
            }
            None => {}
        }
        let cfg = self.cfg;
        if let Some((r, detail)) = cfg
            .egdb
            .as_deref()
            .and_then(|db| egdb_adjudication(db, self.arb.position()))
        {
            return Some((r, Reason::Egdb, detail));
        }
        if self.rec.moves.len() >= cfg.max_plies {
            return Some((GameResult::Draw, Reason::MaxPlies, String::new()));
        }
        let (r, reason, detail) = score_adjudication(
            cfg.draw_adjudication,
            cfg.win_adjudication,
            &self.scores,
            self.first_mover,
        )?;
        let detail = format!("{detail}; FEN {}", self.arb.position().fen());
        Some((r, reason, detail))
    }

    /// Asks the engine to move for the side to move, checks its answer (in time, legal) and
    /// plays it.
    fn step(&mut self, seats: &mut [Seat; 2], abort: &Arc<AtomicBool>) -> Step {
        let cfg = self.cfg;
        let side = self.arb.position().side();
        let e = self.engine_of(side);
        let name = seats[e].spec.name.clone();
        let lose = GameResult::win_for(side.opponent());
        let fen_now = self.arb.position().fen();
        let limits = GoLimits {
            movetime: cfg.tc.movetime,
            depth: cfg.tc.depth,
            clock: self
                .clocks
                .map(|c| (c[0].max(0) as u64, c[1].max(0) as u64, self.inc)),
            white_to_move: side == Color::White,
            plies_left: Some(cfg.max_plies.saturating_sub(self.rec.moves.len())),
        };
        let limit_ms = if let Some(c) = self.clocks {
            c[side as usize].max(0) as u64 + TC_GRACE_MS
        } else if let Some(ms) = cfg.tc.movetime {
            TimeControl::movetime_limit(ms)
        } else {
            DEPTH_ONLY_TIMEOUT_MS
        };
        if let Err(err) = seats[e].ensure(cfg.variant, abort) {
            let detail = format!("{name}: {err}; FEN {fen_now}");
            return Step::Over(lose, Reason::Crash, detail);
        }
        let proc = seats[e].proc.as_mut().expect("started");
        let answer = proc.go(MoveRequest {
            start_fen: self.fen,
            moves: &self.all,
            hub_start: &self.hub_start,
            hub_moves: self.hub_moves.as_slice(),
            limits: &limits,
            deadline_after: Duration::from_millis(limit_ms),
        });
        let score = proc.last_score();
        let from_book = proc.last_from_book();
        let (text, took) = match answer {
            Ok(a) => a,
            Err(f) => return failure_step(f, &name, &fen_now, lose, self.clocks.is_some()),
        };
        self.rec.times[e].add(took);
        if from_book {
            self.rec.book[e].add(took);
        }
        if let Some(end) = self.charge_time(side, took, &name, &fen_now, lose) {
            return end;
        }
        let as_native = if seats[e].spec.protocol != Protocol::Native {
            process::hubsq::move_from_numbers(cfg.variant, &text)
        } else {
            text.clone()
        };
        let mv = match self.arb.position().parse_move(&as_native) {
            Ok(mv) if !text.is_empty() => mv,
            r => {
                let why = r.err().map(|e| e.to_string()).unwrap_or_default();
                let detail = format!("{name} played '{text}' ({why}); FEN {fen_now}");
                return Step::Over(lose, Reason::IllegalMove, detail);
            }
        };
        if self.needs_hub {
            self.hub_moves.push(hub_form(self.arb.position(), &mv));
        }
        let native = self.arb.position().move_name(&mv);
        self.all.push(native.clone());
        self.rec.moves.push(native);
        self.scores.push(score);
        self.arb.play(&mv);
        Step::Played
    }

    /// Charges `took` to `side`'s clock (adding the increment) or checks it against
    /// `--movetime`'s limit: the loss (`lose`) of an engine over its time, else `None`.
    fn charge_time(
        &mut self,
        side: Color,
        took: Duration,
        name: &str,
        fen_now: &str,
        lose: GameResult,
    ) -> Option<Step> {
        if let Some(c) = self.clocks.as_mut() {
            let left = c[side as usize] - took.as_millis() as i64;
            if left < 0 {
                let detail = format!(
                    "{name} took {} ms with {} ms left; FEN {fen_now}",
                    took.as_millis(),
                    c[side as usize]
                );
                return Some(Step::Over(lose, Reason::TimeForfeit, detail));
            }
            c[side as usize] = left + self.inc as i64;
        } else if let Some(ms) = self.cfg.tc.movetime {
            if took.as_millis() as u64 > TimeControl::movetime_limit(ms) {
                let detail = format!("{name} took {} ms; FEN {fen_now}", took.as_millis());
                return Some(Step::Over(lose, Reason::NoAnswer, detail));
            }
        }
        None
    }
}

/// The end of a game whose engine `name` gave no move (`f`) in the position `fen_now`: `lose`
/// (the mover's loss) for a crash or a timeout (on time when `timed`: under a clock), a
/// resignation, or a draw for any other GAMEEND; [`Step::Aborted`] for an abort.
fn failure_step(f: Failure, name: &str, fen_now: &str, lose: GameResult, timed: bool) -> Step {
    match f {
        Failure::Aborted => Step::Aborted,
        Failure::Crash(m) => {
            Step::Over(lose, Reason::Crash, format!("{name} ({m}); FEN {fen_now}"))
        }
        Failure::Timeout(d) => {
            let reason = if timed {
                Reason::TimeForfeit
            } else {
                Reason::NoAnswer
            };
            let detail = format!(
                "{name} gave no move in {} ms (killed); FEN {fen_now}",
                d.as_millis()
            );
            Step::Over(lose, reason, detail)
        }
        Failure::GameEnd { reason, note } => {
            // An orderly end, not a crash. A resignation loses; anything else is what
            // the rules make of the position, which they did not decide (the game would
            // not have gone on): a draw, a claimed win included (docs/match.md).
            if reason == 1 {
                let detail = format!("{name} resigned: {note}; FEN {fen_now}");
                return Step::Over(lose, Reason::Resignation, detail);
            }
            let detail = format!(
                "{name}: {note}; the rules do not decide the position: a draw; FEN {fen_now}"
            );
            Step::Over(GameResult::Draw, Reason::PeerEnded, detail)
        }
    }
}

/// Adjudication by the engines' own scores: `scores[i]` is the score given with the `i`-th
/// move the engines played (centi-men from that mover's view, `None` when the engine gave
/// none), the first of them by `first_mover`. A win when both engines' last `moves` moves
/// ([`WinAdjudication`]) all gave one side at least the margin; a draw when at least
/// `after_plies` plies are played and the last `moves` moves of both ([`DrawAdjudication`])
/// were all within its bound. A move without a score breaks either run. Returns the result,
/// the reason and a note.
pub fn score_adjudication(
    draw: Option<DrawAdjudication>,
    win: Option<WinAdjudication>,
    scores: &[Option<i32>],
    first_mover: Color,
) -> Option<(GameResult, Reason, String)> {
    // The last `plies` scores from White's view, if there are that many and all are given.
    let last_for_white = |plies: usize| -> Option<Vec<i32>> {
        let start = scores.len().checked_sub(plies)?;
        (start..scores.len())
            .map(|i| {
                let mover = if i % 2 == 0 {
                    first_mover
                } else {
                    first_mover.opponent()
                };
                let s = scores[i]?;
                Some(if mover == Color::White { s } else { -s })
            })
            .collect()
    };
    if let Some(w) = win {
        if let Some(last) = last_for_white(2 * w.moves) {
            let winner = if last.iter().all(|&s| s >= w.margin_cm) {
                Some(Color::White)
            } else if last.iter().all(|&s| s <= -w.margin_cm) {
                Some(Color::Black)
            } else {
                None
            };
            if let Some(c) = winner {
                let note = format!(
                    "both engines gave {} at least {} centi-men in their last {} moves",
                    c.name(),
                    w.margin_cm,
                    w.moves
                );
                return Some((GameResult::win_for(c), Reason::ScoreWin, note));
            }
        }
    }
    if let Some(d) = draw {
        if scores.len() >= d.after_plies {
            if let Some(last) = last_for_white(2 * d.moves) {
                if last.iter().all(|s| s.abs() <= d.within_cm) {
                    let note = format!(
                        "both engines scored within +/-{} centi-men in their last {} moves, \
                         after {} plies",
                        d.within_cm,
                        d.moves,
                        scores.len()
                    );
                    return Some((GameResult::Draw, Reason::ScoreDraw, note));
                }
            }
        }
    }
    None
}

/// The endgame databases' ruling on `pos` (`--egdb`): a draw, or a win for the side that
/// wins when its distance to conversion fits in the plies the draw counters leave (so the
/// win stands under the rules, docs/egdb.md), with a note giving the value. `None` when the
/// databases do not hold the position (a capture pending, too many pieces) or promise no
/// result under the counters: the game goes on.
pub fn egdb_adjudication(db: &Egdb, pos: &VariantPosition) -> Option<(GameResult, String)> {
    let p = probe_position(db, pos)?;
    let side = pos.side();
    let d = p.probe.distance.unwrap_or(0);
    let (result, text) = match p.probe.value {
        Wld::Draw => (GameResult::Draw, "a draw".to_string()),
        _ if u32::from(d) > p.plies_left => return None,
        Wld::Win => (
            GameResult::win_for(side),
            format!("{} wins in {d} plies to conversion", side.name()),
        ),
        Wld::Loss => (
            GameResult::win_for(side.opponent()),
            format!("{} wins in {d} plies to conversion", side.opponent().name()),
        ),
    };
    Some((
        result,
        format!("endgame database: {text}; FEN {}", pos.fen()),
    ))
}

/// The Hub form (0.6 numbers) of the legal move `mv` in `pos`.
fn hub_form(pos: &VariantPosition, mv: &Move) -> String {
    process::hubsq::move_to_numbers(pos.variant(), &pos.move_name_hub(mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRAW: DrawAdjudication = DrawAdjudication {
        after_plies: 4,
        moves: 2,
        within_cm: 10,
    };
    const WIN: WinAdjudication = WinAdjudication {
        moves: 2,
        margin_cm: 300,
    };

    fn judge(scores: &[Option<i32>], first: Color) -> Option<(GameResult, Reason)> {
        score_adjudication(Some(DRAW), Some(WIN), scores, first).map(|(r, why, _)| (r, why))
    }

    /// Scores are each mover's own: White's +350 and Black's -350 agree that White leads.
    #[test]
    fn both_engines_must_agree_on_the_winner_for_their_last_moves() {
        let white_leads = [
            Some(0),
            Some(0),
            Some(350),
            Some(-350),
            Some(400),
            Some(-300),
        ];
        assert_eq!(
            judge(&white_leads, Color::White),
            Some((GameResult::WhiteWin, Reason::ScoreWin))
        );
        // The same numbers with Black moving first: Black leads.
        assert_eq!(
            judge(&white_leads, Color::Black),
            Some((GameResult::BlackWin, Reason::ScoreWin))
        );
        // One engine disagrees (the loser thinks it is only 299 down): no adjudication.
        let one_doubts = [Some(350), Some(-350), Some(400), Some(-299)];
        assert_eq!(judge(&one_doubts, Color::White), None);
        // Too few moves, or a move without a score, break the run.
        assert_eq!(
            judge(&[Some(350), Some(-350), Some(400)], Color::White),
            None
        );
        assert_eq!(
            judge(&[Some(350), None, Some(400), Some(-350)], Color::White),
            None
        );
        // A win announced by the engines (native `score win P`) counts beyond any margin.
        let announced = [
            Some(process::WIN_SCORE_CM - 7),
            Some(-(process::WIN_SCORE_CM - 6)),
            Some(process::WIN_SCORE_CM - 5),
            Some(-(process::WIN_SCORE_CM - 4)),
        ];
        assert_eq!(
            judge(&announced, Color::White),
            Some((GameResult::WhiteWin, Reason::ScoreWin))
        );
    }

    #[test]
    fn a_level_game_is_drawn_only_after_its_plies_and_within_its_bound() {
        let level = [Some(5), Some(-10), Some(0), Some(10)];
        assert_eq!(
            judge(&level, Color::White),
            Some((GameResult::Draw, Reason::ScoreDraw))
        );
        // Three plies played: before `after_plies`.
        assert_eq!(judge(&level[1..], Color::White), None);
        // One score past the bound.
        assert_eq!(
            judge(&[Some(5), Some(-11), Some(0), Some(10)], Color::White),
            None
        );
        assert_eq!(
            judge(&[Some(5), None, Some(0), Some(10)], Color::White),
            None
        );
        // Nothing is adjudicated when both are off.
        assert_eq!(score_adjudication(None, None, &level, Color::White), None);
    }

    #[test]
    fn the_options_parse_and_refuse_nonsense() {
        assert_eq!(
            DrawAdjudication::parse("60,8,10"),
            Ok(DrawAdjudication {
                after_plies: 60,
                moves: 8,
                within_cm: 10
            })
        );
        assert_eq!(
            WinAdjudication::parse(" 4 , 400 "),
            Ok(WinAdjudication {
                moves: 4,
                margin_cm: 400
            })
        );
        for bad in [
            "",
            "60,8",
            "60,0,10",
            "60,8,-1",
            "a,b,c",
            "60,8,10,1",
            "1,1,20000",
        ] {
            let e = DrawAdjudication::parse(bad).unwrap_err();
            assert!(e.starts_with("--draw-adjudication '"), "{e}");
        }
        for bad in ["4", "0,400", "4,0", "4,-400", "4,400,1", "4,10001"] {
            let e = WinAdjudication::parse(bad).unwrap_err();
            assert!(e.starts_with("--win-adjudication '"), "{e}");
        }
    }
}
