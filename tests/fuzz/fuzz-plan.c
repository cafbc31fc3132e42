/* ThreadLens fuzz target: the dispatch planner, tl_plan_compute ().
 *
 * The input fills a TlLimits, a TlChoice and a region size.  Beside the
 * planner runs a model of when a plan must be refused (written from
 * tl-plan.h's comments and the OpenCL rules, in 128-bit arithmetic so it
 * cannot wrap), and every plan is checked: it covers the region (exactly,
 * when the grid is exact), its groups are within every limit, the counts
 * add up, and the swizzle permutes the groups it may move.  Any mismatch
 * aborts, which libFuzzer reports with the input that caused it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-error.h"
#include "tl-plan.h"

#define FUZZ_CHECK(cond)                                                     \
  G_STMT_START {                                                             \
    if (G_UNLIKELY (! (cond)))                                               \
      {                                                                      \
        fprintf (stderr, "fuzz-plan: %s:%d: invariant failed: %s\n",          \
                 __FILE__, __LINE__, #cond);                                 \
        abort ();                                                            \
      }                                                                      \
  } G_STMT_END

/* Swizzle grids up to this many groups are checked group by group. */
#define FUZZ_SWIZZLE_CHECK_MAX 4096

typedef unsigned __int128 fuzz_u128;

typedef struct
{
  const guint8 *data;
  gsize         size;
} FuzzInput;

static guint64
fuzz_take (FuzzInput *in,
           guint      bytes)
{
  guint64 value = 0;
  guint   i;

  /* Past the end the input reads as zeros, so short inputs still plan. */
  for (i = 0; i < bytes; i++)
    {
      value <<= 8;
      if (in->size > 0)
        {
          value |= *in->data++;
          in->size--;
        }
    }
  return value;
}

static guint64
fuzz_div_up (guint64 a,
             guint64 b)
{
  return a / b + (a % b != 0);
}

/* When tl_plan_compute () must refuse, from the rules alone.  Also gives
 * the work-group shape it must pick when it accepts.
 */
static gboolean
fuzz_model_accepts (const TlLimits *limits,
                    const TlChoice *choice,
                    guint           width,
                    guint           height,
                    guint          *w_out,
                    guint          *h_out)
{
  guint64 w, h;

  if (width == 0 || height == 0 || choice->pixels_per_item == 0)
    return FALSE;

  if (choice->shape_kind == TL_SHAPE_DRIVER)
    {
      /* The driver's groups are unknown, so nothing can be swizzled. */
      *w_out = *h_out = 0;
      return choice->swizzle == 0;
    }

  if (choice->shape_kind == TL_SHAPE_CUSTOM)
    {
      w = choice->shape[0];
      h = choice->shape[1];
      if (w == 0 || h == 0)
        return FALSE;
    }
  else if (choice->shape_kind == TL_SHAPE_AUTO)
    {
      /* Untuned: GPUs w = P, h = 128 / P; CPUs w = P, h = 4.  A kernel
       * that loads a block: GPUs the squarest power-of-two w with
       * h = 256 / w; CPUs w = P, h = 128, or w = 2 P, h = 64 in float
       * storage.  Under M, then cut to the device's limits on each side.
       */
      if (limits->device_kind == TL_DEVICE_KIND_CPU)
        {
          gboolean float_block = limits->reads_block && limits->float_storage;

          w = MIN ((guint64) limits->simd_width * (float_block ? 2 : 1),
                   limits->max_group_size);
          h = MAX (1, MIN (float_block ? 64 : limits->reads_block ? 128 : 4,
                           limits->max_group_size / w));
        }
      else if (limits->reads_block)
        {
          guint64 items = MIN (256, limits->max_group_size);

          w = 1;
          while (4 * w * w <= items)
            w *= 2;
          h = MAX (1, items / w);
        }
      else
        {
          guint64 items = MIN (128, limits->max_group_size);

          w = MIN (limits->simd_width, items);
          h = MAX (1, items / w);
        }
      if (limits->max_item_size[0] && w > limits->max_item_size[0])
        w = limits->max_item_size[0];
      if (limits->max_item_size[1] && h > limits->max_item_size[1])
        h = limits->max_item_size[1];
    }
  else
    {
      w = MIN (limits->simd_width, limits->max_group_size);
      h = MAX (1, limits->max_group_size / w);
      if (limits->max_item_size[1] && h > limits->max_item_size[1])
        h = limits->max_item_size[1];
    }

  if (w * h > limits->max_group_size)
    return FALSE;
  if (limits->max_item_size[0] && w > limits->max_item_size[0])
    return FALSE;
  if (limits->max_item_size[1] && h > limits->max_item_size[1])
    return FALSE;
  if (limits->local_mem_size &&
      (fuzz_u128) limits->kernel_local_mem +
      (fuzz_u128) (w * h) * limits->local_mem_per_item > limits->local_mem_size)
    return FALSE;

  *w_out = w;
  *h_out = h;
  return TRUE;
}

