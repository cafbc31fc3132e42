/* ThreadLens: running kernels under a dispatch plan.
 *
 * A TlRun holds one job's application: the plan, the device buffers and
 * the timings.  What it launches comes as data, a TlRunJob: the program
 * and its kernels, what the planner needs to know of them, and a
 * function that enqueues one pass through tl_run_enqueue () and its kin,
 * which issue every launch of the plan with the right TlDispatch, paced
 * to the launch budget and watched.  run/ knows no filter: a filter's
 * job comes from tl_filter_job_init () (tl-filter-job.h), so the budget,
 * progress and cancel are written once, here, for every filter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_RUN_H
#define TL_RUN_H

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-pixels.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef struct _TlRun TlRun;

/* Timing of the OpenCL work of one run, from event profiling. */
typedef struct
{
  gdouble kernel_ms;            /* all launches, first start to last end */
  gdouble upload_ms;
  gdouble download_ms;
  gdouble longest_ms;           /* the longest single launch */
  guint   launches;
  gdouble ms_per_group;         /* what a work-group of the launches under
                                 * the run's plan took, in the kernel that
                                 * took longest there: the rate its thread
                                 * map is paced at (tl_run_pace_at ()) */
} TlRunTimes;

/* One pass of a job's kernels, enqueued on RUN with DATA (the job's
 * PASS_DATA); FALSE with ERROR.
 */
typedef gboolean (* TlRunPassFunc) (TlRun         *run,
                                    gconstpointer  data,
                                    GError       **error);

/* What a run launches.  Owned by the caller, and kept (not copied) for
 * the run's length.
 */
typedef struct
{
  const gchar        *name;             /* in messages and the tuner's
                                         * store: "bilateral-filter" */
  const gchar        *program;          /* as tl_context_get_kernel ()
                                         * takes it, built with KERNELS
                                         * alone: "tone:tl_sepia@u8+trc" */
  const gchar *const *kernels;          /* NULL-terminated: the kernels
                                         * the plan must suit */
  const TlCodec      *codec;            /* the pixels' storage (NULL:
                                         * floats in the working format) */
  gboolean            reads_block;      /* TlLimits' */
  guint               pixels_per_item;  /* for a choice's 0 ("auto") */
  guint               cpu_pixels_per_item; /* the same on a CPU */
  TlRunPassFunc       pass;             /* NULL: the job is only planned */
  gconstpointer       pass_data;
} TlRunJob;

/* Mirrors TlDispatch in kernels/tl-index.h, field for field. */
typedef struct
{
  cl_int width;
  cl_int height;
  cl_int stride;
  cl_int pixels_per_item;
  cl_int group_w;
  cl_int group_h;
  cl_int base_x;
  cl_int base_y;
  cl_int swizzle_gx;
  cl_int swizzle_gy;
  cl_int swizzle;
  cl_int row_base;
} TlDispatch;

/* How far a run has got, for a host that shows it. */
typedef struct
{
  gdouble fraction;             /* of the run's work done, 0 to 1: an
                                 * estimate from the rates measured so far */
  gdouble elapsed_ms;           /* since the run began */
  gdouble remaining_ms;         /* an estimate; negative while there is none */
  gboolean settled;             /* every kernel that does 1% or more of
                                 * the work has been timed: the estimate
                                 * rests on measurements alone */
} TlProgress;

/* A host's watch over a run (tl-run-watch.c): called with the run's
 * progress about every TL_RUN_WATCH_MS while the host waits for the
 * device, and between launches.  FALSE stops the run, which then fails
 * with TL_ERROR_CANCELLED as soon as the device lets go of it: the work
 * already queued (a budget's worth, tl-run-pace.c) is waited for, not
 * used.  Called in the thread that runs the job.
 */
typedef gboolean (* TlWatchFunc) (const TlProgress *progress,
                                  gpointer          data);

typedef struct
{
  TlWatchFunc func;
  gpointer    data;
} TlRunWatch;

