/* ThreadLens: point filters, one pixel in, one pixel out.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Same operations, same order, no fused multiply-add: the output equals
 * the C reference bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Perceptual invert on R'G'B'A: 1 - v on colour, alpha kept. */
kernel void
tl_invert (global const tl_pixel *in,
           global tl_pixel       *out,
           TlDispatch             d,
           global const float    *codec)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  row    = origin.y * d.stride;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 v = tl_load (in, row + x, codec);

      tl_store (out, row + x, (float4) (1.0f - v.xyz, v.w), codec);
    }
}

/* out = M * in + offset on RGBA; M is row-major in m. */
kernel void
tl_color_matrix (global const tl_pixel *in,
                 global tl_pixel       *out,
                 TlDispatch             d,
                 global const float    *codec,
                 float16                m,
                 float4                 offset)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  row    = origin.y * d.stride;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 v = tl_load (in, row + x, codec);

      tl_store (out, row + x,
                (float4) (m.s0 * v.x + m.s1 * v.y + m.s2 * v.z + m.s3 * v.w + offset.x,
                          m.s4 * v.x + m.s5 * v.y + m.s6 * v.z + m.s7 * v.w + offset.y,
                          m.s8 * v.x + m.s9 * v.y + m.sa * v.z + m.sb * v.w + offset.z,
                          m.sc * v.x + m.sd * v.y + m.se * v.z + m.sf * v.w + offset.w),
                codec);
    }
}
