#!/bin/sh
# ThreadLens: each filter's kernel time as a multiple of the same run's
# one-pass copy (the image read once and written once in its storage, the
# floor for any filter).  A benchmark, not a test.
#
#   sh build-aux/bench-kernels.sh PHOTO [SIZE] [STORAGES] [RUNS] [--tune]
#
# SIZE defaults to 4096x4096, STORAGES to "float u8", RUNS to 9.  Every
# filter at its defaults, gaussian-blur at std-dev 8, then gaussian-blur
# at the std-devs in SIGMAS (default "2 32 64 128") for the cost against
# the radius.  With --tune,
# "auto" is searched first (minutes on a CPU device); otherwise it is
# what an untuned run does.  THREADLENS names the binary (default
# _build/cli/threadlens), THREADLENS_DEVICE the device.
set -eu

photo=${1:?usage: bench-kernels.sh PHOTO [SIZE] [STORAGES] [RUNS] [--tune]}
size=${2:-4096x4096}
storages=${3:-float u8}
runs=${4:-9}
tune=${5:-}
bin=${THREADLENS:-_build/cli/threadlens}

row ()
{
  label=$1
  shift
  [ -n "$tune" ] && "$bin" bench "$@" --tune --runs 3 > /dev/null
  "$bin" bench "$@" --runs "$runs" --json | python3 -c '
import json, sys
label = sys.argv[1]
cases = {c["case"].split(" ")[0]: c for c in map(json.loads, sys.stdin)}
auto = cases["auto"]
best = min(cases.values(), key=lambda c: c["median_ms"])
print("| %s | %s | %.3f | %.3f | %.2fx | %s k %d | %.2fx (%s) |" % (
    label, auto["storage"], auto["median_ms"], auto["one_pass_copy_ms"],
    auto["ratio_to_one_pass"], auto["shape"], auto["pixels_per_item"],
    best["ratio_to_one_pass"], best["case"]))
' "$label"
}

echo "| filter | storage | auto ms | one-pass copy ms | auto x copy | auto's choice | best of driver, seed, auto |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for storage in $storages; do
  for filter in $("$bin" list-filters | awk '/^[^ ]/ { print $1 }'); do
    if [ "$filter" = gaussian-blur ]; then
      row "$filter (std-dev 8)" "$filter" "$photo" --size "$size" \
          --storage "$storage" --set std-dev=8
    else
      row "$filter" "$filter" "$photo" --size "$size" --storage "$storage"
    fi
  done
  for sigma in ${SIGMAS:-2 32 64 128}; do
    row "gaussian-blur (std-dev $sigma)" gaussian-blur "$photo" \
        --size "$size" --storage "$storage" --set std-dev=$sigma
  done
done
