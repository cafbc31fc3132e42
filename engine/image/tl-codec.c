/* ThreadLens: how pixels are stored on their way to and from the device.
 *
 * Every rule here has a twin in kernels/tl-pixel.h; both sides use the
 * same operations on the same numbers, so the C references see exactly
 * what the kernels see.
 *
 * Integer storage decodes by arithmetic when the layer's TRC is the
 * working one (c * 1/max), and by a table made by babl when it is not.
 * Encoding rounds x * max + 0.5 down, or, across TRCs, finds the code
 * whose interval of working values holds x: the table's thresholds are
 * the working values of the midpoints between codes, and a coarse index
 * over [0, 1] narrows the search to a few codes.  Tables whose codes
 * allow it hold a finer index too, with at most one threshold a bin,
 * which finds the code in one read (8-bit, tl_codec_build_steps ()) or
 * two (16-bit, an octave's header first: tl_codec_build_wide_steps ()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-codec.h"
#include "tl-error.h"

/* Transparent pixels keep their colour through (un)premultiplication, as
 * babl keeps it: alpha below this counts as this.
 */
#define TL_CODEC_ALPHA_FLOOR (1.0f / 65536.0f)

/* 1/255 and 1/65535 rounded to float; kernels/tl-pixel.h has the same
 * literals.
 */
#define TL_CODEC_SCALE_U8  0x1.010102p-8f
#define TL_CODEC_SCALE_U16 0x1.00010p-16f

/* The one-read index: a value's bin is its float's top 16 bits (the
 * exponent and the mantissa's first 7), counted from 2^-TL_CODEC_STEP_OCTAVES
 * (smaller values share bin 0), so every bin is the same fraction of its
 * values wide, 1/256 to 1/128.  Bins of equal width over [0, 1] are
 * coarse in relative terms in the dark and fine in the light, where 8-bit
 * codes lie far apart: a work-group's neighbouring pixels hit several
 * times as many of them.  On the H100 those reads were three quarters of
 * L1's traffic in color-matrix.  kernels/tl-pixel.h holds the same
 * numbers.
 */
#define TL_CODEC_STEP_OCTAVES 20
#define TL_CODEC_STEP_FIRST   ((127 - TL_CODEC_STEP_OCTAVES) << 7)
#define TL_CODEC_N_STEPS      ((TL_CODEC_STEP_OCTAVES << 7) + 1)

/* 16-bit codes lie too close for equal bins in every octave (sRGB's top
 * octave holds 17340 of them, its 2^-20 one a few), so their index gives
 * each octave of floats as many bins as it needs, a power of two, and
 * looks the octave up first: octave 0 holds every value below
 * 2^-63, octaves 1 to 63 the binades up to 1, octave 64 the value 1.
 * An octave's header is (its first bin, counted from the headers' start;
 * the shift that leaves a mantissa's top bits).  kernels/tl-pixel.h has
 * the same numbers.
 */
#define TL_CODEC_WIDE_OCTAVES   65
#define TL_CODEC_WIDE_EXPONENT  63
#define TL_CODEC_WIDE_MAX_BITS  16
#define TL_CODEC_WIDE_MAX_BINS  (1 << 18)

/* How many tables stay built for later codecs.  A 16-bit table takes
 * about 20 ms to build, and GIMP asks the GEGL module for a filter's
 * result in several chunks, each with a codec of its own; a layer and a
 * filter use one table, so a few cover every layer format and working
 * format an image mixes (1.6 MB each in 16-bit sRGB).
 */
#define TL_CODEC_KEPT_TABLES 4

/* The conversion tables of one layer curve to one working curve in one
 * colour space, shared read-only by every codec of them (an atomic
 * reference-counted box: codecs live in GEGL's threads too).
 */
typedef struct
{
  const Babl  *space;
  const gchar *layer_prefix;
  const gchar *working_prefix;
  guint        max_code;
  gboolean     one_step;      /* the one-read index holds every code */
  guint        n_bins;
  gfloat      *values;        /* decode[max+1] thresholds[max+1] bins[n+1],
                               * then with one_step a pad and the index:
                               * 8-bit, TL_CODEC_N_STEPS steps of two
                               * words; 16-bit, the octaves' headers and
                               * bins */
  gsize        n_values;
} TlCodecTable;

