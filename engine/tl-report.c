/* ThreadLens: plans, devices and filters as text and JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "tl-report.h"

static JsonNode *
tl_report_pair (guint64 a,
                guint64 b)
{
  JsonArray *array = json_array_sized_new (2);
  JsonNode  *node  = json_node_new (JSON_NODE_ARRAY);

  json_array_add_int_element (array, a);
  json_array_add_int_element (array, b);
  json_node_take_array (node, array);
  return node;
}

JsonNode *
tl_report_plan_json (const TlPlan   *plan,
                     const TlLimits *limits)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree gchar      *mode    = tl_plan_describe_mode (plan);
  guint                  i;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "size");
  json_builder_add_value (builder, tl_report_pair (plan->width, plan->height));
  json_builder_set_member_name (builder, "simd_width");
  json_builder_add_int_value (builder, limits->simd_width);
  json_builder_set_member_name (builder, "max_threads");
  json_builder_add_int_value (builder, limits->max_group_size);
  json_builder_set_member_name (builder, "shape_rule");
  json_builder_add_string_value (builder, plan->shape_rule);
  json_builder_set_member_name (builder, "local");
  json_builder_add_value (builder, tl_report_pair (plan->local[0], plan->local[1]));
  json_builder_set_member_name (builder, "groups");
  json_builder_add_value (builder, tl_report_pair (plan->groups[0], plan->groups[1]));
  json_builder_set_member_name (builder, "group_count");
  json_builder_add_int_value (builder, plan->group_count);
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, plan->threads);
  json_builder_set_member_name (builder, "pixels");
  json_builder_add_int_value (builder, plan->pixels);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, plan->pixels_per_item);
  json_builder_set_member_name (builder, "idle_threads");
  json_builder_add_int_value (builder, plan->idle_threads);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, mode);
  json_builder_set_member_name (builder, "emulated");
  json_builder_add_boolean_value (builder, plan->emulated);
  json_builder_set_member_name (builder, "swizzle");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tile_width");
  json_builder_add_int_value (builder, plan->swizzle);
  json_builder_set_member_name (builder, "grid");
  json_builder_add_value (builder, tl_report_pair (plan->swizzle_grid[0],
                                                   plan->swizzle_grid[1]));
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "launches");
  json_builder_begin_array (builder);
  for (i = 0; i < plan->n_launches; i++)
    {
      const TlLaunch *launch = &plan->launches[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "offset");
      json_builder_add_value (builder, tl_report_pair (launch->offset[0], launch->offset[1]));
      json_builder_set_member_name (builder, "global");
      json_builder_add_value (builder, tl_report_pair (launch->global[0], launch->global[1]));
      json_builder_set_member_name (builder, "local");
      json_builder_add_value (builder, tl_report_pair (launch->local[0], launch->local[1]));
      json_builder_set_member_name (builder, "group_base");
      json_builder_add_value (builder, tl_report_pair (launch->group_base[0], launch->group_base[1]));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gchar *
tl_report_plan_text (const TlPlan   *plan,
                     const TlLimits *limits)
{
  GString          *text = g_string_new (NULL);
  g_autofree gchar *mode = tl_plan_describe_mode (plan);
  guint             i;

  /* TRANSLATORS: the plan report, a line each, with the values lined up
   * in one column on every line (column 15 in English; a Chinese or
   * Japanese character takes two columns).  P and M are the kernel's
   * preferred work-group size multiple and its maximum work-group size.
   */
  g_string_append_printf (text, _("region        %u x %u pixels, %u per work-item\n"),
                          plan->width, plan->height, plan->pixels_per_item);
  g_string_append_printf (text, _("limits        P = %u, M = %u\n"),
                          limits->simd_width, limits->max_group_size);
  /* TRANSLATORS: the last %s is the rule that chose the shape. */
  g_string_append_printf (text, _("work-group    %u x %u (%s)\n"),
                          plan->local[0], plan->local[1], _(plan->shape_rule));
  g_string_append_printf (text, _("groups        %u x %u = %" PRIu64 "\n"),
                          plan->groups[0], plan->groups[1], plan->group_count);
  g_string_append_printf (text, _("threads       %" PRIu64 ", idle %" PRIu64 " (%.2f%%)\n"),
                          plan->threads, plan->idle_threads,
                          plan->threads ? 100.0 * plan->idle_threads / plan->threads : 0.0);
  g_string_append_printf (text, _("mode          %s\n"), _(mode));
  if (plan->swizzle)
    g_string_append_printf (text, _("swizzle       tiles %u groups wide over "
                                    "%u x %u groups\n"), plan->swizzle,
                            plan->swizzle_grid[0], plan->swizzle_grid[1]);
  else
    g_string_append (text, _("swizzle       off\n"));
  for (i = 0; i < plan->n_launches; i++)
    {
      const TlLaunch *launch = &plan->launches[i];

      g_string_append_printf (text, _("launch %u      offset %zu,%zu  global "
                                      "%zux%zu  local %zux%zu  group base %u,%u\n"),
                              i + 1, launch->offset[0], launch->offset[1],
                              launch->global[0], launch->global[1],
                              launch->local[0], launch->local[1],
                              launch->group_base[0], launch->group_base[1]);
    }

  return g_string_free (text, FALSE);
}

