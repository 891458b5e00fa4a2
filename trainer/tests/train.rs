//! The trainer learns a known function (material balance) on random legal positions, and its
//! export evaluates as the float model does.

use damiera::core::damone::DamoneDraughts;
use damiera::engine::eval::network::{Accumulator, Network};
use damiera::engine::eval::{Evaluate, Planes};
use damiera::tools::learn::data::{Outcome, Sample};
use damiera::{Duplicates, English, International, MoveList, Variant};
use damiera_trainer::{Config, Trainer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Material from White's view in centi-men: a man 100, a king 150 (Italian Damone: a Dama
/// 150, a Damone 250).
fn material(p: &Planes) -> i32 {
    let count = |side: u64| {
        let kings = (side & p.rank2).count_ones() as i32;
        let damoni = (side & p.rank3).count_ones() as i32;
        100 * (side.count_ones() as i32 - kings - damoni) + 150 * kings + 250 * damoni
    };
    count(p.white) - count(p.black)
}

/// The positions of random games of `G`, labelled with their material balance and the
/// result its sign gives.
fn samples<G: Evaluate>(games: u64) -> Vec<Sample> {
    let mut rng = StdRng::seed_from_u64(42);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut pos = G::start();
        for ply in 0..120u8 {
            G::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            let p = G::planes(&pos);
            let m = material(&p);
            out.push(Sample {
                planes: p,
                score: m as i16,
                outcome: match m.signum() {
                    1 => Outcome::WhiteWin,
                    0 => Outcome::Draw,
                    _ => Outcome::BlackWin,
                },
                ply,
            });
            let mv = list.as_slice()[rng.gen_range(0..list.len())];
            pos = G::make(&pos, &mv);
        }
    }
    out
}

/// The start position, without the lowest man of White's side (`Some(true)`) or Black's
/// (`Some(false)`).
fn start_without<G: Evaluate>(remove: Option<bool>, black_to_move: bool) -> Planes {
    let mut p = G::planes(&G::start());
    match remove {
        Some(true) => p.white &= p.white - 1,
        Some(false) => p.black &= p.black - 1,
        None => {}
    }
    p.black_to_move = black_to_move;
    p
}

fn trained<G: Evaluate>(v: Variant, stacks: usize) -> (Trainer, f32, f32, Vec<Sample>) {
    let data = samples::<G>(60);
    let cfg = Config {
        lr: 3e-3,
        lambda: 1.0,
        scale: 200.0,
        stacks,
    };
    let mut t = Trainer::new(v, cfg, 7).unwrap();
    let all = t.batch(&data).unwrap();
    let before = t.loss(&all).unwrap();
    let mut rng = StdRng::seed_from_u64(9);
    for _ in 0..300 {
        let batch: Vec<Sample> = (0..128)
            .map(|_| data[rng.gen_range(0..data.len())])
            .collect();
        t.step(&t.batch(&batch).unwrap()).unwrap();
    }
    let after = t.loss(&all).unwrap();
    (t, before, after, data)
}

#[test]
fn learns_material_and_exports_faithfully() {
    learns_and_exports::<English>(Variant::English, 1);
}

/// The same with four layer stacks by piece count.
#[test]
fn learns_material_and_exports_faithfully_with_stacks() {
    learns_and_exports::<English>(Variant::English, 4);
}

/// The same on the 10x10 board (190 inputs a perspective).
#[test]
fn learns_material_and_exports_faithfully_on_10x10() {
    learns_and_exports::<International>(Variant::International, 1);
}

/// The same in Italian Damone (three ranks, 192 inputs a perspective).
#[test]
fn learns_material_and_exports_faithfully_in_damone() {
    learns_and_exports::<DamoneDraughts<false>>(Variant::Damone, 1);
}

