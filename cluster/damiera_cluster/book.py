"""``book``: an opening book built by drop-out expansion (docs/book.md), its leaf searches as
Ray tasks. The driver runs ``damiera book build --leaf-pipe`` on this machine: it holds the
DAG and the book file (resumable, written atomically, as the local build), and for each
expansion writes the new positions (``leaves N`` and N FENs); each position, or each
``--per-task`` of them, is a task running ``damiera book values``, and the values go back in
order. At a fixed ``--depth`` a value depends on the position alone (every search starts from
a cleared table), so the book is the local build's byte for byte; with ``--movetime`` it is
not (deeper on faster nodes)."""

from __future__ import annotations

import subprocess
import sys
import time

import ray

from damiera_cluster.common import (
    MAX_RETRIES,
    JobError,
    TaskError,
    cause_of,
    die_with_parent,
    mark_task,
    run_damiera,
    split,
)


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES)
def leaf_values(binary: str, variant: str, limit: list, hash_mib: int, fens: list) -> str:
    """``damiera book values`` of ``fens``: one line ``VALUE DEPTH`` a FEN, in order."""
    mark_task()
    out = run_damiera(
        binary,
        ["book", "values", "-v", variant, *limit, "--hash", str(hash_mib)],
        f"leaf values of {fens[0]}",
        stdin="".join(f + "\n" for f in fens),
    )
    if out.count("\n") != len(fens):
        raise TaskError(f"leaf values of {fens[0]}: {out.count(chr(10))} lines for "
                        f"{len(fens)} positions")
    return out


def build_command(args, binary: str) -> list:
    """The ``damiera book build --leaf-pipe`` command line of the job's arguments."""
    cmd = [binary, "book", "build", "-v", args.variant, "--positions", str(args.positions),
           "--hash", str(args.hash), "--leaf-pipe", "--out", args.out]
    cmd += ["--depth", str(args.depth)] if args.depth is not None else \
        ["--movetime", str(args.movetime)]
    if args.alpha is not None:
        cmd += ["--alpha", str(args.alpha)]
    for path in args.openings:
        cmd += ["--from", path]
    return cmd


def run(args, binary: str) -> int:
    """Runs the book job (``args`` from :mod:`damiera_cluster.cli`); returns the exit status."""
    if args.positions < 1 or args.per_task < 1:
        raise JobError("--positions and --per-task must be at least 1")
    limit = ["--depth", str(args.depth)] if args.depth is not None else \
        ["--movetime", str(args.movetime)]
    t0 = time.monotonic()
    build = subprocess.Popen(build_command(args, binary), stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
    leaves = tasks = 0
    failure = None
    try:
        for line in build.stdout:
            if not line.startswith("leaves "):
                print(line, end="")
                continue
            n = int(line.split()[1])
            fens = [build.stdout.readline().strip() for _ in range(n)]
            refs = [leaf_values.remote(binary, args.variant, limit, args.hash, fens[a:b])
                    for a, b in split(0, n, args.per_task)]
            try:
                values = ray.get(refs)
            except Exception as e:  # noqa: BLE001 - a failed task ends the job
                for r in refs:
                    ray.cancel(r, force=True)
                failure = f"leaf values failed: {cause_of(e)}"
                break
            build.stdin.write("".join(values))
            build.stdin.flush()
            leaves += n
            tasks += len(refs)
    finally:
        # Closing the pipe ends a build still waiting for values: it writes its book (every
        # finished expansion is kept) and exits.
        build.stdin.close()
        status = build.wait()
    if failure:
        raise JobError(failure + f" (the book keeps every finished expansion: {args.out})")
    if status != 0:
        raise JobError(f"damiera book build exited with status {status}")
    secs = time.monotonic() - t0
    print(f"Leaves: {leaves} searched in {tasks} tasks, {secs:.1f} s", file=sys.stderr)
    return 0
