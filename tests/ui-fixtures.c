/* ThreadLens tests: what the parts of test-ui share (see ui-fixtures.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-image.h"

#include "ui-fixtures.h"

static TlImage *photo;

const TlProbeDevice ui_fake_devices[UI_N_FAKE_DEVICES] =
{
  /* NVIDIA's OpenCL on an H100 for a simple kernel: no native non-uniform. */
  { "NVIDIA-like", "GPU", NULL,
    { .simd_width = 32, .max_group_size = 256, .max_item_size = { 1024, 1024 } },
    TRUE, NULL, .names_compute_units = TRUE },
  /* PoCL 3 on a CPU. */
  { "PoCL-like", "CPU", NULL,
    { .simd_width = 8, .max_group_size = 4096, .max_item_size = { 4096, 4096 } },
    TRUE, NULL },
  /* An OpenCL 2.0 GPU that runs non-uniform groups natively. */
  { "Native-NU", "GPU", NULL,
    { .simd_width = 64, .max_group_size = 1024, .max_item_size = { 1024, 1024 },
      .native_non_uniform = TRUE },
    TRUE, NULL },
  /* Tall groups refused per dimension, not by M. */
  { "Narrow-y", "accelerator", NULL,
    { .simd_width = 16, .max_group_size = 1024, .max_item_size = { 1024, 64 } },
    TRUE, NULL },
};

void
ui_photo_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *path  = g_test_build_filename (G_TEST_DIST, "images",
                                                   "coffee.png", NULL);

  photo = tl_image_load (path, &error);
  g_assert_no_error (error);
}

void
ui_photo_free (void)
{
  g_clear_pointer (&photo, tl_image_free);
}

GeglBuffer *
ui_photo (void)
{
  return tl_image_get_buffer (photo);
}

GeglRectangle
ui_photo_region (void)
{
  GeglRectangle region = { 0, 0, 0, 0 };

  region.width  = tl_image_get_width (photo);
  region.height = tl_image_get_height (photo);
  return region;
}

TlDialogPanel *
ui_new_panel (const gchar         *filter_name,
              const GeglRectangle *region,
              gboolean             fake)
{
  TlHostSettings  settings;
  const TlFilter *filter = tl_filter_lookup (filter_name, NULL);
  GtkWidget      *panel;

  g_assert_nonnull (filter);
  tl_host_settings_init (&settings, filter);
  panel = tl_dialog_panel_new (filter, &settings, ui_photo (), region);
  g_object_ref_sink (panel);
  if (fake)
    tl_dialog_panel_set_devices (TL_DIALOG_PANEL (panel), ui_fake_devices,
                                 G_N_ELEMENTS (ui_fake_devices), 0);
  return TL_DIALOG_PANEL (panel);
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
ui_wait_for (TlDialogPanel *panel)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint  tick     = g_timeout_add (20, wake_up, NULL);

  while (g_get_monotonic_time () < deadline)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      if (! tl_dialog_panel_is_busy (panel))
        break;
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (tick);
  g_assert_false (tl_dialog_panel_is_busy (panel));
}

void
ui_destroy (GtkWidget     *widget,
            TlDialogPanel *panel)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint  tick     = g_timeout_add (20, wake_up, NULL);

  g_object_add_weak_pointer (G_OBJECT (panel), (gpointer *) &panel);
  if (GTK_IS_WINDOW (widget))
    gtk_widget_destroy (widget);
  else
    g_object_unref (widget);

  while ((panel || tl_probe_get_jobs () > 0) &&
         g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  g_assert_null (panel);
  g_assert_cmpuint (tl_probe_get_jobs (), ==, 0);
}

void
ui_set (TlDialogPanel *panel,
        const gchar   *name,
        const gchar   *value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tl_dialog_panel_set_value (panel, name, value, &error));
  g_assert_no_error (error);
}

TlHostSettings
ui_settings_of (TlDialogPanel *panel)
{
  TlHostSettings settings;

  tl_dialog_panel_get_settings (panel, &settings);
  return settings;
}

GtkWidget *
ui_find_widget (GtkWidget *widget,
                GType      type)
{
  GtkWidget *found = NULL;
  GList     *children, *l;

  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  if (! GTK_IS_CONTAINER (widget))
    return NULL;

  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (l = children; l && ! found; l = l->next)
    found = ui_find_widget (l->data, type);
  g_list_free (children);

  return found;
}

gboolean
ui_message_shown (GtkWidget *info_bar)
{
  GtkWidget *stack = gtk_widget_get_parent (info_bar);

  return gtk_stack_get_visible_child (GTK_STACK (stack)) == info_bar;
}

gboolean
ui_ok_sensitive (GtkWidget *dialog)
{
  return gtk_widget_get_sensitive (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                       GTK_RESPONSE_OK));
}

gboolean
ui_respond (gpointer data)
{
  gtk_dialog_response (GTK_DIALOG (data), GTK_RESPONSE_OK);
  return G_SOURCE_REMOVE;
}

void
ui_help (gpointer data)
{
  gboolean *called = data;

  if (called)
    *called = TRUE;
}

void
ui_show_and_wait (GtkWidget     *dialog,
                  TlDialogPanel *panel)
{
  gtk_widget_show (dialog);
  while (! gtk_widget_get_mapped (dialog))
    g_main_context_iteration (NULL, TRUE);
  ui_wait_for (panel);
}

void
ui_save_screenshot (GtkWidget   *window,
                    const gchar *name)
{
  g_autofree gchar *file  = g_strdup_printf ("threadlens-ui-%s.png", name);
  g_autofree gchar *built = g_test_build_filename (G_TEST_BUILT, file, NULL);
  g_autofree gchar *tmp   = g_build_filename (g_get_tmp_dir (), file, NULL);
  cairo_surface_t  *surface;
  cairo_t          *cr;
  gint              width, height;
  gint64            settle = g_get_monotonic_time () + G_USEC_PER_SEC / 4;
  guint             tick   = g_timeout_add (20, wake_up, NULL);

  /* A few frames for GTK to lay out what changed. */
  while (g_get_monotonic_time () < settle)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  gtk_container_check_resize (GTK_CONTAINER (window));
  width  = gtk_widget_get_allocated_width (window);
  height = gtk_widget_get_allocated_height (window);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cr = cairo_create (surface);
  gtk_widget_draw (window, cr);
  cairo_destroy (cr);

  g_assert_cmpint (cairo_surface_write_to_png (surface, built), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_surface_write_to_png (surface, tmp), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (surface);

  /* It must fit a 1280x800 screen with GIMP's panels around it. */
  g_test_message ("%s: %d x %d", tmp, width, height);
  g_assert_cmpint (width, <=, 1280);
  g_assert_cmpint (height, <=, 760);
}

void
ui_find_button (GtkWidget *widget,
                gpointer   data)
{
  GtkWidget **found = data;

  if (*found)
    return;
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) &&
      strcmp (gtk_button_get_label (GTK_BUTTON (widget)), "Tu_ne") == 0)
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), ui_find_button, data);
}
