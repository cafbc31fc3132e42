/* ThreadLens tests: GIMP 3's Python drives ThreadLens, in batch (suite
 * gimp3).
 *
 * /gimp3-python/batch runs tests/gimp3/batch.py, the README's example: a
 * ThreadLens procedure and a threadlens:* operation as a GIMP filter give
 * the pixels `threadlens apply` gives, and the thread map procedure adds
 * its layer.  /gimp3-python/contract opens the committed XCF, made by
 * GIMP 3.0.4 with every threadlens:* operation in one layer's stack
 * (tests/gimp3/contract.py), and holds what it shows to the committed
 * pixels: the operations' names, properties and results are a contract
 * with every file saved with them.  /gimp3-python/without-module opens
 * it where the module is not installed: GIMP warns of each filter it
 * drops, by its operation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "gimp-session.h"
#include "pixel-compare.h"
#include "tl-image.h"

/* The contract's pixels may move by a level: GIMP composes each filter
 * at half opacity in its own code, which may round otherwise in a later
 * GIMP; ThreadLens's own arithmetic is exact against its C references on
 * every device the suites run on.
 */
#define CONTRACT_TOLERANCE (1.0 / 255.0 + 1e-6)

static gchar *work_dir;

static gchar *
work_file (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

static gchar *
source_file (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "gimp3", name, NULL);
}

/* CODE in GIMP 3's Python, in a GIMP with the GEGL module or (MODULE
 * FALSE) without it, with the variables ENV (NAME, VALUE, ...,
 * NULL-terminated) set; returns GIMP's output.
 */
static gchar *
run_code (const gchar         *code,
          gboolean             module,
          const gchar * const *env)
{
  const gchar      *argv[] = { tl_test_gimp_console (3), "-i",
                               "--batch-interpreter=python-fu-eval",
                               "-b", code, "--quit", NULL };
  g_auto(GStrv)     envp   = tl_test_gimp_environ (work_dir,
                                                   module ? "home" : "home-no-module",
                                                   module ? "gimp" : "gimp-no-module",
                                                   "GIMP3_DIRECTORY", module);
  g_autoptr(GError) error  = NULL;
  g_autofree gchar *out    = NULL, *err = NULL;
  gint              status;
  guint             i;

  for (i = 0; env[i]; i += 2)
    envp = g_environ_setenv (envp, env[i], env[i + 1], TRUE);
  if (! g_spawn_sync (NULL, (gchar **) argv, envp, G_SPAWN_SEARCH_PATH, NULL,
                      NULL, &out, &err, &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  g_test_message ("GIMP said:\n%s%s", out, err);
  /* GIMP 3 exits with the batch's status: a Python exception fails. */
  if (! g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s\n%s%s", code, error->message, out, err);
  return g_strconcat (out, err, NULL);
}

/* The file SCRIPT, as run_code () runs code, with the module. */
static gchar *
run_python (const gchar         *script,
            const gchar * const *env)
{
  g_autofree gchar *code = g_strdup_printf ("exec(open('%s').read(), "
                                            "{'__name__': '__main__'})",
                                            script);

  return run_code (code, TRUE, env);
}

/* `threadlens apply FILTER OPTION IN OUT`. */
static void
cli_apply (const gchar *filter,
           const gchar *option,
           const gchar *in,
           const gchar *out)
{
  const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply", filter,
                               option, in, out, NULL };
  g_autoptr(GError) error  = NULL;
  g_autofree gchar *err    = NULL;
  gint              status;

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL, 0, NULL, NULL,
                               NULL, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens apply %s: %s", filter, err);
}

static void
test_batch (void)
{
  g_autofree gchar *script  = source_file ("batch.py");
  g_autofree gchar *photo   = g_test_build_filename (G_TEST_DIST, "images",
                                                     "coffee.png", NULL);
  g_autofree gchar *out     = work_file ("batch.png");
  g_autofree gchar *blurred = work_file ("cli-blurred.png");
  g_autofree gchar *wanted  = work_file ("cli-inverted.png");
  g_autofree gchar *said    = NULL;
  const gchar      *env[]   = { "TL_PHOTO", photo, "TL_OUT", out, NULL };

  said = run_python (script, env);
  cli_apply ("gaussian-blur", "--set=std-dev=3", photo, blurred);
  cli_apply ("invert", "--mode=non-uniform", blurred, wanted);
  g_assert_cmpfloat (tl_test_pixels_file_difference (out, wanted), <=,
                     1.0 / 255.0 + 1e-6);
  /* The map's layer is named for what it shows. */
  g_assert_nonnull (strstr (said, "TL-MAP-LAYER Thread map"));
}

static void
test_contract (void)
{
  g_autofree gchar *script = source_file ("contract.py");
  g_autofree gchar *xcf    = source_file ("threadlens-3.0.4.xcf");
  g_autofree gchar *png    = source_file ("threadlens-3.0.4.png");
  g_autofree gchar *photo  = g_test_build_filename (G_TEST_DIST, "images",
                                                    "coffee.png", NULL);
  g_autofree gchar *shown  = work_file ("contract.png");
  g_autofree gchar *said   = NULL;
  gdouble           diff;

  /* A maintainer's run makes the files, once, in the source tree. */
  if (g_getenv ("TL_CONTRACT_MAKE"))
    {
      const gchar *make[] = { "TL_CONTRACT_MODE", "make", "TL_PHOTO", photo,
                              "TL_XCF", xcf, "TL_PNG", png, NULL };

      g_free (run_python (script, make));
      g_test_message ("made %s and %s", xcf, png);
    }
  else
    {
      const gchar *check[] = { "TL_CONTRACT_MODE", "check", "TL_XCF", xcf,
                               "TL_PNG", shown, NULL };

      said = run_python (script, check);
      g_assert_nonnull (strstr (said, "TL-CONTRACT-OK thread-map"));
      g_assert_nonnull (strstr (said, "TL-CONTRACT-OK median-blur"));
      diff = tl_test_pixels_file_difference (shown, png);
      g_test_message ("largest difference from the committed pixels: %g", diff);
      g_assert_cmpfloat (diff, <=, CONTRACT_TOLERANCE);
    }
}

/* Where ThreadLens is not installed, GIMP drops the file's ThreadLens
 * filters with a warning naming each operation.  (GIMP 3.0.4 prints
 * "(null)" for the filter's name there although the file keeps it:
 * /gimp3-python/contract reads the names back.)
 */
static void
test_without_module (void)
{
  g_autofree gchar *xcf  = source_file ("threadlens-3.0.4.xcf");
  g_autofree gchar *code = g_strdup_printf ("from gi.repository import Gimp, Gio\n"
                                            "Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, "
                                            "Gio.File.new_for_path('%s'))", xcf);
  const gchar      *env[] = { NULL };
  g_autofree gchar *said = run_code (code, FALSE, env);

  g_assert_nonnull (strstr (said, "(threadlens:median-blur) filter is not "
                                  "installed. It was discarded."));
  g_assert_nonnull (strstr (said, "(threadlens:thread-map) filter is not "
                                  "installed. It was discarded."));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);

  if (! tl_test_gimp_can_run (3, tl_test_gimp_console (3)))
    return 0;
  work_dir = g_dir_make_tmp ("threadlens-gimp3-python-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);

  g_test_add_func ("/gimp3-python/batch", test_batch);
  g_test_add_func ("/gimp3-python/contract", test_contract);
  g_test_add_func ("/gimp3-python/without-module", test_without_module);
  return g_test_run ();
}
