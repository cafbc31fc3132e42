/* ThreadLens tests: pixel storage.  Each layer format travels in the
 * narrowest storage that loses nothing, round-trips through the codec and
 * through the kernels unchanged, and a 16-bit gradient keeps all of its
 * levels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <gegl.h>

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-filter-job.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-run.h"

#define SIDE 256            /* 65536 pixels: every 16-bit level once */

static TlContext *context;

typedef struct
{
  const gchar *layer;        /* the layer's babl format */
  const gchar *working;      /* a filter's working format */
  const gchar *storage;      /* what must travel */
  gsize        pixel_size;
  gboolean     trc;          /* decoded through the table */
} FormatCase;

static const FormatCase format_cases[] =
{
  { "R'G'B'A u8",  "R'G'B'A float", "u8",    4,  FALSE },
  { "R'G'B' u8",   "RGBA float",    "u8",    4,  TRUE },
  { "Y'A u8",      "RaGaBaA float", "u8",    4,  TRUE },
  { "Y u8",        "RGBA float",    "u8",    4,  FALSE },
  { "RGBA u16",    "RaGaBaA float", "u16",   8,  FALSE },
  { "R'G'B'A u16", "RGBA float",    "u16",   8,  TRUE },
  { "Y' u16",      "R'G'B'A float", "u16",   8,  FALSE },
  { "R~G~B~A u16", "RGBA float",    "u16",   8,  TRUE },
  /* In sRGB's space R'G'B' and R~G~B~ are one curve: nothing to convert. */
  { "R'G'B'A u8",  "R~G~B~A float", "u8",    4,  FALSE },
  { "R~G~B~A u16", "R'G'B'A float", "u16",   8,  FALSE },
  { "RGBA half",   "RaGaBaA float", "half",  8,  FALSE },
  { "YA half",     "RGBA float",    "half",  8,  FALSE },
  /* Half across TRCs would round twice: float instead. */
  { "R'G'B'A half", "RGBA float",   "float", 16, FALSE },
  { "RGBA float",  "R'G'B'A float", "float", 16, FALSE },
  { "Y' float",    "RGBA float",    "float", 16, FALSE },
  { "RGBA u32",    "RGBA float",    "float", 16, FALSE },
  { "RGBA double", "RGBA float",    "float", 16, FALSE },
};

/* A SIDE x SIDE layer of FORMAT holding a gradient through every 16-bit
 * level (fewer for 8-bit formats, each repeated), alpha opaque.
 */
static GeglBuffer *
make_gradient (const Babl *format)
{
  GeglRectangle      extent = { 0, 0, SIDE, SIDE };
  GeglBuffer        *buffer = gegl_buffer_new (&extent, format);
  g_autofree guint16 *rgba  = g_new (guint16, SIDE * SIDE * 4);
  guint              i;

  for (i = 0; i < SIDE * SIDE; i++)
    {
      rgba[i * 4 + 0] = i;
      rgba[i * 4 + 1] = 65535 - i;
      rgba[i * 4 + 2] = (i * 7919) & 0xffff;
      rgba[i * 4 + 3] = 65535;
    }
  gegl_buffer_set (buffer, &extent, 0,
                   babl_format_with_space ("R'G'B'A u16", format), rgba,
                   GEGL_AUTO_ROWSTRIDE);
  return buffer;
}

static guint
count_levels (const TlCodec *codec,
              gconstpointer  stored)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  guint                 i;

  for (i = 0; i < SIDE * SIDE; i++)
    {
      guint32 key;

      switch (tl_codec_get_storage (codec))
        {
        case TL_STORAGE_U8:
          key = ((const guint8 *) stored)[i * 4];
          break;
        case TL_STORAGE_U16:
        case TL_STORAGE_HALF:
          key = ((const guint16 *) stored)[i * 4];
          break;
        default:
          memcpy (&key, (const gfloat *) stored + i * 4, sizeof (key));
          break;
        }
      g_hash_table_add (seen, GUINT_TO_POINTER (key + 1));
    }
  return g_hash_table_size (seen);
}

