#!/bin/sh
# Self-play data and training for an evaluation network (DMNN; docs/training.md, "The
# network in the search").
#
#   sh data/weights/pipeline-net.sh VARIANT GAMES [SHARD]
#
# Plays GAMES self-play games (depth DEPTH, seed SEED, with EVAL_FILE: default the built-in
# pattern weights) in shards of SHARD games (default 1000), each shard its own file
# WORKDIR/shard-FIRST.dmsp written by `selfplay --first-game FIRST --games FIRST+SHARD`, so
# that the shards in order are exactly the games of one run of GAMES games. A finished shard
# is kept (its `.done` marker), so a stopped run resumes where it stopped: start it again.
# Then trains the network on every shard with `damiera-train network` (EPOCHS, LR, LR_END, LAMBDA;
# EGDB: a databases directory to label the positions they hold) and writes
# WORKDIR/VARIANT.dmnn.
#
# OPENING_PLIES (default 8) is passed to selfplay (more random plies: fewer repeated games).
# DAMIERA and TRAIN_NET name the binaries (default target/release/damiera and
# target/release/damiera-train: `cargo build --release --workspace`); CONCURRENCY is
# passed to selfplay (default 2).
set -eu
if [ $# -lt 2 ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
  echo "usage: sh data/weights/pipeline-net.sh VARIANT GAMES [SHARD] (GAMES > 0)" >&2
  exit 2
fi
v=$1
games=$2
shard=${3:-1000}
dir=${WORKDIR:-training-net-$v}
bin=${DAMIERA:-target/release/damiera}
train=${TRAIN_NET:-target/release/damiera-train}
depth=${DEPTH:-8}
seed=${SEED:-11}
eval_file=${EVAL_FILE:-}
mkdir -p "$dir"
first=0
while [ "$first" -lt "$games" ]; do
  last=$((first + shard))
  [ "$last" -le "$games" ] || last=$games
  out="$dir/shard-$first.dmsp"
  if [ ! -f "$out.done" ]; then
    set -- selfplay -v "$v" --games "$last" --first-game "$first" --depth "$depth" \
      --seed "$seed" --opening-plies "${OPENING_PLIES:-8}" --concurrency "${CONCURRENCY:-2}" \
      --out "$out"
    [ -z "$eval_file" ] || set -- "$@" --eval-file "$eval_file"
    "$bin" "$@"
    touch "$out.done"
  fi
  first=$last
done
set -- --variant "$v" --out "$dir/$v.dmnn" --epochs "${EPOCHS:-20}" --lr "${LR:-0.001}" \
  --lr-end "${LR_END:-0.0001}" --lambda "${LAMBDA:-0.7}" --data
for f in "$dir"/shard-*.dmsp; do
  set -- "$@" "$f"
done
[ -z "${EGDB:-}" ] || set -- "$@" --egdb "$EGDB"
"$train" network "$@" | tee "$dir/train.txt"
echo "network: $dir/$v.dmnn (setoption name EvalFile value $dir/$v.dmnn)"
