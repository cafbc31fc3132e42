/* ThreadLens: benchmarks of dispatch choices against baselines.
 *
 * Every case is timed from OpenCL events (kernel time only, transfers
 * apart), RUNS times after one warm-up; the median is reported, as a ratio
 * to two baselines measured in the same process: the device's own copy
 * bandwidth (clEnqueueCopyBuffer of the image) and the driver's own choice
 * of local size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "tl-bench.h"
#include "tl-error.h"
#include "tl-report.h"
#include "tl-run.h"

typedef struct
{
  const gchar *label;
  TlChoice     choice;
} TlBenchCase;

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

static gint
tl_bench_compare (gconstpointer a,
                  gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

static gdouble
tl_bench_median (gdouble *samples,
                 guint    n)
{
  qsort (samples, n, sizeof (gdouble), tl_bench_compare);
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

/* Median time of copying SIZE bytes device to device. */
static gboolean
tl_bench_copy_ms (TlContext *context,
                  gsize      size,
                  guint      runs,
                  gdouble   *median,
                  GError   **error)
{
  cl_context        cl     = tl_context_get_cl (context);
  cl_command_queue  queue  = tl_context_get_queue (context);
  g_autofree gdouble *samples = g_new (gdouble, runs);
  cl_mem            a, b;
  cl_int            status = CL_SUCCESS;
  guint             i;

  a = clCreateBuffer (cl, CL_MEM_READ_WRITE, size, NULL, &status);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("allocating the copy baseline's buffers"));
      return FALSE;
    }
  b = clCreateBuffer (cl, CL_MEM_READ_WRITE, size, NULL, &status);
  if (status != CL_SUCCESS)
    {
      clReleaseMemObject (a);
      tl_cl_set_error (error, status, _("allocating the copy baseline's buffers"));
      return FALSE;
    }

  for (i = 0; i <= runs && status == CL_SUCCESS; i++)
    {
      cl_event event = NULL;
      cl_ulong start = 0, end = 0;

      status = clEnqueueCopyBuffer (queue, a, b, 0, 0, size, 0, NULL, &event);
      if (status == CL_SUCCESS)
        status = clWaitForEvents (1, &event);
      if (status == CL_SUCCESS)
        {
          clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
                                   sizeof (start), &start, NULL);
          clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
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

  *median = tl_bench_median (samples, runs);
  return TRUE;
}

static gboolean
tl_bench_case_ms (TlContext      *context,
                  const TlFilter *filter,
                  const TlValue  *values,
                  const TlChoice *choice,
                  const TlPixels *pixels,
                  guint           runs,
                  TlPlan         *plan,
                  gdouble        *median,
                  GError        **error)
{
  g_autofree gdouble *samples = g_new (gdouble, runs + 1);

  /* Sample 0 warms up (first launch of this local size), and is dropped. */
  if (! tl_run_filter_repeated (context, filter, values, choice, pixels,
                                runs + 1, samples, plan, error))
    return FALSE;

  *median = tl_bench_median (samples + 1, runs);
  return TRUE;
}

gboolean
tl_bench_run (TlContext      *context,
              const TlFilter *filter,
              const TlValue  *values,
              const TlChoice *user_choice,
              gboolean        user_chose,
              TlImage        *image,
              gdouble         scale,
              guint           runs,
              gboolean        json,
              GError        **error)
{
  GArray            *cases = g_array_new (FALSE, TRUE, sizeof (TlBenchCase));
  g_autofree gfloat *source = NULL;
  g_autofree gfloat *in = NULL;
  g_autofree gfloat *out = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  TlPixels           pixels;
  TlBenchCase        bench_case;
  guint              src_w, src_h, i;
  gdouble            copy_ms = 0.0, driver_ms = 0.0;
  gsize              bytes;
  gboolean           ok = FALSE;

  /* Scale with GEGL's own resampler: large inputs stay real photos. */
  src_w = tl_image_get_width (image);
  src_h = tl_image_get_height (image);
  pixels.width  = MAX (1, (guint) (src_w * scale));
  pixels.height = MAX (1, (guint) (src_h * scale));
  bytes = (gsize) pixels.width * pixels.height * 4 * sizeof (gfloat);
  in  = g_malloc (bytes);
  out = g_malloc (bytes);
  {
    GeglRectangle rect = { 0, 0, pixels.width, pixels.height };

    gegl_buffer_get (tl_image_get_buffer (image), &rect, scale,
                     babl_format (filter->format), in, GEGL_AUTO_ROWSTRIDE,
                     GEGL_ABYSS_CLAMP);
  }
  pixels.codec = NULL;
  pixels.in    = in;
  pixels.out   = out;

#define TL_BENCH_ADD(text, kind, m, n) G_STMT_START {                  \
    memset (&bench_case, 0, sizeof (bench_case));                     \
    tl_choice_init (&bench_case.choice);                              \
    bench_case.label             = (text);                            \
    bench_case.choice.shape_kind = (kind);                            \
    bench_case.choice.mode       = (m);                               \
    bench_case.choice.swizzle    = (n);                               \
    bench_case.choice.pixels_per_item = filter->default_pixels_per_item; \
    g_array_append_val (cases, bench_case);                           \
  } G_STMT_END

  /* The labels are the JSON's "case" values; the table translates them. */
  TL_BENCH_ADD (N_("driver's local size"), TL_SHAPE_DRIVER, TL_MODE_UNIFORM, 0);
  TL_BENCH_ADD (N_("seed rule, uniform"), TL_SHAPE_SEED, TL_MODE_UNIFORM, 0);
  TL_BENCH_ADD (N_("seed rule, non-uniform"), TL_SHAPE_SEED, TL_MODE_NON_UNIFORM, 0);
  TL_BENCH_ADD (N_("seed rule, emulated"), TL_SHAPE_SEED, TL_MODE_EMULATED, 0);
  TL_BENCH_ADD (N_("seed rule, uniform, swizzle 8"), TL_SHAPE_SEED, TL_MODE_UNIFORM, 8);
  TL_BENCH_ADD (N_("seed rule, uniform, swizzle 16"), TL_SHAPE_SEED, TL_MODE_UNIFORM, 16);
  if (user_chose)
    {
      bench_case.label  = N_("your choice");
      bench_case.choice = *user_choice;
      if (bench_case.choice.pixels_per_item == 0)
        bench_case.choice.pixels_per_item = filter->default_pixels_per_item;
      g_array_append_val (cases, bench_case);
    }
