#!/bin/sh
# ThreadLens tests: the GIMP 3 host in a Debian root of each RELEASE
# (trixie: Debian 13, GIMP 3.0; forky: Debian testing, GIMP 3.2), made and
# reused by build-aux/gimp3-root.sh.  In each root, one after the other
# under that root's lock: the build with its gimp3 suite (and, in trixie,
# the drivers suite: every kernel on Mesa's rusticl), then the Debian
# package built there, installed with apt into a clean overlay of the
# root and run (test-package.sh).
#
# The roots run side by side, in one meson test: making a root is mostly
# downloading, so while one is made the machine's cores serve the other
# root and the host's suites, where two meson tests would hold both of a
# 2-core machine's test slots idle.  Each root's output is printed whole
# when all are done.  Skips (77) where no root can be made (not root, no
# debootstrap); fails if any root fails.
#
# Usage: test-root.sh RELEASE...
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
logs=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-test-root.XXXXXX")
trap 'rm -rf "$logs"' EXIT

# One root: its suites, then its package; the status in $logs/RELEASE.status.
one_root () {
  release=$1
  case $release in
    # rusticl's run of every kernel takes about 8 minutes on 2 cores with
    # Debian 13's Mesa 25, and over 10 with forky's Mesa 26: in one root.
    trixie) suites="--suite gimp3 --suite drivers" ;;
    *) suites="--suite gimp3" ;;
  esac
  start=$(date +%s)
  status=0
  sh "$top/build-aux/gimp3-root.sh" --release "$release" \
    "meson test -C \$TL_GIMP3_BUILD --print-errorlogs $suites" || status=$?
  echo "test-root.sh: $release's suites took $(($(date +%s) - start)) s (status $status)"
  if [ $status -eq 0 ]; then
    start=$(date +%s)
    sh "$top/tests/test-package.sh" gimp3 "$release" || status=$?
    echo "test-root.sh: $release's package took $(($(date +%s) - start)) s (status $status)"
  fi
  echo $status > "$logs/$release.status"
}

for release in "$@"; do
  one_root "$release" > "$logs/$release.log" 2>&1 &
done
wait

result=77
for release in "$@"; do
  echo "======== $release"
  cat "$logs/$release.log"
  status=$(cat "$logs/$release.status" 2>/dev/null || echo 1)
  case $status in
    0) [ $result -ne 77 ] || result=0 ;;
    77) ;;
    *) result=1 ;;
  esac
done
for release in "$@"; do
  echo "test-root.sh: $release: status $(cat "$logs/$release.status" 2>/dev/null || echo '?')"
done
exit $result
