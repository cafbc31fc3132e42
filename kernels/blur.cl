/* ThreadLens: separable convolution with clamp-to-edge borders, for every
 * blur: gaussian-blur, unsharp-mask and box-blur (equal weights), and
 * box-blur's running sums for large radii (at the end of the file).
 *
 * The host computes the weights once (shared with the C references in
 * engine/filters/tl-filter-blur.c, so both sum the same numbers in the same order)
 * and runs the horizontal pass, then a vertical one, with the same
 * dispatch.  The horizontal pass reads the layer's storage and writes
 * working floats; the vertical one reads those and writes the storage.
 *
 * Each pass has a tiled twin (_tiled): a work-group first copies the
 * pixels its items need (its own span plus the radius on both sides) into
 * local memory, each pixel loaded and decoded once, and the taps then
 * read local memory.  The host takes the twin when the tile fits the
 * device's local memory and the plan fixes the group shape.  Both give
 * the same bits.  They are separate kernels, not one with a branch around
 * the barrier, because PoCL 6 crashes compiling a barrier in a branch
 * and PoCL 3.1 gives wrong pixels with one, even where every item takes
 * the branch alike.
 *
 * The host takes the fused pass (_2d, below the passes) before either:
 * both sums in one kernel, the layer read once and written once, where
 * the group's block fits local memory and the group is as tall as the
 * halo above and below it.  It too gives the same bits.
 *
 * Every kernel takes (in, out, dispatch, codec, weights, radius, tile)
 * first, so one host function drives them all; untiled ones ignore TILE.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No contraction: the blurs equal their C references bit for bit, so a
 * fused multiply-add is written out, as fma () and fmaf () there.
 */
#pragma OPENCL FP_CONTRACT OFF

/* A sum of the 2 RADIUS + 1 taps around the centre into SUM, AT (t)
 * being the tap t pixels from it.  By default each tap is weighted and
 * added in turn, from the left.  The "equal" variant of the program
 * (TL_CONVOLVE_EQUAL, which the host takes for equal weights: box-blur)
 * adds the taps from the left and scales the sum once, half the
 * operations a tap: on the H100 box-blur's radius 4 went from 0.354 to
 * 0.310 ms in float and 0.405 to 0.367 ms in u8.  The "pairs" variant
 * (TL_CONVOLVE_PAIRS, which the host takes from radius 6 up) uses the
 * symmetric weights (a Gaussian's): the centre's share, then each pair
 * of taps either side added first and weighted once by a fused
 * multiply-add, five operations a tap for eight.  On the H100 that took
 * gaussian-blur at std-dev 4 (radius 12) from 0.719 to 0.649 ms in
 * float and unsharp-mask's default (radius 9) from 0.707 to 0.660 ms in
 * u8; one kernel holding every order made the small radii slower, so
 * each order is a program of its own.  The C reference
 * (tl_filter_convolve_reference ()) sums in the same orders.
 */
#ifndef TL_CONVOLVE_PAIRS
#define TL_CONVOLVE_PAIRS 0
#endif
#ifndef TL_CONVOLVE_EQUAL
#define TL_CONVOLVE_EQUAL 0
#endif

#if TL_CONVOLVE_EQUAL
#define TL_CONVOLVE_TAPS(AT)                                            \
  do                                                                    \
    {                                                                   \
      sum = AT (-radius);                                               \
      for (int t = -radius + 1; t <= radius; t++)                       \
        sum += AT (t);                                                  \
      sum *= weights[0];                                                \
    }                                                                   \
  while (0)
#elif TL_CONVOLVE_PAIRS
#define TL_CONVOLVE_TAPS(AT)                                            \
  do                                                                    \
    {                                                                   \
      sum = weights[radius] * AT (0);                                   \
      for (int t = 1; t <= radius; t++)                                 \
        sum = fma ((float4) weights[radius + t], AT (-t) + AT (t), sum); \
    }                                                                   \
  while (0)
#else
#define TL_CONVOLVE_TAPS(AT)                                            \
  do                                                                    \
    {                                                                   \
      sum = 0.0f;                                                       \
      for (int t = -radius; t <= radius; t++)                           \
        sum += weights[radius + t] * AT (t);                            \
    }                                                                   \
  while (0)
#endif

/* Each pixel of the item's run of D->pixels_per_item, from taps at
 * TAPS[0..2 radius] with STEP between them.
 */
inline float4
tl_convolve_local (local const float4 *taps,
                   int                 step,
                   constant float     *weights,
                   int                 radius)
{
  float4 sum;

#define TL_CONVOLVE_LOCAL_TAP(t) taps[(radius + (t)) * step]
  TL_CONVOLVE_TAPS (TL_CONVOLVE_LOCAL_TAP);
#undef TL_CONVOLVE_LOCAL_TAP
  return sum;
}

/* The first pixel, in x, of the work-group's span. */
inline int
tl_convolve_group_first (const TlDispatch *d)
{
  return tl_group_origin (d).x;
}

/* Copies the horizontal tile: one row per local row, the group's span
 * and RADIUS pixels either side, decoded.
 */
inline void
tl_convolve_fill_row_tile (global const tl_pixel *in,
                           const TlDispatch      *d,
                           global const float    *codec,
                           int                    radius,
                           local float4          *tile)
{
  int           lw    = get_local_size (0);
  int           span  = lw * d->pixels_per_item + 2 * radius;
  int           first = tl_convolve_group_first (d) - radius;
  int           y     = min (tl_item_origin (d).y, d->height - 1) * d->stride;
  local float4 *line  = tile + get_local_id (1) * span;

  for (int i = get_local_id (0); i < span; i += lw)
    line[i] = tl_load (in, y + clamp (first + i, 0, d->width - 1), codec);
}

/* Copies the vertical tile: the group's columns, its rows and RADIUS rows
 * above and below.
 */
inline void
tl_convolve_fill_column_tile (global const float4 *in,
                              const TlDispatch    *d,
                              int                  radius,
                              local float4        *tile)
{
  int lw    = get_local_size (0);
  int lh    = get_local_size (1);
  int first = tl_convolve_group_first (d);
  int top   = tl_item_origin (d).y - (int) get_local_id (1) - radius;
  int cols  = lw * d->pixels_per_item;
  int rows  = lh + 2 * radius;

  for (int j = get_local_id (1); j < rows; j += lh)
    {
      int y = clamp (top + j, 0, d->height - 1) * d->stride;

      for (int i = get_local_id (0); i < cols; i += lw)
        tile[j * cols + i] = in[y + min (first + i, d->width - 1)];
    }
}

/* The horizontal sums of the item's pixels, from the tile (TILED) or
 * from global memory.  Indices are worked out after any barrier: PoCL
 * 3.1 loses private values carried across one.
 */
inline void
tl_convolve_h_sums (global const tl_pixel *in,
                    global float4         *out,
                    const TlDispatch      *d,
                    global const float    *codec,
                    constant float        *weights,
                    int                    radius,
                    int                    tiled,
                    local float4          *tile)
{
  int2 origin = tl_item_origin (d);
  int  end    = min (origin.x + d->pixels_per_item, d->width);
  int  row    = origin.y * d->stride;

  if (origin.y >= d->height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum;

      if (tiled)
        {
          int span = get_local_size (0) * d->pixels_per_item + 2 * radius;

          sum = tl_convolve_local (tile + get_local_id (1) * span +
                                   (x - tl_convolve_group_first (d)),
                                   1, weights, radius);
        }
      else
        {
#define TL_CONVOLVE_ROW_TAP(t) \
  tl_load (in, row + clamp (x + (t), 0, d->width - 1), codec)
          TL_CONVOLVE_TAPS (TL_CONVOLVE_ROW_TAP);
#undef TL_CONVOLVE_ROW_TAP
        }
      out[row + x] = sum;
    }
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_h)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_h (global const tl_pixel *in,
               global float4         *out,
               TlDispatch             d,
               global const float    *codec,
               constant float        *weights,
               int                    radius,
               local float4          *tile)
{
  tl_convolve_h_sums (in, out, &d, codec, weights, radius, 0, tile);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_h_tiled)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_h_tiled (global const tl_pixel *in,
                     global float4         *out,
                     TlDispatch             d,
                     global const float    *codec,
                     constant float        *weights,
                     int                    radius,
                     local float4          *tile)
{
  tl_convolve_fill_row_tile (in, &d, codec, radius, tile);
  barrier (CLK_LOCAL_MEM_FENCE);
  tl_convolve_h_sums (in, out, &d, codec, weights, radius, 1, tile);
}
#endif

