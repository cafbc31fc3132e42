#!/bin/sh
# ThreadLens: build and test the GIMP 3 host inside a Debian root: Debian
# 13 (trixie, GIMP 3.0) or Debian testing (forky, GIMP 3.2).
#
# GIMP 3 is not packaged for Debian 12, and its packages must never be
# installed on the host itself, so this makes (or reuses) a Debian root
# with debootstrap, installs GIMP 3 and the build dependencies inside it,
# bind-mounts /proc, /dev, /sys and this checkout, builds with -Dgimp=3 in
# the root's own filesystem and runs there what depends on GIMP 3 or on
# the root's OpenCL drivers (tests/root-suites.sh), or, given COMMAND,
# runs that in the checkout inside the root after the build:
# `sh build-aux/gimp3-root.sh 'sh tests/bench-gimp3.sh --inside 3'`.
# Everything mounted is unmounted on every way out.
#
# Options, before COMMAND:
#   --release R  trixie (Debian 13, GIMP 3.0; the default) or forky
#                (Debian testing, GIMP 3.2)
#   --no-build   run COMMAND in /src without building the checkout first
#   --overlay    run in a throwaway overlay of the root, so that what
#                COMMAND installs or writes there is gone afterwards (the
#                cached root stays as debootstrap and its packages left it)
#   --share DIR  bind-mount DIR of the host at /share inside the root
#
# Exit status 77 (meson's "skipped") when it cannot run here: not root,
# or no debootstrap.  THREADLENS_ROOTS moves the cached roots (default
# /var/cache/threadlens, one folder RELEASE-root each);
# THREADLENS_DEBIAN_MIRROR changes the mirror.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
mirror=${THREADLENS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# build-essential and debhelper: the Debian package's build
# (build-aux/package.sh --gimp3).
packages="gimp libgimp-3.0-dev meson ninja-build pkg-config gcc libc6-dev
          libglib2.0-dev libgegl-dev libbabl-dev libjson-glib-dev
          ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd
          libgtk-3-dev xvfb xauth xdotool x11-apps netpbm
          gettext fonts-noto-cjk librsvg2-common mesa-opencl-icd clinfo
          build-essential debhelper"
packages=$(echo $packages)

prebuild=yes
overlay=no
share=""
release=trixie
while [ $# -gt 0 ]; do
  case $1 in
    --release) release=$2; shift ;;
    --no-build) prebuild=no ;;
    --overlay) overlay=yes ;;
    --share) share=$(cd "$2" && pwd); shift ;;
    --) shift; break ;;
    -*) echo "gimp3-root.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done

case $release in
  trixie) debian="Debian 13" ;;
  forky) debian="Debian testing (forky)" ;;
  *) echo "gimp3-root.sh: unknown release $release (trixie or forky)" >&2; exit 2 ;;
esac
root=${THREADLENS_ROOTS:-/var/cache/threadlens}/$release-root
stamp="$root/.threadlens-packages"

skip () {
  echo "SKIP: no $debian root for GIMP 3 here: $*"
  exit 77
}

[ "$(id -u)" -eq 0 ] || skip "making the root needs root"
command -v debootstrap >/dev/null 2>&1 || skip "debootstrap is not installed"
command -v chroot >/dev/null 2>&1 || skip "chroot is not available"

mkdir -p "$(dirname "$root")"
exec 9>"$root.lock"
flock 9

mounted=""
scratch=""
cleanup () {
  for point in $mounted; do
    umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true
  done
  # The overlay's folders go only once nothing is mounted under them:
  # rm -rf through a bind mount left behind would reach the checkout.
  if [ -n "$scratch" ]; then
    if grep -q " $scratch/" /proc/mounts; then
      echo "threadlens: $scratch is still mounted; left in place" >&2
    else
      rm -rf "$scratch"
    fi
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ ! -x "$root/usr/bin/apt-get" ]; then
  echo "threadlens: making a $debian root in $root"
  rm -rf "$root"
  # Older debootstraps know no script for testing by name; sid's makes it.
  script=""
  [ "$release" = trixie ] || script=/usr/share/debootstrap/scripts/sid
  debootstrap --variant=minbase "$release" "$root" "$mirror" $script \
    > "$root.debootstrap.log" 2>&1 || { tail -20 "$root.debootstrap.log"; exit 1; }
  # A snapshot of testing may serve a Release file past its Valid-Until
  # date; in this test root only, apt takes it.
  echo 'Acquire::Check-Valid-Until "false";' \
    > "$root/etc/apt/apt.conf.d/99threadlens-test-root"
fi

# The root the command runs in: the cached one, or an overlay on it.
target=$root
mount_bind () {
  mkdir -p "$target$2"
  mount --bind "$1" "$target$2"
  mounted="$target$2 $mounted"
}
mount_bind /proc /proc
mount_bind /dev /dev
mount_bind /sys /sys      # PoCL reads the CPU topology there

cp /etc/resolv.conf "$root/etc/resolv.conf"
if [ "$(cat "$stamp" 2>/dev/null)" != "$packages" ]; then
  echo "threadlens: installing GIMP 3 and the build dependencies in the $debian root"
  chroot "$root" sh -c "apt-get update -q &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $packages" \
    > "$root.apt.log" 2>&1 || { tail -20 "$root.apt.log"; exit 1; }
  echo "$packages" > "$stamp"
fi

if [ "$overlay" = yes ]; then
  # The upper and work folders on the root's own filesystem, beside it.
  scratch=$(mktemp -d "$root.overlay.XXXXXX")
  mkdir "$scratch/upper" "$scratch/work" "$scratch/root"
  mount -t overlay overlay \
    -o "lowerdir=$root,upperdir=$scratch/upper,workdir=$scratch/work" "$scratch/root"
  mounted="$scratch/root $mounted"
  target=$scratch/root
  mount_bind /proc /proc
  mount_bind /dev /dev
  mount_bind /sys /sys
fi
mount_bind "$top" /src
[ -z "$share" ] || mount_bind "$share" /share

# A build folder in the root for each checkout (named by its path), so
# that two trees (a worktree of an earlier commit, say) never share
# objects; COMMAND finds it as $TL_GIMP3_BUILD.
build=/var/tmp/threadlens-gimp3-$(printf '%s' "$top" | cksum | cut -d ' ' -f 1)
command=${1:-meson test -C $build --print-errorlogs --suite gimp3 --suite drivers}
if [ "$prebuild" = no ]; then
  chroot "$target" env TL_ROOT_COMMAND="$command" sh -c 'cd /src && eval "$TL_ROOT_COMMAND"'
  exit
fi
chroot "$target" env TL_ROOT_COMMAND="$command" TL_GIMP3_BUILD="$build" sh -c '
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
