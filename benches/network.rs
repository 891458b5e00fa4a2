//! criterion benchmarks of the evaluation network's inference (`engine::eval::network`, random
//! weights): the evaluation from an accumulator, a refresh, and incremental updates for a
//! quiet move and a capture, on English and International, with the AVX2 path (when the CPU
//! has it) and the scalar one. Run with `cargo bench --bench network`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use damiera::core::movegen::Duplicates;
use damiera::engine::eval::network::{Accumulator, Network};
use damiera::engine::eval::{planes, Planes};
use damiera::{English, International, MoveList, Play, Rules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// A quiet move and a capture (before, after) from a random game, after the opening.
fn moves<R: Rules>() -> ((Planes, Planes), (Planes, Planes)) {
    let mut rng = StdRng::seed_from_u64(1);
    let (mut quiet, mut capture) = (None, None);
    let mut pos = <R as Play>::start();
    let mut list = MoveList::new();
    for ply in 0..200 {
        <R as Play>::generate(&pos, &mut list, Duplicates::Drop);
        if list.is_empty() || (quiet.is_some() && capture.is_some()) {
            break;
        }
        let next = <R as Play>::make(&pos, &list.as_slice()[rng.gen_range(0..list.len())]);
        let (a, b) = (planes(&pos), planes(&next));
        let count = |p: &Planes| (p.white | p.black).count_ones();
        if ply >= 10 && count(&a) == count(&b) && quiet.is_none() {
            quiet = Some((a, b));
        } else if count(&b) < count(&a) && capture.is_none() {
            capture = Some((a, b));
        }
        pos = next;
    }
    (quiet.expect("a quiet move"), capture.expect("a capture"))
}

fn bench_variant<R: Rules>(c: &mut Criterion) {
    let ((q0, q1), (c0, c1)) = moves::<R>();
    let mut net = Network::random(R::VARIANT, 1, 1);
    for simd in [true, false] {
        if net.set_simd(simd) != simd {
            continue;
        }
        let path = if simd { "avx2" } else { "scalar" };
        let mut g = c.benchmark_group(format!("network/{}/{path}", R::NAME));
        let acc = Accumulator::new(&net, &q1);
        g.bench_function("evaluate", |b| {
            b.iter(|| net.evaluate(black_box(&acc), black_box(&q1)))
        });
        g.bench_function("refresh", |b| {
            let mut acc = acc;
            b.iter(|| {
                acc.refresh(&net, black_box(&q1));
                acc.v[0][0]
            })
        });
        for (name, before, after) in [("update quiet", q0, q1), ("update capture", c0, c1)] {
            let start = Accumulator::new(&net, &before);
            g.bench_function(name, |b| {
                b.iter(|| {
                    let mut acc = start;
                    acc.update(&net, black_box(&before), black_box(&after));
                    acc.v[1][0]
                })
            });
        }
        g.finish();
    }
}

fn network_benches(c: &mut Criterion) {
    bench_variant::<English>(c);
    bench_variant::<International>(c);
}

criterion_group!(benches, network_benches);
criterion_main!(benches);
