#!/bin/sh
# ThreadLens benchmark inside GIMP 3 (a benchmark, not a test), the twin
# of bench-gimp2.sh, run in the Debian 13 root (build-aux/gimp3-root.sh).
# In one headless GIMP process, on a bundled photo scaled to 3840x2160 (an
# 8-bit RGB layer), each call runs RUNS times on a fresh copy and the best
# time is kept:
#   threadlens:gaussian-blur (std-dev 6), threadlens:box-blur (radius
#   50), threadlens:unsharp-mask (std-dev 20) and threadlens:invert
#   applied in-core with gimp-drawable-merge-new-filter, against GIMP's
#   own gegl:gaussian-blur, gegl:box-blur, gegl:unsharp-mask (the same
#   settings) and gegl:invert-gamma applied the same way; every other
#   filter with a GEGL twin at its defaults (box-blur at radius 4,
#   brightness-contrast at contrast 1.5 and brightness 0.1), against
#   that twin; and the
#   procedures plug-in-threadlens-* (which run in-core when
#   the module is loaded), the thread map among them;
# then, in a second GIMP without the module, the procedures again: the
# plug-in path, where every pixel crosses the plug-in protocol.
# A fresh profile: no tuning data, as a new user has.
# Every tree builds in the root's one folder (/var/tmp/threadlens-gimp3,
# the tree mounted as /src), so to compare two trees (a worktree of an
# earlier commit, say) touch each tree's sources before its run: ninja
# otherwise keeps the objects of whichever tree's sources are newer.
# Usage: sh tests/bench-gimp3.sh [RUNS]
set -eu

if [ "${1:-}" != "--inside" ]; then
  top=$(cd "$(dirname "$0")/.." && pwd)
  exec sh "$top/build-aux/gimp3-root.sh" "sh tests/bench-gimp3.sh --inside ${1:-5}"
fi
runs=${2:-5}
build=/var/tmp/threadlens-gimp3

profile=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-gimp3-XXXXXX")
trap 'rm -rf "$profile"' EXIT INT TERM
export HOME="$profile/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
export XDG_DATA_HOME="$HOME/.local/share" GIMP3_DIRECTORY="$profile/gimp-3.0"
mkdir -p "$XDG_CACHE_HOME"
meson compile -C "$build" install-user-gimp3 >/dev/null

