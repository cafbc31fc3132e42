/* ThreadLens: the iterative filters, mean-curvature-blur and
 * noise-reduction, after GEGL's operations of the same names; every step
 * runs on the device, and the layer travels once each way.
 *
 * Each kernel computes the same values, in the same order, as its C
 * reference in engine/filters/tl-filter-iterate.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* ITERATIONS steps of a 3x3 stencil, as GEGL takes them: the region
 * padded once by ITERATIONS pixels (tl_padded_fill), then each step on
 * the whole padded image (FAMILY_step), the last one written to the
 * storage under the plan (FAMILY_last).  Padding once, not clamping each
 * step, is what GEGL computes; a step's outer ring is copied, so no pixel
 * is ever left unwritten, and the values the region's own pixels depend
 * on shrink by a pixel a step into the padding, never reaching its ring.
 * The padding clamps to the edge (GEGL's mean-curvature-blur does too;
 * its noise-reduction reads transparent black).
 */

/* The 3x3 neighbourhood of pixel I of a padded image COLS wide. */
typedef struct
{
  float4 c;
  float4 n[8];    /* (-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0),
                   * (-1, 1), (0, 1), (1, 1): GEGL's order */
} TlStencil;

inline TlStencil
tl_stencil_load (global const float4 *src,
                 int                  i,
                 int                  cols)
{
  TlStencil s;

  s.c    = src[i];
  s.n[0] = src[i - cols - 1];
  s.n[1] = src[i - cols];
  s.n[2] = src[i - cols + 1];
  s.n[3] = src[i - 1];
  s.n[4] = src[i + 1];
  s.n[5] = src[i + cols - 1];
  s.n[6] = src[i + cols];
  s.n[7] = src[i + cols + 1];
  return s;
}

/* mean-curvature-blur's step, the three colour channels in the lanes of
 * a vector: each moves by a quarter of the flow, n / (dx^2 + dy^2),
 * GEGL's magnitude times mean curvature with the magnitude cancelled
 * (which keeps tiny gradients from underflowing); a channel with no
 * gradient keeps its value.  Every lane runs the reference's operations
 * in its order, so the bits are a channel at a time's; on PoCL a channel
 * at a time took twice as long.
 */
inline float4
tl_curvature_pixel (TlStencil st)
{
  float4 c   = st.c;
  float4 l   = st.n[3], r  = st.n[4], t  = st.n[1], b  = st.n[6];
  float4 tl  = st.n[0], tr = st.n[2], bl = st.n[5], br = st.n[7];
  float4 dx  = r - l;
  float4 dy  = b - t;
  float4 dx2 = dx * dx;
  float4 dy2 = dy * dy;
  float4 s   = dx2 + dy2;
  float4 dxx = (r + l) - 2.0f * c;
  float4 dyy = (b + t) - 2.0f * c;
  float4 dxy = 0.25f * (((br - tr) - bl) + tl);
  float4 n   = (dx2 * dyy + dy2 * dxx) - ((2.0f * dx) * dy) * dxy;
  float4 out = select (c, c + (0.25f * n) / s, s > 0.0f);

  out.w = c.w;
  return out;
}

/* noise-reduction's step, the three colour channels in the lanes of a
 * vector: each channel's centre averaged with each neighbour's half-way
 * value that makes none of the four axes through the centre (N[a] and
 * N[7 - a]) less smooth, GEGL's measure being the square of the second
 * difference.  A lane adds what its own channel's test passes, in the
 * C reference's order, so the bits are a channel at a time's.  CPU
 * devices then run three channels' tests as one, with no branch on the
 * pixels: a channel at a time, with early exits, took 6.3 times as long
 * on PoCL.
 */
inline float4
tl_noise_pixel (TlStencil s)
{
  float4 c     = s.c;
  float4 sum   = c;
  float4 count = 1.0f;
  float4 reference[4];
  float4 out;

  for (int axis = 0; axis < 4; axis++)
    {
      float4 second = (c * 2.0f - s.n[axis]) - s.n[7 - axis];

      reference[axis] = second * second;
    }
  for (int from = 0; from < 8; from++)
    {
      float4 value = s.n[from] * 0.5f + c * 0.5f;
      int4   valid = (int4) (-1);

      for (int axis = 0; axis < 4; axis++)
        {
          float4 second = (value * 2.0f - s.n[axis]) - s.n[7 - axis];

          /* Not greater: a NaN passes, as the reference's test lets it. */
          valid &= ~(second * second > reference[axis]);
        }
      sum   = select (sum, sum + value, valid);
      count = select (count, count + 1.0f, valid);
    }
  out   = sum / count;
  out.w = c.w;
  return out;
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_padded_fill)
/* Argument slots: tl-args.h, TL_ARG_PADDED_FILL_*. */
kernel void
tl_padded_fill (global const tl_pixel *in,
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

/* FAMILY_step: one step over the padded image, its outer ring copied;
 * FAMILY_last: the last step, of the region's own pixels, into the
 * storage (or, with no steps, the padded image's copy of them).
 * Argument slots: tl-args.h, TL_ARG_PADDED_STEP_* and TL_ARG_PADDED_LAST_*.
 */
#define TL_PADDED_KERNELS(FAMILY, PIXEL)                                \
kernel void                                                             \
FAMILY##_step (global const float4 *src,                                \
               global float4       *dst,                                \
               TlDispatch           d,                                  \
               global const float  *codec,                              \
               int                  cols,                               \
               int                  rows)                               \
{                                                                       \
  int i = tl_item_origin (&d).x;                                        \
  int x, y;                                                             \
                                                                        \
  if (i >= d.width)                                                     \
    return;                                                             \
  y = i / cols;                                                         \
  x = i - y * cols;                                                     \
  if (x == 0 || y == 0 || x == cols - 1 || y == rows - 1)               \
    dst[i] = src[i];                                                    \
  else                                                                  \
    dst[i] = PIXEL (tl_stencil_load (src, i, cols));                    \
}                                                                       \
                                                                        \
kernel void                                                             \
FAMILY##_last (global const float4 *src,                                \
               global tl_pixel     *out,                                \
               TlDispatch           d,                                  \
               global const float  *codec,                              \
               int                  margin,                             \
               int                  cols,                               \
               int                  steps)                              \
{                                                                       \
  int2 origin = tl_item_origin (&d);                                    \
  int  end    = min (origin.x + d.pixels_per_item, d.width);            \
                                                                        \
  if (origin.y >= d.height)                                             \
    return;                                                             \
  for (int x = origin.x; x < end; x++)                                  \
    {                                                                   \
      int i = (origin.y + margin) * cols + x + margin;                  \
                                                                        \
      tl_store (out, origin.y * d.stride + x,                           \
                steps ? PIXEL (tl_stencil_load (src, i, cols)) : src[i], \
                codec);                                                 \
    }                                                                   \
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_curvature_step) || \
    defined (TL_KERNEL_tl_curvature_last)
TL_PADDED_KERNELS (tl_curvature, tl_curvature_pixel)
#endif

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_noise_step) || \
    defined (TL_KERNEL_tl_noise_last)
TL_PADDED_KERNELS (tl_noise, tl_noise_pixel)
#endif
