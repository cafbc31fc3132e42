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
inline float4
tl_brightness_contrast_pixel (float4 v,
                              float  contrast,
                              float  brightness)
{
  return (float4) ((v.x - 0.5f) * contrast + brightness + 0.5f,
                   (v.y - 0.5f) * contrast + brightness + 0.5f,
                   (v.z - 0.5f) * contrast + brightness + 0.5f,
                   v.w);
}

#define TL_BRIGHTNESS_CONTRAST(v) tl_brightness_contrast_pixel (v, contrast, brightness)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_brightness_contrast)
/* Argument slots: tl-args.h, TL_ARG_BRIGHTNESS_CONTRAST_*. */
kernel void
tl_brightness_contrast (global const tl_pixel *in,
                        global tl_pixel       *out,
                        TlDispatch             d,
                        global const float    *codec,
                        float                  contrast,
                        float                  brightness)
{
  TL_POINT_PIXELS (TL_BRIGHTNESS_CONTRAST);
}
#endif

/* Linear RGBA: white where Y >= level (the threshold taken back to linear
 * by the host), black elsewhere, alpha kept.
 */
inline float
tl_threshold_luma (float r,
                   float g,
                   float b)
{
  return (r * TL_LUMINANCE_RED +
          g * TL_LUMINANCE_GREEN +
          b * TL_LUMINANCE_BLUE);
}

inline float4
tl_threshold_pixel (float4 v,
                    float  level)
{
  float y = tl_threshold_luma (v.x, v.y, v.z) >= level ? 1.0f : 0.0f;

  return (float4) (y, y, y, v.w);
}

#define TL_THRESHOLD(v) tl_threshold_pixel (v, level)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_threshold)
/* Argument slots: tl-args.h, TL_ARG_THRESHOLD_*. */
kernel void
tl_threshold (global const tl_pixel *in,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              float                  level)
{
  TL_POINT_PIXELS (TL_THRESHOLD);
}
#endif

/* Linear RGBA: gray = red * R + green * G + blue * B in every colour
 * channel, alpha kept; w.xyz are the weights.
 */
inline float
tl_mono_mixer_gray (float4 v,
                    float4 w)
{
  return fma (v.z, w.z, fma (v.y, w.y, v.x * w.x));
}

inline float4
tl_mono_mixer_pixel (float4 v,
                     float4 w)
{
  float y = tl_mono_mixer_gray (v, w);

  return (float4) (y, y, y, v.w);
}

#define TL_MONO_MIXER(v) tl_mono_mixer_pixel (v, w)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_mono_mixer)
/* Argument slots: tl-args.h, TL_ARG_MONO_MIXER_*. */
kernel void
tl_mono_mixer (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec,
               float4                 w)
{
  TL_POINT_PIXELS (TL_MONO_MIXER);
}
#endif

/* R~G~B~A: each colour channel is a row of the sepia matrix times RGB,
 * alpha kept; the sums are fused multiply-adds, as in the C reference.
 */
inline float4
tl_sepia_pixel (float4 v,
                float4 r,
                float4 g,
                float4 b)
{
  return (float4) (fma (r.z, v.z, fma (r.y, v.y, r.x * v.x)),
                   fma (g.z, v.z, fma (g.y, v.y, g.x * v.x)),
                   fma (b.z, v.z, fma (b.y, v.y, b.x * v.x)),
                   v.w);
}

#define TL_SEPIA(v) tl_sepia_pixel (v, r, g, b)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_sepia)
/* Argument slots: tl-args.h, TL_ARG_SEPIA_*. */
kernel void
tl_sepia (global const tl_pixel *in,
          global tl_pixel       *out,
          TlDispatch             d,
          global const float    *codec,
          float4                 r,
          float4                 g,
          float4                 b)
{
  TL_POINT_PIXELS (TL_SEPIA);
}
#endif

/* R~G~B~A: GEGL's (int) (a + 0.5) of a = v * levels, the sum in double,
 * taken exactly in float as tl_tone_posterize_round () in
 * engine/filters/tl-filter-tone.c does: halves round up, and below -0.5 towards
 * zero unless the sum is whole.
 */
inline float
tl_posterize_round (float a)
{
  float n = floor (a);
  float r = a - n;

  if (r >= 0.5f)
    n += 1.0f;
  if (a < -0.5f && r != 0.5f)
    n += 1.0f;
  return n;
}

/* Each colour channel a multiple of step (the host's 1 / levels), alpha
 * kept.
 */
