"""``python -m damiera_cluster.estimate RATE [CORES...] < units.txt``: an estimate on paper of
a database build on a cluster, from the task graph ``damiera egdb units -v V -p N`` prints and
a measured rate (positions per second of one task on one core).

Prints the units, positions and core-hours of work; the critical path (the longest chain of
units, each after the units it depends on, a unit one task on one core); the largest unit with
its time and the memory the builder holds for it (11 bytes a position of the unit,
docs/egdb.md); and for each number of cores the lower bound max(work / cores, critical
path) on the wall time. No Ray: it reads the graph and computes."""

from __future__ import annotations

import sys

BYTES_PER_POSITION = 11


def estimate(lines, rate: float, cores=(1, 8, 32, 128, 512)) -> str:
    """The estimate's lines for the graph ``lines`` at ``rate`` positions/s a core."""
    units = {}
    order = []
    for k, line in enumerate(lines, 1):
        if not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        if len(cols) != 3 or not cols[2].isdigit():
            raise ValueError(f"line {k}: expected UNIT<TAB>DEPENDENCIES<TAB>POSITIONS")
        name, deps, positions = cols
        units[name] = (deps.split(), int(positions))
        order.append(name)
    if not order:
        raise ValueError("no units on stdin (pipe `damiera egdb units -v V -p N` in)")
    finish = {}
    for u in order:
        deps, n = units[u]
        for d in deps:
            if d not in finish:
                raise ValueError(f"unit {u} depends on {d}, not listed before it")
        finish[u] = max((finish[d] for d in deps), default=0.0) + n / rate
    total = sum(n for _, n in units.values())
    path = max(finish.values())
    big = max(order, key=lambda u: units[u][1])
    n_big = units[big][1]
    out = [
        f"units {len(order)}, positions {total:,}, work {total / rate / 3600:,.1f} core-hours "
        f"at {rate:,.0f} positions/s a core",
        f"critical path {path / 3600:,.1f} h; largest unit {big}: {n_big:,} positions, "
        f"{n_big / rate / 3600:,.2f} h on one core, {n_big * BYTES_PER_POSITION / 2**30:,.0f} GiB",
    ]
    for c in cores:
        out.append(f"{c} cores: at least {max(total / rate / c, path) / 3600:,.1f} h")
    return "\n".join(out)


def main(argv=None) -> int:
    """The command line; exit status 2 on bad input."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print("usage: python -m damiera_cluster.estimate RATE [CORES...] < units.txt",
              file=sys.stderr)
        return 2
    try:
        rate = float(argv[0])
        cores = tuple(int(c) for c in argv[1:]) or (1, 8, 32, 128, 512)
        print(estimate(sys.stdin, rate, cores))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