/* The vertical sum at column X of row Y: from the tile (TILED) or from
 * global memory.
 */
inline float4
tl_convolve_vertical (global const float4 *in,
                      const TlDispatch    *d,
                      int                  y,
                      int                  x,
                      constant float      *weights,
                      int                  radius,
                      int                  tiled,
                      local float4        *tile)
{
  int    cols = get_local_size (0) * d->pixels_per_item;
  float4 sum;

  if (tiled)
    return tl_convolve_local (tile + get_local_id (1) * cols +
                              (x - tl_convolve_group_first (d)),
                              cols, weights, radius);

#define TL_CONVOLVE_COLUMN_TAP(t) \
  in[clamp (y + (t), 0, d->height - 1) * d->stride + x]
  TL_CONVOLVE_TAPS (TL_CONVOLVE_COLUMN_TAP);
#undef TL_CONVOLVE_COLUMN_TAP
  return sum;
}

inline void
tl_convolve_v_store (global const float4 *in,
                     global tl_pixel     *out,
                     const TlDispatch    *d,
                     global const float  *codec,
                     constant float      *weights,
                     int                  radius,
                     int                  tiled,
                     local float4        *tile)
{
  int2 origin = tl_item_origin (d);
  int  end    = min (origin.x + d->pixels_per_item, d->width);
  int  row    = origin.y * d->stride;

  if (origin.y >= d->height)
    return;

  for (int x = origin.x; x < end; x++)
    tl_store (out, row + x,
              tl_convolve_vertical (in, d, origin.y, x, weights, radius,
                                    tiled, tile),
              codec);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_v)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_v (global const float4 *in,
               global tl_pixel     *out,
               TlDispatch           d,
               global const float  *codec,
               constant float      *weights,
               int                  radius,
               local float4        *tile)
{
  tl_convolve_v_store (in, out, &d, codec, weights, radius, 0, tile);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_v_tiled)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_v_tiled (global const float4 *in,
                     global tl_pixel     *out,
                     TlDispatch           d,
                     global const float  *codec,
                     constant float      *weights,
                     int                  radius,
                     local float4        *tile)
{
  tl_convolve_fill_column_tile (in, &d, radius, tile);
  barrier (CLK_LOCAL_MEM_FENCE);
  tl_convolve_v_store (in, out, &d, codec, weights, radius, 1, tile);
}
#endif

/* unsharp-mask's sharpening of V by its blur SUM: in + scale * (in -
 * blurred) on colour, alpha kept.
 */
inline float4
tl_unsharp_pixel (float4 v,
                  float4 sum,
                  float  scale)
{
  return (float4) (v.xyz + scale * (v.xyz - sum.xyz), v.w);
}

/* difference-of-gaussians' pixel from its two blurs. */
inline float4
tl_dog_pixel (float4 first,
              float4 second)
{
  return (float4) (first.xyz - second.xyz, first.w);
}

/* unsharp-mask's vertical pass: the vertical convolution of the
 * horizontally blurred image, then the sharpening.
 */
inline void
tl_unsharp_store (global const float4   *blurred,
                  global tl_pixel       *out,
                  const TlDispatch      *d,
                  global const float    *codec,
                  constant float        *weights,
                  int                    radius,
                  int                    tiled,
                  local float4          *tile,
                  global const tl_pixel *in,
                  float                  scale)
{
  int2 origin = tl_item_origin (d);
  int  end    = min (origin.x + d->pixels_per_item, d->width);
  int  row    = origin.y * d->stride;

  if (origin.y >= d->height)
    return;

  for (int x = origin.x; x < end; x++)
    tl_store (out, row + x,
              tl_unsharp_pixel (tl_load (in, row + x, codec),
                                tl_convolve_vertical (blurred, d, origin.y, x,
                                                      weights, radius, tiled,
                                                      tile),
                                scale),
              codec);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_unsharp_v)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_* and TL_ARG_UNSHARP_*. */
kernel void
tl_unsharp_v (global const float4   *blurred,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              constant float        *weights,
              int                    radius,
              local float4          *tile,
              global const tl_pixel *in,
              float                  scale)
{
  tl_unsharp_store (blurred, out, &d, codec, weights, radius, 0, tile, in,
                    scale);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_unsharp_v_tiled)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_* and TL_ARG_UNSHARP_*. */
kernel void
tl_unsharp_v_tiled (global const float4   *blurred,
                    global tl_pixel       *out,
                    TlDispatch             d,
                    global const float    *codec,
                    constant float        *weights,
                    int                    radius,
                    local float4          *tile,
                    global const tl_pixel *in,
                    float                  scale)
{
  tl_convolve_fill_column_tile (blurred, &d, radius, tile);
  barrier (CLK_LOCAL_MEM_FENCE);
  tl_unsharp_store (blurred, out, &d, codec, weights, radius, 1, tile, in,
                    scale);
}
#endif

/* The fused pass: a work-group copies its outputs' whole neighbourhood
 * (its span and RADIUS columns either side, its rows and RADIUS rows
 * above and below) into local memory, decoded, sums it along x into a
 * second local tile and that along y into the output.  The layer is read
 * once and written once, where the two passes above move an image of
 * working floats between them (16 bytes a pixel each way, four times an
 * 8-bit layer's own).  Each sum is the two passes' sum, in their order,
 * so the bits are theirs.  BLOCK holds the input (tl_load_block ()),
 * then the row sums.
 */
/* The row sums of every row of the block, neighbouring items on
 * neighbouring columns (local memory serves them in one access).
 */
inline void
tl_convolve_block_rows (const TlDispatch   *d,
                        constant float     *weights,
                        int                 radius,
                        local const float4 *block,
                        local float4       *sums)
{
  int lw   = get_local_size (0);
  int lh   = get_local_size (1);
  int span = lw * d->pixels_per_item;
  int cols = span + 2 * radius;
  int rows = lh + 2 * radius;

  for (int j = get_local_id (1); j < rows; j += lh)
    for (int c = get_local_id (0); c < span; c += lw)
      sums[j * span + c] = tl_convolve_local (block + j * cols + c, 1, weights,
                                              radius);
}

/* Local memory the fused pass needs after its block: the row sums. */
inline local float4 *
tl_convolve_block_sums (const TlDispatch *d,
                        int               radius,
                        local float4     *block)
{
  return block + tl_block_cols (d, radius) *
                 ((int) get_local_size (1) + 2 * radius);
}

/* The fused pass's first steps, the same for every fused kernel: IN's
 * block into BLOCK, then its row sums after it.  Every item of the group
 * calls it (it holds the barriers); returns the row sums.
 */
inline local const float4 *
tl_convolve_block_fill (global const tl_pixel *in,
                        const TlDispatch      *d,
                        global const float    *codec,
                        constant float        *weights,
                        int                    radius,
                        local float4          *block)
{
  local float4 *sums = tl_convolve_block_sums (d, radius, block);

  tl_load_block (in, d, codec, radius, block);
  barrier (CLK_LOCAL_MEM_FENCE);
  tl_convolve_block_rows (d, weights, radius, block, sums);
  barrier (CLK_LOCAL_MEM_FENCE);
  return sums;
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_2d)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_2d (global const tl_pixel *in,
                global tl_pixel       *out,
                TlDispatch             d,
                global const float    *codec,
                constant float        *weights,
                int                    radius,
                local float4          *block)
{
  local const float4 *sums = tl_convolve_block_fill (in, &d, codec, weights,
                                                     radius, block);
  {
    int2 origin = tl_item_origin (&d);
    int  end    = min (origin.x + d.pixels_per_item, d.width);
    int  span   = get_local_size (0) * d.pixels_per_item;
    int  first  = tl_convolve_group_first (&d);

    if (origin.y >= d.height)
      return;
    for (int x = origin.x; x < end; x++)
      tl_store (out, origin.y * d.stride + x,
                tl_convolve_local (sums + get_local_id (1) * span + (x - first),
                                   span, weights, radius),
                codec);
  }
}
#endif

/* unsharp-mask fused: the centre pixel comes from the block too.  IN
 * (argument 7) is the same image as argument 0, kept so both unsharp
 * kernels take the same arguments.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_unsharp_2d)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_* and TL_ARG_UNSHARP_*. */
