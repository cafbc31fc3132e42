/* ThreadLens: the dispatch planner.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-plan.h"

static const gchar *const tl_mode_names[] =
{
  [TL_MODE_UNIFORM]     = "uniform",
  [TL_MODE_NON_UNIFORM] = "non-uniform",
  [TL_MODE_EMULATED]    = "emulated"
};

#define TL_PLAN_GPU_ITEMS       128  /* items per group of the GPU rule */
#define TL_PLAN_CPU_ROWS          4  /* rows of the CPU rule */
#define TL_PLAN_GPU_BLOCK_ITEMS 256  /* the same for a kernel that loads a */
#define TL_PLAN_CPU_BLOCK_ROWS  128  /* block with a halo */
#define TL_PLAN_CPU_FLOAT_BLOCK_ROWS 64  /* ... in float storage, 2 P wide */

static guint
tl_plan_div_up (guint a,
                guint b)
{
  return a / b + (a % b != 0);
}

void
tl_choice_init (TlChoice *choice)
{
  g_return_if_fail (choice != NULL);

  memset (choice, 0, sizeof (*choice));
  choice->shape_kind      = TL_SHAPE_AUTO;
  choice->mode            = TL_MODE_UNIFORM;
  choice->swizzle         = 0;
  choice->pixels_per_item = 1;
}

const gchar *
tl_mode_to_string (TlMode mode)
{
  g_return_val_if_fail (mode <= TL_MODE_EMULATED, NULL);

  return tl_mode_names[mode];
}

gboolean
tl_mode_from_string (const gchar *text,
                     TlMode      *mode,
                     GError     **error)
{
  guint i;

  g_return_val_if_fail (text != NULL && mode != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (tl_mode_names); i++)
    if (g_ascii_strcasecmp (text, tl_mode_names[i]) == 0)
      {
        *mode = i;
        return TRUE;
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown dispatch mode '%s' (expected uniform, non-uniform "
                 "or emulated)"), text);
  return FALSE;
}

/* Accepts "auto", "seed" or "WxH" with both sides positive integers. */
gboolean
tl_shape_from_string (const gchar *text,
                      TlChoice    *choice,
                      GError     **error)
{
  guint64  w, h;
  gchar   *end;

  g_return_val_if_fail (text != NULL && choice != NULL, FALSE);

  if (g_ascii_strcasecmp (text, "auto") == 0)
    {
      choice->shape_kind = TL_SHAPE_AUTO;
      return TRUE;
    }
  if (g_ascii_strcasecmp (text, "seed") == 0)
    {
      choice->shape_kind = TL_SHAPE_SEED;
      return TRUE;
    }
  if (g_ascii_strcasecmp (text, "driver") == 0)
    {
      choice->shape_kind = TL_SHAPE_DRIVER;
      return TRUE;
    }

  if (! g_ascii_isdigit (text[0]))
    goto bad;
  w = g_ascii_strtoull (text, &end, 10);
  if (*end != 'x' && *end != 'X')
    goto bad;
  if (! g_ascii_isdigit (end[1]))
    goto bad;
  h = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '\0')
    goto bad;
  if (w == 0 || h == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("work-group shape '%s' is empty: both sides must be at "
                     "least 1"), text);
      return FALSE;
    }
  if (w > G_MAXUINT16 || h > G_MAXUINT16)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group shape '%s' is larger than any OpenCL device "
                     "allows (at most 65535 on a side)"), text);
      return FALSE;
    }

  choice->shape_kind = TL_SHAPE_CUSTOM;
  choice->shape[0]   = w;
  choice->shape[1]   = h;
  return TRUE;

 bad:
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("bad work-group shape '%s' (expected auto, seed, driver or "
                 "WxH, e.g. 32x8)"), text);
  return FALSE;
}

/* Seed 004's thread-group ID swizzle, with the last partial tile handled as
 * in the corrected version: tiles are N groups wide and the full grid
 * high; groups are numbered row-major and walk each tile row by row.
 */
