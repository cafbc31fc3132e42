/* ThreadLens: running a filter's kernels under a dispatch plan.
 *
 * A TlRun holds one filter application: the plan, the device buffers and
 * the timings.  Filters' OpenCL paths enqueue their passes through
 * tl_run_enqueue (), which issues every launch of the plan with the right
 * TlDispatch, so no filter handles dispatch modes itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_RUN_H
#define TL_RUN_H

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

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

gboolean          tl_run_filter          (TlContext       *context,
                                          const TlFilter  *filter,
                                          const TlValue   *values,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          TlPlan          *plan,
                                          TlRunTimes      *times,
                                          GError         **error);
/* Pixels moved in bands of rows (tl_run_filter_banded ()): FILL puts
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

gboolean          tl_run_filter_banded   (TlContext        *context,
                                          const TlFilter   *filter,
                                          const TlValue    *values,
                                          const TlChoice   *choice,
                                          const TlPixels   *pixels,
                                          const TlRunBands *bands,
                                          TlPlan           *plan,
                                          TlRunTimes       *times,
                                          GError          **error);
gboolean          tl_run_filter_repeated (TlContext       *context,
                                          const TlFilter  *filter,
                                          const TlValue   *values,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          guint            repeats,
                                          gdouble         *samples,
                                          TlPlan          *plan,
                                          GError         **error);

/* One step of a filter's passes, a kernel under one plan
 * (tl_run_filter_kernels ()).
 */
typedef struct
{
  gchar  *kernel;                /* its function name */
  guint   launches;              /* the step's launches in a pass */
  GArray *samples;               /* gdouble ms: its launches summed, a pass each */
} TlKernelTimes;

GArray           *tl_run_filter_kernels  (TlContext       *context,
                                          const TlFilter  *filter,
                                          const TlValue   *values,
                                          const TlChoice  *choice,
                                          const TlPixels  *pixels,
                                          guint            repeats,
                                          GError         **error);
gchar            *tl_run_program_name    (const TlFilter  *filter,
                                          const TlCodec   *codec);
gboolean          tl_run_plan_filter     (TlContext       *context,
                                          const TlFilter  *filter,
                                          const TlCodec   *codec,
                                          const TlChoice  *choice,
                                          guint            width,
                                          guint            height,
                                          TlLimits        *limits,
                                          TlPlan          *plan,
                                          GError         **error);

/* Timing many choices on one upload (tl-tune.c's search). */
typedef struct _TlRunTimer TlRunTimer;

TlRunTimer       *tl_run_timer_new       (TlContext       *context,
                                          const TlFilter  *filter,
                                          const TlValue   *values,
                                          const TlPixels  *pixels,
                                          GError         **error);
gboolean          tl_run_timer_time      (TlRunTimer      *timer,
                                          const TlChoice  *choice,
                                          gdouble         *ms,
                                          TlPlan          *plan,
                                          GError         **error);
void              tl_run_timer_free      (TlRunTimer      *timer);

/* For kernels outside the filter registry (the overlay). */
TlRun            *tl_run_new             (TlContext       *context,
                                          const gchar     *program,
                                          const TlPlan    *plan);
void              tl_run_set_row_base    (TlRun           *run,
                                          gint             row_base);
void              tl_run_free            (TlRun           *run);

/* For filters' run_cl, and runs of tl_run_new (). */
TlContext        *tl_run_get_context     (TlRun           *run);
const TlPlan     *tl_run_get_plan        (TlRun           *run);
const TlPixels   *tl_run_get_pixels      (TlRun           *run);
cl_mem            tl_run_get_input       (TlRun           *run);
cl_mem            tl_run_get_output      (TlRun           *run);
cl_mem            tl_run_new_buffer      (TlRun           *run,
                                          cl_mem_flags     flags,
                                          gsize            size,
                                          const void      *data,
                                          GError         **error);
cl_mem            tl_run_new_scratch     (TlRun           *run,
                                          GError         **error);
cl_mem            tl_run_input_floats    (TlRun           *run,
                                          const gchar     *decode_kernel,
                                          GError         **error);
gsize             tl_run_pixel_size      (TlRun           *run);
cl_kernel         tl_run_get_kernel      (TlRun           *run,
                                          const gchar     *kernel_name,
                                          GError         **error);
cl_kernel         tl_run_get_kernel_variant (TlRun         *run,
                                             const gchar   *kernel_name,
                                             const gchar   *extra,
                                             GError       **error);
gsize             tl_run_local_fits      (TlRun           *run,
                                          cl_kernel        kernel,
                                          gsize            bytes);
gboolean          tl_run_set_arg         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            index,
                                          gsize            size,
                                          const void      *value,
                                          GError         **error);
gboolean          tl_run_enqueue         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          GError         **error);
gboolean          tl_run_enqueue_lines   (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          guint            lines,
                                          GError         **error);
gboolean          tl_run_enqueue_lines_local
                                         (TlRun           *run,
                                          cl_kernel        kernel,
                                          guint            dispatch_arg,
                                          guint            lines,
                                          guint            local_arg,
                                          gsize            item_bytes,
                                          GError         **error);
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
