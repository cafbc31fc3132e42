/* ThreadLens tests: every filter's OpenCL output against its C reference,
 * on the real photos, under every dispatch mode, shape, swizzle and number
 * of pixels per work-item, for each storage a layer can travel in.
 *
 * The table below holds the cases chosen by hand (settings, photos and
 * tolerances that matter); every filter of the registry that it leaves
 * without a float or a narrow-storage case gets one more, its defaults on
 * coffee.png, held exactly to its reference.  The program's other checks
 * (the README's filter table, display hints, the references' accuracy,
 * edge cases of runs) are in filter-checks.c; what both use, in
 * filter-fixtures.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-error.h"

#include "filter-fixtures.h"

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

/* One dispatch against the C reference (filter_fixture_run ()) and
 * against the default dispatch's bits.
 */
static void
run_identical (const FilterCase *c,
               const TlFilter   *filter,
               FilterFixture    *p,
               const TlChoice   *choice,
               gpointer          out,
               const gchar      *what)
{
  filter_fixture_run (c, filter, p, choice, out, what);
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
                  FilterFixture    *p,
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
  FilterFixture       p = { 0, };
  TlChoice            choice;
  const gchar *const *items;
  gboolean            recursive, segmented;
  guint               i, n_items, runs = 0;

  g_assert_nonnull (filter);
  filter_fixture_prepare (c, filter, &p);
  out = g_malloc (p.n_bytes);

  /* The default dispatch first: it must match the reference, and every
   * other dispatch under every layout must match it bit for bit.
   */
  recursive = takes_recursive (filter, p.values) &&
              tl_filter_recursive_supported (filter_fixture_context);
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
          filter_fixture_run (c, filter, &p, &choice, p.baseline,
                              "default dispatch");
        }
      runs += sweep_dispatches (c, filter, &p, out, items[i]);
      g_unsetenv ("THREADLENS_RECURSIVE_ITEMS");
    }

  g_test_message ("%s on %s (%s storage): %u dispatch choices matched",
                  c->filter, c->photo,
                  tl_codec_storage_name (tl_codec_get_storage (p.codec)), runs);
  filter_fixture_clear (&p);
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
  filter_fixture_context = tl_context_new (NULL, &error);
  /* A second implementation (TL_TEST_SECOND_PLATFORM names it) runs
   * where it is installed; elsewhere TAP says why not.
   */
  if (filter_fixture_context == NULL &&
      g_getenv ("TL_TEST_SECOND_PLATFORM") &&
      g_error_matches (error, TL_ERROR, TL_ERROR_NO_DEVICE))
    {
      g_print ("1..0 # SKIP %s is not installed here (%s)\n",
               g_getenv ("TL_TEST_SECOND_PLATFORM"), error->message);
      return 0;
    }
  if (filter_fixture_context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);
  g_test_message ("device: %s",
                  tl_context_get_device (filter_fixture_context)->name);

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
  filter_checks_add_tests ();

  status = g_test_run ();
  tl_context_free (filter_fixture_context);
  return status;
}
