/* ThreadLens: tone filters (brightness-contrast, threshold, mono-mixer,
 * sepia, posterize), C reference beside the OpenCL path, each after GEGL's
 * operation of the same name: its parameters, working format and maths.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-codec.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-run.h"

/* Relative luminance of linear sRGB, as babl computes Y (D50-adapted
 * primaries, so these are not the Rec. 709 0.2126, 0.7152, 0.0722).
 */
#define TL_TONE_LUMINANCE_RED   0.22248840f
#define TL_TONE_LUMINANCE_GREEN 0.71690369f
#define TL_TONE_LUMINANCE_BLUE  0.06060791f

/* The sRGB curve backwards: Y' to linear Y.  Values below the linear
 * segment, negative ones included, stay on the straight line.
 */
static gfloat
tl_tone_linear_from_srgb (gdouble value)
{
  if (value <= 0.04045)
    return value / 12.92;

  return pow ((value + 0.055) / 1.055, 2.4);
}

/* GEGL's sepia matrix for SCALE, rows of R, G and B weights. */
static void
tl_tone_sepia_matrix (gdouble scale,
                      gfloat  m[9])
{
  gdouble rest = 1.0 - scale;

  m[0] = 0.393 + 0.607 * rest;
  m[1] = 0.769 - 0.769 * rest;
  m[2] = 0.189 - 0.189 * rest;

  m[3] = 0.349 - 0.349 * rest;
  m[4] = 0.686 + 0.314 * rest;
  m[5] = 0.168 - 0.168 * rest;

  m[6] = 0.272 - 0.272 * rest;
  m[7] = 0.534 - 0.534 * rest;
  m[8] = 0.131 + 0.869 * rest;
}

/* One of a tone kernel's own arguments: its slot (kernels/tl-args.h)
 * and value.
 */
typedef struct
{
  guint        slot;
  gsize        size;
  const void  *value;
} TlToneArg;

/* Sets the pixel buffers and the N_ARGS ARGS of KERNEL_NAME, then
 * launches it.
 */
static gboolean
tl_tone_launch (TlRun           *run,
                const gchar     *kernel_name,
                guint            n_args,
                const TlToneArg *args,
                GError         **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, kernel_name, error);
  cl_mem    in     = tl_run_get_input (run);
  cl_mem    out    = tl_run_get_output (run);
  guint     i;

  if (! kernel ||
      ! tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out, error))
    return FALSE;

  for (i = 0; i < n_args; i++)
    if (! tl_run_set_arg (run, kernel, args[i].slot, args[i].size,
                          args[i].value, error))
      return FALSE;

  return tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error);
}

/* Whether the pixels are 8-bit or 16-bit codes without
 * premultiplication: then a filter whose channels stay apart
 * (brightness-contrast, posterize) gives each channel a result that
 * depends on that channel's code alone, and can take them through a
 * table of codes (tl_tone_launch_table ()); threshold's result needs
 * no encoding, only the codes of white and black
 * (tl_tone_launch_threshold_codes ()); and mono-mixer keeps each alpha
 * code and encodes its gray once (tl_mono_mixer_codes).
 */
static gboolean
tl_tone_integer_codes (const TlCodec *codec)
{
  return (codec != NULL && ! tl_codec_premultiplies (codec) &&
          (tl_codec_get_storage (codec) == TL_STORAGE_U8 ||
           tl_codec_get_storage (codec) == TL_STORAGE_U16));
}

/* The kernels of those paths, for the planner (TlFilter.kernels_for). */
static const gchar *const tl_tone_code_table_kernels[] = { "tl_code_table", NULL };
static const gchar *const tl_tone_threshold_codes_kernels[] = { "tl_threshold_codes", NULL };
static const gchar *const tl_tone_mono_mixer_codes_kernels[] = { "tl_mono_mixer_codes", NULL };

static const gchar *const *
tl_tone_code_table_kernels_for (const TlCodec *codec)
{
  return tl_tone_integer_codes (codec) ? tl_tone_code_table_kernels : NULL;
}

static const gchar *const *
tl_tone_threshold_kernels_for (const TlCodec *codec)
{
  return tl_tone_integer_codes (codec) ? tl_tone_threshold_codes_kernels : NULL;
}

