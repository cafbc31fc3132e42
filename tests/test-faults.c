/* ThreadLens tests: every OpenCL call a run makes, made to fail in turn.
 *
 * For each filter of the registry, a clean run counts the calls that
 * opening a device and filtering a crop of a photo make; then each call N
 * fails once (tl-fault.h) and the run must end either in an error that
 * says what failed, or in exactly the clean run's pixels.  The overlay
 * kernel gets the same walk, and the program build path is failed by
 * name.  Under the sanitizer suite the same walk checks that no failure
 * path leaks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-filter-job.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-overlay.h"
#include "tl-run.h"

#define CROP_W 96
#define CROP_H 61

typedef struct
{
  const gchar *filter;
  const gchar *setting;
  const gchar *shape;       /* emulated launches make the most calls */
  TlMode       mode;
  guint        swizzle;
  gboolean     copied;      /* pixels off the device's alignment: a CPU's
                             * OpenCL copies them rather than work on
                             * them in place (tl-run.c) */
} FaultCase;

static const FaultCase fault_cases[] =
{
  { "invert",              NULL,              "seed", TL_MODE_UNIFORM,     0, TRUE },
  { "color-matrix",        NULL,              "16x4", TL_MODE_NON_UNIFORM, 0 },
  { "brightness-contrast", "contrast=1.4",    "seed", TL_MODE_UNIFORM,     0, TRUE },
  { "threshold",           NULL,              "seed", TL_MODE_UNIFORM,     0 },
  { "mono-mixer",          NULL,              "seed", TL_MODE_UNIFORM,     0, TRUE },
  { "sepia",               NULL,              "seed", TL_MODE_UNIFORM,     0 },
  { "gaussian-blur",       "std-dev=2",       "16x8", TL_MODE_EMULATED,    4, TRUE },
  { "box-blur",            "radius=2",        "seed", TL_MODE_UNIFORM,     0 },
  { "edge-sobel",          NULL,              "7x5",  TL_MODE_EMULATED,    0, TRUE },
  { "pixelize",            "size=5",          "seed", TL_MODE_UNIFORM,     0 },
  { "unsharp-mask",        "std-dev=1.5",     "32x4", TL_MODE_NON_UNIFORM, 3, TRUE },
};

static TlImage *photo;

/* Whether the table names FILTER; the registry's other filters get a
 * case of their own: their defaults, the seed shape, uniform.
 */
static gboolean
table_names (const gchar *filter)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (fault_cases); i++)
    if (strcmp (fault_cases[i].filter, filter) == 0)
      return TRUE;
  return FALSE;
}

/* A crop of coffee.png as an 8-bit layer would send it: odd sizes, so
 * emulated launches split into several.
 */
static gpointer
crop_u8 (const TlCodec *codec)
{
  g_autofree guint8 *whole = tl_image_get_stored (photo, tl_codec_get_format (codec), NULL);
  guint              width = tl_image_get_width (photo);
  guint8            *crop  = g_malloc ((gsize) CROP_W * CROP_H * 4);
  guint              y;

  for (y = 0; y < CROP_H; y++)
    memcpy (crop + (gsize) y * CROP_W * 4,
            whole + ((gsize) (y + 100) * width + 200) * 4, CROP_W * 4);
  return crop;
}

/* BYTES of pixels in a block at a page's start (*BLOCK, for free ()),
 * or 16 bytes into it when COPIED, off every device's alignment.
 */
static guint8 *
alloc_pixels (gsize     bytes,
              gboolean  copied,
              gpointer *block)
{
  g_assert_cmpint (posix_memalign (block, 4096, bytes + 16), ==, 0);
  return (guint8 *) *block + (copied ? 16 : 0);
}

/* One run from scratch: a fresh context, as a plug-in process makes. */
static gboolean
run_once (const TlFilter *filter,
          const TlValue  *values,
          const TlChoice *choice,
          const TlPixels *pixels,
          GError        **error)
{
  TlContext *context = tl_context_new (NULL, error);
  gboolean   ok;

  if (context == NULL)
    return FALSE;
  ok = tl_filter_job_run (context, filter, values, choice, pixels, NULL, NULL,
                          error);
  tl_context_free (context);
  return ok;
}

