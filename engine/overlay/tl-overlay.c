/* ThreadLens: the thread map: run on a device or modelled from the plan,
 * and read back pixel by pixel (see tl-overlay.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-alloc.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-filter-job.h"
#include "tl-overlay-private.h"
#include "tl-process.h"
#include "tl-run.h"

/* Short names, for JSON. */
const gchar *
tl_overlay_simd_source_to_string (TlOverlaySimdSource source)
{
  switch (source)
    {
    case TL_OVERLAY_SIMD_DERIVED:
      return "derived";
    case TL_OVERLAY_SIMD_SUB_GROUPS:
      return "sub-groups";
    case TL_OVERLAY_SIMD_PTX:
      return "ptx-laneid";
    }
  g_return_val_if_reached (NULL);
}

const gchar *
tl_overlay_simd_source_describe (TlOverlaySimdSource source)
{
  switch (source)
    {
    case TL_OVERLAY_SIMD_DERIVED:
      return "derived from the linear local ID and P";
    case TL_OVERLAY_SIMD_SUB_GROUPS:
      return "sub-group built-ins";
    case TL_OVERLAY_SIMD_PTX:
      return "PTX %laneid (SIMD group: linear local ID / 32)";
    }
  g_return_val_if_reached (NULL);
}

/* A map of PLAN's pixels and groups, all unwritten; NULL with ERROR
 * when memory runs out.
 */
static TlOverlayMap *
tl_overlay_map_new (const TlPlan *plan,
                    gboolean      with_pixels,
                    GError      **error)
{
  TlOverlayMap *map    = g_new0 (TlOverlayMap, 1);
  gsize         pixels = 0;

  map->plan   = *plan;
  if (with_pixels && tl_alloc_mul (plan->width, plan->height, &pixels, error))
    map->pixels = tl_alloc_n (pixels, TL_OVERLAY_PIXEL_WORDS * sizeof (guint32),
                              error);
  map->groups = map->pixels || ! with_pixels ?
                tl_alloc_n (plan->group_count,
                            TL_OVERLAY_GROUP_WORDS * sizeof (guint32), error) :
                NULL;
  if ((with_pixels && map->pixels == NULL) || map->groups == NULL)
    {
      tl_overlay_map_free (map);
      return NULL;
    }

  /* All ones: what the kernel never wrote stands out. */
  if (map->pixels)
    memset (map->pixels, 0xFF,
            pixels * TL_OVERLAY_PIXEL_WORDS * sizeof (guint32));
  memset (map->groups, 0xFF,
          plan->group_count * TL_OVERLAY_GROUP_WORDS * sizeof (guint32));

  return map;
}

void
tl_overlay_map_free (TlOverlayMap *map)
{
  if (map == NULL)
    return;

  g_free (map->device);
  g_free (map->pixels);
  g_free (map->groups);
  g_free (map->group_piece);
  g_free (map->ticket_piece);
  g_free (map);
}

/* The plan the overlay shows: FILTER's, exactly as it would run (P and M
 * of its kernels), or with FILTER NULL, the overlay kernel's own.
 */
gboolean
tl_overlay_plan (TlContext      *context,
                 const TlFilter *filter,
                 const TlCodec  *codec,
                 const TlChoice *choice,
                 guint           width,
                 guint           height,
                 TlLimits       *limits,
                 TlPlan         *plan,
                 GError        **error)
{
  TlChoice  resolved;
  cl_kernel kernel;

  g_return_val_if_fail (context != NULL && choice != NULL, FALSE);
  g_return_val_if_fail (limits != NULL && plan != NULL, FALSE);

  if (filter)
    return tl_filter_job_plan (context, filter, codec, choice, width, height,
                               limits, plan, error);

  kernel = tl_context_get_kernel (context, "overlay", "tl_thread_map", error);
  if (kernel == NULL ||
      ! tl_context_kernel_limits (context, kernel, limits, error))
    return FALSE;

  resolved = *choice;
  if (resolved.pixels_per_item == 0)
    resolved.pixels_per_item = 1;

  return tl_plan_compute (limits, &resolved, width, height, plan, error);
}

