/* ThreadLens: the GIMP 3 host.
 *
 * Translates between libgimp-3.0 and the shared host code (tl-host.c):
 * registers one procedure per filter of the engine's registry, turns the
 * procedure's config into settings, and runs the filter on the drawable
 * through the shadow buffer in one undo step, with ThreadLens's dialog
 * inside a GimpProcedureDialog.  It mirrors gimp-threadlens-2.c; only the
 * API differs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <libgimp/gimp.h>
#include <libgimp/gimpui.h>

#include "tl-dialog-panel.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-host.h"
#include "tl-host-check.h"
#include "threadlens3-filter.h"
#include "threadlens3-preview.h"

#define PLUG_IN_BINARY "gimp-threadlens"

typedef struct
{
  GimpPlugIn parent_instance;
} ThreadLens3;

typedef struct
{
  GimpPlugInClass parent_class;
} ThreadLens3Class;

#define THREADLENS3_TYPE (threadlens3_get_type ())

GType                   threadlens3_get_type         (void) G_GNUC_CONST;

static GList          * threadlens3_query_procedures (GimpPlugIn           *plug_in);
static gboolean         threadlens3_set_i18n         (GimpPlugIn           *plug_in,
                                                      const gchar          *procedure_name,
                                                      gchar               **gettext_domain,
                                                      gchar               **catalog_dir);
static GimpProcedure  * threadlens3_create_procedure (GimpPlugIn           *plug_in,
                                                      const gchar          *name);
static GimpValueArray * threadlens3_run              (GimpProcedure        *procedure,
                                                      GimpRunMode           run_mode,
                                                      GimpImage            *image,
                                                      GimpDrawable        **drawables,
                                                      GimpProcedureConfig  *config,
                                                      gpointer              run_data);
static TlHostDrawableKind threadlens3_kind           (gpointer              drawable);

G_DEFINE_TYPE (ThreadLens3, threadlens3, GIMP_TYPE_PLUG_IN)

GIMP_MAIN (THREADLENS3_TYPE)

static void
threadlens3_class_init (ThreadLens3Class *klass)
{
  GimpPlugInClass *plug_in_class = GIMP_PLUG_IN_CLASS (klass);

  plug_in_class->query_procedures = threadlens3_query_procedures;
  plug_in_class->create_procedure = threadlens3_create_procedure;
  plug_in_class->set_i18n         = threadlens3_set_i18n;
}

static void
threadlens3_init (ThreadLens3 *threadlens)
{
}

/* The procedure's filter, or NULL for the thread map. */
static gboolean
threadlens3_lookup (const gchar     *name,
                    const TlFilter **filter,
                    GError         **error)
{
  *filter = NULL;
  if (tl_host_is_thread_map (name))
    return TRUE;

  *filter = tl_host_filter_for_procedure (name, error);
  return *filter != NULL;
}

/* The catalogues: locale/ in the plug-in's folder, where `meson install`
 * and install-user.sh put them, in ThreadLens's own domain (GIMP's default
 * would be the folder's name).  Without that folder (a bare copy of the
 * binary) the system's are bound here instead, and GIMP is told so, which
 * spares its "catalog directory does not exist" warnings.
 */
static gboolean
threadlens3_set_i18n (GimpPlugIn   *plug_in,
                      const gchar  *procedure_name,
                      gchar       **gettext_domain,
                      gchar       **catalog_dir)
{
  g_autofree gchar *folder = g_path_get_dirname (gimp_get_progname ());
  g_autofree gchar *locale = g_build_filename (folder, "locale", NULL);

  if (! g_file_test (locale, G_FILE_TEST_IS_DIR))
    {
      bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      return FALSE;
    }

  *gettext_domain = g_strdup (GETTEXT_PACKAGE);
  *catalog_dir    = g_strdup ("locale");    /* relative to the folder */
  return TRUE;
}

