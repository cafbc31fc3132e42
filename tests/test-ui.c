/* ThreadLens tests: the GTK 3 dialog (ui/), under Xvfb.
 *
 * Builds the dialog on a real photo, sets its widgets as a user would and
 * checks the settings it hands back and the summary's numbers against the
 * planner for several devices' limits (fake devices, so no GPU is
 * needed); a shape over a limit must disable OK and say why.  The preview
 * runs the real kernels on the installed OpenCL device (PoCL in CI).
 * Screenshots in English and Japanese go to the build directory and to
 * /tmp/threadlens-ui-*.png.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tl-cl.h"
#include "tl-dialog.h"
#include "tl-error.h"
#include "tl-image.h"
#include "tl-overlay.h"
#include "tl-preview.h"
#include "tl-run.h"
#include "tl-summary.h"
#include "tl-tune.h"

static TlImage *photo;
static gchar   *po_dir;

/* Limits of devices that need not be present. */
static const TlProbeDevice fake_devices[] =
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

/* Helpers. */

static GeglRectangle
photo_region (void)
{
  GeglRectangle region = { 0, 0, 0, 0 };

  region.width  = tl_image_get_width (photo);
  region.height = tl_image_get_height (photo);
  return region;
}

static TlDialogPanel *
new_panel (const gchar         *filter_name,
           const GeglRectangle *region,
           gboolean             fake)
{
  TlHostSettings  settings;
  const TlFilter *filter = tl_filter_lookup (filter_name, NULL);
  GtkWidget      *panel;

  g_assert_nonnull (filter);
  tl_host_settings_init (&settings, filter);
  panel = tl_dialog_panel_new (filter, &settings, tl_image_get_buffer (photo),
                               region);
  g_object_ref_sink (panel);
  if (fake)
    tl_dialog_panel_set_devices (TL_DIALOG_PANEL (panel), fake_devices,
                                 G_N_ELEMENTS (fake_devices), 0);
  return TL_DIALOG_PANEL (panel);
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until the panel has measured its devices and the
 * preview has nothing left to do.
 */
static void
wait_for (TlDialogPanel *panel)
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

/* Destroys WIDGET, checks it is finalized at once (worker threads hold
 * no reference to it) and waits for their jobs, so every test leaves
 * nothing running behind.
 */
static void
destroy (GtkWidget     *widget,
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

static void
set (TlDialogPanel *panel,
     const gchar   *name,
     const gchar   *value)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tl_dialog_panel_set_value (panel, name, value, &error));
  g_assert_no_error (error);
}

static TlHostSettings
settings_of (TlDialogPanel *panel)
{
  TlHostSettings settings;

  tl_dialog_panel_get_settings (panel, &settings);
  return settings;
}

static GtkWidget *
find_widget (GtkWidget *widget,
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
    found = find_widget (l->data, type);
  g_list_free (children);

  return found;
}

/* The message takes the summary's place in a stack. */
static gboolean
message_shown (GtkWidget *info_bar)
{
  GtkWidget *stack = gtk_widget_get_parent (info_bar);

  return gtk_stack_get_visible_child (GTK_STACK (stack)) == info_bar;
}

static gboolean
ok_sensitive (GtkWidget *dialog)
{
  return gtk_widget_get_sensitive (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                       GTK_RESPONSE_OK));
}

static void show_and_wait   (GtkWidget     *dialog,
                             TlDialogPanel *panel);
static void save_screenshot (GtkWidget     *window,
                             const gchar   *name);

/* Settings. */

static void
test_settings (void)
{
  GeglRectangle  region = photo_region ();
  TlDialogPanel *panel  = new_panel ("gaussian-blur", &region, TRUE);
  TlHostSettings settings;

  set (panel, "preview", "off");

  settings = settings_of (panel);
  g_assert_cmpfloat (settings.values[0].v[0], ==, 2.0);
  g_assert_cmpint (settings.shape[0], ==, 0);
  g_assert_cmpint (settings.shape[1], ==, 0);
  g_assert_cmpint (settings.mode, ==, TL_MODE_UNIFORM);
  g_assert_cmpstr (settings.device, ==, "");

  set (panel, "std-dev", "5.5");
  set (panel, "shape", "32x8");
  set (panel, "mode", "non-uniform");
  set (panel, "swizzle", "4");
  set (panel, "pixels-per-item", "2");
  set (panel, "overlay", "work-group");
  set (panel, "overlay-opacity", "0.25");
  set (panel, "overlay-style", "checkerboard");
  set (panel, "device", "Native-NU");

  settings = settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 1);
  g_assert_cmpfloat (settings.values[0].v[0], ==, 5.5);
  g_assert_cmpint (settings.shape[0], ==, 32);
  g_assert_cmpint (settings.shape[1], ==, 8);
  g_assert_cmpint (settings.mode, ==, TL_MODE_NON_UNIFORM);
  g_assert_cmpint (settings.swizzle, ==, 4);
  g_assert_cmpint (settings.pixels_per_item, ==, 2);
  g_assert_cmpint (settings.overlay, ==, 1);
  g_assert_cmpfloat_with_epsilon (settings.overlay_opacity, 0.25, 1e-9);
  g_assert_cmpstr (tl_host_overlay_style_names[settings.overlay_style], ==,
                   "checkerboard");
  g_assert_cmpstr (settings.device, ==, "Native-NU");
  g_assert_true (tl_dialog_panel_get_runnable (panel));

  /* Typing a size makes the shape custom; auto and the filter's default
   * go back to 0, as the PDB arguments say.
   */
  set (panel, "shape-height", "12");
  settings = settings_of (panel);
  g_assert_cmpint (settings.shape[0], ==, 32);
  g_assert_cmpint (settings.shape[1], ==, 12);
  set (panel, "shape", "auto");
  set (panel, "swizzle", "0");
  set (panel, "pixels-per-item", "1");
  set (panel, "device", "");
  settings = settings_of (panel);
  g_assert_cmpint (settings.shape[0], ==, 0);
  g_assert_cmpint (settings.shape[1], ==, 0);
  g_assert_cmpint (settings.swizzle, ==, 0);
  g_assert_cmpint (settings.pixels_per_item, ==, 0);
  g_assert_cmpstr (settings.device, ==, "");

  /* Settings in, the same settings out. */
  {
    TlHostSettings in;

    tl_host_settings_init (&in, tl_filter_lookup ("gaussian-blur", NULL));
    in.values[0].v[0]  = 12.25;
    in.shape[0]        = 64;
    in.shape[1]        = 4;
    in.mode            = TL_MODE_EMULATED;
    in.swizzle         = 3;
    in.pixels_per_item = 4;
    in.overlay         = 3;
    in.overlay_style   = 1;
    in.overlay_opacity = 0.75;
    g_strlcpy (in.device, "PoCL-like", sizeof (in.device));
    tl_dialog_panel_set_settings (panel, &in);
    settings = settings_of (panel);
    g_assert_cmpmem (&settings, sizeof (settings), &in, sizeof (in));
    g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "device"), ==,
                     "PoCL-like, P = 8, M = 4096");
  }

  /* Unknown names and values are refused, not clamped. */
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (tl_dialog_panel_set_value (panel, "std-dev", "501", &error));
    g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (tl_dialog_panel_set_value (panel, "no-such", "1", &error));
    g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (tl_dialog_panel_set_value (panel, "device", "Voodoo", &error));
    g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  }

  destroy (GTK_WIDGET (panel), panel);
}

