/* ThreadLens: benchmarks of dispatch choices against baselines.
 *
 * Every case is timed from OpenCL events (kernel time only, transfers
 * apart): one warm-up, then the median of RUNS.  Each is reported against
 * baselines measured in the same process: the one-pass copy (a kernel
 * reading the image once and writing it once in its storage, the floor
 * for any filter), the device's copy bandwidth (clEnqueueCopyBuffer) and
 * the driver's own choice of local size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <gegl.h>
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "kernels/tl-args.h"
#include "tl-bench.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-filter-job.h"
#include "tl-report.h"
#include "tl-run.h"
#include "tl-tune.h"

typedef struct
{
  TlChoice choice;
  TlPlan   plan;
  gdouble  median_ms;
  gdouble  min_ms;
  gboolean failed;          /* over a limit of this kernel: not timed */
  GArray  *kernels;         /* TlKernelTimes, "auto" only (not owned) */
} TlBenchCase;

typedef struct
{
  TlContext            *context;
  const TlFilter       *filter;
  const TlValue        *values;
  const TlBenchOptions *options;
  TlPixels              pixels;
  gsize                 bytes_moved;
  gdouble               copy_ms;
  gdouble               copy_gbps;
  gdouble               pass_ms;
  gdouble               driver_ms;
} TlBench;

/* TEXT padded with spaces to WIDTH terminal columns, on the right (or
 * the left, RIGHT_ALIGN): translated text may hold Chinese or Japanese,
 * two columns a character, where printf's widths count bytes.
 */
static gchar *
tl_bench_pad (const gchar *text,
              guint        width,
              gboolean     right_align)
{
  GString     *padded  = g_string_new (text);
  guint        columns = 0;
  const gchar *p;

  for (p = text; *p; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (! g_unichar_iszerowidth (c))
        columns += g_unichar_iswide (c) ? 2 : 1;
    }
  for (; columns < width; columns++)
    {
      if (right_align)
        g_string_prepend_c (padded, ' ');
      else
        g_string_append_c (padded, ' ');
    }

  return g_string_free (padded, FALSE);
}

/* Median time of copying SIZE bytes device to device: by the driver's
 * clEnqueueCopyBuffer, or (KERNEL) by the one-pass copy kernel with the
 * driver's local size.
 */
static gboolean
tl_bench_copy_ms (TlContext *context,
                  gsize      size,
                  gboolean   kernel,
                  guint      runs,
                  gdouble   *median,
                  GError   **error)
{
  cl_context        cl     = tl_context_get_cl (context);
  cl_command_queue  queue  = tl_context_get_queue (context);
  g_autofree gdouble *samples = g_new (gdouble, runs);
  cl_kernel         copy   = NULL;
  cl_int            count  = size / 16;
  gsize             global = (count + 255) / 256 * 256;
  cl_mem            a, b;
  cl_int            status = CL_SUCCESS;
  guint             i;

  if (kernel)
    {
      copy = tl_context_get_kernel (context, "copy", "tl_copy_pass", error);
      if (copy == NULL)
        return FALSE;
    }
  a = TL_CL_NEW (clCreateBuffer, &status, cl, CL_MEM_READ_WRITE, size, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("allocating the copy baseline's buffers"));
      return FALSE;
    }
  b = TL_CL_NEW (clCreateBuffer, &status, cl, CL_MEM_READ_WRITE, size, NULL);
  if (status != CL_SUCCESS)
    {
      clReleaseMemObject (a);
      tl_cl_set_error (error, status, _("allocating the copy baseline's buffers"));
      return FALSE;
    }
  if (kernel)
    {
      status = TL_CL (clSetKernelArg, copy, TL_ARG_COPY_PASS_IN, sizeof (cl_mem),
                      &a);
      if (status == CL_SUCCESS)
        status = TL_CL (clSetKernelArg, copy, TL_ARG_COPY_PASS_OUT,
                        sizeof (cl_mem), &b);
      if (status == CL_SUCCESS)
        status = TL_CL (clSetKernelArg, copy, TL_ARG_COPY_PASS_COUNT,
                        sizeof (cl_int), &count);
    }

  for (i = 0; i <= runs && status == CL_SUCCESS; i++)
    {
      cl_event event = NULL;
      cl_ulong start = 0, end = 0;

      if (kernel)
        status = TL_CL (clEnqueueNDRangeKernel, queue, copy, 1, NULL, &global,
                        NULL, 0, NULL, &event);
      else
        status = TL_CL (clEnqueueCopyBuffer, queue, a, b, 0, 0, size, 0, NULL,
                        &event);
      if (status == CL_SUCCESS)
        status = TL_CL (clWaitForEvents, 1, &event);
      if (status == CL_SUCCESS)
        {
          TL_CL (clGetEventProfilingInfo, event, CL_PROFILING_COMMAND_START,
                 sizeof (start), &start, NULL);
          TL_CL (clGetEventProfilingInfo, event, CL_PROFILING_COMMAND_END,
                 sizeof (end), &end, NULL);
          if (i > 0)
            samples[i - 1] = (end - start) / 1e6;
        }
      if (event)
        clReleaseEvent (event);
    }

  clReleaseMemObject (a);
  clReleaseMemObject (b);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("timing the copy baseline"));
      return FALSE;
    }

  *median = tl_tune_median (samples, runs);
  return TRUE;
}

