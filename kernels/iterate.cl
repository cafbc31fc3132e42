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

/* mean-curvature-blur's step for one channel: C moves by a quarter of
 * the flow, n / (dx^2 + dy^2), GEGL's magnitude times mean curvature
 * with the magnitude cancelled (which keeps tiny gradients from
 * underflowing).
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

inline float4
tl_curvature_pixel (TlStencil s)
{
  return (float4) (tl_curvature_channel (s.c.x, s.n[3].x, s.n[4].x, s.n[1].x,
                                         s.n[6].x, s.n[0].x, s.n[2].x,
                                         s.n[5].x, s.n[7].x),
                   tl_curvature_channel (s.c.y, s.n[3].y, s.n[4].y, s.n[1].y,
                                         s.n[6].y, s.n[0].y, s.n[2].y,
                                         s.n[5].y, s.n[7].y),
                   tl_curvature_channel (s.c.z, s.n[3].z, s.n[4].z, s.n[1].z,
                                         s.n[6].z, s.n[0].z, s.n[2].z,
                                         s.n[5].z, s.n[7].z),
                   s.c.w);
}

/* noise-reduction's step for one channel: the centre averaged with each
 * neighbour's half-way value that makes none of the four axes through
 * the centre (N[a] and N[7 - a]) less smooth, GEGL's measure being the
 * square of the second difference.
 */
inline float
tl_noise_channel (float       c,
                  const float n[8])
{
  float reference[4];
  float sum   = c;
  int   count = 1;

  for (int axis = 0; axis < 4; axis++)
    {
      float second = (c * 2.0f - n[axis]) - n[7 - axis];

      reference[axis] = second * second;
    }
  for (int from = 0; from < 8; from++)
    {
      float value = n[from] * 0.5f + c * 0.5f;
      int   valid = 1;

      for (int axis = 0; axis < 4 && valid; axis++)
        {
          float second = (value * 2.0f - n[axis]) - n[7 - axis];

          valid = ! (second * second > reference[axis]);
        }
      if (valid)
        {
          sum += value;
          count++;
        }
    }
  return sum / (float) count;
}

inline float4
tl_noise_pixel (TlStencil s)
{
  float4 out = s.c;
  float  n[8];

  for (int k = 0; k < 8; k++)
    n[k] = s.n[k].x;
  out.x = tl_noise_channel (s.c.x, n);
  for (int k = 0; k < 8; k++)
    n[k] = s.n[k].y;
  out.y = tl_noise_channel (s.c.y, n);
  for (int k = 0; k < 8; k++)
    n[k] = s.n[k].z;
  out.z = tl_noise_channel (s.c.z, n);
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
