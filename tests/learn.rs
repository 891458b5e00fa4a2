//! The learned evaluation and its pipeline: evaluation symmetry for every variant, the
//! weights file refused when bad (through the real binary), and a tiny self-play + training
//! run that lowers the held-out loss (docs/training.md).

use assert_cmd::Command;
use damiera::core::movegen::Duplicates;
use damiera::core::variant::Variant;
use damiera::engine::eval::learned::Layout;
use damiera::engine::eval::{Evaluate, EvaluateFn, Net, Planes};
use damiera::{Draughts, MoveList};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Positions of random games of `G` (seeded), each with its planes.
fn random_positions<G: Draughts>(seed: u64, games: usize) -> Vec<G::Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut pos = G::start();
        for _ in 0..rng.gen_range(0..120) {
            G::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            pos = G::make(&pos, &list[rng.gen_range(0..list.len())]);
            out.push(pos);
        }
    }
    out
}

struct Symmetry;
impl EvaluateFn for Symmetry {
    type Output = usize;
    fn call<G: Evaluate>(self) -> usize {
        let positions = random_positions::<G>(7, 40);
        // A net with random weights: symmetry must hold by construction, whatever they are.
        let mut rng = StdRng::seed_from_u64(3);
        let l = Layout::of(G::VARIANT);
        let ten = G::SQUARES == 50;
        let squares = l.squares() as u32;
        let mg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-300.0..300.0))
            .collect();
        let eg: Vec<f32> = (0..l.features)
            .map(|_| rng.gen_range(-300.0..300.0))
            .collect();
        let net = Net::from_centi_men(&mg, &eg);
        let fly =
            damiera::core::variant_position::VariantPosition::start(G::VARIANT).flying_kings();
        // The built-in weights, as the engine evaluates with by default.
        let built_in = damiera::engine::eval::built_in(G::VARIANT);
        let mut nonzero = 0;
        for pos in &positions {
            let p = G::planes(pos);
            let flipped = G::from_planes(&p.flipped(squares));
            assert_eq!(G::planes(&flipped), p.flipped(squares));
            // Side-to-move scores: the flipped position has the other side to move, so the
            // same side-to-move score is White's score negated.
            assert_eq!(
                G::evaluate(pos, built_in.as_deref()),
                G::evaluate(&flipped, built_in.as_deref()),
                "{} {:?}",
                G::NAME,
                pos
            );
            let eval = |p: &Planes| {
                if ten {
                    net.evaluate::<true>(p, fly)
                } else {
                    net.evaluate::<false>(p, fly)
                }
            };
            let (a, b) = (eval(&p), eval(&p.flipped(squares)));
            assert_eq!(a, b, "{} {:?}", G::NAME, pos);
            nonzero += (a != 0) as usize;
        }
        nonzero
    }
}

#[test]
fn evaluation_is_color_symmetric_in_every_variant() {
    for v in Variant::ALL {
        let nonzero = damiera::engine::eval::dispatch(v, Symmetry);
        assert!(
            nonzero > 100,
            "{v}: the random net scored almost everything 0"
        );
    }
}

#[test]
fn flipping_planes_twice_is_the_identity() {
    let p = Planes {
        white: 0x0000_0FFF,
        black: 0xFFF0_0000,
        rank2: 0x0000_0001,
        rank3: 0x8000_0000,
        black_to_move: false,
    };
    assert_eq!(p.flipped(32).flipped(32), p);
    assert_eq!(p.flipped(32).white, 0x0000_0FFF);
    assert_eq!(p.flipped(32).rank3, 0x0000_0001);
    // 10x10: White's first 20 squares become Black's last 20.
    let p = Planes {
        white: (1 << 20) - 1,
        black: 0,
        rank2: 1,
        rank3: 0,
        black_to_move: false,
    };
    assert_eq!(p.flipped(50).flipped(50), p);
    assert_eq!(p.flipped(50).black, ((1 << 20) - 1) << 30);
    assert_eq!(p.flipped(50).rank2, 1 << 49);
}

