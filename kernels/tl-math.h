/* ThreadLens: exponentials, logarithms, powers and the sRGB curve for
 * kernels, built from operations that IEEE 754 rounds exactly (+, -, *,
 * /, floor) and a float's bits, so that engine/filters/tl-math.c, their C
 * twins, give the same bits; OpenCL's own exp () and pow () may differ
 * from the C library's by a few ulp, and from one driver to the next.
 * Each is within 2-3 ulp of the true value over the range the filters
 * use.
 *
 * A power of two 2^k is the float whose bits are (k + 127) << 23, and a
 * float's exponent and mantissa are read from its bits, as the C twins
 * do (the same values: 2^k is a normal float for each k they take); with
 * ldexp () and frexp () high-pass's pass took 12-14% longer on PoCL.
 *
 * The functions with a lane count in their name (tl_math_exp4 (),
 * tl_math_pow3 (), ...) compute several values at once, each lane with
 * the same operations as the one-value function, so the same bits; they
 * compute both sides of each choice and select, where the one-value
 * functions return early.  On a CPU the lanes are one SIMD register's
 * (PoCL does not vectorise these kernels across work-items: their loops
 * and vector types keep its vectoriser out); on a GPU they are as many
 * scalar operations as the calls they replace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma OPENCL FP_CONTRACT OFF

/* e^r for |r| <= ln 2 / 2: a degree-6 Taylor polynomial. */
inline float
tl_math_exp_reduced (float r)
{
  float p = 0.00138888892f;

  p = 0.00833333377f + r * p;
  p = 0.0416666679f + r * p;
  p = 0.166666672f + r * p;
  p = 0.5f + r * p;
  p = 1.0f + r * p;
  return 1.0f + r * p;
}

/* e^x for x <= 88: x = k ln 2 + r, ln 2 in two parts (the first exact
 * times any k that occurs), then e^r scaled by 2^k.  0 below -87, where
 * the result would leave the normal floats.
 */
inline float
tl_math_exp (float x)
{
  float k, r;

  if (x < -87.0f)
    return 0.0f;
  k = floor (x * 1.44269504f + 0.5f);
  r = (x - k * 0.693145752f) - k * 1.42860677e-6f;
  return tl_math_exp_reduced (r) * as_float (((int) k + 127) << 23);
}

/* 2^t for t <= 127: its whole part scales, the rest goes through e^r. */
inline float
tl_math_exp2 (float t)
{
  float k;

  if (t < -126.0f)
    return 0.0f;
  k = floor (t + 0.5f);
  return tl_math_exp_reduced ((t - k) * 0.693147182f) *
         as_float (((int) k + 127) << 23);
}

/* log2 x for normal x > 0: x = m 2^e with m in [sqrt 1/2, sqrt 2), and
 * ln m = 2 atanh z, z = (m - 1) / (m + 1), |z| < 0.172, by its series to
 * z^9.  M is first the mantissa in [1, 2), from x's bits.
 */
inline float
tl_math_log2 (float x)
{
  int   bits = as_int (x);
  int   e    = ((bits >> 23) & 0xff) - 127;
  float m    = as_float ((bits & 0x007fffff) | 0x3f800000);
  float z, z2, p;

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
  return (float) e + ((2.0f * z) * p) * 1.44269504f;
}

/* x^y for y > 0, odd about 0 as GEGL's gamma takes it: -(-x)^y below 0,
 * and 0 for what is smaller than the normal floats.
 */
inline float
tl_math_pow (float x,
             float y)
{
  float magnitude = fabs (x);

  if (magnitude < 0x1p-126f)
    return 0.0f;
  magnitude = tl_math_exp2 (y * tl_math_log2 (magnitude));
  return x < 0.0f ? -magnitude : magnitude;
}

/* The sRGB curve, linear light to perceptual and back, on each colour
 * channel; straight in its linear part, which takes negative values.
 */
