/* ThreadLens: loading and storing pixels in the layer's storage.
 *
 * Kernels see 4 floats in their filter's working format; buffers hold the
 * layer's storage (tl_pixel).  The host builds one program variant per
 * storage (TL_STORE, TL_STORE_TRC, TL_PREMUL defined before this file)
 * and passes the codec table of engine/tl-codec.c; every rule mirrors that
 * file, operation for operation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define TL_STORE_FLOAT 0
#define TL_STORE_HALF  1
#define TL_STORE_U16   2
#define TL_STORE_U8    3

#ifndef TL_STORE
#define TL_STORE TL_STORE_FLOAT
#endif
#ifndef TL_STORE_TRC
#define TL_STORE_TRC 0
#endif
#ifndef TL_PREMUL
#define TL_PREMUL 0
#endif

#define TL_ALPHA_FLOOR (1.0f / 65536.0f)

#if TL_STORE == TL_STORE_FLOAT
#define tl_pixel float4
#elif TL_STORE == TL_STORE_HALF
#define tl_pixel half
#elif TL_STORE == TL_STORE_U16
#define tl_pixel     ushort4
#define TL_CODE_MAX  65535
#define TL_CODE_BINS 65536
#define TL_CODE_SCALE 0x1.0001p-16f
#define tl_convert_pixel convert_ushort4
#else
#define tl_pixel     uchar4
#define TL_CODE_MAX  255
#define TL_CODE_BINS 4096
#define TL_CODE_SCALE 0x1.010102p-8f
#define tl_convert_pixel convert_uchar4
#endif

#ifdef TL_CODE_MAX
/* Round to the nearest code: the value is never negative here, so the
 * conversion's truncation is floor ().
 */
inline uint4
tl_code_round (float4 v)
{
  return convert_uint4 (fmin (fmax (v, 0.0f), 1.0f) * (float) TL_CODE_MAX + 0.5f);
}

/* The code whose interval of working values holds x: a coarse bin, then
 * a binary search over the few codes in it.
 */
inline uint
tl_code_search (float                x,
                global const float  *codec)
{
  global const float *thresholds = codec + TL_CODE_MAX + 1;
  global const float *bins       = thresholds + TL_CODE_MAX + 1;
  int                 bin;
  uint                lo, hi;

  x   = fmin (fmax (x, 0.0f), 1.0f);
  bin = min ((int) (x * (float) TL_CODE_BINS), TL_CODE_BINS - 1);
  lo  = (uint) bins[bin];
  hi  = (uint) bins[bin + 1];
  while (lo < hi)
    {
      uint mid = (lo + hi + 1) >> 1;

      if (thresholds[mid] <= x)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}
#endif

inline float4
tl_load (global const tl_pixel *p,
         int                    i,
         global const float    *codec)
{
#if TL_STORE == TL_STORE_FLOAT
  return p[i];
#else
  float4 v;

#if TL_STORE == TL_STORE_HALF
  v = vload_half4 (i, p);
#else
  uint4 c = convert_uint4 (p[i]);

#if TL_STORE_TRC
  v = (float4) (codec[c.x], codec[c.y], codec[c.z],
                (float) c.w * TL_CODE_SCALE);
#else
  v = convert_float4 (c) * TL_CODE_SCALE;
#endif
#endif

#if TL_PREMUL
  {
    float alpha = v.w < TL_ALPHA_FLOOR ? TL_ALPHA_FLOOR : v.w;

    v.xyz *= alpha;
  }
#endif
  return v;
#endif
}

inline void
tl_store (global tl_pixel    *p,
          int                 i,
          float4              v,
          global const float *codec)
{
#if TL_STORE == TL_STORE_FLOAT
  p[i] = v;
#else
#if TL_PREMUL
  {
    float alpha = v.w < TL_ALPHA_FLOOR ? TL_ALPHA_FLOOR : v.w;

    v.xyz /= alpha;
  }
#endif

#if TL_STORE == TL_STORE_HALF
  vstore_half4_rte (v, i, p);
#else
  {
    uint4 c;

    c = tl_code_round (v);
#if TL_STORE_TRC
    c.xyz = (uint3) (tl_code_search (v.x, codec), tl_code_search (v.y, codec),
                     tl_code_search (v.z, codec));
#endif
    p[i] = tl_convert_pixel (c);
  }
#endif
#endif
}
