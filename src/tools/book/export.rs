//! `damiera book export`: a book's tree as PDN (docs/book.md, "Exporting").
//!
//! From a root position (the start, or a FEN) the book's moves are walked depth first, the
//! best move of each position first, following a move whenever the position it leads to has
//! book moves too. Each position's moves are written once, at its first visit in that order
//! (so the main line, the best move at every position, is always complete, up to a repeated
//! position or `max_ply`); a later visit (a transposition) writes the move and stops there.
//!
//! Two forms:
//!
//! - **one game with variations** (the default): the main line, and after each of its moves the
//!   position's other book moves, each a variation `( ... )` holding its own subtree, nested.
//!   Every move is followed by its book score as a comment, `{+12}` (centi-men, the mover's
//!   view). A move number is written before a move that starts a numbered pair
//!   ([`pdn::move_number`]) and before the first move of the game and of each variation, never
//!   again after a variation closes (`1. 11-15 (1. 9-13 {+3}) 23-19`): pydraughts 0.6.7's
//!   reader drops the variations and then deletes a repeated move number everywhere, digits of
//!   larger numbers included, so a `1...` there would corrupt its main line.
//! - **one game per line** (`lines`): every path from the root to a leaf of that walk, its own
//!   game (the main line first), for readers that skip variations.
//!
//! Tags: `[Event]`, `[Round]` (a line's number, in the second form), `[Result "*"]`,
//! `[GameType]` ([`pdn::game_type`], as `match --pdn` writes it), `[Variant "damone"]` for
//! Italian Damone, and `[SetUp "1"]` with `[FEN]` when the root is not the start position.

use crate::book::{book_key, Book};
use crate::core::moves::Move;
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::tools::arena::pdn::wrap_move_text;
use crate::tools::pdn;
use std::collections::HashSet;
use std::fmt::{self, Write};

/// What to export and how.
#[derive(Clone, Debug)]
pub struct ExportSettings {
    /// The root position (of the book's variant): the start, or `--fen`.
    pub root: VariantPosition,
    /// Write no move deeper than this many plies from the root (`None`: no limit).
    pub max_ply: Option<usize>,
    /// The `[Event]` tag's value.
    pub event: String,
    /// One game per line from the root to a leaf instead of one game with variations.
    pub lines: bool,
}

/// What an export wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    /// The PDN text: one game, or one game per line.
    pub pdn: String,
    /// Positions whose book moves were written (each once).
    pub positions: usize,
    /// Moves in the tree (each book move of each written position once).
    pub moves: usize,
    /// Games written: 1, or the number of lines.
    pub games: usize,
    /// The main line's length in plies.
    pub main_line: usize,
}

/// Why a book cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExportError {
    /// The root is of another variant than the book.
    Variant {
        /// The book's variant.
        book: Variant,
        /// The root's.
        root: Variant,
    },
    /// The book has no move in the root position (its key given).
    EmptyRoot(u64),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::Variant { book, root } => write!(
                f,
                "the book is {}, the root position {}",
                book.name(),
                root.name()
            ),
            ExportError::EmptyRoot(key) => write!(
                f,
                "the book has no move in the root position (key {key:016x}; a book built \
                 --from an openings file has its roots there: pass --fen)"
            ),
        }
    }
}

impl std::error::Error for ExportError {}