inline float4
tl_posterize_pixel (float4 v,
                    float  levels,
                    float  step)
{
  return (float4) (tl_posterize_round (v.x * levels) * step,
                   tl_posterize_round (v.y * levels) * step,
                   tl_posterize_round (v.z * levels) * step,
                   v.w);
}

#define TL_POSTERIZE(v) tl_posterize_pixel (v, levels, step)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_posterize)
/* Argument slots: tl-args.h, TL_ARG_POSTERIZE_*. */
kernel void
tl_posterize (global const tl_pixel *in,
              global tl_pixel       *out,
              TlDispatch             d,
              global const float    *codec,
              float                  levels,
              float                  step)
{
  TL_POINT_PIXELS (TL_POSTERIZE);
}
#endif

#if TL_STORE == TL_STORE_U8
/* The loop of a filter of 8-bit words, OP (word) giving each result's
 * word (red in the low byte, as tl_word_codes () reads it): aligned runs
 * of four pixels in one 16-byte access, as tl_load4 () moves them.
 * Needs in, out and d in scope.
 */
#define TL_WORD_RUN4(i, OP)                                             \
  do                                                                    \
    {                                                                   \
      uint4 words_ = ((global const uint4 *) in)[(i) >> 2];             \
                                                                        \
      ((global uint4 *) out)[(i) >> 2] =                                \
        (uint4) (OP (words_.x), OP (words_.y), OP (words_.z),           \
                 OP (words_.w));                                        \
    }                                                                   \
  while (0)
#define TL_WORD_ONE(i, OP) \
  (((global uint *) out)[i] = OP (((global const uint *) in)[i]))
#define TL_WORD_PIXELS(OP) TL_ITEM_RUNS (TL_WORD_RUN4, TL_WORD_ONE, OP)
#endif

#if TL_STORE == TL_STORE_U16
/* The loop of a filter of 16-bit codes, OP (p) giving each result's
 * ushort4: aligned runs of four pixels in two 16-byte accesses, as
 * tl_load4 () moves them (an access a pixel took 1.3 times as long in
 * threshold's kernel on the H100).  Needs in, out and d in scope.
 */
#define TL_SHORT_RUN4(i, OP)                                            \
  do                                                                    \
    {                                                                   \
      ushort8 a_ = as_ushort8 (((global const uint4 *) in)[(i) >> 1]);  \
      ushort8 b_ = as_ushort8 (((global const uint4 *) in)[((i) >> 1) + 1]); \
                                                                        \
      ((global uint4 *) out)[(i) >> 1] =                                \
        as_uint4 ((ushort8) (OP (a_.s0123), OP (a_.s4567)));            \
      ((global uint4 *) out)[((i) >> 1) + 1] =                          \
        as_uint4 ((ushort8) (OP (b_.s0123), OP (b_.s4567)));            \
    }                                                                   \
  while (0)
#define TL_SHORT_ONE(i, OP) (out[i] = OP (in[i]))
#define TL_SHORT_PIXELS(OP) TL_ITEM_RUNS (TL_SHORT_RUN4, TL_SHORT_ONE, OP)
#endif

/* 8-bit and 16-bit storage of a filter whose channels stay apart
 * (brightness-contrast, posterize: each colour channel's code follows from
 * that channel's code alone, alpha's from alpha's, in a format without
 * premultiplication): TABLE holds the result of every code, channel by
 * channel, which the host takes from the C reference
 * (engine/filters/tl-filter-tone.c), so the bits are the reference's.  A lookup a
 * channel replaces the decoding, the filter's arithmetic and the
 * encoding's search.
 */
#if (TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16) && \
    (! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_code_table))
#if TL_STORE == TL_STORE_U8
inline uint
tl_code_table_word (uint                 word,
                    global const uchar4 *table)
{
  uint4 c = tl_word_codes (word);

  return (uint) table[c.x].x | (uint) table[c.y].y << 8 |
         (uint) table[c.z].z << 16 | (uint) table[c.w].w << 24;
}

#define TL_CODE_TABLE(word) tl_code_table_word (word, table)
#define TL_CODE_TABLE_PIXELS TL_WORD_PIXELS (TL_CODE_TABLE)
#else
#define TL_CODE_TABLE(p) \
  ((ushort4) (table[(p).x].x, table[(p).y].y, table[(p).z].z, table[(p).w].w))
#define TL_CODE_TABLE_PIXELS TL_SHORT_PIXELS (TL_CODE_TABLE)
#endif

