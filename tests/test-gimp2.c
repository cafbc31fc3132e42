/* ThreadLens tests: the GIMP 2.10 host, driven through headless GIMP and
 * script-fu exactly as a batch user drives it.
 *
 * GIMP 2.10's batch mode always exits 0, so every check prints markers
 * (TL-BEGIN / TL-OK / TL-FAILED through gimp-message) and writes files;
 * the test reads both.  The expected pixels come from `threadlens apply`
 * on the same photo with the same dispatch.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "tl-image.h"

#define GIMP_CONSOLE "gimp-console-2.10"

typedef struct
{
  const gchar *name;
  const gchar *script;       /* body of (lambda () ...), %s = out dir */
  const gchar *error;        /* NULL: must succeed; else text of the error */
} GimpCheck;

static gchar *work_dir;
static gchar *gimp_log;      /* GIMP's stderr, the markers in it */

static gchar *
photo (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "images", name, NULL);
}

static gchar *
work_file (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

/* Each check's script; %1$s is the photo folder, %2$s the output folder. */
static const GimpCheck checks[] =
{
  { "blur-rgb",
    "(let* ((img (tl-load \"%1$s/coffee.png\")))"
    " (plug-in-threadlens-gaussian-blur RUN-NONINTERACTIVE img (tl-layer img)"
    "   3.0 7 5 \"emulated\" 3 0 \"none\" 0.5 \"\")"
    " (tl-save img \"%2$s/gimp-blur.png\"))", NULL },
  { "invert-alpha",
    "(let* ((img (tl-load \"%1$s/logo.png\")))"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img (tl-layer img)"
    "   16 4 \"non-uniform\" 8 2 \"none\" 0.5 \"\")"
    " (tl-save img \"%2$s/gimp-invert-logo.png\"))", NULL },
  { "matrix-rgb",
    "(let* ((img (tl-load \"%1$s/astronaut.png\")))"
    " (plug-in-threadlens-color-matrix RUN-NONINTERACTIVE img (tl-layer img)"
    "   \"0 0 1 0 0 1 0 0 1 0 0 0 0 0 0 1\" 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")"
    " (tl-save img \"%2$s/gimp-matrix.png\"))", NULL },
  { "invert-gray16",
    "(let* ((img (tl-load \"%1$s/chessboard_GRAY_U16.tif\")))"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img (tl-layer img)"
    "   0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")"
    " (tl-save img \"%2$s/gimp-invert-gray.png\"))", NULL },
  /* A 32-bit float linear layer: converted in and out by GEGL. */
  { "invert-float32",
    "(let* ((img (tl-load \"%1$s/coffee.png\")))"
    " (gimp-image-convert-precision img PRECISION-FLOAT-LINEAR)"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img (tl-layer img)"
    "   13 3 \"non-uniform\" 0 3 \"none\" 0.5 \"\")"
    " (gimp-image-convert-precision img PRECISION-U8-GAMMA)"
    " (tl-save img \"%2$s/gimp-invert-float.png\"))", NULL },
  { "selection-rectangle",
    "(let* ((img (tl-load \"%1$s/coffee.png\")))"
    " (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 100 50 200 120)"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img (tl-layer img)"
    "   0 0 \"emulated\" 0 0 \"none\" 0.5 \"\")"
    " (gimp-selection-none img)"
    " (tl-save img \"%2$s/gimp-select-rect.png\"))", NULL },
  { "selection-feathered",
    "(let* ((img (tl-load \"%1$s/coffee.png\")))"
    " (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 150 100 300 200)"
    " (gimp-selection-feather img 40)"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img (tl-layer img)"
    "   0 0 \"uniform\" 8 0 \"none\" 0.5 \"\")"
    " (gimp-selection-none img)"
    " (tl-save img \"%2$s/gimp-select-feather.png\"))", NULL },
  /* Layer with an offset inside a larger image, partly off canvas. */
  { "layer-offset",
    "(let* ((img (tl-load \"%1$s/coffee.png\")) (layer (tl-layer img)))"
    " (gimp-layer-set-offsets layer 37 -21)"
    " (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")"
    " (gimp-layer-set-offsets layer 0 0)"
    " (tl-save img \"%2$s/gimp-offset.png\"))", NULL },
  /* The last values are those of the previous successful run: std-dev 3,
   * shape 7x5, emulated; the arguments given here are ignored.
   */
  { "last-values",
    "(let* ((img (tl-load \"%1$s/coffee.png\")))"
    " (plug-in-threadlens-gaussian-blur RUN-WITH-LAST-VALS img (tl-layer img)"
    "   9.0 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")"
    " (tl-save img \"%2$s/gimp-last.png\"))", NULL },
  /* Failures: a PDB error that names the problem, the layer unchanged. */
  { "bad-indexed",
    "(tl-expect-failure \"%1$s/palette_color.png\" \"%2$s/bad-indexed.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))",
    "this one is indexed" },
  { "bad-shape-limit",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-shape-limit.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   8192 8192 \"uniform\" 0 0 \"none\" 0.5 \"\")))",
    "maximum work-group size" },
  { "bad-shape-half",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-shape-half.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   32 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))",
    "must both be 0 (auto) or both positive" },
  { "bad-mode",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-mode.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   0 0 \"diagonal\" 0 0 \"none\" 0.5 \"\")))",
    "unknown dispatch mode 'diagonal'" },
  { "bad-device",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-device.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   0 0 \"uniform\" 0 0 \"none\" 0.5 \"quantum-gpu\")))",
    "no OpenCL device matches 'quantum-gpu'" },
  { "bad-std-dev",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-std-dev.png\""
    " (lambda (img layer) (plug-in-threadlens-gaussian-blur RUN-NONINTERACTIVE img layer"
    "   -2.0 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))",
    "std-dev = -2 is out of range" },
  { "bad-matrix",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-matrix.png\""
    " (lambda (img layer) (plug-in-threadlens-color-matrix RUN-NONINTERACTIVE img layer"
    "   \"1 0 0\" 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")))",
    "16 or 20" },
  { "bad-overlay",
    "(tl-expect-failure \"%1$s/coffee.png\" \"%2$s/bad-overlay.png\""
    " (lambda (img layer) (plug-in-threadlens-invert RUN-NONINTERACTIVE img layer"
    "   0 0 \"uniform\" 0 0 \"sparkles\" 0.5 \"\")))",
    "unknown overlay 'sparkles'" },
};

