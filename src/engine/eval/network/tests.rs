//! Tests of the network: the incremental accumulator, SIMD against scalar, the file, the
//! quantisation.

use super::file::payload_len;
use super::*;
use crate::core::damone::{DamoneDraughts, Position as DamonePosition, Rank};
use crate::core::movegen::Duplicates;
use crate::core::moves::MoveList;
use crate::core::play::Play;
use crate::core::position::Position;
use crate::core::rules::{Brazilian, Color, English, International, Italian, Rules, Russian};
use crate::core::variant::Variant;
use crate::engine::eval::planes;
use crate::engine::eval::planes::{dense, Planes};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Italian Damone (the default rule: no Damone win).
type Damone = DamoneDraughts<false>;

/// What these tests need of a variant: its moves ([`Play`]) and its positions as [`Planes`].
/// (Not `eval::Evaluate`, whose module depends on this one's parent.)
trait Game: Play {
    /// `pos` as square sets.
    fn planes_of(pos: &Self::Position) -> Planes;
}

impl<R: Rules> Game for R {
    fn planes_of(pos: &Position<R>) -> Planes {
        planes(pos)
    }
}

impl Game for Damone {
    /// Dama on `rank2`, Damone on `rank3`, built here from the position's square sets.
    fn planes_of(pos: &DamonePosition) -> Planes {
        Planes {
            white: u64::from(dense(pos.pieces(Color::White).0)),
            black: u64::from(dense(pos.pieces(Color::Black).0)),
            rank2: u64::from(dense(pos.ranked(Rank::Dama).0)),
            rank3: u64::from(dense(pos.ranked(Rank::Damone).0)),
            black_to_move: pos.side() == Color::Black,
        }
    }
}

/// Calls `f(before, after)` for every move of a random legal game of at most `plies`
/// plies from the start (the moves drawn by an `StdRng` seeded with `seed`).
fn random_game<G: Game>(seed: u64, plies: usize, mut f: impl FnMut(&Planes, &Planes)) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = G::start();
    let mut list = MoveList::new();
    for _ in 0..plies {
        G::generate(&pos, &mut list, Duplicates::Drop);
        if list.is_empty() {
            break;
        }
        let mv = list.as_slice()[rng.gen_range(0..list.len())];
        let next = G::make(&pos, &mv);
        f(&G::planes_of(&pos), &G::planes_of(&next));
        pos = next;
    }
}

/// Every position of `games` random games of variant `G`.
fn positions<G: Game>(games: u64) -> Vec<Planes> {
    let mut out = Vec::new();
    for seed in 0..games {
        random_game::<G>(seed, 200, |_, after| out.push(*after));
    }
    out
}

/// Incremental updates along random games equal a refresh after every move, with the
/// AVX2 and the scalar paths; returns the moves checked and how many were captures.
fn incremental_matches_refresh<G: Game>(seeds: u64) -> (usize, usize) {
    let mut net = Network::random(G::VARIANT, 7, 1);
    let (mut moves, mut captures) = (0, 0);
    for simd in [true, false] {
        net.set_simd(simd);
        for seed in 0..seeds {
            let mut acc = Accumulator::new(&net, &G::planes_of(&G::start()));
            random_game::<G>(seed, 200, |before, after| {
                acc.update(&net, before, after);
                assert_eq!(acc, Accumulator::new(&net, after), "seed {seed}");
                moves += 1;
                let count = |p: &Planes| (p.white | p.black).count_ones();
                captures += usize::from(count(after) < count(before));
            });
        }
    }
    (moves, captures)
}

#[test]
fn incremental_update_equals_refresh() {
    for (moves, captures) in [
        incremental_matches_refresh::<English>(60),
        incremental_matches_refresh::<Russian>(60),
        incremental_matches_refresh::<International>(40),
        incremental_matches_refresh::<Italian>(10),
        incremental_matches_refresh::<Brazilian>(10),
        incremental_matches_refresh::<Damone>(20),
    ] {
        assert!(
            moves > 500 && captures > 100,
            "{moves} moves, {captures} captures"
        );
    }
}

