//! `damiera book import`: a book from game collections (docs/book.md, "Importing").
//!
//! Every game of the variant is replayed ([`pdn::replay_prefix`], from its `[FEN]` when it
//! has one); each of its first `max_ply` moves is counted once for the (position, move) it
//! plays, with the game's result from the mover's side. An entry is kept when at least
//! `min_games` games played it: its count is those games, its depth 0 (not searched), its score
//! the mover's result over the games with a result:
//!
//! `score = round(100 * (wins - losses) / (wins + draws + losses))`, rounded half away from
//! zero, so from -100 (every game lost) to +100 (every game won); 0 when none of the games has a
//! result (`*`, or no result token and no `[Result]` tag).
//!
//! Games whose `[GameType]` names another variant, or an unsupported one, are skipped (a game
//! without `[GameType]` is taken to be of the import's variant). A game with a bad move
//! (illegal, unreadable, after the end) is read up to it and the rest skipped; a game with a
//! syntax error or a bad `[FEN]` is skipped whole. [`ImportSummary`] counts them.

use crate::book::probe::book_move;
use crate::book::{book_key, BookMove, Entry};
use crate::core::rules::Color;
use crate::core::variant::Variant;
use crate::core::variant_position::VariantPosition;
use crate::tools::pdn;
use std::collections::HashMap;

/// What the games say of one (position, move): the games that played it and, of those with a
/// result, the mover's wins, draws and losses.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games that played the move in the position (once per game).
    pub games: u32,
    /// Of those, the games the mover won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
}

impl Tally {
    /// The imported score (the module's definition): `100 * (wins - losses) / decided-or-drawn
    /// games`, rounded half away from zero, in -100..=100; 0 without a result.
    pub fn score(&self) -> i16 {
        let known = i64::from(self.wins) + i64::from(self.draws) + i64::from(self.losses);
        if known == 0 {
            return 0;
        }
        let n = 100 * (i64::from(self.wins) - i64::from(self.losses));
        let q = (2 * n.abs() + known) / (2 * known);
        (n.signum() * q) as i16
    }
}

/// What an import (or one file of it) read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// Games in the text.
    pub games: usize,
    /// Games of which at least one move was counted.
    pub imported: usize,
    /// Games skipped for another (or an unsupported) variant.
    pub other_variant: usize,
    /// Games stopped at a bad move (the moves before it counted), or skipped whole for a syntax
    /// error or a bad `[FEN]`.
    pub stopped: usize,
    /// Imported games without a result: counted, not scored.
    pub no_result: usize,
    /// The first stopped game's problem: `line:col: message` (with the file's name when
    /// [`Import::add_pdn`] was given one).
    pub first_problem: Option<String>,
}

impl ImportSummary {
    /// Adds `other`'s counts to these (the first problem kept if there is one).
    pub fn add(&mut self, other: &ImportSummary) {
        self.games += other.games;
        self.imported += other.imported;
        self.other_variant += other.other_variant;
        self.stopped += other.stopped;
        self.no_result += other.no_result;
        if self.first_problem.is_none() {
            self.first_problem.clone_from(&other.first_problem);
        }
    }
}

/// An import in progress: the tallies of every (position key, move) seen so far.
#[derive(Clone, Debug)]
pub struct Import {
    variant: Variant,
    max_ply: usize,
    tallies: HashMap<(u64, BookMove), Tally>,
    summary: ImportSummary,
}

impl Import {
    /// An empty import of `variant` counting the first `max_ply` moves of each game.
    pub fn new(variant: Variant, max_ply: usize) -> Import {
        Import {
            variant,
            max_ply,
            tallies: HashMap::new(),
            summary: ImportSummary::default(),
        }
    }

    /// Counts every game of the PDN `text` (from a file called `name`, for the messages) and
    /// returns what this text held; [`Import::summary`] adds it up over all texts.
    pub fn add_pdn(&mut self, name: &str, text: &str) -> ImportSummary {
        let mut s = ImportSummary::default();
        for g in pdn::read_games(text) {
            s.games += 1;
            match pdn::variant_of(&g, Some(self.variant)) {
                Ok(v) if v == self.variant => {}
                _ => {
                    s.other_variant += 1;
                    continue;
                }
            }
            let (replay, problem) = match pdn::replay_prefix(&g, self.variant) {
                Ok(r) => r,
                Err(e) => (
                    pdn::Replay {
                        variant: self.variant,
                        start_fen: None,
                        start_side: Color::White,
                        first_number: 1,
                        moves: Vec::new(),
                    },
                    Some(e),
                ),
            };
            if let Some(e) = problem {
                s.stopped += 1;
                if s.first_problem.is_none() {
                    s.first_problem = Some(if name.is_empty() {
                        e.to_string()
                    } else {
                        format!("{name}:{e}")
                    });
                }
            }
            let result = g
                .result_or_tag()
                .and_then(|t| pdn::parse_result(self.variant, t));
            if self.add_game(&replay, result) {
                s.imported += 1;
                s.no_result += usize::from(result.is_none());
            }
        }
        self.summary.add(&s);
        s
    }

