/* ThreadLens: the GEGL module, a third host beside the GIMP plug-ins.
 *
 * One GEGL operation per registry filter, "threadlens:FILTER", and
 * "threadlens:thread-map", so that GIMP runs them in its own process
 * (gimp_drawable_merge_new_filter, the GEGL Operation tool) and no pixel
 * crosses the plug-in protocol.  Properties are the procedures' arguments
 * under the same names (tl-host.c builds both from the registry); the
 * work is tl_host_process () and tl_host_thread_map_for (), as in the
 * plug-ins.
 *
 * How GEGL's way of working meets the engine's:
 *  - chunks: GEGL asks for any rectangle of the output; each is filtered
 *    with its halo read from the input, clamped at the input's bounding
 *    box, and a pixel's arithmetic does not depend on the rectangle, so
 *    any chunking gives the `threadlens apply` result bit for bit.  A
 *    chunk is answered with the blocks around it (tl-host-blocks.h),
 *    which GEGL keeps for the chunks that follow, so that GIMP's small
 *    chunks neither read a large halo again nor pay a GPU call each.
 *  - threads: one OpenCL context and queue per process, so runs take one
 *    lock; GEGL is asked not to split a chunk over its threads.
 *  - levels: at level 0 the result is exact.  Above it (GIMP's preview
 *    of a zoomed-out view) the scaled-down input is filtered with its
 *    lengths (std-dev, radius, block size) scaled down alike, which
 *    looks like the exact result at that zoom.
 *  - faults: nothing here may take GIMP down.  The OpenCL platforms are
 *    listed first in a child process (tl-platform-probe.c); a failed
 *    OpenCL run falls back to the C reference; a choice that cannot be
 *    honoured (a device that is not there, a shape over a limit, memory
 *    too small) leaves the pixels as they were, the thread map's too,
 *    each with a message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* dladdr (): where this module was loaded from. */
#define _GNU_SOURCE

#include "config.h"

#include <dlfcn.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <gegl-plugin.h>

#include "tl-alloc.h"
#include "tl-error.h"
#include "tl-cl.h"
#include "tl-host.h"
#include "tl-gegl-progress.h"
#include "tl-gegl-start.h"
#include "tl-host-blocks.h"
#include "tl-platform-probe.h"
#include "tl-overlay.h"
#include "tl-process.h"

#define TL_GEGL_PREFIX        "threadlens:"
#define TL_GEGL_CATEGORY      "threadlens"
#define TL_GEGL_LOCALE_FOLDER "threadlens-locale"   /* beside the module */

typedef struct
{
  GeglOperationAreaFilter parent_instance;
  TlHostValue            *values;      /* one per argument */
  TlHostSettings          settings;    /* from VALUES, in prepare */
  gchar                  *invalid;     /* why VALUES cannot run, or NULL */
  gchar                  *told;        /* the last message given */
  TlHostBlocks           *blocks;      /* computed into GEGL's cache */
} TlGeglOp;

typedef struct
{
  GeglOperationAreaFilterClass parent_class;
  const TlFilter              *filter;  /* NULL: the thread map */
  TlHostArg                   *args;
  guint                        n_args;
  guint                        n_host_args; /* the procedure's, before ours */
} TlGeglOpClass;

#define TL_GEGL_OP(op)             ((TlGeglOp *) (op))
#define TL_GEGL_OP_GET_CLASS(op)   ((TlGeglOpClass *) G_OBJECT_GET_CLASS (op))

static GMutex tl_gegl_lock;

/* Filters do not take the procedures' overlay arguments: a thread map
 * is its own operation, drawn on its own layer.
 */
static gboolean
tl_gegl_is_property (const TlFilter  *filter,
                     const TlHostArg *arg)
{
  return filter == NULL || (strcmp (arg->name, "overlay") != 0 &&
                            strcmp (arg->name, "overlay-opacity") != 0);
}

/* ARG's property; SHOWN, a filter parameter's registry entry (NULL for
 * the dispatch arguments), says how GEGL's and GIMP's generated dialogs
 * show a number: its slider range, steps and digits.
 */