#[test]
fn shapes_and_start_features() {
    assert_eq!(Shape::B8.inputs(), 120);
    assert_eq!(Shape::B10.inputs(), 190);
    assert_eq!(Shape::of(Variant::International).inputs(), 190);
    assert_eq!(Shape::of(Variant::Damone).inputs(), MAX_INPUTS);
    assert_eq!(MAX_INPUTS, 2 * 32 + 4 * 32);
    // White's men start on the low rows and move up (the features' orientation).
    let p = planes(&<English as Play>::start());
    assert_eq!(p.white, 0xFFF);
    for persp in 0..2 {
        let k = Shape::B8.kinds(&p, persp);
        assert_eq!(k, [0xFFF, 0, 0, 0xFFF << 16, 0, 0], "perspective {persp}");
    }
    let p = planes(&<International as Play>::start());
    let k = Shape::B10.kinds(&p, 1);
    assert_eq!(k, [(1 << 20) - 1, 0, 0, ((1 << 20) - 1) << 25, 0, 0]);
    // A man on its own crowning row (no legal position) has no input.
    let q = Planes {
        white: 1 << 31,
        black: 1,
        ..Planes::default()
    };
    assert_eq!(Shape::B8.kinds(&q, 0), [0; KINDS]);
    assert_eq!(Shape::B8.kinds(&q, 1), [0; KINDS]);
}

/// Italian Damone's features: its start position (docs/rules.md: each side a Damone in its
/// corner, two Damas, five Pedine) seen from either side is the same, every piece has an
/// input (a Pedina on the top row too, which no other board has) and the inputs are distinct.
#[test]
fn damone_features() {
    use crate::core::damone::notation;
    use crate::core::damone::rules::START_FEN;
    let p = Damone::planes_of(&notation::parse_fen(START_FEN).unwrap());
    let s = Shape::DAMONE;
    for persp in 0..2 {
        let k = s.kinds(&p, persp);
        let counts = k.map(u64::count_ones);
        assert_eq!(counts, [5, 2, 1, 5, 2, 1], "perspective {persp}");
    }
    assert_eq!(s.kinds(&p, 0), s.kinds(&p, 1));
    let [w, b] = s.features(&p);
    assert_eq!(w.len(), 16);
    assert!(w.windows(2).all(|x| x[0] < x[1]) && *w.last().unwrap() < 192);
    assert_eq!(w, b);
    // White's Pedina on a8 (the top row, square 28 in the planes' order, the row's first
    // dark square from the left) and Black's Damone on h1 (square 3): own Pedina input 28,
    // opponent Damone input 5 * 32 + 3.
    let q = Damone::planes_of(&notation::parse_fen("W:Wa8:BIh1").unwrap());
    let [w, b] = s.features(&q);
    assert_eq!(w, vec![28, 5 * 32 + 3]);
    // From Black's side: its own Damone on the turned square 31 - 3, White's Pedina on 31 - 28.
    assert_eq!(b, vec![2 * 32 + 28, 3 * 32 + 3]);
}

