/* ThreadLens: loading and storing pixels in the layer's storage.
 *
 * Kernels see 4 floats in their filter's working format; buffers hold the
 * layer's storage (tl_pixel).  The host builds one program variant per
 * storage (TL_STORE, TL_STORE_TRC, TL_PREMUL defined before this file)
 * and passes the codec table of engine/image/tl-codec.c; every rule mirrors that
 * file, operation for operation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* No contraction here either: a decoded value premultiplied by alpha
 * must not fuse with the sum it is added to, nor an encoding's scaling
 * with its rounding offset, or the bits would differ from the C codec's
 * and from kernel to kernel.
 */
#pragma OPENCL FP_CONTRACT OFF

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
/* The octave index of engine/image/tl-codec.c: its headers, then its bins. */
#define TL_CODE_WIDE_OCTAVES  65
#define TL_CODE_WIDE_EXPONENT 63
#define tl_convert_pixel convert_ushort4
#else
#define tl_pixel     uchar4
#define TL_CODE_MAX  255
#define TL_CODE_BINS 4096
#define TL_CODE_SCALE 0x1.010102p-8f
/* The one-read index of engine/image/tl-codec.c: bins from the float's bits. */
#define TL_CODE_STEP_OCTAVES 20
#define TL_CODE_STEP_FIRST   ((127 - TL_CODE_STEP_OCTAVES) << 7)
#define tl_convert_pixel convert_uchar4
#endif

#if TL_PREMUL
/* Premultiplied colour back to straight colour for storage, alpha kept.
 * Opaque pixels (most photos' all) skip the division, which is correctly
 * rounded in these programs and so long; x / 1 is x, so the bits are the
 * same.  H100, 4096x4096 u8: box-blur 389 to 407 GB/s, unsharp-mask's
 * column pass 8.1 to 7.7 times the copy.
 */
inline float4
tl_unpremultiply (float4 v)
{
  float alpha = v.w < TL_ALPHA_FLOOR ? TL_ALPHA_FLOOR : v.w;

  if (alpha != 1.0f)
    v.xyz /= alpha;
  return v;
}
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

/* The code whose interval of working values holds x: where the table
 * has one, the one-read index's bin (16-bit: its octave's header first)
 * and a comparison with the next code's threshold; elsewhere a coarse
 * bin, then a binary search over the few codes in it.
 */
