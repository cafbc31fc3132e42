/* ThreadLens tests: the dialog on the installed OpenCL device (PoCL in
 * CI): the preview runs the real kernels, its summary is the planner's
 * on the device's kernel limits, zoom and the preview toggle run it
 * again, the thread map's own procedure and its map over the layer; and
 * without any OpenCL platform, the dialog says so in place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "tl-cl.h"
#include "tl-filter-job.h"
#include "tl-overlay.h"
#include "tl-preview.h"
#include "tl-run.h"

#include "ui-fixtures.h"

/* The thread-map procedure (no filter): its own kernel's dispatch, a
 * mode is a must, the preview shows the map over the layer.
 */
static void
test_thread_map (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  GeglRectangle        region  = { 50, 40, 333, 222 };
  TlHostSettings       settings;
  TlDialogPanel       *panel;
  GtkWidget           *dialog, *notebook;
  TlPreview           *preview;
  GeglRectangle        area;
  TlChoice             choice;
  TlLimits             limits;
  TlPlan               plan, shown;

  tl_host_settings_init (&settings, NULL);
  g_assert_cmpint (settings.overlay, ==, 1);
  dialog  = tl_dialog_new (NULL, &settings, ui_photo (),
                           &region, NULL);
  panel   = tl_dialog_get_panel (TL_DIALOG (dialog));
  preview = TL_PREVIEW (tl_dialog_panel_get_preview (panel));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==,
                   "ThreadLens: Thread Map");
  notebook = ui_find_widget (GTK_WIDGET (panel), GTK_TYPE_NOTEBOOK);
  g_assert_cmpint (gtk_notebook_get_n_pages (GTK_NOTEBOOK (notebook)), ==, 2);

  g_assert_false (tl_dialog_panel_set_value (panel, "overlay", "none", &error));
  g_clear_error (&error);
  ui_set (panel, "overlay", "lane");
  ui_set (panel, "overlay-style", "checkerboard");
  ui_set (panel, "shape", "16x16");
  ui_set (panel, "zoom", "4");
  ui_set (panel, "grid", "on");
  ui_set (panel, "page", "overlay");
  ui_show_and_wait (dialog, panel);
  g_assert_null (tl_preview_get_error (preview));
  g_assert_true (ui_ok_sensitive (dialog));
  g_assert_null (tl_preview_get_filtered (preview, NULL));
  g_assert_nonnull (tl_preview_get_overlay (preview, &area));
  /* The preview's run starts on the real run's groups, two by two. */
  g_assert_cmpint ((area.x - region.x) % 32, ==, 0);
  g_assert_cmpint ((area.y - region.y) % 32, ==, 0);

  /* The overlay kernel's own limits, as tl_host_thread_map () plans. */
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);
  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("16x16", &choice, NULL));
  g_assert_true (tl_overlay_plan (context, NULL, NULL, &choice, region.width,
                                  region.height, &limits, &plan, &error));
  g_assert_true (tl_dialog_panel_get_plan (panel, NULL, &shown));
  g_assert_cmpmem (shown.launches, sizeof (shown.launches),
                   plan.launches, sizeof (plan.launches));
  ui_save_screenshot (dialog, "en-thread-map");

  g_idle_add (ui_respond, dialog);
  g_assert_true (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpstr (tl_host_overlay_names[settings.overlay], ==, "lane");
  g_assert_cmpint (settings.shape[0], ==, 16);

  ui_destroy (dialog, panel);
}

