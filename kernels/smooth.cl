/* ThreadLens: edge-preserving smoothing (bilateral-filter, snn-mean),
 * after GEGL's operations of the same names, with clamp-to-edge borders.
 *
 * Each kernel computes the same sums, in the same order, as its C
 * reference in engine/filters/tl-filter-smooth.c; the one transcendental,
 * bilateral-filter's exponential, is tl_math_exp () (kernels/tl-math.h),
 * built from operations that IEEE rounds exactly, or tl_math_exp4 (), its
 * four-lane twin, so C and OpenCL agree bit for bit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* Both kernels read the region as working floats (tl_smooth_decode for
 * narrow storage), each pixel being in hundreds of windows.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_smooth_decode)
TL_DECODE_KERNEL (tl_smooth_decode)
#endif

/* Whether the window of RADIUS around (x, y) lies inside the region. */
inline int
tl_smooth_inside (const TlDispatch *d,
                  int               x,
                  int               y,
                  int               radius)
{
  return (x >= radius && x + radius < d->width &&
          y >= radius && y + radius < d->height);
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
 *
 * One row of the window, PIXEL (u) its tap u (0 to side - 1) and TAPS
 * its spatial weights: the range weights of four taps at a time
 * (tl_math_exp4 (), their distances four to a vector), then of the rest
 * one by one; the sums in the taps' order, as the C reference takes
 * them.  On PoCL the kernel ran 2.1 to 2.4 times as fast as with an
 * exponential a tap (doc/experiments.md); on a GPU the lanes are as many
 * scalar operations as before.
 */
#define TL_BILATERAL_ROW(PIXEL)                                         \
  do                                                                    \
    {                                                                   \
      int u = 0;                                                        \
                                                                        \
      for (; u + 4 <= side; u += 4)                                     \
        {                                                               \
          float4 p0 = PIXEL (u), p1 = PIXEL (u + 1);                    \
          float4 p2 = PIXEL (u + 2), p3 = PIXEL (u + 3);                \
          float4 e0 = centre - p0, e1 = centre - p1;                    \
          float4 e2 = centre - p2, e3 = centre - p3;                    \
          float4 s0 = e0 * e0, s1 = e1 * e1, s2 = e2 * e2, s3 = e3 * e3; \
          float4 distance = ((float4) (s0.x, s1.x, s2.x, s3.x) +        \
                             (float4) (s0.y, s1.y, s2.y, s3.y)) +       \
                            (float4) (s0.z, s1.z, s2.z, s3.z);          \
          float4 weight   = tl_math_exp4 (-distance * preserve) *      \
                            vload4 (0, taps + u);                       \
                                                                        \
          sum   += p0 * weight.x;                                       \
          total += weight.x;                                            \
          sum   += p1 * weight.y;                                       \
          total += weight.y;                                            \
          sum   += p2 * weight.z;                                       \
          total += weight.z;                                            \
          sum   += p3 * weight.w;                                       \
          total += weight.w;                                            \
        }                                                               \
      for (; u < side; u++)                                             \
        {                                                               \
          float4 p      = PIXEL (u);                                    \
          float  weight = tl_math_exp (-tl_smooth_colour_distance (centre, p) * \
                                       preserve) * taps[u];             \
                                                                        \
          sum   += p * weight;                                          \
          total += weight;                                              \
        }                                                               \
    }                                                                   \
  while (0)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_bilateral)
/* Argument slots: tl-args.h, TL_ARG_BILATERAL_*. */
kernel void
tl_bilateral (global const float4   *in,
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
      float4 centre = tl_floats_clamped (in, &d, x, origin.y);
      float4 sum    = 0.0f;
      float  total  = 0.0f;

      /* A window inside the region needs no clamping (on PoCL 10% of
       * the filter's time).
       */
      if (tl_smooth_inside (&d, x, origin.y, radius))
        for (int v = -radius; v <= radius; v++)
          {
            global const float4 *row  = in + (origin.y + v) * d.stride +
                                        x - radius;
            global const float  *taps = spatial + (v + radius) * side;

#define TL_BILATERAL_INSIDE(u) row[u]
            TL_BILATERAL_ROW (TL_BILATERAL_INSIDE);
#undef TL_BILATERAL_INSIDE
          }
      else
        for (int v = -radius; v <= radius; v++)
          {
            global const float4 *row  = in + clamp (origin.y + v, 0,
                                                    d.height - 1) * d.stride;
            global const float  *taps = spatial + (v + radius) * side;

#define TL_BILATERAL_CLAMPED(u) row[clamp (x - radius + (u), 0, d.width - 1)]
            TL_BILATERAL_ROW (TL_BILATERAL_CLAMPED);
#undef TL_BILATERAL_CLAMPED
          }
      tl_store (out, origin.y * d.stride + x, sum / total, codec);
    }
}
#endif