static GParamSpec *
tl_gegl_param_spec (const TlHostArg   *arg,
                    const TlParamSpec *shown)
{
  GParamFlags      flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT |
                           GEGL_PARAM_PAD_INPUT;
  g_autofree gchar *nick = g_strdup (g_dgettext (GETTEXT_PACKAGE, arg->nick));
  const gchar     *blurb = g_dgettext (GETTEXT_PACKAGE, arg->blurb);
  GParamSpec      *spec;
  gchar           *from, *to;

  /* GEGL's and GIMP's generated dialogs have no mnemonics. */
  for (from = to = nick; *from; from++)
    if (*from != '_')
      *to++ = *from;
  *to = '\0';

  switch (arg->type)
    {
    case TL_HOST_ARG_INT:
      spec = g_param_spec_int (arg->name, nick, blurb, (gint) arg->min,
                               (gint) arg->max, (gint) arg->default_number,
                               flags);
      break;
    case TL_HOST_ARG_DOUBLE:
      spec = gegl_param_spec_double (arg->name, nick, blurb, arg->min,
                                     arg->max, arg->default_number,
                                     shown ? shown->ui_min : arg->min,
                                     shown ? shown->ui_max : arg->max,
                                     1.0, flags);
      if (shown)
        {
          GeglParamSpecDouble *number = GEGL_PARAM_SPEC_DOUBLE (spec);

          gegl_param_spec_double_set_steps (number, shown->step,
                                            shown->step * 10);
          gegl_param_spec_double_set_digits (number, shown->digits);
        }
      break;
    default:
      /* Choices too (mode: "uniform", ...), as in the procedures: GIMP
       * hands an operation's properties to plug-ins and script-fu, where
       * an enum type registered by this module does not exist (GIMP
       * 3.0.4 then drops the property).  The checks name bad values.
       */
      spec = g_param_spec_string (arg->name, nick, blurb,
                                  arg->default_text, flags);
      break;
    }
  return spec;
}

static void
tl_gegl_set_property (GObject      *object,
                      guint         property_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  TlGeglOp        *op    = TL_GEGL_OP (object);
  TlGeglOpClass   *klass = TL_GEGL_OP_GET_CLASS (object);
  guint            index = property_id - 1;
  const TlHostArg *arg;

  if (index >= klass->n_args)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, property_id, pspec);
      return;
    }
  arg = &klass->args[index];
  switch (arg->type)
    {
    case TL_HOST_ARG_INT:
      op->values[index].i = g_value_get_int (value);
      break;
    case TL_HOST_ARG_DOUBLE:
      op->values[index].d = g_value_get_double (value);
      break;
    default:
      g_free ((gchar *) op->values[index].s);
      op->values[index].s = g_value_dup_string (value);
      break;
    }
}

static void
tl_gegl_get_property (GObject    *object,
                      guint       property_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  TlGeglOp        *op    = TL_GEGL_OP (object);
  TlGeglOpClass   *klass = TL_GEGL_OP_GET_CLASS (object);
  guint            index = property_id - 1;
  const TlHostArg *arg;

  if (index >= klass->n_args)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, property_id, pspec);
      return;
    }
  arg = &klass->args[index];
  switch (arg->type)
    {
    case TL_HOST_ARG_INT:
      g_value_set_int (value, op->values[index].i);
      break;
    case TL_HOST_ARG_DOUBLE:
      g_value_set_double (value, op->values[index].d);
      break;
    default:
      g_value_set_string (value, op->values[index].s);
      break;
    }
}

static void
tl_gegl_init (TlGeglOp      *op,
              TlGeglOpClass *klass)
{
  guint i;

  op->values = g_new0 (TlHostValue, klass->n_args);
  op->blocks = tl_host_blocks_new ();
  tl_gegl_start_warm_up ();
  /* Arguments that are not properties keep their defaults; properties
   * get theirs from G_PARAM_CONSTRUCT.
   */
  for (i = 0; i < klass->n_args; i++)
    {
      const TlHostArg *arg = &klass->args[i];

      if (arg->type == TL_HOST_ARG_DOUBLE)
        op->values[i].d = arg->default_number;
      else if (arg->type == TL_HOST_ARG_INT)
        op->values[i].i = (gint) arg->default_number;
      else
        op->values[i].s = g_strdup (arg->default_text);
    }
}