JsonNode *
tl_report_device_json (const TlDevice *device,
                       const TlLimits *kernel_limits)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "index");
  json_builder_add_int_value (builder, device->index);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, device->name);
  json_builder_set_member_name (builder, "platform");
  json_builder_add_string_value (builder, device->platform_name);
  json_builder_set_member_name (builder, "vendor");
  json_builder_add_string_value (builder, device->vendor);
  json_builder_set_member_name (builder, "vendor_id");
  json_builder_add_int_value (builder, device->vendor_id);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, tl_cl_device_type_name (device->type));
  json_builder_set_member_name (builder, "version");
  json_builder_add_string_value (builder, device->version);
  json_builder_set_member_name (builder, "opencl_c_version");
  json_builder_add_string_value (builder, device->c_version);
  json_builder_set_member_name (builder, "driver_version");
  json_builder_add_string_value (builder, device->driver_version);
  json_builder_set_member_name (builder, "compute_units");
  json_builder_add_int_value (builder, device->compute_units);
  json_builder_set_member_name (builder, "max_work_group_size");
  json_builder_add_int_value (builder, device->max_group_size);
  json_builder_set_member_name (builder, "max_work_item_sizes");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, device->max_item_size[0]);
  json_builder_add_int_value (builder, device->max_item_size[1]);
  json_builder_add_int_value (builder, device->max_item_size[2]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "local_mem_size");
  json_builder_add_int_value (builder, device->local_mem_size);
  json_builder_set_member_name (builder, "global_mem_size");
  json_builder_add_int_value (builder, device->global_mem_size);
  json_builder_set_member_name (builder, "max_mem_alloc_size");
  json_builder_add_int_value (builder, device->max_alloc_size);
  json_builder_set_member_name (builder, "non_uniform_work_groups");
  json_builder_add_boolean_value (builder, device->non_uniform);
  json_builder_set_member_name (builder, "max_sub_groups");
  json_builder_add_int_value (builder, device->max_sub_groups);
  json_builder_set_member_name (builder, "cl_khr_subgroups");
  json_builder_add_boolean_value (builder, device->khr_subgroups);
  if (kernel_limits)
    {
      json_builder_set_member_name (builder, "kernel");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "simd_width");
      json_builder_add_int_value (builder, kernel_limits->simd_width);
      json_builder_set_member_name (builder, "max_threads");
      json_builder_add_int_value (builder, kernel_limits->max_group_size);
      json_builder_set_member_name (builder, "native_non_uniform");
      json_builder_add_boolean_value (builder, kernel_limits->native_non_uniform);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gchar *
