//! Italian Damone perft, three ways that must agree:
//! 1. damiera's bulk-counting perft (the shared runner `perft_table::check` over
//!    `damiera::core::perft::perft`, bitboards, [`damone::movegen::count`] at the last ply);
//! 2. generate-and-make: every move generated and made down to the leaves, no bulk counting;
//! 3. `mailbox`, an independent slow generator written for this test from the rules (rules.md
//!    §D, rulings §I 1-5): an 8x8 array of cells, its own FEN parser and square names, a
//!    recursive capture search, the precedence key as a tuple. It uses nothing of damiera.
//!
//! The table is `tests/perft/damone.perft`: the start position (perft.md §3.6, itself from an
//! independent slow reference implementation) and three middle-game positions whose counts
//! were computed by damiera and by `mailbox` here and agree. A random-walk test also compares
//! the legal move sets (from, to, captured squares, promotion) position by position.

use damiera::core::damone::{self, notation, Damone, Position};
use damiera::core::movegen::Duplicates;
use damiera::{MoveList, Notation, Play};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

mod perft_table;

/// The independent mailbox generator. Coordinates are `(file, rank)`, 0-based, a1 = (0, 0).
mod mailbox {
    /// A piece: its color and rank (0 Pedine, 1 Dama, 2 Damone).
    #[derive(Copy, Clone, PartialEq, Eq, Debug)]
    pub struct Piece {
        pub white: bool,
        pub rank: u8,
    }

    /// A position: `cells[rank][file]`, and the side to move.
    #[derive(Clone, Debug)]
    pub struct Board {
        pub cells: [[Option<Piece>; 8]; 8],
        pub white_to_move: bool,
    }

    /// A move: start square, landing squares, captured squares in order, promotion.
    #[derive(Clone, Debug)]
    pub struct Mv {
        pub from: (i32, i32),
        pub path: Vec<(i32, i32)>,
        pub captured: Vec<(i32, i32)>,
        pub promotes: bool,
    }

    impl Mv {
        pub fn to(&self) -> (i32, i32) {
            *self.path.last().unwrap()
        }
        /// The move as a comparable text: `from:to:captured squares sorted:promotes`.
        pub fn identity(&self) -> String {
            let mut caps: Vec<String> = self.captured.iter().map(|&s| name(s)).collect();
            caps.sort();
            format!(
                "{}:{}:{}:{}",
                name(self.from),
                name(self.to()),
                caps.join(","),
                self.promotes
            )
        }
    }

    /// The Italian board: h1 dark, a1 light.
    pub fn dark(sq: (i32, i32)) -> bool {
        (sq.0 + sq.1) % 2 == 1
    }

    fn on_board(sq: (i32, i32)) -> bool {
        (0..8).contains(&sq.0) && (0..8).contains(&sq.1)
    }

