#!/usr/bin/env python3
"""Paired nodes per second of damiera configurations (docs/egdb.md, "Speed").

The engines stay alive and the same `go depth DEPTH` goes to each configuration in turn,
round after round, so the machine's drift hits all alike. Prints each configuration's median
nps and its median ratio, round by round, to the first configuration's.

usage: nps-pair.py VARIANT FEN DEPTH ROUNDS LABEL=BINARY[,EGDB_DIR] ...
  COLD=1: a fresh process for every round (its first search, caches cold); otherwise one
  warm-up search first and the processes kept (as in a game).
"""
import os
import statistics
import subprocess
import sys


def start(variant, spec):
    binary, *egdb = spec.split(",")
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(f"setoption name Variant value {variant}\n")
    if egdb:
        p.stdin.write(f"setoption name EgdbPath value {egdb[0]}\n")
    return p


def search(p, fen, depth):
    """The nps of the last `info depth DEPTH` line of one search."""
    p.stdin.write(f"ucinewgame\nposition fen {fen}\ngo depth {depth}\n")
    p.stdin.flush()
    nps = None
    for line in p.stdout:
        if line.startswith(f"info depth {depth} "):
            words = line.split()
            nps = int(words[words.index("nps") + 1])
        if line.startswith("bestmove"):
            return nps
    sys.exit(f"error: the engine ended before its bestmove: {p.args[0]}")


def stop(engines):
    for p in engines.values():
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    variant, fen, depth, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    specs = dict(a.split("=", 1) for a in sys.argv[5:])
    cold = os.environ.get("COLD") == "1"
    engines = {label: start(variant, spec) for label, spec in specs.items()}
    if not cold:
        for p in engines.values():
            search(p, fen, depth)
    rates = {label: [] for label in specs}
    for r in range(rounds):
        if cold and r > 0:
            stop(engines)
            engines = {label: start(variant, spec) for label, spec in specs.items()}
        for label, p in engines.items():
            rates[label].append(search(p, fen, depth))
    stop(engines)
    base = next(iter(specs))
    for label, v in rates.items():
        ratio = statistics.median(a / b for a, b in zip(v, rates[base]))
        print(f"{variant} {label}: median nps {statistics.median(v):,.0f}, "
              f"median ratio to {base} {ratio:.3f}")


if __name__ == "__main__":
    main()
