/* ThreadLens: launches bounded in time.
 *
 * A display GPU's watchdog kills a kernel that runs for seconds (Windows
 * after 2 s, X on NVIDIA after a few) and the desktop freezes while it
 * runs; a large radius on a large layer gets there in one launch.  So
 * every launch of a plan is cut into pieces of whole rows of work-groups
 * (or parts of a row, where one row would take longer) that each take
 * about half the budget at the rate this run measured for the kernel:
 * the first piece of a kernel is the fewest groups that fill the device
 * (below), waited for and timed, and the second, sized from it, too (a
 * first launch pays for the driver's compile) unless it ends the launch;
 * later pieces are sized
 * from the last one timed.  A piece holds at least 4 groups per compute
 * unit (one on a CPU), so that it fills the device (a group longer than
 * the budget cannot be cut: a radius of 1000 on a CPU).  A piece
 * keeps its place in the group grid (offset and group base), so every
 * work-item computes what it computed in one launch: the pixels do not
 * change.  The queue also holds at most about a budget of work ahead of
 * the host, so that the host hears of the device between pieces: its
 * waits are where a watch hears of the run (tl-run-watch.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-fault.h"
#include "tl-run-private.h"

#define TL_RUN_PACE_DEFAULT_MS 100.0
/* Work-groups a piece holds at least, per compute unit. */
#define TL_RUN_PACE_GROUPS_PER_UNIT 4

/* THREADLENS_LAUNCH_MS=N: the budget of one launch in ms (decimals
 * allowed); 0: unbounded, one launch as the plan has it (a compute card
 * with no display).  100 by default.
 */
static gdouble
tl_run_pace_budget_setting (void)
{
  const gchar *text = g_getenv ("THREADLENS_LAUNCH_MS");
  gchar       *end  = NULL;
  gdouble      ms;

  if (text == NULL || *text == '\0')
    return TL_RUN_PACE_DEFAULT_MS;
  ms = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || ! isfinite (ms) || ms < 0.0)
    {
      g_warning ("THREADLENS_LAUNCH_MS='%s' is not a time in ms; %g ms it is",
                 text, TL_RUN_PACE_DEFAULT_MS);
      return TL_RUN_PACE_DEFAULT_MS;
    }
  return ms;
}

/* THREADLENS_LAUNCH_GROUPS=N, for tests: a piece holds at least N
 * work-groups, whatever the device; 0: unset.
 */
static guint
tl_run_pace_groups_setting (void)
{
  const gchar *text = g_getenv ("THREADLENS_LAUNCH_GROUPS");
  guint64      n    = 0;

  if (text && *text &&
      ! g_ascii_string_to_unsigned (text, 10, 1, G_MAXUINT32, &n, NULL))
    {
      g_warning ("THREADLENS_LAUNCH_GROUPS='%s' is not a number of groups; "
                 "ignored", text);
      n = 0;
    }
  return (guint) n;
}

void
tl_run_pace_init (TlRun *run)
{
  const TlDevice *device = tl_context_get_device (run->context);
  guint           groups = tl_run_pace_groups_setting ();

  run->budget_ms = tl_run_pace_budget_setting ();
  /* A piece fills the device: fewer groups than it runs at once would
   * both waste it and time each group as if it ran alone.  A CPU's cores
   * take a group each: more would only make a slow piece slower to
   * stop.
   */
  run->least_groups = groups ? groups :
                      MAX (device->compute_units, 1) *
                      ((device->type & CL_DEVICE_TYPE_CPU) ?
                       1 : TL_RUN_PACE_GROUPS_PER_UNIT);
  run->rates     = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  run->queued_ms = 0.0;
  run->mark      = NULL;
  run->started   = run->done_at = run->watched_at = g_get_monotonic_time ();
}

/* Every launch so far has finished (its event may go): the next wait
 * is for launches still to come.
 */
void
tl_run_pace_finished (TlRun *run)
{
  run->mark      = NULL;
  run->queued_ms = 0.0;
  tl_run_watch_finished (run, run->launched_ms);
}

void
tl_run_pace_clear (TlRun *run)
{
  g_clear_pointer (&run->rates, g_hash_table_unref);
  run->mark = NULL;
}

