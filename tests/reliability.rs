//! Bad input and hostile conditions, through the real binary: every one answered with a
//! one-line error in the protocol's form (or handled as documented), no panic, no hang, the
//! position kept (docs/protocol.md, "Errors and limits").

mod engine_io;

use engine_io::{EngineProcess, HANG};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn damiera() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_damiera"));
    c.env_remove("RUST_LOG");
    c
}

// ---------------------------------------------------------------------------------------------
// shell tools

#[test]
fn analyse_with_a_hash_beyond_memory_is_a_one_line_error() {
    for hash in ["100000000000", "18446744073709551615"] {
        let out = damiera()
            .args(["analyse", "-v", "english", "-d", "3", "--hash", hash])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--hash {hash}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --hash"), "{err}");
        assert!(out.stdout.is_empty());
    }
}

/// Starts `args` with piped stdout and stderr, reads one line of stdout, closes it, and checks
/// that the process ends by itself, quietly (no panic message, no status 101).
fn ends_quietly_when_its_reader_goes_away(args: &[&str]) {
    let mut child = damiera()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(!first.is_empty(), "{args:?} printed nothing");
    drop(stdout);
    let mut stderr = child.stderr.take().unwrap();
    let deadline = Instant::now() + HANG * 3;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} went on after its reader went away");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    stderr.read_to_string(&mut err).unwrap();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_ne!(status.code(), Some(101), "{args:?}: {err}");
}

#[test]
fn shell_tools_end_quietly_on_a_closed_pipe() {
    // Each prints a first line at once, then a lot more (or for a long time).
    ends_quietly_when_its_reader_goes_away(&["analyse", "-v", "english", "-d", "40"]);
    ends_quietly_when_its_reader_goes_away(&["bench", "-d", "14"]);
    ends_quietly_when_its_reader_goes_away(&["perft", "-v", "russian", "-d", "13", "--divide"]);
}

// ---------------------------------------------------------------------------------------------
// the native protocol

fn engine() -> EngineProcess {
    EngineProcess::spawn()
}

#[test]
fn perft_runs_like_a_search_isready_answers_and_stop_interrupts() {
    let mut e = engine();
    // English perft 20 from the start takes days.
    e.send("perft 20");
    let lines = e.ask("d");
    assert!(lines.iter().any(|l| l.starts_with("Fen: B:")), "{lines:?}");
    assert!(e.sync().is_empty());
    e.send("stop");
    let stopped = e.until("info string perft stopped");
    assert!(
        stopped.iter().all(|l| !l.starts_with("Nodes")),
        "{stopped:?}"
    );
    // Then perft and search work as before.
    let lines = e.ask_until("perft 3", "Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 302");
    // A new command stops a running perft too: `go` ends it and searches.
    e.send("perft 20");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string perft stopped")));
    // quit ends a running perft and the process.
    e.send("perft 20");
    e.send("quit");
    let status = e.wait_exit(HANG).expect("quit ends perft and the process");
    assert!(status.success());
}

#[test]
fn perft_to_the_end_of_input_finishes() {
    // `echo "perft 6" | damiera`: the count is what was asked for.
    let out = damiera()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"perft 6\n")?;
            c.wait_with_output()
        })
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    // English start, depth 6: 36,768 (OEIS A133046).
    assert_eq!(text.lines().last(), Some("Nodes searched: 36768"), "{text}");
}

#[test]
fn go_infinite_without_a_legal_move_waits_for_stop() {
    let mut e = engine();
    // White's man on 5 is blocked by 1 and 9/10 can't be jumped (English: 1 is Black's).
    assert!(e.ask("position fen W:W5:B1,9,10").is_empty());
    e.send("go infinite");
    e.silent_for(Duration::from_millis(300));
    assert!(e.sync().is_empty(), "isready during the wait");
    e.send("stop");
    assert_eq!(e.until("bestmove"), ["bestmove (none)"]);
    // ponder waits the same way.
    e.send("go ponder");
    e.silent_for(Duration::from_millis(200));
    e.send("ponderhit");
    assert_eq!(e.until("bestmove"), ["bestmove (none)"]);
}

