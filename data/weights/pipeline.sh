#!/bin/sh
# The training pipeline behind data/weights/<variant>.dmev (docs/training.md).
#
#   sh data/weights/pipeline.sh VARIANT GAMES0 [GAMES1 [WORKDIR]]
#
# Generation 0 plays GAMES0 games with the hand-set evaluation and the weights are fitted to
# its positions. With GAMES1 > 0, generation 1 then plays with those weights and the result
# is fitted to both generations' positions (in the English test this lost to generation 0
# alone, docs/training.md, so the shipped English file is generation 0).
#
# The shipped files (about 27, 47, 24, 24, 35 and 36 minutes on 2 cores):
#   ADJUDICATE=150 LAMBDA=1.0 L2=1e-8 THREADS=2 sh data/weights/pipeline.sh english 24000
#   ADJUDICATE=200 sh data/weights/pipeline.sh italian 24000
#   ADJUDICATE=150 L2=1e-7 THREADS=2 sh data/weights/pipeline.sh brazilian 24000
#   ADJUDICATE=150 sh data/weights/pipeline.sh russian 24000
#   ADJUDICATE=150 LAMBDA=1.0 sh data/weights/pipeline.sh damone 24000
#   ADJUDICATE=150 LAMBDA=1.0 L2=1e-7 THREADS=2 sh data/weights/pipeline.sh international 11925
# The data files stay in WORKDIR (default: ./training-VARIANT); DAMIERA names the binary;
# ADJUDICATE (centi-men, default 0: off) is passed to `train --adjudicate`, LAMBDA (default
# 0.7) to `train --lambda`, L2 (default 1e-6) to `train --l2`, THREADS (default 1) to
# `train --threads` (threads sum their gradients in a fixed order: deterministic, but each
# thread count gives its own bytes).
set -eu
v=$1; g0=$2; g1=${3:-0}; dir=${4:-training-$v}
bin=${DAMIERA:-target/release/damiera}
adj=${ADJUDICATE:-0}
lambda=${LAMBDA:-0.7}
l2=${L2:-1e-6}
threads=${THREADS:-1}
mkdir -p "$dir"
"$bin" selfplay -v "$v" --games "$g0" --depth 8 --seed 1 --concurrency 2 --eval-file hand \
  --out "$dir/gen0.bin"
"$bin" train -v "$v" -d "$dir/gen0.bin" -o "$dir/gen0.dmev" --epochs 20 --batch 4096 \
  --l2 "$l2" --lambda "$lambda" --adjudicate "$adj" --threads "$threads" | tee "$dir/gen0-train.txt"
if [ "$g1" -gt 0 ]; then
  "$bin" selfplay -v "$v" --games "$g1" --depth 8 --seed 2 --concurrency 2 \
    --eval-file "$dir/gen0.dmev" --out "$dir/gen1.bin"
  "$bin" train -v "$v" -d "$dir/gen0.bin" "$dir/gen1.bin" -o "$dir/$v.dmev" --epochs 20 \
    --batch 4096 --l2 "$l2" --lambda "$lambda" --adjudicate "$adj" --threads "$threads" | tee "$dir/gen1-train.txt"
else
  cp "$dir/gen0.dmev" "$dir/$v.dmev"
fi
echo "weights: $dir/$v.dmev (copy to data/weights/ to ship them)"
