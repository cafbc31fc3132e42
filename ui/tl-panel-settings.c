/* ThreadLens dialog: the panel's settings and its widgets: the widgets
 * read into TlHostSettings, settings shown in the widgets, and a widget
 * set from a value by name.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-dialog-panel-private.h"
#include "tl-error.h"
#include "tl-preview.h"

/* Filter parameters. */

static void
tl_panel_settings_format_number (gchar   *buffer,
                                 gsize    size,
                                 gdouble  value)
{
  g_ascii_formatd (buffer, size, "%.6g", value);
}

static void
tl_panel_settings_show_param (TlDialogParam *param,
                              const TlValue *value)
{
  gchar  number[G_ASCII_DTOSTR_BUF_SIZE];
  guint  cols, row, col;

  if (param->adjustment)
    {
      gtk_adjustment_set_value (param->adjustment, value->v[0]);
      return;
    }

  if (param->entry)
    {
      GString *text = g_string_new (NULL);
      guint    i;

      for (i = 0; i < value->n; i++)
        {
          tl_panel_settings_format_number (number, sizeof (number), value->v[i]);
          g_string_append_printf (text, "%s%s", i ? " " : "", number);
        }
      gtk_entry_set_text (GTK_ENTRY (param->entry), text->str);
      g_string_free (text, TRUE);
      return;
    }

  cols = value->n / param->rows;
  if (param->more)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (param->more),
                                  cols > param->min_cols);
  for (row = 0; row < param->rows; row++)
    for (col = 0; col < param->max_cols; col++)
      {
        GtkWidget *cell = param->cells[row * param->max_cols + col];

        tl_panel_settings_format_number (number, sizeof (number),
                                         col < cols ? value->v[row * cols + col] : 0.0);
        gtk_entry_set_text (GTK_ENTRY (cell), number);
        gtk_widget_set_sensitive (cell, col < cols);
      }
}

/* The numbers of a matrix or list as text for tl_filter_set_value (),
 * which checks them; a decimal comma is taken as a point.
 */
static gchar *
tl_panel_settings_param_text (TlDialogParam *param)
{
  GString *text = g_string_new (NULL);
  guint    cols, row, col;

  if (param->entry)
    {
      g_string_append (text, gtk_entry_get_text (GTK_ENTRY (param->entry)));
      return g_string_free (text, FALSE);
    }

  cols = param->min_cols;
  if (param->more &&
      gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (param->more)))
    cols = param->max_cols;

  for (row = 0; row < param->rows; row++)
    for (col = 0; col < cols; col++)
      {
        GtkWidget        *cell   = param->cells[row * param->max_cols + col];
        g_autofree gchar *number = g_strstrip (g_strdup (gtk_entry_get_text (GTK_ENTRY (cell))));
        gchar            *comma  = strchr (number, ',');
        gchar            *end    = NULL;
        gdouble           value;

        if (comma)
          *comma = '.';
        value = g_ascii_strtod (number, &end);
        tl_panel_pages_set_error_style (cell,
                                        number[0] == '\0' || *end != '\0' ||
                                        value < param->spec->min ||
                                        value > param->spec->max);
        /* An empty cell must not shift the others: count it. */
        g_string_append_printf (text, "%s%s", text->len ? " " : "",
                                number[0] ? number : "?");
      }

  return g_string_free (text, FALSE);
}

static void
tl_panel_settings_read_params (TlDialogPanel *self)
{
  guint i;

  g_clear_pointer (&self->param_error, g_free);

  for (i = 0; i < self->n_params; i++)
    {
      TlDialogParam    *param = &self->params[i];
      g_autofree gchar *text  = NULL;
      g_autoptr(GError) error = NULL;

      if (param->adjustment)
        {
          self->settings.values[i].n    = 1;
          self->settings.values[i].v[0] = gtk_adjustment_get_value (param->adjustment);
          continue;
        }

      text = tl_panel_settings_param_text (param);
      if (! tl_filter_set_value (self->filter, self->settings.values,
                                 param->spec->name, text, &error) &&
          self->param_error == NULL)
        self->param_error = g_strdup (error->message);
      if (param->entry)
        tl_panel_pages_set_error_style (param->entry, error != NULL);
    }
}

/* Reading the widgets, and showing settings in them. */

