/* ThreadLens tests: the dialog's panel on fake devices: its widgets set
 * as a user would and the settings it hands back, the colour matrix's
 * cells, numbers shown with the registry's digits, limits explained in
 * place with OK off and nothing clamped, Reset, Help and Cancel, the
 * border a blur reads, and every filter's mnemonics.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"

#include "ui-fixtures.h"

/* Settings. */

static void
test_settings (void)
{
  GeglRectangle  region = ui_photo_region ();
  TlDialogPanel *panel  = ui_new_panel ("gaussian-blur", &region, TRUE);
  TlHostSettings settings;

  ui_set (panel, "preview", "off");

  settings = ui_settings_of (panel);
  g_assert_cmpfloat (settings.values[0].v[0], ==, 2.0);
  g_assert_cmpint (settings.shape[0], ==, 0);
  g_assert_cmpint (settings.shape[1], ==, 0);
  g_assert_cmpint (settings.mode, ==, TL_MODE_UNIFORM);
  g_assert_cmpstr (settings.device, ==, "");

  ui_set (panel, "std-dev", "5.5");
  ui_set (panel, "shape", "32x8");
  ui_set (panel, "mode", "non-uniform");
  ui_set (panel, "swizzle", "4");
  ui_set (panel, "pixels-per-item", "2");
  ui_set (panel, "overlay", "work-group");
  ui_set (panel, "overlay-opacity", "0.25");
  ui_set (panel, "overlay-style", "checkerboard");
  ui_set (panel, "device", "Native-NU");

  settings = ui_settings_of (panel);
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
  ui_set (panel, "shape-height", "12");
  settings = ui_settings_of (panel);
  g_assert_cmpint (settings.shape[0], ==, 32);
  g_assert_cmpint (settings.shape[1], ==, 12);
  ui_set (panel, "shape", "auto");
  ui_set (panel, "swizzle", "0");
  ui_set (panel, "pixels-per-item", "1");
  ui_set (panel, "device", "");
  settings = ui_settings_of (panel);
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
    settings = ui_settings_of (panel);
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

  ui_destroy (GTK_WIDGET (panel), panel);
}

static void
test_matrix (void)
{
  static const gchar *sepia =
    "0.393 0.769 0.189 0 0.01  0.349 0.686 0.168 0 0.01  "
    "0.272 0.534 0.131 0 0.01  0 0 0 1 0";
  GeglRectangle  region = ui_photo_region ();
  TlDialogPanel *panel  = ui_new_panel ("color-matrix", &region, TRUE);
  TlHostSettings settings;
  GtkWidget     *entry;
  GList         *cells;

  ui_set (panel, "preview", "off");

  settings = ui_settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 16);
  g_assert_cmpfloat (settings.values[0].v[5], ==, 1.0);

  ui_set (panel, "matrix", sepia);
  settings = ui_settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 20);
  g_assert_cmpfloat (settings.values[0].v[1], ==, 0.769);
  g_assert_cmpfloat (settings.values[0].v[4], ==, 0.01);
  g_assert_cmpfloat (settings.values[0].v[18], ==, 1.0);
  g_assert_true (tl_dialog_panel_get_runnable (panel));

  /* A cell that is not a number: explained, and OK goes. */
  entry = ui_find_widget (GTK_WIDGET (panel), GTK_TYPE_ENTRY);
  cells = gtk_container_get_children (GTK_CONTAINER (gtk_widget_get_parent (entry)));
  gtk_entry_set_text (GTK_ENTRY (g_list_last (cells)->data), "one");
  g_list_free (cells);
  g_assert_false (tl_dialog_panel_get_runnable (panel));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), "'one' is not a number"));
  /* Another cell changing does not hide the bad one. */
  gtk_entry_set_text (GTK_ENTRY (entry), "1");
  g_assert_false (tl_dialog_panel_get_runnable (panel));

  ui_set (panel, "matrix", "1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1");
  g_assert_true (tl_dialog_panel_get_runnable (panel));
  settings = ui_settings_of (panel);
  g_assert_cmpuint (settings.values[0].n, ==, 16);

  ui_destroy (GTK_WIDGET (panel), panel);
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
  GeglRectangle      region = ui_photo_region ();
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
  dialog = tl_dialog_new (median, &settings, ui_photo (),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_panel_set_devices (panel, ui_fake_devices,
                               G_N_ELEMENTS (ui_fake_devices), 0);
  ui_set (panel, "preview", "off");

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
  ui_set (panel, "radius", "250");
  g_assert_cmpfloat (ui_settings_of (panel).values[1].v[0], ==, 250.0);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "250");
  g_assert_cmpfloat (gtk_adjustment_get_value (slider), ==, radius->ui_max);

  /* A drag lands on whole numbers; typing moves the slider too. */
  g_signal_emit_by_name (scale, "change-value", GTK_SCROLL_JUMP, 7.4, &handled);
  g_assert_cmpfloat (ui_settings_of (panel).values[1].v[0], ==, 7.0);
  gtk_entry_set_text (GTK_ENTRY (spin), "12");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  g_assert_cmpfloat (ui_settings_of (panel).values[1].v[0], ==, 12.0);
  g_assert_cmpfloat (gtk_adjustment_get_value (slider), ==, 12.0);
  g_assert_true (tl_dialog_panel_get_runnable (panel));

  /* The filter page with its whole and fractional numbers. */
  ui_set (panel, "page", "filter");
  ui_show_and_wait (dialog, panel);
  ui_save_screenshot (dialog, "en-digits");
  ui_destroy (dialog, panel);

  /* A fraction shows the digits it was given. */
  panel = ui_new_panel ("gaussian-blur", &region, TRUE);
  ui_set (panel, "preview", "off");
  spin  = scale = NULL;
  find_number (GTK_WIDGET (panel), _(std_dev->description), &spin, &scale);
  g_assert_nonnull (spin);
  g_assert_nonnull (scale);
  g_assert_cmpuint (std_dev->digits, >, 0);
  g_assert_cmpuint (gtk_spin_button_get_digits (GTK_SPIN_BUTTON (spin)), ==,
                    std_dev->digits);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "2.00");
  ui_set (panel, "std-dev", "5.25");
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (spin)), ==, "5.25");
  g_assert_cmpfloat (ui_settings_of (panel).values[0].v[0], ==, 5.25);
  g_signal_emit_by_name (scale, "change-value", GTK_SCROLL_JUMP, 7.4, &handled);
  g_assert_cmpfloat_with_epsilon (ui_settings_of (panel).values[0].v[0], 7.4, 1e-9);

  ui_destroy (GTK_WIDGET (panel), panel);
}