static void
test_matrix (void)
{
  static const gchar *sepia =
    "0.393 0.769 0.189 0 0.01  0.349 0.686 0.168 0 0.01  "
    "0.272 0.534 0.131 0 0.01  0 0 0 1 0";
  GeglRectangle  region = photo_region ();
  TlDialogPanel *panel  = new_panel ("color-matrix", &region, TRUE);
  TlHostSettings settings;
  GtkWidget     *entry;
  GList         *cells;

  set (panel, "preview", "off");

  settings = settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 16);
  g_assert_cmpfloat (settings.values[0].v[5], ==, 1.0);

  set (panel, "matrix", sepia);
  settings = settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 20);
  g_assert_cmpfloat (settings.values[0].v[1], ==, 0.769);
  g_assert_cmpfloat (settings.values[0].v[4], ==, 0.01);
  g_assert_cmpfloat (settings.values[0].v[18], ==, 1.0);
  g_assert_true (tl_dialog_panel_get_runnable (panel));

  /* A cell that is not a number: explained, and OK goes. */
  entry = find_widget (GTK_WIDGET (panel), GTK_TYPE_ENTRY);
  cells = gtk_container_get_children (GTK_CONTAINER (gtk_widget_get_parent (entry)));
  gtk_entry_set_text (GTK_ENTRY (g_list_last (cells)->data), "one");
  g_list_free (cells);
  g_assert_false (tl_dialog_panel_get_runnable (panel));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), "'one' is not a number"));
  /* Another cell changing does not hide the bad one. */
  gtk_entry_set_text (GTK_ENTRY (entry), "1");
  g_assert_false (tl_dialog_panel_get_runnable (panel));

  set (panel, "matrix", "1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1");
  g_assert_true (tl_dialog_panel_get_runnable (panel));
  settings = settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 16);

  destroy (GTK_WIDGET (panel), panel);
}

/* The spin button and slider of the filter parameter described by
 * DESCRIPTION (their tooltip).
 */
static void
find_number (GtkWidget    *widget,
             const gchar  *description,
             GtkWidget   **spin,
             GtkWidget   **scale)
{
  g_autofree gchar *tooltip = gtk_widget_get_tooltip_text (widget);
  GList            *children, *l;

  if (g_strcmp0 (tooltip, description) == 0 && GTK_IS_SPIN_BUTTON (widget))
    *spin = widget;
  else if (g_strcmp0 (tooltip, description) == 0 && GTK_IS_SCALE (widget))
    *scale = widget;
  if (! GTK_IS_CONTAINER (widget))
    return;

  children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (l = children; l; l = l->next)
    find_number (l->data, description, spin, scale);
  g_list_free (children);
}

/* Numbers are shown as the registry says: whole ones without digits, the
 * spin button over the whole range and the slider over the usual part.
 */
