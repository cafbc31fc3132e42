/* ThreadLens: tone filters, one pixel in, one pixel out, after GEGL's
 * operations of the same names.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Same operations, same order, no fused multiply-add: the output equals
 * the C reference bit for bit.
 */
#pragma OPENCL FP_CONTRACT OFF

/* Relative luminance of linear sRGB, as babl computes Y. */
#define TL_LUMINANCE_RED   0.22248840f
#define TL_LUMINANCE_GREEN 0.71690369f
#define TL_LUMINANCE_BLUE  0.06060791f

/* Linear RGBA: (v - 0.5) * contrast + brightness + 0.5, alpha kept. */
kernel void
tl_brightness_contrast (global const tl_pixel *in,
                        global tl_pixel       *out,
                        TlDispatch             d,
                        global const float    *codec,
                        float                  contrast,
                        float                  brightness)
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
                (float4) ((v.x - 0.5f) * contrast + brightness + 0.5f,
                          (v.y - 0.5f) * contrast + brightness + 0.5f,
                          (v.z - 0.5f) * contrast + brightness + 0.5f,
                          v.w),
                codec);
    }
}

/* Linear RGBA: white where Y >= level (the threshold taken back to linear
 * by the host), black elsewhere, alpha kept.
 */
kernel void
tl_threshold (global const tl_pixel *in,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              float                  level)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  row    = origin.y * d.stride;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 v = tl_load (in, row + x, codec);
      float  y;

      y = (v.x * TL_LUMINANCE_RED +
           v.y * TL_LUMINANCE_GREEN +
           v.z * TL_LUMINANCE_BLUE);
      y = y >= level ? 1.0f : 0.0f;

      tl_store (out, row + x, (float4) (y, y, y, v.w), codec);
    }
}

/* Linear RGBA: gray = red * R + green * G + blue * B in every colour
 * channel, alpha kept; w.xyz are the weights.
 */
kernel void
tl_mono_mixer (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec,
               float4                 w)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);
  int  row    = origin.y * d.stride;

  if (origin.y >= d.height)
    return;

  for (int x = origin.x; x < end; x++)
    {
      float4 v = tl_load (in, row + x, codec);
      float  y = v.x * w.x + v.y * w.y + v.z * w.z;

      tl_store (out, row + x, (float4) (y, y, y, v.w), codec);
    }
}

/* R~G~B~A: each colour channel is a row of the sepia matrix times RGB,
 * alpha kept.
 */
kernel void
tl_sepia (global const tl_pixel *in,
          global tl_pixel       *out,
          TlDispatch             d,
          global const float    *codec,
          float4                 r,
          float4                 g,
          float4                 b)
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
                (float4) (r.x * v.x + r.y * v.y + r.z * v.z,
                          g.x * v.x + g.y * v.y + g.z * v.z,
                          b.x * v.x + b.y * v.y + b.z * v.z,
                          v.w),
                codec);
    }
}
