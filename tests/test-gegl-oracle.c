/* ThreadLens tests: a second oracle.  Each filter with a GEGL equivalent
 * runs through OpenCL on the shared photos and is compared with the GEGL
 * operation run on the same pixels (gegl:buffer-source -> op, blitted into
 * the filter's working format), within a tolerance that each case states
 * and explains.  The maximum and mean absolute differences over all four
 * channels are measured, printed and both asserted.
 *
 * Every filter of the registry has a case here or a line in
 * no_equivalent[] saying why not; a test holds the two lists to the
 * registry, so a new filter cannot go without its oracle unnoticed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-filter-job.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-run.h"

typedef struct
{
  const gchar *filter;
  const gchar *photo;
  const gchar *settings[6];     /* ThreadLens --set style, NULL-terminated */
  const gchar *operation;       /* the GEGL equivalent */
  const gchar *properties[6];   /* NAME=VALUE for it, NULL-terminated */
  gdouble      max_tolerance;   /* largest |ThreadLens - GEGL| allowed */
  gdouble      mean_tolerance;  /* mean |ThreadLens - GEGL| allowed */
  const gchar *why;             /* why that tolerance */
  gint         shift;           /* GEGL's (x, y) holds our (x - shift,
                                 * y - shift): see edge-sobel */
  gint         border;          /* compared only this far inside the
                                 * edges, where GEGL reads transparent
                                 * black past them and we clamp */
} OracleCase;

static TlContext *context;

/* Tolerances are in the filter's working format (floats, 1.0 = full
 * scale); 1/255 is one step of 8-bit output.  A float computation of the
 * same formula in a different order differs by a few ULPs: 1e-6 covers
 * that for values up to a few units.
 */
