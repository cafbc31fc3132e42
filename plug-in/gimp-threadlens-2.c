/* ThreadLens: the GIMP 2.10 host.
 *
 * Translates between libgimp-2.0 and the shared host code (tl-host.c):
 * registers one procedure per filter of the engine's registry, turns PDB
 * parameters into settings, and runs the filter on the drawable through
 * the shadow buffer in one undo step.  It links libgimp-2.0 only, never
 * libgimpui-2.0 (GTK 2): its dialog is ThreadLens's own, in GTK 3.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gdk/gdkx.h>
#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>
#include <libgimp/gimp.h>

#include "tl-dialog.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-host.h"

#define PLUG_IN_BINARY "gimp-threadlens"
#define N_FIXED_ARGS   3       /* run-mode, image, drawable */

static void threadlens2_query (void);
static void threadlens2_run   (const gchar      *name,
                               gint              n_params,
                               const GimpParam  *params,
                               gint             *n_return_values,
                               GimpParam       **return_values);

const GimpPlugInInfo PLUG_IN_INFO =
{
  .init_proc  = NULL,
  .quit_proc  = NULL,
  .query_proc = threadlens2_query,
  .run_proc   = threadlens2_run,
};

MAIN ()

static GimpPDBArgType
threadlens2_pdb_type (TlHostArgType type)
{
  switch (type)
    {
    case TL_HOST_ARG_INT:    return GIMP_PDB_INT32;
    case TL_HOST_ARG_DOUBLE: return GIMP_PDB_FLOAT;
    case TL_HOST_ARG_STRING: return GIMP_PDB_STRING;
    }
  g_return_val_if_reached (GIMP_PDB_INT32);
}

/* 2.10 has no ranges in GimpParamDef: the description carries them. */
static gchar *
threadlens2_describe (const TlHostArg *arg)
{
  if (arg->choices)
    {
      g_autofree gchar *values = g_strjoinv (", ", (gchar **) arg->choices);

      return g_strdup_printf ("%s { %s }", arg->blurb, values);
    }
  if (arg->type == TL_HOST_ARG_STRING)
    return g_strdup (arg->blurb);

  return g_strdup_printf ("%s (%g to %g)", arg->blurb, arg->min, arg->max);
}

/* The catalogues: locale/ in the plug-in's folder, where `meson install`
 * and install-user.sh put them, else the system's.
 */
static gchar *
threadlens2_locale_dir (void)
{
  g_autofree gchar *folder = g_path_get_dirname (gimp_get_progname ());
  gchar            *locale = g_build_filename (folder, "locale", NULL);

  if (g_file_test (locale, G_FILE_TEST_IS_DIR))
    return locale;

  g_free (locale);
  return g_strdup (LOCALEDIR);
}

/* The procedure's filter, or NULL for the thread map. */
static gboolean
threadlens2_lookup (const gchar     *name,
                    const TlFilter **filter,
                    GError         **error)
{
  *filter = NULL;
  if (tl_host_is_thread_map (name))
    return TRUE;

  *filter = tl_host_filter_for_procedure (name, error);
  return *filter != NULL;
}

