//! Endgame databases (docs/egdb.md): index counts against published and independently computed
//! figures, tiny builds checked against reference win/draw/loss counts and by `verify` for
//! every variant, known results with their sources, and refusal of bad files.

use damiera::core::bitboard::Bitboard;
use damiera::core::geometry::{Board10, Board8, Geometry};
use damiera::core::moves::MoveList;
use damiera::core::notation::fen::parse_fen;
use damiera::core::rules::{Antidraughts, Frisian, Frysk};
use damiera::egdb::build::{build, build_one, build_unit, position, units, BuildOptions};
use damiera::egdb::file::{self, file_name};
use damiera::egdb::index::{binomial, Indexer};
use damiera::egdb::material::{canonical, flip_board, Material};
use damiera::egdb::verify::verify;
use damiera::egdb::{decode, variant_dir, Egdb, Probe, ProbeCache, Wld};
use damiera::{Brazilian, Color, Duplicates, English, International, Italian, Play, Position};
use damiera::{Rules, Russian, Variant};

mod egdb_common;
use egdb_common::{build_all, value_of};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

/// Every material with `n` pieces, one side possibly empty (as the published counts have).
fn materials(n: u8) -> Vec<Material> {
    let mut v = Vec::new();
    for wm in 0..=n {
        for wk in 0..=n - wm {
            for bm in 0..=n - wm - wk {
                v.push(Material::new(wm, wk, bm, n - wm - wk - bm));
            }
        }
    }
    v
}

fn indexed<G: Geometry>(n: u8) -> u64 {
    materials(n)
        .into_iter()
        .map(|m| Indexer::new::<G>(m).size())
        .sum()
}

/// Schaeffer et al., "Checkers Is Solved", Science 317 (2007), Table 1 (piece configurations,
/// side to move not counted; reproduced by M. VandeWettering, brainwagon.org, 2008-04-25).
#[test]
fn english_counts_equal_schaeffers_table() {
    let published = [
        120u64,
        6_972,
        261_224,
        7_092_774,
        148_688_232,
        2_503_611_964,
    ];
    for (n, &want) in (1..=6).zip(published.iter()) {
        assert_eq!(indexed::<Board8>(n), want, "{n} pieces");
    }
}

/// brainwagon.org, "Checker Endgames with only Kings" (2007-05-05).
#[test]
fn kings_only_counts_equal_brainwagons() {
    for (wk, bk, want) in [
        (1, 1, 992u64),
        (2, 1, 14_880),
        (2, 2, 215_760),
        (3, 1, 143_840),
        (3, 2, 2_013_760),
        (3, 3, 18_123_840),
        (4, 1, 1_006_880),
    ] {
        assert_eq!(
            Indexer::new::<Board8>(Material::new(0, wk, 0, bk)).size(),
            want
        );
    }
}

/// The placements of a material counted another way: every set of White's men enumerated
/// square by square, then Black's men among the squares they may use and left free, then the
/// kings among the rest.
fn brute_count<G: Geometry>(m: Material) -> u64 {
    let white_men: Vec<u64> = (G::ALL & !G::TOP_ROW)
        .into_iter()
        .map(|s| 1u64 << s.0)
        .collect();
    let s = G::SQUARES as u32;
    let (wm, bm) = (m.wm as u32, m.bm as u32);
    let kings =
        binomial(s - wm - bm, m.wk as u32) * binomial(s - wm - bm - m.wk as u32, m.bk as u32);
    fn sets(from: &[u64], k: u32, acc: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for (i, &b) in from.iter().enumerate() {
            sets(&from[i + 1..], k - 1, acc | b, out);
        }
    }
    let mut all = Vec::new();
    sets(&white_men, wm, 0, &mut all);
    let black_allowed = G::ALL & !G::BOTTOM_ROW;
    all.iter()
        .map(|&w| binomial((black_allowed & !Bitboard(w)).count(), bm) * kings)
        .sum()
}

