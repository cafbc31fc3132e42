/* ThreadLens dialog: the panel's device list: the probed (or a test's)
 * OpenCL devices, the settings' device among them, and the list's rows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"
#include "tl-process.h"

const TlProbeDevice *
tl_panel_devices_get (TlDialogPanel *self,
                      gint           index)
{
  if (self->devices == NULL)
    return NULL;
  if (index == TL_DIALOG_PANEL_DEVICE_AUTO)
    index = self->default_device;
  if (index < 0 || (guint) index >= self->devices->len)
    return NULL;

  return g_ptr_array_index (self->devices, index);
}

/* The way tl_cl_find_device () reads TlHostSettings.device: an index, else
 * part of a name; "" is the automatic choice.
 */
gint
tl_panel_devices_find (TlDialogPanel *self,
                       const gchar   *spec)
{
  g_autofree gchar *needle = NULL;
  guint             i;

  if (spec == NULL || spec[0] == '\0')
    return TL_DIALOG_PANEL_DEVICE_AUTO;
  if (self->devices == NULL)
    return TL_DIALOG_PANEL_DEVICE_MISSING;

  for (i = 0; i < self->devices->len; i++)
    {
      const TlProbeDevice *device = g_ptr_array_index (self->devices, i);

      if (g_strcmp0 (device->spec, spec) == 0)
        return i;
    }

  if (g_ascii_isdigit (spec[0]))
    {
      gchar  *end;
      guint64 index = g_ascii_strtoull (spec, &end, 10);

      if (*end == '\0')
        return index < self->devices->len ? (gint) index :
                                            TL_DIALOG_PANEL_DEVICE_MISSING;
    }

  needle = g_utf8_casefold (spec, -1);
  for (i = 0; i < self->devices->len; i++)
    {
      const TlProbeDevice *device = g_ptr_array_index (self->devices, i);
      g_autofree gchar    *name   = g_utf8_casefold (device->name, -1);

      if (strstr (name, needle))
        return i;
    }

  return TL_DIALOG_PANEL_DEVICE_MISSING;
}

static gchar *
tl_panel_devices_text (const TlProbeDevice *device)
{
  if (! device->measured)
    /* TRANSLATORS: an OpenCL device's name. */
    return g_strdup_printf (_("%s: the kernels do not build"), device->name);
  if (device->kind)
    /* TRANSLATORS: a device's name and kind (GPU, CPU), then its SIMD
     * width P and maximum work-group size M for this filter's kernels.
     */
    return g_strdup_printf (_("%s (%s), P = %u, M = %u"), device->name,
                            device->kind, device->limits.simd_width,
                            device->limits.max_group_size);

  return g_strdup_printf (_("%s, P = %u, M = %u"), device->name,
                          device->limits.simd_width,
                          device->limits.max_group_size);
}

gint
tl_panel_devices_active (TlDialogPanel *self)
{
  GtkTreeIter iter;
  gint        index = TL_DIALOG_PANEL_DEVICE_AUTO;

  if (gtk_combo_box_get_active_iter (GTK_COMBO_BOX (self->device_combo), &iter))
    gtk_tree_model_get (GTK_TREE_MODEL (self->device_store), &iter,
                        TL_DIALOG_PANEL_COLUMN_INDEX, &index, -1);

  return index;
}

/* Fills the device list and selects SPEC in it. */
void
tl_panel_devices_fill (TlDialogPanel *self,
                       const gchar   *spec)
{
  g_autofree gchar *automatic = NULL;
  GtkTreeIter       iter;
  gint              active;
  guint             i;

  self->updating++;

  gtk_list_store_clear (self->device_store);

  if (self->devices && self->devices->len > 0)
    {
      const TlProbeDevice *device = tl_panel_devices_get (self,
                                                          TL_DIALOG_PANEL_DEVICE_AUTO);

      /* TRANSLATORS: the device ThreadLens picks when none is chosen. */
      automatic = g_strdup_printf (_("Automatic: %s"), device->name);
    }
  else
    {
      automatic = g_strdup (_("Automatic"));
    }
  gtk_list_store_insert_with_values (self->device_store, &iter, -1,
                                     TL_DIALOG_PANEL_COLUMN_TEXT, automatic,
                                     TL_DIALOG_PANEL_COLUMN_INDEX,
                                     TL_DIALOG_PANEL_DEVICE_AUTO, -1);
  if (spec == NULL || spec[0] == '\0')
    gtk_combo_box_set_active_iter (GTK_COMBO_BOX (self->device_combo), &iter);

  active = tl_panel_devices_find (self, spec);

  for (i = 0; self->devices && i < self->devices->len; i++)
    {
      g_autofree gchar *text = tl_panel_devices_text (g_ptr_array_index (self->devices, i));

      gtk_list_store_insert_with_values (self->device_store, &iter, -1,
                                         TL_DIALOG_PANEL_COLUMN_TEXT, text,
                                         TL_DIALOG_PANEL_COLUMN_INDEX, i, -1);
      if (active == (gint) i)
        gtk_combo_box_set_active_iter (GTK_COMBO_BOX (self->device_combo), &iter);
    }

  if (active == TL_DIALOG_PANEL_DEVICE_MISSING)
    {
      g_autofree gchar *text = NULL;

      if (self->devices)
        /* TRANSLATORS: a remembered device that is not in this computer. */
        text = g_strdup_printf (_("%s (not found)"), spec);
      else
        text = g_strdup (spec);
      gtk_list_store_insert_with_values (self->device_store, &iter, -1,
                                         TL_DIALOG_PANEL_COLUMN_TEXT, text,
                                         TL_DIALOG_PANEL_COLUMN_INDEX,
                                         TL_DIALOG_PANEL_DEVICE_MISSING, -1);
      gtk_combo_box_set_active_iter (GTK_COMBO_BOX (self->device_combo), &iter);
    }

  self->updating--;
}

void
tl_panel_devices_probed (GObject      *source_object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  GWeakRef         *ref   = user_data;
  TlDialogPanel    *self  = g_weak_ref_get (ref);
  g_autoptr(GError) error = NULL;
  GPtrArray        *devices;
  guint             default_device = 0;

  g_weak_ref_clear (ref);
  g_free (ref);
  tl_probe_job_end ();

  devices = tl_probe_devices_finish (result, &default_device, &error);
  if (self == NULL || self->disposed || self->injected)
    {
      g_clear_pointer (&devices, g_ptr_array_unref);
      g_clear_object (&self);
      return;
    }

  self->probing        = FALSE;
  self->devices        = devices;
  self->default_device = default_device;
  if (devices == NULL)
    {
      self->devices_error = g_strdup (error->message);
      self->cpu_only      = tl_process_can_fall_back (error);
    }

  tl_panel_devices_fill (self, self->settings.device);
  self->changed (self);
  g_object_unref (self);
}