static GList *
threadlens3_query_procedures (GimpPlugIn *plug_in)
{
  g_auto(GStrv) names = tl_host_procedure_names ();
  GList        *list  = NULL;
  guint         p;

  for (p = 0; names[p]; p++)
    list = g_list_append (list, g_strdup (names[p]));

  return list;
}

/* 3.0 has choices: fixed string values become GimpChoice arguments,
 * passed by nick exactly as the 2.10 host's strings are.
 */
static GimpChoice *
threadlens3_choice (const TlHostArg *arg)
{
  GimpChoice *choice = gimp_choice_new ();
  gint        i;

  for (i = 0; arg->choices[i]; i++)
    gimp_choice_add (choice, arg->choices[i], i, arg->choices[i], NULL);

  return choice;
}

static GimpProcedure *
threadlens3_create_procedure (GimpPlugIn  *plug_in,
                              const gchar *name)
{
  const TlFilter   *filter;
  GimpProcedure    *procedure;
  g_autofree gchar *label = NULL;
  TlHostArg        *args;
  guint             n_args, i;

  if (! threadlens3_lookup (name, &filter, NULL))
    return NULL;

  procedure = gimp_image_procedure_new (plug_in, name,
                                        GIMP_PDB_PROC_TYPE_PLUGIN,
                                        threadlens3_run, (gpointer) filter,
                                        NULL);

  label = tl_host_menu_label (filter);
  gimp_procedure_set_image_types (procedure, "RGB*, GRAY*");
  gimp_procedure_set_sensitivity_mask (procedure,
                                       GIMP_PROCEDURE_SENSITIVE_DRAWABLE);
  gimp_procedure_set_menu_label (procedure, _(label));
  gimp_procedure_add_menu_path (procedure, TL_HOST_MENU_PATH);
  gimp_procedure_set_documentation (procedure,
                                    filter ? _(filter->description) :
                                    _("Draws which work-group, SIMD group or "
                                      "lane computes each pixel, on a new "
                                      "layer"),
                                    _("Runs through OpenCL under the dispatch "
                                      "rules given by the arguments: "
                                      "work-group shape, mode, swizzle and "
                                      "pixels per work-item."),
                                    name);
  gimp_procedure_set_attribution (procedure, "ThreadLens", "ThreadLens", "2026");

  args = tl_host_arguments (filter, &n_args);
  for (i = 0; i < n_args; i++)
    {
      const TlHostArg *arg = &args[i];

      switch (arg->type)
        {
        case TL_HOST_ARG_INT:
          gimp_procedure_add_int_argument (procedure, arg->name, _(arg->nick),
                                           _(arg->blurb), arg->min, arg->max,
                                           arg->default_number,
                                           G_PARAM_READWRITE);
          break;

        case TL_HOST_ARG_DOUBLE:
          /* Doubles, whole numbers too: scripts already pass them so.
           * libgimp 3 takes no slider range or digits for an argument;
           * ThreadLens's dialog and the GEGL operation's properties
           * (gegl-threadlens.c) show the registry's.
           */
          gimp_procedure_add_double_argument (procedure, arg->name, _(arg->nick),
                                              _(arg->blurb), arg->min, arg->max,
                                              arg->default_number,
                                              G_PARAM_READWRITE);
          break;

        case TL_HOST_ARG_STRING:
          if (arg->choices)
            gimp_procedure_add_choice_argument (procedure, arg->name, _(arg->nick),
                                                _(arg->blurb),
                                                threadlens3_choice (arg),
                                                arg->default_text,
                                                G_PARAM_READWRITE);
          else
            gimp_procedure_add_string_argument (procedure, arg->name, _(arg->nick),
                                                _(arg->blurb), arg->default_text,
                                                G_PARAM_READWRITE);
          break;
        }
    }
  tl_host_arguments_free (args);

  /* GIMP 3 only: the filter may stay editable on the layer. */
  if (filter)
    gimp_procedure_add_boolean_argument (procedure, "non-destructive",
                                         _("_Non-destructive"),
                                         _("Append the filter to the layer's "
                                           "filter stack, where it stays "
                                           "editable, instead of merging it "
                                           "into the layer"),
                                         FALSE, G_PARAM_READWRITE);

  return procedure;
}

