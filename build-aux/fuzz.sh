#!/bin/sh
# ThreadLens: build the libFuzzer targets of tests/fuzz with clang and run
# each one for a bounded time.
#
# Configures a build of its own in BUILD/fuzz (BUILD: the first argument,
# default _build) with CC=clang -Dfuzz=true and ASan and UBSan, then for
# each target: runs every seed of tests/fuzz/corpus/TARGET once, then
# fuzzes for THREADLENS_FUZZ_SECONDS (default 30) from the seeds and what
# earlier runs kept in BUILD/fuzz/corpus/TARGET.  Any crash, sanitizer
# report, leak or broken invariant fails, naming the input that did it.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd)/fuzz
seconds=${THREADLENS_FUZZ_SECONDS:-30}
targets="plan shape filter"

if ! command -v clang >/dev/null 2>&1; then
  echo "fuzz: clang is not installed (build-aux/setup.sh installs it)" >&2
  exit 1
fi

reconfigure=""
[ -f "$build/build.ninja" ] && reconfigure="--reconfigure"
# -fno-sanitize-recover: a UBSan report is a crash libFuzzer keeps.
CC=clang meson setup $reconfigure "$build" "$top" \
  -Dgimp=none -Dtests=true -Dfuzz=true \
  -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all >"$build.setup.log" 2>&1 || {
  cat "$build.setup.log"
  echo "fuzz: meson setup of $build failed (is libclang-rt-*-dev, clang's" \
       "libFuzzer, installed?)" >&2
  exit 1
}
meson compile -C "$build" $(for t in $targets; do printf 'fuzz-%s ' "$t"; done)

# intercept_tls_get_addr=0: see build-aux/sanitize.sh.
ASAN_OPTIONS=intercept_tls_get_addr=0:halt_on_error=1
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS UBSAN_OPTIONS

failed=""
for target in $targets; do
  exe=$build/tests/fuzz/fuzz-$target
  seeds=$top/tests/fuzz/corpus/$target
  kept=$build/corpus/$target
  found=$build/findings/$target
  rm -rf "$found"
  mkdir -p "$kept" "$found"

  echo "fuzz: fuzz-$target: $(ls "$seeds" | wc -l) seeds, then ${seconds}s"
  # Each seed once, by name, so a failing seed names itself; then the
  # fuzzing, which writes what fails to $found/crash-* (or leak-*, ...).
  if ! "$exe" -artifact_prefix="$found/" "$seeds"/* >"$found/seeds.log" 2>&1; then
    cat "$found/seeds.log"
    echo "fuzz: fuzz-$target FAILED on a seed of $seeds (log above)" >&2
    failed="$failed $target"
    continue
  fi
  if ! "$exe" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
         -artifact_prefix="$found/" "$kept" "$seeds" >"$found/fuzz.log" 2>&1; then
    tail -n 60 "$found/fuzz.log"
    for input in "$found"/crash-* "$found"/leak-* "$found"/timeout-* \
                 "$found"/oom-*; do
      [ -f "$input" ] || continue
      echo "fuzz: fuzz-$target FAILED; reproducer: $input" >&2
      echo "fuzz:   rerun with: $exe $input" >&2
    done
    failed="$failed $target"
    continue
  fi
  grep -E '^(stat::number_of_executed_units|Done)' "$found/fuzz.log" || true
done

if [ -n "$failed" ]; then
  echo "fuzz: failed:$failed" >&2
  exit 1
fi
echo "fuzz: all targets ran clean"
