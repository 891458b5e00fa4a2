//! Differential test against pydraughts 0.6.7, an independent move generator (PyPI).
//!
//! `tests/pydraughts/walk.py` plays random games with pydraughts and prints, for every position
//! visited, its FEN and pydraughts' legal moves with their paths and captured pieces. For each
//! such position this test checks, in all four 8x8 variants and International (pydraughts'
//! `standard`, 10x10):
//! - our FEN parser reads it and our FEN writer gives it back unchanged;
//! - the set of legal moves (from, to, captured squares) is the same;
//! - the set of capture paths (every square the capturing piece stands on) is the same;
//! - our `Duplicates::Keep` count equals the number of sequences pydraughts lists.
//!
//! Known pydraughts deviations (docs/rules.md) are handled explicitly: in Italian, pydraughts
//! applies FID 6.9 by the index of the first captured king only, so where two lines tie up to
//! that point it also lists the line whose later kings come later (the Alioto case). Such an
//! extra move is accepted only if it ties with our moves on every key before 6.9, has the same
//! first-king index, and loses on the full king order; every other difference fails the test.
//! Flying-king duplicates need no special case: sets of (from, to, captured) ignore them.
//! Antidraughts and Breakthrough (pydraughts' names too) add the end of the game: walk.py's
//! `--verdict` column is pydraughts' winner, which our rules must name as well. Frisian and
//! Frysk! (pydraughts' `frisian` and `frysk!`) are replayed move by move from walk.py's
//! `--played` column, since their king-move limit depends on the moves before (pydraughts
//! reads it from the game's history, damiera keeps it in the position): legal moves, the
//! value rule, the limit, the few-kings draws and every game's end.
//!
//! pydraughts is found as `$DAMIERA_PYTHON`, else `.venv/bin/python`; if neither has it, the
//! test creates `.venv` and installs pydraughts==0.6.7 there (as `.ci/run` does). The number of
//! games per variant is `$DAMIERA_DIFF_GAMES` (default 200). International runs as its own test,
//! so that its walker (the slowest: about 100 plies a game on 50 squares) overlaps the others.

use damiera::core::movegen;
use damiera::core::notation;
use damiera::core::variant_position::{outcome, Outcome};
use damiera::{
    Antidraughts, Brazilian, Breakthrough, Color, English, Frisian, Frysk, International, Italian,
    MoveList, Play, Position, Rules, Russian, Square,
};
use std::collections::{BTreeMap, BTreeSet};
mod common;

use common::python;
use std::path::Path;
use std::process::Command;

/// A pydraughts move: every square the piece stands on, and the captured squares in order.
struct PdMove {
    path: Vec<String>,
    captured: Vec<String>,
}

fn parse_pd_move(tok: &str) -> PdMove {
    if let Some((a, b)) = tok.split_once('-') {
        return PdMove {
            path: vec![a.into(), b.into()],
            captured: vec![],
        };
    }
    let (path, caps) = tok.split_once(':').expect("capture token has ':'");
    PdMove {
        path: path.split('x').map(String::from).collect(),
        captured: caps.split(',').map(String::from).collect(),
    }
}

type MoveKey = (String, String, Vec<String>);

fn key_of(from: &str, to: &str, captured: &[String]) -> MoveKey {
    let mut c = captured.to_vec();
    c.sort();
    (from.to_string(), to.to_string(), c)
}

/// Italian FID 6.9 key over the whole line: bit 15-i for a king captured i-th (as our generator).
fn king_order<R: Rules>(pos: &Position<R>, captured: &[Square]) -> (u32, Option<usize>) {
    let mut pattern = 0;
    let mut first = None;
    for (i, &sq) in captured.iter().enumerate() {
        if pos.kings().contains(sq) {
            pattern |= 1 << (15 - i);
            first.get_or_insert(i);
        }
    }
    (pattern, first)
}

#[derive(Default)]
struct Tally {
    positions: usize,
    moves: usize,
    deviations: usize,
}

