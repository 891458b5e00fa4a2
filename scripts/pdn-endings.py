#!/usr/bin/env python3
"""Where the games of a `damiera match` PDN end: each game replayed with pydraughts (an
implementation independent of damiera) to its final position, then the draws counted by
termination and material.

Usage: pdn-endings.py [--variant english|standard] [--tsv OUT] FILE.pdn

Numeric notation only (English, International: pydraughts' `english` and `standard`).
One TSV line per game (round, White tag, Black tag, result, termination, final FEN, plies)
goes to --tsv; a summary of the draws goes to stdout: termination, pieces on the board,
the difference in pieces, games. Final FENs can be probed with `damiera egdb probe --fen`.
Needs pydraughts (the tests install 0.6.7 into `.venv`).
"""

import argparse
import collections
import re
import sys

from draughts import Board

RESULTS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "*"}


def games(text):
    """(tags, move tokens) for each game of a PDN text."""
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        if not tags:
            continue
        body = re.sub(r"\[[^\]]*\]", "", chunk)
        body = re.sub(r"\{[^}]*\}", "", body)
        moves = [
            t
            for t in body.split()
            if t not in RESULTS and not re.fullmatch(r"\d+\.(\.\.)?", t)
        ]
        yield tags, moves


def squares(move):
    return [int(s) for s in re.split("[-x]", move)]


def play(board, token):
    """Push the legal move written as `token` (full capture path or first and last square)."""
    want = squares(token)
    candidates = list(board.legal_moves())
    for m in candidates:
        if m.pdn_move == token:
            board.push(m)
            return
    for m in candidates:
        got = squares(m.pdn_move)
        if got[0] == want[0] and got[-1] == want[-1]:
            board.push(m)
            return
    raise ValueError(f"illegal move {token} in {board.fen}")


def material(fen):
    """{side: pieces} of a pydraughts FEN such as `B:WK10,K18:BK20`."""
    out = {}
    for part in fen.split(":")[1:]:
        out[part[0]] = len([s for s in part[1:].split(",") if s])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdn")
    ap.add_argument("--variant", default="english", choices=["english", "standard"])
    ap.add_argument("--tsv", help="write one line per game here")
    args = ap.parse_args()
    with open(args.pdn, encoding="utf-8") as f:
        text = f.read()
    rows = []
    for tags, moves in games(text):
        fen = tags.get("FEN")
        board = Board(variant=args.variant, fen=fen) if fen else Board(variant=args.variant)
        try:
            for t in moves:
                play(board, t)
        except ValueError as e:
            print(f"round {tags.get('Round', '?')}: {e}", file=sys.stderr)
            continue
        rows.append(
            (
                tags.get("Round", ""),
                tags.get("White", ""),
                tags.get("Black", ""),
                tags.get("Result", ""),
                tags.get("Termination", ""),
                board.fen,
                len(moves),
            )
        )
    if args.tsv:
        with open(args.tsv, "w", encoding="utf-8") as f:
            for r in rows:
                print(*r, sep="\t", file=f)
    draws = collections.Counter()
    for _, _, _, result, term, fen, _ in rows:
        if result in ("1/2-1/2", "1-1"):
            m = material(fen)
            w, b = m.get("W", 0), m.get("B", 0)
            draws[(term, w + b, abs(w - b))] += 1
    print(f"{len(rows)} games replayed; draws by termination, pieces, difference:")
    for (term, pieces, diff), n in sorted(draws.items()):
        print(f"{term}\t{pieces}\t{diff}\t{n}")


if __name__ == "__main__":
    main()
