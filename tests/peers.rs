//! Real peers, through the real binary (issue "Real peers"): `damiera match` against Hub
//! engines that behave on the wire as Scan 3.1 and Scan 2.0 do (`tests/peers/fake_hub.py`,
//! scripted from `../shared/reference/protocols.md` §8, playing real moves through `damiera
//! hub` behind them), an engine's stderr kept with its failure, a timed-out engine ended with
//! its whole process group; and the shell tool's words, limits and output handling.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_damiera");

fn fake_cmd(mode: &str) -> String {
    let script: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "peers", "fake_hub.py"]
        .iter()
        .collect();
    format!("python3 {} {mode}", script.display())
}

fn openings(name: &str) -> String {
    format!("{}/data/openings/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn damiera(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("DAMIERA", BIN)
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The value after `prefix` on the report line starting with it.
fn field<'a>(report: &'a str, prefix: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no '{prefix}' in:\n{report}"))
}

/// Plays `games` International games of damiera against the fake in `mode` speaking
/// `protocol`, and checks they were complete games: every game counted, ended by the rules
/// (no crash, no answer, illegal move or forfeit), both engines moved, and the PDN replays in
/// damiera's own reader with the same results.
fn full_games_against(mode: &str, protocol: &str, limit: &[&str], games: usize) {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("games.pdn");
    let fake = fake_cmd(mode);
    let ops = openings("international-random.txt");
    let n = games.to_string();
    let mut args = vec![
        "match",
        "--variant",
        "international",
        "--engine",
        BIN,
        "--name",
        "damiera",
        "--engine",
        &fake,
        "--engine-protocol",
        protocol,
        "--name",
        mode,
        "--openings",
        &ops,
        "--games",
        &n,
        "--pdn",
        pdn.to_str().unwrap(),
    ];
    args.extend_from_slice(limit);
    let out = damiera(&args);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}\n{}", text(&out.stderr));
    assert_eq!(field(&report, "Games: "), format!("{games} of {games}"));
    let endings = field(&report, "Endings: ");
    for bad in [
        "crash",
        "no answer",
        "illegal move",
        "time forfeit",
        "max plies",
    ] {
        assert!(!endings.contains(bad), "{mode}: {endings}\n{report}");
    }
    let moves = field(&report, &format!("Time per move, {mode}: "));
    assert!(!moves.contains("(0 moves)"), "{moves}");
    // The PDN replays: `analyse --pdn` reads every game and its result.
    let check = damiera(&["analyse", "--pdn", pdn.to_str().unwrap(), "--depth", "1"]);
    assert!(
        check.status.success(),
        "{}\n{}",
        text(&check.stdout),
        text(&check.stderr)
    );
}

#[test]
fn scan31_variant_list_gets_normal_and_plays_full_games() {
    // Scan 3.1 announces `values="normal killer bt frisian losing"` and dies on any other
    // value: International must be sent as `normal`.
    full_games_against("scan31", "hub", &["--depth", "2"], 2);
}

#[test]
fn an_engine_without_a_variant_parameter_is_sent_none() {
    // The fake dies on any `set-param name=variant` when it announced none.
    full_games_against("novariant", "hub", &["--depth", "2"], 2);
}

#[test]
fn scan20_first_hub_dialect_plays_full_games() {
    // Hub 1 with the fixed-time form (`time MS`) and the depth form (`depth N`).
    full_games_against("hub1", "hub1", &["--movetime", "20"], 2);
    full_games_against("hub1", "hub1", &["--depth", "2"], 2);
}

