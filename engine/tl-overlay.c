/* ThreadLens: the thread-map overlay.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "tl-error.h"
#include "tl-fault.h"
#include "tl-overlay.h"
#include "tl-process.h"
#include "tl-run.h"

/* Words per pixel and per group, as kernels/overlay.cl writes them. */
#define TL_OVERLAY_PIXEL_WORDS 3
#define TL_OVERLAY_GROUP_WORDS 8

/* Below this many pixels on a side, group edges are not outlined: the
 * lines would cover the tint.
 */
#define TL_OVERLAY_MIN_OUTLINED 6

struct _TlOverlayMap
{
  TlPlan               plan;
  TlOverlaySimdSource  simd_source;
  guint                simd_width;
  gboolean             measured;      /* from a device: tickets are known */
  gchar               *device;        /* NULL for a model */
  guint32             *pixels;        /* TL_OVERLAY_PIXEL_WORDS per pixel */
  guint32             *groups;        /* TL_OVERLAY_GROUP_WORDS per group,
                                       * by launch index */
};

static const gchar *const tl_overlay_mode_names[] =
{
  [TL_OVERLAY_WORK_GROUP]   = "work-group",
  [TL_OVERLAY_SIMD_GROUP]   = "simd-group",
  [TL_OVERLAY_LANE]         = "lane",
  [TL_OVERLAY_LAUNCH_ORDER] = "launch-order",
  [TL_OVERLAY_COMPUTE_UNIT] = "compute-unit"
};

static const gchar *const tl_overlay_style_names[] =
{
  [TL_OVERLAY_TINT]         = "tint",
  [TL_OVERLAY_CHECKERBOARD] = "checkerboard"
};

/* Seven well-separated hues (R'G'B').  Work-group (gx, gy) takes colour
 * (gx + 3 gy) mod 7: neighbours differ by 1, 3, 2 or 4, never by 0 mod 7,
 * so no two touching groups, diagonals included, look alike.
 */
static const gfloat tl_overlay_palette[7][3] =
{
  { 0.122f, 0.467f, 0.706f },   /* blue */
  { 1.000f, 0.498f, 0.055f },   /* orange */
  { 0.173f, 0.627f, 0.173f },   /* green */
  { 0.839f, 0.153f, 0.157f },   /* red */
  { 0.580f, 0.404f, 0.741f },   /* purple */
  { 0.988f, 0.839f, 0.180f },   /* yellow */
  { 0.090f, 0.745f, 0.812f },   /* cyan */
};

/* Viridis at 0, 1/8, ... 1: perceptually even and readable in grey. */
static const gfloat tl_overlay_viridis[9][3] =
{
  { 0.267f, 0.005f, 0.329f },
  { 0.278f, 0.176f, 0.482f },
  { 0.231f, 0.322f, 0.545f },
  { 0.176f, 0.439f, 0.557f },
  { 0.129f, 0.569f, 0.553f },
  { 0.122f, 0.620f, 0.537f },
  { 0.208f, 0.718f, 0.475f },
  { 0.565f, 0.843f, 0.263f },
  { 0.993f, 0.906f, 0.144f },
};

const gchar *
tl_overlay_mode_to_string (TlOverlayMode mode)
{
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  return tl_overlay_mode_names[mode];
}

gboolean
tl_overlay_mode_from_string (const gchar   *text,
                             TlOverlayMode *mode,
                             GError       **error)
{
  guint i;

  g_return_val_if_fail (text != NULL && mode != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (tl_overlay_mode_names); i++)
    if (g_ascii_strcasecmp (text, tl_overlay_mode_names[i]) == 0)
      {
        *mode = i;
        return TRUE;
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown overlay mode '%s' (expected work-group, simd-group, "
                 "lane, launch-order or compute-unit)"), text);
  return FALSE;
}

const gchar *
tl_overlay_style_to_string (TlOverlayStyle style)
{
  g_return_val_if_fail (style <= TL_OVERLAY_CHECKERBOARD, NULL);

  return tl_overlay_style_names[style];
}