static gboolean
threadlens3_read_config (const TlFilter       *filter,
                         GimpProcedureConfig  *config,
                         TlHostSettings       *settings,
                         GError              **error)
{
  g_autofree TlHostValue *values = NULL;
  GPtrArray              *strings = g_ptr_array_new_with_free_func (g_free);
  TlHostArg              *args;
  guint                   n_args, i;
  gboolean                ok;

  args   = tl_host_arguments (filter, &n_args);
  values = g_new0 (TlHostValue, n_args);
  for (i = 0; i < n_args; i++)
    {
      gchar *text = NULL;

      switch (args[i].type)
        {
        case TL_HOST_ARG_INT:
          g_object_get (config, args[i].name, &values[i].i, NULL);
          break;
        case TL_HOST_ARG_DOUBLE:
          g_object_get (config, args[i].name, &values[i].d, NULL);
          break;
        case TL_HOST_ARG_STRING:
          g_object_get (config, args[i].name, &text, NULL);
          g_ptr_array_add (strings, text);
          values[i].s = text;
          break;
        }
    }
  ok = tl_host_settings_from_values (settings, filter, values, n_args, error);
  if (ok && filter)
    g_object_get (config, "non-destructive", &settings->non_destructive, NULL);

  g_ptr_array_unref (strings);
  tl_host_arguments_free (args);
  return ok;
}

static void
threadlens3_write_config (const TlFilter       *filter,
                          const TlHostSettings *settings,
                          GimpProcedureConfig  *config)
{
  g_autofree TlHostValue *values = NULL;
  g_autoptr(GPtrArray)    strings = NULL;
  TlHostArg              *args;
  guint                   n_args, i;

  args    = tl_host_arguments (filter, &n_args);
  values  = g_new0 (TlHostValue, n_args);
  strings = tl_host_settings_to_values (settings, filter, values);

  g_object_freeze_notify (G_OBJECT (config));
  for (i = 0; i < n_args; i++)
    switch (args[i].type)
      {
      case TL_HOST_ARG_INT:
        g_object_set (config, args[i].name, values[i].i, NULL);
        break;
      case TL_HOST_ARG_DOUBLE:
        g_object_set (config, args[i].name, values[i].d, NULL);
        break;
      case TL_HOST_ARG_STRING:
        g_object_set (config, args[i].name, values[i].s, NULL);
        break;
      }
  g_object_thaw_notify (G_OBJECT (config));
  tl_host_arguments_free (args);
}

/* Panel and config mirror each other: the panel writes the config as the
 * user changes it; Reset and Load in GimpProcedureDialog change the config,
 * which goes back to the panel.  SYNCING stops the echo.
 */
typedef struct
{
  const TlFilter      *filter;
  GimpProcedureConfig *config;
  TlDialogPanel       *panel;
  GtkWidget           *dialog;
  Threadlens3Preview  *preview;  /* on the canvas; NULL: none */
  gboolean             syncing;
} ThreadLens3Dialog;

static void
threadlens3_panel_changed (TlDialogPanel     *panel,
                           ThreadLens3Dialog *state)
{
  TlHostSettings settings;

  tl_dialog_panel_get_settings (panel, &settings);
  threadlens3_preview_set (state->preview, &settings);
  if (state->syncing)
    return;
  state->syncing = TRUE;
  threadlens3_write_config (state->filter, &settings, state->config);
  state->syncing = FALSE;
}

static void
threadlens3_preview_toggled (GtkToggleButton   *toggle,
                             ThreadLens3Dialog *state)
{
  threadlens3_preview_set_visible (state->preview,
                                   gtk_toggle_button_get_active (toggle));
}