fn learns_and_exports<G: Evaluate>(v: Variant, stacks: usize) {
    let (t, before, after, data) = trained::<G>(v, stacks);
    eprintln!("{} positions, loss {before:.5} -> {after:.5}", data.len());
    assert!(after < before / 3.0, "loss {before} -> {after}");

    // Material ranks correctly for either side to move.
    for black in [false, true] {
        let eval = |remove| t.eval_centi(&start_without::<G>(remove, black)).unwrap();
        // `Some(true)` removes a White man: up a man when White is not the side to move.
        let (up, level, down) = (eval(Some(black)), eval(None), eval(Some(!black)));
        eprintln!("black to move {black}: up {up:.1}, level {level:.1}, down {down:.1}");
        assert!(
            up > level + 30.0 && level > down + 30.0,
            "{up} {level} {down}"
        );
    }

    // The export, through the file format, evaluates as the float model.
    let bytes = t.export().unwrap().to_bytes();
    let net = Network::from_bytes(&bytes, v).unwrap();
    assert_eq!(net.stacks(), stacks);
    let (mut worst, mut sum) = (0f32, 0f32);
    let n = 200;
    let mut used = vec![0; stacks];
    for s in data.iter().step_by(data.len() / n).take(n) {
        let p = &s.planes;
        used[net.stack_of(p)] += 1;
        let int = net.evaluate(&Accumulator::new(&net, p), p) as f32;
        let float = t.eval_centi(p).unwrap();
        worst = worst.max((int - float).abs());
        sum += (int - float).abs();
    }
    eprintln!(
        "integer against float: mean {:.2}, worst {worst:.2} centi-men; positions a stack {used:?}",
        sum / n as f32
    );
    // Every stack was compared (the random games reach every run of piece counts).
    assert!(used.iter().all(|&u| u > 0), "{used:?}");
    // Quantisation (weights to 1/64 and 1/127, activations to 1/127) costs a few centi-men
    // on evaluations of several hundred.
    assert!(worst <= 12.0 && sum / (n as f32) <= 4.0);
}