inline float
tl_math_to_srgb (float v)
{
  if (v <= 0.0031308f)
    return v * 12.92f;
  return 1.055f * tl_math_pow (v, 1.0f / 2.4f) - 0.055f;
}

inline float
tl_math_from_srgb (float v)
{
  if (v <= 0.04045f)
    return v / 12.92f;
  return tl_math_pow ((v + 0.055f) / 1.055f, 2.4f);
}

/* The functions above on N lanes: tl_math_exp4 () and so on (see the
 * top of this file); three lanes for one pixel's colour channels, four
 * for four taps or four pixels, eight for two channels of four pixels.
 */
#define TL_MATH_LANES(N)                                                \
inline float##N                                                         \
tl_math_exp_reduced##N (float##N r)                                     \
{                                                                       \
  float##N p = 0.00138888892f;                                          \
                                                                        \
  p = 0.00833333377f + r * p;                                           \
  p = 0.0416666679f + r * p;                                            \
  p = 0.166666672f + r * p;                                             \
  p = 0.5f + r * p;                                                     \
  p = 1.0f + r * p;                                                     \
  return 1.0f + r * p;                                                  \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_exp##N (float##N x)                                             \
{                                                                       \
  float##N k = floor (x * 1.44269504f + 0.5f);                          \
  float##N r = (x - k * 0.693145752f) - k * 1.42860677e-6f;             \
  float##N e = tl_math_exp_reduced##N (r) *                             \
               as_float##N ((convert_int##N (k) + 127) << 23);          \
                                                                        \
  return x < -87.0f ? 0.0f : e;                                         \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_exp2_##N (float##N t)                                           \
{                                                                       \
  float##N k = floor (t + 0.5f);                                        \
  float##N e = tl_math_exp_reduced##N ((t - k) * 0.693147182f) *        \
               as_float##N ((convert_int##N (k) + 127) << 23);          \
                                                                        \
  return t < -126.0f ? 0.0f : e;                                        \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_log2_##N (float##N x)                                           \
{                                                                       \
  int##N   bits = as_int##N (x);                                        \
  int##N   e    = ((bits >> 23) & 0xff) - 127;                          \
  float##N m    = as_float##N ((bits & 0x007fffff) | 0x3f800000);       \
  int##N   big  = m >= 1.41421354f;                                     \
  float##N z, z2, p;                                                    \
                                                                        \
  m  = big ? m * 0.5f : m;                                              \
  e  = big ? e + 1 : e;                                                 \
  z  = (m - 1.0f) / (m + 1.0f);                                         \
  z2 = z * z;                                                           \
  p  = 0.111111112f;                                                    \
  p  = 0.142857149f + z2 * p;                                           \
  p  = 0.200000003f + z2 * p;                                           \
  p  = 0.333333343f + z2 * p;                                           \
  p  = 1.0f + z2 * p;                                                   \
  return convert_float##N (e) + ((2.0f * z) * p) * 1.44269504f;         \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_pow##N (float##N x,                                             \
                float    y)                                             \
{                                                                       \
  float##N magnitude = fabs (x);                                        \
  float##N power     = tl_math_exp2_##N (y * tl_math_log2_##N (magnitude)); \
                                                                        \
  power = x < 0.0f ? -power : power;                                    \
  return magnitude < 0x1p-126f ? 0.0f : power;                          \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_to_srgb##N (float##N v)                                         \
{                                                                       \
  return v <= 0.0031308f ? v * 12.92f :                                 \
         1.055f * tl_math_pow##N (v, 1.0f / 2.4f) - 0.055f;             \
}                                                                       \
                                                                        \
inline float##N                                                         \
tl_math_from_srgb##N (float##N v)                                       \
{                                                                       \
  return v <= 0.04045f ? v / 12.92f :                                   \
         tl_math_pow##N ((v + 0.055f) / 1.055f, 2.4f);                  \
}

TL_MATH_LANES (3)
TL_MATH_LANES (4)
TL_MATH_LANES (8)
