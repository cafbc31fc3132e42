/* ThreadLens: area filters (edge-sobel, pixelize), after GEGL's operations
 * of the same names, with clamp-to-edge borders.  unsharp-mask is a
 * separable convolution (kernels/blur.cl), box-blur a running sum
 * (kernels/box.cl).
 *
 * Each kernel computes the same sums, in the same order, as its C
 * reference in engine/filters/tl-filter-area.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* edge-sobel: GEGL's default (both directions, magnitude) per colour
 * channel, scaled by 1 / sqrt (32), alpha of the centre pixel kept.  An
 * item's window moves along its pixels a column at a time, so k pixels
 * load k + 2 columns of three rows, not 3 k, and each column's
 * separable terms are formed once.  In 8-bit storage an item
 * of four aligned pixels loads each row's four in one access, and sRGB
 * codes decode from a copy of the table in local memory where that is a
 * store of its own (TL_DECODE_LOCAL), since each pixel is decoded about
 * 4.5 times.  On the H100 (4096x4096, u8) the two took edge-sobel from
 * 0.152 to 0.133 ms.
 */

#if TL_STORE == TL_STORE_U8
/* A pixel of 8-bit storage as one word, decoded through the local copy
 * of the table where there is one.
 */
inline float4
tl_sobel_decode (uint                word,
                 global const float *codec,
                 local const float  *table)
{
#ifdef TL_DECODE_LOCAL
  return tl_decode_local (tl_word_codes (word), table);
#else
  return tl_decode (tl_word_codes (word), codec);
#endif
}
#endif

/* Pixel I of the layer, decoded. */
inline float4
tl_sobel_load (global const tl_pixel *in,
               int                    i,
               global const float    *codec,
               local const float     *table)
{
#ifdef TL_DECODE_LOCAL
  return tl_sobel_decode (((global const uint *) in)[i], codec, table);
#else
  return tl_load (in, i, codec);
#endif
}

#if TL_STORE == TL_STORE_U8
/* 16-bit storage ran 2% slower on the H100 with its runs of four. */
#define TL_SOBEL_RUNS 1

/* Pixels I to I + 3, I a multiple of 4, decoded: one 16-byte load,
 * taken apart with shifts.
 */
inline void
tl_sobel_load4 (global const tl_pixel *in,
                int                    i,
                global const float    *codec,
                local const float     *table,
                float4                *v)
{
  uint4 words = ((global const uint4 *) in)[i >> 2];

  v[0] = tl_sobel_decode (words.x, codec, table);
  v[1] = tl_sobel_decode (words.y, codec, table);
  v[2] = tl_sobel_decode (words.z, codec, table);
  v[3] = tl_sobel_decode (words.w, codec, table);
}
#endif

/* One column of the window, rows T, M and B: its vertical smoothing
 * (1 2 1) and its vertical difference (1 0 -1).  Sobel's kernels are
 * separable, so each column's terms serve the three outputs whose window
 * holds it.
 */
inline void
tl_sobel_column (float4  t,
                 float4  m,
                 float4  b,
                 float4 *smooth,
                 float4 *diff)
{
  *smooth = (t + 2.0f * m) + b;
  *diff   = t - b;
}

/* The output from the terms of its left, middle and right columns:
 * the horizontal gradient is the right column's smoothing less the
 * left's, the vertical one the differences smoothed across.  Scaling
 * the squares by 2^-5 is exact, where dividing the root by sqrt (32)
 * rounded twice.
 */
inline float4
tl_sobel_pixel (float4 smooth_left,
                float4 diff_left,
                float4 diff_mid,
                float4 smooth_right,
                float4 diff_right,
                float  alpha)
{
  float4 hor      = smooth_right - smooth_left;
  float4 ver      = (diff_left + 2.0f * diff_mid) + diff_right;
  float4 gradient = sqrt ((hor * hor + ver * ver) * 0.03125f);

  return (float4) (gradient.xyz, alpha);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_sobel)
