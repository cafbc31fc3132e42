#!/bin/sh
# ThreadLens benchmark inside GIMP 2.10 (a benchmark, not a test): in one
# headless GIMP process, on a bundled photo scaled to 3840x2160, times
# plug-in-threadlens-gaussian-blur (std-dev 6) against GIMP's own
# plug-in-gauss (radius 20, the same sigma) and plug-in-threadlens-invert
# against plug-in-vinvert.  Each filter runs RUNS times on a fresh copy;
# the best time is kept.  Usage: sh tests/bench-gimp2.sh [RUNS]
set -eu

runs=${1:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x _build/plug-in/gimp-threadlens ] || sh build-aux/setup.sh >/dev/null
. build-aux/gimp2-profile.sh

photo="$top/tests/images/coffee.png"
gimp-console-2.10 -i -b "
(let* ((base (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\" \"$photo\")))
       (now (lambda () (let ((t (gettimeofday))) (+ (* 1000.0 (car t)) (/ (cadr t) 1000.0)))))
       (best (lambda (name call)
               (let loop ((i 0) (fastest 1e12))
                 (if (< i $runs)
                     (let* ((copy (car (gimp-image-duplicate base)))
                            (layer (car (gimp-image-get-active-drawable copy)))
                            (start (now)))
                       (call copy layer)
                       (let ((ms (- (now) start)))
                         (gimp-image-delete copy)
                         (loop (+ i 1) (min fastest ms))))
                     (gimp-message (string-append \"TL-BENCH \" name \" \"
                                                  (number->string fastest))))))))
  (gimp-image-scale base 3840 2160)
  (best \"threadlens-gaussian-blur\"
        (lambda (img layer) (plug-in-threadlens-gaussian-blur RUN-NONINTERACTIVE img layer
                              6.0 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))
  (best \"gimp-gauss\"
        (lambda (img layer) (plug-in-gauss RUN-NONINTERACTIVE img layer 20 20 0)))
  (best \"threadlens-invert\"
        (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer
                              0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))
  (best \"gimp-vinvert\"
        (lambda (img layer) (plug-in-vinvert RUN-NONINTERACTIVE img layer))))" \
  -b '(gimp-quit 0)' 2>&1 | sed -n 's/^script-fu-Warning: TL-BENCH //p' |
awk '{ ms[$1] = $2; printf "%-26s %10.1f ms (best of '"$runs"')\n", $1, $2 }
     END {
       printf "gaussian-blur: ThreadLens / plug-in-gauss   = %.2f\n", ms["threadlens-gaussian-blur"] / ms["gimp-gauss"]
       printf "invert:        ThreadLens / plug-in-vinvert = %.2f\n", ms["threadlens-invert"] / ms["gimp-vinvert"]
     }'
