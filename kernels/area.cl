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
 * aligned to the region's origin and cut at its edges.  Consecutive
 * pixels of one work-item in the same block re-use its mean; the block
 * is found by one division per item, then by stepping.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_area_pixelize)
kernel void
tl_area_pixelize (global const tl_pixel *in,
                  global tl_pixel       *out,
                  TlDispatch             d,
                  global const float    *codec,
                  int                    size,
                  int                    anchor_x,
                  int                    anchor_y)
{
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    y0, y1, x0, block = INT_MIN;
  float4 mean = 0.0f;

  if (origin.y >= d.height || origin.x >= d.width)
    return;

  /* Blocks sit on the layer's grid: the region starts ANCHOR pixels
   * past a block's corner, so tiles of one layer agree.
   */
  y0 = (origin.y + anchor_y) / size * size - anchor_y;
  y1 = min (y0 + size, d.height);
  y0 = max (y0, 0);
  x0 = (origin.x + anchor_x) / size * size - anchor_x;

  for (int x = origin.x; x < end; x++)
    {
      if (x >= x0 + size)
        x0 += size;
      if (x0 != block)
        {
          int    x1  = min (x0 + size, d.width);
          float4 sum = 0.0f;

          for (int v = y0; v < y1; v++)
            for (int u = max (x0, 0); u < x1; u++)
              sum += tl_load (in, v * d.stride + u, codec);
          mean  = sum / (float) ((y1 - y0) * (x1 - max (x0, 0)));
          block = x0;
        }
      tl_store (out, origin.y * d.stride + x, mean, codec);
    }
}
#endif
