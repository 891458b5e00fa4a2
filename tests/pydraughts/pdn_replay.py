"""Reads a PDN file with pydraughts 0.6.7's PDNReader and replays every game through its rules.

Usage: python pdn_replay.py FILE.pdn

Prints one line per game, fields separated by tabs: the variant PDNReader found, the game
terminator it read, the [Result] tag, the final position as pydraughts' variant FEN, and the
moves as read (space-separated). Russian `:` captures are given to pydraughts' move parser as
`x`, the only separator it takes. A move pydraughts does not find among the legal moves (its
Move constructor looks the from and to squares, or the whole path, up in the legal moves) ends
the script with status 1 and a one-line message naming the game and the move.
"""
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader

for number, game in enumerate(PDNReader(filename=sys.argv[1]).games, 1):
    board = Board(game.variant, fen=game.tags.get("FEN", "startpos"))
    for ply, move in enumerate(game.moves, 1):
        try:
            board.push(Move(board, pdn_move=move.replace(":", "x")))
        except Exception as error:  # KeyError for a move not among the legal ones
            sys.exit(f"game {number}, move {ply} '{move}': not legal for pydraughts ({error!r})")
    print("\t".join([game.variant or "", game.game_ending, game.tags.get("Result", ""),
                     board.fen, " ".join(game.moves)]))
