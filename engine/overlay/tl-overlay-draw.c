/* ThreadLens: the thread map drawn on the device.
 *
 * The map's words (12 bytes a pixel) stay where the overlay kernel wrote
 * them; kernels/overlay.cl's tl_thread_draw turns them into finished
 * pixels in the layer's storage, and only those come back.  The rules
 * and the colours are tl-overlay-render.c's, so the pixels equal the C
 * renderer's, encoded as the codec encodes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-codec.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-overlay-private.h"

typedef struct
{
  TlOverlayMode   mode;
  TlOverlayStyle  style;
  gdouble         opacity;
  const TlCodec  *codec;
  const guint8   *in;
  guint8         *out;
  cl_kernel       kernel;
  cl_mem          image;       /* a window of IN, or OUT's buffer again */
  cl_mem          drawn;
  cl_mem          missed;      /* the first pixel missed, the first colour */
  cl_uint         n_colours;
} TlOverlayDraw;

static gboolean
tl_overlay_draw_copy (TlRun       *run,
                      cl_mem       buffer,
                      gboolean     to_device,
                      gsize        size,
                      gpointer     data,
                      GError     **error)
{
  cl_command_queue queue = tl_context_get_queue (tl_run_get_context (run));
  cl_int           status;

  status = to_device ?
           TL_CL (clEnqueueWriteBuffer, queue, buffer, CL_TRUE, 0, size, data,
                  0, NULL, NULL) :
           TL_CL (clEnqueueReadBuffer, queue, buffer, CL_TRUE, 0, size, data,
                  0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, to_device ?
                       _("uploading the image for the thread map") :
                       _("reading the drawn thread map from the device"));
      return FALSE;
    }
  return TRUE;
}

/* The kernel, its buffers and its constant arguments, once the groups
 * are known (the colours of launch order and compute units need them).
 */
static gboolean
tl_overlay_draw_prepare (TlRun              *run,
                         const TlOverlayMap *map,
                         TlOverlayDraw      *draw,
                         guint               window_rows,
                         GError            **error)
{
  const TlPlan      *plan       = &map->plan;
  const cl_uint      unwritten[2] = { TL_OVERLAY_UNKNOWN, TL_OVERLAY_UNKNOWN };
  const gchar       *variant    = tl_codec_get_variant (draw->codec);
  gsize              pixel_size = tl_codec_get_pixel_size (draw->codec);
  gsize              window     = (gsize) plan->width * window_rows * pixel_size;
  g_autofree gchar  *program    = NULL;
  g_autofree gfloat *colours    = NULL;
  gsize              n_table    = 0;
  const gfloat      *table      = tl_codec_get_table (draw->codec, &n_table);
  cl_mem             colour_mem, table_mem;
  cl_int             width      = plan->width;
  cl_uint            mode       = draw->mode;
  cl_uint            style      = draw->style;
  cl_uint            groups     = plan->group_count;
  cl_uint            k          = plan->pixels_per_item;
  cl_uint            outline    = tl_overlay_outlined (plan);
  cl_uint            with_image = draw->in != NULL;
  cl_float           opacity    = draw->opacity;
  cl_float           hatch      = tl_overlay_hatch_alpha (draw->opacity);

  if (! tl_overlay_check_mode (map, draw->mode, draw->style, draw->opacity,
                               error))
    return FALSE;

  program = g_strconcat ("overlay:tl_thread_draw", *variant ? "@" : "",
                         variant, NULL);
  draw->kernel = tl_context_get_kernel (tl_run_get_context (run), program,
                                        "tl_thread_draw", error);
  if (draw->kernel == NULL)
    return FALSE;

  colours = tl_overlay_colours (map, draw->mode, &draw->n_colours, error);
  if (colours == NULL)
    return FALSE;
  colour_mem  = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                                   MAX (draw->n_colours, 1) * 4 * sizeof (gfloat),
                                   colours, error);
  draw->drawn = colour_mem ? tl_run_new_buffer (run, CL_MEM_WRITE_ONLY, window,
                                                NULL, error) : NULL;
  /* Tint alone reads no image: the output buffer stands in, unread. */
  draw->image = draw->drawn == NULL ? NULL :
                draw->in ? tl_run_new_buffer (run, CL_MEM_READ_ONLY, window,
                                              NULL, error) : draw->drawn;
  /* Float storage has no table; its argument is never read either. */
  table_mem   = draw->image == NULL ? NULL :
                table ? tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                                           n_table * sizeof (gfloat), table,
                                           error) : colour_mem;
  draw->missed = table_mem ? tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                                sizeof (unwritten), unwritten,
                                                error) : NULL;
  if (draw->missed == NULL)
    return FALSE;

  return tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_COLOURS,
                         sizeof (cl_mem), &colour_mem, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_IN,
                         sizeof (cl_mem), &draw->image, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_OUT,
                         sizeof (cl_mem), &draw->drawn, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_CODEC,
                         sizeof (cl_mem), &table_mem, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_MISSED,
                         sizeof (cl_mem), &draw->missed, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_WIDTH,
                         sizeof (cl_int), &width, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_MODE,
                         sizeof (cl_uint), &mode, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_STYLE,
                         sizeof (cl_uint), &style, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_N_COLOURS,
                         sizeof (cl_uint), &draw->n_colours, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_GROUP_COUNT,
                         sizeof (cl_uint), &groups, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_PIXELS_PER_ITEM,
                         sizeof (cl_uint), &k, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_OUTLINE,
                         sizeof (cl_uint), &outline, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_WITH_IMAGE,
                         sizeof (cl_uint), &with_image, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_OPACITY,
                         sizeof (cl_float), &opacity, error) &&
         tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_HATCH_ALPHA,
                         sizeof (cl_float), &hatch, error);
}

