#!/bin/sh
# Copies the built catalogues, PO-BUILD-DIR/<lang>/LC_MESSAGES/*.mo, into
# LOCALE-DIR/<lang>/LC_MESSAGES/: the locale/ folder of a GIMP plug-in.
# As a meson install script it honours DESTDIR and --dry-run.
# Usage: install-locale.sh PO-BUILD-DIR LOCALE-DIR
set -eu
po=$1
dest=$2
if [ -n "${MESON_INSTALL_PREFIX:-}" ]; then
  dest="${DESTDIR:-}$dest"
fi
for mo in "$po"/*/LC_MESSAGES/*.mo; do
  [ -f "$mo" ] || continue
  lang=$(basename "$(dirname "$(dirname "$mo")")")
  target="$dest/$lang/LC_MESSAGES"
  if [ -n "${MESON_INSTALL_DRY_RUN:-}" ]; then
    echo "would install $mo to $target"
    continue
  fi
  mkdir -p "$target"
  cp "$mo" "$target/"
  [ -n "${MESON_INSTALL_QUIET:-}" ] || echo "Installing $mo to $target"
done
