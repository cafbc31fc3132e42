/* ThreadLens dialog: the panel's pages, Filter, Dispatch and Overlay:
 * their widgets, and the handlers that report a change to the panel
 * (its changed ()).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"

const TlDialogShape tl_panel_pages_shapes[] =
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

const TlDialogMode tl_panel_pages_modes[] =
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
} tl_panel_pages_overlays[] =
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
} tl_panel_pages_styles[] =
{
  { "tint",         N_("Tint") },
  { "checkerboard", N_("Checkerboard") },
};

/* Widget helpers. */

GtkWidget *
tl_panel_pages_frame (const gchar *title,
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
tl_panel_pages_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_container_set_border_width (GTK_CONTAINER (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);

  return grid;
}

static GtkWidget *
tl_panel_pages_label (const gchar *mnemonic,
                      GtkWidget   *target)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  if (target)
    gtk_label_set_mnemonic_widget (GTK_LABEL (label), target);

  return label;
}

static GtkWidget *
tl_panel_pages_hint (const gchar *text)
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
tl_panel_pages_spin (gdouble lower,
                     gdouble upper,
                     gdouble value)
{
  GtkAdjustment *adjustment = gtk_adjustment_new (value, lower, upper, 1, 8, 0);
  GtkWidget     *spin       = gtk_spin_button_new (adjustment, 1, 0);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 4);

  return spin;
}

void
tl_panel_pages_set_error_style (GtkWidget *widget,
                                gboolean   error)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  if (error)
    gtk_style_context_add_class (style, GTK_STYLE_CLASS_ERROR);
  else
    gtk_style_context_remove_class (style, GTK_STYLE_CLASS_ERROR);
}

/* Filter parameters. */

static void
tl_panel_pages_changed_cb (gpointer       widget,
                           TlDialogPanel *self)
{
  self->changed (self);
}

static void
tl_panel_pages_more_toggled (GtkToggleButton *button,
                             TlDialogParam   *param)
{
  guint row, col;

  for (row = 0; row < param->rows; row++)
    for (col = param->min_cols; col < param->max_cols; col++)
      gtk_widget_set_sensitive (param->cells[row * param->max_cols + col],
                                gtk_toggle_button_get_active (button));
}

/* A number's slider and spin button: the slider stops at the ends of its
 * range, where the number may go on.
 */
static void
tl_panel_pages_slider_moved (GtkAdjustment *slider,
                             TlDialogParam *param)
{
  if (! param->following)
    gtk_adjustment_set_value (param->adjustment,
                              gtk_adjustment_get_value (slider));
}

static void
tl_panel_pages_number_changed (GtkAdjustment *adjustment,
                               TlDialogParam *param)
{
  param->following = TRUE;
  gtk_adjustment_set_value (param->slider,
                            gtk_adjustment_get_value (adjustment));
  param->following = FALSE;
}

static void
tl_panel_pages_add_param (TlDialogPanel *self,
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

      /* The registry says how the number is shown: the spin button takes
       * the whole range, the slider only the part most settings use.
       */
      param->adjustment = gtk_adjustment_new (spec->defaults[0], spec->min,
                                              spec->max, spec->step,
                                              spec->step * 10, 0);
      param->slider = gtk_adjustment_new (CLAMP (spec->defaults[0],
                                                 spec->ui_min, spec->ui_max),
                                          spec->ui_min, spec->ui_max,
                                          spec->step, spec->step * 10, 0);
      scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, param->slider);
      gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
      /* A drag lands on values the spin button shows: whole numbers stay
       * whole, as the filters insist.
       */
      gtk_range_set_round_digits (GTK_RANGE (scale), spec->digits);
      gtk_widget_set_hexpand (scale, TRUE);
      spin = gtk_spin_button_new (param->adjustment, spec->step, spec->digits);
      gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
      gtk_spin_button_set_snap_to_ticks (GTK_SPIN_BUTTON (spin),
                                         spec->digits == 0);
      gtk_entry_set_width_chars (GTK_ENTRY (spin), 6);
      gtk_widget_set_tooltip_text (scale, _(spec->description));
      gtk_widget_set_tooltip_text (spin, _(spec->description));

      gtk_grid_attach (grid, label, 0, *row, 1, 1);
      gtk_grid_attach (grid, scale, 1, *row, 1, 1);
      gtk_grid_attach (grid, spin, 2, *row, 1, 1);
      (*row)++;

      g_signal_connect (param->slider, "value-changed",
                        G_CALLBACK (tl_panel_pages_slider_moved), param);
      g_signal_connect (param->adjustment, "value-changed",
                        G_CALLBACK (tl_panel_pages_number_changed), param);
      g_signal_connect (param->adjustment, "value-changed",
                        G_CALLBACK (tl_panel_pages_changed_cb), self);
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
                              G_CALLBACK (tl_panel_pages_changed_cb), self);
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
                            G_CALLBACK (tl_panel_pages_more_toggled), param);
          g_signal_connect (param->more, "toggled",
                            G_CALLBACK (tl_panel_pages_changed_cb), self);
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
                        G_CALLBACK (tl_panel_pages_changed_cb), self);
    }
}

