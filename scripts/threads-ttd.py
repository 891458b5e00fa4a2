#!/usr/bin/env python3
"""Time to a fixed depth with 1 and 2 threads over the bench positions (docs/strength.md,
"Threads"): runs `damiera bench -d DEPTH --threads 1` and `--threads 2` in turn, ROUNDS
times, so the machine's drift hits both alike, and prints per variant and over all positions
the seconds each took (summed over the rounds) and the ratio (1-thread time / 2-thread
time: above 1 when two threads reach the depth sooner).

    scripts/threads-ttd.py [--depth D] [--rounds R] [DAMIERA]

DAMIERA defaults to target/release/damiera. Run it on an idle machine: a second thread only
helps when a second core is free.
"""
import argparse
import collections
import subprocess


def bench(binary, depth, threads):
    """{variant: seconds} of one bench run, the two positions of a variant summed."""
    out = subprocess.run(
        [binary, "bench", "-d", str(depth), "--threads", str(threads)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    times = collections.Counter()
    for line in out.splitlines():
        if " nodes " in line:
            words = line.split()
            times[words[0]] += float(words[words.index("s") - 1])
    return times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("damiera", nargs="?", default="target/release/damiera")
    ap.add_argument("--depth", type=int, default=15)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    one, two = collections.Counter(), collections.Counter()
    for r in range(a.rounds):
        t1 = bench(a.damiera, a.depth, 1)
        t2 = bench(a.damiera, a.depth, 2)
        one.update(t1)
        two.update(t2)
        print(f"round {r + 1}: 1 thread {sum(t1.values()):.2f} s, 2 threads {sum(t2.values()):.2f} s")
    print(f"depth {a.depth}, {a.rounds} rounds: seconds with 1 thread, with 2, ratio")
    for v in one:
        print(f"{v:<14} {one[v]:8.2f} {two[v]:8.2f} {one[v] / two[v]:6.2f}")
    s1, s2 = sum(one.values()), sum(two.values())
    print(f"{'all':<14} {s1:8.2f} {s2:8.2f} {s1 / s2:6.2f}")


if __name__ == "__main__":
    main()