inline uint
tl_code_search (float                x,
                global const float  *codec)
{
  global const float *thresholds = codec + TL_CODE_MAX + 1;
  global const float *bins       = thresholds + TL_CODE_MAX + 1;
  int                 bin;
  uint                lo, hi;

  x = fmin (fmax (x, 0.0f), 1.0f);
#if defined (TL_CODE_ONE_STEP) && TL_STORE == TL_STORE_U16
  {
    /* The octave's header, then its bin: two reads, not a search. */
    global const uint2 *index  = (global const uint2 *) (bins + TL_CODE_BINS + 2);
    uint                bits   = as_uint (x) & 0x7fffffff;
    uint2               head   = index[clamp ((int) (bits >> 23) -
                                              TL_CODE_WIDE_EXPONENT, 0,
                                              TL_CODE_WIDE_OCTAVES - 1)];
    uint2               step   = index[head.x + ((bits & 0x7fffff) >> head.y)];

    return as_float (step.y) <= x ? step.x >> 16 : step.x & 0xffff;
  }
#elif defined (TL_CODE_ONE_STEP)
  {
    /* The sign bit goes: fmax () may leave -0. */
    int   step_bin = max ((int) ((as_uint (x) & 0x7fffffff) >> 16) -
                          TL_CODE_STEP_FIRST, 0);
    uint2 step     = ((global const uint2 *) (bins + TL_CODE_BINS + 2))
                     [step_bin];

    return step.x + (as_float (step.y) <= x ? 1u : 0u);
  }
#endif
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

#if TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16
/* Codes to the working format, and back.  TL_DECODE_CODES is
 * tl_decode ()'s body, TABLE the codec's decoding table in either
 * address space.
 */
#if TL_STORE_TRC
#define TL_DECODE_TRC(c, table) \
  ((float4) ((table)[(c).x], (table)[(c).y], (table)[(c).z], \
             (float) (c).w * TL_CODE_SCALE))
#else
#define TL_DECODE_TRC(c, table) (convert_float4 (c) * TL_CODE_SCALE)
#endif
#if TL_PREMUL
#define TL_DECODE_CODES(c, table)                                   \
  float4 v     = TL_DECODE_TRC (c, table);                          \
  float  alpha = v.w < TL_ALPHA_FLOOR ? TL_ALPHA_FLOOR : v.w;       \
                                                                    \
  v.xyz *= alpha;                                                   \
  return v
#else
#define TL_DECODE_CODES(c, table) return TL_DECODE_TRC (c, table)
#endif

inline float4
tl_decode (uint4               c,
           global const float *codec)
{
  TL_DECODE_CODES (c, codec);
}

inline uint4
tl_encode (float4              v,
           global const float *codec)
{
  uint4 c;

#if TL_PREMUL
  v = tl_unpremultiply (v);
#endif
  c = tl_code_round (v);
#if TL_STORE_TRC
  c.xyz = (uint3) (tl_code_search (v.x, codec), tl_code_search (v.y, codec),
                   tl_code_search (v.z, codec));
#endif
  return c;
}
#endif

#if TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16
/* One colour channel's working value to its code, as tl_encode () takes
 * colour where nothing is premultiplied: for filters whose colour
 * channels all hold one value (mono-mixer's gray), which then search once.
 */
inline uint
tl_encode_colour (float               v,
                  global const float *codec)
{
#if TL_STORE_TRC
  return tl_code_search (v, codec);
#else
  return tl_code_round ((float4) v).x;
#endif
}
#endif

inline float4
tl_load (global const tl_pixel *p,
         int                    i,
         global const float    *codec)
{
#if TL_STORE == TL_STORE_FLOAT
  return p[i];
#elif TL_STORE == TL_STORE_HALF
  float4 v = vload_half4 (i, p);

#if TL_PREMUL
  {
    float alpha = v.w < TL_ALPHA_FLOOR ? TL_ALPHA_FLOOR : v.w;

    v.xyz *= alpha;
  }
#endif
  return v;
#else
  return tl_decode (convert_uint4 (p[i]), codec);
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
#elif TL_STORE == TL_STORE_HALF
#if TL_PREMUL
  v = tl_unpremultiply (v);
#endif
  vstore_half4_rte (v, i, p);
#else
  p[i] = tl_convert_pixel (tl_encode (v, codec));
#endif
}

#if TL_STORE == TL_STORE_U8
/* 8-bit storage's four codes of a pixel as one word, red in the low
 * byte: four pixels come in one 16-byte load and are taken apart with
 * shifts, which NVIDIA's compiler keeps as one access.
 */
inline uint4
tl_word_codes (uint word)
{
  return (uint4) (word & 0xffu, (word >> 8) & 0xffu, (word >> 16) & 0xffu,
                  word >> 24);
}

/* Kernels that decode each pixel several times (edge-sobel) read the
 * decoding table from a copy in local memory, which gathers faster than
 * the global table on a GPU.  TL_DECODE_LOCAL marks the storage where
 * there is a table to copy, on a device with local memory of its own
 * (TL_LOCAL_MEMORY, from the host); tl_codec_to_local () copies it, and
 * every item of the group must call it (it holds the barrier).
 */
#if TL_STORE_TRC && defined (TL_LOCAL_MEMORY)
#define TL_DECODE_LOCAL 1
#endif

inline void
tl_codec_to_local (global const float *codec,
                   local float        *table)
{
  int items = (int) (get_local_size (0) * get_local_size (1));

  for (int i = (int) (get_local_id (1) * get_local_size (0) + get_local_id (0));
       i <= TL_CODE_MAX; i += items)
    table[i] = codec[i];
  barrier (CLK_LOCAL_MEM_FENCE);
}

inline float4
tl_decode_local (uint4              c,
                 local const float *table)
{
  TL_DECODE_CODES (c, table);
}
#endif

/* Stored pixel J of SRC into pixel I of DST, its bits unchanged. */
inline void
tl_copy (global tl_pixel       *dst,
         int                    i,
         global const tl_pixel *src,
         int                    j)
{
#if TL_STORE == TL_STORE_HALF
  ((global ushort4 *) dst)[i] = ((global const ushort4 *) src)[j];
#else
  dst[i] = src[j];
#endif
}

/* Four pixels from I, a multiple of 4: 8-bit storage moves them in one
 * 16-byte access and 16-bit storage in two, where a pixel at a time
 * would take four narrow ones.  Decoded and encoded as tl_load () and
 * tl_store () do, so the bits are the same.
 */
inline void
tl_load4 (global const tl_pixel *p,
          int                    i,
          global const float    *codec,
          float4                *v)
{
#if TL_STORE == TL_STORE_U8
  uchar16 b = as_uchar16 (((global const uint4 *) p)[i >> 2]);

  v[0] = tl_decode (convert_uint4 (b.s0123), codec);
  v[1] = tl_decode (convert_uint4 (b.s4567), codec);
  v[2] = tl_decode (convert_uint4 (b.s89ab), codec);
  v[3] = tl_decode (convert_uint4 (b.scdef), codec);
#elif TL_STORE == TL_STORE_U16
  ushort8 a = as_ushort8 (((global const uint4 *) p)[i >> 1]);
  ushort8 b = as_ushort8 (((global const uint4 *) p)[(i >> 1) + 1]);

  v[0] = tl_decode (convert_uint4 (a.s0123), codec);
  v[1] = tl_decode (convert_uint4 (a.s4567), codec);
  v[2] = tl_decode (convert_uint4 (b.s0123), codec);
  v[3] = tl_decode (convert_uint4 (b.s4567), codec);
#else
  v[0] = tl_load (p, i, codec);
  v[1] = tl_load (p, i + 1, codec);
  v[2] = tl_load (p, i + 2, codec);
  v[3] = tl_load (p, i + 3, codec);
#endif
}

inline void
tl_store4 (global tl_pixel    *p,
           int                 i,
           const float4       *v,
           global const float *codec)
{
#if TL_STORE == TL_STORE_U8
  uchar16 b = (uchar16) (convert_uchar4 (tl_encode (v[0], codec)),
                         convert_uchar4 (tl_encode (v[1], codec)),
                         convert_uchar4 (tl_encode (v[2], codec)),
                         convert_uchar4 (tl_encode (v[3], codec)));

  ((global uint4 *) p)[i >> 2] = as_uint4 (b);
#elif TL_STORE == TL_STORE_U16
  ushort8 a = (ushort8) (convert_ushort4 (tl_encode (v[0], codec)),
                         convert_ushort4 (tl_encode (v[1], codec)));
  ushort8 b = (ushort8) (convert_ushort4 (tl_encode (v[2], codec)),
                         convert_ushort4 (tl_encode (v[3], codec)));

  ((global uint4 *) p)[i >> 1]       = as_uint4 (a);
  ((global uint4 *) p)[(i >> 1) + 1] = as_uint4 (b);
#else
  tl_store (p, i, v[0], codec);
  tl_store (p, i + 1, v[1], codec);
  tl_store (p, i + 2, v[2], codec);
  tl_store (p, i + 3, v[3], codec);
#endif
}

/* Copies the work-group's block of the layer into local memory, decoded:
 * the group's span and MARGIN columns either side, its rows and MARGIN
 * rows above and below, clamped to the region's edges, BLOCK_COLS (its
 * span + 2 MARGIN) a row.  Each pixel is loaded and decoded once for the
 * group, where each item loading its own neighbours would decode most
 * pixels several times.  Callers put a barrier after it.
 */
inline int
tl_block_cols (const TlDispatch *d,
               int               margin)
{
  return (int) get_local_size (0) * d->pixels_per_item + 2 * margin;
}

inline void
tl_load_block (global const tl_pixel *in,
               const TlDispatch      *d,
               global const float    *codec,
               int                    margin,
               local float4          *block)
{
  int  lw     = get_local_size (0);
  int  lh     = get_local_size (1);
  int  cols   = tl_block_cols (d, margin);
  int  rows   = lh + 2 * margin;
  int2 corner = tl_group_origin (d) - margin;

  for (int j = get_local_id (1); j < rows; j += lh)
    {
      int y = clamp (corner.y + j, 0, d->height - 1) * d->stride;

      for (int i = get_local_id (0); i < cols; i += lw)
        block[j * cols + i] = tl_load (in, y + clamp (corner.x + i, 0, d->width - 1),
                                       codec);
    }
}

/* This work-item's pixels of one row: RUN4 (i, OP) for each run of four
 * from pixel I where I is a multiple of 4, ONE (i, OP) for each pixel
 * elsewhere.  Needs d in scope.
 */
#define TL_ITEM_RUNS(RUN4, ONE, OP)                                     \
  do                                                                    \
    {                                                                   \
      int2 origin_ = tl_item_origin (&d);                               \
      int  end_    = min (origin_.x + d.pixels_per_item, d.width);      \
      int  row_    = origin_.y * d.stride;                              \
      int  x_      = origin_.x;                                         \
                                                                        \
      if (origin_.y >= d.height)                                        \
        break;                                                          \
      for (; x_ + 4 <= end_ && ((row_ + x_) & 3) == 0; x_ += 4)         \
        RUN4 (row_ + x_, OP);                                           \
      for (; x_ < end_; x_++)                                           \
        ONE (row_ + x_, OP);                                            \
    }                                                                   \
  while (0)

/* The loop of a point filter, OP (v) giving each result: four pixels
 * decoded, filtered and encoded together where they are aligned.  Needs
 * in, out, d and codec in scope.
 */
#define TL_POINT_RUN4(i, OP)                                            \
  do                                                                    \
    {                                                                   \
      float4 run_[4];                                                   \
                                                                        \
      tl_load4 (in, (i), codec, run_);                                  \
      run_[0] = OP (run_[0]);                                           \
      run_[1] = OP (run_[1]);                                           \
      run_[2] = OP (run_[2]);                                           \
      run_[3] = OP (run_[3]);                                           \
      tl_store4 (out, (i), run_, codec);                                \
    }                                                                   \
  while (0)
#define TL_POINT_ONE(i, OP) \
  tl_store (out, (i), OP (tl_load (in, (i), codec)), codec)
#define TL_POINT_PIXELS(OP) TL_ITEM_RUNS (TL_POINT_RUN4, TL_POINT_ONE, OP)

/* Pixel (X, Y) of a region of working floats, clamped to its edges. */
inline float4
tl_floats_clamped (global const float4 *in,
                   const TlDispatch    *d,
                   int                  x,
                   int                  y)
{
  return in[clamp (y, 0, d->height - 1) * d->stride + clamp (x, 0, d->width - 1)];
}

/* A pass that decodes the region into working floats, once, for kernels
 * that read each pixel many times (engine/run/tl-run.c,
 * tl_run_input_floats ()): defines kernel NAME under the plan.  Argument
 * slots: tl-args.h, the filter kernels' four.
 */
#define TL_DECODE_KERNEL(NAME)                                          \
kernel void                                                             \
NAME (global const tl_pixel *in,                                        \
      global float4         *floats,                                    \
      TlDispatch             d,                                         \
      global const float    *codec)                                     \
{                                                                       \
  int2 origin = tl_item_origin (&d);                                    \
  int  end    = min (origin.x + d.pixels_per_item, d.width);            \
                                                                        \
  if (origin.y >= d.height)                                             \
    return;                                                             \
  for (int x = origin.x; x < end; x++)                                  \
    floats[origin.y * d.stride + x] = tl_load (in, origin.y * d.stride + x, \
                                               codec);                  \
}
