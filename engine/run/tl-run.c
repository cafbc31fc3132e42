/* ThreadLens: running a job's kernels under a dispatch plan.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-run-private.h"
#include "tl-tune-store.h"

static void
tl_run_release_event (gpointer event)
{
  clReleaseEvent (event);
}

static void
tl_run_release_buffer (gpointer buffer)
{
  clReleaseMemObject (buffer);
}

void
tl_run_clear (TlRun *run)
{
  g_clear_pointer (&run->launches, g_ptr_array_unref);
  g_clear_pointer (&run->launched, g_array_unref);
  g_clear_pointer (&run->buffers, g_ptr_array_unref);
  g_clear_pointer (&run->pieces, g_array_unref);
  g_clear_pointer (&run->program, g_free);
  tl_run_pace_clear (run);
  tl_run_watch_clear (run);
}

TlContext *
tl_run_get_context (TlRun *run)
{
  return run->context;
}

const TlPlan *
tl_run_get_plan (TlRun *run)
{
  return &run->plan;
}

const TlPixels *
tl_run_get_pixels (TlRun *run)
{
  return run->pixels;
}

cl_mem
tl_run_get_input (TlRun *run)
{
  return run->input;
}

cl_mem
tl_run_get_output (TlRun *run)
{
  return run->output;
}

/* A scratch image of working floats (4 a pixel) the size of the run's
 * pixels, for filters that pass an image between their passes.
 */
cl_mem
tl_run_new_scratch (TlRun   *run,
                    GError **error)
{
  return tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                            (gsize) run->pixels->width * run->pixels->height *
                            4 * sizeof (gfloat), NULL, error);
}

/* The run's input as working floats, for kernels that read each pixel
 * many times (the smoothing filters' windows): the input itself where it
 * is stored as floats, else decoded once into a scratch image by
 * DECODE_KERNEL, a kernel of the job's program made with
 * TL_DECODE_KERNEL (kernels/tl-pixel.h), under the plan.  On PoCL
 * decoding 8-bit codes at every tap took 5 to 8 times as long as the
 * taps themselves (median-blur, 1920x1080).
 */
cl_mem
tl_run_input_floats (TlRun        *run,
                     const gchar  *decode_kernel,
                     GError      **error)
{
  cl_mem    in = tl_run_get_input (run), floats;
  cl_kernel kernel;

  g_return_val_if_fail (run != NULL && decode_kernel != NULL, NULL);

  if (! tl_codec_is_narrow (run->pixels->codec))
    return in;
  floats = tl_run_new_scratch (run, error);
  kernel = floats ? tl_run_get_kernel (run, decode_kernel, error) : NULL;
  if (kernel == NULL ||
      ! tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &floats,
                        error) ||
      ! tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error))
    return NULL;
  return floats;
}

cl_mem
tl_run_new_buffer (TlRun        *run,
                   cl_mem_flags  flags,
                   gsize         size,
                   const void   *data,
                   GError      **error)
{
  const TlDevice *device = tl_context_get_device (run->context);
  cl_int          status = CL_SUCCESS;
  cl_mem          buffer;

  if (device->max_alloc_size && size > device->max_alloc_size)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   /* TRANSLATORS: the second %s is the device's name. */
                   _("the image needs %.1f MiB in one device buffer, over "
                     "%s's limit of %.1f MiB (CL_DEVICE_MAX_MEM_ALLOC_SIZE)"),
                   size / 1048576.0, device->name,
                   device->max_alloc_size / 1048576.0);
      return NULL;
    }
  /* Counting launches (tl-run-watch.c), a buffer stands in: arguments
   * are not set, and nothing is launched.
   */
  if (run->counting)
    return run->input;

  if (data && ! (flags & CL_MEM_USE_HOST_PTR))
    flags |= CL_MEM_COPY_HOST_PTR;
  buffer = TL_CL_NEW (clCreateBuffer, &status, tl_context_get_cl (run->context),
                      flags, size, (void *) data);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("allocating a device buffer"));
      return NULL;
    }

  g_ptr_array_add (run->buffers, buffer);
  return buffer;
}

