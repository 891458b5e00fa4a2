"""``egdb``: the endgame database build as a Ray task graph. ``damiera egdb units`` lists the
units (a material and its swap) in build order with the units each depends on; each unit is
one ``damiera egdb build-unit`` task, a pure function of its dependencies' files, handed its
dependencies' task results so that Ray starts it only after them. Every task reads and
writes one directory all workers see (a shared filesystem path); a unit's files are written
atomically and a finished unit is kept, so a retried task or a rerun redoes nothing."""

from __future__ import annotations

from pathlib import Path

import ray

from damiera_cluster.common import MAX_RETRIES, JobError, mark_task, run_damiera, wait_tasks


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES)
def build_unit(binary: str, variant: str, root: str, unit: str, *dependencies) -> str:
    """Builds ``unit`` into ``root`` (its dependencies, the other arguments, are built)."""
    mark_task()
    run_damiera(
        binary,
        ["egdb", "build-unit", "-v", variant, "--unit", unit, "--dir", root, "--threads", "1"],
        f"egdb unit {unit}",
    )
    return unit


def units(binary: str, variant: str, pieces: int) -> list:
    """``(unit, [dependencies])`` in build order, from ``damiera egdb units`` (its third
    column, the unit's positions, is not needed here)."""
    out = run_damiera(binary, ["egdb", "units", "-v", variant, "-p", str(pieces)], "egdb units")
    graph = []
    for line in out.splitlines():
        name, deps = (line.split("\t") + [""])[:2]
        graph.append((name, deps.split()))
    return graph


def run(args, binary: str) -> int:
    """Runs the egdb job (``args`` from :mod:`damiera_cluster.cli`); returns the exit status."""
    root = Path(args.dir).resolve()
    root.mkdir(parents=True, exist_ok=True)
    graph = units(binary, args.variant, args.pieces)
    refs = {}
    by_unit = {}
    for name, deps in graph:
        missing = [d for d in deps if d not in by_unit]
        if missing:
            raise JobError(f"unit {name} depends on {missing[0]}, not listed before it")
        ref = build_unit.remote(binary, args.variant, str(root), name,
                                *[by_unit[d] for d in deps])
        by_unit[name] = ref
        refs[ref] = f"unit {name}"
    wait_tasks(refs, lambda _n, _v: False, f"egdb {args.variant}")
    print(f"{args.variant}: {len(graph)} units up to {args.pieces} pieces in "
          f"{root / args.variant}")
    return 0
