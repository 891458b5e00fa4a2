#!/usr/bin/env python3
"""The real overhead of a timed move (docs/protocol.md, "MoveOverhead"): drives `damiera`
(native protocol) over pipes with MoveOverhead 0, sends a fixed-time search
from each opening of a file, and prints how much later than the time asked the best move
arrived (wall clock, as a front end sees it: mean, 99th percentile, max, in milliseconds).

    scripts/move-overhead.py [--movetime MS] [--count N] DAMIERA VARIANT OPENINGS

Openings: one a line, moves in the variant's notation (the match tool's files); positions
whose answer came in under half the time (a single legal move, answered at once by design)
are left out.
"""
import argparse
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("damiera")
    ap.add_argument("variant")
    ap.add_argument("openings")
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--count", type=int, default=100)
    a = ap.parse_args()
    lines = [l.split("#")[0].strip() for l in open(a.openings)]
    lines = [l for l in lines if l and not l.startswith("[")][: a.count]
    cmd = [a.damiera]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            l = p.stdout.readline()
            if not l:
                raise SystemExit("engine exited")
            if l.startswith(prefix):
                return l

    late = []
    send(f"setoption name Variant value {a.variant}")
    send("setoption name MoveOverhead value 0")
    for moves in lines:
        send(f"position startpos moves {moves}")
        t0 = time.perf_counter()
        send(f"go movetime {a.movetime}")
        until("bestmove")
        ms = (time.perf_counter() - t0) * 1000
        if ms > a.movetime / 2:
            late.append(ms - a.movetime)
    send("quit")
    p.wait()
    late.sort()
    p99 = late[min(len(late) - 1, int(len(late) * 0.99))]
    print(
        f"{len(late)} moves at movetime {a.movetime}: late by mean {statistics.mean(late):.2f} ms, "
        f"p99 {p99:.2f} ms, max {late[-1]:.2f} ms (min {late[0]:.2f})"
    )


if __name__ == "__main__":
    main()