/* Argument slots: tl-args.h, TL_ARG_CODE_TABLE_*. */
kernel void
tl_code_table (global const tl_pixel *in,
               global tl_pixel       *out,
               TlDispatch             d,
               global const float    *codec,
               global const tl_pixel *table)
{
  TL_CODE_TABLE_PIXELS;
}
#endif

/* mono-mixer in 8-bit and 16-bit storage without premultiplication: the
 * same decoding, sums and encoding as tl_mono_mixer () on the colour
 * channels, the gray encoded once for all three, and each pixel's alpha
 * code kept (a round trip without premultiplication keeps it), so the
 * same bits with one search a pixel instead of three.
 */
#if (TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16) && \
    (! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_mono_mixer_codes))
#if TL_STORE == TL_STORE_U8
inline uint
tl_mono_mixer_word (uint                word,
                    global const float *codec,
                    float4              w)
{
  float y = tl_mono_mixer_gray (tl_decode (tl_word_codes (word), codec), w);

  return tl_encode_colour (y, codec) * 0x010101u | (word & 0xff000000u);
}

#define TL_MONO_MIXER_WORD(word) tl_mono_mixer_word (word, codec, w)
#define TL_MONO_MIXER_CODES TL_WORD_PIXELS (TL_MONO_MIXER_WORD)
#else
inline ushort4
tl_mono_mixer_short4 (ushort4             p,
                      global const float *codec,
                      float4              w)
{
  float  y = tl_mono_mixer_gray (tl_decode (convert_uint4 (p), codec), w);
  ushort c = tl_encode_colour (y, codec);

  return (ushort4) (c, c, c, p.w);
}

#define TL_MONO_MIXER_PIXEL(p) tl_mono_mixer_short4 ((p), codec, w)
#define TL_MONO_MIXER_CODES TL_SHORT_PIXELS (TL_MONO_MIXER_PIXEL)
#endif

/* Argument slots: tl-args.h, TL_ARG_MONO_MIXER_*. */
kernel void
tl_mono_mixer_codes (global const tl_pixel *in,
                     global tl_pixel       *out,
                     TlDispatch             d,
                     global const float    *codec,
                     float4                 w)
{
  TL_MONO_MIXER_CODES;
}
#endif

/* threshold in 8-bit and 16-bit storage without premultiplication: the
 * colour codes decoded and their luma compared as tl_threshold () does,
 * each pixel's colour then WHITE or BLACK (the codes of 1 and 0, which
 * the host takes from the C codec) and its alpha code kept (a round trip
 * without premultiplication keeps it).  Nothing is encoded, so no code
 * is searched for: three searches a pixel spared, binary ones in 16-bit
 * storage.
 */
#if (TL_STORE == TL_STORE_U8 || TL_STORE == TL_STORE_U16) && \
    (! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_threshold_codes))
inline uint
tl_threshold_code (uint4               c,
                   global const float *codec,
                   float               level,
                   uint                white,
                   uint                black)
{
  float4 v = tl_decode (c, codec);

  return tl_threshold_luma (v.x, v.y, v.z) >= level ? white : black;
}

#if TL_STORE == TL_STORE_U8
#define TL_THRESHOLD_WORD(word)                                          \
  (tl_threshold_code (tl_word_codes (word), codec, level, white, black) * \
   0x010101u | ((word) & 0xff000000u))
#define TL_THRESHOLD_CODES TL_WORD_PIXELS (TL_THRESHOLD_WORD)
#else
inline ushort4
tl_threshold_short4 (ushort4             p,
                     global const float *codec,
                     float               level,
                     uint                white,
                     uint                black)
{
  ushort c = tl_threshold_code (convert_uint4 (p), codec, level, white, black);

  return (ushort4) (c, c, c, p.w);
}

#define TL_THRESHOLD_PIXEL(p)                                           \
  tl_threshold_short4 ((p), codec, level, white, black)
#define TL_THRESHOLD_CODES TL_SHORT_PIXELS (TL_THRESHOLD_PIXEL)
#endif

/* Argument slots: tl-args.h, TL_ARG_THRESHOLD_CODES_*. */
kernel void
tl_threshold_codes (global const tl_pixel *in,
                    global tl_pixel       *out,
                    TlDispatch             d,
                    global const float    *codec,
                    float                  level,
                    uint                   white,
                    uint                   black)
{
  TL_THRESHOLD_CODES;
}
#endif
