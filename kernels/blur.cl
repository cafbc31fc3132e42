/* ThreadLens: separable convolution with clamp-to-edge borders, for every
 * blur: gaussian-blur, box-blur (equal weights) and unsharp-mask.
 *
 * The host computes the weights once (shared with the C references in
 * engine/tl-filter-blur.c, so both sum the same numbers in the same order)
 * and runs the horizontal pass, then a vertical one, with the same
 * dispatch.  Every vertical kernel takes (in, out, dispatch, weights,
 * radius) first, so one host function drives them all.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No fused multiply-add: box-blur and unsharp-mask equal their C
 * references bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

kernel void
tl_convolve_h (global const float4 *in,
               global float4       *out,
               TlDispatch           d,
               constant float      *weights,
               int                  radius)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  row    = origin.y * d.stride;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum = 0.0f;

      for (int i = -radius; i <= radius; i++)
        sum += weights[i + radius] * in[row + clamp (x + i, 0, d.width - 1)];
      out[row + x] = sum;
    }
}

kernel void
tl_convolve_v (global const float4 *in,
               global float4       *out,
               TlDispatch           d,
               constant float      *weights,
               int                  radius)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum = 0.0f;

      for (int i = -radius; i <= radius; i++)
        sum += weights[i + radius] *
               in[clamp (origin.y + i, 0, d.height - 1) * d.stride + x];
      out[origin.y * d.stride + x] = sum;
    }
}

/* unsharp-mask's vertical pass: the vertical convolution of the
 * horizontally blurred image, then in + scale * (in - blurred) on colour,
 * alpha kept.
 */
kernel void
tl_unsharp_v (global const float4 *blurred,
              global float4       *out,
              TlDispatch           d,
              constant float      *weights,
              int                  radius,
              global const float4 *in,
              float                scale)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 sum = 0.0f;
      float4 v   = in[origin.y * d.stride + x];

      for (int i = -radius; i <= radius; i++)
        sum += weights[i + radius] *
               blurred[clamp (origin.y + i, 0, d.height - 1) * d.stride + x];
      out[origin.y * d.stride + x] =
        (float4) (v.xyz + scale * (v.xyz - sum.xyz), v.w);
    }
}
