/* ThreadLens tests: the GTK 3 dialog (ui/), under Xvfb.
 *
 * Builds the dialog on a real photo, sets its widgets as a user would and
 * checks the settings it hands back and the summary's numbers against the
 * planner for several devices' limits (fake devices, so no GPU is
 * needed: ui-panel.c, ui-summary.c); a shape over a limit must disable OK
 * and say why.  The preview runs the real kernels on the installed
 * OpenCL device (PoCL in CI: ui-preview.c, and Tune, ui-tune.c).  What
 * the parts share is in ui-fixtures.c.
 *
 * This file starts the program (the build's catalogues, the display, the
 * photo) and takes the screenshots in English and Japanese, which go to
 * the build directory and to /tmp/threadlens-ui-*.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tl-image.h"
#include "tl-preview.h"

#include "ui-fixtures.h"

static gchar *po_dir;

/* The dialog as a user sees it, its pages named after LANGUAGE: the
 * dispatch page with the preview's grid, the filter page, a limit's
 * message in place, and the thread map over the photo's corner.
 */
static void
screenshots (const gchar *language)
{
  static const gchar *sepia =
    "0.393 0.769 0.189 0 0.02  0.349 0.686 0.168 0 0.02  "
    "0.272 0.534 0.131 0 0.02  0 0 0 1 0";
  GeglRectangle      region = ui_photo_region ();
  const TlFilter    *filter = tl_filter_lookup ("color-matrix", NULL);
  TlHostSettings     settings;
  TlDialogPanel     *panel;
  GtkWidget         *dialog;
  g_autofree gchar  *name = NULL;

  tl_host_settings_init (&settings, filter);
  dialog = tl_dialog_new (filter, &settings, ui_photo (),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_set_help_func (TL_DIALOG (dialog), ui_help, NULL, NULL);
  ui_set (panel, "matrix", sepia);
  ui_set (panel, "shape", "32x8");
  ui_set (panel, "mode", "non-uniform");
  ui_set (panel, "zoom", "2");
  ui_set (panel, "grid", "on");
  ui_set (panel, "page", "dispatch");
  ui_show_and_wait (dialog, panel);
  g_assert_null (tl_preview_get_error (TL_PREVIEW (tl_dialog_panel_get_preview (panel))));
  name = g_strdup_printf ("%s-dispatch", language);
  ui_save_screenshot (dialog, name);

  ui_set (panel, "page", "filter");
  ui_set (panel, "grid", "off");
  ui_set (panel, "zoom", "1");
  ui_wait_for (panel);
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-filter", language);
  ui_save_screenshot (dialog, name);

  /* Over the limit on the real device: the message in place. */
  ui_set (panel, "page", "dispatch");
  ui_set (panel, "shape", "4096x64");
  ui_wait_for (panel);
  g_assert_false (ui_ok_sensitive (dialog));
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-limit", language);
  ui_save_screenshot (dialog, name);

  /* The bottom-right corner in uniform mode: partial groups, and the
   * padding where work-items idle, hatched.
   */
  ui_set (panel, "shape", "32x32");
  ui_set (panel, "mode", "uniform");
  ui_set (panel, "page", "overlay");
  ui_set (panel, "overlay", "work-group");
  ui_set (panel, "grid", "on");
  ui_set (panel, "zoom", "4");
  tl_preview_set_centre (TL_PREVIEW (tl_dialog_panel_get_preview (panel)),
                         region.width - 20, region.height - 20);
  ui_wait_for (panel);
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-overlay", language);
  ui_save_screenshot (dialog, name);

  ui_destroy (dialog, panel);
}

static void
test_screenshots_en (void)
{
  screenshots ("en");
}

/* Japanese in a child process: the catalogue is chosen at start-up.  Until
 * po/ja.po exists the text stays English; the mechanism is what this
 * checks.
 */
static void
test_screenshots_ja (void)
{
  g_autofree gchar *mo = NULL;

  if (g_test_subprocess ())
    {
      mo = g_build_filename (po_dir, "ja", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
      if (g_file_test (mo, G_FILE_TEST_EXISTS))
        {
          GtkWidget   *label = gtk_label_new (_("Summary"));
          PangoLayout *layout;

          g_assert_cmpstr (_("Summary"), !=, "Summary");
          /* Boxes instead of text: the screenshot would be useless. */
          g_object_ref_sink (label);
          layout = gtk_label_get_layout (GTK_LABEL (label));
          if (pango_layout_get_unknown_glyphs_count (layout) > 0)
            g_test_message ("no font covers Japanese: install fonts-noto-cjk "
                            "for a readable screenshot");
          g_object_unref (label);
        }
      else
        g_test_message ("no %s yet: the Japanese screenshot shows English", mo);
      screenshots ("ja");
      return;
    }

  g_setenv ("LANGUAGE", "ja", TRUE);
  g_setenv ("LC_ALL", "C.UTF-8", TRUE);
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("LANGUAGE");
  g_test_trap_assert_passed ();
}

static void
remove_tree (const gchar *path)
{
  GDir        *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree gchar *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = NULL;
  const gchar      *skip  = g_getenv ("THREADLENS_UI_SKIP");
  int               status;

  /* meson sets this where xvfb-run is missing. */
  if (skip)
    {
      printf ("1..0 # SKIP %s\n", skip);
      return 0;
    }

  setlocale (LC_ALL, "");
  po_dir = g_strdup (g_getenv ("THREADLENS_UI_PO_DIR"));
  if (po_dir && g_file_test (po_dir, G_FILE_TEST_IS_DIR))
    {
      bindtextdomain (GETTEXT_PACKAGE, po_dir);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
    }
  if (po_dir == NULL)
    po_dir = g_strdup ("po");

  /* No accessibility bus or dconf under Xvfb: their warnings would be
   * fatal in a test.
   */
  g_setenv ("NO_AT_BRIDGE", "1", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  g_setenv ("GTK_THEME", "Adwaita", TRUE);

  if (! gtk_init_check (&argc, &argv))
    {
      printf ("1..0 # SKIP no X display (run under xvfb-run)\n");
      return 0;
    }

  g_test_init (&argc, &argv, NULL);

  /* One program cache for the test and its Japanese child. */
  if (! g_test_subprocess ())
    {
      cache = g_dir_make_tmp ("threadlens-ui-XXXXXX", NULL);
      g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
    }

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  ui_photo_load ();

  ui_panel_add_tests ();
  ui_summary_add_tests ();
  ui_preview_add_tests ();
  g_test_add_func ("/ui/screenshots/en", test_screenshots_en);
  g_test_add_func ("/ui/screenshots/ja", test_screenshots_ja);
  /* Last: the tuning data it leaves would change "auto" for the others. */
  ui_tune_add_tests ();

  status = g_test_run ();

  ui_photo_free ();
  if (cache)
    remove_tree (cache);
  g_free (po_dir);

  return status;
}