#[test]
fn every_board_counts_equal_an_independent_count() {
    for n in 1..=4u8 {
        for m in materials(n) {
            assert_eq!(
                Indexer::new::<Board8>(m).size(),
                brute_count::<Board8>(m),
                "{m}"
            );
            assert_eq!(
                Indexer::new::<Board10>(m).size(),
                brute_count::<Board10>(m),
                "{m}"
            );
        }
    }
    // Totals for docs/egdb.md (10x10: 50 squares, 45 for a man).
    assert_eq!(indexed::<Board10>(1), 190);
}

#[test]
fn index_round_trips_on_both_boards() {
    fn check<G: Geometry>(m: Material) {
        let ix = Indexer::new::<G>(m);
        let step = (ix.size() / 5000).max(1);
        for i in (0..ix.size()).step_by(step as usize) {
            assert_eq!(ix.rank(&ix.unrank(i)), i, "{m}");
        }
    }
    for m in [
        Material::new(2, 1, 1, 1),
        Material::new(3, 0, 2, 0),
        Material::new(0, 3, 0, 2),
    ] {
        check::<Board8>(m);
        check::<Board10>(m);
    }
}

/// The colour flip the tables rely on: a position with Black to move has the same moves, up to
/// the flip, as the flipped position with White to move (every position of the 3-piece tables).
#[test]
fn rules_are_symmetric_under_the_colour_flip() {
    fn check<R: Rules>() {
        for m in Material::all(3) {
            let ix = Indexer::new::<R::Board>(m);
            for i in 0..ix.size() {
                let p: Position<R> = position(&ix.unrank(i));
                let f = flip_board::<R::Board>;
                let q = Position::<R>::from_parts(
                    f(p.pieces(Color::Black)),
                    f(p.pieces(Color::White)),
                    f(p.kings()),
                    Color::Black,
                );
                let succ = |x: &Position<R>| {
                    let mut l = MoveList::new();
                    <R as Play>::generate(x, &mut l, Duplicates::Drop);
                    l.iter()
                        .map(|mv| {
                            let c = canonical(&x.make(mv));
                            (
                                c.pieces(Color::White).0,
                                c.pieces(Color::Black).0,
                                c.kings().0,
                            )
                        })
                        .collect::<BTreeSet<_>>()
                };
                assert_eq!(succ(&p), succ(&q), "{} {m} #{i}", R::NAME);
            }
        }
    }
    check::<English>();
    check::<Italian>();
    check::<Brazilian>();
    check::<Russian>();
    check::<International>();
    check::<Antidraughts>();
    check::<Frisian>();
}

fn counts(dir: &Path, v: Variant, m: Material) -> (u64, u64, u64) {
    let f = file::read(dir, v, m).expect("table");
    let (mut w, mut d, mut l) = (0, 0, 0);
    for e in f.all_entries().expect("entries") {
        match decode(e).value {
            Wld::Win => w += 1,
            Wld::Draw => d += 1,
            Wld::Loss => l += 1,
        }
    }
    (w, d, l)
}

/// English kings only, side to move first: /work/shared/reference/egdb.md, from an independent
/// retrograde solver in plain Python with its own move generator (no draw counter).
#[test]
fn english_kings_only_values_equal_the_reference_solver() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = variant_dir(tmp.path(), Variant::English);
    fs::create_dir_all(&dir).expect("dir");
    // Only the kings-only units: their conversions are captures into kings-only tables.
    for u in units::<English>(4) {
        if u.iter().all(|m| m.wm + m.bm == 0) {
            build_unit::<English>(&dir, &u, 2, &mut |_| {}).expect("unit");
        }
    }
    for (wk, bk, want) in [
        (1, 1, (230, 654, 108)),
        (2, 1, (14_846, 34, 0)),
        (1, 2, (412, 1_450, 13_018)),
        (2, 2, (58_361, 153_456, 3_943)),
    ] {
        assert_eq!(
            counts(&dir, Variant::English, Material::new(0, wk, 0, bk)),
            want,
            "{wk}v{bk}"
        );
    }
}

/// Builds only the kings-only units up to `pieces` (their conversions are captures into
/// kings-only tables), into `<root>/<variant>/`.
fn build_kings<R: Rules>(root: &Path, pieces: u32, skip: &[Material]) {
    let dir = variant_dir(root, R::VARIANT);
    fs::create_dir_all(&dir).expect("dir");
    for u in units::<R>(pieces) {
        if u.iter().all(|m| m.wm + m.bm == 0) && !u.iter().any(|m| skip.contains(m)) {
            build_unit::<R>(&dir, &u, 2, &mut |_| {}).expect("unit");
        }
    }
}