/// Evaluations and accumulators along the positions of random games are the same with
/// the AVX2 and the scalar paths.
fn simd_matches_scalar<G: Game>() {
    for seed in 0..4 {
        // One stack and four: each stack's kernels are compared.
        let mut simd = Network::random(G::VARIANT, seed, 1 + 3 * (seed as usize % 2));
        if !simd.set_simd(true) {
            eprintln!("no AVX2 on this CPU: nothing to compare");
            return;
        }
        let mut scalar = simd.clone();
        assert!(!scalar.set_simd(false));
        let (mut a, mut b) = (
            Accumulator::new(&simd, &G::planes_of(&G::start())),
            Accumulator::new(&scalar, &G::planes_of(&G::start())),
        );
        let mut nonzero = 0;
        random_game::<G>(seed + 100, 200, |before, after| {
            a.update(&simd, before, after);
            b.update(&scalar, before, after);
            assert_eq!(a, b);
            let (x, y) = (simd.evaluate(&a, after), scalar.evaluate(&b, after));
            assert_eq!(x, y, "{after:?}");
            nonzero += usize::from(x != 0);
        });
        assert!(nonzero > 10);
    }
    // Extreme accumulators: every activation clipped at 0 or at QA, weights at the ends
    // of `i8` (the `maddubs` bound).
    let mut simd = Network::random(G::VARIANT, 99, 2);
    for (stack, packed) in simd.l.stacks.iter_mut().zip(&mut simd.packed) {
        for (o, row) in stack.w2.iter_mut().enumerate() {
            row.fill(if o % 2 == 0 { -128 } else { 127 });
        }
        packed.w2 = super::model::pack(&stack.w2);
    }
    let mut scalar = simd.clone();
    scalar.set_simd(false);
    let mut rng = StdRng::seed_from_u64(5);
    for _ in 0..200 {
        let acc = Accumulator {
            v: std::array::from_fn(|_| std::array::from_fn(|_| rng.gen_range(-300..=300))),
        };
        for stm in [false, true] {
            for s in 0..2 {
                assert_eq!(
                    simd.evaluate_stack(&acc, stm, s),
                    scalar.evaluate_stack(&acc, stm, s)
                );
            }
        }
    }
}

#[test]
fn simd_equals_scalar() {
    simd_matches_scalar::<English>();
    simd_matches_scalar::<Russian>();
    simd_matches_scalar::<International>();
    simd_matches_scalar::<Damone>();
}

#[test]
fn colour_flip_symmetry() {
    fn check<G: Game>() {
        let net = Network::random(G::VARIANT, 3, 4);
        let squares = u32::from(G::SQUARES);
        let mut differ = 0;
        for p in positions::<G>(10) {
            let q = p.flipped(squares);
            let (a, b) = (Accumulator::new(&net, &p), Accumulator::new(&net, &q));
            assert_eq!(a.v[0], b.v[1]);
            assert_eq!(a.v[1], b.v[0]);
            let e = net.evaluate(&a, &p);
            assert_eq!(e, net.evaluate(&b, &q), "{p:?}");
            // The side to move matters: not a test that passes by symmetry alone.
            let other = net.evaluate_stack(&a, !p.black_to_move, net.stack_of(&p));
            differ += usize::from(e != -other);
        }
        assert!(differ > 100, "{differ}");
    }
    check::<English>();
    check::<Italian>();
    check::<International>();
    check::<Damone>();
}

