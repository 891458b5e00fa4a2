#!/usr/bin/env python3
"""Converts pydraughts' ballot files into damiera opening files (one FEN a line, the
opening's name as a '#' comment). Run from the repository root with the venv:

    python3 -m venv .venv && .venv/bin/pip install pydraughts==0.6.7
    .venv/bin/python data/openings/convert_pydraughts.py

The FENs are copied unchanged: pydraughts writes them in each variant's own notation
(English and Italian numbered squares, Russian and Brazilian algebraic), which is damiera's.
Only the "standard" subset of each file is used (for English, the "lost" 11-man ballots are
left out). damiera checks every line when it reads the file.
"""
import json
import os
import draughts
from importlib.metadata import version

SRC = os.path.join(os.path.dirname(draughts.__file__), "ballot_files")
OUT = os.path.dirname(os.path.abspath(__file__))
VER = version("pydraughts")

JOBS = [
    ("11_italian.json", "italian-11man.txt", "Ed Gilbert's 11-man ballots, Italian"),
    ("11_english.json", "english-11man.txt", "Ed Gilbert's 11-man ballots, English (not the 'lost' ones)"),
    ("russian.json", "russian-openings.txt", "named Russian openings"),
    ("brazilian.json", "brazilian-openings.txt", "named Brazilian openings"),
    ("150russian_and_brazilian.json", "russian-150.txt", "150 Russian/Brazilian openings"),
    ("150russian_and_brazilian.json", "brazilian-150.txt", "150 Russian/Brazilian openings"),
]

for src, dst, what in JOBS:
    with open(os.path.join(SRC, src)) as f:
        book = json.load(f)
    # "all" maps names to FENs; "standard" lists the names of the standard subset.
    data = {name: book["all"][name] for name in book["standard"]}
    with open(os.path.join(OUT, dst), "w") as f:
        f.write(f"# {what}: {len(data)} start positions as FENs.\n")
        f.write(f"# Source: pydraughts {VER}, draughts/ballot_files/{src}, the 'standard' names (in their order) looked up in 'all'.\n")
        f.write("# Converted by data/openings/convert_pydraughts.py: the FEN unchanged, then '# <name>'.\n")
        for name, fen in data.items():
            f.write(f"{fen}  # {name.replace('#', '')}\n")
    print(dst, len(data))