static void
assert_clean_error (const GError *error,
                    guint         n,
                    const gchar  *what)
{
  if (error == NULL || error->domain != TL_ERROR || error->message[0] == '\0')
    g_error ("%s, call %u failed: the run failed without a ThreadLens error",
             what, n);
  /* The message names what failed, never a bare status number. */
  if (error->code == TL_ERROR_OPENCL && strstr (error->message, "CL_") == NULL)
    g_error ("%s, call %u: '%s' does not name the OpenCL error", what, n,
             error->message);
}

static void
test_filter_faults (gconstpointer data)
{
  const FaultCase   *c        = data;
  g_autoptr(GError)  error    = NULL;
  const TlFilter    *filter   = tl_filter_lookup (c->filter, &error);
  g_autofree TlValue *values  = NULL;
  g_autoptr(TlCodec) codec    = NULL;
  g_autofree guint8 *crop     = NULL;
  guint8            *in, *expected, *out;
  gpointer           blocks[3];
  gsize              n_bytes  = (gsize) CROP_W * CROP_H * 4;
  TlChoice           choice;
  TlPixels           pixels = { 0, };
  guint              calls, n, errors = 0;

  g_assert_no_error (error);
  values = tl_filter_default_values (filter);
  if (c->setting)
    g_assert_true (tl_filter_parse_assignment (filter, values, c->setting, &error));
  codec = tl_codec_new (babl_format_with_space ("R'G'B'A u8",
                                                tl_image_get_format (photo)),
                        filter->format, &error);
  g_assert_no_error (error);

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string (c->shape, &choice, &error));
  choice.mode            = c->mode;
  choice.swizzle         = c->swizzle;
  choice.pixels_per_item = filter->default_pixels_per_item;

  crop     = crop_u8 (codec);
  in       = memcpy (alloc_pixels (n_bytes, c->copied, &blocks[0]), crop,
                     n_bytes);
  expected = alloc_pixels (n_bytes, c->copied, &blocks[1]);
  out      = alloc_pixels (n_bytes, c->copied, &blocks[2]);
  pixels.width  = CROP_W;
  pixels.height = CROP_H;
  pixels.codec  = codec;
  pixels.in     = in;

  /* The clean run: its pixels, and how many calls it makes.  A warm-up
   * first fills the program cache, so every later run takes the same path.
   */
  pixels.out = expected;
  g_assert_true (run_once (filter, values, &choice, &pixels, &error));
  g_assert_true (tl_fault_arm (NULL, &error));
  g_assert_true (run_once (filter, values, &choice, &pixels, &error));
  g_assert_no_error (error);
  calls = tl_fault_calls ();
  g_assert_cmpuint (calls, >, 10);

  pixels.out = out;
  for (n = 1; n <= calls; n++)
    {
      g_autofree gchar *spec = g_strdup_printf ("%u", n);
      g_autoptr(GError) failure = NULL;
      gboolean          ok;

      memset (out, 0xa5, n_bytes);
      g_assert_true (tl_fault_arm (spec, NULL));
      ok = run_once (filter, values, &choice, &pixels, &failure);
      g_assert_cmpuint (tl_fault_fired (), ==, 1);

      if (ok)
        {
          /* A call whose failure the engine may shrug off (a device
           * detail it has a default for): the result must still be right.
           */
          g_assert_no_error (failure);
          if (memcmp (out, expected, n_bytes) != 0)
            g_error ("%s: call %u failed and the run succeeded with wrong "
                     "pixels", c->filter, n);
        }
      else
        {
          assert_clean_error (failure, n, c->filter);
          errors++;
        }
    }
  g_assert_true (tl_fault_arm (NULL, NULL));
  g_test_message ("%s (%s): %u OpenCL calls, %u of them fatal when they fail",
                  c->filter, c->copied ? "copied" : "in place", calls, errors);
  /* Buffers, launches and reads cannot be shrugged off. */
  g_assert_cmpuint (errors, >=, calls / 3);
  free (blocks[0]);
  free (blocks[1]);
  free (blocks[2]);
}