static gint
tl_panel_settings_name_index (const gchar **names,
                              const gchar  *name)
{
  gint i;

  for (i = 0; name && names[i]; i++)
    if (strcmp (names[i], name) == 0)
      return i;

  return 0;
}

/* The widgets into self->settings; pixels per item of DEFAULT_PIXELS (the
 * device's default) are kept as 0, the default.
 */
void
tl_panel_settings_read (TlDialogPanel *self,
                        guint          default_pixels)
{
  TlHostSettings *settings = &self->settings;
  const gchar    *shape    = tl_panel_pages_shape_id (self);
  const gchar    *mode     = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->mode_combo));
  gint            device   = tl_panel_devices_active (self);
  gint            pixels;

  tl_panel_settings_read_params (self);

  if (strcmp (shape, "auto") == 0 || strcmp (shape, "seed") == 0)
    {
      settings->shape[0] = 0;
      settings->shape[1] = 0;
    }
  else
    {
      settings->shape[0] = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->shape_width));
      settings->shape[1] = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->shape_height));
    }

  if (mode == NULL || ! tl_mode_from_string (mode, &settings->mode, NULL))
    settings->mode = TL_MODE_UNIFORM;

  settings->swizzle = 0;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->swizzle_toggle)))
    settings->swizzle = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->swizzle_spin));

  /* 0 is "the filter's default", which keeps following the filter. */
  pixels = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (self->pixels_spin));
  settings->pixels_per_item = (guint) pixels == default_pixels ? 0 : pixels;

  settings->overlay = tl_panel_settings_name_index (tl_host_overlay_names,
                                                    gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->overlay_combo)));
  settings->overlay_style = tl_panel_settings_name_index (tl_host_overlay_style_names,
                                                          gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->style_combo)));
  settings->overlay_opacity = gtk_adjustment_get_value (self->opacity) / 100.0;

  if (device == TL_DIALOG_PANEL_DEVICE_AUTO)
    settings->device[0] = '\0';
  else if (device >= 0)
    g_strlcpy (settings->device, tl_panel_devices_get (self, device)->spec,
               sizeof (settings->device));
  /* A missing device keeps its name, so the message can say which. */
}

/* Puts SETTINGS into the widgets, pixels per item 0 as DEFAULT_PIXELS;
 * the caller judges them (nothing is reported as changed).
 */
void
tl_panel_settings_show (TlDialogPanel        *self,
                        const TlHostSettings *settings,
                        guint                 default_pixels)
{
  g_autofree gchar *shape = NULL;
  const gchar      *shape_id = "custom";
  guint             overlays, styles, i;

  self->updating++;

  self->settings = *settings;

  for (i = 0; i < self->n_params; i++)
    tl_panel_settings_show_param (&self->params[i], &settings->values[i]);

  if (settings->shape[0] <= 0 || settings->shape[1] <= 0)
    {
      shape_id = "auto";
    }
  else
    {
      shape = g_strdup_printf ("%dx%d", settings->shape[0], settings->shape[1]);
      for (i = 0; i < G_N_ELEMENTS (tl_panel_pages_shapes); i++)
        if (strcmp (tl_panel_pages_shapes[i].id, shape) == 0)
          shape_id = tl_panel_pages_shapes[i].id;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_width), settings->shape[0]);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_height), settings->shape[1]);
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->shape_combo), shape_id);

  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->mode_combo),
                               tl_mode_to_string (settings->mode));

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->swizzle_toggle),
                                settings->swizzle > 0);
  gtk_widget_set_sensitive (self->swizzle_spin, settings->swizzle > 0);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->swizzle_spin),
                             settings->swizzle > 0 ? settings->swizzle :
                             TL_DIALOG_PANEL_SWIZZLE);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->pixels_spin),
                             settings->pixels_per_item > 0 ?
                             settings->pixels_per_item : (gint) default_pixels);

  overlays = g_strv_length ((gchar **) tl_host_overlay_names);
  styles   = g_strv_length ((gchar **) tl_host_overlay_style_names);
  if (settings->overlay < 0 || settings->overlay >= (gint) overlays ||
      ! gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->overlay_combo),
                                     tl_host_overlay_names[settings->overlay]))
    gtk_combo_box_set_active (GTK_COMBO_BOX (self->overlay_combo), 0);
  gtk_adjustment_set_value (self->opacity, settings->overlay_opacity * 100.0);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->style_combo),
                               tl_host_overlay_style_names[CLAMP (settings->overlay_style, 0,
                                                                  (gint) styles - 1)]);

  tl_panel_devices_fill (self, settings->device);

  self->updating--;
}