#define TL_RUN_WATCH_MS 50

/* Runs JOB on PIXELS (in to out, stored as JOB's codec says) on
 * CONTEXT's device, under the dispatch CHOICE asks for.  PLAN (or NULL) gets the plan that
 * ran, TIMES (or NULL) the upload, kernel and download times.  FALSE
 * with ERROR when it cannot be planned or the device fails (PIXELS' out
 * may then be partly written).
 */
gboolean          tl_run_job             (TlContext       *context,
                                          const TlRunJob  *job,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          TlPlan          *plan,
                                          TlRunTimes      *times,
                                          GError         **error);
/* Pixels moved in bands of rows (tl_run_job_banded ()): FILL puts
 * rows FIRST to FIRST + ROWS of the input into the pixels' memory, just
 * before they are uploaded; DRAIN takes those rows of the output from
 * it, as soon as they are back.  Only output rows FIRST_ROW to FIRST_ROW
 * + ROWS come back (a tile within its halo).  Either may fail with an
 * error, which ends the run.  Bands of the input end on multiples of
 * FILL_GRID rows counted from -FILL_PHASE, the output's likewise (GEGL's
 * tile rows: a tile copied by one band, whole); 0 or 1: anywhere.
 */
typedef gboolean (* TlRunBandFunc) (guint     first,
                                    guint     rows,
                                    gpointer  data,
                                    GError  **error);

typedef struct
{
  TlRunBandFunc fill;
  TlRunBandFunc drain;
  guint         first_row;
  guint         rows;
  guint         fill_grid;
  guint         fill_phase;
  guint         drain_grid;
  guint         drain_phase;
  gpointer      data;
} TlRunBands;

/* As tl_run_job (), with PIXELS' memory filled and drained band by
 * band as BANDS says (NULL: all at once, as tl_run_job ()), and
 * WATCH (or NULL) told how far it has got.
 */
gboolean          tl_run_job_banded      (TlContext        *context,
                                          const TlRunJob   *job,
                                          const TlChoice   *choice,
                                          const TlPixels   *pixels,
                                          const TlRunBands *bands,
                                          const TlRunWatch *watch,
                                          TlPlan           *plan,
                                          TlRunTimes       *times,
                                          GError          **error);
/* For benchmarks: PIXELS uploaded once, JOB run REPEATS times,
 * SAMPLES (REPEATS of them) gets each run's kernel time in ms, PLAN (or
 * NULL) the plan; the last result is read back into PIXELS' out.
 */
gboolean          tl_run_job_repeated    (TlContext       *context,
                                          const TlRunJob  *job,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          guint            repeats,
                                          gdouble         *samples,
                                          TlPlan          *plan,
                                          GError         **error);

/* One step of a job's passes, a kernel under one plan
 * (tl_run_job_kernels ()).
 */
typedef struct
{
  gchar  *kernel;                /* its function name */
  guint   launches;              /* the step's launches in a pass */
  GArray *samples;               /* gdouble ms: its launches summed, a pass each */
} TlKernelTimes;

/* For benchmarks: as tl_run_job_repeated (), the time split by step
 * of the job: an array of TlKernelTimes (one a kernel's launches under
 * one plan, in order), or NULL with ERROR.  Free with g_array_unref ().
 */
GArray           *tl_run_job_kernels     (TlContext       *context,
                                          const TlRunJob  *job,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          guint            repeats,
                                          GError         **error);
/* The pixels per work-item JOB takes on a device of KIND for a choice
 * of 0 ("auto").
 */
guint             tl_run_job_auto_pixels (const TlRunJob  *job,
                                          TlDeviceKind     kind);
/* The plan JOB's kernels would run under for CHOICE over WIDTH x
 * HEIGHT pixels, into PLAN; LIMITS
 * gets the device's and the kernels' limits it was made within.  "auto"
 * takes a tuned shape where one is stored.  FALSE with ERROR when the
 * program does not build or CHOICE cannot be planned.
 */
