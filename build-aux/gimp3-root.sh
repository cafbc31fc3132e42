#!/bin/sh
# ThreadLens: build and test the GIMP 3 host inside a Debian 13 root.
#
# GIMP 3 is not packaged for Debian 12, and its packages must never be
# installed on the host itself, so this makes (or reuses) a Debian 13 root
# with debootstrap, installs GIMP 3 and the build dependencies inside it,
# bind-mounts /proc, /dev, /sys and this checkout, builds with -Dgimp=3 in
# the root's own filesystem and runs the engine and gimp3 suites there
# (or, given COMMAND, runs that in the checkout inside the root after the
# build: `sh build-aux/gimp3-root.sh 'sh tests/bench-gimp3.sh --inside 3'`).
# Everything mounted is unmounted on every way out.
#
# Exit status 77 (meson's "skipped") when it cannot run here: not root,
# or no debootstrap.  THREADLENS_TRIXIE_ROOT moves the cached root;
# THREADLENS_DEBIAN_MIRROR changes the mirror.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
root=${THREADLENS_TRIXIE_ROOT:-/var/cache/threadlens/trixie-root}
mirror=${THREADLENS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
packages="gimp libgimp-3.0-dev meson ninja-build pkg-config gcc libc6-dev
          libglib2.0-dev libgegl-dev libbabl-dev libjson-glib-dev
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          libgtk-3-dev xvfb xauth xdotool x11-apps netpbm
          gettext fonts-noto-cjk librsvg2-common mesa-opencl-icd clinfo"
packages=$(echo $packages)
stamp="$root/.threadlens-packages"

skip () {
  echo "SKIP: GIMP 3 suite not run: $*"
  exit 77
}

[ "$(id -u)" -eq 0 ] || skip "making a Debian 13 root needs root"
command -v debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed"
command -v chroot >/dev/null 2>&1 || skip "chroot is not available"

mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9

mounted=""
cleanup () {
  for point in $mounted; do
    umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "threadlens: making a Debian 13 root in $root"
  rm -rf "$root"
  debootstrap --variant=minbase trixie "$root" "$mirror"
fi

mount_bind () {
  mkdir -p "$root$2"
  mount --bind "$1" "$root$2"
  mounted="$root$2 $mounted"
}
mount_bind /proc /proc
mount_bind /dev /dev
mount_bind /sys /sys      # PoCL reads the CPU topology there
mount_bind "$top" /src

cp /etc/resolv.conf "$root/etc/resolv.conf"
if [ "$(cat "$stamp" 2>/dev/null)" != "$packages" ]; then
  echo "threadlens: installing GIMP 3 and the build dependencies in the root"
  chroot "$root" sh -c "apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages" \
    > "$root.apt.log" 2>&1 || { tail -20 "$root.apt.log"; exit 1; }
  echo "$packages" > "$stamp"
fi

# A build folder in the root for each checkout (named by its path), so
# that two trees (a worktree of an earlier commit, say) never share
# objects; COMMAND finds it as $TL_GIMP3_BUILD.
build=/var/tmp/threadlens-gimp3-$(printf '%s' "$top" | cksum | cut -d ' ' -f 1)
command=${1:-meson test -C $build --print-errorlogs --suite engine --suite gimp3}
chroot "$root" env TL_ROOT_COMMAND="$command" TL_GIMP3_BUILD="$build" sh -c '
  set -e
  cd /src
  build=$TL_GIMP3_BUILD
  if [ -f $build/build.ninja ]; then
    meson setup --reconfigure -Dgimp=3 $build /src > $build.setup.log || { cat $build.setup.log; exit 1; }
  else
    meson setup -Dgimp=3 $build /src > $build.setup.log || { cat $build.setup.log; exit 1; }
  fi
  meson compile -C $build > $build.compile.log 2>&1 || { tail -40 $build.compile.log; exit 1; }
  eval "$TL_ROOT_COMMAND"
'
