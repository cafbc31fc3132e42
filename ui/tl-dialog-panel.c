/* ThreadLens dialog: the content both GIMP hosts show.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel.h"
#include "tl-error.h"
#include "tl-preview.h"
#include "tl-process.h"
#include "tl-summary.h"
#include "tl-tune.h"

#define TL_DIALOG_PANEL_MAX_SHAPE   4096   /* over any device: the planner refuses, not the spin */
#define TL_DIALOG_PANEL_MAX_K       4096
#define TL_DIALOG_PANEL_MAX_SWIZZLE 4096
#define TL_DIALOG_PANEL_SWIZZLE     4      /* the tile width offered first */
#define TL_DIALOG_PANEL_MATRIX_ROWS 4

/* Device list rows that are not a device. */
enum
{
  TL_DIALOG_PANEL_DEVICE_AUTO    = -1,    /* settings' device "" */
  TL_DIALOG_PANEL_DEVICE_MISSING = -2     /* a remembered device not present */
};

enum
{
  TL_DIALOG_PANEL_COLUMN_TEXT,
  TL_DIALOG_PANEL_COLUMN_INDEX,
  TL_DIALOG_PANEL_N_COLUMNS
};

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

static const struct
{
  const gchar *id;
  const gchar *label;
} tl_dialog_panel_shapes[] =
{
  { "auto",   N_("Automatic") },
  { "seed",   N_("Seed rule: w = P, h = M / P") },
  { "8x8",    "8 × 8" },
  { "16x16",  "16 × 16" },
  { "32x8",   "32 × 8" },
  { "32x32",  "32 × 32" },
  { "64x4",   "64 × 4" },
  { "custom", N_("Custom") },
};

static const struct
{
  TlMode       mode;
  const gchar *label;
  const gchar *hint;
} tl_dialog_panel_modes[] =
{
  { TL_MODE_UNIFORM, N_("Uniform"),
    N_("The grid is rounded up to whole work-groups; the kernels skip the "
       "padding.") },
  { TL_MODE_NON_UNIFORM, N_("Non-uniform"),
    N_("The grid is exact and edge groups are smaller: native where the "
       "device supports it, emulated elsewhere.") },
  { TL_MODE_EMULATED, N_("Emulated non-uniform"),
    N_("The grid is exact: the right and bottom strips run as extra "
       "launches with global offsets.") },
};

/* By the names in tl_host_overlay_names. */
static const struct
{
  const gchar *name;
  const gchar *label;
} tl_dialog_panel_overlays[] =
{
  { "none",         N_("None") },
  { "work-group",   N_("Work-group") },
  { "simd-group",   N_("SIMD group") },
  { "lane",         N_("Lane") },
  { "launch-order", N_("Launch order") },
  { "compute-unit", N_("Compute unit") },
};

/* By the names in tl_host_overlay_style_names. */
static const struct
{
  const gchar *name;
  const gchar *label;
} tl_dialog_panel_styles[] =
{
  { "tint",         N_("Tint") },
  { "checkerboard", N_("Checkerboard") },
};

/* The widgets of one filter parameter. */
typedef struct
{
  const TlParamSpec *spec;
  GtkAdjustment     *adjustment;  /* a number */
  GtkWidget        **cells;       /* a matrix: rows x max_cols entries */
  guint              rows;
  guint              min_cols;
  guint              max_cols;
  GtkWidget         *more;        /* a matrix's optional columns */
  GtkWidget         *entry;       /* any other list of numbers */
} TlDialogParam;

struct _TlDialogPanel
{
  GtkBox                parent_instance;

  const TlFilter       *filter;        /* NULL: the thread-map procedure */
  gchar                *variant;       /* the layer's storage, for tuning */
  GeglRectangle         region;
  GeglRectangle         extent;        /* the layer */
  GeglRectangle         area;          /* where the kernels run */
  TlHostSettings        settings;      /* what the widgets say */

  /* The devices: NULL until probed (or injected by a test). */
  GPtrArray            *devices;
  guint                 default_device;
  gchar                *devices_error;
  gboolean              cpu_only;       /* no OpenCL platform at all */
  gboolean              message_is_note; /* shown, but the run can go ahead */
  gboolean              injected;
  gboolean              probing;
  gboolean              tuning;        /* a search for "auto" is running */
  GtkWidget            *tune_button;
  GeglBuffer           *source;        /* the layer, for tuning */
  GCancellable         *cancellable;
  gboolean              disposed;

  TlLimits              limits;
  gboolean              have_limits;
  TlPlan                plan;
  gboolean              have_plan;
  gchar                *param_error;
  gchar                *message;       /* why it cannot run, NULL if it can */
  gboolean              runnable;
  gint                  updating;

  GtkWidget            *summary_stack;
  GtkWidget            *info_bar;
  GtkWidget            *info_label;
  GtkWidget            *notebook;
  TlDialogParam        *params;

  GtkWidget            *device_combo;
  GtkListStore         *device_store;
  GtkWidget            *shape_combo;
  GtkWidget            *shape_width;
  GtkWidget            *shape_height;
  GtkWidget            *mode_combo;
  GtkWidget            *mode_hint;
  GtkWidget            *swizzle_toggle;
  GtkWidget            *swizzle_spin;
  GtkWidget            *pixels_spin;

  GtkWidget            *overlay_combo;
  GtkWidget            *style_combo;
  GtkAdjustment        *opacity;
  GtkWidget            *opacity_row[3];

  GtkWidget            *summary;
  GtkWidget            *preview;
};

G_DEFINE_TYPE (TlDialogPanel, tl_dialog_panel, GTK_TYPE_BOX)

static void tl_dialog_panel_update (TlDialogPanel *self);

static guint
tl_dialog_panel_n_params (TlDialogPanel *self)
{
  return self->filter ? self->filter->n_params : 0;
}

/* The filter's default for the layer's storage ("" variant: floats). */
static guint
tl_dialog_panel_default_pixels (TlDialogPanel *self)
{
  if (self->filter == NULL)
    return 1;
  return tl_filter_pixels_per_item (self->filter,
                                    self->variant && *self->variant);
}

/* What tl_host_process () reads and runs the kernels on: the region and
 * the filter's halo around it, within the layer.
 */
