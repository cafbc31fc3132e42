#!/bin/sh
# ThreadLens: every kernel under Oclgrind, the OpenCL device simulator that
# reports invalid memory accesses, data races and API misuse (suite
# 'kernels').  The real command line runs on a 61 x 37 crop of a photo:
# odd sides give every partial work-group, swizzle tile and emulated
# launch ragged edges, and a simulator needs a small image.
#
# Usage: sh tests/test-kernels-oclgrind.sh PART
#   u8, u16  every filter `threadlens list-filters` names (a new filter is
#            covered without touching this file), from an 8-bit or a 16-bit
#            PNG (the command's storage follows the file's depth), under
#            that storage's dispatch choices of $dispatches
#   overlay  the thread map, from both files, with its options
#
# Environment (tests/meson.build sets it): THREADLENS_BIN, the command;
# TL_OCLGRIND, oclgrind (empty: not installed); TL_KERNEL_LOG_LIB,
# tests/kernel-log.c built, which names the kernels each run enqueues;
# G_TEST_SRCDIR, tests/.
#
# Speaks TAP, one line per run.  A run fails when Oclgrind reports
# anything, when threadlens exits non-zero, when it ran on anything but
# Oclgrind's device, or when its output is not a 61 x 37 PNG.
#
# Oclgrind's --uninitialized stays off: Oclgrind 21.10 does not handle
# LLVM's freeze instruction, which the compiled kernels contain, and that
# check then reports values as uninitialized and crashes.
set -u

part=${1:?usage: test-kernels-oclgrind.sh u8|u16|overlay}
threadlens=${THREADLENS_BIN:?THREADLENS_BIN is not set}
oclgrind=${TL_OCLGRIND:-}
kernel_log_lib=${TL_KERNEL_LOG_LIB:?TL_KERNEL_LOG_LIB is not set}
srcdir=${G_TEST_SRCDIR:-$(dirname "$0")}

# CI runs this suite: a missing simulator fails it, never skips it.
if [ -z "$oclgrind" ] || [ ! -x "$oclgrind" ]; then
  echo "Bail out! oclgrind not found: run build-aux/setup.sh (it installs" \
       "the oclgrind package), then meson setup --reconfigure"
  exit 1
fi
for tool in pngtopam pamcut pamdepth pamtopng pamfile; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Bail out! $tool not found: run build-aux/setup.sh (package netpbm)"
    exit 1
  fi
done
case $part in
  u8|u16|overlay) ;;
  *)
    echo "Bail out! unknown part '$part' (u8, u16 or overlay)"
    exit 1
    ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/tl-oclgrind.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# Oclgrind replaces the OpenCL library, so its simulator is the only
# device; naming it makes any other an error, not a quiet fallback.  No
# disk cache: every run builds its kernels from source under Oclgrind.
THREADLENS_DEVICE=Oclgrind
THREADLENS_CACHE_DIR=
# Each launch whole: the kernels' accesses are what is checked here, and
# pieces cut to a time budget only cost Oclgrind more launches
# (test-filters holds the pieces to the whole launches' pixels).
THREADLENS_LAUNCH_MS=0
LC_ALL=C.UTF-8
LANGUAGE=
export THREADLENS_DEVICE THREADLENS_CACHE_DIR THREADLENS_LAUNCH_MS LC_ALL LANGUAGE
unset THREADLENS_TILE

# The crop: the astronaut's shoulder against the flag, edges in every
# direction.  The 16-bit file scales the 8-bit codes (x 257).
photo="$srcdir/images/astronaut.png"
if ! pngtopam "$photo" > "$work/photo.pam" 2>/dev/null ||
   ! pamcut -left 150 -top 300 -width 61 -height 37 "$work/photo.pam" \
       > "$work/crop.pam" ||
   ! pamtopng "$work/crop.pam" > "$work/in-u8.png" ||
   ! pamdepth 65535 "$work/crop.pam" > "$work/crop16.pam" ||
   ! pamtopng "$work/crop16.pam" > "$work/in-u16.png"; then
  echo "Bail out! cannot cut a 61 x 37 crop from $photo with netpbm"
  exit 1
fi

n=0
failed=0
tile=""
items=""

