/* ThreadLens tests: a GIMP host, driven through headless GIMP and script-fu
 * exactly as a batch user drives it.  Built twice: TL_GIMP_VERSION 2 tests
 * the GIMP 2.10 host (suite gimp2), 3 the GIMP 3 host (suite gimp3).
 *
 * Every check is one call of a ThreadLens procedure on a real photo,
 * described once for both GIMPs (gimp-checks.c); every filter of the
 * registry that no check names gets one of its own, its defaults on
 * coffee.png.  All checks run first, one GIMP for each environment they
 * ask for (gimp-batch.c); the tests here then judge what GIMP said and
 * saved.  Expected pixels come from `threadlens apply` on the same photo
 * with the same dispatch, expected thread maps from `threadlens overlay`.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gimp-batch.h"
#include "gimp-checks.h"
#include "gimp-session.h"
#include "pixel-compare.h"
#include "tl-image.h"

/* "Unchanged": the same 8-bit values.  GIMP 3 may export them through
 * another babl path (with or without alpha), which can move the float
 * the test reads by an ulp; a changed pixel moves by 1/255 at least.
 */
#define UNCHANGED_TOLERANCE 1e-6

static gfloat *
load (const gchar *path,
      guint       *width,
      guint       *height)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) image = tl_image_load (path, &error);

  if (image == NULL)
    g_error ("%s", error->message);
  *width  = tl_image_get_width (image);
  *height = tl_image_get_height (image);
  return tl_image_get_pixels (image, "R'G'B'A float", NULL);
}

/* `threadlens apply` on the file IN with OPTIONS; the output is named
 * after LABEL.
 */
static gchar *
cli_apply_file (const gchar        *filter,
                const gchar *const *options,
                const gchar        *in,
                const gchar        *label)
{
  g_autoptr(GPtrArray) argv   = g_ptr_array_new ();
  g_autoptr(GError)    error  = NULL;
  g_autofree gchar    *name   = g_strconcat ("cli-", label, ".png", NULL);
  g_autofree gchar    *report = NULL;
  g_autofree gchar    *err    = NULL;
  gchar               *out    = gimp_batch_work_file (name);
  gint                 status;
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  g_ptr_array_add (argv, "apply");
  g_ptr_array_add (argv, (gpointer) filter);
  for (i = 0; options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, (gpointer) in);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &report, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens apply %s: %s", filter, err);
  return out;
}

/* `threadlens apply` on the check's photo with OPTIONS. */
static gchar *
cli_apply (const GimpCheck     *check,
           const gchar         *filter,
           const gchar *const  *options)
{
  g_autofree gchar *in = gimp_batch_photo (check->photo);

  return cli_apply_file (filter, options, in, check->name);
}

static void assert_same_pixels (const gchar *path_a,
                                const gchar *path_b,
                                gdouble      tolerance);

/* `threadlens overlay` on the check's photo with its map options. */
static gchar *
cli_overlay (const GimpCheck *check)
{
  g_autoptr(GPtrArray) argv   = g_ptr_array_new ();
  g_autoptr(GError)    error  = NULL;
  g_autofree gchar    *in     = gimp_batch_photo (check->photo);
  g_autofree gchar    *name   = g_strconcat ("cli-", check->name, "-map.png", NULL);
  g_autofree gchar    *report = NULL;
  g_autofree gchar    *err    = NULL;
  gchar               *out    = gimp_batch_work_file (name);
  gint                 status;
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  g_ptr_array_add (argv, "overlay");
  for (i = 0; check->map[i]; i++)
    g_ptr_array_add (argv, (gpointer) check->map[i]);
  g_ptr_array_add (argv, in);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &report, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens overlay: %s", err);
  return out;
}

/* The thread-map layer GIMP made holds the map `threadlens overlay`
 * draws: a checkerboard the same pixels; a tint, laid over the photo as
 * `threadlens overlay` lays it, the same picture (the layer holds the
 * tint alone, see-through, to the 8-bit rounding of its colour and its
 * alpha).
 */