cl_kernel
tl_run_get_kernel (TlRun       *run,
                   const gchar *kernel_name,
                   GError     **error)
{
  return tl_run_get_kernel_variant (run, kernel_name, NULL, error);
}

/* KERNEL_NAME as tl_run_get_kernel () finds it, from its program built
 * with more variant tokens EXTRA (one, or several joined by '+'; NULL,
 * or one token the program already has: none), which the kernels'
 * source defines: "blur:tl_convolve_2d@u8+trc+pairs".
 */
cl_kernel
tl_run_get_kernel_variant (TlRun       *run,
                           const gchar *kernel_name,
                           const gchar *extra,
                           GError     **error)
{
  g_auto(GStrv)     name    = NULL;
  g_auto(GStrv)     file    = NULL;
  g_autofree gchar *program = NULL;

  if (run->job == NULL || g_strv_contains (run->job->kernels, kernel_name))
    program = g_strdup (run->program);
  else
    {
      /* A kernel the job only falls back on (the blurs' untiled
       * passes, for tiles too big for local memory) is built on first
       * use, in a program of its own: "blur:tl_convolve_h@u8+trc".
       */
      name    = g_strsplit (run->program, "@", 2);
      file    = g_strsplit (name[0], ":", 2);
      program = g_strconcat (file[0], ":", kernel_name, name[1] ? "@" : "",
                             name[1] ? name[1] : "", NULL);
    }
  if (extra && ! tl_program_has_variant (program, extra))
    {
      gchar *with = g_strconcat (program, strchr (program, '@') ? "+" : "@",
                                 extra, NULL);

      g_free (program);
      program = with;
    }
  return tl_context_get_kernel (run->context, program, kernel_name, error);
}

/* BYTES of local memory for KERNEL's tile under the run's plan when they
 * fit beside what the kernel itself uses; 0 when the tile cannot be
 * used: the driver picks the shape (so its size is unknown here), or it
 * does not fit.
 */
gsize
tl_run_local_fits (TlRun     *run,
                   cl_kernel  kernel,
                   gsize      bytes)
{
  const TlDevice *device;
  guint64         used;

  g_return_val_if_fail (run != NULL && kernel != NULL, 0);

  device = tl_context_get_device (run->context);
  used   = tl_context_get_kernel_local_mem (run->context, kernel);
  if (run->plan.local[0] == 0)
    return 0;
  return bytes + used <= device->local_mem_size ? bytes : 0;
}

gboolean
tl_run_set_arg (TlRun       *run,
                cl_kernel    kernel,
                guint        index,
                gsize        size,
                const void  *value,
                GError     **error)
{
  cl_int status;

  if (run->counting)
    return TRUE;
  status = TL_CL (clSetKernelArg, kernel, index, size, value);
  if (status != CL_SUCCESS)
    {
      /* TRANSLATORS: %s is a filter's or a kernel program's name. */
      g_autofree gchar *what = g_strdup_printf (_("setting argument %u of a %s "
                                                  "kernel"), index,
                                                run->job ? run->job->name :
                                                           run->program);

      tl_cl_set_error (error, status, what);
      return FALSE;
    }
  return TRUE;
}

/* A run of PROGRAM's kernels under PLAN for callers with no job (the
 * overlay): buffers come from tl_run_new_buffer (), launches from
 * tl_run_enqueue (), and tl_run_free () releases them all.
 */
TlRun *
tl_run_new (TlContext    *context,
            const gchar  *program,
            const TlPlan *plan)
{
  TlRun *run;

  g_return_val_if_fail (context != NULL && program != NULL, NULL);
  g_return_val_if_fail (plan != NULL, NULL);

  run = g_new0 (TlRun, 1);
  run->context  = context;
  run->program  = g_strdup (program);
  run->plan     = *plan;
  run->buffers  = g_ptr_array_new_with_free_func (tl_run_release_buffer);
  run->launches = g_ptr_array_new_with_free_func (tl_run_release_event);
  run->launched = g_array_new (FALSE, FALSE, sizeof (TlRunLaunch));
  tl_run_pace_init (run);

  return run;
}