# Runs threadlens ARGS... under Oclgrind (in tiles of $tile pixels when
# set) and prints one TAP line named NAME.  The kernels that ran are added
# to $work/kernels.
tl_run ()
{
  name=$1
  shift
  n=$((n + 1))
  rm -f "$work/out.png" "$work/oclgrind.log" "$work/enqueued"
  if [ -n "$tile" ]; then
    THREADLENS_TILE=$tile
    export THREADLENS_TILE
  else
    unset THREADLENS_TILE
  fi
  if [ -n "$items" ]; then
    THREADLENS_RECURSIVE_ITEMS=$items
    export THREADLENS_RECURSIVE_ITEMS
  else
    unset THREADLENS_RECURSIVE_ITEMS
  fi
  # The groups' rows in segments of 8 values, so that the crop's 61-pixel
  # rows carry state across eight of them (a last one of 5).
  if [ "$items" = group ]; then
    THREADLENS_RECURSIVE_SEGMENT=8
    export THREADLENS_RECURSIVE_SEGMENT
  else
    unset THREADLENS_RECURSIVE_SEGMENT
  fi
  # Oclgrind preloads its runtime; the kernel log goes in front of it, so
  # that its clEnqueueNDRangeKernel sees each call first.
  # shellcheck disable=SC2016 # expanded by that inner sh
  TL_KERNEL_LOG="$work/enqueued" \
    "$oclgrind" --data-races --check-api --log "$work/oclgrind.log" \
                sh -c 'LD_PRELOAD="$0:$LD_PRELOAD" exec "$@"' \
                "$kernel_log_lib" "$threadlens" "$@" < /dev/null \
                > "$work/stdout" 2> "$work/stderr"
  status=$?
  unset THREADLENS_TILE THREADLENS_RECURSIVE_ITEMS THREADLENS_RECURSIVE_SEGMENT

  kernels=$(sort -u "$work/enqueued" 2>/dev/null | tr '\n' ' ')
  cat "$work/enqueued" >> "$work/kernels" 2>/dev/null

  # --log keeps Oclgrind's reports, and only those, apart.
  problem=""
  if [ -s "$work/oclgrind.log" ]; then
    problem="Oclgrind reported errors"
  elif [ "$status" -ne 0 ]; then
    problem="threadlens exited with status $status"
  elif ! grep -q '"device" : "Oclgrind' "$work/stdout"; then
    problem="threadlens did not run on Oclgrind's device"
  elif [ ! -s "$work/out.png" ]; then
    problem="no output image"
  elif [ "$(pngtopam "$work/out.png" 2>/dev/null | pamfile 2>/dev/null |
           sed -n 's/.*, \([0-9]* by [0-9]*\) .*/\1/p')" != "61 by 37" ]; then
    problem="the output is not a 61 x 37 PNG"
  fi

  if [ -z "$problem" ]; then
    echo "ok $n - $name"
    echo "# kernels: $kernels"
    return 0
  fi
  failed=$((failed + 1))
  echo "not ok $n - $name: $problem"
  echo "# ${tile:+THREADLENS_TILE=$tile }threadlens $*"
  echo "# kernels: $kernels"
  # Oclgrind reports each faulty work-item: the first reports say enough.
  if [ -s "$work/oclgrind.log" ]; then
    head -n 40 "$work/oclgrind.log" | sed 's/^/# /'
  fi
  head -n 20 "$work/stderr" | sed 's/^/# /'
  return 1
}