static GMutex  tl_codec_tables_lock;
static GQueue  tl_codec_tables = G_QUEUE_INIT;  /* most recent first */

struct _TlCodec
{
  TlStorageType storage;
  const Babl   *format;        /* the stored pixels */
  const Babl   *working;       /* the filter's format in the layer's space */
  gboolean      convert_trc;
  gboolean      premultiply;
  gboolean      one_step;      /* the one-read index holds every code */
  guint         max_code;      /* 255 or 65535; 0 for half and float */
  guint         n_bins;
  TlCodecTable *shared;        /* NULL without a change of curve */
  const gfloat *table;         /* shared->values */
  gsize         n_table;
  gchar         variant[32];
};

static const gchar *
tl_codec_trc_prefix (BablModelFlag flags)
{
  if (flags & BABL_MODEL_FLAG_PERCEPTUAL)
    return "R~G~B~A";
  if (flags & BABL_MODEL_FLAG_NONLINEAR)
    return "R'G'B'A";
  return "RGBA";
}

static BablModelFlag
tl_codec_trc_flags (const Babl *format)
{
  return babl_get_model_flags (babl_format_get_model (format)) &
         (BABL_MODEL_FLAG_LINEAR | BABL_MODEL_FLAG_NONLINEAR |
          BABL_MODEL_FLAG_PERCEPTUAL);
}

/* Whether layer and working format, of TRC flags LAYER_TRC and
 * WORKING_TRC in SPACE, put the same curve on colour.  R~G~B~ is the
 * sRGB curve in every space and R'G'B' the space's own, so in a space
 * whose curves are sRGB's (GIMP's default) the two are one: converting
 * between them through babl only added float noise (239 of the 256
 * codes decoded up to 3.6e-7 off their own value) and cost sepia a table
 * read and a search a channel.
 */
static gboolean
tl_codec_same_curve (BablModelFlag layer_trc,
                     BablModelFlag working_trc,
                     const Babl   *space)
{
  const BablModelFlag curves = BABL_MODEL_FLAG_NONLINEAR |
                               BABL_MODEL_FLAG_PERCEPTUAL;
  const Babl         *srgb   = babl_trc ("sRGB");
  const Babl         *red = NULL, *green = NULL, *blue = NULL;

  if (layer_trc == working_trc)
    return TRUE;
  if ((layer_trc & curves) == 0 || (working_trc & curves) == 0)
    return FALSE;
  babl_space_get (space, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                  &red, &green, &blue);
  return red == srgb && (green == NULL || green == srgb) &&
         (blue == NULL || blue == srgb);
}

static const Babl *
tl_codec_format (const gchar *prefix,
                 const gchar *type,
                 const Babl  *space)
{
  g_autofree gchar *name = g_strconcat (prefix, " ", type, NULL);

  return babl_format_with_space (name, space);
}

/* The bin of the one-read index that holds X, 0 to 1 (clamping may
 * leave -0, whose sign bit goes).
 */
static inline gint
tl_codec_step_bin (gfloat x)
{
  guint32 bits;

  memcpy (&bits, &x, sizeof (bits));
  return MAX ((gint) ((bits & 0x7fffffff) >> 16) - TL_CODEC_STEP_FIRST, 0);
}

/* The smallest value of bin J (above 0) of the one-read index. */
static gfloat
tl_codec_step_start (gint j)
{
  guint32 bits = (guint32) (TL_CODEC_STEP_FIRST + j) << 16;
  gfloat  x;

  memcpy (&x, &bits, sizeof (x));
  return x;
}

/* STEPS[j] = (the code at bin j's start, the bits of the next code's
 * threshold), two 32-bit words, where no bin holds two thresholds: then a
 * value's code is its bin's code, or the next one from that threshold up.
 * Returns FALSE where some bin holds two (a TRC much steeper than sRGB's
 * at the bottom, where bin 0 holds every value below its first float),
 * and the search stays.  (Entries of one word, the code and the
 * threshold's low 16 bits, ran slower on the H100: README.)
 */