fn check_line<R: Rules>(line: &str, tally: &mut Tally) {
    let (fen, moves) = line.split_once('\t').expect("line has a tab");
    let pos = notation::parse_fen::<R>(fen)
        .unwrap_or_else(|e| panic!("{}: pydraughts FEN {fen}: {e}", R::NAME));
    assert_eq!(notation::fen(&pos), fen, "{}: FEN round trip", R::NAME);
    check_moves(&pos, fen, moves, tally);
}

/// Checks our legal moves in `pos` (whose pieces `fen` lists) against pydraughts' `moves`
/// (walk.py's second column); see [`check_line`].
fn check_moves<R: Rules>(pos: &Position<R>, fen: &str, moves: &str, tally: &mut Tally) {
    let pos = *pos;
    let sq = |s: &str| notation::parse_square::<R>(s).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let name = notation::square_name::<R>;

    let theirs: Vec<PdMove> = moves.split_whitespace().map(parse_pd_move).collect();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    let mut ours: BTreeMap<MoveKey, BTreeSet<String>> = BTreeMap::new();
    for mv in list.iter() {
        let caps: Vec<String> = mv.captured.iter().map(name).collect();
        let paths = notation::capture_paths(&pos, mv)
            .into_iter()
            .map(|p| {
                std::iter::once(mv.from)
                    .chain(p)
                    .map(name)
                    .collect::<Vec<_>>()
                    .join("x")
            })
            .collect();
        ours.insert(key_of(&name(mv.from), &name(mv.to), &caps), paths);
    }

    let mut their_keys: BTreeMap<MoveKey, BTreeSet<String>> = BTreeMap::new();
    let mut their_count = 0u64;
    for m in &theirs {
        let key = key_of(&m.path[0], m.path.last().unwrap(), &m.captured);
        if !ours.contains_key(&key) {
            // Only the documented Italian 6.9 deviation may add a move.
            let best = ours.keys().next().map(|k| k.2.len());
            let known = R::NAME == "italian" && best == Some(m.captured.len()) && {
                let caps: Vec<Square> = m.captured.iter().map(|s| sq(s)).collect();
                let (theirs_order, their_first) = king_order(&pos, &caps);
                let from_king = pos.kings().contains(sq(&m.path[0]));
                list.iter().all(|o| {
                    let o_caps: Vec<Square> = notation::capture_paths(&pos, o)
                        .first()
                        .map(|p| captured_in_order(&pos, o.from, p))
                        .unwrap_or_default();
                    let (our_order, our_first) = king_order(&pos, &o_caps);
                    pos.kings().contains(o.from) == from_king
                        && (o.captured & pos.kings()).count()
                            == (caps.iter().filter(|&&c| pos.kings().contains(c)).count() as u32)
                        && our_first == their_first
                        && our_order > theirs_order
                })
            };
            assert!(
                known,
                "{} {fen}: pydraughts move {} is not ours {:?}",
                R::NAME,
                m.path.join("x"),
                ours.keys()
            );
            tally.deviations += 1;
            continue;
        }
        their_count += 1;
        if !m.captured.is_empty() {
            their_keys.entry(key).or_default().insert(m.path.join("x"));
        } else {
            their_keys.entry(key).or_default();
        }
    }
    let our_keys: BTreeSet<&MoveKey> = ours.keys().collect();
    let their_set: BTreeSet<&MoveKey> = their_keys.keys().collect();
    assert_eq!(our_keys, their_set, "{} {fen}: legal moves differ", R::NAME);
    for (k, paths) in &their_keys {
        assert_eq!(&ours[k], paths, "{} {fen}: paths of {k:?} differ", R::NAME);
    }
    assert_eq!(
        movegen::count(&pos, damiera::Duplicates::Keep),
        their_count,
        "{} {fen}: keep count",
        R::NAME
    );
    tally.positions += 1;
    tally.moves += ours.len();
}