kernel void
tl_unsharp_2d (global const tl_pixel *source,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec,
               constant float        *weights,
               int                    radius,
               local float4          *block,
               global const tl_pixel *in,
               float                  scale)
{
  local const float4 *sums = tl_convolve_block_fill (source, &d, codec,
                                                     weights, radius, block);
  {
    int2 origin = tl_item_origin (&d);
    int  end    = min (origin.x + d.pixels_per_item, d.width);
    int  span   = get_local_size (0) * d.pixels_per_item;
    int  cols   = tl_block_cols (&d, radius);
    int  first  = tl_convolve_group_first (&d);

    if (origin.y >= d.height)
      return;
    for (int x = origin.x; x < end; x++)
      {
        float4 v   = block[(get_local_id (1) + radius) * cols + radius + x - first];
        float4 sum = tl_convolve_local (sums + get_local_id (1) * span + (x - first),
                                        span, weights, radius);

        tl_store (out, origin.y * d.stride + x, tl_unsharp_pixel (v, sum, scale),
                  codec);
      }
  }
}
#endif

/* The recursive Gaussian (engine/filters/tl-filter-recursive.c, which holds the
 * C reference doing these operations in this order): a work-item filters
 * a whole line, forward then backward, in double precision.  COEF holds
 * B, a1..a3 and the 3x3 matrix that starts the backward pass from the
 * forward pass's end.  Lines are LENGTH pixels, PITCH pixels from one
 * line's start to the next, STEP between neighbours.
 *
 * The channels never mix, so the same bits come from two layouts: on a
 * CPU one item filters a line's four channels as vectors (rows from the
 * storage into a scratch image, then columns from it into the storage,
 * four neighbouring columns an item); on a GPU, where an image's
 * thousands of lines leave most of the chip idle, one item filters one
 * channel, over the scratch image only, between a decoding and an
 * encoding pass for narrow storage.
 *
 * 8-bit storage keeps the working values between the sweeps in half
 * precision (TL_SCRATCH_HALF): an 8-bit code's interval is at least 8
 * halves' steps wide (linear codes near 1, 1/255 against 2^-11; sRGB
 * codes more), so at most one code changes where float kept it, and the
 * scratch image's traffic halves.  Every value written between the
 * sweeps is rounded to half, the decoded input and the last sweep's
 * results too, in both layouts and in the C reference
 * (TlFloatPixels.scratch_half), so they give the same bits.  Other
 * storage keeps floats.
 */
#if TL_STORE == TL_STORE_U8
#define TL_SCRATCH_HALF 1
#define tl_scratch      half
#define TL_SCRATCH_LOAD(p, i)      vload_half4 ((i), (p))
#define TL_SCRATCH_STORE(p, i, v)  vstore_half4_rte ((v), (i), (p))
#define TL_SCRATCH_LOAD4(p, i)     vload_half16 (0, (p) + (size_t) (i) * 4)
#define TL_SCRATCH_STORE4(p, i, v) vstore_half16_rte ((v), 0, (p) + (size_t) (i) * 4)
#define TL_SCRATCH_CHANNEL(p, i)   vload_half (0, (p) + (size_t) (i) * 4 + channel)
#define TL_SCRATCH_STORE_CHANNEL(p, i, v)                               \
  vstore_half_rte ((v), 0, (p) + (size_t) (i) * 4 + channel)
#else
#define TL_SCRATCH_HALF 0
#define tl_scratch      float
#define TL_SCRATCH_LOAD(p, i)      (((global const float4 *) (p))[i])
#define TL_SCRATCH_STORE(p, i, v)  (((global float4 *) (p))[i] = (v))
#define TL_SCRATCH_LOAD4(p, i)     vload16 (0, (p) + (size_t) (i) * 4)
#define TL_SCRATCH_STORE4(p, i, v) vstore16 ((v), 0, (p) + (size_t) (i) * 4)
/* The pixel found first, so that the float's index (four times the
 * pixel's) never overflows an int on layers of 2^29 pixels and more.
 */
#define TL_SCRATCH_CHANNEL(p, i)                                        \
  ((global const float *) ((global const float4 *) (p) + (i)))[channel]
#define TL_SCRATCH_STORE_CHANNEL(p, i, v)                               \
  (((global float *) ((global float4 *) (p) + (i)))[channel] = (v))
#endif

/* V as the scratch image would keep it. */
inline float4
tl_scratch_round (float4 v)
{
#if TL_SCRATCH_HALF
  ushort4 bits;

  vstore_half4_rte (v, 0, (half *) &bits);
  return vload_half4 (0, (const half *) &bits);
#else
  return v;
#endif
}

#if defined (cl_khr_fp64) && \
    (! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_rows) || \
     defined (TL_KERNEL_tl_recursive_columns) || \
     defined (TL_KERNEL_tl_recursive_lines) || \
     defined (TL_KERNEL_tl_recursive_channels) || \
     defined (TL_KERNEL_tl_recursive_group_rows))
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* Loads at a time: they do not depend on the recursion, so all of them
 * are in flight together, where one load a step would leave the few
 * line-items waiting on memory at every step.  A GPU's channel-items
 * need more in flight than a CPU's line-items: on the H100, 32 ran 1.3
 * times as fast as 16, and 64 another 1.04 times.
 */
#define TL_RECURSIVE_LINE_BATCH    16
#define TL_RECURSIVE_CHANNEL_BATCH 64

/* One step of REAL values: the newest state last, as in the C
 * reference, each state's term added by a fused multiply-add.
 */
#define TL_RECURSIVE_STEP(REAL, X, S1, S2, S3)                          \
  fma ((REAL) coef[1], S1,                                              \
       fma ((REAL) coef[2], S2, fma ((REAL) coef[3], S3, coef[0] * (X))))

/* One sweep of the recursion along the line from FIRST, its Jth value
 * at pixel AT (j): from READ (i) to WRITE (i, v), the state in W1..W3.
 * Each batch's loads are issued a batch ahead, before the batch before it
 * is filtered, so the memory's latency hides behind the recursion's
 * arithmetic instead of stalling the few line-items at every batch.
 * With READ and WRITE on one image every value is still read before it
 * is written: the loads run ahead of the writes.
 */
#define TL_RECURSIVE_SWEEP(REAL, VALUE, TO_REAL, TO_VALUE, BATCH,       \
                           READ, WRITE, AT)                             \
  do                                                                    \
    {                                                                   \
      VALUE x[BATCH], ahead[BATCH];                                     \
      int   j = 0;                                                      \
                                                                        \
      if (length >= BATCH)                                              \
        for (int i = 0; i < BATCH; i++)                                 \
          ahead[i] = READ (AT (i));                                     \
      for (; j + BATCH <= length; j += BATCH)                           \
        {                                                               \
          for (int i = 0; i < BATCH; i++)                               \
            x[i] = ahead[i];                                            \
          if (j + 2 * BATCH <= length)                                  \
            for (int i = 0; i < BATCH; i++)                             \
              ahead[i] = READ (AT (j + BATCH + i));                     \
          for (int i = 0; i < BATCH; i++)                               \
            {                                                           \
              REAL w = TL_RECURSIVE_STEP (REAL, TO_REAL (x[i]),         \
                                          w1, w2, w3);                  \
                                                                        \
              WRITE (AT (j + i), TO_VALUE (w));                         \
              w3 = w2;                                                  \
              w2 = w1;                                                  \
              w1 = w;                                                   \
            }                                                           \
        }                                                               \
      for (; j < length; j++)                                           \
        {                                                               \
          REAL w = TL_RECURSIVE_STEP (REAL, TO_REAL (READ (AT (j))),    \
                                      w1, w2, w3);                      \
                                                                        \
          WRITE (AT (j), TO_VALUE (w));                                 \
          w3 = w2;                                                      \
          w2 = w1;                                                      \
          w1 = w;                                                       \
        }                                                               \
    }                                                                   \
  while (0)

/* The sweeps' Jth pixels: forward from the line's start, backward from
 * its end.
 */
#define TL_RECURSIVE_AHEAD(J)  (first + (J) * step)
#define TL_RECURSIVE_BEHIND(J) (first + (length - 1 - (J)) * step)

