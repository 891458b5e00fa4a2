//! A game's analysis, as `damiera analyse --pdn` and `damiera serve` give it: every position of
//! a replayed game searched, each move's loss, mistakes and blunders marked, the game written
//! back with a comment per move, and a short report (docs/analysis.md).
//!
//! Scores are in men from White's point of view (positive: White is better), as analysed
//! PDN and chess PGN give them. A move's *loss* is how much worse the mover's position is
//! after it than the search found before it: the score before the move (mover's view) minus
//! the score after it (mover's view), at least 0, and 0 when the move played is the search's
//! best move. Scores are capped at ±15 men, a forced win counts as 20, so that winning
//! faster or slower is not a mistake.
//!
//! With an opening book ([`Analysis::mark_book`]), each move that was one of the book's moves of
//! its position is marked `book` in its comment, and the report says how many of the game's
//! first plies were book moves and where the game left the book.

use crate::book::Book;
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::egdb::{Probe, Wld};
use crate::engine::search::{Limits, DB_BOUND, DB_STEP, DB_WIN};
use crate::engine::{Depth, Engine, Event, MoveForm, Outcome, Score};
use crate::tools::arena::pdn::wrap_move_text;
use crate::tools::pdn::{self, GameText, Replay};
use crate::Color;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// An endgame database's value for the side to move as the shell tools print it:
/// `db win in 13 plies (to conversion)`, `db draw`, `db loss in 8 plies (to conversion)`.
pub fn db_text(p: &Probe) -> String {
    match (p.value, p.distance) {
        (Wld::Draw, _) | (_, None) => "db draw".into(),
        (v, Some(d)) => format!("db {} in {d} plies (to conversion)", v.name()),
    }
}

/// A search score in the endgame databases' band ([`DB_WIN`]): `Some(plies)` to the
/// conversion from the root, positive for a win of the side to move, negative for a loss.
pub fn db_score(s: Score) -> Option<i32> {
    match s {
        Score::Cp(c) if c >= DB_BOUND => Some((DB_WIN - c) % DB_STEP),
        Score::Cp(c) if c <= -DB_BOUND => Some(-((DB_WIN + c) % DB_STEP)),
        _ => None,
    }
}

/// A book entry's score (centi-men, the side to move's view; docs/book.md, "Building") as a
/// search score: beyond ±20,000 a win or loss in `30,000 - |score|` plies, else centi-men
/// (kept below the endgame databases' band, so that it never reads as a database win).
pub fn book_score(cm: i16) -> Score {
    let cm = i32::from(cm);
    if cm > BOOK_CLAMP {
        Score::Win((BOOK_WIN - cm).max(0).unsigned_abs())
    } else if cm < -BOOK_CLAMP {
        Score::Loss((BOOK_WIN + cm).max(0).unsigned_abs())
    } else {
        Score::Cp(cm.clamp(1 - DB_BOUND, DB_BOUND - 1))
    }
}

/// A book's centi-men are clamped here; beyond are wins and losses ([`book_score`]).
const BOOK_CLAMP: i32 = 20_000;
/// A book's win in `p` plies scores `BOOK_WIN - p` ([`book_score`]).
const BOOK_WIN: i32 = 30_000;

/// A move that loses at least this much (centi-men) is a mistake, marked `?`, and gets the
/// search's best move in a comment.
pub const MISTAKE: i32 = 50;
/// A move that loses at least this much (centi-men, a man) is a blunder, marked `??`.
pub const BLUNDER: i32 = 100;
/// A side whose score (centi-men, its own view) stays at least this high to the end of a game
/// it won had the game decided.
pub const DECISIVE: i32 = 100;
/// Scores are capped here (centi-men) for losses; a forced win counts as [`WIN_VALUE`].
const CAP: i32 = 1500;
const WIN_VALUE: i32 = 2000;
/// A single move's loss counts at most this much (centi-men) towards the average.
const AVERAGE_CAP: i32 = 500;

/// A search's verdict on one position, from the side to move's view.
#[derive(Clone, Debug)]
struct Verdict {
    score: Score,
    depth: Depth,
    /// The principal variation (the refutation of a mistake that led here).
    pv: Vec<String>,
    /// The search's best move (none at the end of the game).
    best: Option<String>,
    /// The endgame databases' value (side to move), when they hold the position.
    db: Option<Probe>,
}