static void
assert_map_as_cli (const GimpCheck *check)
{
  g_autofree gchar  *map      = gimp_batch_map_output (check);
  g_autofree gchar  *expected = NULL;
  g_autofree gchar  *in       = gimp_batch_photo (check->photo);
  g_autofree gfloat *tint = NULL, *image = NULL, *want = NULL;
  guint              w1, h1, w2, h2, w3, h3, i, c;

  if (check->map[0] == NULL)
    return;
  expected = cli_overlay (check);
  if (strstr (check->args, "overlay-style=checkerboard"))
    {
      assert_same_pixels (map, expected, 1.0 / 255.0 + 1e-6);
      return;
    }

  tint  = load (map, &w1, &h1);
  image = load (in, &w2, &h2);
  want  = load (expected, &w3, &h3);
  g_assert_cmpuint (w1, ==, w3);
  g_assert_cmpuint (h1, ==, h3);
  g_assert_cmpuint (w2, ==, w3);
  g_assert_cmpuint (h2, ==, h3);
  for (i = 0; i < w1 * h1; i++)
    {
      gfloat alpha = tint[i * 4 + 3];

      if (alpha > 0.95f)
        g_error ("check %s: the map is opaque at pixel %u (alpha %g)",
                 check->name, i, alpha);
      for (c = 0; c < 3; c++)
        {
          gfloat laid = image[i * 4 + c] * (1.0f - alpha) + tint[i * 4 + c] * alpha;

          if (fabs (laid - want[i * 4 + c]) > 3.0 / 255.0)
            g_error ("check %s: the map laid over the photo differs from "
                     "`threadlens overlay` at pixel %u: %g, not %g",
                     check->name, i, laid, want[i * 4 + c]);
        }
    }
}

/* The two files hold the same pixels to the 8-bit rounding (or exactly). */
static void
assert_same_pixels (const gchar *path_a,
                    const gchar *path_b,
                    gdouble      tolerance)
{
  g_autofree gfloat *a = NULL, *b = NULL;
  guint              w1, h1, w2, h2;
  gdouble            diff;

  a = load (path_a, &w1, &h1);
  b = load (path_b, &w2, &h2);
  g_assert_cmpuint (w1, ==, w2);
  g_assert_cmpuint (h1, ==, h2);
  diff = tl_test_pixels_difference (a, b, (gsize) w1 * h1 * 4);
  if (diff > tolerance)
    g_error ("%s differs from %s by %g", path_a, path_b, diff);
}