gboolean
tl_overlay_style_from_string (const gchar    *text,
                              TlOverlayStyle *style,
                              GError        **error)
{
  guint i;

  g_return_val_if_fail (text != NULL && style != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (tl_overlay_style_names); i++)
    if (g_ascii_strcasecmp (text, tl_overlay_style_names[i]) == 0)
      {
        *style = i;
        return TRUE;
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown overlay style '%s' (expected tint or checkerboard)"),
               text);
  return FALSE;
}

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

static TlOverlayMap *
tl_overlay_map_new (const TlPlan *plan)
{
  TlOverlayMap *map    = g_new0 (TlOverlayMap, 1);
  gsize         pixels = (gsize) plan->width * plan->height;

  map->plan   = *plan;
  map->pixels = g_try_new (guint32, pixels * TL_OVERLAY_PIXEL_WORDS);
  map->groups = g_try_new (guint32, plan->group_count * TL_OVERLAY_GROUP_WORDS);
  if (map->pixels == NULL || map->groups == NULL)
    {
      tl_overlay_map_free (map);
      return NULL;
    }

  /* All ones: what the kernel never wrote stands out. */
  memset (map->pixels, 0xFF, pixels * TL_OVERLAY_PIXEL_WORDS * sizeof (guint32));
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
    return tl_run_plan_filter (context, filter, codec, choice, width, height,
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

static gboolean
tl_overlay_write (TlRun       *run,
                  cl_mem       buffer,
                  gsize        size,
                  const void  *data,
                  GError     **error)
{
  cl_int status;

  status = TL_CL (clEnqueueWriteBuffer, tl_context_get_queue (tl_run_get_context (run)),
                  buffer, CL_TRUE, 0, size, data, 0, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("clearing the thread map on the device"));
      return FALSE;
    }
  return TRUE;
}

/* A pixel or group the kernel did not write means the launches did not
 * cover the plan: say so rather than draw garbage.
 */
static gboolean
tl_overlay_check (const TlOverlayMap *map,
                  guint               tickets,
                  GError            **error)
{
  const TlPlan *plan = &map->plan;
  gsize         n    = (gsize) plan->width * plan->height;
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

  for (i = 0; i < n; i++)
    if (map->pixels[i * TL_OVERLAY_PIXEL_WORDS] >= plan->group_count)
      {
        g_set_error (error, TL_ERROR, TL_ERROR_OPENCL,
                     _("the overlay kernel left pixel %zu,%zu unwritten"),
                     i % plan->width,
                     i / plan->width);
        return FALSE;
      }

  return TRUE;
}

/* Runs the thread map under PLAN.  SIMD_WIDTH is the P used where SIMD
 * groups and lanes are derived (0: the overlay kernel's preferred
 * work-group size multiple); devices with sub-groups or PTX ignore it.
 */
TlOverlayMap *
tl_overlay_run (TlContext     *context,
                const TlPlan  *plan,
                guint          simd_width,
                GError       **error)
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
  map = tl_overlay_map_new (plan);
  if (map == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("not enough memory for the thread map of a %ux%u region"),
                   plan->width, plan->height);
      return NULL;
    }
  run = tl_run_new (context, "overlay", plan);

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

  pixels = tl_run_new_buffer (run, CL_MEM_READ_WRITE, pixel_size, map->pixels,
                              error);
  groups = pixels ? tl_run_new_buffer (run, CL_MEM_READ_WRITE, group_size,
                                       map->groups, error) : NULL;
  info   = groups ? tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                       sizeof (info_data), info_data,
                                       error) : NULL;
  if (info == NULL)
    return NULL;

  if (! tl_run_set_arg (run, kernel, 0, sizeof (cl_mem), &pixels, error) ||
      ! tl_run_set_arg (run, kernel, 1, sizeof (cl_mem), &groups, error) ||
      ! tl_run_set_arg (run, kernel, 2, sizeof (cl_mem), &info, error) ||
      ! tl_run_set_arg (run, kernel, 4, sizeof (cl_uint), &p, error) ||
      ! tl_run_set_arg (run, kernel, 5, sizeof (cl_int), &window_rows, error))
    return NULL;

  for (row = 0; row < (gint) plan->height; row += window_rows)
    {
      gsize    rows   = MIN ((guint) window_rows, plan->height - row);
      guint32 *window = map->pixels + (gsize) row * plan->width *
                                      TL_OVERLAY_PIXEL_WORDS;
      cl_uint  record = row == 0;

      /* Each window starts all ones, as the map does, so that a pixel
       * the kernel missed still shows.
       */
      if (row > 0 &&
          ! tl_overlay_write (run, pixels, rows * row_size, window, error))
        return NULL;
      tl_run_set_row_base (run, row);
      if (! tl_run_set_arg (run, kernel, 6, sizeof (cl_uint), &record, error) ||
          ! tl_run_enqueue (run, kernel, 3, error) ||
          ! tl_overlay_read (run, pixels, rows * row_size, window, error))
        return NULL;
    }

  if (! tl_overlay_read (run, groups, group_size, map->groups, error) ||
      ! tl_overlay_read (run, info, sizeof (info_data), info_data, error))
    return NULL;

  if (! tl_overlay_check (map, info_data[0], error))
    return NULL;

  map->simd_width  = info_data[1];
  map->simd_source = MIN (info_data[2], TL_OVERLAY_SIMD_PTX);
  map->measured    = TRUE;
  map->device      = g_strdup (tl_context_get_device (context)->name);

  return g_steal_pointer (&map);
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

  map = tl_overlay_map_new (plan);
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
}