photo=/src/tests/images/coffee.png
prelude="
(define (now) (let ((t (gettimeofday))) (+ (* 1000.0 (car t)) (/ (cadr t) 1000.0))))
(define base (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
(gimp-image-scale base 3840 2160)
(define (best name call)
  (let loop ((i 0) (fastest 1e12))
    (if (< i $runs)
        (let* ((copy (car (gimp-image-duplicate base)))
               (layer (vector-ref (car (gimp-image-get-selected-drawables copy)) 0))
               (start (now)))
          (call copy layer)
          (let ((ms (- (now) start)))
            (gimp-image-delete copy)
            (loop (+ i 1) (min fastest ms))))
        (gimp-message (string-append \"TL-BENCH \" name \" \" (number->string fastest))))))
; OPERATION in-core with PROPERTIES (a list of names and values).
(define (merge operation properties)
  (lambda (img layer)
    (apply gimp-drawable-merge-new-filter
           (append (list layer operation 0 LAYER-MODE-REPLACE 1.0) properties))))
; threadlens:FILTER and GIMP's own gegl:FILTER, under NAME.
(define (twins name filter ours theirs)
  (best (string-append \"in-core-\" name) (merge (string-append \"threadlens:\" filter) ours))
  (best (string-append \"gimp-\" name) (merge (string-append \"gegl:\" filter) theirs)))
"

gimp () {
  gimp-console-3.0 -i --batch-interpreter=plug-in-script-fu-eval \
    -b "(begin $prelude $1)" --quit 2>&1 | sed -n 's/.*TL-BENCH //p'
}

{
gimp "
(best \"in-core-gaussian-blur\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"threadlens:gaussian-blur\" 0 LAYER-MODE-REPLACE 1.0 \"std-dev\" 6.0)))
(best \"gimp-gaussian-blur\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"gegl:gaussian-blur\" 0 LAYER-MODE-REPLACE 1.0 \"std-dev-x\" 6.0 \"std-dev-y\" 6.0)))
(best \"procedure-gaussian-blur\" (lambda (img layer)
  (plug-in-threadlens-gaussian-blur #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:std-dev 6.0)))
(best \"in-core-box-blur\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"threadlens:box-blur\" 0 LAYER-MODE-REPLACE 1.0 \"radius\" 50.0)))
(best \"gimp-box-blur\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"gegl:box-blur\" 0 LAYER-MODE-REPLACE 1.0 \"radius\" 50)))
(best \"in-core-unsharp-mask\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"threadlens:unsharp-mask\" 0 LAYER-MODE-REPLACE 1.0 \"std-dev\" 20.0 \"scale\" 0.5)))
(best \"gimp-unsharp-mask\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"gegl:unsharp-mask\" 0 LAYER-MODE-REPLACE 1.0 \"std-dev\" 20.0 \"scale\" 0.5)))
(best \"in-core-invert\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"threadlens:invert\" 0 LAYER-MODE-REPLACE 1.0)))
(best \"gimp-invert\" (lambda (img layer)
  (gimp-drawable-merge-new-filter layer \"gegl:invert-gamma\" 0 LAYER-MODE-REPLACE 1.0)))
(best \"procedure-invert\" (lambda (img layer)
  (plug-in-threadlens-invert #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer))))
(twins \"box-blur-4\" \"box-blur\" (list \"radius\" 4.0) (list \"radius\" 4))
(twins \"unsharp-mask-3\" \"unsharp-mask\" '() '())
(twins \"edge-sobel\" \"edge-sobel\" '() '())
(twins \"pixelize\" \"pixelize\" '() '())
(twins \"brightness-contrast\" \"brightness-contrast\"
       (list \"contrast\" 1.5 \"brightness\" 0.1) (list \"contrast\" 1.5 \"brightness\" 0.1))
(twins \"threshold\" \"threshold\" '() '())
(twins \"mono-mixer\" \"mono-mixer\" '() '())
(twins \"sepia\" \"sepia\" '() '())
(twins \"posterize\" \"posterize\" '() '())
(best \"procedure-thread-map\" (lambda (img layer)
  (plug-in-threadlens-thread-map #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:overlay \"work-group\")))"

rm -f "$XDG_DATA_HOME/gegl-0.4/plug-ins/threadlens.so"
gimp "
(best \"plug-in-path-gaussian-blur\" (lambda (img layer)
  (plug-in-threadlens-gaussian-blur #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:std-dev 6.0)))
(best \"plug-in-path-invert\" (lambda (img layer)
  (plug-in-threadlens-invert #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer))))
(best \"plug-in-path-thread-map\" (lambda (img layer)
  (plug-in-threadlens-thread-map #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:overlay \"work-group\")))"
} | awk '{ ms[$1] = $2; printf "%-28s %10.1f ms (best of '"$runs"')\n", $1, $2 }
  END {
    for (f = 1; f <= 2; f++) {
      name = f == 1 ? "gaussian-blur" : "invert"
      printf "%-13s in-core / GIMP = %.2f, procedure / GIMP = %.2f, plug-in path / GIMP = %.2f\n",
             name, ms["in-core-" name] / ms["gimp-" name],
             ms["procedure-" name] / ms["gimp-" name],
             ms["plug-in-path-" name] / ms["gimp-" name]
    }
    printf "box-blur      in-core / GIMP = %.2f (radius 50)\n",
           ms["in-core-box-blur"] / ms["gimp-box-blur"]
    printf "unsharp-mask  in-core / GIMP = %.2f (std-dev 20)\n",
           ms["in-core-unsharp-mask"] / ms["gimp-unsharp-mask"]
    n = split ("box-blur-4 unsharp-mask-3 edge-sobel pixelize brightness-contrast threshold mono-mixer sepia posterize", rest, " ")
    for (i = 1; i <= n; i++)
      printf "%-19s in-core / GIMP = %.2f (defaults)\n", rest[i],
             ms["in-core-" rest[i]] / ms["gimp-" rest[i]]
    printf "thread-map    procedure / plug-in path = %.2f\n",
           ms["procedure-thread-map"] / ms["plug-in-path-thread-map"]
  }'
