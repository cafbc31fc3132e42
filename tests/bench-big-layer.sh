#!/bin/sh
# ThreadLens inside GIMP 2.10 on one big float layer (a measurement, not a
# test): a SIZE x SIZE RGBA float layer (16384: 4 GiB, twice what PoCL
# allows in one buffer) holding a gradient is blurred by
# plug-in-threadlens-gaussian-blur (std-dev 4: the convolution, which runs
# in tiles; from std-dev 5 up the recursive filter needs the whole layer in
# one buffer).  Prints the plug-in's
# tiles and pixel memory (its own log), its peak resident memory
# (/usr/bin/time) and the call's wall time.
# Usage: sh tests/bench-big-layer.sh [SIZE]
set -eu

size=${1:-16384}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x _build/plug-in/gimp-threadlens ] || sh build-aux/setup.sh >/dev/null
. build-aux/gimp2-profile.sh

# The installed plug-in runs under /usr/bin/time, which GIMP cannot tell
# from the plug-in itself.
plugin="$GIMP2_DIRECTORY/plug-ins/gimp-threadlens/gimp-threadlens"
mv "$plugin" "$TL_PROFILE/gimp-threadlens"
printf '#!/bin/sh\nexec /usr/bin/time -f "TL-PEAK-RSS %%M kB" -a -o "%s" "%s" "$@"\n' \
  "$TL_PROFILE/rss" "$TL_PROFILE/gimp-threadlens" > "$plugin"
chmod +x "$plugin"

G_MESSAGES_DEBUG=ThreadLens gimp-console-2.10 -i -b "
(let* ((img (car (gimp-image-new-with-precision $size $size RGB PRECISION-FLOAT-LINEAR)))
       (layer (car (gimp-layer-new img $size $size RGBA-IMAGE \"big\" 100 LAYER-MODE-NORMAL)))
       (now (lambda () (let ((t (gettimeofday))) (+ (* 1000.0 (car t)) (/ (cadr t) 1000.0)))))
       (start 0))
  (gimp-image-insert-layer img layer 0 -1)
  (gimp-context-set-default-colors)
  (gimp-drawable-edit-gradient-fill layer GRADIENT-RADIAL 0 FALSE 1 0 TRUE
                                    0 0 $size $size)
  (set! start (now))
  (plug-in-threadlens-gaussian-blur RUN-NONINTERACTIVE img layer
                                    4.0 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")
  (gimp-message (string-append \"TL-BIG \" (number->string (- (now) start)) \" ms\"))
  (gimp-image-delete img))" -b '(gimp-quit 0)' 2>&1 |
  grep -E 'TL-BIG|tiles of up to|Error' | sed 's/^script-fu-Warning: //'
cat "$TL_PROFILE/rss"
