#!/bin/sh
# ThreadLens: install what the build needs (Debian 12 or later, Ubuntu
# 22.04 or later), then configure and build into _build.  Safe to rerun.
set -eu

cd "$(dirname "$0")/.."

# librsvg2-common is only recommended by GTK 3, but without its SVG loader
# GTK warns on its theme's icons, and the ui tests make warnings fatal.
# oclgrind is the OpenCL simulator the kernels suite runs every kernel on.
# build-essential and debhelper build the Debian package (package.sh, the
# package suite).
packages="meson ninja-build pkg-config gcc libc6-dev libglib2.0-dev
          libgegl-dev libbabl-dev libjson-glib-dev
          ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-c-headers
          pocl-opencl-icd oclgrind
          gimp libgimp2.0-dev libgtk-3-dev librsvg2-common
          xvfb xauth xdotool x11-apps netpbm
          gettext fonts-noto-cjk
          debootstrap
          build-essential debhelper
          clang"

# GIMP 3's development files where the distribution has them and no
# longer packages GIMP 2.10's (Debian 13, Ubuntu 25.04).
if ! apt-cache show libgimp2.0-dev >/dev/null 2>&1 &&
   apt-cache show libgimp-3.0-dev >/dev/null 2>&1; then
  packages=$(echo "$packages" | sed 's/libgimp2.0-dev/libgimp-3.0-dev/')
fi

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $package"
  fi
done

if [ -n "$missing" ]; then
  echo "threadlens: installing$missing"
  if [ "$(id -u)" -eq 0 ]; then
    sudo=""
  elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
  else
    echo "threadlens: need root or sudo to install:$missing" >&2
    exit 1
  fi
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $missing
fi

# The fuzz suite links clang's libFuzzer, which Debian 12 ships apart from
# clang, in libclang-rt-N-dev (N: clang's major version), only recommended.
clang_major=$(clang -dumpversion 2>/dev/null | cut -d. -f1)
clang_rt="libclang-rt-$clang_major-dev"
if [ -n "$clang_major" ] &&
   ! dpkg-query -W -f='${Status}' "$clang_rt" 2>/dev/null | grep -q "ok installed" &&
   apt-cache show "$clang_rt" >/dev/null 2>&1; then
  echo "threadlens: installing $clang_rt"
  if [ "$(id -u)" -eq 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$clang_rt"
  else
    DEBIAN_FRONTEND=noninteractive sudo apt-get install -y --no-install-recommends "$clang_rt"
  fi
fi

if [ -f _build/build.ninja ]; then
  meson setup --reconfigure _build >/dev/null
else
  meson setup _build
fi
meson compile -C _build