# Passes with a tiled twin (kernel K_tiled, taken when the plan fixes a
# shape and the tile fits in local memory) must run both ways, and the
# blurs' fused pass as well as their two passes: the
# dispatch choices are meant to give both, so a change in the tiling rule
# that loses one fails here.  Prints one TAP line for FILTER, "not ok"
# too when no kernel ran at all.
tl_check_twins ()
{
  filter=$1
  ran=$(sort -u "$work/kernels" 2>/dev/null | tr '\n' ' ')
  missing=""
  for kernel in $ran; do
    case $kernel in
      *_tiled)
        twin=${kernel%_tiled}
        if grep -q "^$twin *(" "$srcdir"/../kernels/*.cl &&
           ! echo " $ran " | grep -q " $twin "; then
          missing="$missing $twin"
        fi
        ;;
    esac
  done
  # A blur that ran its two passes into the storage must have run fused
  # too: the fused pass is what a plan with a shape and a block that fits
  # takes.  Blurs kept in a scratch image (difference-of-gaussians,
  # high-pass) have no fused pass.
  case " $ran " in
    *" tl_convolve_v_scratch"*) ;;
    *" tl_convolve_h"*)
      case " $ran " in
        *"_2d "*) ;;
        *) missing="$missing (a fused _2d pass)" ;;
      esac
      ;;
  esac
  # The recursive Gaussian must have run an item a line, an item a
  # channel and a group a row.
  case " $ran " in
    *" tl_recursive_rows "*|*" tl_recursive_channels "*|*" tl_recursive_group_rows "*)
      for kernel in tl_recursive_rows tl_recursive_channels \
                    tl_recursive_group_rows; do
        echo " $ran " | grep -q " $kernel " || missing="$missing $kernel"
      done
      ;;
  esac
  rm -f "$work/kernels"
  n=$((n + 1))
  if [ -z "$ran" ]; then
    failed=$((failed + 1))
    echo "not ok $n - $filter $part: no kernel ran"
    return 1
  fi
  if [ -n "$missing" ]; then
    failed=$((failed + 1))
    echo "not ok $n - $filter $part: some of its passes never ran:" \
         "$missing"
    return 1
  fi
  echo "ok $n - $filter $part: kernels: $ran"
}

# The dispatch choices, one a line, each for both storages or for one
# (Oclgrind's start-up and build take half a second a run, so the
# storages share the rarer choices out): odd custom shapes in every mode
# (on Oclgrind, which has no native non-uniform groups, non-uniform is
# emulated too), with swizzles, one pixel per work-item and several (for
# 8 and 16 bits the point filters default to 4); the seed shape (auto: on
# Oclgrind P = 1, so 1 x 1024, whose row tile is too wide for local
# memory); 1024 x 1, whose column tile is too tall; the driver's local
# size (never tiled); and the region cut in tiles of 16 pixels, each with
# its halo ("tile=16").  The other shapes tile the blurs; 3x20 is tall
# enough for the blurs' fused pass (the halo above and below a group
# must not outnumber its rows).
dispatches="both --shape=7x3 --pixels-per-item=1
both --shape=3x20 --pixels-per-item=2
both --shape=3x5 --pixels-per-item=4 --swizzle=2
both --shape=auto
both --shape=driver --pixels-per-item=4
u8 --shape=7x3
u8 --shape=5x3 --swizzle=3 --mode=non-uniform
u8 --shape=1024x1
u16 --shape=7x3 --pixels-per-item=3 --mode=emulated
u16 --shape=driver --pixels-per-item=1
u16 tile=16 --shape=7x3"

# Parameters beyond the defaults, one a line: FILTER --set=NAME=VALUE,
# each under $variant_dispatches only, as Oclgrind takes seconds a run on
# their halos.  std-dev 40 takes the recursive path where the engine
# has one (gaussian-blur's and unsharp-mask's), with an item a line, an
# item a channel and a group a row (items=, THREADLENS_RECURSIVE_ITEMS);
# box-blur's radius 25 takes its running sums; the blurs reach past the
# crop's 37 rows, pixelize's blocks are cut at both edges; high-pass and
# difference-of-gaussians keep a recursive blur in a scratch image; one
# step of the iterative filters has no padded steps, only the last; the
# motion blur's samples reach past the crop's corners; median-blur's
# square of radius 12 counts in 32 bits (its default, 16) and reaches
# past the crop's rows.
variants="gaussian-blur --set=std-dev=40 items=line
gaussian-blur --set=std-dev=40 items=channel
gaussian-blur --set=std-dev=40 items=group
unsharp-mask --set=std-dev=40 items=line
unsharp-mask --set=std-dev=40 items=channel
unsharp-mask --set=std-dev=40 items=group
box-blur --set=radius=25
pixelize --set=size=7
high-pass --set=std-dev=40 items=line
high-pass --set=std-dev=40 items=group
difference-of-gaussians --set=radius2=40 items=line
difference-of-gaussians --set=radius2=40 items=group
median-blur --set=radius=12 --set=neighborhood=0
mean-curvature-blur --set=iterations=1
noise-reduction --set=iterations=1
motion-blur-linear --set=length=30 --set=angle=120
snn-mean --set=pairs=1"
# Settings lighter than the defaults, for filters whose defaults take
# Oclgrind several seconds a run on the crop (mean-curvature-blur's 20
# steps 6.8 s, snn-mean's radius 8 4.4 s, noise-reduction's 4 steps 3.8
# s, bilateral-filter's radius 4 2.6 s, where most filters take about
# 1.2): these run under $dispatches in their place, the defaults under
# $variant_dispatches.
light="mean-curvature-blur --set=iterations=3
snn-mean --set=radius=3
noise-reduction --set=iterations=2
bilateral-filter --set=blur-radius=2"
variant_dispatches="both --shape=7x3
both --shape=3x5 --pixels-per-item=4 --mode=emulated
both --shape=driver"

filters=$("$threadlens" list-filters |
          sed -n 's/^\([a-z0-9][a-z0-9-]*\)$/\1/p')
if [ -z "$filters" ]; then
  echo "Bail out! threadlens list-filters named no filter"
  exit 1
fi

if [ "$part" = overlay ]; then
  # The thread map's kernel writes IDs, not the layer's storage: one run
  # from the 16-bit file, the options from the 8-bit one.  --filter takes
  # the first filter's limits.  Left out: --by compute-unit (Oclgrind does
  # not say which compute unit ran a group) and the driver's shape (the
  # overlay refuses it: its groups are unknown).
  tl_run "overlay u16 --by=work-group --shape=7x3" overlay --json \
         --by=work-group --shape=7x3 "$work/in-u16.png" "$work/out.png"
  while IFS= read -r options; do
    # shellcheck disable=SC2086 # the options split on spaces
    tl_run "overlay u8 $options" overlay --json $options \
           "$work/in-u8.png" "$work/out.png"
  done <<EOF
--by=work-group
--by=work-group --shape=7x3 --opacity=0.25
--by=simd-group --shape=7x3 --mode=non-uniform
--by=lane --shape=7x3 --mode=emulated
--by=lane --shape=5x3 --swizzle=2 --style=checkerboard
--by=launch-order --shape=5x3 --swizzle=3 --mode=emulated
--by=work-group --shape=7x3 --pixels-per-item=4 --style=checkerboard
--by=simd-group --filter=${filters%%[!a-z0-9-]*} --shape=seed
--by=lane --shape=3x5 --pixels-per-item=4 --mode=emulated
EOF
  tl_run "overlay u8 --dump-ids" overlay --json --by=lane --shape=7x3 \
         --dump-ids="$work/ids.json" "$work/in-u8.png" "$work/out.png"
  n=$((n + 1))
  if [ -s "$work/ids.json" ]; then
    echo "ok $n - overlay --dump-ids wrote its JSON"
  else
    failed=$((failed + 1))
    echo "not ok $n - overlay --dump-ids wrote no JSON"
  fi
else
  input="$work/in-$part.png"
  # A variant of a filter that is gone would be dropped without a word.
  for filter in $(printf '%s\n%s\n' "$variants" "$light" | sed 's/ .*//' | sort -u); do
    if ! printf '%s\n' "$filters" | grep -qx "$filter"; then
      echo "Bail out! \$variants or \$light names '$filter', which list-filters does not"
      exit 1
    fi
  done
  for filter in $filters; do
    # "-": the defaults (or the light settings, and "defaults" then).
    light_set=$(printf '%s\n' "$light" | sed -n "s/^$filter //p")
    sets="-