/* Helpers every check uses, defined in the same batch command (script-fu
 * forgets definitions between -b commands).
 */
static const gchar *script_prelude =
  "(define (tl-load f) (car (gimp-file-load RUN-NONINTERACTIVE f f)))\n"
  "(define (tl-layer img) (car (gimp-image-get-active-drawable img)))\n"
  "(define (tl-save img f)\n"
  "  (gimp-file-save RUN-NONINTERACTIVE img (tl-layer img) f f)\n"
  "  (gimp-image-delete img))\n"
  "(define (tl-check name thunk)\n"
  "  (gimp-message (string-append \"TL-BEGIN \" name))\n"
  "  (catch (gimp-message (string-append \"TL-FAILED \" name))\n"
  "    (thunk)\n"
  "    (gimp-message (string-append \"TL-OK \" name))))\n"
  /* Runs CALL, which must fail, then saves the untouched layer. */
  "(define (tl-expect-failure in out call)\n"
  "  (let* ((img (tl-load in)) (layer (tl-layer img)))\n"
  "    (catch (gimp-message \"TL-CALL-FAILED\") (call img layer))\n"
  "    (tl-save img out)))\n";

static gboolean
run_gimp (void)
{
  g_autoptr(GString)   script  = g_string_new ("(begin\n");
  g_autoptr(GError)    error   = NULL;
  g_autofree gchar    *images  = g_test_build_filename (G_TEST_DIST, "images", NULL);
  g_autofree gchar    *plugins = work_file ("plug-ins");
  g_autofree gchar    *link_dir = g_build_filename (plugins, "gimp-threadlens", NULL);
  g_autofree gchar    *link     = g_build_filename (link_dir, "gimp-threadlens", NULL);
  g_autofree gchar    *home    = work_file ("home");
  g_autofree gchar    *config  = work_file ("home/.config");
  g_autofree gchar    *cache   = work_file ("home/.cache");
  g_autofree gchar    *gimpdir = work_file ("gimp-2.10");
  g_autofree gchar    *pdirs   = NULL;
  g_autofree gchar    *out     = NULL;
  g_auto(GStrv)        envp    = g_get_environ ();
  const gchar         *argv[]  = { GIMP_CONSOLE, "-i", "-b", NULL,
                                   "-b", "(gimp-quit 0)", NULL };
  gint                 status;
  guint                i;

  g_mkdir_with_parents (link_dir, 0700);
  g_mkdir_with_parents (config, 0700);
  g_mkdir_with_parents (cache, 0700);
  if (symlink (g_getenv ("GIMP2_PLUGIN"), link) != 0)
    g_error ("cannot link the plug-in into %s", link_dir);

  /* An isolated GIMP: its own config folder, home and caches, and a
   * plug-in path of the system's plug-ins plus this build's.
   */
  pdirs = g_strconcat ("/usr/lib/gimp/2.0/plug-ins:", plugins, NULL);
  envp = g_environ_setenv (envp, "HOME", home, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  envp = g_environ_setenv (envp, "GIMP2_DIRECTORY", gimpdir, TRUE);
  envp = g_environ_setenv (envp, "GIMP_TESTING_PLUGINDIRS", pdirs, TRUE);
  envp = g_environ_unsetenv (envp, "DISPLAY");

  g_string_append (script, script_prelude);
  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      g_string_append_printf (script, "(tl-check \"%s\" (lambda () ", checks[i].name);
      g_string_append_printf (script, checks[i].script, images, work_dir);
      g_string_append (script, "))\n");
    }
  g_string_append (script, ")\n");
  argv[3] = script->str;

  if (! g_spawn_sync (NULL, (gchar **) argv, envp, G_SPAWN_SEARCH_PATH, NULL,
                      NULL, &out, &gimp_log, &status, &error))
    {
      g_test_message ("cannot run %s: %s", GIMP_CONSOLE, error->message);
      return FALSE;
    }
  g_test_message ("GIMP said:\n%s", gimp_log);
  return TRUE;
}