static const OracleCase oracle_cases[] =
{
  { "invert", "coffee.png", { NULL },
    "gegl:invert-gamma", { NULL },
    1e-6, 1e-7,
    "1 - v on R'G'B' in both: exact up to float rounding" },
  { "invert", "logo.png", { NULL },
    "gegl:invert-gamma", { NULL },
    1e-6, 1e-7,
    "1 - v on R'G'B', alpha kept in both: exact up to float rounding" },

  /* gegl:gaussian-blur with filter=fir, abyss-policy=clamp is the same
   * separable, normalised, clamp-to-edge convolution in "RaGaBaA float" as
   * ours; only the kernel length differs.  GEGL 0.4.42 (gblur-1d.c,
   * fir_calc_convolve_matrix_length) takes ceil (6.5 s) taps, made odd,
   * so a radius of (that - 1) / 2; ThreadLens takes ceil (3 s).  For s = 2
   * both radii are 6, and only float rounding remains: 13 taps a pass,
   * two passes, summed in another order (GEGL in its own tiles), each
   * rounding up to 6e-8 on values below 1, so a few 1e-6 at worst; the
   * bounds are 4e-6 (max) and 4e-7 (mean), measured 5.4e-7 and 7.4e-8.
   * For s = 4 GEGL's radius is 13 and ours 12: each pass of ours leaves
   * out the two end taps, about 1.0e-3 of the normalised weight,
   * so on values in [0, 1] a pass moves a value by at most about 1.0e-3,
   * and the two passes by at most about 2.0e-3.  The bound asserted is
   * 1/255 (one 8-bit step, about 3.9e-3), twice that worst case; the mean
   * bound 0.05/255 is about 2.5 times the largest mean measured (0.019/255
   * on logo.png, 0.015/255 on coffee.png), since the difference is only
   * large next to strong edges.
   */
  { "gaussian-blur", "coffee.png", { "std-dev=2", NULL },
    "gegl:gaussian-blur", { "std-dev-x=2", "std-dev-y=2", "filter=fir",
                            "abyss-policy=clamp", NULL },
    4e-6, 4e-7,
    "radius 6 in both: float rounding only (see above)" },
  { "gaussian-blur", "coffee.png", { "std-dev=4", NULL },
    "gegl:gaussian-blur", { "std-dev-x=4", "std-dev-y=4", "filter=fir",
                            "abyss-policy=clamp", NULL },
    1.0 / 255.0, 0.05 / 255.0,
    "GEGL radius 13, ours 12: tails of ~1e-3 per pass (see above)" },
  { "gaussian-blur", "logo.png", { "std-dev=4", NULL },
    "gegl:gaussian-blur", { "std-dev-x=4", "std-dev-y=4", "filter=fir",
                            "abyss-policy=clamp", NULL },
    1.0 / 255.0, 0.05 / 255.0,
    "GEGL radius 13, ours 12: tails of ~1e-3 per pass (see above)" },

  { "brightness-contrast", "coffee.png", { "contrast=1.8", "brightness=0.25",
                                           NULL },
    "gegl:brightness-contrast", { "contrast=1.8", "brightness=0.25",
                                           NULL },
    1e-6, 1e-7,
    "(v - 0.5) * c + b + 0.5 in both: float rounding only" },
  { "brightness-contrast", "logo.png", { "contrast=0.5", "brightness=-0.1",
                                         NULL },
    "gegl:brightness-contrast", { "contrast=0.5", "brightness=-0.1", NULL },
    1e-6, 1e-7,
    "(v - 0.5) * c + b + 0.5 in both: float rounding only" },

  /* gegl:threshold in 0.4.42 has only "value" (white where Y' >= value).
   * Later GEGLs may add an upper bound "high" (default 1.0, which would
   * blacken Y' > 1); where it exists it is set out of the way, so the
   * operation stays a plain "at or above value".  A leading '?' marks a
   * property set only where this GEGL has it.
   */
  { "threshold", "coffee.png", { "value=0.5", NULL },
    "gegl:threshold", { "value=0.5", "?high=200", NULL },
    1.0, 1e-4,
    "a pixel whose luma sits within float rounding of the level may flip "
    "(GEGL compares Y' with the level, ThreadLens linear Y with the level "
    "taken through the curve): max 1, but flips must be rare" },
  { "threshold", "logo.png", { "value=0.3", NULL },
    "gegl:threshold", { "value=0.3", "?high=200", NULL },
    1.0, 1e-4,
    "as above; alpha kept by both" },

  { "mono-mixer", "coffee.png", { "red=0.5", "green=0.333", "blue=0.333",
                                  NULL },
    "gegl:mono-mixer", { "red=0.5", "green=0.333", "blue=0.333", NULL },
    1e-6, 1e-7,
    "weighted sum of linear RGB in both: float rounding only" },
  { "mono-mixer", "logo.png", { "red=0.333", "green=0.333", "blue=-0.4", NULL },
    "gegl:mono-mixer", { "red=0.333", "green=0.333", "blue=-0.4", NULL },
    1e-6, 1e-7,
    "weighted sum of linear RGB in both: float rounding only" },

  { "sepia", "coffee.png", { "scale=0.75", NULL },
    "gegl:sepia", { "scale=0.75", "srgb=true", NULL },
    1e-6, 1e-7,
    "the same 3x3 matrix on sRGB-curved values: float rounding only" },
  { "sepia", "logo.png", { "scale=1", NULL },
    "gegl:sepia", { "scale=1", "srgb=true", NULL },
    1e-6, 1e-7,
    "the same 3x3 matrix on sRGB-curved values: float rounding only" },
  /* GEGL 0.4.42's edge-sobel reads its 3x3 window from the input grown
   * by one pixel but indexes it as if it were not: its pixel (x, y) is the
   * Sobel of (x - 1, y - 1).  Compared with that shift, away from the
   * borders, both compute the same formula.
   */
  { "edge-sobel", "coffee.png", { NULL },
    "gegl:edge-sobel", { NULL },
    1e-6, 1e-7,
    "the same 3x3 kernels and sqrt (32) scale; GEGL's output is shifted by "
    "one pixel", 1 },
  { "box-blur", "coffee.png", { "radius=3", NULL },
    "gegl:box-blur", { "radius=3", NULL },
    4e-6, 4e-7,
    "the same box; GEGL keeps a running sum, we add the taps: rounding "
    "only" },
  { "pixelize", "coffee.png", { "size=8", NULL },
    "gegl:pixelize", { "size-x=8", "size-y=8", NULL },
    1e-6, 1e-7, "block means over the same pixels" },
  /* GEGL sharpens with its own gaussian-blur (IIR at this std-dev, its
   * own borders) and on un-premultiplied values; the difference is then
   * amplified by the scale.  Measured here: max 0.023 (6/255, at the
   * image's edge), mean 0.0006 (0.15/255).
   */
  { "unsharp-mask", "coffee.png", { "std-dev=2", "scale=0.5", NULL },
    "gegl:unsharp-mask", { "std-dev=2", "scale=0.5", NULL },
    8.0 / 255.0, 0.5 / 255.0,
    "another gaussian (IIR, GEGL's borders) under the sharpening" },
  /* From std-dev 5 up ours blurs with a recursive filter too (Young and
   * van Vliet's, clamped borders), and the two agree more closely.
   * Measured here: max 0.0104 (2.66/255, at the image's edge), mean
   * 3.9e-5 (0.01/255).
   */
  { "unsharp-mask", "coffee.png", { "std-dev=8", "scale=0.5", NULL },
    "gegl:unsharp-mask", { "std-dev=8", "scale=0.5", NULL },
    4.0 / 255.0, 0.05 / 255.0,
    "a recursive gaussian each (GEGL's borders) under the sharpening" },
  /* gegl:posterize (levels 1 to 64, default 8) on R~G~B~A: (gint) (v *
   * levels + 0.5) / levels, alpha kept.  Ours rounds the same, exactly,
   * then multiplies by 1 / levels where GEGL divides (OpenCL C may round
   * a division 2.5 ulp off, a product never): the two stay within one
   * ulp, 1.2e-7 for values up to 1.  Where 1 / levels is exact (4) they
   * are equal; measured for 6: max 6.0e-8, mean 5.1e-9, so the mean bound
   * is 3 times that.
   */
  { "posterize", "coffee.png", { "levels=4", NULL },
    "gegl:posterize", { "levels=4", NULL },
    1.2e-7, 1.5e-8,
    "GEGL's rounding, then n * (1 / levels) for n / levels: one ulp at most" },
  { "posterize", "logo.png", { "levels=6", NULL },
    "gegl:posterize", { "levels=6", NULL },
    1.2e-7, 1.5e-8,
    "as above, with 1 / 6 inexact; alpha kept by both" },
  /* GEGL weighs by e^-x in double, rounded to float; ours is a float
   * polynomial (within 2 ulp), and the sums run in the same order.
   * Compared a radius inside the edges, where GEGL's window takes in
   * transparent black and ours clamps.  Measured here: max 3.0e-7, mean
   * 1.2e-9 (coffee), 6.3e-10 (logo).
   */
  { "bilateral-filter", "coffee.png", { NULL },
    "gegl:bilateral-filter", { NULL },
    1e-6, 1e-8,
    "the same window and weights; e^-x within 2 ulp of GEGL's",
    0, 4 },
  { "bilateral-filter", "logo.png", { "blur-radius=6", "edge-preservation=20", NULL },
    "gegl:bilateral-filter", { "blur-radius=6", "edge-preservation=20", NULL },
    1e-6, 1e-8,
    "as above, on straight alpha: the weights are the colours' alone",
    0, 6 },
  /* The same choices in the same order: equal away from the borders. */
  { "snn-mean", "coffee.png", { NULL },
    "gegl:snn-mean", { NULL },
    0.0, 0.0,
    "the same pixels chosen and added in the same order", 0, 8 },
  { "snn-mean", "logo.png", { "radius=3", "pairs=1", NULL },
    "gegl:snn-mean", { "radius=3", "pairs=1", NULL },
    0.0, 0.0,
    "as above, one pair over the window's upper half", 0, 3 },
  /* GEGL places each sample and mixes its four pixels in double; ours
   * the same places (from the host, in double) mixed in float.  Compared
   * half the length and a pixel inside the edges, where GEGL reads
   * transparent black.
   */
  { "motion-blur-linear", "coffee.png", { NULL },
    "gegl:motion-blur-linear", { NULL },
    1e-6, 1e-8,
    "the same samples, mixed in float, not double", 0, 6 },
  { "motion-blur-linear", "logo.png", { "length=25", "angle=-30", NULL },
    "gegl:motion-blur-linear", { "length=25", "angle=-30", NULL },
    1e-6, 1e-8,
    "as above, along a slant, premultiplied alpha", 0, 14 },
  /* GEGL's difference-of-gaussians and high-pass blur with its
   * gaussian-blur's defaults: below std-dev 1 the same clamped FIR
   * convolution as ours (and the same radius there), from 1 up its IIR
   * filter, which at small deviations strays from the Gaussian near
   * strong edges; a difference of blurs shows that in full.  So each
   * filter is held tightly where GEGL convolves (logo.png, deviations
   * below 1: measured max 1.2e-7 and 8.9e-7, the rest of high-pass's
   * gap being the sRGB curve and powers, GEGL's babl against
   * tl-math.h's), and loosely at the defaults (coffee.png; measured
   * max 0.067 (17/255) and 0.021, means 0.0015 and 0.0009).
   */
  { "difference-of-gaussians", "coffee.png", { NULL },
    "gegl:difference-of-gaussians", { NULL },
    0.08, 0.002,
    "GEGL's IIR at std-dev 1 and 2, our convolution (see above)", 0, 0 },
  { "difference-of-gaussians", "logo.png", { "radius1=0.5", "radius2=0.9", NULL },
    "gegl:difference-of-gaussians", { "radius1=0.5", "radius2=0.9", NULL },
    1e-6, 1e-7,
    "the same convolutions, GEGL's subtract on premultiplied colour", 0, 0 },
  { "high-pass", "coffee.png", { NULL },
    "gegl:high-pass", { NULL },
    0.03, 0.0015,
    "GEGL's IIR at std-dev 4, our convolution (see above)", 0, 0 },
  { "high-pass", "logo.png", { "std-dev=0.9", "contrast=2", NULL },
    "gegl:high-pass", { "std-dev=0.9", "contrast=2", NULL },
    4e-6, 4e-7,
    "the same convolution and graph; babl's curves against ours", 0, 0 },
  /* GEGL's quantized median: the same bins, weights and rule for the
   * percentile's bin, so the same values.
   */
  { "median-blur", "coffee.png", { NULL },
    "gegl:median-blur", { NULL },
    0.0, 0.0, "the same 256 bins a channel and the same percentile rule",
    0, 0 },
  { "median-blur", "logo.png", { "neighborhood=0", "radius=5", "percentile=30",
                                 "alpha-percentile=80" },
    "gegl:median-blur", { "neighborhood=square", "radius=5", "percentile=30",
                          "alpha-percentile=80", NULL },
    0.0, 0.0, "as above, a square, colour weighted by alpha", 0, 0 },
  { "median-blur", "astronaut.png", { "neighborhood=2", "radius=-4", NULL },
    "gegl:median-blur", { "neighborhood=diamond", "radius=-4", NULL },
    0.0, 0.0, "as above, a diamond, percentiles from the other end", 0, 0 },
  /* GEGL's noise-reduction (C path) writes each step over its input as
   * it goes, so a pixel meets some neighbours already stepped, in an
   * order that depends on how GEGL splits the work: on logo.png one step
   * with one GEGL thread equals an in-place copy of its loop bit for bit,
   * and with several threads differs from it by up to 0.039.  Ours steps
   * from one image into the next (as GEGL's OpenCL path does), with the
   * C path's formula; where a neighbour sits across a sharp edge the
   * order decides whether it joins the average, so single values differ
   * by up to a quarter (measured max 0.258 on logo, 0.25 on coffee) while
   * the images agree closely (means 0.043/255 and 0.37/255; 91% of
   * coffee's values within 1/255).  Compared inside the padding, where
   * GEGL reads transparent black.
   */
  { "noise-reduction", "coffee.png", { NULL },
    "gegl:noise-reduction", { NULL },
    0.3, 0.6 / 255.0,
    "GEGL steps in place, we from image to image (see above)", 0, 4 },
  { "noise-reduction", "logo.png", { "iterations=1", NULL },
    "gegl:noise-reduction", { "iterations=1", NULL },
    0.3, 0.1 / 255.0,
    "as above, one step", 0, 1 },
  /* GEGL steps in double and rounds each step to float; ours in float,
   * with the magnitude cancelled out of the update.  Both pad once by
   * clamped pixels, so the whole image is compared.  Where the gradient
   * nearly vanishes the step divides by its tiny square, and rounding
   * grows over 20 steps: measured here max 2.3e-4 (0.06/255), mean
   * 2.0e-8; 1.3e-6 and 4.9e-10 on logo's 5 steps.
   */
  { "mean-curvature-blur", "coffee.png", { NULL },
    "gegl:mean-curvature-blur", { NULL },
    5e-4, 1e-7,
    "the same steps in float, not double", 0, 0 },
  { "mean-curvature-blur", "logo.png", { "iterations=5", NULL },
    "gegl:mean-curvature-blur", { "iterations=5", NULL },
    1e-5, 1e-8,
    "as above; alpha kept by both", 0, 0 },
};

