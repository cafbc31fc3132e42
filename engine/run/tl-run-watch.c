/* ThreadLens: a host's watch over a run: progress, an estimate, cancel.
 *
 * Before its kernels run, the job's pass runs once only counting:
 * every launch it would make is tallied in work-groups per kernel, and
 * nothing reaches the device (buffers, arguments and launches pass it
 * by).  The run then knows the work ahead, and, with the rates the
 * launch pacing measures (ms per work-group, tl-run-pace.c), how long it
 * should take.  The pacing's waits are where the host hears of the
 * device, so the watch is called from them: they poll the event instead
 * of blocking on it, so that a piece that runs for seconds (a CPU, a
 * large radius) still shows progress and can be stopped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-fault.h"
#include "tl-run-private.h"

/* The host polls a piece's event this often while it waits, in µs. */
#define TL_RUN_WATCH_POLL_US 1000

/* Counts the pass's launches first, when WATCH (or NULL) is there to be
 * told.  FALSE with ERROR where the pass fails to plan or set up.
 */
gboolean
tl_run_watch_begin (TlRun            *run,
                    const TlRunWatch *watch,
                    GError          **error)
{
  gboolean ok;

  if (watch == NULL || watch->func == NULL)
    return TRUE;

  run->watch  = watch;
  run->totals = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  run->counting = TRUE;
  ok = run->job->pass (run, run->job->pass_data, error);
  run->counting = FALSE;
  run->steps    = 0;
  run->started  = run->done_at = run->watched_at = g_get_monotonic_time ();
  return ok;
}

/* One step of the counting pass: KERNEL under PLAN. */
void
tl_run_watch_count (TlRun        *run,
                    cl_kernel     kernel,
                    const TlPlan *plan)
{
  guint64 *total = g_hash_table_lookup (run->totals, kernel);
  guint    i;

  if (total == NULL)
    {
      total = g_new0 (guint64, 1);
      g_hash_table_insert (run->totals, kernel, total);
    }
  for (i = 0; i < plan->n_launches; i++)
    {
      const TlLaunch *launch = &plan->launches[i];
      gsize           unit_x = MAX (launch->local[0], 1);
      gsize           unit_y = MAX (launch->local[1], 1);

      *total += (guint64) ((launch->global[0] + unit_x - 1) / unit_x) *
                ((launch->global[1] + unit_y - 1) / unit_y);
    }
}

/* A piece of EXPECTED_MS (0: not known yet) went on the queue. */
void
tl_run_watch_launched (TlRun   *run,
                       gdouble  expected_ms)
{
  run->launched_ms += expected_ms;
}

/* The work queued through THROUGH_MS (of launched_ms) has finished. */
void
tl_run_watch_finished (TlRun   *run,
                       gdouble  through_ms)
{
  run->done_ms = MAX (run->done_ms, through_ms);
  run->done_at = g_get_monotonic_time ();
}

/* The pass's expected time on the device, in ms: each kernel's groups at
 * its measured rate, a kernel not timed yet at the others' mean; negative
 * while none is timed (twice: the first timing pays for a first
 * launch).  SETTLED: every kernel with 1% or more of the groups is
 * timed.
 */
static gdouble
tl_run_watch_total_ms (TlRun    *run,
                       gboolean *settled)
{
  GHashTableIter iter;
  gpointer       kernel, total;
  gdouble        known = 0.0, rates = 0.0;
  guint64        unknown = 0, most_unknown = 0, all = 0;
  guint          n_rates = 0;

  g_hash_table_iter_init (&iter, run->totals);
  while (g_hash_table_iter_next (&iter, &kernel, &total))
    {
      const TlRunRate *rate   = g_hash_table_lookup (run->rates, kernel);
      guint64          groups = *(guint64 *) total;

      all += groups;
      if (rate && rate->timed >= TL_RUN_RATE_TIMINGS)
        {
          known += rate->ms_per_more * groups;
          rates += rate->ms_per_more;
          n_rates++;
        }
      else
        {
          unknown     += groups;
          most_unknown = MAX (most_unknown, groups);
        }
    }
  *settled = n_rates > 0 && most_unknown * 100 < all;
  if (n_rates == 0)
    return -1.0;
  return known + unknown * (rates / n_rates);
}

