/* ThreadLens tests: the dispatch planner (pure arithmetic, no OpenCL).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-error.h"
#include "tl-plan.h"

static TlLimits
limits_for (guint p,
            guint m)
{
  TlLimits limits;

  memset (&limits, 0, sizeof (limits));
  limits.simd_width       = p;
  limits.max_group_size   = m;
  limits.max_item_size[0] = 4096;
  limits.max_item_size[1] = 4096;
  return limits;
}

static TlPlan
plan_for (const TlLimits *limits,
          TlShapeKind     kind,
          guint           w,
          guint           h,
          TlMode          mode,
          guint           swizzle,
          guint           k,
          guint           width,
          guint           height)
{
  g_autoptr(GError) error = NULL;
  TlChoice          choice;
  TlPlan            plan;

  tl_choice_init (&choice);
  choice.shape_kind      = kind;
  choice.shape[0]        = w;
  choice.shape[1]        = h;
  choice.mode            = mode;
  choice.swizzle         = swizzle;
  choice.pixels_per_item = k;
  g_assert_true (tl_plan_compute (limits, &choice, width, height, &plan, &error));
  g_assert_no_error (error);
  return plan;
}

/* Seed 000: 1024x768 with P = 32, M = 512. */
static void
test_seed_1024x768 (void)
{
  TlLimits limits = limits_for (32, 512);
  TlPlan   plan   = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM,
                              0, 1, 1024, 768);

  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 16);
  g_assert_cmpuint (plan.groups[0], ==, 32);
  g_assert_cmpuint (plan.groups[1], ==, 48);
  g_assert_cmpuint (plan.group_count, ==, 1536);
  g_assert_cmpuint (plan.threads, ==, 786432);
  g_assert_cmpuint (plan.idle_threads, ==, 0);
  g_assert_cmpuint (plan.n_launches, ==, 1);
}

/* Seed 000: 1920x1080, uniform pads 15,360 threads, non-uniform none. */
static void
test_seed_1920x1080 (void)
{
  TlLimits limits = limits_for (32, 512);
  TlPlan   uniform, emulated, native;

  uniform = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 1,
                      1920, 1080);
  g_assert_cmpuint (uniform.groups[0], ==, 60);
  g_assert_cmpuint (uniform.groups[1], ==, 68);
  g_assert_cmpuint (uniform.idle_threads, ==, 15360);
  g_assert_cmpuint (uniform.threads, ==, 1920 * 1088);
  g_assert_cmpuint (uniform.launches[0].global[1], ==, 1088);

  /* No native support: non-uniform is emulated, and says so. */
  emulated = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_NON_UNIFORM, 0,
                       1, 1920, 1080);
  g_assert_true (emulated.emulated);
  g_assert_cmpuint (emulated.groups[0], ==, 60);
  g_assert_cmpuint (emulated.groups[1], ==, 68);
  g_assert_cmpuint (emulated.idle_threads, ==, 0);
  g_assert_cmpuint (emulated.threads, ==, 1920 * 1080);
  g_assert_cmpuint (emulated.n_launches, ==, 2);   /* body + bottom strip */
  g_assert_cmpuint (emulated.launches[1].offset[1], ==, 1072);
  g_assert_cmpuint (emulated.launches[1].local[1], ==, 8);
  g_assert_cmpuint (emulated.launches[1].group_base[1], ==, 67);

  limits.native_non_uniform = TRUE;
  native = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_NON_UNIFORM, 0, 1,
                     1920, 1080);
  g_assert_false (native.emulated);
  g_assert_cmpuint (native.n_launches, ==, 1);
  g_assert_cmpuint (native.launches[0].global[0], ==, 1920);
  g_assert_cmpuint (native.launches[0].global[1], ==, 1080);
  g_assert_cmpuint (native.idle_threads, ==, 0);

  /* Forced emulation ignores native support. */
  native = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_EMULATED, 0, 1,
                     1920, 1080);
  g_assert_true (native.emulated);
  g_assert_cmpuint (native.n_launches, ==, 2);
}

