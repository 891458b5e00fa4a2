#!/usr/bin/env bash
# Strength of the endgame databases (issue 33): for each variant, damiera with its
# databases against damiera without, 100 ms a move, 300 games (150 openings, colors
# reversed), two games at once. Resumable by variant: a variant whose report exists
# is skipped; an interrupted variant is replayed whole.
#
#   scripts/egdb-strength.sh EGDB_ROOT OUT_DIR [VARIANT...]
#
# EGDB_ROOT holds one directory per variant, as `damiera egdb build --dir EGDB_ROOT`
# makes them (8x8 variants to 5 pieces, International to 4: docs/egdb.md).
set -euo pipefail
root=${1:?usage: egdb-strength.sh EGDB_ROOT OUT_DIR [VARIANT...]}
out=${2:?usage: egdb-strength.sh EGDB_ROOT OUT_DIR [VARIANT...]}
shift 2
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(international russian brazilian italian english)
bin=${DAMIERA:-target/release/damiera}
games=${GAMES:-300}
mkdir -p "$out"
for v in "${variants[@]}"; do
  case $v in
    english) openings=data/openings/english-3move.txt ;;
    italian) openings=data/openings/italian-11man.txt ;;
    brazilian) openings=data/openings/brazilian-150.txt ;;
    russian) openings=data/openings/russian-150.txt ;;
    international) openings=data/openings/international-150.txt ;;
    *) echo "egdb-strength: unknown variant $v" >&2; exit 2 ;;
  esac
  report=$out/$v.txt
  if [ -s "$report" ]; then echo "$v: done ($report)"; continue; fi
  echo "$v: $games games, openings $openings"
  "$bin" match -v "$v" \
    --engine "$bin" --name egdb --option "EgdbPath=$root" \
    --engine "$bin" --name plain \
    --openings "$openings" --games "$games" --movetime 100 --concurrency 2 \
    --pdn "$out/$v.pdn.part" > "$report.part" 2> "$out/$v.log"
  mv "$out/$v.pdn.part" "$out/$v.pdn"
  mv "$report.part" "$report"
  cat "$report"
done