static void
tl_gegl_finalize (GObject *object)
{
  TlGeglOp      *op    = TL_GEGL_OP (object);
  TlGeglOpClass *klass = TL_GEGL_OP_GET_CLASS (object);
  guint          i;

  for (i = 0; i < klass->n_args; i++)
    if (klass->args[i].type == TL_HOST_ARG_STRING)
      g_free ((gchar *) op->values[i].s);
  g_free (op->values);
  g_free (op->invalid);
  g_free (op->told);
  tl_host_blocks_free (op->blocks);

  G_OBJECT_CLASS (g_type_class_peek_parent (klass))->finalize (object);
}

/* Messages go to GIMP's error console (or the terminal), once per
 * operation and message, not once per chunk.
 */
static void
tl_gegl_tell (TlGeglOp    *op,
              const gchar *text)
{
  if (g_strcmp0 (op->told, text) == 0)
    return;
  g_free (op->told);
  op->told = g_strdup (text);
  g_message ("%s", text);
}

static gboolean
tl_gegl_read_settings (TlGeglOp *op,
                       GError  **error)
{
  TlGeglOpClass *klass = TL_GEGL_OP_GET_CLASS (op);

  return tl_host_settings_from_values (&op->settings, klass->filter,
                                       op->values, klass->n_host_args, error);
}

/* The layer's own storage where the engine reads it (8-bit layers move 4
 * bytes a pixel, as in the plug-ins), else the filter's working format.
 */
static const Babl *
tl_gegl_format (GeglOperation *operation)
{
  TlGeglOpClass *klass  = TL_GEGL_OP_GET_CLASS (operation);
  const Babl    *source = gegl_operation_get_source_format (operation, "input");

  /* The map is drawn in the layer's storage where it can be
   * (tl_overlay_codec_new ()).
   */
  if (klass->filter == NULL && source)
    {
      g_autoptr(TlCodec) codec = tl_overlay_codec_new (source, NULL);

      if (codec)
        return tl_codec_get_format (codec);
    }
  if (klass->filter == NULL)
    return babl_format ("R'G'B'A float");
  if (source)
    {
      g_autoptr(TlCodec) codec = tl_codec_new (source, klass->filter->format, NULL);

      if (codec)
        return source;
    }
  return babl_format_with_space (klass->filter->format,
                                 source ? babl_format_get_space (source) : NULL);
}

static const Babl *
tl_gegl_map_input_format (GeglOperation *operation)
{
  const Babl        *source = gegl_operation_get_source_format (operation, "input");
  g_autoptr(TlCodec) codec  = NULL;

  if (source)
    codec = tl_codec_new (source, "RGBA float", NULL);
  return codec ? source : babl_format ("R'G'B'A float");
}

static void
tl_gegl_prepare (GeglOperation *operation)
{
  TlGeglOp                *op    = TL_GEGL_OP (operation);
  TlGeglOpClass           *klass = TL_GEGL_OP_GET_CLASS (operation);
  GeglOperationAreaFilter *area  = GEGL_OPERATION_AREA_FILTER (operation);
  const Babl              *format = tl_gegl_format (operation);
  g_autoptr(GError)        error = NULL;
  guint                    halo  = 0;

  /* The thread map's output is the map; its input keeps its own storage
   * where a filter could run on it, since a filter's pixels per item
   * depend on that storage and the map shows the filter's dispatch.
   */
  gegl_operation_set_format (operation, "input", klass->filter ?
                             format : tl_gegl_map_input_format (operation));
  gegl_operation_set_format (operation, "output", format);

  g_clear_pointer (&op->invalid, g_free);
  if (! tl_gegl_read_settings (op, &error))
    op->invalid = g_strdup (error->message);
  else if (klass->filter)
    halo = tl_filter_halo (klass->filter, op->settings.values);

  /* A halo over whole lines asks for the input whole, no more. */
  if (halo == TL_FILTER_HALO_WHOLE)
    {
      GeglRectangle *in = gegl_operation_source_get_bounding_box (operation,
                                                                  "input");

      halo = in ? (guint) MAX (in->width, in->height) : 0;
    }
  area->left = area->right = area->top = area->bottom = halo;
}