/// The endgame databases relabel the positions they hold: built here (English, 3 pieces, a
/// few seconds), every relabelled sample's target agrees with the stored value, positions
/// with more pieces keep their self-play labels, and repeated positions are dropped.
#[test]
fn endgame_databases_label_what_they_hold_and_duplicates_go() {
    use damiera::egdb::{Egdb, Wld};
    use damiera::engine::eval::Evaluate;
    use damiera_trainer::{dedup, label_with_egdb, DB_WIN_SCORE};
    let dir = tempfile::tempdir().unwrap();
    let opts = damiera::egdb::build::BuildOptions {
        root: dir.path().to_path_buf(),
        pieces: 3,
        threads: 1,
    };
    damiera::egdb::build::build::<English>(&opts, &mut |_| {}).unwrap();
    let db = Egdb::open(dir.path(), Variant::English, 3).unwrap();
    // 3-piece positions (a White man anywhere but its crowning row, a White king, a Black
    // man), both sides to move, then a 4-piece one and a repeat.
    let mut samples = Vec::new();
    for a in 0..28u32 {
        for (b, c) in [(5u32, 20u32), (9, 27), (13, 2)] {
            if a == b || a == c {
                continue;
            }
            for btm in [false, true] {
                let planes = Planes {
                    white: 1 << a | 1 << c,
                    black: 1 << b,
                    rank2: 1 << c,
                    rank3: 0,
                    black_to_move: btm,
                };
                samples.push(Sample {
                    planes,
                    score: 7,
                    outcome: Outcome::Draw,
                    ply: 0,
                });
            }
        }
    }
    let mut four = samples[0];
    four.planes.black |= 1 << 31;
    samples.push(four);
    samples.push(samples[0]);
    let n0 = samples.len();
    assert_eq!(dedup(&mut samples), 1);
    assert_eq!(samples.len(), n0 - 1);
    let labelled = label_with_egdb(Variant::English, &db, &mut samples);
    let mut checked = 0;
    for s in &samples {
        let pos = <English as Evaluate>::from_planes(&s.planes);
        match db.probe(&pos) {
            None => assert_eq!((s.score, s.outcome), (7, Outcome::Draw)),
            Some(p) => {
                let stm_win = match p.value {
                    Wld::Win => 1,
                    Wld::Draw => 0,
                    Wld::Loss => -1,
                };
                let white = if s.planes.black_to_move {
                    -stm_win
                } else {
                    stm_win
                };
                let (score, outcome) = match white {
                    1 => (DB_WIN_SCORE, Outcome::WhiteWin),
                    0 => (0, Outcome::Draw),
                    _ => (-DB_WIN_SCORE, Outcome::BlackWin),
                };
                assert_eq!((s.score, s.outcome), (score, outcome), "{:?}", s.planes);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, labelled);
    assert!(labelled > 100, "{labelled}");
    assert!(samples.iter().any(|s| s.score == DB_WIN_SCORE));
}

/// A trainer started from a shipped network (`--init`) exports that network byte for byte
/// (the dequantised weights round back to the file's integers), and its float model agrees
/// with the integer network on real positions as a trained model's export does.
#[test]
fn from_network_round_trips_the_shipped_networks() {
    let files = [
        (Variant::English, "english-d10d.dmnn"),
        (Variant::International, "international-g3.dmnn"),
    ];
    for (v, name) in files {
        let path = format!("{}/../data/weights/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(&path).unwrap();
        let net = Network::from_bytes(&bytes, v).unwrap();
        let t = Trainer::from_network(&net, Config::default()).unwrap();
        assert_eq!(t.export().unwrap().to_bytes(), bytes, "{name}");
        let data = match v {
            Variant::English => samples::<English>(5),
            _ => samples::<International>(5),
        };
        let mut worst = 0.0f32;
        for s in &data {
            let acc = Accumulator::new(&net, &s.planes);
            let q = net.evaluate(&acc, &s.planes) as f32;
            worst = worst.max((q - t.eval_centi(&s.planes).unwrap()).abs());
        }
        assert!(worst <= 12.0, "{name}: float and integer differ by {worst}");
    }
}

/// A stack learns from its own positions only: steps on positions of 19-24 pieces (English
/// stack 3 of 4) leave the other stacks' layers as they were, and a network of stacks comes
/// back from the trainer byte for byte.
#[test]
fn a_stack_learns_from_its_positions_only() {
    let net = Network::random(Variant::English, 21, 4);
    let cfg = Config {
        lr: 3e-3,
        ..Config::default()
    };
    let mut t = Trainer::from_network(&net, cfg).unwrap();
    assert_eq!(t.config().stacks, 4);
    assert_eq!(t.export().unwrap(), net);
    let many: Vec<Sample> = samples::<English>(20)
        .into_iter()
        .filter(|s| (s.planes.white | s.planes.black).count_ones() >= 19)
        .collect();
    assert!(many.len() > 100, "{}", many.len());
    for chunk in many.chunks(64).take(20) {
        t.step(&t.batch(chunk).unwrap()).unwrap();
    }
    let after = t.export().unwrap();
    // The first layer is shared; of the stacks only the fourth learned. AdamW's weight
    // decay (0.01 a step times the rate) still shrinks the others' weights by about 0.06%:
    // not a quantisation step of an `i8` weight, at most a few of an `i32` bias.
    assert_ne!(after.l1_biases(), net.l1_biases());
    let near = |a: &[i32], b: &[i32]| {
        a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 2 + y.abs() / 500)
    };
    for s in 0..3 {
        assert_eq!(after.l2(s).0, net.l2(s).0, "stack {s}");
        assert_eq!(after.l3(s).0, net.l3(s).0, "stack {s}");
        assert_eq!(after.output(s).0, net.output(s).0, "stack {s}");
        assert!(near(after.l2(s).1, net.l2(s).1), "stack {s}");
        assert!(near(after.l3(s).1, net.l3(s).1), "stack {s}");
        assert!(near(&[after.output(s).1], &[net.output(s).1]), "stack {s}");
    }
    let changed = |a: &[[i8; 256]], b: &[[i8; 256]]| {
        a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .filter(|(x, y)| x != y)
            .count()
    };
    assert!(changed(after.l2(3).0, net.l2(3).0) > 1000);
}

/// A network of one stack seeds several (`--init` with `--stacks`): every stack a copy, so
/// the export evaluates every position as the seed does.
#[test]
fn one_stack_seeds_several() {
    let one = Network::random(Variant::International, 4, 1);
    let cfg = Config {
        stacks: 4,
        ..Config::default()
    };
    let net = Trainer::from_network(&one, cfg).unwrap().export().unwrap();
    assert_eq!(net.stacks(), 4);
    for s in 0..4 {
        assert_eq!(
            (net.l2(s), net.l3(s), net.output(s)),
            (one.l2(0), one.l3(0), one.output(0))
        );
    }
    let mut stacks = [0; 4];
    for s in samples::<International>(3) {
        let p = &s.planes;
        stacks[net.stack_of(p)] += 1;
        let (a, b) = (Accumulator::new(&net, p), Accumulator::new(&one, p));
        assert_eq!(net.evaluate(&a, p), one.evaluate(&b, p));
    }
    assert!(stacks.iter().all(|&n| n > 0), "{stacks:?}");
}