/* snn-mean: over the window's upper-left quarter, each place's nearest
 * in colour to the centre among itself and its mirror images (PAIRS 2:
 * four places; 1: two, over the upper half), the centre itself on the
 * centre's row and column (as GEGL counts them), averaged.
 *
 * Pixel I of the region against the nearest so far, CHOSEN at distance
 * BEST: the nearer one, the earlier on a tie.  Its distance fills every
 * lane of a vector, so that the choice is a vector select: with a choice
 * on one float PoCL's compiler branched on the pixels' data, and the
 * kernel took 2.3 times as long (doc/experiments.md).  A GPU's compiler
 * keeps one lane of the distance's arithmetic (the lanes are the same
 * expressions).
 */
#define TL_SNN_NEARER(I)                                                \
  do                                                                    \
    {                                                                   \
      float4 p_    = in[I];                                             \
      float4 e_    = p_ - centre;                                       \
      float4 s_    = e_ * e_;                                           \
      float4 diff_ = (s_.xxxx + s_.yyyy) + s_.zzzz;                     \
      int4   near_ = diff_ < best;                                      \
                                                                        \
      best   = select (best, diff_, near_);                             \
      chosen = select (chosen, p_, near_);                              \
    }                                                                   \
  while (0)

/* Row V < 0 of the window and its mirror row below the centre, ABOVE (u)
 * and BELOW (u) the indices of their pixels in column x + u: the places
 * left of the centre's column (PAIRS 2: each against its three mirror
 * images), the centre for the column itself, and for PAIRS 1 the places
 * right of it; in the C reference's order.
 */
#define TL_SNN_ROWS(ABOVE, BELOW)                                       \
  do                                                                    \
    {                                                                   \
      for (int u = -radius; u < 0; u++)                                 \
        {                                                               \
          float4 chosen = centre;                                       \
          float4 best   = 1000.0f;                                      \
                                                                        \
          TL_SNN_NEARER (ABOVE (u));                                    \
          TL_SNN_NEARER (BELOW (-u));                                   \
          if (pairs == 2)                                               \
            {                                                           \
              TL_SNN_NEARER (ABOVE (-u));                               \
              TL_SNN_NEARER (BELOW (u));                                \
            }                                                           \
          sum += chosen;                                                \
        }                                                               \
      sum += centre;                                                    \
      if (pairs == 1)                                                   \
        for (int u = 1; u <= radius; u++)                               \
          {                                                             \
            float4 chosen = centre;                                     \
            float4 best   = 1000.0f;                                    \
                                                                        \
            TL_SNN_NEARER (ABOVE (u));                                  \
            TL_SNN_NEARER (BELOW (-u));                                 \
            sum += chosen;                                              \
          }                                                             \
    }                                                                   \
  while (0)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_snn_mean)
/* Argument slots: tl-args.h, TL_ARG_SNN_MEAN_*. */
kernel void
tl_snn_mean (global const float4   *in,
             global tl_pixel       *out,
             TlDispatch             d,
             global const float    *codec,
             int                    radius,
             int                    pairs)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  y      = origin.y;
  /* The places counted: the rows above the centre's, then its own row
   * left of it and itself.
   */
  int  count  = radius * (pairs == 1 ? 2 * radius + 1 : radius + 1) +
                radius + 1;

  if (y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      int    here   = y * d.stride + x;
      float4 centre = in[here];
      float4 sum    = 0.0f;

      if (tl_smooth_inside (&d, x, y, radius))
        for (int v = -radius; v < 0; v++)
          {
            int above = here + v * d.stride;
            int below = here - v * d.stride;

#define TL_SNN_ABOVE(u) (above + (u))
#define TL_SNN_BELOW(u) (below + (u))
            TL_SNN_ROWS (TL_SNN_ABOVE, TL_SNN_BELOW);
#undef TL_SNN_ABOVE
#undef TL_SNN_BELOW
          }
      else
        for (int v = -radius; v < 0; v++)
          {
            int above = clamp (y + v, 0, d.height - 1) * d.stride;
            int below = clamp (y - v, 0, d.height - 1) * d.stride;

#define TL_SNN_ABOVE(u) (above + clamp (x + (u), 0, d.width - 1))
#define TL_SNN_BELOW(u) (below + clamp (x + (u), 0, d.width - 1))
            TL_SNN_ROWS (TL_SNN_ABOVE, TL_SNN_BELOW);
#undef TL_SNN_ABOVE
#undef TL_SNN_BELOW
          }
      for (int u = -radius; u <= 0; u++)
        sum += centre;
      tl_store (out, here, sum / (float) count, codec);
    }
}
#endif