void
tl_run_keep_pieces (TlRun *run)
{
  g_return_if_fail (run != NULL);

  if (run->pieces == NULL)
    run->pieces = g_array_new (FALSE, FALSE, sizeof (TlRunPiece));
}

const GArray *
tl_run_get_pieces (TlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);

  return run->pieces;
}

/* Waits for the run's commands, so no kernel outlives its buffers. */
void
tl_run_free (TlRun *run)
{
  if (run == NULL)
    return;

  TL_CL (clFinish, tl_context_get_queue (run->context));
  tl_run_clear (run);
  g_free (run);
}

/* The first pixel row the output buffer of the next launches holds: the
 * overlay writes a big map one window of rows at a time.
 */
void
tl_run_set_row_base (TlRun *run,
                     gint   row_base)
{
  g_return_if_fail (run != NULL && row_base >= 0);

  run->row_base = row_base;
}

/* Issues every launch of the plan; argument DISPATCH_ARG of the kernel
 * receives each launch's TlDispatch and, in a job's kernels, the next
 * argument the codec's table (kernels/tl-pixel.h).
 */
G_STATIC_ASSERT (TL_ARG_CODEC == TL_ARG_DISPATCH + 1);

gboolean
tl_run_enqueue_plan (TlRun        *run,
                     cl_kernel     kernel,
                     guint         dispatch_arg,
                     const TlPlan *plan,
                     GError      **error)
{
  TlDispatch    dispatch;
  guint         i;

  if (run->counting)
    {
      tl_run_watch_count (run, kernel, plan);
      return TRUE;
    }
  run->steps++;
  run->on_plan = plan == &run->plan;
  memset (&dispatch, 0, sizeof (dispatch));
  dispatch.width           = plan->width;
  dispatch.height          = plan->height;
  dispatch.stride          = plan->width;
  dispatch.pixels_per_item = plan->pixels_per_item;
  dispatch.group_w         = plan->local[0];
  dispatch.group_h         = plan->local[1];
  dispatch.swizzle_gx      = plan->swizzle_grid[0];
  dispatch.swizzle_gy      = plan->swizzle_grid[1];
  dispatch.swizzle         = plan->swizzle;
  dispatch.row_base        = run->row_base;

  if (run->job &&
      ! tl_run_set_arg (run, kernel, dispatch_arg + 1, sizeof (cl_mem),
                        &run->codec, error))
    return FALSE;

  /* Each launch in pieces that keep to the launch budget (tl-run-pace.c). */
  for (i = 0; i < plan->n_launches; i++)
    if (! tl_run_pace_enqueue (run, kernel, dispatch_arg, &dispatch,
                               &plan->launches[i], i, plan->n_launches, error))
      return FALSE;

  return TRUE;
}

gboolean
tl_run_enqueue (TlRun     *run,
                cl_kernel  kernel,
                guint      dispatch_arg,
                GError   **error)
{
  return tl_run_enqueue_plan (run, kernel, dispatch_arg, &run->plan, error);
}

guint
tl_run_job_auto_pixels (const TlRunJob *job,
                        TlDeviceKind    kind)
{
  g_return_val_if_fail (job != NULL, 1);

  return kind == TL_DEVICE_KIND_CPU ? job->cpu_pixels_per_item :
                                      job->pixels_per_item;
}

/* One plan serves every kernel of the job: M is the smallest of the
 * kernels' limits, P the first kernel's.
 */