/* A filter's output covers its input, no more: borders clamp. */
static GeglRectangle
tl_gegl_get_bounding_box (GeglOperation *operation)
{
  GeglRectangle *in = gegl_operation_source_get_bounding_box (operation, "input");

  return in ? *in : *GEGL_RECTANGLE (0, 0, 0, 0);
}

/* RECT (level 0, as GEGL gives every request) at LEVEL, rounded
 * outwards.
 */
static GeglRectangle
tl_gegl_to_level (const GeglRectangle *rect,
                  gint                 level)
{
  GeglRectangle scaled;
  gint          scale  = 1 << level;

  scaled.x      = (gint) floor ((gdouble) rect->x / scale);
  scaled.y      = (gint) floor ((gdouble) rect->y / scale);
  scaled.width  = (gint) ceil ((gdouble) (rect->x + rect->width) / scale) - scaled.x;
  scaled.height = (gint) ceil ((gdouble) (rect->y + rect->height) / scale) - scaled.y;
  return scaled;
}

/* SETTINGS with its lengths scaled to a preview LEVEL. */
static void
tl_gegl_scale_lengths (const TlFilter *filter,
                       TlHostSettings *settings,
                       gint            level)
{
  gdouble scale = 1.0 / (1 << level);
  guint   i;

  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec  = &filter->params[i];
      gdouble           *value = &settings->values[i].v[0];

      if (! spec->is_length)
        continue;
      /* Whole numbers (radii, block sizes) stay whole. */
      if (*value == floor (*value))
        *value = MAX (spec->min, floor (*value * scale + 0.5));
      else
        *value = MAX (spec->min, *value * scale);
    }
}

/* The side of the blocks OP computes at LEVEL (tl-host-blocks.h), in
 * level-0 pixels; 0 where its result depends on whole lines, which are
 * computed whole.
 */
static gint
tl_gegl_block_side (TlGeglOp *op,
                    gint      level)
{
  const TlFilter *filter   = TL_GEGL_OP_GET_CLASS (op)->filter;
  TlHostSettings  settings = op->settings;
  const gchar    *forced   = g_getenv (TL_HOST_BLOCK_SIDE_ENV);
  TlContext      *context;
  guint           halo;
  gint            min_side;

  if (level > 0)
    tl_gegl_scale_lengths (filter, &settings, level);
  halo = tl_filter_halo (filter, settings.values);
  if (halo == TL_FILTER_HALO_WHOLE)
    return 0;
  if (forced && g_ascii_isdigit (*forced))
    min_side = (gint) CLAMP (g_ascii_strtoll (forced, NULL, 10), 16, 1 << 20);
  else
    {
      /* The context is the one the chunk will run on, made here or
       * there.
       */
      tl_gegl_start_check_platforms ();
      context  = tl_host_get_context (&settings, NULL);
      min_side = context && (tl_context_get_device (context)->type &
                             CL_DEVICE_TYPE_GPU) ?
                 TL_HOST_BLOCK_MIN_GPU : TL_HOST_BLOCK_MIN_CPU;
    }
  return tl_host_block_side (halo, min_side) << level;
}

/* The thread map is one dispatch over the whole input, and so is a
 * filter whose result depends on whole lines (the recursive Gaussian):
 * GEGL asks for those whole and keeps them, so every chunk is cut from
 * the one result `threadlens apply` gives.  Other filters widen a chunk
 * to its blocks (tl-host-blocks.h), of the side for the level of the
 * last chunk: the request's own is not known here.
 */
static GeglRectangle
tl_gegl_get_cached_region (GeglOperation       *operation,
                           const GeglRectangle *roi)
{
  TlGeglOp      *op    = TL_GEGL_OP (operation);
  TlGeglOpClass *klass = TL_GEGL_OP_GET_CLASS (operation);
  GeglRectangle  bounds = tl_gegl_get_bounding_box (operation);
  gint           level, side;

  if (klass->filter == NULL)
    return bounds;
  if (op->invalid)
    return *roi;

  level = tl_host_blocks_get_level (op->blocks);
  side  = tl_gegl_block_side (op, level);
  if (side == 0)
    return bounds;
  return tl_host_blocks_cover (&bounds, side, roi);
}

