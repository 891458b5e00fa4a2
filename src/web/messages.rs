//! The JSON messages between the page and its session (docs/serve-protocol.md): what the page
//! sends ([`ClientMessage`]) and the server's messages, built here from the core's and the
//! analysis's values so that the page holds no rules knowledge.

use crate::book::Book;
use crate::core::damone::DamoneWin;
use crate::core::rules::Numbering;
use crate::core::variant::Variant;
use crate::core::variant_position::{MoveSquares, Piece, VariantPosition};
use crate::engine::Score;
use crate::tools::analysis::{book_score, score_text, value, white_view, Analysis};
use crate::tools::pdn::GameText;
use crate::Color;
use serde::Deserialize;
use serde_json::{json, Value};

/// A message from the page. Unknown fields are ignored; a missing `type`, an unknown one or a
/// field of the wrong kind is a one-line error (serde's, prefixed `bad message:`).
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// A new game of `variant` from its start or from `fen` (a PDN FEN).
    New {
        /// The variant's name (`english`, ..., `international`).
        variant: String,
        /// The start position (`None`: the variant's start).
        #[serde(default)]
        fen: Option<String>,
        /// Italian Damone's end of game (ruling I.4, the engine's option `DamoneWin`): `all`
        /// (the default: a side without a legal move has lost) or `damones` (losing every
        /// Damone loses too). Ignored for the other variants.
        #[serde(default)]
        damone_win: Option<String>,
    },
    /// Play a legal move, given by name.
    Move {
        /// One of the position's move names (any form the variant's notation reads).
        #[serde(rename = "move")]
        name: String,
    },
    /// Take back plies (1 or 2).
    Takeback {
        /// How many plies.
        #[serde(default = "one")]
        plies: usize,
    },
    /// The engine plays the side to move, within a depth (plies) or a time (milliseconds), at
    /// a strength level (the engine's `Level`, 0-20; 20, full strength, when absent).
    Go {
        /// Depth in plies.
        #[serde(default)]
        depth: Option<u32>,
        /// Time in milliseconds.
        #[serde(default)]
        movetime: Option<u64>,
        /// The strength level, 0 to 20 ([`LEVEL_ELO`] gives each one's measured strength).
        #[serde(default)]
        level: Option<u32>,
    },
    /// Analyse the current position until `stop`.
    Analyse,
    /// Stop the running search or game analysis.
    Stop,
    /// Analyse one game of a PDN text, as `damiera analyse --pdn` does.
    AnalysePdn {
        /// The PDN text (one or more games).
        pdn: String,
        /// The game's number, from 1.
        #[serde(default = "one")]
        game: usize,
        /// Depth per position, in plies.
        #[serde(default)]
        depth: Option<u32>,
        /// Time per position, in milliseconds.
        #[serde(default)]
        movetime: Option<u64>,
    },
}

fn one() -> usize {
    1
}

impl ClientMessage {
    /// The message's `type` as the page sends it (`new`, `move`, ..., `analyse_pdn`).
    pub fn kind(&self) -> &'static str {
        match self {
            ClientMessage::New { .. } => "new",
            ClientMessage::Move { .. } => "move",
            ClientMessage::Takeback { .. } => "takeback",
            ClientMessage::Go { .. } => "go",
            ClientMessage::Analyse => "analyse",
            ClientMessage::Stop => "stop",
            ClientMessage::AnalysePdn { .. } => "analyse_pdn",
        }
    }
}

/// The `type` of a page's message that could not be read, when it holds a string `type` (at
/// most 40 characters kept); `None` for anything else (not JSON, no `type`, a binary message).
pub fn request_type(text: &str) -> Option<String> {
    let v: Value = serde_json::from_str(text).ok()?;
    let t = v.get("type")?.as_str()?;
    Some(t.chars().take(40).collect())
}

/// An `error` message: one line (line breaks become spaces), with `request`, the `type` of the
/// page's message it answers (`None`, sent as `null`: no message, such as a session that could
/// not start).
pub fn error(request: Option<&str>, message: &str) -> Value {
    let line: Vec<&str> = message.split_whitespace().collect();
    json!({"type": "error", "request": request, "message": line.join(" ")})
}

/// The Elo of strength levels 1 to 20 (index 0 is level 1) above level 1: the English ladder
/// of docs/strength.md ("Strength levels"), each level against the one below, 200 games a pair
/// at 100 ms a move, the steps added up and rounded to 10. Level 0 (random moves) is off the
/// scale: levels 1 and 2 won all their games against it. The page shows them as an
/// approximate Elo next to each level.
pub const LEVEL_ELO: [i32; 20] = [
    0, 50, 100, 170, 240, 350, 450, 530, 610, 700, 740, 840, 960, 1030, 1100, 1190, 1250, 1310,
    1360, 1490,
];

