#!/bin/sh
# ThreadLens demo: build, install the plug-in into a throwaway GIMP 2.10
# profile, and blur a bundled photo in headless GIMP through script-fu
# with a non-default dispatch (16x16 work-groups, emulated non-uniform
# launches, swizzle 4).  Writes coffee-gimp.png in the current folder.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out="$PWD/coffee-gimp.png"
photo="$top/tests/images/coffee.png"

sh "$top/build-aux/setup.sh"
cd "$top"
. build-aux/gimp2-profile.sh

echo "The dispatch GIMP will use:"
_build/cli/threadlens plan --size 600x400 --device "${THREADLENS_DEVICE:-}" \
  --filter gaussian-blur --shape 16x16 --mode emulated --swizzle 4 2>/dev/null ||
  _build/cli/threadlens plan --size 600x400 --simd-width 32 --max-threads 256 \
    --shape 16x16 --mode emulated --swizzle 4

rm -f "$out"
gimp-console-2.10 -i -b "
(let* ((image (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\" \"$photo\")))
       (layer (car (gimp-image-get-active-drawable image))))
  (plug-in-threadlens-gaussian-blur RUN-NONINTERACTIVE image layer
    6.0 16 16 \"emulated\" 4 0 \"none\" 0.5 \"\")
  (gimp-file-save RUN-NONINTERACTIVE image layer \"$out\" \"$out\")
  (gimp-image-delete image))" -b '(gimp-quit 0)'

if [ -s "$out" ]; then
  echo "threadlens: GIMP wrote $out"
else
  echo "threadlens: GIMP did not write $out (see the messages above)" >&2
  exit 1
fi