static void
threadlens3_config_changed (GimpProcedureConfig *config,
                            GParamSpec          *pspec,
                            ThreadLens3Dialog   *state)
{
  TlHostSettings settings;

  if (state->syncing)
    return;
  state->syncing = TRUE;
  if (threadlens3_read_config (state->filter, config, &settings, NULL))
    tl_dialog_panel_set_settings (state->panel, &settings);
  state->syncing = FALSE;
}

static void
threadlens3_runnable_changed (TlDialogPanel     *panel,
                              GParamSpec        *pspec,
                              ThreadLens3Dialog *state)
{
  gtk_dialog_set_response_sensitive (GTK_DIALOG (state->dialog), GTK_RESPONSE_OK,
                                     tl_dialog_panel_get_runnable (panel));
}

/* ThreadLens's panel inside GimpProcedureDialog, which brings Reset,
 * Load/Save settings, Help and the transient parent.  TRUE on OK.
 */
static gboolean
threadlens3_dialog (GimpProcedure       *procedure,
                    const TlFilter      *filter,
                    GimpProcedureConfig *config,
                    GimpDrawable        *drawable)
{
  ThreadLens3Dialog  state = { filter, config, NULL, NULL, NULL, FALSE };
  g_autofree gchar  *title = NULL;
  g_autofree gchar  *label = tl_host_menu_label (filter);
  TlHostSettings     settings;
  GeglBuffer        *source;
  GeglRectangle      region;
  GtkWidget         *panel;
  gboolean           run;

  gimp_ui_init (PLUG_IN_BINARY);

  if (! threadlens3_read_config (filter, config, &settings, NULL))
    tl_host_settings_init (&settings, filter);
  if (! gimp_drawable_mask_intersect (drawable, &region.x, &region.y,
                                      &region.width, &region.height))
    {
      region.x = region.y = 0;
      region.width  = gimp_drawable_get_width (drawable);
      region.height = gimp_drawable_get_height (drawable);
    }

  title  = g_strdup_printf (_("ThreadLens: %s"), _(label));
  /* The panel's preview reads its pixels in a worker thread, while this
   * one talks to GIMP (the canvas preview): libgimp's wire carries one
   * conversation at a time, so the panel gets a copy made here.
   */
  {
    g_autoptr(GeglBuffer) layer = gimp_drawable_get_buffer (drawable);

    source = gegl_buffer_dup (layer);
  }
  state.dialog = gimp_procedure_dialog_new (procedure, config, title);
  panel = tl_dialog_panel_new (filter, &settings, source, &region);
  state.panel = TL_DIALOG_PANEL (panel);
  gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (state.dialog))),
                      panel, TRUE, TRUE, 0);
  gtk_widget_show (panel);
  /* GIMP 3's own choice, beside the panel: merge, or keep editable. */
  if (filter)
    {
      GtkWidget *toggle;

      g_autoptr(GError) why = NULL;

      toggle = gimp_procedure_dialog_get_widget (GIMP_PROCEDURE_DIALOG (state.dialog),
                                                 "non-destructive", G_TYPE_NONE);
      /* A mask or channel keeps no filter stack: the choice is not
       * there to make, and the tooltip says why.
       */
      if (! tl_host_check_drawable (threadlens3_kind (drawable), TRUE, &why))
        {
          g_object_set (config, "non-destructive", FALSE, NULL);
          gtk_widget_set_sensitive (toggle, FALSE);
          gtk_widget_set_tooltip_text (toggle, why->message);
        }
      gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (state.dialog))),
                          toggle, FALSE, FALSE, 0);
      gtk_widget_show (toggle);
    }

  /* GIMP's own filters preview on the canvas, at full size, as the
   * values change; the panel's own preview stays for the thread map and
   * the zoom into work-groups.
   */
  state.preview = threadlens3_preview_new (drawable, threadlens3_kind (drawable),
                                           filter, &settings);
  if (state.preview)
    {
      /* No mnemonic: the panel's pages hold every letter of it. */
      GtkWidget *toggle = gtk_check_button_new_with_label (_("Preview on canvas"));

      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
      gtk_box_pack_start (GTK_BOX (gtk_dialog_get_content_area (GTK_DIALOG (state.dialog))),
                          toggle, FALSE, FALSE, 0);
      gtk_widget_show (toggle);
      g_signal_connect (toggle, "toggled",
                        G_CALLBACK (threadlens3_preview_toggled), &state);
    }

  g_signal_connect (panel, "changed",
                    G_CALLBACK (threadlens3_panel_changed), &state);
  g_signal_connect (panel, "notify::runnable",
                    G_CALLBACK (threadlens3_runnable_changed), &state);
  g_signal_connect (config, "notify",
                    G_CALLBACK (threadlens3_config_changed), &state);
  threadlens3_runnable_changed (state.panel, NULL, &state);

  run = gimp_procedure_dialog_run (GIMP_PROCEDURE_DIALOG (state.dialog));

  /* Off the canvas whatever the answer: OK applies the filter the
   * ordinary way, one undo step, merged or kept in the stack.
   */
  tl_dialog_panel_stop (state.panel);
  threadlens3_preview_free (state.preview);
  state.preview = NULL;
  g_signal_handlers_disconnect_by_data (config, &state);
  if (run)
    {
      tl_dialog_panel_get_settings (state.panel, &settings);
      threadlens3_write_config (filter, &settings, config);
    }
  gtk_widget_destroy (state.dialog);
  g_object_unref (source);

  return run;
}