/* A 2-D launch over WIDTH x ROWS in groups of 16 x 16 where the kernel
 * allows them (edges rounded up; the kernel skips what lies outside),
 * else in the driver's groups.
 */
static gboolean
tl_overlay_draw_launch (TlRun     *run,
                        cl_kernel  kernel,
                        guint      width,
                        guint      rows,
                        GError   **error)
{
  TlContext *context = tl_run_get_context (run);
  gsize      most    = 0;
  gsize      local[2] = { 16, 16 };
  gsize      global[2];
  cl_int     status;

  status = TL_CL (clGetKernelWorkGroupInfo, kernel,
                  tl_context_get_device (context)->id,
                  CL_KERNEL_WORK_GROUP_SIZE, sizeof (most), &most, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("asking the thread map's drawing kernel "
                                        "for its work-group size"));
      return FALSE;
    }
  global[0] = most >= 256 ? (width + 15) / 16 * 16 : width;
  global[1] = most >= 256 ? (rows + 15) / 16 * 16 : rows;
  status = TL_CL (clEnqueueNDRangeKernel, tl_context_get_queue (context), kernel,
                  2, NULL, global, most >= 256 ? local : NULL, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("drawing the thread map on the device"));
      return FALSE;
    }
  return TRUE;
}

/* Draws ROWS rows of the map from FIRST_ROW (WINDOW on the device) into
 * the same rows of the output.
 */