#[test]
fn file_round_trip_and_bad_files() {
    for (v, stacks) in [
        (Variant::English, 1),
        (Variant::Russian, 1),
        (Variant::International, 1),
        (Variant::English, 4),
        (Variant::International, 8),
    ] {
        let net = Network::random(v, 11, stacks);
        assert_eq!(net.stacks(), stacks);
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), HEADER + payload_len(net.shape(), stacks));
        // The first layer (inputs x 128 `i16` and 128 biases), then per stack 256 x 32 +
        // 32 x 32 + 32 `i8` weights and 32 + 32 + 1 `i32` biases (9,508 bytes).
        let first = if v == Variant::International {
            2 * (190 * 128 + 128)
        } else {
            2 * (120 * 128 + 128)
        };
        assert_eq!(bytes.len(), 20 + first + stacks * 9_508);
        if stacks == 1 {
            // One stack: version 1's bytes (the file size builds before the stacks wrote).
            assert_eq!(&bytes[4..8], &[1, 0, bytes[6], 0]);
            let size = if v == Variant::International {
                58_424
            } else {
                40_504
            };
            assert_eq!(bytes.len(), size);
        } else {
            assert_eq!(&bytes[4..8], &[2, 0, bytes[6], stacks as u8]);
        }
        let mut back = Network::from_bytes(&bytes, v).unwrap();
        assert_eq!(back, net);
        back.set_simd(false);
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        let p = planes(&<International as Play>::start());
        if v == Variant::International {
            let acc = Accumulator::new(&back, &p);
            assert_eq!(back.evaluate(&acc, &p), net.evaluate(&acc, &p));
        }
    }
    // A stacks byte out of range, in either version, and a version-1 file with stacks.
    let four = Network::random(Variant::English, 13, 4).to_bytes();
    for (version, byte) in [(2, 0), (2, 1), (2, 9), (2, 255), (1, 4)] {
        let mut b = four.clone();
        b[4] = version;
        b[7] = byte;
        let e = Network::from_bytes(&b, Variant::English).expect_err("stacks");
        assert!(e.contains("layer-stack byte") && !e.contains('\n'), "{e}");
    }
    let v = Variant::English;
    let bytes = Network::random(v, 12, 1).to_bytes();
    let refuse = |b: &[u8], v: Variant, what: &str| {
        let e = Network::from_bytes(b, v).expect_err(what);
        assert!(
            e.contains(what) && !e.contains('\n'),
            "{e} (expected {what})"
        );
    };
    for len in [0, 3, 4, 10, HEADER - 1] {
        refuse(&bytes[..len], v, if len < 4 { "DMNN" } else { "truncated" });
    }
    refuse(&bytes[..HEADER], v, "truncated");
    refuse(&bytes[..bytes.len() - 1], v, "truncated");
    let mut padded = bytes.clone();
    padded.push(0);
    refuse(&padded, v, "padded");
    let edit = |i: usize, x: u8| {
        let mut b = bytes.clone();
        b[i] = x;
        b
    };
    refuse(&edit(0, b'X'), v, "DMNN");
    refuse(&edit(4, 3), v, "version 3");
    refuse(&bytes, Variant::Russian, "network for english, not russian");
    refuse(&edit(6, 200), v, "unknown variant");
    refuse(&bytes, Variant::Damone, "network for english, not damone");
    refuse(&edit(8, 121), v, "layer sizes 121-128-32-32-1");
    refuse(&edit(10, 64), v, "layer sizes");
    let i = HEADER + 1000;
    refuse(&edit(i, bytes[i] ^ 1), v, "checksum");
    refuse(&edit(17, bytes[17] ^ 0x40), v, "checksum");
    // A bias out of range under a valid checksum.
    let mut b = bytes.clone();
    let last = b.len() - 1;
    b[last] = 0x7F;
    let crc = crc32fast::hash(&b[HEADER..]).to_le_bytes();
    b[16..20].copy_from_slice(&crc);
    refuse(&b, v, "bias");
    // No byte string panics: every single-byte change and every prefix.
    for i in 0..HEADER + 8 {
        for x in [0, 1, 0x80, 0xFF] {
            let _ = Network::from_bytes(&edit(i, x), v);
        }
    }
    for len in 0..bytes.len() {
        assert!(Network::from_bytes(&bytes[..len], v).is_err());
    }
}

/// An independent floating-point forward pass: the features listed square by square,
/// the weights read and divided by their scales, `f64` throughout; centi-men.
fn float_eval(net: &Network, p: &Planes, squares: u32, per_row: u32) -> f64 {
    let (s, n) = (squares as usize, per_row as usize);
    let m = s - n;
    let side = |view: &Planes| {
        let mut h: Vec<f64> = net.l1_biases().iter().map(|&b| b as f64 / 127.0).collect();
        for sq in 0..s {
            let bit = 1u64 << sq;
            let king = view.rank2 & bit != 0;
            let input = if view.white & bit != 0 {
                match king {
                    true => Some(m + sq),
                    false if sq < m => Some(sq),
                    false => None,
                }
            } else if view.black & bit != 0 {
                match king {
                    true => Some(2 * m + s + sq),
                    false if sq >= n => Some(m + s + sq - n),
                    false => None,
                }
            } else {
                None
            };
            if let Some(f) = input {
                for (x, &w) in h.iter_mut().zip(net.l1_weights(f)) {
                    *x += w as f64 / 127.0;
                }
            }
        }
        h
    };
    let white = side(p);
    let black = side(&p.flipped(squares));
    let (us, them) = if p.black_to_move {
        (black, white)
    } else {
        (white, black)
    };
    let relu = |x: f64| x.clamp(0.0, 1.0);
    let a1: Vec<f64> = us.into_iter().chain(them).map(relu).collect();
    let layer = |w: Vec<&[i8]>, b: &[i32], a: &[f64]| -> Vec<f64> {
        w.iter()
            .zip(b)
            .map(|(row, &bias)| {
                let sum: f64 = row.iter().zip(a).map(|(&w, &x)| w as f64 / 64.0 * x).sum();
                relu(bias as f64 / 8128.0 + sum)
            })
            .collect()
    };
    // The stack: the pieces from 1 to the start's cut into equal runs.
    let pieces = (p.white | p.black).count_ones() as usize;
    let start = if squares == 50 { 40 } else { 24 }; // English, Russian, International here
    let stack = ((pieces - 1) * net.stacks() / start).min(net.stacks() - 1);
    let (w2, b2) = net.l2(stack);
    let a2 = layer(w2.iter().map(|r| &r[..]).collect(), b2, &a1);
    let (w3, b3) = net.l3(stack);
    let a3 = layer(w3.iter().map(|r| &r[..]).collect(), b3, &a2);
    let (w4, b4) = net.output(stack);
    let out: f64 = w4.iter().zip(&a3).map(|(&w, &x)| w as f64 / 64.0 * x).sum();
    100.0 * (out + b4 as f64 / 8128.0)
}

