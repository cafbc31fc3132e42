/* ThreadLens: what both GIMP hosts share.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-host.h"
#include "tl-run.h"

const gchar *tl_host_overlay_names[] =
{
  "none", "work-group", "simd-group", "lane", "launch-order", "compute-unit",
  NULL
};

static const gchar *tl_host_mode_names[] =
{
  "uniform", "non-uniform", "emulated", NULL
};

/* The dispatch arguments, after the filter's own, in this order. */
enum
{
  TL_HOST_SHAPE_WIDTH,
  TL_HOST_SHAPE_HEIGHT,
  TL_HOST_MODE,
  TL_HOST_SWIZZLE,
  TL_HOST_PIXELS_PER_ITEM,
  TL_HOST_OVERLAY,
  TL_HOST_OVERLAY_OPACITY,
  TL_HOST_DEVICE,
  TL_HOST_N_DISPATCH_ARGS
};

static const TlHostArg tl_host_dispatch_args[TL_HOST_N_DISPATCH_ARGS] =
{
  { "shape-width", "Work-group _width",
    "Work-group width in work-items (0 with shape-height 0: auto, the seed "
    "rule w = P)", TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL },
  { "shape-height", "Work-group _height",
    "Work-group height in work-items (0 with shape-width 0: auto, the seed "
    "rule h = M / P)", TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL },
  { "mode", "_Mode",
    "Dispatch mode: uniform (rounded-up grid, bounds guard), non-uniform "
    "(exact grid; emulated where the device has no native support) or "
    "emulated (up to four offset launches)", TL_HOST_ARG_STRING, 0, 0, 0,
    "uniform", tl_host_mode_names },
  { "swizzle", "S_wizzle",
    "Thread-group ID swizzle tile width in groups (0: off)",
    TL_HOST_ARG_INT, 0, 65535, 0, NULL, NULL },
  { "pixels-per-item", "_Pixels per work-item",
    "Consecutive pixels along x per work-item (0: the filter's default)",
    TL_HOST_ARG_INT, 0, 4096, 0, NULL, NULL },
  { "overlay", "O_verlay",
    "Thread-map overlay drawn on a new layer: none, work-group, simd-group, "
    "lane, launch-order or compute-unit", TL_HOST_ARG_STRING, 0, 0, 0,
    "none", tl_host_overlay_names },
  { "overlay-opacity", "Overlay _opacity",
    "Opacity of the overlay's tint, 0 to 1", TL_HOST_ARG_DOUBLE, 0.0, 1.0,
    0.5, NULL, NULL },
  { "device", "_Device",
    "OpenCL device: index or part of its name (empty: THREADLENS_DEVICE, "
    "else the first GPU, else the first device)", TL_HOST_ARG_STRING, 0, 0,
    0, "", NULL },
};

gchar *
tl_host_procedure_name (const TlFilter *filter)
{
  g_return_val_if_fail (filter != NULL, NULL);

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
                   "'%s' is not a ThreadLens procedure", procedure);
      return NULL;
    }

  return tl_filter_lookup (procedure + strlen (TL_HOST_PROC_PREFIX), error);
}

