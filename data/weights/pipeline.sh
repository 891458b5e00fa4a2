#!/bin/sh
# The training pipeline behind data/weights/<variant>.dmev (docs/training.md).
#
#   sh data/weights/pipeline.sh VARIANT GAMES0 [GAMES1 [GAMES2 ...]]
#
# Generation 0 plays GAMES0 games with the hand-set evaluation and the weights are fitted to
# its positions. Each further generation K (GAMES1, GAMES2, ...) plays its games with the
# weights fitted so far (seed K+1), and the weights are fitted again to the positions of all
# generations 0..K. The last fit is the result. (A second English generation lost to
# generation 0 alone before adjudication, docs/journal/pattern-weights.md; on International generations 1
# and 2 each beat the one before.)
#
# The pattern weights (about 27, 47, 24, 24, 35 and 110 minutes on 2 cores; all retired when their
# variants got networks, damone.dmev last, docs/training.md "Retired weights"):
#   ADJUDICATE=150 LAMBDA=1.0 L2=1e-8 THREADS=2 sh data/weights/pipeline.sh english 24000
#   ADJUDICATE=200 sh data/weights/pipeline.sh italian 24000
#   ADJUDICATE=150 L2=1e-7 THREADS=2 sh data/weights/pipeline.sh brazilian 24000
#   ADJUDICATE=150 sh data/weights/pipeline.sh russian 24000
#   ADJUDICATE=150 LAMBDA=1.0 sh data/weights/pipeline.sh damone 24000
#   ADJUDICATE=150 LAMBDA=1.0 L2=1e-7 THREADS=2 sh data/weights/pipeline.sh international 11925 8000 8000
# That line gave International's generation 2 with the trainer before 6b1af67. The last
# International file is a fit of generation 0 and a generation 3 played with the generation-2 file of
# commit 59b43f6 (the commands: docs/training.md, "Retired weights").
# The data files stay in WORKDIR (default: ./training-VARIANT; no spaces); DAMIERA names the binary,
# TRAIN the trainer (default target/release/damiera-train: `cargo build --release --workspace`);
# ADJUDICATE (centi-men, default 0: off) is passed to `damiera-train patterns --adjudicate`, LAMBDA (default
# 0.7) to `train --lambda`, L2 (default 1e-6) to `train --l2`, THREADS (default 1) to
# `train --threads` (threads sum their gradients in a fixed order: deterministic, but each
# thread count gives its own bytes).
set -eu
if [ $# -lt 2 ] || ! [ "$2" -gt 0 ] 2>/dev/null; then
  echo "usage: sh data/weights/pipeline.sh VARIANT GAMES0 [GAMES1 ...] (GAMES0 > 0)" >&2
  exit 2
fi
v=$1; shift
dir=${WORKDIR:-training-$v}
bin=${DAMIERA:-target/release/damiera}
train=${TRAIN:-target/release/damiera-train}
adj=${ADJUDICATE:-0}
lambda=${LAMBDA:-0.7}
l2=${L2:-1e-6}
threads=${THREADS:-1}
mkdir -p "$dir"
k=0
eval_file=hand
data=""
for games in "$@"; do
  [ "$games" -gt 0 ] || break
  "$bin" selfplay -v "$v" --games "$games" --depth 8 --seed $((k + 1)) --concurrency 2 \
    --eval-file "$eval_file" --out "$dir/gen$k.bin"
  data="$data $dir/gen$k.bin"
  # shellcheck disable=SC2086 # the data files are separate arguments
  "$train" patterns -v "$v" -d $data -o "$dir/gen$k.dmev" --epochs 20 --batch 4096 \
    --l2 "$l2" --lambda "$lambda" --adjudicate "$adj" --threads "$threads" | tee "$dir/gen$k-train.txt"
  eval_file="$dir/gen$k.dmev"
  k=$((k + 1))
done
cp "$eval_file" "$dir/$v.dmev"
echo "weights: $dir/$v.dmev (copy to data/weights/ to ship them)"