static gboolean
tl_overlay_draw_window (TlRun              *run,
                        const TlOverlayMap *map,
                        cl_mem              window,
                        cl_mem              groups,
                        guint               first_row,
                        guint               rows,
                        gpointer            data,
                        GError            **error)
{
  TlOverlayDraw *draw       = data;
  guint          width      = map->plan.width;
  gsize          pixel_size = tl_codec_get_pixel_size (draw->codec);
  gsize          offset     = (gsize) first_row * width * pixel_size;
  gsize          size       = (gsize) rows * width * pixel_size;
  cl_int         row_count  = rows;
  cl_int         row_base   = first_row;
  cl_uint        missed[2];

  if (first_row == 0 &&
      ! tl_overlay_draw_prepare (run, map, draw, rows, error))
    return FALSE;

  if ((draw->in &&
       ! tl_overlay_draw_copy (run, draw->image, TRUE, size,
                               (gpointer) (draw->in + offset), error)) ||
      ! tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_MAP,
                        sizeof (cl_mem), &window, error) ||
      ! tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_GROUPS,
                        sizeof (cl_mem), &groups, error) ||
      ! tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_ROWS,
                        sizeof (cl_int), &row_count, error) ||
      ! tl_run_set_arg (run, draw->kernel, TL_ARG_THREAD_DRAW_ROW_BASE,
                        sizeof (cl_int), &row_base, error) ||
      ! tl_overlay_draw_launch (run, draw->kernel, width, rows, error) ||
      ! tl_overlay_draw_copy (run, draw->missed, FALSE, sizeof (missed), missed,
                              error))
    return FALSE;

  if (missed[0] != TL_OVERLAY_UNKNOWN)
    {
      tl_overlay_set_unwritten (map, missed[0], error);
      return FALSE;
    }
  if (missed[1] != TL_OVERLAY_UNKNOWN)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_OPENCL,
                   _("the thread map has no %s colour for pixel %u,%u"),
                   tl_overlay_mode_to_string (draw->mode), missed[1] % width,
                   missed[1] / width);
      return FALSE;
    }
  return tl_overlay_draw_copy (run, draw->drawn, FALSE, size, draw->out + offset,
                               error);
}

/* The storage a map over a layer in LAYER_FORMAT is drawn in: the
 * layer's own where it is RGB and a codec has it, else R'G'B'A float.
 * A grey layer keeps float, so the colours are rounded once, into grey.
 */
TlCodec *
tl_overlay_codec_new (const Babl  *layer_format,
                      GError     **error)
{
  const gchar *model;
  TlCodec     *codec = NULL;

  g_return_val_if_fail (layer_format != NULL, NULL);

  model = babl_get_name (babl_format_get_model (layer_format));
  if (model[0] == 'R')
    codec = tl_codec_new (layer_format, "R'G'B'A float", NULL);
  return codec ? codec : tl_codec_new_float (layer_format, "R'G'B'A float",
                                             error);
}

/* The thread map of PLAN drawn on the device in MODE and STYLE, as
 * tl_overlay_render () draws it, into OUT: PLAN's pixels in CODEC's
 * storage, whose working format must be R'G'B'A float.  IN is the image
 * under the map in the same storage; with the tint style it may be NULL,
 * and OUT then gets the tint alone, its alpha the opacity.  Returns the
 * map for its title and legend: its groups, and with KEEP_PIXELS its
 * pixels' words too (to draw it again on the host).  MS_PER_GROUP (a
 * filter's TlRunTimes.ms_per_group, or 0) paces its launches as the
 * filter's were (tl_run_pace_at ()).
 */
TlOverlayMap *
tl_overlay_draw (TlContext      *context,
                 const TlPlan   *plan,
                 guint           simd_width,
                 gdouble         ms_per_group,
                 TlOverlayMode   mode,
                 TlOverlayStyle  style,
                 gdouble         opacity,
                 const TlCodec  *codec,
                 gconstpointer   in,
                 gpointer        out,
                 gboolean        keep_pixels,
                 GError        **error)
{
  TlOverlayDraw draw = { mode, style, opacity, codec, in, out };

  g_return_val_if_fail (context != NULL && plan != NULL, NULL);
  g_return_val_if_fail (codec != NULL && out != NULL, NULL);
  g_return_val_if_fail (in != NULL || style == TL_OVERLAY_TINT, NULL);

  if (! tl_overlay_check_choice (mode, style, opacity, error))
    return NULL;
  return tl_overlay_run_windows (context, plan, simd_width, ms_per_group,
                                 keep_pixels, tl_overlay_draw_window, &draw,
                                 error);
}
