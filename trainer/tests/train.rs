//! The trainer learns a known function (material balance) on random legal positions, and its
//! export evaluates as the float model does.

use damiera::engine::eval::network::{Accumulator, Network};
use damiera::engine::eval::{planes, Planes};
use damiera::tools::learn::data::{Outcome, Sample};
use damiera::{Duplicates, English, MoveList, Play, Variant};
use damiera_trainer::{Config, Trainer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Material from White's view in centi-men: a man 100, a king 150.
fn material(p: &Planes) -> i32 {
    let count = |side: u64| {
        let kings = (side & p.rank2).count_ones() as i32;
        100 * (side.count_ones() as i32 - kings) + 150 * kings
    };
    count(p.white) - count(p.black)
}

/// The positions of random English games, labelled with their material balance and the
/// result its sign gives.
fn samples(games: u64) -> Vec<Sample> {
    let mut rng = StdRng::seed_from_u64(42);
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..games {
        let mut pos = <English as Play>::start();
        for ply in 0..120u8 {
            <English as Play>::generate(&pos, &mut list, Duplicates::Drop);
            if list.is_empty() {
                break;
            }
            let p = planes(&pos);
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
            pos = <English as Play>::make(&pos, &mv);
        }
    }
    out
}

/// The start position, without the lowest man of White's side (`Some(true)`) or Black's
/// (`Some(false)`).
fn start_without(remove: Option<bool>, black_to_move: bool) -> Planes {
    let mut p = planes(&<English as Play>::start());
    match remove {
        Some(true) => p.white &= p.white - 1,
        Some(false) => p.black &= p.black - 1,
        None => {}
    }
    p.black_to_move = black_to_move;
    p
}

fn trained() -> (Trainer, f32, f32, Vec<Sample>) {
    let data = samples(60);
    let cfg = Config {
        lr: 3e-3,
        lambda: 1.0,
        scale: 200.0,
    };
    let mut t = Trainer::new(Variant::English, cfg, 7).unwrap();
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
    let (t, before, after, data) = trained();
    eprintln!("{} positions, loss {before:.5} -> {after:.5}", data.len());
    assert!(after < before / 3.0, "loss {before} -> {after}");

    // Material ranks correctly for either side to move.
    for black in [false, true] {
        let eval = |remove| t.eval_centi(&start_without(remove, black)).unwrap();
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
    let net = Network::from_bytes(&bytes, Variant::English).unwrap();
    let (mut worst, mut sum) = (0f32, 0f32);
    let n = 200;
    for s in data.iter().step_by(data.len() / n).take(n) {
        let p = &s.planes;
        let int = net.evaluate(&Accumulator::new(&net, p), p.black_to_move) as f32;
        let float = t.eval_centi(p).unwrap();
        worst = worst.max((int - float).abs());
        sum += (int - float).abs();
    }
    eprintln!(
        "integer against float: mean {:.2}, worst {worst:.2} centi-men",
        sum / n as f32
    );
    // Quantisation (weights to 1/64 and 1/127, activations to 1/127) costs a few centi-men
    // on evaluations of several hundred.
    assert!(worst <= 12.0 && sum / (n as f32) <= 4.0);
}
