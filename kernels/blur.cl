/* ThreadLens: separable Gaussian blur with clamp-to-edge borders.
 *
 * The host computes the normalised weights once (shared with the C
 * reference, so both sum the same numbers in the same order) and runs the
 * horizontal pass, then the vertical one, with the same dispatch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

kernel void
tl_gaussian_h (global const float4 *in,
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
tl_gaussian_v (global const float4 *in,
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