/// A score as a number for loss arithmetic (centi-men, side to move's view): capped at ±15
/// men, a forced or database win or loss ±20 men.
pub fn value(s: Score) -> i32 {
    match s {
        // A database win or loss counts as a forced one.
        Score::Cp(c) if db_score(s).is_some() => c.signum() * WIN_VALUE,
        Score::Cp(c) => c.clamp(-CAP, CAP),
        Score::Win(_) => WIN_VALUE,
        Score::Loss(_) => -WIN_VALUE,
    }
}

/// The score from White's view (`s` is `side`'s).
pub fn white_view(s: Score, side: Color) -> Score {
    match (side, s) {
        (Color::White, s) => s,
        (Color::Black, Score::Cp(c)) => Score::Cp(-c),
        (Color::Black, Score::Win(p)) => Score::Loss(p),
        (Color::Black, Score::Loss(p)) => Score::Win(p),
    }
}

/// A White-view score as a comment writes it: `+0.35`, `White wins in 12`, `White db win
/// in 13` (a database win, plies to conversion).
pub fn score_text(s: Score) -> String {
    if let Some(d) = db_score(s) {
        return if d >= 0 {
            format!("White db win in {d}")
        } else {
            format!("Black db win in {}", -d)
        };
    }
    match s {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Win(p) => format!("White wins in {p}"),
        Score::Loss(p) => format!("Black wins in {p}"),
    }
}

/// A book move of a position of an analysed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMoveText {
    /// The move in the shortest unambiguous PDN form (as the analysis names moves).
    pub name: String,
    /// The book's score, centi-men from the side to move's view ([`book_score`]).
    pub score: i16,
    /// The depth of the search that valued it, in plies.
    pub depth: u8,
    /// The book's count.
    pub count: u32,
}

/// What an opening book says of an analysed game ([`Analysis::mark_book`]).
#[derive(Clone, Debug)]
struct BookMarks {
    /// The book's variant (a book of another variant marks nothing).
    variant: Variant,
    /// The book moves of each position, positions 0 to the number of moves.
    moves: Vec<Vec<BookMoveText>>,
    /// Whether each move played was a book move of the position before it.
    played: Vec<bool>,
}

/// One analysed game: a verdict per position, positions 0 (the start) to the number of moves.
pub struct Analysis {
    replay: Replay,
    /// The moves played, in the shortest unambiguous PDN form the written file uses (the
    /// search's best moves and lines are named the same way).
    names: Vec<String>,
    /// One verdict per position, positions 0 (start) to `moves.len()`.
    verdicts: Vec<Verdict>,
    /// The opening book's moves, once [`Analysis::mark_book`] was called.
    book: Option<BookMarks>,
}