fn damiera() -> Command {
    Command::cargo_bin("damiera").expect("the damiera binary")
}

/// A tiny self-play run (150 English games at depth 3, seed 5, hand-set evaluation).
fn selfplay(out: &std::path::Path, concurrency: u32) -> std::process::Output {
    damiera()
        .args([
            "selfplay", "-v", "english", "--games", "150", "--depth", "3",
        ])
        .args(["--seed", "5", "--eval-file", "hand", "--concurrency"])
        .arg(concurrency.to_string())
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn selfplay_data_is_deterministic_and_resumable_and_weights_load() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("tiny.bin");
    let weights = dir.path().join("tiny.dmev");
    let out = selfplay(&data, 2);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.starts_with("150 games, "), "{text}");
    let samples = damiera::tools::learn::data::read_file(data.to_str().unwrap(), Variant::English)
        .expect("the data file reads back");
    assert!(samples.len() > 5000, "{} positions", samples.len());

    // The same seed gives the same file, whatever the concurrency.
    let again = dir.path().join("again.bin");
    let again_out = selfplay(&again, 1);
    assert!(again_out.status.success());
    assert_eq!(
        std::fs::read(&data).unwrap(),
        std::fs::read(&again).unwrap()
    );

    // A run of games 100..150 (`--first-game 100`) is, after its 16-byte header, the tail of
    // the full run: a stopped run can be finished instead of replayed.
    let tail = dir.path().join("tail.bin");
    let tail_out = damiera()
        .args(
            "selfplay -v english --games 150 --first-game 100 --depth 3 --seed 5 --eval-file hand"
                .split(' '),
        )
        .arg("--out")
        .arg(&tail)
        .output()
        .unwrap();
    assert!(tail_out.status.success());
    // A first game at or past the last is a one-line error, and no file is written.
    let none = dir.path().join("none.bin");
    let bad = damiera()
        .args("selfplay -v english --games 150 --first-game 150 --out".split(' '))
        .arg(&none)
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim(),
        "error: --first-game must be below --games"
    );
    assert!(!none.exists());
    assert!(String::from_utf8_lossy(&tail_out.stdout).starts_with("50 games, "));
    let full = std::fs::read(&data).unwrap();
    let tail = std::fs::read(&tail).unwrap();
    assert_eq!(full[..16], tail[..16], "the same header");
    assert!(tail.len() > 16 && tail.len() < full.len());
    assert_eq!(full[full.len() - (tail.len() - 16)..], tail[16..]);

    // Weights to play with (the fit itself is the trainer's test, trainer/tests/patterns.rs):
    // the material values, a man 100 and a king 300 in both phases.
    let l = Layout::of(Variant::English);
    let mut material = vec![0.0f32; l.features];
    material[l.dense_offset] = 100.0;
    material[l.dense_offset + 1] = 300.0;
    let net = Net::from_centi_men(&material, &material);
    std::fs::write(&weights, net.to_bytes(Variant::English)).unwrap();
    // The engine loads the weights and plays with them.
    let script = format!(
        "setoption name EvalFile value {}\nisready\nposition startpos\ngo depth 4\nquit\n",
        weights.display()
    );
    let out = damiera().write_stdin(script).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("error"), "{text}");
    assert!(text.contains("bestmove "), "{text}");
    // `hand` selects the hand-set evaluation, an empty value the built-in weights again.
    let out = damiera()
        .write_stdin(
            "setoption name EvalFile value hand\nsetoption name EvalFile value\nisready\nquit\n",
        )
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("error") && text.contains("readyok"),
        "{text}"
    );
}