static void
threadlens2_query (void)
{
  g_auto(GStrv)     names  = tl_host_procedure_names ();
  g_autofree gchar *locale = threadlens2_locale_dir ();
  guint             p;

  /* GIMP 2.10 translates menu labels and blurbs itself, in this domain:
   * they are registered untranslated.
   */
  gimp_plugin_domain_register (GETTEXT_PACKAGE, locale);

  for (p = 0; names[p]; p++)
    {
      const gchar      *name = names[p];
      const TlFilter   *filter;
      g_autofree gchar *label = NULL;
      TlHostArg        *args;
      GimpParamDef     *defs;
      guint             n_args, i;

      if (! threadlens2_lookup (name, &filter, NULL))
        continue;
      label = tl_host_menu_label (filter);
      args  = tl_host_arguments (filter, &n_args);
      defs = g_new0 (GimpParamDef, N_FIXED_ARGS + n_args);

      defs[0].type        = GIMP_PDB_INT32;
      defs[0].name        = g_strdup ("run-mode");
      defs[0].description = g_strdup ("The run mode { RUN-INTERACTIVE (0), "
                                      "RUN-NONINTERACTIVE (1), "
                                      "RUN-WITH-LAST-VALS (2) }");
      defs[1].type        = GIMP_PDB_IMAGE;
      defs[1].name        = g_strdup ("image");
      defs[1].description = g_strdup ("Input image");
      defs[2].type        = GIMP_PDB_DRAWABLE;
      defs[2].name        = g_strdup ("drawable");
      defs[2].description = g_strdup ("Input drawable");
      for (i = 0; i < n_args; i++)
        {
          defs[N_FIXED_ARGS + i].type        = threadlens2_pdb_type (args[i].type);
          defs[N_FIXED_ARGS + i].name        = g_strdup (args[i].name);
          defs[N_FIXED_ARGS + i].description = threadlens2_describe (&args[i]);
        }

      gimp_install_procedure (name,
                              filter ? filter->description :
                              N_("Draws which work-group, SIMD group or "
                                 "lane computes each pixel, on a new layer"),
                              N_("Runs through OpenCL under the dispatch "
                                 "rules given by the arguments: work-group "
                                 "shape, mode, swizzle and pixels per "
                                 "work-item."),
                              "ThreadLens", "ThreadLens", "2026", label,
                              "RGB*, GRAY*", GIMP_PLUGIN,
                              N_FIXED_ARGS + n_args, 0, defs, NULL);
      gimp_plugin_menu_register (name, TL_HOST_MENU_PATH);

      for (i = 0; i < N_FIXED_ARGS + n_args; i++)
        {
          g_free (defs[i].name);
          g_free (defs[i].description);
        }
      g_free (defs);
      tl_host_arguments_free (args);
    }
}

static gboolean
threadlens2_read_params (const TlFilter   *filter,
                         gint              n_params,
                         const GimpParam  *params,
                         TlHostSettings   *settings,
                         GError          **error)
{
  g_autofree TlHostValue *values = NULL;
  TlHostArg              *args;
  guint                   n_args, i;
  gboolean                ok = FALSE;

  args = tl_host_arguments (filter, &n_args);
  if (n_params != (gint) (N_FIXED_ARGS + n_args))
    {
      g_autofree gchar *name = tl_host_procedure_name (filter);

      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s takes %u arguments, not %d"), name,
                   N_FIXED_ARGS + n_args, n_params);
      goto out;
    }

  values = g_new0 (TlHostValue, n_args);
  for (i = 0; i < n_args; i++)
    {
      const GimpParam *param = &params[N_FIXED_ARGS + i];

      switch (args[i].type)
        {
        case TL_HOST_ARG_INT:    values[i].i = param->data.d_int32;  break;
        case TL_HOST_ARG_DOUBLE: values[i].d = param->data.d_float;  break;
        case TL_HOST_ARG_STRING: values[i].s = param->data.d_string; break;
        }
    }
  ok = tl_host_settings_from_values (settings, filter, values, n_args, error);

 out:
  tl_host_arguments_free (args);
  return ok;
}

static gboolean
threadlens2_progress (gdouble      fraction,
                      const gchar *message,
                      gpointer     data)
{
  gimp_progress_set_text (message);
  gimp_progress_update (fraction);
  return TRUE;
}

/* Last values are kept per procedure; a stored block of another size
 * (another version's) is ignored.
 */
static void
threadlens2_load_last (const gchar    *name,
                       TlHostSettings *settings)
{
  if (gimp_get_data_size (name) == sizeof (TlHostSettings))
    gimp_get_data (name, settings);
}

static void
threadlens2_help (gpointer procedure)
{
  gimp_help (NULL, procedure);
}

/* The GTK 3 dialog, on GIMP's display, transient to GIMP's window where
 * GIMP gives its handle.  TRUE when the user pressed OK.
 */
static gboolean
threadlens2_dialog (const gchar     *name,
                    const TlFilter  *filter,
                    TlHostSettings  *settings,
                    gint32           drawable,
                    GError         **error)
{
  GeglBuffer    *source;
  GeglRectangle  region;
  GtkWidget     *dialog;
  guint32        window;
  gboolean       ok;

  if (gimp_display_name ())
    g_setenv ("DISPLAY", gimp_display_name (), TRUE);
  /* GIMP 2.10 is X11 only; its window handle is an X window. */
  gdk_set_allowed_backends ("x11");
  if (! gtk_init_check (NULL, NULL))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("no display to show the dialog on: run "
                             "non-interactively instead"));
      return FALSE;
    }
  gdk_set_program_class (gimp_wm_class ());

  if (! gimp_drawable_mask_intersect (drawable, &region.x, &region.y,
                                      &region.width, &region.height))
    {
      region.x = region.y = 0;
      region.width  = gimp_drawable_width (drawable);
      region.height = gimp_drawable_height (drawable);
    }

  source = gimp_drawable_get_buffer (drawable);
  dialog = tl_dialog_new (filter, settings, source, &region, NULL);
  tl_dialog_set_help_func (TL_DIALOG (dialog), threadlens2_help,
                           g_strdup (name), g_free);

  window = gimp_progress_get_window_handle ();
  if (window)
    {
      GdkWindow *parent = gdk_x11_window_foreign_new_for_display (gdk_display_get_default (),
                                                                  window);

      gtk_widget_realize (dialog);
      if (parent)
        gdk_window_set_transient_for (gtk_widget_get_window (dialog), parent);
    }

  ok = tl_dialog_run (TL_DIALOG (dialog));
  gtk_widget_destroy (dialog);
  g_object_unref (source);

  return ok;
}

