#!/bin/sh
# Copies a built GIMP plug-in into the user's GIMP folder, in the
# plug-ins/NAME/NAME layout both GIMP 2.10 and 3 accept, with the built
# translations (PO-BUILD-DIR, the build's po folder) in plug-ins/NAME/locale;
# and the GEGL module with its OpenCL safety check into the user's GEGL
# folder (${XDG_DATA_HOME:-~/.local/share}/gegl-0.4/plug-ins), which GIMP's
# GEGL loads at start.
# Usage: install-user.sh BINARY GIMP-VERSION ENV-VARIABLE [PO-BUILD-DIR
#                        [GEGL-MODULE CL-PROBE]]
set -eu
binary=$1
version=$2
eval "dir=\${$3:-}"
po=${4:-}
module=${5:-}
probe=${6:-}
[ -n "$dir" ] || dir="${XDG_CONFIG_HOME:-$HOME/.config}/GIMP/$version"
name=$(basename "$binary")
mkdir -p "$dir/plug-ins/$name"
cp "$binary" "$dir/plug-ins/$name/$name"
echo "installed $dir/plug-ins/$name/$name"
if [ -n "$po" ]; then
  MESON_INSTALL_PREFIX= "$(dirname "$0")/install-locale.sh" "$po" "$dir/plug-ins/$name/locale"
fi
if [ -n "$module" ]; then
  gegl="${XDG_DATA_HOME:-$HOME/.local/share}/gegl-0.4/plug-ins"
  mkdir -p "$gegl"
  cp "$module" "$probe" "$gegl/"
  echo "installed $gegl/$(basename "$module") and $(basename "$probe")"
  # The module's operation titles in the user's language: it looks for
  # its catalogues beside itself (gegl-threadlens.c).
  if [ -n "$po" ]; then
    MESON_INSTALL_PREFIX= "$(dirname "$0")/install-locale.sh" "$po" "$gegl/threadlens-locale"
  fi
fi