/* GIMP's output between this check's TL-BEGIN and the next one. */
static gchar *
check_log (const gchar *name)
{
  g_autofree gchar *begin = g_strconcat ("TL-BEGIN ", name, "\n", NULL);
  const gchar      *start = strstr (gimp_log, begin);
  const gchar      *end;

  if (start == NULL)
    return NULL;
  end = strstr (start + strlen (begin), "TL-BEGIN ");
  return end ? g_strndup (start, end - start) : g_strdup (start);
}

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
  return tl_image_get_pixels (image, "R'G'B'A float");
}

/* `threadlens apply` on the same photo, the reference for GIMP's result. */
static gchar *
cli_apply (const gchar *out_name,
           const gchar *filter,
           const gchar *photo_name,
           const gchar *const *options)
{
  g_autoptr(GPtrArray) argv  = g_ptr_array_new ();
  g_autoptr(GError)    error = NULL;
  g_autofree gchar    *in    = photo (photo_name);
  g_autofree gchar    *err   = NULL;
  g_autofree gchar    *report = NULL;
  gchar               *out   = work_file (out_name);
  gint                 status;
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  g_ptr_array_add (argv, "apply");
  g_ptr_array_add (argv, (gpointer) filter);
  for (i = 0; options && options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, in);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &report, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens apply %s: %s", filter, err);
  return out;
}

