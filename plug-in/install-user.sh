#!/bin/sh
# Copies a built GIMP plug-in into the user's GIMP profile, in the
# plug-ins/NAME/NAME layout both GIMP 2.10 and 3 accept, with the built
# translations (PO-BUILD-DIR, the build's po folder) in plug-ins/NAME/locale;
# and the GEGL module with its OpenCL safety check into the user's GEGL
# folder (${XDG_DATA_HOME:-~/.local/share}/gegl-0.4/plug-ins), which GIMP's
# GEGL loads at start.
#
# GIMP keeps a profile per minor release (~/.config/GIMP/3.0, 3.2, ...)
# and copies an older one only when it starts with none.  So the plug-in
# goes into the profile of GIMP-VERSION (the GIMP it was built against,
# MAJOR.MINOR) and, for GIMP 3, into every other 3.N profile already
# there: GIMP 3.0 and 3.2 side by side each find it, and so does a GIMP
# that has run before the install.  ENV-VARIABLE (GIMP3_DIRECTORY), when
# set, names the one profile instead.
#
# Usage: install-user.sh BINARY GIMP-VERSION ENV-VARIABLE [PO-BUILD-DIR
#                        [GEGL-MODULE CL-PROBE]]
set -eu
binary=$1
version=$2
eval "chosen=\${$3:-}"
po=${4:-}
module=${5:-}
probe=${6:-}
name=$(basename "$binary")

if [ -n "$chosen" ]; then
  profiles=$chosen
else
  gimp_dir="${XDG_CONFIG_HOME:-$HOME/.config}/GIMP"
  profiles="$gimp_dir/$version"
  # GIMP 3's minor releases share one plug-in interface; 2.10's does not
  # reach back to 2.8.
  case $version in
    2.*) ;;
    *)
      for profile in "$gimp_dir/${version%%.*}".*; do
        [ -d "$profile" ] && [ "$profile" != "$gimp_dir/$version" ] &&
          profiles="$profiles
$profile"
      done
      ;;
  esac
fi

# One profile a line: a home folder's name may hold spaces.
echo "$profiles" | while IFS= read -r dir; do
  mkdir -p "$dir/plug-ins/$name"
  cp "$binary" "$dir/plug-ins/$name/$name"
  echo "installed $dir/plug-ins/$name/$name"
  if [ -n "$po" ]; then
    MESON_INSTALL_PREFIX= "$(dirname "$0")/install-locale.sh" "$po" "$dir/plug-ins/$name/locale"
  fi
done
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
