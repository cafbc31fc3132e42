#!/bin/sh
# ThreadLens: two builds' kernel times, before and after a change, in
# interleaved rounds.  A benchmark, not a test.
#
#   sh build-aux/bench-ab.sh BEFORE AFTER PHOTO [SIZE] [STORAGE] [RUNS] [ROUNDS]
#
# BEFORE and AFTER are threadlens binaries (AFTER usually
# _build/cli/threadlens, BEFORE a worktree's build of an earlier commit).
# Every filter at its defaults, gaussian-blur at std-dev 8 (FILTERS, a
# list of names, narrows them), each run ROUNDS times (default 3) as
# the two binaries back to back, BEFORE first in odd rounds and AFTER
# first in even ones: `bench --runs RUNS` (default 5), untuned auto, SIZE
# default 3840x2160, STORAGE default u8.  A CPU device's times drift by a
# third between runs of one binary, so a row gives each binary's range of
# medians and the median of the rounds' own after / before ratios, which
# slow drift cancels out of.  Each binary keeps its own program cache, so
# neither loads the other's kernels.
set -eu

before=${1:?usage: bench-ab.sh BEFORE AFTER PHOTO [SIZE] [STORAGE] [RUNS] [ROUNDS]}
after=${2:?usage: bench-ab.sh BEFORE AFTER PHOTO [SIZE] [STORAGE] [RUNS] [ROUNDS]}
photo=${3:?usage: bench-ab.sh BEFORE AFTER PHOTO [SIZE] [STORAGE] [RUNS] [ROUNDS]}
size=${4:-3840x2160}
storage=${5:-u8}
runs=${6:-5}
rounds=${7:-3}

caches=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-ab-XXXXXX")
trap 'rm -rf "$caches"' EXIT INT TERM

# The untuned auto case's median and one-pass copy, "MS COPY_MS".
auto_ms ()
{
  python3 -c '
import json, sys
for case in map(json.loads, sys.stdin):
    if case["case"].startswith("auto (not tuned)"):
        print(case["median_ms"], case["one_pass_copy_ms"])
'
}

echo "| filter | before ms | after ms | before x copy | after x copy | after / before |"
echo "| --- | --- | --- | --- | --- | --- |"
for filter in ${FILTERS:-$("$after" list-filters | awk '/^[^ ]/ { print $1 }')}; do
  set -- "$filter" "$photo" --size "$size" --storage "$storage" \
         --runs "$runs" --json
  [ "$filter" = gaussian-blur ] && set -- "$@" --set std-dev=8
  times=""
  round=0
  while [ "$round" -lt "$rounds" ]; do
    order="before after"
    [ $((round % 2)) -eq 1 ] && order="after before"
    for which in $order; do
      eval "bin=\$$which"
      times="$times $which $(THREADLENS_CACHE_DIR="$caches/$which" \
                               "$bin" bench "$@" | auto_ms)"
    done
    round=$((round + 1))
  done
  echo "$times" | python3 -c '
import statistics, sys
words = sys.stdin.read().split()
rows = {"before": [], "after": []}
for i in range(0, len(words), 3):
    rows[words[i]].append((float(words[i + 1]), float(words[i + 2])))
# Each round holds one of each, so the lists pair by round.
def spread(values, form):
    return (form % min(values)) + "-" + (form % max(values))
ms = {k: [m for m, c in v] for k, v in rows.items()}
copies = {k: [m / c for m, c in v] for k, v in rows.items()}
ratios = [a / b for a, b in zip(ms["after"], ms["before"])]
print("| %s | %s | %s | %s | %s | %.2f |" % (
    sys.argv[1], spread(ms["before"], "%.3g"), spread(ms["after"], "%.3g"),
    spread(copies["before"], "%.2fx"), spread(copies["after"], "%.2fx"),
    statistics.median(ratios)))
' "$filter"
done