impl Analysis {
    /// The side to move at position `ply` (before move `ply`, 0-based).
    pub fn side(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.replay.start_side
        } else {
            self.replay.start_side.opponent()
        }
    }
    /// The PDN label (`12.` or `12...`) of a ply ([`pdn::move_label`]).
    pub fn label(&self, ply: usize) -> String {
        let r = &self.replay;
        pdn::move_label(r.variant, r.start_side, r.first_number, ply)
    }
    /// Whether the move text writes a move number before this ply.
    fn numbered(&self, ply: usize) -> bool {
        let r = &self.replay;
        ply == 0 || pdn::move_number(r.variant, r.start_side, r.first_number, ply).1
    }
    /// The loss of the move at `ply` (centi-men, at least 0).
    pub fn loss(&self, ply: usize) -> i32 {
        let before = &self.verdicts[ply];
        let after = &self.verdicts[ply + 1];
        if before.best.as_ref() == Some(&self.names[ply]) {
            return 0;
        }
        (value(before.score) + value(after.score)).max(0)
    }
    /// `??` for a blunder (a loss of at least [`BLUNDER`]), `?` for a mistake (at least
    /// [`MISTAKE`]), else empty.
    pub fn mark(&self, ply: usize) -> &'static str {
        match self.loss(ply) {
            l if l >= BLUNDER => "??",
            l if l >= MISTAKE => "?",
            _ => "",
        }
    }
    /// The databases' value of position `i` from White's view, as a comment writes it:
    /// `db draw`, `db win for White in 13 plies (to conversion)`.
    fn db_comment(&self, i: usize) -> Option<String> {
        let p = self.verdicts[i].db?;
        let white = match (self.side(i), p.value) {
            (Color::White, v) => v,
            (Color::Black, v) => v.opposite(),
        };
        Some(match (white, p.distance) {
            (Wld::Draw, _) | (_, None) => db_text(&p),
            (Wld::Win, Some(d)) => format!("db win for White in {d} plies (to conversion)"),
            (Wld::Loss, Some(d)) => format!("db win for Black in {d} plies (to conversion)"),
        })
    }
    /// White's view of position `i`.
    pub fn white(&self, i: usize) -> Score {
        white_view(self.verdicts[i].score, self.side(i))
    }
    /// The game analysed, as replayed.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }
    /// The moves played, in the shortest unambiguous PDN form.
    pub fn names(&self) -> &[String] {
        &self.names
    }
    /// The search's best move in position `i` (PDN form; `None` at the end of the game).
    pub fn best(&self, i: usize) -> Option<&str> {
        self.verdicts[i].best.as_deref()
    }
    /// The principal variation of position `i` (PDN form): after a mistake, its refutation.
    pub fn pv(&self, i: usize) -> &[String] {
        &self.verdicts[i].pv
    }
    /// The depth searched in position `i` (0: the game was over).
    pub fn depth(&self, i: usize) -> Depth {
        self.verdicts[i].depth
    }
    /// Looks up every position of the game in `book`: its book moves, and whether the move
    /// played was one of them (then marked `book` in [`annotated_pdn`] and counted by
    /// [`report`]). A book of another variant marks nothing (the report says so). Needs no
    /// search: cheap.
    pub fn mark_book(&mut self, book: &Book) {
        let r = &self.replay;
        let n = r.moves.len();
        let mut marks = BookMarks {
            variant: book.variant(),
            moves: vec![Vec::new(); n + 1],
            played: vec![false; n],
        };
        if book.variant() == r.variant {
            // The replayed game is legal from its start, so its moves parse.
            if let Ok(mut pos) = VariantPosition::new(r.variant, r.start_fen.as_deref()) {
                for i in 0..=n {
                    let probed = book.probe(&pos);
                    marks.moves[i] = probed
                        .iter()
                        .map(|m| BookMoveText {
                            name: pos.move_name_pdn(&m.mv),
                            score: m.entry.score,
                            depth: m.entry.depth,
                            count: m.entry.count,
                        })
                        .collect();
                    let Some(Ok(mv)) = r.moves.get(i).map(|m| pos.parse_move(m)) else {
                        break;
                    };
                    marks.played[i] = probed.iter().any(|m| m.mv == mv);
                    pos.play(&mv);
                }
            }
        }
        self.book = Some(marks);
    }
    /// Whether the move at `ply` was a book move ([`Analysis::mark_book`]; false without a
    /// book).
    pub fn in_book(&self, ply: usize) -> bool {
        self.book
            .as_ref()
            .is_some_and(|b| b.played.get(ply).copied().unwrap_or(false))
    }
    /// The book moves of position `i`, best first (empty without a book).
    pub fn book_moves(&self, i: usize) -> &[BookMoveText] {
        self.book
            .as_ref()
            .and_then(|b| b.moves.get(i))
            .map_or(&[], Vec::as_slice)
    }
    /// How many of the game's first plies were book moves (0 without a book).
    pub fn book_plies(&self) -> usize {
        self.book
            .as_ref()
            .map_or(0, |b| b.played.iter().take_while(|&&p| p).count())
    }
    /// The report's line on the book (`None` without one): how many of the first plies were
    /// book moves and where the game left the book: `the first 6 plies were book moves; the
    /// book has no move after 3... 24-20`, or `...; 4. 8-11 left it (book: 9-13 +0.12, ...)`
    /// (the book's moves there, White's view, as the report's scores are).
    fn book_line(&self) -> Option<String> {
        let b = self.book.as_ref()?;
        let v = self.replay.variant;
        if b.variant != v {
            return Some(format!(
                "none (the book's variant is {}, the game's {})",
                b.variant.name(),
                v.name()
            ));
        }
        let n = self.names.len();
        let k = self.book_plies();
        let mut parts = Vec::new();
        match k {
            0 if n == 0 || b.moves[0].is_empty() => {
                parts.push("the start position is not in the book".to_string());
            }
            0 => {}
            1 if n == 1 => parts.push("the only ply was a book move".into()),
            1 => parts.push("the first ply was a book move".into()),
            k if k == n => parts.push(format!("all {n} plies were book moves")),
            k => parts.push(format!("the first {k} plies were book moves")),
        }
        if k < n && k > 0 && b.moves[k].is_empty() {
            parts.push(format!(
                "the book has no move after {} {}",
                self.label(k - 1),
                self.names[k - 1]
            ));
        } else if k < n && !b.moves[k].is_empty() {
            let side = self.side(k);
            let mut listed: Vec<String> = b.moves[k]
                .iter()
                .take(BOOK_LISTED)
                .map(|m| {
                    let white = white_view(book_score(m.score), side);
                    format!("{} {}", m.name, score_text(white))
                })
                .collect();
            let more = b.moves[k].len().saturating_sub(BOOK_LISTED);
            if more > 0 {
                listed.push(format!("{more} more"));
            }
            parts.push(format!(
                "{} {} left it (book: {})",
                self.label(k),
                self.names[k],
                listed.join(", ")
            ));
        }
        let all = b.played.iter().filter(|&&p| p).count();
        if all > k {
            parts.push(format!("{all} book moves in all"));
        }
        Some(parts.join("; "))
    }
}