static void
tl_dialog_panel_run_area (TlDialogPanel *self,
                          GeglRectangle *area)
{
  guint halo = 0;

  if (self->filter &&
      tl_filter_check_values (self->filter, self->settings.values, NULL))
    halo = tl_filter_halo (self->filter, self->settings.values);

  *area = self->region;
  area->x      -= halo;
  area->y      -= halo;
  area->width  += 2 * halo;
  area->height += 2 * halo;
  gegl_rectangle_intersect (area, area, &self->extent);
}

/* Widget helpers. */

static GtkWidget *
tl_dialog_panel_frame (const gchar *title,
                       GtkWidget   *child)
{
  GtkWidget        *frame  = gtk_frame_new (NULL);
  GtkWidget        *label  = gtk_label_new (NULL);
  g_autofree gchar *markup = g_markup_printf_escaped ("<b>%s</b>", title);

  /* GIMP's frames: a bold title, no border, the content indented. */
  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_frame_set_label_widget (GTK_FRAME (frame), label);
  gtk_frame_set_shadow_type (GTK_FRAME (frame), GTK_SHADOW_NONE);
  gtk_widget_set_margin_start (child, 12);
  gtk_widget_set_margin_top (child, 6);
  gtk_container_add (GTK_CONTAINER (frame), child);

  return frame;
}

static GtkWidget *
tl_dialog_panel_page_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_container_set_border_width (GTK_CONTAINER (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);

  return grid;
}

static GtkWidget *
tl_dialog_panel_label (const gchar *mnemonic,
                       GtkWidget   *target)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (target)
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), target);

  return label;
}

static GtkWidget *
tl_dialog_panel_hint (const gchar *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 50);
  gtk_label_set_width_chars (GTK_LABEL (label), 40);
  gtk_style_context_add_class (gtk_widget_get_style_context (label),
                               "dim-label");

  return label;
}

static GtkWidget *
tl_dialog_panel_spin (gdouble lower,
                      gdouble upper,
                      gdouble value)
{
  GtkAdjustment *adjustment = gtk_adjustment_new (value, lower, upper, 1, 8, 0);
  GtkWidget     *spin       = gtk_spin_button_new (adjustment, 1, 0);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 4);

  return spin;
}

static void
tl_dialog_panel_set_error_style (GtkWidget *widget,
                                 gboolean   error)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  if (error)
    gtk_style_context_add_class (style, GTK_STYLE_CLASS_ERROR);
  else
    gtk_style_context_remove_class (style, GTK_STYLE_CLASS_ERROR);
}

/* Devices. */