static gboolean
tl_codec_build_steps (const gfloat *thresholds,
                      guint         max,
                      guint32      *steps)
{
  guint k = 0;
  gint  j;

  for (j = 0; j < TL_CODEC_N_STEPS; j++)
    {
      gfloat start = j == 0 ? 0.0f : tl_codec_step_start (j);
      gfloat end   = tl_codec_step_start (j + 1);
      gfloat next;

      while (k < max && thresholds[k + 1] <= start)
        k++;
      if (k + 2 <= max && thresholds[k + 2] < end)
        return FALSE;
      next = k < max ? thresholds[k + 1] : G_MAXFLOAT;
      steps[2 * j] = k;
      memcpy (&steps[2 * j + 1], &next, sizeof (next));
    }
  return TRUE;
}

static guint32
tl_codec_bits (gfloat x)
{
  guint32 bits;

  memcpy (&bits, &x, sizeof (bits));
  return bits & 0x7fffffff;
}

/* The octave of the 16-bit index that holds X, 0 to 1. */
static inline gint
tl_codec_wide_octave (guint32 bits)
{
  return CLAMP ((gint) (bits >> 23) - TL_CODEC_WIDE_EXPONENT, 0,
                TL_CODEC_WIDE_OCTAVES - 1);
}

/* The mantissa bits each octave's bins need so that none holds two of
 * the thresholds' values (from THRESHOLDS[1] on), into BITS; the bins in
 * all, or 0 where two values lie below 2^-63 (a curve much steeper than
 * sRGB's at the bottom), some octave would need more than
 * TL_CODEC_WIDE_MAX_BITS or all of them more than TL_CODEC_WIDE_MAX_BINS:
 * then the search stays.
 */
static gsize
tl_codec_wide_bits (const gfloat *thresholds,
                    guint         max,
                    guint        *bits)
{
  gsize total = 0;
  guint k;
  gint  o;

  memset (bits, 0, TL_CODEC_WIDE_OCTAVES * sizeof (guint));
  for (k = 2; k <= max; k++)
    {
      guint32 a = tl_codec_bits (thresholds[k - 1]);
      guint32 b = tl_codec_bits (thresholds[k]);
      guint   need;

      /* The bits are a magnitude's: no index below 0. */
      if (thresholds[k - 1] < 0.0f)
        return 0;

      /* Equal thresholds (babl's float maths, made monotonic) are one
       * step of several codes.
       */
      if (a == b || tl_codec_wide_octave (a) != tl_codec_wide_octave (b))
        continue;
      if (tl_codec_wide_octave (a) == 0)
        return 0;
      /* The first mantissa bit where they differ, counted from the top. */
      need = 23 - g_bit_nth_msf ((a ^ b) & 0x7fffff, 23);
      if (need > TL_CODEC_WIDE_MAX_BITS)
        return 0;
      bits[tl_codec_wide_octave (a)] = MAX (bits[tl_codec_wide_octave (a)], need);
    }
  for (o = 0; o < TL_CODEC_WIDE_OCTAVES; o++)
    total += (gsize) 1 << bits[o];
  return total <= TL_CODEC_WIDE_MAX_BINS ? total : 0;
}

/* The 16-bit index: TL_CODEC_WIDE_OCTAVES headers of two words, then
 * each octave's bins of two words, for octaves of BITS: the code at the
 * bin's start in the low 16 bits and the code from the next threshold up
 * in the high 16 (more than one code on where thresholds are equal),
 * then that threshold.
 */
