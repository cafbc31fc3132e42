/* ThreadLens tests: every filter's OpenCL output against its C reference,
 * on the real photos, under every dispatch mode, shape, swizzle and number
 * of pixels per work-item, for each storage a layer can travel in.
 *
 * The table below holds the cases chosen by hand (settings, photos and
 * tolerances that matter); every filter of the registry that it leaves
 * without a float or a narrow-storage case gets one more, its defaults on
 * coffee.png, held exactly to its reference.  The README's filter table is
 * held to the registry too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-run.h"

typedef struct
{
  const gchar *filter;
  const gchar *settings[4];     /* --set style, NULL-terminated */
  const gchar *photo;
  gdouble      tolerance;       /* against the reference; 0 = exact */
  gboolean     full_sweep;      /* every combination, or a cross section */
  const gchar *layer;           /* the layer's babl format, so its storage;
                                 * NULL: floats in the working format */
  guint        width;           /* the photo's first columns only; 0: all */
  gboolean     translucent;     /* alpha from the photo's green channel */
} FilterCase;

static TlContext *context;

/* The recursive Gaussian's distance from the convolution on values in
 * [0, 1], largest and mean (README, "Filters").
 */
#define TL_TEST_RECURSIVE_MAX  4e-2
#define TL_TEST_RECURSIVE_MEAN 3e-3

/* box-blur's exact running sums against the single-precision convolution
 * of the same box (/filters/box-accuracy): the convolution's rounding.
 */
#define TL_TEST_BOX_MAX 1e-5