gboolean
tl_run_plan_job (TlContext      *context,
                 const TlRunJob *job,
                 const TlChoice *choice,
                 guint           width,
                 guint           height,
                 TlLimits       *limits,
                 TlPlan         *plan,
                 GError        **error)
{
  TlChoice resolved = *choice;
  TlTuning tuning;
  guint    i;

  g_return_val_if_fail (context != NULL && job != NULL, FALSE);
  g_return_val_if_fail (job->kernels != NULL && job->kernels[0] != NULL,
                        FALSE);
  g_return_val_if_fail (choice != NULL && limits != NULL, FALSE);

  for (i = 0; job->kernels[i]; i++)
    {
      TlLimits  kernel_limits;
      cl_kernel kernel = tl_context_get_kernel (context, job->program,
                                                job->kernels[i], error);

      if (kernel == NULL ||
          ! tl_context_kernel_limits (context, kernel, &kernel_limits, error))
        return FALSE;

      if (i == 0)
        {
          *limits = kernel_limits;
        }
      else
        {
          limits->max_group_size   = MIN (limits->max_group_size,
                                          kernel_limits.max_group_size);
          limits->driver_group_size = MIN (limits->driver_group_size,
                                           kernel_limits.driver_group_size);
          limits->kernel_local_mem = MAX (limits->kernel_local_mem,
                                          kernel_limits.kernel_local_mem);
        }
    }
  limits->reads_block   = job->reads_block;
  limits->float_storage = ! tl_codec_is_narrow (job->codec);

  if (resolved.pixels_per_item == 0)
    resolved.pixels_per_item = tl_run_job_auto_pixels (job,
                                                       limits->device_kind);

  /* "auto" takes the tuned choice for this device, storage, mode and size
   * class when a search has been run; the device's rule otherwise.
   */
  if (choice->shape_kind == TL_SHAPE_AUTO &&
      tl_tune_lookup (context, job->name, job->codec, choice->mode, width,
                      height, &tuning) &&
      tl_tune_plan (&tuning, limits, width, height, plan))
    return TRUE;

  return tl_plan_compute (limits, &resolved, width, height, plan, error);
}

gdouble
tl_run_event_ms (cl_event        first,
                 cl_event        last)
{
  cl_ulong start = 0, end = 0;

  if (TL_CL (clGetEventProfilingInfo, first, CL_PROFILING_COMMAND_START,
             sizeof (start), &start, NULL) != CL_SUCCESS ||
      TL_CL (clGetEventProfilingInfo, last, CL_PROFILING_COMMAND_END,
             sizeof (end), &end, NULL) != CL_SUCCESS ||
      end < start)
    return 0.0;

  return (end - start) / 1e6;
}

gsize
tl_run_storage_pixel_size (const TlPixels *pixels)
{
  return pixels->codec ? tl_codec_get_pixel_size (pixels->codec) :
                         4 * sizeof (gfloat);
}

/* Bytes of one pixel in the run's storage. */
gsize
tl_run_pixel_size (TlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);

  return tl_run_storage_pixel_size (run->pixels);
}

static gsize
tl_run_buffer_size (const TlPixels *pixels)
{
  return (gsize) pixels->width * pixels->height *
         tl_run_storage_pixel_size (pixels);
}

/* Whether RUN's device works on PIXELS where they lie: a CPU's kernels
 * read and write host memory anyway, and copying a 3840x2160 layer in
 * and out of PoCL's own buffers took 35 ms a call in GIMP 3.
 * The device's alignment is needed; elsewhere the pixels are copied.
 */
static gboolean
tl_run_in_place (TlContext      *context,
                 const TlPixels *pixels)
{
  const TlDevice *device = tl_context_get_device (context);
  gsize           align  = MAX (device->base_align, 1);

  return ((device->type & CL_DEVICE_TYPE_CPU) &&
          tl_run_bands_setting () == 0 &&
          pixels->in != NULL && pixels->out != NULL &&
          (guintptr) pixels->in % align == 0 &&
          (guintptr) pixels->out % align == 0);
}

