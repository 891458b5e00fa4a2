#!/usr/bin/env python3
"""Where the games of a `damiera match` PDN end: each game read by pydraughts 0.6.7's
PDNReader and replayed through its rules (an implementation independent of damiera, as in
tests/pydraughts/pdn_replay.py), then the draws counted by termination and material.

Usage: pdn-endings.py [--tsv OUT] FILE.pdn

One TSV line per game (round, White tag, Black tag, result, termination, final FEN, plies)
goes to --tsv; a summary of the draws goes to stdout: termination, pieces on the board,
the difference in pieces, games. Final FENs can be probed with `damiera egdb probe --fen`.
Needs pydraughts (the tests install 0.6.7 into `.venv`).
"""

import argparse
import collections
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader

DRAWS = ("1/2-1/2", "1-1")


def pieces(fen):
    """{side: pieces} of a pydraughts FEN such as `B:WK10,K18:BK20`."""
    return {p[0]: len([s for s in p[1:].split(",") if s]) for p in fen.split(":")[1:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdn")
    ap.add_argument("--tsv", help="write one line per game here")
    args = ap.parse_args()
    rows = []
    for game in PDNReader(filename=args.pdn).games:
        tags = game.tags
        board = Board(game.variant, fen=tags.get("FEN", "startpos"))
        for move in game.moves:
            board.push(Move(board, pdn_move=move.replace(":", "x")))
        rows.append((tags.get("Round", ""), tags.get("White", ""), tags.get("Black", ""),
                     tags.get("Result", ""), tags.get("Termination", ""), board.fen,
                     len(game.moves)))
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            for row in rows:
                print(*row, sep="\t", file=f)
    draws = collections.Counter()
    for _, _, _, result, term, fen, _ in rows:
        if result in DRAWS:
            n = pieces(fen)
            w, b = n.get("W", 0), n.get("B", 0)
            draws[(term, w + b, abs(w - b))] += 1
    print(f"{len(rows)} games replayed; draws by termination, pieces, difference:")
    for (term, total, diff), n in sorted(draws.items()):
        print(f"{term}\t{total}\t{diff}\t{n}")


if __name__ == "__main__":
    sys.exit(main())
