/* ThreadLens: edge-preserving smoothing (bilateral-filter, snn-mean,
 * mean-curvature-blur), after GEGL's operations of the same names, with
 * clamp-to-edge borders.
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

/* mean-curvature-blur: ITERATIONS steps of mean curvature flow on
 * R'G'B'A, as GEGL takes them: the region padded once by ITERATIONS
 * clamped pixels (tl_curvature_pad), then each step on the whole padded
 * image (tl_curvature_step), the last one written to the storage under
 * the plan (tl_curvature_last).  Padding once, not clamping each step,
 * is what GEGL computes; a step's outer ring is copied, so no pixel is
 * ever left unwritten, and the values the region's own pixels depend on
 * shrink by a pixel a step into the padding, never reaching its ring.
 */

/* One step for one channel: C moves by a quarter of the flow,
 * n / (dx^2 + dy^2), GEGL's magnitude times mean curvature with the
 * magnitude cancelled (which keeps tiny gradients from underflowing).
 */
inline float
tl_curvature_channel (float c,
                      float l,
                      float r,
                      float t,
                      float b,
                      float tl,
                      float tr,
                      float bl,
                      float br)
{
  float dx  = r - l;
  float dy  = b - t;
  float dx2 = dx * dx;
  float dy2 = dy * dy;
  float s   = dx2 + dy2;
  float dxx, dyy, dxy, n;

  if (! (s > 0.0f))
    return c;
  dxx = (r + l) - 2.0f * c;
  dyy = (b + t) - 2.0f * c;
  dxy = 0.25f * (((br - tr) - bl) + tl);
  n   = (dx2 * dyy + dy2 * dxx) - ((2.0f * dx) * dy) * dxy;
  return c + (0.25f * n) / s;
}

/* The step at pixel I of a padded image COLS wide. */
inline float4
tl_curvature_pixel (global const float4 *src,
                    int                  i,
                    int                  cols)
{
  float4 c  = src[i];
  float4 l  = src[i - 1], r = src[i + 1];
  float4 t  = src[i - cols], b = src[i + cols];
  float4 tl = src[i - cols - 1], tr = src[i - cols + 1];
  float4 bl = src[i + cols - 1], br = src[i + cols + 1];

  return (float4) (tl_curvature_channel (c.x, l.x, r.x, t.x, b.x,
                                         tl.x, tr.x, bl.x, br.x),
                   tl_curvature_channel (c.y, l.y, r.y, t.y, b.y,
                                         tl.y, tr.y, bl.y, br.y),
                   tl_curvature_channel (c.z, l.z, r.z, t.z, b.z,
                                         tl.z, tr.z, bl.z, br.z),
                   c.w);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_curvature_pad)
kernel void
tl_curvature_pad (global const tl_pixel *in,
                  global float4         *padded,
                  TlDispatch             d,
                  global const float    *codec,
                  int                    margin,
                  int                    cols,
                  int                    width,
                  int                    height)
{
  int i = tl_item_origin (&d).x;
  int y;

  /* A line pass: D counts the padded image's pixels. */
  if (i >= d.width)
    return;
  y = i / cols;
  padded[i] = tl_load (in, clamp (y - margin, 0, height - 1) * width +
                           clamp (i - y * cols - margin, 0, width - 1), codec);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_curvature_step)
kernel void
tl_curvature_step (global const float4 *src,
                   global float4       *dst,
                   TlDispatch           d,
                   global const float  *codec,
                   int                  cols,
                   int                  rows)
{
  int i = tl_item_origin (&d).x;
  int x, y;

  if (i >= d.width)
    return;
  y = i / cols;
  x = i - y * cols;
  if (x == 0 || y == 0 || x == cols - 1 || y == rows - 1)
    dst[i] = src[i];
  else
    dst[i] = tl_curvature_pixel (src, i, cols);
}
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_curvature_last)
kernel void
tl_curvature_last (global const float4 *src,
                   global tl_pixel     *out,
                   TlDispatch           d,
                   global const float  *codec,
                   int                  margin,
                   int                  cols,
                   int                  flow)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;
  for (int x = origin.x; x < end; x++)
    {
      int i = (origin.y + margin) * cols + x + margin;

      tl_store (out, origin.y * d.stride + x,
                flow ? tl_curvature_pixel (src, i, cols) : src[i], codec);
    }
}
#endif
