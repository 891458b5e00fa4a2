#!/usr/bin/env python3
"""`damiera bench` of several configurations in turn, round after round, so that the machine's
drift hits all alike (docs/strength.md, "Speed" and "Threads"). Prints per variant and over all
positions each configuration's seconds and nodes a second (summed over the rounds), and the
ratio of the first configuration's time to each other's (above 1: the other is faster).

    scripts/bench-pair.py [--depth D] [--rounds R] LABEL=COMMAND ...

COMMAND is a damiera binary and, after it, extra `bench` arguments, e.g.
    1-thread=target/release/damiera "2-threads=target/release/damiera --threads 2"
    old=../old/target/release/damiera new=target/release/damiera
Run it on an idle machine.
"""
import argparse
import collections
import shlex
import subprocess


def bench(command, depth):
    """{variant: [seconds, nodes]} of one bench run, the positions of a variant summed."""
    binary, *extra = shlex.split(command)
    out = subprocess.run(
        [binary, "bench", "-d", str(depth)] + extra,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    sums = collections.defaultdict(lambda: [0.0, 0])
    for line in out.splitlines():
        if " nodes " in line:
            words = line.split()
            at = words.index("nodes")
            sums[words[0]][0] += float(words[words.index("s") - 1])
            sums[words[0]][1] += int(words[at - 1])
    return sums


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("configs", nargs="+", metavar="LABEL=COMMAND")
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    configs = [c.split("=", 1) for c in a.configs]
    totals = {label: collections.defaultdict(lambda: [0.0, 0]) for label, _ in configs}
    for r in range(a.rounds):
        line = []
        for label, command in configs:
            for v, (t, n) in bench(command, a.depth).items():
                totals[label][v][0] += t
                totals[label][v][1] += n
            line.append(f"{label} {sum(x[0] for x in totals[label].values()):.2f} s")
        print(f"round {r + 1} (cumulative): " + ", ".join(line))
    first = configs[0][0]
    print(f"depth {a.depth}, {a.rounds} rounds: seconds, nodes a second; time ratio to {first}")

    def summed(label, v):
        """(seconds, nodes) of a configuration for variant v, or over all for "all"."""
        rows = totals[label].values() if v == "all" else [totals[label][v]]
        return sum(x[0] for x in rows), sum(x[1] for x in rows)

    for v in list(totals[first]) + ["all"]:
        t0 = summed(first, v)[0]
        cells = []
        for label, _ in configs:
            t, n = summed(label, v)
            cells.append(f"{label} {t:7.2f} s {n / t / 1e6:5.2f} M/s x{t0 / t:4.2f}")
        print(f"{v:<14} " + " | ".join(cells))

if __name__ == "__main__":
    main()
