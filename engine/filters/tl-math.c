/* ThreadLens: the C twins of kernels/tl-math.h (which says why they are
 * written out, and how each is computed).  Built with -ffp-contract=off,
 * as the kernels run under FP_CONTRACT OFF.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-math.h"

static gint32
tl_math_bits (gfloat x)
{
  gint32 bits;

  memcpy (&bits, &x, sizeof (bits));
  return bits;
}

static gfloat
tl_math_from_bits (gint32 bits)
{
  gfloat x;

  memcpy (&x, &bits, sizeof (x));
  return x;
}

static gfloat
tl_math_power_of_two (gint k)
{
  return tl_math_from_bits ((k + 127) << 23);
}

static gfloat
tl_math_exp_reduced (gfloat r)
{
  gfloat p = 0.00138888892f;

  p = 0.00833333377f + r * p;
  p = 0.0416666679f + r * p;
  p = 0.166666672f + r * p;
  p = 0.5f + r * p;
  p = 1.0f + r * p;
  return 1.0f + r * p;
}

gfloat
tl_math_exp (gfloat x)
{
  gfloat k, r;

  if (x < -87.0f)
    return 0.0f;
  k = floorf (x * 1.44269504f + 0.5f);
  r = (x - k * 0.693145752f) - k * 1.42860677e-6f;
  return tl_math_exp_reduced (r) * tl_math_power_of_two ((gint) k);
}

gfloat
tl_math_exp2 (gfloat t)
{
  gfloat k;

  if (t < -126.0f)
    return 0.0f;
  k = floorf (t + 0.5f);
  return tl_math_exp_reduced ((t - k) * 0.693147182f) *
         tl_math_power_of_two ((gint) k);
}

gfloat
tl_math_log2 (gfloat x)
{
  gint32 bits = tl_math_bits (x);
  gint   e    = ((bits >> 23) & 0xff) - 127;
  gfloat m    = tl_math_from_bits ((bits & 0x007fffff) | 0x3f800000);
  gfloat z, z2, p;

  if (m >= 1.41421354f)
    {
      m = m * 0.5f;
      e = e + 1;
    }
  z  = (m - 1.0f) / (m + 1.0f);
  z2 = z * z;
  p  = 0.111111112f;
  p  = 0.142857149f + z2 * p;
  p  = 0.200000003f + z2 * p;
  p  = 0.333333343f + z2 * p;
  p  = 1.0f + z2 * p;
  return (gfloat) e + ((2.0f * z) * p) * 1.44269504f;
}

gfloat
tl_math_pow (gfloat x,
             gfloat y)
{
  gfloat magnitude = fabsf (x);

  if (magnitude < 0x1p-126f)
    return 0.0f;
  magnitude = tl_math_exp2 (y * tl_math_log2 (magnitude));
  return x < 0.0f ? -magnitude : magnitude;
}

gfloat
tl_math_to_srgb (gfloat v)
{
  if (v <= 0.0031308f)
    return v * 12.92f;
  return 1.055f * tl_math_pow (v, 1.0f / 2.4f) - 0.055f;
}

gfloat
tl_math_from_srgb (gfloat v)
{
  if (v <= 0.04045f)
    return v / 12.92f;
  return tl_math_pow ((v + 0.055f) / 1.055f, 2.4f);
}