/* The swizzle must be a permutation of its grid, and leave every group
 * outside the grid where it is.
 */
static void
fuzz_check_swizzle (guint grid_x,
                    guint grid_y,
                    guint tile_width)
{
  g_autofree guint8 *seen = NULL;
  guint64            n = (guint64) grid_x * grid_y;
  guint              gx, gy, out_x, out_y;

  tl_plan_swizzle (grid_x, grid_y, tile_width, grid_x, 0, &out_x, &out_y);
  FUZZ_CHECK (out_x == grid_x && out_y == 0);
  tl_plan_swizzle (grid_x, grid_y, tile_width, 0, grid_y, &out_x, &out_y);
  FUZZ_CHECK (out_x == 0 && out_y == grid_y);

  if (n == 0 || n > FUZZ_SWIZZLE_CHECK_MAX)
    return;

  seen = g_malloc0 (n);
  for (gy = 0; gy < grid_y; gy++)
    for (gx = 0; gx < grid_x; gx++)
      {
        tl_plan_swizzle (grid_x, grid_y, tile_width, gx, gy, &out_x, &out_y);
        FUZZ_CHECK (out_x < grid_x && out_y < grid_y);
        FUZZ_CHECK (! seen[(guint64) out_y * grid_x + out_x]);
        seen[(guint64) out_y * grid_x + out_x] = 1;
      }
}