/* What the filter must read and write at the least: the image in and
 * out (the blurs' fused pass does no more; where its block does not fit,
 * their two passes also move a float scratch image, which the ratio then
 * shows).
 */
static gsize
tl_bench_bytes_moved (gsize pixels,
                      gsize pixel_size)
{
  return 2 * pixels * pixel_size;
}

static gchar *
tl_bench_shape_text (const TlBenchCase *c)
{
  if (c->choice.shape_kind == TL_SHAPE_DRIVER)
    return g_strdup ("driver");
  return g_strdup_printf ("%ux%u", c->plan.local[0], c->plan.local[1]);
}

static gboolean
tl_bench_time (TlBench     *bench,
               TlBenchCase *c,
               GError     **error)
{
  g_autoptr(GError) local = NULL;

  if (tl_tune_measure (bench->context, bench->filter, bench->values,
                       &c->choice, &bench->pixels, bench->options->runs,
                       &c->median_ms, &c->min_ms, &c->plan, &local))
    return TRUE;

  /* A sweep meets shapes over this kernel's limits: skipped, said. */
  if (bench->options->sweep && tl_tune_cannot_plan (local))
    {
      c->failed = TRUE;
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* KERNEL's median over the passes after the first (a warm-up, as the
 * bench's own timings leave out).
 */
static gdouble
tl_bench_kernel_ms (const TlKernelTimes *kernel)
{
  g_autofree gdouble *samples = NULL;
  guint               n       = kernel->samples->len - 1;

  if (kernel->samples->len < 2)
    return 0.0;
  samples = g_memdup2 (&g_array_index (kernel->samples, gdouble, 1),
                       n * sizeof (gdouble));
  return tl_tune_median (samples, n);
}

static void
tl_bench_print_json (TlBench           *bench,
                     const TlBenchCase *c,
                     const gchar       *label)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree gchar      *shape   = tl_bench_shape_text (c);
  g_autofree gchar      *text    = NULL;
  JsonNode              *root;
  gdouble                gbps    = bench->bytes_moved / (c->median_ms * 1e6);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "filter");
  json_builder_add_string_value (builder, bench->filter->name);
  json_builder_set_member_name (builder, "device");
  json_builder_add_string_value (builder, tl_context_get_device (bench->context)->name);
  json_builder_set_member_name (builder, "size");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, bench->pixels.width);
  json_builder_add_int_value (builder, bench->pixels.height);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "storage");
  json_builder_add_string_value (builder, bench->options->storage);
  json_builder_set_member_name (builder, "case");
  json_builder_add_string_value (builder, label);
  json_builder_set_member_name (builder, "shape");
  json_builder_add_string_value (builder, shape);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, tl_mode_to_string (c->choice.mode));
  json_builder_set_member_name (builder, "swizzle");
  json_builder_add_int_value (builder, c->plan.swizzle);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, c->plan.pixels_per_item);
  json_builder_set_member_name (builder, "launches");
  json_builder_add_int_value (builder, c->plan.n_launches);
  json_builder_set_member_name (builder, "median_ms");
  json_builder_add_double_value (builder, c->median_ms);
  json_builder_set_member_name (builder, "min_ms");
  json_builder_add_double_value (builder, c->min_ms);
  json_builder_set_member_name (builder, "runs");
  json_builder_add_int_value (builder, bench->options->runs);
  json_builder_set_member_name (builder, "bytes_moved");
  json_builder_add_int_value (builder, bench->bytes_moved);
  json_builder_set_member_name (builder, "gbps");
  json_builder_add_double_value (builder, gbps);
  json_builder_set_member_name (builder, "copy_gbps");
  json_builder_add_double_value (builder, bench->copy_gbps);
  json_builder_set_member_name (builder, "ratio_to_copy");
  json_builder_add_double_value (builder, gbps / bench->copy_gbps);
  json_builder_set_member_name (builder, "one_pass_copy_ms");
  json_builder_add_double_value (builder, bench->pass_ms);
  json_builder_set_member_name (builder, "ratio_to_one_pass");
  json_builder_add_double_value (builder, c->median_ms / bench->pass_ms);
  json_builder_set_member_name (builder, "ratio_to_driver");
  json_builder_add_double_value (builder, c->median_ms / bench->driver_ms);
  if (c->kernels)
    {
      guint i;

      json_builder_set_member_name (builder, "kernels");
      json_builder_begin_array (builder);
      for (i = 0; i < c->kernels->len; i++)
        {
          const TlKernelTimes *kernel = &g_array_index (c->kernels,
                                                        TlKernelTimes, i);

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "kernel");
          json_builder_add_string_value (builder, kernel->kernel);
          json_builder_set_member_name (builder, "launches");
          json_builder_add_int_value (builder, kernel->launches);
          json_builder_set_member_name (builder, "median_ms");
          json_builder_add_double_value (builder, tl_bench_kernel_ms (kernel));
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = json_to_string (root, FALSE);
  g_print ("%s\n", text);
  json_node_unref (root);
}