/// One move of the walk: its PDN name, its book score, its ply from the root (0 = the first
/// move), its parent (the move before it, `None` at the root) and, when the position it leads
/// to is written here, that position's book moves (best first).
struct Node {
    name: String,
    score: i16,
    ply: usize,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// The walk: the root's moves, and every node's.
struct Walk {
    roots: Vec<usize>,
    nodes: Vec<Node>,
    positions: usize,
}

/// The book's moves from `root`, depth first, best first; each position written at its first
/// visit only, nothing at or beyond `max_ply`.
fn walk(book: &Book, root: VariantPosition, max_ply: Option<usize>) -> Walk {
    let mut nodes: Vec<Node> = Vec::new();
    let mut roots = Vec::new();
    let mut seen = HashSet::new();
    let mut positions = 0;
    // (the node whose move leads to the position, or None for the root; the position; its ply)
    let mut stack = vec![(None, root, 0usize)];
    while let Some((parent, pos, ply)) = stack.pop() {
        if max_ply.is_some_and(|m| ply >= m) || !seen.insert(book_key(&pos)) {
            continue;
        }
        let mut next = Vec::new();
        let mut written: Vec<Move> = Vec::new();
        for m in book.probe(&pos) {
            // A book written by damiera holds a move once; a foreign one might not.
            if written.contains(&m.mv) {
                continue;
            }
            written.push(m.mv);
            let id = nodes.len();
            nodes.push(Node {
                name: pos.move_name_pdn(&m.mv),
                score: m.entry.score,
                ply,
                parent,
                children: Vec::new(),
            });
            let mut after = pos;
            after.play(&m.mv);
            next.push((Some(id), after, ply + 1));
        }
        let ids: Vec<usize> = next.iter().filter_map(|(id, _, _)| *id).collect();
        positions += usize::from(!ids.is_empty());
        match parent {
            Some(p) => nodes[p].children = ids,
            None => roots = ids,
        }
        stack.extend(next.into_iter().rev());
    }
    Walk {
        roots,
        nodes,
        positions,
    }
}

/// How a walk's moves are numbered: the variant, the side to move at the root.
struct Numbers {
    variant: Variant,
    side: Color,
}

impl Numbers {
    /// The label before the move at `ply`, if one is written there (`first`: the first move of
    /// a game or variation).
    fn label(&self, ply: usize, first: bool) -> Option<String> {
        (first || pdn::move_number(self.variant, self.side, 1, ply).1)
            .then(|| pdn::move_label(self.variant, self.side, 1, ply))
    }
}

/// The tags of an exported game.
fn tags(out: &mut String, settings: &ExportSettings, round: Option<usize>) {
    let v = settings.root.variant();
    let _ = writeln!(out, "[Event \"{}\"]", pdn::escape(&settings.event));
    if let Some(r) = round {
        let _ = writeln!(out, "[Round \"{r}\"]");
    }
    let _ = writeln!(out, "[Result \"*\"]");
    let _ = writeln!(out, "[GameType \"{}\"]", pdn::game_type(v));
    if let Some(tag) = pdn::variant_tag(v) {
        let _ = writeln!(out, "[Variant \"{tag}\"]");
    }
    let fen = settings.root.fen();
    if fen != VariantPosition::start(v).fen() {
        let _ = writeln!(out, "[SetUp \"1\"]");
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    out.push('\n');
}

/// A move's tokens: its label if any, its name, its score comment.
fn move_tokens(tokens: &mut Vec<String>, label: Option<String>, node: &Node) {
    tokens.extend(label);
    tokens.push(node.name.clone());
    tokens.push(format!("{{{:+}}}", node.score));
}

/// The tree as one game's move text tokens: the main line with nested variations.
fn tree_tokens(w: &Walk, numbers: &Numbers) -> Vec<String> {
    enum Task {
        /// Write a node's move (`true`: it opens a game or variation).
        Move(usize, bool),
        /// Write the moves after a node's position (the root's: `None`).
        Line(Option<usize>),
        Open,
        Close,
    }
    let mut tokens: Vec<String> = Vec::new();
    let mut open = false;
    let mut stack = vec![Task::Line(None)];
    while let Some(t) = stack.pop() {
        match t {
            Task::Line(n) => {
                let kids = n.map_or(&w.roots, |n| &w.nodes[n].children);
                let Some((&main, alts)) = kids.split_first() else {
                    continue;
                };
                stack.push(Task::Line(Some(main)));
                for &alt in alts.iter().rev() {
                    stack.extend([
                        Task::Close,
                        Task::Line(Some(alt)),
                        Task::Move(alt, true),
                        Task::Open,
                    ]);
                }
                stack.push(Task::Move(main, n.is_none()));
            }
            Task::Move(n, first) => {
                let start = tokens.len();
                let node = &w.nodes[n];
                move_tokens(&mut tokens, numbers.label(node.ply, first), node);
                if std::mem::take(&mut open) {
                    tokens[start].insert(0, '(');
                }
            }
            Task::Open => open = true,
            Task::Close => {
                if let Some(last) = tokens.last_mut() {
                    last.push(')');
                }
            }
        }
    }
    tokens
}

/// The leaves of the walk in text order (the main line's first).
fn leaves(w: &Walk) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = w.roots.iter().rev().copied().collect();
    while let Some(n) = stack.pop() {
        let kids = &w.nodes[n].children;
        if kids.is_empty() {
            out.push(n);
        }
        stack.extend(kids.iter().rev());
    }
    out
}

/// `book`'s tree from `settings.root` as PDN (the module's documentation gives the form).
///
/// # Errors
/// [`ExportError::Variant`] when the root is not of the book's variant;
/// [`ExportError::EmptyRoot`] when the book has no move in the root position.
pub fn export_pdn(book: &Book, settings: &ExportSettings) -> Result<Exported, ExportError> {
    let root = settings.root;
    if root.variant() != book.variant() {
        return Err(ExportError::Variant {
            book: book.variant(),
            root: root.variant(),
        });
    }
    let w = walk(book, root, settings.max_ply);
    if w.roots.is_empty() {
        return Err(ExportError::EmptyRoot(book_key(&root)));
    }
    let numbers = Numbers {
        variant: root.variant(),
        side: root.side(),
    };
    let mut main_line = 0;
    let mut at = w.roots.first().copied();
    while let Some(n) = at {
        main_line += 1;
        at = w.nodes[n].children.first().copied();
    }
    let mut out = String::new();
    let games = if settings.lines {
        let leaves = leaves(&w);
        for (i, &leaf) in leaves.iter().enumerate() {
            let mut path = vec![leaf];
            while let Some(p) = w.nodes[*path.last().expect("not empty")].parent {
                path.push(p);
            }
            let mut tokens = Vec::new();
            for &n in path.iter().rev() {
                let node = &w.nodes[n];
                move_tokens(&mut tokens, numbers.label(node.ply, node.ply == 0), node);
            }
            tokens.push("*".into());
            tags(&mut out, settings, Some(i + 1));
            wrap_move_text(&mut out, &tokens, 80);
        }
        leaves.len()
    } else {
        let mut tokens = tree_tokens(&w, &numbers);
        tokens.push("*".into());
        tags(&mut out, settings, None);
        wrap_move_text(&mut out, &tokens, 80);
        1
    };
    Ok(Exported {
        pdn: out,
        positions: w.positions,
        moves: w.nodes.len(),
        games,
        main_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::probe::book_move;
    use crate::book::Entry;

    /// A book of English holding `lines` (move names from the start), each move scored
    /// by `score`.
    fn book_of(lines: &[&[(&str, i16)]]) -> Book {
        let mut entries = Vec::new();
        for line in lines {
            let mut pos = VariantPosition::start(Variant::English);
            for &(m, score) in *line {
                let mv = pos.parse_move(m).unwrap();
                entries.push(Entry {
                    key: book_key(&pos),
                    mv: book_move(&pos, &mv),
                    score,
                    depth: 0,
                    count: 1,
                });
                pos.play(&mv);
            }
        }
        Book::new(Variant::English, entries)
    }

    fn settings(lines: bool) -> ExportSettings {
        ExportSettings {
            root: VariantPosition::start(Variant::English),
            max_ply: None,
            event: "t".into(),
            lines,
        }
    }

    #[test]
    fn variations_nest_and_transpositions_are_written_once() {
        // 11-15 24-20 9-13 and 9-13 24-20 11-15 reach one position.
        let book = book_of(&[
            &[("11-15", 20), ("23-19", -10), ("8-11", 5)],
            &[("11-15", 20), ("24-20", -30), ("15-19", 7)],
            &[("9-13", 3), ("24-20", -4), ("11-15", 1)],
            &[("11-15", 20), ("24-20", -30), ("9-13", 2), ("22-18", 0)],
        ]);
        let e = export_pdn(&book, &settings(false)).unwrap();
        let text = e.pdn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            text.trim(),
            "1. 11-15 {+20} (1. 9-13 {+3} 24-20 {-4} 2. 11-15 {+1}) 23-19 {-10} \
             (1... 24-20 {-30} 2. 15-19 {+7} (2. 9-13 {+2} 22-18 {+0})) 2. 8-11 {+5} *"
        );
        assert_eq!(e.main_line, 3);
        assert_eq!(e.moves, 10);
        assert_eq!(
            e.positions, 7,
            "9-13 24-20 11-15 reaches a written position"
        );
        let games = pdn::read_games(&e.pdn);
        let moves: Vec<&str> = games[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["11-15", "23-19", "8-11"]);

        let l = export_pdn(&book, &settings(true)).unwrap();
        assert_eq!(l.games, 4);
        let games = pdn::read_games(&l.pdn);
        let last: Vec<&str> = games[3].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(last, ["9-13", "24-20", "11-15"]);
        assert_eq!(games[1].tag("Round"), Some("2"));

        let cut = ExportSettings {
            max_ply: Some(1),
            ..settings(false)
        };
        let e = export_pdn(&book, &cut).unwrap();
        assert!(
            e.pdn.contains("1. 11-15 {+20} (1. 9-13 {+3}) *"),
            "{}",
            e.pdn
        );
        let empty = Book::new(Variant::English, vec![]);
        assert!(matches!(
            export_pdn(&empty, &settings(false)),
            Err(ExportError::EmptyRoot(_))
        ));
    }
}