/* Argument slots: tl-args.h. */
kernel void
tl_area_sobel (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec)
{
#ifdef TL_DECODE_LOCAL
  local float        table_copy[TL_CODE_MAX + 1];
  local const float *table = table_copy;
#else
  local const float *table = 0;
#endif
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    x      = origin.x;
  int    top, mid, bottom;
  float4 s0, v0, s1, v1, s2, v2, m1;

#ifdef TL_DECODE_LOCAL
  tl_codec_to_local (codec, table_copy);
#endif
  if (origin.y >= d.height || origin.x >= d.width)
    return;

  top    = clamp (origin.y - 1, 0, d.height - 1) * d.stride;
  mid    = origin.y * d.stride;
  bottom = clamp (origin.y + 1, 0, d.height - 1) * d.stride;

  tl_sobel_column (tl_sobel_load (in, top + max (x - 1, 0), codec, table),
                   tl_sobel_load (in, mid + max (x - 1, 0), codec, table),
                   tl_sobel_load (in, bottom + max (x - 1, 0), codec, table),
                   &s0, &v0);

#ifdef TL_SOBEL_RUNS
  /* The GPU rule's item, four aligned pixels, as one run.  Items of
   * other widths go a column at a time: a loop over runs took eight
   * more registers and lost a third of the gain on the H100.
   */
  if (end - x == 4 && ((top + x) & 3) == 0 && ((mid + x) & 3) == 0 &&
      ((bottom + x) & 3) == 0)
    {
      float4 t[4], m[4], b[4], s[4], v[4], run[4];
      int    right = min (x + 4, d.width - 1);

      tl_sobel_load4 (in, top + x, codec, table, t);
      tl_sobel_load4 (in, mid + x, codec, table, m);
      tl_sobel_load4 (in, bottom + x, codec, table, b);
      for (int i = 0; i < 4; i++)
        tl_sobel_column (t[i], m[i], b[i], &s[i], &v[i]);
      tl_sobel_column (tl_sobel_load (in, top + right, codec, table),
                       tl_sobel_load (in, mid + right, codec, table),
                       tl_sobel_load (in, bottom + right, codec, table),
                       &s2, &v2);

      run[0] = tl_sobel_pixel (s0, v0, v[0], s[1], v[1], m[0].w);
      run[1] = tl_sobel_pixel (s[0], v[0], v[1], s[2], v[2], m[1].w);
      run[2] = tl_sobel_pixel (s[1], v[1], v[2], s[3], v[3], m[2].w);
      run[3] = tl_sobel_pixel (s[2], v[2], v[3], s2, v2, m[3].w);
      tl_store4 (out, mid + x, run, codec);
      return;
    }
#endif

  m1 = tl_sobel_load (in, mid + x, codec, table);
  tl_sobel_column (tl_sobel_load (in, top + x, codec, table), m1,
                   tl_sobel_load (in, bottom + x, codec, table), &s1, &v1);

  for (; x < end; x++)
    {
      int    right = min (x + 1, d.width - 1);
      float4 m2    = tl_sobel_load (in, mid + right, codec, table);

      tl_sobel_column (tl_sobel_load (in, top + right, codec, table), m2,
                       tl_sobel_load (in, bottom + right, codec, table),
                       &s2, &v2);
      tl_store (out, mid + x, tl_sobel_pixel (s0, v0, v1, s2, v2, m1.w),
                codec);
      s0 = s1; v0 = v1;
      s1 = s2; v1 = v2; m1 = m2;
    }
}
#endif

/* pixelize: each pixel takes the mean of its size x size block, blocks
 * aligned to the region's origin by ANCHOR and cut at its edges.  Three
 * passes, so the layer is read once and written once whatever the size:
 * the sum of each block's part of each row (one work-item a part), the
 * mean of each block from its rows' sums, encoded into the storage (one
 * work-item a block), then each pixel a copy of its block's stored mean
 * under the plan's dispatch: every pixel of a block encodes the same
 * mean, so encoding it once gives the same bits.  The sums run in the
 * order of the C reference (engine/filters/tl-filter-area.c).
 */

/* The first pixel of block BLOCK (from the grid's corner) along a line
 * of LENGTH pixels, and one past its last, cut at the line's ends.
 */
inline int2
tl_pixelize_span (int block,
                  int size,
                  int anchor,
                  int length)
{
  int first = block * size - anchor;

  return (int2) (max (first, 0), min (first + size, length));
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_pixelize_rows)
/* Argument slots: tl-args.h, TL_ARG_PIXELIZE_ROWS_*. */
kernel void
tl_pixelize_rows (global const tl_pixel *in,
                  global float4         *sums,
                  TlDispatch             d,
                  global const float    *codec,
                  int                    size,
                  int                    anchor_x,
                  int                    blocks_x,
                  int                    width)
{
  int    line = tl_item_origin (&d).x;
  int    y, block;
  int2   span;
  float4 sum = 0.0f;

  /* A line pass: D counts the parts, not pixels. */
  if (line >= d.width)
    return;
  y     = line / blocks_x;
  block = line - y * blocks_x;
  span  = tl_pixelize_span (block, size, anchor_x, width);
  for (int u = span.x; u < span.y; u++)
    sum += tl_load (in, y * width + u, codec);
  sums[line] = sum;
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_pixelize_means)
/* Argument slots: tl-args.h, TL_ARG_PIXELIZE_MEANS_*. */
kernel void
tl_pixelize_means (global const float4 *sums,
                   global tl_pixel     *means,
                   TlDispatch           d,
                   global const float  *codec,
                   int                  size,
                   int                  anchor_x,
                   int                  anchor_y,
                   int                  blocks_x,
                   int                  width,
                   int                  height)
{
  int    line = tl_item_origin (&d).x;
  int    by, bx;
  int2   cols, rows;
  float4 sum = 0.0f;

  if (line >= d.width)
    return;
  by   = line / blocks_x;
  bx   = line - by * blocks_x;
  cols = tl_pixelize_span (bx, size, anchor_x, width);
  rows = tl_pixelize_span (by, size, anchor_y, height);
  for (int v = rows.x; v < rows.y; v++)
    sum += sums[v * blocks_x + bx];
  tl_store (means, line, sum / (float) ((rows.y - rows.x) * (cols.y - cols.x)),
            codec);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_pixelize)
/* Argument slots: tl-args.h, TL_ARG_AREA_PIXELIZE_*. */
kernel void
tl_area_pixelize (global const tl_pixel *means,
                  global tl_pixel       *out,
                  TlDispatch             d,
                  global const float    *codec,
                  int                    size,
                  int                    anchor_x,
                  int                    anchor_y,
                  int                    blocks_x)
{
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    bx, next, row;

  if (origin.y >= d.height || origin.x >= d.width)
    return;

  /* One division an item; then the block steps along. */
  bx   = (origin.x + anchor_x) / size;
  next = (bx + 1) * size - anchor_x;
  row  = ((origin.y + anchor_y) / size) * blocks_x;
  for (int x = origin.x; x < end; x++)
    {
      if (x >= next)
        {
          bx++;
          next += size;
        }
      tl_copy (out, origin.y * d.stride + x, means, row + bx);
    }
}
#endif
