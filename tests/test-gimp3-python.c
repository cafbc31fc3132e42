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

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, NULL,
                               G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
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

/* The contract as the XCF of GIMP VERSION (data) keeps it: made once by
 * that GIMP (TL_CONTRACT_MAKE), opened by every GIMP 3 since.
 */
static void
test_contract (gconstpointer data)
{
  const gchar      *version = data;
  g_autofree gchar *name    = g_strdup_printf ("threadlens-%s", version);
  g_autofree gchar *xcf_name = g_strconcat (name, ".xcf", NULL);
  g_autofree gchar *png_name = g_strconcat (name, ".png", NULL);
  g_autofree gchar *script = source_file ("contract.py");
  g_autofree gchar *xcf    = source_file (xcf_name);
  g_autofree gchar *png    = source_file (png_name);
  g_autofree gchar *photo  = g_test_build_filename (G_TEST_DIST, "images",
                                                    "coffee.png", NULL);
  g_autofree gchar *shown  = work_file (png_name);
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
 * filters as it loads it, with a warning naming each operation, and a
 * save then keeps none of them (the README says so).  The warning's words
 * are GIMP's and differ by version:
 *   3.0: "(threadlens:median-blur) filter is not installed. It was discarded."
 *   3.2: "XCF Warning: an unnamed filter (threadlens:median-blur) was
 *         discarded. the filter "threadlens:median-blur" is not installed."
 * (Both say "(null)" or "unnamed" of the filter's name although the file
 * keeps it: /gimp3-python/contract reads the names back.)
 */
static void
test_without_module (void)
{
  g_autofree gchar *xcf     = source_file ("threadlens-3.0.4.xcf");
  g_autofree gchar *resaved = work_file ("without-module.xcf");
  g_autofree gchar *code    = g_strdup_printf (
    "from gi.repository import Gimp, Gio\n"
    "image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path('%s'))\n"
    "print('TL-FILTERS-LOADED %%d' %% len(image.get_layers()[0].get_filters()))\n"
    "Gimp.file_save(Gimp.RunMode.NONINTERACTIVE, image, Gio.File.new_for_path('%s'), None)\n",
    xcf, resaved);
  g_autofree gchar *reopen  = g_strdup_printf (
    "from gi.repository import Gimp, Gio\n"
    "image = Gimp.file_load(Gimp.RunMode.NONINTERACTIVE, Gio.File.new_for_path('%s'))\n"
    "print('TL-FILTERS-KEPT %%d' %% len(image.get_layers()[0].get_filters()))\n",
    resaved);
  const gchar      *env[]   = { NULL };
  const gchar      *ops[]   = { "median-blur", "thread-map", "invert" };
  g_autofree gchar *said    = run_code (code, FALSE, env);
  g_autofree gchar *kept    = NULL;
  guint             i;

  for (i = 0; i < G_N_ELEMENTS (ops); i++)
    {
      g_autofree gchar *warning = NULL;

      if (tl_test_gimp_at_least (3, 2))
        warning = g_strdup_printf ("XCF Warning: an unnamed filter (threadlens:%s) "
                                   "was discarded. the filter \"threadlens:%s\" "
                                   "is not installed.", ops[i], ops[i]);
      else
        warning = g_strdup_printf ("(threadlens:%s) filter is not installed. "
                                   "It was discarded.", ops[i]);
      if (strstr (said, warning) == NULL)
        g_error ("GIMP %s does not warn '%s':\n%s", tl_test_gimp_version (3),
                 warning, said);
    }
  g_assert_nonnull (strstr (said, "TL-FILTERS-LOADED 0\n"));
  /* Saved so, and opened where ThreadLens is installed: gone for good. */
  kept = run_code (reopen, TRUE, env);
  g_assert_nonnull (strstr (kept, "TL-FILTERS-KEPT 0\n"));
}

/* GIMP 3.2's vector layers: a ThreadLens filter kept non-destructive
 * leaves the layer a vector layer, editable, as GIMP's own filters do;
 * merged, it rasterizes the layer, as merging GIMP's own does.
 */
static void
test_vector_layer (void)
{
  const gchar      *code =
    "from gi.repository import Gimp\n"
    "image = Gimp.Image.new(200, 100, Gimp.ImageBaseType.RGB)\n"
    "path = Gimp.Path.new(image, 'frame')\n"
    "image.insert_path(path, None, 0)\n"
    "stroke = path.bezier_stroke_new_moveto(10, 10)\n"
    "for x, y in ((190, 10), (190, 90), (10, 90)):\n"
    "    path.bezier_stroke_lineto(stroke, x, y)\n"
    "path.stroke_close(stroke)\n"
    "def run(how, layer, keep):\n"
    "    if how == 'gimp':\n"
    "        live = Gimp.DrawableFilter.new(layer, 'gegl:invert-gamma', 'Invert')\n"
    "        layer.append_filter(live) if keep else layer.merge_filter(live)\n"
    "    else:\n"
    "        invert = Gimp.get_pdb().lookup_procedure('plug-in-threadlens-invert')\n"
    "        config = invert.create_config()\n"
    "        config.set_property('run-mode', Gimp.RunMode.NONINTERACTIVE)\n"
    "        config.set_property('image', image)\n"
    "        config.set_core_object_array('drawables', [layer])\n"
    "        config.set_property('non-destructive', keep)\n"
    "        result = invert.run(config)\n"
    "        assert result.index(0) == Gimp.PDBStatusType.SUCCESS, result.index(1)\n"
    "for how in ('gimp', 'threadlens'):\n"
    "    for keep in (True, False):\n"
    "        layer = Gimp.VectorLayer.new(image, path)\n"
    "        image.insert_layer(layer, None, 0)\n"
    "        run(how, layer, keep)\n"
    "        print('TL-VECTOR %s %s: rasterized %s, %d filters' % (how,\n"
    "              'kept' if keep else 'merged', layer.is_rasterized(),\n"
    "              len(layer.get_filters())))\n";
  const gchar      *env[] = { NULL };
  const gchar      *how[] = { "gimp", "threadlens" };
  g_autofree gchar *said  = NULL;
  guint             i;

  if (! tl_test_gimp_at_least (3, 2))
    {
      g_autofree gchar *why = g_strdup_printf ("GIMP %s has no vector layers "
                                               "(GIMP 3.2 added them)",
                                               tl_test_gimp_version (3));

      g_test_skip (why);
      return;
    }
  said = run_code (code, TRUE, env);
  for (i = 0; i < G_N_ELEMENTS (how); i++)
    {
      g_autofree gchar *kept   = g_strdup_printf ("TL-VECTOR %s kept: rasterized "
                                                  "False, 1 filters", how[i]);
      g_autofree gchar *merged = g_strdup_printf ("TL-VECTOR %s merged: rasterized "
                                                  "True, 0 filters", how[i]);

      if (strstr (said, kept) == NULL || strstr (said, merged) == NULL)
        g_error ("expected '%s' and '%s':\n%s", kept, merged, said);
    }
}

/* A live filter, kept on the layer's stack while the layer under it and
 * the filter change (tests/gimp3/live-filter.py): what GIMP's projection
 * shows first, and after an edit and a new setting, is `threadlens
 * apply` on what the layer then holds, so no block the module kept
 * outlives what it was computed from.  Blocks of 256 pixels make six on
 * the photo, for both radii: the same grid, so that only the record of
 * what is valid keeps old blocks from being served.
 */
static void
test_live_filter (void)
{
  g_autofree gchar *script  = source_file ("live-filter.py");
  g_autofree gchar *photo   = g_test_build_filename (G_TEST_DIST, "images",
                                                     "coffee.png", NULL);
  g_autofree gchar *first   = work_file ("shown-first.png");
  g_autofree gchar *radius  = work_file ("shown-radius.png");
  g_autofree gchar *stroked = work_file ("stroked.png");
  g_autofree gchar *want_1  = work_file ("live-radius-3.png");
  g_autofree gchar *want_3  = work_file ("live-stroked-3.png");
  g_autofree gchar *want_9  = work_file ("live-stroked-9.png");
  g_autofree gchar *said    = NULL;
  const gchar      *env[]   = { "TL_PHOTO", photo, "TL_OUT_DIR", work_dir,
                                "THREADLENS_BLOCK_SIDE", "256", NULL };
  const gchar      *shown[] = { first, radius };
  const gchar      *want[]  = { want_1, want_9 };
  guint             i;

  said = run_python (script, env);
  g_assert_nonnull (strstr (said, "TL-LIVE done, 1 filter(s)"));
  cli_apply ("box-blur", "--set=radius=3", photo, want_1);
  cli_apply ("box-blur", "--set=radius=3", stroked, want_3);
  cli_apply ("box-blur", "--set=radius=9", stroked, want_9);
  /* The edit is there, and the new radius shows: stale blocks would. */
  g_assert_cmpfloat (tl_test_pixels_file_difference (stroked, photo), >, 0.1);
  g_assert_cmpfloat (tl_test_pixels_file_difference (want_3, want_9), >, 0.01);
  for (i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      gdouble worst = tl_test_pixels_file_difference (shown[i], want[i]);

      g_test_message ("%s: differs from threadlens apply by %g", shown[i],
                      worst);
      g_assert_cmpfloat (worst, <=, 1.0 / 255.0 + 1e-6);
    }
  /* A block kept from radius 3 would be as far off as this. */
  g_assert_cmpfloat (tl_test_pixels_file_difference (radius, want_3), >, 0.01);
}

/* The README's code block that starts with the line FIRST (its fence
 * FENCE: "```sh" or "```python"), without the fences.
 */
static gchar *
readme_block (const gchar *fence,
              const gchar *first)
{
  g_autofree gchar *readme = g_test_build_filename (G_TEST_DIST, "..",
                                                    "README.md", NULL);
  g_autofree gchar *text   = NULL;
  g_autofree gchar *opening = g_strconcat (fence, "\n", first, NULL);
  const gchar      *start, *end;

  g_assert_true (g_file_get_contents (readme, &text, NULL, NULL));
  start = strstr (text, opening);
  if (start == NULL)
    g_error ("README.md has no block starting '%s'", first);
  start += strlen (fence) + 1;
  end = strstr (start, "\n```");
  g_assert_nonnull (end);
  return g_strndup (start, end + 1 - start);
}

/* COMMAND by the shell in DIR, in GIMP's environment with the module;
 * returns what it printed, failing on a non-zero exit.
 */
static gchar *
run_shell (const gchar *command,
           const gchar *dir)
{
  const gchar      *argv[] = { "/bin/sh", "-c", command, NULL };
  g_auto(GStrv)     envp   = tl_test_gimp_environ (work_dir, "home", "gimp",
                                                   "GIMP3_DIRECTORY", TRUE);
  g_autoptr(GError) error  = NULL;
  g_autofree gchar *out    = NULL, *err = NULL;
  gint              status;

  g_assert_true (g_spawn_sync (dir, (gchar **) argv, envp, 0, NULL, NULL,
                               &out, &err, &status, &error));
  g_test_message ("the shell said:\n%s%s", out, err);
  if (! g_spawn_check_wait_status (status, &error))
    g_error ("%s\n%s: %s\n%s%s", command, argv[0], error->message, out, err);
  return g_strconcat (out, err, NULL);
}

/* The README's script-fu batch, as printed but for its two folders: every
 * PNG of the input folder blurred into the output folder, as `threadlens
 * apply` blurs it.
 */
static void
test_readme_script_fu (void)
{
  g_autofree gchar *block   = readme_block ("```sh", "gimp-console-3 -i "
                                            "--batch-interpreter=plug-in-script-fu-eval");
  g_autofree gchar *in_dir  = work_file ("readme-in");
  g_autofree gchar *out_dir = work_file ("readme-out");
  g_autofree gchar *photo   = g_test_build_filename (G_TEST_DIST, "images",
                                                     "coffee.png", NULL);
  const gchar      *names[] = { "a.png", "b.png" };
  g_autofree gchar *wanted  = work_file ("readme-wanted.png");
  g_autofree gchar *said    = NULL;
  g_autofree gchar *command = NULL;
  g_autofree gchar *in_slash = NULL, *out_slash = NULL, *with_in = NULL;
  g_auto(GStrv)     parts   = NULL;
  guint             i;

  g_assert_nonnull (strstr (block, "\"/photos/in/*.png\""));
  g_assert_nonnull (strstr (block, "\"/photos/out/\""));
  g_mkdir_with_parents (in_dir, 0700);
  g_mkdir_with_parents (out_dir, 0700);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree gchar *copy = g_build_filename (in_dir, names[i], NULL);
      g_autofree gchar *cp   = g_strdup_printf ("cp '%s' '%s'", photo, copy);

      g_free (run_shell (cp, work_dir));
    }
  /* The README's folders, trailing slashes kept, for the test's own. */
  in_slash  = g_strconcat (in_dir, "/", NULL);
  out_slash = g_strconcat (out_dir, "/", NULL);
  parts     = g_strsplit (block, "/photos/in/", -1);
  with_in   = g_strjoinv (in_slash, parts);
  g_strfreev (parts);
  parts     = g_strsplit (with_in, "/photos/out/", -1);
  command   = g_strjoinv (out_slash, parts);
  said = run_shell (command, work_dir);

  cli_apply ("gaussian-blur", "--set=std-dev=4", photo, wanted);
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree gchar *out = g_build_filename (out_dir, names[i], NULL);

      g_assert_true (g_file_test (out, G_FILE_TEST_EXISTS));
      g_assert_cmpfloat (tl_test_pixels_file_difference (out, wanted), <=,
                         1.0 / 255.0 + 1e-6);
    }
}