static void
fuzz_check_plan (const TlLimits *limits,
                 const TlChoice *choice,
                 guint           width,
                 guint           height,
                 guint           w,
                 guint           h,
                 const TlPlan   *plan)
{
  guint64   ix = fuzz_div_up (width, choice->pixels_per_item);
  guint64   iy = height;
  fuzz_u128 area = 0;
  gchar    *mode;
  guint     i, j;

  FUZZ_CHECK (plan->width == width && plan->height == height);
  FUZZ_CHECK (plan->pixels_per_item == choice->pixels_per_item);
  FUZZ_CHECK (plan->items[0] == ix && plan->items[1] == iy);
  FUZZ_CHECK (plan->pixels == (guint64) width * height);
  FUZZ_CHECK (plan->mode == choice->mode);
  FUZZ_CHECK (plan->shape_rule != NULL && plan->shape_rule[0] != '\0');
  FUZZ_CHECK (plan->n_launches >= 1 && plan->n_launches <= TL_PLAN_MAX_LAUNCHES);

  mode = tl_plan_describe_mode (plan);
  FUZZ_CHECK (mode != NULL && mode[0] != '\0');
  g_free (mode);

  if (choice->shape_kind == TL_SHAPE_DRIVER)
    {
      /* One exact launch, local size left to the driver. */
      FUZZ_CHECK (plan->n_launches == 1);
      FUZZ_CHECK (plan->launches[0].global[0] == ix);
      FUZZ_CHECK (plan->launches[0].global[1] == iy);
      FUZZ_CHECK (plan->launches[0].local[0] == 0);
      FUZZ_CHECK (plan->launches[0].local[1] == 0);
      FUZZ_CHECK (plan->threads == ix * iy);
      FUZZ_CHECK (plan->swizzle == 0);
      return;
    }

  /* The group shape: the one the rules give, within every limit. */
  FUZZ_CHECK (plan->local[0] == w && plan->local[1] == h);
  FUZZ_CHECK (w >= 1 && h >= 1);
  FUZZ_CHECK ((guint64) w * h <= limits->max_group_size);
  FUZZ_CHECK (! limits->max_item_size[0] || w <= limits->max_item_size[0]);
  FUZZ_CHECK (! limits->max_item_size[1] || h <= limits->max_item_size[1]);
  FUZZ_CHECK (! limits->local_mem_size ||
              (fuzz_u128) limits->kernel_local_mem +
              (fuzz_u128) ((guint64) w * h) * limits->local_mem_per_item <=
              limits->local_mem_size);

  /* The group grid. */
  FUZZ_CHECK (plan->groups[0] == fuzz_div_up (ix, w));
  FUZZ_CHECK (plan->groups[1] == fuzz_div_up (iy, h));
  FUZZ_CHECK (plan->full_groups[0] == ix / w);
  FUZZ_CHECK (plan->full_groups[1] == iy / h);
  FUZZ_CHECK (plan->group_count == (guint64) plan->groups[0] * plan->groups[1]);
  FUZZ_CHECK (plan->swizzle == choice->swizzle);

  /* Every launch lies in the grid it covers, in whole groups where it
   * must be uniform, and starts on a group boundary.
   */
  for (i = 0; i < plan->n_launches; i++)
    {
      const TlLaunch *launch = &plan->launches[i];

      for (j = 0; j < 2; j++)
        {
          FUZZ_CHECK (launch->global[j] > 0);
          FUZZ_CHECK (launch->local[j] > 0);
          FUZZ_CHECK (launch->local[j] <= plan->local[j]);
          FUZZ_CHECK (launch->offset[j] % plan->local[j] == 0);
          FUZZ_CHECK (launch->group_base[j] == launch->offset[j] / plan->local[j]);
          if (choice->mode == TL_MODE_UNIFORM || plan->emulated)
            FUZZ_CHECK (launch->global[j] % launch->local[j] == 0);
        }
      area += (fuzz_u128) launch->global[0] * launch->global[1];
    }

  if (choice->mode == TL_MODE_UNIFORM)
    {
      /* One rounded-up launch covering the region. */
      FUZZ_CHECK (! plan->emulated);
      FUZZ_CHECK (plan->n_launches == 1);
      FUZZ_CHECK (plan->launches[0].offset[0] == 0);
      FUZZ_CHECK (plan->launches[0].offset[1] == 0);
      FUZZ_CHECK (plan->launches[0].global[0] == (guint64) plan->groups[0] * w);
      FUZZ_CHECK (plan->launches[0].global[1] == (guint64) plan->groups[1] * h);
      FUZZ_CHECK (plan->launches[0].global[0] >= ix);
      FUZZ_CHECK (plan->launches[0].global[1] >= iy);
      FUZZ_CHECK ((fuzz_u128) plan->threads == area);
      FUZZ_CHECK (plan->swizzle_grid[0] == plan->groups[0]);
      FUZZ_CHECK (plan->swizzle_grid[1] == plan->groups[1]);
    }
  else
    {
      /* An exact grid: launches inside the region, pairwise apart, whose
       * areas add up to the region's, so they cover it exactly once.
       */
      FUZZ_CHECK (plan->emulated ==
                  (choice->mode == TL_MODE_EMULATED ||
                   ! limits->native_non_uniform));
      FUZZ_CHECK (area == (fuzz_u128) ix * iy);
      FUZZ_CHECK (plan->threads == ix * iy);
      for (i = 0; i < plan->n_launches; i++)
        {
          const TlLaunch *a = &plan->launches[i];

          FUZZ_CHECK (a->offset[0] + a->global[0] <= ix);
          FUZZ_CHECK (a->offset[1] + a->global[1] <= iy);
          for (j = i + 1; j < plan->n_launches; j++)
            {
              const TlLaunch *b = &plan->launches[j];

              FUZZ_CHECK (a->offset[0] + a->global[0] <= b->offset[0] ||
                          b->offset[0] + b->global[0] <= a->offset[0] ||
                          a->offset[1] + a->global[1] <= b->offset[1] ||
                          b->offset[1] + b->global[1] <= a->offset[1]);
            }
        }
      FUZZ_CHECK (plan->swizzle_grid[0] == plan->full_groups[0]);
      FUZZ_CHECK (plan->swizzle_grid[1] == plan->full_groups[1]);
    }

  FUZZ_CHECK (plan->threads >= ix * iy);
  FUZZ_CHECK (plan->idle_threads == plan->threads - ix * iy);

  if (plan->swizzle)
    fuzz_check_swizzle (plan->swizzle_grid[0], plan->swizzle_grid[1],
                        plan->swizzle);
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean   fatal_set = FALSE;
  FuzzInput         in = { data, size };
  g_autoptr(GError) error = NULL;
  TlLimits          limits;
  TlChoice          choice;
  TlPlan            plan;
  guint             width, height, w = 0, h = 0;
  gboolean          ok, expected;

  /* A failed g_return_if_fail () is a finding too. */
  if (! fatal_set)
    {
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
      fatal_set = TRUE;
    }

  memset (&limits, 0, sizeof (limits));
  limits.simd_width          = fuzz_take (&in, 4);
  limits.max_group_size      = fuzz_take (&in, 4);
  limits.max_item_size[0]    = fuzz_take (&in, 4);
  limits.max_item_size[1]    = fuzz_take (&in, 4);
  limits.local_mem_size      = fuzz_take (&in, 8);
  limits.kernel_local_mem    = fuzz_take (&in, 8);
  limits.local_mem_per_item  = fuzz_take (&in, 8);
  limits.native_non_uniform  = fuzz_take (&in, 1) & 1;

  tl_choice_init (&choice);
  choice.shape_kind      = fuzz_take (&in, 1) % 4;
  choice.shape[0]        = fuzz_take (&in, 4);
  choice.shape[1]        = fuzz_take (&in, 4);
  choice.mode            = fuzz_take (&in, 1) % 3;
  choice.swizzle         = fuzz_take (&in, 4);
  choice.pixels_per_item = fuzz_take (&in, 4);

  /* Regions are GEGL rectangles: at most G_MAXINT on a side. */
  width  = fuzz_take (&in, 4) & G_MAXINT;
  height = fuzz_take (&in, 4) & G_MAXINT;
  /* Last, so the older corpus entries still mean what they meant. */
  limits.device_kind = fuzz_take (&in, 1) & 1 ? TL_DEVICE_KIND_CPU :
                                                TL_DEVICE_KIND_GPU;
  {
    guint64 kernel_bits = fuzz_take (&in, 1);

    limits.reads_block   = kernel_bits & 1;
    limits.float_storage = (kernel_bits >> 1) & 1;
  }

  /* P and M are positive by contract (the planner's preconditions). */
  if (limits.simd_width == 0 || limits.max_group_size == 0)
    return 0;

  ok = tl_plan_compute (&limits, &choice, width, height, &plan, &error);
  expected = fuzz_model_accepts (&limits, &choice, width, height, &w, &h);

  FUZZ_CHECK (ok == expected);
  if (ok)
    {
      FUZZ_CHECK (error == NULL);
      fuzz_check_plan (&limits, &choice, width, height, w, h, &plan);
    }
  else
    {
      FUZZ_CHECK (error != NULL);
      FUZZ_CHECK (error->domain == TL_ERROR);
      FUZZ_CHECK (error->code == TL_ERROR_INVALID_ARGUMENT ||
                  error->code == TL_ERROR_LIMIT);
      FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
    }

  return 0;
}