/* Limits: explained in place, OK off, nothing clamped. */

static void
test_limits (void)
{
  GeglRectangle   region   = ui_photo_region ();
  const TlFilter *filter   = tl_filter_lookup ("gaussian-blur", NULL);
  TlHostSettings  settings;
  TlHostSettings  before;
  TlDialogPanel  *panel;
  GtkWidget      *dialog, *info_bar;
  const gchar    *message;

  tl_host_settings_init (&settings, filter);
  before = settings;
  dialog = tl_dialog_new (filter, &settings, ui_photo (),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_panel_set_devices (panel, ui_fake_devices, G_N_ELEMENTS (ui_fake_devices), 0);
  ui_set (panel, "preview", "off");
  info_bar = ui_find_widget (GTK_WIDGET (panel), GTK_TYPE_INFO_BAR);

  g_assert_true (ui_ok_sensitive (dialog));
  g_assert_false (ui_message_shown (info_bar));

  /* 32x32 is 1024 work-items; the NVIDIA-like kernel takes 256. */
  ui_set (panel, "device", "NVIDIA-like");
  ui_set (panel, "shape", "32x32");
  g_assert_false (ui_ok_sensitive (dialog));
  g_assert_true (ui_message_shown (info_bar));
  message = tl_dialog_panel_get_message (panel);
  g_assert_nonnull (strstr (message, "These choices cannot run on NVIDIA-like."));
  g_assert_nonnull (strstr (message, "M = 256"));
  g_assert_nonnull (strstr (message, "CL_KERNEL_WORK_GROUP_SIZE"));
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "local"), ==, "—");
  /* Not clamped: the settings still say 32x32. */
  g_assert_cmpint (ui_settings_of (panel).shape[0], ==, 32);
  g_assert_cmpint (ui_settings_of (panel).shape[1], ==, 32);

  /* Fine on a device that allows it. */
  ui_set (panel, "device", "PoCL-like");
  g_assert_true (ui_ok_sensitive (dialog));
  g_assert_false (ui_message_shown (info_bar));

  /* A per-dimension limit. */
  ui_set (panel, "device", "Narrow-y");
  ui_set (panel, "shape", "4x128");
  g_assert_false (ui_ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "over the device's limit of 64 work-items in y"));

  /* The spin buttons go to 4096 whatever the device: the planner says no. */
  ui_set (panel, "device", "PoCL-like");
  ui_set (panel, "shape", "4096x4096");
  g_assert_cmpint (ui_settings_of (panel).shape[0], ==, 4096);
  g_assert_cmpint (ui_settings_of (panel).shape[1], ==, 4096);
  g_assert_false (ui_ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), "M = 4096"));

  /* The overlay's rules: compute units only where the device names them,
   * the checkerboard not for launch order or compute units.
   */
  ui_set (panel, "shape", "auto");
  ui_set (panel, "overlay", "compute-unit");
  g_assert_false (ui_ok_sensitive (dialog));
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "PoCL-like does not say which compute unit"));
  ui_set (panel, "device", "NVIDIA-like");
  g_assert_true (ui_ok_sensitive (dialog));
  ui_set (panel, "overlay-style", "checkerboard");
  g_assert_false (ui_ok_sensitive (dialog));
  /* The procedures' own words (tl-host-check.c), not the dialog's. */
  g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel),
                            "the checkerboard style shows work-groups, SIMD "
                            "groups or lanes, not compute-unit"));
  ui_set (panel, "overlay", "lane");
  g_assert_true (ui_ok_sensitive (dialog));
  ui_set (panel, "overlay", "none");
  ui_set (panel, "overlay-style", "tint");
  ui_set (panel, "device", "PoCL-like");
  ui_set (panel, "shape", "4096x4096");
  g_assert_false (ui_ok_sensitive (dialog));

  /* OK pressed anyway (a script): refused, settings untouched. */
  g_idle_add (ui_respond, dialog);
  g_assert_false (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpmem (&settings, sizeof (settings), &before, sizeof (before));

  /* Back within the limits: OK, and the caller's settings are the
   * dialog's.
   */
  ui_set (panel, "shape", "64x16");
  ui_set (panel, "std-dev", "3");
  g_assert_true (ui_ok_sensitive (dialog));
  g_idle_add (ui_respond, dialog);
  g_assert_true (tl_dialog_run (TL_DIALOG (dialog)));
  g_assert_cmpint (settings.shape[0], ==, 64);
  g_assert_cmpint (settings.shape[1], ==, 16);
  g_assert_cmpfloat (settings.values[0].v[0], ==, 3.0);
  g_assert_cmpstr (settings.device, ==, "PoCL-like");

  ui_destroy (dialog, panel);
}

