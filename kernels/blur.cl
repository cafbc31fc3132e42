/* ThreadLens: separable convolution with clamp-to-edge borders, for every
 * blur: gaussian-blur, box-blur (equal weights) and unsharp-mask.
 *
 * The host computes the weights once (shared with the C references in
 * engine/tl-filter-blur.c, so both sum the same numbers in the same order)
 * and runs the horizontal pass, then a vertical one, with the same
 * dispatch.  The horizontal pass reads the layer's storage and writes
 * working floats; the vertical one reads those and writes the storage.
 *
 * With TILED set, a work-group first copies the pixels its items need
 * (its own span plus the radius on both sides) into local memory, each
 * pixel loaded and decoded once, and the taps then read local memory.
 * The host sets TILED when the tile fits the device's local memory and
 * the plan fixes the group shape; otherwise the taps read global memory.
 * Both ways give the same bits.
 *
 * Every kernel takes (in, out, dispatch, codec, weights, radius, tiled,
 * tile) first, so one host function drives them all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add: box-blur and unsharp-mask equal their C
 * references bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Each pixel of the item's run of D->pixels_per_item, from taps at
 * TAPS[0..2 radius] with STEP between them.
 */
inline float4
tl_convolve_local (local const float4 *taps,
                   int                 step,
                   constant float     *weights,
                   int                 radius)
{
  float4 sum = 0.0f;

  for (int i = 0; i <= 2 * radius; i++)
    sum += weights[i] * taps[i * step];
  return sum;
}

/* The first pixel, in x, of the work-group's span. */
inline int
tl_convolve_group_first (const TlDispatch *d)
{
  return tl_item_origin (d).x - (int) get_local_id (0) * d->pixels_per_item;
}

/* Kernels with a tile work out their indices again after the barrier:
 * PoCL 3.1 loses private values carried across a barrier that sits in a
 * branch, and the idle items of a uniform grid then write out of bounds.
 */
kernel void
tl_convolve_h (global const tl_pixel *in,
               global float4         *out,
               TlDispatch             d,
               global const float    *codec,
               constant float        *weights,
               int                    radius,
               int                    tiled,
               local float4          *tile)
{
  int2 origin;
  int  end, row;

  if (tiled)
    {
      /* One tile row per local row: the group's span and the halo. */
      int           lw    = get_local_size (0);
      int           span  = lw * d.pixels_per_item + 2 * radius;
      int           first = tl_convolve_group_first (&d) - radius;
      int           y     = min (tl_item_origin (&d).y, d.height - 1) * d.stride;
      local float4 *line  = tile + get_local_id (1) * span;

      for (int i = get_local_id (0); i < span; i += lw)
        line[i] = tl_load (in, y + clamp (first + i, 0, d.width - 1), codec);
      barrier (CLK_LOCAL_MEM_FENCE);
    }

  origin = tl_item_origin (&d);
  end    = min (origin.x + d.pixels_per_item, d.width);
  row    = origin.y * d.stride;
  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum = 0.0f;

      if (tiled)
        {
          int           span = get_local_size (0) * d.pixels_per_item + 2 * radius;
          local float4 *taps = tile + get_local_id (1) * span +
                               (x - tl_convolve_group_first (&d));

          sum = tl_convolve_local (taps, 1, weights, radius);
        }
      else
        {
          for (int i = -radius; i <= radius; i++)
            sum += weights[i + radius] *
                   tl_load (in, row + clamp (x + i, 0, d.width - 1), codec);
        }
      out[row + x] = sum;
    }
}

/* The vertical sum at column X of the item's row, from global memory. */
inline float4
tl_convolve_column (global const float4 *in,
                    const TlDispatch    *d,
                    int                  y,
                    int                  x,
                    constant float      *weights,
                    int                  radius)
{
  float4 sum = 0.0f;

  for (int i = -radius; i <= radius; i++)
    sum += weights[i + radius] *
           in[clamp (y + i, 0, d->height - 1) * d->stride + x];
  return sum;
}

/* Fills the vertical tile: the group's columns, its rows and RADIUS rows
 * above and below; the caller waits at the barrier.
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

/* The vertical sum at column X of the item's row: from the tile when
 * there is one.
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
  int cols = get_local_size (0) * d->pixels_per_item;

  if (! tiled)
    return tl_convolve_column (in, d, y, x, weights, radius);
  return tl_convolve_local (tile + get_local_id (1) * cols +
                            (x - tl_convolve_group_first (d)),
                            cols, weights, radius);
}

kernel void
tl_convolve_v (global const float4 *in,
               global tl_pixel     *out,
               TlDispatch           d,
               global const float  *codec,
               constant float      *weights,
               int                  radius,
               int                  tiled,
               local float4        *tile)
{
  int2 origin;
  int  end, row;

  if (tiled)
    {
      tl_convolve_fill_column_tile (in, &d, radius, tile);
      barrier (CLK_LOCAL_MEM_FENCE);
    }

  origin = tl_item_origin (&d);
  end    = min (origin.x + d.pixels_per_item, d.width);
  row    = origin.y * d.stride;
  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    tl_store (out, row + x,
              tl_convolve_vertical (in, &d, origin.y, x, weights, radius,
                                    tiled, tile),
              codec);
}

/* unsharp-mask's vertical pass: the vertical convolution of the
 * horizontally blurred image, then in + scale * (in - blurred) on colour,
 * alpha kept.
 */
kernel void
tl_unsharp_v (global const float4   *blurred,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              constant float        *weights,
              int                    radius,
              int                    tiled,
              local float4          *tile,
              global const tl_pixel *in,
              float                  scale)
{
  int2 origin;
  int  end, row;

  if (tiled)
    {
      tl_convolve_fill_column_tile (blurred, &d, radius, tile);
      barrier (CLK_LOCAL_MEM_FENCE);
    }

  origin = tl_item_origin (&d);
  end    = min (origin.x + d.pixels_per_item, d.width);
  row    = origin.y * d.stride;
  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 v   = tl_load (in, row + x, codec);
      float4 sum = tl_convolve_vertical (blurred, &d, origin.y, x, weights,
                                         radius, tiled, tile);

      tl_store (out, row + x,
                (float4) (v.xyz + scale * (v.xyz - sum.xyz), v.w), codec);
    }
}