static const TlProbeDevice *
tl_dialog_panel_device (TlDialogPanel *self,
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
static gint
tl_dialog_panel_find_device (TlDialogPanel *self,
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
tl_dialog_panel_device_text (const TlProbeDevice *device)
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

static gint
tl_dialog_panel_active_device (TlDialogPanel *self)
{
  GtkTreeIter iter;
  gint        index = TL_DIALOG_PANEL_DEVICE_AUTO;

  if (gtk_combo_box_get_active_iter (GTK_COMBO_BOX (self->device_combo), &iter))
    gtk_tree_model_get (GTK_TREE_MODEL (self->device_store), &iter,
                        TL_DIALOG_PANEL_COLUMN_INDEX, &index, -1);

  return index;
}

/* Fills the device list and selects SPEC in it. */
static void
tl_dialog_panel_fill_devices (TlDialogPanel *self,
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
      const TlProbeDevice *device = tl_dialog_panel_device (self,
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

  active = tl_dialog_panel_find_device (self, spec);

  for (i = 0; self->devices && i < self->devices->len; i++)
    {
      g_autofree gchar *text = tl_dialog_panel_device_text (g_ptr_array_index (self->devices, i));

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

static void
tl_dialog_panel_probed (GObject      *source_object,
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

  tl_dialog_panel_fill_devices (self, self->settings.device);
  tl_dialog_panel_update (self);
  g_object_unref (self);
}

/* Filter parameters. */

static void
tl_dialog_panel_format_number (gchar   *buffer,
                               gsize    size,
                               gdouble  value)
{
  g_ascii_formatd (buffer, size, "%.6g", value);
}

static void
tl_dialog_panel_show_param (TlDialogParam *param,
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
          tl_dialog_panel_format_number (number, sizeof (number), value->v[i]);
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

        tl_dialog_panel_format_number (number, sizeof (number),
                                       col < cols ? value->v[row * cols + col] : 0.0);
        gtk_entry_set_text (GTK_ENTRY (cell), number);
        gtk_widget_set_sensitive (cell, col < cols);
      }
}

/* The numbers of a matrix or list as text for tl_filter_set_value (),
 * which checks them; a decimal comma is taken as a point.
 */
static gchar *
tl_dialog_panel_param_text (TlDialogParam *param)
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
        tl_dialog_panel_set_error_style (cell,
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
tl_dialog_panel_read_params (TlDialogPanel *self)
{
  guint i;

  g_clear_pointer (&self->param_error, g_free);

  for (i = 0; i < tl_dialog_panel_n_params (self); i++)
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

      text = tl_dialog_panel_param_text (param);
      if (! tl_filter_set_value (self->filter, self->settings.values,
                                 param->spec->name, text, &error) &&
          self->param_error == NULL)
        self->param_error = g_strdup (error->message);
      if (param->entry)
        tl_dialog_panel_set_error_style (param->entry, error != NULL);
    }
}

static void
tl_dialog_panel_changed_cb (gpointer       widget,
                            TlDialogPanel *self)
{
  tl_dialog_panel_update (self);
}

static void
tl_dialog_panel_more_toggled (GtkToggleButton *button,
                              TlDialogParam   *param)
{
  guint row, col;

  for (row = 0; row < param->rows; row++)
    for (col = param->min_cols; col < param->max_cols; col++)
      gtk_widget_set_sensitive (param->cells[row * param->max_cols + col],
                                gtk_toggle_button_get_active (button));
}

static void
tl_dialog_panel_add_param (TlDialogPanel *self,
                           GtkGrid       *grid,
                           gint          *row,
                           TlDialogParam *param)
{
  const TlParamSpec *spec  = param->spec;
  GtkWidget         *label = gtk_label_new (_(spec->label));

  /* Registry labels are plain text, never mnemonics: an underscore in a
   * filter's label must not steal a letter from the dialog.
   */
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_widget_set_tooltip_text (label, _(spec->description));

  if (spec->type == TL_PARAM_DOUBLE)
    {
      GtkWidget *scale, *spin;
      gdouble    span   = spec->max - spec->min;
      guint      digits = span <= 1.0 ? 3 : span <= 100.0 ? 2 : 1;
      gdouble    step   = span <= 1.0 ? 0.001 : span <= 100.0 ? 0.01 : 0.1;

      param->adjustment = gtk_adjustment_new (spec->defaults[0], spec->min,
                                              spec->max, step, step * 10, 0);
      scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, param->adjustment);
      gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
      gtk_widget_set_hexpand (scale, TRUE);
      spin = gtk_spin_button_new (param->adjustment, step, digits);
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
      gtk_entry_set_width_chars (GTK_ENTRY (spin), 6);
      gtk_widget_set_tooltip_text (scale, _(spec->description));
      gtk_widget_set_tooltip_text (spin, _(spec->description));

      gtk_grid_attach (grid, label, 0, *row, 1, 1);
      gtk_grid_attach (grid, scale, 1, *row, 1, 1);
      gtk_grid_attach (grid, spin, 2, *row, 1, 1);
      (*row)++;

      g_signal_connect (param->adjustment, "value-changed",
                        G_CALLBACK (tl_dialog_panel_changed_cb), self);
    }
  else if (spec->n_min % TL_DIALOG_PANEL_MATRIX_ROWS == 0 &&
           spec->n_max % TL_DIALOG_PANEL_MATRIX_ROWS == 0 &&
           spec->n_max >= 2 * TL_DIALOG_PANEL_MATRIX_ROWS)
    {
      /* A matrix of four rows (color-matrix's 4x4, or 4x5 with an offset
       * column): one entry per number, compact where spin buttons are not.
       */
      GtkWidget *cells = gtk_grid_new ();
      guint      r, c;

      param->rows     = TL_DIALOG_PANEL_MATRIX_ROWS;
      param->min_cols = spec->n_min / param->rows;
      param->max_cols = spec->n_max / param->rows;
      param->cells    = g_new0 (GtkWidget *, param->rows * param->max_cols);

      gtk_grid_set_row_spacing (GTK_GRID (cells), 3);
      gtk_grid_set_column_spacing (GTK_GRID (cells), 3);
      for (r = 0; r < param->rows; r++)
        for (c = 0; c < param->max_cols; c++)
          {
            GtkWidget *cell = gtk_entry_new ();

            gtk_entry_set_width_chars (GTK_ENTRY (cell), 6);
            gtk_entry_set_max_width_chars (GTK_ENTRY (cell), 6);
            gtk_entry_set_alignment (GTK_ENTRY (cell), 1.0);
            gtk_entry_set_input_purpose (GTK_ENTRY (cell), GTK_INPUT_PURPOSE_NUMBER);
            gtk_widget_set_tooltip_text (cell, _(spec->description));
            gtk_grid_attach (GTK_GRID (cells), cell, c, r, 1, 1);
            param->cells[r * param->max_cols + c] = cell;
            g_signal_connect (cell, "changed",
                              G_CALLBACK (tl_dialog_panel_changed_cb), self);
          }

      gtk_grid_attach (grid, label, 0, *row, 3, 1);
      (*row)++;
      gtk_grid_attach (grid, cells, 0, *row, 3, 1);
      (*row)++;

      if (param->max_cols > param->min_cols)
        {
          g_autofree gchar *text = NULL;

          /* TRANSLATORS: turns on a matrix's last column(s): the number of
           * columns and then of numbers in all.
           */
          text = g_strdup_printf (_("_Use %u columns (%u numbers)"),
                                  param->max_cols, spec->n_max);
          param->more = gtk_check_button_new_with_mnemonic (text);
          gtk_grid_attach (grid, param->more, 0, *row, 3, 1);
          (*row)++;
          g_signal_connect (param->more, "toggled",
                            G_CALLBACK (tl_dialog_panel_more_toggled), param);
          g_signal_connect (param->more, "toggled",
                            G_CALLBACK (tl_dialog_panel_changed_cb), self);
        }
    }
  else
    {
      param->entry = gtk_entry_new ();
      gtk_widget_set_hexpand (param->entry, TRUE);
      gtk_widget_set_tooltip_text (param->entry, _(spec->description));
      gtk_grid_attach (grid, label, 0, *row, 1, 1);
      gtk_grid_attach (grid, param->entry, 1, *row, 2, 1);
      (*row)++;
      g_signal_connect (param->entry, "changed",
                        G_CALLBACK (tl_dialog_panel_changed_cb), self);
    }
}

static GtkWidget *
tl_dialog_panel_filter_page (TlDialogPanel *self)
{
  GtkWidget *grid = tl_dialog_panel_page_grid ();
  GtkWidget *hint;
  gint       row  = 0;
  guint      i;

  /* Registry texts are looked up at run time: they reach the catalogue
   * once the engine marks them with N_ ().
   */
  hint = tl_dialog_panel_hint (_(self->filter->description));
  gtk_grid_attach (GTK_GRID (grid), hint, 0, row++, 3, 1);

  self->params = g_new0 (TlDialogParam, MAX (1, self->filter->n_params));
  for (i = 0; i < tl_dialog_panel_n_params (self); i++)
    {
      self->params[i].spec = &self->filter->params[i];
      tl_dialog_panel_add_param (self, GTK_GRID (grid), &row, &self->params[i]);
    }

  if (self->filter->n_params == 0)
    gtk_grid_attach (GTK_GRID (grid),
                     tl_dialog_panel_hint (_("This filter has no parameters.")),
                     0, row++, 3, 1);

  return grid;
}

/* Dispatch. */

static const gchar *
tl_dialog_panel_shape_id (TlDialogPanel *self)
{
  const gchar *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->shape_combo));

  return id ? id : "auto";
}

static void
tl_dialog_panel_shape_changed (GtkComboBox   *combo,
                               TlDialogPanel *self)
{
  const gchar *id = tl_dialog_panel_shape_id (self);
  TlChoice     choice;

  if (self->updating)
    return;

  /* A preset shows its size in the spin buttons. */
  tl_choice_init (&choice);
  if (strcmp (id, "custom") != 0 &&
      tl_shape_from_string (id, &choice, NULL) &&
      choice.shape_kind == TL_SHAPE_CUSTOM)
    {
      self->updating++;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_width), choice.shape[0]);
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_height), choice.shape[1]);
      self->updating--;
    }

  tl_dialog_panel_update (self);
}