/* The line from FIRST: forward from LOAD (i) into the scratch image,
 * KEEP (i, v) writing what SCRATCH (i) reads (which may be the input:
 * each value is read before it is written), then backward from the
 * clamp-to-edge continuation, from SCRATCH (i) to STORE (i, v).
 * REAL and VALUE are the state's and the values' types, TO_REAL and
 * TO_VALUE convert between them, BATCH loads go at a time.
 */
#define TL_RECURSIVE_FILTER(REAL, VALUE, TO_REAL, TO_VALUE, BATCH,      \
                            LOAD, SCRATCH, KEEP, STORE)                 \
  do                                                                    \
    {                                                                   \
      REAL u  = TO_REAL (LOAD (first + (length - 1) * step));           \
      REAL w1 = TO_REAL (LOAD (first)), w2 = w1, w3 = w1;               \
      REAL d0, d1, d2;                                                  \
                                                                        \
      TL_RECURSIVE_SWEEP (REAL, VALUE, TO_REAL, TO_VALUE, BATCH, LOAD,  \
                          KEEP, TL_RECURSIVE_AHEAD);                    \
                                                                        \
      /* The backward pass's first three values beyond the line's end. */ \
      d0 = w1 - u;                                                      \
      d1 = w2 - u;                                                      \
      d2 = w3 - u;                                                      \
      w1 = coef[4] * d0 + coef[5] * d1 + coef[6] * d2 + u;              \
      w2 = coef[7] * d0 + coef[8] * d1 + coef[9] * d2 + u;              \
      w3 = coef[10] * d0 + coef[11] * d1 + coef[12] * d2 + u;           \
                                                                        \
      TL_RECURSIVE_SWEEP (REAL, VALUE, TO_REAL, TO_VALUE, BATCH, SCRATCH, \
                          STORE, TL_RECURSIVE_BEHIND);                  \
    }                                                                   \
  while (0)

/* A line an item: D counts lines. */
#define TL_RECURSIVE_LINE(LOAD, SCRATCH, KEEP, STORE)                    \
  do                                                                    \
    {                                                                   \
      int2 line  = tl_item_origin (&d);                                 \
      int  first = line.x * pitch;                                      \
                                                                        \
      if (line.x >= d.width || line.y >= d.height)                      \
        break;                                                          \
      TL_RECURSIVE_FILTER (double4, float4, convert_double4, convert_float4, \
                           TL_RECURSIVE_LINE_BATCH, LOAD, SCRATCH, KEEP, \
                           STORE);                                      \
    }                                                                   \
  while (0)

/* Loads at a time for four columns, each of four pixels: on PoCL 8 ran
 * as fast as 4, and 16 slower.
 */
#define TL_RECURSIVE_COLUMNS_BATCH 8

/* Four neighbouring columns an item, the columns of a row STEP pixels
 * wide (D counts items): each step of the walk down them reads and
 * writes one 64-byte run of a row, where four items a column would each
 * touch a quarter of it, far from their last step, and the four
 * recursions interleave (on PoCL, gaussian-blur's column pass at
 * 3840x2160 ran in about two thirds of the time).  The last item takes
 * what is left a column at a time.  LOAD4, SCRATCH4, KEEP4 and STORE4 move
 * four pixels.
 */
#define TL_RECURSIVE_COLUMNS(LOAD, SCRATCH, KEEP, STORE,                 \
                             LOAD4, SCRATCH4, KEEP4, STORE4)            \
  do                                                                    \
    {                                                                   \
      int2 item  = tl_item_origin (&d);                                 \
      int  first = item.x * 4;                                          \
                                                                        \
      if (item.x >= d.width || item.y >= d.height)                      \
        break;                                                          \
      if (first + 4 <= step)                                            \
        TL_RECURSIVE_FILTER (double16, float16, convert_double16,       \
                             convert_float16, TL_RECURSIVE_COLUMNS_BATCH, \
                             LOAD4, SCRATCH4, KEEP4, STORE4);           \
      else                                                              \
        for (; first < step; first++)                                   \
          TL_RECURSIVE_FILTER (double4, float4, convert_double4,        \
                               convert_float4, TL_RECURSIVE_LINE_BATCH, \
                               LOAD, SCRATCH, KEEP, STORE);             \
    }                                                                   \
  while (0)

#define TL_RECURSIVE_LOAD_STORAGE(i)     tl_scratch_round (tl_load (in, (i), codec))
#define TL_RECURSIVE_SCRATCH(i)          TL_SCRATCH_LOAD (scratch, i)
#define TL_RECURSIVE_KEEP_SCRATCH(i, v)  TL_SCRATCH_STORE (scratch, i, v)
#define TL_RECURSIVE_STORE_STORAGE(i, v)                                \
  tl_store (out, (i), tl_scratch_round (v), codec)
#define TL_RECURSIVE_SCRATCH4(i)         TL_SCRATCH_LOAD4 (scratch, i)
#define TL_RECURSIVE_KEEP_SCRATCH4(i, v) TL_SCRATCH_STORE4 (scratch, i, v)
#define TL_RECURSIVE_STORE_STORAGE4(i, v)                                \
  do                                                                    \
    {                                                                   \
      float16 four_ = (v);                                              \
                                                                        \
      TL_RECURSIVE_STORE_STORAGE ((i), four_.s0123);                    \
      TL_RECURSIVE_STORE_STORAGE ((i) + 1, four_.s4567);                \
      TL_RECURSIVE_STORE_STORAGE ((i) + 2, four_.s89ab);                \
      TL_RECURSIVE_STORE_STORAGE ((i) + 3, four_.scdef);                \
    }                                                                   \
  while (0)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_rows)
/* Argument slots: tl-args.h, TL_ARG_RECURSIVE_*. */
kernel void
tl_recursive_rows (global const tl_pixel *in,
                   global tl_scratch     *scratch,
                   TlDispatch             d,
                   global const float    *codec,
                   constant double       *coef,
                   int                    length,
                   int                    pitch,
                   int                    step)
{
  TL_RECURSIVE_LINE (TL_RECURSIVE_LOAD_STORAGE, TL_RECURSIVE_SCRATCH,
                     TL_RECURSIVE_KEEP_SCRATCH, TL_RECURSIVE_KEEP_SCRATCH);
}
#endif

/* Four columns an item, from the scratch image into the storage. */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_columns)
/* Argument slots: tl-args.h, TL_ARG_RECURSIVE_*. */
kernel void
tl_recursive_columns (global tl_scratch  *scratch,
                      global tl_pixel    *out,
                      TlDispatch          d,
                      global const float *codec,
                      constant double    *coef,
                      int                 length,
                      int                 pitch,
                      int                 step)
{
  TL_RECURSIVE_COLUMNS (TL_RECURSIVE_SCRATCH, TL_RECURSIVE_SCRATCH,
                        TL_RECURSIVE_KEEP_SCRATCH, TL_RECURSIVE_STORE_STORAGE,
                        TL_RECURSIVE_SCRATCH4, TL_RECURSIVE_SCRATCH4,
                        TL_RECURSIVE_KEEP_SCRATCH4,
                        TL_RECURSIVE_STORE_STORAGE4);
}
#endif

#define TL_RECURSIVE_LOAD_FLOATS(i)   TL_SCRATCH_LOAD (in, i)
#define TL_RECURSIVE_OUT(i)           TL_SCRATCH_LOAD (out, i)
#define TL_RECURSIVE_STORE_OUT(i, v)  TL_SCRATCH_STORE (out, i, v)
#define TL_RECURSIVE_LOAD_FLOATS4(i)  TL_SCRATCH_LOAD4 (in, i)
#define TL_RECURSIVE_OUT4(i)          TL_SCRATCH_LOAD4 (out, i)
#define TL_RECURSIVE_STORE_OUT4(i, v) TL_SCRATCH_STORE4 (out, i, v)

/* Four columns an item over the scratch image, for a blur that stays
 * there (unsharp-mask's): IN may be OUT.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_lines)
/* Argument slots: tl-args.h, TL_ARG_RECURSIVE_*. */
kernel void
tl_recursive_lines (global const tl_scratch *in,
                    global tl_scratch       *out,
                    TlDispatch               d,
                    global const float      *codec,
                    constant double         *coef,
                    int                      length,
                    int                      pitch,
                    int                      step)
{
  TL_RECURSIVE_COLUMNS (TL_RECURSIVE_LOAD_FLOATS, TL_RECURSIVE_OUT,
                        TL_RECURSIVE_STORE_OUT, TL_RECURSIVE_STORE_OUT,
                        TL_RECURSIVE_LOAD_FLOATS4, TL_RECURSIVE_OUT4,
                        TL_RECURSIVE_STORE_OUT4, TL_RECURSIVE_STORE_OUT4);
}
#endif