/// The captured squares of a path, in the order they are taken.
fn captured_in_order<R: Rules>(pos: &Position<R>, from: Square, path: &[Square]) -> Vec<Square> {
    let (fx, fy) = notation::file_rank::<R>(from);
    let mut cur = (fx as i32, fy as i32);
    let mut out = Vec::new();
    for &l in path {
        let (lx, ly) = notation::file_rank::<R>(l);
        let (dx, dy) = ((lx as i32 - cur.0).signum(), (ly as i32 - cur.1).signum());
        let mut p = (cur.0 + dx, cur.1 + dy);
        while p != (lx as i32, ly as i32) {
            if let Some(s) = notation::from_file_rank::<R>(p.0 as u8, p.1 as u8) {
                if pos.occupied().contains(s) {
                    out.push(s);
                }
            }
            p = (p.0 + dx, p.1 + dy);
        }
        cur = (lx as i32, ly as i32);
    }
    out
}

/// The number of random games per variant: `$DAMIERA_DIFF_GAMES`, else 200.
fn diff_games() -> u32 {
    std::env::var("DAMIERA_DIFF_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(200)
}

/// walk.py's random games of two variants with `args`, and pydraughts' perft 4 of each start,
/// all four run at once: `([walk a, walk b], [perft a, perft b])`.
fn walk_pair(
    python: &Path,
    variants: [&str; 2],
    games: u32,
    args: &[&str],
) -> ([String; 2], [u64; 2]) {
    let perft_of = |v: &str| -> u64 {
        walk_with(python, v, 0, &["--perft", "4"])
            .trim()
            .parse()
            .expect("a perft count")
    };
    std::thread::scope(|s| {
        let walks = variants.map(|v| s.spawn(move || walk_with(python, v, games, args)));
        let perfts = variants.map(|v| s.spawn(move || perft_of(v)));
        (
            walks.map(|h| h.join().expect("walk")),
            perfts.map(|h| h.join().expect("perft")),
        )
    })
}

fn walk(python: &Path, variant: &str, games: u32) -> String {
    walk_with(python, variant, games, &[])
}

/// walk.py's output for `games` random games of `variant`, with `extra` arguments.
fn walk_with(python: &Path, variant: &str, games: u32, extra: &[&str]) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/walk.py");
    let out = Command::new(python)
        .arg(script)
        .args([
            "--variant",
            variant,
            "--games",
            &games.to_string(),
            "--seed",
            "1",
        ])
        .args(extra)
        .output()
        .expect("run walk.py");
    assert!(
        out.status.success(),
        "walk.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// pydraughts' line for one position (walk.py's `--fen`).
fn one_position(python: &Path, variant: &str, fen: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/walk.py");
    let out = Command::new(python)
        .arg(script)
        .args(["--variant", variant, "--fen", fen])
        .output()
        .expect("run walk.py");
    assert!(
        out.status.success(),
        "walk.py --fen {fen}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn rule_positions_match_pydraughts() {
    // The one-ply rule positions (see tests/rules.rs), where pydraughts
    // must agree except for the one documented Italian 6.9 deviation (the Alioto position).
    let python = python();
    let italian = [
        "W:W30:B27",
        "W:W24:B20,28",
        "W:WK24:B20,28",
        "W:W30:BK26",
        "W:W32:BK28",
        "W:W31:B12,20,28",
        "W:WK27:B5,6,13,15,21,23",
        "W:WK21,31:B10,18,27",
        "W:WK23,31:B19,26,27",
        "W:WK23:B19,K28",
        "W:WK30:B10,12,18,K20,K26,27",
        "W:WK30:B10,K12,K18,20,K26,K27",
        "W:WK22:B18,19,27",
        "W:WK31:B18,20,K27,K28",
        "W:W11:B6,7",
    ];
    let english = [
        "B:W26,27:B22",
        "W:W11:B6,7",
        "B:W14,15,23:B10,6",
        "W:W30:BK26",
        "W:WK6:B9,10,17,18",
    ];
    let flying = [
        "W:Wb6:Bc7,f6",
        "W:Wf6:Bc7,e7",
        "W:Wh6:Bg7,c5,d2",
        "W:Wa3,e3:Bb4,d6,f4",
        "W:WKa1:Bc3,f4",
        "W:WKa1:Bc3,f6",
        "W:Wc7:Bb6,d6,b4,d4",
        "W:WKc7:Bb6,d6,b4,d4",
        "W:Wb6:Bc7,e7",
        "W:Wc3:Bd4,f4,f2,d2",
        "W:WKh6:Bb6,b8,e7,f4,g7",
    ];
    let mut t = Tally::default();
    for fen in italian {
        check_line::<Italian>(
            one_position(&python, "italian", fen).trim_end_matches('\n'),
            &mut t,
        );
    }
    assert_eq!(t.deviations, 1, "exactly the Alioto position deviates");
    for fen in english {
        check_line::<English>(
            one_position(&python, "english", fen).trim_end_matches('\n'),
            &mut t,
        );
    }
    for fen in flying {
        check_line::<Russian>(
            one_position(&python, "russian", fen).trim_end_matches('\n'),
            &mut t,
        );
        check_line::<Brazilian>(
            one_position(&python, "brazilian", fen).trim_end_matches('\n'),
            &mut t,
        );
    }
    assert_eq!(t.deviations, 1);
}

fn check_variant<R: Rules>(text: &str) -> Tally {
    let mut tally = Tally::default();
    for line in text.lines() {
        check_line::<R>(line, &mut tally);
    }
    tally
}

#[test]
fn random_games_match_pydraughts() {
    let python = python();
    let games = diff_games();
    let variants = ["english", "italian", "russian", "brazilian"];
    let outputs: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = variants
            .iter()
            .map(|v| s.spawn(|| walk(&python, v, games)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("walk thread"))
            .collect()
    });
    for (v, text) in variants.iter().zip(&outputs) {
        let t = match *v {
            "english" => check_variant::<English>(text),
            "italian" => check_variant::<Italian>(text),
            "russian" => check_variant::<Russian>(text),
            _ => check_variant::<Brazilian>(text),
        };
        eprintln!(
            "{v}: {games} games, {} positions, {} legal moves agree; {} known pydraughts deviations (Italian 6.9)",
            t.positions, t.moves, t.deviations
        );
        assert!(t.positions > games as usize, "{v}: too few positions");
    }
}

#[test]
fn random_international_games_match_pydraughts() {
    let python = python();
    let games = diff_games();
    let text = walk(&python, "international", games);
    let t = check_variant::<International>(&text);
    eprintln!(
        "international: {games} games, {} positions, {} legal moves agree",
        t.positions, t.moves
    );
    assert_eq!(t.deviations, 0, "no known deviation in International");
    assert!(
        t.positions > games as usize,
        "international: too few positions"
    );
}

/// Asserts that our outcome at `at` names the winner pydraughts' `verdict` (`W` or `B`) names.
fn assert_same_winner<R: Rules>(at: &str, verdict: &str, ours: Option<Outcome>) {
    let winner = if verdict == "W" {
        Color::White
    } else {
        Color::Black
    };
    assert!(
        matches!(ours, Some(Outcome::Win(c, _)) if c == winner),
        "{} {at}: pydraughts says {verdict} won, we say {ours:?}",
        R::NAME
    );
}

/// A walk.py `--verdict` line of Antidraughts or Breakthrough: where pydraughts' game goes on
/// (`-`) the legal moves agree ([`check_line`]) and our rules see no end either; where
/// pydraughts declares a winner, our rules declare the same one ([`outcome`]: in Antidraughts
/// the side to move without a move, in Breakthrough the side with a king). A draw (`D`, only
/// Antidraughts' threefold repetition) needs the game's history, which a line does not carry.
/// Returns the number of decided positions checked.
fn check_verdict_line<R: Rules>(line: &str, tally: &mut Tally) -> usize {
    let (rest, verdict) = line.rsplit_once('\t').expect("a verdict column");
    let (fen, _) = rest.split_once('\t').expect("line has a tab");
    let pos = notation::parse_fen::<R>(fen)
        .unwrap_or_else(|e| panic!("{}: pydraughts FEN {fen}: {e}", R::NAME));
    let ours = outcome::<R>(&pos, &[]);
    match verdict {
        "-" => {
            check_line::<R>(rest, tally);
            assert_eq!(ours, None, "{} {fen}: pydraughts plays on", R::NAME);
            0
        }
        "W" | "B" => {
            assert_same_winner::<R>(fen, verdict, ours);
            assert!(
                !<R as Play>::has_moves(&pos),
                "{} {fen}: the game is over",
                R::NAME
            );
            1
        }
        _ => 0,
    }
}

/// Antidraughts and Breakthrough (lidraughts' rules, docs/rules.md) against pydraughts 0.6.7's
/// `antidraughts` and `breakthrough`: random games position by position, legal moves and the
/// end of each game ([`check_verdict_line`]); and the perft of the start to depth 4, counted
/// by pydraughts in this test.
#[test]
fn antidraughts_and_breakthrough_match_pydraughts() {
    let python = python();
    let games = diff_games() / 2;
    let ([anti, bt], [anti_perft, bt_perft]) = walk_pair(
        &python,
        ["antidraughts", "breakthrough"],
        games,
        &["--verdict"],
    );
    // pydraughts lists every capture path (duplicates kept).
    let keep = damiera::Duplicates::Keep;
    assert_eq!(
        damiera::core::perft::perft::<Antidraughts>(&<Antidraughts as Play>::start(), 4, keep),
        anti_perft,
        "antidraughts perft 4"
    );
    assert_eq!(
        damiera::core::perft::perft::<Breakthrough>(&<Breakthrough as Play>::start(), 4, keep),
        bt_perft,
        "breakthrough perft 4"
    );
    for (name, text, decided_min) in [("antidraughts", &anti, 0), ("breakthrough", &bt, 1)] {
        let mut t = Tally::default();
        let mut decided = 0;
        for line in text.lines() {
            decided += if name == "antidraughts" {
                check_verdict_line::<Antidraughts>(line, &mut t)
            } else {
                check_verdict_line::<Breakthrough>(line, &mut t)
            };
        }
        eprintln!(
            "{name}: {games} games, {} positions, {} legal moves agree, {decided} ends agree",
            t.positions, t.moves
        );
        assert_eq!(t.deviations, 0);
        assert!(t.positions > games as usize, "{name}: too few positions");
        assert!(decided >= decided_min, "{name}: no decided game");
    }
}

/// The counts of a replayed Frisian walk ([`check_replayed`]).
#[derive(Default, Debug)]
struct Replay {
    /// Games whose end pydraughts and damiera both name (a win or a draw).
    ended: usize,
    /// Of those, draws (2 kings against 1, 1 against 1).
    drawn: usize,
    /// Positions where a king of the side to move was held by the king-move limit.
    held: usize,
    /// Positions where a capture with a king was preferred by value or by the king rule.
    king_captures: usize,
}

/// walk.py's `--verdict --played` lines of Frisian or Frysk!, replayed: the first line of each
/// game is read from its FEN, every later one is the position after the move played, which
/// carries the king-move counts pydraughts derives from the history. At each position the
/// pieces must be pydraughts', the legal moves equal ([`check_moves`]) and the end of the
/// game agree (pydraughts' verdict `W`, `B`, `D` or `-`).
fn check_replayed<R: Rules>(text: &str, tally: &mut Tally) -> Replay {
    let mut r = Replay::default();
    let mut pos: Option<Position<R>> = None;
    for line in text.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 4, "{}: walk.py line {line}", R::NAME);
        let (fen, moves, verdict, played) = (cols[0], cols[1], cols[2], cols[3]);
        let p = pos.unwrap_or_else(|| {
            notation::parse_fen::<R>(fen)
                .unwrap_or_else(|e| panic!("{}: pydraughts FEN {fen}: {e}", R::NAME))
        });
        let ours = notation::fen(&p);
        let pieces = ours.split(":+").next().unwrap_or_default();
        assert_eq!(pieces, fen, "{}: replayed position", R::NAME);
        if p.frozen_kings(p.side()).any() {
            r.held += 1;
        }
        let mut list = MoveList::new();
        movegen::generate(&p, &mut list);
        if list
            .iter()
            .any(|m| m.is_capture() && p.kings().contains(m.from))
        {
            r.king_captures += 1;
        }
        let verdict_ours = outcome::<R>(&p, &[]);
        match verdict {
            "-" => {
                check_moves(&p, fen, moves, tally);
                assert_eq!(
                    verdict_ours,
                    None,
                    "{} {ours}: pydraughts plays on",
                    R::NAME
                );
            }
            "W" | "B" => {
                assert_same_winner::<R>(&ours, verdict, verdict_ours);
                r.ended += 1;
            }
            "D" => {
                assert!(
                    matches!(verdict_ours, Some(Outcome::Draw(_))),
                    "{} {ours}: pydraughts says drawn, we say {verdict_ours:?}",
                    R::NAME
                );
                r.ended += 1;
                r.drawn += 1;
            }
            other => panic!("{}: verdict {other}", R::NAME),
        }
        pos = if played.is_empty() {
            None
        } else {
            let m = parse_pd_move(played);
            let name = notation::square_name::<R>;
            let key = key_of(&m.path[0], m.path.last().unwrap(), &m.captured);
            let mv = list
                .iter()
                .find(|o| {
                    let caps: Vec<String> = o.captured.iter().map(name).collect();
                    key_of(&name(o.from), &name(o.to), &caps) == key
                })
                .unwrap_or_else(|| panic!("{} {ours}: played move {played} is not ours", R::NAME));
            Some(p.make(mv))
        };
    }
    r
}