static gboolean
threadlens3_progress (gdouble      fraction,
                      const gchar *message,
                      gpointer     data)
{
  gimp_progress_set_text (message);
  gimp_progress_update (fraction);
  return TRUE;
}

/* The image operations tl_host_apply () needs, in libgimp-3.0 terms:
 * handles are GimpImage and GimpDrawable objects.
 */
static TlHostDrawableKind
threadlens3_kind (gpointer drawable)
{
  if (gimp_drawable_is_indexed (drawable))
    return TL_HOST_DRAWABLE_INDEXED;
  if (gimp_item_is_group (drawable))
    return TL_HOST_DRAWABLE_GROUP;
  if (gimp_item_is_text_layer (drawable))
    return TL_HOST_DRAWABLE_TEXT;
  if (gimp_item_is_layer_mask (drawable))
    return TL_HOST_DRAWABLE_LAYER_MASK;
  if (gimp_item_is_channel (drawable))
    return TL_HOST_DRAWABLE_CHANNEL;
  return TL_HOST_DRAWABLE_LAYER;
}

static gboolean
threadlens3_mask_bounds (gpointer       drawable,
                         GeglRectangle *region)
{
  return gimp_drawable_mask_intersect (drawable, &region->x, &region->y,
                                       &region->width, &region->height);
}

static GeglBuffer *
threadlens3_get_buffer (gpointer drawable)
{
  return gimp_drawable_get_buffer (drawable);
}

static GeglBuffer *
threadlens3_get_shadow (gpointer drawable)
{
  return gimp_drawable_get_shadow_buffer (drawable);
}

static void
threadlens3_update (gpointer             drawable,
                    const GeglRectangle *area)
{
  gimp_drawable_update (drawable, area->x, area->y, area->width,
                        area->height);
}

static void
threadlens3_merge_shadow (gpointer             drawable,
                          const GeglRectangle *region)
{
  gimp_drawable_merge_shadow (drawable, TRUE);
  threadlens3_update (drawable, region);
}