static void
tl_codec_build_wide_steps (const gfloat *thresholds,
                           guint         max,
                           const guint  *bits,
                           guint32      *index)
{
  guint32 *steps = index + 2 * TL_CODEC_WIDE_OCTAVES;
  guint    k = 0, n = 0;
  gint     o;

  for (o = 0; o < TL_CODEC_WIDE_OCTAVES; o++)
    {
      guint j;

      index[2 * o]     = TL_CODEC_WIDE_OCTAVES + n;
      index[2 * o + 1] = 23 - bits[o];
      for (j = 0; j < (1u << bits[o]); j++, n++)
        {
          guint32 start_bits = o == 0 ? 0 :
                               ((guint32) (o + TL_CODEC_WIDE_EXPONENT) << 23) |
                               (j << (23 - bits[o]));
          gfloat  start, next;
          guint   above;

          memcpy (&start, &start_bits, sizeof (start));
          while (k < max && thresholds[k + 1] <= start)
            k++;
          next  = k < max ? thresholds[k + 1] : G_MAXFLOAT;
          above = k;
          while (above < max && thresholds[above + 1] <= next)
            above++;
          steps[2 * n] = k | (above << 16);
          memcpy (&steps[2 * n + 1], &next, sizeof (next));
        }
    }
}

/* The working values (straight alpha) of the codes, and of the midpoints
 * between them, for the colour channels, into TABLE's values.
 */
static void
tl_codec_build_table (TlCodecTable *table)
{
  const Babl *encoded  = tl_codec_format (table->layer_prefix, "double",
                                          table->space);
  const Babl *straight = tl_codec_format (table->working_prefix, "double",
                                          table->space);
  guint       max      = table->max_code;
  gdouble    *in       = g_new (gdouble, (gsize) (2 * max + 2) * 4);
  gdouble    *out      = g_new (gdouble, (gsize) (2 * max + 2) * 4);
  gfloat     *decode, *thresholds, *bins;
  guint       k, j;

  for (k = 0; k <= max; k++)
    {
      gdouble code = (gdouble) k / max;
      gdouble mid  = k == 0 ? 0.0 : (k - 0.5) / max;

      in[k * 4 + 0] = in[k * 4 + 1] = in[k * 4 + 2] = code;
      in[k * 4 + 3] = 1.0;
      in[(max + 1 + k) * 4 + 0] = in[(max + 1 + k) * 4 + 1] =
        in[(max + 1 + k) * 4 + 2] = mid;
      in[(max + 1 + k) * 4 + 3] = 1.0;
    }
  babl_process (babl_fish (encoded, straight), in, out, 2 * max + 2);

  table->n_bins   = max == 255 ? 4096 : 65536;
  /* 8-bit tables end with a pad and the one-read index (see below). */
  table->n_values = 2 * (max + 1) + table->n_bins + 1 +
                    (max == 255 ? 1 + 2 * TL_CODEC_N_STEPS : 0);
  table->values   = g_new0 (gfloat, table->n_values);
  decode     = table->values;
  thresholds = decode + max + 1;
  bins       = thresholds + max + 1;

  for (k = 0; k <= max; k++)
    {
      decode[k]     = out[k * 4];
      thresholds[k] = out[(max + 1 + k) * 4];
      /* babl's float maths need not be monotonic; the search needs it. */
      if (k > 0 && thresholds[k] < thresholds[k - 1])
        thresholds[k] = thresholds[k - 1];
    }
  thresholds[0] = -G_MAXFLOAT;

  /* bins[j]: the code of j / n_bins, i.e. the last threshold <= it. */
  for (j = 0, k = 0; j <= table->n_bins; j++)
    {
      gfloat x = (gfloat) j / table->n_bins;

      while (k < max && thresholds[k + 1] <= x)
        k++;
      bins[j] = k;
    }

  /* One read instead of a search's three dependent ones, where 8-bit
   * codes allow it (sRGB's do: its steps are never narrower than a bin).
   */
  table->one_step = max == 255 &&
                    tl_codec_build_steps (thresholds, max,
                                          (guint32 *) (bins + table->n_bins + 2));
  /* Two reads instead of a binary search, where 16-bit codes allow it
   * (sRGB's need 110,635 bins, 0.84 MB).
   */
  if (max == 65535)
    {
      guint octave_bits[TL_CODEC_WIDE_OCTAVES];
      gsize n_steps = tl_codec_wide_bits (thresholds, max, octave_bits);

      if (n_steps > 0)
        {
          gsize base = table->n_values + 1;

          table->n_values = base + 2 * (TL_CODEC_WIDE_OCTAVES + n_steps);
          table->values   = g_renew (gfloat, table->values, table->n_values);
          table->one_step = TRUE;
          table->values[base - 1] = 0.0f;
          tl_codec_build_wide_steps (table->values + max + 1, max, octave_bits,
                                     (guint32 *) (table->values + base));
        }
    }

  g_free (in);
  g_free (out);
}