/// Frisian and Frysk! (the Frisian federation's rules as lidraughts plays them, docs/rules.md)
/// against pydraughts 0.6.7's `frisian` and `frysk!`: random games replayed move by move
/// ([`check_replayed`]), and the perft of both starts to depth 4 counted by pydraughts in this
/// test (Frisian's is DCTL's too, tests/perft/frisian.perft).
#[test]
fn frisian_and_frysk_match_pydraughts() {
    let python = python();
    let games = diff_games() / 2;
    // Kings move in three of four positions where they can, so that one king makes moves in a
    // row and the limit holds it.
    let args = [
        "--verdict",
        "--played",
        "--max-plies",
        "300",
        "--king-bias",
        "0.75",
    ];
    let ([frisian, frysk], [frisian_perft, frysk_perft]) =
        walk_pair(&python, ["frisian", "frysk"], games, &args);
    let keep = damiera::Duplicates::Keep;
    assert_eq!(
        damiera::core::perft::perft::<Frisian>(&<Frisian as Play>::start(), 4, keep),
        frisian_perft,
        "frisian perft 4"
    );
    assert_eq!(
        damiera::core::perft::perft::<Frysk>(&<Frysk as Play>::start(), 4, keep),
        frysk_perft,
        "frysk perft 4"
    );
    for (name, text) in [("frisian", &frisian), ("frysk", &frysk)] {
        let mut t = Tally::default();
        let r = if name == "frisian" {
            check_replayed::<Frisian>(text, &mut t)
        } else {
            check_replayed::<Frysk>(text, &mut t)
        };
        eprintln!(
            "{name}: {games} games, {} positions, {} legal moves agree, {r:?}",
            t.positions, t.moves
        );
        assert!(t.positions > games as usize, "{name}: too few positions");
        assert!(r.ended > 0, "{name}: no game ended by the rules");
        assert!(r.held > 0, "{name}: the king-move limit never held a king");
    }
}

/// Where pydraughts and the rules' source disagree, shown: the king's value in Frisian's
/// capture rule. lidraughts counts a king 199 against a man's 100 (DCTL: 2 - 1/C), so three
/// kings (597) outweigh five men; pydraughts 0.6.7 counts a king 1.501 and takes the five men.
/// damiera follows lidraughts (docs/rules.md, "Frisian"), whose rule the issue names.
#[test]
fn frisian_king_value_follows_lidraughts_not_pydraughts() {
    let python = python();
    let fen = "W:W46,50:BK36,K16,K7,40,20,14,29,38";
    let line = one_position(&python, "frisian", fen);
    let (_, theirs) = line.trim_end().split_once('\t').expect("a line");
    assert_eq!(
        theirs, "50x30x10x19x39x37:40,20,14,29,38",
        "pydraughts takes the men"
    );
    let pos = notation::parse_fen::<Frisian>(fen).unwrap();
    let mut list = MoveList::new();
    movegen::generate(&pos, &mut list);
    let names: Vec<String> = list.iter().map(|m| notation::move_name(&pos, m)).collect();
    assert_eq!(names, ["46x26x6x8"], "damiera takes the three kings");
}