/* LAYER into IMAGE just above ABOVE, over AREA of it. */
static void
threadlens3_insert_above (gpointer             image,
                          GimpLayer           *layer,
                          gpointer             above,
                          const GeglRectangle *area)
{
  GimpLayer *parent = NULL;
  gint       position = 0, offset_x = 0, offset_y = 0;

  if (GIMP_IS_LAYER (above))
    {
      parent   = GIMP_LAYER (gimp_item_get_parent (above));
      position = gimp_image_get_item_position (image, above);
    }
  gimp_drawable_get_offsets (above, &offset_x, &offset_y);
  gimp_image_insert_layer (image, layer, parent, position);
  gimp_layer_set_offsets (layer, offset_x + area->x, offset_y + area->y);
}

static gpointer
threadlens3_add_layer (gpointer             image,
                       gpointer             above,
                       const gchar         *name,
                       const GeglRectangle *area)
{
  GimpLayer *layer;

  layer = gimp_layer_new (image, name, area->width, area->height,
                          gimp_image_get_base_type (image) == GIMP_GRAY ?
                          GIMP_GRAYA_IMAGE : GIMP_RGBA_IMAGE,
                          100.0, GIMP_LAYER_MODE_NORMAL);
  threadlens3_insert_above (image, layer, above, area);
  return layer;
}

static void
threadlens3_undo_begin (gpointer image)
{
  gimp_image_undo_group_start (image);
}

static void
threadlens3_undo_end (gpointer image)
{
  gimp_image_undo_group_end (image);
}

static void
threadlens3_progress_init (const gchar *message)
{
  gimp_progress_init (message);
}

static void
threadlens3_progress_end (void)
{
  gimp_progress_end ();
}

/* Warnings: the message dialog or error console, stderr in batch. */
static void
threadlens3_message (const gchar *text)
{
  gimp_message (text);
}

static gboolean
threadlens3_run_operation (gpointer           drawable,
                           const gchar       *operation,
                           const gchar       *title,
                           const TlHostArg   *args,
                           const TlHostValue *values,
                           guint              n_args,
                           gboolean           append,
                           GError           **error)
{
  GimpDrawableFilter *filter;
  gboolean            ok;

  filter = threadlens3_filter_new (drawable, operation, title, error);
  if (filter == NULL)
    return FALSE;
  if (! threadlens3_filter_configure (filter, args, values, n_args, error))
    {
      g_object_unref (filter);
      return FALSE;
    }

  /* GIMP may still refuse (its own rules on drawables): then the filter
   * it made is deleted, so nothing is left behind or leaks, and its
   * reason is the error.
   */
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_PLUGIN);
  if (append)
    gimp_drawable_append_filter (drawable, filter);
  else
    gimp_drawable_merge_filter (drawable, filter);
  ok = gimp_pdb_get_last_status (gimp_get_pdb ()) == GIMP_PDB_SUCCESS;
  if (! ok)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("GIMP did not apply %s: %s"), operation,
                   gimp_pdb_get_last_error (gimp_get_pdb ()));
      gimp_drawable_filter_delete (filter);
    }
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_INTERNAL);
  g_object_unref (filter);
  return ok;
}

/* The operation runs on a copy of AREA in a scratch image of the same
 * kind, precision and profile, where no selection limits it; the result
 * comes back as a new layer.  All of it stays in GIMP's process.
 */
