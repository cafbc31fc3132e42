#!/bin/sh
# ThreadLens tests, suite gimp3: the README's per-user install
# (`meson compile -C BUILD install-user-gimp3`) into the profile of a GIMP
# 3 that has already run, as most users' has, with another GIMP 3's
# profile beside it; then GIMP, started as a user starts it, finds the
# procedures and runs an operation of the GEGL module in-core.
#
# Usage: test-install-user.sh BUILD-DIR
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$1

fail () {
  echo "FAIL: $*" >&2
  exit 1
}

command -v gimp-console-3 >/dev/null 2>&1 ||
  fail "this build is for GIMP 3, but gimp-console-3 is not installed"
version=$(gimp-console-3 --version | sed 's/.* //')
series=${version%.*}
echo "GIMP $version"

home=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-install-user.XXXXXX")
trap 'rm -rf "$home"' EXIT
trap 'exit 130' INT TERM

# GIMP as a user starts it: nothing pointing at the build.
as_user () {
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" LANG=C.UTF-8 THREADLENS_PREBUILD=0 "$@"
}
gimp_batch () {
  as_user gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval \
    -b "$1" --quit > "$2" 2>&1 < /dev/null || { cat "$2"; fail "GIMP $version exited with an error"; }
}

gimp_batch '(gimp-message "TL-FIRST-START")' "$home/first.log"
profile="$home/.config/GIMP/$series"
[ -d "$profile" ] || fail "GIMP $version made no profile at $profile"
echo "ok: GIMP $version has run, its profile is $profile"
# Another GIMP 3's profile beside it, as where 3.0 and 3.2 are both in use.
case $series in
  3.0) other=3.2 ;;
  *) other=3.0 ;;
esac
mkdir -p "$home/.config/GIMP/$other"

as_user ninja -C "$build" install-user-gimp3 > "$home/install.log" 2>&1 ||
  { cat "$home/install.log"; fail "install-user-gimp3"; }
for dir in "$profile" "$home/.config/GIMP/$other"; do
  [ -x "$dir/plug-ins/gimp-threadlens/gimp-threadlens" ] ||
    { cat "$home/install.log"; fail "nothing installed in $dir"; }
  echo "ok: installed in $dir"
done

photo="$top/tests/images/coffee.png"
gimp_batch "(gimp-message (if (member (car (gimp-pdb-procedure-exists \"plug-in-threadlens-invert\"))
                                      (list #t 1))
                              \"TL-FOUND\" \"TL-MISSING\"))
            (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
                   (layer (vector-ref (car (gimp-image-get-selected-drawables img)) 0)))
              (gimp-drawable-merge-new-filter layer \"threadlens:invert\" 0 LAYER-MODE-REPLACE 1.0)
              (gimp-file-save RUN-NONINTERACTIVE img \"$home/in-core.png\" -1))" \
  "$home/after.log"
grep -q TL-FOUND "$home/after.log" ||
  { cat "$home/after.log"; fail "GIMP $version does not find plug-in-threadlens-invert after the install"; }
echo "ok: GIMP $version finds plug-in-threadlens-invert"
[ -f "$home/in-core.png" ] || { cat "$home/after.log"; fail "GIMP saved no in-core.png"; }
pngtopnm "$photo" | pnminvert > "$home/want.ppm"
pngtopnm "$home/in-core.png" > "$home/got.ppm"
cmp -s "$home/want.ppm" "$home/got.ppm" ||
  { cat "$home/after.log"; fail "threadlens:invert in-core: not the photo inverted (is the GEGL module installed?)"; }
echo "ok: threadlens:invert runs in-core, every pixel 255 - v"
echo "PASS: install-user-gimp3 for GIMP $version"