gchar *
tl_host_menu_label (const TlFilter *filter)
{
  g_return_val_if_fail (filter != NULL, NULL);

  return g_strdup (filter->label);
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

  g_return_val_if_fail (filter != NULL && n_args != NULL, NULL);
  g_return_val_if_fail (filter->n_params <= TL_HOST_MAX_PARAMS, NULL);

  *n_args = filter->n_params + TL_HOST_N_DISPATCH_ARGS;
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
  g_autofree TlValue *defaults = NULL;

  g_return_if_fail (settings != NULL && filter != NULL);
  g_return_if_fail (filter->n_params <= TL_HOST_MAX_PARAMS);

  memset (settings, 0, sizeof (*settings));
  defaults = tl_filter_default_values (filter);
  memcpy (settings->values, defaults, sizeof (TlValue) * filter->n_params);
  settings->mode            = TL_MODE_UNIFORM;
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

/* VALUES holds one entry per argument of tl_host_arguments (), in order.
 * SETTINGS is only changed when every value is acceptable.
 */
gboolean
tl_host_settings_from_values (TlHostSettings    *settings,
                              const TlFilter    *filter,
                              const TlHostValue *values,
                              guint              n_values,
                              GError           **error)
{
  const TlHostValue *dispatch;
  TlHostSettings     result;
  gint               overlay;
  guint              i;

  g_return_val_if_fail (settings != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (values != NULL, FALSE);

  if (n_values != filter->n_params + TL_HOST_N_DISPATCH_ARGS)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "%s%s takes %u arguments after the drawable, not %u",
                   TL_HOST_PROC_PREFIX, filter->name,
                   filter->n_params + TL_HOST_N_DISPATCH_ARGS, n_values);
      return FALSE;
    }

  tl_host_settings_init (&result, filter);

  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      if (spec->type == TL_PARAM_DOUBLE)
        {
          result.values[i].n    = 1;
          result.values[i].v[0] = values[i].d;
        }
      else if (! tl_filter_set_value (filter, result.values, spec->name,
                                      values[i].s ? values[i].s : "", error))
        {
          return FALSE;
        }
    }
  if (! tl_filter_check_values (filter, result.values, error))
    return FALSE;

  dispatch = values + filter->n_params;

  if (dispatch[TL_HOST_SHAPE_WIDTH].i < 0 || dispatch[TL_HOST_SHAPE_HEIGHT].i < 0 ||
      (dispatch[TL_HOST_SHAPE_WIDTH].i == 0) != (dispatch[TL_HOST_SHAPE_HEIGHT].i == 0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "work-group shape %dx%d: shape-width and shape-height "
                   "must both be 0 (auto) or both positive",
                   dispatch[TL_HOST_SHAPE_WIDTH].i,
                   dispatch[TL_HOST_SHAPE_HEIGHT].i);
      return FALSE;
    }
  result.shape[0] = dispatch[TL_HOST_SHAPE_WIDTH].i;
  result.shape[1] = dispatch[TL_HOST_SHAPE_HEIGHT].i;

  if (! tl_mode_from_string (dispatch[TL_HOST_MODE].s ? dispatch[TL_HOST_MODE].s : "",
                             &result.mode, error))
    return FALSE;

  if (dispatch[TL_HOST_SWIZZLE].i < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "swizzle %d: the tile width must be 0 (off) or a positive "
                   "number of groups", dispatch[TL_HOST_SWIZZLE].i);
      return FALSE;
    }
  result.swizzle = dispatch[TL_HOST_SWIZZLE].i;

  if (dispatch[TL_HOST_PIXELS_PER_ITEM].i < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "pixels-per-item %d: must be 0 (the filter's default) or "
                   "a positive number", dispatch[TL_HOST_PIXELS_PER_ITEM].i);
      return FALSE;
    }
  result.pixels_per_item = dispatch[TL_HOST_PIXELS_PER_ITEM].i;

  overlay = tl_host_choice_index (tl_host_overlay_names,
                                  dispatch[TL_HOST_OVERLAY].s ?
                                  dispatch[TL_HOST_OVERLAY].s : "");
  if (overlay < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "unknown overlay '%s' (expected none, work-group, "
                   "simd-group, lane, launch-order or compute-unit)",
                   dispatch[TL_HOST_OVERLAY].s ? dispatch[TL_HOST_OVERLAY].s : "");
      return FALSE;
    }
  if (overlay > 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "overlay '%s' is not available in this version of "
                   "ThreadLens yet: use \"none\"", tl_host_overlay_names[overlay]);
      return FALSE;
    }
  result.overlay = overlay;

  if (! (dispatch[TL_HOST_OVERLAY_OPACITY].d >= 0.0 &&
         dispatch[TL_HOST_OVERLAY_OPACITY].d <= 1.0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "overlay-opacity %g is out of range [0, 1]",
                   dispatch[TL_HOST_OVERLAY_OPACITY].d);
      return FALSE;
    }
  result.overlay_opacity = dispatch[TL_HOST_OVERLAY_OPACITY].d;

  if (dispatch[TL_HOST_DEVICE].s &&
      strlen (dispatch[TL_HOST_DEVICE].s) >= TL_HOST_DEVICE_LEN)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "device name is longer than %d characters",
                   TL_HOST_DEVICE_LEN - 1);
      return FALSE;
    }
  g_strlcpy (result.device, dispatch[TL_HOST_DEVICE].s ? dispatch[TL_HOST_DEVICE].s : "",
             sizeof (result.device));

  *settings = result;
  return TRUE;
}