/* Reset, Help and Cancel. */

static gboolean help_called;     /* set by ui_help () */

static gboolean
after_reset (gpointer data)
{
  TlDialogPanel *panel = tl_dialog_get_panel (TL_DIALOG (data));
  TlHostSettings defaults, shown;

  tl_host_settings_init (&defaults, tl_filter_lookup ("color-matrix", NULL));
  shown = ui_settings_of (panel);
  g_assert_cmpmem (&shown, sizeof (shown), &defaults, sizeof (defaults));
  g_assert_true (ui_ok_sensitive (data));
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
  GeglRectangle   region = ui_photo_region ();
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

  dialog = tl_dialog_new (filter, &settings, ui_photo (),
                          &region, NULL);
  panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
  tl_dialog_set_help_func (TL_DIALOG (dialog), ui_help, &help_called, NULL);
  tl_dialog_panel_set_devices (panel, ui_fake_devices, G_N_ELEMENTS (ui_fake_devices), 1);
  ui_set (panel, "preview", "off");

  /* Shown as remembered, and 32x32 is over the NVIDIA-like M. */
  {
    TlHostSettings shown = ui_settings_of (panel);

    g_assert_cmpmem (&shown, sizeof (shown), &before, sizeof (before));
  }
  g_assert_false (ui_ok_sensitive (dialog));

  help_called = FALSE;
  g_idle_add (press_help, dialog);
  g_assert_false (tl_dialog_run (TL_DIALOG (dialog)));
  /* Cancel: the caller's settings are as they were. */
  g_assert_cmpmem (&settings, sizeof (settings), &before, sizeof (before));

  ui_destroy (dialog, panel);
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
  GeglRectangle   extent = ui_photo_region ();
  guint           i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      TlDialogPanel    *panel = ui_new_panel ("gaussian-blur", &cases[i].region, TRUE);
      TlHostSettings    settings;
      g_autofree gchar *text = NULL;
      GeglRectangle     area = cases[i].region;
      TlPlan            plan;
      guint             halo;

      ui_set (panel, "preview", "off");
      ui_set (panel, "device", "PoCL-like");
      ui_set (panel, "std-dev", cases[i].std_dev);
      settings = ui_settings_of (panel);
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

      ui_destroy (GTK_WIDGET (panel), panel);
    }
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
      GeglRectangle     region = ui_photo_region ();
      const TlFilter   *filter = filters[i];
      g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
      g_autoptr(GHashTable) panel_seen = g_hash_table_new (NULL, NULL);
      TlHostSettings    settings;
      GtkWidget        *dialog;
      TlDialogPanel    *panel;
      const gchar      *reserved = "ocrhls";

      tl_host_settings_init (&settings, filter);
      dialog = tl_dialog_new (filter, &settings, ui_photo (),
                              &region, NULL);
      panel  = tl_dialog_get_panel (TL_DIALOG (dialog));
      tl_dialog_set_help_func (TL_DIALOG (dialog), ui_help, NULL, NULL);
      ui_set (panel, "preview", "off");

      collect_mnemonics (dialog, seen);
      g_assert_cmpuint (g_hash_table_size (seen), >=, 12);
      collect_mnemonics (GTK_WIDGET (panel), panel_seen);
      for (; *reserved; reserved++)
        if (g_hash_table_contains (panel_seen, GUINT_TO_POINTER ((guint) *reserved)))
          g_error ("%s: the panel uses '%c', which a dialog button takes",
                   filter->name, *reserved);

      ui_destroy (dialog, panel);
    }
}

void
ui_panel_add_tests (void)
{
  g_test_add_func ("/ui/settings", test_settings);
  g_test_add_func ("/ui/matrix", test_matrix);
  g_test_add_func ("/ui/digits", test_digits);
  g_test_add_func ("/ui/limits", test_limits);
  g_test_add_func ("/ui/reset", test_reset);
  g_test_add_func ("/ui/halo", test_halo);
  g_test_add_func ("/ui/mnemonics", test_mnemonics);
}