/// Runs a 2-game match of `variant`, damiera against the fake in `mode` speaking `protocol`
/// (named `scan`, with `extra` arguments), which must fail before any game: returns its stderr
/// after checking the exit status 2 and that it is one line.
fn refused(variant: &str, mode: &str, protocol: &str, extra: &[&str]) -> String {
    let fake = fake_cmd(mode);
    let mut args = vec![
        "match",
        "--variant",
        variant,
        "--engine",
        BIN,
        "--engine",
        &fake,
        "--engine-protocol",
        protocol,
        "--name",
        "scan",
        "--random-openings",
        "1",
        "--games",
        "2",
        "--depth",
        "2",
    ];
    args.extend_from_slice(extra);
    let out = damiera(&args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn an_engine_that_cannot_play_the_variant_is_refused_in_one_line() {
    let err = refused("russian", "scan31", "hub", &[]);
    assert_eq!(
        err.trim(),
        format!(
            "error: engine 'scan' ({}): cannot play russian: its variants are normal killer bt frisian losing",
            fake_cmd("scan31")
        )
    );
    // Hub 1 is International only.
    let err = refused("english", "hub1", "hub1", &[]);
    assert!(
        err.contains("Hub 1") && err.contains("International only"),
        "{err}"
    );
}

#[test]
fn an_engines_stderr_is_shown_with_its_failure() {
    // A variant forced with --option replaces the automatic choice; Scan 3.1 rejects it on
    // stderr and exits 1: the match's error line carries that line.
    let err = refused(
        "international",
        "scan31",
        "hub",
        &["--option", "variant=international"],
    );
    assert!(err.starts_with("error: engine 'scan'"), "{err}");
    assert!(err.contains("exit status: 1"), "{err}");
    assert!(
        err.contains(r#"stderr: 'error: variant = "international"'"#),
        "{err}"
    );
}

/// Whether process `pid` is gone (or a zombie nobody has reaped yet: it runs no more).
fn process_gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[test]
fn a_timed_out_engine_is_ended_with_its_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("child.pid");
    let hang = format!("{} {}", fake_cmd("hang"), pidfile.display());
    let out = damiera(&[
        "match",
        "--variant",
        "international",
        "--engine",
        &hang,
        "--engine-protocol",
        "hub",
        "--name",
        "hang",
        "--engine",
        BIN,
        "--random-openings",
        "1",
        "--games",
        "2",
        "--movetime",
        "20",
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}{}", text(&out.stderr));
    assert!(
        field(&report, "Endings: ").contains("no answer"),
        "{report}"
    );
    // The wrapper's own child (its pid written by the last wrapper started) is gone too.
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    while !process_gone(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        process_gone(pid),
        "the hung engine's child {pid} still runs"
    );
}

#[test]
fn small_samples_print_no_interval() {
    let ops = openings("english-3move.txt");
    let out = damiera(&[
        "match",
        "--variant",
        "english",
        "--engine",
        BIN,
        "--engine",
        BIN,
        "--openings",
        &ops,
        "--games",
        "4",
        "--depth",
        "2",
    ]);
    let report = text(&out.stdout);
    assert!(out.status.success(), "{report}");
    let elo = field(&report, "Elo: ");
    assert!(!elo.contains('±'), "{elo}");
    assert!(elo.contains("no interval"), "{elo}");
    // Nor does the per-game progress line.
    assert!(!text(&out.stderr).contains("elo"), "{}", text(&out.stderr));
}

#[test]
fn help_and_errors_name_all_six_variants() {
    let help = text(&damiera(&["--help"]).stdout);
    for v in [
        "English",
        "Italian",
        "Brazilian",
        "Russian",
        "Damone",
        "International",
    ] {
        assert!(help.contains(v), "{v} missing from --help:\n{help}");
    }
    let out = damiera(&["perft", "--variant", "killer", "--depth", "1"]);
    let err = text(&out.stderr);
    for v in [
        "english",
        "italian",
        "brazilian",
        "russian",
        "damone",
        "international",
    ] {
        assert!(err.contains(v), "{v} missing from: {err}");
    }
}

#[test]
fn analyse_of_a_finished_game_says_so_in_words() {
    let out = damiera(&["analyse", "-v", "english", "--fen", "W:W:B1", "-d", "3"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("game over: Black wins: White has no legal move"),
        "{stdout}"
    );
    assert!(!stdout.contains("Win("), "{stdout}");
}

#[test]
fn hash_sizes_follow_one_rule() {
    // 1 to 65536 MiB everywhere: outside it a one-line error (exit 2) naming the range.
    for bad in ["0", "65537", "100000000000"] {
        let out = damiera(&["analyse", "-v", "english", "--hash", bad, "-d", "2"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--hash {bad}: {err}");
        assert_eq!(
            err.trim(),
            format!("error: --hash {bad}: a hash table is 1 to 65536 MiB")
        );
        assert!(!err.contains("using"), "--hash {bad}: {err}");
    }
    // In range but more than the machine has: refused, nothing "used".
    let out = damiera(&["analyse", "-v", "english", "--hash", "65536", "-d", "2"]);
    let err = text(&out.stderr);
    if out.status.code() == Some(2) {
        assert!(
            err.starts_with("error: --hash 65536: cannot allocate"),
            "{err}"
        );
        assert!(!err.contains("using"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    } else {
        // A machine with 64 GiB free takes it.
        assert!(out.status.success(), "{err}");
    }
    // The native protocol takes the same range.
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"setoption name Hash value 0\nsetoption name Hash value 65537\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines = text(&out.stdout);
    assert_eq!(
        lines
            .lines()
            .filter(|l| l.contains("from 1 to 65536"))
            .count(),
        2,
        "{lines}"
    );
}

#[test]
fn error_lines_quote_a_short_printable_prefix_of_the_input() {
    let mut child = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = Vec::new();
    input.extend(std::iter::repeat_n(b'z', 1 << 19));
    input.extend_from_slice(b"\x07\x1b[2J\n");
    input.extend_from_slice(b"position fen W:W21-32:B1-12 moves 11-15\x1b[31m\n");
    input.extend_from_slice(b"isready\nquit\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    let errors: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{stdout:.300}");
    for e in &errors {
        assert!(e.len() < 300, "{} bytes: {e:.300}", e.len());
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }
    assert!(errors[0].contains("'zzzz"), "{}", errors[0]);
    assert!(errors[0].contains("bytes)"), "{}", errors[0]);
    assert!(stdout.contains("readyok"), "the engine goes on");
}

/// Starts `damiera` (args), sends `setup`, reads stdout until a line starts with `first`,
/// then closes its stdout while keeping stdin open: the process must exit by itself.
fn exits_when_its_reader_goes(args: &[&str], setup: &str, first: &str) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(setup.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "no '{first}' line"
        );
        if line.starts_with(first) {
            break;
        }
    }
    drop(reader);
    let until = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if Instant::now() > until {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.is_none() {
        let _ = child.kill();
    }
    let mut err = String::new();
    let _ = child.stderr.take().unwrap().read_to_string(&mut err);
    assert!(
        status.is_some(),
        "{args:?}: still searching after its stdout closed"
    );
    assert!(err.contains("cannot write to stdout"), "{err}");
    drop(stdin);
}

#[test]
fn a_search_ends_when_its_output_is_gone() {
    exits_when_its_reader_goes(
        &[],
        "setoption name Variant value international\nposition startpos\ngo infinite\n",
        "info depth",
    );
    exits_when_its_reader_goes(
        &["hub"],
        "hub\ninit\npos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\nlevel infinite\ngo analyze\n",
        "info",
    );
}

/// Runs `damiera perft` through `script`, which gives it a terminal.
fn on_a_terminal(args: &str) -> String {
    let out = Command::new("script")
        .args(["-qec", &format!("{BIN} {args}"), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    text(&out.stdout)
}

#[test]
fn perft_shows_progress_on_a_terminal_and_lines_otherwise() {
    // A few seconds of counting: English perft(12) has 388,617,999 leaves
    // (tests/perft/english.perft, from DCTL and OEIS A133046).
    let args = ["perft", "-v", "english", "-d", "12"];
    let out = damiera(&args);
    assert!(text(&out.stdout).contains("Nodes searched: 388617999"));
    let err = text(&out.stderr);
    if !err.is_empty() {
        // Slow enough for progress: one line per root move, no bar.
        assert!(err.lines().all(|l| l.starts_with('[')), "{err}");
        assert!(!err.contains("leaves/s"), "{err}");
    }
    let tty = on_a_terminal(&args.join(" "));
    assert!(tty.contains("Nodes searched: 388617999"), "{tty}");
    assert!(
        tty.contains("root moves") && tty.contains("M leaves/s") && tty.contains("s left"),
        "{tty}"
    );
}