static void
test_digits (void)
{
  GeglRectangle      region = photo_region ();
  const TlFilter    *median = tl_filter_lookup ("median-blur", NULL);
  const TlFilter    *blur   = tl_filter_lookup ("gaussian-blur", NULL);
  const TlParamSpec *radius = tl_filter_find_param (median, "radius", NULL);
  const TlParamSpec *std_dev = tl_filter_find_param (blur, "std-dev", NULL);
  TlHostSettings     settings;
  TlDialogPanel     *panel;
  GtkWidget         *dialog;
  GtkWidget         *spin = NULL, *scale = NULL;
  GtkAdjustment     *slider;
  gboolean           handled = FALSE;

  tl_host_settings_init (&settings, median);
  dialog = tl_dialog_new (median, &settings, tl_image_get_buffer (photo),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_panel_set_devices (panel, fake_devices,
                               G_N_ELEMENTS (fake_devices), 0);
  set (panel, "preview", "off");

  find_number (GTK_WIDGET (panel), _(radius->description), &spin, &scale);
  g_assert_nonnull (spin);
  g_assert_nonnull (scale);
  g_assert_cmpuint (radius->digits, ==, 0);
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (spin)), ==, 0);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "3");
  g_assert_cmpfloat (gtk_adjustment_get_lower (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin))), ==, -400.0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin))), ==, 400.0);
  slider = gtk_range_get_adjustment (GTK_RANGE (scale));
  g_assert_cmpfloat (gtk_adjustment_get_lower (slider), ==, radius->ui_min);
  g_assert_cmpfloat (gtk_adjustment_get_upper (slider), ==, radius->ui_max);
  g_assert_cmpfloat (gtk_adjustment_get_value (slider), ==, 3.0);

  /* Past the slider's end the number goes on; the slider stops there. */
  set (panel, "radius", "250");
  g_assert_cmpfloat (settings_of (panel).values[1].v[0], ==, 250.0);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "250");
  g_assert_cmpfloat (gtk_adjustment_get_value (slider), ==, radius->ui_max);

  /* A drag lands on whole numbers; typing moves the slider too. */
  g_signal_emit_by_name (scale, "change-value", GTK_SCROLL_JUMP, 7.4, &handled);
  g_assert_cmpfloat (settings_of (panel).values[1].v[0], ==, 7.0);
  gtk_entry_set_text (GTK_ENTRY (spin), "12");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  g_assert_cmpfloat (settings_of (panel).values[1].v[0], ==, 12.0);
  g_assert_cmpfloat (gtk_adjustment_get_value (slider), ==, 12.0);
  g_assert_true (tl_dialog_panel_get_runnable (panel));

  /* The filter page with its whole and fractional numbers. */
  set (panel, "page", "filter");
  show_and_wait (dialog, panel);
  save_screenshot (dialog, "en-digits");
  destroy (dialog, panel);

  /* A fraction shows the digits it was given. */
  panel = new_panel ("gaussian-blur", &region, TRUE);
  set (panel, "preview", "off");
  spin  = scale = NULL;
  find_number (GTK_WIDGET (panel), _(std_dev->description), &spin, &scale);
  g_assert_nonnull (spin);
  g_assert_nonnull (scale);
  g_assert_cmpuint (std_dev->digits, >, 0);
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (spin)), ==,
                    std_dev->digits);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "2.00");
  set (panel, "std-dev", "5.25");
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "5.25");
  g_assert_cmpfloat (settings_of (panel).values[0].v[0], ==, 5.25);
  g_signal_emit_by_name (scale, "change-value", GTK_SCROLL_JUMP, 7.4, &handled);
  g_assert_cmpfloat_with_epsilon (settings_of (panel).values[0].v[0], 7.4, 1e-9);

  destroy (GTK_WIDGET (panel), panel);
}

/* The summary against the planner. */

typedef struct
{
  const gchar *shape;
  const gchar *mode;
  const gchar *swizzle;
  const gchar *pixels;
} Choice;

static void
check_summary (TlDialogPanel       *panel,
               const TlProbeDevice *device,
               const Choice        *choice,
               const GeglRectangle *region)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(GString) launches = g_string_new (NULL);
  g_autofree gchar  *text = NULL, *count = NULL, *mode = NULL;
  TlChoice           planned;
  TlPlan             expected, shown;
  TlLimits           limits;
  guint              i;

  tl_choice_init (&planned);
  g_assert_true (tl_shape_from_string (choice->shape, &planned, NULL));
  g_assert_true (tl_mode_from_string (choice->mode, &planned.mode, NULL));
  planned.swizzle         = atoi (choice->swizzle);
  planned.pixels_per_item = atoi (choice->pixels);

  if (! tl_plan_compute (&device->limits, &planned, region->width,
                         region->height, &expected, &error))
    {
      /* What the planner refuses, the dialog refuses, with its words. */
      g_assert_false (tl_dialog_panel_get_runnable (panel));
      g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), error->message));
      g_assert_false (tl_dialog_panel_get_plan (panel, NULL, NULL));
      return;
    }

  g_assert_true (tl_dialog_panel_get_runnable (panel));
  g_assert_null (tl_dialog_panel_get_message (panel));
  g_assert_true (tl_dialog_panel_get_plan (panel, &limits, &shown));
  g_assert_cmpmem (&limits, sizeof (limits), &device->limits, sizeof (limits));
  g_assert_cmpmem (shown.launches, sizeof (shown.launches),
                   expected.launches, sizeof (expected.launches));
  g_assert_cmpuint (shown.idle_threads, ==, expected.idle_threads);

  text = g_strdup_printf ("%s, P = %u, M = %u", device->name,
                          device->limits.simd_width,
                          device->limits.max_group_size);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "device"), ==, text);
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("%d × %d pixels", region->width, region->height);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "region"), ==, text);
  g_clear_pointer (&text, g_free);

  count = tl_summary_format_count ((guint64) expected.local[0] * expected.local[1]);
  text  = g_strdup_printf ("%u × %u = %s work-items", expected.local[0],
                           expected.local[1], count);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "local"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  count = tl_summary_format_count (expected.group_count);
  text  = g_strdup_printf ("%u × %u = %s group%s", expected.groups[0],
                           expected.groups[1], count,
                           expected.group_count == 1 ? "" : "s");
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "groups"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  for (i = 0; i < expected.n_launches; i++)
    g_string_append_printf (launches,
                            "%s%u: %zu × %zu at offset (%zu, %zu), groups of %zu × %zu",
                            i ? "\n" : "", i + 1,
                            expected.launches[i].global[0],
                            expected.launches[i].global[1],
                            expected.launches[i].offset[0],
                            expected.launches[i].offset[1],
                            expected.launches[i].local[0],
                            expected.launches[i].local[1]);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "launches"), ==, launches->str);

  count = tl_summary_format_count (expected.idle_threads);
  text  = g_strdup_printf ("%s (%.1f %%)", count,
                           100.0 * expected.idle_threads / expected.threads);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "idle"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  count = tl_summary_format_count (expected.threads);
  g_assert_true (g_str_has_prefix (tl_dialog_panel_get_summary (panel, "items"), count));

  /* Native or emulated, as the planner decided for this device. */
  text = g_strdup (tl_dialog_panel_get_summary (panel, "non-uniform"));
  if (expected.mode == TL_MODE_UNIFORM)
    g_assert_true (g_str_has_prefix (text, "not used"));
  else if (expected.emulated)
    g_assert_true (g_str_has_prefix (text, "emulated"));
  else
    g_assert_true (g_str_has_prefix (text, "native"));
  g_assert_cmpuint (expected.emulated, ==,
                    expected.mode != TL_MODE_UNIFORM &&
                    (expected.mode == TL_MODE_EMULATED ||
                     ! device->limits.native_non_uniform));
  g_clear_pointer (&text, g_free);

  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "rule"), ==,
                   tl_summary_translate_rule (expected.shape_rule));

  if (expected.swizzle)
    {
      text = g_strdup_printf ("tiles %u groups wide over %u × %u groups",
                              expected.swizzle, expected.swizzle_grid[0],
                              expected.swizzle_grid[1]);
      g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "swizzle"), ==, text);
      g_clear_pointer (&text, g_free);
    }
  else
    {
      g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "swizzle"), ==, "off");
    }
}