/* The preview and the summary on the real device. */
static void
test_preview (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(TlCodec)   codec   = NULL;
  GeglRectangle        region  = ui_photo_region ();
  const TlFilter      *filter  = tl_filter_lookup ("invert", NULL);
  TlHostSettings       settings;
  TlDialogPanel       *panel;
  GtkWidget           *dialog;
  TlPreview           *preview;
  cairo_surface_t     *filtered;
  GeglRectangle        area;
  TlLimits             limits, shown_limits;
  TlPlan               plan, shown;
  TlChoice             choice;
  guint32              in, out;
  guint                x, y, channel, renders;

  tl_host_settings_init (&settings, filter);
  dialog  = tl_dialog_new (filter, &settings, ui_photo (),
                           &region, NULL);
  panel   = tl_dialog_get_panel (TL_DIALOG (dialog));
  preview = TL_PREVIEW (tl_dialog_panel_get_preview (panel));
  ui_show_and_wait (dialog, panel);

  g_assert_null (tl_preview_get_error (preview));
  g_assert_true (ui_ok_sensitive (dialog));

  /* The summary is the planner's on the real device's kernel limits, in
   * the program variant the layer's storage runs.
   */
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);
  codec = tl_codec_new (gegl_buffer_get_format (ui_photo ()),
                        filter->format, &error);
  g_assert_no_error (error);
  tl_choice_init (&choice);
  choice.pixels_per_item = 0;     /* the filter's default for this storage */
  g_assert_true (tl_filter_job_plan (context, filter, codec, &choice,
                                     region.width, region.height, &limits,
                                     &plan, &error));
  g_assert_true (tl_dialog_panel_get_plan (panel, &shown_limits, &shown));
  g_assert_cmpuint (shown.pixels_per_item, ==, 4);
  g_assert_cmpuint (shown_limits.simd_width, ==, limits.simd_width);
  g_assert_cmpuint (shown_limits.max_group_size, ==, limits.max_group_size);
  g_assert_cmpmem (shown.launches, sizeof (shown.launches),
                   plan.launches, sizeof (plan.launches));
  g_test_message ("%s: %s", tl_context_get_device (context)->name,
                  tl_dialog_panel_get_summary (panel, "local"));

  /* The preview holds the inverted photo, whole work-groups of it. */
  filtered = tl_preview_get_filtered (preview, &area);
  g_assert_nonnull (filtered);
  g_assert_cmpint (area.width, >, 100);
  g_assert_cmpint ((area.x - region.x) % (shown.local[0] * shown.pixels_per_item), ==, 0);
  g_assert_cmpint ((area.y - region.y) % shown.local[1], ==, 0);
  cairo_surface_flush (filtered);
  for (y = 0; y < (guint) area.height; y += 37)
    for (x = 0; x < (guint) area.width; x += 41)
      {
        GeglRectangle pixel = { area.x + x, area.y + y, 1, 1 };

        out = *(guint32 *) (cairo_image_surface_get_data (filtered) +
                            y * cairo_image_surface_get_stride (filtered) + x * 4);
        gegl_buffer_get (ui_photo (), &pixel, 1.0,
                         babl_format ("cairo-ARGB32"), &in,
                         GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
        for (channel = 0; channel < 3; channel++)
          {
            gint a = (in >> (channel * 8)) & 0xff;
            gint b = (out >> (channel * 8)) & 0xff;

            g_assert_cmpint (ABS (255 - a - b), <=, 1);
          }
      }

  /* Zoom and the preview toggle run it again. */
  renders = tl_preview_get_renders (preview);
  ui_set (panel, "zoom", "4");
  ui_wait_for (panel);
  g_assert_cmpuint (tl_preview_get_renders (preview), >, renders);
  g_assert_cmpint (tl_preview_get_filtered (preview, &area) != NULL, ==, TRUE);
  g_assert_cmpint (area.width, <, 400);

  /* The thread map over the filtered pixels, on the real groups. */
  g_assert_null (tl_preview_get_overlay (preview, NULL));
  ui_set (panel, "overlay", "work-group");
  ui_wait_for (panel);
  g_assert_null (tl_preview_get_error (preview));
  g_assert_nonnull (tl_preview_get_overlay (preview, &area));
  g_assert_cmpint ((area.x - region.x) % (2 * shown.local[0] * shown.pixels_per_item), ==, 0);

  ui_set (panel, "preview", "off");
  ui_wait_for (panel);
  g_assert_null (tl_preview_get_filtered (preview, NULL));

  ui_destroy (dialog, panel);
}

/* Without any OpenCL platform: said in place, and the layer still shown.
 * A filter may still run (its C reference, on the CPU), so OK stays on;
 * an overlay needs a device, so choosing one turns OK off.  In a child
 * process, where the ICD loader reads OCL_ICD_VENDORS afresh.
 */
