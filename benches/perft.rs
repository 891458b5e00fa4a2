//! criterion benchmarks: perft from the start position (bulk counting, no hashing) and move
//! generation. Run with `cargo bench`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use damiera::core::movegen::{self, Duplicates};
use damiera::core::perft::perft;
use damiera::{Brazilian, English, Italian, MoveList, Position, Rules, Russian};

fn bench_perft<R: Rules>(c: &mut Criterion, depth: u32, leaves: u64) {
    let pos = Position::<R>::start();
    let mut g = c.benchmark_group(format!("perft/{}", R::NAME));
    g.sample_size(10);
    g.throughput(Throughput::Elements(leaves));
    g.bench_function(format!("depth {depth}"), |b| {
        b.iter(|| assert_eq!(perft::<R>(black_box(&pos), depth, Duplicates::Drop), leaves))
    });
    g.finish();
}

fn perft_benches(c: &mut Criterion) {
    // Leaf counts: shared reference perft.md §3 (DCTL drop columns).
    bench_perft::<English>(c, 9, 3_963_680);
    bench_perft::<Italian>(c, 9, 3_860_875);
    bench_perft::<Brazilian>(c, 9, 4_431_766);
    bench_perft::<Russian>(c, 9, 4_570_586);
}

fn movegen_benches(c: &mut Criterion) {
    let pos = Position::<English>::start();
    c.bench_function("generate/english start", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            movegen::generate(black_box(&pos), &mut list);
            list.len()
        })
    });
}

criterion_group!(benches, perft_benches, movegen_benches);
criterion_main!(benches);