/// The most book moves the report lists where the game left the book.
const BOOK_LISTED: usize = 5;

/// What a game's result token or `[Result]` tag says in variant `v` ([`pdn::parse_result`]):
/// the winner, `Some(None)` for a draw, `None` when unknown.
fn winner(game: &GameText, v: Variant) -> Option<Option<Color>> {
    pdn::parse_result(v, game.result_or_tag()?)
}

/// Searches one position: its verdict.
fn search(engine: &mut Engine, limits: Limits, cancel: &AtomicBool) -> Verdict {
    let mut verdict = Verdict {
        score: Score::Cp(0),
        depth: Depth(0),
        pv: Vec::new(),
        best: None,
        db: engine.probe_egdb().map(|p| p.probe),
    };
    let info = |ev| {
        if let Event::Info {
            depth, score, pv, ..
        } = ev
        {
            verdict.score = score;
            verdict.depth = depth;
            verdict.pv = pv;
        }
    };
    (verdict.best, _) = engine.search_cancellable(limits, MoveForm::Pdn, info, cancel);
    verdict
}

/// Analyses every position of a replayed game, from the last to the first: what the searches
/// of later positions leave in the transposition table (a shot found near the end) reaches the
/// searches of earlier ones, so that neighbouring scores agree better (as chess GUIs' backward
/// blunder checks do).
///
/// `progress(done, total)` is called after each position (`total` is the number of moves plus
/// one). Setting `cancel` (from another thread) ends the analysis within
/// [`crate::engine::CANCEL_POLL_MS`] milliseconds: `None`.
pub fn analyse_game(
    engine: &mut Engine,
    replay: Replay,
    limits: Limits,
    cancel: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
) -> Option<Analysis> {
    if engine.variant() != replay.variant {
        engine.set_variant(replay.variant);
    }
    engine.new_game();
    let mut verdicts = Vec::with_capacity(replay.moves.len() + 1);
    let moves: Vec<&str> = replay.moves.iter().map(String::as_str).collect();
    let total = moves.len() + 1;
    for i in (0..=moves.len()).rev() {
        let set = engine.set_position(replay.start_fen.as_deref(), &moves[..i]);
        debug_assert!(set.is_ok(), "a replayed game's moves are legal");
        let verdict = match engine.outcome() {
            // The game is decided before the side to move moves: it has lost, or in
            // Antidraughts won.
            Some(Outcome::Win(winner, _)) => Verdict {
                score: if winner == engine.side_to_move() {
                    Score::Win(0)
                } else {
                    Score::Loss(0)
                },
                depth: Depth(0),
                pv: Vec::new(),
                best: None,
                db: None,
            },
            Some(Outcome::Draw(_)) => Verdict {
                score: Score::Cp(0),
                depth: Depth(0),
                pv: Vec::new(),
                best: None,
                db: None,
            },
            None => search(engine, limits.clone(), cancel),
        };
        if cancel.load(Ordering::SeqCst) {
            return None;
        }
        verdicts.push(verdict);
        progress(verdicts.len(), total);
    }
    verdicts.reverse();
    // The replayed moves are legal, so naming them cannot fail.
    let names = pdn::pdn_move_names(replay.variant, replay.start_fen.as_deref(), &moves)
        .unwrap_or_else(|_| replay.moves.clone());
    Some(Analysis {
        replay,
        names,
        verdicts,
        book: None,
    })
}

