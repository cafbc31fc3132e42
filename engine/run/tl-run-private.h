/* ThreadLens: a run's insides, shared by tl-run.c (plans, launches,
 * timing), tl-run-pace.c (launches bounded in time), tl-run-watch.c
 * (progress and cancel) and tl-run-bands.c (banded transfers); everyone
 * else goes
 * through tl-run.h.  tl-run-timer.c (the tuner's timings) builds on the
 * same set-up and passes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_RUN_PRIVATE_H
#define TL_RUN_PRIVATE_H

#include "tl-run.h"

G_BEGIN_DECLS

/* What each launch ran: its kernel (not owned) and the job's step,
 * one enqueued plan, that it belongs to.
 */
typedef struct
{
  cl_kernel kernel;
  guint     step;
  guint64   groups;             /* its work-groups */
  gboolean  on_plan;            /* under the run's own plan */
} TlRunLaunch;

/* A kernel's rate in this run (tl-run-pace.c): its first two pieces are
 * timed before more are queued, the first of them paying for what a
 * first launch pays (a CPU driver compiles the kernel for the group's
 * shape then).
 */
typedef struct
{
  gdouble ms_per_group;         /* the last piece's: pieces' sizes */
  gdouble ms_per_more;          /* a group more, with a piece's fixed cost
                                 * taken out (the first two pieces' sizes
                                 * and times): estimates */
  gdouble first_ms;
  guint64 first_groups;
  guint   timed;
} TlRunRate;

#define TL_RUN_RATE_TIMINGS 2

struct _TlRun
{
  TlContext      *context;
  const TlRunJob *job;         /* NULL for a run of tl_run_new () */
  gchar          *program;     /* with the storage variant, if any */
  const TlPixels *pixels;
  cl_mem          codec;       /* the codec's table, or NULL */
  TlPlan          plan;
  cl_mem          input;
  cl_mem          output;
  GPtrArray      *buffers;     /* every cl_mem of the run, released at end */
  GPtrArray      *launches;    /* kernel events, for timing */
  GArray         *launched;    /* TlRunLaunch: each event's kernel and step */
  guint           steps;       /* enqueued plans so far: a job's steps */
  gboolean        on_plan;     /* the step enqueued now is the run's plan */
  GArray         *pieces;      /* TlRunPiece, where kept; else NULL */
  gint            row_base;    /* TlDispatch.row_base of the next launches */
  gboolean        in_place;    /* the buffers use the pixels' own memory */
  /* Launches bounded in time (tl-run-pace.c). */
  gdouble         budget_ms;   /* the longest a launch may run; 0: unbounded */
  gdouble         paced_at;    /* ms a group, given (tl_run_pace_at ()); 0:
                                * measured */
  guint           least_groups; /* a piece holds at least these */
  GHashTable     *rates;       /* cl_kernel -> TlRunRate */
  gdouble         queued_ms;   /* expected work queued since the mark */
  cl_event        mark;        /* a piece the host waits for next (the run's) */
  cl_kernel       mark_kernel;
  guint64         mark_groups;
  gdouble         mark_ms;     /* expected work queued through the mark */
  /* The host's watch (tl-run-watch.c). */
  const TlRunWatch *watch;     /* or NULL */
  gboolean        counting;    /* the job's pass only counts launches */
  GHashTable     *totals;      /* cl_kernel -> guint64: its groups a pass */
  gdouble         launched_ms; /* expected work enqueued so far */
  gdouble         done_ms;     /* of it, known to be finished */
  gint64          started;     /* monotonic µs: the run's start */
  gint64          done_at;     /* when done_ms was last learned */
  gint64          watched_at;  /* the watch's last call */
  gboolean        measuring;   /* a kernel's first piece runs: no estimate */
  gdouble         fraction;    /* the last fraction told: never less */
  gboolean        rebase;      /* a new rate: the bar's rest is re-spread */
  gdouble         base_fraction; /* the fraction told at the last rate */
  gdouble         base_done_ms;  /* the work done then, in ms */
  gboolean        cancelled;
};

/* The most bands one transfer is cut into. */
#define TL_RUN_MAX_BANDS 64

void     tl_run_clear               (TlRun            *run);
gboolean tl_run_enqueue_plan        (TlRun            *run,
                                     cl_kernel         kernel,
                                     guint             dispatch_arg,
                                     const TlPlan     *plan,
                                     GError          **error);
gboolean tl_run_setup               (TlRun            *run,
                                     TlContext        *context,
                                     const TlRunJob   *job,
                                     const TlPixels   *pixels,
                                     cl_event         *upload,
                                     GError          **error);
gboolean tl_run_timed_pass          (TlRun            *run,
                                     gdouble          *ms,
                                     GArray           *kernels,
                                     GError          **error);
gdouble  tl_run_event_ms            (cl_event          first,
                                     cl_event          last);
gsize    tl_run_storage_pixel_size  (const TlPixels   *pixels);

void     tl_run_pace_init           (TlRun            *run);
void     tl_run_pace_finished       (TlRun            *run);
void     tl_run_pace_clear          (TlRun            *run);
gboolean tl_run_pace_enqueue        (TlRun            *run,
                                     cl_kernel         kernel,
                                     guint             dispatch_arg,
                                     TlDispatch       *dispatch,
                                     const TlLaunch   *launch,
                                     guint             index,
                                     guint             n_launches,
                                     GError          **error);

gboolean tl_run_watch_begin         (TlRun            *run,
                                     const TlRunWatch *watch,
                                     GError          **error);
void     tl_run_watch_count         (TlRun            *run,
                                     cl_kernel         kernel,
                                     const TlPlan     *plan);
void     tl_run_watch_launched      (TlRun            *run,
                                     gdouble           expected_ms);
void     tl_run_watch_finished      (TlRun            *run,
                                     gdouble           through_ms);
void     tl_run_watch_measured      (TlRun            *run);
gboolean tl_run_watch_check         (TlRun            *run,
                                     gboolean          now,
                                     GError          **error);
gboolean tl_run_watch_wait          (TlRun            *run,
                                     cl_event          event,
                                     GError          **error);
void     tl_run_watch_clear         (TlRun            *run);

guint    tl_run_bands_setting       (void);
gboolean tl_run_bands_upload        (TlRun            *run,
                                     const TlRunBands *bands,
                                     cl_event         *events,
                                     guint            *n_events,
                                     GError          **error);
gboolean tl_run_bands_download      (TlRun            *run,
                                     const TlRunBands *bands,
                                     gdouble          *download_ms,
                                     GError          **error);
void     tl_run_bands_release       (cl_event         *events,
                                     guint             n);

G_END_DECLS

#endif /* TL_RUN_PRIVATE_H */