/* The device side of RUN for PIXELS: input, output and the codec's
 * table, the input's upload enqueued into UPLOAD (none where the device
 * works on the pixels in place, or UPLOAD is NULL: the caller uploads).
 * RUN's plan is not touched.
 */
gboolean
tl_run_setup (TlRun          *run,
              TlContext      *context,
              const TlRunJob *job,
              const TlPixels *pixels,
              cl_event       *upload,
              GError        **error)
{
  gsize        size = tl_run_buffer_size (pixels);
  cl_mem_flags wrap;
  cl_int       status;

  run->context  = context;
  run->job      = job;
  run->program  = g_strdup (job->program);
  run->pixels   = pixels;
  run->buffers  = g_ptr_array_new_with_free_func (tl_run_release_buffer);
  run->launches = g_ptr_array_new_with_free_func (tl_run_release_event);
  run->launched = g_array_new (FALSE, FALSE, sizeof (TlRunLaunch));
  tl_run_pace_init (run);

  run->in_place = tl_run_in_place (context, pixels);
  wrap          = run->in_place ? CL_MEM_USE_HOST_PTR : 0;
  run->input  = tl_run_new_buffer (run, CL_MEM_READ_ONLY | wrap, size,
                                   run->in_place ? pixels->in : NULL, error);
  run->output = run->input ?
                tl_run_new_buffer (run, CL_MEM_READ_WRITE | wrap, size,
                                   run->in_place ? pixels->out : NULL,
                                   error) : NULL;
  if (run->output == NULL)
    return FALSE;

  if (pixels->codec && tl_codec_get_table (pixels->codec, NULL))
    {
      gsize         n_floats;
      const gfloat *table = tl_codec_get_table (pixels->codec, &n_floats);

      run->codec = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                                      n_floats * sizeof (gfloat), table, error);
      if (run->codec == NULL)
        return FALSE;
    }

  if (run->in_place || upload == NULL)
    return TRUE;
  status = TL_CL (clEnqueueWriteBuffer, tl_context_get_queue (context),
                  run->input, CL_FALSE, 0, size, pixels->in, 0, NULL, upload);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("copying the image to the device"));
      return FALSE;
    }
  return TRUE;
}

static void
tl_run_kernel_times_clear (gpointer data)
{
  TlKernelTimes *times = data;

  g_free (times->kernel);
  g_array_unref (times->samples);
}

/* Adds one pass, the launches from FIRST on, to KERNELS: an entry a
 * step of the job (one plan's launches, the same kernel), in order.
 * The recursive blur's row and column passes are one kernel twice, so
 * steps rather than kernels' names tell them apart.
 */
static void
tl_run_kernel_times_add (TlRun  *run,
                         guint   first,
                         GArray *kernels)
{
  guint first_step, i, j;

  if (first >= run->launched->len)
    return;
  for (j = 0; j < kernels->len; j++)
    {
      TlKernelTimes *times = &g_array_index (kernels, TlKernelTimes, j);
      gdouble        zero  = 0.0;

      times->launches = 0;
      g_array_append_val (times->samples, zero);
    }
  first_step = g_array_index (run->launched, TlRunLaunch, first).step;
  for (i = first; i < run->launched->len; i++)
    {
      const TlRunLaunch *launch = &g_array_index (run->launched, TlRunLaunch, i);
      cl_event           event  = g_ptr_array_index (run->launches, i);
      guint              index  = launch->step - first_step;
      TlKernelTimes     *times;

      while (index >= kernels->len)
        {
          gchar         name[128] = "";
          TlKernelTimes fresh     = { NULL, 0,
                                      g_array_new (FALSE, TRUE, sizeof (gdouble)) };

          if (TL_CL (clGetKernelInfo, launch->kernel, CL_KERNEL_FUNCTION_NAME,
                     sizeof (name) - 1, name, NULL) != CL_SUCCESS)
            g_strlcpy (name, "?", sizeof (name));
          fresh.kernel = g_strdup (name);
          /* A step first seen in this pass took nothing in earlier ones. */
          g_array_set_size (fresh.samples, kernels->len ?
                            g_array_index (kernels, TlKernelTimes, 0).samples->len : 1);
          g_array_append_val (kernels, fresh);
        }
      times = &g_array_index (kernels, TlKernelTimes, index);
      times->launches++;
      g_array_index (times->samples, gdouble, times->samples->len - 1) +=
        tl_run_event_ms (event, event);
    }
}