void
tl_plan_swizzle (guint  grid_x,
                 guint  grid_y,
                 guint  tile_width,
                 guint  gx,
                 guint  gy,
                 guint *out_gx,
                 guint *out_gy)
{
  guint64 flat, per_tile, tile, local, width, swizzled;

  g_return_if_fail (out_gx != NULL && out_gy != NULL);

  if (tile_width == 0 || gx >= grid_x || gy >= grid_y)
    {
      *out_gx = gx;
      *out_gy = gy;
      return;
    }

  flat     = (guint64) grid_x * gy + gx;
  per_tile = (guint64) tile_width * grid_y;
  tile     = flat / per_tile;
  local    = flat % per_tile;

  if (tile < grid_x / tile_width)
    width = tile_width;
  else
    width = MAX (1, grid_x % tile_width);

  swizzled = tile * tile_width + (local / width) * grid_x + local % width;

  *out_gx = swizzled % grid_x;
  *out_gy = swizzled / grid_x;
}

/* "auto" before any search: a shape from the device's own numbers,
 * chosen by sweeps on an H100 and on PoCL (README).  A GPU wants groups
 * of a few SIMD groups, so that several groups share a compute unit and
 * the last wave is short: w = P, h = 128 / P (32x4 where P is 32).  A
 * CPU runs a group as a loop on one core, vectorised along x: four rows
 * of P items (8x4 where P is 8), one vector wide, keep the rows a
 * neighbourhood filter reads in the core's cache (one-row groups were 1.5
 * times slower for the blurs on PoCL, and 8x4 was the fastest shape of
 * every float point filter's sweep there) and leave many groups for
 * every core.
 *
 * A kernel that loads its group's block with a halo pays for the halo
 * once per group, so it wants bigger, squarer groups: on a GPU a square
 * of 256 items (16x16: the fused blurs ran 1.1-1.6 times faster than at
 * 32x4 on the H100), on a CPU w = P, h = 128 (8x128 was the fastest
 * shape of every 8-bit blur's sweep on PoCL; 8x4 took up to 1.5 times as
 * long).  A float block on a CPU takes the same 1024 items as w = 2 P,
 * h = 64: on PoCL box-blur in float took 1.2 times as long at 8x128
 * as at 16x64, while gaussian-blur and unsharp-mask stayed within 10%
 * of their fastest.  All stay under M and the device's limits.
 */
static void
tl_plan_rule_shape (const TlLimits *limits,
                    guint          *w,
                    guint          *h,
                    const gchar   **rule)
{
  guint p     = MAX (1, limits->simd_width);
  guint items;

  if (limits->device_kind == TL_DEVICE_KIND_CPU)
    {
      gboolean float_block = limits->reads_block && limits->float_storage;
      guint    rows        = float_block         ? TL_PLAN_CPU_FLOAT_BLOCK_ROWS :
                             limits->reads_block ? TL_PLAN_CPU_BLOCK_ROWS :
                                                   TL_PLAN_CPU_ROWS;

      *w    = (guint) MIN ((guint64) p * (float_block ? 2 : 1),
                           limits->max_group_size);
      *h    = MAX (1, MIN (rows, limits->max_group_size / *w));
      *rule = float_block ?
              N_("auto, not tuned: CPU rule for a float block w = 2 P, h = 64") :
              limits->reads_block ?
              N_("auto, not tuned: CPU rule for a block w = P, h = 128") :
              N_("auto, not tuned: CPU rule w = P, h = 4");
    }
  else if (limits->reads_block)
    {
      items = MIN (TL_PLAN_GPU_BLOCK_ITEMS, limits->max_group_size);
      for (*w = 1; (*w * 2) * (*w * 2) <= items; *w *= 2)
        ;
      *h    = MAX (1, items / *w);
      *rule = N_("auto, not tuned: GPU rule for a block, a square of 256 "
                 "items");
    }
  else
    {
      items = MIN (TL_PLAN_GPU_ITEMS, limits->max_group_size);
      *w    = MIN (p, items);
      *h    = MAX (1, items / *w);
      *rule = N_("auto, not tuned: GPU rule w = P, h = 128 / P");
    }
  if (limits->max_item_size[0] && *w > limits->max_item_size[0])
    *w = limits->max_item_size[0];
  if (limits->max_item_size[1] && *h > limits->max_item_size[1])
    *h = limits->max_item_size[1];
}

