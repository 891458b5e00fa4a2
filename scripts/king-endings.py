#!/usr/bin/env python3
"""English king endings the side to move wins, as a match's openings file.

Usage: king-endings.py --damiera BIN --egdb DIR [--count N] [--seed S] [--min-plies P]

Draws random all-kings positions of 2 kings against 1 and 3 against 2, the side ahead to move,
and keeps those the endgame databases (`damiera egdb probe`) call a win for the side to move
at least P plies (distance to conversion) from the next capture, with no capture on the
board. Prints one FEN a line, with a comment giving the material and the distance: `damiera
match --openings` plays each twice, colours reversed, so each engine converts each position
once and defends it once. Deterministic for a seed and a build of the databases (2 kings
against 1 and 3 against 2 need the 5-piece English tables).
"""

import argparse
import random
import subprocess
import sys

# The endings damiera drew a king up by the no-progress rule (docs/strength.md, "Standing per
# variant"; docs/journal/search.md, "English, the finishing term and where the draws end").
MATERIALS = [(2, 1), (3, 2)]
# Random positions tried per material before giving up on finding more.
TRIES = 5000


def probe(damiera, egdb, fen):
    """The database's value and distance of `fen`, or None when a capture is on the board."""
    out = subprocess.run(
        [damiera, "egdb", "probe", "-v", "english", "--dir", egdb, "--fen", fen],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        sys.exit(f"error: damiera egdb probe: {out.stderr.strip()}")
    lines = out.stdout.splitlines()
    moves = [line for line in lines if line.startswith("move ")]
    if any("x" in m.split()[1] for m in moves):
        return None
    value = lines[0].split(": ", 1)[1]
    dist = lines[1].split(": ", 1)[1].split()[0]
    return value, (None if dist == "-" else int(dist))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--damiera", required=True)
    ap.add_argument("--egdb", required=True, help="the databases' root directory")
    ap.add_argument("--count", type=int, default=40, help="positions (default 40)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-plies", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    per = -(-args.count // len(MATERIALS))
    kept = 0
    print(f"# English king endings won for the side to move, >= {args.min_plies} plies to "
          f"conversion (scripts/king-endings.py --seed {args.seed} --count {args.count})")
    for strong, weak in MATERIALS:
        found = tries = 0
        while found < per and kept < args.count and tries < TRIES:
            tries += 1
            squares = rng.sample(range(1, 33), strong + weak)
            black_ahead = rng.random() < 0.5
            ahead, behind = squares[:strong], squares[strong:]
            kings = lambda s: ",".join(f"K{q}" for q in sorted(s))
            w, b = (behind, ahead) if black_ahead else (ahead, behind)
            fen = f"{'B' if black_ahead else 'W'}:W{kings(w)}:B{kings(b)}"
            r = probe(args.damiera, args.egdb, fen)
            if r is None or r[0] != "win" or r[1] < args.min_plies:
                continue
            print(f"{fen} # {strong}K v {weak}K, win in {r[1]} plies")
            found += 1
            kept += 1
        print(f"{strong}K v {weak}K: {found} positions in {tries} tries", file=sys.stderr)


if __name__ == "__main__":
    main()