/* Runs the job's kernels once under RUN's plan, waits, and gives their
 * time in MS.  Buffers and events of this pass are released after it, so
 * a long series of passes holds no more memory than one.  KERNELS (NULL:
 * none) gets the pass's time step by step.
 */
gboolean
tl_run_timed_pass (TlRun          *run,
                   gdouble        *ms,
                   GArray         *kernels,
                   GError        **error)
{
  guint  n_buffers = run->buffers->len, first = run->launches->len;
  cl_int status;

  if (! run->job->pass (run, run->job->pass_data, error))
    return FALSE;
  status = TL_CL (clFinish, tl_context_get_queue (run->context));
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("running the kernels"));
      return FALSE;
    }
  *ms = tl_run_event_ms (g_ptr_array_index (run->launches, first),
                         g_ptr_array_index (run->launches, run->launches->len - 1));
  if (kernels)
    tl_run_kernel_times_add (run, first, kernels);
  /* The pass's events go: none is left to wait for. */
  tl_run_pace_finished (run);
  g_ptr_array_remove_range (run->launches, first, run->launches->len - first);
  g_array_remove_range (run->launched, first, run->launched->len - first);
  g_ptr_array_remove_range (run->buffers, n_buffers, run->buffers->len - n_buffers);
  return TRUE;
}

/* What a work-group of the launches from FIRST on under the run's plan
 * took, in the kernel whose launches there took longest: 0 where none
 * was timed.
 */
static gdouble
tl_run_group_ms (TlRun *run,
                 guint  first)
{
  g_autoptr(GHashTable) sums  = g_hash_table_new_full (NULL, NULL, NULL,
                                                       g_free);
  gdouble               most  = 0.0, rate = 0.0;
  guint                 i;

  for (i = first; i < run->launched->len; i++)
    {
      const TlRunLaunch *launch = &g_array_index (run->launched, TlRunLaunch, i);
      cl_event           event  = g_ptr_array_index (run->launches, i);
      gdouble           *sum;

      if (! launch->on_plan)
        continue;
      sum = g_hash_table_lookup (sums, launch->kernel);
      if (sum == NULL)
        {
          sum = g_new0 (gdouble, 2);
          g_hash_table_insert (sums, launch->kernel, sum);
        }
      sum[0] += tl_run_event_ms (event, event);
      sum[1] += launch->groups;
      if (sum[0] > most && sum[1] > 0)
        {
          most = sum[0];
          rate = sum[0] / sum[1];
        }
    }
  return rate;
}

/* Uploads once, runs the job REPEATS times (each timed into SAMPLES when
 * given), reads the last result back.
 */
