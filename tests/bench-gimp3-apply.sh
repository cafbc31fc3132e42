#!/bin/sh
# ThreadLens benchmark inside GIMP 3 (a benchmark, not a test): a
# filter's in-core apply in GIMP against `threadlens apply` on the same
# layer and device, run in a GIMP 3 root (build-aux/gimp3-root.sh; the
# Debian testing root, GIMP 3.2, unless THREADLENS_ROOT_RELEASE says
# otherwise).
# GIMP asks for an in-core filter's pixels in chunks (its chunk iterator
# sizes them to 1/15 s of work), and each chunk of a neighbourhood filter
# needs its halo; `threadlens apply` runs the layer in one call.  Timed:
#   - in one headless GIMP, each procedure plug-in-threadlens-FILTER
#     (in-core: the module is installed) on a fresh copy of the layer,
#     RUNS times, the median kept; the layer is saved first as a PNG;
#   - `threadlens apply FILTER LAYER.png OUT.png` on that PNG with the
#     same settings, RUNS times, the median of its wall time (the process's
#     start, the PNG's load and save included, as a user meets them).
# Every filter at its defaults on the photo scaled to 1920x1080, and the
# large settings of the issue on the photo as it is (600x400):
# mean-curvature-blur 500 iterations, median-blur radius 100, box-blur
# radius 200, bilateral-filter radius 20.  A fresh profile and cache: the
# programs are built ahead as on a user's machine after one start.
# Usage: sh tests/bench-gimp3-apply.sh [RUNS [PATTERN]]; PATTERN (a grep
# pattern) picks cases by their line below.
set -eu

if [ "${1:-}" != "--inside" ]; then
  top=$(cd "$(dirname "$0")/.." && pwd)
  exec sh "$top/build-aux/gimp3-root.sh" --release "${THREADLENS_ROOT_RELEASE:-forky}" \
    "sh tests/bench-gimp3-apply.sh --inside ${1:-3} '${2:-.}'"
fi
runs=${2:-3}
pattern=${3:-.}
build=${TL_GIMP3_BUILD:?run through build-aux/gimp3-root.sh}

. build-aux/gimp3-profile.sh
unset THREADLENS_PREBUILD

# name, size, the procedure's arguments, the command line's.
cases="
invert 1920x1080 - -
color-matrix 1920x1080 - -
gaussian-blur 1920x1080 - -
brightness-contrast 1920x1080 - -
threshold 1920x1080 - -
mono-mixer 1920x1080 - -
sepia 1920x1080 - -
box-blur 1920x1080 - -
edge-sobel 1920x1080 - -
pixelize 1920x1080 - -
unsharp-mask 1920x1080 - -
posterize 1920x1080 - -
bilateral-filter 1920x1080 - -
snn-mean 1920x1080 - -
mean-curvature-blur 1920x1080 - -
motion-blur-linear 1920x1080 - -
difference-of-gaussians 1920x1080 - -
high-pass 1920x1080 - -
noise-reduction 1920x1080 - -
median-blur 1920x1080 - -
mean-curvature-blur 600x400 #:iterations:500 iterations=500
median-blur 600x400 #:radius:100 radius=100
box-blur 600x400 #:radius:200 radius=200
bilateral-filter 600x400 #:blur-radius:20 blur-radius=20
"
cases=$(echo "$cases" | grep -e "$pattern")

photo=/src/tests/images/coffee.png
script="
$TL_BENCH_SCHEME
(define (layer-of w h)
  (let ((img (car (gimp-file-load RUN-NONINTERACTIVE \"$photo\"))))
    (gimp-image-scale img w h)
    img))
(define (bench name base call)
  (let loop ((i 0) (times '()))
    (if (< i $runs)
        (loop (+ i 1) (cons (timed-on base call) times))
        (gimp-message (string-append \"TL-BENCH \" name \" \" (number->string (median times)))))))
"
sizes=$(echo "$cases" | awk 'NF { print $2 }' | sort -u)
for size in $sizes; do
  w=${size%x*}; h=${size#*x}
  script="$script
(define img-$size (layer-of $w $h))
(gimp-file-save RUN-NONINTERACTIVE img-$size \"$TL_PROFILE/layer-$size.png\" -1)"
done
script="$script
$(echo "$cases" | awk 'NF {
  args = ""
  if ($3 != "-") { split ($3, kv, ":"); args = " #:" kv[2] " " kv[3] }
  printf "(bench \"%s@%s\" img-%s (lambda (img layer) (plug-in-threadlens-%s #:run-mode RUN-NONINTERACTIVE #:image img #:drawables (vector layer)%s)))\n",
         $1, $2 ($3 != "-" ? ":" $4 : ""), $2, $1, args }')"

tl_profile_first_start

gimp-console-3 -i --batch-interpreter=plug-in-script-fu-eval \
  -b "(begin $script)" --quit > "$TL_PROFILE/gimp.log" 2>&1
sed -n 's/.*TL-BENCH /TL-BENCH /p' "$TL_PROFILE/gimp.log" > "$TL_PROFILE/in-core.txt"
# Runs estimated long leave GIMP's process (tl-host-apply.c): which did.
grep -h 'filtering through the plug-in' "$TL_PROFILE/gimp.log" | sort | uniq -c || true

threadlens=$build/cli/threadlens
echo "$cases" | while read -r name size procedure cli; do
  [ -n "$name" ] || continue
  key="$name@$size"; set --
  if [ "$cli" != "-" ]; then key="$key:$cli"; set -- --set "$cli"; fi
  times=""
  i=0
  while [ $i -lt "$runs" ]; do
    start=$(date +%s%N)
    "$threadlens" apply "$name" "$TL_PROFILE/layer-$size.png" "$TL_PROFILE/out.png" "$@" >/dev/null
    times="$times $(( ($(date +%s%N) - start) / 1000 ))"
    i=$((i + 1))
  done
  median=$(echo $times | tr ' ' '\n' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] / 1000 }')
  ours=$(awk -v k="$key" '$2 == k { print $3 }' "$TL_PROFILE/in-core.txt")
  printf "%-40s in GIMP %9.1f ms  threadlens apply %9.1f ms  ratio %5.2f\n" \
         "$key" "${ours:-0}" "$median" "$(echo "${ours:-0} $median" | awk '{ print $1 / $2 }')"
done
echo "GIMP $(gimp-console-3 --version | sed 's/.* //'); runs $runs, medians"