static void
tl_bench_print_row (TlBench           *bench,
                    const TlBenchCase *c,
                    const gchar       *label)
{
  g_autofree gchar *shape  = tl_bench_shape_text (c);
  g_autofree gchar *padded = tl_bench_pad (label, 30, FALSE);
  gdouble           gbps   = bench->bytes_moved / (c->median_ms * 1e6);

  g_print ("%s %-9s %-11s %3u %2u %10.3f %8.1f %7.2f %7.2f %7.2f\n", padded,
           shape, tl_mode_to_string (c->choice.mode), c->plan.swizzle,
           c->plan.pixels_per_item, c->median_ms, gbps,
           gbps / bench->copy_gbps, c->median_ms / bench->pass_ms,
           c->median_ms / bench->driver_ms);
  if (c->kernels)
    {
      guint i;

      for (i = 0; i < c->kernels->len; i++)
        {
          const TlKernelTimes *kernel = &g_array_index (c->kernels,
                                                        TlKernelTimes, i);
          gdouble              ms     = tl_bench_kernel_ms (kernel);
          /* TRANSLATORS: a kernel's launches in one run of a filter. */
          g_autofree gchar    *count  =
            g_strdup_printf (ngettext ("%u launch", "%u launches",
                                       kernel->launches), kernel->launches);
          g_autofree gchar    *padded = tl_bench_pad (count, 12, FALSE);

          /* TRANSLATORS: one kernel's part of the row above: its name,
           * its launches, its median time and that time as a multiple of
           * the one-pass copy's.
           */
          g_print (_("  %-28s %s %10.3f ms %7.2f x 1-pass\n"),
                   kernel->kernel, padded, ms, ms / bench->pass_ms);
        }
    }
}

static void
tl_bench_report (TlBench           *bench,
                 const TlBenchCase *c,
                 const gchar       *label)
{
  if (c->failed)
    return;
  if (bench->options->output == TL_BENCH_JSON_LINES)
    tl_bench_print_json (bench, c, label);
  else if (bench->options->output == TL_BENCH_TABLE)
    tl_bench_print_row (bench, c, label);
}

/* A 3x5 pixel font for the heat map's axis numbers. */
static const guint16 tl_bench_digits[10] =
{
  075557, 022222, 071747, 071717, 055711, 074717, 074757, 071111, 075757, 075717
};

static void
tl_bench_draw_number (guint8 *rgba,
                      guint   stride,
                      guint   x,
                      guint   y,
                      guint   number,
                      guint   zoom)
{
  g_autofree gchar *text = g_strdup_printf ("%u", number);
  guint             i, row, col, dy, dx;

  for (i = 0; text[i]; i++)
    for (row = 0; row < 5; row++)
      for (col = 0; col < 3; col++)
        if (tl_bench_digits[text[i] - '0'] >> (3 * (4 - row) + (2 - col)) & 1)
          for (dy = 0; dy < zoom; dy++)
            for (dx = 0; dx < zoom; dx++)
              {
                guint8 *p = rgba + ((gsize) (y + row * zoom + dy) * stride +
                                    x + (i * 4 + col) * zoom + dx) * 4;

                p[0] = p[1] = p[2] = 230;
                p[3] = 255;
              }
}

/* The shape sweep: rows are heights, columns widths, each cell the best
 * time of that shape over modes, swizzles and k, written as a percentage
 * of the fastest shape's speed and coloured from the slowest shape (dark
 * blue) to the fastest (yellow).  Widths are labelled along the top,
 * heights down the left; shapes not timed stay dark.
 */
