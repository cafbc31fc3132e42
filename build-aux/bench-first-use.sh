#!/bin/sh
# ThreadLens benchmark (not a test): what a filter's first use in a
# process costs over a later one, with the caches as a user's machine has
# them after install and one GIMP start.
#
# 1. A new cache folder; one run of the GEGL module in a process of its
#    own (as GIMP's first start): its platform check is new, so it starts
#    the helper that builds every filter's programs, which is waited for.
# 2. bench-gegl in a fresh process times every filter at its defaults at
#    SIZE, RUNS times: its "first run" is the filter's first call in that
#    process (for the first filter, the process's first OpenCL use too),
#    its median a later call.
#
# The drivers' own caches start empty too (PoCL's kernel cache, NVIDIA's
# compute cache), as on a new user's machine.  With --no-prebuild step 1
# only checks the platforms, and builds nothing ahead: the baseline.
#
# Usage: sh build-aux/bench-first-use.sh [--no-prebuild] BENCH-GEGL [SIZE [RUNS]]
# (BENCH-GEGL: _build/build-aux/bench-gegl here; bench-gegl in the GPU
# bundle, after `. .gpu/env.sh`).  THREADLENS_GEGL_MODULES or GEGL_PATH
# must lead to the module, as for bench-gegl.
set -eu
prebuild=1
if [ "${1:-}" = "--no-prebuild" ]; then prebuild=0; shift; fi
bench=${1:?usage: bench-first-use.sh [--no-prebuild] BENCH-GEGL [SIZE [RUNS]]}
size=${2:-1920x1080}
runs=${3:-5}

cache=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-first-use-XXXXXX")
trap 'rm -rf "$cache"' EXIT
export THREADLENS_CACHE_DIR="$cache" GEGL_MIPMAP_RENDERING=1
export POCL_CACHE_DIR="$cache/pocl" CUDA_CACHE_PATH="$cache/nvidia"
if [ $prebuild = 1 ]; then unset THREADLENS_PREBUILD; else export THREADLENS_PREBUILD=0; fi

start=$(date +%s)
"$bench" --runs 1 --no-twins 64x64 threshold >/dev/null 2>&1
while [ $prebuild = 1 ] && ! ls "$cache"/opencl-probe/*.programs >/dev/null 2>&1; do
  [ $(( $(date +%s) - start )) -lt 900 ] || { echo "the programs were not built in 900 s" >&2; exit 1; }
  sleep 1
done
[ $prebuild = 0 ] || echo "after one start ($(( $(date +%s) - start )) s): $(cat "$cache"/opencl-probe/*.programs)"

THREADLENS_PREBUILD=0 "$bench" --runs "$runs" --no-twins "$size" 2>&1 |
  awk '/first run/ {
         first = $0; sub (/.*first run /, "", first); sub (/ ms.*/, "", first);
         printf "%-32s first %8.1f ms  median %8.1f ms  first - median %8.1f ms\n",
                $2, first, $4, first - $4 }'