gboolean          tl_run_plan_job        (TlContext       *context,
                                          const TlRunJob  *job,
                                          const TlChoice  *choice,
                                          guint            width,
                                          guint            height,
                                          TlLimits        *limits,
                                          TlPlan          *plan,
                                          GError         **error);

/* Timing many choices on one upload (tl-tune.c's search). */
typedef struct _TlRunTimer TlRunTimer;

/* A timer of JOB (kept, not copied) on PIXELS, which go
 * to CONTEXT's device now, once; NULL with ERROR.
 */
TlRunTimer       *tl_run_timer_new       (TlContext       *context,
                                          const TlRunJob  *job,
                                          const TlPixels  *pixels,
                                          GError         **error);
/* One pass of the timer's job under CHOICE: its kernel time in MS
 * and, when PLAN is given, the plan it ran.  FALSE with ERROR when CHOICE
 * cannot be planned or the device fails.
 */
gboolean          tl_run_timer_time      (TlRunTimer      *timer,
                                          const TlChoice  *choice,
                                          gdouble         *ms,
                                          TlPlan          *plan,
                                          GError         **error);
/* Waits for TIMER's commands and frees it and its buffers (NULL: nothing). */
void              tl_run_timer_free      (TlRunTimer      *timer);

/* For kernels with no job (the overlay). */

/* A run of PROGRAM's kernels ("overlay", a name as tl_context_get_kernel
 * () takes) on CONTEXT under PLAN, with no buffers yet: tl_run_new_buffer () makes
 * them.  Free with tl_run_free ().
 */
TlRun            *tl_run_new             (TlContext       *context,
                                          const gchar     *program,
                                          const TlPlan    *plan);
/* ROW_BASE: the first pixel row that the output buffer of RUN's next
 * launches holds (TlDispatch's row_base), for a map drawn a window of
 * rows at a time.
 */
void              tl_run_set_row_base    (TlRun           *run,
                                          gint             row_base);
/* RUN's launches paced as if each work-group took MS_PER_GROUP (a
 * filter's TlRunTimes.ms_per_group: its thread map then runs in the
 * pieces the filter ran in), not at the rate measured; 0: measured.
 */
void              tl_run_pace_at         (TlRun           *run,
                                          gdouble          ms_per_group);

/* One piece of a launch, as the launch budget cut it (tl-run-pace.c). */
typedef struct
{
  guint step;                   /* the plan enqueued: 0 first */
  guint launch;                 /* its launch in the plan */
  guint group_base[2];          /* its first work-group in the plan's grid */
  guint groups[2];              /* its work-groups across and down */
} TlRunPiece;

/* From now on, RUN keeps each launch's pieces (for a thread map). */
void              tl_run_keep_pieces     (TlRun           *run);
/* The pieces RUN kept, in the order they went on the queue: TlRunPiece,
 * owned by RUN.
 */
const GArray     *tl_run_get_pieces      (TlRun           *run);

/* Waits for RUN's commands, then releases its buffers and frees it
 * (NULL: nothing).
 */
void              tl_run_free            (TlRun           *run);

/* For jobs' passes, and runs of tl_run_new (). */

/* RUN's context, plan and pixels, and the device buffers of its pixels
 * in and out, in their storage: all owned by RUN (pixels and buffers
 * NULL in a run of tl_run_new ()).
 */
TlContext        *tl_run_get_context     (TlRun           *run);
const TlPlan     *tl_run_get_plan        (TlRun           *run);
const TlPixels   *tl_run_get_pixels      (TlRun           *run);
cl_mem            tl_run_get_input       (TlRun           *run);
cl_mem            tl_run_get_output      (TlRun           *run);
/* A device buffer of SIZE bytes with FLAGS, filled from DATA (or NULL),
 * owned by RUN; NULL with ERROR, TL_ERROR_LIMIT where SIZE is over the
 * device's largest buffer.
 */
