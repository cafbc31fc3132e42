# ThreadLens: a throwaway GIMP 3 profile with the built plug-in and GEGL
# module installed in it, for the benchmarks that run inside a GIMP 3
# root (build-aux/gimp3-root.sh).  Source it with TL_GIMP3_BUILD set; it
# sets TL_PROFILE and the environment GIMP reads, removes the profile on
# exit, and sets TL_BENCH_SCHEME: script-fu that times calls.

TL_PROFILE=$(mktemp -d "${TMPDIR:-/tmp}/threadlens-gimp3-XXXXXX")
trap 'rm -rf "$TL_PROFILE"' EXIT INT TERM

export HOME="$TL_PROFILE/home"
export XDG_CONFIG_HOME="$HOME/.config" XDG_CACHE_HOME="$HOME/.cache"
export XDG_DATA_HOME="$HOME/.local/share" GIMP3_DIRECTORY="$TL_PROFILE/gimp-3"
mkdir -p "$XDG_CACHE_HOME"
meson compile -C "${TL_GIMP3_BUILD:?run through build-aux/gimp3-root.sh}" \
  install-user-gimp3 >/dev/null

# One start of GIMP, as a user's first: its new platform check starts
# the programs' building ahead, which this then waits for.
tl_profile_first_start ()
{
  gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval -b "(begin
    (define img (car (gimp-file-load RUN-NONINTERACTIVE \"/src/tests/images/coffee.png\")))
    (plug-in-threadlens-threshold #:run-mode RUN-NONINTERACTIVE #:image img
      #:drawables (car (gimp-image-get-selected-drawables img))))" --quit >/dev/null 2>&1
  waited=0
  until ls "$XDG_CACHE_HOME"/threadlens/opencl-probe/*.programs >/dev/null 2>&1; do
    [ $waited -lt 900 ] || { echo "the programs were not built ahead in 900 s" >&2; exit 1; }
    sleep 1; waited=$((waited + 1))
  done
  echo "programs built ahead after one start: $(cat "$XDG_CACHE_HOME"/threadlens/opencl-probe/*.programs)"
}

# (now) in ms; (median VALUES); (timed-on BASE CALL): CALL's time in ms
# on a fresh copy of the image BASE, given the copy and its layer.
TL_BENCH_SCHEME="
(define (now) (let ((t (gettimeofday))) (+ (* 1000.0 (car t)) (/ (cadr t) 1000.0))))
(define (insert x sorted)
  (if (or (null? sorted) (<= x (car sorted)))
      (cons x sorted)
      (cons (car sorted) (insert x (cdr sorted)))))
(define (sorted-numbers values)
  (if (null? values) '() (insert (car values) (sorted-numbers (cdr values)))))
(define (median values)
  (let ((sorted (sorted-numbers values))
        (n (length values)))
    (if (odd? n)
        (list-ref sorted (quotient n 2))
        (/ (+ (list-ref sorted (- (quotient n 2) 1)) (list-ref sorted (quotient n 2))) 2))))
(define (timed-on base call)
  (let* ((copy (car (gimp-image-duplicate base)))
         (layer (vector-ref (car (gimp-image-get-selected-drawables copy)) 0))
         (start (now)))
    (call copy layer)
    (let ((ms (- (now) start)))
      (gimp-image-delete copy)
      ms)))
"