/* One piece on the queue: its event kept in the run for timing. */
static gboolean
tl_run_pace_launch (TlRun          *run,
                    cl_kernel       kernel,
                    guint           dispatch_arg,
                    TlDispatch     *dispatch,
                    const TlLaunch *piece,
                    guint           index,
                    guint           n_launches,
                    cl_event       *event,
                    GError        **error)
{
  TlRunLaunch launched = { kernel, run->steps - 1, 0, run->on_plan };
  gsize       unit_x   = piece->local[0] ? piece->local[0] : 1;
  gsize       unit_y   = piece->local[1] ? piece->local[1] : 1;
  guint       across   = (guint) ((piece->global[0] + unit_x - 1) / unit_x);
  guint       down     = (guint) ((piece->global[1] + unit_y - 1) / unit_y);
  cl_int      status;

  dispatch->base_x = piece->group_base[0];
  dispatch->base_y = piece->group_base[1];
  if (! tl_run_set_arg (run, kernel, dispatch_arg, sizeof (*dispatch),
                        dispatch, error))
    return FALSE;

  *event = NULL;
  status = TL_CL (clEnqueueNDRangeKernel, tl_context_get_queue (run->context),
                  kernel, 2, piece->offset, piece->global,
                  piece->local[0] ? piece->local : NULL, 0, NULL, event);
  if (status != CL_SUCCESS)
    {
      g_autofree gchar *what =
        g_strdup_printf (_("launch %u of %u (%zux%zu items in groups "
                           "of %zux%zu at offset %zu,%zu)"),
                         index + 1, n_launches,
                         piece->global[0], piece->global[1],
                         piece->local[0], piece->local[1],
                         piece->offset[0], piece->offset[1]);

      tl_cl_set_error (error, status, what);
      return FALSE;
    }
  launched.groups = (guint64) across * down;
  g_ptr_array_add (run->launches, *event);
  g_array_append_val (run->launched, launched);
  if (run->pieces)
    {
      TlRunPiece kept = { run->steps - 1, index,
                          { piece->group_base[0], piece->group_base[1] },
                          { across, down } };

      g_array_append_val (run->pieces, kept);
    }
  return TRUE;
}

/* Waits for EVENT, a piece of GROUPS work-groups of KERNEL, and keeps
 * its time per group as the kernel's rate.
 */
static gboolean
tl_run_pace_wait (TlRun     *run,
                  cl_event   event,
                  cl_kernel  kernel,
                  guint64    groups,
                  GError   **error)
{
  gdouble    ms;
  TlRunRate *rate;

  if (! tl_run_watch_wait (run, event, error))
    return FALSE;
  /* A rate given is kept: the pieces are another run's. */
  if (run->paced_at > 0.0)
    return TRUE;
  ms   = tl_run_event_ms (event, event);
  rate = g_hash_table_lookup (run->rates, kernel);
  if (rate == NULL)
    {
      rate = g_new0 (TlRunRate, 1);
      g_hash_table_insert (run->rates, kernel, rate);
    }
  /* A device without timings (0 ms, a simulator) cannot be paced: the
   * rest of each launch goes whole.
   */
  rate->ms_per_group = ms > 0.0 ? ms / MAX (groups, 1) : 0.0;
  rate->ms_per_more  = rate->ms_per_group;
  /* Two pieces of different sizes part what a group costs from what a
   * piece does (a few groups on a CPU: its wake-ups weigh).
   */
  if (rate->timed == 1 && groups >= 2 * rate->first_groups &&
      ms > rate->first_ms)
    rate->ms_per_more = (ms - rate->first_ms) / (groups - rate->first_groups);
  rate->first_ms     = ms;
  rate->first_groups = groups;
  rate->timed++;
  return TRUE;
}

void
tl_run_pace_at (TlRun   *run,
                gdouble  ms_per_group)
{
  g_return_if_fail (run != NULL && ms_per_group >= 0.0);

  run->paced_at = ms_per_group;
}

/* KERNEL's rate where it is given, as if its first pieces had been
 * timed.
 */
static const TlRunRate *
tl_run_pace_given (TlRun     *run,
                   cl_kernel  kernel)
{
  TlRunRate *rate = g_new0 (TlRunRate, 1);

  rate->ms_per_group = rate->ms_per_more = run->paced_at;
  rate->timed        = TL_RUN_RATE_TIMINGS;
  g_hash_table_insert (run->rates, kernel, rate);
  return rate;
}