/// The integer evaluation is within [`FLOAT_TOLERANCE`] centi-men of the float pass.
const FLOAT_TOLERANCE: f64 = 3.0;

#[test]
fn float_reference_agrees() {
    fn check<R: Rules>() -> (f64, f64) {
        let (squares, per_row) = (
            u32::from(<R as Play>::SQUARES),
            if <R as Play>::SQUARES == 50 { 5 } else { 4 },
        );
        let (mut worst, mut total, mut count) = (0f64, 0f64, 0);
        let mut spread = 0f64;
        for seed in 0..3 {
            let net = Network::random(R::VARIANT, seed, [1, 3, 4][seed as usize]);
            for p in positions::<R>(5) {
                let int = net.evaluate(&Accumulator::new(&net, &p), &p);
                let float = float_eval(&net, &p, squares, per_row);
                let err = (int as f64 - float).abs();
                assert!(err <= FLOAT_TOLERANCE, "{int} vs {float:.2}: {p:?}");
                worst = worst.max(err);
                total += err;
                count += 1;
                spread = spread.max(float.abs());
            }
        }
        assert!(spread > 50.0, "{spread}");
        eprintln!(
            "{}: worst {worst:.2}, mean {:.3} centi-men, |eval| up to {spread:.0}",
            R::NAME,
            total / count as f64
        );
        (worst, total / count as f64)
    }
    check::<English>();
    check::<Russian>();
    check::<International>();
}

/// `Shape::features` lists exactly the inputs the accumulator adds: bias plus their
/// columns is the refreshed accumulator, on both boards.
#[test]
fn features_match_the_accumulator() {
    fn check<R: Rules>() {
        let net = Network::random(R::VARIANT, 3, 1);
        for p in positions::<R>(3) {
            let acc = Accumulator::new(&net, &p);
            for (persp, f) in net.shape().features(&p).iter().enumerate() {
                assert!(f.windows(2).all(|w| w[0] < w[1]));
                let mut sum = *net.l1_biases();
                for &i in f {
                    assert!((i as usize) < net.shape().inputs());
                    for (s, w) in sum.iter_mut().zip(net.l1_weights(i as usize)) {
                        *s = s.wrapping_add(*w);
                    }
                }
                assert_eq!(sum, acc.v[persp]);
            }
        }
    }
    check::<English>();
    check::<International>();
}