static void
test_check (gconstpointer data)
{
  const GimpCheck  *check = data;
  g_autofree gchar *log   = gimp_batch_check_log (check);
  g_autofree gchar *out   = gimp_batch_output (check);
  gboolean          failed = strstr (log, "TL-CALL-FAILED") != NULL;

  if (strstr (log, "TL-OK") == NULL)
    g_error ("check %s broke off:\n%s", check->name, log);

  if (check->expect == EXPECT_KEPT)
    {
      g_autofree gchar *in = gimp_batch_photo (check->photo);

      if (failed)
        g_error ("check %s: the call failed:\n%s", check->name, log);
      if (! gimp_batch_log_says (log, check->error) ||
          ! gimp_batch_log_says (log, "the pixels are left as they were"))
        g_error ("check %s: GIMP's messages do not say '%s' and that the "
                 "pixels are kept:\n%s", check->name, check->error, log);
      assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
      return;
    }

  if (check->expect == EXPECT_NOTHING)
    {
      g_autofree gchar *in = gimp_batch_photo (check->photo);

      if (failed)
        g_error ("check %s: the call failed:\n%s", check->name, log);
      if (strstr (log, "TL-CLEAN") == NULL)
        g_error ("check %s: the call left an undo step:\n%s", check->name, log);
      assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
      return;
    }

  if (check->expect == EXPECT_UNCHANGED)
    {
      g_autofree gchar *in = gimp_batch_photo (check->photo);

      if (! failed)
        g_error ("check %s: the call did not fail:\n%s", check->name, log);
      if (! gimp_batch_log_says (log, check->error))
        g_error ("check %s: GIMP's error does not say '%s':\n%s",
                 check->name, check->error, log);
#if TL_GIMP_VERSION == 3
      /* The user's script gets the message in the call's error. */
      if (strcmp (check->error, "TL-CALL-FAILED") != 0)
        {
          g_autofree gchar *error = gimp_batch_line_with (log, "TL-ERROR ");

          if (error == NULL || strstr (error, check->error) == NULL)
            g_error ("check %s: the script's error does not say '%s':\n%s",
                     check->name, check->error, log);
        }
#endif
      if (strstr (log, "TL-CLEAN") == NULL)
        g_error ("check %s: the failed call left an undo step:\n%s",
                 check->name, log);
      assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
      return;
    }

  if (failed)
    g_error ("check %s: the call failed:\n%s", check->name, log);
  if (check->error && check->expect == EXPECT_SAME_AS_CLI &&
      ! gimp_batch_log_says (log, check->error))
    g_error ("check %s: GIMP's messages do not say '%s':\n%s", check->name,
             check->error, log);
  if (check->filter && strstr (log, "TL-DIRTY") == NULL)
    g_error ("check %s: the image is not marked changed:\n%s", check->name, log);

  if (check->expect == EXPECT_OVERLAY)
    {
      g_autofree gchar *in    = gimp_batch_photo (check->photo);
      g_autofree gchar *line  = g_strconcat ("TL-LAYER ", check->error, NULL);
      const gchar      *layer = strstr (log, line);
      guint             w, h, lw, lh;
      g_autofree gfloat *pixels = load (in, &w, &h);

      if (layer == NULL)
        g_error ("check %s: no layer named '%s...':\n%s", check->name,
                 check->error, log);
      /* The layer's size ends the line: "... WxH". */
      layer = strchr (layer, '\n') ? g_strndup (layer, strchr (layer, '\n') - layer) : layer;
      g_assert_cmpint (sscanf (strrchr (layer, ' ') + 1, "%ux%u", &lw, &lh), ==, 2);
      g_assert_cmpuint (lw, ==, w);
      g_assert_cmpuint (lh, ==, h);

      if (check->filter)
        {
          g_autofree gchar *expected = cli_apply (check, check->filter, check->cli);

          assert_same_pixels (out, expected, 1.0 / 255.0 + 1e-6);
        }
      else
        {
          assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
        }
      assert_map_as_cli (check);
    }
  else if (check->expect == EXPECT_SAME_AS_CLI && check->sixteen_bit)
    {
      g_autofree gchar  *expected = cli_apply (check, check->filter, check->cli);
      g_autofree gfloat *pixels   = NULL;
      g_autoptr(GHashTable) levels = g_hash_table_new (NULL, NULL);
      guint              w, h, i;

      assert_same_pixels (out, expected, 1.0 / 65535.0 + 1e-7);
      pixels = load (out, &w, &h);
      for (i = 0; i < w * h; i++)
        g_hash_table_add (levels, GUINT_TO_POINTER ((guint) (pixels[i * 4] * 65535.0f + 0.5f) + 1));
      g_test_message ("check %s: %u levels of red", check->name,
                      g_hash_table_size (levels));
      g_assert_cmpuint (g_hash_table_size (levels), >, 60000);
    }
  else if (check->expect == EXPECT_SAME_AS_CLI)
    {
      g_autofree gchar *expected = cli_apply (check, check->filter, check->cli);

      assert_same_pixels (out, expected, 1.0 / 255.0 + 1e-6);
    }
  else if (check->expect == EXPECT_SAME_AS_CHECK)
    {
      g_autofree gchar *other =
        gimp_batch_output (gimp_checks_find (check->cli[0]));

      assert_same_pixels (out, other, 0.0);
    }
}

/* A verdict's two paths (gimp-checks.c's add_verdict ()): each passed
 * test_check; here their errors are the same words.
 */
static void
test_same_verdict (gconstpointer data)
{
  const GimpCheck  *in_core  = data;
  const GimpCheck  *plug_in  = NULL;
  GPtrArray        *registry = gimp_checks_registry ();
  g_autofree gchar *name     = NULL;
  g_autofree gchar *a = NULL, *b = NULL, *log_a = NULL, *log_b = NULL;
  guint             i;

  g_assert_true (g_str_has_suffix (in_core->name, "-in-core"));
  name = g_strdup_printf ("%.*s-plug-in",
                          (gint) (strlen (in_core->name) - strlen ("-in-core")),
                          in_core->name);
  for (i = 0; i < registry->len; i++)
    if (strcmp (((const GimpCheck *) g_ptr_array_index (registry, i))->name,
                name) == 0)
      plug_in = g_ptr_array_index (registry, i);
  g_assert_nonnull (plug_in);

  log_a = gimp_batch_check_log (in_core);
  log_b = gimp_batch_check_log (plug_in);
  a = gimp_batch_line_with (log_a, in_core->error);
  b = gimp_batch_line_with (log_b, plug_in->error);
  if (a == NULL || b == NULL)
    g_error ("%s: no error saying '%s':\nin-core:\n%s\nplug-in:\n%s",
             in_core->name, in_core->error, log_a, log_b);
  g_test_message ("%s: %s", in_core->name, a);
  g_assert_cmpstr (a, ==, b);
}