static void
test_overlay_faults (void)
{
  g_autoptr(GError) error = NULL;
  TlChoice          choice;
  guint             calls = 0, n;

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("7x5", &choice, &error));
  choice.mode    = TL_MODE_EMULATED;
  choice.swizzle = 3;
  choice.pixels_per_item = 1;

  /* Round 0 is clean and counts; a warm-up round before it fills the
   * program cache.
   */
  for (n = G_MAXUINT; n == G_MAXUINT || n <= calls; n++)
    {
      g_autofree gchar        *spec    = n && n != G_MAXUINT ?
                                         g_strdup_printf ("%u", n) : NULL;
      g_autoptr(GError)        failure = NULL;
      g_autoptr(TlOverlayMap)  map     = NULL;
      TlContext               *context;
      TlLimits                 limits;
      TlPlan                   plan;

      g_assert_true (tl_fault_arm (spec, NULL));
      context = tl_context_new (NULL, &failure);
      if (context &&
          tl_overlay_plan (context, NULL, NULL, &choice, CROP_W, CROP_H,
                           &limits, &plan, &failure))
        map = tl_overlay_run (context, &plan, limits.simd_width, 0.0,
                              &failure);
      tl_context_free (context);

      if (n == 0 || n == G_MAXUINT)
        {
          g_assert_no_error (failure);
          g_assert_nonnull (map);
          calls = tl_fault_calls ();
          continue;
        }
      g_assert_cmpuint (tl_fault_fired (), ==, 1);
      if (map == NULL)
        assert_clean_error (failure, n, "overlay");
      else
        g_assert_no_error (failure);
    }
  g_assert_true (tl_fault_arm (NULL, NULL));
}

/* The map drawn on the device in windows of 16 rows, a checkerboard
 * over an 8-bit crop: the N-th OpenCL call failing, mid-window or
 * between windows, gives a clean error; a run that survives (a call
 * whose failure is only a lost measurement) draws the clean run's bytes.
 */
static void
test_overlay_draw_faults (void)
{
  g_autoptr(GError)  error    = NULL;
  g_autoptr(TlCodec) codec    = tl_codec_new (babl_format ("R'G'B'A u8"),
                                              "R'G'B'A float", &error);
  g_autofree guint8 *crop     = crop_u8 (codec);
  g_autofree guint8 *expected = g_malloc ((gsize) CROP_W * CROP_H * 4);
  g_autofree guint8 *out      = g_malloc ((gsize) CROP_W * CROP_H * 4);
  TlChoice           choice;
  guint              calls = 0, n;

  g_assert_no_error (error);
  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("7x5", &choice, &error));
  choice.mode            = TL_MODE_NON_UNIFORM;
  choice.pixels_per_item = 1;
  g_setenv ("THREADLENS_TILE", "16", TRUE);

  for (n = G_MAXUINT; n == G_MAXUINT || n <= calls; n++)
    {
      g_autofree gchar        *spec    = n && n != G_MAXUINT ?
                                         g_strdup_printf ("%u", n) : NULL;
      g_autoptr(GError)        failure = NULL;
      g_autoptr(TlOverlayMap)  map     = NULL;
      TlContext               *context;
      TlLimits                 limits;
      TlPlan                   plan;

      memset (out, 0x5a, (gsize) CROP_W * CROP_H * 4);
      g_assert_true (tl_fault_arm (spec, NULL));
      context = tl_context_new (NULL, &failure);
      if (context &&
          tl_overlay_plan (context, NULL, NULL, &choice, CROP_W, CROP_H,
                           &limits, &plan, &failure))
        map = tl_overlay_draw (context, &plan, limits.simd_width, 0.0,
                               TL_OVERLAY_WORK_GROUP, TL_OVERLAY_CHECKERBOARD,
                               0.5, codec, crop, out, FALSE, &failure);
      tl_context_free (context);

      if (n == 0 || n == G_MAXUINT)
        {
          g_assert_no_error (failure);
          g_assert_nonnull (map);
          calls = tl_fault_calls ();
          memcpy (expected, out, (gsize) CROP_W * CROP_H * 4);
          continue;
        }
      g_assert_cmpuint (tl_fault_fired (), ==, 1);
      if (map == NULL)
        assert_clean_error (failure, n, "thread map drawn on the device");
      else
        g_assert_cmpmem (out, (gsize) CROP_W * CROP_H * 4, expected,
                         (gsize) CROP_W * CROP_H * 4);
    }
  g_assert_true (tl_fault_arm (NULL, NULL));
  g_unsetenv ("THREADLENS_TILE");
}