/* Typing a size makes the shape custom. */
static void
tl_dialog_panel_size_changed (GtkSpinButton *spin,
                              TlDialogPanel *self)
{
  if (self->updating)
    return;

  self->updating++;
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->shape_combo), "custom");
  self->updating--;

  tl_dialog_panel_update (self);
}

static void
tl_dialog_panel_swizzle_toggled (GtkToggleButton *button,
                                 TlDialogPanel   *self)
{
  gtk_widget_set_sensitive (self->swizzle_spin,
                            gtk_toggle_button_get_active (button));
  tl_dialog_panel_update (self);
}

static void tl_dialog_panel_set_message (TlDialogPanel *self,
                                         const gchar   *heading,
                                         const gchar   *detail);
static void tl_dialog_panel_update      (TlDialogPanel *self);

typedef struct
{
  TlHostSettings  settings;
  const TlFilter *filter;
  GeglBuffer     *source;
  GeglRectangle   region;
  TlTuning        tuning;
  GError         *error;
} TlDialogTuneJob;

static void
tl_dialog_panel_tune_job_free (gpointer data)
{
  TlDialogTuneJob *job = data;

  g_clear_object (&job->source);
  g_clear_error (&job->error);
  g_free (job);
}

static void
tl_dialog_panel_tune_thread (GTask        *task,
                             gpointer      source_object,
                             gpointer      task_data,
                             GCancellable *cancellable)
{
  TlDialogTuneJob *job = task_data;

  /* The preview's kernels and the search must not share the device. */
  tl_probe_lock ();
  tl_host_tune (&job->settings, job->filter, job->source, &job->region,
                &job->tuning, &job->error);
  tl_probe_unlock ();
  g_task_return_boolean (task, TRUE);
}

static void
tl_dialog_panel_tuned (GObject      *source_object,
                       GAsyncResult *result,
                       gpointer      data)
{
  GWeakRef        *ref  = data;
  TlDialogPanel   *self = g_weak_ref_get (ref);
  TlDialogTuneJob *job  = g_task_get_task_data (G_TASK (result));

  tl_probe_job_end ();
  g_weak_ref_clear (ref);
  g_free (ref);
  if (self == NULL)
    return;

  self->tuning = FALSE;
  if (! self->disposed)
    {
      gtk_button_set_label (GTK_BUTTON (self->tune_button), _("Tu_ne"));
      gtk_widget_set_sensitive (self->tune_button, TRUE);
      if (job->error)
        tl_dialog_panel_set_message (self, _("Tuning failed."),
                                     job->error->message);
      else
        tl_dialog_panel_update (self);
    }
  g_object_unref (self);
}

/* Runs the search in a worker thread; the summary shows its result. */
static void
tl_dialog_panel_tune (TlDialogPanel *self)
{
  TlDialogTuneJob *job;
  GWeakRef        *ref;
  GTask           *task;

  if (self->tuning)
    return;

  job = g_new0 (TlDialogTuneJob, 1);
  job->settings = self->settings;
  job->filter   = self->filter;
  job->source   = g_object_ref (self->source);
  job->region   = self->region;

  self->tuning = TRUE;
  gtk_button_set_label (GTK_BUTTON (self->tune_button), _("Tuning…"));
  gtk_widget_set_sensitive (self->tune_button, FALSE);

  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  task = g_task_new (NULL, NULL, tl_dialog_panel_tuned, ref);
  g_task_set_task_data (task, job, tl_dialog_panel_tune_job_free);
  g_task_run_in_thread (task, tl_dialog_panel_tune_thread);
  g_object_unref (task);
}