static void
tl_codec_table_clear (gpointer data)
{
  TlCodecTable *table = data;

  g_free (table->values);
}

static void
tl_codec_table_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, tl_codec_table_clear);
}

/* A reference to the table of MAX_CODE's codes from LAYER_PREFIX's curve
 * to WORKING_PREFIX's in SPACE: one kept from before, or a new one,
 * kept in its place (the least recently used goes).
 */
static TlCodecTable *
tl_codec_table_get (const Babl  *space,
                    const gchar *layer_prefix,
                    const gchar *working_prefix,
                    guint        max_code)
{
  g_autoptr(GMutexLocker) locker = g_mutex_locker_new (&tl_codec_tables_lock);
  TlCodecTable           *table;
  GList                  *link;

  for (link = tl_codec_tables.head; link; link = link->next)
    {
      table = link->data;
      if (table->space == space && table->max_code == max_code &&
          g_str_equal (table->layer_prefix, layer_prefix) &&
          g_str_equal (table->working_prefix, working_prefix))
        {
          g_queue_unlink (&tl_codec_tables, link);
          g_queue_push_head_link (&tl_codec_tables, link);
          return g_atomic_rc_box_acquire (table);
        }
    }

  table = g_atomic_rc_box_new0 (TlCodecTable);
  table->space          = space;
  table->layer_prefix   = layer_prefix;
  table->working_prefix = working_prefix;
  table->max_code       = max_code;
  tl_codec_build_table (table);

  g_queue_push_head (&tl_codec_tables, g_atomic_rc_box_acquire (table));
  if (tl_codec_tables.length > TL_CODEC_KEPT_TABLES)
    tl_codec_table_release (g_queue_pop_tail (&tl_codec_tables));
  return table;
}

static TlCodec *
tl_codec_create (const Babl   *layer_format,
                 const gchar  *working_format,
                 gboolean      narrow,
                 GError      **error)
{
  const Babl       *space, *working;
  const gchar      *layer_prefix, *working_prefix, *type;
  BablModelFlag     layer_trc, working_trc;
  g_autoptr(TlCodec) codec = NULL;

  g_return_val_if_fail (layer_format != NULL && working_format != NULL, NULL);

  if (! babl_format_exists (working_format))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("'%s' is not a pixel format babl knows"), working_format);
      return NULL;
    }

  space   = babl_format_get_space (layer_format);
  working = babl_format_with_space (working_format, space);
  if (babl_format_get_n_components (working) != 4 ||
      babl_format_get_type (working, 0) != babl_type ("float"))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("'%s' is not a 4-component float format"), working_format);
      return NULL;
    }

  codec = g_new0 (TlCodec, 1);
  codec->storage = TL_STORAGE_FLOAT;
  codec->format  = working;
  codec->working = working;

  if (! narrow || babl_format_is_palette (layer_format))
    return g_steal_pointer (&codec);

  layer_trc      = tl_codec_trc_flags (layer_format);
  working_trc    = tl_codec_trc_flags (working);
  layer_prefix   = tl_codec_trc_prefix (layer_trc);
  working_prefix = tl_codec_trc_prefix (working_trc);
  type           = babl_get_name (babl_format_get_type (layer_format, 0));

  codec->convert_trc = ! tl_codec_same_curve (layer_trc, working_trc, space);
  codec->premultiply = (babl_get_model_flags (babl_format_get_model (working)) &
                        BABL_MODEL_FLAG_ASSOCIATED) != 0;

  if (g_str_equal (type, "u8"))
    {
      codec->storage  = TL_STORAGE_U8;
      codec->max_code = 255;
    }
  else if (g_str_equal (type, "u16"))
    {
      codec->storage  = TL_STORAGE_U16;
      codec->max_code = 65535;
    }
  else if (g_str_equal (type, "half") && ! codec->convert_trc)
    {
      /* Half across TRCs would round twice; such layers go as float. */
      codec->storage = TL_STORAGE_HALF;
    }
  else
    {
      codec->convert_trc = codec->premultiply = FALSE;
      return g_steal_pointer (&codec);
    }

  codec->format = tl_codec_format (layer_prefix, type, space);
  if (codec->convert_trc)
    {
      codec->shared   = tl_codec_table_get (space, layer_prefix, working_prefix,
                                            codec->max_code);
      codec->table    = codec->shared->values;
      codec->n_table  = codec->shared->n_values;
      codec->n_bins   = codec->shared->n_bins;
      codec->one_step = codec->shared->one_step;
    }

  g_snprintf (codec->variant, sizeof (codec->variant), "%s%s%s%s",
              tl_codec_storage_name (codec->storage),
              codec->convert_trc ? "+trc" : "",
              codec->one_step ? "+step" : "",
              codec->premultiply ? "+premul" : "");

  return g_steal_pointer (&codec);
}