/* The image operations tl_host_apply () needs, in libgimp-2.0 terms:
 * handles are item IDs.
 */
#define ID(handle) GPOINTER_TO_INT (handle)

static TlHostDrawableKind
threadlens2_kind (gpointer drawable)
{
  if (gimp_drawable_is_indexed (ID (drawable)))
    return TL_HOST_DRAWABLE_INDEXED;
  if (gimp_item_is_group (ID (drawable)))
    return TL_HOST_DRAWABLE_GROUP;
  if (gimp_item_is_text_layer (ID (drawable)))
    return TL_HOST_DRAWABLE_TEXT;
  if (gimp_item_is_layer_mask (ID (drawable)))
    return TL_HOST_DRAWABLE_LAYER_MASK;
  if (gimp_item_is_channel (ID (drawable)))
    return TL_HOST_DRAWABLE_CHANNEL;
  return TL_HOST_DRAWABLE_LAYER;
}

static gboolean
threadlens2_mask_bounds (gpointer       drawable,
                         GeglRectangle *region)
{
  return gimp_drawable_mask_intersect (ID (drawable), &region->x, &region->y,
                                       &region->width, &region->height);
}

static GeglBuffer *
threadlens2_get_buffer (gpointer drawable)
{
  return gimp_drawable_get_buffer (ID (drawable));
}

static GeglBuffer *
threadlens2_get_shadow (gpointer drawable)
{
  return gimp_drawable_get_shadow_buffer (ID (drawable));
}

static void
threadlens2_update (gpointer             drawable,
                    const GeglRectangle *area)
{
  gimp_drawable_update (ID (drawable), area->x, area->y, area->width,
                        area->height);
}

static void
threadlens2_merge_shadow (gpointer             drawable,
                          const GeglRectangle *region)
{
  gimp_drawable_merge_shadow (ID (drawable), TRUE);
  threadlens2_update (drawable, region);
}

static gpointer
threadlens2_add_layer (gpointer             image,
                       gpointer             above,
                       const gchar         *name,
                       const GeglRectangle *area)
{
  gint32 layer, parent = 0;
  gint   position = 0, offset_x = 0, offset_y = 0;

  layer = gimp_layer_new (ID (image), name, area->width, area->height,
                          gimp_image_base_type (ID (image)) == GIMP_GRAY ?
                          GIMP_GRAYA_IMAGE : GIMP_RGBA_IMAGE,
                          100.0, GIMP_LAYER_MODE_NORMAL);
  if (gimp_item_is_layer (ID (above)))
    {
      parent   = MAX (gimp_item_get_parent (ID (above)), 0);
      position = gimp_image_get_item_position (ID (image), ID (above));
    }
  gimp_drawable_offsets (ID (above), &offset_x, &offset_y);
  gimp_image_insert_layer (ID (image), layer, parent, position);
  gimp_layer_set_offsets (layer, offset_x + area->x, offset_y + area->y);

  return GINT_TO_POINTER (layer);
}

static void
threadlens2_undo_begin (gpointer image)
{
  gimp_image_undo_group_start (ID (image));
}

static void
threadlens2_undo_end (gpointer image)
{
  gimp_image_undo_group_end (ID (image));
}

static void
threadlens2_progress_init (const gchar *message)
{
  gimp_progress_init (message);
}

static void
threadlens2_progress_end (void)
{
  gimp_progress_end ();
}

/* Warnings: the message dialog or error console, stderr in batch. */
static void
threadlens2_message (const gchar *text)
{
  gimp_message (text);
}

static const TlHostGimp threadlens2_gimp =
{
  .kind          = threadlens2_kind,
  .mask_bounds   = threadlens2_mask_bounds,
  .get_buffer    = threadlens2_get_buffer,
  .get_shadow    = threadlens2_get_shadow,
  .merge_shadow  = threadlens2_merge_shadow,
  .add_layer     = threadlens2_add_layer,
  .update        = threadlens2_update,
  .undo_begin    = threadlens2_undo_begin,
  .undo_end      = threadlens2_undo_end,
  .progress_init = threadlens2_progress_init,
  .progress_end  = threadlens2_progress_end,
  .progress      = threadlens2_progress,
  .message       = threadlens2_message,
  /* 2.10 has no in-core calls: run_operation, add_operation_layer and
   * remove_layer stay NULL, which tl_host_apply () takes as
   * "filter in the plug-in's process".
   */
};

/* FILTER NULL: the thread map alone. */
static gboolean
threadlens2_apply (const TlFilter       *filter,
                   const TlHostSettings *settings,
                   gint32                image,
                   gint32                drawable,
                   GError              **error)
{
  /* 2.10 hands over IDs, which may name nothing. */
  if (! gimp_item_is_valid (drawable) || ! gimp_item_is_drawable (drawable))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("drawable %d does not exist"), drawable);
      return FALSE;
    }

  return tl_host_apply (&threadlens2_gimp, filter, settings,
                        GINT_TO_POINTER (image), GINT_TO_POINTER (drawable),
                        error);
}

static void
threadlens2_run (const gchar      *name,
                 gint              n_params,
                 const GimpParam  *params,
                 gint             *n_return_values,
                 GimpParam       **return_values)
{
  static GimpParam   values[2];
  g_autoptr(GError)  error  = NULL;
  g_autofree gchar  *locale = NULL;
  const TlFilter    *filter;
  TlHostSettings     settings;
  GimpRunMode        run_mode;
  GimpPDBStatusType  status = GIMP_PDB_SUCCESS;

  *n_return_values = 1;
  *return_values   = values;
  values[0].type          = GIMP_PDB_STATUS;
  values[0].data.d_status = GIMP_PDB_SUCCESS;

  locale = threadlens2_locale_dir ();
  bindtextdomain (GETTEXT_PACKAGE, locale);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  gegl_init (NULL, NULL);

  if (! threadlens2_lookup (name, &filter, &error) || n_params < N_FIXED_ARGS)
    {
      status = GIMP_PDB_CALLING_ERROR;
      goto out;
    }

  run_mode = params[0].data.d_int32;
  tl_host_settings_init (&settings, filter);

  switch (run_mode)
    {
    case GIMP_RUN_INTERACTIVE:
      threadlens2_load_last (name, &settings);
      if (! gimp_item_is_valid (params[2].data.d_drawable))
        break;     /* threadlens2_apply says what is wrong */
      if (! tl_host_check_selection (&threadlens2_gimp,
                                     GINT_TO_POINTER (params[2].data.d_drawable),
                                     &error))
        status = GIMP_PDB_EXECUTION_ERROR;
      else if (! threadlens2_dialog (name, filter, &settings,
                                     params[2].data.d_drawable, &error))
        status = error ? GIMP_PDB_EXECUTION_ERROR : GIMP_PDB_CANCEL;
      break;

    case GIMP_RUN_WITH_LAST_VALS:
      threadlens2_load_last (name, &settings);
      break;

    case GIMP_RUN_NONINTERACTIVE:
      if (! threadlens2_read_params (filter, n_params, params, &settings, &error))
        status = GIMP_PDB_CALLING_ERROR;
      break;
    }

  if (status == GIMP_PDB_SUCCESS &&
      ! threadlens2_apply (filter, &settings, params[1].data.d_image,
                           params[2].data.d_drawable, &error))
    status = GIMP_PDB_EXECUTION_ERROR;

  if (status == GIMP_PDB_SUCCESS)
    {
      gimp_set_data (name, &settings, sizeof (settings));
      if (run_mode != GIMP_RUN_NONINTERACTIVE)
        gimp_displays_flush ();
    }

 out:
  values[0].data.d_status = status;
  if (status != GIMP_PDB_SUCCESS && error)
    {
      static gchar *message = NULL;

      /* The second value is the message GIMP shows for the failure; it
       * must outlive this call.
       */
      g_free (message);
      message = g_strdup (error->message);
      *n_return_values       = 2;
      values[1].type          = GIMP_PDB_STRING;
      values[1].data.d_string = message;
    }
}