/* Seed 002: the 80x70 image, 32x32 groups on A14 and 32x16 on A9. */
static void
test_seed_80x70 (void)
{
  TlLimits a14 = limits_for (32, 1024);
  TlLimits a9  = limits_for (32, 512);
  TlPlan   plan;

  plan = plan_for (&a14, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 1, 80, 70);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 32);
  g_assert_cmpuint (plan.groups[0], ==, 3);
  g_assert_cmpuint (plan.groups[1], ==, 3);

  plan = plan_for (&a9, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 1, 80, 70);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 16);
  g_assert_cmpuint (plan.groups[0], ==, 3);
  g_assert_cmpuint (plan.groups[1], ==, 5);

  /* The emulated 80x70 split: body, right strip, bottom strip, corner. */
  plan = plan_for (&a9, TL_SHAPE_SEED, 0, 0, TL_MODE_EMULATED, 0, 1, 80, 70);
  g_assert_cmpuint (plan.n_launches, ==, 4);
  g_assert_cmpuint (plan.launches[3].offset[0], ==, 64);
  g_assert_cmpuint (plan.launches[3].offset[1], ==, 64);
  g_assert_cmpuint (plan.launches[3].local[0], ==, 16);
  g_assert_cmpuint (plan.launches[3].local[1], ==, 6);
  g_assert_cmpuint (plan.launches[3].group_base[0], ==, 2);
  g_assert_cmpuint (plan.launches[3].group_base[1], ==, 4);
}

/* NVIDIA's H100 gives M = 256 for a simple kernel: the seed rule is 32x8;
 * PoCL gives P = 8, M = 4096: 8x512.
 */
static void
test_seed_devices (void)
{
  TlLimits h100 = limits_for (32, 256);
  TlLimits pocl = limits_for (8, 4096);
  TlPlan   plan;

  plan = plan_for (&h100, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 8);
  g_assert_cmpstr (plan.shape_rule, ==, "seed rule w = P, h = M / P");

  plan = plan_for (&pocl, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 8);
  g_assert_cmpuint (plan.local[1], ==, 512);
}

/* Untuned "auto" follows the device's kind and numbers, and the plan
 * names the rule: GPUs w = P, h = 128 / P; CPUs w = P, h = 4; squarer,
 * taller groups for a kernel that loads a block.
 */
static void
test_auto_rule (void)
{
  TlLimits h100  = limits_for (32, 256);
  TlLimits amd   = limits_for (64, 256);
  TlLimits small = limits_for (32, 64);
  TlLimits pocl  = limits_for (8, 4096);
  TlLimits tiny  = limits_for (16, 64);
  TlPlan   plan;

  plan = plan_for (&h100, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 4);
  g_assert_false (plan.tuned);
  g_assert_cmpstr (plan.shape_rule, ==,
                   "auto, not tuned: GPU rule w = P, h = 128 / P");

  plan = plan_for (&amd, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 64);
  g_assert_cmpuint (plan.local[1], ==, 2);

  /* Under M: the rule gives up height, never exceeds the kernel. */
  plan = plan_for (&small, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 2);

  pocl.device_kind = TL_DEVICE_KIND_CPU;
  plan = plan_for (&pocl, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 4, 3840, 2160);
  g_assert_cmpuint (plan.local[0], ==, 8);
  g_assert_cmpuint (plan.local[1], ==, 4);
  g_assert_cmpuint (plan.pixels_per_item, ==, 4);
  g_assert_cmpstr (plan.shape_rule, ==,
                   "auto, not tuned: CPU rule w = P, h = 4");

  /* A CPU whose kernel allows fewer items than the rule: w = P, h = 2. */
  tiny.device_kind = TL_DEVICE_KIND_CPU;
  tiny.max_group_size = 32;
  plan = plan_for (&tiny, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 100, 100);
  g_assert_cmpuint (plan.local[0], ==, 16);
  g_assert_cmpuint (plan.local[1], ==, 2);

  /* A device limit in x below the rule's width: cut, not an error. */
  tiny.max_item_size[0] = 8;
  plan = plan_for (&tiny, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 100, 100);
  g_assert_cmpuint (plan.local[0], ==, 8);

  /* A kernel that loads a block with a halo (the fused blurs): a square
   * of 256 items on a GPU, 128 rows on a CPU, each under M.
   */
  h100.reads_block = TRUE;
  plan = plan_for (&h100, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 4096, 4096);
  g_assert_cmpuint (plan.local[0], ==, 16);
  g_assert_cmpuint (plan.local[1], ==, 16);
  g_assert_cmpstr (plan.shape_rule, ==,
                   "auto, not tuned: GPU rule for a block, a square of 256 items");

  small.reads_block = TRUE;
  plan = plan_for (&small, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 512, 512);
  g_assert_cmpuint (plan.local[0], ==, 8);
  g_assert_cmpuint (plan.local[1], ==, 8);

  pocl.reads_block = TRUE;
  plan = plan_for (&pocl, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 4, 3840, 2160);
  g_assert_cmpuint (plan.local[0], ==, 8);
  g_assert_cmpuint (plan.local[1], ==, 128);
  g_assert_cmpstr (plan.shape_rule, ==,
                   "auto, not tuned: CPU rule for a block w = P, h = 128");

  /* The same block in float storage: as many items, twice as wide. */
  pocl.float_storage = TRUE;
  plan = plan_for (&pocl, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 4, 3840, 2160);
  g_assert_cmpuint (plan.local[0], ==, 16);
  g_assert_cmpuint (plan.local[1], ==, 64);
  g_assert_cmpstr (plan.shape_rule, ==,
                   "auto, not tuned: CPU rule for a float block w = 2 P, h = 64");
  /* A point filter's rule does not depend on the storage. */
  pocl.reads_block = FALSE;
  plan = plan_for (&pocl, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 2, 3840, 2160);
  g_assert_cmpuint (plan.local[0], ==, 8);
  g_assert_cmpuint (plan.local[1], ==, 4);
  pocl.float_storage = FALSE;

  tiny.reads_block = TRUE;
  tiny.max_item_size[0] = 4096;
  plan = plan_for (&tiny, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 100, 100);
  g_assert_cmpuint (plan.local[0], ==, 16);
  g_assert_cmpuint (plan.local[1], ==, 2);

  /* In float, 2 P = 32 takes all of M = 32: one row. */
  tiny.float_storage = TRUE;
  plan = plan_for (&tiny, TL_SHAPE_AUTO, 0, 0, TL_MODE_UNIFORM, 0, 1, 100, 100);
  g_assert_cmpuint (plan.local[0], ==, 32);
  g_assert_cmpuint (plan.local[1], ==, 1);
}