void
tl_overlay_map_get_ids (const TlOverlayMap *map,
                        guint               x,
                        guint               y,
                        TlOverlayIds       *ids)
{
  const guint32 *pixel;

  g_return_if_fail (map != NULL && ids != NULL);
  g_return_if_fail (x < map->plan.width && y < map->plan.height);

  pixel = map->pixels + ((gsize) y * map->plan.width + x) *
          TL_OVERLAY_PIXEL_WORDS;
  tl_overlay_map_get_group (map, pixel[0], ids);
  ids->local[0]   = pixel[1] & 0xFFFF;
  ids->local[1]   = pixel[1] >> 16;
  ids->simd_group = pixel[2] & 0xFFFF;
  ids->lane       = pixel[2] >> 16;
}

static void
tl_overlay_hsv (gdouble  hue,
                gdouble  saturation,
                gdouble  value,
                gfloat  *rgb)
{
  gdouble h = fmod (hue, 1.0) * 6.0;
  gdouble f = h - floor (h);
  gdouble p = value * (1.0 - saturation);
  gdouble q = value * (1.0 - saturation * f);
  gdouble t = value * (1.0 - saturation * (1.0 - f));

  switch ((gint) floor (h) % 6)
    {
    case 0: rgb[0] = value; rgb[1] = t;     rgb[2] = p;     break;
    case 1: rgb[0] = q;     rgb[1] = value; rgb[2] = p;     break;
    case 2: rgb[0] = p;     rgb[1] = value; rgb[2] = t;     break;
    case 3: rgb[0] = p;     rgb[1] = q;     rgb[2] = value; break;
    case 4: rgb[0] = t;     rgb[1] = p;     rgb[2] = value; break;
    default: rgb[0] = value; rgb[1] = p;    rgb[2] = q;     break;
    }
}

static void
tl_overlay_heat (gdouble  t,
                 gfloat  *rgb)
{
  gdouble s = CLAMP (t, 0.0, 1.0) * 8.0;
  guint   i = MIN ((guint) s, 7);
  gdouble f = s - i;
  guint   c;

  for (c = 0; c < 3; c++)
    rgb[c] = tl_overlay_viridis[i][c] * (1.0 - f) +
             tl_overlay_viridis[i + 1][c] * f;
}

