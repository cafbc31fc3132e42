/* ThreadLens: a filter as a job that run/ launches.
 *
 * run/ takes what it launches as data (TlRunJob, tl-run.h) and knows no
 * filter; this file turns a registry entry, its values and the pixels'
 * storage into that data: the program and kernels the filter takes for
 * the storage, what the planner needs (its pixels per work-item, whether
 * it reads blocks), and its OpenCL path as the job's pass.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_FILTER_JOB_H
#define TL_FILTER_JOB_H

#include "tl-filter.h"
#include "tl-run.h"

G_BEGIN_DECLS

typedef struct
{
  TlRunJob        run;          /* what run/ is given: &job.run */
  const TlFilter *filter;
  const TlValue  *values;       /* kept, not copied; NULL: planned only */
  gchar          *program;
} TlFilterJob;

gboolean tl_filter_job_init  (TlFilterJob     *job,
                              const TlFilter  *filter,
                              const TlValue   *values,
                              const TlCodec   *codec,
                              GError         **error);
void     tl_filter_job_clear (TlFilterJob     *job);

gboolean tl_filter_job_plan  (TlContext       *context,
                              const TlFilter  *filter,
                              const TlCodec   *codec,
                              const TlChoice  *choice,
                              guint            width,
                              guint            height,
                              TlLimits        *limits,
                              TlPlan          *plan,
                              GError         **error);
gboolean tl_filter_job_run   (TlContext       *context,
                              const TlFilter  *filter,
                              const TlValue   *values,
                              const TlChoice  *choice,
                              const TlPixels  *pixels,
                              TlPlan          *plan,
                              TlRunTimes      *times,
                              GError         **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TlFilterJob, tl_filter_job_clear)

G_END_DECLS

#endif /* TL_FILTER_JOB_H */
