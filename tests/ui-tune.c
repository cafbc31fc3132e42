/* ThreadLens tests: the dialog's Tune button on the installed OpenCL
 * device: pressed again while it runs, it cancels the search and keeps
 * nothing; left to finish, "auto" shows the tuned choice and says so.
 * Its tests run last: the tuning data they leave would change "auto" for
 * the others.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-cl.h"
#include "tl-tune.h"

#include "ui-fixtures.h"

static void
find_progress (GtkWidget *widget,
               gpointer   data)
{
  GtkWidget **found = data;

  if (*found)
    return;
  if (GTK_IS_PROGRESS_BAR (widget))
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_progress, data);
}

/* Tune pressed again while it runs cancels the search: nothing is kept,
 * "auto" stays the device's rule, and the progress bar says so.
 */
static void
test_tune_cancel (void)
{
  GeglRectangle   region = ui_photo_region ();
  const TlFilter *filter = tl_filter_lookup ("sepia", NULL);
  GeglBuffer     *buffer = ui_photo ();
  TlHostSettings  settings;
  TlDialogPanel  *panel;
  GtkWidget      *dialog, *tune = NULL, *progress = NULL;
  TlLimits        limits;
  TlPlan          shown;
  gint64          start;

  tl_host_settings_init (&settings, filter);
  dialog = tl_dialog_new (filter, &settings, buffer, &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  ui_show_and_wait (dialog, panel);
  ui_find_button (dialog, &tune);
  find_progress (dialog, &progress);
  g_assert_nonnull (tune);
  g_assert_nonnull (progress);
  g_assert_false (gtk_widget_get_visible (progress));

  start = g_get_monotonic_time ();
  gtk_button_clicked (GTK_BUTTON (tune));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "_Cancel");
  g_assert_true (gtk_widget_get_sensitive (tune));
  g_assert_true (gtk_widget_get_visible (progress));
  gtk_button_clicked (GTK_BUTTON (tune));
  ui_wait_for (panel);
  g_test_message ("cancelled after %.2f s", (g_get_monotonic_time () - start) / 1e6);
  /* Well before the 5 s budget: the search stops at its next pass. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 4 * G_USEC_PER_SEC);

  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "Tu_ne");
  g_assert_cmpstr (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)), ==,
                   "Tuning cancelled: Automatic keeps its choice.");
  g_assert_true (g_str_has_prefix (tl_dialog_panel_get_summary (panel, "rule"),
                                   "automatic, not tuned yet"));
  g_assert_true (tl_dialog_panel_get_plan (panel, &limits, &shown));
  g_assert_false (shown.tuned);

  ui_destroy (dialog, panel);
}

/* Tune runs the search for this device, layer storage and size; then
 * "auto" shows the tuned choice and says so, with the search's length.
 */
static void
test_tuned (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(TlCodec)   codec   = NULL;
  GeglRectangle        region  = ui_photo_region ();
  const TlFilter      *filter  = tl_filter_lookup ("invert", NULL);
  GeglBuffer          *buffer  = ui_photo ();
  const TlDevice      *device;
  TlHostSettings       settings;
  TlDialogPanel       *panel;
  GtkWidget           *dialog, *tune = NULL, *progress = NULL;
  TlTuning             tuning;
  TlLimits             limits;
  TlPlan               shown;
  const gchar         *rule;

  tl_host_settings_init (&settings, filter);
  dialog = tl_dialog_new (filter, &settings, buffer, &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  ui_show_and_wait (dialog, panel);
  g_assert_true (g_str_has_prefix (tl_dialog_panel_get_summary (panel, "rule"),
                                   "automatic, not tuned yet"));

  ui_find_button (dialog, &tune);
  find_progress (dialog, &progress);
  g_assert_nonnull (tune);
  gtk_button_clicked (GTK_BUTTON (tune));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "_Cancel");
  ui_wait_for (panel);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "Tu_ne");
  g_assert_true (gtk_widget_get_sensitive (tune));
  g_test_message ("progress: %s",
                  gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)));
  g_assert_true (g_str_has_prefix (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)),
                                   "Tuned: "));
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), ==, 1.0);
  ui_save_screenshot (dialog, "tuned");

  rule = tl_dialog_panel_get_summary (panel, "rule");
  g_test_message ("summary: %s", rule);
  g_assert_true (g_str_has_prefix (rule, "automatic, tuned: the fastest choice"));
  g_assert_nonnull (strstr (rule, "the search took"));

  /* What it shows is what the search kept for this layer's storage. */
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);
  device = tl_context_get_device (context);
  codec  = tl_codec_new (gegl_buffer_get_format (buffer), filter->format, &error);
  g_assert_no_error (error);
  g_assert_true (tl_tune_lookup_device (device->name, device->driver_version,
                                        filter->name,
                                        tl_codec_get_variant (codec),
                                        TL_MODE_UNIFORM, region.width,
                                        region.height, &tuning));
  g_test_message ("tuned: %ux%u, swizzle %u, %u px/item, %.3f ms, %u choices "
                  "in %.2f s", tuning.choice.shape[0], tuning.choice.shape[1],
                  tuning.choice.swizzle, tuning.choice.pixels_per_item,
                  tuning.best_ms, tuning.n_choices, tuning.search_s);
  g_assert_true (tl_dialog_panel_get_plan (panel, &limits, &shown));
  g_assert_true (shown.tuned);
  g_assert_cmpuint (shown.local[0], ==, tuning.choice.shape[0]);
  g_assert_cmpuint (shown.local[1], ==, tuning.choice.shape[1]);
  g_assert_cmpuint (shown.swizzle, ==, tuning.choice.swizzle);
  g_assert_cmpuint (shown.pixels_per_item, ==, tuning.choice.pixels_per_item);

  ui_destroy (dialog, panel);
}

void
ui_tune_add_tests (void)
{
  g_test_add_func ("/ui/tune-cancel", test_tune_cancel);
  g_test_add_func ("/ui/tuned", test_tuned);
}