/* Channel CHANNEL of pixel I. */
#define TL_RECURSIVE_LOAD_CHANNEL(i)      TL_SCRATCH_CHANNEL (in, i)
#define TL_RECURSIVE_OUT_CHANNEL(i)       TL_SCRATCH_CHANNEL (out, i)
#define TL_RECURSIVE_STORE_CHANNEL(i, v)  TL_SCRATCH_STORE_CHANNEL (out, i, v)

/* A channel of a line an item, four items a line (D counts items), over
 * the scratch image (float storage: from the storage itself): IN may be
 * OUT.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_channels)
/* Argument slots: tl-args.h, TL_ARG_RECURSIVE_*. */
kernel void
tl_recursive_channels (global const tl_scratch *in,
                       global tl_scratch       *out,
                       TlDispatch               d,
                       global const float      *codec,
                       constant double         *coef,
                       int                      length,
                       int                      pitch,
                       int                      step)
{
  int2 item    = tl_item_origin (&d);
  int  channel = item.x & 3;
  int  first   = (item.x >> 2) * pitch;

  if (item.x >= d.width || item.y >= d.height)
    return;
  TL_RECURSIVE_FILTER (double, float, convert_double, convert_float,
                       TL_RECURSIVE_CHANNEL_BATCH,
                       TL_RECURSIVE_LOAD_CHANNEL, TL_RECURSIVE_OUT_CHANNEL,
                       TL_RECURSIVE_STORE_CHANNEL, TL_RECURSIVE_STORE_CHANNEL);
}
#endif

/* A row a work-group, in local memory, in segments: the row pass of
 * the group layout, whose column pass is the channel items'.
 *
 * Channel items run each line's recursion step after step, 8,192 steps
 * a line at 4096x4096, each waiting on the last (README, "Rows in local
 * memory").  Here a group reads its row into local memory (decoding the
 * storage as it reads, so narrow storage needs no pass of its own), its
 * items filter the row's channels segment by segment in parallel, and
 * the group writes the row to the scratch image: each pixel crosses
 * global memory once each way.  D counts items: 4 / CHANNELS groups a
 * row, each CHANNELS of its channels from FIRST_CHANNEL on (four, two or
 * one: what fits local memory).  Columns stay with the channel items: a
 * group reading a column takes 8 or 16 bytes of each 32-byte sector, and
 * writing the rows transposed scatters them as badly (README).
 *
 * The recursion is linear, so a segment's end state is what a run from
 * a zero state over it gives (its carry) plus the state it starts from
 * carried across its length by the bare recursion (the 3x3 matrix A^n,
 * POWERS: n the SEGMENT, a power of two, then the last, shorter,
 * segment).  Each pair of a channel and a segment finds its start by
 * folding in order the carries before it, then runs from there: four
 * phases, carries forward, the forward sweep, carries backward over its
 * results, the backward sweep from the clamp-to-edge continuation (as
 * TL_RECURSIVE_FILTER starts it).  The starts are the sequential
 * recursion's but for a rounding of doubles, so the values are the C
 * reference's but for a rounding where they meet the scratch image's
 * type (tests/test-filters.c states the tolerance); the segments being
 * fixed, every dispatch gives the same bits.
 *
 * Each channel's values lie LINE_PITCH apart, each segment followed by
 * one 32-bit word (TL_GROUP_PAD values, TL_GROUP_AT ()), so that the
 * items filtering neighbouring segments read different banks (without
 * it, 2.6 to 4 ms on the H100 against 1.1).  CARRIES holds per channel
 * the row's first value, its last, the forward sweep's end state and
 * the two sweeps' carries (TL_GROUP_CARRIES doubles); the host sizes
 * both areas by the same rules.
 */
#if TL_SCRATCH_HALF
#define TL_GROUP_PAD         2
#define TL_GROUP_LOAD(i)     vload_half ((i), line)
#define TL_GROUP_KEEP(i, v)  vstore_half_rte ((v), (i), line)
#else
#define TL_GROUP_PAD         1
#define TL_GROUP_LOAD(i)     line[i]
#define TL_GROUP_KEEP(i, v)  (line[i] = (v))
#endif

#define TL_GROUP_AT(n)             ((n) + ((n) >> segment_shift) * TL_GROUP_PAD)
#define TL_GROUP_CARRIES(segments) (8 + 6 * (segments))

/* Steps a run loads at a time from local memory, so that their loads'
 * latency is paid once for them all (TL_GROUP_RUN_BATCH), and values a
 * group's item reads from the storage at a time, so that their loads
 * are in flight together (TL_GROUP_IO_BATCH).  NVIDIA's compiler
 * schedules each storage's program its own way: on the H100 at
 * 4096x4096 the row pass took 0.61 ms in 16-bit storage reading 4 and
 * 0.83 reading 8, but 0.49 ms in float reading 4 and 0.45 reading 8
 * (in 8-bit storage 0.34 ms reading 4, 0.32 reading 1), and in 16-bit
 * storage runs of 4 steps took it on to 0.55.
 */
#if TL_STORE == TL_STORE_U16
#define TL_GROUP_RUN_BATCH 4
#define TL_GROUP_IO_BATCH  4
#elif TL_STORE == TL_STORE_U8
#define TL_GROUP_RUN_BATCH 8
#define TL_GROUP_IO_BATCH  1
#else
#define TL_GROUP_RUN_BATCH 8
#define TL_GROUP_IO_BATCH  8
#endif

/* The state S (newest first) carried on by the bare recursion (POWER,
 * 3x3, row by row), plus the carry Z: into S.
 */
inline void
tl_recursive_carry (double          *s,
                    constant double *power,
                    const double    *z)
{
  double c0 = z[0] + (power[0] * s[0] + power[1] * s[1] + power[2] * s[2]);
  double c1 = z[1] + (power[3] * s[0] + power[4] * s[1] + power[5] * s[2]);
  double c2 = z[2] + (power[6] * s[0] + power[7] * s[1] + power[8] * s[2]);

  s[0] = c0;
  s[1] = c1;
  s[2] = c2;
}

/* One run over COUNT values of the channel from AT, DIR apart, from the
 * state S (newest first) into S, in the operations and order of
 * TL_RECURSIVE_STEP; KEEPING writes each result back as the scratch
 * image keeps it.
 */
inline void
tl_recursive_run (local tl_scratch *line,
                  int               at,
                  int               dir,
                  int               count,
                  constant double  *coef,
                  double           *s,
                  bool              keeping)
{
  double w1 = s[0], w2 = s[1], w3 = s[2];
  int    n  = 0;

  for (; n + TL_GROUP_RUN_BATCH <= count; n += TL_GROUP_RUN_BATCH)
    {
      float x[TL_GROUP_RUN_BATCH];

      for (int i = 0; i < TL_GROUP_RUN_BATCH; i++)
        x[i] = TL_GROUP_LOAD (at + i * dir);
      for (int i = 0; i < TL_GROUP_RUN_BATCH; i++)
        {
          double w = TL_RECURSIVE_STEP (double, (double) x[i], w1, w2, w3);

          if (keeping)
            TL_GROUP_KEEP (at + i * dir, (float) w);
          w3 = w2;
          w2 = w1;
          w1 = w;
        }
      at += TL_GROUP_RUN_BATCH * dir;
    }
  for (; n < count; n++, at += dir)
    {
      double w = TL_RECURSIVE_STEP (double, (double) TL_GROUP_LOAD (at), w1,
                                   w2, w3);

      if (keeping)
        TL_GROUP_KEEP (at, (float) w);
      w3 = w2;
      w2 = w1;
      w1 = w;
    }
  s[0] = w1;
  s[1] = w2;
  s[2] = w3;
}

/* Carry J of a channel's CARRIES (FORWARD or backward) into Z. */
#define TL_GROUP_CARRY(own, backward, j, z)                             \
  do                                                                    \
    {                                                                   \
      int at_ = 8 + ((backward) ? 3 * segments : 0) + 3 * (j);          \
                                                                        \
      (z)[0] = (own)[at_];                                              \
      (z)[1] = (own)[at_ + 1];                                          \
      (z)[2] = (own)[at_ + 2];                                          \
    }                                                                   \
  while (0)

