/* ThreadLens tests: the threadlens command line, run as users run it.
 *
 * This file holds the commands that report: --help and --version, plan
 * (the seed numbers, the rules, the device's limits), devices and
 * list-filters.  The other parts hold apply (cli-apply.c), apply where
 * the OpenCL platform, driver or program cache fails or is shared
 * (cli-faults.c) and bench (cli-bench.c); what they share is in
 * cli-fixtures.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "cli-fixtures.h"

static gint64
pair_element (JsonObject  *object,
              const gchar *member,
              guint        i)
{
  return json_array_get_int_element (json_object_get_array_member (object, member), i);
}

static void
test_help_version (void)
{
  g_auto(CliResult) r;

  cli_run (&r, "--help", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "apply"));
  g_assert_nonnull (strstr (r.out, "plan"));
  cli_result_clear (&r);

  cli_run (&r, "--version", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  g_assert_true (g_str_has_prefix (r.out, "threadlens " PACKAGE_VERSION));
  cli_result_clear (&r);

  cli_run (&r, "apply", "--help", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  g_assert_nonnull (strstr (r.out, "--swizzle"));
  cli_result_clear (&r);

  cli_run (&r, "frobnicate", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 2);
  g_assert_nonnull (strstr (r.err, "unknown command 'frobnicate'"));
}

/* DESIGN.md's seed numbers through `plan --shape seed --json`. */
static void
test_plan_json (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(CliResult)     r;
  JsonObject           *plan;
  JsonArray            *launches;
  gboolean              cpu;

  cli_run (&r, "plan", "--size", "1024x768", "--simd-width", "32",
           "--max-threads", "512", "--shape", "seed", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (pair_element (plan, "local", 0), ==, 32);
  g_assert_cmpint (pair_element (plan, "local", 1), ==, 16);
  g_assert_cmpint (pair_element (plan, "groups", 0), ==, 32);
  g_assert_cmpint (pair_element (plan, "groups", 1), ==, 48);
  g_assert_cmpint (json_object_get_int_member (plan, "group_count"), ==, 1536);
  g_assert_cmpint (json_object_get_int_member (plan, "threads"), ==, 786432);
  g_assert_cmpint (json_object_get_int_member (plan, "idle_threads"), ==, 0);
  cli_result_clear (&r);

  cli_run (&r, "plan", "--size", "1920x1080", "--simd-width", "32",
           "--max-threads", "512", "--shape", "seed", "--json", NULL);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (pair_element (plan, "groups", 0), ==, 60);
  g_assert_cmpint (pair_element (plan, "groups", 1), ==, 68);
  g_assert_cmpint (json_object_get_int_member (plan, "idle_threads"), ==, 15360);
  g_assert_cmpstr (json_object_get_string_member (plan, "mode"), ==, "uniform");
  cli_result_clear (&r);

  cli_run (&r, "plan", "--size", "1920x1080", "--simd-width", "32",
           "--max-threads", "512", "--shape", "seed", "--mode", "non-uniform",
           "--swizzle", "8", "--json", NULL);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (json_object_get_int_member (plan, "idle_threads"), ==, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (plan, "mode"), "emulated"));
  launches = json_object_get_array_member (plan, "launches");
  g_assert_cmpuint (json_array_get_length (launches), ==, 2);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (plan, "swizzle"),
                                               "tile_width"), ==, 8);
  cli_result_clear (&r);

  cli_run (&r, "plan", "--size", "80x70", "--simd-width", "32",
           "--max-threads", "1024", "--shape", "seed", "--json", NULL);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (pair_element (plan, "groups", 0), ==, 3);
  g_assert_cmpint (pair_element (plan, "groups", 1), ==, 3);
  cli_result_clear (&r);

  /* Untuned "auto" without a device: the GPU rule, and the plan says so. */
  cli_run (&r, "plan", "--size", "80x70", "--simd-width", "32",
           "--max-threads", "1024", "--json", NULL);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (pair_element (plan, "local", 0), ==, 32);
  g_assert_cmpint (pair_element (plan, "local", 1), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (plan, "shape_rule"), ==,
                   "auto, not tuned: GPU rule w = P, h = 128 / P");
  cli_result_clear (&r);

  /* With a real device, P and M come from the driver. */
  cli_run (&r, "plan", "--size", "600x402", "--device", "0", "--shape", "7x5",
           "--mode", "emulated", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (pair_element (plan, "local", 0), ==, 7);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (plan, "launches")), ==, 4);
  g_assert_cmpint (json_object_get_int_member (plan, "max_threads"), >, 0);
  cli_result_clear (&r);

  /* The device's untuned rule for a point filter and for a blur, whose
   * kernel loads a block: bigger groups, and on a CPU four float pixels
   * per item where a point filter takes two.  plan's storage is float
   * unless --storage says otherwise.
   */
  cli_run (&r, "plan", "--size", "3840x2160", "--device", "0", "--filter",
           "invert", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  plan = cli_parse_object (parser, r.out);
  cpu = strstr (json_object_get_string_member (plan, "shape_rule"), "CPU") != NULL;
  g_assert_cmpint (pair_element (plan, "local", 0), ==,
                   json_object_get_int_member (plan, "simd_width"));
  g_assert_cmpint (json_object_get_int_member (plan, "pixels_per_item"), ==,
                   cpu ? 2 : 1);
  cli_result_clear (&r);

  /* --storage plans as that storage runs: four 8-bit pixels per item on
   * either kind of device.
   */
  cli_run (&r, "plan", "--size", "3840x2160", "--device", "0", "--filter",
           "invert", "--storage", "u8", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  plan = cli_parse_object (parser, r.out);
  g_assert_cmpint (json_object_get_int_member (plan, "pixels_per_item"), ==, 4);
  cli_result_clear (&r);

  cli_run (&r, "plan", "--size", "3840x2160", "--device", "0", "--filter",
           "box-blur", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  plan = cli_parse_object (parser, r.out);
  g_test_message ("box-blur: %s", json_object_get_string_member (plan, "shape_rule"));
  if (cpu)
    {
      g_assert_cmpstr (json_object_get_string_member (plan, "shape_rule"), ==,
                       "auto, not tuned: CPU rule for a float block w = 2 P, h = 64");
      g_assert_cmpint (pair_element (plan, "local", 0), ==,
                       2 * json_object_get_int_member (plan, "simd_width"));
      g_assert_cmpint (pair_element (plan, "local", 1), ==, 64);
      g_assert_cmpint (json_object_get_int_member (plan, "pixels_per_item"), ==, 4);
    }
  else
    {
      g_assert_cmpstr (json_object_get_string_member (plan, "shape_rule"), ==,
                       "auto, not tuned: GPU rule for a block, a square of 256 "
                       "items");
    }
}

static void
test_devices_filters (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError)     error  = NULL;
  g_auto(CliResult)     r;
  JsonArray            *array;
  JsonObject           *first;
  guint                 n_filters;

  cli_run (&r, "devices", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  array = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (array), >, 0);
  first = json_array_get_object_element (array, 0);
  g_assert_true (json_object_has_member (first, "non_uniform_work_groups"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (first, "kernel"),
                                               "simd_width"), >, 0);
  cli_result_clear (&r);

  cli_run (&r, "list-filters", "--json", NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  array = json_node_get_array (json_parser_get_root (parser));
  tl_filter_list (&n_filters);
  g_assert_cmpuint (json_array_get_length (array), ==, n_filters);
  cli_result_clear (&r);

  cli_run (&r, "list-filters", NULL);
  g_assert_nonnull (strstr (r.out, "--set std-dev=2"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  cli_init ();

  g_test_add_func ("/cli/help-version", test_help_version);
  g_test_add_func ("/cli/plan-json", test_plan_json);
  g_test_add_func ("/cli/devices-filters", test_devices_filters);
  cli_bench_add_tests ();
  cli_apply_add_tests ();
  cli_faults_add_tests ();
  cli_watch_add_tests ();

  status = g_test_run ();
  cli_clear ();
  return status;
}
