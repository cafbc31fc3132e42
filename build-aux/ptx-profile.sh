#!/bin/sh
# ThreadLens: Nsight Compute's counters for one kernel of a filter on an
# NVIDIA GPU.  ncu does not profile OpenCL, so this runs the bench once to
# leave the kernel's PTX in a program cache and the bench's input on disk
# (--save-input), then launches that PTX through CUDA (build-aux/ptx-profile.c)
# under `ncu --set full`.  A developer's tool, not a test; needs CUDA
# (/usr/local/cuda), a C compiler, python3 and, for the counters, ncu.
#
#   sh build-aux/ptx-profile.sh DIR FILTER PHOTO WxH STORAGE KERNEL \
#       GROUPS-X GROUPS-Y LOCAL-X LOCAL-Y LOCAL-BYTES ARG...
#
# The launch and the ARGs are ptx-profile.c's.  For example color-matrix
# in 8-bit storage at 4096x4096 (32x4 groups of items of 4 pixels):
#
#   sh build-aux/ptx-profile.sh /tmp/p color-matrix PHOTO 4096x4096 u8 \
#       tl_color_matrix 32 1024 32 4 0 in out dispatch:4,32,4 codec \
#       vector:1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1 vector:0,0,0,0
#
# A pass over the scratch image takes `scratch` for its buffers, which
# are working floats (halves, for 8-bit storage's recursive passes), not
# the storage that `in` and `out` hold: the recursive Gaussian's row pass
# of channel items in 8-bit storage at 4096x4096 (16,384 items in groups
# of 32; the coefficients' values do not change the work):
#
#   SET=std-dev=8 sh build-aux/ptx-profile.sh /tmp/p gaussian-blur PHOTO \
#       4096x4096 u8 tl_recursive_channels 512 1 32 1 0 scratch scratch \
#       dispatch:1,32,1,16384,1 codec doubles:0.0069,2.53,-2.15,0.62,0,0,0,0,0,0,0,0,0 \
#       int:4096 int:4096 int:1
#
# (the column pass: int:4096 int:1 int:4096).  Scratch buffers start as
# zeros, which the L2 compresses, so DRAM's figures there are low.
#
# Writes DIR/KERNEL-details.txt (ncu --print-details all) and
# DIR/KERNEL-sass.csv (per-instruction counters and stall samples).
# THREADLENS names the binary (default _build/cli/threadlens); SET, filter
# settings for the bench ("std-dev=8", several separated by spaces).
set -eu

dir=${1:?usage: ptx-profile.sh DIR FILTER PHOTO WxH STORAGE KERNEL GROUPS-X GROUPS-Y LOCAL-X LOCAL-Y LOCAL-BYTES ARG...}
filter=$2 photo=$3 size=$4 storage=$5 kernel=$6
shift 6
bin=${THREADLENS:-_build/cli/threadlens}
here=$(cd "$(dirname "$0")" && pwd)

case $storage in
  u8) bytes=4 ;;
  u16|half) bytes=8 ;;
  float) bytes=16 ;;
  *) echo "ptx-profile.sh: unknown storage '$storage'" >&2; exit 2 ;;
esac

mkdir -p "$dir"
settings=
for setting in ${SET:-}; do
  settings="$settings --set=$setting"
done
# shellcheck disable=SC2086
THREADLENS_CACHE_DIR=$dir/cache "$bin" bench "$filter" "$photo" $settings \
  --size "$size" --storage "$storage" --runs 3 --save-input "$dir/input" \
  > "$dir/bench.txt"

# The program cache's files: 8-byte magic, payload size (little endian),
# 64 hex digits of SHA-256, payload (here NVIDIA's PTX, NUL-terminated).
python3 - "$dir/cache/programs" "$kernel" "$dir/$kernel.ptx" <<'PY'
import os, struct, sys
folder, kernel, target = sys.argv[1:]
for name in sorted(os.listdir(folder)):
    data = open(os.path.join(folder, name), 'rb').read()
    size = struct.unpack('<Q', data[8:16])[0]
    ptx = data[80:80 + size].split(b'\0')[0]
    if b'.entry ' + kernel.encode() + b'(' in ptx:
        open(target, 'wb').write(ptx)
        sys.exit(0)
sys.exit('ptx-profile.sh: no cached program holds ' + kernel)
PY

[ -x "$dir/ptx-profile" ] ||
  cc -O2 -o "$dir/ptx-profile" "$here/ptx-profile.c" \
     -I/usr/local/cuda/include -lcuda

set -- "$dir/$kernel.ptx" "$kernel" "${size%x*}" "${size#*x}" "$bytes" \
       "$dir/input-pixels.raw" "$dir/input-codec.raw" "$@"
"$dir/ptx-profile" "$@"
if command -v ncu > /dev/null; then
  RUNS=1 ncu --set full -f -o "$dir/$kernel" "$dir/ptx-profile" "$@" > /dev/null
  ncu --import "$dir/$kernel.ncu-rep" --print-details all \
    > "$dir/$kernel-details.txt"
  ncu --import "$dir/$kernel.ncu-rep" --page source --print-source sass \
    --csv > "$dir/$kernel-sass.csv"
  grep -E "^ +(Duration|DRAM Throughput|L1/TEX Cache Throughput|Compute \(SM\) Throughput|Issued Ipc Active) " \
    "$dir/$kernel-details.txt" | head -5
fi