static const gchar *const *
tl_tone_mono_mixer_kernels_for (const TlCodec *codec)
{
  return tl_tone_integer_codes (codec) ? tl_tone_mono_mixer_codes_kernels : NULL;
}

/* The last table of codes made, for the next run of the same filter
 * under the same settings and codec: GIMP asks the GEGL module for a
 * filter's result in chunks (seven for a 3840x2160 layer), and a 16-bit
 * table takes 4 ms to make on this machine's CPU.
 */
typedef struct
{
  const TlFilter *filter;
  TlValue        *values;      /* filter->n_params */
  const Babl     *format;      /* the codec's stored and working formats, */
  const Babl     *working;     /* which make the codec */
  GBytes         *codes;
} TlToneCodes;

static GMutex      tl_tone_codes_lock;
static TlToneCodes tl_tone_last_codes;

static gboolean
tl_tone_codes_match (const TlToneCodes *codes,
                     const TlFilter    *filter,
                     const TlValue     *values,
                     const TlCodec     *codec)
{
  guint i, k;

  if (codes->filter != filter ||
      codes->format != tl_codec_get_format (codec) ||
      codes->working != tl_codec_get_working (codec))
    return FALSE;
  for (i = 0; i < filter->n_params; i++)
    {
      if (codes->values[i].n != values[i].n)
        return FALSE;
      for (k = 0; k < values[i].n; k++)
        if (codes->values[i].v[k] != values[i].v[k])
          return FALSE;
    }
  return TRUE;
}

/* FILTER's result for every code of CODEC's storage in every channel:
 * the C reference filters a ramp of them, so each code's result is the
 * reference's bit for bit.  A reference to the bytes, kept for the next
 * run that asks the same; NULL with ERROR when memory runs out.
 */
static GBytes *
tl_tone_get_codes (const TlFilter *filter,
                   const TlValue  *values,
                   const TlCodec  *codec,
                   GError        **error)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&tl_tone_codes_lock);
  gboolean     wide    = tl_codec_get_storage (codec) == TL_STORAGE_U16;
  guint        n_codes = wide ? 65536 : 256;
  gsize        bytes   = (gsize) n_codes * tl_codec_get_pixel_size (codec);
  guint8      *ramp, *table;
  TlPixels     pixels  = { n_codes, 1, codec, NULL, NULL, 0, 0 };
  TlToneCodes *last    = &tl_tone_last_codes;
  guint        i;

  if (last->codes && tl_tone_codes_match (last, filter, values, codec))
    return g_bytes_ref (last->codes);

  ramp  = g_malloc (bytes);
  table = g_malloc (bytes);
  for (i = 0; i < n_codes * 4; i++)
    if (wide)
      ((guint16 *) ramp)[i] = i / 4;
    else
      ramp[i] = i / 4;
  pixels.in  = ramp;
  pixels.out = table;
  if (! tl_filter_reference (filter, values, &pixels, error))
    {
      g_free (ramp);
      g_free (table);
      return NULL;
    }
  g_free (ramp);

  g_clear_pointer (&last->codes, g_bytes_unref);
  g_free (last->values);
  last->filter  = filter;
  last->values  = g_memdup2 (values, filter->n_params * sizeof (TlValue));
  last->format  = tl_codec_get_format (codec);
  last->working = tl_codec_get_working (codec);
  last->codes   = g_bytes_new_take (table, bytes);
  return g_bytes_ref (last->codes);
}

/* FILTER through its table of codes (kernels/tone.cl, tl_code_table):
 * the kernel looks each channel up.  On the H100 at 4096x4096 in 8-bit
 * storage that took brightness-contrast from 1.22 to 1.02 times the
 * one-pass copy and posterize from 1.33-1.37 to 1.01-1.03; on PoCL at
 * 3840x2160 from 43-45 to 11-17 ms and from 88-94 to 14 ms.
 */
