#!/bin/sh
# ThreadLens benchmark inside GIMP 3 (a benchmark, not a test), the twin
# of bench-gimp2.sh, run in the Debian 13 root (build-aux/gimp3-root.sh;
# THREADLENS_ROOT_RELEASE=forky runs it in GIMP 3.2's root).
# In one headless GIMP process, on a bundled photo scaled to 3840x2160 (an
# 8-bit RGB layer), each call runs RUNS times on a fresh copy and the
# median time is kept; a ThreadLens operation and GIMP's own twin run in
# turns, each first in every other round, and their ratio is the median
# of the rounds' own ratios, which this machine's drift between runs
# (up to 40% on two cores) mostly cancels out of:
#   threadlens:gaussian-blur (std-dev 6), threadlens:box-blur (radius
#   50), threadlens:unsharp-mask (std-dev 20) and threadlens:invert
#   applied in-core with gimp-drawable-merge-new-filter, against GIMP's
#   own gegl:gaussian-blur, gegl:box-blur, gegl:unsharp-mask (the same
#   settings) and gegl:invert-gamma applied the same way; every other
#   filter with a GEGL twin at its defaults (box-blur at radius 4,
#   brightness-contrast at contrast 1.5 and brightness 0.1), against
#   that twin; and the
#   procedures plug-in-threadlens-* (which run in-core when
#   the module is loaded), the thread map among them; then a few of the
#   pairs again on the photo in 16-bit precision (the "-u16" lines);
# then, in a second GIMP without the module, the procedures again: the
# plug-in path, where every pixel crosses the plug-in protocol.
# A fresh profile: no tuning data, as a new user has.
# Each tree builds in a folder of its own in the root (gimp3-root.sh), so
# two trees (a worktree of an earlier commit, say) compare as they are.
# Usage: sh tests/bench-gimp3.sh [RUNS [u16]]; "u16" runs the 16-bit
# pairs alone.
set -eu

if [ "${1:-}" != "--inside" ]; then
  top=$(cd "$(dirname "$0")/.." && pwd)
  exec sh "$top/build-aux/gimp3-root.sh" --release "${THREADLENS_ROOT_RELEASE:-trixie}" \
    "sh tests/bench-gimp3.sh --inside ${1:-5} ${2:-all}"
fi
runs=${2:-5}
only=${3:-all}

. build-aux/gimp3-profile.sh
# No building ahead beside the timings (bench-gimp3-apply.sh waits for it).
export THREADLENS_PREBUILD=0

