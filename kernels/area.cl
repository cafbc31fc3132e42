/* ThreadLens: area filters (edge-sobel, pixelize), after GEGL's operations
 * of the same names, with clamp-to-edge borders.  unsharp-mask is a
 * separable convolution (kernels/blur.cl), box-blur a running sum
 * (kernels/box.cl).
 *
 * Each kernel computes the same sums, in the same order, as its C
 * reference in engine/tl-filter-area.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* edge-sobel: GEGL's default (both directions, magnitude) per colour
 * channel, scaled by 1 / sqrt (32), alpha of the centre pixel kept.  The
 * three columns of a pixel's window are loaded once and shifted along, so
 * k pixels per work-item load k + 2 columns, not 3 k.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_sobel)
kernel void
tl_area_sobel (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec)
{
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    top, mid, bottom;
  float4 t0, t1, t2, m0, m1, m2, b0, b1, b2;

  if (origin.y >= d.height || origin.x >= d.width)
    return;

  top    = clamp (origin.y - 1, 0, d.height - 1) * d.stride;
  mid    = origin.y * d.stride;
  bottom = clamp (origin.y + 1, 0, d.height - 1) * d.stride;

  t0 = tl_load (in, top + max (origin.x - 1, 0), codec);
  m0 = tl_load (in, mid + max (origin.x - 1, 0), codec);
  b0 = tl_load (in, bottom + max (origin.x - 1, 0), codec);
  t1 = tl_load (in, top + origin.x, codec);
  m1 = tl_load (in, mid + origin.x, codec);
  b1 = tl_load (in, bottom + origin.x, codec);

  for (int x = origin.x; x < end; x++)
    {
      int    right = min (x + 1, d.width - 1);
      float4 hor, ver, gradient;

      t2 = tl_load (in, top + right, codec);
      m2 = tl_load (in, mid + right, codec);
      b2 = tl_load (in, bottom + right, codec);

      hor  = (-1.0f * t0) + (1.0f * t2);
      hor += (-2.0f * m0) + (2.0f * m2);
      hor += (-1.0f * b0) + (1.0f * b2);

      ver  = (1.0f * t0) + (2.0f * t1) + (1.0f * t2);
      ver += (-1.0f * b0) + (-2.0f * b1) + (-1.0f * b2);

      gradient = sqrt (hor * hor + ver * ver) / 5.656854f;
      tl_store (out, mid + x, (float4) (gradient.xyz, m1.w), codec);

      t0 = t1; m0 = m1; b0 = b1;
      t1 = t2; m1 = m2; b1 = b2;
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
 * order of the C reference (engine/tl-filter-area.c).
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
