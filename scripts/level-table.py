#!/usr/bin/env python3
"""The strength-level table of docs/strength.md from scripts/level-ladder.sh's ladder.jsonl:
each pair's W/D/L, score, Elo with its 95% interval (the match tool's pentanomial figures),
and each level's Elo above level 1 (the steps L+1 v L added up from level 1).

    scripts/level-table.py OUT_DIR/ladder.jsonl
"""
import json
import sys


def main():
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    last = {}
    for r in rows:
        last[(r["a"], r["b"])] = r  # a pair played again counts once, its last report
    print("| pair | games | W | D | L | score | Elo (95%) | level's Elo above level 1 |")
    print("|---|---|---|---|---|---|---|---|")
    cumulative = {1: 0.0}
    for (a, b), r in sorted(last.items(), key=lambda kv: (kv[0][0] != kv[0][1] + 1, kv[0])):
        score = (r["w"] + r["d"] / 2) / max(1, r["games"])
        if r["elo"] is None:
            elo = "all won" if r["l"] == 0 and r["d"] == 0 else "all lost" if r["w"] == 0 and r["d"] == 0 else "-"
        else:
            elo = f"{r['elo']:+.0f} ({r['lower']:+.0f} .. {r['upper']:+.0f})"
        level = ""
        if a == b + 1 and b >= 1 and r["elo"] is not None and b in cumulative:
            cumulative[a] = cumulative[b] + r["elo"]
            level = f"{cumulative[a]:+.0f}"
        elif a == 1 and b == 0:
            level = "0"
        print(f"| {a} v {b} | {r['games']} | {r['w']} | {r['d']} | {r['l']} | {score:.1%} | {elo} | {level} |")
    print()
    print("LEVEL_ELO (levels 1-20, rounded to 10):",
          [int(round(cumulative.get(l, float('nan')) / 10) * 10) if l in cumulative else None for l in range(1, 21)])


if __name__ == "__main__":
    main()