#if TL_GIMP_VERSION == 3
/* Nothing ThreadLens did left GEGL buffers behind in GIMP's process
 * (GIMP counts them at exit).
 */
static void
test_no_leaks (void)
{
  g_autofree gchar *leak = gimp_batch_line_with (gimp_batch_log (), "leaked");

  if (leak)
    g_error ("GIMP says: %s", leak);
}
#endif

/* Inside the rectangle: inverted; outside: untouched, exactly. */
static void
test_selection_rectangle (void)
{
  const GimpCheck   *check    = gimp_checks_find ("selection-rectangle");
  const gchar       *none[]   = { NULL };
  g_autofree gchar  *orig_path = gimp_batch_photo (check->photo);
  g_autofree gchar  *inv_path  = cli_apply (check, "invert", none);
  g_autofree gchar  *got_path  = gimp_batch_output (check);
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, c;

  orig = load (orig_path, &w, &h);
  inv  = load (inv_path, &w, &h);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gboolean inside = x >= 100 && x < 300 && y >= 50 && y < 170;
        gsize    i      = ((gsize) y * w + x) * 4;

        for (c = 0; c < 4; c++)
          if (got[i + c] != (inside ? inv : orig)[i + c])
            g_error ("pixel %u,%u: %s the rectangle but %s", x, y,
                     inside ? "inside" : "outside",
                     inside ? "not inverted" : "changed");
      }
}

/* A feathered ellipse: the centre inverted, the far corners untouched,
 * and the feather a blend between the two.
 */
static void
test_selection_feathered (void)
{
  const GimpCheck   *check    = gimp_checks_find ("selection-feathered");
  const gchar       *none[]   = { NULL };
  g_autofree gchar  *orig_path = gimp_batch_photo (check->photo);
  g_autofree gchar  *inv_path  = cli_apply (check, "invert", none);
  g_autofree gchar  *got_path  = gimp_batch_output (check);
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, blended = 0;

  orig = load (orig_path, &w, &h);
  inv  = load (inv_path, &w, &h);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gsize   i  = ((gsize) y * w + x) * 4;
        gdouble dx = (x + 0.5 - 300.0) / 150.0, dy = (y + 0.5 - 200.0) / 100.0;
        gdouble r  = sqrt (dx * dx + dy * dy);

        if (r < 0.25 &&
            tl_test_pixels_difference (got + i, inv + i, 3) >
            1.0 / 255.0 + 1e-6)
          g_error ("pixel %u,%u at the centre is not inverted", x, y);
        if (r > 1.6 && tl_test_pixels_difference (got + i, orig + i, 4) != 0.0)
          g_error ("pixel %u,%u outside the selection changed", x, y);
        /* In the feather: strictly between original and inverted. */
        if (r > 0.85 && r < 1.15 && fabs (orig[i] - inv[i]) > 0.3 &&
            got[i] > MIN (orig[i], inv[i]) + 0.02 &&
            got[i] < MAX (orig[i], inv[i]) - 0.02)
          blended++;
      }
  g_assert_cmpuint (blended, >, 100);
}

/* A selection of one pixel or one column: inside, the filter as on the
 * whole gimp_batch_photo (its halo came from the layer); outside, the photo exactly.
 */