static gboolean
tl_plan_pick_shape (const TlLimits *limits,
                    const TlChoice *choice,
                    TlPlan         *plan,
                    GError        **error)
{
  guint    w, h;
  guint64  size, local_mem;
  gboolean fits;

  if (choice->shape_kind == TL_SHAPE_CUSTOM)
    {
      w = choice->shape[0];
      h = choice->shape[1];
      /* The rules are the JSON's "shape_rule" values: marked here,
       * translated where they are shown as text.
       */
      plan->shape_rule = N_("custom shape");

      if (w == 0 || h == 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("work-group shape %ux%u is empty: both sides must be "
                         "at least 1"), w, h);
          return FALSE;
        }
    }
  else if (choice->shape_kind == TL_SHAPE_AUTO)
    {
      tl_plan_rule_shape (limits, &w, &h, &plan->shape_rule);
    }
  else
    {
      /* Seed 000: as wide as the SIMD width, as tall as the kernel allows. */
      w = MIN (limits->simd_width, limits->max_group_size);
      h = MAX (1, limits->max_group_size / w);
      plan->shape_rule = N_("seed rule w = P, h = M / P");
      if (limits->max_item_size[1] && h > limits->max_item_size[1])
        {
          h = limits->max_item_size[1];
          plan->shape_rule = N_("seed rule w = P, h = M / P, h cut to the "
                                "device's limit in y");
        }
    }

  size = (guint64) w * h;
  if (size > limits->max_group_size)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group shape %ux%u has %" PRIu64 " work-items, "
                     "over the kernel's maximum work-group size M = %u "
                     "(CL_KERNEL_WORK_GROUP_SIZE)"),
                   w, h, size, limits->max_group_size);
      return FALSE;
    }
  if (limits->max_item_size[0] && w > limits->max_item_size[0])
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group width %u is over the device's limit of %u "
                     "work-items in x (CL_DEVICE_MAX_WORK_ITEM_SIZES)"),
                   w, limits->max_item_size[0]);
      return FALSE;
    }
  if (limits->max_item_size[1] && h > limits->max_item_size[1])
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group height %u is over the device's limit of %u "
                     "work-items in y (CL_DEVICE_MAX_WORK_ITEM_SIZES)"),
                   h, limits->max_item_size[1]);
      return FALSE;
    }
  /* A need past 64 bits (absurd limits) must not wrap to a small one. */
  fits = (g_uint64_checked_mul (&local_mem, size, limits->local_mem_per_item) &&
          g_uint64_checked_add (&local_mem, local_mem, limits->kernel_local_mem));
  if (! fits)
    local_mem = G_MAXUINT64;
  if (limits->local_mem_size && (! fits || local_mem > limits->local_mem_size))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("work-group shape %ux%u needs %" PRIu64 " bytes of "
                     "local memory, over the device's %" PRIu64
                     " (CL_DEVICE_LOCAL_MEM_SIZE)"),
                   w, h, local_mem, limits->local_mem_size);
      return FALSE;
    }

  plan->local[0] = w;
  plan->local[1] = h;
  return TRUE;
}

static void
tl_plan_add_launch (TlPlan *plan,
                    gsize   offset_x,
                    gsize   offset_y,
                    gsize   global_x,
                    gsize   global_y,
                    gsize   local_x,
                    gsize   local_y)
{
  TlLaunch *launch;

  if (global_x == 0 || global_y == 0)
    return;

  g_assert (plan->n_launches < TL_PLAN_MAX_LAUNCHES);
  launch = &plan->launches[plan->n_launches++];

  launch->offset[0]     = offset_x;
  launch->offset[1]     = offset_y;
  launch->global[0]     = global_x;
  launch->global[1]     = global_y;
  launch->local[0]      = local_x;
  launch->local[1]      = local_y;
  launch->group_base[0] = offset_x / plan->local[0];
  launch->group_base[1] = offset_y / plan->local[1];
}

/* The baseline every explicit rule is measured against: an exact grid and
 * a NULL local size, so the driver picks the groups and the kernels index
 * by global ID alone.
 */
static gboolean
tl_plan_driver (const TlChoice *choice,
                guint           width,
                guint           height,
                TlPlan         *plan,
                GError        **error)
{
  TlLaunch *launch = &plan->launches[0];

  if (choice->swizzle)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("the driver's shape cannot be swizzled: the "
                             "work-group size is unknown to ThreadLens"));
      return FALSE;
    }

  plan->width           = width;
  plan->height          = height;
  plan->pixels_per_item = choice->pixels_per_item;
  plan->items[0]        = tl_plan_div_up (width, choice->pixels_per_item);
  plan->items[1]        = height;
  plan->threads         = (guint64) plan->items[0] * plan->items[1];
  plan->pixels          = (guint64) width * height;
  plan->mode            = choice->mode;
  plan->shape_rule      = N_("driver's choice (local size NULL)");
  plan->n_launches      = 1;
  launch->global[0]     = plan->items[0];
  launch->global[1]     = plan->items[1];
  return TRUE;
}