static void
tl_overlay_colour (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   const TlOverlayIds *ids,
                   gfloat             *rgb)
{
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      memcpy (rgb, tl_overlay_palette[(ids->group[0] + 3 * ids->group[1]) % 7],
              3 * sizeof (gfloat));
      break;
    case TL_OVERLAY_SIMD_GROUP:
      memcpy (rgb, tl_overlay_palette[ids->simd_group % 7], 3 * sizeof (gfloat));
      break;
    case TL_OVERLAY_LANE:
      /* A rainbow across each SIMD group: red at lane 0, violet last. */
      tl_overlay_hsv (0.83 * ids->lane / MAX (1, map->simd_width), 0.85, 1.0,
                      rgb);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      tl_overlay_heat (map->plan.group_count > 1 ?
                       (gdouble) ids->ticket / (map->plan.group_count - 1) :
                       0.0, rgb);
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      /* Golden-ratio hues keep consecutive units apart. */
      tl_overlay_hsv (ids->compute_unit * 0.618034, 0.8,
                      ids->compute_unit % 2 ? 0.75 : 1.0, rgb);
      break;
    }
}

/* Seed 002's rule for which pixels the checkerboard inverts. */
static gboolean
tl_overlay_inverted (TlOverlayMode       mode,
                     const TlOverlayIds *ids)
{
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      return (ids->group[0] + ids->group[1]) % 2 == 1;
    case TL_OVERLAY_SIMD_GROUP:
      return ids->simd_group % 2 == 1;
    case TL_OVERLAY_LANE:
      return ids->lane % 8 != 0;
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* The first row or column of pixels of a work-group. */
static gboolean
tl_overlay_on_edge (const TlPlan       *plan,
                    guint               x,
                    guint               y,
                    const TlOverlayIds *ids)
{
  guint k = plan->pixels_per_item;

  return ((ids->local[0] == 0 && x % k == 0) || ids->local[1] == 0) &&
         plan->local[0] * k >= TL_OVERLAY_MIN_OUTLINED &&
         plan->local[1] >= TL_OVERLAY_MIN_OUTLINED;
}

static gboolean
tl_overlay_check_mode (const TlOverlayMap *map,
                       TlOverlayMode       mode,
                       TlOverlayStyle      style,
                       gdouble             opacity,
                       GError            **error)
{
  if (! (opacity >= 0.0 && opacity <= 1.0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("overlay opacity %g is outside 0 to 1"), opacity);
      return FALSE;
    }
  if (style == TL_OVERLAY_CHECKERBOARD && mode > TL_OVERLAY_LANE)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("the checkerboard style shows work-groups, SIMD groups "
                     "or lanes, not %s: use the tint style"),
                   tl_overlay_mode_to_string (mode));
      return FALSE;
    }
  if (mode == TL_OVERLAY_LAUNCH_ORDER && ! map->measured)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("the launch order is known only from a run on a "
                             "device, not from the planner's model"));
      return FALSE;
    }
  if (mode == TL_OVERLAY_COMPUTE_UNIT &&
      tl_overlay_map_count_compute_units (map) == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s does not say which compute unit ran a work-group "
                     "(only NVIDIA's does, through PTX %%smid)"),
                   map->device ? map->device : _("the planner's model"));
      return FALSE;
    }
  return TRUE;
}

/* Draws MODE in STYLE.  IN and OUT are R'G'B'A float, 4 floats a pixel,
 * and may be the same buffer.  With the tint style IN may be NULL: OUT
 * then gets the tint alone, its alpha the opacity, for a layer of its own.
 */
