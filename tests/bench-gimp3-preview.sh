#!/bin/sh
# ThreadLens benchmark inside GIMP 3 (a benchmark, not a test): the time
# from a change of a live filter's setting to GIMP's canvas showing the
# new result, threadlens:FILTER against GIMP's own filter of the same
# name, at 2 MP (1920x1080) and 8 MP (3840x2160), in GIMP 3 with its
# window on a private Xvfb screen, in a GIMP 3 root
# (build-aux/gimp3-root.sh; the Debian testing root, GIMP 3.2, unless
# THREADLENS_ROOT_RELEASE says otherwise).  tests/gimp3/preview-latency.py
# does the timing; the canvas is what a user looks at: the photo fitted to
# the window, so 8 MP is drawn zoomed out (a mipmap level above 0).
# A fresh profile and cache, with the programs built ahead as on a user's
# machine after one start.
# Usage: sh tests/bench-gimp3-preview.sh [RUNS [PATTERN [SIZES]]];
# PATTERN (a regular expression) picks filters by name.
set -eu

if [ "${1:-}" != "--inside" ]; then
  top=$(cd "$(dirname "$0")/.." && pwd)
  exec sh "$top/build-aux/gimp3-root.sh" --release "${THREADLENS_ROOT_RELEASE:-forky}" \
    "sh tests/bench-gimp3-preview.sh --inside ${1:-3} '${2:-.}' '${3:-1920x1080 3840x2160}'"
fi
build=${TL_GIMP3_BUILD:?run through build-aux/gimp3-root.sh}

. build-aux/gimp3-profile.sh
unset THREADLENS_PREBUILD
tl_profile_first_start

export TL_RUNS=$2 TL_CASES=$3 TL_SIZES=$4
export TL_PHOTO=/src/tests/images/coffee.png TL_OUT_DIR="${TL_BENCH_OUT:-$TL_PROFILE}"
mkdir -p "$TL_OUT_DIR"
xvfb-run -a -s '-screen 0 1920x1080x24' \
  gimp-3 --no-splash --batch-interpreter=python-fu-eval \
    -b "exec(open('/src/tests/gimp3/preview-latency.py').read())" --quit 2>&1 |
  tee "$TL_OUT_DIR/preview.log" | grep -e 'TL-PREVIEW' -e 'Error' -e 'Traceback' || true
echo "threadlens / GIMP's own, medians of $2 (ms):"
awk '$1 == "TL-PREVIEW" { t[$2 " " $3 " " $4] = $5; k[$2 " " $3] = 1 }
     END { for (c in k) printf "%-30s %9.0f %9.0f  %5.2f\n", c, t[c " threadlens"],
             t[c " gimp"], t[c " gimp"] ? t[c " threadlens"] / t[c " gimp"] : 0 }' \
  "$TL_OUT_DIR/preview.log" | sort
echo "GIMP $(gimp-console-3 --version | sed 's/.* //'); $(nproc) cores"
