#!/bin/sh
# ThreadLens tests, suite 'package': the Debian package of build-aux/package.sh.
#
#   test-package.sh host    builds the package for this machine's GIMP
#                           (GIMP 2.10 on Debian 12) and checks that the
#                           .deb holds the plug-in, the GEGL module, its
#                           probe and the catalogues where that GIMP and
#                           GEGL look; nothing is installed here.
#   test-package.sh gimp3 [RELEASE]
#                           builds the GIMP 3 package in the root of
#                           RELEASE (trixie, the default: Debian 13 and
#                           GIMP 3.0; forky: Debian testing and GIMP 3.2;
#                           build-aux/gimp3-root.sh), installs it
#                           with apt into a throwaway overlay of that root
#                           (which has GIMP 3 but no ThreadLens) and has
#                           GIMP 3 run filters from it in batch mode, as a
#                           user of the package would.  Skips (77) where
#                           the root cannot be made: not root, no
#                           debootstrap.
#   test-package.sh --in-root DIR
#                           the part of `gimp3` inside the overlay, with
#                           the .deb in DIR.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
package=gimp-plugin-threadlens

fail () {
  echo "FAIL: $*" >&2
  exit 1
}

# The files the package must hold for GIMP VERSION, from the folders the
# system's GIMP and GEGL name in their pkg-config files.
expected_files () {
  plugin_dir=$(pkg-config --variable=gimplibdir "gimp-$1.0")/plug-ins/gimp-threadlens
  gegl_dir=$(pkg-config --variable=pluginsdir gegl-0.4)
  echo "$plugin_dir/gimp-threadlens"
  echo "$gegl_dir/threadlens.so"
  echo "$gegl_dir/threadlens-cl-probe"
  echo /usr/bin/threadlens
  for lang in $(cat "$top/po/LINGUAS"); do
    echo "$plugin_dir/locale/$lang/LC_MESSAGES/threadlens.mo"
    echo "/usr/share/locale/$lang/LC_MESSAGES/threadlens.mo"
  done
}

# Every expected file of GIMP VERSION is in LISTING (one path a line).
check_files () {
  for file in $(expected_files "$1"); do
    grep -qx "$file" "$2" || fail "the package lacks $file"
    echo "ok: $file"
  done
}

# The .deb in DIR (not a -dbgsym one).
the_deb () {
  set -- "$1"/${package}_*.deb
  [ $# -eq 1 ] && [ -f "$1" ] || fail "no single $package .deb"
  echo "$1"
}

case ${1:-} in
host)
  if pkg-config --exists gimp-3.0; then
    gimp=3
  elif pkg-config --exists gimp-2.0; then
    gimp=2
  else
    echo "SKIP: no GIMP development files on this machine"
    exit 77
  fi
  out=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-test-package.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  trap 'exit 130' INT TERM
  sh "$top/build-aux/package.sh" "$out" > "$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; fail "build-aux/package.sh"; }
  deb=$(the_deb "$out")
  dpkg-deb -c "$deb" | sed 's|.* \./|/|; s|/$||' > "$out/files"
  check_files $gimp "$out/files"
  depends=$(dpkg-deb -f "$deb" Depends)
  case $gimp in
    2) want="gimp (>= 2.10), gimp (<< 2.99)" ;;
    3) want="gimp (>= 3.0)" ;;
  esac
  case "$depends" in
    *"$want"*) echo "ok: Depends: $want" ;;
    *) fail "Depends says '$depends', not '$want'" ;;
  esac
  ;;

gimp3)
  out=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-test-package.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  trap 'exit 130' INT TERM
  chmod 755 "$out"      # apt in the root reads the .deb as _apt
  status=0
  release=${2:-trixie}
  sh "$top/build-aux/package.sh" --root "$release" "$out" > "$out/build.log" 2>&1 || status=$?
  if [ $status -eq 77 ]; then
    grep -h "^SKIP" "$out/build.log" || echo "SKIP: no $release root for GIMP 3 here"
    exit 77
  fi
  [ $status -eq 0 ] || { tail -40 "$out/build.log"; fail "build-aux/package.sh --root $release"; }
  the_deb "$out" >/dev/null
  sh "$top/build-aux/gimp3-root.sh" --release "$release" --overlay --no-build --share "$out" \
    'sh tests/test-package.sh --in-root /share'
  ;;

