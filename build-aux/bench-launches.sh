#!/bin/sh
# ThreadLens benchmark (not a test): launches bounded in time against
# unbounded ones.  Every filter at its range's large end (or, where that
# end takes hours on any device, the largest setting named below) at
# SIZE, through the GEGL module (bench-gegl, one call over the layer), with
# THREADLENS_LAUNCH_MS=0 (each launch whole) and at the default budget
# (100 ms): the median time of RUNS calls, its ratio, and the longest
# single kernel launch of each.
#
# Usage: sh build-aux/bench-launches.sh BENCH-GEGL [SIZE [RUNS [PATTERN]]]
# (BENCH-GEGL: _build/build-aux/bench-gegl here; bench-gegl in the GPU
# bundle after `. .gpu/env.sh`); PATTERN (grep) picks cases.
# THREADLENS_GEGL_MODULES or GEGL_PATH must lead to the module.
set -eu
bench=${1:?usage: bench-launches.sh BENCH-GEGL [SIZE [RUNS [PATTERN]]]}
size=${2:-12000x8000}
runs=${3:-3}
pattern=${4:-.}
cases="
invert
color-matrix
brightness-contrast:contrast=5,brightness=3
threshold
mono-mixer
sepia
posterize:levels=64
edge-sobel
gaussian-blur:std-dev=500
box-blur:radius=1000
pixelize:size=2048
unsharp-mask:std-dev=1500,scale=300
motion-blur-linear:length=1000,angle=30
difference-of-gaussians:radius1=1000,radius2=1000
high-pass:std-dev=1000
mean-curvature-blur:iterations=500
noise-reduction:iterations=32
snn-mean:radius=100,pairs=2
median-blur:radius=100
bilateral-filter:blur-radius=100
"
out=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-launches-XXXXXX")
trap 'rm -rf "$out"' EXIT
printf "%-50s %12s %12s %6s %12s %12s %9s\n" case "whole, ms" "bounded, ms" ratio \
       "longest" "longest" launches
for c in $(echo "$cases" | grep -e "$pattern"); do
  for budget in 0 100; do
    THREADLENS_LAUNCH_MS=$budget "$bench" --runs "$runs" --no-twins \
      --json "$out/$budget.json" "$size" "$c" >/dev/null 2>"$out/$budget.log" ||
      { echo "$c: bench-gegl failed at budget $budget:"; tail -3 "$out/$budget.log"; continue 2; }
  done
  field () { sed -n "s/.*\"$2\": \([0-9.]*\).*/\1/p" "$out/$1.json" | tail -n 1; }
  printf "%-50s %12.1f %12.1f %6.2f %12.1f %12.1f %9s\n" "$c" \
    "$(field 0 median_ms)" "$(field 100 median_ms)" \
    "$(echo "$(field 100 median_ms) $(field 0 median_ms)" | awk '{ print $1 / $2 }')" \
    "$(field 0 longest_launch_ms)" "$(field 100 longest_launch_ms)" "$(field 100 launches)"
done
echo "$size, medians of $runs; longest: the longest single launch, unbounded then bounded"