/* The narrowest lossless storage for a layer in LAYER_FORMAT under a
 * filter working in WORKING_FORMAT (a babl name of 4 floats).
 */
TlCodec *
tl_codec_new (const Babl   *layer_format,
              const gchar  *working_format,
              GError      **error)
{
  return tl_codec_create (layer_format, working_format, TRUE, error);
}

/* Float storage in the working format, whatever the layer. */
TlCodec *
tl_codec_new_float (const Babl   *layer_format,
                    const gchar  *working_format,
                    GError      **error)
{
  return tl_codec_create (layer_format, working_format, FALSE, error);
}

/* The codec of an RGBA layer whose pixels travel in STORAGE, as the
 * command line names it ("u8", "u16", "half" or "float"), in the colour
 * space of SPACE (a format; NULL: sRGB), under a filter working in
 * WORKING_FORMAT: what `threadlens bench` and `threadlens plan` mean by
 * --storage.
 */
TlCodec *
tl_codec_new_for_storage (const gchar  *storage,
                          const Babl   *space,
                          const gchar  *working_format,
                          GError      **error)
{
  static const struct
  {
    const gchar *storage;
    const gchar *layer;
  } layers[] =
  {
    { "u8",    "R'G'B'A u8" },
    { "u16",   "R'G'B'A u16" },
    { "half",  "RGBA half" },
    { "float", "RGBA float" },
  };
  guint i;

  g_return_val_if_fail (storage != NULL && working_format != NULL, NULL);

  for (i = 0; i < G_N_ELEMENTS (layers); i++)
    if (g_str_equal (storage, layers[i].storage))
      {
        const Babl *layer = space ? babl_format_with_space (layers[i].layer, space)
                                  : babl_format (layers[i].layer);

        return g_str_equal (storage, "float") ?
               tl_codec_new_float (layer, working_format, error) :
               tl_codec_new (layer, working_format, error);
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown storage '%s' (expected u8, u16, half or float)"),
               storage);
  return NULL;
}

void
tl_codec_free (TlCodec *codec)
{
  if (codec == NULL)
    return;

  if (codec->shared)
    tl_codec_table_release (codec->shared);
  g_free (codec);
}

TlStorageType
tl_codec_get_storage (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, TL_STORAGE_FLOAT);

  return codec->storage;
}

const gchar *
tl_codec_storage_name (TlStorageType storage)
{
  static const gchar *const names[] = { "float", "half", "u16", "u8" };

  g_return_val_if_fail (storage <= TL_STORAGE_U8, NULL);

  return names[storage];
}

const Babl *
tl_codec_get_format (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, NULL);

  return codec->format;
}

const Babl *
tl_codec_get_working (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, NULL);

  return codec->working;
}