static gboolean
tl_run_execute (TlContext       *context,
                const TlRunJob  *job,
                const TlChoice  *choice,
                const TlPixels  *pixels,
                guint            repeats,
                gdouble         *samples,
                GArray          *kernels,
                const TlRunBands *bands,
                const TlRunWatch *watch,
                TlPlan          *plan,
                TlRunTimes      *times,
                GError         **error)
{
  TlRun    run = { 0 };
  TlLimits limits;
  cl_event upload = NULL, download = NULL;
  cl_event uploads[TL_RUN_MAX_BANDS] = { NULL, };
  guint    n_uploads = 0;
  gdouble  upload_ms = 0.0, download_ms = 0.0;
  cl_int   status;
  gboolean ok = FALSE;
  guint    i, first = 0;

  if (! tl_run_plan_job (context, job, choice, pixels->width,
                         pixels->height, &limits, &run.plan, error))
    goto out;
  /* A device that works on the pixels in place has them all first. */
  if (bands && tl_run_in_place (context, pixels) &&
      ! bands->fill (0, pixels->height, bands->data, error))
    goto out;
  if (! tl_run_setup (&run, context, job, pixels, bands ? NULL : &upload,
                      error) ||
      (bands && ! tl_run_bands_upload (&run, bands, uploads, &n_uploads,
                                       error)) ||
      ! tl_run_watch_begin (&run, watch, error))
    goto out;

  for (i = 0; i < repeats; i++)
    {
      first = run.launches->len;
      if (samples ? ! tl_run_timed_pass (&run, &samples[i], kernels, error) :
                    ! job->pass (&run, job->pass_data, error))
        goto out;
    }
  /* The last budget's work, watched. */
  if (run.watch && run.launches->len > 0 &&
      ! tl_run_watch_wait (&run, g_ptr_array_index (run.launches,
                                                    run.launches->len - 1),
                           error))
    goto out;

  if (bands && ! run.in_place)
    {
      if (! tl_run_bands_download (&run, bands, &download_ms, error))
        goto out;
      status = CL_SUCCESS;
    }
  else if (run.in_place)
    {
      /* Mapped, the host's memory holds what the kernels wrote. */
      void *mapped = TL_CL_NEW (clEnqueueMapBuffer, &status,
                                tl_context_get_queue (context), run.output,
                                CL_TRUE, CL_MAP_READ, 0,
                                tl_run_buffer_size (pixels), 0, NULL,
                                &download);

      /* The unmap only lets the buffer go, as the releases do, and goes
       * unchecked like them: a mapping left behind would keep the
       * buffer, its queue and context alive.
       */
      if (status == CL_SUCCESS)
        {
          clEnqueueUnmapMemObject (tl_context_get_queue (context), run.output,
                                   mapped, 0, NULL, NULL);
          status = TL_CL (clFinish, tl_context_get_queue (context));
        }
    }
  else
    status = TL_CL (clEnqueueReadBuffer, tl_context_get_queue (context),
                    run.output, CL_TRUE, 0, tl_run_buffer_size (pixels),
                    pixels->out, 0, NULL, &download);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("reading the result from the device"));
      goto out;
    }
  if (bands && run.in_place &&
      ! bands->drain (MIN (bands->first_row, pixels->height),
                      MIN (bands->rows, pixels->height -
                                        MIN (bands->first_row, pixels->height)),
                      bands->data, error))
    goto out;

  for (i = 0; i < n_uploads; i++)
    upload_ms += tl_run_event_ms (uploads[i], uploads[i]);
  if (times)
    {
      memset (times, 0, sizeof (*times));
      times->launches    = run.launches->len - first;
      times->kernel_ms   = run.launches->len == 0 ? 0.0 :
                           tl_run_event_ms (g_ptr_array_index (run.launches, first),
                                            g_ptr_array_index (run.launches,
                                                               run.launches->len - 1));
      for (i = first; i < run.launches->len; i++)
        {
          cl_event event = g_ptr_array_index (run.launches, i);

          times->longest_ms = MAX (times->longest_ms,
                                   tl_run_event_ms (event, event));
        }
      times->ms_per_group = tl_run_group_ms (&run, first);
      times->upload_ms   = upload ? tl_run_event_ms (upload, upload) : upload_ms;
      times->download_ms = download ? tl_run_event_ms (download, download)
                                    : download_ms;
    }
  ok = TRUE;

 out:
  if (! ok)
    TL_CL (clFinish, tl_context_get_queue (context));
  if (plan)
    *plan = run.plan;
  if (upload)
    clReleaseEvent (upload);
  if (download)
    clReleaseEvent (download);
  tl_run_bands_release (uploads, n_uploads);
  tl_run_clear (&run);
  return ok;
}

