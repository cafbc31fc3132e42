/* ThreadLens: motion-blur-linear, after GEGL's operation of the same
 * name: the mean of ceil (length) + 1 bilinear samples along a line
 * through the pixel, in linear premultiplied light, clamp-to-edge
 * borders.  The samples' whole and fractional offsets are the same for
 * every pixel, so the host computes them once (in double, as GEGL does)
 * and the kernel adds the samples in the order of the C reference in
 * engine/filters/tl-filter-motion.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add, as in the C references. */
#pragma OPENCL FP_CONTRACT OFF

/* The kernel reads the region as working floats (tl_motion_decode for
 * narrow storage), each pixel being in 4 (length + 1) samples.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_motion_decode)
TL_DECODE_KERNEL (tl_motion_decode)
#endif

/* STEPS: (x, y) whole offsets of each sample; FRACTIONS: its (x, y)
 * fractions, the bilinear weights of the pixels to its right and below.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_motion_linear)
/* Argument slots: tl-args.h, TL_ARG_MOTION_LINEAR_*. */
kernel void
tl_motion_linear (global const float4   *in,
                  global tl_pixel       *out,
                  TlDispatch             d,
                  global const float    *codec,
                  global const int2     *steps,
                  global const float2   *fractions,
                  int                    n_steps,
                  float                  inv_n_steps)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum = 0.0f;

      for (int s = 0; s < n_steps; s++)
        {
          int2   at  = (int2) (x, origin.y) + steps[s];
          float2 f   = fractions[s];
          float4 p0  = tl_floats_clamped (in, &d, at.x, at.y);
          float4 p1  = tl_floats_clamped (in, &d, at.x + 1, at.y);
          float4 p2  = tl_floats_clamped (in, &d, at.x, at.y + 1);
          float4 p3  = tl_floats_clamped (in, &d, at.x + 1, at.y + 1);
          float4 top = f.y * (p2 - p0) + p0;
          float4 low = f.y * (p3 - p1) + p1;

          sum += f.x * (low - top) + top;
        }
      tl_store (out, origin.y * d.stride + x, sum * inv_n_steps, codec);
    }
}
#endif