/* Storage chosen, CPU round trip, kernel round trip, levels kept. */
static void
test_format (gconstpointer data)
{
  const FormatCase   *c      = data;
  const Babl         *layer  = babl_format (c->layer);
  const TlFilter     *matrix = tl_filter_lookup ("color-matrix", NULL);
  g_autoptr(GError)   error  = NULL;
  g_autoptr(TlCodec)  codec  = tl_codec_new (layer, c->working, &error);
  g_autoptr(GeglBuffer) buffer = NULL;
  g_autofree gpointer stored = NULL, back = NULL, device = NULL;
  g_autofree gfloat  *working = NULL;
  g_autofree TlValue *values = tl_filter_default_values (matrix);
  GeglRectangle       extent = { 0, 0, SIDE, SIDE };
  TlFilter            identity = *matrix;
  TlChoice            choice;
  TlPixels            pixels = { 0, };
  gsize               bytes;
  guint               levels, expected;

  g_assert_no_error (error);
  g_assert_cmpstr (tl_codec_storage_name (tl_codec_get_storage (codec)), ==,
                   c->storage);
  g_assert_cmpuint (tl_codec_get_pixel_size (codec), ==, c->pixel_size);
  g_assert_cmpint (tl_codec_converts_trc (codec), ==, c->trc);

  buffer = make_gradient (layer);
  bytes  = (gsize) SIDE * SIDE * tl_codec_get_pixel_size (codec);
  stored = g_malloc (bytes);
  back   = g_malloc (bytes);
  device = g_malloc (bytes);
  gegl_buffer_get (buffer, &extent, 1.0, tl_codec_get_format (codec), stored,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);

  /* Decoding and encoding on the CPU gives the layer back, bit for bit. */
  working = g_new (gfloat, SIDE * SIDE * 4);
  tl_codec_decode (codec, stored, working, SIDE * SIDE);
  tl_codec_encode (codec, working, back, SIDE * SIDE);
  g_assert_cmpmem (back, bytes, stored, bytes);

  /* So does the device: an identity colour matrix in the working format
   * (the filter's own is linear RGBA; the case picks another).
   */
  identity.format = c->working;
  tl_codec_free (g_steal_pointer (&codec));
  codec = tl_codec_new (layer, identity.format, &error);
  g_assert_no_error (error);
  tl_choice_init (&choice);
  pixels.width  = SIDE;
  pixels.height = SIDE;
  pixels.codec  = codec;
  pixels.in     = stored;
  pixels.out    = device;
  g_assert_true (tl_filter_job_run (context, &identity, values, &choice,
                                    &pixels, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (device, bytes, stored, bytes);

  /* Every level of the gradient the layer can hold is still there: a
   * 16-bit layer is not quantised to 8 bits on the way.
   */
  levels   = count_levels (codec, device);
  expected = g_str_has_suffix (c->layer, "u8") ? 256 : 65536;
  if (g_str_has_suffix (c->layer, "half"))
    expected = count_levels (codec, stored);
  g_test_message ("%s under %s: %s storage, %zu bytes a pixel, %u levels",
                  c->layer, c->working, c->storage,
                  tl_codec_get_pixel_size (codec), levels);
  g_assert_cmpuint (levels, >=, MIN (expected, count_levels (codec, stored)));
  g_assert_cmpuint (levels, >, 256 * (expected > 256));
}

/* Every half value converts both ways as vstore_half_rte and vload_half
 * do; and rounding agrees with the compiler's own _Float16.
 */
static void
test_half (void)
{
  guint32 h;
  guint   i;

  for (h = 0; h < 0x10000; h++)
    {
      gfloat f = tl_codec_half_to_float (h);

      if (isnan (f))
        continue;
      g_assert_cmpuint (tl_codec_half_from_float (f), ==, h);
    }

  g_assert_cmpuint (tl_codec_half_from_float (65504.0f), ==, 0x7bff);
  g_assert_cmpuint (tl_codec_half_from_float (65520.0f), ==, 0x7c00);
  g_assert_cmpuint (tl_codec_half_from_float (-1e9f), ==, 0xfc00);
  g_assert_cmpuint (tl_codec_half_from_float (ldexpf (1.0f, -25)), ==, 0);
  g_assert_cmpuint (tl_codec_half_from_float (ldexpf (1.5f, -25)), ==, 1);
  g_assert_true (isnan (tl_codec_half_to_float (tl_codec_half_from_float (NAN))));

#ifdef __FLT16_MAX__
  for (i = 0; i < 1000000; i++)
    {
      guint32  bits = g_random_int ();
      gfloat   f;
      _Float16 theirs;
      guint16  code, their_code;

      memcpy (&f, &bits, sizeof (f));
      if (isnan (f))
        continue;
      theirs = (_Float16) f;
      code   = tl_codec_half_from_float (f);
      memcpy (&their_code, &theirs, sizeof (their_code));
      if (code != their_code)
        g_error ("%a: ours %04x, the compiler's %04x", f, code, their_code);
    }
#else
  (void) i;
  g_test_message ("this compiler has no _Float16 to compare rounding with");
#endif
}

/* Whether A and B are the same float, bit for bit (-0 is not 0). */
static gboolean
same_float (gfloat a,
            gfloat b)
{
  return memcmp (&a, &b, sizeof (a)) == 0;
}

static void
check_half_round (gfloat value)
{
  gfloat ours   = tl_codec_half_round (value);
  gfloat theirs = tl_codec_half_to_float (tl_codec_half_from_float (value));

  if (isnan (value))
    return;
  if (! same_float (ours, theirs))
    g_error ("%a: tl_codec_half_round () gives %a, the conversions %a",
             value, ours, theirs);
}

/* The inline rounding to halves agrees with the two conversions, bit for
 * bit, at every half, its float neighbours, the midpoints between halves
 * (the ties) and theirs, and random floats.
 */
static void
test_half_round (void)
{
  guint32 h;
  guint   i;

  for (h = 0; h < 0x10000; h++)
    {
      gfloat f = tl_codec_half_to_float (h);
      gfloat next;

      if (! isfinite (f))
        continue;
      check_half_round (f);
      check_half_round (nextafterf (f, INFINITY));
      check_half_round (nextafterf (f, -INFINITY));
      /* The tie between this half and the next one up in magnitude. */
      next = tl_codec_half_to_float (h + 1);
      if ((h & 0x7fff) < 0x7bff && isfinite (next))
        {
          gfloat tie = f + (next - f) / 2.0f;

          check_half_round (tie);
          check_half_round (nextafterf (tie, INFINITY));
          check_half_round (nextafterf (tie, -INFINITY));
        }
    }
  check_half_round (65520.0f);
  check_half_round (nextafterf (65520.0f, 0.0f));
  check_half_round (1e30f);
  check_half_round (-INFINITY);

  for (i = 0; i < 1000000; i++)
    {
      guint32 bits = g_random_int ();
      gfloat  f;

      memcpy (&f, &bits, sizeof (f));
      check_half_round (f);
    }
}

/* Premultiplication keeps a transparent pixel's colour, as babl does, and
 * partly transparent pixels come back within a code.
 */
static void
test_premultiplied (void)
{
  g_autoptr(TlCodec) codec = tl_codec_new (babl_format ("R'G'B'A u8"),
                                           "RaGaBaA float", NULL);
  guint8             in[4 * 256], out[4 * 256];
  gfloat             working[4 * 256];
  guint              i, c;

  for (i = 0; i < 256; i++)
    {
      in[i * 4 + 0] = 200;
      in[i * 4 + 1] = i;
      in[i * 4 + 2] = 255 - i;
      in[i * 4 + 3] = i;
    }
  tl_codec_decode (codec, in, working, 256);
  g_assert_cmpfloat (working[3], ==, 0.0f);
  g_assert_cmpfloat (working[0], >, 0.0f);
  tl_codec_encode (codec, working, out, 256);
  for (i = 0; i < 256; i++)
    for (c = 0; c < 4; c++)
      g_assert_cmpint (ABS (out[i * 4 + c] - in[i * 4 + c]), <=, 1);
  g_assert_cmpmem (out, 4, in, 4);
}

/* The code of X by its definition: the last code, to MAX, whose
 * threshold (the table's second part) is at most X, after clamping to 0
 * to 1.
 */
static guint
code_by_thresholds (const gfloat *thresholds,
                    guint         max,
                    gfloat        x)
{
  guint lo = 0, hi = max;

  x = fminf (fmaxf (x, 0.0f), 1.0f);
  while (lo < hi)
    {
      guint mid = (lo + hi + 1) / 2;

      if (thresholds[mid] <= x)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

static guint
code_by_codec (const TlCodec *codec,
               gfloat         x)
{
  gfloat  working[4] = { x, x, x, 1.0f };
  guint8  stored[4];
  guint16 wide[4];

  if (tl_codec_get_storage (codec) == TL_STORAGE_U16)
    {
      tl_codec_encode (codec, working, wide, 1);
      g_assert_cmpuint (wide[0], ==, wide[2]);
      return wide[0];
    }
  tl_codec_encode (codec, working, stored, 1);
  g_assert_cmpuint (stored[0], ==, stored[2]);
  return stored[0];
}

static gfloat
float_from_bits (guint32 bits)
{
  gfloat x;

  memcpy (&x, &bits, sizeof (x));
  return x;
}

typedef struct
{
  const gchar *name;
  gdouble      gamma;          /* 0: babl's space of that name */
  gboolean     one_read;       /* the one-read index holds every code */
  const gchar *layer;          /* the layer's format */
} EncodeCase;

static const EncodeCase encode_cases[] =
{
  { "sRGB",     0.0, TRUE, "R'G'B'A u8" },
  { "ProPhoto", 0.0, TRUE, "R'G'B'A u8" },   /* gamma 1.8: flatter at the top */
  /* Code 1's threshold, 2^-27, lies below the index's bin 0. */
  { "gamma-3",  3.0, FALSE, "R'G'B'A u8" },
  /* 16-bit: each octave's bins as fine as its codes need. */
  { "sRGB",     0.0, TRUE, "R'G'B'A u16" },
  { "ProPhoto", 0.0, TRUE, "R'G'B'A u16" },
  { "gamma-3",  3.0, TRUE, "R'G'B'A u16" },
  /* Codes 1 to 4's thresholds, 2^-85 to 2^-75, all below 2^-63. */
  { "gamma-5",  5.0, FALSE, "R'G'B'A u16" },
};

/* R~G~B~ is sRGB's curve in every space: a layer in a space of another
 * curve still converts for a filter working in R~G~B~ (sepia,
 * posterize), one in sRGB's space does not.
 */
static void
test_same_curve (void)
{
  const Babl        *gamma = babl_trc_gamma (1.8);
  const Babl        *other = babl_space_from_chromaticities (
                               NULL, 0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60,
                               0.15, 0.06, gamma, gamma, gamma,
                               BABL_SPACE_FLAG_NONE);
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlCodec) srgb  = tl_codec_new (babl_format ("R'G'B'A u8"),
                                           "R~G~B~A float", &error);
  g_autoptr(TlCodec) gamma_codec = NULL;

  g_assert_no_error (error);
  g_assert_false (tl_codec_converts_trc (srgb));
  gamma_codec = tl_codec_new (babl_format_with_space ("R'G'B'A u8", other),
                              "R~G~B~A float", &error);
  g_assert_no_error (error);
  g_assert_true (tl_codec_converts_trc (gamma_codec));
}

/* Codecs of one layer curve, working curve and space share one table
 * (built once: GIMP asks for a filter's result in chunks, each with a
 * codec), and a codec keeps its table when newer ones push it out of
 * those kept: it still decodes and encodes every code as a codec built
 * afresh does.
 */
static void
test_kept_tables (void)
{
  const gchar       *layers[] = { "R'G'B'A u8", "R'G'B'A u16", "R'G'B' u16",
                                  "RGBA u16", "R~G~B~A u16", "R'G'B'A u8" };
  const gchar       *workings[] = { "RGBA float", "RaGaBaA float",
                                    "R'G'B'A float" };
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlCodec) held  = tl_codec_new (babl_format ("R'G'B'A u16"),
                                           "RaGaBaA float", &error);
  g_autoptr(TlCodec) again = tl_codec_new (babl_format ("R'G'B'A u16"),
                                           "RaGaBaA float", &error);
  g_autoptr(TlCodec) fresh = NULL;
  g_autofree guint16 *ramp = g_new (guint16, 65536 * 4);
  g_autofree gfloat  *a    = g_new (gfloat, 65536 * 4);
  g_autofree gfloat  *b    = g_new (gfloat, 65536 * 4);
  g_autofree guint16 *ca   = g_new (guint16, 65536 * 4);
  g_autofree guint16 *cb   = g_new (guint16, 65536 * 4);
  guint               i, j, tables = 0;

  g_assert_no_error (error);
  g_assert_true (tl_codec_get_table (held, NULL) == tl_codec_get_table (again, NULL));
  g_clear_pointer (&again, tl_codec_free);

  /* More tables than are kept, from every other pair. */
  for (i = 0; i < G_N_ELEMENTS (layers); i++)
    for (j = 0; j < G_N_ELEMENTS (workings); j++)
      {
        g_autoptr(TlCodec) other = tl_codec_new (babl_format (layers[i]),
                                                 workings[j], &error);

        g_assert_no_error (error);
        tables += tl_codec_get_table (other, NULL) != NULL;
      }
  g_assert_cmpuint (tables, >, 4);

  fresh = tl_codec_new (babl_format ("R'G'B'A u16"), "RaGaBaA float", &error);
  g_assert_no_error (error);
  for (i = 0; i < 65536 * 4; i++)
    ramp[i] = (i % 4 == 3) ? 65535 - i / 4 : i / 4;
  tl_codec_decode (held, ramp, a, 65536);
  tl_codec_decode (fresh, ramp, b, 65536);
  g_assert_cmpmem (a, 65536 * 4 * sizeof (gfloat), b, 65536 * 4 * sizeof (gfloat));
  tl_codec_encode (held, a, ca, 65536);
  tl_codec_encode (fresh, b, cb, 65536);
  g_assert_cmpmem (ca, 65536 * 4 * sizeof (guint16), cb, 65536 * 4 * sizeof (guint16));
}

/* Encoding across TRCs, by the one-read index (8-bit), the octaves'
 * index (16-bit) where the codes allow it and by the search where they do
 * not, gives each value the code its definition does: at every threshold
 * and the floats either side, at every 128th of a binade and the float
 * below, and at every 64th float from 0 to 1 (every 4096th in 16-bit).
 */
static void
test_encode (gconstpointer data)
{
  const EncodeCase  *c     = data;
  const gchar       *space = c->name;
  const Babl        *trc   = c->gamma > 0.0 ? babl_trc_gamma (c->gamma) : NULL;
  const Babl        *layer = babl_format_with_space (
                               c->layer,
                               trc ? babl_space_from_chromaticities (
                                       NULL, 0.3127, 0.3290, 0.64, 0.33,
                                       0.30, 0.60, 0.15, 0.06, trc, trc, trc,
                                       BABL_SPACE_FLAG_NONE)
                                   : babl_space (space));
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlCodec) codec = tl_codec_new (layer, "RGBA float", &error);
  const gfloat      *thresholds;
  guint32            bits, one, every;
  guint              k, max, zero, checked = 0;

  g_assert_no_error (error);
  g_assert_true (tl_codec_converts_trc (codec));
  g_assert_cmpint (strstr (tl_codec_get_variant (codec), "+step") != NULL, ==,
                   c->one_read);
  max        = tl_codec_get_storage (codec) == TL_STORAGE_U16 ? 65535 : 255;
  every      = max == 255 ? 64 : 4096;
  thresholds = tl_codec_get_table (codec, NULL) + max + 1;

  for (k = 1; k <= max; k++)
    {
      gfloat t = thresholds[k];
      gfloat around[3] = { nextafterf (t, -1.0f), t, nextafterf (t, 2.0f) };
      guint  i;

      for (i = 0; i < 3; i++, checked++)
        if (code_by_codec (codec, around[i]) !=
            code_by_thresholds (thresholds, max, around[i]))
          g_error ("%s: %a encodes to %u, not %u", space, around[i],
                   code_by_codec (codec, around[i]),
                   code_by_thresholds (thresholds, max, around[i]));
    }
  one = 0x3f800000;
  for (bits = 0x00010000; bits <= one; bits += 0x10000, checked += 2)
    {
      gfloat x = float_from_bits (bits), below = float_from_bits (bits - 1);

      g_assert_cmpuint (code_by_codec (codec, x), ==,
                        code_by_thresholds (thresholds, max, x));
      g_assert_cmpuint (code_by_codec (codec, below), ==,
                        code_by_thresholds (thresholds, max, below));
    }
  for (bits = 0; bits <= one; bits += every, checked++)
    {
      gfloat x = float_from_bits (bits);

      if (code_by_codec (codec, x) != code_by_thresholds (thresholds, max, x))
        g_error ("%s: %a encodes to %u, not %u", space, x,
                 code_by_codec (codec, x),
                 code_by_thresholds (thresholds, max, x));
    }
  /* Out of range, negative zero and not a number: clamped, as the
   * search clamps.
   */
  zero = code_by_thresholds (thresholds, max, 0.0f);
  g_assert_cmpuint (code_by_codec (codec, -1.0f), ==, zero);
  g_assert_cmpuint (code_by_codec (codec, -0.0f), ==, zero);
  g_assert_cmpuint (code_by_codec (codec, NAN), ==, zero);
  g_assert_cmpuint (code_by_codec (codec, 2.0f), ==, max);
  g_test_message ("%s %s (%s): %u values", space, c->layer,
                  tl_codec_get_variant (codec), checked);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = g_dir_make_tmp ("threadlens-codec-XXXXXX", NULL);
  guint             i;
  int               status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  context = tl_context_new (NULL, &error);
  if (context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);

  for (i = 0; i < G_N_ELEMENTS (format_cases); i++)
    {
      g_autofree gchar *name = g_strdup_printf ("%u/%s under %s", i,
                                                format_cases[i].layer,
                                                format_cases[i].working);
      g_autofree gchar *path = g_strconcat ("/codec/format/",
                                            g_strdelimit (name, " ", '-'), NULL);

      g_test_add_data_func (path, &format_cases[i], test_format);
    }
  g_test_add_func ("/codec/half", test_half);
  g_test_add_func ("/codec/same-curve", test_same_curve);
  g_test_add_func ("/codec/half-round", test_half_round);
  g_test_add_func ("/codec/premultiplied", test_premultiplied);
  g_test_add_func ("/codec/kept-tables", test_kept_tables);
  for (i = 0; i < G_N_ELEMENTS (encode_cases); i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/codec/encode-%s/%s",
                                                strrchr (encode_cases[i].layer, ' ') + 1,
                                                encode_cases[i].name);

      g_test_add_data_func (path, &encode_cases[i], test_encode);
    }

  status = g_test_run ();
  tl_context_free (context);
  return status;
}
