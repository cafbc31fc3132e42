/* ThreadLens tests: test-filters' checks beside the dispatch sweep.  The
 * registry against the README's filter table and against how its
 * numbers are shown; the recursive Gaussian and box-blur's running sums
 * against the convolutions they stand in for; a fused convolution that
 * keeps one pass from run to run; tables of codes kept from run to run
 * but never across settings; values out of range refused.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-error.h"
#include "tl-filter-job.h"

#include "filter-fixtures.h"

/* The recursive Gaussian's distance from the convolution on values in
 * [0, 1], largest and mean (README, "Filters").
 */
#define TL_TEST_RECURSIVE_MAX  4e-2
#define TL_TEST_RECURSIVE_MEAN 3e-3

/* box-blur's exact running sums against the single-precision convolution
 * of the same box (/filters/box-accuracy): the convolution's rounding.
 */
#define TL_TEST_BOX_MAX 1e-5

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

      filter_fixture_load_working (photos[i], blur, &pixels);
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
        TlImage            *image = filter_fixture_load_photo (photos[i]);
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

      filter_fixture_load_working (photos[i], box, &pixels);
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
  const TlDevice     *device;
  guint               i;

  device = tl_context_get_device (filter_fixture_context);
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
  filter_fixture_load_working ("coffee.png", blur, &photo);
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
      g_assert_true (tl_filter_job_run (filter_fixture_context, blur, &std_dev,
                                        &choice, &pixels, NULL, &times[i],
                                        &error));
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
      FilterFixture      p      = { 0, };
      TlChoice           choice;

      filter_fixture_prepare (&runs[i], filter, &p);
      out = g_malloc (p.n_bytes);
      tl_choice_init (&choice);
      filter_fixture_run (&runs[i], filter, &p, &choice, out, what);
      filter_fixture_clear (&p);
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

/* Launches bounded in time (engine/run/tl-run-pace.c): with a budget too
 * small for any work-group, every launch is cut into pieces of one group
 * (after a first piece of a row), each waited for; the pixels are the
 * unbounded launches' bit for bit, for every filter under each mode, with
 * and without a swizzle, in 8-bit and float, on 48 columns of the photo
 * (three groups a row), a piece allowed to be a single group
 * (THREADLENS_LAUNCH_GROUPS) whatever the device.
 */
static void
test_bounded_launches (gconstpointer data)
{
  static const TlMode modes[] = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM,
                                  TL_MODE_EMULATED };
  static const gchar *const layers[] = { "R'G'B'A u8", NULL };
  const TlFilter *filter = data;
  guint           l, m;

  for (l = 0; l < G_N_ELEMENTS (layers); l++)
    {
      FilterCase          c = { filter->name, { NULL }, "coffee.png", 0.0,
                                FALSE, layers[l], 48, FALSE };
      FilterFixture       p = { 0, };
      g_autofree gpointer unbounded = NULL;
      g_autofree gpointer bounded   = NULL;

      filter_fixture_prepare (&c, filter, &p);
      unbounded = g_malloc (p.n_bytes);
      bounded   = g_malloc (p.n_bytes);
      for (m = 0; m < G_N_ELEMENTS (modes); m++)
        {
          g_autoptr(GError) error = NULL;
          TlPixels          pixels = p.pixels;
          TlRunTimes        whole, cut;
          TlChoice          choice;

          tl_choice_init (&choice);
          choice.mode    = modes[m];
          choice.swizzle = m == 1 ? 2 : 0;
          g_assert_true (tl_shape_from_string ("16x8", &choice, NULL));

          g_setenv ("THREADLENS_LAUNCH_MS", "0", TRUE);
          pixels.out = unbounded;
          if (! tl_filter_job_run (filter_fixture_context, filter, p.values,
                                   &choice, &pixels, NULL, &whole, &error))
            g_error ("%s, unbounded: %s", filter->name, error->message);

          g_setenv ("THREADLENS_LAUNCH_MS", "0.000001", TRUE);
          g_setenv ("THREADLENS_LAUNCH_GROUPS", "1", TRUE);
          memset (bounded, 0xa5, p.n_bytes);
          pixels.out = bounded;
          if (! tl_filter_job_run (filter_fixture_context, filter, p.values,
                                   &choice, &pixels, NULL, &cut, &error))
            g_error ("%s, bounded: %s", filter->name, error->message);
          g_unsetenv ("THREADLENS_LAUNCH_MS");
          g_unsetenv ("THREADLENS_LAUNCH_GROUPS");

          if (memcmp (bounded, unbounded, p.n_bytes) != 0)
            g_error ("%s (%s), %s: launches cut to the budget change the pixels",
                     filter->name, layers[l] ? layers[l] : "float",
                     tl_mode_to_string (modes[m]));
          /* The lines' kernels (the recursive Gaussian) run a row of
           * groups a launch already.
           */
          g_assert_cmpuint (cut.launches, >=, whole.launches);
          if (strcmp (filter->name, "gaussian-blur") != 0)
            g_assert_cmpuint (cut.launches, >, whole.launches);
        }
      filter_fixture_clear (&p);
    }
}

void
filter_checks_add_tests (void)
{
  const TlFilter *const *filters;
  guint                  n, i;

  filters = tl_filter_list (&n);
  for (i = 0; i < n; i++)
    {
      g_autofree gchar *name = g_strdup_printf ("/filters/bounded-launches/%s",
                                                filters[i]->name);

      g_test_add_data_func (name, filters[i], test_bounded_launches);
    }
  g_test_add_func ("/filters/readme-table", test_readme_table);
  g_test_add_func ("/filters/display-hints", test_display_hints);
  g_test_add_func ("/filters/recursive-accuracy", test_recursive_accuracy);
  g_test_add_func ("/filters/recursive-half", test_recursive_half);
  g_test_add_func ("/filters/box-accuracy", test_box_accuracy);
  g_test_add_func ("/filters/fused-again", test_fused_again);
  g_test_add_func ("/filters/codes-kept", test_codes_kept);
  g_test_add_func ("/filters/bad-values", test_bad_values);
}
