/* ThreadLens dialog: the content both GIMP hosts show.
 *
 * The panel object, its layout (the preview, the pages, the summary) and
 * its public API.  The jobs behind it are in tl-panel-*.c, which share
 * tl-dialog-panel-private.h: this file calls them, and they report a
 * change back through self->changed, never by name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"
#include "tl-preview.h"
#include "tl-summary.h"

enum
{
  PROP_0,
  PROP_RUNNABLE,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *tl_dialog_panel_props[N_PROPS];
static guint       tl_dialog_panel_signals[N_SIGNALS];

G_DEFINE_TYPE (TlDialogPanel, tl_dialog_panel, GTK_TYPE_BOX)

/* Any change: the widgets read, the result judged, the host told.  The
 * parts call it through self->changed, never by name.
 */
static void
tl_dialog_panel_update (TlDialogPanel *self)
{
  if (self->updating)
    return;

  tl_panel_settings_read (self, tl_panel_plan_default_pixels (self));
  tl_panel_plan_evaluate (self, tl_dialog_panel_props[PROP_RUNNABLE]);
  g_signal_emit (self, tl_dialog_panel_signals[CHANGED], 0);
}

/* SETTINGS into the widgets, then judged as any change is. */
static void
tl_dialog_panel_show_settings (TlDialogPanel        *self,
                               const TlHostSettings *settings)
{
  tl_panel_settings_show (self, settings, tl_panel_plan_default_pixels (self));
  tl_dialog_panel_update (self);
}

/* GObject. */

static void
tl_dialog_panel_get_property (GObject    *object,
                              guint       property_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TlDialogPanel *self = TL_DIALOG_PANEL (object);

  switch (property_id)
    {
    case PROP_RUNNABLE:
      g_value_set_boolean (value, self->runnable);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, property_id, pspec);
    }
}

static void
tl_dialog_panel_dispose (GObject *object)
{
  TlDialogPanel *self = TL_DIALOG_PANEL (object);

  self->disposed = TRUE;
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* Closing the dialog stops a search; the worker finishes its pass. */
  if (self->tune_cancellable)
    g_cancellable_cancel (self->tune_cancellable);
  g_clear_object (&self->tune_cancellable);

  G_OBJECT_CLASS (tl_dialog_panel_parent_class)->dispose (object);
}

static void
tl_dialog_panel_finalize (GObject *object)
{
  TlDialogPanel *self = TL_DIALOG_PANEL (object);
  guint          i;

  for (i = 0; self->params && i < self->n_params; i++)
    g_free (self->params[i].cells);
  g_free (self->params);
  g_clear_pointer (&self->devices, g_ptr_array_unref);
  g_clear_object (&self->device_store);
  g_free (self->devices_error);
  g_free (self->param_error);
  g_free (self->variant);
  g_clear_object (&self->source);
  g_free (self->message);

  G_OBJECT_CLASS (tl_dialog_panel_parent_class)->finalize (object);
}

static void
tl_dialog_panel_class_init (TlDialogPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = tl_dialog_panel_get_property;
  object_class->dispose      = tl_dialog_panel_dispose;
  object_class->finalize     = tl_dialog_panel_finalize;

  /* FALSE while the choices cannot run: OK follows it. */
  tl_dialog_panel_props[PROP_RUNNABLE] =
    g_param_spec_boolean ("runnable", "Runnable",
                          "Whether the current choices can run",
                          TRUE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS,
                                     tl_dialog_panel_props);

  /* Any choice changed: tl_dialog_panel_get_settings () has it. */
  tl_dialog_panel_signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tl_dialog_panel_init (TlDialogPanel *self)
{
  self->runnable = TRUE;
  self->changed  = tl_dialog_panel_update;
}

static GtkWidget *
tl_dialog_panel_tab (GtkWidget   *notebook,
                     GtkWidget   *page,
                     const gchar *mnemonic)
{
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), page,
                            gtk_label_new_with_mnemonic (mnemonic));
  return page;
}

/* SETTINGS are shown and not kept; SOURCE (may be NULL: no preview) is
 * the layer, REGION the part to filter (the selection's bounds).  FILTER
 * NULL stands for the thread-map procedure, as in tl-host.h: no filter
 * parameters, and an overlay mode is a must.
 */
