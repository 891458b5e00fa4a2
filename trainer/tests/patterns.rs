//! `damiera-train patterns` end to end: self-play data (the library's `selfplay::run`, as
//! `damiera selfplay -v english --games 150 --depth 3 --seed 5 --eval-file hand` writes it),
//! a short fit that lowers the held-out loss, `--init`, and a one-line error.

use damiera::engine::search::Depth;
use damiera::tools::learn::selfplay::{self, SelfplayConfig};
use damiera::Variant;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

/// The self-play data of the root crate's tests/learn.rs (150 English games at depth 3, seed 5,
/// the hand-set evaluation) in `out`.
fn selfplay(out: &Path) {
    let cfg = SelfplayConfig {
        variant: Variant::English,
        games: 150,
        first_game: 0,
        depth: Depth(3),
        nodes: None,
        opening_plies: 8,
        seed: 5,
        concurrency: 2,
        hash_mib: 16,
        weights: None,
        max_plies: 300,
        out: out.to_str().unwrap().to_string(),
        progress: false,
    };
    selfplay::run(&cfg, &AtomicBool::new(false)).expect("self-play");
}

/// `damiera-train patterns ARGS -d DATA [--init INIT] -o OUT` (`args` space-separated).
fn train(args: &str, data: &Path, init: Option<&Path>, out: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_damiera-train"));
    cmd.arg("patterns")
        .args(args.split(' '))
        .arg("-d")
        .arg(data);
    if let Some(init) = init {
        cmd.arg("--init").arg(init);
    }
    cmd.arg("-o").arg(out).output().unwrap()
}

fn held_out_losses(report: &str) -> (f64, f64) {
    let line = report
        .lines()
        .find(|l| l.starts_with("held-out loss"))
        .unwrap_or_else(|| panic!("no held-out loss in:\n{report}"));
    let num = |key: &str| -> f64 {
        let i = line.find(key).expect(key) + key.len();
        line[i..]
            .trim_start()
            .split([',', ' '])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    (num("start"), num("end"))
}

#[test]
fn a_tiny_training_run_lowers_the_held_out_loss() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("tiny.bin");
    let weights = dir.path().join("tiny.dmev");
    selfplay(&data);

    let out = train(
        "-v english --epochs 8 --batch 1024 --holdout 0.2 --threads 1",
        &data,
        None,
        &weights,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout).to_string();
    let (start, end) = held_out_losses(&report);
    assert!(
        end < start,
        "held-out loss did not drop: {start} -> {end}\n{report}"
    );

    // `--init` starts from those weights: with no epochs they come out unchanged.
    let again = dir.path().join("again.dmev");
    let out = train(
        "-v english --epochs 0 --threads 1",
        &data,
        Some(&weights),
        &again,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&weights).unwrap()
    );
    // Weights of another variant are a one-line error.
    let out = train("-v russian --epochs 0", &data, Some(&weights), &again);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("damiera-train: ") && err.contains("english"),
        "{err}"
    );

    // The weights load as English's.
    damiera::engine::eval::read_weights(Variant::English, weights.to_str().unwrap())
        .expect("the weights load");
}