/// The game written back: its tags (GameType, Variant and FEN in damiera's form, the result in
/// the variant's convention, an Annotator added), each move in the shortest unambiguous form
/// with its mark and a comment, the best move after a mistake.
pub fn annotated_pdn(game: &GameText, a: &Analysis, annotator: &str) -> String {
    let v = a.replay.variant;
    let result = winner(game, v).map_or("*", |w| pdn::result_token(v, w));
    let mut s = String::new();
    for (name, value) in &game.tags {
        let lower = name.to_ascii_lowercase();
        let value = match lower.as_str() {
            "gametype" => pdn::game_type(v).to_string(),
            "result" => match pdn::parse_result(v, value) {
                Some(w) => pdn::result_token(v, w).to_string(),
                None => value.clone(),
            },
            "fen" => match &a.replay.start_fen {
                Some(f) => f.clone(),
                None => continue,
            },
            "annotator" => continue,
            _ => value.clone(),
        };
        let _ = writeln!(s, "[{name} \"{}\"]", pdn::escape(&value));
    }
    if game.tag("GameType").is_none() {
        let _ = writeln!(s, "[GameType \"{}\"]", pdn::game_type(v));
    }
    if let Some(tag) = pdn::variant_tag(v).filter(|_| game.tag("Variant").is_none()) {
        let _ = writeln!(s, "[Variant \"{tag}\"]");
    }
    if a.replay.start_fen.is_some() && game.tag("SetUp").is_none() {
        let _ = writeln!(s, "[SetUp \"1\"]");
    }
    let _ = writeln!(s, "[Annotator \"{}\"]", pdn::escape(annotator));
    s.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    for (ply, mv) in a.names.iter().enumerate() {
        if a.numbered(ply) {
            tokens.push(a.label(ply));
        }
        tokens.push(format!("{mv}{}", a.mark(ply)));
        let after = &a.verdicts[ply + 1];
        let mut comment = a
            .db_comment(ply + 1)
            .unwrap_or_else(|| score_text(a.white(ply + 1)));
        if after.depth > Depth(0) {
            let _ = write!(comment, " d{}", after.depth);
        }
        if a.in_book(ply) {
            comment.push_str(" book");
        }
        tokens.push(format!("{{{comment}}}"));
        if a.loss(ply) >= MISTAKE {
            let before = &a.verdicts[ply];
            if let Some(b) = &before.best {
                // The search's move, and the refutation of the one played (the start of the
                // principal variation after it).
                let mut c = format!("best {b} {}", score_text(a.white(ply)));
                if !after.pv.is_empty() {
                    let line: Vec<&str> = after.pv.iter().take(5).map(String::as_str).collect();
                    let _ = write!(c, "; refuted by {}", line.join(" "));
                }
                tokens.push(format!("{{{c}}}"));
            }
        }
    }
    tokens.push(result.to_string());
    wrap_move_text(&mut s, &tokens, 79);
    s
}