static const FilterCase filter_cases[] =
{
  { "invert", { NULL }, "coffee.png", 0.0, TRUE },
  { "invert", { NULL }, "logo.png", 0.0, FALSE },
  { "invert", { NULL }, "chessboard_GRAY_U16.tif", 0.0, FALSE },
  /* Sepia with an offset column (20 numbers), alpha scaled. */
  { "color-matrix", { "matrix=0.393,0.769,0.189,0,0.02, 0.349,0.686,0.168,0,0.01, "
                      "0.272,0.534,0.131,0,0, 0,0,0,0.8,0.1", NULL },
    "coffee.png", 0.0, TRUE },
  { "color-matrix", { "matrix=0,0,1,0, 0,1,0,0, 1,0,0,0, 0.2,0.2,0.2,0.4", NULL },
    "logo.png", 0.0, FALSE },
  { "gaussian-blur", { "std-dev=2.5", NULL }, "coffee.png", 1e-5, TRUE },
  { "gaussian-blur", { "std-dev=6", NULL }, "logo.png", 1e-5, FALSE },
  { "gaussian-blur", { "std-dev=0", NULL }, "astronaut.png", 1e-5, FALSE },
  { "gaussian-blur", { "std-dev=1", NULL }, "chessboard_GRAY_U16.tif", 1e-5, FALSE },
  /* The recursive filter: one work-item a line, in double precision, the
   * reference's operations in its order, so exact in every storage.
   */
  { "gaussian-blur", { "std-dev=12", NULL }, "coffee.png", 0.0, TRUE },
  { "gaussian-blur", { "std-dev=40", NULL }, "logo.png", 0.0, FALSE },
  /* 597 columns: a CPU's column pass, four columns an item, leaves its
   * last item one column to take alone.
   */
  { "gaussian-blur", { "std-dev=12", NULL }, "coffee.png", 0.0, FALSE, NULL,
    597 },
  { "brightness-contrast", { "contrast=1.8", "brightness=0.25" },
    "coffee.png", 0.0, FALSE },
  { "brightness-contrast", { "contrast=0.5", "brightness=-0.1" },
    "logo.png", 0.0, FALSE },
  { "threshold", { "value=0.5", NULL }, "coffee.png", 0.0, FALSE },
  { "threshold", { "value=0.3", NULL }, "chessboard_GRAY_U16.tif", 0.0, FALSE },
  { "mono-mixer", { "red=0.5", NULL }, "coffee.png", 0.0, FALSE },
  { "mono-mixer", { "blue=-0.4", NULL }, "logo.png", 0.0, FALSE },
  { "sepia", { "scale=0.75", NULL }, "coffee.png", 0.0, FALSE },
  { "sepia", { NULL }, "logo.png", 0.0, FALSE },
  /* Area filters.  Sums of products under FP_CONTRACT OFF are exact;
   * edge-sobel's sqrt () and pixelize's division are not correctly rounded
   * in OpenCL C by default (3 and 2.5 ulp), hence 1e-5 there.
   */
  { "box-blur", { "radius=3", NULL }, "coffee.png", 0.0, FALSE },
  { "box-blur", { NULL }, "logo.png", 0.0, FALSE },
  /* Equal weights: the taps' sum scaled once, at every radius below the
   * running sums (where a Gaussian's weights go in pairs).
   */
  { "box-blur", { "radius=13", NULL }, "astronaut.png", 0.0, FALSE },
  /* Running sums, exact in whole 2^-32 whatever their order. */
  { "box-blur", { "radius=30", NULL }, "coffee.png", 0.0, TRUE },
  { "box-blur", { "radius=1000", NULL }, "logo.png", 0.0, FALSE },
  { "edge-sobel", { NULL }, "coffee.png", 1e-5, FALSE },
  { "edge-sobel", { NULL }, "chessboard_GRAY_U16.tif", 1e-5, FALSE },
  { "pixelize", { "size=7", NULL }, "coffee.png", 1e-5, FALSE },
  { "pixelize", { NULL }, "logo.png", 1e-5, FALSE },
  { "unsharp-mask", { "std-dev=2", "scale=1.5" }, "coffee.png", 0.0, FALSE },
  { "unsharp-mask", { NULL }, "logo.png", 0.0, FALSE },
  /* gaussian-blur's recursive filter, then the sharpening: exact. */
  { "unsharp-mask", { "std-dev=12", "scale=0.8" }, "coffee.png", 0.0, FALSE },
  /* Narrow storage: tolerances in codes (u8, u16) or values (half).  The
   * kernels decode and encode exactly as tl-codec.c does, so point
   * filters match exactly; a tolerance of a code leaves room for a
   * stencil's sums (within 1e-5 of their reference) to flip a rounding,
   * and for a device that cannot divide by alpha correctly rounded
   * (tl-cl-program.c asks for it where the device can).
   */
  { "invert", { NULL }, "coffee.png", 0.0, TRUE, "R'G'B'A u8" },
  { "invert", { NULL }, "logo.png", 0.0, FALSE, "RGBA u8" },
  { "invert", { NULL }, "chessboard_GRAY_U16.tif", 0.0, FALSE, "Y' u16" },
  { "invert", { NULL }, "coffee.png", 0.0, FALSE, "R'G'B'A half" },
  { "color-matrix", { "matrix=0,0,1,0, 0,1,0,0, 1,0,0,0, 0.2,0.2,0.2,0.4", NULL },
    "logo.png", 0.0, FALSE, "R'G'B'A u8" },
  { "color-matrix", { "matrix=0.9,0.1,0,0, 0,1,0,0, 0,0,1.1,0, 0,0,0,1", NULL },
    "coffee.png", 0.0, FALSE, "R'G'B' u16" },
  { "color-matrix", { NULL }, "astronaut.png", 0.0, FALSE, "RGBA half" },
  { "brightness-contrast", { "contrast=1.8", "brightness=0.25" },
    "coffee.png", 0.0, FALSE, "R'G'B'A u8" },
  { "threshold", { "value=0.5", NULL }, "coffee.png", 0.0, FALSE, "R'G'B' u8" },
  { "mono-mixer", { "blue=-0.4", NULL }, "logo.png", 0.0, FALSE, "R'G'B'A u16" },
  { "sepia", { "scale=0.75", NULL }, "coffee.png", 0.0, FALSE, "R'G'B'A u8" },
  { "gaussian-blur", { "std-dev=2.5", NULL }, "coffee.png", 1.0, TRUE, "R'G'B'A u8" },
  { "gaussian-blur", { "std-dev=6", NULL }, "logo.png", 1.0, FALSE, "R'G'B'A u8" },
  { "gaussian-blur", { "std-dev=1.5", NULL }, "coffee.png", 1.0, FALSE, "RGBA u16" },
  { "gaussian-blur", { "std-dev=3", NULL }, "logo.png", 1e-3, FALSE, "RGBA half" },
  /* The convolution's largest radius, 27 taps either side: tiled and
   * untiled passes give the same bits.
   */
  { "gaussian-blur", { "std-dev=9", NULL }, "logo.png", 1.0, FALSE, "R'G'B'A u8" },
  { "gaussian-blur", { "std-dev=30", NULL }, "logo.png", 0.0, FALSE, "R'G'B'A u8" },
  { "gaussian-blur", { "std-dev=250", NULL }, "coffee.png", 0.0, FALSE, "RGBA u16" },
  { "box-blur", { "radius=3", NULL }, "coffee.png", 1.0, FALSE, "R'G'B'A u8" },
  { "box-blur", { "radius=9", NULL }, "logo.png", 1.0, FALSE, "R'G'B'A u8" },
  { "box-blur", { "radius=45", NULL }, "coffee.png", 0.0, FALSE, "R'G'B'A u8" },
  { "box-blur", { "radius=120", NULL }, "chessboard_GRAY_U16.tif", 0.0, FALSE,
    "Y' u16" },
  { "edge-sobel", { NULL }, "coffee.png", 1.0, FALSE, "R'G'B'A u8" },
  /* 597 and 497 columns: rows start at every alignment, so an item's
   * runs of four pixels are loaded together on some rows and one at a
   * time on others; linear codes decode without the table.
   */
  { "edge-sobel", { NULL }, "coffee.png", 1.0, FALSE, "R'G'B'A u8", 597 },
  { "edge-sobel", { NULL }, "logo.png", 1.0, FALSE, "RGBA u8", 497 },
  { "edge-sobel", { NULL }, "chessboard_GRAY_U16.tif", 1.0, FALSE, "Y' u16" },
  { "pixelize", { "size=7", NULL }, "logo.png", 1.0, FALSE, "R'G'B'A u8" },
  /* The spread copies each block's stored mean: halves' bits too. */
  { "pixelize", { "size=5", NULL }, "astronaut.png", 1e-3, FALSE, "RGBA half" },
  { "pixelize", { "size=9", NULL }, "chessboard_GRAY_U16.tif", 1.0, FALSE,
    "Y' u16" },
  { "unsharp-mask", { "std-dev=2", "scale=1.5" }, "coffee.png", 1.0, FALSE,
    "R'G'B'A u8" },
  { "unsharp-mask", { "std-dev=40", "scale=2" }, "logo.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "unsharp-mask", { "std-dev=12", "scale=0.8" }, "logo.png", 0.0, FALSE,
    "R'G'B'A u8", 498 },
  { "unsharp-mask", { "std-dev=6", NULL }, "chessboard_GRAY_U16.tif", 0.0,
    FALSE, "Y' u16" },
  /* Translucent layers: the premultiplied filters meet every alpha,
   * and divide by it as the C codec does where the device rounds
   * division correctly (tl-cl-program.c), so exactly.
   */
  { "gaussian-blur", { "std-dev=12", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "gaussian-blur", { "std-dev=7", NULL }, "astronaut.png", 0.0, FALSE,
    "RGBA u16", 0, TRUE },
  { "gaussian-blur", { "std-dev=2", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "box-blur", { "radius=3", NULL }, "astronaut.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "unsharp-mask", { "std-dev=9", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "pixelize", { "size=6", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "gaussian-blur", { "std-dev=3", NULL }, "logo.png", 0.0, FALSE,
    "RGBA half", 0, TRUE },
  /* 8-bit and 16-bit brightness-contrast and posterize look each code up
   * in a table the C reference fills (tl_tone_launch_table ()): every alpha,
   * sRGB and linear codes, rows at every alignment (runs of four pixels
   * looked up from one access, single pixels from their own).
   */
  { "brightness-contrast", { "contrast=1.8", "brightness=0.25" },
    "coffee.png", 0.0, FALSE, "R'G'B'A u8", 597, TRUE },
  { "posterize", { "levels=5", NULL }, "logo.png", 0.0, FALSE, "RGBA u8",
    497, TRUE },
  /* The same in 16-bit storage, a table of 65536 codes. */
  { "brightness-contrast", { "contrast=0.7", "brightness=-0.1" },
    "astronaut.png", 0.0, FALSE, "R'G'B'A u16", 501, TRUE },
  { "posterize", { "levels=9", NULL }, "coffee.png", 0.0, FALSE, "RGBA u16",
    0, TRUE },
  /* threshold in 8-bit and 16-bit codes gives each pixel the code of
   * white or black and keeps its alpha code, encoding nothing
   * (tl_tone_launch_threshold_codes ()): every alpha, sRGB and linear
   * codes, every alignment.
   */
  { "threshold", { "value=0.4", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 597, TRUE },
  { "threshold", { "value=0.25", NULL }, "logo.png", 0.0, FALSE, "RGBA u8",
    497, TRUE },
  { "threshold", { "value=0.6", NULL }, "astronaut.png", 0.0, FALSE,
    "R'G'B'A u16", 499, TRUE },
  { "threshold", { "value=0.3", NULL }, "coffee.png", 0.0, FALSE,
    "RGBA u16", 0, TRUE },
  /* 16-bit codes across the curve encode through the octaves' index
   * (engine/image/tl-codec.c): a premultiplied blur, a stencil, a point
   * filter, every alignment.
   */
  { "gaussian-blur", { "std-dev=2", NULL }, "astronaut.png", 0.0, FALSE,
    "R'G'B'A u16", 0, TRUE },
  { "edge-sobel", { NULL }, "coffee.png", 1.0, FALSE, "R'G'B'A u16", 597 },
  { "color-matrix", { "matrix=0.9,0.1,0,0, 0,1,0,0, 0,0,1.1,0, 0,0,0,1", NULL },
    "logo.png", 0.0, FALSE, "R'G'B'A u16", 497, TRUE },
  /* 8-bit and 16-bit mono-mixer encodes its gray once for the three
   * colour channels and keeps each pixel's alpha code.
   */
  { "mono-mixer", { "red=0.5", "green=0.4" }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 597, TRUE },
  { "mono-mixer", { "blue=-0.4", NULL }, "logo.png", 0.0, FALSE, "RGBA u8",
    497, TRUE },
  { "mono-mixer", { "red=0.3", "blue=0.5" }, "astronaut.png", 0.0, FALSE,
    "R'G'B'A u16", 499, TRUE },
  { "mono-mixer", { "green=1.2", NULL }, "coffee.png", 0.0, FALSE,
    "RGBA u16", 0, TRUE },
  /* The slow neighbourhood filters: sums in the references' order and
   * tl-math.h's exponential, so exact in every storage, translucent
   * layers too (straight alpha for the first two).
   */
  { "bilateral-filter", { "blur-radius=2.5", "edge-preservation=30" },
    "logo.png", 0.0, FALSE, "R'G'B'A u8", 497, TRUE },
  { "bilateral-filter", { NULL }, "astronaut.png", 0.0, FALSE, "RGBA u16" },
  { "snn-mean", { "radius=3", "pairs=1" }, "logo.png", 0.0, FALSE, "RGBA u8",
    0, TRUE },
  { "snn-mean", { "radius=5", NULL }, "coffee.png", 0.0, FALSE, "R'G'B'A half" },
  /* mean-curvature-blur's edge cases: none, one and two steps (the
   * padded steps start at two); translucent, alpha kept.
   */
  { "mean-curvature-blur", { "iterations=0", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "mean-curvature-blur", { "iterations=1", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "mean-curvature-blur", { "iterations=2", NULL }, "logo.png", 0.0, FALSE,
    "RGBA u16" },
  { "mean-curvature-blur", { "iterations=7", NULL }, "astronaut.png", 0.0,
    FALSE, "R'G'B'A u8", 0, TRUE },
  { "noise-reduction", { "iterations=0", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "noise-reduction", { "iterations=1", NULL }, "logo.png", 0.0, FALSE,
    "RGBA u8", 0, TRUE },
  { "noise-reduction", { "iterations=3", NULL }, "astronaut.png", 0.0, FALSE,
    "R'G'B'A u16" },
  /* median-blur's sliding windows against windows counted afresh: every
   * shape, runs of every length the sweep gives, a radius past the
   * photo's rows (clamped), translucent (alpha weighs colour).
   */
  { "median-blur", { "radius=5", "percentile=30" }, "logo.png", 0.0, FALSE,
    "RGBA u8", 0, TRUE },
  { "median-blur", { "neighborhood=0", "radius=2" }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8", 597 },
  { "median-blur", { "neighborhood=2", "radius=-7", "alpha-percentile=90" },
    "astronaut.png", 0.0, FALSE, "R'G'B'A u16", 0, TRUE },
  { "median-blur", { "radius=0", NULL }, "coffee.png", 0.0, FALSE },
  { "median-blur", { "radius=60", NULL }, "logo.png", 0.0, FALSE, "RGBA u8",
    40 },
  { "motion-blur-linear", { "length=25", "angle=-30" }, "logo.png", 0.0,
    FALSE, "R'G'B'A u8", 0, TRUE },
  { "motion-blur-linear", { "length=0", NULL }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "motion-blur-linear", { "length=7.5", "angle=90" }, "astronaut.png", 0.0,
    FALSE, "RGBA half" },
  /* The blurs kept in the scratch image, convolved or (from std-dev 5)
   * recursive, then combined under the plan.
   */
  { "difference-of-gaussians", { "radius1=2", "radius2=8" }, "coffee.png",
    0.0, FALSE, "R'G'B'A u8" },
  { "difference-of-gaussians", { "radius1=6", "radius2=12" }, "logo.png",
    0.0, FALSE, "R'G'B'A u8", 0, TRUE },
  { "difference-of-gaussians", { "radius1=0", "radius2=1.5" }, "astronaut.png",
    0.0, FALSE, "RGBA u16" },
  { "high-pass", { "std-dev=8", "contrast=2" }, "coffee.png", 0.0, FALSE,
    "R'G'B'A u8" },
  { "high-pass", { "std-dev=1.5", NULL }, "logo.png", 0.0, FALSE,
    "R'G'B'A u8", 0, TRUE },
  { "high-pass", { "std-dev=3", "contrast=0.5" }, "astronaut.png", 0.0, FALSE },
};

/* Where the table leaves a filter without a case in float storage or in
 * a narrow one, the registry adds one in each layer format here.
 */
static const gchar *const registry_layers[] = { NULL, "R'G'B'A u8" };

static const gchar *const shapes[] =
{
  "seed", "7x5", "1x1", "16x16", "3x64", "64x2", "13x1", "1x32", "32x8",
};
static const TlMode modes[] = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM, TL_MODE_EMULATED };
static const guint  swizzles[] = { 0, 1, 3, 8, 16 };
static const guint  ks[] = { 1, 3, 4 };

typedef struct
{
  TlImage  *image;
  TlValue  *values;
  TlCodec  *codec;
  TlPixels  pixels;
  gpointer  in;
  gpointer  reference;
  gpointer  baseline;      /* OpenCL under the default dispatch */
  gdouble   rounding;      /* the layout's tolerance beyond the case's */
  gsize     n_values;      /* channels in the image */
  gsize     n_bytes;
} Prepared;

/* PHOTO from the test images; free it with tl_image_free (). */
static TlImage *
load_photo (const gchar *photo)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *path  = g_test_build_filename (G_TEST_DIST, "images",
                                                   photo, NULL);
  TlImage          *image = tl_image_load (path, &error);

  g_assert_no_error (error);
  return image;
}

static void
prepare (const FilterCase *c,
         const TlFilter   *filter,
         Prepared         *p)
{
  g_autoptr(GError) error = NULL;
  const Babl       *layer;
  guint             i;

  p->image = load_photo (c->photo);

  p->values = tl_filter_default_values (filter);
  for (i = 0; c->settings[i]; i++)
    {
      g_assert_true (tl_filter_parse_assignment (filter, p->values,
                                                 c->settings[i], &error));
      g_assert_no_error (error);
    }

  /* The photo as a layer of the case's format would hold it. */
  layer = c->layer ? babl_format_with_space (c->layer,
                                             tl_image_get_format (p->image)) :
                     tl_image_get_format (p->image);
  p->codec = c->layer ? tl_codec_new (layer, filter->format, &error) :
                        tl_codec_new_float (layer, filter->format, &error);
  g_assert_no_error (error);

  p->pixels.width  = c->width ? c->width : tl_image_get_width (p->image);
  p->pixels.height = tl_image_get_height (p->image);
  p->pixels.codec  = p->codec;
  p->n_values      = (gsize) p->pixels.width * p->pixels.height * 4;
  p->n_bytes       = (gsize) p->pixels.width * p->pixels.height *
                     tl_codec_get_pixel_size (p->codec);
  p->in            = tl_image_get_stored (p->image,
                                          tl_codec_get_format (p->codec), NULL);
  /* The first columns: rows packed one after the other again. */
  g_assert_cmpuint (p->pixels.width, <=, tl_image_get_width (p->image));
  for (i = 1; i < p->pixels.height; i++)
    {
      gsize row = (gsize) p->pixels.width * tl_codec_get_pixel_size (p->codec);

      memmove ((guint8 *) p->in + i * row,
               (guint8 *) p->in + (gsize) i * tl_image_get_width (p->image) *
                                  tl_codec_get_pixel_size (p->codec),
               row);
    }
  /* The test photos are opaque; a translucent case takes each pixel's
   * alpha from its green, so premultiplication meets every alpha, none
   * and nearly none included.
   */
  if (c->translucent)
    {
      gsize channel = tl_codec_get_pixel_size (p->codec) / 4;

      for (i = 0; i < p->n_values; i += 4)
        memcpy ((guint8 *) p->in + (i + 3) * channel,
                (guint8 *) p->in + (i + 1) * channel, channel);
    }
  p->pixels.in     = p->in;
  p->reference     = g_malloc (p->n_bytes);
  p->baseline      = g_malloc (p->n_bytes);
  p->pixels.out    = p->reference;
  /* What the device runs: without double precision, the convolution for
   * the recursive Gaussian's standard deviations.
   */
  g_assert_true (tl_filter_device_reference (context, filter, p->values,
                                             &p->pixels, NULL));
}

static void
unprepare (Prepared *p)
{
  tl_image_free (p->image);
  tl_codec_free (p->codec);
  g_free (p->values);
  g_free (p->in);
  g_free (p->reference);
  g_free (p->baseline);
}

/* Channel I of stored pixels, as a number: a code or a value. */
static gdouble
stored_value (const TlCodec *codec,
              gconstpointer  data,
              gsize          i)
{
  switch (tl_codec_get_storage (codec))
    {
    case TL_STORAGE_U8:
      return ((const guint8 *) data)[i];
    case TL_STORAGE_U16:
      return ((const guint16 *) data)[i];
    case TL_STORAGE_HALF:
      return tl_codec_half_to_float (((const guint16 *) data)[i]);
    default:
      return ((const gfloat *) data)[i];
    }
}

static gdouble
max_difference (const Prepared *p,
                gconstpointer   a,
                gconstpointer   b,
                gsize          *where)
{
  gdouble worst = 0.0;
  gsize   i;

  *where = 0;
  for (i = 0; i < p->n_values; i++)
    {
      gdouble x = stored_value (p->codec, a, i);
      gdouble y = stored_value (p->codec, b, i);
      gdouble d = fabs (x - y);

      /* A float never written stays NaN and must fail. */
      if (isnan (x) != isnan (y))
        d = INFINITY;
      if (d > worst)
        {
          worst  = d;
          *where = i;
        }
    }
  return worst;
}

/* The recursive Gaussian's group layout's tolerance against the C
 * reference in CODEC's storage (test_filter ()): its segments start from
 * states carried in doubles, the sequential recursion's but for their
 * rounding, which may tip a rounding where a value meets the scratch
 * image or the storage.
 */
static gdouble
group_rounding (const TlCodec *codec)
{
  switch (codec ? tl_codec_get_storage (codec) : TL_STORAGE_FLOAT)
    {
    case TL_STORAGE_U8:
    case TL_STORAGE_U16:
      return 1.0;
    case TL_STORAGE_HALF:
      return 1e-3;
    default:
      return 1e-6;
    }
}

static void
run_one (const FilterCase *c,
         const TlFilter   *filter,
         Prepared         *p,
         const TlChoice   *choice,
         gpointer          out,
         const gchar      *what)
{
  g_autoptr(GError) error = NULL;
  TlPixels          pixels = p->pixels;
  TlPlan            plan;
  gsize             where;
  gdouble           diff, tolerance;

  /* Poison the output so unwritten pixels show: NaN in float and half,
   * 0xa5 codes otherwise.
   */
  memset (out, tl_codec_get_storage (p->codec) == TL_STORAGE_U8 ||
               tl_codec_get_storage (p->codec) == TL_STORAGE_U16 ? 0xa5 : 0xff,
          p->n_bytes);
  pixels.out = out;

  if (! tl_run_filter (context, filter, p->values, choice, &pixels, &plan,
                       NULL, &error))
    g_error ("%s on %s (%s), %s: %s", c->filter, c->photo,
             c->layer ? c->layer : "float", what, error->message);

  /* A device that cannot divide correctly rounded may miss a rounding
   * where a translucent layer leaves premultiplied light.
   */
  tolerance = MAX (c->tolerance, p->rounding);
  if (c->translucent && ! tl_context_get_device (context)->exact_divide)
    tolerance = MAX (tolerance, tl_codec_get_storage (p->codec) ==
                                TL_STORAGE_HALF ? 1e-3 : 1.0);

  diff = max_difference (p, out, p->reference, &where);
  if (p->rounding > 0.0 && diff > 0.0 &&
      strcmp (what, "default dispatch") == 0)
    g_test_message ("%s on %s (%s), %s: %g from the C reference", c->filter,
                    c->photo, c->layer ? c->layer : "float", what, diff);
  if (diff > tolerance)
    g_error ("%s on %s (%s), %s: differs from the C reference by %g at "
             "pixel %zu,%zu channel %zu", c->filter, c->photo,
             c->layer ? c->layer : "float", what, diff,
             (where / 4) % p->pixels.width, (where / 4) / p->pixels.width,
             where % 4);
}

/* One dispatch against the C reference (run_one ()) and against the
 * default dispatch's bits.
 */
static void
run_identical (const FilterCase *c,
               const TlFilter   *filter,
               Prepared         *p,
               const TlChoice   *choice,
               gpointer          out,
               const gchar      *what)
{
  run_one (c, filter, p, choice, out, what);
  if (memcmp (out, p->baseline, p->n_bytes) != 0)
    g_error ("%s on %s (%s), %s: not identical to the default dispatch",
             c->filter, c->photo, c->layer ? c->layer : "float", what);
}

/* Every dispatch choice against the default dispatch's bits, ITEMS
 * ("", or how the recursive Gaussian splits its lines) in the message;
 * returns how many ran.
 */
static guint
sweep_dispatches (const FilterCase *c,
                  const TlFilter   *filter,
                  Prepared         *p,
                  gpointer          out,
                  const gchar      *items)
{
  gboolean cross_section = g_getenv ("TL_TEST_CROSS_SECTION") != NULL;
  TlChoice choice;
  guint    s, m, n, k, runs = 0;

  for (s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++)
      for (n = 0; n < G_N_ELEMENTS (swizzles); n++)
        for (k = 0; k < G_N_ELEMENTS (ks); k++)
          {
            g_autofree gchar *what = NULL;

            /* Small photos get a cross section: each shape under each
             * mode, swizzles and k varied along with them.  So does every
             * case on a second implementation (TL_TEST_CROSS_SECTION),
             * where each kernel running under every shape and mode is
             * what is checked, within CI's time.
             */
            if ((! c->full_sweep || cross_section) &&
                (n != (s + m) % G_N_ELEMENTS (swizzles) ||
                 k != (s + m) % G_N_ELEMENTS (ks)))
              continue;
            /* 1x1 groups are slow on CPU drivers; one pass each mode. */
            if (strcmp (shapes[s], "1x1") == 0 && (n > 1 || k > 0))
              continue;

            tl_choice_init (&choice);
            g_assert_true (tl_shape_from_string (shapes[s], &choice, NULL));
            choice.mode            = modes[m];
            choice.swizzle         = swizzles[n];
            choice.pixels_per_item = ks[k];
            what = g_strdup_printf ("shape %s, %s, swizzle %u, %u px/item%s%s",
                                    shapes[s], tl_mode_to_string (modes[m]),
                                    swizzles[n], ks[k],
                                    *items ? ", an item a " : "", items);

            run_identical (c, filter, p, &choice, out, what);
            runs++;
          }

  /* The driver's shape (the benchmark's baseline): no tile fits a shape
   * not known in advance, so this takes every kernel's untiled twin.
   */
  tl_choice_init (&choice);
  choice.shape_kind = TL_SHAPE_DRIVER;
  run_identical (c, filter, p, &choice, out, "driver's local size");
  return runs + 1;
}

/* Whether FILTER blurs with the recursive Gaussian at VALUES: the
 * filters built on gaussian-blur's blur, their standard deviations
 * first (difference-of-gaussians' two).
 */
static gboolean
takes_recursive (const TlFilter *filter,
                 const TlValue  *values)
{
  static const gchar *const blurring[] = { "gaussian-blur", "unsharp-mask",
                                           "high-pass", NULL };

  if (strcmp (filter->name, "difference-of-gaussians") == 0)
    return (tl_filter_recursive_applies (values[0].v[0]) ||
            tl_filter_recursive_applies (values[1].v[0]));
  return (g_strv_contains (blurring, filter->name) &&
          tl_filter_recursive_applies (values[0].v[0]));
}

static void
test_filter (gconstpointer data)
{
  /* The recursive Gaussian (gaussian-blur's and unsharp-mask's) has three
   * layouts, an item a line (CPUs), an item a channel of a line, and a
   * group a row in local memory then an item a channel of a column (GPUs;
   * all four channels a group, and two, as longer rows take): every
   * dispatch runs under each.  A device without double precision
   * convolves instead, so it has none of them to run.
   */
  static const gchar *const recursive_items[] = { "line", "channel", "group",
                                                  "group-2" };
  static const gchar *const default_items[]   = { "" };
  const FilterCase   *c      = data;
  const TlFilter     *filter = tl_filter_lookup (c->filter, NULL);
  g_autofree gpointer out    = NULL;
  Prepared            p = { 0, };
  TlChoice            choice;
  const gchar *const *items;
  gboolean            recursive, segmented;
  guint               i, n_items, runs = 0;

  g_assert_nonnull (filter);
  prepare (c, filter, &p);
  out = g_malloc (p.n_bytes);

  /* The default dispatch first: it must match the reference, and every
   * other dispatch under every layout must match it bit for bit.
   */
  recursive = takes_recursive (filter, p.values) &&
              tl_filter_recursive_supported (context);
  items   = recursive ? recursive_items : default_items;
  n_items = recursive ? G_N_ELEMENTS (recursive_items) : 1;
  for (i = 0; i < n_items; i++)
    {
      if (*items[i])
        g_setenv ("THREADLENS_RECURSIVE_ITEMS", items[i], TRUE);
      /* At most a code in 8- and 16-bit storage, a half's step near 1
       * in half, 1e-6 in float.
       */
      segmented  = g_str_has_prefix (items[i], "group");
      p.rounding = segmented ? group_rounding (p.codec) : 0.0;
      /* The exact layouts share one baseline, the segmented ones (with
       * all channels a group or two) another.
       */
      if (i == 0 || (segmented && ! g_str_has_prefix (items[i - 1], "group")))
        {
          tl_choice_init (&choice);
          choice.pixels_per_item = 0;
          run_one (c, filter, &p, &choice, p.baseline, "default dispatch");
        }
      runs += sweep_dispatches (c, filter, &p, out, items[i]);
      g_unsetenv ("THREADLENS_RECURSIVE_ITEMS");
    }

  g_test_message ("%s on %s (%s storage): %u dispatch choices matched",
                  c->filter, c->photo,
                  tl_codec_storage_name (tl_codec_get_storage (p.codec)), runs);
  unprepare (&p);
}

/* Whether the table has a case for FILTER in LAYER's kind of storage:
 * floats (NULL) or narrower.
 */
static gboolean
table_covers (const gchar *filter,
              const gchar *layer)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (filter_cases); i++)
    if (strcmp (filter_cases[i].filter, filter) == 0 &&
        (filter_cases[i].layer == NULL) == (layer == NULL))
      return TRUE;
  return FALSE;
}

/* Every filter of the registry is tested, by the table or by a case of
 * its own: these are the cases for what the table leaves out.
 */
static GPtrArray *
registry_cases (void)
{
  GPtrArray             *cases = g_ptr_array_new_with_free_func (g_free);
  guint                  n_filters, i, j;
  const TlFilter *const *filters = tl_filter_list (&n_filters);

  for (i = 0; i < n_filters; i++)
    for (j = 0; j < G_N_ELEMENTS (registry_layers); j++)
      {
        FilterCase *c;

        if (table_covers (filters[i]->name, registry_layers[j]))
          continue;
        c = g_new0 (FilterCase, 1);
        c->filter    = filters[i]->name;
        c->photo     = "coffee.png";
        c->tolerance = 0.0;
        c->layer     = registry_layers[j];
        g_ptr_array_add (cases, c);
      }
  return cases;
}

/* PHOTO in FILTER's working format, as its C reference sees it; free
 * PIXELS->in with g_free ().
 */
static void
load_working_pixels (const gchar    *photo,
                     const TlFilter *filter,
                     TlFloatPixels  *pixels)
{
  TlImage *image = load_photo (photo);

  *pixels = (TlFloatPixels) { 0, };
  pixels->width  = tl_image_get_width (image);
  pixels->height = tl_image_get_height (image);
  pixels->x      = pixels->y = 0;
  pixels->in     = tl_image_get_stored (image,
                                        babl_format_with_space (filter->format,
                                                                tl_image_get_format (image)),
                                        NULL);
  pixels->out    = NULL;
  /* The two-pass references' scratch, which tl_filter_reference ()
   * would allocate.
   */
  pixels->scratch = g_new (gfloat, (gsize) pixels->width * pixels->height * 4);
  tl_image_free (image);
}

/* The largest and the mean difference between N floats of A and B. */
static void
compare_floats (const gfloat *a,
                const gfloat *b,
                gsize         n,
                gdouble      *worst,
                gdouble      *mean)
{
  gdouble sum = 0.0;
  gsize   k;

  *worst = 0.0;
  for (k = 0; k < n; k++)
    {
      gdouble d = fabs ((gdouble) a[k] - b[k]);

      *worst = MAX (*worst, d);
      sum   += d;
    }
  *mean = sum / n;
}

/* The recursive filter against the convolution it stands in for, on
 * photos in the working format: the bounds the README states.
 */
static void
test_recursive_accuracy (void)
{
  static const gchar *const photos[] = { "coffee.png", "logo.png", "astronaut.png" };
  static const gdouble      std_devs[] = { TL_RECURSIVE_MIN_STD_DEV, 8.0, 20.0, 50.0 };
  const TlFilter           *blur = tl_filter_lookup ("gaussian-blur", NULL);
  guint                     i, j;

  for (i = 0; i < G_N_ELEMENTS (photos); i++)
    {
      TlFloatPixels pixels;
      gsize         n;

      load_working_pixels (photos[i], blur, &pixels);
      n = (gsize) pixels.width * pixels.height * 4;
      for (j = 0; j < G_N_ELEMENTS (std_devs); j++)
        {
          g_autofree gfloat *recursive = g_new (gfloat, n);
          g_autofree gfloat *convolved = g_new (gfloat, n);
          g_autofree gfloat *weights   = NULL;
          gdouble            worst, mean;
          gint               radius;

          pixels.out = recursive;
          tl_filter_recursive_reference (std_devs[j], &pixels);
          weights    = tl_filter_gaussian_weights (std_devs[j], &radius);
          pixels.out = convolved;
          tl_filter_convolve_reference (weights, radius, &pixels);

          compare_floats (recursive, convolved, n, &worst, &mean);
          g_test_message ("%s, std-dev %g: recursive - convolution: max %.2e "
                          "(%.2f/255), mean %.2e (%.3f/255)", photos[i],
                          std_devs[j], worst, worst * 255, mean, mean * 255);
          g_assert_cmpfloat (worst, <=, TL_TEST_RECURSIVE_MAX);
          g_assert_cmpfloat (mean, <=, TL_TEST_RECURSIVE_MEAN);
        }
      g_free ((gpointer) pixels.in);
      g_free (pixels.scratch);
    }
}

/* The recursive filter in 8-bit storage, whose scratch image holds halves,
 * against the same filter through floats, both encoded: at most one code
 * apart (README, "Filters").
 */
static void
test_recursive_half (void)
{
  static const gchar *const photos[] = { "coffee.png", "logo.png", "astronaut.png" };
  /* sRGB codes, and linear ones, whose intervals near 1 are the
   * narrowest against a half's steps.
   */
  static const gchar *const layers[] = { "R'G'B'A u8", "RGBA u8" };
  static const gdouble      std_devs[] = { TL_RECURSIVE_MIN_STD_DEV, 8.0, 50.0 };
  const TlFilter           *blur = tl_filter_lookup ("gaussian-blur", NULL);
  guint                     i, l, j;

  for (i = 0; i < G_N_ELEMENTS (photos); i++)
    for (l = 0; l < G_N_ELEMENTS (layers); l++)
      {
        TlImage            *image = load_photo (photos[i]);
        g_autoptr(GError)   error = NULL;
        g_autoptr(TlCodec)  codec = NULL;
        gsize               n     = (gsize) tl_image_get_width (image) *
                                    tl_image_get_height (image);
        g_autofree guint8  *codes = NULL;
        g_autofree gfloat  *in    = g_new (gfloat, n * 4);
        TlFloatPixels       pixels = { 0, };

        codec = tl_codec_new (babl_format_with_space (layers[l],
                                                      tl_image_get_format (image)),
                              blur->format, &error);
        g_assert_no_error (error);
        g_assert_true (tl_filter_scratch_half (codec));
        codes = tl_image_get_stored (image, tl_codec_get_format (codec), NULL);
        tl_codec_decode (codec, codes, in, n);
        pixels.width  = tl_image_get_width (image);
        pixels.height = tl_image_get_height (image);
        pixels.in     = in;

        for (j = 0; j < G_N_ELEMENTS (std_devs); j++)
          {
            g_autofree gfloat *floats = g_new (gfloat, n * 4);
            g_autofree gfloat *halves = g_new (gfloat, n * 4);
            g_autofree guint8 *a      = g_new (guint8, n * 4);
            g_autofree guint8 *b      = g_new (guint8, n * 4);
            gsize              k, changed = 0;
            gint               worst = 0;

            pixels.out          = floats;
            pixels.scratch_half = FALSE;
            tl_filter_recursive_reference (std_devs[j], &pixels);
            pixels.out          = halves;
            pixels.scratch_half = TRUE;
            tl_filter_recursive_reference (std_devs[j], &pixels);
            tl_codec_encode (codec, floats, a, n);
            tl_codec_encode (codec, halves, b, n);
            for (k = 0; k < n * 4; k++)
              {
                gint d = ABS ((gint) a[k] - (gint) b[k]);

                worst    = MAX (worst, d);
                changed += d != 0;
              }
            g_test_message ("%s (%s), std-dev %g: halves - floats in 8-bit "
                            "codes: max %d, %" G_GSIZE_FORMAT " of %"
                            G_GSIZE_FORMAT " codes changed (%.3f%%)",
                            photos[i], layers[l], std_devs[j], worst, changed,
                            n * 4, 100.0 * changed / (n * 4));
            g_assert_cmpint (worst, <=, 1);
            /* Halves do round differently: the comparison sees them. */
            g_assert_cmpuint (changed, >, 0);
          }
        tl_image_free (image);
      }
}

/* box-blur's running sums against the convolution of the same box: the
 * sums are exact, so they differ by the convolution's rounding alone.
 */
static void
test_box_accuracy (void)
{
  static const gchar *const photos[] = { "coffee.png", "logo.png", "astronaut.png" };
  static const gint         radii[]  = { 30, 100 };
  const TlFilter           *box = tl_filter_lookup ("box-blur", NULL);
  guint                     i, j;

  for (i = 0; i < G_N_ELEMENTS (photos); i++)
    {
      TlFloatPixels pixels;
      gsize         n;

      load_working_pixels (photos[i], box, &pixels);
      n = (gsize) pixels.width * pixels.height * 4;
      for (j = 0; j < G_N_ELEMENTS (radii); j++)
        {
          TlValue            radius    = { 1, { radii[j] } };
          g_autofree gfloat *running   = g_new (gfloat, n);
          g_autofree gfloat *convolved = g_new (gfloat, n);
          g_autofree gfloat *weights   = g_new (gfloat, 2 * radii[j] + 1);
          gdouble            worst, mean;
          gint               k;

          for (k = 0; k < 2 * radii[j] + 1; k++)
            weights[k] = 1.0 / (gfloat) (2 * radii[j] + 1);
          pixels.out = running;
          box->reference (box, &radius, &pixels);
          pixels.out = convolved;
          tl_filter_convolve_reference (weights, radii[j], &pixels);

          compare_floats (running, convolved, n, &worst, &mean);
          g_test_message ("%s, radius %d: running sums - convolution: max "
                          "%.2e, mean %.2e", photos[i], radii[j], worst, mean);
          g_assert_cmpfloat (worst, <=, TL_TEST_BOX_MAX);
          g_assert_cmpfloat (worst, >, 0.0);
        }
      g_free ((gpointer) pixels.in);
      g_free (pixels.scratch);
    }
}

/* A kernel's local memory, as the driver reports it, counts the local
 * arguments set on it, and kernels are reused from run to run: a fused
 * convolution whose block takes more than half the local memory of a
 * device with 2 MiB of it (PoCL's) must still take one pass the second
 * time, not fall back on the two.
 */
static void
test_fused_again (void)
{
  const TlFilter     *blur    = tl_filter_lookup ("gaussian-blur", NULL);
  TlValue             std_dev = { 1, { 4.9 } };
  g_autoptr(GError)   error   = NULL;
  g_autoptr(TlCodec)  codec   = tl_codec_new_float (babl_format ("RGBA float"),
                                                    blur->format, &error);
  TlFloatPixels       photo;
  g_autofree gfloat  *out = NULL;
  TlPixels            pixels = { 0, };
  TlChoice            choice;
  TlRunTimes          times[2];
  const TlDevice     *device  = tl_context_get_device (context);
  guint               i;

  /* GPUs take at most 1024 items a group and 48 KiB of local memory. */
  if (device->max_group_size < 128 * 32 || device->local_mem_size < 2 << 20)
    {
      g_test_skip_printf ("%s takes %" G_GSIZE_FORMAT " items a group and "
                          "%" G_GUINT64_FORMAT " bytes of local memory: the "
                          "1.5 MiB block of 128x32 items needs more",
                          device->name, device->max_group_size,
                          device->local_mem_size);
      return;
    }

  g_assert_no_error (error);
  load_working_pixels ("coffee.png", blur, &photo);
  out = g_new (gfloat, (gsize) photo.width * photo.height * 4);
  pixels.width  = photo.width;
  pixels.height = photo.height;
  pixels.codec  = codec;
  pixels.in     = photo.in;
  pixels.out    = out;

  /* 128 x 32 items of 6 pixels: a block of 1536 + 30 by 32 + 30 pixels
   * and its row sums, 16 bytes each, 1.5 MiB.
   */
  tl_choice_init (&choice);
  choice.shape_kind      = TL_SHAPE_CUSTOM;
  choice.shape[0]        = 128;
  choice.shape[1]        = 32;
  choice.pixels_per_item = 6;
  for (i = 0; i < 2; i++)
    {
      g_assert_true (tl_run_filter (context, blur, &std_dev, &choice, &pixels,
                                    NULL, &times[i], &error));
      g_assert_no_error (error);
    }
  g_test_message ("gaussian-blur at std-dev 4.9, 128x32, 6 px/item: %u "
                  "launches, then %u", times[0].launches, times[1].launches);
  g_assert_cmpuint (times[1].launches, ==, times[0].launches);
  g_free ((gpointer) photo.in);
  g_free (photo.scratch);
}

/* The tables of codes brightness-contrast and posterize look pixels up
 * in are kept from one run to the next (GIMP's chunks): runs that change
 * the settings, the layer's curve or the filter between them must each
 * get their own, so each matches its own C reference.
 */
static void
test_codes_kept (void)
{
  static const FilterCase runs[] =
  {
    { "brightness-contrast", { "contrast=1.4", "brightness=0.1" },
      "coffee.png", 0.0, FALSE, "R'G'B'A u16", 301 },
    { "brightness-contrast", { "contrast=1.4", "brightness=0.1" },
      "coffee.png", 0.0, FALSE, "R'G'B'A u16", 301 },
    { "brightness-contrast", { "contrast=1.4", "brightness=0.15" },
      "coffee.png", 0.0, FALSE, "R'G'B'A u16", 301 },
    /* Then posterize with brightness-contrast's first value. */
    { "brightness-contrast", { "contrast=4", "brightness=0.15" },
      "coffee.png", 0.0, FALSE, "RGBA u16", 301 },
    { "posterize", { "levels=4", NULL }, "coffee.png", 0.0, FALSE,
      "RGBA u16", 301 },
    { "brightness-contrast", { "contrast=1.4", "brightness=0.1" },
      "coffee.png", 0.0, FALSE, "R'G'B'A u16", 301 },
    { "brightness-contrast", { "contrast=1.4", "brightness=0.1" },
      "coffee.png", 0.0, FALSE, "R'G'B'A u8", 301 },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (runs); i++)
    {
      const TlFilter    *filter = tl_filter_lookup (runs[i].filter, NULL);
      g_autofree gchar  *what   = g_strdup_printf ("run %u of a sequence", i + 1);
      g_autofree guint8 *out    = NULL;
      Prepared           p      = { 0, };
      TlChoice           choice;

      prepare (&runs[i], filter, &p);
      out = g_malloc (p.n_bytes);
      tl_choice_init (&choice);
      run_one (&runs[i], filter, &p, &choice, out, what);
      unprepare (&p);
    }
}

/* Every number of the registry says how it is shown (tl-filter.h): a
 * slider range within its range, a click the digits can show, a default
 * they show exactly; and no digits exactly where the filter refuses a
 * value between two whole numbers.
 */
static void
test_display_hints (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i, j;

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    for (j = 0; j < filters[i]->n_params; j++)
      {
        const TlFilter     *filter = filters[i];
        const TlParamSpec  *spec   = &filter->params[j];
        g_autofree TlValue *values = NULL;
        gdouble             scale, shown, between;

        if (spec->type != TL_PARAM_DOUBLE)
          continue;
        g_test_message ("%s: %s", filter->name, spec->name);

        g_assert_cmpfloat (spec->step, >, 0.0);
        g_assert_cmpfloat (spec->min, <=, spec->ui_min);
        g_assert_cmpfloat (spec->ui_min, <, spec->ui_max);
        g_assert_cmpfloat (spec->ui_max, <=, spec->max);
        g_assert_cmpuint (spec->digits, <=, 6);
        scale = pow (10.0, spec->digits);
        shown = spec->step * scale;
        g_assert_cmpfloat_with_epsilon (shown, round (shown), 1e-9);
        shown = spec->defaults[0] * scale;
        g_assert_cmpfloat_with_epsilon (shown, round (shown), 1e-9);
        if (spec->digits == 0)
          {
            g_assert_cmpfloat (spec->min, ==, floor (spec->min));
            g_assert_cmpfloat (spec->max, ==, floor (spec->max));
          }

        values  = tl_filter_default_values (filter);
        between = spec->defaults[0] + 0.5 <= spec->max ?
                  spec->defaults[0] + 0.5 : spec->defaults[0] - 0.5;
        g_assert_true (tl_filter_check_values (filter, values, NULL));
        values[j].v[0] = between;
        g_assert_cmpint (spec->digits == 0, ==,
                         ! tl_filter_check_values (filter, values, NULL));
      }
}

/* The README's filter table names exactly the registry's filters. */
static void
test_readme_table (void)
{
  g_autofree gchar *path  = g_test_build_filename (G_TEST_DIST, "..",
                                                   "README.md", NULL);
  g_autofree gchar *text  = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) rows = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                      g_free, NULL);
  g_auto(GStrv)     lines = NULL;
  const TlFilter *const *filters;
  guint             n_filters, i;
  gboolean          inside = FALSE;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);

  /* Rows "| `name` | ..." between "## Filters" and the next section. */
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++)
    {
      if (g_str_has_prefix (lines[i], "## "))
        inside = strcmp (lines[i], "## Filters") == 0;
      else if (inside && g_str_has_prefix (lines[i], "| `"))
        {
          const gchar *name = lines[i] + 3;
          const gchar *end  = strchr (name, '`');

          g_assert_nonnull (end);
          g_hash_table_add (rows, g_strndup (name, end - name));
        }
    }

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    if (! g_hash_table_contains (rows, filters[i]->name))
      g_error ("README.md's filter table has no row for %s", filters[i]->name);
  for (i = 0; i < n_filters; i++)
    g_hash_table_remove (rows, filters[i]->name);
  if (g_hash_table_size (rows) > 0)
    {
      GList *extra = g_hash_table_get_keys (rows);

      g_error ("README.md's filter table has a row for %s, which the "
               "registry does not know", (const gchar *) extra->data);
    }
}

