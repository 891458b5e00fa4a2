#!/usr/bin/env python3
"""How much of a match an engine played from its book (docs/book.md, "Shipped books"): replays
each game of a `damiera match --pdn` file with pydraughts 0.6.7 and counts the positions where
the engine NAME was to move, past the opening's own moves and at most BOOK_PLY plies from the
start, and the book holds the position (an engine with the book loaded then answers at once,
without searching). Keys by scripts/book_reader.py (docs/book.md's key).

    .venv/bin/python scripts/book-usage.py MATCH.pdn BOOK NAME [--book-ply 20] [--movetime 100]

Prints the games, the book moves per game, and the thinking time they saved at the match's
movetime (a searched move uses about the movetime; a book move about none)."""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import book_reader  # noqa: E402
from draughts import Board, Move  # noqa: E402


# pydraughts 0.6.7's name of each variant whose square numbers are the book's.
PYDRAUGHTS = {"english": "english", "international": "standard"}


def games(text):
    for chunk in text.split("[Event")[1:]:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', chunk))
        body = re.sub(r"\[[^\]]*\]", "", chunk.split("]", 1)[1])
        body = re.sub(r"\{[^}]*\}", "", body)
        moves = [t for t in body.split() if re.fullmatch(r"\d+[-x]\d+(?:[-x]\d+)*", t)]
        yield tags, moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdn")
    ap.add_argument("book")
    ap.add_argument("name")
    ap.add_argument("--book-ply", type=int, default=20)
    ap.add_argument("--movetime", type=int, default=100)
    a = ap.parse_args()
    variant, _, records = book_reader.read_book(a.book)
    keys = {r[0] for r in records}
    n = total = 0
    with open(a.pdn, encoding="utf-8") as f:
        text = f.read()
    for tags, moves in games(text):
        if variant not in PYDRAUGHTS:
            sys.exit("error: only English and International games (pydraughts' numbers match "
                     "the book's) for now; `damiera match` itself now reports book moves")
        opening = len(tags.get("Opening", "").split())
        ours = 0 if tags.get("White") == a.name else 1 if tags.get("Black") == a.name else None
        if ours is None:
            continue
        board = Board(variant=PYDRAUGHTS[variant])
        for ply, mv in enumerate(moves):
            if ply > a.book_ply:
                break
            # English: Black moves first, so the engine named White in the PDN moves at odd
            # plies; International: White moves first, at even plies.
            white_ply = 1 if variant == "english" else 0
            engine_to_move = (ply % 2 == white_ply) == (ours == 0)
            if ply >= opening and engine_to_move and \
                    book_reader.key(variant, board.fen) in keys:
                total += 1
            board.push(Move(board, pdn_move=mv))
        n += 1
    print(f"games {n}")
    print(f"book moves {total} ({total / max(n, 1):.2f} a game)")
    print(f"time saved {total * a.movetime / max(n, 1):.0f} ms a game at {a.movetime} ms a move")


if __name__ == "__main__":
    main()