photo=/src/tests/images/coffee.png
prelude="
$TL_BENCH_SCHEME
(define base (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\")))
(gimp-image-scale base 3840 2160)
; CALL's time on a fresh copy of the photo, in ms.
(define (timed call) (timed-on base call))
(define (best name call)
  (let loop ((i 0) (times '()))
    (if (< i $runs)
        (loop (+ i 1) (cons (timed call) times))
        (gimp-message (string-append \"TL-BENCH \" name \" \" (number->string (median times)))))))
; OURS and THEIRS in turns under NAME: both medians and the rounds' ratio.
(define (pair name ours theirs)
  (let loop ((i 0) (a '()) (b '()) (ratios '()))
    (if (< i $runs)
        (let* ((ours-first (even? i))
               (ta (if ours-first (timed ours) 0))
               (tb (timed theirs))
               (ta (if ours-first ta (timed ours))))
          (loop (+ i 1) (cons ta a) (cons tb b) (cons (/ ta tb) ratios)))
        (gimp-message (string-append \"TL-PAIR \" name \" \" (number->string (median a))
                                     \" \" (number->string (median b))
                                     \" \" (number->string (median ratios)))))))
; OPERATION in-core with PROPERTIES (a list of names and values).
(define (merge operation properties)
  (lambda (img layer)
    (apply gimp-drawable-merge-new-filter
           (append (list layer operation 0 LAYER-MODE-REPLACE 1.0) properties))))
; threadlens:FILTER and GIMP's own gegl:FILTER, under NAME.
(define (twins name filter ours theirs)
  (pair name (merge (string-append \"threadlens:\" filter) ours)
             (merge (string-append \"gegl:\" filter) theirs)))
"

gimp () {
  gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval \
    -b "(begin $prelude $1)" --quit 2>&1 | sed -n 's/.*\(TL-BENCH\|TL-PAIR\) /\1 /p'
}

eight_bit="
(pair \"gaussian-blur\"
  (merge \"threadlens:gaussian-blur\" (list \"std-dev\" 6.0))
  (merge \"gegl:gaussian-blur\" (list \"std-dev-x\" 6.0 \"std-dev-y\" 6.0)))
(best \"procedure-gaussian-blur\" (lambda (img layer)
  (plug-in-threadlens-gaussian-blur #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:std-dev 6.0)))
(twins \"box-blur\" \"box-blur\" (list \"radius\" 50.0) (list \"radius\" 50))
(twins \"unsharp-mask\" \"unsharp-mask\" (list \"std-dev\" 20.0 \"scale\" 0.5)
       (list \"std-dev\" 20.0 \"scale\" 0.5))
(pair \"invert\" (merge \"threadlens:invert\" '()) (merge \"gegl:invert-gamma\" '()))
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
sixteen_bit="
(gimp-image-convert-precision base PRECISION-U16-NON-LINEAR)
(pair \"gaussian-blur-u16\"
  (merge \"threadlens:gaussian-blur\" (list \"std-dev\" 6.0))
  (merge \"gegl:gaussian-blur\" (list \"std-dev-x\" 6.0 \"std-dev-y\" 6.0)))
(pair \"invert-u16\" (merge \"threadlens:invert\" '()) (merge \"gegl:invert-gamma\" '()))
(twins \"edge-sobel-u16\" \"edge-sobel\" '() '())
(twins \"brightness-contrast-u16\" \"brightness-contrast\"
       (list \"contrast\" 1.5 \"brightness\" 0.1) (list \"contrast\" 1.5 \"brightness\" 0.1))
(twins \"threshold-u16\" \"threshold\" '() '())
(twins \"mono-mixer-u16\" \"mono-mixer\" '() '())
(twins \"posterize-u16\" \"posterize\" '() '())"

{
if [ "$only" = u16 ]; then
  gimp "$sixteen_bit"
  exit 0
fi
gimp "$eight_bit $sixteen_bit"

rm -f "$XDG_DATA_HOME/gegl-0.4/plug-ins/threadlens.so"
gimp "
(best \"plug-in-path-gaussian-blur\" (lambda (img layer)
  (plug-in-threadlens-gaussian-blur #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:std-dev 6.0)))
(best \"plug-in-path-invert\" (lambda (img layer)
  (plug-in-threadlens-invert #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer))))
(best \"plug-in-path-thread-map\" (lambda (img layer)
  (plug-in-threadlens-thread-map #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer) #:overlay \"work-group\")))"
} | awk '
  $1 == "TL-BENCH" { ms[$2] = $3
                     printf "%-28s %10.1f ms (median of '"$runs"')\n", $2, $3 }
  $1 == "TL-PAIR"  { ms["gimp-" $2] = $4
                     printf "%-28s in-core %8.1f ms, GIMP %8.1f ms (medians of '"$runs"'), in-core / GIMP %.2f (median of the rounds)\n", $2, $3, $4, $5 }
  END {
    if (!("gimp-invert" in ms))
      exit
    for (f = 1; f <= 2; f++) {
      name = f == 1 ? "gaussian-blur" : "invert"
      printf "%-13s procedure / GIMP = %.2f, plug-in path / GIMP = %.2f (medians)\n",
             name, ms["procedure-" name] / ms["gimp-" name],
             ms["plug-in-path-" name] / ms["gimp-" name]
    }
    printf "thread-map    procedure / plug-in path = %.2f\n",
           ms["procedure-thread-map"] / ms["plug-in-path-thread-map"]
  }'