cl_mem            tl_run_new_buffer      (TlRun           *run,
                                          cl_mem_flags     flags,
                                          gsize            size,
                                          const void      *data,
                                          GError         **error);
/* A buffer of 4 floats a pixel the size of RUN's pixels, owned by RUN,
 * for an image between two passes; NULL with ERROR.
 */
cl_mem            tl_run_new_scratch     (TlRun           *run,
                                          GError         **error);
/* RUN's input as 4 floats a pixel: the input buffer itself in float
 * storage, else a scratch buffer that DECODE_KERNEL (a TL_DECODE_KERNEL
 * of the job's program) decodes it into, enqueued now; NULL with
 * ERROR.
 */
cl_mem            tl_run_input_floats    (TlRun           *run,
                                          const gchar     *decode_kernel,
                                          GError         **error);
/* The bytes of one pixel in RUN's storage. */
gsize             tl_run_pixel_size      (TlRun           *run);
/* KERNEL_NAME of RUN's program (built on first use; a kernel the
 * job only falls back on in a program of its own), owned by the
 * context: do not release it.  NULL with ERROR when the build fails.
 */
cl_kernel         tl_run_get_kernel      (TlRun           *run,
                                          const gchar     *kernel_name,
                                          GError         **error);
/* As tl_run_get_kernel (), from the program built with more variant
 * tokens EXTRA ("short", or several joined by '+'; NULL: none), which
 * the kernels' source defines.
 */
cl_kernel         tl_run_get_kernel_variant (TlRun         *run,
                                             const gchar   *kernel_name,
                                             const gchar   *extra,
                                             GError       **error);
/* BYTES, where a group of RUN's plan can have that much local memory
 * for KERNEL beside what the kernel itself uses; 0 where it cannot (it
 * does not fit, or the driver picks the group's shape).
 */
gsize             tl_run_local_fits      (TlRun           *run,
                                          cl_kernel        kernel,
                                          gsize            bytes);
/* Argument INDEX of KERNEL (a slot kernels/tl-args.h names) set to SIZE
 * bytes at VALUE, as clSetKernelArg () takes them (VALUE NULL: SIZE
 * bytes of local memory).  FALSE with ERROR naming the argument.
 */
gboolean          tl_run_set_arg         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            index,
                                          gsize            size,
                                          const void      *value,
                                          GError         **error);
/* Enqueues KERNEL over RUN's pixels, every launch of RUN's plan: its
 * argument DISPATCH_ARG (TL_ARG_DISPATCH in a job's kernels) gets each
 * launch's TlDispatch and, in a job's kernels, DISPATCH_ARG + 1 the
 * codec's table.  FALSE with ERROR when a
 * launch is refused.
 */
gboolean          tl_run_enqueue         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          GError         **error);
/* As tl_run_enqueue (), for a pass of LINES work-items, one a whole
 * line, in one row of groups under the plan's mode: the kernel's
 * dispatch then counts lines, not pixels.
 */
gboolean          tl_run_enqueue_lines   (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          guint            lines,
                                          GError         **error);
/* As tl_run_enqueue_lines (), for a kernel whose items each keep
 * ITEM_BYTES of local memory: the groups are narrowed until it fits, and
 * argument LOCAL_ARG gets the group's share.  FALSE with ERROR
 * (TL_ERROR_LIMIT) where one item's does not fit.
 */
gboolean          tl_run_enqueue_lines_local
                                         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          guint            lines,
                                          guint            local_arg,
                                          gsize            item_bytes,
                                          GError         **error);
/* As tl_run_enqueue (), for UNITS groups in one row, each at least ITEMS
 * wide where the device allows (kernels whose group shares a line in
 * local memory); the kernel's dispatch counts items.
 */
gboolean          tl_run_enqueue_line_groups
                                         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          guint            units,
                                          guint            items,
                                          GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRun, tl_run_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRunTimer, tl_run_timer_free)

G_END_DECLS

#endif /* TL_RUN_H */