gboolean
tl_run_pace_enqueue (TlRun          *run,
                     cl_kernel       kernel,
                     guint           dispatch_arg,
                     TlDispatch     *dispatch,
                     const TlLaunch *launch,
                     guint           index,
                     guint           n_launches,
                     GError        **error)
{
  gsize unit_x = launch->local[0] ? launch->local[0] : 1;
  gsize unit_y = launch->local[1] ? launch->local[1] : 1;
  guint cols   = (guint) ((launch->global[0] + unit_x - 1) / unit_x);
  guint rows   = (guint) ((launch->global[1] + unit_y - 1) / unit_y);
  guint x = 0, y = 0;

  guint64 least  = run->least_groups;

  if (! tl_run_watch_check (run, FALSE, error))
    return FALSE;
  /* Unbounded, or a launch too small to cut early in a run: whole, and
   * not waited for.  Small launches that go on for longer than a budget
   * (hundreds of iterations) are paced as one piece each.
   */
  if (run->budget_ms <= 0.0 ||
      ((guint64) cols * rows <= least &&
       g_get_monotonic_time () - run->started < run->budget_ms * 1000.0))
    {
      const TlRunRate *rate = g_hash_table_lookup (run->rates, kernel);
      cl_event         event;

      if (! tl_run_pace_launch (run, kernel, dispatch_arg, dispatch, launch,
                                index, n_launches, &event, error))
        return FALSE;
      tl_run_watch_launched (run, rate ? rate->ms_per_group * cols * rows
                                       : 0.0);
      return TRUE;
    }

  /* Pieces in the grid's order: whole rows of groups while a row fits
   * the budget, else parts of one row (a launch that is one row of
   * groups, the lines' passes).
   */
  while (y < rows)
    {
      const TlRunRate *rate  = g_hash_table_lookup (run->rates, kernel);
      TlLaunch         piece = *launch;
      cl_event         event;
      guint64          want, groups;

      if (! tl_run_watch_check (run, FALSE, error))
        return FALSE;
      if (rate == NULL && run->paced_at > 0.0)
        rate = tl_run_pace_given (run, kernel);
      if (rate == NULL)
        want = least;
      else
        want = (guint64) MIN (floor (run->budget_ms * 0.5 /
                                     MAX (rate->ms_per_group, 1e-9)),
                              (gdouble) cols * rows);
      want = MAX (want, least);
      if (x == 0 && want >= cols)
        {
          guint n = (guint) MIN (want / cols, (guint64) (rows - y));

          piece.offset[1]     += y * unit_y;
          piece.global[1]      = MIN (n * unit_y, launch->global[1] - y * unit_y);
          piece.group_base[1] += y;
          groups = (guint64) n * cols;
          y += n;
        }
      else
        {
          guint n = (guint) MIN (want, (guint64) (cols - x));

          piece.offset[0]     += x * unit_x;
          piece.global[0]      = MIN (n * unit_x, launch->global[0] - x * unit_x);
          piece.group_base[0] += x;
          piece.offset[1]     += y * unit_y;
          piece.global[1]      = MIN (unit_y, launch->global[1] - y * unit_y);
          piece.group_base[1] += y;
          groups = n;
          x += n;
          if (x == cols)
            {
              x = 0;
              y++;
            }
        }
      if (! tl_run_pace_launch (run, kernel, dispatch_arg, dispatch, &piece,
                                index, n_launches, &event, error))
        return FALSE;

      /* A second timing is only worth a wait where more of the launch
       * follows: the rest of a launch that fits the budget goes at once
       * (the point filters' tiles, one run each, wait once).
       */
      if (rate == NULL || (rate->timed < TL_RUN_RATE_TIMINGS && y < rows))
        {
          /* The kernel's first pieces: its rate, before any more. */
          run->measuring = TRUE;
          if (! tl_run_pace_wait (run, event, kernel, groups, error))
            return FALSE;
          rate = g_hash_table_lookup (run->rates, kernel);
          run->measuring = rate->timed < TL_RUN_RATE_TIMINGS;
          tl_run_watch_measured (run);
          /* The watch hears of the new rate before more goes on the
           * queue: an estimate may be all it wanted.
           */
          if (! tl_run_watch_check (run, TRUE, error))
            return FALSE;
          tl_run_watch_launched (run, rate->ms_per_group * groups);
          tl_run_watch_finished (run, run->launched_ms);
          run->queued_ms = 0.0;
          run->mark      = NULL;
          continue;
        }
      run->queued_ms += groups * rate->ms_per_group;
      tl_run_watch_launched (run, groups * rate->ms_per_group);
      if (run->queued_ms >= run->budget_ms)
        {
          /* A budget's work since the last mark: wait for that one, so
           * the device keeps this budget queued while the host waits.
           */
          if (run->mark &&
              ! tl_run_pace_wait (run, run->mark, run->mark_kernel,
                                  run->mark_groups, error))
            return FALSE;
          if (run->mark)
            tl_run_watch_finished (run, run->mark_ms);
          run->mark        = event;
          run->mark_kernel = kernel;
          run->mark_groups = groups;
          run->mark_ms     = run->launched_ms;
          run->queued_ms   = 0.0;
        }
    }
  return TRUE;
}