static gboolean
tl_tone_launch_table (TlRun          *run,
                      const TlFilter *filter,
                      const TlValue  *values,
                      GError        **error)
{
  g_autoptr(GBytes) table = tl_tone_get_codes (filter, values,
                                               tl_run_get_pixels (run)->codec,
                                               error);
  cl_kernel         kernel;
  cl_mem            codes, in = tl_run_get_input (run), out = tl_run_get_output (run);

  if (table == NULL)
    return FALSE;
  codes  = tl_run_new_buffer (run, CL_MEM_READ_ONLY, g_bytes_get_size (table),
                              g_bytes_get_data (table, NULL), error);
  kernel = codes ? tl_run_get_kernel (run, "tl_code_table", error) : NULL;
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_CODE_TABLE_TABLE,
                          sizeof (cl_mem), &codes, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

/* brightness-contrast */

static void
tl_tone_brightness_contrast_reference (const TlFilter      *filter,
                                       const TlValue       *values,
                                       const TlFloatPixels *pixels)
{
  gfloat contrast   = values[0].v[0];
  gfloat brightness = values[1].v[0];
  gsize  i, n = (gsize) pixels->width * pixels->height;

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      out[0] = (in[0] - 0.5f) * contrast + brightness + 0.5f;
      out[1] = (in[1] - 0.5f) * contrast + brightness + 0.5f;
      out[2] = (in[2] - 0.5f) * contrast + brightness + 0.5f;
      out[3] = in[3];
    }
}

static gboolean
tl_tone_brightness_contrast_cl (TlRun         *run,
                                const TlValue *values,
                                GError       **error)
{
  cl_float     contrast   = values[0].v[0];
  cl_float     brightness = values[1].v[0];
  const TlToneArg args[] =
  {
    { TL_ARG_BRIGHTNESS_CONTRAST_CONTRAST, sizeof (cl_float), &contrast },
    { TL_ARG_BRIGHTNESS_CONTRAST_BRIGHTNESS, sizeof (cl_float), &brightness },
  };

  if (tl_tone_integer_codes (tl_run_get_pixels (run)->codec))
    return tl_tone_launch_table (run, &tl_filter_brightness_contrast, values,
                                 error);
  return tl_tone_launch (run, "tl_brightness_contrast", G_N_ELEMENTS (args),
                         args, error);
}