/// Russian draughts: three kings against one win by Petrov's triangle (A. D. Petrov's method,
/// the standard one of Russian endgame theory) unless the lone king holds the long diagonal
/// a1-h8 (the "bolshak"), which draws; the Russian rules give this ending 15 moves, which the
/// triangle needs. Values here ignore the counters; the distance is checked against them.
#[test]
fn russian_three_kings_against_one_on_and_off_the_long_diagonal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_kings::<Russian>(tmp.path(), 4, &[Material::new(0, 2, 0, 2)]);
    let v = |f| value_of::<Russian>(tmp.path(), f);
    assert_eq!(v("W:WKc1,Ke1,Kg1:BKa1").value, Wld::Draw);
    let off = v("W:WKa3,Kc1,Ke1:BKh2");
    assert_eq!(off.value, Wld::Win);
    // Within the 15 moves (30 plies) the rules allow for this ending.
    assert!(off.distance.expect("distance") <= 30, "{off:?}");
    // With Black to move the lone king reaches the diagonal (h2-e5) and draws.
    assert_eq!(v("B:WKa3,Kc1,Ke1:BKh2").value, Wld::Draw);
}

/// International draughts: three kings cannot beat one king that holds the long diagonal
/// 46-5, a classical result of the endgame theory (FMJD rule 6.3 separately limits three kings
/// against one to 16 moves); the database confirms it and this keeps it as a regression check.
#[test]
fn international_three_kings_cannot_beat_the_long_diagonal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_kings::<International>(tmp.path(), 4, &[Material::new(0, 2, 0, 2)]);
    assert_eq!(
        value_of::<International>(tmp.path(), "W:WK1,K2,K3:BK46").value,
        Wld::Draw
    );
    assert_eq!(
        value_of::<International>(tmp.path(), "B:WK1,K2,K3:BK46").value,
        Wld::Draw
    );
    // Hoyle's Games, Improved and Enlarged (London, 19th c.), "Polish Draughts", p. 410: the
    // lone White king on 46, Black kings on 13, 16 and 27, White to move. Going to the other
    // end of the great line (5) or to 10 or 14 loses ("the adversary, by sacrificing two of
    // his queens, would capture her afterwards"); 41, 37, 28 and 23 keep the draw.
    let v = |f: &str| value_of::<International>(tmp.path(), f).value;
    assert_eq!(v("W:WK46:BK13,K16,K27"), Wld::Draw);
    for to in [5, 10, 14] {
        assert_eq!(v(&format!("B:WK{to}:BK13,K16,K27")), Wld::Win, "46-{to}");
    }
    for to in [41, 37, 28, 23] {
        assert_eq!(v(&format!("B:WK{to}:BK13,K16,K27")), Wld::Draw, "46-{to}");
    }
    // Ibid.: with the great line held by the three kings there are coups; the first (kings 46,
    // 37, 27 against 11) and the second (19, 27, 37 against 11) win by "sacrificing two at 22".
    for fen in ["W:WK46,K37,K27:BK11", "W:WK19,K27,K37:BK11"] {
        assert_eq!(v(fen), Wld::Win, "{fen}");
        let pos: Position<International> = parse_fen(fen).unwrap();
        let mut list = MoveList::new();
        International::generate(&pos, &mut list, Duplicates::Drop);
        let to_22: Vec<_> = list
            .iter()
            .filter(|mv| damiera::core::notation::moves::move_name(&pos, mv).ends_with("-22"))
            .map(|mv| International::make(&pos, mv))
            .collect();
        assert!(!to_22.is_empty(), "{fen}: a king goes to 22");
        assert!(
            to_22.iter().any(|after| {
                let after = damiera::core::notation::fen::fen(after);
                v(&after) == Wld::Loss
            }),
            "{fen}: a move to 22 wins"
        );
    }
}