gboolean
tl_run_job (TlContext       *context,
            const TlRunJob  *job,
            const TlChoice  *choice,
            const TlPixels  *pixels,
            TlPlan          *plan,
            TlRunTimes      *times,
            GError         **error)
{
  return tl_run_job_banded (context, job, choice, pixels, NULL, NULL, plan,
                            times, error);
}

/* Whether JOB can run on PIXELS: it has a pass, for their storage. */
static gboolean
tl_run_job_fits (const TlRunJob *job,
                 const TlPixels *pixels)
{
  return job->pass != NULL && job->codec == pixels->codec;
}

/* As tl_run_job (), with the pixels moved in bands of rows that BANDS
 * fills and drains (see TlRunBands): PIXELS' memory is the bands'.  With
 * BANDS NULL, PIXELS' input is all there first and the output all back
 * at the end.
 */
gboolean
tl_run_job_banded (TlContext        *context,
                   const TlRunJob   *job,
                   const TlChoice   *choice,
                   const TlPixels   *pixels,
                   const TlRunBands *bands,
                   const TlRunWatch *watch,
                   TlPlan           *plan,
                   TlRunTimes       *times,
                   GError          **error)
{
  g_return_val_if_fail (context != NULL && job != NULL, FALSE);
  g_return_val_if_fail (choice != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL && pixels->in && pixels->out, FALSE);
  g_return_val_if_fail (tl_run_job_fits (job, pixels), FALSE);
  g_return_val_if_fail (bands == NULL || (bands->fill && bands->drain), FALSE);

  return tl_run_execute (context, job, choice, pixels, 1, NULL, NULL, bands,
                         watch, plan, times, error);
}

/* For benchmarks: the image goes to the device once, the kernels run
 * REPEATS times, and SAMPLES gets each run's kernel time in ms.
 */
gboolean
tl_run_job_repeated (TlContext       *context,
                     const TlRunJob  *job,
                     const TlChoice  *choice,
                     const TlPixels  *pixels,
                     guint            repeats,
                     gdouble         *samples,
                     TlPlan          *plan,
                     GError         **error)
{
  g_return_val_if_fail (context != NULL && job != NULL, FALSE);
  g_return_val_if_fail (choice != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL && pixels->in && pixels->out, FALSE);
  g_return_val_if_fail (tl_run_job_fits (job, pixels), FALSE);
  g_return_val_if_fail (repeats > 0 && samples != NULL, FALSE);

  return tl_run_execute (context, job, choice, pixels, repeats, samples, NULL,
                         NULL, NULL, plan, NULL, error);
}

/* For benchmarks: where each pass's kernel time goes.  The job runs
 * REPEATS times on one upload; the result holds a TlKernelTimes for each
 * step of the job (one plan's launches of one kernel), in order, its
 * launches summed a pass.  NULL on error.
 */
GArray *
tl_run_job_kernels (TlContext       *context,
                    const TlRunJob  *job,
                    const TlChoice  *choice,
                    const TlPixels  *pixels,
                    guint            repeats,
                    GError         **error)
{
  g_autoptr(GArray)   kernels = NULL;
  g_autofree gdouble *samples = NULL;

  g_return_val_if_fail (context != NULL && job != NULL, NULL);
  g_return_val_if_fail (choice != NULL, NULL);
  g_return_val_if_fail (pixels != NULL && pixels->in && pixels->out, NULL);
  g_return_val_if_fail (tl_run_job_fits (job, pixels), NULL);
  g_return_val_if_fail (repeats > 0, NULL);

  kernels = g_array_new (FALSE, TRUE, sizeof (TlKernelTimes));
  g_array_set_clear_func (kernels, tl_run_kernel_times_clear);
  samples = g_new (gdouble, repeats);
  if (! tl_run_execute (context, job, choice, pixels, repeats, samples,
                        kernels, NULL, NULL, NULL, NULL, error))
    return NULL;
  return g_steal_pointer (&kernels);
}