/* Every rule the planner can name has its sentence in the summary: an
 * untranslated engine string there would mean a rule the table lacks.
 */
static void
test_summary_rules (void)
{
  static const TlShapeKind kinds[] = { TL_SHAPE_AUTO, TL_SHAPE_SEED,
                                       TL_SHAPE_CUSTOM, TL_SHAPE_DRIVER };
  guint k, cpu, block;

  for (k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (cpu = 0; cpu < 2; cpu++)
      for (block = 0; block < 4; block++)
        {
          g_autoptr(GError) error = NULL;
          TlLimits          limits;
          TlChoice          choice;
          TlPlan            plan;
          const gchar      *text;

          memset (&limits, 0, sizeof (limits));
          limits.simd_width       = cpu ? 8 : 32;
          limits.max_group_size   = cpu ? 4096 : 256;
          limits.max_item_size[0] = 4096;
          limits.max_item_size[1] = 4096;
          limits.device_kind      = cpu ? TL_DEVICE_KIND_CPU : TL_DEVICE_KIND_GPU;
          limits.reads_block      = block & 1;
          limits.float_storage    = block >> 1;
          tl_choice_init (&choice);
          choice.shape_kind = kinds[k];
          choice.shape[0]   = 8;
          choice.shape[1]   = 8;
          g_assert_true (tl_plan_compute (&limits, &choice, 640, 480, &plan,
                                          &error));
          g_assert_no_error (error);
          text = tl_summary_translate_rule (plan.shape_rule);
          g_test_message ("%s -> %s", plan.shape_rule, text);
          g_assert_cmpstr (text, !=, plan.shape_rule);
        }
}

static void
test_summary (void)
{
  static const Choice choices[] =
  {
    { "auto",  "uniform",     "0", "1" },
    { "seed",  "non-uniform", "0", "1" },
    { "32x8",  "non-uniform", "0", "1" },
    { "16x16", "emulated",    "4", "1" },
    { "8x8",   "uniform",     "3", "2" },
    { "64x4",  "non-uniform", "0", "3" },
    { "32x32", "uniform",     "0", "1" },   /* over M on two devices */
    { "7x13",  "non-uniform", "2", "1" },
    { "4x128", "uniform",     "0", "1" },   /* over Narrow-y's 64 in y */
  };
  /* The whole photo, and an odd selection with partial groups. */
  const GeglRectangle regions[] =
  {
    photo_region (),
    { 37, 21, 301, 157 },
  };
  guint r, d, c;

  for (r = 0; r < G_N_ELEMENTS (regions); r++)
    {
      TlDialogPanel *panel = new_panel ("invert", &regions[r], TRUE);

      set (panel, "preview", "off");
      for (d = 0; d < G_N_ELEMENTS (fake_devices); d++)
        {
          set (panel, "device", fake_devices[d].name);
          for (c = 0; c < G_N_ELEMENTS (choices); c++)
            {
              g_test_message ("%dx%d on %s: %s %s swizzle %s k %s",
                              regions[r].width, regions[r].height,
                              fake_devices[d].name, choices[c].shape,
                              choices[c].mode, choices[c].swizzle,
                              choices[c].pixels);
              set (panel, "shape", choices[c].shape);
              set (panel, "mode", choices[c].mode);
              set (panel, "swizzle", choices[c].swizzle);
              set (panel, "pixels-per-item", choices[c].pixels);
              check_summary (panel, &fake_devices[d], &choices[c], &regions[r]);
            }
        }
      destroy (GTK_WIDGET (panel), panel);
    }
}

/* Limits: explained in place, OK off, nothing clamped. */

static gboolean
respond (gpointer data)
{
  gtk_dialog_response (GTK_DIALOG (data), GTK_RESPONSE_OK);
  return G_SOURCE_REMOVE;
}

static void
test_limits (void)
{
  GeglRectangle   region   = photo_region ();
  const TlFilter *filter   = tl_filter_lookup ("gaussian-blur", NULL);
  TlHostSettings  settings;
  TlHostSettings  before;
  TlDialogPanel  *panel;
  GtkWidget      *dialog, *info_bar;
  const gchar    *message;

  tl_host_settings_init (&settings, filter);
  before = settings;
  dialog = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_panel_set_devices (panel, fake_devices, G_N_ELEMENTS (fake_devices), 0);
  set (panel, "preview", "off");
  info_bar = find_widget (GTK_WIDGET (panel), GTK_TYPE_INFO_BAR);

  g_assert_true (ok_sensitive (dialog));
  g_assert_false (message_shown (info_bar));

  /* 32x32 is 1024 work-items; the NVIDIA-like kernel takes 256. */
  set (panel, "device", "NVIDIA-like");
  set (panel, "shape", "32x32");
  g_assert_false (ok_sensitive (dialog));
  g_assert_true (message_shown (info_bar));
  message = tl_dialog_panel_get_message (panel);
  g_assert_nonnull (strstr (message, "These choices cannot run on NVIDIA-like."));
  g_assert_nonnull (strstr (message, "M = 256"));
  g_assert_nonnull (strstr (message, "CL_KERNEL_WORK_GROUP_SIZE"));
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "local"), ==, "—");
  /* Not clamped: the settings still say 32x32. */
  g_assert_cmpint (settings_of (panel).shape[0], ==, 32);
  g_assert_cmpint (settings_of (panel).shape[1], ==, 32);

  /* Fine on a device that allows it. */
  set (panel, "device", "PoCL-like");
  g_assert_true (ok_sensitive (dialog));
  g_assert_false (message_shown (info_bar));

  /* A per-dimension limit. */
  set (panel, "device", "Narrow-y");
  set (panel, "shape", "4x128");
  g_assert_false (ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "over the device's limit of 64 work-items in y"));

  /* The spin buttons go to 4096 whatever the device: the planner says no. */
  set (panel, "device", "PoCL-like");
  set (panel, "shape", "4096x4096");
  g_assert_cmpint (settings_of (panel).shape[0], ==, 4096);
  g_assert_cmpint (settings_of (panel).shape[1], ==, 4096);
  g_assert_false (ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), "M = 4096"));

  /* The overlay's rules: compute units only where the device names them,
   * the checkerboard not for launch order or compute units.
   */
  set (panel, "shape", "auto");
  set (panel, "overlay", "compute-unit");
  g_assert_false (ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "PoCL-like does not say which compute unit"));
  set (panel, "device", "NVIDIA-like");
  g_assert_true (ok_sensitive (dialog));
  set (panel, "overlay-style", "checkerboard");
  g_assert_false (ok_sensitive (dialog));
  /* The procedures' own words (tl-host-check.c), not the dialog's. */
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "the checkerboard style shows work-groups, SIMD "
                            "groups or lanes, not compute-unit"));
  set (panel, "overlay", "lane");
  g_assert_true (ok_sensitive (dialog));
  set (panel, "overlay", "none");
  set (panel, "overlay-style", "tint");
  set (panel, "device", "PoCL-like");
  set (panel, "shape", "4096x4096");
  g_assert_false (ok_sensitive (dialog));

  /* OK pressed anyway (a script): refused, settings untouched. */
  g_idle_add (respond, dialog);
  g_assert_false (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpmem (&settings, sizeof (settings), &before, sizeof (before));

  /* Back within the limits: OK, and the caller's settings are the
   * dialog's.
   */
  set (panel, "shape", "64x16");
  set (panel, "std-dev", "3");
  g_assert_true (ok_sensitive (dialog));
  g_idle_add (respond, dialog);
  g_assert_true (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpint (settings.shape[0], ==, 64);
  g_assert_cmpint (settings.shape[1], ==, 16);
  g_assert_cmpfloat (settings.values[0].v[0], ==, 3.0);
  g_assert_cmpstr (settings.device, ==, "PoCL-like");

  destroy (dialog, panel);
}

/* Reset, Help and Cancel. */

static gboolean help_called;

static void
help (gpointer data)
{
  help_called = GPOINTER_TO_INT (data) == 42;
}

static gboolean
after_reset (gpointer data)
{
  TlDialogPanel *panel = tl_dialog_get_panel (TL_DIALOG (data));
  TlHostSettings defaults, shown;

  tl_host_settings_init (&defaults, tl_filter_lookup ("color-matrix", NULL));
  shown = settings_of (panel);
  g_assert_cmpmem (&shown, sizeof (shown), &defaults, sizeof (defaults));
  g_assert_true (ok_sensitive (data));
  g_assert_true (help_called);

  gtk_dialog_response (GTK_DIALOG (data), GTK_RESPONSE_CANCEL);
  return G_SOURCE_REMOVE;
}

static gboolean
press_reset (gpointer data)
{
  g_idle_add (after_reset, data);
  gtk_dialog_response (GTK_DIALOG (data), TL_DIALOG_RESPONSE_RESET);
  return G_SOURCE_REMOVE;
}

/* Help first: the dialog stays open for Reset. */
static gboolean
press_help (gpointer data)
{
  g_idle_add (press_reset, data);
  gtk_dialog_response (GTK_DIALOG (data), GTK_RESPONSE_HELP);
  return G_SOURCE_REMOVE;
}

static void
test_reset (void)
{
  GeglRectangle   region = photo_region ();
  const TlFilter *filter = tl_filter_lookup ("color-matrix", NULL);
  TlHostSettings  settings, before;
  TlDialogPanel  *panel;
  GtkWidget      *dialog;

  /* Remembered values that are not the defaults. */
  tl_host_settings_init (&settings, filter);
  settings.values[0].v[0] = 0.5;
  settings.shape[0]       = 32;
  settings.shape[1]       = 32;
  settings.mode           = TL_MODE_EMULATED;
  settings.swizzle        = 2;
  settings.overlay        = 2;
  settings.overlay_style  = 1;
  g_strlcpy (settings.device, "NVIDIA-like", sizeof (settings.device));
  before = settings;

  dialog = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_set_help_func (TL_DIALOG (dialog), help, GINT_TO_POINTER (42), NULL);
  tl_dialog_panel_set_devices (panel, fake_devices, G_N_ELEMENTS (fake_devices), 1);
  set (panel, "preview", "off");

  /* Shown as remembered, and 32x32 is over the NVIDIA-like M. */
  {
    TlHostSettings shown = settings_of (panel);

    g_assert_cmpmem (&shown, sizeof (shown), &before, sizeof (before));
  }
  g_assert_false (ok_sensitive (dialog));

  help_called = FALSE;
  g_idle_add (press_help, dialog);
  g_assert_false (tl_dialog_run (TL_DIALOG (dialog)));
  /* Cancel: the caller's settings are as they were. */
  g_assert_cmpmem (&settings, sizeof (settings), &before, sizeof (before));

  destroy (dialog, panel);
}

/* A blur reads a border around the region: the kernels run on the
 * region grown by the halo, within the layer, and so does the summary.
 */
static void
test_halo (void)
{
  static const struct
  {
    GeglRectangle region;
    const gchar  *std_dev;
  } cases[] =
  {
    { { 100, 80, 200, 100 }, "2" },
    { { 10, 10, 100, 100 }, "10" },     /* cut at the layer's corner */
    { { 0, 0, 600, 400 }, "3" },         /* the whole layer: no border */
  };
  const TlFilter *filter = tl_filter_lookup ("gaussian-blur", NULL);
  GeglRectangle   extent = photo_region ();
  guint           i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TlDialogPanel    *panel = new_panel ("gaussian-blur", &cases[i].region, TRUE);
      TlHostSettings    settings;
      g_autofree gchar *text = NULL;
      GeglRectangle     area = cases[i].region;
      TlPlan            plan;
      guint             halo;

      set (panel, "preview", "off");
      set (panel, "device", "PoCL-like");
      set (panel, "std-dev", cases[i].std_dev);
      settings = settings_of (panel);
      halo = tl_filter_halo (filter, settings.values);
      g_assert_cmpuint (halo, >, 0);
      area.x      -= halo;
      area.y      -= halo;
      area.width  += 2 * halo;
      area.height += 2 * halo;
      gegl_rectangle_intersect (&area, &area, &extent);

      g_assert_true (tl_dialog_panel_get_plan (panel, NULL, &plan));
      g_assert_cmpuint (plan.width, ==, area.width);
      g_assert_cmpuint (plan.height, ==, area.height);
      if (gegl_rectangle_equal (&area, &cases[i].region))
        text = g_strdup_printf ("%d × %d pixels", area.width, area.height);
      else
        text = g_strdup_printf ("%d × %d pixels: the region and the border "
                                "the filter reads", area.width, area.height);
      g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "region"), ==, text);

      destroy (GTK_WIDGET (panel), panel);
    }
}

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
  dialog  = tl_dialog_new (NULL, &settings, tl_image_get_buffer (photo),
                           &region, NULL);
  panel   = tl_dialog_get_panel (TL_DIALOG (dialog));
  preview = TL_PREVIEW (tl_dialog_panel_get_preview (panel));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (dialog)), ==,
                   "ThreadLens: Thread Map");
  notebook = find_widget (GTK_WIDGET (panel), GTK_TYPE_NOTEBOOK);
  g_assert_cmpint (gtk_notebook_get_n_pages (GTK_NOTEBOOK (notebook)), ==, 2);

  g_assert_false (tl_dialog_panel_set_value (panel, "overlay", "none", &error));
  g_clear_error (&error);
  set (panel, "overlay", "lane");
  set (panel, "overlay-style", "checkerboard");
  set (panel, "shape", "16x16");
  set (panel, "zoom", "4");
  set (panel, "grid", "on");
  set (panel, "page", "overlay");
  show_and_wait (dialog, panel);
  g_assert_null (tl_preview_get_error (preview));
  g_assert_true (ok_sensitive (dialog));
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
  save_screenshot (dialog, "en-thread-map");

  g_idle_add (respond, dialog);
  g_assert_true (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpstr (tl_host_overlay_names[settings.overlay], ==, "lane");
  g_assert_cmpint (settings.shape[0], ==, 16);

  destroy (dialog, panel);
}