/* A kernel was timed: the estimate changes, and may now say less is
 * done than was told.  A bar never steps back (GIMP's status bar, the
 * command line's percentage): from the next settled estimate on, the
 * rest of the bar stands for the rest of the work as then estimated.
 */
void
tl_run_watch_measured (TlRun *run)
{
  run->rebase = TRUE;
}

static void
tl_run_watch_progress (TlRun      *run,
                       gint64      now,
                       TlProgress *progress)
{
  gboolean settled;
  gdouble  total = tl_run_watch_total_ms (run, &settled);
  /* The device has been at the queued work since the last piece ended. */
  gdouble done  = MIN (run->done_ms + (now - run->done_at) / 1000.0,
                       MAX (run->launched_ms, run->done_ms));

  progress->elapsed_ms = (now - run->started) / 1000.0;
  progress->settled    = settled && ! run->measuring;
  /* Until every kernel that does 1% of the work has a rate, none is
   * told: a cheap decoding kernel's rate says nothing of a radius of
   * 1000 after it, and the mean of the rates known would.
   */
  if (total > 0.0 && progress->settled)
    {
      gdouble ahead;

      if (run->rebase)
        {
          run->rebase        = FALSE;
          run->base_fraction = run->fraction;
          run->base_done_ms  = done;
        }
      ahead = MAX (total - run->base_done_ms, 1e-6);
      progress->fraction     = CLAMP (run->base_fraction +
                                      (1.0 - run->base_fraction) *
                                      (done - run->base_done_ms) / ahead,
                                      run->fraction, 1.0);
      progress->remaining_ms = MAX (total - done, 0.0);
    }
  else
    {
      progress->fraction     = run->fraction;
      progress->remaining_ms = -1.0;
    }
  run->fraction = progress->fraction;
}

static void
tl_run_watch_set_cancelled (TlRun   *run,
                            GError **error)
{
  run->cancelled = TRUE;
  /* TRANSLATORS: %s is a filter's name. */
  g_set_error (error, TL_ERROR, TL_ERROR_CANCELLED, _("%s was cancelled"),
               run->job ? run->job->name : run->program);
}

/* Tells the watch how far the run has got, where TL_RUN_WATCH_MS have
 * passed since it last heard (or at once, NOW).  FALSE with ERROR
 * (TL_ERROR_CANCELLED) where it asks the run to stop.
 */
gboolean
tl_run_watch_check (TlRun     *run,
                    gboolean   now,
                    GError   **error)
{
  TlProgress progress;
  gint64     time;

  if (run->watch == NULL || run->counting)
    return TRUE;
  if (run->cancelled)
    {
      tl_run_watch_set_cancelled (run, error);
      return FALSE;
    }
  time = g_get_monotonic_time ();
  if (! now && time - run->watched_at < TL_RUN_WATCH_MS * 1000)
    return TRUE;
  run->watched_at = time;
  tl_run_watch_progress (run, time, &progress);
  if (! run->watch->func (&progress, run->watch->data))
    {
      tl_run_watch_set_cancelled (run, error);
      return FALSE;
    }
  return TRUE;
}

/* Waits for EVENT, the watch told meanwhile; a run without a watch just
 * blocks.
 */
gboolean
tl_run_watch_wait (TlRun     *run,
                   cl_event   event,
                   GError   **error)
{
  cl_int status;

  if (run->watch == NULL)
    {
      status = TL_CL (clWaitForEvents, 1, &event);
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("waiting for a kernel"));
          return FALSE;
        }
      return TRUE;
    }

  /* Polled, the queue must be on its way to the device. */
  clFlush (tl_context_get_queue (run->context));
  for (;;)
    {
      cl_int state = CL_QUEUED;

      status = TL_CL (clGetEventInfo, event, CL_EVENT_COMMAND_EXECUTION_STATUS,
                      sizeof (state), &state, NULL);
      if (status == CL_SUCCESS && state < 0)
        status = state;
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("waiting for a kernel"));
          return FALSE;
        }
      if (state == CL_COMPLETE)
        return TRUE;
      if (! tl_run_watch_check (run, FALSE, error))
        return FALSE;
      g_usleep (TL_RUN_WATCH_POLL_US);
    }
}

void
tl_run_watch_clear (TlRun *run)
{
  g_clear_pointer (&run->totals, g_hash_table_unref);
  run->watch = NULL;
}
