#!/bin/sh
# The training pipeline behind data/weights/<variant>.dmev (docs/training.md):
# generation 0 plays with the hand-set evaluation, generation 1 with the weights fitted to
# generation 0, and the shipped weights are fitted to both generations' positions.
#
#   sh data/weights/pipeline.sh VARIANT GAMES0 GAMES1 [WORKDIR]
#
# English (the shipped file): sh data/weights/pipeline.sh english 24000 <games of gen 1>
# Each step prints its time; the data files stay in WORKDIR (default: ./training-VARIANT).
set -eu
v=$1; g0=$2; g1=$3; dir=${4:-training-$v}
bin=${DAMIERA:-target/release/damiera}
mkdir -p "$dir"
"$bin" selfplay -v "$v" --games "$g0" --depth 8 --seed 1 --concurrency 2 --eval-file hand \
  --out "$dir/gen0.bin"
"$bin" train -v "$v" -d "$dir/gen0.bin" -o "$dir/gen0.dmev" --epochs 20 --batch 4096 \
  --l2 1e-6 --lambda 0.7 --threads 1 | tee "$dir/gen0-train.txt"
"$bin" selfplay -v "$v" --games "$g1" --depth 8 --seed 2 --concurrency 2 \
  --eval-file "$dir/gen0.dmev" --out "$dir/gen1.bin"
"$bin" train -v "$v" -d "$dir/gen0.bin" "$dir/gen1.bin" -o "$dir/$v.dmev" --epochs 20 \
  --batch 4096 --l2 1e-6 --lambda 0.7 --threads 1 | tee "$dir/gen1-train.txt"
echo "weights: $dir/$v.dmev (copy to data/weights/ to ship them)"
