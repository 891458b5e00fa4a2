//! The pieces a distributed job is cut into (docs/cluster.md) add up to the whole, through the
//! real binary: `perft --split K` lists positions whose perft(depth - K) sum to the published
//! perft(depth) (tests/perft/*.perft); `egdb units` is a dependency order in which
//! `egdb build-unit` writes the files `egdb build` writes, byte for byte, and refuses a unit
//! whose dependencies are missing; `match --pairs` shares played apart and reported together
//! with `--report-only` are the games and the report of one match. Bad values are one-line
//! errors with exit status 2.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");
const OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/openings/english-3move.txt"
);

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The one stderr line of a refused command (exit status 2).
fn refused(args: &[&str]) -> String {
    let out = run(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    err.trim_end().to_string()
}

/// `drop D N` of the start position in `tests/perft/<variant>.perft` (published tables).
fn published(variant: &str, depth: u32) -> u64 {
    let path = format!("{}/tests/perft/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).expect("perft table");
    let start = text.split("id start").nth(1).expect("start position");
    let block = start.split("\nid ").next().unwrap_or(start);
    block
        .lines()
        .find_map(|l| {
            let mut w = l.split_whitespace();
            (w.next() == Some("drop") && w.next() == Some(&depth.to_string()))
                .then(|| w.next().and_then(|n| n.parse().ok()))
                .flatten()
        })
        .unwrap_or_else(|| panic!("no drop {depth} for {variant}"))
}

fn nodes(out: &str) -> u64 {
    out.lines()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {out}"))
}

#[test]
fn perft_split_positions_sum_to_the_published_count() {
    for (variant, depth, k) in [
        ("english", 7, 2),
        ("russian", 6, 3),
        ("international", 5, 2),
    ] {
        let d = depth.to_string();
        let fens = ok(&["perft", "-v", variant, "-d", &d, "--split", &k.to_string()]);
        let rest = (depth - k).to_string();
        let sum: u64 = fens
            .lines()
            .map(|fen| nodes(&ok(&["perft", "-v", variant, "--fen", fen, "-d", &rest])))
            .sum();
        assert_eq!(sum, published(variant, depth), "{variant} depth {depth}");
        // Once per path: as many positions as perft(k) counts.
        assert_eq!(
            fens.lines().count() as u64,
            published(variant, k),
            "{variant}"
        );
    }
    let e = refused(&["perft", "-v", "english", "-d", "3", "--split", "4"]);
    assert_eq!(e, "error: --split 4: at most --depth (3)");
}

/// `damiera egdb build-unit` of a Russian unit into `dir`.
fn build_unit<'a>(unit: &'a str, dir: &'a str) -> [&'a str; 8] {
    [
        "egdb",
        "build-unit",
        "-v",
        "russian",
        "--unit",
        unit,
        "--dir",
        dir,
    ]
}

/// A fresh directory under `tmp` for one more build.
fn p_other(tmp: &tempfile::TempDir) -> String {
    tmp.path().join("other").to_string_lossy().into_owned()
}

fn files(dir: &Path) -> HashMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| {
            let e = e.expect("entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("file"),
            )
        })
        .collect()
}

#[test]
fn egdb_units_built_one_by_one_are_the_whole_build() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (whole, apart) = (tmp.path().join("whole"), tmp.path().join("apart"));
    let (whole_s, apart_s) = (
        whole.to_str().expect("utf-8"),
        apart.to_str().expect("utf-8"),
    );
    ok(&[
        "egdb", "build", "-v", "russian", "-p", "3", "--dir", whole_s,
    ]);
    let graph = ok(&["egdb", "units", "-v", "russian", "-p", "3"]);
    let mut seen: Vec<String> = Vec::new();
    let mut total = 0u64;
    for line in graph.lines() {
        let mut cols = line.split('\t');
        let (unit, deps) = (
            cols.next().expect("unit"),
            cols.next().expect("dependencies"),
        );
        let positions: u64 = cols.next().and_then(|n| n.parse().ok()).expect("positions");
        total += positions;
        for d in deps.split_whitespace() {
            assert!(
                seen.iter().any(|s| s == d),
                "{unit} needs {d}, not built yet"
            );
        }
        let out = ok(&[&build_unit(unit, apart_s)[..], &["--threads", "1"]].concat());
        assert!(out.contains(&format!("unit {unit} built")), "{out}");
        seen.push(unit.to_string());
    }
    assert_eq!(seen.len(), 9);
    // The positions `build` reports for the same tables.
    let built = ok(&[
        "egdb",
        "build",
        "-v",
        "russian",
        "-p",
        "3",
        "--dir",
        &p_other(&tmp),
    ]);
    assert!(
        built.contains(&format!("({total} positions,")),
        "{built} vs {total}"
    );
    let (a, b) = (files(&whole.join("russian")), files(&apart.join("russian")));
    assert_eq!(a.len(), 16);
    assert_eq!(a, b);
    // Again: kept, not rebuilt.
    let out = ok(&build_unit("w1m-b1m", apart_s));
    assert!(out.contains("unit w1m-b1m kept"), "{out}");
    // A unit before its dependencies, and bad names.
    let empty = tmp.path().join("empty");
    let e = refused(&build_unit("w1m-b1m", empty.to_str().expect("utf-8")));
    assert!(
        e.starts_with("error: unit w1m-b1m: the table w1k-b1m it depends on is not in"),
        "{e}"
    );
    let e = refused(&["egdb", "build-unit", "-v", "russian", "--unit", "w1q-b1k"]);
    assert!(e.starts_with("error: --unit w1q-b1k: "), "{e}");
}