static gpointer
threadlens3_add_operation_layer (gpointer             image,
                                 gpointer             above,
                                 const gchar         *name,
                                 const GeglRectangle *area,
                                 const gchar         *operation,
                                 const TlHostArg     *args,
                                 const TlHostValue   *values,
                                 guint                n_args,
                                 GError             **error)
{
  g_autofree gchar *title = tl_host_filter_title (NULL);
  GimpImage        *scratch;
  GimpColorProfile *profile;
  GimpLayer        *copy, *layer;

  scratch = gimp_image_new_with_precision (area->width, area->height,
                                           gimp_image_get_base_type (image),
                                           gimp_image_get_precision (image));
  gimp_image_undo_disable (scratch);
  profile = gimp_image_get_color_profile (image);
  if (profile)
    {
      gimp_image_set_color_profile (scratch, profile);
      g_object_unref (profile);
    }
  copy = gimp_layer_new_from_drawable (above, scratch);
  gimp_image_insert_layer (scratch, copy, NULL, 0);
  gimp_layer_set_offsets (copy, -area->x, -area->y);
  gimp_layer_resize_to_image_size (copy);
  /* The map's tint is see-through: without alpha it would be opaque. */
  gimp_layer_add_alpha (copy);

  if (! threadlens3_run_operation (copy, operation, title, args, values,
                                   n_args, FALSE, error))
    {
      gimp_image_delete (scratch);
      return NULL;
    }

  layer = gimp_layer_new_from_drawable (GIMP_DRAWABLE (copy), image);
  gimp_item_set_name (GIMP_ITEM (layer), name);
  threadlens3_insert_above (image, layer, above, area);
  gimp_image_delete (scratch);

  return layer;
}

static void
threadlens3_remove_layer (gpointer image,
                          gpointer layer)
{
  gimp_image_remove_layer (image, layer);
}

static const TlHostGimp threadlens3_gimp =
{
  .kind                = threadlens3_kind,
  .mask_bounds         = threadlens3_mask_bounds,
  .get_buffer          = threadlens3_get_buffer,
  .get_shadow          = threadlens3_get_shadow,
  .merge_shadow        = threadlens3_merge_shadow,
  .add_layer           = threadlens3_add_layer,
  .update              = threadlens3_update,
  .undo_begin          = threadlens3_undo_begin,
  .undo_end            = threadlens3_undo_end,
  .progress_init       = threadlens3_progress_init,
  .progress_end        = threadlens3_progress_end,
  .progress            = threadlens3_progress,
  .message             = threadlens3_message,
  .run_operation       = threadlens3_run_operation,
  .add_operation_layer = threadlens3_add_operation_layer,
  .remove_layer        = threadlens3_remove_layer,
};

static GimpValueArray *
threadlens3_run (GimpProcedure        *procedure,
                 GimpRunMode           run_mode,
                 GimpImage            *image,
                 GimpDrawable        **drawables,
                 GimpProcedureConfig  *config,
                 gpointer              run_data)
{
  const TlFilter    *filter = run_data;
  g_autoptr(GError)  error  = NULL;
  TlHostSettings     settings;

  gegl_init (NULL, NULL);

  if (gimp_core_object_array_get_length ((GObject **) drawables) != 1)
    {
      g_set_error (&error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s works on one drawable at a time"),
                   gimp_procedure_get_name (procedure));
      return gimp_procedure_new_return_values (procedure,
                                               GIMP_PDB_CALLING_ERROR,
                                               g_steal_pointer (&error));
    }

  /* The config holds the arguments, or for INTERACTIVE and
   * WITH_LAST_VALS runs the last values; the dialog edits it.
   */
  if (run_mode == GIMP_RUN_INTERACTIVE &&
      ! tl_host_check_selection (&threadlens3_gimp, drawables[0], &error))
    return gimp_procedure_new_return_values (procedure,
                                             GIMP_PDB_EXECUTION_ERROR,
                                             g_steal_pointer (&error));
  if (run_mode == GIMP_RUN_INTERACTIVE &&
      ! threadlens3_dialog (procedure, filter, config, drawables[0]))
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CANCEL, NULL);

  if (! threadlens3_read_config (filter, config, &settings, &error))
    return gimp_procedure_new_return_values (procedure, GIMP_PDB_CALLING_ERROR,
                                             g_steal_pointer (&error));

  if (! tl_host_apply (&threadlens3_gimp, filter, &settings, image,
                      drawables[0], &error))
    return gimp_procedure_new_return_values (procedure,
                                             GIMP_PDB_EXECUTION_ERROR,
                                             g_steal_pointer (&error));

  return gimp_procedure_new_return_values (procedure, GIMP_PDB_SUCCESS, NULL);
}