static gboolean
tl_overlay_read (TlRun       *run,
                 cl_mem       buffer,
                 gsize        size,
                 void        *data,
                 GError     **error)
{
  cl_int status;

  status = TL_CL (clEnqueueReadBuffer, tl_context_get_queue (tl_run_get_context (run)),
                  buffer, CL_TRUE, 0, size, data, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("reading the thread map from the device"));
      return FALSE;
    }
  return TRUE;
}

/* A group the kernel did not record means the launches did not cover
 * the plan: say so rather than draw garbage.
 */
static gboolean
tl_overlay_check_groups (const TlOverlayMap *map,
                         guint               tickets,
                         GError            **error)
{
  const TlPlan *plan = &map->plan;
  gsize         i;

  if (tickets != plan->group_count)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_OPENCL,
                   _("the overlay kernel ran %u work-groups, the plan has "
                     "%" PRIu64), tickets, plan->group_count);
      return FALSE;
    }

  for (i = 0; i < plan->group_count; i++)
    if (map->groups[i * TL_OVERLAY_GROUP_WORDS + 2] >= plan->group_count)
      {
        g_set_error (error, TL_ERROR, TL_ERROR_OPENCL,
                     _("the overlay kernel left work-group %zu of the launch "
                       "order unrecorded"), i);
        return FALSE;
      }
  return TRUE;
}

/* Which piece of its launch each group of MAP ran in, from the first
 * plan's PIECES (tl_run_get_pieces ()), where the launch budget cut a
 * launch; nothing where none was.
 */
static gboolean
tl_overlay_set_pieces (TlOverlayMap  *map,
                       const GArray  *pieces,
                       GError       **error)
{
  const TlPlan *plan = &map->plan;
  guint         n    = 0, i, x, y;

  for (i = 0; i < pieces->len; i++)
    if (g_array_index (pieces, TlRunPiece, i).step == 0)
      n++;
  map->n_pieces = n;
  if (n <= plan->n_launches)
    return TRUE;

  map->group_piece  = tl_alloc_n (plan->group_count, sizeof (guint32), error);
  map->ticket_piece = map->group_piece ?
                      tl_alloc_n (plan->group_count, sizeof (guint32),
                                  error) : NULL;
  if (map->ticket_piece == NULL)
    return FALSE;
  for (i = 0; i < n; i++)
    {
      const TlRunPiece *piece = &g_array_index (pieces, TlRunPiece, i);

      for (y = 0; y < piece->groups[1]; y++)
        for (x = 0; x < piece->groups[0]; x++)
          {
            guint64 launch = (guint64) (piece->group_base[1] + y) *
                             plan->groups[0] + piece->group_base[0] + x;

            if (launch < plan->group_count)
              map->group_piece[launch] = i;
          }
    }
  /* Tickets were checked to be a permutation of the groups. */
  for (i = 0; i < plan->group_count; i++)
    map->ticket_piece[map->groups[i * TL_OVERLAY_GROUP_WORDS + 2]] =
      map->group_piece[i];
  return TRUE;
}

guint
tl_overlay_map_count_pieces (const TlOverlayMap *map)
{
  g_return_val_if_fail (map != NULL, 0);

  return map->n_pieces;
}

/* Likewise for a pixel. */
static gboolean
tl_overlay_check_pixels (const TlOverlayMap *map,
                         GError            **error)
{
  const TlPlan *plan = &map->plan;
  gsize         n    = (gsize) plan->width * plan->height;
  gsize         i;

  for (i = 0; i < n; i++)
    if (map->pixels[i * TL_OVERLAY_PIXEL_WORDS] >= plan->group_count)
      {
        tl_overlay_set_unwritten (map, i, error);
        return FALSE;
      }
  return TRUE;
}

/* The error for pixel INDEX of MAP, which the overlay kernel missed. */
void
tl_overlay_set_unwritten (const TlOverlayMap *map,
                          gsize               index,
                          GError            **error)
{
  g_set_error (error, TL_ERROR, TL_ERROR_OPENCL,
               _("the overlay kernel left pixel %zu,%zu unwritten"),
               index % map->plan.width, index / map->plan.width);
}

/* Fills BUFFER with all ones on the device: what the kernel never
 * writes stands out.
 */
static gboolean
tl_overlay_clear_window (TlRun   *run,
                         cl_mem   buffer,
                         gsize    size,
                         GError **error)
{
  const cl_uint ones = TL_OVERLAY_UNKNOWN;
  cl_int        status;

  status = TL_CL (clEnqueueFillBuffer,
                  tl_context_get_queue (tl_run_get_context (run)), buffer,
                  &ones, sizeof (ones), 0, size, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("clearing the thread map on the device"));
      return FALSE;
    }
  return TRUE;
}