static void
test_selection_thin (gconstpointer data)
{
  const GimpCheck   *check     = data;
  g_autofree gchar  *orig_path = gimp_batch_photo (check->photo);
  g_autofree gchar  *want_path = NULL;
  g_autofree gchar  *got_path  = gimp_batch_output (check);
  g_autofree gfloat *orig = NULL, *want = NULL, *got = NULL;
  GeglRectangle      rect;
  guint              w, h, ww, wh, x, y, inside = 0;
  gint               dx = 0, dy = 0;

  g_assert_cmpint (sscanf (strstr (check->before, "REPLACE"), "REPLACE %d %d %d %d",
                           &rect.x, &rect.y, &rect.width, &rect.height), ==, 4);
#if TL_GIMP_VERSION == 2
  want_path = cli_apply (check, check->filter, check->cli);
#else
  {
    /* In-core, GIMP 3 gives the operation the selection's bounds as its
     * whole image (GimpDrawableFilter's selection region), as it does
     * its own filters: the halo clamps at those bounds.
     */
    g_autoptr(GError)  error = NULL;
    g_autoptr(TlImage) whole = tl_image_load (orig_path, &error);
    g_autoptr(TlImage) part  = NULL;
    g_autofree gchar  *crop  = gimp_batch_work_file ("crop-of-photo.png");

    g_assert_no_error (error);
    part = tl_image_new_from_buffer (tl_image_get_buffer (whole), &rect);
    g_assert_true (tl_image_save (part, crop, &error));
    want_path = cli_apply_file (check->filter, check->cli, crop, check->name);
    dx = rect.x;
    dy = rect.y;
  }
#endif
  orig = load (orig_path, &w, &h);
  want = load (want_path, &ww, &wh);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gsize i = ((gsize) y * w + x) * 4;

        if (gegl_rectangle_contains (&rect, &(GeglRectangle) { x, y, 1, 1 }))
          {
            gsize j = ((gsize) (y - dy) * ww + (x - dx)) * 4;

            if (tl_test_pixels_difference (got + i, want + j, 4) >
                1.0 / 255.0 + 1e-6)
              g_error ("pixel %u,%u: not filtered as `threadlens apply` does", x, y);
            inside += tl_test_pixels_difference (got + i, orig + i, 4) > 0.0;
          }
        else if (tl_test_pixels_difference (got + i, orig + i, 4) != 0.0)
          {
            g_error ("pixel %u,%u outside the selection changed", x, y);
          }
      }
  /* The filter did change the selected pixels (a one-pixel image in
   * GIMP 3 blurs to itself).
   */
  if (rect.width * rect.height > 1 || TL_GIMP_VERSION == 2)
    g_assert_cmpuint (inside, >=, (guint) (rect.width * rect.height + 1) / 2);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error   = NULL;
  const GimpCheck  *checks;
  GPtrArray        *registry, *verdict_pairs;
  guint             n_checks, i;
  int               status;

  g_test_init (&argc, &argv, NULL);

  if (! tl_test_gimp_can_run (TL_GIMP_VERSION,
                              tl_test_gimp_console (TL_GIMP_VERSION)))
    return 0;

  gimp_batch_init ();
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);

  /* One GIMP for the plain checks, one for each environment. */
  gimp_checks_init ();
  checks        = gimp_checks_table (&n_checks);
  registry      = gimp_checks_registry ();
  verdict_pairs = gimp_checks_verdict_pairs ();
  gimp_batch_run (NULL);
  for (i = 0; i < n_checks; i++)
    {
      guint j;

      for (j = 0; j < i && g_strcmp0 (checks[j].env, checks[i].env) != 0; j++)
        ;
      if (checks[i].env && j == i)
        gimp_batch_run (checks[i].env);
    }
  if (verdict_pairs->len > 0)
    gimp_batch_run (NO_MODULE);

  for (i = 0; i < n_checks; i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/gimp%d/%s", TL_GIMP_VERSION,
                                                checks[i].name);

      g_test_add_data_func (path, &checks[i], test_check);
    }
  for (i = 0; i < registry->len; i++)
    {
      const GimpCheck  *check = g_ptr_array_index (registry, i);
      g_autofree gchar *path  = g_strdup_printf ("/gimp%d/%s", TL_GIMP_VERSION,
                                                 check->name);

      g_test_add_data_func (path, check, test_check);
    }
  for (i = 0; i < verdict_pairs->len; i++)
    {
      const GimpCheck  *check = g_ptr_array_index (verdict_pairs, i);
      g_autofree gchar *path  = g_strdup_printf ("/gimp%d/same-verdict/%s",
                                                 TL_GIMP_VERSION, check->name);

      g_test_add_data_func (path, check, test_same_verdict);
    }
#if TL_GIMP_VERSION == 3
  g_test_add_func ("/gimp3/no-leaked-buffers", test_no_leaks);
#endif
  g_test_add_func ("/gimp/selection/rectangle", test_selection_rectangle);
  g_test_add_func ("/gimp/selection/feathered", test_selection_feathered);
  g_test_add_data_func ("/gimp/selection/1x1",
                        gimp_checks_find ("selection-1x1"),
                        test_selection_thin);
  g_test_add_data_func ("/gimp/selection/1xN",
                        gimp_checks_find ("selection-1xN"),
                        test_selection_thin);
#if TL_GIMP_VERSION == 3
  g_test_add_data_func ("/gimp/selection/1xN-plug-in",
                        gimp_checks_find ("selection-1xN-plug-in"),
                        test_selection_thin);
#endif

  status = g_test_run ();
  gimp_checks_free ();
  return status;
}
