#!/usr/bin/env python3
"""Complete International games: pydraughts 0.6.7's DXPEngine (the initiator, a DXP client
written by others) against `damiera dxp --listen` on loopback.

Usage: python dxp_games.py PORT [--games 2] [--seed 1] [--initial-time 0]

The engine is already listening on 127.0.0.1:PORT (pydraughts' `engine-opened`, its default).
Each game opens a new DXPEngine (a new connection and GAMEREQ); damiera plays White in even
games and Black in odd ones. The other side's moves are pydraughts' own: random legal moves
from random.Random(f"dxp/{seed}/{game}"). pydraughts' Board checks every damiera move (its
receiver only accepts a MOVE equal to one of its legal moves: same from, to and captured set).
A game ends when pydraughts' Board says it is over, and the client then sends its GAMEEND
(`quit()`); or when damiera ends it on its turn with a GAMEEND, which pydraughts' receiver
answers. Every wait is bounded (pydraughts spins forever on an illegal move).

Prints one line per game: plies, who ended it and the result; exits 1 on the first failure.
"""
import argparse
import random
import sys
import threading
import time

from draughts import Board
from draughts.engine import DXPEngine

MAX_PLIES = 400
MOVE_TIMEOUT = 60.0


def engine_move(engine, board):
    """damiera's reply, or None if it ended the game instead (its GAMEEND was received)."""
    result = {}

    def run():
        try:
            result['move'] = engine.play(board).move
        except Exception as exc:  # reported below
            result['error'] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    deadline = time.time() + MOVE_TIMEOUT
    while t.is_alive() and time.time() < deadline:
        t.join(0.05)
        status = engine.sender.current
        if engine.receiver.gameend_sent and status.result is not None and not status.started:
            return None  # damiera sent GAMEEND; pydraughts answered it
    if t.is_alive():
        raise RuntimeError('no move from damiera within %d s (illegal move or hang?) in %s'
                           % (MOVE_TIMEOUT, board.fen))
    if 'error' in result:
        raise result['error']
    return result['move']


def play(port, game, seed, initial_time):
    rng = random.Random('dxp/%d/%d' % (seed, game))
    damiera_white = game % 2 == 0
    engine = DXPEngine(options={'ip': '127.0.0.1', 'port': port, 'initial-time': initial_time})
    board = Board('standard')
    start = time.time()
    ended_by = 'pydraughts'
    try:
        if not damiera_white:
            board.push(rng.choice(board.legal_moves()))
        while not board.is_over():
            if len(board.move_stack) >= MAX_PLIES:
                raise RuntimeError('game %d: no result after %d plies' % (game, MAX_PLIES))
            damiera_to_move = (board.turn == 2) == damiera_white  # pydraughts: 2 = White
            if damiera_to_move:
                move = engine_move(engine, board)
                if move is None:
                    ended_by = 'damiera'
                    break
                ours = [m for m in board.legal_moves() if m.board_move == move.board_move]
                assert ours, 'damiera move %s is not legal in %s' % (move.pdn_move, board.fen)
                board.push(ours[0])
            else:
                board.push(rng.choice(board.legal_moves()))
        reason = engine.sender.current.result
        if not engine.sender.current.started and reason is None and ended_by == 'damiera':
            raise RuntimeError('game %d: ended without a GAMEEND' % game)
    finally:
        engine.quit()  # GAMEEND (if not ended yet), then close: about 7 s in pydraughts
    winner = board.winner() if board.is_over() else None
    result = ('draw' if winner == 0 else 'white' if winner == 2 else 'black' if winner == 1
              else 'ended by damiera, reason %s' % engine.sender.current.result)
    print('game %d  damiera %-5s  %3d plies  %-9s  %s  %5.1f s' % (
        game, 'white' if damiera_white else 'black', len(board.move_stack), ended_by, result,
        time.time() - start), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('port')
    ap.add_argument('--games', type=int, default=2)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--initial-time', type=int, default=0)
    a = ap.parse_args()
    for g in range(a.games):
        play(a.port, g, a.seed, a.initial_time)


if __name__ == '__main__':
    try:
        main()
    except Exception as exc:  # one clear line, then a failing status
        print('FAILED: %s: %s' % (type(exc).__name__, exc), flush=True)
        sys.exit(1)