static GtkWidget *
tl_dialog_panel_dispatch_page (TlDialogPanel *self)
{
  GtkWidget       *grid = tl_dialog_panel_page_grid ();
  GtkWidget       *box, *label;
  GtkCellRenderer *cell;
  guint            i;
  gint             row = 0;

  /* Device. */
  self->device_store = gtk_list_store_new (TL_DIALOG_PANEL_N_COLUMNS,
                                           G_TYPE_STRING, G_TYPE_INT);
  self->device_combo = gtk_combo_box_new_with_model (GTK_TREE_MODEL (self->device_store));
  cell = gtk_cell_renderer_text_new ();
  /* Device names are long; the dialog must not grow with them. */
  g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", 30, NULL);
  gtk_cell_layout_pack_start (GTK_CELL_LAYOUT (self->device_combo), cell, TRUE);
  gtk_cell_layout_set_attributes (GTK_CELL_LAYOUT (self->device_combo), cell,
                                  "text", TL_DIALOG_PANEL_COLUMN_TEXT, NULL);
  gtk_widget_set_hexpand (self->device_combo, TRUE);
  gtk_widget_set_tooltip_text (self->device_combo,
                               _("The OpenCL device that runs the kernels. "
                                 "P is the kernels' preferred work-group "
                                 "size multiple (the SIMD width), M the "
                                 "largest work-group they can run."));
  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("D_evice:"), self->device_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->device_combo, 1, row++, 1, 1);
  g_signal_connect (self->device_combo, "changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  /* Shape: a rule or preset, and its size. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->shape_combo = gtk_combo_box_text_new ();
  for (i = 0; i < G_N_ELEMENTS (tl_dialog_panel_shapes); i++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->shape_combo),
                               tl_dialog_panel_shapes[i].id,
                               /* Presets are numbers: nothing to translate. */
                               g_ascii_isdigit (tl_dialog_panel_shapes[i].label[0]) ?
                               tl_dialog_panel_shapes[i].label :
                               _(tl_dialog_panel_shapes[i].label));
  gtk_widget_set_tooltip_text (self->shape_combo,
                               _("The work-group shape. Automatic and the seed "
                                 "rule make groups P wide and M / P tall."));
  gtk_widget_set_hexpand (self->shape_combo, TRUE);
  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("Sh_ape:"), self->shape_combo),
                   0, row, 1, 1);
  if (self->filter && self->source)
    {
      GtkWidget *shape_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      self->tune_button = gtk_button_new_with_mnemonic (_("Tu_ne"));
      gtk_widget_set_tooltip_text (self->tune_button,
                                   _("Time the candidate shapes, swizzles and "
                                     "pixels per item on this layer and keep "
                                     "the fastest for Automatic"));
      g_signal_connect_swapped (self->tune_button, "clicked",
                                G_CALLBACK (tl_dialog_panel_tune), self);
      gtk_box_pack_start (GTK_BOX (shape_box), self->shape_combo, TRUE, TRUE, 0);
      gtk_box_pack_start (GTK_BOX (shape_box), self->tune_button, FALSE, FALSE, 0);
      gtk_grid_attach (GTK_GRID (grid), shape_box, 1, row++, 1, 1);
    }
  else
    {
      gtk_grid_attach (GTK_GRID (grid), self->shape_combo, 1, row++, 1, 1);
    }

  self->shape_width = tl_dialog_panel_spin (1, TL_DIALOG_PANEL_MAX_SHAPE, 8);
  gtk_widget_set_tooltip_text (self->shape_width,
                               _("Work-group width in work-items"));
  gtk_box_pack_start (GTK_BOX (box), self->shape_width, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), gtk_label_new ("×"), FALSE, FALSE, 0);
  self->shape_height = tl_dialog_panel_spin (1, TL_DIALOG_PANEL_MAX_SHAPE, 8);
  gtk_widget_set_tooltip_text (self->shape_height,
                               _("Work-group height in work-items"));
  gtk_box_pack_start (GTK_BOX (box), self->shape_height, FALSE, FALSE, 0);

  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("Wid_th × height:"), self->shape_width),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), box, 1, row++, 1, 1);
  g_signal_connect (self->shape_combo, "changed",
                    G_CALLBACK (tl_dialog_panel_shape_changed), self);
  g_signal_connect (self->shape_width, "value-changed",
                    G_CALLBACK (tl_dialog_panel_size_changed), self);
  g_signal_connect (self->shape_height, "value-changed",
                    G_CALLBACK (tl_dialog_panel_size_changed), self);

  /* Mode. */
  self->mode_combo = gtk_combo_box_text_new ();
  for (i = 0; i < G_N_ELEMENTS (tl_dialog_panel_modes); i++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->mode_combo),
                               tl_mode_to_string (tl_dialog_panel_modes[i].mode),
                               _(tl_dialog_panel_modes[i].label));
  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("_Mode:"), self->mode_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->mode_combo, 1, row++, 1, 1);
  self->mode_hint = tl_dialog_panel_hint (NULL);
  gtk_grid_attach (GTK_GRID (grid), self->mode_hint, 1, row++, 1, 1);
  g_signal_connect (self->mode_combo, "changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  /* Swizzle. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->swizzle_toggle = gtk_check_button_new_with_mnemonic (_("S_wizzle:"));
  gtk_widget_set_tooltip_text (self->swizzle_toggle,
                               _("Remap thread-group IDs so consecutive groups "
                                 "walk tiles N groups wide, for cache "
                                 "locality"));
  self->swizzle_spin = tl_dialog_panel_spin (1, TL_DIALOG_PANEL_MAX_SWIZZLE,
                                             TL_DIALOG_PANEL_SWIZZLE);
  gtk_widget_set_sensitive (self->swizzle_spin, FALSE);
  gtk_widget_set_tooltip_text (self->swizzle_spin,
                               _("Tile width N in work-groups"));
  gtk_box_pack_start (GTK_BOX (box), self->swizzle_spin, FALSE, FALSE, 0);
  label = gtk_label_new (_("groups per tile"));
  gtk_box_pack_start (GTK_BOX (box), label, FALSE, FALSE, 0);
  gtk_grid_attach (GTK_GRID (grid), self->swizzle_toggle, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), box, 1, row++, 1, 1);
  g_signal_connect (self->swizzle_toggle, "toggled",
                    G_CALLBACK (tl_dialog_panel_swizzle_toggled), self);
  g_signal_connect (self->swizzle_spin, "value-changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  /* Pixels per work-item. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->pixels_spin = tl_dialog_panel_spin (1, TL_DIALOG_PANEL_MAX_K,
                                            tl_dialog_panel_default_pixels (self));
  gtk_widget_set_tooltip_text (self->pixels_spin,
                               _("Consecutive pixels along x that each "
                                 "work-item processes"));
  gtk_box_pack_start (GTK_BOX (box), self->pixels_spin, FALSE, FALSE, 0);
  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("Pi_xels per work-item:"),
                                          self->pixels_spin),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), box, 1, row++, 1, 1);
  g_signal_connect (self->pixels_spin, "value-changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  return grid;
}

/* Overlay. */