    /// Counts one replayed game with its result (`Some(winner)`, `Some(None)` a draw, `None`
    /// unknown); true if at least one of its moves was counted.
    fn add_game(&mut self, replay: &pdn::Replay, result: Option<Option<Color>>) -> bool {
        let Ok(mut pos) = VariantPosition::new(self.variant, replay.start_fen.as_deref()) else {
            return false;
        };
        let mut played: Vec<(u64, BookMove, Color)> = Vec::new();
        for name in replay.moves.iter().take(self.max_ply) {
            let Ok(mv) = pos.parse_move(name) else {
                break;
            };
            let pair = (book_key(&pos), book_move(&pos, &mv), pos.side());
            if !played.iter().any(|p| (p.0, p.1) == (pair.0, pair.1)) {
                played.push(pair);
            }
            pos.play(&mv);
        }
        for &(key, mv, mover) in &played {
            let t = self.tallies.entry((key, mv)).or_default();
            t.games = t.games.saturating_add(1);
            match result {
                Some(Some(w)) if w == mover => t.wins = t.wins.saturating_add(1),
                Some(Some(_)) => t.losses = t.losses.saturating_add(1),
                Some(None) => t.draws = t.draws.saturating_add(1),
                None => {}
            }
        }
        !played.is_empty()
    }

    /// What every text added so far held.
    pub fn summary(&self) -> &ImportSummary {
        &self.summary
    }

    /// The tally of `key` and `mv`, if some game played it.
    pub fn tally(&self, key: u64, mv: BookMove) -> Option<Tally> {
        self.tallies.get(&(key, mv)).copied()
    }

    /// The book's entries: every (position, move) at least `min_games` games played, count the
    /// games, score [`Tally::score`], depth 0. In no particular order ([`crate::book::write`]
    /// sorts them).
    pub fn entries(&self, min_games: u32) -> Vec<Entry> {
        self.tallies
            .iter()
            .filter(|(_, t)| t.games >= min_games)
            .map(|(&(key, mv), t)| Entry {
                key,
                mv,
                score: t.score(),
                depth: 0,
                count: t.games,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_half_away_from_zero() {
        let t = |wins, draws, losses| {
            Tally {
                games: wins + draws + losses,
                wins,
                draws,
                losses,
            }
            .score()
        };
        assert_eq!(t(1, 2, 0), 33);
        assert_eq!(t(0, 1, 1), -50);
        assert_eq!(t(1, 6, 1), 0);
        assert_eq!(t(1, 7, 0), 13); // 12.5
        assert_eq!(t(0, 7, 1), -13);
        assert_eq!(t(3, 0, 0), 100);
        assert_eq!(t(0, 0, 0), 0);
    }

    #[test]
    fn games_count_once_and_bad_games_are_cut() {
        let text = "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n\
                    [GameType \"20\"]\n1. 32-28 19-23 2-0\n\n\
                    1. 11-15 23-19 2. 9-9 22-17 0-1\n";
        let mut imp = Import::new(Variant::English, 30);
        let s = imp.add_pdn("a.pdn", text);
        assert_eq!(
            (s.games, s.imported, s.other_variant, s.stopped, s.no_result),
            (3, 2, 1, 1, 0)
        );
        assert!(
            s.first_problem
                .as_deref()
                .is_some_and(|p| p.starts_with("a.pdn:7:19: ")),
            "{s:?}"
        );
        let start = VariantPosition::start(Variant::English);
        let mv = start.parse_move("11-15").unwrap();
        let t = imp.tally(book_key(&start), book_move(&start, &mv)).unwrap();
        // Black (the mover) won the first game (1-0), lost the second (0-1).
        assert_eq!((t.games, t.wins, t.losses, t.score()), (2, 1, 1, 0));
        assert_eq!(imp.entries(2).len(), 2);
        assert_eq!(imp.entries(1).len(), 4);
    }
}