static void
test_no_opencl (void)
{
  g_autofree gchar *empty = NULL;

  if (g_test_subprocess ())
    {
      GeglRectangle   region = ui_photo_region ();
      const TlFilter *filter = tl_filter_lookup ("invert", NULL);
      TlHostSettings  settings;
      TlDialogPanel  *panel;
      GtkWidget      *dialog, *tune = NULL;

      tl_host_settings_init (&settings, filter);
      dialog = tl_dialog_new (filter, &settings, ui_photo (),
                              &region, NULL);
      panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
      ui_show_and_wait (dialog, panel);
      g_assert_false (gtk_widget_get_visible (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                                 GTK_RESPONSE_HELP)));
      g_assert_true (ui_ok_sensitive (dialog));
      g_assert_true (g_str_has_prefix (tl_dialog_panel_get_message (panel),
                                       "No OpenCL platform: the filter will run "
                                       "on the CPU, through its C reference.\n"));
      g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                                "no OpenCL platform found"));
      ui_save_screenshot (dialog, "en-no-opencl");
      ui_find_button (dialog, &tune);
      g_assert_nonnull (tune);
      g_assert_false (gtk_widget_get_sensitive (tune));

      ui_set (panel, "overlay", "work-group");
      g_assert_false (ui_ok_sensitive (dialog));
      g_assert_true (g_str_has_prefix (tl_dialog_panel_get_message (panel),
                                       "No OpenCL device is available.\n"));
      ui_destroy (dialog, panel);
      return;
    }

  empty = g_dir_make_tmp ("threadlens-ui-icd-XXXXXX", NULL);
  g_setenv ("OCL_ICD_VENDORS", empty, TRUE);
  g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unsetenv ("OCL_ICD_VENDORS");
  g_rmdir (empty);
  g_test_trap_assert_passed ();
}

/* Runs the main loop until the preview's status holds TEXT (for up to
 * SECONDS); whether it did.
 */
static gboolean
status_comes (TlPreview   *preview,
              const gchar *text,
              gdouble      seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      if (strstr (tl_preview_get_status (preview), text))
        return TRUE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
  return FALSE;
}

/* A preview of hours (bilateral-filter at radius 1000 on PoCL) shows its
 * percentage and the whole region's time while it runs; a new setting
 * stops it at once and runs the new one; a setting of seconds for the
 * whole region (radius 40) is called a long run when its preview, of a
 * part, is done.
 */
static void
test_long_preview (void)
{
  GeglRectangle   region = ui_photo_region ();
  const TlFilter *filter = tl_filter_lookup ("bilateral-filter", NULL);
  TlHostSettings  settings;
  TlDialogPanel  *panel;
  GtkWidget      *dialog;
  TlPreview      *preview;
  gint64          changed;

  tl_host_settings_init (&settings, filter);
  dialog  = tl_dialog_new (filter, &settings, ui_photo (), &region, NULL);
  panel   = tl_dialog_get_panel (TL_DIALOG (dialog));
  preview = TL_PREVIEW (tl_dialog_panel_get_preview (panel));
  ui_show_and_wait (dialog, panel);

  ui_set (panel, "blur-radius", "1000");
  g_assert_true (status_comes (preview, "the whole region: about", 60.0));
  g_test_message ("a long preview: %s", tl_preview_get_status (preview));
  g_assert_true (tl_preview_is_busy (preview));
  ui_save_screenshot (dialog, "en-long-preview");

  changed = g_get_monotonic_time ();
  ui_set (panel, "blur-radius", "2");
  ui_wait_for (panel);
  g_test_message ("the stale run stopped and the next ran in %.0f ms: %s",
                  (g_get_monotonic_time () - changed) / 1000.0,
                  tl_preview_get_status (preview));
  g_assert_cmpfloat ((g_get_monotonic_time () - changed) / 1000.0, <, 5000.0);
  g_assert_nonnull (strstr (tl_preview_get_status (preview), "Ran on"));
  g_assert_null (strstr (tl_preview_get_status (preview), "the whole region"));

  /* Zoomed in, the preview runs on a 16th of the photo. */
  ui_set (panel, "zoom", "4");
  ui_set (panel, "blur-radius", "40");
  changed = g_get_monotonic_time ();
  ui_wait_for (panel);
  g_test_message ("radius 40 in %.0f ms: %s",
                  (g_get_monotonic_time () - changed) / 1000.0,
                  tl_preview_get_status (preview));
  g_assert_nonnull (strstr (tl_preview_get_status (preview), ", long."));
  ui_save_screenshot (dialog, "en-long-run");

  ui_destroy (dialog, panel);
}

void
ui_preview_add_tests (void)
{
  g_test_add_func ("/ui/thread-map", test_thread_map);
  g_test_add_func ("/ui/preview", test_preview);
  g_test_add_func ("/ui/no-opencl", test_no_opencl);
  g_test_add_func ("/ui/long-preview", test_long_preview);
}
