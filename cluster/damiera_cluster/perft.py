"""``perft``: a deep perft split at a chosen ply. ``damiera perft --split K`` lists the
positions K plies below (once per path); tasks count perft(depth - K) of batches of them and
the driver sums: the sum is perft(depth)."""

from __future__ import annotations

import hashlib
import time

import ray

from damiera_cluster.common import (
    MAX_RETRIES,
    JobError,
    Store,
    mark_task,
    run_damiera,
    run_ranges,
    split,
)


def count_of(stdout: str) -> int:
    """The leaf count of ``damiera perft``'s output (its ``Nodes searched: N`` line)."""
    for line in stdout.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":", 1)[1])
    raise JobError("damiera perft printed no count")


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES)
def perft_batch(binary: str, variant: str, fens: list, depth: int, duplicates: str) -> int:
    """The sum of perft(``depth``) over ``fens``."""
    mark_task()
    total = 0
    for fen in fens:
        total += count_of(run_damiera(
            binary,
            ["perft", "-v", variant, "--fen", fen, "-d", str(depth), "--duplicates", duplicates],
            f"perft of {fen}",
        ))
    return total


def run(args, binary: str) -> int:
    """Runs the perft job (``args`` from :mod:`damiera_cluster.cli`); returns the exit status."""
    if not 0 <= args.split_ply <= args.depth:
        raise JobError(f"--split-ply {args.split_ply}: 0 to --depth ({args.depth})")
    t0 = time.monotonic()
    base = ["perft", "-v", args.variant, "-d", str(args.depth), "--split", str(args.split_ply),
            "--duplicates", args.duplicates]
    if args.fen:
        base += ["--fen", args.fen]
    fens = run_damiera(binary, base, "perft split").splitlines()
    if not fens:
        print("Nodes searched: 0")
        return 0
    rest = args.depth - args.split_ply
    tasks = args.tasks or max(1, min(len(fens), 8 * int(ray.cluster_resources().get("CPU", 1))))
    size = -(-len(fens) // tasks)
    ranges = list(split(0, len(fens), size))
    where = hashlib.sha256((args.fen or "start").encode()).hexdigest()[:12]
    tag = f"perft-{args.variant}-{where}-{args.duplicates}-{args.depth}-{args.split_ply}"
    counts = run_ranges(
        Store(args.work),
        ranges,
        key=lambda a, b: f"{tag}-{a}-{b}.txt",
        submit=lambda a, b: perft_batch.remote(binary, args.variant, fens[a:b], rest,
                                               args.duplicates),
        label="positions",
        what="perft",
        encode=lambda n: str(n).encode(),
        decode=int,
    )
    total = sum(counts.values())
    secs = time.monotonic() - t0
    print(f"Nodes searched: {total}")
    print(f"Time: {secs:.3f} s")
    print(f"Nodes/second: {total / max(secs, 1e-9):.0f}")
    print(f"Split: {len(fens)} positions at ply {args.split_ply} in {len(ranges)} tasks")
    return 0