/* Filters with no GEGL operation to compare with, and why; test-filters
 * checks them against their C references.
 */
static const struct
{
  const gchar *filter;
  const gchar *why;
} no_equivalent[] =
{
  { "color-matrix", "GEGL has no general 4x4 or 4x5 colour matrix operation" },
};

/* Sets NAME=VALUE on NODE by the property's type: double, int, boolean or
 * enum (by nick).  ?NAME=VALUE is skipped where NODE has no property NAME.
 */
static void
set_property (GeglNode    *node,
              const gchar *assignment)
{
  gboolean      optional = assignment[0] == '?';
  g_auto(GStrv) parts    = g_strsplit (assignment + optional, "=", 2);
  GParamSpec   *pspec;
  GType         type;

  g_assert_nonnull (parts[1]);
  pspec = gegl_node_find_property (node, parts[0]);
  if (pspec == NULL && optional)
    {
      g_test_message ("%s has no property '%s' here: left out",
                      gegl_node_get_operation (node), parts[0]);
      return;
    }
  if (pspec == NULL)
    g_error ("%s has no property '%s'",
             gegl_node_get_operation (node), parts[0]);
  type = G_PARAM_SPEC_VALUE_TYPE (pspec);

  if (type == G_TYPE_DOUBLE)
    gegl_node_set (node, parts[0], g_ascii_strtod (parts[1], NULL), NULL);
  else if (type == G_TYPE_INT)
    gegl_node_set (node, parts[0], (gint) g_ascii_strtoll (parts[1], NULL, 10),
                   NULL);
  else if (type == G_TYPE_BOOLEAN)
    gegl_node_set (node, parts[0], strcmp (parts[1], "true") == 0, NULL);
  else if (G_TYPE_IS_ENUM (type))
    {
      GEnumClass *klass = g_type_class_ref (type);
      GEnumValue *value = g_enum_get_value_by_nick (klass, parts[1]);

      if (value == NULL)
        g_error ("%s: '%s' is not a value of %s",
                 gegl_node_get_operation (node), parts[1], parts[0]);
      gegl_node_set (node, parts[0], value->value, NULL);
      g_type_class_unref (klass);
    }
  else
    g_error ("%s: property %s has an unexpected type %s",
             gegl_node_get_operation (node), parts[0], g_type_name (type));
}

