/* ThreadLens: point filters, one pixel in, one pixel out.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Same operations, same order, no fused multiply-add: the output equals
 * the C reference bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Perceptual invert on R'G'B'A: 1 - v on colour, alpha kept. */
inline float4
tl_invert_pixel (float4 v)
{
  return (float4) (1.0f - v.xyz, v.w);
}

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_invert)
kernel void
tl_invert (global const tl_pixel *in,
           global tl_pixel       *out,
           TlDispatch             d,
           global const float    *codec)
{
  TL_POINT_PIXELS (tl_invert_pixel);
}
#endif

/* out = M * in + offset on RGBA; M is row-major in m. */
inline float4
tl_color_matrix_pixel (float4  v,
                       float16 m,
                       float4  offset)
{
  return (float4) (m.s0 * v.x + m.s1 * v.y + m.s2 * v.z + m.s3 * v.w + offset.x,
                   m.s4 * v.x + m.s5 * v.y + m.s6 * v.z + m.s7 * v.w + offset.y,
                   m.s8 * v.x + m.s9 * v.y + m.sa * v.z + m.sb * v.w + offset.z,
                   m.sc * v.x + m.sd * v.y + m.se * v.z + m.sf * v.w + offset.w);
}

#define TL_COLOR_MATRIX(v) tl_color_matrix_pixel (v, m, offset)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_color_matrix)
kernel void
tl_color_matrix (global const tl_pixel *in,
                 global tl_pixel       *out,
                 TlDispatch             d,
                 global const float    *codec,
                 float16                m,
                 float4                 offset)
{
  TL_POINT_PIXELS (TL_COLOR_MATRIX);
}
#endif