/// The games of a PDN without their date and time tags.
fn games(pdn: &str) -> Vec<String> {
    let kept: Vec<&str> = pdn
        .lines()
        .filter(|l| !l.starts_with("[Date") && !l.starts_with("[Time"))
        .collect();
    kept.join("\n")
        .split("[Event")
        .map(|g| g.trim().to_string())
        .filter(|g| !g.is_empty())
        .collect()
}

#[test]
fn match_pairs_played_apart_are_the_whole_match() {
    let tmp = tempfile::tempdir().expect("tmp");
    let p = |n: &str| tmp.path().join(n).to_string_lossy().into_owned();
    let base = [
        "match",
        "-v",
        "english",
        "--engine",
        BIN,
        "--name",
        "a",
        "--option",
        "Hash=8",
        "--engine",
        BIN,
        "--name",
        "b",
        "--option",
        "Hash=2",
        "--openings",
        OPENINGS,
        "--games",
        "10",
        "--depth",
        "3",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };
    let run_with = |extra: &[&str]| {
        let args = with(extra);
        ok(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let whole = run_with(&["--pdn", &p("whole.pdn")]);
    run_with(&["--pairs", "3..5", "--pdn", &p("b.pdn")]);
    run_with(&["--pairs", "0..3", "--pdn", &p("a.pdn")]);
    let read = |n: &str| std::fs::read_to_string(p(n)).expect("pdn");
    assert_eq!(games(&read("a.pdn")).len(), 6);
    assert_eq!(games(&read("b.pdn")).len(), 4);
    std::fs::write(p("joined.pdn"), read("a.pdn") + &read("b.pdn")).expect("write");
    assert_eq!(games(&read("joined.pdn")), games(&read("whole.pdn")));
    let report = run_with(&["--pdn", &p("joined.pdn"), "--report-only"]);
    let pick = |r: &str| -> Vec<String> {
        r.lines()
            .filter(|l| {
                ["Games:", "Results", "Pentanomial", "Elo:", "Endings"]
                    .iter()
                    .any(|k| l.starts_with(k))
            })
            .map(String::from)
            .collect()
    };
    assert_eq!(pick(&report).len(), 5, "{report}");
    assert_eq!(pick(&report), pick(&whole));
    // The same totals as JSON, with the SPRT's state.
    let json = run_with(&[
        "--pdn",
        &p("joined.pdn"),
        "--report-only",
        "--json",
        "--sprt",
        "0,10",
    ]);
    let wdl = whole
        .lines()
        .find_map(|l| l.strip_prefix("Results (a first): "))
        .expect("results line");
    let n: Vec<&str> = wdl.split_whitespace().collect(); // W w D d L l
    let expected = format!(
        "{{\"games\":10,\"of\":10,\"w\":{},\"d\":{},\"l\":{},",
        n[1], n[3], n[5]
    );
    assert!(json.starts_with(&expected), "{json}");
    assert!(
        json.trim_end().ends_with("\"sprt\":\"continue\"}"),
        "{json}"
    );
    // Nothing is played by --report-only, and the file is left as it was.
    assert_eq!(games(&read("joined.pdn")).len(), 10);
    let bad = with(&["--pairs", "5..2"]);
    let e = refused(&bad.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        e,
        "error: --pairs '5..2': expected FIRST..END, e.g. 0..10 (END excluded)"
    );
    let bad = with(&["--pdn", &p("none.pdn"), "--report-only"]);
    let e = refused(&bad.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.starts_with("error: --report-only: no file "), "{e}");
}
