#!/usr/bin/env python3
"""Random-game walker over pydraughts 0.6.7: the Python half of damiera's differential test.

Usage:
    python walk.py --variant {english,italian,brazilian,russian} --games N --seed S [--max-plies 200]
    python walk.py --variant V --fen FEN        (one line for one position; for spot checks)

The 10x10 variants: international, antidraughts, breakthrough, frisian, frysk (pydraughts'
'standard', 'antidraughts', 'breakthrough', 'frisian', 'frysk!'); squares 1-50 in both.

Plays N games of random legal moves with pydraughts 0.6.7 (`pip install pydraughts==0.6.7`),
game g drawing its moves from random.Random(f"{variant}/{S}/{g}"), so runs are reproducible and
game g is the same whatever N. A game stops when pydraughts' core `Game.is_over()` says so (no
move for the side to move, or pydraughts' own draw rules: 3-fold repetition, king-move counters,
...) or after max-plies moves. Every position visited, the start and the final one included (at
most max-plies + 1 lines per game), gives one line:

    <fen>\t<move> <move> ...

* <fen>: PDN FEN in the variant's own notation, White's list first, kings prefixed K, no ranges:
  `W:W<sq>,<sq>...:B<sq>,...` (or `B:...`). Squares ascending (numeric) or by file then rank
  (algebraic).
* <move>: every move pydraughts' `Game.legal_moves()` returns, in its order, duplicates included
  (the same capture reached by different routes, and for flying kings every intermediate landing
  square, are separate entries). Quiet move `from-to`; capture `from x land1 x ... x to:cap1,cap2`
  i.e. every square the capturing piece stands on joined by `x`, then `:` and the captured squares
  in the order they were taken. A position with no legal move has nothing after the tab.

Notation conversions. pydraughts' core works in one internal numbering for every 8x8 variant:
square i (1..32) counts the dark squares row by row from the top-left as seen by the side that
moves first ("W", player 2, on 21..32, moving towards 1..4). Row 0 starts one square in (b8,
d8, ...) except in Italian, whose board is mirrored (1 = a8). We convert with r = (i-1)//4 and
c = (i-1)%4:
  * italian:           internal i = FID square i (1 = a8, 32 = h1); internal W = White.
  * english:           internal i = PDN square 33-i (rotated 180 degrees) and the colors swap:
                       internal W (first mover) = Black on 1..12, so the side letter swaps too.
  * russian/brazilian: internal i = file 'abcdefgh'[2c + (r even)], rank 8-r (1 = b8, 29 = a1);
                       internal W = White on ranks 1..3.
The --fen input may list W and B in either order and use ranges of numbers (pydraughts' own
FEN parser would take the first list as White's whatever its tag); it is turned into a Hub-style
position string (side + 32 chars of e/w/W/b/B) in internal numbering, which `Game` accepts.
Only the core API is used: draughts.core.game.Game(variant, fen), .legal_moves(), .push(),
.is_over(), .whose_turn(), .board.searcher.uncaptured_pieces.
"""
import argparse
import random
import sys

from draughts.core.game import Game

WHITE = 2  # pydraughts' internal player numbers
BLACK = 1

# The 10x10 variants, by damiera's names, and pydraughts' names for them.
TEN = {'international': 'standard', 'antidraughts': 'antidraughts', 'breakthrough': 'breakthrough',
       'frisian': 'frisian', 'frysk': 'frysk!'}


def square_names(variant):
    """names[i] = the variant's name of internal square i (index 0 unused)."""
    names = [None]
    if variant in TEN:
        return names + [str(i) for i in range(1, 51)]
    for i in range(1, 33):
        r, c = divmod(i - 1, 4)
        if variant == 'english':
            names.append(str(33 - i))
        elif variant == 'italian':
            names.append(str(i))
        else:
            names.append('abcdefgh'[2 * c + (r % 2 == 0)] + str(8 - r))
    return names