static gboolean
tl_bench_heatmap (TlBench     *bench,
                  GArray      *cases,
                  const gchar *path,
                  GError     **error)
{
  const guint       cell = 44, zoom = 3, margin = 60;
  guint             widths[16], heights[16], n_w = 0, n_h = 0;
  guint             i, j, x, y, img_w, img_h;
  gdouble           best = G_MAXDOUBLE, worst = 0.0;
  gdouble           cells[16][16];
  g_autofree guint8 *rgba = NULL;
  GeglRectangle     extent;
  GeglBuffer       *buffer;
  GeglNode         *graph, *source, *sink;

  for (i = 0; i < cases->len; i++)
    {
      TlBenchCase *c = &g_array_index (cases, TlBenchCase, i);

      if (c->failed || c->choice.shape_kind != TL_SHAPE_CUSTOM)
        continue;
      for (j = 0; j < n_w && widths[j] != c->choice.shape[0]; j++);
      if (j == n_w && n_w < G_N_ELEMENTS (widths))
        widths[n_w++] = c->choice.shape[0];
      for (j = 0; j < n_h && heights[j] != c->choice.shape[1]; j++);
      if (j == n_h && n_h < G_N_ELEMENTS (heights))
        heights[n_h++] = c->choice.shape[1];
    }
  if (n_w == 0)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("--heatmap needs --sweep"));
      return FALSE;
    }
  for (i = 0; i < n_w; i++)
    for (j = i + 1; j < n_w; j++)
      if (widths[j] < widths[i])
        { guint t = widths[i]; widths[i] = widths[j]; widths[j] = t; }
  for (i = 0; i < n_h; i++)
    for (j = i + 1; j < n_h; j++)
      if (heights[j] < heights[i])
        { guint t = heights[i]; heights[i] = heights[j]; heights[j] = t; }

  for (i = 0; i < 16; i++)
    for (j = 0; j < 16; j++)
      cells[i][j] = G_MAXDOUBLE;
  for (i = 0; i < cases->len; i++)
    {
      TlBenchCase *c = &g_array_index (cases, TlBenchCase, i);
      guint        col, row;

      if (c->failed || c->choice.shape_kind != TL_SHAPE_CUSTOM)
        continue;
      for (col = 0; col < n_w && widths[col] != c->choice.shape[0]; col++);
      for (row = 0; row < n_h && heights[row] != c->choice.shape[1]; row++);
      if (col < n_w && row < n_h)
        cells[row][col] = MIN (cells[row][col], c->median_ms);
    }
  for (i = 0; i < n_h; i++)
    for (j = 0; j < n_w; j++)
      if (cells[i][j] < G_MAXDOUBLE)
        {
          best  = MIN (best, cells[i][j]);
          worst = MAX (worst, cells[i][j]);
        }

  img_w = margin + n_w * cell;
  img_h = margin + n_h * cell;
  rgba  = g_malloc0 ((gsize) img_w * img_h * 4);
  for (i = 0; i < (guint) img_w * img_h; i++)
    {
      rgba[i * 4 + 0] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = 24;
      rgba[i * 4 + 3] = 255;
    }

  for (i = 0; i < n_h; i++)
    for (j = 0; j < n_w; j++)
      {
        gdouble t;
        guint8  colour[3];

        if (cells[i][j] == G_MAXDOUBLE)
          continue;
        t = worst > best ? (worst / cells[i][j] - 1.0) / (worst / best - 1.0) : 1.0;
        colour[0] = 20 + t * 200;
        colour[1] = 30 + t * 160;
        colour[2] = 110 - t * 90;
        for (y = 2; y < cell - 2; y++)
          for (x = 2; x < cell - 2; x++)
            memcpy (rgba + ((gsize) (margin + i * cell + y) * img_w +
                            margin + j * cell + x) * 4, colour, 3);
        tl_bench_draw_number (rgba, img_w, margin + j * cell + 6,
                              margin + i * cell + 12,
                              (guint) (100.0 * best / cells[i][j] + 0.5), 2);
      }
  for (i = 0; i < n_w; i++)
    tl_bench_draw_number (rgba, img_w, margin + i * cell + 4, margin - 20,
                          widths[i], zoom);
  for (i = 0; i < n_h; i++)
    tl_bench_draw_number (rgba, img_w, 4, margin + i * cell + 12,
                          heights[i], zoom);

  extent = (GeglRectangle) { 0, 0, img_w, img_h };
  buffer = gegl_buffer_new (&extent, babl_format ("R'G'B'A u8"));
  gegl_buffer_set (buffer, &extent, 0, babl_format ("R'G'B'A u8"), rgba,
                   GEGL_AUTO_ROWSTRIDE);
  graph  = gegl_node_new ();
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                "buffer", buffer, NULL);
  sink   = gegl_node_new_child (graph, "operation", "gegl:png-save",
                                "path", path, NULL);
  gegl_node_link (source, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  g_object_unref (buffer);

  if (! g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot write the heat map to '%s'"), path);
      return FALSE;
    }
  return TRUE;
}