/* Mnemonics, in every filter's dialog: unique, and none of the letters
 * the buttons of either host's dialog take (OK, Cancel, Reset, Help;
 * GIMP 3's Load and Save).
 */
static void
collect_mnemonics (GtkWidget  *widget,
                   gpointer    data)
{
  GHashTable *seen = data;

  if (GTK_IS_LABEL (widget) && gtk_label_get_use_underline (GTK_LABEL (widget)))
    {
      guint        keyval = gdk_keyval_to_lower (gtk_label_get_mnemonic_keyval (GTK_LABEL (widget)));
      const gchar *text   = gtk_label_get_label (GTK_LABEL (widget));

      if (keyval != GDK_KEY_VoidSymbol)
        {
          const gchar *other = g_hash_table_lookup (seen, GUINT_TO_POINTER (keyval));

          if (other)
            g_error ("mnemonic '%s' clashes with '%s'", text, other);
          g_hash_table_insert (seen, GUINT_TO_POINTER (keyval), (gpointer) text);
        }
    }

  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), collect_mnemonics, data);
}

static void
test_mnemonics (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i;

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    {
      GeglRectangle     region = photo_region ();
      const TlFilter   *filter = filters[i];
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
      g_autoptr(GHashTable) panel_seen = g_hash_table_new (NULL, NULL);
      TlHostSettings    settings;
      GtkWidget        *dialog;
      TlDialogPanel    *panel;
      const gchar      *reserved = "ocrhls";

      tl_host_settings_init (&settings, filter);
      dialog = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                              &region, NULL);
      panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
      tl_dialog_set_help_func (TL_DIALOG (dialog), help, NULL, NULL);
      set (panel, "preview", "off");

      collect_mnemonics (dialog, seen);
      g_assert_cmpuint (g_hash_table_size (seen), >=, 12);
      collect_mnemonics (GTK_WIDGET (panel), panel_seen);
      for (; *reserved; reserved++)
        if (g_hash_table_contains (panel_seen, GUINT_TO_POINTER ((guint) *reserved)))
          g_error ("%s: the panel uses '%c', which a dialog button takes",
                   filter->name, *reserved);

      destroy (dialog, panel);
    }
}