/* Runs the thread map under PLAN.  SIMD_WIDTH is the P used where SIMD
 * groups and lanes are derived (0: the overlay kernel's preferred
 * work-group size multiple); devices with sub-groups or PTX ignore it.
 * The map is made a window of rows at a time on the device; after each,
 * WINDOW (if any) is called with the groups already read and checked,
 * and with KEEP_PIXELS the window's words come back into the map.
 */
TlOverlayMap *
tl_overlay_run_windows (TlContext          *context,
                        const TlPlan       *plan,
                        guint               simd_width,
                        gdouble             ms_per_group,
                        gboolean            keep_pixels,
                        TlOverlayWindowFunc window,
                        gpointer            window_data,
                        GError            **error)
{
  g_autoptr(TlOverlayMap) map  = NULL;
  g_autoptr(TlRun)        run  = NULL;
  TlLimits                limits;
  cl_kernel               kernel;
  cl_mem                  pixels, groups, info;
  cl_uint                 info_data[4] = { 0, 0, 0, 0 };
  cl_uint                 p;
  gsize                   pixel_size, group_size, row_size;
  cl_int                  window_rows;
  guint                   cap = tl_process_tile_setting ();
  gint                    row;

  g_return_val_if_fail (context != NULL && plan != NULL, NULL);
  g_return_val_if_fail (plan->width > 0 && plan->height > 0, NULL);

  if (plan->local[0] == 0 || plan->local[1] == 0)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("the overlay needs an explicit work-group shape: "
                             "with the driver's shape the groups are unknown "
                             "to ThreadLens"));
      return NULL;
    }

  kernel = tl_context_get_kernel (context, "overlay", "tl_thread_map", error);
  if (kernel == NULL ||
      ! tl_context_kernel_limits (context, kernel, &limits, error))
    return NULL;

  /* A filter's plan may use groups the overlay kernel cannot run. */
  if ((guint64) plan->local[0] * plan->local[1] > limits.max_group_size)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group shape %ux%u has %u work-items, over the "
                     "overlay kernel's maximum work-group size M = %u "
                     "(CL_KERNEL_WORK_GROUP_SIZE)"), plan->local[0],
                   plan->local[1], plan->local[0] * plan->local[1],
                   limits.max_group_size);
      return NULL;
    }

  p   = simd_width ? simd_width : limits.simd_width;
  map = tl_overlay_map_new (plan, keep_pixels, error);
  if (map == NULL)
    return NULL;
  run = tl_run_new (context, "overlay", plan);
  /* The map's launches are cut as the filter's were, at its rate, so
   * that the launch order shows the pieces.
   */
  tl_run_keep_pieces (run);
  if (ms_per_group > 0.0)
    tl_run_pace_at (run, ms_per_group);
  map->paced = ms_per_group > 0.0;

  /* The map in windows of rows when the device's buffers cannot hold it
   * whole (THREADLENS_TILE makes them smaller, for tests).
   */
  row_size    = (gsize) plan->width * TL_OVERLAY_PIXEL_WORDS * sizeof (guint32);
  window_rows = plan->height;
  if (tl_context_get_device (context)->max_alloc_size > 0)
    window_rows = MIN (plan->height,
                       MAX (1, tl_context_get_device (context)->max_alloc_size /
                               row_size));
  if (cap > 0)
    window_rows = MIN (window_rows, (cl_int) cap);
  pixel_size = window_rows * row_size;
  group_size = plan->group_count * TL_OVERLAY_GROUP_WORDS * sizeof (guint32);

  pixels = tl_run_new_buffer (run, CL_MEM_READ_WRITE, pixel_size, NULL, error);
  groups = pixels ? tl_run_new_buffer (run, CL_MEM_READ_WRITE, group_size,
                                       map->groups, error) : NULL;
  info   = groups ? tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                       sizeof (info_data), info_data,
                                       error) : NULL;
  if (info == NULL)
    return NULL;

  if (! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_PIXELS, sizeof (cl_mem),
                        &pixels, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_GROUPS, sizeof (cl_mem),
                        &groups, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_INFO, sizeof (cl_mem),
                        &info, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_SIMD_WIDTH,
                        sizeof (cl_uint), &p, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_WINDOW_ROWS,
                        sizeof (cl_int), &window_rows, error))
    return NULL;

  for (row = 0; row < (gint) plan->height; row += window_rows)
    {
      gsize   rows   = MIN ((guint) window_rows, plan->height - row);
      cl_uint record = row == 0;

      tl_run_set_row_base (run, row);
      if (! tl_overlay_clear_window (run, pixels, rows * row_size, error) ||
          ! tl_run_set_arg (run, kernel, TL_ARG_THREAD_MAP_RECORD_GROUPS,
                            sizeof (cl_uint), &record, error) ||
          ! tl_run_enqueue (run, kernel, TL_ARG_THREAD_MAP_D, error))
        return NULL;

      /* The groups are whole after the first window. */
      if (row == 0 &&
          (! tl_overlay_read (run, groups, group_size, map->groups, error) ||
           ! tl_overlay_read (run, info, sizeof (info_data), info_data, error) ||
           ! tl_overlay_check_groups (map, info_data[0], error) ||
           ! tl_overlay_set_pieces (map, tl_run_get_pieces (run), error)))
        return NULL;
      map->simd_width  = info_data[1];
      map->simd_source = MIN (info_data[2], TL_OVERLAY_SIMD_PTX);
      map->measured    = TRUE;
      if (map->device == NULL)
        map->device = g_strdup (tl_context_get_device (context)->name);

      if (keep_pixels &&
          ! tl_overlay_read (run, pixels, rows * row_size,
                             map->pixels + (gsize) row * plan->width *
                                           TL_OVERLAY_PIXEL_WORDS, error))
        return NULL;
      if (window &&
          ! window (run, map, pixels, groups, row, rows, window_data, error))
        return NULL;
    }

  if (keep_pixels && ! tl_overlay_check_pixels (map, error))
    return NULL;

  return g_steal_pointer (&map);
}