/* Every pair of a channel C and a segment K, its first value's place
 * FIRST and its length N, the channel's carries OWN: the statements
 * between TL_GROUP_PAIRS_BEGIN and TL_GROUP_PAIRS_END for each, an item
 * a pair, then the barrier.
 */
#define TL_GROUP_PAIRS_BEGIN                                            \
  for (int p = lid; p < channels * segments; p += group_size)           \
    {                                                                   \
      int           c     = p / segments, k = p % segments;             \
      int           n     = k + 1 < segments ? segment : last;          \
      int           first = c * line_pitch + k * (segment + TL_GROUP_PAD); \
      local double *own   = carries + c * TL_GROUP_CARRIES (segments);

#define TL_GROUP_PAIRS_END                                              \
    }                                                                   \
  barrier (CLK_LOCAL_MEM_FENCE)

/* The row's channel C of value N, as the scratch image keeps it. */
#define TL_GROUP_VALUE(c, n) TL_GROUP_LOAD ((c) * line_pitch + TL_GROUP_AT (n))

/* Rows from the storage, decoded as they are read, into the scratch
 * image (PITCH pixels from one row's start to the next's).
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_group_rows)
/* Argument slots: tl-args.h, TL_ARG_RECURSIVE_* and TL_ARG_GROUP_ROWS_*. */
kernel void
tl_recursive_group_rows (global const tl_pixel *in,
                         global tl_scratch     *out,
                         TlDispatch             d,
                         global const float    *codec,
                         constant double       *coef,
                         int                    length,
                         int                    pitch,
                         int                    channels,
                         int                    segment,
                         constant double       *powers,
                         local tl_scratch      *line,
                         local double          *carries)
{
  /* The group's part of a row and the sizes of its segments.  The
   * group's items all agree, so all of them pass the barriers or none.
   */
  int group_size    = (int) get_local_size (0);
  int lid           = (int) get_local_id (0);
  int unit          = tl_group_origin (&d).x / group_size;
  int line_index    = unit / (4 / channels);
  int first_channel = unit % (4 / channels) * channels;
  int segments      = (length + segment - 1) / segment;
  int last          = length - (segments - 1) * segment;
  int line_pitch    = length + (segments + 1) * TL_GROUP_PAD;
  int segment_shift = 31 - (int) clz (segment);

  if (tl_group_origin (&d).x >= d.width)
    return;

  /* Every value of the row, decoded, into local memory. */
  for (int from = lid; from < length; from += TL_GROUP_IO_BATCH * group_size)
    {
      float4 v[TL_GROUP_IO_BATCH];

      for (int i = 0; i < TL_GROUP_IO_BATCH; i++)
        if (from + i * group_size < length)
          v[i] = tl_scratch_round (tl_load (in, line_index * pitch + from +
                                                i * group_size, codec));
      for (int i = 0; i < TL_GROUP_IO_BATCH; i++)
        if (from + i * group_size < length)
          {
            float four[4];

            vstore4 (v[i], 0, four);
            for (int c = 0; c < channels; c++)
              TL_GROUP_KEEP (c * line_pitch +
                             TL_GROUP_AT (from + i * group_size),
                             four[first_channel + c]);
          }
    }
  barrier (CLK_LOCAL_MEM_FENCE);

  /* Each segment's forward carry; the row's ends kept. */
  TL_GROUP_PAIRS_BEGIN
      double z[3] = { 0.0, 0.0, 0.0 };

      tl_recursive_run (line, first, 1, n, coef, z, false);
      own[8 + 3 * k]     = z[0];
      own[8 + 3 * k + 1] = z[1];
      own[8 + 3 * k + 2] = z[2];
      if (k == 0)
        {
          own[0] = (double) TL_GROUP_LOAD (first);
          own[1] = (double) TL_GROUP_LOAD (c * line_pitch +
                                           TL_GROUP_AT (length - 1));
        }
  TL_GROUP_PAIRS_END;

  /* The forward sweep from each segment's start; the last segment's end
   * state kept.
   */
  TL_GROUP_PAIRS_BEGIN
      double t[3] = { own[0], own[0], own[0] };
      double z[3];

      for (int j = 0; j < k; j++)
        {
          TL_GROUP_CARRY (own, false, j, z);
          tl_recursive_carry (t, powers, z);
        }
      tl_recursive_run (line, first, 1, n, coef, t, true);
      if (k + 1 == segments)
        {
          own[2] = t[0];
          own[3] = t[1];
          own[4] = t[2];
        }
  TL_GROUP_PAIRS_END;

  /* Each segment's backward carry over the forward results. */
  TL_GROUP_PAIRS_BEGIN
      double z[3] = { 0.0, 0.0, 0.0 };

      tl_recursive_run (line, first + n - 1, -1, n, coef, z, false);
      own[8 + 3 * segments + 3 * k]     = z[0];
      own[8 + 3 * segments + 3 * k + 1] = z[1];
      own[8 + 3 * segments + 3 * k + 2] = z[2];
  TL_GROUP_PAIRS_END;

  /* The backward sweep from past the row's end, carried down. */
  TL_GROUP_PAIRS_BEGIN
      double u  = own[1];
      double d0 = own[2] - u, d1 = own[3] - u, d2 = own[4] - u;
      double t[3], z[3];

      t[0] = coef[4] * d0 + coef[5] * d1 + coef[6] * d2 + u;
      t[1] = coef[7] * d0 + coef[8] * d1 + coef[9] * d2 + u;
      t[2] = coef[10] * d0 + coef[11] * d1 + coef[12] * d2 + u;
      for (int j = segments - 1; j > k; j--)
        {
          TL_GROUP_CARRY (own, true, j, z);
          tl_recursive_carry (t, powers + (j + 1 == segments ? 9 : 0), z);
        }
      tl_recursive_run (line, first + n - 1, -1, n, coef, t, true);
  TL_GROUP_PAIRS_END;

  /* The row out into the scratch image: whole pixels where the group
   * has all four channels, else channel by channel.
   */
  for (int n = lid; n < length; n += group_size)
    {
      int at = line_index * pitch + n;

      if (channels == 4)
        TL_SCRATCH_STORE (out, at,
                          ((float4) (TL_GROUP_VALUE (0, n),
                                     TL_GROUP_VALUE (1, n),
                                     TL_GROUP_VALUE (2, n),
                                     TL_GROUP_VALUE (3, n))));
      else
        for (int c = 0; c < channels; c++)
          {
            int channel = first_channel + c;

            TL_SCRATCH_STORE_CHANNEL (out, at, TL_GROUP_VALUE (c, n));
          }
    }
}
#endif
#endif /* cl_khr_fp64 and a recursive kernel */

/* Narrow storage to the scratch image and back around the
 * channel-items' passes, under the filter's plan: this item's pixels of
 * one row.
 */
#define TL_RECURSIVE_CONVERT(STATEMENT)                                  \
  do                                                                    \
    {                                                                   \
      int2 origin = tl_item_origin (&d);                                \
      int  end    = min (origin.x + d.pixels_per_item, d.width);        \
                                                                        \
      if (origin.y >= d.height)                                         \
        break;                                                          \
      for (int i = origin.y * d.stride + origin.x;                      \
           i < origin.y * d.stride + end; i++)                          \
        STATEMENT;                                                      \
    }                                                                   \
  while (0)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_decode)
/* Argument slots: tl-args.h. */
kernel void
tl_recursive_decode (global const tl_pixel *in,
                     global tl_scratch     *out,
                     TlDispatch             d,
                     global const float    *codec)
{
  TL_RECURSIVE_CONVERT (TL_SCRATCH_STORE (out, i, tl_load (in, i, codec)));
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_recursive_store)
/* Argument slots: tl-args.h. */
kernel void
tl_recursive_store (global const tl_scratch *in,
                    global tl_pixel         *out,
                    TlDispatch               d,
                    global const float      *codec)
{
  TL_RECURSIVE_CONVERT (tl_store (out, i, TL_SCRATCH_LOAD (in, i), codec));
}
#endif