--in-root)
  dir=$2
  deb=$(the_deb "$dir")
  # Clean: nothing of ThreadLens on this system before the install.
  for file in $(expected_files 3); do
    [ ! -e "$file" ] || fail "$file is there before the package is installed"
  done
  # The root's package lists may be older than the archive: fetch them
  # only when apt needs something they no longer name.
  install="DEBIAN_FRONTEND=noninteractive apt-get install -y -q $deb"
  sh -c "$install" > "$dir/apt.log" 2>&1 ||
    { apt-get update -q > /dev/null && sh -c "$install" > "$dir/apt.log" 2>&1; } ||
    { cat "$dir/apt.log"; fail "apt-get install $deb"; }
  echo "ok: apt-get install $(basename "$deb")"
  dpkg -L $package > "$dir/dpkg-L"
  check_files 3 "$dir/dpkg-L"

  # GIMP 3 in batch mode as a user runs it: a home of its own, no
  # variables pointing at a build, so what GIMP finds is what the package
  # installed.  Two filters: invert as the GEGL operation GIMP runs
  # in-core, and again through the plug-in's procedure.
  home=$(mktemp -d)
  photo=/src/tests/images/coffee.png
  script="(let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
                 (layer (vector-ref (car (gimp-image-get-selected-drawables img)) 0)))
            (gimp-drawable-merge-new-filter layer \"threadlens:invert\" 0 LAYER-MODE-REPLACE 1.0)
            (gimp-file-save RUN-NONINTERACTIVE img \"$home/in-core.png\" -1)
            (gimp-image-delete img))
          (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
                 (layer (vector-ref (car (gimp-image-get-selected-drawables img)) 0)))
            (plug-in-threadlens-invert #:run-mode RUN-NONINTERACTIVE #:image img
                                       #:drawables (vector layer))
            (gimp-file-save RUN-NONINTERACTIVE img \"$home/plug-in.png\" -1)
            (gimp-image-delete img))
          (gimp-message \"TL-PACKAGE-DONE\")"
  status=0
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$home" LANG=C.UTF-8 THREADLENS_PREBUILD=0 \
    gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval \
    -b "$script" --quit > "$dir/gimp.log" 2>&1 || status=$?
  cat "$dir/gimp.log"
  echo "GIMP $(gimp-console-3 --version | sed 's/.* //')"
  [ $status -eq 0 ] || fail "gimp-console-3 exited with $status"
  grep -q TL-PACKAGE-DONE "$dir/gimp.log" || fail "GIMP did not run the whole script"
  # GIMP 3.0's plug-ins (its own file-png too) warn "gimp_flush(): error:
  # Broken pipe" as they exit after their last call: GIMP's noise, in
  # every batch run.  Anything else naming an error, or a warning from
  # ThreadLens (its log domain), fails.
  ! grep -Ei "error|critical|fail" "$dir/gimp.log" |
    grep -v "gimp_flush(): error: Broken pipe" || fail "GIMP's log names an error"
  ! grep -E "ThreadLens-(WARNING|CRITICAL)" "$dir/gimp.log" || fail "ThreadLens warned"

  # Invert: every 8-bit channel v becomes 255 - v (netpbm's pnminvert).
  pngtopnm "$photo" | pnminvert > "$home/want.ppm"
  for result in in-core plug-in; do
    [ -f "$home/$result.png" ] || fail "GIMP saved no $result.png"
    pngtopnm "$home/$result.png" > "$home/$result.ppm"
    cmp -s "$home/want.ppm" "$home/$result.ppm" ||
      fail "$result: the pixels are not the photo's inverted"
    echo "ok: $result invert, every pixel 255 - v"
  done
  rm -rf "$home"
  ;;

*)
  echo "usage: test-package.sh host | gimp3 | --in-root DIR" >&2
  exit 2
  ;;
esac
echo "PASS: package ${1}"