static GtkWidget *
tl_dialog_panel_overlay_page (TlDialogPanel *self)
{
  GtkWidget *grid = tl_dialog_panel_page_grid ();
  GtkWidget *scale, *spin, *label;
  guint      i, j;
  gint       row = 0;

  self->overlay_combo = gtk_combo_box_text_new ();
  /* The thread map needs a mode: no "none" there. */
  for (i = self->filter ? 0 : 1; tl_host_overlay_names[i]; i++)
    {
      const gchar *text = tl_host_overlay_names[i];

      for (j = 0; j < G_N_ELEMENTS (tl_dialog_panel_overlays); j++)
        if (strcmp (tl_dialog_panel_overlays[j].name, text) == 0)
          text = _(tl_dialog_panel_overlays[j].label);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->overlay_combo),
                                 tl_host_overlay_names[i], text);
    }
  gtk_widget_set_hexpand (self->overlay_combo, TRUE);
  gtk_widget_set_tooltip_text (self->overlay_combo,
                               _("Color the pixels by the work-group, SIMD "
                                 "group or lane that computed them, by the "
                                 "order their groups started, or by the "
                                 "compute unit that ran them"));
  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_label (_("Color _by:"), self->overlay_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->overlay_combo, 1, row++, 2, 1);
  g_signal_connect (self->overlay_combo, "changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  self->style_combo = gtk_combo_box_text_new ();
  for (i = 0; tl_host_overlay_style_names[i]; i++)
    {
      const gchar *text = tl_host_overlay_style_names[i];

      for (j = 0; j < G_N_ELEMENTS (tl_dialog_panel_styles); j++)
        if (strcmp (tl_dialog_panel_styles[j].name, text) == 0)
          text = _(tl_dialog_panel_styles[j].label);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->style_combo),
                                 tl_host_overlay_style_names[i], text);
    }
  gtk_widget_set_tooltip_text (self->style_combo,
                               _("Tint: a color per unit, blended at the "
                                 "opacity. Checkerboard: every other unit's "
                                 "colors inverted."));
  label = tl_dialog_panel_label (_("St_yle:"), self->style_combo);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->style_combo, 1, row++, 2, 1);
  g_signal_connect (self->style_combo, "changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  self->opacity = gtk_adjustment_new (50.0, 0.0, 100.0, 1.0, 10.0, 0.0);
  scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->opacity);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_widget_set_hexpand (scale, TRUE);
  spin = gtk_spin_button_new (self->opacity, 1.0, 0);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 4);
  label = tl_dialog_panel_label (_("Opac_ity:"), spin);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), scale, 1, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), spin, 2, row++, 1, 1);
  self->opacity_row[0] = label;
  self->opacity_row[1] = scale;
  self->opacity_row[2] = spin;
  g_signal_connect (self->opacity, "value-changed",
                    G_CALLBACK (tl_dialog_panel_changed_cb), self);

  gtk_grid_attach (GTK_GRID (grid),
                   tl_dialog_panel_hint (_("The overlay goes to a new layer "
                                           "above this one, so the image "
                                           "itself is kept.")),
                   0, row++, 3, 1);

  return grid;
}

/* Reading the widgets and judging the result. */

static gint
tl_dialog_panel_name_index (const gchar **names,
                            const gchar  *name)
{
  gint i;

  for (i = 0; name && names[i]; i++)
    if (strcmp (names[i], name) == 0)
      return i;

  return 0;
}

static void
tl_dialog_panel_read (TlDialogPanel *self)
{
  TlHostSettings *settings = &self->settings;
  const gchar    *shape    = tl_dialog_panel_shape_id (self);
  const gchar    *mode     = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->mode_combo));
  gint            device   = tl_dialog_panel_active_device (self);
  gint            pixels;

  tl_dialog_panel_read_params (self);

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
  settings->pixels_per_item = ((guint) pixels == tl_dialog_panel_default_pixels (self) ?
                               0 : pixels);

  settings->overlay = tl_dialog_panel_name_index (tl_host_overlay_names,
                                                  gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->overlay_combo)));
  settings->overlay_style = tl_dialog_panel_name_index (tl_host_overlay_style_names,
                                                        gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->style_combo)));
  settings->overlay_opacity = gtk_adjustment_get_value (self->opacity) / 100.0;

  if (device == TL_DIALOG_PANEL_DEVICE_AUTO)
    settings->device[0] = '\0';
  else if (device >= 0)
    g_strlcpy (settings->device, tl_dialog_panel_device (self, device)->spec,
               sizeof (settings->device));
  /* A missing device keeps its name, so the message can say which. */
}

static gboolean
tl_dialog_panel_overlay_is (TlDialogPanel *self,
                            const gchar   *name)
{
  return strcmp (tl_host_overlay_names[self->settings.overlay], name) == 0;
}

static void
tl_dialog_panel_set_message (TlDialogPanel *self,
                             const gchar   *heading,
                             const gchar   *detail)
{
  g_autofree gchar *markup = NULL;

  g_clear_pointer (&self->message, g_free);
  if (heading == NULL)
    {
      gtk_stack_set_visible_child (GTK_STACK (self->summary_stack), self->summary);
      return;
    }

  self->message = g_strdup_printf ("%s\n%s", heading, detail);
  markup = g_markup_printf_escaped ("<b>%s</b>\n%s", heading, detail);
  gtk_label_set_markup (GTK_LABEL (self->info_label), markup);
  gtk_stack_set_visible_child (GTK_STACK (self->summary_stack), self->info_bar);
}

/* Judges the settings: the plan on the chosen device's limits, or why
 * they cannot run.  Nothing is adjusted to make them fit.
 */
