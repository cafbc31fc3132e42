/* ThreadLens: area filters (edge-sobel, pixelize), after GEGL's operations
 * of the same names, with clamp-to-edge borders.  box-blur and
 * unsharp-mask are separable convolutions: kernels/blur.cl.
 *
 * Each kernel computes the same sums, in the same order, as its C
 * reference in engine/tl-filter-area.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* edge-sobel: GEGL's default (both directions, magnitude) per colour
 * channel, scaled by 1 / sqrt (32), alpha of the centre pixel kept.  A
 * work-item's pixels slide along one row: the three columns of a pixel's
 * window are kept and shifted, so k pixels load k + 2 columns, not 3 k.
 * The tiled twin loads the group's block once, decoded, into local
 * memory (tl_load_block ()) and slides along it; both make each pixel
 * from the same nine values by tl_sobel_pixel (), so the bits agree.
 */
inline float4
tl_sobel_pixel (float4 t0, float4 t1, float4 t2,
                float4 m0, float4 m1, float4 m2,
                float4 b0, float4 b1, float4 b2)
{
  float4 hor, ver, gradient;

  hor  = (-1.0f * t0) + (1.0f * t2);
  hor += (-2.0f * m0) + (2.0f * m2);
  hor += (-1.0f * b0) + (1.0f * b2);

  ver  = (1.0f * t0) + (2.0f * t1) + (1.0f * t2);
  ver += (-1.0f * b0) + (-2.0f * b1) + (-1.0f * b2);

  gradient = sqrt (hor * hor + ver * ver) / 5.656854f;
  return (float4) (gradient.xyz, m1.w);
}

/* The sliding window over the item's pixels: LOAD (row, column) gives
 * the window's values, row -1 to 1 around the item's, column counted
 * from the item's first pixel (-1 the one before it).
 */
#define TL_SOBEL_SLIDE(LOAD)                                            \
  do                                                                    \
    {                                                                   \
      float4 t0 = LOAD (-1, -1), m0 = LOAD (0, -1), b0 = LOAD (1, -1);  \
      float4 t1 = LOAD (-1, 0), m1 = LOAD (0, 0), b1 = LOAD (1, 0);     \
                                                                        \
      for (int x = origin.x; x < end; x++)                              \
        {                                                               \
          int    i  = x - origin.x + 1;                                 \
          float4 t2 = LOAD (-1, i), m2 = LOAD (0, i), b2 = LOAD (1, i); \
                                                                        \
          tl_store (out, origin.y * d.stride + x,                       \
                    tl_sobel_pixel (t0, t1, t2, m0, m1, m2, b0, b1, b2), \
                    codec);                                             \
          t0 = t1; m0 = m1; b0 = b1;                                    \
          t1 = t2; m1 = m2; b1 = b2;                                    \
        }                                                               \
    }                                                                   \
  while (0)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_sobel)
kernel void
tl_area_sobel (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec,
               local float4          *block)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height || origin.x >= d.width)
    return;

#define TL_SOBEL_GLOBAL(row, col)                                       \
  tl_load (in, clamp (origin.y + (row), 0, d.height - 1) * d.stride +   \
               clamp (origin.x + (col), 0, d.width - 1), codec)
  TL_SOBEL_SLIDE (TL_SOBEL_GLOBAL);
#undef TL_SOBEL_GLOBAL
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_sobel_tiled)
kernel void
tl_area_sobel_tiled (global const tl_pixel *in,
                     global tl_pixel       *out,
                     TlDispatch             d,
                     global const float    *codec,
                     local float4          *block)
{
  tl_load_block (in, &d, codec, 1, block);
  barrier (CLK_LOCAL_MEM_FENCE);
  {
    int2 origin = tl_item_origin (&d);
    int  end    = min (origin.x + d.pixels_per_item, d.width);
    int  cols   = tl_block_cols (&d, 1);
    local const float4 *centre = block + (get_local_id (1) + 1) * cols + 1 +
                                 get_local_id (0) * d.pixels_per_item;

    if (origin.y >= d.height || origin.x >= d.width)
      return;

#define TL_SOBEL_LOCAL(row, col) centre[(row) * cols + (col)]
    TL_SOBEL_SLIDE (TL_SOBEL_LOCAL);
#undef TL_SOBEL_LOCAL
  }
}
#endif

/* pixelize: each pixel takes the mean of its size x size block, blocks
 * aligned to the region's origin by ANCHOR and cut at its edges.  Three
 * passes, so the layer is read once and written once whatever the size:
 * the sum of each block's part of each row (one work-item a part), the
 * mean of each block from its rows' sums (one work-item a block), then
 * each pixel its block's mean under the plan's dispatch.  The sums run
 * in the order of the C reference (engine/tl-filter-area.c).
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
                   global float4       *means,
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
  means[line] = sum / (float) ((rows.y - rows.x) * (cols.y - cols.x));
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_pixelize)
kernel void
tl_area_pixelize (global const float4 *means,
                  global tl_pixel     *out,
                  TlDispatch           d,
                  global const float  *codec,
                  int                  size,
                  int                  anchor_x,
                  int                  anchor_y,
                  int                  blocks_x)
{
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    bx, next;
  global const float4 *row;

  if (origin.y >= d.height || origin.x >= d.width)
    return;

  /* One division an item; then the block steps along. */
  bx   = (origin.x + anchor_x) / size;
  next = (bx + 1) * size - anchor_x;
  row  = means + ((origin.y + anchor_y) / size) * blocks_x;
  for (int x = origin.x; x < end; x++)
    {
      if (x >= next)
        {
          bx++;
          next += size;
        }
      tl_store (out, origin.y * d.stride + x, row[bx], codec);
    }
}
#endif