/* The build from source, which the walks above skip (their programs come
 * from the disk cache): each of its calls failing gives a clean error.
 */
static void
test_build_faults (void)
{
  static const gchar *const calls[] =
  {
    "clCreateProgramWithSource", "clBuildProgram", "clCreateKernel",
  };
  g_autoptr(GError) error  = NULL;
  const TlFilter   *filter = tl_filter_lookup ("invert", &error);
  g_autofree gfloat *in    = tl_image_get_pixels (photo, filter->format, NULL);
  g_autofree gfloat *out   = NULL;
  TlChoice          choice;
  TlPixels          pixels = { 0, };
  guint             i;

  tl_choice_init (&choice);
  pixels.width  = 64;
  pixels.height = 32;
  pixels.in     = in;
  pixels.out    = out = g_new (gfloat, 64 * 32 * 4);

  /* No disk cache: the program is built here, from source. */
  g_setenv ("THREADLENS_CACHE_DIR", "", TRUE);
  for (i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autoptr(GError) failure = NULL;
      g_autofree TlValue *values = tl_filter_default_values (filter);

      g_assert_true (tl_fault_arm (calls[i], NULL));
      g_assert_false (run_once (filter, values, &choice, &pixels, &failure));
      g_assert_cmpuint (tl_fault_fired (), >=, 1);
      assert_clean_error (failure, 1, calls[i]);
      if (g_str_equal (calls[i], "clBuildProgram"))
        {
          g_assert_error (failure, TL_ERROR, TL_ERROR_BUILD);
          g_assert_nonnull (strstr (failure->message, "building kernels/point.cl"));
        }
    }
  g_assert_true (tl_fault_arm (NULL, NULL));
}

/* With no platform, the context says so in its own error code, which the
 * front ends turn into the C references' fallback.
 */
static void
test_no_platform (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tl_fault_arm ("clGetPlatformIDs", NULL));
  g_assert_null (tl_context_new (NULL, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM);
  g_assert_true (tl_fault_arm (NULL, NULL));
}

static void
test_bad_spec (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (tl_fault_arm ("the-third", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tl_fault_arm ("clFinish:0", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_assert_true (tl_fault_arm (NULL, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = g_dir_make_tmp ("threadlens-faults-XXXXXX", NULL);
  g_autofree gchar *path  = NULL;
  g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func (g_free);
  const TlFilter *const *filters;
  guint             n_filters, i;
  int               status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
  g_unsetenv ("THREADLENS_FAULT");
  /* A walk over the calls needs the same calls in every run: launches
   * whole.  Under the launch budget their pieces, and the waits between
   * them, follow the times measured (a sanitized run on a busy machine
   * outlived the budget where the counting run had not).
   */
  g_setenv ("THREADLENS_LAUNCH_MS", "0", TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  path  = g_test_build_filename (G_TEST_DIST, "images", "coffee.png", NULL);
  photo = tl_image_load (path, &error);
  g_assert_no_error (error);

  for (i = 0; i < G_N_ELEMENTS (fault_cases); i++)
    {
      g_autofree gchar *test = g_strdup_printf ("/faults/%s", fault_cases[i].filter);

      g_test_add_data_func (test, &fault_cases[i], test_filter_faults);
    }
  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    if (! table_names (filters[i]->name))
      {
        FaultCase        *c    = g_new0 (FaultCase, 1);
        g_autofree gchar *test = g_strdup_printf ("/faults/%s", filters[i]->name);

        c->filter = filters[i]->name;
        c->shape  = "seed";
        c->mode   = TL_MODE_UNIFORM;
        g_ptr_array_add (extra, c);
        g_test_add_data_func (test, c, test_filter_faults);
      }
  g_test_add_func ("/faults/overlay", test_overlay_faults);
  g_test_add_func ("/faults/overlay-draw", test_overlay_draw_faults);
  g_test_add_func ("/faults/build", test_build_faults);
  g_test_add_func ("/faults/no-platform", test_no_platform);
  g_test_add_func ("/faults/bad-spec", test_bad_spec);

  status = g_test_run ();
  tl_image_free (photo);
  return status;
}