#[test]
fn bad_weights_files_are_refused_and_the_engine_keeps_its_weights() {
    let dir = tempfile::tempdir().unwrap();
    let n = Layout::of(Variant::English).features;
    let good = Net::from_centi_men(&vec![1.0; n], &vec![1.0; n]);
    let russian = dir.path().join("russian.dmev");
    std::fs::write(&russian, good.to_bytes(Variant::Russian)).unwrap();
    let truncated = dir.path().join("truncated.dmev");
    let bytes = good.to_bytes(Variant::English);
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    let corrupt = dir.path().join("corrupt.dmev");
    let mut c = bytes.clone();
    c[1000] ^= 1;
    std::fs::write(&corrupt, c).unwrap();
    let missing = dir.path().join("missing.dmev");
    let cases = [
        (&russian, "weights for russian, not english"),
        (&truncated, "truncated"),
        (&corrupt, "checksum"),
        (&missing, "cannot read"),
    ];
    // Reference: the engine's evaluation before any load (depth 1 score of the start position).
    let score_line = |text: &str| -> String {
        text.lines()
            .rfind(|l| l.starts_with("info depth 1 "))
            .map(|l| l.split(" nodes").next().unwrap().to_string())
            .unwrap_or_default()
    };
    let base = damiera()
        .write_stdin("position startpos\ngo depth 1\nisready\nquit\n")
        .output()
        .unwrap();
    let base = score_line(&String::from_utf8_lossy(&base.stdout));
    assert!(!base.is_empty());
    for (path, why) in cases {
        let script = format!(
            "setoption name EvalFile value {}\nposition startpos\ngo depth 1\nisready\nquit\n",
            path.display()
        );
        let out = damiera().write_stdin(script).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let errors: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert_eq!(errors.len(), 1, "{text}");
        assert!(
            errors[0].contains(why) && errors[0].contains("EvalFile"),
            "{}",
            errors[0]
        );
        assert_eq!(
            score_line(&text),
            base,
            "the weights changed after a refused file"
        );
    }
    // Hub: the same refusal in the Hub's form.
    let script = format!(
        "hub\nset-param name=eval-file value={}\nping\nquit\n",
        truncated.display()
    );
    let out = damiera().arg("hub").write_stdin(script).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.lines()
            .any(|l| l.starts_with("error") && l.contains("truncated")),
        "{text}"
    );
    assert!(text.contains("pong"), "{text}");
}

/// An evaluation network file (DMNN) loads through `EvalFile` like pattern weights: the
/// search then evaluates with it (its depth-1 score is the network's best child, which a
/// different random network changes), and a network of another variant is refused with
/// the weights in use kept.
#[test]
fn a_network_file_loads_through_eval_file_and_is_searched_with() {
    use damiera::engine::eval::network::Network;
    let dir = tempfile::tempdir().unwrap();
    let depth1 = |script: String| -> (String, String) {
        let out = damiera().write_stdin(script).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text
            .lines()
            .rfind(|l| l.starts_with("info depth 1 "))
            .map(|l| l.split(" nodes").next().unwrap().to_string())
            .unwrap_or_default();
        (line, text)
    };
    let mut scores = Vec::new();
    for seed in [1, 2] {
        let path = dir.path().join(format!("english-{seed}.dmnn"));
        std::fs::write(
            &path,
            Network::random(Variant::English, seed, seed as usize * 2 - 1).to_bytes(),
        )
        .unwrap();
        let (line, text) = depth1(format!(
            "setoption name EvalFile value {}\nposition startpos\ngo depth 1\nisready\nquit\n",
            path.display()
        ));
        assert!(!text.contains("error"), "{text}");
        // The search's score: the static evaluation of the best child, from scratch.
        let net = Net::from_bytes(&std::fs::read(&path).unwrap(), Variant::English).unwrap();
        assert!(net.network().is_some());
        let start = <damiera::English as damiera::Play>::start();
        let mut list = MoveList::new();
        <damiera::English as damiera::Play>::generate(&start, &mut list, Duplicates::Drop);
        let best = list
            .as_slice()
            .iter()
            .map(|m| {
                let child = <damiera::English as damiera::Play>::make(&start, m);
                -<damiera::English as Evaluate>::evaluate(&child, Some(&net))
            })
            .max()
            .unwrap();
        assert!(
            line.ends_with(&format!("score cp {best}")),
            "{line} vs {best}"
        );
        scores.push(line);
    }
    assert_ne!(scores[0], scores[1], "two networks, one score");
    let russian = dir.path().join("russian.dmnn");
    std::fs::write(&russian, Network::random(Variant::Russian, 1, 1).to_bytes()).unwrap();
    let (_, text) = depth1(format!(
        "setoption name EvalFile value {}\nposition startpos\ngo depth 1\nisready\nquit\n",
        russian.display()
    ));
    assert!(
        text.lines()
            .any(|l| l.starts_with("info string error") && l.contains("network for russian")),
        "{text}"
    );
}

