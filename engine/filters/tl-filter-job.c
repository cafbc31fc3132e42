/* ThreadLens: a filter as a job that run/ launches.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-filter-job.h"

/* The job's pass: the filter's OpenCL path with its values. */
static gboolean
tl_filter_job_pass (TlRun         *run,
                    gconstpointer  data,
                    GError       **error)
{
  const TlFilterJob *job = data;

  return job->filter->run_cl (run, job->values, error);
}

/* FILTER's kernel program for pixels stored as CODEC says (NULL: float
 * in the working format), built with the kernels it takes for that
 * storage alone: "tone:tl_sepia@u8+trc".
 */
static gchar *
tl_filter_job_program (const TlFilter *filter,
                       const TlCodec  *codec)
{
  const gchar      *variant = codec ? tl_codec_get_variant (codec) : "";
  g_autofree gchar *kernels = NULL;
  g_autofree gchar *tokens  = NULL;

  kernels = g_strjoinv (",", (gchar **) tl_filter_get_kernels (filter, codec));
  if (filter->variant == NULL)
    tokens = g_strdup (variant);
  else if (*variant == '\0')
    tokens = g_strdup (filter->variant);
  else
    tokens = g_strconcat (variant, "+", filter->variant, NULL);
  if (*tokens == '\0')
    return g_strconcat (filter->program, ":", kernels, NULL);
  return g_strconcat (filter->program, ":", kernels, "@", tokens, NULL);
}

/* JOB for FILTER with VALUES (kept, not copied; NULL: a job that is only
 * planned) on pixels stored as CODEC says.  FALSE with ERROR where a
 * value is out of its range.  JOB must not move while it is in use:
 * its pass finds the filter through it.  Clear it with
 * tl_filter_job_clear (), also after a failure.
 */
gboolean
tl_filter_job_init (TlFilterJob     *job,
                    const TlFilter  *filter,
                    const TlValue   *values,
                    const TlCodec   *codec,
                    GError         **error)
{
  gboolean narrow = tl_codec_is_narrow (codec);

  g_return_val_if_fail (job != NULL && filter != NULL, FALSE);

  memset (job, 0, sizeof (*job));
  if (values && ! tl_filter_check_values (filter, values, error))
    return FALSE;

  job->filter  = filter;
  job->values  = values;
  job->program = tl_filter_job_program (filter, codec);

  job->run.name                = filter->name;
  job->run.program             = job->program;
  job->run.kernels             = tl_filter_get_kernels (filter, codec);
  job->run.codec               = codec;
  job->run.reads_block         = filter->reads_block;
  job->run.pixels_per_item     =
    tl_filter_auto_pixels_per_item (filter, narrow, TL_DEVICE_KIND_GPU);
  job->run.cpu_pixels_per_item =
    tl_filter_auto_pixels_per_item (filter, narrow, TL_DEVICE_KIND_CPU);
  job->run.pass                = values ? tl_filter_job_pass : NULL;
  job->run.pass_data           = job;
  return TRUE;
}

void
tl_filter_job_clear (TlFilterJob *job)
{
  g_return_if_fail (job != NULL);

  g_clear_pointer (&job->program, g_free);
  memset (job, 0, sizeof (*job));
}

/* The plan FILTER's kernels would run under (tl_run_plan_job ()). */
gboolean
tl_filter_job_plan (TlContext       *context,
                    const TlFilter  *filter,
                    const TlCodec   *codec,
                    const TlChoice  *choice,
                    guint            width,
                    guint            height,
                    TlLimits        *limits,
                    TlPlan          *plan,
                    GError         **error)
{
  g_auto(TlFilterJob) job = { { NULL, }, };

  return tl_filter_job_init (&job, filter, NULL, codec, error) &&
         tl_run_plan_job (context, &job.run, choice, width, height, limits,
                          plan, error);
}

/* FILTER with VALUES on PIXELS (tl_run_job ()). */
gboolean
tl_filter_job_run (TlContext       *context,
                   const TlFilter  *filter,
                   const TlValue   *values,
                   const TlChoice  *choice,
                   const TlPixels  *pixels,
                   TlPlan          *plan,
                   TlRunTimes      *times,
                   GError         **error)
{
  g_auto(TlFilterJob) job = { { NULL, }, };

  g_return_val_if_fail (values != NULL && pixels != NULL, FALSE);

  return tl_filter_job_init (&job, filter, values, pixels->codec, error) &&
         tl_run_job (context, &job.run, choice, pixels, plan, times, error);
}