TlOverlayMap *
tl_overlay_run (TlContext     *context,
                const TlPlan  *plan,
                guint          simd_width,
                gdouble        ms_per_group,
                GError       **error)
{
  return tl_overlay_run_windows (context, plan, simd_width, ms_per_group,
                                 TRUE, NULL, NULL, error);
}

/* What the kernel must write, from the plan alone: everything but the
 * ticket and the compute unit, with SIMD groups and lanes derived from P.
 */
TlOverlayMap *
tl_overlay_model (const TlPlan *plan,
                  guint         simd_width)
{
  g_autofree guint32 *at = NULL;       /* grid position -> launch index */
  TlOverlayMap       *map;
  guint               w, h, k, grid_x, gx, gy, x, y;

  g_return_val_if_fail (plan != NULL && simd_width > 0, NULL);
  g_return_val_if_fail (plan->local[0] > 0 && plan->local[1] > 0, NULL);

  map = tl_overlay_map_new (plan, TRUE, NULL);
  if (map == NULL)
    return NULL;
  map->simd_source = TL_OVERLAY_SIMD_DERIVED;
  map->simd_width  = simd_width;

  w      = plan->local[0];
  h      = plan->local[1];
  k      = plan->pixels_per_item;
  grid_x = plan->groups[0];
  at     = g_new (guint32, plan->group_count);

  for (gy = 0; gy < plan->groups[1]; gy++)
    for (gx = 0; gx < grid_x; gx++)
      {
        guint32 *record = map->groups + (gsize) (gy * grid_x + gx) *
                          TL_OVERLAY_GROUP_WORDS;
        guint    px = gx, py = gy, size_w = w, size_h = h, used_w, used_h;

        /* The swizzle moves a launch slot only inside its grid. */
        if (plan->swizzle && gx < plan->swizzle_grid[0] &&
            gy < plan->swizzle_grid[1])
          tl_plan_swizzle (plan->swizzle_grid[0], plan->swizzle_grid[1],
                           plan->swizzle, gx, gy, &px, &py);

        /* Exact grids launch the edge groups smaller. */
        if (plan->mode != TL_MODE_UNIFORM)
          {
            if (gx >= plan->full_groups[0])
              size_w = plan->items[0] % w;
            if (gy >= plan->full_groups[1])
              size_h = plan->items[1] % h;
          }

        used_w = MIN (w, plan->items[0] - px * w);
        used_h = MIN (h, plan->items[1] - py * h);

        record[0] = px;
        record[1] = py;
        record[2] = TL_OVERLAY_UNKNOWN;
        record[3] = TL_OVERLAY_UNKNOWN;
        record[4] = size_w;
        record[5] = size_h;
        record[6] = size_w * size_h - used_w * used_h;
        record[7] = used_w * used_h < w * h;
        at[py * grid_x + px] = gy * grid_x + gx;
      }

  for (y = 0; y < plan->height; y++)
    for (x = 0; x < plan->width; x++)
      {
        guint32       *pixel  = map->pixels + ((gsize) y * plan->width + x) *
                                TL_OVERLAY_PIXEL_WORDS;
        guint          ix     = x / k;
        guint          lx     = ix % w;
        guint          ly     = y % h;
        guint32        launch = at[(y / h) * grid_x + ix / w];
        const guint32 *record = map->groups + (gsize) launch *
                                TL_OVERLAY_GROUP_WORDS;
        guint          linear = ly * record[4] + lx;

        pixel[0] = launch;
        pixel[1] = lx | ly << 16;
        pixel[2] = linear / simd_width | (linear % simd_width) << 16;
      }

  return map;
}

