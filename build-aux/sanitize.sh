#!/bin/sh
# ThreadLens: the engine suite under AddressSanitizer and
# UndefinedBehaviorSanitizer.
#
# Configures a build of its own in BUILD/sanitize (BUILD: the first
# argument, default _build) with -Db_sanitize=address,undefined, builds it
# and runs its 'engine' suite.  Any report fails: UBSan halts on the first
# error, ASan always does, and LeakSanitizer fails a test at exit unless
# the leak is one of tests/lsan.supp (other projects' libraries only).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/_build}" && pwd)/sanitize
supp=$top/tests/lsan.supp

reconfigure=""
[ -f "$build/build.ninja" ] && reconfigure="--reconfigure"
# -fno-sanitize-recover: a UBSan report aborts the test, not just prints.
meson setup $reconfigure "$build" "$top" \
  -Dgimp=none -Dtests=true \
  -Db_sanitize=address,undefined -Db_lundef=false \
  -Dc_args=-fno-sanitize-recover=all >"$build.setup.log" 2>&1 || {
  cat "$build.setup.log"
  echo "sanitize: meson setup of $build failed" >&2
  exit 1
}
meson compile -C "$build"

# fast_unwind_on_malloc=0: GEGL, babl and PoCL are built without frame
# pointers, so only the slow unwinder reaches the frames tests/lsan.supp
# names.  intercept_tls_get_addr=0: LeakSanitizer's dynamic-TLS tracking
# misreads glibc 2.36's and crashes its tracer at exit (google/sanitizers
# #1322); static TLS, stacks and globals are still scanned.
# TL_TEST_CROSS_SECTION: test-filters runs each filter case under each
# shape and dispatch mode, not every swizzle and pixels-per-item besides.
# The sanitizers look for memory errors and undefined behaviour in the C
# code, which every case, shape and mode reaches; the whole sweep's
# pixels are held to the references in the unsanitized suite.  Under
# ASan the whole sweep took 381 s of a CI run on 2 cores, the longest of
# this suite's tests.
TL_TEST_CROSS_SECTION=1
export TL_TEST_CROSS_SECTION
ASAN_OPTIONS=fast_unwind_on_malloc=0:malloc_context_size=64:intercept_tls_get_addr=0:detect_leaks=1:halt_on_error=1
LSAN_OPTIONS=suppressions=$supp:print_suppressions=0
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS

if ! meson test -C "$build" --no-rebuild --suite engine --print-errorlogs \
       --timeout-multiplier 3; then
  cat >&2 <<EOM
sanitize: the engine suite failed under ASan/UBSan; the reports are above
and in $build/meson-logs/testlog.txt.  Reproduce one test with:
  ASAN_OPTIONS=$ASAN_OPTIONS \\
  LSAN_OPTIONS=$LSAN_OPTIONS \\
  UBSAN_OPTIONS=$UBSAN_OPTIONS \\
  meson test -C $build --no-rebuild --print-errorlogs TEST
EOM
  exit 1
fi
