"""``selfplay``: games by index range, one ``damiera selfplay --first-game A --games B`` a task,
joined into the file one local ``damiera selfplay`` run with the same seed writes.

A self-play file is a 16-byte header and the records of its games in game order
(docs/training.md, "Data format"); ``--first-game`` writes the games ``A..B`` after the same
header, so the join is the first shard whole and every other shard without its header."""

from __future__ import annotations

import tempfile
from pathlib import Path

import ray

from damiera_cluster.common import (
    MAX_RETRIES,
    JobError,
    Store,
    mark_task,
    run_damiera,
    run_ranges,
    split,
    write_atomic,
)

HEADER = 16


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES)
def selfplay_shard(binary: str, variant: str, first: int, end: int, options: list) -> bytes:
    """The self-play file of games ``first..end`` (header included), played on one core."""
    mark_task()
    with tempfile.TemporaryDirectory(prefix="damiera-selfplay-") as d:
        out = Path(d) / "shard.dmsp"
        run_damiera(
            binary,
            ["selfplay", "-v", variant, "--first-game", str(first), "--games", str(end),
             "--concurrency", "1", "--out", str(out), *options],
            f"selfplay games {first}..{end}",
        )
        return out.read_bytes()


def join(shards: list) -> bytes:
    """The shards (in game order) as one file: the first whole, the others without their
    header, which must equal the first's."""
    if not shards:
        raise JobError("no games")
    head = shards[0][:HEADER]
    for s in shards:
        if len(s) < HEADER or s[:HEADER] != head:
            raise JobError("a shard's header differs from the first's (mixed variants or versions?)")
    return shards[0] + b"".join(s[HEADER:] for s in shards[1:])


def run(args, binary: str) -> int:
    """Runs the selfplay job (``args`` from :mod:`damiera_cluster.cli`); returns the exit status."""
    options = ["--depth", str(args.depth), "--seed", str(args.seed),
               "--opening-plies", str(args.opening_plies)]
    if args.nodes is not None:
        options += ["--nodes", str(args.nodes)]
    if args.eval_file:
        options += ["--eval-file", args.eval_file]
    if args.hash is not None:
        options += ["--hash", str(args.hash)]
    if args.max_plies is not None:
        options += ["--max-plies", str(args.max_plies)]
    ranges = list(split(0, args.games, args.shard))
    results = run_ranges(
        Store(args.work),
        ranges,
        key=lambda a, b: f"selfplay-{args.variant}-{a}-{b}.dmsp",
        submit=lambda a, b: selfplay_shard.remote(binary, args.variant, a, b, options),
        label="games",
        what="selfplay",
        encode=bytes,
        decode=bytes,
    )
    data = join([results[a] for a, _ in ranges])
    write_atomic(Path(args.out), data)
    print(f"{args.games} games in {len(ranges)} shards, {(len(data) - HEADER)} bytes of records "
          f"to {args.out}")
    return 0