/* unsharp-mask from its recursive blur: the layer IN sharpened by
 * BLURRED, the scratch image, into OUT, under the plan.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_unsharp_combine)
/* Argument slots: tl-args.h, TL_ARG_UNSHARP_COMBINE_*. */
kernel void
tl_unsharp_combine (global const tl_pixel   *in,
                    global tl_pixel         *out,
                    TlDispatch               d,
                    global const float      *codec,
                    global const tl_scratch *blurred,
                    float                    scale)
{
  TL_RECURSIVE_CONVERT (tl_store (out, i,
                                  tl_unsharp_pixel (tl_load (in, i, codec),
                                                    TL_SCRATCH_LOAD (blurred, i),
                                                    scale),
                                  codec));
}
#endif

/* The vertical pass into a scratch image rather than the storage, for
 * filters that combine blurs (difference-of-gaussians, high-pass): the
 * same sums as tl_convolve_v, rounded as the scratch image keeps them.
 */
inline void
tl_convolve_v_keep (global const float4 *in,
                    global tl_scratch   *out,
                    const TlDispatch    *d,
                    constant float      *weights,
                    int                  radius,
                    int                  tiled,
                    local float4        *tile)
{
  int2 origin = tl_item_origin (d);
  int  end    = min (origin.x + d->pixels_per_item, d->width);
  int  row    = origin.y * d->stride;

  if (origin.y >= d->height)
    return;

  for (int x = origin.x; x < end; x++)
    TL_SCRATCH_STORE (out, row + x,
                      tl_convolve_vertical (in, d, origin.y, x, weights,
                                            radius, tiled, tile));
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_v_scratch)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_v_scratch (global const float4 *in,
                       global tl_scratch   *out,
                       TlDispatch           d,
                       global const float  *codec,
                       constant float      *weights,
                       int                  radius,
                       local float4        *tile)
{
  tl_convolve_v_keep (in, out, &d, weights, radius, 0, tile);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_convolve_v_scratch_tiled)
/* Argument slots: tl-args.h, TL_ARG_CONVOLVE_*. */
kernel void
tl_convolve_v_scratch_tiled (global const float4 *in,
                             global tl_scratch   *out,
                             TlDispatch           d,
                             global const float  *codec,
                             constant float      *weights,
                             int                  radius,
                             local float4        *tile)
{
  tl_convolve_fill_column_tile (in, &d, radius, tile);
  barrier (CLK_LOCAL_MEM_FENCE);
  tl_convolve_v_keep (in, out, &d, weights, radius, 1, tile);
}
#endif

/* difference-of-gaussians: the narrower blur less the wider one on
 * premultiplied colour, the narrower one's alpha, as GEGL's subtract
 * takes them.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_dog_combine)
/* Argument slots: tl-args.h, TL_ARG_DOG_COMBINE_*. */
kernel void
tl_dog_combine (global const tl_pixel   *in,
                global tl_pixel         *out,
                TlDispatch               d,
                global const float      *codec,
                global const tl_scratch *first,
                global const tl_scratch *second)
{
  TL_RECURSIVE_CONVERT (tl_store (out, i,
                                  tl_dog_pixel (TL_SCRATCH_LOAD (first, i),
                                                TL_SCRATCH_LOAD (second, i)),
                                  codec));
}
#endif

/* high-pass: GEGL's graph on one pixel.  The blur, inverted on the
 * perceptual curve at half opacity, goes over the layer in perceptual
 * premultiplied light; the result, back in linear premultiplied light,
 * has its contrast scaled about 0.5 between gamma 0.4545 and 2.2, as
 * GEGL's math operations take it.  V and BLURRED are linear
 * premultiplied; straight colour takes alpha no lower than
 * TL_ALPHA_FLOOR.
 *
 * The colour's part on N lanes (float##N), each lane a channel of a
 * pixel with that pixel's alpha terms (which may be scalars), into
 * RESULT: one pixel's three channels on three lanes (with a power at a
 * time PoCL's pass took twice as long), or, for four pixels at once
 * (tl_high_pass_pixels4 ()), their red and green on eight and their blue
 * on four.  Each lane takes the same operations, so the same bits.  A
 * statement, not a function: PoCL's compiler called such a function
 * rather than inline it, and two calls in a row ran one after the other.
 */
#define TL_HIGH_PASS_COLOUR(N, RESULT, V, BLURRED, V_ALPHA, ALPHA,      \
                            BLUR_ALPHA, TOP_ALPHA, OVER_ALPHA,          \
                            OVER_FLOOR)                                 \
  do                                                                    \
    {                                                                   \
      float##N top_    = (1.0f - tl_math_to_srgb##N ((BLURRED) /        \
                                                     (BLUR_ALPHA))) *   \
                         (TOP_ALPHA);                                   \
      float##N below_  = tl_math_to_srgb##N ((V) / (ALPHA)) * (V_ALPHA); \
      float##N over_   = top_ + below_ * (1.0f - (TOP_ALPHA));          \
      float##N linear_ = tl_math_from_srgb##N (over_ / (OVER_FLOOR)) *  \
                         (OVER_ALPHA);                                  \
      float##N g_      = tl_math_pow##N (linear_, 0.4545f);             \
                                                                        \
      g_     = ((g_ + -0.5f) * contrast) + 0.5f;                        \
      RESULT = tl_math_pow##N (g_, 2.2f);                               \
    }                                                                   \
  while (0)

inline float4
tl_high_pass_pixel (float4 v,
                    float4 blurred,
                    float  contrast)
{
  float  blur_alpha = max (blurred.w, TL_ALPHA_FLOOR);
  float  alpha      = max (v.w, TL_ALPHA_FLOOR);
  float  top_alpha  = blurred.w * 0.5f;
  float  over_alpha = (top_alpha + v.w) - top_alpha * v.w;
  float  over_floor = max (over_alpha, TL_ALPHA_FLOOR);
  float3 colour;

  TL_HIGH_PASS_COLOUR (3, colour, v.xyz, blurred.xyz, v.w, alpha,
                       blur_alpha, top_alpha, over_alpha, over_floor);
  return (float4) (colour, over_alpha);
}

/* tl_high_pass_pixel () on four pixels, V and BLURRED, the results into
 * V.  A pixel's chain of powers is long and each step waits for the one
 * before, so on a CPU four pixels at once go further than one: on PoCL
 * (four pixels an item) the pass took half the time of the pixel at a
 * time with a vector of four a channel, and 1.3-1.4 times less again with
 * red and green on one vector of eight.
 */
inline void
tl_high_pass_pixels4 (float4       *v,
                      const float4 *blurred,
                      float         contrast)
{
  float4 v_alpha    = (float4) (v[0].w, v[1].w, v[2].w, v[3].w);
  float4 blur_w     = (float4) (blurred[0].w, blurred[1].w, blurred[2].w,
                                blurred[3].w);
  float4 alpha      = max (v_alpha, TL_ALPHA_FLOOR);
  float4 blur_alpha = max (blur_w, TL_ALPHA_FLOOR);
  float4 top_alpha  = blur_w * 0.5f;
  float4 over_alpha = (top_alpha + v_alpha) - top_alpha * v_alpha;
  float4 over_floor = max (over_alpha, TL_ALPHA_FLOOR);
  float8 red_green;
  float4 blue;

  TL_HIGH_PASS_COLOUR (8, red_green,
                       ((float8) (v[0].x, v[1].x, v[2].x, v[3].x,
                                  v[0].y, v[1].y, v[2].y, v[3].y)),
                       ((float8) (blurred[0].x, blurred[1].x, blurred[2].x,
                                  blurred[3].x, blurred[0].y, blurred[1].y,
                                  blurred[2].y, blurred[3].y)),
                       ((float8) (v_alpha, v_alpha)),
                       ((float8) (alpha, alpha)),
                       ((float8) (blur_alpha, blur_alpha)),
                       ((float8) (top_alpha, top_alpha)),
                       ((float8) (over_alpha, over_alpha)),
                       ((float8) (over_floor, over_floor)));
  TL_HIGH_PASS_COLOUR (4, blue,
                       ((float4) (v[0].z, v[1].z, v[2].z, v[3].z)),
                       ((float4) (blurred[0].z, blurred[1].z, blurred[2].z,
                                  blurred[3].z)),
                       v_alpha, alpha, blur_alpha, top_alpha, over_alpha,
                       over_floor);
  v[0] = (float4) (red_green.s0, red_green.s4, blue.x, over_alpha.x);
  v[1] = (float4) (red_green.s1, red_green.s5, blue.y, over_alpha.y);
  v[2] = (float4) (red_green.s2, red_green.s6, blue.z, over_alpha.z);
  v[3] = (float4) (red_green.s3, red_green.s7, blue.w, over_alpha.w);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_high_pass_combine)
