/* ThreadLens: what apply tells: the run's plan and times after it, or,
 * with --dry-run, its expected time before (tl_estimate_region ()), OUT
 * not written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-cli-report.h"
#include "tl-estimate.h"
#include "tl-report.h"

void
tl_cli_report_run (const TlFilter        *filter,
                   const gchar           *device,
                   const TlPlan          *plan,
                   const TlLimits        *limits,
                   const TlProcessReport *report,
                   const gchar           *in,
                   const gchar           *out,
                   gboolean               json)
{
  if (json)
    {
      JsonObject       *object;
      JsonNode         *node    = tl_report_plan_json (plan, limits);
      g_autofree gchar *printed = NULL;

      object = json_node_get_object (node);
      json_object_set_string_member (object, "filter", filter->name);
      json_object_set_string_member (object, "device", device);
      json_object_set_string_member (object, "storage", report->storage);
      json_object_set_int_member (object, "bytes_per_pixel", report->pixel_size);
      json_object_set_int_member (object, "tiles", report->tiles);
      json_object_set_double_member (object, "kernel_ms", report->times.kernel_ms);
      json_object_set_double_member (object, "longest_launch_ms",
                                     report->times.longest_ms);
      json_object_set_int_member (object, "launches", report->times.launches);
      json_object_set_double_member (object, "upload_ms", report->times.upload_ms);
      json_object_set_double_member (object, "download_ms", report->times.download_ms);
      json_object_set_string_member (object, "output", out);
      printed = tl_report_to_string (node);
      json_node_unref (node);
      g_print ("%s\n", printed);
    }
  else
    {
      g_autofree gchar *text = tl_report_plan_text (plan, limits);

      /* TRANSLATORS: FILTER on DEVICE: IN -> OUT */
      g_print (_("%s on %s: %s -> %s\n"), filter->name, device, in, out);
      g_print ("%s", text);
      /* TRANSLATORS: a line of the plan report: the value in the
       * report's column (column 15 in English).
       */
      g_print (g_dngettext (GETTEXT_PACKAGE,
                            "kernel time   %.3f ms in %u launch\n",
                            "kernel time   %.3f ms in %u launches\n",
                            report->times.launches),
               report->times.kernel_ms, report->times.launches);
      /* TRANSLATORS: a line of the plan report, as above: how pixels
       * travel to the device, e.g. "u8, 4 bytes per pixel".
       */
      g_print (_("storage       %s, %zu bytes per pixel\n"), report->storage,
               report->pixel_size);
      if (report->tiles > 1)
        {
          g_autofree gchar *peak = g_format_size (report->peak_bytes);

          /* TRANSLATORS: a line of the plan report, as above: tiles of
           * WxH pixels and the memory their pixels took at once.
           */
          g_print (_("tiles         %u of up to %dx%d, %s of pixels at once\n"),
                   report->tiles, report->tile.width, report->tile.height, peak);
        }
    }

}

gboolean
tl_cli_report_estimate (TlContext      *context,
                        const TlFilter *filter,
                        const TlValue  *values,
                        const TlChoice *choice,
                        GeglBuffer     *source,
                        gboolean        json,
                        GError        **error)
{
  g_autofree gchar    *text   = NULL;
  const GeglRectangle *extent = gegl_buffer_get_extent (source);
  const gchar         *device = context ? tl_context_get_device (context)->name
                                        : NULL;
  TlEstimate           estimate;

  if (! tl_estimate_region (context, filter, values, choice, source, extent,
                            &estimate, error))
    return FALSE;

  if (json)
    {
      JsonBuilder      *builder = json_builder_new ();
      JsonNode         *node;
      g_autofree gchar *printed = NULL;

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "filter");
      json_builder_add_string_value (builder, filter->name);
      json_builder_set_member_name (builder, "device");
      if (device)
        json_builder_add_string_value (builder, device);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "estimate_ms");
      json_builder_add_double_value (builder, estimate.ms);
      json_builder_set_member_name (builder, "long");
      json_builder_add_boolean_value (builder,
                                      estimate.ms > TL_ESTIMATE_LONG_MS);
      json_builder_set_member_name (builder, "trial_side");
      json_builder_add_int_value (builder, estimate.trial_side);
      json_builder_set_member_name (builder, "trial_ms");
      json_builder_add_double_value (builder, estimate.trial_ms);
      json_builder_end_object (builder);
      node = json_builder_get_root (builder);
      g_object_unref (builder);
      printed = tl_report_to_string (node);
      json_node_unref (node);
      g_print ("%s\n", printed);
      return TRUE;
    }

  text = tl_estimate_text (&estimate);
  if (device)
    /* TRANSLATORS: FILTER on DEVICE: an expected time ("about 41 min"),
     * the image's width and height, the ms of the run it was measured
     * over.
     */
    g_print (_("%s on %s: %s for %dx%d pixels (measured over the run's "
               "first %.0f ms); nothing written\n"), filter->name, device,
             text, extent->width, extent->height, estimate.trial_ms);
  else
    /* TRANSLATORS: FILTER: an expected time ("about 41 min"), the
     * image's width and height, the side of the square it was timed on.
     */
    g_print (_("%s on the CPU (C reference): %s for %dx%d pixels (from a "
               "trial on %ux%u); nothing written\n"), filter->name, text,
             extent->width, extent->height,
             MIN (estimate.trial_side, (guint) extent->width),
             MIN (estimate.trial_side, (guint) extent->height));
  if (estimate.ms > TL_ESTIMATE_LONG_MS)
    /* TRANSLATORS: after an expected time over 2 s */
    g_print (_("That is long: the run shows its progress on a terminal, and "
               "Ctrl-C stops it.\n"));
  return TRUE;
}
