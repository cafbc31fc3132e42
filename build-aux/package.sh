#!/bin/sh
# ThreadLens: build the Debian package gimp-plugin-threadlens and put the
# .deb (with its .changes and .buildinfo) into OUT-DIR.
#
#   sh build-aux/package.sh OUT-DIR          for this machine's GIMP:
#                                            GIMP 2.10 on Debian 12,
#                                            GIMP 3 on Debian 13
#   sh build-aux/package.sh --gimp3 OUT-DIR  for GIMP 3.0 on Debian 13, built
#                                            in the Debian 13 root of
#                                            build-aux/gimp3-root.sh (root
#                                            only; from a Debian 12 host)
#   sh build-aux/package.sh --root forky OUT-DIR
#                                            the same for GIMP 3.2 on Debian
#                                            testing, in its root (--root
#                                            trixie is --gimp3)
#
# The build runs in a copy of the tree (the files git knows, or without
# git everything but build output), so it never writes into the checkout:
# dpkg-buildpackage puts its results beside the source folder.
# DEB_BUILD_OPTIONS is honoured; by default the build uses every core and
# makes no -dbgsym package.  Exit status 77 where --gimp3 cannot run.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)

usage () {
  echo "usage: sh build-aux/package.sh [--gimp3 | --root RELEASE] OUT-DIR" >&2
  exit 2
}

# The build itself, in COPY (a disposable copy of the tree): called by
# this script, on this machine or inside the Debian 13 root.
if [ "${1:-}" = --in-copy ]; then
  [ $# -eq 2 ] || usage
  cd "$2"
  options=${DEB_BUILD_OPTIONS:-}
  case " $options " in
    *" parallel="*) ;;
    *) options="$options parallel=$(nproc)" ;;
  esac
  case " $options " in
    *" noautodbgsym "*) ;;
    *) options="$options noautodbgsym" ;;
  esac
  DEB_BUILD_OPTIONS=${options# } dpkg-buildpackage -us -uc -b
  exit
fi

gimp3=no
release=trixie
case ${1:-} in
  --gimp3) gimp3=yes; shift ;;
  --root) gimp3=yes; release=${2:-}; shift 2 || usage ;;
esac
[ $# -eq 1 ] || usage
mkdir -p "$1"
out=$(cd "$1" && pwd)

if [ "$gimp3" = no ]; then
  for tool in dpkg-buildpackage dh; do
    command -v $tool >/dev/null 2>&1 || {
      echo "package.sh: $tool not found: run build-aux/setup.sh (debhelper, dpkg-dev)" >&2
      exit 1
    }
  done
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
# apt inside the root reads the .deb as user _apt.
chmod 755 "$work"
mkdir "$work/threadlens"

# Tracked and new files, not what .gitignore names (_build, results).
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$top" && git ls-files -z --cached --others --exclude-standard |
     tar -c --null -T - --ignore-failed-read -f - 2>/dev/null) |
    tar -x -C "$work/threadlens" -f -
else
  (cd "$top" && tar -c -f - --exclude=./.git --exclude='./_build*' \
     --exclude='./obj-*' --exclude=./debian/.debhelper \
     --exclude=./debian/gimp-plugin-threadlens --exclude=./debian/files \
     --exclude='./debian/*.substvars' --exclude=./debian/debhelper-build-stamp .) |
    tar -x -C "$work/threadlens" -f -
fi

if [ "$gimp3" = yes ]; then
  # The root is a throwaway overlay, so the build leaves nothing in it;
  # the copy is shared with it at /share.
  sh "$top/build-aux/gimp3-root.sh" --release "$release" --overlay --no-build --share "$work" \
    'sh /share/threadlens/build-aux/package.sh --in-copy /share/threadlens'
else
  sh "$top/build-aux/package.sh" --in-copy "$work/threadlens"
fi

cp "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$out/"
for deb in "$work"/*.deb; do
  echo "package.sh: $out/$(basename "$deb")"
done