fn verify_clean<R: Rules>(root: &Path, pieces: u32) {
    build_all::<R>(root, pieces);
    let r = verify::<R>(root, pieces, 2, |_, _, _| {}).expect("verify");
    assert_eq!(r.errors, 0, "{}: {:?}", R::NAME, r.examples);
    let want: u64 = Material::all_of::<R>(pieces)
        .iter()
        .map(|&m| Indexer::new::<R::Board>(m).size())
        .sum();
    assert_eq!(r.positions, want);
}

#[test]
fn verify_passes_on_every_variant() {
    let tmp = tempfile::tempdir().expect("tempdir");
    verify_clean::<English>(tmp.path(), 4);
    verify_clean::<Italian>(tmp.path(), 3);
    verify_clean::<Brazilian>(tmp.path(), 3);
    verify_clean::<Russian>(tmp.path(), 3);
    verify_clean::<International>(tmp.path(), 3);
    verify_clean::<Antidraughts>(tmp.path(), 3);
    verify_clean::<Frisian>(tmp.path(), 4);
}

/// Antidraughts (lidraughts; docs/rules.md): the side to move without a legal move has won,
/// and capturing the opponent's last piece hands it that win. Squares by FMJD numbering.
#[test]
fn antidraughts_tables_count_a_side_without_moves_as_the_winner() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<Antidraughts>(tmp.path(), 2);
    let v = |f| value_of::<Antidraughts>(tmp.path(), f);
    // White's man on 6 (a9) has only 1 (b10) ahead, held by Black, and no square to jump to:
    // no legal move, a win now (a loss in every other variant).
    assert_eq!(
        v("W:W6:B1"),
        Probe {
            value: Wld::Win,
            distance: Some(0)
        }
    );
    // 28 (e5) and 23 (f6) touch: the side to move must capture (28x19 or 23x32) and leaves
    // the other without pieces, who wins. A loss in one ply for either side to move.
    for fen in ["W:W28:B23", "B:W28:B23"] {
        assert_eq!(
            v(fen),
            Probe {
                value: Wld::Loss,
                distance: Some(1)
            },
            "{fen}"
        );
    }
}

/// Frisian and Frysk! databases hold kings only (Material::covered): a side with men and kings
/// counts its king's moves (DFS rule 7), which the index does not hold.
#[test]
fn frisian_tables_hold_kings_only_and_refuse_men() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<Frisian>(tmp.path(), 3);
    let names = table_files(&variant_dir(tmp.path(), Variant::Frisian));
    let want: BTreeSet<String> = ["w1k-b1k", "w1k-b2k", "w2k-b1k"]
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(names, want);
    let err = build_one::<Frisian>(tmp.path(), Material::new(1, 0, 0, 1), 1).unwrap_err();
    assert!(err.to_string().contains("kings only"), "{err}");
}

/// Frysk! plays Frisian's rules from another start, so it reads and writes Frisian's kings-only
/// tables (one copy, in `frisian/`): after a Frisian build, Frysk!'s build keeps every table
/// and writes none, Frysk! positions probe as the same Frisian positions, and a table of
/// another variant in that directory is still refused.
#[test]
fn frysk_reads_frisian_tables() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<Frisian>(tmp.path(), 3);
    let dir = variant_dir(tmp.path(), Variant::Frisian);
    assert_eq!(variant_dir(tmp.path(), Variant::Frysk), dir);
    let before = table_files(&dir);
    let opts = BuildOptions {
        root: tmp.path().to_path_buf(),
        pieces: 3,
        threads: 1,
    };
    let report = build::<Frysk>(&opts, &mut |_| {}).expect("frysk build");
    assert!(report.built.is_empty(), "{:?}", report.built);
    assert_eq!(report.kept, before.len());
    assert_eq!(table_files(&dir), before);
    let entries = fs::read_dir(tmp.path()).expect("root").count();
    assert_eq!(entries, 1, "one directory under the root");

    let frisian = Egdb::open(tmp.path(), Variant::Frisian, 3).expect("open frisian");
    let frysk = Egdb::open(tmp.path(), Variant::Frysk, 3).expect("open frysk");
    let ix = Indexer::new::<Board10>(Material::new(0, 2, 0, 1));
    let mut decided = 0;
    for i in (0..ix.size()).step_by(97) {
        let placed: Position<Frisian> = position(&ix.unrank(i));
        let (white, black, kings) = (
            placed.pieces(Color::White),
            placed.pieces(Color::Black),
            placed.kings(),
        );
        for side in [Color::White, Color::Black] {
            let p = frisian.lookup(&Position::<Frisian>::from_parts(white, black, kings, side));
            let q = frysk.lookup(&Position::<Frysk>::from_parts(white, black, kings, side));
            assert_eq!(q, p, "{i} {side:?}");
            decided += matches!(
                p,
                Some(Probe {
                    value: Wld::Win | Wld::Loss,
                    ..
                })
            ) as usize;
        }
    }
    assert!(
        decided > 0,
        "some two-kings-against-one positions are decided"
    );

    // The directory's tables are Frisian's: read as International's, the header refuses them.
    let err = file::read(&dir, Variant::International, Material::new(0, 1, 0, 1)).unwrap_err();
    assert!(err.to_string().contains("a table of frisian"), "{err}");
}