gboolean
tl_overlay_render (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   TlOverlayStyle      style,
                   gdouble             opacity,
                   const gfloat       *in,
                   gfloat             *out,
                   GError            **error)
{
  const TlPlan *plan;
  guint         x, y, c;

  g_return_val_if_fail (map != NULL && out != NULL, FALSE);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, FALSE);
  g_return_val_if_fail (style <= TL_OVERLAY_CHECKERBOARD, FALSE);
  g_return_val_if_fail (in != NULL || style == TL_OVERLAY_TINT, FALSE);

  if (! tl_overlay_check_mode (map, mode, style, opacity, error))
    return FALSE;

  plan = &map->plan;
  for (y = 0; y < plan->height; y++)
    for (x = 0; x < plan->width; x++)
      {
        gsize         i   = ((gsize) y * plan->width + x) * 4;
        const gfloat *src = in ? in + i : NULL;
        gfloat       *dst = out + i;
        TlOverlayIds  ids;
        gfloat        rgb[3];
        gfloat        alpha = opacity;

        tl_overlay_map_get_ids (map, x, y, &ids);

        if (style == TL_OVERLAY_CHECKERBOARD)
          {
            gboolean invert = tl_overlay_inverted (mode, &ids);

            for (c = 0; c < 3; c++)
              dst[c] = invert ? 1.0f - src[c] : src[c];
            dst[3] = src[3];
            continue;
          }

        tl_overlay_colour (map, mode, &ids, rgb);

        /* Edge groups are hatched with dark diagonals; other modes
         * outline each work-group, where neighbours may look alike.
         */
        if (ids.partial && (x + y) % 8 < 3)
          {
            for (c = 0; c < 3; c++)
              rgb[c] *= 0.15f;
            alpha = MIN (1.0, opacity * 1.5);
          }
        else if (mode != TL_OVERLAY_WORK_GROUP &&
                 tl_overlay_on_edge (plan, x, y, &ids))
          {
            for (c = 0; c < 3; c++)
              rgb[c] = 0.0f;
          }

        if (src)
          {
            for (c = 0; c < 3; c++)
              dst[c] = src[c] * (1.0f - alpha) + rgb[c] * alpha;
            dst[3] = src[3];
          }
        else
          {
            for (c = 0; c < 3; c++)
              dst[c] = rgb[c];
            dst[3] = alpha;
          }
      }

  return TRUE;
}

static void
tl_overlay_append_dispatch (GString            *text,
                            const TlOverlayMap *map)
{
  const TlPlan *plan = &map->plan;

  g_string_append_printf (text, "work-groups %ux%u", plan->local[0],
                          plan->local[1]);
  if (plan->pixels_per_item > 1)
    g_string_append_printf (text, ", %u px per item", plan->pixels_per_item);
  if (plan->swizzle)
    g_string_append_printf (text, ", swizzle %u", plan->swizzle);

  if (plan->mode == TL_MODE_UNIFORM)
    g_string_append (text, ", uniform");
  else if (plan->mode == TL_MODE_EMULATED)
    g_string_append (text, ", emulated");
  else if (plan->emulated)
    g_string_append (text, ", non-uniform (emulated)");
  else
    g_string_append (text, ", non-uniform");
}

/* One line naming what is shown and the dispatch, e.g. "Thread map:
 * work-groups 32x16, swizzle 8, emulated": the GIMP layer's name.
 */
gchar *
tl_overlay_title (const TlOverlayMap *map,
                  TlOverlayMode       mode)
{
  GString *text;

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  text = g_string_new ("Thread map");
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      g_string_append (text, ": ");
      break;
    case TL_OVERLAY_SIMD_GROUP:
      g_string_append_printf (text, " (SIMD groups of %u): ", map->simd_width);
      break;
    case TL_OVERLAY_LANE:
      g_string_append_printf (text, " (lanes of %u): ", map->simd_width);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      g_string_append (text, " (launch order): ");
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      g_string_append (text, " (compute units): ");
      break;
    }
  tl_overlay_append_dispatch (text, map);

  return g_string_free (text, FALSE);
}

/* The title, then a line each on where the IDs came from, what the colours
 * mean and what is hatched.
 */