/// The `hello` message: the version, the variants with their names for people, and the
/// strength levels 0 to 20 with their approximate Elo ([`LEVEL_ELO`]; none for level 0).
pub fn hello() -> Value {
    let variants: Vec<Value> = Variant::ALL
        .iter()
        .map(|v| json!({"name": v.name(), "label": label(*v)}))
        .collect();
    let mut levels = vec![json!({"level": 0, "elo": null})];
    levels.extend(
        LEVEL_ELO
            .iter()
            .enumerate()
            .map(|(i, elo)| json!({"level": i + 1, "elo": elo})),
    );
    json!({"type": "hello", "version": env!("CARGO_PKG_VERSION"), "variants": variants, "levels": levels})
}

/// A variant's name for people.
fn label(v: Variant) -> &'static str {
    match v {
        Variant::English => "English (American checkers)",
        Variant::Italian => "Italian",
        Variant::Brazilian => "Brazilian",
        Variant::Russian => "Russian",
        Variant::Damone => "Italian Damone",
        Variant::International => "International (10x10)",
        Variant::Antidraughts => "Antidraughts (10x10)",
        Variant::Breakthrough => "Breakthrough (10x10)",
        Variant::Frisian => "Frisian (10x10)",
        Variant::Frysk => "Frysk! (Frisian, 5 men)",
    }
}

/// A piece as the page draws it: `wm`, `wk`, `wd` (White man, king, Damone), `bm`, ..., or
/// `""` for an empty square.
fn piece_code(p: Option<(Color, Piece)>) -> &'static str {
    match p {
        None => "",
        Some((Color::White, Piece::Man)) => "wm",
        Some((Color::White, Piece::King)) => "wk",
        Some((Color::White, Piece::Damone)) => "wd",
        Some((Color::Black, Piece::Man)) => "bm",
        Some((Color::Black, Piece::King)) => "bk",
        Some((Color::Black, Piece::Damone)) => "bd",
    }
}

/// The pieces of a position, one code per square in notation order.
pub fn pieces(pos: &VariantPosition) -> Vec<&'static str> {
    pos.pieces().into_iter().map(piece_code).collect()
}

/// The board's layout: `files`, `ranks`, `notation` and `squares`, merged into `message`.
fn add_layout(message: &mut Value, pos: &VariantPosition) {
    let (files, ranks) = pos.board_size();
    let squares: Vec<Value> = pos
        .squares()
        .into_iter()
        .map(|s| json!({"name": s.name, "file": s.file, "rank": s.rank}))
        .collect();
    let notation = match pos.numbering() {
        Numbering::Algebraic => "algebraic",
        _ => "numbers",
    };
    message["variant"] = json!(pos.variant().name());
    message["files"] = json!(files);
    message["ranks"] = json!(ranks);
    message["notation"] = json!(notation);
    message["squares"] = json!(squares);
}

fn squares_json(m: &MoveSquares) -> Value {
    json!({"path": m.path, "captured": m.captured})
}

/// The `position` message: the layout, the pieces, the FEN, the side to move, every legal move
/// with its squares, the moves played, the last move, the outcome (`None`: the game goes on),
/// for Italian Damone its end-of-game rule (`damone_win`: `all` or `damones`; `null` for the
/// other variants), and the position's moves in `book` ([`book_moves`]; `null` without a book
/// of the variant).
pub fn position(
    pos: &VariantPosition,
    history: &[String],
    last: Option<&MoveSquares>,
    outcome: Option<String>,
    book: Option<&Book>,
) -> Value {
    let moves: Vec<Value> = if outcome.is_some() {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|mv| {
                let s = pos.move_squares(mv);
                json!({"name": pos.move_name(mv), "path": s.path, "captured": s.captured,
                       "promotes": s.promotes})
            })
            .collect()
    };
    let mut m = json!({
        "type": "position",
        "pieces": pieces(pos),
        "fen": pos.fen(),
        "side": side_name(pos.side()),
        "moves": moves,
        "history": history,
        "last": last.map(squares_json),
        "outcome": outcome,
        "damone_win": pos.damone_win().map(DamoneWin::name),
        "book": book.map(|b| book_moves(pos, b, outcome.is_some())),
    });
    add_layout(&mut m, pos);
    m
}

