#!/usr/bin/env bash
# The opening books damiera ships (docs/book.md, "Shipped books"): one DMBK book a variant,
# built by drop-out expansion at a fixed leaf depth, so the same commit builds the same bytes;
# each file is checked against data/books.sha256. Resumable: rerun after an interruption and the
# build goes on from the file (a finished expansion is never redone).
#
#   scripts/build-books.sh [DIR] [VARIANT...]     # default DIR books/, every variant
#
# Then: damiera --option BookFile=DIR/english.dmbk ... (native `setoption name BookFile`, Hub
# `set-param name=book-file`).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-books}
shift || true
bin=${DAMIERA:-target/release/damiera}
[ -x "$bin" ] || cargo build --release
mkdir -p "$dir"
o=data/openings
build() { # variant positions depth openings...
    local v=$1 n=$2 d=$3
    shift 3
    local from=()
    for f in "$@"; do
        case $f in --start) from+=(--start) ;; *) from+=(--from "$f") ;; esac
    done
    echo "== $v: $n positions, leaves at depth $d ${*:-from the start}" >&2
    local t0=$SECONDS
    "$bin" book build -v "$v" "${from[@]}" --positions "$n" --depth "$d" --out "$dir/$v.dmbk"
    echo "   $((SECONDS - t0)) s, $(stat -c %s "$dir/$v.dmbk") bytes" >&2
}
want=("${@:-english international russian brazilian italian damone}")
for v in ${want[@]}; do
    case $v in
        english) build english 20000 8 $o/english-3move.txt $o/english-3move-barred.txt ;;
        international) build international 10000 8 $o/international-150.txt ;;
        russian) build russian 5000 8 --start $o/russian-150.txt ;;
        brazilian) build brazilian 5000 8 --start $o/brazilian-150.txt ;;
        italian) build italian 5000 8 ;;
        damone) build damone 5000 8 ;;
        *) echo "error: unknown variant $v" >&2; exit 2 ;;
    esac
    sum=$(grep " $v.dmbk\$" data/books.sha256 || true)
    if [ -z "$sum" ]; then
        echo "warning: data/books.sha256 has no checksum for $v.dmbk" >&2
    elif ! (cd "$dir" && echo "$sum" | sha256sum -c --quiet -); then
        echo "warning: $dir/$v.dmbk differs from data/books.sha256 (another commit's search?)" >&2
    fi
done