/* The preview and the summary on the real device. */

static void
show_and_wait (GtkWidget     *dialog,
               TlDialogPanel *panel)
{
  gtk_widget_show (dialog);
  while (! gtk_widget_get_mapped (dialog))
    g_main_context_iteration (NULL, TRUE);
  wait_for (panel);
}

static void
test_preview (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(TlCodec)   codec   = NULL;
  GeglRectangle        region  = photo_region ();
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
  dialog  = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                           &region, NULL);
  panel   = tl_dialog_get_panel (TL_DIALOG (dialog));
  preview = TL_PREVIEW (tl_dialog_panel_get_preview (panel));
  show_and_wait (dialog, panel);

  g_assert_null (tl_preview_get_error (preview));
  g_assert_true (ok_sensitive (dialog));

  /* The summary is the planner's on the real device's kernel limits, in
   * the program variant the layer's storage runs.
   */
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);
  codec = tl_codec_new (gegl_buffer_get_format (tl_image_get_buffer (photo)),
                        filter->format, &error);
  g_assert_no_error (error);
  tl_choice_init (&choice);
  choice.pixels_per_item = 0;     /* the filter's default for this storage */
  g_assert_true (tl_run_plan_filter (context, filter, codec, &choice, region.width,
                                     region.height, &limits, &plan, &error));
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
        gegl_buffer_get (tl_image_get_buffer (photo), &pixel, 1.0,
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
  set (panel, "zoom", "4");
  wait_for (panel);
  g_assert_cmpuint (tl_preview_get_renders (preview), >, renders);
  g_assert_cmpint (tl_preview_get_filtered (preview, &area) != NULL, ==, TRUE);
  g_assert_cmpint (area.width, <, 400);

  /* The thread map over the filtered pixels, on the real groups. */
  g_assert_null (tl_preview_get_overlay (preview, NULL));
  set (panel, "overlay", "work-group");
  wait_for (panel);
  g_assert_null (tl_preview_get_error (preview));
  g_assert_nonnull (tl_preview_get_overlay (preview, &area));
  g_assert_cmpint ((area.x - region.x) % (2 * shown.local[0] * shown.pixels_per_item), ==, 0);

  set (panel, "preview", "off");
  wait_for (panel);
  g_assert_null (tl_preview_get_filtered (preview, NULL));

  destroy (dialog, panel);
}