tl_report_device_text (const TlDevice *device,
                       const TlLimits *kernel_limits)
{
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "%u: %s [%s, %s]\n", device->index,
                          device->name, tl_cl_device_type_name (device->type),
                          device->platform_name);
  /* TRANSLATORS: "driver" is followed by the driver's version. */
  g_string_append_printf (text, _("   %s, %s, driver %s\n"), device->version,
                          device->c_version, device->driver_version);
  if (kernel_limits)
    g_string_append_printf (text, _("   P = %u, M = %u (for the invert kernel)\n"),
                            kernel_limits->simd_width,
                            kernel_limits->max_group_size);
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE,
                                             "   %u compute unit, work-group up to %zu, "
                                             "items up to %zux%zux%zu\n",
                                             "   %u compute units, work-group up to %zu, "
                                             "items up to %zux%zux%zu\n",
                                             device->compute_units),
                          device->compute_units, device->max_group_size,
                          device->max_item_size[0], device->max_item_size[1],
                          device->max_item_size[2]);
  g_string_append_printf (text, _("   local memory %" PRIu64 " KiB, "
                                  "global %" PRIu64 " MiB\n"),
                          device->local_mem_size / 1024,
                          device->global_mem_size / 1048576);
  /* TRANSLATORS: each %s is "yes", "no" or "no (emulated)". */
  g_string_append_printf (text, _("   non-uniform work-groups: %s; sub-groups: %s\n"),
                          device->non_uniform ? _("yes") : _("no (emulated)"),
                          device->max_sub_groups || device->khr_subgroups ?
                          _("yes") : _("no"));

  return g_string_free (text, FALSE);
}

JsonNode *
tl_report_filter_json (const TlFilter *filter)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  guint                  i, j;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, filter->name);
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, filter->label);
  json_builder_set_member_name (builder, "description");
  json_builder_add_string_value (builder, filter->description);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, filter->format);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, filter->default_pixels_per_item);
  json_builder_set_member_name (builder, "narrow_pixels_per_item");
  json_builder_add_int_value (builder, tl_filter_pixels_per_item (filter, TRUE));
  json_builder_set_member_name (builder, "parameters");
  json_builder_begin_array (builder);
  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, spec->name);
      json_builder_set_member_name (builder, "description");
      json_builder_add_string_value (builder, spec->description);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, spec->type == TL_PARAM_DOUBLE ?
                                     "double" : "vector");
      json_builder_set_member_name (builder, "min");
      json_builder_add_double_value (builder, spec->min);
      json_builder_set_member_name (builder, "max");
      json_builder_add_double_value (builder, spec->max);
      if (spec->type == TL_PARAM_VECTOR)
        {
          json_builder_set_member_name (builder, "count");
          json_builder_begin_array (builder);
          json_builder_add_int_value (builder, spec->n_min);
          json_builder_add_int_value (builder, spec->n_max);
          json_builder_end_array (builder);
        }
      json_builder_set_member_name (builder, "default");
      if (spec->type == TL_PARAM_DOUBLE)
        {
          json_builder_add_double_value (builder, spec->defaults[0]);
        }
      else
        {
          json_builder_begin_array (builder);
          for (j = 0; j < spec->n_default; j++)
            json_builder_add_double_value (builder, spec->defaults[j]);
          json_builder_end_array (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

gchar *
tl_report_filter_text (const TlFilter *filter)
{
  GString *text = g_string_new (NULL);
  guint    i, j;

  g_string_append_printf (text, "%s\n   %s\n", filter->name, _(filter->description));
  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      g_string_append_printf (text, "   --set %s=", spec->name);
      for (j = 0; j < spec->n_default; j++)
        g_string_append_printf (text, "%s%g", j ? "," : "", spec->defaults[j]);
      /* TRANSLATORS: a parameter's description, then its range. */
      g_string_append_printf (text, _("\n      %s; each in [%g, %g]"),
                              _(spec->description), spec->min, spec->max);
      if (spec->type == TL_PARAM_VECTOR)
        g_string_append_printf (text, _(", %u to %u numbers"), spec->n_min,
                                spec->n_max);
      g_string_append_c (text, '\n');
    }

  return g_string_free (text, FALSE);
}

gchar *
tl_report_to_string (JsonNode *node)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}
