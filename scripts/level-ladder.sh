#!/usr/bin/env bash
# The strength-level ladder (docs/strength.md, "Strength levels"): each level against the
# one below (1 v 0 ... 20 v 19), and the lowest levels against the random mover (level 0)
# and against full strength (level 20), with `damiera match`. Resumable: a pair whose PDN
# is complete is reported again, not replayed; a pair cut off goes on with --resume.
#
#   scripts/level-ladder.sh VARIANT GAMES MOVETIME_MS OPENINGS OUT_DIR
#   e.g. scripts/level-ladder.sh english 200 100 data/openings/english-3move.txt ladder-english
#
# Writes OUT_DIR/LA-vs-LB.pdn for each pair and appends to OUT_DIR/ladder.jsonl (one JSON
# report a pair: {"a":A,"b":B, the match's --json fields}). The PDNs are outputs: commit the
# command and their checksums, not the files. PAIRS="A B,A B,..." plays only those pairs
# (e.g. the upper pairs again with another GAMES).
set -euo pipefail
variant=$1 games=$2 movetime=$3 openings=$4 out=$5
damiera=${DAMIERA:-target/release/damiera}
concurrency=${CONCURRENCY:-2}
mkdir -p "$out"
pairs="$(for b in $(seq 0 19); do echo "$((b + 1)) $b"; done)
2 0
1 20
2 20"
[ -n "${PAIRS:-}" ] && pairs=$(echo "$PAIRS" | tr ',' '\n')
echo "$pairs" | while read -r a b; do
    pdn="$out/L$a-vs-L$b.pdn"
    resume=()
    [ -s "$pdn" ] && resume=(--resume)
    json=$("$damiera" match -v "$variant" \
        --engine "$damiera" --name "L$a" --option "Level=$a" --option "Seed=$((1000 + a))" \
        --engine "$damiera" --name "L$b" --option "Level=$b" --option "Seed=$((2000 + b))" \
        --openings "$openings" --shuffle --seed 7 --games "$games" --movetime "$movetime" \
        --concurrency "$concurrency" --pdn "$pdn" "${resume[@]}" --json 2>/dev/null | tail -1)
    echo "{\"a\":$a,\"b\":$b,${json#\{}" | tee -a "$out/ladder.jsonl"
done