#undef TL_BENCH_ADD

  if (! tl_bench_copy_ms (context, bytes, runs, &copy_ms, error))
    goto out;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "filter");
  json_builder_add_string_value (builder, filter->name);
  json_builder_set_member_name (builder, "device");
  json_builder_add_string_value (builder, tl_context_get_device (context)->name);
  json_builder_set_member_name (builder, "size");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, pixels.width);
  json_builder_add_int_value (builder, pixels.height);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "runs");
  json_builder_add_int_value (builder, runs);
  json_builder_set_member_name (builder, "copy_ms");
  json_builder_add_double_value (builder, copy_ms);
  json_builder_set_member_name (builder, "copy_gb_per_s");
  json_builder_add_double_value (builder, 2.0 * bytes / (copy_ms * 1e6));
  json_builder_set_member_name (builder, "cases");
  json_builder_begin_array (builder);

  if (! json)
    {
      /* TRANSLATORS: the benchmark table's headings: the case, its
       * work-group size, its median time, and its time as a ratio to the
       * driver's choice and to the copy baseline.
       */
      g_autofree gchar *head_case   = tl_bench_pad (_("case"), 34, FALSE);
      g_autofree gchar *head_local  = tl_bench_pad (_("local"), 9, FALSE);
      g_autofree gchar *head_median = tl_bench_pad (_("median ms"), 10, TRUE);
      g_autofree gchar *head_driver = tl_bench_pad (_("/driver"), 9, TRUE);
      g_autofree gchar *head_copy   = tl_bench_pad (_("/copy"), 9, TRUE);

      /* TRANSLATORS: FILTER on DEVICE, WIDTHxHEIGHT pixels, ... */
      g_print (_("%s on %s, %ux%u pixels, median of %u runs\n"),
               filter->name, tl_context_get_device (context)->name,
               pixels.width, pixels.height, runs);
      g_print (_("copy baseline: %.3f ms (%.1f GB/s read + write)\n\n"),
               copy_ms, 2.0 * bytes / (copy_ms * 1e6));
      g_print ("%s %s %s %s %s\n", head_case, head_local, head_median,
               head_driver, head_copy);
    }

  for (i = 0; i < cases->len; i++)
    {
      TlBenchCase     *c = &g_array_index (cases, TlBenchCase, i);
      TlPlan           plan;
      gdouble          ms;
      g_autofree gchar *local = NULL;

      if (! tl_bench_case_ms (context, filter, values, &c->choice, &pixels,
                              runs, &plan, &ms, error))
        goto out;
      if (i == 0)
        driver_ms = ms;

      local = plan.local[0] ? g_strdup_printf ("%ux%u", plan.local[0], plan.local[1])
                            : g_strdup ("NULL");
      if (json)
        {
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "case");
          json_builder_add_string_value (builder, c->label);
          json_builder_set_member_name (builder, "plan");
          json_builder_add_value (builder, tl_report_plan_json (&plan, &(TlLimits) { 0 }));
          json_builder_set_member_name (builder, "median_ms");
          json_builder_add_double_value (builder, ms);
          json_builder_set_member_name (builder, "ratio_to_driver");
          json_builder_add_double_value (builder, ms / driver_ms);
          json_builder_set_member_name (builder, "ratio_to_copy");
          json_builder_add_double_value (builder, ms / copy_ms);
          json_builder_end_object (builder);
        }
      else
        {
          g_autofree gchar *label = tl_bench_pad (_(c->label), 34, FALSE);

          g_print ("%s %-9s %10.3f %9.2f %9.2f\n", label, local, ms,
                   ms / driver_ms, ms / copy_ms);
        }
    }

  json_builder_end_array (builder);
  json_builder_end_object (builder);
  if (json)
    {
      JsonNode         *root = json_builder_get_root (builder);
      g_autofree gchar *text = tl_report_to_string (root);

      g_print ("%s\n", text);
      json_node_unref (root);
    }
  ok = TRUE;

 out:
  g_array_unref (cases);
  return ok;
}