#[test]
fn probes_a_quiet_position_and_declines_captures() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<English>(tmp.path(), 3);
    let db = Egdb::open(tmp.path(), Variant::English, 3).expect("open");
    assert_eq!(db.max_pieces(), 3);
    fn shareable<T: Send + Sync>(_: &T) {}
    shareable(&db);
    let pos: Position<English> = parse_fen("W:WK1,K2:BK32").expect("fen");
    let p = db.probe(&pos).expect("covered");
    assert_eq!(p.value, Wld::Win);
    assert!(p.distance.is_some());
    // The same position with Black to move: the lone king loses.
    let pos: Position<English> = parse_fen("B:WK1,K2:BK32").expect("fen");
    assert_eq!(db.probe(&pos).map(|p| p.value), Some(Wld::Loss));
    // A capture for the side to move: probe declines, lookup answers.
    let pos: Position<English> = parse_fen("B:WK6,K2:BK10").expect("fen");
    assert!(db.probe(&pos).is_none());
    assert!(db.lookup(&pos).is_some());
    // Not covered: 4 pieces.
    let pos: Position<English> = parse_fen("W:WK1,K2,K3:BK32").expect("fen");
    assert!(db.probe(&pos).is_none());
    // A tiny cache (one block a shard) still answers every probe the same.
    let small = Egdb::open_with_cache(tmp.path(), Variant::English, 3, 1).expect("open");
    let ix = Indexer::new::<Board8>(Material::new(1, 1, 1, 0));
    for i in (0..ix.size()).step_by(7) {
        let pos: Position<English> = position(&ix.unrank(i));
        assert_eq!(small.lookup(&pos), db.lookup(&pos));
    }
}

/// A thread's probe cache answers as the tables do: the decided values, and "not decided" for a
/// capture pending, cached; a second pass is answered from the cache.
#[test]
fn probe_cache_answers_as_the_tables_do() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<English>(tmp.path(), 3);
    let db = Egdb::open(tmp.path(), Variant::English, 3).expect("open");
    // Two kings against a man: 13,888 placements, each with either side to move.
    let ix = Indexer::new::<Board8>(Material::new(0, 2, 1, 0));
    let mut positions: Vec<Position<English>> = Vec::new();
    for i in 0..ix.size() {
        let pos: Position<English> = position(&ix.unrank(i));
        positions.push(pos);
        positions.push(Position::from_parts(
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pos.kings(),
            Color::Black,
        ));
    }
    let declined = positions.iter().filter(|p| db.probe(*p).is_none()).count();
    assert!(declined > 0, "some positions have a capture pending");
    let mut cache = ProbeCache::allocated();
    for pass in 0..2 {
        let mut probed = 0;
        for pos in &positions {
            let got = cache.get_or(pos.key(), || {
                probed += 1;
                db.probe(pos)
            });
            assert_eq!(got, db.probe(pos), "pass {pass}");
        }
        if pass == 0 {
            assert_eq!(probed, positions.len());
        } else {
            // Direct-mapped: a key whose slot another key shares misses again. For n keys
            // uniformly in m slots that is a share of 1 - e^(-n/m) of the keys: 3% here.
            assert!(
                probed * 3 < positions.len(),
                "{probed} misses of {}",
                positions.len()
            );
        }
    }
    let mut none = ProbeCache::empty();
    let mut probed = 0;
    for pos in &positions[..100] {
        none.get_or(pos.key(), || {
            probed += 1;
            db.probe(pos)
        });
    }
    assert_eq!(probed, 100);
}