${light_set:+defaults}
$(printf '%s\n' "$variants" | sed -n "s/^$filter //p")"
    while IFS= read -r set; do
      [ -n "$set" ] || continue
      items=""
      case $set in
        *" items="*)
          items=${set##* items=}
          set=${set% items=*}
          ;;
      esac
      choices=$variant_dispatches
      if [ "$set" = - ]; then
        set=$light_set
        choices=$dispatches
      elif [ "$set" = defaults ]; then
        set=""
      fi
      while read -r storage dispatch; do
        [ "$storage" = both ] || [ "$storage" = "$part" ] || continue
        tile=""
        case $dispatch in
          tile=*)
            tile=${dispatch%% *}
            tile=${tile#tile=}
            dispatch=${dispatch#* }
            ;;
        esac
        layout=""
        case $items in
          group) layout=" a group a row" ;;
          ?*) layout=" an item a $items" ;;
        esac
        # shellcheck disable=SC2086 # the options split on spaces
        tl_run "$filter $part${set:+ $set}$layout $dispatch${tile:+ in tiles of $tile}" \
               apply --json $dispatch $set "$filter" "$input" "$work/out.png"
        tile=""
      done <<EOF
$choices
EOF
    done <<EOF
$sets
EOF
    tl_check_twins "$filter"
  done
fi

echo "1..$n"
[ "$failed" -eq 0 ]
