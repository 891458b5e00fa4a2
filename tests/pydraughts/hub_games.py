#!/usr/bin/env python3
"""Complete games damiera against damiera through pydraughts 0.6.7's HubEngine.

Usage: python hub_games.py BINARY [--variants english,italian,russian,brazilian,standard,antidraughts,breakthrough,frisian,frysk!] [--internal]

(`standard` is International, 10x10, in pydraughts' naming; the engine is set to it by that name.
`antidraughts`, `breakthrough`, `frisian` and `frysk!` are lidraughts' variants: pydraughts' Board
decides their ends.)

Each game starts two `BINARY hub` processes with pydraughts' own HubEngine (hub, set-param
variant, init), and pydraughts' Board checks every move: a reply is turned into a
pydraughts Move, which fails unless it is one of the board's legal moves. Per variant, four
games, one per kind of limit (time+inc, move-time, depth, nodes); in the first game one move
is searched with `go ponder` and then `ponder-hit`, in the second one move is cut short with
`stop`. A game ends when pydraughts says it is over (no move, or its draw rules); 400 plies is
a failure.

With --internal (russian and brazilian), moves are sent and read in pydraughts' internal
numbering, as pydraughts 0.5.7 (pinned by lidraughts-bot) does: two games per variant, one
with the engine's `notation=internal` param, one with automatic detection from the `moves`
list (the client plays the first move itself, so the list is never empty). The conversion
between numberings is written here from the numbering definitions (a1 = 1 for the variant
form; 1 = b8, 29 = a1 for the internal form), independently of damiera.

Prints one line per game; exits 1 on the first failure.
"""
import argparse
import sys
import time

from draughts import Board, Move
from draughts.engine import HubEngine, Limit

MAX_PLIES = 400


def variant_to_internal():
    """Russian/Brazilian square numbers: variant form (a1 = 1) -> internal form (b8 = 1)."""
    by_coord = {}
    for n in range(1, 33):
        r, c = divmod(n - 1, 4)
        by_coord[(2 * c + r % 2, r)] = n  # (file, rank) both from 0, a1 = (0, 0)
    table = {}
    for i in range(1, 33):
        r, c = divmod(i - 1, 4)
        coord = (2 * c + (1 if r % 2 == 0 else 0), 7 - r)
        table[by_coord[coord]] = i
    return table


V2I = variant_to_internal()
I2V = {i: v for v, i in V2I.items()}


def convert(move, table):
    sep = '-' if '-' in move else 'x'
    return sep.join(str(table[int(s)]) for s in move.split(sep))


def read_done(engine):
    while True:
        command, arg = engine.recv_hub()
        if command == 'done':
            fields = dict(item.split('=', 1) for item in arg.split())
            return fields['move'].strip('"'), fields.get('ponder')
        if command == 'error':
            raise RuntimeError('engine error: ' + arg)


def send_position(engine, board, internal):
    moves = [m.hub_move for m in board.move_stack]
    if internal:
        moves = [convert(m, V2I) for m in moves]
    line = 'pos pos=' + board._game.initial_hub_fen
    if moves:
        line += ' moves="%s"' % ' '.join(moves)
    engine.send(line)


def legal(board, hub_move):
    """The pydraughts Move for a reply; raises unless it is legal on `board`."""
    move = Move(board, hub_move=hub_move)
    assert move.board_move in [m.board_move for m in board.legal_moves()], hub_move
    return move


def engine_move(engine, board, limit, how, internal):
    if how == 'play' and not internal:
        return engine.play(board, limit, ponder=False).move
    send_position(engine, board, internal)
    if how == 'ponder':
        engine.send('level move-time=0.2')
        engine.send('go ponder')
        time.sleep(0.15)
        # pydraughts only sends ponder-hit right after go ponder (it waits for that).
        engine.ponderhit()
    elif how == 'stop':
        engine.send('level infinite')
        engine.send('go think')
        time.sleep(0.1)
        engine.ping()  # answered mid-search (pydraughts reads up to the pong)
        time.sleep(0.05)
        engine.send('stop')
    else:
        engine.send('level depth=%d' % (limit.depth or 6))
        engine.send('go think')
    best, _ponder = read_done(engine)
    if internal:
        best = convert(best, I2V)
    return legal(board, best)


def play(binary, variant, limit, label, ponder_at=None, stop_at=None, internal=False, param=None,
         client_opens=False):
    engines = [HubEngine([binary, 'hub']) for _ in range(2)]
    try:
        for e in engines:
            assert 'variant' in e.options and variant in e.variants, (e.options, e.variants)
            e.configure({'variant': variant})
            if param:
                e.setoption('notation', param)
            e.init()
        board = Board(variant)
        if client_opens:
            board.push(board.legal_moves()[0])
        start = time.time()
        while not board.is_over():
            if len(board.move_stack) >= MAX_PLIES:
                raise RuntimeError('%s %s: no result after %d plies' % (variant, label, MAX_PLIES))
            e = engines[len(board.move_stack) % 2]
            ply = len(board.move_stack)
            how = 'ponder' if ply == ponder_at else 'stop' if ply == stop_at else 'manual' if internal else 'play'
            board.push(engine_move(e, board, limit, how, internal))
        winner = board.winner()
        result = 'draw' if winner in (None, 0) else 'white' if winner == 2 else 'black'
        print('%-9s %-26s %3d plies  %-5s  %5.1f s' % (variant, label, len(board.move_stack), result,
                                                     time.time() - start), flush=True)
    finally:
        for e in engines:
            try:
                e.quit()
                e.kill_process()
            except Exception:
                pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('binary')
    ap.add_argument('--variants', default='english,italian,russian,brazilian')
    ap.add_argument('--internal', action='store_true')
    a = ap.parse_args()
    for variant in a.variants.split(','):
        if a.internal:
            play(a.binary, variant, Limit(depth=5), 'internal, notation param', internal=True,
                 param='internal')
            play(a.binary, variant, Limit(depth=5), 'internal, detected', internal=True,
                 client_opens=True)
            continue
        play(a.binary, variant, Limit(time=2, inc=0.02), 'time+inc, ponder', ponder_at=6)
        play(a.binary, variant, Limit(movetime=0.03), 'move-time, stop', stop_at=7)
        play(a.binary, variant, Limit(depth=5), 'depth')
        play(a.binary, variant, Limit(nodes=5000), 'nodes')


if __name__ == '__main__':
    try:
        main()
    except Exception as exc:  # one clear line, then a failing status
        print('FAILED: %s: %s' % (type(exc).__name__, exc), flush=True)
        sys.exit(1)