/// A position's book moves, best first, as the page lists them: each move's `name` (one of the
/// position's `moves`), its `score` in men from White's view and `score_text` (as `info`
/// gives them), the book's own score `cm` (centi-men, the side to move's view, as `damiera
/// book probe` prints it), `depth` and `count`. Empty for a position the book does not hold,
/// or a finished game.
pub fn book_moves(pos: &VariantPosition, book: &Book, over: bool) -> Value {
    if over {
        return json!([]);
    }
    let moves: Vec<Value> = book
        .probe(pos)
        .iter()
        .map(|m| {
            let (men, text) = score_fields(book_score(m.entry.score), pos.side());
            json!({"name": m.name, "score": men, "score_text": text, "cm": m.entry.score,
                   "depth": m.entry.depth, "count": m.entry.count})
        })
        .collect();
    Value::Array(moves)
}

/// The end-of-game rule a `new` message names: `all` or `damones` (`None`: `all`).
///
/// # Errors
/// Any other name, as a one-line message.
pub fn parse_damone_win(name: Option<&str>) -> Result<DamoneWin, String> {
    let Some(name) = name else {
        return Ok(DamoneWin::All);
    };
    DamoneWin::from_name(name).ok_or_else(|| {
        format!(
            "damone_win is all or damones, not '{}'",
            name.chars().take(40).collect::<String>()
        )
    })
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A score from the side to move's view as the page shows it: men from White's view (capped
/// at ±15, a win ±20) and the text a player reads.
fn score_fields(score: Score, side: Color) -> (f64, String) {
    let white = white_view(score, side);
    (f64::from(value(white)) / 100.0, score_text(white))
}

/// The `info` message of one search iteration in a position where `side` is to move.
#[allow(clippy::too_many_arguments)]
pub fn info(
    depth: u32,
    score: Score,
    side: Color,
    nodes: u64,
    nps: u64,
    time_ms: u64,
    pv: &[String],
) -> Value {
    let (men, text) = score_fields(score, side);
    json!({"type": "info", "depth": depth, "score": men, "score_text": text, "nodes": nodes,
           "nps": nps, "time_ms": time_ms, "pv": pv})
}

/// The `bestmove` message; `book`: the move was the opening book's, played without a search.
pub fn bestmove(best: Option<&str>, book: bool) -> Value {
    json!({"type": "bestmove", "move": best, "book": book})
}

/// The `progress` message of a game analysis: positions done of `total`.
pub fn progress(done: usize, total: usize) -> Value {
    json!({"type": "progress", "done": done, "total": total})
}

/// The `analysis` message: game `index` (from 1) of `games`, ply by ply, with the boards before
/// and after each move, the report and the annotated PDN.
pub fn analysis(
    index: usize,
    games: usize,
    game: &GameText,
    a: &Analysis,
    report: String,
    pdn: String,
) -> Value {
    let r = a.replay();
    // The replayed game is legal from its start, so the positions and names below exist.
    let mut pos = VariantPosition::new(r.variant, r.start_fen.as_deref())
        .unwrap_or_else(|_| VariantPosition::start(r.variant));
    let start = pos;
    let squares_of = |p: &VariantPosition, name: &str| {
        p.parse_move(name).ok().map(|mv| p.move_squares(&mv).path)
    };
    let (men, text) = (f64::from(value(a.white(0))) / 100.0, score_text(a.white(0)));
    let mut plies = Vec::new();
    for (ply, name) in a.names().iter().enumerate() {
        let before = pos;
        let Ok(mv) = pos.parse_move(name) else { break };
        pos.play(&mv);
        let after = a.white(ply + 1);
        let best = a.best(ply);
        plies.push(json!({
            "label": a.label(ply),
            "move": name,
            "path": before.move_squares(&mv).path,
            "mark": a.mark(ply),
            "loss": f64::from(a.loss(ply)) / 100.0,
            "score": f64::from(value(after)) / 100.0,
            "score_text": score_text(after),
            "depth": a.depth(ply + 1).0,
            "best": best,
            "best_path": best.and_then(|b| squares_of(&before, b)),
            "best_score_text": score_text(a.white(ply)),
            "line": a.pv(ply + 1),
            "book": a.in_book(ply),
            "pieces_before": pieces(&before),
            "pieces": pieces(&pos),
        }));
    }
    let tag = |t: &str| game.tag(t).unwrap_or("?").to_string();
    let mut m = json!({
        "type": "analysis",
        "games": games,
        "game": index,
        "white": tag("White"),
        "black": tag("Black"),
        "result": game.result_or_tag().unwrap_or("*"),
        "start": {"score": men, "score_text": text, "pieces": pieces(&start)},
        "plies": plies,
        "report": report,
        "pdn": pdn,
    });
    add_layout(&mut m, &start);
    m
}