static GeglAbyssPolicy
tl_gegl_get_abyss_policy (GeglOperation *operation,
                          const gchar   *input_pad)
{
  return GEGL_ABYSS_CLAMP;
}

/* Whether ERROR is the driver's failure (a call or a build that should
 * have worked), which the C reference stands in for with the same
 * pixels.  A choice that cannot be honoured (a device that is not
 * there, a shape over a limit, memory too small for the layer) is the
 * user's to change: the pixels stay as they were, and the message says
 * why, as the procedures' errors do.
 */
static gboolean
tl_gegl_driver_failed (const GError *error)
{
  return g_error_matches (error, TL_ERROR, TL_ERROR_OPENCL) ||
         g_error_matches (error, TL_ERROR, TL_ERROR_BUILD);
}

/* The OpenCL run failed after planning (tl_gegl_driver_failed ()): the
 * C reference gives the same pixels.
 */
static gboolean
tl_gegl_fall_back (TlGeglOp            *op,
                   GeglBuffer          *source,
                   GeglBuffer          *output,
                   const GeglRectangle *roi,
                   const TlHostSettings *settings,
                   const GError        *why)
{
  const TlFilter    *filter = TL_GEGL_OP_GET_CLASS (op)->filter;
  g_autoptr(GError)  error  = NULL;
  g_autofree gchar  *text   = NULL;
  TlProcessReport    report;
  TlChoice           choice;

  if (! tl_host_settings_to_choice (settings, &choice, &error) ||
      ! tl_process_region (NULL, filter, settings->values, &choice, source,
                           output, roi, 0, NULL, NULL, &report, &error))
    return FALSE;
  text = tl_process_fallback_text (filter, why);
  tl_gegl_tell (op, text);
  return TRUE;
}