#[test]
fn bad_files_are_refused_with_one_line_naming_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    build_all::<English>(tmp.path(), 3);
    let dir = variant_dir(tmp.path(), Variant::English);
    let m = Material::new(0, 2, 0, 1);
    let path = dir.join(file_name(m));
    let good = fs::read(&path).expect("file");
    let refused = |why: &str| {
        let e = Egdb::open(tmp.path(), Variant::English, 3).expect_err("refused");
        let s = e.to_string();
        assert!(!s.contains('\n'), "{s}");
        assert!(s.contains(&file_name(m)) && s.contains(why), "{s}");
    };
    fs::write(&path, &good[..good.len() - 10]).expect("write");
    refused("truncated");
    fs::write(&path, &good[..20]).expect("write");
    refused("truncated");
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    fs::write(&path, &bad).expect("write");
    refused("checksum");
    // Another table's file under this name.
    fs::copy(dir.join(file_name(m.swapped())), &path).expect("copy");
    refused("holds table");
    // Another variant's file.
    build_all::<Italian>(tmp.path(), 3);
    fs::copy(
        variant_dir(tmp.path(), Variant::Italian).join(file_name(m)),
        &path,
    )
    .expect("copy");
    refused("italian");
    fs::remove_file(&path).expect("remove");
    refused("missing");
    // A build resumes: it rebuilds the missing table and keeps the others.
    let opts = BuildOptions {
        root: tmp.path().to_path_buf(),
        pieces: 3,
        threads: 2,
    };
    // Its progress: the one unit left, every one of its positions through the forward pass.
    let mut last = (0, 0, 0, 0);
    let r = build::<English>(&opts, &mut |p| {
        assert!(p.positions <= p.total);
        last = (p.unit, p.units, p.positions, p.total);
    })
    .expect("build");
    assert_eq!(r.built.len(), 2);
    assert_eq!(last, (1, 1, r.positions, r.positions));
    assert_eq!(fs::read(&path).expect("file"), good);
    assert!(Egdb::open(tmp.path(), Variant::English, 3).is_ok());
}

#[test]
fn cli_probe_prints_value_distance_and_moves() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path().to_str().expect("utf-8");
    let bin = || assert_cmd::Command::cargo_bin("damiera").expect("binary");
    bin()
        .args(["egdb", "build", "-v", "english", "-p", "3", "--dir", d])
        .assert()
        .success();
    let out = bin()
        .args([
            "egdb",
            "probe",
            "-v",
            "english",
            "--dir",
            d,
            "-f",
            "W:WK1,K2:BK32",
        ])
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("value: win\ndistance: "), "{text}");
    assert!(text.contains(" best"), "{text}");
    let out = bin()
        .args([
            "egdb",
            "probe",
            "-v",
            "english",
            "--dir",
            d,
            "-f",
            "W:WK1,K2,K3:BK32",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: ") && err.contains("missing") && err.lines().count() == 1,
        "{err}"
    );
    let out = bin()
        .args(["egdb", "verify", "-v", "english", "-p", "3", "--dir", d])
        .output()
        .expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("all consistent"));
    let out = bin()
        .args(["egdb", "info", "-v", "damone", "-p", "3", "--dir", d])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

/// The `.egdb` files in `dir`, by name.
fn table_files(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir)
        .expect("the variant's directory")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".egdb").map(str::to_string))
        .collect()
}

