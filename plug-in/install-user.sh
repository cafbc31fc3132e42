#!/bin/sh
# Copies a built GIMP plug-in into the user's GIMP folder, in the
# plug-ins/NAME/NAME layout both GIMP 2.10 and 3 accept.
# Usage: install-user.sh BINARY GIMP-VERSION ENV-VARIABLE
set -eu
binary=$1
version=$2
eval "dir=\${$3:-}"
[ -n "$dir" ] || dir="${XDG_CONFIG_HOME:-$HOME/.config}/GIMP/$version"
name=$(basename "$binary")
mkdir -p "$dir/plug-ins/$name"
cp "$binary" "$dir/plug-ins/$name/$name"
echo "installed $dir/plug-ins/$name/$name"
