/* ThreadLens: edge-preserving smoothing (bilateral-filter, snn-mean),
 * after GEGL's operations of the same names, with clamp-to-edge borders.
 *
 * Each kernel computes the same sums, in the same order, as its C
 * reference in engine/tl-filter-smooth.c; the one transcendental,
 * bilateral-filter's exponential, is tl_math_exp () (kernels/tl-math.h),
 * built from operations that IEEE rounds exactly, so C and OpenCL agree
 * bit for bit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* The pixel at (x, y), clamped into the region. */
inline float4
tl_smooth_load (global const tl_pixel *in,
                const TlDispatch      *d,
                int                    x,
                int                    y,
                global const float    *codec)
{
  return tl_load (in, clamp (y, 0, d->height - 1) * d->stride +
                      clamp (x, 0, d->width - 1), codec);
}

/* (a - b)^2 over red, green and blue, added in that order. */
inline float
tl_smooth_colour_distance (float4 a,
                           float4 b)
{
  float4 e = a - b;

  return (e.x * e.x + e.y * e.y) + e.z * e.z;
}

/* bilateral-filter: each pixel of the (2 radius + 1)^2 window weighted by
 * its place (SPATIAL, from the host) and by its colour's distance from
 * the centre's, e^(-distance * preserve), on straight linear RGBA.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_bilateral)
kernel void
tl_bilateral (global const tl_pixel *in,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              global const float    *spatial,
              int                    radius,
              float                  preserve)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  side   = 2 * radius + 1;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 centre = tl_smooth_load (in, &d, x, origin.y, codec);
      float4 sum    = 0.0f;
      float  total  = 0.0f;

      for (int v = -radius; v <= radius; v++)
        for (int u = -radius; u <= radius; u++)
          {
            float4 p      = tl_smooth_load (in, &d, x + u, origin.y + v, codec);
            float  range  = tl_math_exp (-tl_smooth_colour_distance (centre, p) *
                                           preserve);
            float  weight = range * spatial[(v + radius) * side + u + radius];

            sum   += p * weight;
            total += weight;
          }
      tl_store (out, origin.y * d.stride + x, sum / total, codec);
    }
}
#endif

/* snn-mean: over the window's upper-left quarter, each place's nearest
 * in colour to the centre among itself and its mirror images (PAIRS 2:
 * four places; 1: two, over the upper half), the centre itself on the
 * centre's row and column (as GEGL counts them), averaged.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_snn_mean)
kernel void
tl_snn_mean (global const tl_pixel *in,
             global tl_pixel       *out,
             TlDispatch             d,
             global const float    *codec,
             int                    radius,
             int                    pairs)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  last_u = pairs == 1 ? radius : 0;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      int    y      = origin.y;
      float4 centre = tl_smooth_load (in, &d, x, y, codec);
      float4 sum    = 0.0f;
      int    count  = 0;

      for (int v = -radius; v <= 0; v++)
        for (int u = -radius; u <= (v == 0 ? 0 : last_u); u++)
          {
            float4 chosen = centre;

            if (u != 0 && v != 0)
              {
                int2  places[4] = { (int2) (x + u, y + v), (int2) (x - u, y - v),
                                    (int2) (x - u, y + v), (int2) (x + u, y - v) };
                float best      = 1000.0f;

                for (int i = 0; i < 2 * pairs; i++)
                  {
                    float4 p    = tl_smooth_load (in, &d, places[i].x,
                                                  places[i].y, codec);
                    float  diff = tl_smooth_colour_distance (p, centre);

                    if (diff < best)
                      {
                        best   = diff;
                        chosen = p;
                      }
                  }
              }
            sum += chosen;
            count++;
          }
      tl_store (out, y * d.stride + x, sum / (float) count, codec);
    }
}
#endif
