#!/usr/bin/env python3
"""Endgame positions from damiera's own games, for benchmarks (docs/egdb.md, "Speed").

damiera plays each opening of a ballot file against itself (`go depth DEPTH` a move, at most
200 plies) and the first position of each piece count from HI down to LO that has a legal
move is kept, until COUNT positions are kept; they are printed as FENs, one a line, after a
`#` line naming the command. The same arguments and binary give the same positions (the
search is deterministic at a fixed depth, one thread).

usage: endgame-suite.py VARIANT OPENINGS COUNT LO HI [DEPTH]
  OPENINGS: a ballot file of data/openings/ (FENs or move lists, `#` comments)
  DAMIERA: the binary (default target/release/damiera)
"""
import os
import subprocess
import sys


def pieces(fen):
    """Pieces on the board of a FEN `C:W...:B...` (squares separated by commas)."""
    count = 0
    for field in fen.split(":")[1:3]:
        squares = field[1:]
        if squares:
            count += len(squares.split(","))
    return count


class Engine:
    def __init__(self, binary, variant):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)
        self.send(f"setoption name Variant value {variant}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        for line in self.p.stdout:
            if line.startswith(prefix):
                return line.strip()
            if line.startswith("info string error"):
                sys.exit(f"error: the engine said: {line.strip()}")
        sys.exit("error: the engine ended")

    def fen(self):
        self.send("d")
        return self.until("Fen:").split(None, 1)[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    variant, openings, count, lo, hi = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
    depth = int(sys.argv[6]) if len(sys.argv) > 6 else 6
    binary = os.environ.get("DAMIERA", "target/release/damiera")
    lines = [l.split("#", 1)[0].strip() for l in open(openings)]
    lines = [l for l in lines if l]
    engine = Engine(binary, variant)
    kept = []
    for opening in lines:
        if len(kept) >= count:
            break
        engine.send("ucinewgame")
        if ":" in opening:
            engine.send(f"position fen {opening}")
        else:
            engine.send(f"position startpos moves {opening}")
        fen = engine.fen()
        next_count = hi
        for _ in range(200):
            n = pieces(fen)
            if n < lo:
                break
            engine.send(f"go depth {depth}")
            best = engine.until("bestmove").split()
            if len(best) < 2 or best[1] in ("(none)", "none", "0000"):
                break  # the game is over: not a position to search
            if n <= next_count:
                kept.append(fen)
                next_count = n - 1
                if len(kept) >= count:
                    break
            engine.send(f"position fen {fen} moves {best[1]}")
            fen = engine.fen()
    engine.quit()
    print(f"# scripts/endgame-suite.py {' '.join(sys.argv[1:])}")
    for fen in kept:
        print(fen)


if __name__ == "__main__":
    main()