/* FILTER over ROI of INPUT at LEVEL into OUTPUT, in SETTINGS. */
static gboolean
tl_gegl_filter_region (TlGeglOp             *op,
                       const TlHostSettings *settings,
                       GeglBuffer           *input,
                       GeglBuffer           *output,
                       const GeglRectangle  *roi,
                       gint                  level,
                       GError              **error)
{
  TlGeglOpClass       *klass   = TL_GEGL_OP_GET_CLASS (op);
  GeglOperation       *operation = GEGL_OPERATION (op);
  const Babl          *format  = gegl_operation_get_format (operation, "output");
  GeglRectangle        bounds  = tl_gegl_get_bounding_box (operation);
  g_autoptr(GeglBuffer) source = NULL;
  g_autoptr(GeglBuffer) target = NULL;
  g_autofree gchar    *warning = NULL;
  g_autofree guint8   *pixels  = NULL;
  g_autoptr(GError)    failed  = NULL;
  GeglRectangle        region;  /* ROI within the scaled input */
  TlGeglProgress       progress;
  gsize                n_pixels;
  gboolean             ok;

  if (level == 0)
    {
      /* Its extent is the input's bounding box: the engine clamps there. */
      source = gegl_buffer_create_sub_buffer (input, &bounds);
      target = g_object_ref (output);
    }
  else
    {
      gint          scale  = 1 << level;
      GeglRectangle scaled = tl_gegl_to_level (&bounds, level);
      GeglRectangle asked  = tl_gegl_to_level (roi, level);
      GeglRectangle need;
      guint         halo   = tl_filter_halo (klass->filter, settings->values);

      if (! gegl_rectangle_intersect (&region, &asked, &scaled))
        return TRUE;
      roi  = &region;
      need = *roi;
      need.x -= halo;
      need.y -= halo;
      need.width  += 2 * halo;
      need.height += 2 * halo;
      if (! gegl_rectangle_intersect (&need, &need, &scaled))
        return TRUE;

      if (! tl_alloc_mul (need.width, need.height, &n_pixels, error))
        return FALSE;
      pixels = tl_alloc_n (n_pixels, babl_format_get_bytes_per_pixel (format),
                           error);
      if (pixels == NULL)
        return FALSE;
      gegl_buffer_get (input, &need, 1.0 / scale, format, pixels,
                       GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
      source = gegl_buffer_new (&scaled, format);
      gegl_buffer_set (source, &need, 0, format, pixels, GEGL_AUTO_ROWSTRIDE);
      target = gegl_buffer_new (roi, format);
    }

  tl_gegl_progress_begin (&progress, operation);
  ok = tl_host_process (settings, klass->filter, source, target, roi,
                        tl_gegl_progress, &progress, NULL, NULL, &warning,
                        &failed);
  tl_gegl_progress_end (&progress);
  if (! ok && tl_gegl_driver_failed (failed))
    ok = tl_gegl_fall_back (op, source, target, roi, settings, failed);
  else if (warning)
    tl_gegl_tell (op, warning);
  if (! ok)
    {
      g_propagate_error (error, g_steal_pointer (&failed));
      return FALSE;
    }

  if (level > 0)
    {
      /* ROI lies within NEED: the count cannot overflow where NEED's
       * did not.
       */
      pixels = tl_alloc_realloc_n (g_steal_pointer (&pixels),
                                   (gsize) roi->width * roi->height,
                                   babl_format_get_bytes_per_pixel (format),
                                   error);
      if (pixels == NULL)
        return FALSE;
      gegl_buffer_get (target, roi, 1.0, format, pixels, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      gegl_buffer_set (output, roi, level, format, pixels, GEGL_AUTO_ROWSTRIDE);
    }
  return TRUE;
}

/* The thread map of the whole input (see get_cached_region). */
static gboolean
tl_gegl_map_region (TlGeglOp             *op,
                    const TlHostSettings *settings,
                    GeglBuffer           *input,
                    GeglBuffer           *output,
                    const GeglRectangle  *roi,
                    GError              **error)
{
  TlGeglOpClass       *klass = TL_GEGL_OP_GET_CLASS (op);
  GeglRectangle        bounds = tl_gegl_get_bounding_box (GEGL_OPERATION (op));
  g_autoptr(GeglBuffer) source = gegl_buffer_create_sub_buffer (input, &bounds);
  const TlFilter      *filter = NULL;
  TlHostOverlay        overlay = { { 0, } };
  gboolean             ok;
  guint                i;

  for (i = 0; i < klass->n_args; i++)
    if (strcmp (klass->args[i].name, TL_HOST_MAP_FILTER_ARG) == 0 &&
        op->values[i].s && *op->values[i].s)
      {
        filter = tl_filter_lookup (op->values[i].s, error);
        if (filter == NULL)
          return FALSE;
      }

  if (! tl_host_thread_map_for (settings, filter, source, &bounds, NULL, NULL,
                                &overlay, error))
    return FALSE;
  ok = tl_process_write_area (output, &overlay.area, overlay.format,
                              overlay.pixels, error);
  g_debug ("%s", overlay.legend);
  tl_host_overlay_clear (&overlay);
  return ok;
}

static gboolean
tl_gegl_process (GeglOperation       *operation,
                 GeglBuffer          *input,
                 GeglBuffer          *output,
                 const GeglRectangle *roi,
                 gint                 level)
{
  TlGeglOp          *op    = TL_GEGL_OP (operation);
  TlGeglOpClass     *klass = TL_GEGL_OP_GET_CLASS (operation);
  g_autoptr(GError)  error = NULL;
  TlHostSettings     settings;
  GeglRectangle      bounds = tl_gegl_get_bounding_box (operation);
  GeglRectangle      inside;
  GeglRectangle      computed;
  gint64             start  = g_get_monotonic_time ();
  static gsize       first_chunk = 0;
  gboolean           ok;

  /* GEGL may ask beyond the input (a processor's chunks, tile-aligned
   * requests); there is nothing there, as for GEGL's own filters.
   */
  if (level == 0 && ! gegl_rectangle_intersect (&inside, roi, &bounds))
    return TRUE;
  if (level == 0)
    roi = &inside;
  computed = *roi;

  if (g_once_init_enter (&first_chunk))
    {
      gint64 ready = tl_gegl_start_ready_at ();

      if (ready)
        g_debug ("the first chunk found the OpenCL context ready (%.0f ms ahead)",
                 (start - ready) / 1000.0);
      else
        g_debug ("the first chunk waits for the OpenCL context");
      g_once_init_leave (&first_chunk, 1);
    }
  tl_gegl_start_check_platforms ();

  g_mutex_lock (&tl_gegl_lock);
  if (op->invalid)
    {
      g_set_error_literal (&error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           op->invalid);
      ok = FALSE;
    }
  else
    {
      settings = op->settings;
      if (klass->filter == NULL)
        ok = tl_gegl_map_region (op, &settings, input, output, roi, &error);
      else
        {
          gint          side = tl_gegl_block_side (op, level);
          GeglRectangle todo = *roi;

          /* Blocks computed into this cache before are there still. */
          if (side > 0)
            todo = tl_host_blocks_todo (op->blocks, G_OBJECT (output),
                                        &bounds, side, level, roi);

          if (level > 0)
            tl_gegl_scale_lengths (klass->filter, &settings, level);
          computed = todo;
          ok = gegl_rectangle_is_empty (&todo) ||
               tl_gegl_filter_region (op, &settings, input, output, &todo,
                                      level, &error);
          if (ok && side > 0 && ! gegl_rectangle_is_empty (&todo))
            tl_host_blocks_done (op->blocks, G_OBJECT (output), &bounds,
                                 side, level, &todo);
        }
    }

  /* Never garbage, never nothing: what cannot be filtered or mapped
   * passes through unchanged, as the message says.
   */
  if (! ok)
    {
      g_autofree gchar *text = NULL;

      text = g_strdup_printf (_("%s: %s; the pixels are left as they were"),
                              gegl_operation_get_name (operation),
                              error->message);
      tl_gegl_tell (op, text);
      gegl_buffer_copy (input, roi, GEGL_ABYSS_CLAMP, output, roi);
      /* The copy covers blocks computed before as well. */
      tl_host_blocks_forget (op->blocks, NULL);
    }
  g_mutex_unlock (&tl_gegl_lock);
  /* What the operation took in all, lock included (build-aux/bench-gegl
   * sets it beside GEGL's graph around it).
   */
  g_debug ("%s: computed %dx%d at %d,%d of %dx%d at %d,%d, level %d: "
           "%.1f ms in the operation", gegl_operation_get_name (operation),
           computed.width, computed.height, computed.x, computed.y,
           roi->width, roi->height, roi->x, roi->y, level,
           (g_get_monotonic_time () - start) / 1000.0);

  return TRUE;
}

static void
tl_gegl_class_init (TlGeglOpClass *klass,
                    gpointer       class_data)
{
  GObjectClass                 *object_class    = G_OBJECT_CLASS (klass);
  GeglOperationClass           *operation_class = GEGL_OPERATION_CLASS (klass);
  GeglOperationFilterClass     *filter_class    = GEGL_OPERATION_FILTER_CLASS (klass);
  GeglOperationAreaFilterClass *area_class      = GEGL_OPERATION_AREA_FILTER_CLASS (klass);
  const TlFilter               *filter          = class_data;
  g_autofree gchar             *name            = NULL;
  g_autofree gchar             *title           = NULL;
  TlHostArg                    *args;
  guint                         n_args, i;

  object_class->set_property = tl_gegl_set_property;
  object_class->get_property = tl_gegl_get_property;
  object_class->finalize     = tl_gegl_finalize;

  operation_class->prepare          = tl_gegl_prepare;
  operation_class->get_bounding_box = tl_gegl_get_bounding_box;
  /* One context and queue: GEGL's threads would only wait on the lock. */
  operation_class->threaded         = FALSE;
  operation_class->opencl_support   = FALSE;
  filter_class->process             = tl_gegl_process;
  area_class->get_abyss_policy      = tl_gegl_get_abyss_policy;

  klass->filter = filter;
  /* The thread map has one property beyond the procedure's: whose
   * dispatch it draws.
   */
  args = filter ? tl_host_arguments (filter, &n_args) :
                  tl_host_map_operation_arguments (&n_args);
  operation_class->get_cached_region = tl_gegl_get_cached_region;
  klass->args        = args;
  klass->n_args      = n_args;
  klass->n_host_args = n_args - (filter == NULL);

  for (i = 0; i < klass->n_args; i++)
    if (tl_gegl_is_property (filter, &args[i]))
      {
        const TlParamSpec *param = NULL;
        GParamSpec        *spec;

        if (i < (filter ? filter->n_params : 0) &&
            filter->params[i].type == TL_PARAM_DOUBLE)
          param = &filter->params[i];
        spec = tl_gegl_param_spec (&args[i], param);
        if (param && param->is_length)
          gegl_param_spec_set_property_key (spec, "unit", "pixel-distance");
        g_object_class_install_property (object_class, i + 1, spec);
      }

  name = g_strconcat (TL_GEGL_PREFIX, filter ? filter->name : "thread-map",
                      NULL);
  /* No gimp:menu-path: the plug-in's menu entries run these operations
   * with ThreadLens's own dialog, and a second entry per filter would
   * show each filter twice (README, "In GIMP").
   */
  /* Translated here, as GEGL's own operations are: GIMP and GEGL show
   * the keys as they are.  The title marks the operation as ThreadLens's
   * beside GEGL's and GIMP's filters of the same name.
   */
  title = tl_host_filter_title (filter);
  gegl_operation_class_set_keys (operation_class,
    "name",        g_intern_string (name),
    "title",       g_intern_string (title),
    "categories",  TL_GEGL_CATEGORY,
    "description", g_dgettext (GETTEXT_PACKAGE,
                               filter ? filter->description :
                               N_("Tints each pixel by the work-group, SIMD "
                                  "group or lane of an OpenCL dispatch that "
                                  "computed it")),
    NULL);
}

static GType
tl_gegl_register (GTypeModule    *module,
                  const TlFilter *filter)
{
  g_autofree gchar *type_name = NULL;
  const gchar      *name      = filter ? filter->name : "thread-map";
  GString          *camel     = g_string_new ("ThreadLensOp");
  const GTypeInfo   info      =
  {
    .class_size    = sizeof (TlGeglOpClass),
    .class_init    = (GClassInitFunc) tl_gegl_class_init,
    .class_data    = filter,
    .instance_size = sizeof (TlGeglOp),
    .instance_init = (GInstanceInitFunc) tl_gegl_init,
  };
  gboolean          upper = TRUE;

  for (; *name; name++)
    {
      if (*name == '-')
        upper = TRUE;
      else
        {
          g_string_append_c (camel, upper ? g_ascii_toupper (*name) : *name);
          upper = FALSE;
        }
    }
  type_name = g_string_free (camel, FALSE);

  return gegl_module_register_type (module, GEGL_TYPE_OPERATION_AREA_FILTER,
                                    type_name, &info, 0);
}

static const GeglModuleInfo tl_gegl_module_info =
{
  .abi_version = GEGL_MODULE_ABI_VERSION
};

G_MODULE_EXPORT const GeglModuleInfo *
gegl_module_query (GTypeModule *module)
{
  return &tl_gegl_module_info;
}

G_MODULE_EXPORT gboolean
gegl_module_register (GTypeModule *module)
{
  const TlFilter *const *filters;
  guint                  n_filters, i;
  Dl_info                self;
  g_autofree gchar      *locale = NULL;

  /* The OpenCL context and the embedded kernels live as long as the
   * process: GEGL must not unload this file under them.
   */
  if (dladdr ((gpointer) gegl_module_register, &self) && self.dli_fname)
    {
      GModule          *resident = g_module_open (self.dli_fname, 0);
      g_autofree gchar *folder   = g_path_get_dirname (self.dli_fname);

      if (resident)
        g_module_make_resident (resident);
      /* A user's copy (install-user.sh) brings its catalogues beside
       * it; a system one finds them in the system's locale folder.
       */
      locale = g_build_filename (folder, TL_GEGL_LOCALE_FOLDER, NULL);
      if (! g_file_test (locale, G_FILE_TEST_IS_DIR))
        g_clear_pointer (&locale, g_free);
    }
  /* THREADLENS_LOCALEDIR first, as for the command line: the catalogues
   * of an uninstalled build.
   */
  if (g_getenv ("THREADLENS_LOCALEDIR") && *g_getenv ("THREADLENS_LOCALEDIR"))
    {
      g_free (locale);
      locale = g_strdup (g_getenv ("THREADLENS_LOCALEDIR"));
    }
  bindtextdomain (GETTEXT_PACKAGE, locale ? locale : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    tl_gegl_register (module, filters[i]);
  tl_gegl_register (module, NULL);
  return TRUE;
}