GtkWidget *
tl_panel_pages_filter (TlDialogPanel *self)
{
  GtkWidget *grid = tl_panel_pages_grid ();
  GtkWidget *hint;
  gint       row  = 0;
  guint      i;

  /* Registry texts are looked up at run time: they reach the catalogue
   * once the engine marks them with N_ ().
   */
  hint = tl_panel_pages_hint (_(self->filter->description));
  gtk_grid_attach (GTK_GRID (grid), hint, 0, row++, 3, 1);

  self->params = g_new0 (TlDialogParam, MAX (1, self->filter->n_params));
  for (i = 0; i < self->n_params; i++)
    {
      self->params[i].spec = &self->filter->params[i];
      tl_panel_pages_add_param (self, GTK_GRID (grid), &row, &self->params[i]);
    }

  if (self->filter->n_params == 0)
    gtk_grid_attach (GTK_GRID (grid),
                     tl_panel_pages_hint (_("This filter has no parameters.")),
                     0, row++, 3, 1);

  return grid;
}

/* Dispatch. */

const gchar *
tl_panel_pages_shape_id (TlDialogPanel *self)
{
  const gchar *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->shape_combo));

  return id ? id : "auto";
}

static void
tl_panel_pages_shape_changed (GtkComboBox   *combo,
                              TlDialogPanel *self)
{
  const gchar *id = tl_panel_pages_shape_id (self);
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

  self->changed (self);
}

/* Typing a size makes the shape custom. */
static void
tl_panel_pages_size_changed (GtkSpinButton *spin,
                             TlDialogPanel *self)
{
  if (self->updating)
    return;

  self->updating++;
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->shape_combo), "custom");
  self->updating--;

  self->changed (self);
}

static void
tl_panel_pages_swizzle_toggled (GtkToggleButton *button,
                                TlDialogPanel   *self)
{
  gtk_widget_set_sensitive (self->swizzle_spin,
                            gtk_toggle_button_get_active (button));
  self->changed (self);
}

/* DEFAULT_PIXELS: what the pixels per work-item start at, until the
 * settings are shown.  The panel connects the Tune button.
 */