gchar *
tl_overlay_legend (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   TlOverlayStyle      style,
                   gdouble             opacity)
{
  g_autofree gchar *title = NULL;
  GString          *text;
  guint64           partial = 0, idle = 0, i;
  guint             p;
  const gchar      *edges = "\n  dark lines: the work-groups' top and left edges";

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  title = tl_overlay_title (map, mode);
  text  = g_string_new (title);
  p     = map->simd_width;
  if (map->plan.local[0] * map->plan.pixels_per_item < TL_OVERLAY_MIN_OUTLINED ||
      map->plan.local[1] < TL_OVERLAY_MIN_OUTLINED)
    edges = "";

  g_string_append_printf (text, "\n  %ux%u pixels, %ux%u = %" G_GUINT64_FORMAT
                          " work-groups, computed %s%s",
                          map->plan.width, map->plan.height,
                          map->plan.groups[0], map->plan.groups[1],
                          map->plan.group_count,
                          map->device ? "on " : "by the planner's model",
                          map->device ? map->device : "");
  g_string_append_printf (text, "\n  SIMD groups and lanes: %s",
                          tl_overlay_simd_source_describe (map->simd_source));
  if (map->simd_source == TL_OVERLAY_SIMD_DERIVED)
    g_string_append_printf (text, " = %u", p);
  else if (map->simd_source == TL_OVERLAY_SIMD_SUB_GROUPS)
    g_string_append_printf (text, " (sub-groups of up to %u)", p);

  if (style == TL_OVERLAY_CHECKERBOARD)
    {
      g_string_append_printf (text, "\n  checkerboard (seed 002): %s "
                              "colour-inverted, the rest unchanged",
                              mode == TL_OVERLAY_WORK_GROUP ?
                              "work-groups with odd gx + gy" :
                              mode == TL_OVERLAY_SIMD_GROUP ?
                              "odd SIMD groups" : "lanes not divisible by 8");
      return g_string_free (text, FALSE);
    }

  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      g_string_append (text, "\n  colours: 7 hues, no two touching "
                       "work-groups alike");
      break;
    case TL_OVERLAY_SIMD_GROUP:
      g_string_append (text, "\n  colours: 7 hues, SIMD group n of each "
                       "work-group in hue n mod 7");
      break;
    case TL_OVERLAY_LANE:
      g_string_append_printf (text, "\n  colours: a rainbow across each SIMD "
                              "group, red = lane 0 to violet = lane %u",
                              p ? p - 1 : 0);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      g_string_append_printf (text, "\n  colours: heat map of the start "
                              "ticket, dark purple = first of %"
                              G_GUINT64_FORMAT " work-groups to start, "
                              "yellow = last", map->plan.group_count);
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      g_string_append_printf (text, "\n  colours: one hue per compute unit "
                              "(%u seen)",
                              tl_overlay_map_count_compute_units (map));
      break;
    }
  g_string_append_printf (text, ", blended at %.0f%%", opacity * 100.0);
  if (mode != TL_OVERLAY_WORK_GROUP)
    g_string_append (text, edges);

  for (i = 0; i < map->plan.group_count; i++)
    {
      TlOverlayIds ids;

      tl_overlay_map_get_group (map, i, &ids);
      partial += ids.partial;
      idle    += ids.idle_items;
    }
  if (partial && map->plan.mode == TL_MODE_UNIFORM)
    g_string_append_printf (text, "\n  hatched: %" G_GUINT64_FORMAT " edge "
                            "work-groups padded past the image, with %"
                            G_GUINT64_FORMAT " idle work-items", partial, idle);
  else if (partial)
    g_string_append_printf (text, "\n  hatched: %" G_GUINT64_FORMAT " smaller "
                            "edge work-groups (no idle work-items)", partial);

  return g_string_free (text, FALSE);
}

static void
tl_overlay_json_pair (JsonBuilder *builder,
                      const gchar *name,
                      guint64      a,
                      guint64      b)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, a);
  json_builder_add_int_value (builder, b);
  json_builder_end_array (builder);
}

/* The dispatch: small, and holds the one string that needs escaping. */
static JsonNode *
tl_overlay_json_header (const TlOverlayMap *map)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const TlPlan          *plan    = &map->plan;

  json_builder_begin_object (builder);
  tl_overlay_json_pair (builder, "size", plan->width, plan->height);
  json_builder_set_member_name (builder, "device");
  if (map->device)
    json_builder_add_string_value (builder, map->device);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "dispatch");
  json_builder_begin_object (builder);
  tl_overlay_json_pair (builder, "local", plan->local[0], plan->local[1]);
  tl_overlay_json_pair (builder, "groups", plan->groups[0], plan->groups[1]);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, tl_mode_to_string (plan->mode));
  json_builder_set_member_name (builder, "emulated");
  json_builder_add_boolean_value (builder, plan->emulated);
  json_builder_set_member_name (builder, "launches");
  json_builder_add_int_value (builder, plan->n_launches);
  json_builder_set_member_name (builder, "swizzle");
  json_builder_add_int_value (builder, plan->swizzle);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, plan->pixels_per_item);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "simd_source");
  json_builder_add_string_value (builder,
                                 tl_overlay_simd_source_to_string (map->simd_source));
  json_builder_set_member_name (builder, "simd_source_text");
  json_builder_add_string_value (builder,
                                 tl_overlay_simd_source_describe (map->simd_source));
  json_builder_set_member_name (builder, "simd_width");
  json_builder_add_int_value (builder, map->simd_width);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* One array per field over the pixels, row-major: a table of objects
 * would be several times larger for the same numbers.
 */
