#!/bin/sh
# ThreadLens tests: the GIMP 3 host in a Debian root of RELEASE (trixie:
# Debian 13, GIMP 3.0; forky: Debian testing, GIMP 3.2), made and reused
# by build-aux/gimp3-root.sh.  First the build in the root with its gimp3
# and drivers suites, then the Debian package built there, installed with
# apt into a clean overlay of the root and run (test-package.sh), one
# after the other under the root's lock, so that neither waits idle for
# the other.  Skips (77) where no root can be made: not root, no
# debootstrap.
#
# Usage: test-root.sh RELEASE
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
release=$1
start=$(date +%s)

status=0
sh "$top/build-aux/gimp3-root.sh" --release "$release" || status=$?
[ $status -ne 77 ] || exit 77
echo "test-root.sh: $release's suites took $(($(date +%s) - start)) s (status $status)"
[ $status -eq 0 ] || exit $status

start=$(date +%s)
sh "$top/tests/test-package.sh" gimp3 "$release"
echo "test-root.sh: $release's package took $(($(date +%s) - start)) s"