gsize
tl_codec_get_pixel_size (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, 0);

  return babl_format_get_bytes_per_pixel (codec->format);
}

gboolean
tl_codec_converts_trc (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, FALSE);

  return codec->convert_trc;
}

gboolean
tl_codec_premultiplies (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, FALSE);

  return codec->premultiply;
}

/* Pixels stored narrower than 4 floats (CODEC NULL: floats). */
gboolean
tl_codec_is_narrow (const TlCodec *codec)
{
  return codec != NULL && codec->storage != TL_STORAGE_FLOAT;
}

/* The kernels' program variant: "" for float, else e.g. "u8+trc+premul". */
const gchar *
tl_codec_get_variant (const TlCodec *codec)
{
  g_return_val_if_fail (codec != NULL, NULL);

  return codec->variant;
}

const gfloat *
tl_codec_get_table (const TlCodec *codec,
                    gsize         *n_floats)
{
  g_return_val_if_fail (codec != NULL, NULL);

  if (n_floats)
    *n_floats = codec->n_table;
  return codec->table;
}

guint16
tl_codec_half_from_float (gfloat value)
{
  guint32 bits, sign, magnitude;
  gint    exponent;

  memcpy (&bits, &value, sizeof (bits));
  sign      = (bits >> 16) & 0x8000;
  magnitude = bits & 0x7fffffff;

  if (magnitude > 0x7f800000)                   /* NaN: keep it quiet */
    return sign | 0x7e00;
  if (magnitude >= 0x477ff000)                  /* rounds past 65504 */
    return sign | 0x7c00;

  exponent = (gint) (magnitude >> 23) - 127 + 15;
  if (exponent <= 0)
    {
      /* Subnormal or zero: the value in units of 2^-24, rounded even. */
      guint32 mantissa = (magnitude & 0x7fffff) | 0x800000;
      guint   shift    = 14 - exponent;
      guint32 half, rest, halfway;

      if (magnitude < 0x33000000)               /* below 2^-25: zero */
        return sign;
      half    = mantissa >> shift;
      rest    = mantissa & ((1u << shift) - 1);
      halfway = 1u << (shift - 1);
      if (rest > halfway || (rest == halfway && (half & 1)))
        half++;
      return sign | half;
    }
  else
    {
      guint32 half = ((guint32) exponent << 10) | ((magnitude >> 13) & 0x3ff);
      guint32 rest = magnitude & 0x1fff;

      /* A carry out of the mantissa steps the exponent, as it should. */
      if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
        half++;
      return sign | half;
    }
}

gfloat
tl_codec_half_to_float (guint16 half)
{
  guint32 sign     = (guint32) (half & 0x8000) << 16;
  guint32 exponent = (half >> 10) & 0x1f;
  guint32 mantissa = half & 0x3ff;
  guint32 bits;
  gfloat  value;

  if (exponent == 0x1f)
    bits = sign | 0x7f800000 | (mantissa << 13);
  else if (exponent != 0)
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  else if (mantissa == 0)
    bits = sign;
  else
    {
      value = ldexpf ((gfloat) mantissa, -24);
      return sign ? -value : value;
    }

  memcpy (&value, &bits, sizeof (value));
  return value;
}

static inline gfloat
tl_codec_alpha_or_floor (gfloat alpha)
{
  return alpha < TL_CODEC_ALPHA_FLOOR ? TL_CODEC_ALPHA_FLOOR : alpha;
}

/* Never negative, so truncation is floor (), as convert_uint4 () does. */
static inline guint
tl_codec_round (gfloat x,
                guint  max)
{
  return (guint) (fminf (fmaxf (x, 0.0f), 1.0f) * (gfloat) max + 0.5f);
}