gboolean
tl_host_settings_to_choice (const TlHostSettings *settings,
                            TlChoice             *choice,
                            GError              **error)
{
  g_return_val_if_fail (settings != NULL && choice != NULL, FALSE);

  tl_choice_init (choice);
  if (settings->shape[0] > 0 && settings->shape[1] > 0)
    {
      choice->shape_kind = TL_SHAPE_CUSTOM;
      choice->shape[0]   = settings->shape[0];
      choice->shape[1]   = settings->shape[1];
    }
  else if (settings->shape[0] != 0 || settings->shape[1] != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   "work-group shape %dx%d: both sides must be 0 (auto) or "
                   "both positive", settings->shape[0], settings->shape[1]);
      return FALSE;
    }
  choice->mode            = settings->mode;
  choice->swizzle         = MAX (settings->swizzle, 0);
  choice->pixels_per_item = MAX (settings->pixels_per_item, 0);
  return TRUE;
}

static void
tl_host_report (TlHostProgress  progress,
                gpointer        data,
                gdouble         fraction,
                const gchar    *message)
{
  if (progress)
    progress (fraction, message, data);
}

/* Filters REGION of SOURCE into the same place of TARGET.  The filter
 * reads its halo around the region from SOURCE (clamped at the layer's
 * edges, as the filter's own borders are); TARGET is written only on
 * success, so a failure leaves it untouched.
 */
gboolean
tl_host_process (const TlHostSettings *settings,
                 const TlFilter       *filter,
                 GeglBuffer           *source,
                 GeglBuffer           *target,
                 const GeglRectangle  *region,
                 TlHostProgress        progress,
                 gpointer              progress_data,
                 TlPlan               *plan,
                 GError              **error)
{
  g_autoptr(TlContext) context = NULL;
  g_autofree gfloat   *in      = NULL;
  g_autofree gfloat   *out     = NULL;
  g_autofree gchar    *message = NULL;
  const Babl          *format;
  GeglRectangle        area;
  TlChoice             choice;
  TlPixels             pixels;
  guint                halo;
  gsize                offset;

  g_return_val_if_fail (settings != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source) && GEGL_IS_BUFFER (target), FALSE);
  g_return_val_if_fail (region != NULL && region->width > 0 && region->height > 0, FALSE);

  if (! tl_host_settings_to_choice (settings, &choice, error) ||
      ! tl_filter_check_values (filter, settings->values, error))
    return FALSE;

  halo = tl_filter_halo (filter, settings->values);
  area = *region;
  area.x      -= halo;
  area.y      -= halo;
  area.width  += 2 * halo;
  area.height += 2 * halo;
  gegl_rectangle_intersect (&area, &area, gegl_buffer_get_extent (source));

  tl_host_report (progress, progress_data, 0.05, "ThreadLens: preparing OpenCL");
  context = tl_context_new (settings->device[0] ? settings->device : NULL, error);
  if (context == NULL)
    return FALSE;

  format = babl_format (filter->format);
  in  = g_try_new (gfloat, (gsize) area.width * area.height * 4);
  out = g_try_new (gfloat, (gsize) area.width * area.height * 4);
  if (in == NULL || out == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   "not enough memory for a %dx%d region", area.width,
                   area.height);
      return FALSE;
    }
  gegl_buffer_get (source, &area, 1.0, format, in, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_CLAMP);

  message = g_strdup_printf ("ThreadLens: %s on %s", filter->label,
                             tl_context_get_device (context)->name);
  tl_host_report (progress, progress_data, 0.3, message);

  pixels.width  = area.width;
  pixels.height = area.height;
  pixels.in     = in;
  pixels.out    = out;
  if (! tl_run_filter (context, filter, settings->values, &choice, &pixels,
                       plan, NULL, error))
    return FALSE;

  tl_host_report (progress, progress_data, 0.9, message);
  offset = ((gsize) (region->y - area.y) * area.width + (region->x - area.x)) * 4;
  gegl_buffer_set (target, region, 0, format, out + offset,
                   area.width * 4 * sizeof (gfloat));
  tl_host_report (progress, progress_data, 1.0, message);

  return TRUE;
}