    pub fn name(sq: (i32, i32)) -> String {
        format!("{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1)
    }

    pub fn parse_square(s: &str) -> (i32, i32) {
        let b = s.as_bytes();
        let sq = ((b[0] - b'a') as i32, s[1..].parse::<i32>().unwrap() - 1);
        assert!(on_board(sq) && dark(sq), "bad square {s}");
        sq
    }

    /// `W:W<list>:B<list>`, `K` Dama, `I` Damone.
    pub fn parse_fen(fen: &str) -> Board {
        let mut b = Board {
            cells: [[None; 8]; 8],
            white_to_move: fen.starts_with('W'),
        };
        for field in fen.split(':').skip(1) {
            let white = field.starts_with('W');
            for item in field[1..].split(',').filter(|s| !s.is_empty()) {
                let (rank, sq) = match &item[..1] {
                    "K" => (1, &item[1..]),
                    "I" => (2, &item[1..]),
                    _ => (0, item),
                };
                let (f, r) = parse_square(sq);
                b.cells[r as usize][f as usize] = Some(Piece { white, rank });
            }
        }
        b
    }

    fn at(b: &Board, sq: (i32, i32)) -> Option<Piece> {
        b.cells[sq.1 as usize][sq.0 as usize]
    }

    /// Directions: a Pedine forward (toward the enemy Damone corner) and sideways; a Dama or
    /// Damone all four.
    fn directions(p: Piece) -> Vec<(i32, i32)> {
        match (p.rank, p.white) {
            (0, true) => vec![(-1, 1), (1, 1), (-1, -1)],
            (0, false) => vec![(1, -1), (1, 1), (-1, -1)],
            _ => vec![(-1, 1), (1, 1), (-1, -1), (1, -1)],
        }
    }

    /// Whether `p` goes up a rank on `sq`: a Pedine on the enemy Damas' start squares, a Dama
    /// on the enemy Damone's start corner.
    fn promotes_on(p: Piece, sq: (i32, i32)) -> bool {
        let squares: &[&str] = match (p.rank, p.white) {
            (0, true) => &["a6", "c8"],
            (0, false) => &["f1", "h3"],
            (1, true) => &["a8"],
            (1, false) => &["h1"],
            _ => &[],
        };
        squares.iter().any(|s| parse_square(s) == sq)
    }

    /// Every capture sequence of the piece `p` (already lifted from `from` in `b`).
    fn jumps(
        b: &Board,
        p: Piece,
        from: (i32, i32),
        cur: (i32, i32),
        path: &mut Vec<(i32, i32)>,
        captured: &mut Vec<(i32, i32)>,
        out: &mut Vec<Mv>,
    ) {
        let mut any = false;
        for (df, dr) in directions(p) {
            let over = (cur.0 + df, cur.1 + dr);
            let land = (cur.0 + 2 * df, cur.1 + 2 * dr);
            if !on_board(land) {
                continue;
            }
            let Some(q) = at(b, over) else { continue };
            // Enemy, of equal or lower rank, not taken yet; the landing square empty (captured
            // pieces are still on the board).
            if q.white == p.white || q.rank > p.rank || captured.contains(&over) {
                continue;
            }
            if at(b, land).is_some() {
                continue;
            }
            any = true;
            path.push(land);
            captured.push(over);
            if promotes_on(p, land) {
                // A promotion by capture ends the move (ruling I.2).
                out.push(Mv {
                    from,
                    path: path.clone(),
                    captured: captured.clone(),
                    promotes: true,
                });
            } else {
                jumps(b, p, from, land, path, captured, out);
            }
            path.pop();
            captured.pop();
        }
        if !any && !captured.is_empty() {
            out.push(Mv {
                from,
                path: path.clone(),
                captured: captured.clone(),
                promotes: false,
            });
        }
    }

    /// Precedence (ruling I.3): pieces, capturing rank, Damones taken, Damas taken.
    fn precedence(b: &Board, m: &Mv) -> (usize, u8, usize, usize) {
        let rank = at(b, m.from).unwrap().rank;
        let taken = |r: u8| {
            m.captured
                .iter()
                .filter(|&&s| at(b, s).unwrap().rank == r)
                .count()
        };
        (m.captured.len(), rank, taken(2), taken(1))
    }

    /// The legal moves; `keep` lists a capture once per path, otherwise once.
    pub fn legal_moves(b: &Board, keep: bool) -> Vec<Mv> {
        let mut caps = Vec::new();
        let mut quiet = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let Some(p) = b.cells[r as usize][f as usize] else {
                    continue;
                };
                if p.white != b.white_to_move {
                    continue;
                }
                let mut lifted = b.clone();
                lifted.cells[r as usize][f as usize] = None;
                jumps(
                    &lifted,
                    p,
                    (f, r),
                    (f, r),
                    &mut Vec::new(),
                    &mut Vec::new(),
                    &mut caps,
                );
                for (df, dr) in directions(p) {
                    let to = (f + df, r + dr);
                    if on_board(to) && at(b, to).is_none() {
                        quiet.push(Mv {
                            from: (f, r),
                            path: vec![to],
                            captured: vec![],
                            promotes: promotes_on(p, to),
                        });
                    }
                }
            }
        }
        if caps.is_empty() {
            return quiet;
        }
        let best = caps.iter().map(|m| precedence(b, m)).max().unwrap();
        caps.retain(|m| precedence(b, m) == best);
        if !keep {
            let mut seen = std::collections::HashSet::new();
            caps.retain(|m| seen.insert(m.identity()));
        }
        caps
    }

    pub fn make(b: &Board, m: &Mv) -> Board {
        let mut n = b.clone();
        let mut p = at(b, m.from).unwrap();
        for &(f, r) in &m.captured {
            n.cells[r as usize][f as usize] = None;
        }
        n.cells[m.from.1 as usize][m.from.0 as usize] = None;
        if m.promotes {
            p.rank += 1;
        }
        let to = m.to();
        n.cells[to.1 as usize][to.0 as usize] = Some(p);
        n.white_to_move = !b.white_to_move;
        n
    }

    pub fn perft(b: &Board, depth: u32, keep: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        legal_moves(b, keep)
            .iter()
            .map(|m| perft(&make(b, m), depth - 1, keep))
            .sum()
    }
}