static void
tl_dialog_panel_evaluate (TlDialogPanel *self)
{
  g_autoptr(GError)    error   = NULL;
  g_autofree gchar    *heading = NULL;
  const TlProbeDevice *device  = NULL;
  const gchar         *detail  = NULL;
  const gchar         *shape   = tl_dialog_panel_shape_id (self);
  gint                 index   = tl_dialog_panel_active_device (self);
  gboolean             limit   = FALSE;
  gboolean             bordered;
  TlChoice             choice;
  guint                i;

  self->have_plan       = FALSE;
  self->have_limits     = FALSE;
  self->message_is_note = FALSE;

  if (self->devices)
    device = tl_dialog_panel_device (self, index);
  if (device && device->measured)
    {
      self->limits      = device->limits;
      self->have_limits = TRUE;
    }

  tl_dialog_panel_run_area (self, &self->area);

  if (self->param_error ||
      (self->filter &&
       ! tl_filter_check_values (self->filter, self->settings.values, &error)))
    {
      heading = g_strdup (_("A filter parameter is not valid."));
      detail  = self->param_error ? self->param_error : error->message;
    }
  else if (self->devices_error && self->cpu_only && self->filter &&
           self->settings.overlay == 0)
    {
      /* The C reference stands in, as the run itself will say. */
      heading = g_strdup (_("No OpenCL platform: the filter will run on the "
                            "CPU, through its C reference."));
      detail  = self->devices_error;
      self->message_is_note = TRUE;
    }
  else if (self->devices_error)
    {
      heading = g_strdup (_("No OpenCL device is available."));
      detail  = self->devices_error;
    }
  else if (self->devices && device == NULL)
    {
      /* TRANSLATORS: %s is a remembered device name. */
      heading = g_strdup_printf (_("The device “%s” is not present."),
                                 self->settings.device);
      detail  = _("Choose another device.");
    }
  else if (device && ! device->measured)
    {
      heading = g_strdup_printf (_("The kernels do not build on %s."),
                                 device->name);
      detail  = device->error;
    }
  else if ((tl_dialog_panel_overlay_is (self, "launch-order") ||
            tl_dialog_panel_overlay_is (self, "compute-unit")) &&
           strcmp (tl_host_overlay_style_names[self->settings.overlay_style],
                   "checkerboard") == 0)
    {
      /* The overlay's own rules, said before the run fails on them. */
      heading = g_strdup (_("This overlay cannot be a checkerboard."));
      detail  = _("The checkerboard style shows work-groups, SIMD groups or "
                  "lanes; use the tint style for the launch order or the "
                  "compute units.");
    }
  else if (device && tl_dialog_panel_overlay_is (self, "compute-unit") &&
           ! device->names_compute_units)
    {
      heading = g_strdup_printf (_("%s does not say which compute unit ran a "
                                   "work-group."), device->name);
      detail  = _("Only NVIDIA's OpenCL does. Choose another overlay or "
                  "device.");
    }
  else if (self->have_limits)
    {
      if (! tl_host_settings_to_choice (&self->settings, &choice, &error))
        {
          heading = g_strdup_printf (_("These choices cannot run on %s."),
                                     device->name);
          detail  = error->message;
        }
      else
        {
          TlTuning tuning;
          gboolean tuned = FALSE;

          if (strcmp (shape, "seed") == 0)
            choice.shape_kind = TL_SHAPE_SEED;
          if (choice.pixels_per_item == 0)
            choice.pixels_per_item = tl_dialog_panel_default_pixels (self);

          /* "auto" shows what a run will take: the tuned choice where a
           * search has been run for this device, storage and size.
           */
          if (choice.shape_kind == TL_SHAPE_AUTO && self->filter && device &&
              tl_tune_lookup_device (device->name, device->driver, self->filter,
                                     self->variant ? self->variant : "",
                                     choice.mode, self->area.width,
                                     self->area.height, &tuning) &&
              tl_tune_plan (&tuning, &self->limits, self->area.width,
                            self->area.height, &self->plan))
            {
              self->have_plan = TRUE;
              tuned           = TRUE;
            }

          if (! tuned &&
              tl_plan_compute (&self->limits, &choice, self->area.width,
                               self->area.height, &self->plan, &error))
            {
              self->have_plan = TRUE;
            }
          else if (! tuned)
            {
              /* TRANSLATORS: %s is an OpenCL device's name; the planner's
               * reason follows on the next line.
               */
              heading = g_strdup_printf (_("These choices cannot run on %s."),
                                         device->name);
              detail  = error->message;
              limit   = g_error_matches (error, TL_ERROR, TL_ERROR_LIMIT);
            }
        }
    }

  tl_dialog_panel_set_message (self, heading, detail);
  tl_dialog_panel_set_error_style (self->shape_width, limit);
  tl_dialog_panel_set_error_style (self->shape_height, limit);

  /* Automatic and seed shapes show the size they came to; with no plan
   * there is no such size, and the spin buttons say nothing.
   */
  if (strcmp (shape, "auto") == 0 || strcmp (shape, "seed") == 0)
    {
      if (self->have_plan)
        {
          self->updating++;
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_width), self->plan.local[0]);
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_height), self->plan.local[1]);
          self->updating--;
        }
      gtk_widget_set_sensitive (self->shape_width, self->have_plan);
      gtk_widget_set_sensitive (self->shape_height, self->have_plan);
    }
  else
    {
      gtk_widget_set_sensitive (self->shape_width, TRUE);
      gtk_widget_set_sensitive (self->shape_height, TRUE);
    }

  for (i = 0; i < G_N_ELEMENTS (tl_dialog_panel_modes); i++)
    if (tl_dialog_panel_modes[i].mode == self->settings.mode)
      gtk_label_set_text (GTK_LABEL (self->mode_hint),
                          _(tl_dialog_panel_modes[i].hint));

  bordered = ! gegl_rectangle_equal (&self->area, &self->region);
  if (self->have_plan)
    tl_summary_show_plan (TL_SUMMARY (self->summary), device->name,
                          &self->limits, &self->plan, bordered);
  else
    tl_summary_show_no_plan (TL_SUMMARY (self->summary),
                             device ? device->name : NULL,
                             self->have_limits ? &self->limits : NULL,
                             self->area.width, self->area.height, bordered);

  /* Tuning times kernels: it needs a device that built them. */
  if (self->tune_button && ! self->tuning)
    gtk_widget_set_sensitive (self->tune_button, self->have_limits);
  gtk_widget_set_sensitive (self->style_combo, self->settings.overlay > 0);
  for (i = 0; i < G_N_ELEMENTS (self->opacity_row); i++)
    gtk_widget_set_sensitive (self->opacity_row[i], self->settings.overlay > 0);

  if (self->runnable != (self->message == NULL || self->message_is_note))
    {
      self->runnable = self->message == NULL || self->message_is_note;
      g_object_notify_by_pspec (G_OBJECT (self),
                                tl_dialog_panel_props[PROP_RUNNABLE]);
    }

  tl_preview_set_settings (TL_PREVIEW (self->preview), &self->settings,
                           &self->area, self->have_plan ? &self->plan : NULL,
                           self->runnable);
}

static void
tl_dialog_panel_update (TlDialogPanel *self)
{
  if (self->updating)
    return;

  tl_dialog_panel_read (self);
  tl_dialog_panel_evaluate (self);
  g_signal_emit (self, tl_dialog_panel_signals[CHANGED], 0);
}