/// The report on one game, for a person.
pub fn report(index: usize, game: &GameText, a: &Analysis) -> String {
    let v = a.replay.variant;
    let mut s = String::new();
    let name = |c: &str| game.tag(c).filter(|n| !n.is_empty()).unwrap_or("?");
    let result = game.result_or_tag().unwrap_or("*");
    let depth = {
        let searched: Vec<u32> = a
            .verdicts
            .iter()
            .map(|v| v.depth.0)
            .filter(|&d| d > 0)
            .collect();
        if searched.is_empty() {
            0
        } else {
            searched.iter().sum::<u32>() / searched.len() as u32
        }
    };
    let _ = writeln!(
        s,
        "Game {index} (line {}): {} - {}, {}, result {result}, {} plies, mean depth {depth}",
        game.span.line,
        name("White"),
        name("Black"),
        v.name(),
        a.replay.moves.len()
    );
    let first_mover = VariantPosition::start(v).side();
    for side in [first_mover, first_mover.opponent()] {
        let plies: Vec<usize> = (0..a.replay.moves.len())
            .filter(|&p| a.side(p) == side)
            .collect();
        let list = |min: i32, max: i32| -> Vec<String> {
            plies
                .iter()
                .filter(|&&p| (min..max).contains(&a.loss(p)))
                .map(|&p| format!("{} {}{}", a.label(p), a.names[p], a.mark(p)))
                .collect()
        };
        let mistakes = list(MISTAKE, BLUNDER);
        let blunders = list(BLUNDER, i32::MAX);
        let average = if plies.is_empty() {
            0.0
        } else {
            plies
                .iter()
                .map(|&p| a.loss(p).min(AVERAGE_CAP) as f64)
                .sum::<f64>()
                / plies.len() as f64
                / 100.0
        };
        let _ = writeln!(
            s,
            "  {} ({}): {} blunder{}, {} mistake{}, average loss {average:.2} men per move",
            side.name(),
            name(side.name()),
            blunders.len(),
            if blunders.len() == 1 { "" } else { "s" },
            mistakes.len(),
            if mistakes.len() == 1 { "" } else { "s" },
        );
        if !blunders.is_empty() {
            let _ = writeln!(s, "    blunders: {}", blunders.join(", "));
        }
        if !mistakes.is_empty() {
            let _ = writeln!(s, "    mistakes: {}", mistakes.join(", "));
        }
    }
    let _ = writeln!(s, "  decided: {}", decided(game, a));
    // The first position the endgame databases hold (with --egdb).
    if let Some(i) = (0..a.verdicts.len()).find(|&i| a.verdicts[i].db.is_some()) {
        let at = match i {
            0 => "the start".to_string(),
            _ => format!("after {} {}", a.label(i - 1), a.names[i - 1]),
        };
        let text = a.db_comment(i).unwrap_or_default();
        let _ = writeln!(s, "  endgame databases: from {at}: {text}");
    }
    if let Some(line) = a.book_line() {
        let _ = writeln!(s, "  book: {line}");
    }
    s
}

/// The loser's move after which the winner's score stayed at least [`DECISIVE`] to the end.
fn decided(game: &GameText, a: &Analysis) -> String {
    let n = a.replay.moves.len();
    let winner = match winner(game, a.replay.variant) {
        Some(Some(c)) => c,
        Some(None) => return "no (a draw)".into(),
        None => {
            // No result: the final position's score, if decisive.
            let last = value(a.white(n));
            if last >= DECISIVE {
                Color::White
            } else if last <= -DECISIVE {
                Color::Black
            } else {
                return "no (no result and the final position is not decisive)".into();
            }
        }
    };
    let sign = if winner == Color::White { 1 } else { -1 };
    let mut from = n + 1;
    for i in (0..=n).rev() {
        if sign * value(a.white(i)) >= DECISIVE {
            from = i;
        } else {
            break;
        }
    }
    if from == 0 {
        return format!(
            "before the first move ({} already {} at the start)",
            winner.name(),
            score_text(a.white(0))
        );
    }
    if from > n {
        return format!(
            "not found ({} won, but the analysis never gave it a man or more to the end)",
            winner.name()
        );
    }
    // The loser's move that let it happen: the one into the decisive stretch, or the one
    // before it when the winner's move made the score decisive.
    let mut ply = from - 1;
    if a.side(ply) == winner && ply > 0 {
        ply -= 1;
    }
    format!(
        "{} {}{} by {} ({} {} from then on: {} after {} {})",
        a.label(ply),
        a.names[ply],
        a.mark(ply),
        a.side(ply).name(),
        winner.name(),
        match a.replay.variant {
            // Their scores measure the goal, not the material: in Antidraughts a side ahead
            // is the one with fewer pieces.
            Variant::Antidraughts | Variant::Breakthrough => "a man's worth or more in its favour",
            _ => "a man or more ahead",
        },
        score_text(a.white(from)),
        a.label(from - 1),
        a.names[from - 1],
    )
}
