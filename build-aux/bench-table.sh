#!/bin/sh
# ThreadLens: the README's performance table for one device, and a heat map
# of each filter's shape sweep.  A benchmark, not a test.
#
#   sh build-aux/bench-table.sh PHOTO [SIZE] [DEVICE] [HEATMAP-DIR]
#
# For every filter and for float and u8 storage: the sweep's fastest
# choice, its share of the same run's copy bandwidth, what "auto" picks
# after a bounded search (--tune), and how the seed rule and the driver's
# own local size compare with the fastest.  gaussian-blur runs at
# std-dev 8.  THREADLENS (default _build/cli/threadlens) names the binary.
set -eu

photo=${1:?usage: bench-table.sh PHOTO [SIZE] [DEVICE] [HEATMAP-DIR]}
size=${2:-4096x4096}
device=${3:-}
heat=${4:-}
bin=${THREADLENS:-_build/cli/threadlens}

echo "| filter | storage | size | fastest choice | ms | GB/s | of copy | auto after --tune: ms (of fastest) | seed rule (of fastest) | driver (of fastest) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for storage in float u8; do
  for filter in $("$bin" list-filters | awk '/^[^ ]/ { print $1 }'); do
    set -- bench "$filter" "$photo" --size "$size" --storage "$storage" --runs 7
    [ "$filter" = gaussian-blur ] && set -- "$@" --set std-dev=8
    [ -n "$device" ] && set -- "$@" --device "$device"
    "$bin" "$@" --tune --runs 5 > /dev/null
    if [ -n "$heat" ]; then
      mkdir -p "$heat"
      "$bin" "$@" --sweep --markdown --heatmap "$heat/$filter-$storage.png"
    else
      "$bin" "$@" --sweep --markdown
    fi
  done
done