/* Puts SETTINGS into the widgets. */
static void
tl_dialog_panel_show (TlDialogPanel        *self,
                      const TlHostSettings *settings)
{
  g_autofree gchar *shape = NULL;
  const gchar      *shape_id = "custom";
  guint             overlays, styles, i;

  self->updating++;

  self->settings = *settings;

  for (i = 0; i < tl_dialog_panel_n_params (self); i++)
    tl_dialog_panel_show_param (&self->params[i], &settings->values[i]);

  if (settings->shape[0] <= 0 || settings->shape[1] <= 0)
    {
      shape_id = "auto";
    }
  else
    {
      shape = g_strdup_printf ("%dx%d", settings->shape[0], settings->shape[1]);
      for (i = 0; i < G_N_ELEMENTS (tl_dialog_panel_shapes); i++)
        if (strcmp (tl_dialog_panel_shapes[i].id, shape) == 0)
          shape_id = tl_dialog_panel_shapes[i].id;
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
                             settings->pixels_per_item :
                             (gint) tl_dialog_panel_default_pixels (self));

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

  tl_dialog_panel_fill_devices (self, settings->device);

  self->updating--;

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

  G_OBJECT_CLASS (tl_dialog_panel_parent_class)->dispose (object);
}

static void
tl_dialog_panel_finalize (GObject *object)
{
  TlDialogPanel *self = TL_DIALOG_PANEL (object);
  guint          i;

  for (i = 0; self->params && i < tl_dialog_panel_n_params (self); i++)
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
  self->filter = filter;
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
                      tl_dialog_panel_frame (_("Preview"), self->preview),
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
    tl_dialog_panel_tab (self->notebook, tl_dialog_panel_filter_page (self),
                         _("_Filter"));
  tl_dialog_panel_tab (self->notebook, tl_dialog_panel_dispatch_page (self),
                       _("_Dispatch"));
  tl_dialog_panel_tab (self->notebook, tl_dialog_panel_overlay_page (self),
                       _("O_verlay"));
  gtk_box_pack_start (GTK_BOX (right), self->notebook, FALSE, FALSE, 0);

  self->summary = tl_summary_new ();
  gtk_stack_add_named (GTK_STACK (self->summary_stack), self->summary, "summary");
  gtk_stack_add_named (GTK_STACK (self->summary_stack), self->info_bar, "message");
  gtk_box_pack_start (GTK_BOX (right),
                      tl_dialog_panel_frame (_("Summary"), self->summary_stack),
                      TRUE, TRUE, 0);

  gtk_widget_show_all (GTK_WIDGET (self));
  /* A filter without parameters opens where the choices are. */
  if (filter && filter->n_params == 0)
    gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook), 1);

  tl_dialog_panel_show (self, settings);

  self->cancellable = g_cancellable_new ();
  self->probing     = TRUE;
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  tl_probe_devices_async (filter, source ? gegl_buffer_get_format (source) : NULL,
                          region->width, region->height,
                          self->cancellable, tl_dialog_panel_probed, ref);

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

  tl_dialog_panel_show (panel, settings);
}

/* Every choice back to its default, the device to the automatic one. */
void
tl_dialog_panel_reset (TlDialogPanel *panel)
{
  TlHostSettings defaults;

  g_return_if_fail (TL_IS_DIALOG_PANEL (panel));

  tl_host_settings_init (&defaults, panel->filter);
  tl_dialog_panel_show (panel, &defaults);
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

static gboolean
tl_dialog_panel_parse_int (const gchar *text,
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
tl_dialog_panel_parse_bool (const gchar *text,
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
tl_dialog_panel_set_combo (GtkWidget   *combo,
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
  TlDialogParam *param = NULL;
  guint          index;
  gint           number;
  gboolean       flag;

  g_return_val_if_fail (TL_IS_DIALOG_PANEL (panel), FALSE);
  g_return_val_if_fail (name != NULL && value != NULL, FALSE);

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
      tl_dialog_panel_show_param (param, &values[index]);
      panel->updating--;
      tl_dialog_panel_update (panel);
      return TRUE;
    }

  if (strcmp (name, "shape") == 0)
    {
      TlChoice choice;
      guint    i;

      if (strcmp (value, "custom") == 0)
        return tl_dialog_panel_set_combo (panel->shape_combo, value, error);
      for (i = 0; i < G_N_ELEMENTS (tl_dialog_panel_shapes); i++)
        if (strcmp (tl_dialog_panel_shapes[i].id, value) == 0)
          return tl_dialog_panel_set_combo (panel->shape_combo, value, error);

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
      return tl_dialog_panel_set_combo (panel->shape_combo, "custom", error);
    }
  if (strcmp (name, "shape-width") == 0 || strcmp (name, "shape-height") == 0)
    {
      if (! tl_dialog_panel_parse_int (value, 1, TL_DIALOG_PANEL_MAX_SHAPE,
                                       &number, error))
        return FALSE;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (name[6] == 'w' ?
                                                  panel->shape_width :
                                                  panel->shape_height), number);
      return tl_dialog_panel_set_combo (panel->shape_combo, "custom", error);
    }
  if (strcmp (name, "mode") == 0)
    return tl_dialog_panel_set_combo (panel->mode_combo, value, error);
  if (strcmp (name, "swizzle") == 0)
    {
      if (! tl_dialog_panel_parse_int (value, 0, TL_DIALOG_PANEL_MAX_SWIZZLE,
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
      if (! tl_dialog_panel_parse_int (value, 1, TL_DIALOG_PANEL_MAX_K,
                                       &number, error))
        return FALSE;
      gtk_spin_button_set_value (GTK_SPIN_BUTTON (panel->pixels_spin), number);
      return TRUE;
    }
  if (strcmp (name, "device") == 0)
    {
      gint        device = tl_dialog_panel_find_device (panel, value);
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
    return tl_dialog_panel_set_combo (panel->overlay_combo, value, error);
  if (strcmp (name, "overlay-style") == 0)
    return tl_dialog_panel_set_combo (panel->style_combo, value, error);
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
      if (! tl_dialog_panel_parse_bool (value, &flag, error))
        return FALSE;
      if (name[0] == 'p')
        tl_preview_set_active (TL_PREVIEW (panel->preview), flag);
      else
        tl_preview_set_grid (TL_PREVIEW (panel->preview), flag);
      return TRUE;
    }
  if (strcmp (name, "zoom") == 0)
    {
      if (! tl_dialog_panel_parse_int (value, 1, 8, &number, error))
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

  tl_dialog_panel_fill_devices (panel, panel->settings.device);
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