/* The code whose interval of working values holds X (see the top). */
static inline guint
tl_codec_search (const TlCodec *codec,
                 gfloat         x)
{
  const gfloat *thresholds = codec->table + codec->max_code + 1;
  const gfloat *bins       = thresholds + codec->max_code + 1;
  gint          bin;
  guint         lo, hi;

  x = fminf (fmaxf (x, 0.0f), 1.0f);
  if (codec->one_step && codec->max_code == 65535)
    {
      const guint32 *index = (const guint32 *) (bins + codec->n_bins + 2);
      guint32        bits  = tl_codec_bits (x);
      const guint32 *head  = index + 2 * tl_codec_wide_octave (bits);
      const guint32 *step  = index + 2 * (head[0] + ((bits & 0x7fffff) >> head[1]));
      gfloat         next;

      memcpy (&next, &step[1], sizeof (next));
      return next <= x ? step[0] >> 16 : step[0] & 0xffff;
    }
  if (codec->one_step)
    {
      const guint32 *step = (const guint32 *) (bins + codec->n_bins + 2) +
                            2 * tl_codec_step_bin (x);
      gfloat         next;

      memcpy (&next, &step[1], sizeof (next));
      return step[0] + (next <= x ? 1 : 0);
    }
  bin = MIN ((gint) (x * (gfloat) codec->n_bins), (gint) codec->n_bins - 1);
  lo  = (guint) bins[bin];
  hi  = (guint) bins[bin + 1];
  while (lo < hi)
    {
      guint mid = (lo + hi + 1) >> 1;

      if (thresholds[mid] <= x)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

void
tl_codec_decode (const TlCodec *codec,
                 gconstpointer  stored,
                 gfloat        *working,
                 gsize          n_pixels)
{
  gsize i;
  guint c;

  g_return_if_fail (codec != NULL && stored != NULL && working != NULL);

  if (codec->storage == TL_STORAGE_FLOAT)
    {
      memcpy (working, stored, n_pixels * 4 * sizeof (gfloat));
      return;
    }

  for (i = 0; i < n_pixels; i++)
    {
      gfloat *v = working + i * 4;

      for (c = 0; c < 4; c++)
        {
          guint code;

          if (codec->storage == TL_STORAGE_HALF)
            {
              v[c] = tl_codec_half_to_float (((const guint16 *) stored)[i * 4 + c]);
              continue;
            }

          code = codec->storage == TL_STORAGE_U8 ?
                 ((const guint8 *) stored)[i * 4 + c] :
                 ((const guint16 *) stored)[i * 4 + c];
          if (c < 3 && codec->convert_trc)
            v[c] = codec->table[code];
          else
            v[c] = (gfloat) code * (codec->storage == TL_STORAGE_U8 ?
                                    TL_CODEC_SCALE_U8 : TL_CODEC_SCALE_U16);
        }

      if (codec->premultiply)
        {
          gfloat alpha = tl_codec_alpha_or_floor (v[3]);

          v[0] *= alpha;
          v[1] *= alpha;
          v[2] *= alpha;
        }
    }
}

void
tl_codec_encode (const TlCodec *codec,
                 const gfloat  *working,
                 gpointer       stored,
                 gsize          n_pixels)
{
  gsize i;
  guint c;

  g_return_if_fail (codec != NULL && working != NULL && stored != NULL);

  if (codec->storage == TL_STORAGE_FLOAT)
    {
      memcpy (stored, working, n_pixels * 4 * sizeof (gfloat));
      return;
    }

  for (i = 0; i < n_pixels; i++)
    {
      gfloat v[4];

      memcpy (v, working + i * 4, sizeof (v));
      if (codec->premultiply)
        {
          gfloat alpha = tl_codec_alpha_or_floor (v[3]);

          v[0] /= alpha;
          v[1] /= alpha;
          v[2] /= alpha;
        }

      for (c = 0; c < 4; c++)
        {
          guint code;

          if (codec->storage == TL_STORAGE_HALF)
            {
              ((guint16 *) stored)[i * 4 + c] = tl_codec_half_from_float (v[c]);
              continue;
            }

          if (c < 3 && codec->convert_trc)
            code = tl_codec_search (codec, v[c]);
          else
            code = tl_codec_round (v[c], codec->max_code);

          if (codec->storage == TL_STORAGE_U8)
            ((guint8 *) stored)[i * 4 + c] = code;
          else
            ((guint16 *) stored)[i * 4 + c] = code;
        }
    }
}
