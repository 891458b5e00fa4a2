#!/usr/bin/env python3
"""Forced results by pydraughts 0.6.7's rules: the Python half of damiera's database check.

Usage:
    python prove.py --variant {english,italian,brazilian,russian,international,antidraughts,
                               frisian} --depth D < fens

Reads one FEN per line (the variant's own notation, as walk.py's --fen takes it) and writes one
line per FEN: `win` or `loss` for the side to move when an AND-OR search over pydraughts'
`Game.legal_moves()` proves it within D plies (a side with no legal move has lost; in
antidraughts it has won), else `?`. Frisian FENs are kings only (no king-move state).
pydraughts' own draw rules are not consulted: a proof within a few plies never meets them.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from walk import TEN, Notation  # noqa: E402

from draughts.core.game import Game  # noqa: E402


def prove(game, depth, stuck='loss'):
    """'win', 'loss' or None for the side to move, within depth plies; `stuck` is the result
    of a side without a legal move."""
    moves = game.legal_moves()[0]
    if not moves:
        return stuck
    if depth == 0:
        return None
    all_win = True
    for m in moves:
        game.push(m)
        r = prove(game, depth - 1, stuck)
        game.pop()
        if r == 'loss':
            return 'win'
        if r != 'win':
            all_win = False
    return 'loss' if all_win else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--variant', required=True,
                    choices=['english', 'italian', 'brazilian', 'russian', 'international',
                             'antidraughts', 'frisian'])
    ap.add_argument('--depth', type=int, default=3)
    a = ap.parse_args()
    nt = Notation(a.variant)
    pd_variant = TEN.get(a.variant, a.variant)
    stuck = 'win' if a.variant == 'antidraughts' else 'loss'
    for fen in sys.stdin:
        fen = fen.strip()
        if not fen:
            continue
        print(prove(Game(pd_variant, nt.parse_fen(fen)), a.depth, stuck) or '?', flush=True)


if __name__ == '__main__':
    main()