GtkWidget *
tl_panel_pages_dispatch (TlDialogPanel *self,
                         guint          default_pixels)
{
  GtkWidget       *grid = tl_panel_pages_grid ();
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
                   tl_panel_pages_label (_("D_evice:"), self->device_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->device_combo, 1, row++, 1, 1);
  g_signal_connect (self->device_combo, "changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  /* Shape: a rule or preset, and its size. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->shape_combo = gtk_combo_box_text_new ();
  for (i = 0; i < G_N_ELEMENTS (tl_panel_pages_shapes); i++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->shape_combo),
                               tl_panel_pages_shapes[i].id,
                               /* Presets are numbers: nothing to translate. */
                               g_ascii_isdigit (tl_panel_pages_shapes[i].label[0]) ?
                               tl_panel_pages_shapes[i].label :
                               _(tl_panel_pages_shapes[i].label));
  gtk_widget_set_tooltip_text (self->shape_combo,
                               _("The work-group shape. Automatic takes what "
                                 "Tune measured fastest, and until then a rule "
                                 "from the device: on a GPU groups P wide and "
                                 "128 / P tall, on a CPU P wide and 4 tall; "
                                 "the blurs take 16x16 on a GPU and 128 rows "
                                 "on a CPU (64 rows twice as wide in float). "
                                 "The seed rule makes groups P wide "
                                 "and M / P tall."));
  gtk_widget_set_hexpand (self->shape_combo, TRUE);
  gtk_grid_attach (GTK_GRID (grid),
                   tl_panel_pages_label (_("Sh_ape:"), self->shape_combo),
                   0, row, 1, 1);
  if (self->filter && self->source)
    {
      GtkWidget *shape_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

      self->tune_button = gtk_button_new_with_mnemonic (_("Tu_ne"));
      gtk_widget_set_tooltip_text (self->tune_button,
                                   _("Time the likeliest shapes, swizzles and "
                                     "pixels per item on this layer for a few "
                                     "seconds and keep the fastest for "
                                     "Automatic"));
      gtk_box_pack_start (GTK_BOX (shape_box), self->shape_combo, TRUE, TRUE, 0);
      gtk_box_pack_start (GTK_BOX (shape_box), self->tune_button, FALSE, FALSE, 0);
      gtk_grid_attach (GTK_GRID (grid), shape_box, 1, row++, 1, 1);

      self->tune_progress = gtk_progress_bar_new ();
      gtk_progress_bar_set_show_text (GTK_PROGRESS_BAR (self->tune_progress), TRUE);
      gtk_widget_set_no_show_all (self->tune_progress, TRUE);
      gtk_grid_attach (GTK_GRID (grid), self->tune_progress, 1, row++, 1, 1);
    }
  else
    {
      gtk_grid_attach (GTK_GRID (grid), self->shape_combo, 1, row++, 1, 1);
    }

  self->shape_width = tl_panel_pages_spin (1, TL_DIALOG_PANEL_MAX_SHAPE, 8);
  gtk_widget_set_tooltip_text (self->shape_width,
                               _("Work-group width in work-items"));
  gtk_box_pack_start (GTK_BOX (box), self->shape_width, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (box), gtk_label_new ("×"), FALSE, FALSE, 0);
  self->shape_height = tl_panel_pages_spin (1, TL_DIALOG_PANEL_MAX_SHAPE, 8);
  gtk_widget_set_tooltip_text (self->shape_height,
                               _("Work-group height in work-items"));
  gtk_box_pack_start (GTK_BOX (box), self->shape_height, FALSE, FALSE, 0);

  gtk_grid_attach (GTK_GRID (grid),
                   tl_panel_pages_label (_("Wid_th × height:"), self->shape_width),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), box, 1, row++, 1, 1);
  g_signal_connect (self->shape_combo, "changed",
                    G_CALLBACK (tl_panel_pages_shape_changed), self);
  g_signal_connect (self->shape_width, "value-changed",
                    G_CALLBACK (tl_panel_pages_size_changed), self);
  g_signal_connect (self->shape_height, "value-changed",
                    G_CALLBACK (tl_panel_pages_size_changed), self);

  /* Mode. */
  self->mode_combo = gtk_combo_box_text_new ();
  for (i = 0; i < G_N_ELEMENTS (tl_panel_pages_modes); i++)
    gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->mode_combo),
                               tl_mode_to_string (tl_panel_pages_modes[i].mode),
                               _(tl_panel_pages_modes[i].label));
  gtk_grid_attach (GTK_GRID (grid),
                   tl_panel_pages_label (_("_Mode:"), self->mode_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->mode_combo, 1, row++, 1, 1);
  self->mode_hint = tl_panel_pages_hint (NULL);
  gtk_grid_attach (GTK_GRID (grid), self->mode_hint, 1, row++, 1, 1);
  g_signal_connect (self->mode_combo, "changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  /* Swizzle. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->swizzle_toggle = gtk_check_button_new_with_mnemonic (_("S_wizzle:"));
  gtk_widget_set_tooltip_text (self->swizzle_toggle,
                               _("Remap thread-group IDs so consecutive groups "
                                 "walk tiles N groups wide, for cache "
                                 "locality"));
  self->swizzle_spin = tl_panel_pages_spin (1, TL_DIALOG_PANEL_MAX_SWIZZLE,
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
                    G_CALLBACK (tl_panel_pages_swizzle_toggled), self);
  g_signal_connect (self->swizzle_spin, "value-changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  /* Pixels per work-item. */
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->pixels_spin = tl_panel_pages_spin (1, TL_DIALOG_PANEL_MAX_K,
                                           default_pixels);
  gtk_widget_set_tooltip_text (self->pixels_spin,
                               _("Consecutive pixels along x that each "
                                 "work-item processes"));
  gtk_box_pack_start (GTK_BOX (box), self->pixels_spin, FALSE, FALSE, 0);
  gtk_grid_attach (GTK_GRID (grid),
                   tl_panel_pages_label (_("Pi_xels per work-item:"),
                                         self->pixels_spin),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), box, 1, row++, 1, 1);
  g_signal_connect (self->pixels_spin, "value-changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  return grid;
}

/* Overlay. */

GtkWidget *
tl_panel_pages_overlay (TlDialogPanel *self)
{
  GtkWidget *grid = tl_panel_pages_grid ();
  GtkWidget *scale, *spin, *label;
  guint      i, j;
  gint       row = 0;

  self->overlay_combo = gtk_combo_box_text_new ();
  /* The thread map needs a mode: no "none" there. */
  for (i = self->filter ? 0 : 1; tl_host_overlay_names[i]; i++)
    {
      const gchar *text = tl_host_overlay_names[i];

      for (j = 0; j < G_N_ELEMENTS (tl_panel_pages_overlays); j++)
        if (strcmp (tl_panel_pages_overlays[j].name, text) == 0)
          text = _(tl_panel_pages_overlays[j].label);
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
                   tl_panel_pages_label (_("Color _by:"), self->overlay_combo),
                   0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->overlay_combo, 1, row++, 2, 1);
  g_signal_connect (self->overlay_combo, "changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  self->style_combo = gtk_combo_box_text_new ();
  for (i = 0; tl_host_overlay_style_names[i]; i++)
    {
      const gchar *text = tl_host_overlay_style_names[i];

      for (j = 0; j < G_N_ELEMENTS (tl_panel_pages_styles); j++)
        if (strcmp (tl_panel_pages_styles[j].name, text) == 0)
          text = _(tl_panel_pages_styles[j].label);
      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->style_combo),
                                 tl_host_overlay_style_names[i], text);
    }
  gtk_widget_set_tooltip_text (self->style_combo,
                               _("Tint: a color per unit, blended at the "
                                 "opacity. Checkerboard: every other unit's "
                                 "colors inverted."));
  label = tl_panel_pages_label (_("St_yle:"), self->style_combo);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), self->style_combo, 1, row++, 2, 1);
  g_signal_connect (self->style_combo, "changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  self->opacity = gtk_adjustment_new (50.0, 0.0, 100.0, 1.0, 10.0, 0.0);
  scale = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->opacity);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_widget_set_hexpand (scale, TRUE);
  spin = gtk_spin_button_new (self->opacity, 1.0, 0);
  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), TRUE);
  gtk_entry_set_width_chars (GTK_ENTRY (spin), 4);
  label = tl_panel_pages_label (_("Opac_ity:"), spin);
  gtk_grid_attach (GTK_GRID (grid), label, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), scale, 1, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), spin, 2, row++, 1, 1);
  self->opacity_row[0] = label;
  self->opacity_row[1] = scale;
  self->opacity_row[2] = spin;
  g_signal_connect (self->opacity, "value-changed",
                    G_CALLBACK (tl_panel_pages_changed_cb), self);

  gtk_grid_attach (GTK_GRID (grid),
                   tl_panel_pages_hint (_("The overlay goes to a new layer "
                                          "above this one, so the image "
                                          "itself is kept.")),
                   0, row++, 3, 1);

  return grid;
}