GtkWidget *
tl_dialog_panel_new (const TlFilter       *filter,
                     const TlHostSettings *settings,
                     GeglBuffer           *source,
                     const GeglRectangle  *region)
{
  TlDialogPanel *self;
  GtkWidget     *left, *right, *content;
  GWeakRef      *ref;

  g_return_val_if_fail (settings != NULL, NULL);
  g_return_val_if_fail (filter == NULL || filter->n_params <= TL_HOST_MAX_PARAMS, NULL);
  g_return_val_if_fail (source == NULL || GEGL_IS_BUFFER (source), NULL);
  g_return_val_if_fail (region != NULL && region->width > 0 && region->height > 0, NULL);

  self = g_object_new (TL_TYPE_DIALOG_PANEL,
                       "orientation", GTK_ORIENTATION_HORIZONTAL,
                       "spacing", 18,
                       NULL);
  self->filter   = filter;
  self->n_params = filter ? filter->n_params : 0;
  self->source = source ? g_object_ref (source) : NULL;
  self->region = *region;
  /* The storage the layer will travel in picks the tuning data. */
  if (filter && source)
    {
      g_autoptr(TlCodec) codec = tl_codec_new (gegl_buffer_get_format (source),
                                               filter->format, NULL);

      self->variant = g_strdup (codec ? tl_codec_get_variant (codec) : "");
    }
  self->extent = source ? *gegl_buffer_get_extent (source) : *region;
  self->area   = *region;

  /* Left: the preview. */
  left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_pack_start (GTK_BOX (self), left, TRUE, TRUE, 0);
  self->preview = tl_preview_new (filter, source, region);
  gtk_box_pack_start (GTK_BOX (left),
                      tl_panel_pages_frame (_("Preview"), self->preview),
                      TRUE, TRUE, 0);

  /* Right: what cannot run, the choices, the summary. */
  right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_pack_start (GTK_BOX (self), right, FALSE, FALSE, 0);

  self->summary_stack = gtk_stack_new ();
  /* The message takes the summary's place, so the dialog keeps its size. */
  gtk_stack_set_homogeneous (GTK_STACK (self->summary_stack), TRUE);
  self->info_bar = gtk_info_bar_new ();
  gtk_info_bar_set_message_type (GTK_INFO_BAR (self->info_bar), GTK_MESSAGE_ERROR);
  self->info_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->info_label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (self->info_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->info_label), 55);
  gtk_label_set_selectable (GTK_LABEL (self->info_label), TRUE);
  gtk_widget_set_can_focus (self->info_label, FALSE);
  content = gtk_info_bar_get_content_area (GTK_INFO_BAR (self->info_bar));
  gtk_container_add (GTK_CONTAINER (content), self->info_label);
  gtk_widget_set_valign (self->info_bar, GTK_ALIGN_START);

  self->notebook = gtk_notebook_new ();
  if (filter)
    tl_dialog_panel_tab (self->notebook, tl_panel_pages_filter (self),
                         _("_Filter"));
  tl_dialog_panel_tab (self->notebook,
                       tl_panel_pages_dispatch (self,
                                                tl_panel_plan_default_pixels (self)),
                       _("_Dispatch"));
  if (self->tune_button)
    g_signal_connect_swapped (self->tune_button, "clicked",
                              G_CALLBACK (tl_panel_tune_start), self);
  tl_dialog_panel_tab (self->notebook, tl_panel_pages_overlay (self),
                       _("O_verlay"));
  gtk_box_pack_start (GTK_BOX (right), self->notebook, FALSE, FALSE, 0);

  self->summary = tl_summary_new ();
  gtk_stack_add_named (GTK_STACK (self->summary_stack), self->summary, "summary");
  gtk_stack_add_named (GTK_STACK (self->summary_stack), self->info_bar, "message");
  gtk_box_pack_start (GTK_BOX (right),
                      tl_panel_pages_frame (_("Summary"), self->summary_stack),
                      TRUE, TRUE, 0);

  gtk_widget_show_all (GTK_WIDGET (self));
  /* A filter without parameters opens where the choices are. */
  if (filter && filter->n_params == 0)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook), 1);

  tl_dialog_panel_show_settings (self, settings);

  self->cancellable = g_cancellable_new ();
  self->probing     = TRUE;
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  tl_probe_devices_async (filter, source ? gegl_buffer_get_format (source) : NULL,
                          region->width, region->height,
                          self->cancellable, tl_panel_devices_probed, ref);

  return GTK_WIDGET (self);
}