/// The float weights of `net` (each integer divided by its scale).
#[allow(clippy::type_complexity)]
fn floats(net: &Network) -> [Vec<f32>; 8] {
    let (qa, qw) = (QA as f32, QW as f32);
    let qab = qa * qw;
    let stacks = 0..net.stacks();
    let w2 = stacks.clone().flat_map(|s| net.l2(s).0.iter().flatten());
    let b2 = stacks.clone().flat_map(|s| net.l2(s).1);
    let w3 = stacks.clone().flat_map(|s| net.l3(s).0.iter().flatten());
    let b3 = stacks.clone().flat_map(|s| net.l3(s).1);
    let w4 = stacks.clone().flat_map(|s| net.output(s).0);
    let b4 = stacks.map(|s| net.output(s).1);
    [
        net.l.w1.iter().map(|&x| f32::from(x) / qa).collect(),
        net.l.b1.iter().map(|&x| f32::from(x) / qa).collect(),
        w2.map(|&x| f32::from(x) / qw).collect(),
        b2.map(|&x| x as f32 / qab).collect(),
        w3.map(|&x| f32::from(x) / qw).collect(),
        b3.map(|&x| x as f32 / qab).collect(),
        w4.map(|&x| f32::from(x) / qw).collect(),
        b4.map(|x| x as f32 / qab).collect(),
    ]
}

fn from_floats(v: Variant, f: &[Vec<f32>; 8]) -> Result<Network, String> {
    Network::from_float(v, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7])
}

/// A network's own weights as floats come back as the same network; small perturbations
/// (under half a quantisation step) round back too.
#[test]
fn from_float_round_trips() {
    for (v, stacks) in [(Variant::English, 1), (Variant::International, 3)] {
        let net = Network::random(v, 11, stacks);
        let mut f = floats(&net);
        assert_eq!(from_floats(v, &f).unwrap(), net);
        let (qa, qw, qab) = (QA as f32, QW as f32, (QA * QW) as f32);
        let steps = [qa, qa, qw, qab, qw, qab, qw, qab];
        for (layer, step) in f.iter_mut().zip(steps) {
            for (i, x) in layer.iter_mut().enumerate() {
                *x += if i % 2 == 0 { 0.4 } else { -0.4 } / step;
            }
        }
        assert_eq!(from_floats(v, &f).unwrap(), net);
    }
}

/// Wrong lengths and values the integers cannot hold are refused, naming the argument;
/// the range limits themselves are accepted.
#[test]
fn from_float_refuses_bad_input() {
    let v = Variant::English;
    let good = floats(&Network::random(v, 5, 1));
    let with = |layer: usize, i: usize, x: f32| {
        let mut f = good.clone();
        f[layer][i] = x;
        from_floats(v, &f)
    };
    let mut short = good.clone();
    short[0].pop();
    assert!(from_floats(v, &short).unwrap_err().starts_with("l1_w: "));
    assert!(with(2, 3, 2.0).unwrap_err().starts_with("l2_w[3] = 2"));
    assert!(with(2, 3, 127.0 / 64.0).is_ok());
    assert!(with(4, 0, -2.0).is_ok());
    assert!(with(4, 0, -2.01).unwrap_err().starts_with("l3_w[0]"));
    assert!(with(6, 1, f32::NAN).unwrap_err().starts_with("out_w[1]"));
    assert!(with(0, 0, 32767.0 / 127.0).is_ok());
    assert!(with(0, 0, 32768.0 / 127.0)
        .unwrap_err()
        .starts_with("l1_w[0]"));
    let max_bias = MAX_BIAS as f32 / (QA * QW) as f32;
    assert!(with(3, 0, max_bias * 1.01)
        .unwrap_err()
        .starts_with("l2_b[0]"));
    assert!(with(7, 0, f32::INFINITY)
        .unwrap_err()
        .starts_with("out_b[0]"));
    assert!(Network::from_float(
        Variant::Damone,
        &good[0],
        &good[1],
        &good[2],
        &good[3],
        &good[4],
        &good[5],
        &good[6],
        &[0.0]
    )
    .is_err());
    // Stacks: none, too many, and lengths that do not match the stacks' count.
    for n in [0, 9] {
        let e = from_floats(
            v,
            &[&good[..7], &[vec![0.0; n]]].concat().try_into().unwrap(),
        );
        assert!(e.unwrap_err().contains("layer stacks"));
    }
    let mut two = good.clone();
    two[7].push(0.0);
    assert!(from_floats(v, &two).unwrap_err().starts_with("l2_w: "));
}