static void
tl_overlay_json_column (GString            *text,
                        const TlOverlayMap *map,
                        const gchar        *name,
                        guint               word,
                        guint               shift,
                        guint32             mask)
{
  gsize n = (gsize) map->plan.width * map->plan.height;
  gsize i;

  g_string_append_printf (text, ",\"%s\":[", name);
  for (i = 0; i < n; i++)
    g_string_append_printf (text, i ? ",%u" : "%u",
                            (map->pixels[i * TL_OVERLAY_PIXEL_WORDS + word] >>
                             shift) & mask);
  g_string_append_c (text, ']');
}

static void
tl_overlay_json_groups (GString            *text,
                        const TlOverlayMap *map)
{
  guint64 i;

  g_string_append (text, ",\"groups\":[");
  for (i = 0; i < map->plan.group_count; i++)
    {
      TlOverlayIds ids;

      tl_overlay_map_get_group (map, i, &ids);
      g_string_append_printf (text, "%s{\"launch_index\":%" G_GUINT64_FORMAT
                              ",\"group\":[%u,%u],\"size\":[%u,%u],",
                              i ? "," : "", i, ids.group[0], ids.group[1],
                              ids.group_size[0], ids.group_size[1]);
      if (ids.ticket == TL_OVERLAY_UNKNOWN)
        g_string_append (text, "\"ticket\":null,");
      else
        g_string_append_printf (text, "\"ticket\":%u,", ids.ticket);
      if (ids.compute_unit == TL_OVERLAY_UNKNOWN)
        g_string_append (text, "\"compute_unit\":null,");
      else
        g_string_append_printf (text, "\"compute_unit\":%u,",
                                ids.compute_unit);
      g_string_append_printf (text, "\"idle_items\":%u,\"partial\":%s}",
                              ids.idle_items, ids.partial ? "true" : "false");
    }
  g_string_append_c (text, ']');
}

/* Writes the dispatch, one record per work-group in launch order
 * ("groups"), and the per-pixel IDs as columns ("pixels"); a pixel's
 * launch_index names its group.  Groups and pixels are written as text
 * directly: a JSON tree of millions of numbers would need gigabytes for a
 * large photo.
 */
gboolean
tl_overlay_map_save_json (const TlOverlayMap *map,
                          const gchar        *path,
                          GError            **error)
{
  g_autoptr(JsonNode) header = NULL;
  g_autofree gchar   *start  = NULL;
  g_autoptr(GString)  text   = NULL;
  g_autoptr(GError)   local  = NULL;

  g_return_val_if_fail (map != NULL && path != NULL, FALSE);

  header = tl_overlay_json_header (map);
  start  = json_to_string (header, FALSE);
  text   = g_string_sized_new ((gsize) map->plan.width * map->plan.height * 16);

  /* The header object, reopened for one more member. */
  g_string_append_len (text, start, strlen (start) - 1);
  tl_overlay_json_groups (text, map);
  g_string_append (text, ",\"pixels\":{\"layout\":\"row-major, one number "
                   "per pixel\"");
  tl_overlay_json_column (text, map, "launch_index", 0, 0, G_MAXUINT32);
  tl_overlay_json_column (text, map, "local_x", 1, 0, 0xFFFF);
  tl_overlay_json_column (text, map, "local_y", 1, 16, 0xFFFF);
  tl_overlay_json_column (text, map, "simd_group", 2, 0, 0xFFFF);
  tl_overlay_json_column (text, map, "lane", 2, 16, 0xFFFF);
  g_string_append (text, "}}\n");

  if (! g_file_set_contents (path, text->str, text->len, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("writing the thread map to %s: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}