/* Values by name, for tests: tl_dialog_panel_set_value (). */

static gboolean
tl_panel_settings_parse_int (const gchar *text,
                             gint         min,
                             gint         max,
                             gint        *value,
                             GError     **error)
{
  gint64 number;

  if (! g_ascii_string_to_signed (text, 10, min, max, &number, error))
    return FALSE;

  *value = number;
  return TRUE;
}

static gboolean
tl_panel_settings_parse_bool (const gchar *text,
                              gboolean    *value,
                              GError     **error)
{
  if (g_strcmp0 (text, "on") == 0 || g_strcmp0 (text, "true") == 0 ||
      g_strcmp0 (text, "1") == 0)
    *value = TRUE;
  else if (g_strcmp0 (text, "off") == 0 || g_strcmp0 (text, "false") == 0 ||
           g_strcmp0 (text, "0") == 0)
    *value = FALSE;
  else
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "'%s' is not on or off", text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
tl_panel_settings_set_combo (GtkWidget   *combo,
                             const gchar *id,
                             GError     **error)
{
  if (! gtk_combo_box_set_active_id (GTK_COMBO_BOX (combo), id))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "no choice '%s'", id);
      return FALSE;
    }
  return TRUE;
}

gboolean
tl_panel_settings_set_value (TlDialogPanel *panel,
                             const gchar   *name,
                             const gchar   *value,
                             GError       **error)
{
  TlDialogParam *param = NULL;
  guint          index;
  gint           number;
  gboolean       flag;

  if (panel->filter && tl_filter_find_param (panel->filter, name, &index))
    param = &panel->params[index];

  if (param && param->adjustment)
    {
      gchar  *end;
      gdouble number_value = g_ascii_strtod (value, &end);

      if (*end != '\0' || end == value ||
          number_value < param->spec->min || number_value > param->spec->max)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       "%s: '%s' is not a number in [%g, %g]", name, value,
                       param->spec->min, param->spec->max);
          return FALSE;
        }
      gtk_adjustment_set_value (param->adjustment, number_value);
      return TRUE;
    }
  if (param)
    {
      TlValue values[TL_HOST_MAX_PARAMS];

      memcpy (values, panel->settings.values, sizeof (values));
      if (! tl_filter_set_value (panel->filter, values, name, value, error))
        return FALSE;
      panel->updating++;
      tl_panel_settings_show_param (param, &values[index]);
      panel->updating--;
      panel->changed (panel);
      return TRUE;
    }

  if (strcmp (name, "shape") == 0)
    {
      TlChoice choice;
      guint    i;

      if (strcmp (value, "custom") == 0)
        return tl_panel_settings_set_combo (panel->shape_combo, value, error);
      for (i = 0; i < G_N_ELEMENTS (tl_panel_pages_shapes); i++)
        if (strcmp (tl_panel_pages_shapes[i].id, value) == 0)
          return tl_panel_settings_set_combo (panel->shape_combo, value, error);

      tl_choice_init (&choice);
      if (! tl_shape_from_string (value, &choice, error))
        return FALSE;
      if (choice.shape_kind != TL_SHAPE_CUSTOM ||
          choice.shape[0] > TL_DIALOG_PANEL_MAX_SHAPE ||
          choice.shape[1] > TL_DIALOG_PANEL_MAX_SHAPE)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       "the dialog takes shapes up to %ux%u, not '%s'",
                       TL_DIALOG_PANEL_MAX_SHAPE, TL_DIALOG_PANEL_MAX_SHAPE,
                       value);
          return FALSE;
        }
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (panel->shape_width), choice.shape[0]);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (panel->shape_height), choice.shape[1]);
      /* Typing the size already made it custom, unless it was the size
       * shown before.
       */
      return tl_panel_settings_set_combo (panel->shape_combo, "custom", error);
    }
  if (strcmp (name, "shape-width") == 0 || strcmp (name, "shape-height") == 0)
    {
      if (! tl_panel_settings_parse_int (value, 1, TL_DIALOG_PANEL_MAX_SHAPE,
                                         &number, error))
        return FALSE;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (name[6] == 'w' ?
                                                  panel->shape_width :
                                                  panel->shape_height), number);
      return tl_panel_settings_set_combo (panel->shape_combo, "custom", error);
    }
  if (strcmp (name, "mode") == 0)
    return tl_panel_settings_set_combo (panel->mode_combo, value, error);
  if (strcmp (name, "swizzle") == 0)
    {
      if (! tl_panel_settings_parse_int (value, 0, TL_DIALOG_PANEL_MAX_SWIZZLE,
                                         &number, error))
        return FALSE;
      if (number > 0)
        gtk_spin_button_set_value (GTK_SPIN_BUTTON (panel->swizzle_spin), number);
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (panel->swizzle_toggle),
                                    number > 0);
      return TRUE;
    }
  if (strcmp (name, "pixels-per-item") == 0)
    {
      if (! tl_panel_settings_parse_int (value, 1, TL_DIALOG_PANEL_MAX_K,
                                         &number, error))
        return FALSE;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (panel->pixels_spin), number);
      return TRUE;
    }
  if (strcmp (name, "device") == 0)
    {
      gint        device = tl_panel_devices_find (panel, value);
      GtkTreeIter iter;
      gboolean    valid;

      valid = gtk_tree_model_get_iter_first (GTK_TREE_MODEL (panel->device_store), &iter);
      for (; valid; valid = gtk_tree_model_iter_next (GTK_TREE_MODEL (panel->device_store), &iter))
        {
          gint row;

          gtk_tree_model_get (GTK_TREE_MODEL (panel->device_store), &iter,
                              TL_DIALOG_PANEL_COLUMN_INDEX, &row, -1);
          if (row == device && device != TL_DIALOG_PANEL_DEVICE_MISSING)
            {
              gtk_combo_box_set_active_iter (GTK_COMBO_BOX (panel->device_combo), &iter);
              return TRUE;
            }
        }
      g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE,
                   "no device '%s' in the list", value);
      return FALSE;
    }
  if (strcmp (name, "overlay") == 0)
    return tl_panel_settings_set_combo (panel->overlay_combo, value, error);
  if (strcmp (name, "overlay-style") == 0)
    return tl_panel_settings_set_combo (panel->style_combo, value, error);
  if (strcmp (name, "overlay-opacity") == 0)
    {
      gchar  *end;
      gdouble opacity = g_ascii_strtod (value, &end);

      if (*end != '\0' || end == value || ! (opacity >= 0.0 && opacity <= 1.0))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       "overlay-opacity '%s' is not in [0, 1]", value);
          return FALSE;
        }
      gtk_adjustment_set_value (panel->opacity, opacity * 100.0);
      return TRUE;
    }
  if (strcmp (name, "preview") == 0 || strcmp (name, "grid") == 0)
    {
      if (! tl_panel_settings_parse_bool (value, &flag, error))
        return FALSE;
      if (name[0] == 'p')
        tl_preview_set_active (TL_PREVIEW (panel->preview), flag);
      else
        tl_preview_set_grid (TL_PREVIEW (panel->preview), flag);
      return TRUE;
    }
  if (strcmp (name, "zoom") == 0)
    {
      if (! tl_panel_settings_parse_int (value, 1, 8, &number, error))
        return FALSE;
      if (number != 1 && number != 2 && number != 4 && number != 8)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       "zoom %d: 1, 2, 4 or 8", number);
          return FALSE;
        }
      tl_preview_set_zoom (TL_PREVIEW (panel->preview), number);
      return TRUE;
    }
  if (strcmp (name, "page") == 0)
    {
      static const gchar *pages[] = { "filter", "dispatch", "overlay" };

      for (index = panel->filter ? 0 : 1; index < G_N_ELEMENTS (pages); index++)
        if (strcmp (pages[index], value) == 0)
          {
            gtk_notebook_set_current_page (GTK_NOTEBOOK (panel->notebook),
                                           index - (panel->filter ? 0 : 1));
            return TRUE;
          }
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "no page '%s'", value);
      return FALSE;
    }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               "the dialog has no choice '%s'", name);
  return FALSE;
}