static const TlParamSpec tl_tone_brightness_contrast_params[] =
{
  {
    .name        = "contrast",
    .label       = N_("Contrast"),
    .description = N_("Magnitude of contrast scaling around mid-gray: above "
                      "1.0 more contrast, below 1.0 less"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -5.0,
    .max         = 5.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 1.0 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = 0.0,
    .ui_max      = 2.0,
  },
  {
    .name        = "brightness",
    .label       = N_("Brightness"),
    .description = N_("Amount to increase brightness, added after contrast "
                      "scaling"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -3.0,
    .max         = 3.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.0 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = -1.0,
    .ui_max      = 1.0,
  },
};

/* threshold */

/* GEGL compares Y' (babl's sRGB-curved luminance) with value; the curve
 * rises, so this compares linear Y with value taken back through the
 * curve, which needs no pow () per pixel.
 */
static void
tl_tone_threshold_reference (const TlFilter      *filter,
                             const TlValue       *values,
                             const TlFloatPixels *pixels)
{
  gfloat level = tl_tone_linear_from_srgb (values[0].v[0]);
  gsize  i, n = (gsize) pixels->width * pixels->height;

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;
      gfloat        y;

      y = (in[0] * TL_TONE_LUMINANCE_RED +
           in[1] * TL_TONE_LUMINANCE_GREEN +
           in[2] * TL_TONE_LUMINANCE_BLUE);
      y = y >= level ? 1.0f : 0.0f;

      out[0] = y;
      out[1] = y;
      out[2] = y;
      out[3] = in[3];
    }
}

/* threshold without encoding (kernels/tone.cl, tl_threshold_codes) where
 * the pixels are codes: the kernel gives each pixel's colour the code of
 * white or of black, as the C codec encodes 1 and 0.
 */
static gboolean
tl_tone_launch_threshold_codes (TlRun    *run,
                                cl_float  level,
                                GError  **error)
{
  const TlCodec *codec   = tl_run_get_pixels (run)->codec;
  const gfloat   ends[8] = { 1.0f, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f };
  guint16        codes[8];   /* two pixels in either storage */
  cl_uint        white, black;
  const TlToneArg args[] =
  {
    { TL_ARG_THRESHOLD_CODES_LEVEL, sizeof (cl_float), &level },
    { TL_ARG_THRESHOLD_CODES_WHITE, sizeof (cl_uint), &white },
    { TL_ARG_THRESHOLD_CODES_BLACK, sizeof (cl_uint), &black },
  };

  tl_codec_encode (codec, ends, codes, 2);
  if (tl_codec_get_storage (codec) == TL_STORAGE_U8)
    {
      white = ((const guint8 *) codes)[0];
      black = ((const guint8 *) codes)[4];
    }
  else
    {
      white = codes[0];
      black = codes[4];
    }
  return tl_tone_launch (run, "tl_threshold_codes", G_N_ELEMENTS (args), args,
                         error);
}

static gboolean
tl_tone_threshold_cl (TlRun         *run,
                      const TlValue *values,
                      GError       **error)
{
  cl_float     level   = tl_tone_linear_from_srgb (values[0].v[0]);
  const TlToneArg args[] =
  {
    { TL_ARG_THRESHOLD_LEVEL, sizeof (cl_float), &level },
  };

  if (tl_tone_integer_codes (tl_run_get_pixels (run)->codec))
    return tl_tone_launch_threshold_codes (run, level, error);
  return tl_tone_launch (run, "tl_threshold", G_N_ELEMENTS (args), args,
                         error);
}

static const TlParamSpec tl_tone_threshold_params[] =
{
  {
    .name        = "value",
    .label       = N_("Threshold"),
    .description = N_("Scalar threshold level on luma: pixels at or above it "
                      "become white, the rest black"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -200.0,
    .max         = 200.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.5 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = 0.0,
    .ui_max      = 1.0,
  },
};

/* mono-mixer */

static void
tl_tone_mono_mixer_reference (const TlFilter      *filter,
                              const TlValue       *values,
                              const TlFloatPixels *pixels)
{
  gfloat red   = values[0].v[0];
  gfloat green = values[1].v[0];
  gfloat blue  = values[2].v[0];
  gsize  i, n = (gsize) pixels->width * pixels->height;

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;
      gfloat        y;

      /* Fused multiply-adds, the kernel's order. */
      y = fmaf (in[2], blue, fmaf (in[1], green, in[0] * red));

      out[0] = y;
      out[1] = y;
      out[2] = y;
      out[3] = in[3];
    }
}

static gboolean
tl_tone_mono_mixer_cl (TlRun         *run,
                       const TlValue *values,
                       GError       **error)
{
  cl_float     weights[4] = { values[0].v[0], values[1].v[0],
                              values[2].v[0], 0.0f };
  const TlToneArg args[] =
  {
    { TL_ARG_MONO_MIXER_W, sizeof (weights), weights },
  };

  /* In 8-bit and 16-bit storage tl_mono_mixer_codes, which encodes the
   * gray once.
   */
  return tl_tone_launch (run,
                         tl_filter_get_kernels (&tl_filter_mono_mixer,
                                                tl_run_get_pixels (run)->codec)[0],
                         G_N_ELEMENTS (args), args, error);
}

static const TlParamSpec tl_tone_mono_mixer_params[] =
{
  {
    .name        = "red",
    .label       = N_("Red Channel Multiplier"),
    .description = N_("Weight of linear red in the gray result"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -5.0,
    .max         = 5.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.333 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = -2.0,
    .ui_max      = 2.0,
  },
  {
    .name        = "green",
    .label       = N_("Green Channel Multiplier"),
    .description = N_("Weight of linear green in the gray result"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -5.0,
    .max         = 5.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.333 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = -2.0,
    .ui_max      = 2.0,
  },
  {
    .name        = "blue",
    .label       = N_("Blue Channel Multiplier"),
    .description = N_("Weight of linear blue in the gray result"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -5.0,
    .max         = 5.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.333 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = -2.0,
    .ui_max      = 2.0,
  },
};

/* sepia */

static void
tl_tone_sepia_reference (const TlFilter      *filter,
                         const TlValue       *values,
                         const TlFloatPixels *pixels)
{
  gfloat m[9];
  gsize  i, n = (gsize) pixels->width * pixels->height;

  tl_tone_sepia_matrix (values[0].v[0], m);

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      /* Fused multiply-adds, the kernel's order. */
      out[0] = fmaf (m[2], in[2], fmaf (m[1], in[1], m[0] * in[0]));
      out[1] = fmaf (m[5], in[2], fmaf (m[4], in[1], m[3] * in[0]));
      out[2] = fmaf (m[8], in[2], fmaf (m[7], in[1], m[6] * in[0]));
      out[3] = in[3];
    }
}

static gboolean
tl_tone_sepia_cl (TlRun         *run,
                  const TlValue *values,
                  GError       **error)
{
  gfloat       m[9];
  cl_float4    rows[3];
  const TlToneArg args[] =
  {
    { TL_ARG_SEPIA_R, sizeof (cl_float4), &rows[0] },
    { TL_ARG_SEPIA_G, sizeof (cl_float4), &rows[1] },
    { TL_ARG_SEPIA_B, sizeof (cl_float4), &rows[2] },
  };
  guint        row;

  tl_tone_sepia_matrix (values[0].v[0], m);

  for (row = 0; row < 3; row++)
    {
      rows[row].s[0] = m[row * 3 + 0];
      rows[row].s[1] = m[row * 3 + 1];
      rows[row].s[2] = m[row * 3 + 2];
      rows[row].s[3] = 0.0f;
    }

  return tl_tone_launch (run, "tl_sepia", G_N_ELEMENTS (args), args, error);
}

static const TlParamSpec tl_tone_sepia_params[] =
{
  {
    .name        = "scale",
    .label       = N_("Effect strength"),
    .description = N_("Strength of the sepia effect"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 1.0 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = 0.0,
    .ui_max      = 1.0,
  },
};

static const gchar *const tl_tone_brightness_contrast_kernels[] = { "tl_brightness_contrast", NULL };
static const gchar *const tl_tone_threshold_kernels[] = { "tl_threshold", NULL };
static const gchar *const tl_tone_mono_mixer_kernels[] = { "tl_mono_mixer", NULL };
static const gchar *const tl_tone_sepia_kernels[] = { "tl_sepia", NULL };

const TlFilter tl_filter_brightness_contrast =
{
  .name        = "brightness-contrast",
  .label       = N_("Brightness-Contrast"),
  .description = N_("Scale linear RGB by contrast around mid-gray, then add "
                    "brightness; alpha kept"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_tone_brightness_contrast_params,
  .n_params    = G_N_ELEMENTS (tl_tone_brightness_contrast_params),
  .program     = "tone",
  .kernels     = tl_tone_brightness_contrast_kernels,
  .kernels_for = tl_tone_code_table_kernels_for,
  .reference   = tl_tone_brightness_contrast_reference,
  .run_cl      = tl_tone_brightness_contrast_cl,
};

const TlFilter tl_filter_threshold =
{
  .name        = "threshold",
  .label       = N_("Threshold"),
  .description = N_("White where the luma is at or above the threshold, black "
                    "elsewhere; alpha kept"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_tone_threshold_params,
  .n_params    = G_N_ELEMENTS (tl_tone_threshold_params),
  .program     = "tone",
  .kernels     = tl_tone_threshold_kernels,
  .kernels_for = tl_tone_threshold_kernels_for,
  .reference   = tl_tone_threshold_reference,
  .run_cl      = tl_tone_threshold_cl,
};

const TlFilter tl_filter_mono_mixer =
{
  .name        = "mono-mixer",
  .label       = N_("Mono Mixer"),
  .description = N_("Monochrome channel mixer: gray from weighted linear red, "
                    "green and blue; alpha kept"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_tone_mono_mixer_params,
  .n_params    = G_N_ELEMENTS (tl_tone_mono_mixer_params),
  .program     = "tone",
  .kernels     = tl_tone_mono_mixer_kernels,
  .kernels_for = tl_tone_mono_mixer_kernels_for,
  .reference   = tl_tone_mono_mixer_reference,
  .run_cl      = tl_tone_mono_mixer_cl,
};

const TlFilter tl_filter_sepia =
{
  .name        = "sepia",
  .label       = N_("Sepia"),
  .description = N_("Apply a sepia tone to the image, on sRGB-curved values; "
                    "alpha kept"),
  .format      = "R~G~B~A float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_tone_sepia_params,
  .n_params    = G_N_ELEMENTS (tl_tone_sepia_params),
  .program     = "tone",
  .kernels     = tl_tone_sepia_kernels,
  .reference   = tl_tone_sepia_reference,
  .run_cl      = tl_tone_sepia_cl,
};

/* posterize */

/* GEGL's rounding of a = v * levels: (gint) (a + 0.5), the sum in double.
 * Halves round up, and below -0.5 the cast truncates towards zero, so
 * there the sum rounds up unless it is whole.  The same in float, with no
 * double on the device: wherever r decides, a - floor (a) is exact.
 */
static gfloat
tl_tone_posterize_round (gfloat a)
{
  gfloat n = floorf (a);
  gfloat r = a - n;

  if (r >= 0.5f)
    n += 1.0f;
  if (a < -0.5f && r != 0.5f)
    n += 1.0f;
  return n;
}

/* GEGL divides by levels; OpenCL C may round a division 2.5 ulp apart,
 * so both sides multiply by the host's 1 / levels and agree bit for bit
 * (GEGL's quotient is at most 1 ulp away).
 */
static void
tl_tone_posterize_reference (const TlFilter      *filter,
                             const TlValue       *values,
                             const TlFloatPixels *pixels)
{
  gfloat levels = values[0].v[0];
  gfloat step   = 1.0f / levels;
  gsize  i, n = (gsize) pixels->width * pixels->height;

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      out[0] = tl_tone_posterize_round (in[0] * levels) * step;
      out[1] = tl_tone_posterize_round (in[1] * levels) * step;
      out[2] = tl_tone_posterize_round (in[2] * levels) * step;
      out[3] = in[3];
    }
}

static gboolean
tl_tone_posterize_cl (TlRun         *run,
                      const TlValue *values,
                      GError       **error)
{
  cl_float     levels  = values[0].v[0];
  cl_float     step    = 1.0f / levels;
  const TlToneArg args[] =
  {
    { TL_ARG_POSTERIZE_LEVELS, sizeof (cl_float), &levels },
    { TL_ARG_POSTERIZE_STEP, sizeof (cl_float), &step },
  };

  if (tl_tone_integer_codes (tl_run_get_pixels (run)->codec))
    return tl_tone_launch_table (run, &tl_filter_posterize, values, error);
  return tl_tone_launch (run, "tl_posterize", G_N_ELEMENTS (args), args,
                         error);
}

/* GEGL's levels is an integer; ours is a number that must be whole. */
static gboolean
tl_tone_posterize_check (const TlFilter *filter,
                         const TlValue  *values,
                         GError        **error)
{
  if (values[0].v[0] != floor (values[0].v[0]))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: levels must be a whole number, not %g"),
                   filter->name, values[0].v[0]);
      return FALSE;
    }
  return TRUE;
}

static const TlParamSpec tl_tone_posterize_params[] =
{
  {
    .name        = "levels",
    .label       = N_("Levels"),
    .description = N_("Steps per color channel: each value is rounded to a "
                      "multiple of 1 / levels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 1.0,
    .max         = 64.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 8.0 },
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 1.0,
    .ui_max      = 64.0,
  },
};

static const gchar *const tl_tone_posterize_kernels[] = { "tl_posterize", NULL };

const TlFilter tl_filter_posterize =
{
  .name        = "posterize",
  .label       = N_("Posterize"),
  .description = N_("Round each color channel to a multiple of 1 / levels, on "
                    "sRGB-curved values; alpha kept"),
  .format      = "R~G~B~A float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_tone_posterize_params,
  .n_params    = G_N_ELEMENTS (tl_tone_posterize_params),
  .program     = "tone",
  .kernels     = tl_tone_posterize_kernels,
  .kernels_for = tl_tone_code_table_kernels_for,
  .check       = tl_tone_posterize_check,
  .reference   = tl_tone_posterize_reference,
  .run_cl      = tl_tone_posterize_cl,
};