/* IN (the pixels as the kernels read them) to PREFIX-pixels.raw and
 * CODEC's table (none for float storage: an empty file) to
 * PREFIX-codec.raw, as they lie in memory.
 */
static gboolean
tl_bench_save_input (const gchar   *prefix,
                     gconstpointer  in,
                     gsize          n_pixels,
                     const TlCodec *codec,
                     GError       **error)
{
  g_autofree gchar *pixels_path = g_strconcat (prefix, "-pixels.raw", NULL);
  g_autofree gchar *codec_path  = g_strconcat (prefix, "-codec.raw", NULL);
  gsize             n_floats    = 0;
  const gfloat     *table       = tl_codec_get_table (codec, &n_floats);

  return (g_file_set_contents (pixels_path, in,
                               n_pixels * tl_codec_get_pixel_size (codec),
                               error) &&
          g_file_set_contents (codec_path, table ? (const gchar *) table : "",
                               table ? n_floats * sizeof (gfloat) : 0, error));
}

/* The photo scaled to cover WIDTH x HEIGHT, in the storage asked for. */
static gpointer
tl_bench_pixels (TlImage      *image,
                 const TlCodec *codec,
                 guint         width,
                 guint         height)
{
  GeglRectangle rect  = { 0, 0, width, height };
  gdouble       scale = MAX ((gdouble) width / tl_image_get_width (image),
                             (gdouble) height / tl_image_get_height (image));
  gpointer      data  = g_malloc ((gsize) width * height *
                                  tl_codec_get_pixel_size (codec));

  gegl_buffer_get (tl_image_get_buffer (image), &rect, scale,
                   tl_codec_get_format (codec), data, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_CLAMP);
  return data;
}

#define TL_BENCH_ROUNDS  5     /* interleaved rounds of a sweep's best */
#define TL_BENCH_CONFIRM 5     /* sweep cases re-timed in those rounds */

/* Progress on a terminal only: a sweep on a CPU runs for minutes. */
static void
tl_bench_progress (TlBench     *bench,
                   const gchar *what,     /* a format with two %u */
                   guint        done,
                   guint        total)
{
  if (! isatty (STDERR_FILENO) || total < 2)
    return;
  g_printerr ("\r");
  g_printerr (what, done, total);
  g_printerr (done == total ? "\r\033[K" : "\033[K");
}

static gboolean
tl_bench_tune_progress (const TlTuneStatus *status,
                        gpointer            data)
{
  TlBench *bench = data;

  if (! isatty (STDERR_FILENO))
    return TRUE;
  if (status->fraction >= 1.0)
    {
      g_printerr ("\r\033[K");
      return TRUE;
    }
  /* TRANSLATORS: progress of the search on a terminal: the share of its
   * time budget spent, choices timed, the fastest so far.
   */
  g_printerr ("\r");
  g_printerr (_("tuning: %3.0f%% of %.1f s, %u choices timed, best %ux%u "
                "swizzle %u k %u: %.3f ms"),
              100.0 * status->fraction, bench->options->tune_budget_s,
              status->n_timed, status->best.shape[0], status->best.shape[1],
              status->best.swizzle, status->best.pixels_per_item,
              status->best_ms);
  g_printerr ("\033[K");
  return TRUE;
}

static const gchar *
tl_bench_label (const TlBenchOptions *options,
                guint                 i,
                guint                 n_fixed)
{
  switch (i)
    {
    case 0:
      return "driver";
    case 1:
      return "seed";
    case 2:
      return "auto (untuned rule)";
    default:
      return options->user_choice && i == 3 ? "yours" : "sweep";
    }
}

static gint
tl_bench_compare_cases (gconstpointer a,
                        gconstpointer b)
{
  const TlBenchCase *x = *(TlBenchCase *const *) a;
  const TlBenchCase *y = *(TlBenchCase *const *) b;

  return (x->median_ms > y->median_ms) - (x->median_ms < y->median_ms);
}

/* Re-times the baselines (the first N_FIXED cases and AUTO_INDEX's) and
 * the sweep's TL_BENCH_CONFIRM fastest in TL_BENCH_ROUNDS rounds, one
 * case after another in each, and gives each the median of its rounds.
 * NOISE: the fastest's median absolute deviation over its rounds, as a
 * share of its median.
 */