/* Values out of range never reach the device. */
static void
test_bad_values (void)
{
  const TlFilter   *blur   = tl_filter_lookup ("gaussian-blur", NULL);
  const TlFilter   *matrix = tl_filter_lookup ("color-matrix", NULL);
  g_autofree TlValue *values = tl_filter_default_values (blur);
  g_autofree TlValue *mvalues = tl_filter_default_values (matrix);
  g_autoptr(GError) error  = NULL;

  g_assert_false (tl_filter_set_value (blur, values, "std-dev", "-1", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "out of range"));
  g_clear_error (&error);

  g_assert_false (tl_filter_set_value (blur, values, "std-dev", "nan", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_false (tl_filter_set_value (blur, values, "std-dev", "2px", &error));
  g_assert_nonnull (strstr (error->message, "not a number"));
  g_clear_error (&error);

  g_assert_false (tl_filter_set_value (blur, values, "radius", "2", &error));
  g_assert_nonnull (strstr (error->message, "no parameter 'radius'"));
  g_clear_error (&error);

  g_assert_false (tl_filter_set_value (matrix, mvalues, "matrix", "1,0,0", &error));
  g_assert_nonnull (strstr (error->message, "16 or 20"));
  g_clear_error (&error);

  g_assert_false (tl_filter_parse_assignment (blur, values, "std-dev", &error));
  g_assert_nonnull (strstr (error->message, "NAME=VALUE"));
  g_clear_error (&error);

  /* Unchanged by the failures above. */
  g_assert_cmpfloat (values[0].v[0], ==, 2.0);

  g_assert_null (tl_filter_lookup ("sharpen-unknown", &error));
  g_assert_nonnull (strstr (error->message, "gaussian-blur"));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = g_dir_make_tmp ("threadlens-filters-XXXXXX", NULL);
  g_autoptr(GPtrArray) extra = NULL;
  guint             i;
  int               status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  context = tl_context_new (NULL, &error);
  /* A second implementation (TL_TEST_SECOND_PLATFORM names it) runs
   * where it is installed; elsewhere TAP says why not.
   */
  if (context == NULL && g_getenv ("TL_TEST_SECOND_PLATFORM") &&
      g_error_matches (error, TL_ERROR, TL_ERROR_NO_DEVICE))
    {
      g_print ("1..0 # SKIP %s is not installed here (%s)\n",
               g_getenv ("TL_TEST_SECOND_PLATFORM"), error->message);
      return 0;
    }
  if (context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);
  g_test_message ("device: %s", tl_context_get_device (context)->name);

  for (i = 0; i < G_N_ELEMENTS (filter_cases); i++)
    {
      g_autofree gchar *layer = g_strdelimit (g_strdup (filter_cases[i].layer ?
                                                         filter_cases[i].layer :
                                                         "float"), " '", '-');
      g_autofree gchar *path  = g_strdup_printf ("/filters/%s/%s/%s%s/%u",
                                                 filter_cases[i].filter,
                                                 filter_cases[i].photo, layer,
                                                 filter_cases[i].translucent ?
                                                 "-translucent" : "", i);

      g_test_add_data_func (path, &filter_cases[i], test_filter);
    }
  extra = registry_cases ();
  for (i = 0; i < extra->len; i++)
    {
      const FilterCase *c     = g_ptr_array_index (extra, i);
      g_autofree gchar *layer = g_strdelimit (g_strdup (c->layer ? c->layer :
                                                         "float"), " '", '-');
      g_autofree gchar *path  = g_strdup_printf ("/filters/%s/%s/%s/registry",
                                                 c->filter, c->photo, layer);

      g_test_add_data_func (path, c, test_filter);
    }
  g_test_add_func ("/filters/readme-table", test_readme_table);
  g_test_add_func ("/filters/display-hints", test_display_hints);
  g_test_add_func ("/filters/recursive-accuracy", test_recursive_accuracy);
  g_test_add_func ("/filters/recursive-half", test_recursive_half);
  g_test_add_func ("/filters/box-accuracy", test_box_accuracy);
  g_test_add_func ("/filters/fused-again", test_fused_again);
  g_test_add_func ("/filters/codes-kept", test_codes_kept);
  g_test_add_func ("/filters/bad-values", test_bad_values);

  status = g_test_run ();
  tl_context_free (context);
  return status;
}