/// perft by generating and making every move down to the leaves (no bulk counting).
fn perft_generate_make(pos: &Position, depth: u32, dups: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    Damone::generate(pos, &mut list, dups);
    list.iter()
        .map(|m| perft_generate_make(&Damone::make(pos, m), depth - 1, dups))
        .sum()
}

const TABLE: &str = include_str!("perft/damone.perft");

/// Checks every case with `min < leaves <= max` by bulk perft and generate-and-make, and
/// those with `leaves <= mailbox_max` also by the mailbox generator.
fn check(min: u64, max: u64, mailbox_max: u64) {
    let ran = perft_table::check::<Damone>(TABLE, min, max, |c, pos| {
        let what = format!("{} {:?} depth {}", c.id, c.dups, c.depth);
        assert_eq!(
            perft_generate_make(pos, c.depth, c.dups),
            c.leaves,
            "generate-make {what}"
        );
        if c.leaves <= mailbox_max {
            let b = mailbox::parse_fen(&c.fen);
            let keep = c.dups == Duplicates::Keep;
            assert_eq!(
                mailbox::perft(&b, c.depth, keep),
                c.leaves,
                "mailbox {what}"
            );
        }
    });
    assert!(ran > 0);
}

#[test]
fn damone_perft_shallow() {
    check(0, 5_000_000, 500_000);
}

#[test]
#[ignore = "deep perft with the slow mailbox generator: minutes; cargo test --release -- --ignored"]
fn damone_perft_deep() {
    check(0, u64::MAX, 50_000_000);
}

/// The legal moves of damiera as mailbox identities, sorted.
fn damiera_moves(pos: &Position, dups: Duplicates) -> Vec<String> {
    let mut list = MoveList::new();
    Damone::generate(pos, &mut list, dups);
    let mut v: Vec<String> = list
        .iter()
        .map(|m| {
            let mut caps: Vec<String> = m.captured.iter().map(notation::square_name).collect();
            caps.sort();
            format!(
                "{}:{}:{}:{}",
                notation::square_name(m.from),
                notation::square_name(m.to),
                caps.join(","),
                m.promotes
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn damone_random_walks_match_mailbox() {
    let mut rng = StdRng::seed_from_u64(0xda30e);
    let mut positions = 0;
    for _ in 0..300 {
        let mut pos = Damone::start();
        for _ in 0..150 {
            let fen = Damone::fen(&pos);
            let b = mailbox::parse_fen(&fen);
            for (dups, keep) in [(Duplicates::Drop, false), (Duplicates::Keep, true)] {
                let mut theirs: Vec<String> = mailbox::legal_moves(&b, keep)
                    .iter()
                    .map(mailbox::Mv::identity)
                    .collect();
                theirs.sort();
                assert_eq!(damiera_moves(&pos, dups), theirs, "{fen} {dups:?}");
                assert_eq!(Damone::count(&pos, dups), theirs.len() as u64, "{fen}");
            }
            positions += 1;
            let mut list = MoveList::new();
            Damone::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            pos = Damone::make(&pos, &list[rng.gen_range(0..list.len())]);
        }
    }
    assert!(positions > 10_000, "{positions}");
}

#[test]
fn damone_mailbox_start_moves() {
    // The mailbox itself gives perft.md §3.6's eight first moves.
    let b = mailbox::parse_fen(damone::START_FEN);
    let mut names: Vec<String> = mailbox::legal_moves(&b, false)
        .iter()
        .map(|m| format!("{}-{}", mailbox::name(m.from), mailbox::name(m.to())))
        .collect();
    names.sort();
    let mut want = vec![
        "h1-g2", "f1-g2", "h3-g2", "d1-c2", "e2-d3", "f3-e4", "g4-f5", "h5-g6",
    ];
    want.sort();
    assert_eq!(names, want);
}