#[test]
fn huge_clock_values_still_give_a_bestmove() {
    let mut e = engine();
    let max = u64::MAX;
    for go in [
        format!("go wtime {max} btime {max} winc {max} binc {max} depth 3"),
        format!("go wtime {max} btime {max} movestogo 1 depth 3"),
        format!("go movetime {max} depth 3"),
        "go wtime 0 btime 0 winc 0 binc 0".to_string(),
        "go wtime 1 btime 1 movestogo 1000000".to_string(),
    ] {
        e.send(&go);
        let lines = e.until("bestmove");
        assert!(
            lines.last().unwrap().starts_with("bestmove "),
            "{go}: {lines:?}"
        );
    }
    // A huge clock without a depth: the search runs, and stop answers.
    e.send(&format!("go wtime {max} btime {max} winc {max} binc {max}"));
    e.silent_for_bestmove(Duration::from_millis(200));
    e.send("stop");
    e.until("bestmove");
}

#[test]
fn an_overlong_line_is_an_error_and_the_position_is_kept() {
    let mut e = engine();
    assert!(e.ask("position startpos moves 11-15").is_empty());
    let fen = e.fen();
    // 2 MiB of `position` (over the 1 MiB line limit).
    let long = format!("position startpos moves {}", "11-15 ".repeat(350_000));
    let lines = e.ask(&long);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("info string error: line of ") && lines[0].contains("bytes"),
        "{lines:?}"
    );
    assert_eq!(e.fen(), fen);
}

#[test]
fn thousands_of_reversible_moves_are_accepted_and_searched() {
    let mut e = engine();
    // Two kings shuffling: 10,000 plies, far beyond any repetition or no-progress limit.
    let shuffle = "1-5 32-28 5-1 28-32 ".repeat(2_500);
    assert!(e.ask("position fen W:WK1,30:BK32,3").is_empty());
    let start = e.fen();
    let lines = e.ask(&format!("position fen W:WK1,30:BK32,3 moves {shuffle}"));
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(e.fen(), start);
    e.send("go depth 12");
    let lines = e.until("bestmove");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
}

/// Peak resident memory of a process (Linux `VmHWM`), in KiB.
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Memory the system can still give, in MiB (`MemAvailable`).
#[cfg(target_os = "linux")]
fn available_mib() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap();
    let line = info
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        / 1024
}

#[cfg(target_os = "linux")]
#[test]
fn memory_stays_within_the_hash_through_option_changes() {
    // Issue: resident memory <= Hash + 32 MiB through any sequence of option changes.
    const HASH: u64 = 256;
    let mut e = engine();
    assert!(e
        .ask(&format!("setoption name Hash value {HASH}"))
        .is_empty());
    // After each change a search of a million nodes writes all over the table, so that every
    // table made is resident.
    for cmd in [
        "ucinewgame",
        "setoption name Variant value italian",
        "setoption name Threads value 2",
        "setoption name Variant value russian",
        "setoption name Hash value 128",
        "setoption name Hash value 256",
        "ucinewgame",
        "setoption name Variant value damone",
        "setoption name DamoneWin value damones",
        "setoption name Variant value english",
        "setoption name EvalFile value hand",
        "setoption name EvalFile value <empty>",
        "ucinewgame",
    ] {
        let lines = e.ask(cmd);
        assert!(lines.is_empty(), "{cmd}: {lines:?}");
        e.send("go nodes 1000000");
        e.until("bestmove");
    }
    let peak_mib = peak_rss_kib(e.pid()) / 1024;
    assert!(peak_mib <= HASH + 32, "peak resident {peak_mib} MiB");
    // A table beyond the machine's memory is refused at once, and the engine goes on.
    let too_much = available_mib() + 1024;
    if too_much <= 65536 {
        let lines = e.ask(&format!("setoption name Hash value {too_much}"));
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string error:"), "{lines:?}");
        assert!(lines[0].contains("memory"), "{lines:?}");
        e.send("go depth 6");
        e.until("bestmove");
        assert!(peak_rss_kib(e.pid()) / 1024 <= HASH + 32);
    }
}