static void
test_pixels_per_item (void)
{
  TlLimits limits = limits_for (32, 512);
  TlPlan   plan;

  /* 1920 / 4 = 480 work-items wide: 15 groups of 32. */
  plan = plan_for (&limits, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0, 4, 1920, 1080);
  g_assert_cmpuint (plan.items[0], ==, 480);
  g_assert_cmpuint (plan.groups[0], ==, 15);
  g_assert_cmpuint (plan.groups[1], ==, 68);
  g_assert_cmpuint (plan.idle_threads, ==, 480 * 1088 - 480 * 1080);
  g_assert_cmpuint (plan.pixels, ==, 1920 * 1080);

  /* 601 / 3 rounds up to 201 items; the last one has a single pixel. */
  plan = plan_for (&limits, TL_SHAPE_CUSTOM, 7, 5, TL_MODE_EMULATED, 0, 3, 601, 400);
  g_assert_cmpuint (plan.items[0], ==, 201);
  g_assert_cmpuint (plan.threads, ==, 201 * 400);
}

static void
test_limits_are_errors (void)
{
  TlLimits          limits = limits_for (32, 256);
  g_autoptr(GError) error  = NULL;
  TlChoice          choice;
  TlPlan            plan;

  tl_choice_init (&choice);
  choice.shape_kind = TL_SHAPE_CUSTOM;
  choice.shape[0]   = 32;
  choice.shape[1]   = 32;
  g_assert_false (tl_plan_compute (&limits, &choice, 512, 512, &plan, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "1024 work-items"));
  g_assert_nonnull (strstr (error->message, "M = 256"));
  g_clear_error (&error);

  /* A side over the device's per-dimension limit, within M. */
  limits.max_item_size[1] = 64;
  choice.shape[0] = 1;
  choice.shape[1] = 128;
  g_assert_false (tl_plan_compute (&limits, &choice, 512, 512, &plan, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "limit of 64 work-items in y"));
  g_clear_error (&error);

  /* Local memory. */
  limits = limits_for (32, 256);
  limits.local_mem_size     = 16384;
  limits.local_mem_per_item = 128;
  choice.shape[0] = 16;
  choice.shape[1] = 16;
  g_assert_false (tl_plan_compute (&limits, &choice, 512, 512, &plan, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_LIMIT);
  g_assert_nonnull (strstr (error->message, "CL_DEVICE_LOCAL_MEM_SIZE"));
  g_clear_error (&error);

  /* Empty region, zero pixels per item. */
  limits = limits_for (32, 256);
  g_assert_false (tl_plan_compute (&limits, &choice, 0, 10, &plan, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  choice.pixels_per_item = 0;
  g_assert_false (tl_plan_compute (&limits, &choice, 10, 10, &plan, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
}

static void
test_shape_syntax (void)
{
  const gchar *bad[] = { "", "x", "32", "32x", "x8", "32x8x1", "-1x8",
                         "32*8", "32x 8", "a", "0x8", "8x0", "70000x1" };
  g_autoptr(GError) error = NULL;
  TlChoice          choice;
  TlMode            mode;
  guint             i;

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("7x5", &choice, &error));
  g_assert_cmpint (choice.shape_kind, ==, TL_SHAPE_CUSTOM);
  g_assert_cmpuint (choice.shape[0], ==, 7);
  g_assert_cmpuint (choice.shape[1], ==, 5);
  g_assert_true (tl_shape_from_string ("seed", &choice, &error));
  g_assert_cmpint (choice.shape_kind, ==, TL_SHAPE_SEED);
  g_assert_true (tl_shape_from_string ("auto", &choice, &error));
  g_assert_cmpint (choice.shape_kind, ==, TL_SHAPE_AUTO);

  for (i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_assert_false (tl_shape_from_string (bad[i], &choice, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
    }

  g_assert_true (tl_mode_from_string ("non-uniform", &mode, &error));
  g_assert_cmpint (mode, ==, TL_MODE_NON_UNIFORM);
  g_assert_false (tl_mode_from_string ("nonuniform", &mode, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "nonuniform"));
}

/* The swizzle is a bijection on the grid for every size and N, including
 * grids narrower than one tile.
 */
static void
test_swizzle_bijection (void)
{
  const guint tiles[] = { 1, 2, 3, 4, 5, 7, 8, 16, 32 };
  guint       gx_n, gy_n, t;

  for (gx_n = 1; gx_n <= 40; gx_n += (gx_n < 10 ? 1 : 7))
    for (gy_n = 1; gy_n <= 33; gy_n += (gy_n < 6 ? 1 : 9))
      for (t = 0; t < G_N_ELEMENTS (tiles); t++)
        {
          g_autofree guint8 *seen = g_new0 (guint8, gx_n * gy_n);
          guint              gx, gy;

          for (gy = 0; gy < gy_n; gy++)
            for (gx = 0; gx < gx_n; gx++)
              {
                guint sx, sy;

                tl_plan_swizzle (gx_n, gy_n, tiles[t], gx, gy, &sx, &sy);
                g_assert_cmpuint (sx, <, gx_n);
                g_assert_cmpuint (sy, <, gy_n);
                g_assert_cmpuint (seen[sy * gx_n + sx], ==, 0);
                seen[sy * gx_n + sx] = 1;
              }
        }
}

/* Seed 004's picture: with N = 2 on a 3x2 grid, groups walk a 2-wide tile
 * column by rows, then the 1-wide last tile.
 */
static void
test_swizzle_order (void)
{
  const guint expect[6][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 },
                               { 1, 1 }, { 2, 0 }, { 2, 1 } };
  guint       i;

  for (i = 0; i < 6; i++)
    {
      guint sx, sy;

      tl_plan_swizzle (3, 2, 2, i % 3, i / 3, &sx, &sy);
      g_assert_cmpuint (sx, ==, expect[i][0]);
      g_assert_cmpuint (sy, ==, expect[i][1]);
    }
}

/* Replays the kernels' index mapping (kernels/tl-index.h) over a plan's
 * launches and counts how often each pixel is computed.
 */
static void
check_coverage (const TlPlan *plan)
{
  g_autofree guint8 *count = g_new0 (guint8, (gsize) plan->width * plan->height);
  guint64            outside = 0, launched = 0;
  guint              l;
  gsize              i;

  for (l = 0; l < plan->n_launches; l++)
    {
      const TlLaunch *launch = &plan->launches[l];
      guint           ngx = (launch->global[0] + launch->local[0] - 1) / launch->local[0];
      guint           ngy = (launch->global[1] + launch->local[1] - 1) / launch->local[1];
      guint           bx, by, lx, ly, j;

      /* Only a native non-uniform launch may end in partial groups. */
      if (plan->emulated || plan->mode == TL_MODE_UNIFORM)
        {
          g_assert_cmpuint (launch->global[0] % launch->local[0], ==, 0);
          g_assert_cmpuint (launch->global[1] % launch->local[1], ==, 0);
        }

      for (by = 0; by < ngy; by++)
        for (bx = 0; bx < ngx; bx++)
          {
            guint gx = bx + launch->group_base[0];
            guint gy = by + launch->group_base[1];
            guint size_x = MIN (launch->local[0], launch->global[0] - bx * launch->local[0]);
            guint size_y = MIN (launch->local[1], launch->global[1] - by * launch->local[1]);

            if (gx < plan->swizzle_grid[0] && gy < plan->swizzle_grid[1])
              tl_plan_swizzle (plan->swizzle_grid[0], plan->swizzle_grid[1],
                               plan->swizzle, gx, gy, &gx, &gy);

            for (ly = 0; ly < size_y; ly++)
              for (lx = 0; lx < size_x; lx++)
                {
                  guint ix = gx * plan->local[0] + lx;
                  guint y  = gy * plan->local[1] + ly;

                  launched++;
                  if (ix >= plan->items[0] || y >= plan->height)
                    {
                      outside++;
                      continue;
                    }
                  for (j = 0; j < plan->pixels_per_item; j++)
                    {
                      guint x = ix * plan->pixels_per_item + j;

                      if (x < plan->width)
                        count[(gsize) y * plan->width + x]++;
                    }
                }
          }
    }

  g_assert_cmpuint (launched, ==, plan->threads);
  g_assert_cmpuint (outside, ==, plan->idle_threads);
  for (i = 0; i < (gsize) plan->width * plan->height; i++)
    if (count[i] != 1)
      g_error ("pixel %zu,%zu computed %u times (%ux%u, local %ux%u, %s, "
               "swizzle %u, k %u)", i % plan->width, i / plan->width,
               count[i], plan->width, plan->height, plan->local[0],
               plan->local[1], tl_mode_to_string (plan->mode), plan->swizzle,
               plan->pixels_per_item);
}

static void
test_coverage_sweep (void)
{
  const guint sizes[][2]  = { { 1, 1 }, { 1, 13 }, { 13, 1 }, { 7, 5 },
                              { 31, 17 }, { 64, 64 }, { 97, 89 }, { 80, 70 },
                              { 600, 400 }, { 127, 3 } };
  const guint shapes[][2] = { { 1, 1 }, { 1, 16 }, { 16, 1 }, { 7, 5 },
                              { 3, 11 }, { 8, 8 }, { 32, 8 }, { 13, 17 },
                              { 128, 2 }, { 200, 1 } };
  const TlMode modes[]    = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM, TL_MODE_EMULATED };
  const guint swizzles[]  = { 0, 1, 3, 8 };
  const guint ks[]        = { 1, 2, 5 };
  TlLimits    limits      = limits_for (8, 4096);
  guint       s, h, m, n, k;

  for (s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (h = 0; h < G_N_ELEMENTS (shapes); h++)
      for (m = 0; m < G_N_ELEMENTS (modes); m++)
        for (n = 0; n < G_N_ELEMENTS (swizzles); n++)
          for (k = 0; k < G_N_ELEMENTS (ks); k++)
            {
              TlPlan plan;

              limits.native_non_uniform = (s + h) % 2;
              plan = plan_for (&limits, TL_SHAPE_CUSTOM, shapes[h][0],
                               shapes[h][1], modes[m], swizzles[n], ks[k],
                               sizes[s][0], sizes[s][1]);
              if (modes[m] != TL_MODE_UNIFORM)
                g_assert_cmpuint (plan.idle_threads, ==, 0);
              if (modes[m] == TL_MODE_EMULATED)
                g_assert_cmpuint (plan.n_launches, <=, 4);
              check_coverage (&plan);
            }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plan/seed/1024x768", test_seed_1024x768);
  g_test_add_func ("/plan/seed/1920x1080", test_seed_1920x1080);
  g_test_add_func ("/plan/seed/80x70", test_seed_80x70);
  g_test_add_func ("/plan/seed/devices", test_seed_devices);
  g_test_add_func ("/plan/auto-rule", test_auto_rule);
  g_test_add_func ("/plan/pixels-per-item", test_pixels_per_item);
  g_test_add_func ("/plan/limits", test_limits_are_errors);
  g_test_add_func ("/plan/shape-syntax", test_shape_syntax);
  g_test_add_func ("/plan/swizzle/bijection", test_swizzle_bijection);
  g_test_add_func ("/plan/swizzle/order", test_swizzle_order);
  g_test_add_func ("/plan/coverage", test_coverage_sweep);

  return g_test_run ();
}