class Notation:
    """Internal square/color <-> the variant's own notation (see the module docstring)."""

    def __init__(self, variant):
        self.variant = variant
        self.names = square_names(variant)
        self.index = {n: i for i, n in enumerate(self.names) if n}
        self.swap = variant == 'english'  # English: internal colors are swapped

    def sq(self, i):
        return self.names[i]

    def sort_key(self, name):
        return (0, int(name)) if name.isdigit() else (name[0], int(name[1:]))

    def fen(self, game):
        lists = {WHITE: [], BLACK: []}
        for p in game.board.searcher.uncaptured_pieces:
            lists[p.player].append(('K' if p.king else '', self.sq(p.position)))
        side = game.whose_turn()
        white, black = (BLACK, WHITE) if self.swap else (WHITE, BLACK)
        out = []
        for color in (white, black):
            out.append(','.join(k + s for k, s in sorted(lists[color], key=lambda x: self.sort_key(x[1]))))
        return '%s:W%s:B%s' % ('W' if side == white else 'B', out[0], out[1])

    def move(self, steps, captures):
        path = [steps[0][0]] + [s[1] for s in steps]
        if captures[0] is None:  # quiet move: pydraughts gives captures == [None]
            return '%s-%s' % (self.sq(path[0]), self.sq(path[1]))
        return 'x'.join(map(self.sq, path)) + ':' + ','.join(map(self.sq, captures))

    def parse_fen(self, fen):
        """Variant-notation FEN -> internal Hub position string (side + 32 chars)."""
        fields = fen.strip().rstrip('.').split(':')
        side = fields[0].strip().upper()
        board = ['e'] * len(self.names)
        for field in fields[1:]:
            field = field.strip()
            if not field:
                continue
            color, items = field[0].upper(), field[1:]
            internal_white = (color == 'W') != self.swap
            for item in filter(None, (x.strip() for x in items.split(','))):
                king = item[0] in 'Kk'
                item = item[1:] if king else item
                if '-' in item:  # numeric range a-b
                    lo, hi = (int(x.lstrip('Kk')) for x in item.split('-'))
                    sqs = [str(n) for n in range(lo, hi + 1)]
                else:
                    sqs = [item.lower()]
                for s in sqs:
                    ch = 'w' if internal_white else 'b'
                    board[self.index[s]] = ch.upper() if king else ch
        internal_side = 'W' if (side == 'W') != self.swap else 'B'
        return internal_side + ''.join(board[1:])


def outcome(game, nt):
    """pydraughts' verdict on the game: `-` (not over), `W` or `B` (that side won, in the
    variant's colors), `D` (drawn)."""
    winner = game.get_winner()
    if winner is None:
        return '-'
    if winner == 0:
        return 'D'
    white = BLACK if nt.swap else WHITE
    return 'W' if winner == white else 'B'


def line(game, nt, verdict=False):
    """The output line of the game's current position, and pydraughts' legal moves there;
    with `verdict`, a third column: pydraughts' [outcome]. Also the moves' names, for
    `--played`."""
    moves, captures = game.legal_moves()
    names = [nt.move(m, c) for m, c in zip(moves, captures)]
    text = nt.fen(game) + '\t' + ' '.join(names)
    if verdict:
        text += '\t' + outcome(game, nt)
    return text, moves, names


def perft(game, depth):
    """The leaves of pydraughts' legal-move tree `depth` plies deep (duplicates included, as
    `legal_moves` lists them), stopping where pydraughts' game is over."""
    if depth == 0:
        return 1
    if game.is_over():
        return 0
    moves, _ = game.legal_moves()
    total = 0
    for m in moves:
        game.push(m)
        total += perft(game, depth - 1)
        game.pop()
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--variant', required=True, choices=['english', 'italian', 'brazilian', 'russian'] + list(TEN))
    ap.add_argument('--games', type=int, default=1)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--max-plies', type=int, default=200)
    ap.add_argument('--fen', help=argparse.SUPPRESS)  # hidden: print the line of one position
    ap.add_argument('--verdict', action='store_true',
                    help="a third column per line: pydraughts' outcome (- W B D)")
    ap.add_argument('--perft', type=int, help='print the perft of the start position to this depth')
    ap.add_argument('--king-bias', type=float, default=0.0,
                    help='with this probability, a position where a king can move plays a random '
                         'king move (so that kings make moves in a row: Frisian\'s limit)')
    ap.add_argument('--played', action='store_true',
                    help='a last column per line: the move played from it (empty at the end of a '
                         'game), so that a reader can replay the game (Frisian: the king-move '
                         'limit depends on the moves before)')
    a = ap.parse_args()
    nt = Notation(a.variant)
    pd_variant = TEN.get(a.variant, a.variant)
    out = sys.stdout

    if a.perft is not None:
        out.write('%d\n' % perft(Game(pd_variant), a.perft))
        return

    if a.fen:
        game = Game(pd_variant, nt.parse_fen(a.fen))
        out.write(line(game, nt, a.verdict)[0] + '\n')
        return

    lines = 0
    for g in range(a.games):
        rng = random.Random('%s/%d/%d' % (a.variant, a.seed, g))  # str seeds are stable across runs
        game = Game(pd_variant)  # 'startpos'
        plies = 0
        while True:
            text, moves, names = line(game, nt, a.verdict)
            lines += 1
            if not moves or plies >= a.max_plies or game.is_over():
                out.write(text + ('\t' if a.played else '') + '\n')
                break
            i = rng.randrange(len(moves))
            if a.king_bias > 0 and rng.random() < a.king_bias:
                kings = {p.position for p in game.board.searcher.uncaptured_pieces
                         if p.king and p.player == game.whose_turn()}
                by_king = [j for j, m in enumerate(moves) if m[0][0] in kings]
                if by_king:
                    i = by_king[rng.randrange(len(by_king))]
            out.write(text + ('\t' + names[i] if a.played else '') + '\n')
            game.push(moves[i])
            plies += 1
        out.flush()
        print('game %d: %d plies, over=%s' % (g, plies, game.is_over()), file=sys.stderr)
    print('%d games, %d lines' % (a.games, lines), file=sys.stderr)


if __name__ == '__main__':
    main()