/* The GEGL operation on the image's own buffer, blitted into FORMAT. */
static void
run_gegl (const OracleCase *c,
          TlImage          *image,
          const Babl       *format,
          gfloat           *out)
{
  g_autoptr(GeglNode) graph = gegl_node_new ();
  GeglNode           *source;
  GeglNode           *op;
  GeglRectangle       rect = { 0, 0, tl_image_get_width (image),
                               tl_image_get_height (image) };
  guint               i;

  source = gegl_node_new_child (graph,
                                "operation", "gegl:buffer-source",
                                "buffer", tl_image_get_buffer (image),
                                NULL);
  op = gegl_node_new_child (graph, "operation", c->operation, NULL);
  for (i = 0; c->properties[i]; i++)
    set_property (op, c->properties[i]);
  gegl_node_link (source, op);

  gegl_node_blit (op, 1.0, &rect, format, out, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
}

static void
test_oracle (gconstpointer data)
{
  const OracleCase  *c      = data;
  const TlFilter    *filter = tl_filter_lookup (c->filter, NULL);
  g_autoptr(GError)  error  = NULL;
  g_autofree gchar  *path   = NULL;
  g_autoptr(TlImage) image  = NULL;
  g_autofree TlValue *values = NULL;
  g_autofree gfloat *ours   = NULL;
  g_autofree gfloat *in     = NULL;
  g_autofree gfloat *theirs = NULL;
  TlPixels           pixels = { 0, };
  TlChoice           choice;
  TlPlan             plan;
  const Babl        *format;
  gsize              n, i, worst_at = 0, over_step = 0, changed = 0;
  gsize              compared = 0;
  gdouble            worst = 0.0, sum = 0.0, mean;

  g_assert_nonnull (filter);
  if (! gegl_has_operation (c->operation))
    {
      g_autofree gchar *msg = g_strdup_printf ("this GEGL (%d.%d.%d) has no %s",
                                               GEGL_MAJOR_VERSION,
                                               GEGL_MINOR_VERSION,
                                               GEGL_MICRO_VERSION,
                                               c->operation);
      g_test_skip (msg);
      return;
    }

  path  = g_test_build_filename (G_TEST_DIST, "images", c->photo, NULL);
  image = tl_image_load (path, &error);
  g_assert_no_error (error);

  values = tl_filter_default_values (filter);
  for (i = 0; c->settings[i]; i++)
    {
      g_assert_true (tl_filter_parse_assignment (filter, values,
                                                 c->settings[i], &error));
      g_assert_no_error (error);
    }

  /* ThreadLens through OpenCL, default dispatch. */
  pixels.width  = tl_image_get_width (image);
  pixels.height = tl_image_get_height (image);
  n             = (gsize) pixels.width * pixels.height * 4;
  in            = tl_image_get_pixels (image, filter->format, NULL);
  pixels.codec  = NULL;
  pixels.in     = in;
  ours          = g_new (gfloat, n);
  pixels.out    = ours;
  tl_choice_init (&choice);
  if (! tl_filter_job_run (context, filter, values, &choice, &pixels, &plan,
                           NULL, &error))
    g_error ("%s on %s: %s", c->filter, c->photo, error->message);

  /* Agreement means nothing if the filter left the photo as it was. */
  for (i = 0; i < n; i++)
    if (ours[i] != in[i])
      changed++;
  g_assert_cmpuint (changed, >, n / 10);

  /* GEGL on the same pixels, read back in the same format. */
  format = babl_format_with_space (filter->format,
                                   tl_image_get_format (image));
  theirs = g_new (gfloat, n);
  run_gegl (c, image, format, theirs);

  for (i = 0; i < n; i++)
    {
      gsize   x = (i / 4) % pixels.width, y = (i / 4) / pixels.width;
      gsize   j = i - (gsize) c->shift * (pixels.width + 1) * 4;
      gdouble d;

      /* With a shift, only where both windows lie inside the image. */
      if (c->shift &&
          (x < (gsize) c->shift + 1 || y < (gsize) c->shift + 1 ||
           x + 1 >= pixels.width || y + 1 >= pixels.height))
        continue;
      if (x < (gsize) c->border || y < (gsize) c->border ||
          x + c->border >= pixels.width || y + c->border >= pixels.height)
        continue;

      d = fabs ((gdouble) ours[j] - theirs[i]);
      if (isnan (ours[j]) || isnan (theirs[i]))
        d = INFINITY;
      if (d > worst)
        {
          worst    = d;
          worst_at = i;
        }
      if (d > 1.0 / 255.0)
        over_step++;
      sum += d;
      compared++;
    }
  mean = sum / compared;

  g_test_message ("%s on %s vs %s: max %.3g (%.3g/255) at %zu,%zu ch %zu "
                  "(ours %.9g, GEGL %.9g), mean %.3g (%.3g/255), "
                  "%zu of %zu values over 1/255 (%zu changed by the filter); "
                  "tolerance max %.3g, mean %.3g: %s",
                  c->filter, c->photo, c->operation, worst, worst * 255.0,
                  (worst_at / 4) % pixels.width, (worst_at / 4) / pixels.width,
                  worst_at % 4, ours[worst_at], theirs[worst_at],
                  mean, mean * 255.0, over_step, n, changed,
                  c->max_tolerance, c->mean_tolerance, c->why);

  g_assert_cmpfloat (worst, <=, c->max_tolerance);
  g_assert_cmpfloat (mean, <=, c->mean_tolerance);
}

/* posterize's rounding where it is delicate, which photos never reach:
 * halves, a hair below a half (GEGL adds 0.5 in double, so 0.49999997
 * rounds down), negative values (GEGL's cast truncates towards zero),
 * values above 1.  Levels 1, 2 and 8 make 1 / levels exact, so ours (C
 * and OpenCL) must equal GEGL's bit for bit.
 */
static void
test_posterize_edges (void)
{
  static const gfloat   colours[] = { 0.0625f, 0.5f, 0.49999997f, -0.5f,
                                      -0.7f, -1.2f, -1.5f, -1.6f, 1.5f,
                                      3.3f, 0.1875f, -0.0625f, 1.0f,
                                      0.99999994f, 0.25f, -2.5f, 0.375f,
                                      -0.375f };
  static const gint     levels[] = { 1, 2, 8 };
  const TlFilter       *filter = tl_filter_lookup ("posterize", NULL);
  const Babl           *format = babl_format (filter->format);
  const guint           n      = G_N_ELEMENTS (colours) / 3;
  g_autofree gfloat    *in     = g_new (gfloat, n * 4);
  g_autofree gfloat    *theirs = g_new (gfloat, n * 4);
  g_autofree gfloat    *ref    = g_new (gfloat, n * 4);
  g_autofree gfloat    *ours   = g_new (gfloat, n * 4);
  g_autoptr(GeglBuffer) buffer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, n, 1),
                                                  format);
  guint                 i, l;

  for (i = 0; i < n; i++)
    {
      memcpy (in + i * 4, colours + i * 3, 3 * sizeof (gfloat));
      in[i * 4 + 3] = (i % 3) / 2.0f;
    }
  gegl_buffer_set (buffer, NULL, 0, format, in, GEGL_AUTO_ROWSTRIDE);

  for (l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      g_autoptr(GError)   error  = NULL;
      g_autoptr(GeglNode) graph  = gegl_node_new ();
      g_autofree TlValue *values = tl_filter_default_values (filter);
      g_autofree gchar   *set    = g_strdup_printf ("levels=%d", levels[l]);
      GeglNode           *source, *op;
      TlPixels            pixels = { n, 1, NULL, in, ref, 0, 0 };
      TlChoice            choice;
      TlPlan              plan;

      source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                    "buffer", buffer, NULL);
      op     = gegl_node_new_child (graph, "operation", "gegl:posterize",
                                    "levels", levels[l], NULL);
      gegl_node_link (source, op);
      gegl_node_blit (op, 1.0, GEGL_RECTANGLE (0, 0, n, 1), format, theirs,
                      GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);

      g_assert_true (tl_filter_parse_assignment (filter, values, set, &error));
      g_assert_true (tl_filter_reference (filter, values, &pixels, NULL));
      pixels.out = ours;
      tl_choice_init (&choice);
      if (! tl_filter_job_run (context, filter, values, &choice, &pixels,
                               &plan, NULL, &error))
        g_error ("posterize: %s", error->message);

      for (i = 0; i < n * 4; i++)
        if (ref[i] != theirs[i] || ours[i] != theirs[i])
          g_error ("posterize, levels %d, %.9g: C %.9g, OpenCL %.9g, GEGL %.9g",
                   levels[l], in[i], ref[i], ours[i], theirs[i]);
    }
}

