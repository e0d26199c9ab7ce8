#!/usr/bin/env bash
# The fuzz corpora are kept as one archive per target (corpus/TARGET.tar.zst,
# a few hundred KB each instead of thousands of small files); cargo fuzz
# wants folders. This script moves between the two:
#
#   fuzz/corpus.sh unpack [TARGET…]   corpus/TARGET.tar.zst -> corpus/TARGET/ (ignored by git)
#   fuzz/corpus.sh pack [TARGET…]     corpus/TARGET/ -> corpus/TARGET.tar.zst (after a cmin)
#   fuzz/corpus.sh run TARGET [ARGS]  unpack, then cargo +nightly fuzz run TARGET corpus/TARGET -- ARGS
#
# Without TARGET, every target. Needs tar and zstd.
set -euo pipefail
cd "$(dirname "$0")"
cmd=${1:-}
shift || true
targets() { if [ $# -gt 0 ]; then echo "$@"; else ls corpus/*.tar.zst | sed 's#corpus/##; s#\.tar\.zst##'; fi; }
case "$cmd" in
  unpack)
    for t in $(targets "$@"); do
      [ -d "corpus/$t" ] || { zstd -dcq "corpus/$t.tar.zst" | tar -x -C corpus; }
      echo "corpus/$t: $(ls "corpus/$t" | wc -l) inputs"
    done ;;
  pack)
    for t in $(targets "$@"); do
      tar --sort=name --mtime=2026-01-01 --owner=0 --group=0 --numeric-owner -C corpus -cf - "$t" \
        | zstd -19 -q -f -o "corpus/$t.tar.zst"
      echo "corpus/$t.tar.zst: $(du -h "corpus/$t.tar.zst" | cut -f1)"
    done ;;
  run)
    t=${1:?fuzz/corpus.sh run TARGET [ARGS]}
    shift
    "$0" unpack "$t"
    exec cargo +nightly fuzz run "$t" "corpus/$t" -- "$@" ;;
  *)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac
