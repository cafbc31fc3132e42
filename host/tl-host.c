/* ThreadLens: what both GIMP hosts share.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-cl.h"
#include "tl-error.h"
#include "tl-host-private.h"
#include "tl-host-check.h"
#include "tl-process.h"
#include "tl-run.h"

const gchar *tl_host_overlay_names[] =
{
  "none", "work-group", "simd-group", "lane", "launch-order", "compute-unit",
  NULL
};

const gchar *tl_host_overlay_style_names[] =
{
  "tint", "checkerboard", NULL
};

/* The thread map needs a mode: its overlay argument has no "none". */
static const gchar **tl_host_map_names = tl_host_overlay_names + 1;

static const gchar *tl_host_mode_names[] =
{
  "uniform", "non-uniform", "emulated", NULL
};

/* Nicks and blurbs are marked, not translated: GIMP 2.10 keeps them in
 * its PDB as they are; the GIMP 3 host translates them.
 */
#define TL_HOST_ARG_SHAPE_WIDTH \
  { "shape-width", N_("Work-group _width"), \
    N_("Work-group width in work-items (0 with shape-height 0: auto, the " \
       "seed rule w = P)"), TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL }
#define TL_HOST_ARG_SHAPE_HEIGHT \
  { "shape-height", N_("Work-group _height"), \
    N_("Work-group height in work-items (0 with shape-width 0: auto, the " \
       "seed rule h = M / P)"), TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL }
#define TL_HOST_ARG_MODE \
  { "mode", N_("_Mode"), \
    N_("Dispatch mode: uniform (rounded-up grid, bounds guard), non-uniform " \
       "(exact grid; emulated where the device has no native support) or " \
       "emulated (up to four offset launches)"), TL_HOST_ARG_STRING, 0, 0, \
    0, "uniform", tl_host_mode_names }
#define TL_HOST_ARG_SWIZZLE \
  { "swizzle", N_("S_wizzle"), \
    N_("Thread-group ID swizzle tile width in groups (0: off)"), \
    TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL }
#define TL_HOST_ARG_PIXELS_PER_ITEM \
  { "pixels-per-item", N_("_Pixels per work-item"), \
    N_("Consecutive pixels along x per work-item (0: the filter's " \
       "default)"), TL_HOST_ARG_INT, 0, 4096, 0, NULL, NULL }
#define TL_HOST_ARG_OPACITY \
  { "overlay-opacity", N_("Overlay _opacity"), \
    N_("Opacity of the overlay's tint, 0 to 1"), TL_HOST_ARG_DOUBLE, 0.0, \
    1.0, 0.5, NULL, NULL }
#define TL_HOST_ARG_DEVICE \
  { "device", N_("_Device"), \
    N_("OpenCL device: index or part of its name (empty: " \
       "THREADLENS_DEVICE, else the first GPU, else the first device)"), \
    TL_HOST_ARG_STRING, 0, 0, 0, "", NULL }

/* After a filter's own parameters, in this order. */
static const TlHostArg tl_host_dispatch_args[] =
{
  TL_HOST_ARG_SHAPE_WIDTH,
  TL_HOST_ARG_SHAPE_HEIGHT,
  TL_HOST_ARG_MODE,
  TL_HOST_ARG_SWIZZLE,
  TL_HOST_ARG_PIXELS_PER_ITEM,
  { "overlay", N_("O_verlay"),
    N_("Thread-map overlay drawn on a new layer: none, work-group, "
       "simd-group, lane, launch-order or compute-unit"), TL_HOST_ARG_STRING,
    0, 0, 0, "none", tl_host_overlay_names },
  TL_HOST_ARG_OPACITY,
  TL_HOST_ARG_DEVICE,
};

/* The thread-map procedure's arguments. */
static const TlHostArg tl_host_map_args[] =
{
  TL_HOST_ARG_SHAPE_WIDTH,
  TL_HOST_ARG_SHAPE_HEIGHT,
  TL_HOST_ARG_MODE,
  TL_HOST_ARG_SWIZZLE,
  TL_HOST_ARG_PIXELS_PER_ITEM,
  { "overlay", N_("O_verlay"),
    N_("What the map shows: work-group, simd-group, lane, launch-order or "
       "compute-unit"), TL_HOST_ARG_STRING, 0, 0, 0, "work-group", NULL },
  { "overlay-style", N_("St_yle"),
    N_("tint (colours blended at the opacity) or checkerboard (seed 002's "
       "picture: odd units colour-inverted)"), TL_HOST_ARG_STRING, 0, 0, 0,
    "tint", tl_host_overlay_style_names },
  TL_HOST_ARG_OPACITY,
  TL_HOST_ARG_DEVICE,
};

gchar **
tl_host_procedure_names (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i;
  gchar                **names;

  filters = tl_filter_list (&n_filters);
  names   = g_new0 (gchar *, n_filters + 2);
  for (i = 0; i < n_filters; i++)
    names[i] = tl_host_procedure_name (filters[i]);
  names[n_filters] = g_strdup (TL_HOST_THREAD_MAP);

  return names;
}

gboolean
tl_host_is_thread_map (const gchar *procedure)
{
  return g_strcmp0 (procedure, TL_HOST_THREAD_MAP) == 0;
}

gchar *
tl_host_procedure_name (const TlFilter *filter)
{
  if (filter == NULL)
    return g_strdup (TL_HOST_THREAD_MAP);

  return g_strconcat (TL_HOST_PROC_PREFIX, filter->name, NULL);
}

const TlFilter *
tl_host_filter_for_procedure (const gchar *procedure,
                              GError     **error)
{
  g_return_val_if_fail (procedure != NULL, NULL);

  if (! g_str_has_prefix (procedure, TL_HOST_PROC_PREFIX))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("'%s' is not a ThreadLens procedure"), procedure);
      return NULL;
    }

  return tl_filter_lookup (procedure + strlen (TL_HOST_PROC_PREFIX), error);
}

gchar *
tl_host_menu_label (const TlFilter *filter)
{
  /* Marked, not translated: GIMP 2.10 translates menu labels itself. */
  return g_strdup (filter ? filter->label : N_("Thread Map"));
}

gchar *
tl_host_filter_title (const TlFilter *filter)
{
  /* TRANSLATORS: a filter's name as GIMP's filter stack, its warnings
   * and GEGL's list of operations show it, so that it is told from
   * GIMP's own filter of the same name.
   */
  return g_strdup_printf (_("%s (ThreadLens)"),
                          _(filter ? filter->label : N_("Thread Map")));
}

static gchar *
tl_host_format_vector (const gdouble *values,
                       guint          n)
{
  GString *text = g_string_new (NULL);
  guint    i;

  for (i = 0; i < n; i++)
    {
      gchar number[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (text, "%s%s", i ? " " : "",
                              g_ascii_dtostr (number, sizeof (number), values[i]));
    }
  return g_string_free (text, FALSE);
}

/* The filter's parameters in registry order (numbers as DOUBLE, lists as
 * STRING of numbers), then the dispatch arguments.  Free with
 * tl_host_arguments_free ().
 */
TlHostArg *
tl_host_arguments (const TlFilter *filter,
                   guint          *n_args)
{
  TlHostArg *args;
  guint      i;

  g_return_val_if_fail (n_args != NULL, NULL);

  if (filter == NULL)
    {
      *n_args = G_N_ELEMENTS (tl_host_map_args);
      args    = g_new0 (TlHostArg, *n_args + 1);
      memcpy (args, tl_host_map_args, sizeof (tl_host_map_args));
      args[5].choices = tl_host_map_names;
      return args;
    }

  g_return_val_if_fail (filter->n_params <= TL_HOST_MAX_PARAMS, NULL);

  *n_args = filter->n_params + G_N_ELEMENTS (tl_host_dispatch_args);
  args    = g_new0 (TlHostArg, *n_args + 1);

  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      args[i].name  = spec->name;
      args[i].nick  = spec->label;
      args[i].blurb = spec->description;
      args[i].min   = spec->min;
      args[i].max   = spec->max;
      if (spec->type == TL_PARAM_DOUBLE)
        {
          args[i].type           = TL_HOST_ARG_DOUBLE;
          args[i].default_number = spec->defaults[0];
        }
      else
        {
          args[i].type         = TL_HOST_ARG_STRING;
          args[i].default_text = tl_host_format_vector (spec->defaults,
                                                        spec->n_default);
        }
    }
  memcpy (args + filter->n_params, tl_host_dispatch_args,
          sizeof (tl_host_dispatch_args));

  return args;
}

/* threadlens:thread-map's properties: the thread-map procedure's
 * arguments, then TL_HOST_MAP_FILTER_ARG (whose dispatch the map draws).
 * Free with tl_host_arguments_free ().
 */
TlHostArg *
tl_host_map_operation_arguments (guint *n_args)
{
  TlHostArg *args = tl_host_arguments (NULL, n_args);

  g_return_val_if_fail (n_args != NULL, NULL);

  args = g_renew (TlHostArg, args, *n_args + 2);
  memset (&args[*n_args], 0, 2 * sizeof (TlHostArg));
  args[*n_args].name         = TL_HOST_MAP_FILTER_ARG;
  args[*n_args].nick         = N_("Filter");
  args[*n_args].blurb        = N_("The filter whose dispatch the map shows "
                                  "(empty: the overlay kernel's own)");
  args[*n_args].type         = TL_HOST_ARG_STRING;
  args[*n_args].default_text = "";
  (*n_args)++;
  return args;
}

void
tl_host_arguments_free (TlHostArg *args)
{
  guint i;

  if (args == NULL)
    return;

  /* Only the filter's list defaults were allocated; they come before the
   * dispatch arguments, which start at "shape-width".
   */
  for (i = 0; args[i].name && strcmp (args[i].name, "shape-width") != 0; i++)
    if (args[i].type == TL_HOST_ARG_STRING)
      g_free ((gchar *) args[i].default_text);
  g_free (args);
}

void
tl_host_settings_init (TlHostSettings *settings,
                       const TlFilter *filter)
{
  g_return_if_fail (settings != NULL);
  g_return_if_fail (filter == NULL || filter->n_params <= TL_HOST_MAX_PARAMS);

  memset (settings, 0, sizeof (*settings));
  if (filter)
    {
      g_autofree TlValue *defaults = tl_filter_default_values (filter);

      memcpy (settings->values, defaults, sizeof (TlValue) * filter->n_params);
    }
  settings->mode            = TL_MODE_UNIFORM;
  settings->overlay         = filter ? 0 : 1;
  settings->overlay_opacity = 0.5;
}

static gint
tl_host_choice_index (const gchar **names,
                      const gchar  *text)
{
  gint i;

  for (i = 0; names[i]; i++)
    if (strcmp (names[i], text) == 0)
      return i;
  return -1;
}

/* Reads a dispatch or overlay argument into RESULT. */
static gboolean
tl_host_read_dispatch (const TlHostArg   *arg,
                       const TlHostValue *value,
                       TlHostSettings    *result,
                       GError           **error)
{
  const gchar *text = value->s ? value->s : "";

  if (strcmp (arg->name, "shape-width") == 0 || strcmp (arg->name, "shape-height") == 0)
    {
      if (value->i < 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("%s %d: a work-group side cannot be negative"),
                       arg->name, value->i);
          return FALSE;
        }
      result->shape[arg->name[6] == 'w' ? 0 : 1] = value->i;
    }
  else if (strcmp (arg->name, "mode") == 0)
    {
      return tl_mode_from_string (text, &result->mode, error);
    }
  else if (strcmp (arg->name, "swizzle") == 0)
    {
      if (value->i < 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("swizzle %d: the tile width must be 0 (off) or a "
                         "positive number of groups"), value->i);
          return FALSE;
        }
      result->swizzle = value->i;
    }
  else if (strcmp (arg->name, "pixels-per-item") == 0)
    {
      if (value->i < 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("pixels-per-item %d: must be 0 (the filter's "
                         "default) or a positive number"), value->i);
          return FALSE;
        }
      result->pixels_per_item = value->i;
    }
  else if (strcmp (arg->name, "overlay") == 0)
    {
      gint index = tl_host_choice_index (tl_host_overlay_names, text);

      /* The thread map itself has no "none". */
      if (index < 0 || (arg->choices == tl_host_map_names && index == 0))
        {
          g_autofree gchar *known = g_strjoinv (", ", (gchar **) arg->choices);

          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("unknown overlay '%s' (expected %s)"), text, known);
          return FALSE;
        }
      result->overlay = index;
    }
  else if (strcmp (arg->name, "overlay-style") == 0)
    {
      gint index = tl_host_choice_index (tl_host_overlay_style_names, text);

      if (index < 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("unknown overlay style '%s' (expected tint or "
                         "checkerboard)"), text);
          return FALSE;
        }
      result->overlay_style = index;
    }
  else if (strcmp (arg->name, "overlay-opacity") == 0)
    {
      if (! (value->d >= 0.0 && value->d <= 1.0))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("overlay-opacity %g is out of range [0, 1]"), value->d);
          return FALSE;
        }
      result->overlay_opacity = value->d;
    }
  else if (strcmp (arg->name, "device") == 0)
    {
      if (strlen (text) >= TL_HOST_DEVICE_LEN)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("device name is longer than %d characters"),
                       TL_HOST_DEVICE_LEN - 1);
          return FALSE;
        }
      g_strlcpy (result->device, text, sizeof (result->device));
    }
  else
    {
      g_return_val_if_reached (FALSE);
    }

  return TRUE;
}

/* VALUES holds one entry per argument of tl_host_arguments (FILTER), in
 * order.  SETTINGS is only changed when every value is acceptable.
 */
gboolean
tl_host_settings_from_values (TlHostSettings    *settings,
                              const TlFilter    *filter,
                              const TlHostValue *values,
                              guint              n_values,
                              GError           **error)
{
  g_autoptr(GString) known  = NULL;
  TlHostSettings     result;
  TlHostArg         *args;
  guint              n_args, n_params, i;
  gboolean           ok = TRUE;

  g_return_val_if_fail (settings != NULL && values != NULL, FALSE);

  args     = tl_host_arguments (filter, &n_args);
  n_params = filter ? filter->n_params : 0;
  if (n_values != n_args)
    {
      g_autofree gchar *name = tl_host_procedure_name (filter);

      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s takes %u arguments after the drawable, not %u"),
                   name, n_args, n_values);
      tl_host_arguments_free (args);
      return FALSE;
    }

  tl_host_settings_init (&result, filter);

  for (i = 0; ok && i < n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      if (spec->type == TL_PARAM_DOUBLE)
        {
          result.values[i].n    = 1;
          result.values[i].v[0] = values[i].d;
        }
      else
        {
          ok = tl_filter_set_value (filter, result.values, spec->name,
                                    values[i].s ? values[i].s : "", error);
        }
    }
  for (i = n_params; ok && i < n_args; i++)
    ok = tl_host_read_dispatch (&args[i], &values[i], &result, error);

  /* Each value read, then whether they can run together. */
  if (ok)
    ok = tl_host_check_settings (filter, &result, error);

  tl_host_arguments_free (args);
  if (ok)
    *settings = result;
  return ok;
}

/* The inverse of tl_host_settings_from_values (): VALUES gets one entry
 * per argument of tl_host_arguments (FILTER).  Strings in VALUES belong to
 * the returned array; free it after use.
 */
GPtrArray *
tl_host_settings_to_values (const TlHostSettings *settings,
                            const TlFilter       *filter,
                            TlHostValue          *values)
{
  GPtrArray *strings = g_ptr_array_new_with_free_func (g_free);
  TlHostArg *args;
  guint      n_args, n_params, i;

  g_return_val_if_fail (settings != NULL && values != NULL, strings);

  args     = tl_host_arguments (filter, &n_args);
  n_params = filter ? filter->n_params : 0;

  for (i = 0; i < n_args; i++)
    {
      const gchar *name = args[i].name;
      gchar       *text = NULL;

      if (i < n_params)
        {
          if (filter->params[i].type == TL_PARAM_DOUBLE)
            values[i].d = settings->values[i].v[0];
          else
            text = tl_host_format_vector (settings->values[i].v,
                                          settings->values[i].n);
        }
      else if (strcmp (name, "shape-width") == 0)
        values[i].i = settings->shape[0];
      else if (strcmp (name, "shape-height") == 0)
        values[i].i = settings->shape[1];
      else if (strcmp (name, "mode") == 0)
        text = g_strdup (tl_mode_to_string (settings->mode));
      else if (strcmp (name, "swizzle") == 0)
        values[i].i = settings->swizzle;
      else if (strcmp (name, "pixels-per-item") == 0)
        values[i].i = settings->pixels_per_item;
      else if (strcmp (name, "overlay") == 0)
        text = g_strdup (tl_host_overlay_names[settings->overlay]);
      else if (strcmp (name, "overlay-style") == 0)
        text = g_strdup (tl_host_overlay_style_names[settings->overlay_style]);
      else if (strcmp (name, "overlay-opacity") == 0)
        values[i].d = settings->overlay_opacity;
      else if (strcmp (name, "device") == 0)
        text = g_strdup (settings->device);

      if (text)
        {
          values[i].s = text;
          g_ptr_array_add (strings, text);
        }
    }

  tl_host_arguments_free (args);
  return strings;
}

/* SETTINGS as a threadlens: operation's properties: FILTER's (NULL:
 * threadlens:thread-map's, drawing SHOWN's dispatch, NULL: the overlay
 * kernel's own).
 */
static TlHostProperties *
tl_host_properties_for (const TlFilter       *filter,
                        const TlFilter       *shown,
                        const TlHostSettings *settings)
{
  TlHostProperties *properties = g_new0 (TlHostProperties, 1);

  properties->args    = filter ? tl_host_arguments (filter, &properties->n_args) :
                                 tl_host_map_operation_arguments (&properties->n_args);
  properties->values  = g_new0 (TlHostValue, properties->n_args);
  properties->strings = tl_host_settings_to_values (settings, filter,
                                                    properties->values);
  properties->operation = g_strconcat (TL_HOST_OPERATION_PREFIX,
                                       filter ? filter->name : "thread-map",
                                       NULL);
  if (filter == NULL)
    properties->values[properties->n_args - 1].s = shown ? shown->name : "";
  return properties;
}

TlHostProperties *
tl_host_properties_new (const TlFilter       *filter,
                        const TlHostSettings *settings)
{
  g_return_val_if_fail (filter != NULL && settings != NULL, NULL);

  return tl_host_properties_for (filter, NULL, settings);
}

TlHostProperties *
tl_host_map_properties_new (const TlFilter       *shown,
                            const TlHostSettings *settings)
{
  g_return_val_if_fail (settings != NULL, NULL);

  return tl_host_properties_for (NULL, shown, settings);
}

void
tl_host_properties_free (TlHostProperties *properties)
{
  if (properties == NULL)
    return;
  tl_host_arguments_free (properties->args);
  g_free (properties->values);
  g_ptr_array_unref (properties->strings);
  g_free (properties->operation);
  g_free (properties);
}

gboolean
tl_host_settings_to_choice (const TlHostSettings *settings,
                            TlChoice             *choice,
                            GError              **error)
{
  g_return_val_if_fail (settings != NULL && choice != NULL, FALSE);

  if (! tl_host_check_shape (settings, error))
    return FALSE;
  tl_choice_init (choice);
  if (settings->shape[0] > 0)
    {
      choice->shape_kind = TL_SHAPE_CUSTOM;
      choice->shape[0]   = settings->shape[0];
      choice->shape[1]   = settings->shape[1];
    }
  choice->mode            = settings->mode;
  choice->swizzle         = MAX (settings->swizzle, 0);
  choice->pixels_per_item = MAX (settings->pixels_per_item, 0);
  return TRUE;
}

/* Progress for GIMP's bar; with G_MESSAGES_DEBUG=ThreadLens, also the
 * time since the process started, to see where a run's time goes.
 */
void
tl_host_report (TlHostProgress  progress,
                gpointer        data,
                gdouble         fraction,
                const gchar    *message)
{
  static gint64 start = 0;

  if (start == 0)
    start = g_get_monotonic_time ();
  g_debug ("%7.1f ms  %3.0f%%  %s", (g_get_monotonic_time () - start) / 1e3,
           100.0 * fraction, message);
  if (progress)
    progress (fraction, message, data);
}

static GMutex  tl_host_context_lock;
static gchar  *tl_host_opencl_off = NULL;

/* A host that must not touch OpenCL in this process (the GEGL module,
 * when the platforms' probe failed) says why; from then on runs take the
 * path of a machine without OpenCL: the C references, with WHY in the
 * message.
 */
void
tl_host_set_opencl_off (const gchar *why)
{
  g_return_if_fail (why != NULL);

  g_mutex_lock (&tl_host_context_lock);
  g_free (tl_host_opencl_off);
  tl_host_opencl_off = g_strdup (why);
  g_mutex_unlock (&tl_host_context_lock);
}

/* The OpenCL context for SETTINGS' device, kept for the life of the
 * process: the dialog's preview runs the kernels on every change, the
 * GEGL module on every chunk, and making a context and loading its
 * programs each time would cost more than the kernels.  Callers do not
 * run kernels concurrently (the preview holds tl_probe_lock (), the GEGL
 * module its own lock); the lock here guards the cache itself.
 */
TlContext *
tl_host_get_context (const TlHostSettings *settings,
                     GError              **error)
{
  static TlContext *context = NULL;
  static gchar     *device  = NULL;
  TlContext        *result;

  g_return_val_if_fail (settings != NULL, NULL);

  g_mutex_lock (&tl_host_context_lock);
  if (tl_host_opencl_off)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                           tl_host_opencl_off);
      g_mutex_unlock (&tl_host_context_lock);
      return NULL;
    }
  if (context == NULL || g_strcmp0 (device, settings->device) != 0)
    {
      TlContext *fresh = tl_context_new (settings->device[0] ?
                                         settings->device : NULL, error);

      if (fresh)
        {
          g_clear_pointer (&context, tl_context_free);
          g_free (device);
          context = fresh;
          device  = g_strdup (settings->device);
        }
    }
  result = g_strcmp0 (device, settings->device) == 0 ? context : NULL;
  g_mutex_unlock (&tl_host_context_lock);

  return result;
}

/* The context for SETTINGS' device.  With no OpenCL platform at all,
 * CONTEXT is NULL and FILTER runs its C reference: WARNING (when given)
 * says so; unless NEED_DEVICE (a thread map), which makes it an error.
 * FALSE with ERROR for every other failure.
 */
gboolean
tl_host_open_device (const TlHostSettings *settings,
                     const TlFilter       *filter,
                     gboolean              need_device,
                     TlContext           **context,
                     gchar               **warning,
                     GError              **error)
{
  g_autoptr(GError) missing = NULL;

  g_return_val_if_fail (settings != NULL && filter != NULL && context != NULL, FALSE);

  *context = tl_host_get_context (settings, &missing);
  if (*context)
    return TRUE;
  if (! tl_process_can_fall_back (missing) || need_device)
    {
      if (need_device)
        g_prefix_error (&missing, _("the thread map needs an OpenCL device: "));
      g_propagate_error (error, g_steal_pointer (&missing));
      return FALSE;
    }
  if (warning)
    *warning = tl_process_fallback_text (filter, missing);
  return TRUE;
}

/* FILTER's input for REGION of SOURCE: the region grown by the filter's
 * halo (AREA), read in the narrowest storage that loses nothing for the
 * layer (8-bit layers move 4 bytes a pixel), and an output of the same
 * size.  PIXELS points at both, which the caller frees.
 */
static gboolean
tl_host_read_pixels (const TlHostSettings *settings,
                     const TlFilter       *filter,
                     GeglBuffer           *source,
                     const GeglRectangle  *region,
                     TlCodec             **codec,
                     GeglRectangle        *area,
                     TlPixels             *pixels,
                     GError              **error)
{
  gpointer in, out = NULL;
  gsize    n_pixels;

  *codec = tl_codec_new (gegl_buffer_get_format (source), filter->format, error);
  if (*codec == NULL)
    return FALSE;

  in = tl_process_read_area (source, region, tl_filter_halo (filter, settings->values),
                          tl_codec_get_format (*codec), area, error);
  if (in && tl_alloc_mul (area->width, area->height, &n_pixels, error))
    out = tl_alloc_n (n_pixels, tl_codec_get_pixel_size (*codec), error);
  if (out == NULL)
    {
      g_free (in);
      return FALSE;
    }

  pixels->width  = area->width;
  pixels->height = area->height;
  pixels->codec  = *codec;
  pixels->in     = in;
  pixels->out    = out;
  return TRUE;
}

typedef struct
{
  TlHostProgress progress;
  gpointer       data;
  const gchar   *message;
  gint64         told_at;
} TlHostTileProgress;

/* GIMP's bar between 0.1 and 0.9 while the filter runs, at most every
 * TL_HOST_PROGRESS_MS (each a message to GIMP), with the time left once
 * it is over a second and known.
 */
#define TL_HOST_PROGRESS_MS 200

static gboolean
tl_host_tile_progress (const TlProgress *progress,
                       gpointer          data)
{
  TlHostTileProgress *tiles = data;
  g_autofree gchar   *text  = NULL;
  gint64              now   = g_get_monotonic_time ();

  if (now - tiles->told_at < TL_HOST_PROGRESS_MS * 1000)
    return TRUE;
  tiles->told_at = now;
  if (progress->remaining_ms >= 1000.0)
    /* TRANSLATORS: a progress message, then the seconds left. */
    text = g_strdup_printf (_("%s (about %.0f s left)"), tiles->message,
                            progress->remaining_ms / 1000.0);
  tl_host_report (NULL, NULL, 0.1 + 0.8 * progress->fraction,
                  text ? text : tiles->message);
  return tiles->progress == NULL ||
         tiles->progress (0.1 + 0.8 * progress->fraction,
                          text ? text : tiles->message, tiles->data);
}

/* Filters REGION of SOURCE into the same place of TARGET, in tiles when
 * the region is too big for one device buffer.  The filter reads its
 * halo around the region from SOURCE (clamped at the layer's edges, as
 * the filter's own borders are).  A failure may leave TARGET partly
 * written: the caller drops it (GIMP's shadow is merged only on success).
 * With an overlay chosen and OVERLAY given, the thread map of the same
 * dispatch over the filtered pixels goes there.  With no OpenCL platform
 * at all, the filter's C reference runs and WARNING (when given) says so;
 * an overlay then fails, as it needs a device.
 */
gboolean
tl_host_process (const TlHostSettings *settings,
                 const TlFilter       *filter,
                 GeglBuffer           *source,
                 GeglBuffer           *target,
                 const GeglRectangle  *region,
                 TlHostProgress        progress,
                 gpointer              progress_data,
                 TlHostOverlay        *overlay,
                 TlProcessReport      *report,
                 gchar               **warning,
                 GError              **error)
{
  TlContext           *context;
  g_autofree gchar    *message = NULL;
  gboolean             map     = overlay && settings->overlay > 0;
  TlHostTileProgress   tiles;
  TlProcessReport      own;
  TlChoice             choice;

  g_return_val_if_fail (settings != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source) && GEGL_IS_BUFFER (target), FALSE);
  g_return_val_if_fail (region != NULL && region->width > 0 && region->height > 0, FALSE);

  if (! tl_host_settings_to_choice (settings, &choice, error) ||
      ! tl_host_check_settings (filter, settings, error))
    return FALSE;

  tl_host_report (progress, progress_data, 0.05, _("ThreadLens: preparing OpenCL"));
  if (! tl_host_open_device (settings, filter, map, &context, warning, error))
    return FALSE;
  /* Before the filter runs, not after: a map the device cannot draw. */
  if (map && ! tl_host_check_device (filter, settings,
                                     tl_context_get_device (context), error))
    return FALSE;
  if (context == NULL)
    {
      /* TRANSLATORS: ThreadLens: FILTER on the CPU */
      message = g_strdup_printf (_("ThreadLens: %s on the CPU"), _(filter->label));
    }
  else
    {
      tl_host_report (NULL, NULL, 0.05, "OpenCL ready");
      /* TRANSLATORS: ThreadLens: FILTER on DEVICE */
      message = g_strdup_printf (_("ThreadLens: %s on %s"), _(filter->label),
                                 tl_context_get_device (context)->name);
    }

  if (report == NULL)
    report = &own;
  tiles.progress = progress;
  tiles.data     = progress_data;
  tiles.message  = message;
  tiles.told_at  = 0;
  tl_host_report (progress, progress_data, 0.1, message);
  if (! tl_process_region (context, filter, settings->values, &choice, source,
                           target, region, tl_process_tile_setting (),
                           tl_host_tile_progress, &tiles, report, error))
    return FALSE;
  g_debug ("%u tile(s) in %s storage; read %.1f ms, upload %.1f ms, "
           "kernels %.1f ms in %u launches (the longest %.1f ms), download "
           "%.1f ms, write %.1f ms; on the device %.1f ms of wall clock, the "
           "region %.1f ms", report->tiles, report->storage, report->read_ms,
           report->times.upload_ms, report->times.kernel_ms,
           report->times.launches, report->times.longest_ms,
           report->times.download_ms, report->write_ms, report->device_ms,
           report->region_ms);

  if (map)
    {
      g_autoptr(TlCodec) codec = NULL;
      guint              halo  = tl_filter_halo (filter, settings->values);
      GeglRectangle      area  = { region->x - (gint) halo,
                                   region->y - (gint) halo,
                                   region->width + 2 * (gint) halo,
                                   region->height + 2 * (gint) halo };

      /* The map of the dispatch over the filtered area: the region grown
       * by the halo, shown as filtered where the region is.
       */
      gegl_rectangle_intersect (&area, &area, gegl_buffer_get_extent (source));
      codec = tl_codec_new (gegl_buffer_get_format (source), filter->format,
                            error);
      if (codec == NULL)
        return FALSE;
      tl_host_report (progress, progress_data, 0.9, _("ThreadLens: thread map"));
      if (! tl_host_draw_map (context, settings, filter, codec, source, &area,
                              target, region, report->times.ms_per_group,
                              overlay, error))
        return FALSE;
    }

  tl_host_report (progress, progress_data, 1.0, message);
  tl_host_report (NULL, NULL, 1.0, "pixels written");
  return TRUE;
}

/* The search behind "auto" (tl-tune.c) for FILTER on REGION of SOURCE
 * as it would run: the layer's storage, the settings' device, mode and
 * parameters, within BUDGET_S seconds; PROGRESS may cancel it.  The
 * result is kept on disk, where later runs and the dialog's summary find
 * it.
 */
gboolean
tl_host_tune (const TlHostSettings *settings,
              const TlFilter       *filter,
              GeglBuffer           *source,
              const GeglRectangle  *region,
              gdouble               budget_s,
              TlTuneProgress        progress,
              gpointer              progress_data,
              TlTuning             *tuning,
              GError              **error)
{
  TlContext           *context;
  g_autoptr(TlCodec)   codec = NULL;
  GeglRectangle        area;
  TlChoice             choice;
  TlPixels             pixels = { 0, };
  gboolean             ok;

  g_return_val_if_fail (settings != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source) && tuning != NULL, FALSE);
  g_return_val_if_fail (region != NULL && region->width > 0 && region->height > 0, FALSE);

  if (! tl_host_settings_to_choice (settings, &choice, error) ||
      ! tl_filter_check_values (filter, settings->values, error))
    return FALSE;
  context = tl_host_get_context (settings, error);
  if (context == NULL)
    return FALSE;
  if (! tl_host_read_pixels (settings, filter, source, region, &codec, &area,
                             &pixels, error))
    return FALSE;

  ok = tl_tune_search (context, filter, settings->values, choice.mode,
                       &pixels, budget_s, progress, progress_data, tuning,
                       error);
  g_free ((gpointer) pixels.in);
  g_free (pixels.out);
  return ok;
}
