/* ThreadLens: a run's line passes, whose work-items are whole lines or
 * parts of them (the recursive Gaussian, pixelize's sums, the iterative
 * filters' padded steps, median-blur's windows), issued in one row of
 * groups under the plan's mode.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-run-private.h"

/* The width of the groups that LINES lines go in, one row of them
 * (tl_run_enqueue_lines ()): the plan's shape's width, never narrower
 * than P, and the kernel's and device's limits.  A group of one row
 * narrower than the SIMD width leaves lanes idle (the H100's recursive
 * Gaussian at 4096x4096 took 1.27 ms in 16-wide groups, 1.20 in 32-wide
 * ones).  A plan left to the driver gives groups P wide too: a driver may
 * make one row of a few thousand items a single group (one core of a
 * CPU; PoCL's took 40% longer).
 */
static gboolean
tl_run_line_group_width (TlRun     *run,
                         cl_kernel  kernel,
                         TlLimits  *limits,
                         guint     *width,
                         GError   **error)
{
  if (! tl_context_kernel_limits (run->context, kernel, limits, error))
    return FALSE;
  *width = MIN (MAX (run->plan.local[0], limits->simd_width),
                MIN (limits->max_group_size, limits->max_item_size[0]));
  return TRUE;
}

/* KERNEL over ITEMS items in one row of groups WIDTH wide, under the
 * plan's mode.
 */
static gboolean
tl_run_enqueue_row_of_groups (TlRun          *run,
                              cl_kernel       kernel,
                              guint           dispatch_arg,
                              const TlLimits *limits,
                              guint           width,
                              guint           items,
                              GError        **error)
{
  TlChoice choice;
  TlPlan   plan;

  tl_choice_init (&choice);
  choice.mode            = run->plan.mode;
  choice.pixels_per_item = 1;
  choice.shape_kind      = TL_SHAPE_CUSTOM;
  choice.shape[0]        = width;
  choice.shape[1]        = 1;

  return (tl_plan_compute (limits, &choice, items, 1, &plan, error) &&
          tl_run_enqueue_plan (run, kernel, dispatch_arg, &plan, error));
}

/* Issues a pass whose work-items are whole lines (the recursive filters),
 * LINES of them in one row of groups (tl_run_line_group_width ()), under
 * the plan's mode.  An image has only thousands of lines, so groups of
 * the shape's whole size would leave most compute units idle; a swizzle
 * has nothing to permute in one row of groups.  The kernel's dispatch
 * then counts lines, not pixels.
 */
gboolean
tl_run_enqueue_lines (TlRun     *run,
                      cl_kernel  kernel,
                      guint      dispatch_arg,
                      guint      lines,
                      GError   **error)
{
  TlLimits limits;
  guint    width;

  g_return_val_if_fail (run != NULL && kernel != NULL && lines > 0, FALSE);

  return (tl_run_line_group_width (run, kernel, &limits, &width, error) &&
          tl_run_enqueue_row_of_groups (run, kernel, dispatch_arg, &limits,
                                        width, lines, error));
}

/* As tl_run_enqueue_lines (), for a kernel whose items each keep
 * ITEM_BYTES of local memory (median-blur's histograms): the groups are
 * narrowed until their items' share fits beside what the kernel uses,
 * and argument LOCAL_ARG is given it.  A group of one item that does
 * not fit is an error.
 */
gboolean
tl_run_enqueue_lines_local (TlRun     *run,
                            cl_kernel  kernel,
                            guint      dispatch_arg,
                            guint      lines,
                            guint      local_arg,
                            gsize      item_bytes,
                            GError   **error)
{
  const TlDevice *device;
  TlLimits        limits;
  guint64         used;
  guint           width;

  g_return_val_if_fail (run != NULL && kernel != NULL && lines > 0, FALSE);

  if (! tl_run_line_group_width (run, kernel, &limits, &width, error))
    return FALSE;
  device = tl_context_get_device (run->context);
  used   = tl_context_get_kernel_local_mem (run->context, kernel);
  while (width > 1 && used + (guint64) width * item_bytes > device->local_mem_size)
    width /= 2;
  if (used + item_bytes > device->local_mem_size)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("a work-item needs %" PRIu64 " bytes of local memory, "
                     "more than the device's %" PRIu64),
                   (guint64) item_bytes, (guint64) device->local_mem_size);
      return FALSE;
    }
  return (tl_run_set_arg (run, kernel, local_arg, width * item_bytes, NULL,
                          error) &&
          tl_run_enqueue_row_of_groups (run, kernel, dispatch_arg, &limits,
                                        width, lines, error));
}

/* Issues a pass of UNITS groups in one row, each as wide as
 * tl_run_line_group_width () says and at least ITEMS wide where the
 * device allows (rounded up to P): kernels whose group shares a line in
 * local memory, ITEMS the parts of it its items work on at once (the
 * recursive filters' group layout).  The kernel's dispatch counts
 * items, the group's unit being its first item over the group's size.
 */
gboolean
tl_run_enqueue_line_groups (TlRun     *run,
                            cl_kernel  kernel,
                            guint      dispatch_arg,
                            guint      units,
                            guint      items,
                            GError   **error)
{
  TlLimits limits;
  guint    width;

  g_return_val_if_fail (run != NULL && kernel != NULL && units > 0, FALSE);

  if (! tl_run_line_group_width (run, kernel, &limits, &width, error))
    return FALSE;
  /* Within the group size the driver itself names: on the H100 the
   * recursive Gaussian's column pass over 3840x2160 took 0.4 ms in its
   * 256-item groups and 0.7 ms in the 1024 it can run, a quarter of the
   * groups for 132 compute units.
   */
  if (items > width)
    width = MIN ((items + MAX (limits.simd_width, 1) - 1) /
                 MAX (limits.simd_width, 1) * MAX (limits.simd_width, 1),
                 MIN (limits.driver_group_size, limits.max_item_size[0]));
  if (units > G_MAXINT / width)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%u groups of %u work-items are more than one launch "
                     "can count"), units, width);
      return FALSE;
    }
  return tl_run_enqueue_row_of_groups (run, kernel, dispatch_arg, &limits,
                                       width, units * width, error);
}