const TlPlan *
tl_overlay_map_get_plan (const TlOverlayMap *map)
{
  g_return_val_if_fail (map != NULL, NULL);

  return &map->plan;
}

TlOverlaySimdSource
tl_overlay_map_get_simd_source (const TlOverlayMap *map)
{
  g_return_val_if_fail (map != NULL, TL_OVERLAY_SIMD_DERIVED);

  return map->simd_source;
}

guint
tl_overlay_map_get_simd_width (const TlOverlayMap *map)
{
  g_return_val_if_fail (map != NULL, 0);

  return map->simd_width;
}

/* Distinct compute units seen; 0 where the device does not name them. */
guint
tl_overlay_map_count_compute_units (const TlOverlayMap *map)
{
  g_autoptr(GHashTable) seen = NULL;
  guint64               i;

  g_return_val_if_fail (map != NULL, 0);

  seen = g_hash_table_new (NULL, NULL);
  for (i = 0; i < map->plan.group_count; i++)
    {
      guint32 unit = map->groups[i * TL_OVERLAY_GROUP_WORDS + 3];

      if (unit != TL_OVERLAY_UNKNOWN)
        g_hash_table_add (seen, GUINT_TO_POINTER (unit + 1));
    }

  return g_hash_table_size (seen);
}

/* Fills the group's part of IDS; the work-item's part is zeroed. */
void
tl_overlay_map_get_group (const TlOverlayMap *map,
                          guint               launch_index,
                          TlOverlayIds       *ids)
{
  const guint32 *record;

  g_return_if_fail (map != NULL && ids != NULL);
  g_return_if_fail (launch_index < map->plan.group_count);

  record = map->groups + (gsize) launch_index * TL_OVERLAY_GROUP_WORDS;
  memset (ids, 0, sizeof (*ids));
  ids->group[0]      = record[0];
  ids->group[1]      = record[1];
  ids->launch_index  = launch_index;
  ids->ticket        = record[2];
  ids->compute_unit  = record[3];
  ids->group_size[0] = record[4];
  ids->group_size[1] = record[5];
  ids->idle_items    = record[6];
  ids->partial       = record[7] != 0;
  ids->piece         = map->group_piece ? map->group_piece[launch_index] : 0;
}

void
tl_overlay_map_get_ids (const TlOverlayMap *map,
                        guint               x,
                        guint               y,
                        TlOverlayIds       *ids)
{
  const guint32 *pixel;

  g_return_if_fail (map != NULL && ids != NULL);
  g_return_if_fail (map->pixels != NULL);
  g_return_if_fail (x < map->plan.width && y < map->plan.height);

  pixel = map->pixels + ((gsize) y * map->plan.width + x) *
          TL_OVERLAY_PIXEL_WORDS;
  tl_overlay_map_get_group (map, pixel[0], ids);
  ids->local[0]   = pixel[1] & 0xFFFF;
  ids->local[1]   = pixel[1] >> 16;
  ids->simd_group = pixel[2] & 0xFFFF;
  ids->lane       = pixel[2] >> 16;
}