/* The README's Python example, run by the command its first line gives,
 * as printed, on in.png in the folder it runs in.
 */
static void
test_readme_python (void)
{
  g_autofree gchar *block   = readme_block ("```python", "# gimp-console-3 -i "
                                            "--batch-interpreter=python-fu-eval");
  g_autofree gchar *dir     = work_file ("readme-python");
  g_autofree gchar *script  = NULL;
  g_autofree gchar *photo   = g_test_build_filename (G_TEST_DIST, "images",
                                                     "coffee.png", NULL);
  g_autofree gchar *cp      = NULL;
  g_autofree gchar *command = NULL;
  g_autofree gchar *said    = NULL;
  const gchar      *newline = strchr (block, '\n');

  g_mkdir_with_parents (dir, 0700);
  script = g_build_filename (dir, "this.py", NULL);
  g_assert_true (g_file_set_contents (script, block, -1, NULL));
  cp = g_strdup_printf ("cp '%s' in.png", photo);
  g_free (run_shell (cp, dir));
  command = g_strndup (block + 2, newline - block - 2);
  said = run_shell (command, dir);
  g_assert_null (strstr (said, "Traceback"));
}

int
main (int    argc,
      char **argv)
{
  /* The files of the contract, by the GIMP that saved them. */
  static const gchar *contracts[] = { "3.0.4", "3.2.6" };
  g_autoptr(GError) error = NULL;
  guint             i;

  g_test_init (&argc, &argv, NULL);

  if (! tl_test_gimp_can_run (3, tl_test_gimp_console (3)))
    return 0;
  work_dir = g_dir_make_tmp ("threadlens-gimp3-python-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);

  g_test_add_func ("/gimp3-python/batch", test_batch);
  if (g_getenv ("TL_CONTRACT_MAKE"))
    g_test_add_data_func ("/gimp3-python/contract/make",
                          tl_test_gimp_version (3), test_contract);
  else
    for (i = 0; i < G_N_ELEMENTS (contracts); i++)
      {
        g_autofree gchar *path = g_strconcat ("/gimp3-python/contract/",
                                              contracts[i], NULL);

        g_test_add_data_func (path, contracts[i], test_contract);
      }
  g_test_add_func ("/gimp3-python/without-module", test_without_module);
  g_test_add_func ("/gimp3-python/vector-layer", test_vector_layer);
  g_test_add_func ("/gimp3-python/live-filter", test_live_filter);
  g_test_add_func ("/gimp3-python/readme-script-fu", test_readme_script_fu);
  g_test_add_func ("/gimp3-python/readme-python", test_readme_python);
  return g_test_run ();
}