gboolean
tl_plan_compute (const TlLimits *limits,
                 const TlChoice *choice,
                 guint           width,
                 guint           height,
                 TlPlan         *plan,
                 GError        **error)
{
  guint w, h, ix, iy, fx, fy, rx, ry;

  g_return_val_if_fail (limits != NULL && choice != NULL, FALSE);
  g_return_val_if_fail (plan != NULL, FALSE);
  g_return_val_if_fail (limits->simd_width > 0, FALSE);
  g_return_val_if_fail (limits->max_group_size > 0, FALSE);
  g_return_val_if_fail (choice->mode <= TL_MODE_EMULATED, FALSE);

  memset (plan, 0, sizeof (*plan));

  if (width == 0 || height == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("the region %ux%u is empty"), width, height);
      return FALSE;
    }
  if (choice->pixels_per_item == 0)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("pixels per work-item must be at least 1"));
      return FALSE;
    }

  if (choice->shape_kind == TL_SHAPE_DRIVER)
    return tl_plan_driver (choice, width, height, plan, error);

  if (! tl_plan_pick_shape (limits, choice, plan, error))
    return FALSE;

  w  = plan->local[0];
  h  = plan->local[1];
  ix = tl_plan_div_up (width, choice->pixels_per_item);
  iy = height;
  fx = ix / w;
  fy = iy / h;
  rx = ix % w;
  ry = iy % h;

  plan->width           = width;
  plan->height          = height;
  plan->pixels_per_item = choice->pixels_per_item;
  plan->items[0]        = ix;
  plan->items[1]        = iy;
  plan->groups[0]       = tl_plan_div_up (ix, w);
  plan->groups[1]       = tl_plan_div_up (iy, h);
  plan->full_groups[0]  = fx;
  plan->full_groups[1]  = fy;
  plan->group_count     = (guint64) plan->groups[0] * plan->groups[1];
  plan->pixels          = (guint64) width * height;
  plan->mode            = choice->mode;
  plan->swizzle         = choice->swizzle;

  if (choice->mode == TL_MODE_UNIFORM)
    {
      tl_plan_add_launch (plan, 0, 0,
                          (gsize) plan->groups[0] * w,
                          (gsize) plan->groups[1] * h, w, h);
      plan->threads = plan->group_count * w * h;
      /* Every group is full size, so the swizzle may move any of them. */
      plan->swizzle_grid[0] = plan->groups[0];
      plan->swizzle_grid[1] = plan->groups[1];
    }
  else
    {
      if (choice->mode == TL_MODE_NON_UNIFORM && limits->native_non_uniform)
        {
          tl_plan_add_launch (plan, 0, 0, ix, iy, w, h);
        }
      else
        {
          /* Body, right strip, bottom strip, corner (seed 003's F). */
          plan->emulated = TRUE;
          tl_plan_add_launch (plan, 0, 0, (gsize) fx * w, (gsize) fy * h, w, h);
          tl_plan_add_launch (plan, (gsize) fx * w, 0, rx, (gsize) fy * h, rx, h);
          tl_plan_add_launch (plan, 0, (gsize) fy * h, (gsize) fx * w, ry, w, ry);
          tl_plan_add_launch (plan, (gsize) fx * w, (gsize) fy * h, rx, ry, rx, ry);
        }
      plan->threads = (guint64) ix * iy;
      /* Edge groups are smaller: only full groups can trade places. */
      plan->swizzle_grid[0] = fx;
      plan->swizzle_grid[1] = fy;
    }

  plan->idle_threads = plan->threads - (guint64) ix * iy;
  return TRUE;
}

gchar *
tl_plan_describe_mode (const TlPlan *plan)
{
  g_return_val_if_fail (plan != NULL, NULL);

  switch (plan->mode)
    {
    /* The JSON's "mode" values: marked here, translated where they are
     * shown as text.
     */
    case TL_MODE_UNIFORM:
      return g_strdup (N_("uniform"));
    case TL_MODE_NON_UNIFORM:
      return g_strdup (plan->emulated ?
                       N_("non-uniform (emulated: the device has no native "
                          "non-uniform work-groups)") :
                       N_("non-uniform (native)"));
    case TL_MODE_EMULATED:
      return g_strdup (N_("emulated (forced)"));
    }
  g_return_val_if_reached (NULL);
}