static gdouble
max_difference (const gfloat *a,
                const gfloat *b,
                gsize         n)
{
  gdouble worst = 0.0;
  gsize   i;

  for (i = 0; i < n; i++)
    worst = MAX (worst, fabs ((gdouble) a[i] - b[i]));
  return worst;
}

static void
assert_check_ok (const gchar *name)
{
  g_autofree gchar *log = check_log (name);

  if (log == NULL)
    g_error ("check %s did not run", name);
  if (strstr (log, "TL-OK") == NULL)
    g_error ("check %s failed in GIMP:\n%s", name, log);
}

/* GIMP's file equals the command line's to the 8-bit rounding. */
static void
assert_same_pixels (const gchar *gimp_name,
                    const gchar *cli_path)
{
  g_autofree gchar  *gimp_path = work_file (gimp_name);
  g_autofree gfloat *a = NULL, *b = NULL;
  guint              w1, h1, w2, h2;
  gdouble            diff;

  a = load (gimp_path, &w1, &h1);
  b = load (cli_path, &w2, &h2);
  g_assert_cmpuint (w1, ==, w2);
  g_assert_cmpuint (h1, ==, h2);
  diff = max_difference (a, b, (gsize) w1 * h1 * 4);
  if (diff > 1.0 / 255.0 + 1e-6)
    g_error ("%s differs from threadlens apply by %g", gimp_name, diff);
}

static void
test_filters_match_cli (void)
{
  const gchar *blur[]   = { "--set=std-dev=3", "--shape=7x5", "--mode=emulated", "--swizzle=3", NULL };
  const gchar *matrix[] = { "--set=matrix=0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,1", NULL };
  g_autofree gchar *p1 = NULL, *p2 = NULL, *p2b = NULL, *p3 = NULL, *p4 = NULL;

  assert_check_ok ("blur-rgb");
  p1 = cli_apply ("cli-blur.png", "gaussian-blur", "coffee.png", blur);
  assert_same_pixels ("gimp-blur.png", p1);

  assert_check_ok ("invert-alpha");
  p2 = cli_apply ("cli-invert-logo.png", "invert", "logo.png", NULL);
  p2b = cli_apply ("cli-invert-coffee4.png", "invert", "coffee.png", NULL);
  assert_same_pixels ("gimp-invert-logo.png", p2);

  assert_check_ok ("matrix-rgb");
  p3 = cli_apply ("cli-matrix.png", "color-matrix", "astronaut.png", matrix);
  assert_same_pixels ("gimp-matrix.png", p3);

  assert_check_ok ("invert-float32");
  assert_same_pixels ("gimp-invert-float.png", p2b);

  assert_check_ok ("invert-gray16");
  p4 = cli_apply ("cli-invert-gray.png", "invert", "chessboard_GRAY_U16.tif", NULL);
  assert_same_pixels ("gimp-invert-gray.png", p4);
}

/* Inside the rectangle: inverted; outside: untouched, exactly. */
static void
test_selection_rectangle (void)
{
  g_autofree gchar  *orig_path = photo ("coffee.png");
  g_autofree gchar  *inv_path  = cli_apply ("cli-invert-coffee.png", "invert", "coffee.png", NULL);
  g_autofree gchar  *got_path  = work_file ("gimp-select-rect.png");
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, c;

  assert_check_ok ("selection-rectangle");
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
  g_autofree gchar  *orig_path = photo ("coffee.png");
  g_autofree gchar  *inv_path  = cli_apply ("cli-invert-coffee2.png", "invert", "coffee.png", NULL);
  g_autofree gchar  *got_path  = work_file ("gimp-select-feather.png");
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, blended = 0;

  assert_check_ok ("selection-feathered");
  orig = load (orig_path, &w, &h);
  inv  = load (inv_path, &w, &h);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gsize   i  = ((gsize) y * w + x) * 4;
        gdouble dx = (x + 0.5 - 300.0) / 150.0, dy = (y + 0.5 - 200.0) / 100.0;
        gdouble r  = sqrt (dx * dx + dy * dy);
        guint   c;

        /* Well inside and well outside the feather band. */
        if (r < 0.25 && max_difference (got + i, inv + i, 3) > 1.0 / 255.0 + 1e-6)
          g_error ("pixel %u,%u at the centre is not inverted", x, y);
        if (r > 1.6 && max_difference (got + i, orig + i, 4) != 0.0)
          g_error ("pixel %u,%u outside the selection changed", x, y);
        if (r > 0.85 && r < 1.15 && fabs (orig[i] - inv[i]) > 0.3)
          {
            /* Strictly between the original and the inverted value. */
            for (c = 0; c < 1; c++)
              if (got[i + c] > MIN (orig[i + c], inv[i + c]) + 0.02 &&
                  got[i + c] < MAX (orig[i + c], inv[i + c]) - 0.02)
                blended++;
          }
      }
  g_assert_cmpuint (blended, >, 100);
}