/// `egdb info` and `egdb verify` without `--pieces` cover every table file in the variant's
/// directory (issue 77), those beyond a `--pieces` too; with it, the tables up to it.
#[test]
fn cli_info_and_verify_without_pieces_cover_every_table_present() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = tmp.path().to_str().expect("utf-8");
    let bin = || assert_cmd::Command::cargo_bin("damiera").expect("binary");
    let run = |args: &[&str]| {
        let out = bin().args(args).args(["--dir", d]).output().expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // No directory, then a directory without tables: one line each, exit status 2.
    for cmd in ["info", "verify"] {
        let (code, _, err) = run(&["egdb", cmd, "-v", "english"]);
        assert_eq!(code, Some(2), "{cmd}: {err}");
        assert!(
            err.starts_with("error: ") && err.lines().count() == 1 && err.contains("english"),
            "{cmd}: {err}"
        );
    }
    let dir = variant_dir(tmp.path(), Variant::English);
    fs::create_dir_all(&dir).expect("mkdir");
    fs::write(dir.join("notes.txt"), "not a table").expect("write");
    for cmd in ["info", "verify"] {
        let (code, _, err) = run(&["egdb", cmd, "-v", "english"]);
        assert_eq!(code, Some(2), "{cmd}: {err}");
        assert!(
            err.contains("no tables") && err.lines().count() == 1,
            "{cmd}: {err}"
        );
    }
    // Every table of 2 and 3 pieces, then one unit of 4 (two tables) on top.
    let (code, out, err) = run(&["egdb", "build", "-v", "english", "-p", "3"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let three = table_files(&dir).len();
    let (code, out, err) = run(&["egdb", "build-unit", "-v", "english", "--unit", "w3k-b1k"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let files = table_files(&dir);
    assert_eq!(files.len(), three + 2, "{files:?}");
    assert_eq!(three, Material::all(3).len());

    // info: a row a table (between the header and the totals), the same names as the files.
    let rows = |out: &str| -> BTreeSet<String> {
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("table positions"), "{out}");
        assert!(lines.last().unwrap().starts_with("total "), "{out}");
        lines[1..lines.len() - 1]
            .iter()
            .map(|l| l.split(' ').next().unwrap().to_string())
            .collect()
    };
    let (code, out, err) = run(&["egdb", "info", "-v", "english"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(rows(&out), files);
    assert_eq!(out.lines().count(), files.len() + 2, "{out}");
    let (code, out, err) = run(&["egdb", "info", "-v", "english", "-p", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(rows(&out).len(), three);
    assert!(!rows(&out).contains("w3k-b1k"), "{out}");

    // verify: a line a table and the count in the summary.
    let (code, out, err) = run(&["egdb", "verify", "-v", "english", "--threads", "2"]);
    assert_eq!(code, Some(0), "{out}{err}");
    let checked: BTreeSet<String> = out
        .lines()
        .filter(|l| l.ends_with(" inconsistent") && !l.starts_with("verified"))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(checked, files, "{out}");
    assert!(
        out.contains(&format!("verified {} tables", files.len())) && out.contains("all consistent"),
        "{out}"
    );
    let (code, out, _) = run(&[
        "egdb",
        "verify",
        "-v",
        "english",
        "-p",
        "3",
        "--threads",
        "2",
    ]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains(&format!("verified {three} tables")), "{out}");

    // A table whose dependency is gone: verify without --pieces names the missing file.
    fs::remove_file(dir.join("w2k-b1k.egdb")).expect("rm");
    let (code, _, err) = run(&["egdb", "verify", "-v", "english", "--threads", "2"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("w2k-b1k.egdb") && err.lines().count() == 1,
        "{err}"
    );
}

/// The premise of the counter ruling (docs/egdb.md): every conversion, a capture by a man or a
/// king or a promotion, resets each variant's no-progress counter, so a distance to conversion
/// within the plies the counter still allows is a win under the counter too.
#[test]
fn every_conversion_resets_the_no_progress_counter() {
    fn check<R: Rules>() {
        assert!(R::resets_draw_counter(false, true, false), "{}", R::NAME);
        assert!(R::resets_draw_counter(true, true, false), "{}", R::NAME);
        assert!(R::resets_draw_counter(true, false, true), "{}", R::NAME);
        assert!(R::resets_draw_counter(true, true, true), "{}", R::NAME);
        // A king move that converts nothing does not: the counter runs while the DTC runs.
        assert!(!R::resets_draw_counter(false, false, false), "{}", R::NAME);
    }
    check::<English>();
    check::<Italian>();
    check::<Brazilian>();
    check::<Russian>();
    check::<International>();
}