static gboolean
tl_bench_confirm (TlBench  *bench,
                  GArray   *cases,
                  guint     n_fixed,
                  guint     auto_index,
                  gdouble  *noise,
                  GError  **error)
{
  g_autoptr(GPtrArray) sweep  = g_ptr_array_new ();
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  g_autofree gdouble  *rounds = NULL;
  gdouble              deviations[TL_BENCH_ROUNDS];
  TlBenchCase         *fastest = NULL;
  guint                i, r;

  for (i = n_fixed; i < auto_index; i++)
    if (! g_array_index (cases, TlBenchCase, i).failed)
      g_ptr_array_add (sweep, &g_array_index (cases, TlBenchCase, i));
  g_ptr_array_sort (sweep, tl_bench_compare_cases);
  for (i = 0; i < n_fixed; i++)
    g_ptr_array_add (chosen, &g_array_index (cases, TlBenchCase, i));
  g_ptr_array_add (chosen, &g_array_index (cases, TlBenchCase, auto_index));
  for (i = 0; i < sweep->len && i < TL_BENCH_CONFIRM; i++)
    g_ptr_array_add (chosen, g_ptr_array_index (sweep, i));

  rounds = g_new (gdouble, chosen->len * TL_BENCH_ROUNDS);
  for (r = 0; r < TL_BENCH_ROUNDS; r++)
    for (i = 0; i < chosen->len; i++)
      {
        TlBenchCase *c = g_ptr_array_index (chosen, i);

        /* TRANSLATORS: progress on a terminal. */
        tl_bench_progress (bench, _("interleaved rounds: %u of %u timings"),
                           r * chosen->len + i + 1,
                           TL_BENCH_ROUNDS * chosen->len);
        if (! tl_bench_time (bench, c, error))
          return FALSE;
        rounds[i * TL_BENCH_ROUNDS + r] = c->median_ms;
      }

  for (i = 0; i < chosen->len; i++)
    {
      TlBenchCase *c = g_ptr_array_index (chosen, i);

      c->median_ms = tl_tune_median (&rounds[i * TL_BENCH_ROUNDS], TL_BENCH_ROUNDS);
      if (fastest == NULL || c->median_ms < fastest->median_ms)
        fastest = c;
    }
  i = 0;
  while (g_ptr_array_index (chosen, i) != fastest)
    i++;
  for (r = 0; r < TL_BENCH_ROUNDS; r++)
    deviations[r] = fabs (rounds[i * TL_BENCH_ROUNDS + r] - fastest->median_ms);
  *noise = tl_tune_median (deviations, TL_BENCH_ROUNDS) / fastest->median_ms;
  return TRUE;
}

static void
tl_bench_add (GArray         *cases,
              TlShapeKind     kind,
              guint           w,
              guint           h,
              TlMode          mode,
              guint           swizzle,
              guint           k)
{
  TlBenchCase c;

  memset (&c, 0, sizeof (c));
  tl_choice_init (&c.choice);
  c.choice.shape_kind      = kind;
  c.choice.shape[0]        = w;
  c.choice.shape[1]        = h;
  c.choice.mode            = mode;
  c.choice.swizzle         = swizzle;
  c.choice.pixels_per_item = k;
  g_array_append_val (cases, c);
}