/* Screenshots. */

static void
save_screenshot (GtkWidget   *window,
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

static void
screenshots (const gchar *language)
{
  static const gchar *sepia =
    "0.393 0.769 0.189 0 0.02  0.349 0.686 0.168 0 0.02  "
    "0.272 0.534 0.131 0 0.02  0 0 0 1 0";
  GeglRectangle      region = photo_region ();
  const TlFilter    *filter = tl_filter_lookup ("color-matrix", NULL);
  TlHostSettings     settings;
  TlDialogPanel     *panel;
  GtkWidget         *dialog;
  g_autofree gchar  *name = NULL;

  tl_host_settings_init (&settings, filter);
  dialog = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_set_help_func (TL_DIALOG (dialog), help, NULL, NULL);
  set (panel, "matrix", sepia);
  set (panel, "shape", "32x8");
  set (panel, "mode", "non-uniform");
  set (panel, "zoom", "2");
  set (panel, "grid", "on");
  set (panel, "page", "dispatch");
  show_and_wait (dialog, panel);
  g_assert_null (tl_preview_get_error (TL_PREVIEW (tl_dialog_panel_get_preview (panel))));
  name = g_strdup_printf ("%s-dispatch", language);
  save_screenshot (dialog, name);

  set (panel, "page", "filter");
  set (panel, "grid", "off");
  set (panel, "zoom", "1");
  wait_for (panel);
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-filter", language);
  save_screenshot (dialog, name);

  /* Over the limit on the real device: the message in place. */
  set (panel, "page", "dispatch");
  set (panel, "shape", "4096x64");
  wait_for (panel);
  g_assert_false (ok_sensitive (dialog));
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-limit", language);
  save_screenshot (dialog, name);

  /* The bottom-right corner in uniform mode: partial groups, and the
   * padding where work-items idle, hatched.
   */
  set (panel, "shape", "32x32");
  set (panel, "mode", "uniform");
  set (panel, "page", "overlay");
  set (panel, "overlay", "work-group");
  set (panel, "grid", "on");
  set (panel, "zoom", "4");
  tl_preview_set_centre (TL_PREVIEW (tl_dialog_panel_get_preview (panel)),
                         region.width - 20, region.height - 20);
  wait_for (panel);
  g_clear_pointer (&name, g_free);
  name = g_strdup_printf ("%s-overlay", language);
  save_screenshot (dialog, name);

  destroy (dialog, panel);
}

static void
find_button (GtkWidget *widget,
             gpointer   data)
{
  GtkWidget **found = data;

  if (*found)
    return;
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) &&
      strcmp (gtk_button_get_label (GTK_BUTTON (widget)), "Tu_ne") == 0)
    *found = widget;
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_button, data);
}

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
  GeglRectangle   region = photo_region ();
  const TlFilter *filter = tl_filter_lookup ("sepia", NULL);
  GeglBuffer     *buffer = tl_image_get_buffer (photo);
  TlHostSettings  settings;
  TlDialogPanel  *panel;
  GtkWidget      *dialog, *tune = NULL, *progress = NULL;
  TlLimits        limits;
  TlPlan          shown;
  gint64          start;

  tl_host_settings_init (&settings, filter);
  dialog = tl_dialog_new (filter, &settings, buffer, &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  show_and_wait (dialog, panel);
  find_button (dialog, &tune);
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
  wait_for (panel);
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

  destroy (dialog, panel);
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
  GeglRectangle        region  = photo_region ();
  const TlFilter      *filter  = tl_filter_lookup ("invert", NULL);
  GeglBuffer          *buffer  = tl_image_get_buffer (photo);
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
  show_and_wait (dialog, panel);
  g_assert_true (g_str_has_prefix (tl_dialog_panel_get_summary (panel, "rule"),
                                   "automatic, not tuned yet"));

  find_button (dialog, &tune);
  find_progress (dialog, &progress);
  g_assert_nonnull (tune);
  gtk_button_clicked (GTK_BUTTON (tune));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "_Cancel");
  wait_for (panel);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (tune)), ==, "Tu_ne");
  g_assert_true (gtk_widget_get_sensitive (tune));
  g_test_message ("progress: %s",
                  gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)));
  g_assert_true (g_str_has_prefix (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (progress)),
                                   "Tuned: "));
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (progress)), ==, 1.0);
  save_screenshot (dialog, "tuned");

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
                                        filter, tl_codec_get_variant (codec),
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

  destroy (dialog, panel);
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
      GeglRectangle   region = photo_region ();
      const TlFilter *filter = tl_filter_lookup ("invert", NULL);
      TlHostSettings  settings;
      TlDialogPanel  *panel;
      GtkWidget      *dialog, *tune = NULL;

      tl_host_settings_init (&settings, filter);
      dialog = tl_dialog_new (filter, &settings, tl_image_get_buffer (photo),
                              &region, NULL);
      panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
      show_and_wait (dialog, panel);
      g_assert_false (gtk_widget_get_visible (gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog),
                                                                                 GTK_RESPONSE_HELP)));
      g_assert_true (ok_sensitive (dialog));
      g_assert_true (g_str_has_prefix (tl_dialog_panel_get_message (panel),
                                       "No OpenCL platform: the filter will run "
                                       "on the CPU, through its C reference.\n"));
      g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                                "no OpenCL platform found"));
      save_screenshot (dialog, "en-no-opencl");
      find_button (dialog, &tune);
      g_assert_nonnull (tune);
      g_assert_false (gtk_widget_get_sensitive (tune));

      set (panel, "overlay", "work-group");
      g_assert_false (ok_sensitive (dialog));
      g_assert_true (g_str_has_prefix (tl_dialog_panel_get_message (panel),
                                       "No OpenCL device is available.\n"));
      destroy (dialog, panel);
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
  g_autofree gchar *path  = NULL;
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
  path  = g_test_build_filename (G_TEST_DIST, "images", "coffee.png", NULL);
  photo = tl_image_load (path, &error);
  g_assert_no_error (error);

  g_test_add_func ("/ui/settings", test_settings);
  g_test_add_func ("/ui/matrix", test_matrix);
  g_test_add_func ("/ui/digits", test_digits);
  g_test_add_func ("/ui/summary", test_summary);
  g_test_add_func ("/ui/summary-rules", test_summary_rules);
  g_test_add_func ("/ui/limits", test_limits);
  g_test_add_func ("/ui/reset", test_reset);
  g_test_add_func ("/ui/halo", test_halo);
  g_test_add_func ("/ui/thread-map", test_thread_map);
  g_test_add_func ("/ui/mnemonics", test_mnemonics);
  g_test_add_func ("/ui/preview", test_preview);
  g_test_add_func ("/ui/no-opencl", test_no_opencl);
  g_test_add_func ("/ui/screenshots/en", test_screenshots_en);
  g_test_add_func ("/ui/screenshots/ja", test_screenshots_ja);
  /* Last: the tuning data it leaves would change "auto" for the others. */
  g_test_add_func ("/ui/tune-cancel", test_tune_cancel);
  g_test_add_func ("/ui/tuned", test_tuned);

  status = g_test_run ();

  tl_image_free (photo);
  if (cache)
    remove_tree (cache);
  g_free (po_dir);

  return status;
}
