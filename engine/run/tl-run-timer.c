/* ThreadLens: a job timed under many choices on one upload, for the
 * tuner's searches (tl-tune.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-fault.h"
#include "tl-run-private.h"

struct _TlRunTimer
{
  TlRun run;
};

/* For searches: PIXELS go to the device once, then any number of choices
 * are timed on them, one pass each, in any order.
 */
TlRunTimer *
tl_run_timer_new (TlContext       *context,
                  const TlRunJob  *job,
                  const TlPixels  *pixels,
                  GError         **error)
{
  TlRunTimer *timer;
  cl_event    upload = NULL;
  cl_int      status = CL_SUCCESS;
  gboolean    ok;

  g_return_val_if_fail (context != NULL && job != NULL, NULL);
  g_return_val_if_fail (pixels != NULL && pixels->in, NULL);
  g_return_val_if_fail (job->pass != NULL && job->codec == pixels->codec,
                        NULL);

  timer = g_new0 (TlRunTimer, 1);
  ok = tl_run_setup (&timer->run, context, job, pixels, &upload, error);
  if (ok && upload)
    status = TL_CL (clWaitForEvents, 1, &upload);
  if (upload)
    clReleaseEvent (upload);
  if (ok && status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("copying the image to the device"));
      ok = FALSE;
    }
  if (! ok)
    {
      tl_run_timer_free (timer);
      return NULL;
    }
  return timer;
}

/* One pass of the job under CHOICE: its kernel time in MS and, when
 * PLAN is given, the plan it ran.  A choice that cannot be planned is an
 * error from the planner (see tl_tune_cannot_plan ()).
 */
gboolean
tl_run_timer_time (TlRunTimer      *timer,
                   const TlChoice  *choice,
                   gdouble         *ms,
                   TlPlan          *plan,
                   GError         **error)
{
  TlLimits limits;

  g_return_val_if_fail (timer != NULL && choice != NULL && ms != NULL, FALSE);

  if (! tl_run_plan_job (timer->run.context, timer->run.job, choice,
                         timer->run.pixels->width, timer->run.pixels->height,
                         &limits, &timer->run.plan, error) ||
      ! tl_run_timed_pass (&timer->run, ms, NULL, error))
    return FALSE;
  if (plan)
    *plan = timer->run.plan;
  return TRUE;
}

void
tl_run_timer_free (TlRunTimer *timer)
{
  if (timer == NULL)
    return;
  if (timer->run.context)
    TL_CL (clFinish, tl_context_get_queue (timer->run.context));
  tl_run_clear (&timer->run);
  g_free (timer);
}