/* A layer moved off the origin is filtered in its own coordinates. */
static void
test_layer_offset (void)
{
  g_autofree gchar *inv_path = cli_apply ("cli-invert-coffee3.png", "invert", "coffee.png", NULL);

  assert_check_ok ("layer-offset");
  assert_same_pixels ("gimp-offset.png", inv_path);
}

static void
test_last_values (void)
{
  assert_check_ok ("last-values");
  /* Same as the first blur (std-dev 3, 7x5, emulated), not std-dev 9. */
  {
    g_autofree gchar *first = work_file ("gimp-blur.png");

    assert_same_pixels ("gimp-last.png", first);
  }
}

static void
test_failures (gconstpointer data)
{
  const GimpCheck  *check = data;
  g_autofree gchar *log   = check_log (check->name);
  g_autofree gchar *name  = NULL;
  g_autofree gchar *in    = NULL;
  g_autofree gchar *out   = NULL;
  g_autofree gfloat *a = NULL, *b = NULL;
  guint             w, h;

  if (log == NULL)
    g_error ("check %s did not run", check->name);
  if (strstr (log, "TL-CALL-FAILED") == NULL)
    g_error ("check %s: the call did not fail:\n%s", check->name, log);
  if (strstr (log, check->error) == NULL)
    g_error ("check %s: GIMP's error does not say '%s':\n%s", check->name,
             check->error, log);

  /* The layer after the failed call equals the file it came from. */
  name = g_strconcat (check->name, ".png", NULL);
  out  = work_file (name);
  in   = photo (strstr (check->script, "palette_color") ? "palette_color.png" : "coffee.png");
  a = load (in, &w, &h);
  b = load (out, &w, &h);
  g_assert_cmpfloat (max_difference (a, b, (gsize) w * h * 4), ==, 0.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *console = g_find_program_in_path (GIMP_CONSOLE);
  guint             i;

  g_test_init (&argc, &argv, NULL);

  if (console == NULL || g_getenv ("GIMP2_PLUGIN") == NULL)
    {
      /* TAP: a plan of zero tests with a reason. */
      g_print ("1..0 # SKIP %s\n", console ? "the GIMP 2.10 host was not built"
                                           : GIMP_CONSOLE " is not installed");
      return 0;
    }

  work_dir = g_dir_make_tmp ("threadlens-gimp2-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  if (! run_gimp ())
    g_error ("GIMP 2.10 did not run");

  g_test_add_func ("/gimp2/filters-match-cli", test_filters_match_cli);
  g_test_add_func ("/gimp2/selection/rectangle", test_selection_rectangle);
  g_test_add_func ("/gimp2/selection/feathered", test_selection_feathered);
  g_test_add_func ("/gimp2/layer-offset", test_layer_offset);
  g_test_add_func ("/gimp2/last-values", test_last_values);
  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    if (checks[i].error)
      {
        g_autofree gchar *path = g_strconcat ("/gimp2/errors/", checks[i].name, NULL);

        g_test_add_data_func (path, &checks[i], test_failures);
      }

  return g_test_run ();
}
