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
kernel void
tl_area_sobel (global const float4 *in,
               global float4       *out,
               TlDispatch           d)
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

  t0 = in[top + max (origin.x - 1, 0)];
  m0 = in[mid + max (origin.x - 1, 0)];
  b0 = in[bottom + max (origin.x - 1, 0)];
  t1 = in[top + origin.x];
  m1 = in[mid + origin.x];
  b1 = in[bottom + origin.x];

  for (int x = origin.x; x < end; x++)
    {
      int    right = min (x + 1, d.width - 1);
      float4 hor, ver, gradient;

      t2 = in[top + right];
      m2 = in[mid + right];
      b2 = in[bottom + right];

      hor  = (-1.0f * t0) + (1.0f * t2);
      hor += (-2.0f * m0) + (2.0f * m2);
      hor += (-1.0f * b0) + (1.0f * b2);

      ver  = (1.0f * t0) + (2.0f * t1) + (1.0f * t2);
      ver += (-1.0f * b0) + (-2.0f * b1) + (-1.0f * b2);

      gradient = sqrt (hor * hor + ver * ver) / 5.656854f;
      out[mid + x] = (float4) (gradient.xyz, m1.w);

      t0 = t1; m0 = m1; b0 = b1;
      t1 = t2; m1 = m2; b1 = b2;
    }
}

/* pixelize: each pixel takes the mean of its size x size block, blocks
 * aligned to the region's origin and cut at its edges.  Consecutive
 * pixels of one work-item in the same block re-use its mean.
 */
kernel void
tl_area_pixelize (global const float4 *in,
                  global float4       *out,
                  TlDispatch           d,
                  int                  size)
{
  int2   origin = tl_item_origin (&d);
  int    end    = min (origin.x + d.pixels_per_item, d.width);
  int    y0, y1, block = -1;
  float4 mean = 0.0f;

  if (origin.y >= d.height)
    return;

  y0 = origin.y / size * size;
  y1 = min (y0 + size, d.height);

  for (int x = origin.x; x < end; x++)
    {
      int x0 = x / size * size;

      if (x0 != block)
        {
          int    x1  = min (x0 + size, d.width);
          float4 sum = 0.0f;

          for (int v = y0; v < y1; v++)
            for (int u = x0; u < x1; u++)
              sum += in[v * d.stride + u];
          mean  = sum / (float) ((y1 - y0) * (x1 - x0));
          block = x0;
        }
      out[origin.y * d.stride + x] = mean;
    }
}