void
tl_dialog_panel_get_settings (TlDialogPanel  *panel,
                              TlHostSettings *settings)
{
  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));
  g_return_if_fail (settings != NULL);

  *settings = panel->settings;
}

void
tl_dialog_panel_set_settings (TlDialogPanel        *panel,
                              const TlHostSettings *settings)
{
  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));
  g_return_if_fail (settings != NULL);

  tl_dialog_panel_show_settings (panel, settings);
}

/* Every choice back to its default, the device to the automatic one. */
void
tl_dialog_panel_reset (TlDialogPanel *panel)
{
  TlHostSettings defaults;

  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));

  tl_host_settings_init (&defaults, panel->filter);
  tl_dialog_panel_show_settings (panel, &defaults);
}

gboolean
tl_dialog_panel_get_runnable (TlDialogPanel *panel)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), FALSE);

  return panel->runnable;
}

/* Why the choices cannot run (a heading, a newline, the reason), or NULL. */
const gchar *
tl_dialog_panel_get_message (TlDialogPanel *panel)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), NULL);

  return panel->message;
}

/* For tests. */

/* Sets the widget for NAME as a user would, so every handler runs.
 * NAME is a filter parameter (VALUE as for tl_filter_set_value ()),
 * "shape" (auto, seed, WxH or custom), "shape-width", "shape-height",
 * "mode", "swizzle" (0: off), "pixels-per-item", "device" (as in
 * TlHostSettings), "overlay", "overlay-style", "overlay-opacity" (0 to 1),
 * "preview", "grid" (on, off), "zoom" (1, 2, 4, 8) or "page" (filter,
 * dispatch, overlay).
 */
gboolean
tl_dialog_panel_set_value (TlDialogPanel *panel,
                           const gchar   *name,
                           const gchar   *value,
                           GError       **error)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), FALSE);
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);

  return tl_panel_settings_set_value (panel, name, value, error);
}

/* The summary's text for KEY: device, region, local, rule, groups,
 * launches, items, idle, non-uniform, swizzle.
 */
const gchar *
tl_dialog_panel_get_summary (TlDialogPanel *panel,
                             const gchar   *key)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), NULL);

  return tl_summary_get_text (TL_SUMMARY (panel->summary), key);
}

/* The plan the summary shows, and the limits it was made for. */
gboolean
tl_dialog_panel_get_plan (TlDialogPanel *panel,
                          TlLimits      *limits,
                          TlPlan        *plan)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), FALSE);

  if (! panel->have_plan)
    return FALSE;
  if (limits)
    *limits = panel->limits;
  if (plan)
    *plan = panel->plan;
  return TRUE;
}

/* Replaces the OpenCL devices by DEVICES (copied), so the dialog can be
 * checked against other devices' limits; DEFAULT_INDEX is the one the
 * automatic choice means.
 */
void
tl_dialog_panel_set_devices (TlDialogPanel       *panel,
                             const TlProbeDevice *devices,
                             guint                n_devices,
                             guint                default_index)
{
  guint i;

  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));
  g_return_if_fail (devices != NULL && n_devices > 0);
  g_return_if_fail (default_index < n_devices);

  panel->injected = TRUE;
  panel->probing  = FALSE;
  g_cancellable_cancel (panel->cancellable);
  g_clear_pointer (&panel->devices, g_ptr_array_unref);
  g_clear_pointer (&panel->devices_error, g_free);

  panel->devices = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_probe_device_free);
  for (i = 0; i < n_devices; i++)
    g_ptr_array_add (panel->devices, tl_probe_device_copy (&devices[i]));
  panel->default_device = default_index;

  tl_panel_devices_fill (panel, panel->settings.device);
  tl_dialog_panel_update (panel);
}

/* Devices still being measured, or a preview run pending. */
gboolean
tl_dialog_panel_is_busy (TlDialogPanel *panel)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), FALSE);

  return (panel->probing || panel->tuning ||
          tl_preview_is_busy (TL_PREVIEW (panel->preview)));
}

/* Stops the preview and waits until no kernel of the dialog runs (a
 * preview run, the devices' measuring): call it before the host runs the
 * filter itself.  A later change starts the preview again.
 */
void
tl_dialog_panel_stop (TlDialogPanel *panel)
{
  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));

  tl_preview_stop (TL_PREVIEW (panel->preview));
}

GtkWidget *
tl_dialog_panel_get_preview (TlDialogPanel *panel)
{
  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), NULL);

  return panel->preview;
}