/* Argument slots: tl-args.h, TL_ARG_HIGH_PASS_COMBINE_*.  This item's
 * pixels four at a time (tl_high_pass_pixels4 ()), then one at a time (a
 * GPU, a pixel an item, takes this second loop alone).
 */
kernel void
tl_high_pass_combine (global const tl_pixel   *in,
                      global tl_pixel         *out,
                      TlDispatch               d,
                      global const float      *codec,
                      global const tl_scratch *blurred,
                      float                    contrast)
{
  int2 origin = tl_item_origin (&d);
  int  row    = origin.y * d.stride;
  int  i      = row + origin.x;
  int  end    = row + min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;

  for (; i + 4 <= end; i += 4)
    {
      float4 v[4] = { tl_load (in, i, codec), tl_load (in, i + 1, codec),
                      tl_load (in, i + 2, codec), tl_load (in, i + 3, codec) };
      float4 b[4] = { TL_SCRATCH_LOAD (blurred, i),
                      TL_SCRATCH_LOAD (blurred, i + 1),
                      TL_SCRATCH_LOAD (blurred, i + 2),
                      TL_SCRATCH_LOAD (blurred, i + 3) };

      tl_high_pass_pixels4 (v, b, contrast);
      tl_store (out, i, v[0], codec);
      tl_store (out, i + 1, v[1], codec);
      tl_store (out, i + 2, v[2], codec);
      tl_store (out, i + 3, v[3], codec);
    }
  for (; i < end; i++)
    tl_store (out, i, tl_high_pass_pixel (tl_load (in, i, codec),
                                          TL_SCRATCH_LOAD (blurred, i),
                                          contrast), codec);
}
#endif

/* box-blur from TL_BOX_MIN_RADIUS up: running sums, whose cost does not
 * grow with the radius (engine/filters/tl-filter-box.c holds the C reference).
 * Each value enters the sums as a whole number of 2^-32
 * (tl_box_quantum ()), so every sum is exact in 64-bit integers (or in
 * doubles, below) whatever order it is taken in: a work-item starts its run of a line with the
 * whole window, then adds the value entering it and takes away the one
 * leaving, two loads a pixel at any radius, and gets the bits of the sum
 * taken directly.  The rows' means go to a scratch image of working
 * floats, whose columns are summed the same way into the storage.
 */

/* Values in whole 2^-32, within 2^52 of zero so that the 2001 values of
 * a window at radius 1000 cannot overflow; NaN counts as zero.  The C
 * reference's tl_box_quantum () does the same.
 */
#define TL_BOX_LIMIT 0x1p52f

/* Loads at a time, the values entering and those leaving the window: on
 * the H100 at 4096x4096 eight took the two passes from 1.90 to 1.23 ms in
 * float, sixteen spilled registers in 8-bit storage.
 */
#define TL_BOX_BATCH 8

#if (TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16) && \
    defined (cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* 8-bit and 16-bit codes decode to 0 to 1, and their rows' means stay
 * within a rounding of that: no value needs the guard, and a window's sum
 * stays far below 2^21, where doubles still count in whole 2^-32.  So
 * the sums run in doubles, bit for bit those of the integers: adding and
 * taking away 1.5 x 2^20 rounds a value to whole 2^-32 (a double's step
 * from 2^20 to 2^21), as rounding to nearest, ties to even, would.  On
 * PoCL the integers' rounding conversion took some twenty instructions a
 * pixel (README).
 */
#define TL_BOX_SUM double4

inline double4
tl_box_quantum (float4 v)
{
  return (convert_double4 (v) + 0x1.8p20) - 0x1.8p20;
}

/* SUM in whole 2^-32, as the integers count, to the nearest float. */
inline float4
tl_box_units (double4 sum)
{
  return convert_float4 (sum * 0x1p32);
}
#else
#define TL_BOX_SUM long4

inline long4
tl_box_quantum (float4 v)
{
  float4 scaled = v * 0x1p32f;

  /* 8-bit and 16-bit codes decode to 0 to 1, and their rows' means stay
   * there: nothing to guard.
   */
#if TL_STORE != TL_STORE_U8 && TL_STORE != TL_STORE_U16
  scaled = select (scaled, (float4) 0.0f, isnan (scaled));
  scaled = clamp (scaled, -TL_BOX_LIMIT, TL_BOX_LIMIT);
#endif
  return convert_long4_rte (scaled);
}

inline float4
tl_box_units (long4 sum)
{
  return convert_float4 (sum);
}
#endif

/* Work-item N's run of a line: the line is N modulo LINES (neighbouring
 * items on neighbouring lines, so that the column pass reads whole rows),
 * its run the next RUN pixels from RUN times N / LINES.  Each output is
 * SCALE times its window's sum; LOAD (i) and STORE (i, v) read and write
 * pixel I of the image, LENGTH pixels a line, PITCH between lines' starts
 * and STEP between neighbours.
 */
#define TL_BOX_RUN(LOAD, STORE)                                         \
  do                                                                    \
    {                                                                   \
      int   n = tl_item_origin (&d).x;                                  \
      int   first, start, end, x;                                       \
      TL_BOX_SUM sum = 0;                                               \
                                                                        \
      if (n >= d.width)                                                 \
        break;                                                          \
      first = (n % lines) * pitch;                                      \
      start = (n / lines) * run;                                        \
      end   = min (start + run, length);                                \
      for (int i = start - radius; i <= start + radius; i++)            \
        sum += tl_box_quantum (LOAD (first + clamp (i, 0, length - 1) * step)); \
      STORE (first + start * step, tl_box_units (sum) * scale);        \
      /* Whole batches (a constant count keeps them in registers), then \
       * the rest a pixel at a time.                                   \
       */                                                             \
      for (x = start + 1; x + TL_BOX_BATCH <= end; x += TL_BOX_BATCH)   \
        TL_BOX_SLIDE (LOAD, STORE, TL_BOX_BATCH);                       \
      for (; x < end; x++)                                              \
        TL_BOX_SLIDE (LOAD, STORE, 1);                                  \
    }                                                                   \
  while (0)

/* COUNT steps of the window from X: every load first, then the sums. */
#define TL_BOX_SLIDE(LOAD, STORE, COUNT)                                \
  do                                                                    \
    {                                                                   \
      float4 enter[COUNT], leave[COUNT];                                \
                                                                        \
      for (int i = 0; i < COUNT; i++)                                   \
        {                                                               \
          enter[i] = LOAD (first + min (x + i + radius, length - 1) * step); \
          leave[i] = LOAD (first + max (x + i - radius - 1, 0) * step); \
        }                                                               \
      for (int i = 0; i < COUNT; i++)                                   \
        {                                                               \
          sum += tl_box_quantum (enter[i]) - tl_box_quantum (leave[i]); \
          STORE (first + (x + i) * step, tl_box_units (sum) * scale);  \
        }                                                               \
    }                                                                   \
  while (0)

#define TL_BOX_LOAD_STORAGE(i)     tl_load (in, (i), codec)
#define TL_BOX_LOAD_SCRATCH(i)     in[i]
#define TL_BOX_STORE_SCRATCH(i, v) (out[i] = (v))
#define TL_BOX_STORE_STORAGE(i, v) tl_store (out, (i), (v), codec)

/* Rows, from the storage into the scratch image. */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_box_rows)
/* Argument slots: tl-args.h, TL_ARG_BOX_*. */
kernel void
tl_box_rows (global const tl_pixel *in,
             global float4         *out,
             TlDispatch             d,
             global const float    *codec,
             float                  scale,
             int                    radius,
             int                    length,
             int                    pitch,
             int                    step,
             int                    lines,
             int                    run)
{
  TL_BOX_RUN (TL_BOX_LOAD_STORAGE, TL_BOX_STORE_SCRATCH);
}
#endif

/* Columns, from the scratch image into the storage. */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_box_columns)
/* Argument slots: tl-args.h, TL_ARG_BOX_*. */
kernel void
tl_box_columns (global const float4 *in,
                global tl_pixel     *out,
                TlDispatch           d,
                global const float  *codec,
                float                scale,
                int                  radius,
                int                  length,
                int                  pitch,
                int                  step,
                int                  lines,
                int                  run)
{
  TL_BOX_RUN (TL_BOX_LOAD_SCRATCH, TL_BOX_STORE_STORAGE);
}
#endif
