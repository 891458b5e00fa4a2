#!/usr/bin/env python3
"""Paired nodes per second of damiera configurations (docs/egdb.md, "Speed").

The engines stay alive and the same `go depth DEPTH` goes to each configuration in turn,
round after round, so the machine's drift hits all alike. Prints each configuration's median
nps and its median ratio, round by round, to the first configuration's.

usage: nps-pair.py VARIANT FEN DEPTH ROUNDS LABEL=BINARY[,EGDB_DIR] ...
  FEN: a position, or @FILE for a suite (one FEN a line, e.g. from endgame-suite.py): each
  round searches every position in turn, and its nps is total nodes / total time
  DEPTH: plies (`go depth DEPTH`, the nps of that depth's info line), or tMS for a search of
  MS milliseconds (`go movetime MS`, the nps of the last depth completed): equal time is what
  a game gives, while at equal depth a configuration whose tree is smaller searches for a
  shorter time, so its start-up (first touches of the tables) weighs more.
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
    """(nodes, milliseconds) of the `info depth DEPTH` line (or, for tMS, the last one) of one
    search."""
    go = f"movetime {depth[1:]}" if depth.startswith("t") else f"depth {depth}"
    prefix = "info depth " if depth.startswith("t") else f"info depth {depth} "
    p.stdin.write(f"ucinewgame\nposition fen {fen}\ngo {go}\n")
    p.stdin.flush()
    done = None
    for line in p.stdout:
        if line.startswith(prefix) and " nps " in line:
            words = line.split()
            done = (int(words[words.index("nodes") + 1]), int(words[words.index("time") + 1]))
        if line.startswith("bestmove"):
            if done is None:
                sys.exit(f"error: no 'info depth' line for {fen}")
            return done
    sys.exit(f"error: the engine ended before its bestmove: {p.args[0]}")


def suite_nps(p, fens, depth):
    """Nodes per second over every position of `fens` (total nodes / total time)."""
    nodes = ms = 0
    for fen in fens:
        n, t = search(p, fen, depth)
        nodes, ms = nodes + n, ms + t
    return nodes * 1000 // max(ms, 1)


def stop(engines):
    for p in engines.values():
        p.stdin.write("quit\n")
        p.stdin.flush()
        p.wait()


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    variant, fen, depth, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    specs = dict(a.split("=", 1) for a in sys.argv[5:])
    cold = os.environ.get("COLD") == "1"
    fens = [l.strip() for l in open(fen[1:])] if fen.startswith("@") else [fen]
    fens = [f for f in fens if f and not f.startswith("#")]
    engines = {label: start(variant, spec) for label, spec in specs.items()}
    if not cold:
        for p in engines.values():
            suite_nps(p, fens, depth)
    rates = {label: [] for label in specs}
    for r in range(rounds):
        if cold and r > 0:
            stop(engines)
            engines = {label: start(variant, spec) for label, spec in specs.items()}
        for label, p in engines.items():
            rates[label].append(suite_nps(p, fens, depth))
    stop(engines)
    base = next(iter(specs))
    for label, v in rates.items():
        ratio = statistics.median(a / b for a, b in zip(v, rates[base]))
        print(f"{variant} {label}: median nps {statistics.median(v):,.0f}, "
              f"median ratio to {base} {ratio:.3f}")


if __name__ == "__main__":
    main()