/// The shipped networks (`data/weights/*.dmnn`, the five built in; docs/training.md) load as networks of their
/// variant and rank a man up above level above a man down (the start position with one man
/// of Black's or White's taken off, White to move).
#[test]
fn the_shipped_networks_load_and_count_material() {
    let english = (
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11",
        "W:W21,22,23,24,25,26,27,28,29,30,31:B1,2,3,4,5,6,7,8,9,10,11,12",
    );
    shipped_network_counts_material::<damiera::English>("english-d10d.dmnn", english);
    // Russian and Brazilian share the board and its notation.
    let russian = (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8",
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    );
    shipped_network_counts_material::<damiera::Russian>("russian-g2.dmnn", russian);
    shipped_network_counts_material::<damiera::Brazilian>("brazilian-g2.dmnn", russian);
    // Italian's FEN numbers its squares 1-32 as English does (White's men on 21-32).
    shipped_network_counts_material::<damiera::Italian>("italian-g1.dmnn", english);
    // International (FMJD): White's men on 31-50, Black's on 1-20.
    let white: Vec<String> = (31..=50).map(|n| n.to_string()).collect();
    let black: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
    let fen = |w: &[String], b: &[String]| format!("W:W{}:B{}", w.join(","), b.join(","));
    let international = (
        fen(&white, &black),
        fen(&white, &black[..19]),
        fen(&white[..19], &black),
    );
    shipped_network_counts_material::<damiera::International>(
        "international-g3.dmnn",
        (&international.0, &international.1, &international.2),
    );
}

fn shipped_network_counts_material<G: Evaluate>(file: &str, (level, up, down): (&str, &str, &str)) {
    let path = format!("{}/data/weights/{file}", env!("CARGO_MANIFEST_DIR"));
    let net = Net::from_bytes(&std::fs::read(&path).unwrap(), G::VARIANT).unwrap();
    assert!(net.network().is_some(), "{file}");
    let eval = |fen: &str| G::evaluate(&G::parse_fen(fen).unwrap(), Some(&net));
    let (level, up, down) = (eval(level), eval(up), eval(down));
    assert!(
        up > level + 50 && level > down + 50,
        "{file}: {up} {level} {down}"
    );
}

/// An interrupted self-play run keeps its whole games but says it was interrupted (status
/// 130 and where to go on), so that a script never takes its file for a finished one (the
/// shards of data/weights/pipeline-net.sh are marked done on success only).
#[cfg(unix)]
#[test]
fn an_interrupted_selfplay_run_fails_and_says_where_to_go_on() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stopped.dmsp");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("damiera"))
        .args([
            "selfplay", "-v", "english", "--games", "100000", "--depth", "3",
        ])
        .args(["--eval-file", "hand", "--concurrency", "1", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for some games on disk (the header is 16 bytes; records 20).
    let start = Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) < 16 + 20 * 100 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no games written"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: `kill` with the child's pid and SIGINT only sends a signal.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "stderr: {stderr}");
    assert!(stderr.contains("error: interrupted after"), "{stderr}");
    let games: u64 = stderr
        .split("interrupted after ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a game count");
    assert!(games > 0 && games < 100_000, "{stderr}");
    assert!(
        stderr.contains(&format!("--first-game {games}")),
        "{stderr}"
    );
    // Whole records only.
    let len = std::fs::metadata(&out).unwrap().len();
    assert_eq!((len - 16) % 20, 0);
}