/* Each filter of the registry has cases or a reason for none, and both
 * lists name only filters of the registry.
 */
static void
test_registry (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i, j, k;

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    {
      guint cases = 0, excused = 0;

      for (j = 0; j < G_N_ELEMENTS (oracle_cases); j++)
        cases += strcmp (oracle_cases[j].filter, filters[i]->name) == 0;
      for (j = 0; j < G_N_ELEMENTS (no_equivalent); j++)
        excused += strcmp (no_equivalent[j].filter, filters[i]->name) == 0;
      if (cases == 0 && excused == 0)
        g_error ("%s has no GEGL oracle case and no line in no_equivalent[]",
                 filters[i]->name);
      if (cases > 0 && excused > 0)
        g_error ("%s has GEGL oracle cases and a line in no_equivalent[]",
                 filters[i]->name);
    }

  for (k = 0; k < 2; k++)
    for (j = 0; j < (k ? G_N_ELEMENTS (no_equivalent) : G_N_ELEMENTS (oracle_cases));
         j++)
      {
        const gchar *name = k ? no_equivalent[j].filter : oracle_cases[j].filter;

        g_assert_nonnull (tl_filter_lookup (name, NULL));
      }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = g_dir_make_tmp ("threadlens-gegl-oracle-XXXXXX",
                                            NULL);
  guint             i;
  int               status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
  /* The oracle should be GEGL's CPU code, independent of the OpenCL
   * driver under test.
   */
  g_setenv ("GEGL_USE_OPENCL", "no", TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  g_object_set (gegl_config (), "use-opencl", FALSE, NULL);
  context = tl_context_new (NULL, &error);
  if (context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);
  g_test_message ("device: %s; GEGL %d.%d.%d",
                  tl_context_get_device (context)->name,
                  GEGL_MAJOR_VERSION, GEGL_MINOR_VERSION, GEGL_MICRO_VERSION);

  for (i = 0; i < G_N_ELEMENTS (oracle_cases); i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/gegl-oracle/%s/%s/%u",
                                                oracle_cases[i].filter,
                                                oracle_cases[i].photo, i);

      g_test_add_data_func (path, &oracle_cases[i], test_oracle);
    }
  g_test_add_func ("/gegl-oracle/posterize-edges", test_posterize_edges);
  g_test_add_func ("/gegl-oracle/registry", test_registry);
  for (i = 0; i < G_N_ELEMENTS (no_equivalent); i++)
    g_test_message ("%s: no GEGL equivalent: %s", no_equivalent[i].filter,
                    no_equivalent[i].why);

  status = g_test_run ();
  tl_context_free (context);
  return status;
}