gboolean
tl_bench_run (TlContext            *context,
              const TlFilter       *filter,
              const TlValue        *values,
              TlImage              *image,
              const TlBenchOptions *options,
              GError              **error)
{
  g_autoptr(GArray)   cases = g_array_new (FALSE, TRUE, sizeof (TlBenchCase));
  g_autoptr(TlCodec)  codec = NULL;
  g_auto(TlFilterJob) job = { { NULL, }, };
  g_autoptr(GArray)   kernels = NULL;
  g_autofree gpointer in = NULL, out = NULL;
  TlBench             bench = { context, filter, values, options };
  TlBenchCase        *fastest, *seed, *driver, *rule, *autoc;
  TlBenchCase         tuned;
  TlTuning            tuning;
  TlLimits            limits;
  TlPlan              plan, rule_plan;
  TlChoice            base;
  gdouble             noise = 0.0;
  gsize               n;
  guint               i, n_fixed, auto_index;

  codec = tl_codec_new_for_storage (options->storage, tl_image_get_format (image),
                                    filter->format, error);
  if (codec == NULL)
    return FALSE;

  n   = (gsize) options->width * options->height;
  in  = tl_bench_pixels (image, codec, options->width, options->height);
  out = g_malloc (n * tl_codec_get_pixel_size (codec));
  bench.pixels.width  = options->width;
  bench.pixels.height = options->height;
  bench.pixels.codec  = codec;
  bench.pixels.in     = in;
  bench.pixels.out    = out;
  bench.bytes_moved   = tl_bench_bytes_moved (n, tl_codec_get_pixel_size (codec));
  if (options->save_input &&
      ! tl_bench_save_input (options->save_input, in, n, codec, error))
    return FALSE;

  if (! tl_bench_copy_ms (context, n * tl_codec_get_pixel_size (codec),
                          FALSE, options->runs, &bench.copy_ms, error) ||
      ! tl_bench_copy_ms (context, n * tl_codec_get_pixel_size (codec),
                          TRUE, options->runs, &bench.pass_ms, error))
    return FALSE;
  bench.copy_gbps = 2.0 * n * tl_codec_get_pixel_size (codec) /
                    (bench.copy_ms * 1e6);

  tl_choice_init (&base);
  base.pixels_per_item = 0;
  if (! tl_filter_job_init (&job, filter, values, codec, error) ||
      ! tl_run_plan_job (context, &job.run, &base, options->width,
                         options->height, &limits, &plan, error))
    return FALSE;
  base.pixels_per_item = tl_run_job_auto_pixels (&job.run, limits.device_kind);
  if (! tl_plan_compute (&limits, &base, options->width, options->height,
                         &rule_plan, error))
    return FALSE;

  /* The baselines first: the driver's choice, the seed rule and the
   * device's rule (untuned "auto", whatever the tuning store holds).
   */
  tl_bench_add (cases, TL_SHAPE_DRIVER, 0, 0, TL_MODE_UNIFORM, 0,
                base.pixels_per_item);
  tl_bench_add (cases, TL_SHAPE_SEED, 0, 0, TL_MODE_UNIFORM, 0,
                base.pixels_per_item);
  tl_bench_add (cases, TL_SHAPE_CUSTOM, rule_plan.local[0], rule_plan.local[1],
                TL_MODE_UNIFORM, 0, rule_plan.pixels_per_item);
  if (options->user_choice)
    {
      TlBenchCase c;

      memset (&c, 0, sizeof (c));
      c.choice = *options->user_choice;
      if (c.choice.pixels_per_item == 0)
        c.choice.pixels_per_item = base.pixels_per_item;
      g_array_append_val (cases, c);
    }
  n_fixed = cases->len;
  if (options->sweep)
    {
      static const TlMode modes[]    = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM };
      static const guint  swizzles[] = { 0, 8 };
      static const guint  ks[]       = { 1, 2, 4 };
      g_autoptr(GArray)   shapes     = tl_tune_candidates (&limits, &base);
      guint               n_modes    = options->sweep == TL_BENCH_SWEEP_ALL ?
                                       G_N_ELEMENTS (modes) : 1;
      guint               n_swizzles = options->sweep == TL_BENCH_SWEEP_ALL ?
                                       G_N_ELEMENTS (swizzles) : 1;
      guint               s, m, z, k;

      for (s = 0; s < shapes->len; s++)
        for (m = 0; m < n_modes; m++)
          for (z = 0; z < n_swizzles; z++)
            for (k = 0; k < G_N_ELEMENTS (ks); k++)
              {
                const TlChoice *shape = &g_array_index (shapes, TlChoice, s);

                tl_bench_add (cases, TL_SHAPE_CUSTOM, shape->shape[0],
                              shape->shape[1], modes[m], swizzles[z], ks[k]);
              }
    }

  if (options->output == TL_BENCH_TABLE)
    {
      /* TRANSLATORS: FILTER on DEVICE, WIDTHxHEIGHT pixels, STORAGE, ... */
      g_print (_("%s on %s, %ux%u pixels, %s storage, median of %u runs\n"),
               filter->name, tl_context_get_device (context)->name,
               options->width, options->height, options->storage,
               options->runs);
      g_print (_("copy baseline: %.3f ms (%.1f GB/s read + write); the filter "
                 "moves at least %.1f MB\n"),
               bench.copy_ms, bench.copy_gbps, bench.bytes_moved / 1e6);
      g_print (_("one-pass copy: %.3f ms (a kernel reading the image once and "
                 "writing it once)\n\n"), bench.pass_ms);
      /* TRANSLATORS: the columns of the benchmark table. */
      /* TRANSLATORS: "/copy" is bandwidth against the buffer copy's,
       * "x 1-pass" the time as a multiple of the one-pass copy's.
       */
      g_print ("%-30s %-9s %-11s %3s %2s %10s %8s %7s %7s %7s\n", _("case"),
               _("local"), _("mode"), "swz", "k", _("median ms"), "GB/s",
               _("/copy"), _("x 1-pass"), _("/driver"));
    }

  for (i = 0; i < cases->len; i++)
    {
      TlBenchCase *c = &g_array_index (cases, TlBenchCase, i);

      if (! tl_bench_time (&bench, c, error))
        return FALSE;
      if (i == 0)
        bench.driver_ms = c->median_ms;
      /* TRANSLATORS: progress on a terminal. */
      tl_bench_progress (&bench, _("timing: %u of %u cases"), i + 1, cases->len);
      tl_bench_report (&bench, c, tl_bench_label (options, i, n_fixed));
    }

  /* "auto" as a user's run leaves it (tuned or the device's rule, with
   * the filter's own pixels per item for the storage), after a search
   * when one is asked for.
   */
  if (options->tune_budget_s > 0.0 &&
      ! tl_tune_search (context, filter, values, TL_MODE_UNIFORM, &bench.pixels,
                        options->tune_budget_s, tl_bench_tune_progress, &bench,
                        &tuning, error))
    return FALSE;
  memset (&tuned, 0, sizeof (tuned));
  tl_choice_init (&tuned.choice);
  tuned.choice.pixels_per_item = 0;
  if (! tl_bench_time (&bench, &tuned, error))
    return FALSE;
  /* Where its time goes, step by step (a warm-up pass, then RUNS). */
  kernels = tl_run_job_kernels (context, &job.run, &tuned.choice,
                                &bench.pixels, options->runs + 1, error);
  if (kernels == NULL)
    return FALSE;
  tuned.kernels = kernels;
  tl_bench_report (&bench, &tuned, tuned.plan.tuned ? "auto (tuned)" :
                                                      "auto (not tuned)");
  g_array_append_val (cases, tuned);
  auto_index = cases->len - 1;

  /* A sweep's best and the baselines again, in interleaved rounds, so
   * that the shares below compare times taken side by side and the best
   * carries its own noise.
   */
  if (options->sweep &&
      ! tl_bench_confirm (&bench, cases, n_fixed, auto_index, &noise, error))
    return FALSE;

  fastest = NULL;
  for (i = 0; i < cases->len; i++)
    {
      TlBenchCase *c = &g_array_index (cases, TlBenchCase, i);

      if (! c->failed && (fastest == NULL || c->median_ms < fastest->median_ms))
        fastest = c;
    }
  driver = &g_array_index (cases, TlBenchCase, 0);
  seed   = &g_array_index (cases, TlBenchCase, 1);
  rule   = &g_array_index (cases, TlBenchCase, 2);
  autoc  = &g_array_index (cases, TlBenchCase, auto_index);

  if (options->output == TL_BENCH_TABLE)
    {
      g_autofree gchar *shape = tl_bench_shape_text (fastest);

      g_print (_("\nfastest: %s, %s, swizzle %u, %u px/item: %.3f ms; "
                 "auto %.3f ms (%.0f%% of the fastest's speed), untuned rule "
                 "%.0f%%, seed rule %.0f%%, driver %.0f%%\n"),
               shape, tl_mode_to_string (fastest->choice.mode),
               fastest->plan.swizzle, fastest->plan.pixels_per_item,
               fastest->median_ms, autoc->median_ms,
               100.0 * fastest->median_ms / autoc->median_ms,
               100.0 * fastest->median_ms / rule->median_ms,
               100.0 * fastest->median_ms / seed->median_ms,
               100.0 * fastest->median_ms / driver->median_ms);
      if (options->sweep)
        g_print (_("the shares come from %u interleaved rounds of the best "
                   "cases; the fastest's rounds spread by %.1f%% (median "
                   "absolute deviation)\n"), TL_BENCH_ROUNDS, 100.0 * noise);
      if (options->tune_budget_s > 0.0)
        g_print (_("tuning: %u choices in %.2f s%s\n"), tuning.n_choices,
                 tuning.search_s,
                 tuning.cut_short ? _(", cut short by the budget") : "");
    }
  else if (options->output == TL_BENCH_MARKDOWN)
    {
      g_autofree gchar *shape      = tl_bench_shape_text (fastest);
      g_autofree gchar *rule_shape = tl_bench_shape_text (rule);
      g_autofree gchar *auto_shape = tl_bench_shape_text (autoc);
      g_autofree gchar *search     = options->tune_budget_s > 0.0 ?
                                     g_strdup_printf ("%.2f s", tuning.search_s) :
                                     g_strdup ("-");

      /* filter | storage | untuned auto | tuned auto | seed | driver |
       * sweep best (noise) | search time
       */
      g_print ("| %s | %s | %s k %u: %.0f%% | %s swz %u k %u: %.0f%% | %.0f%% | "
               "%.0f%% | %s %s swz %u k %u: %.3f ms (±%.1f%%) | %s |\n",
               filter->name, options->storage,
               rule_shape, rule->plan.pixels_per_item,
               100.0 * fastest->median_ms / rule->median_ms,
               auto_shape, autoc->plan.swizzle, autoc->plan.pixels_per_item,
               100.0 * fastest->median_ms / autoc->median_ms,
               100.0 * fastest->median_ms / seed->median_ms,
               100.0 * fastest->median_ms / driver->median_ms,
               shape, tl_mode_to_string (fastest->choice.mode),
               fastest->plan.swizzle, fastest->plan.pixels_per_item,
               fastest->median_ms, 100.0 * noise, search);
    }

  if (options->heatmap &&
      ! tl_bench_heatmap (&bench, cases, options->heatmap, error))
    return FALSE;

  return TRUE;
}
