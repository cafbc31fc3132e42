/* ThreadLens: the command-line front end over the engine.
 *
 *   threadlens devices [--json]
 *   threadlens list-filters [--json]
 *   threadlens plan --size WxH [dispatch options] (--device SPEC [--filter F] [--storage S] | --simd-width P --max-threads M)
 *   threadlens apply FILTER [--set NAME=VALUE]... [dispatch options] [--quiet] [--dry-run] IN OUT
 *   threadlens bench FILTER [--set ...] [dispatch options] [--runs N] IN
 *   threadlens overlay --by MODE [--style STYLE] [--opacity A] [dispatch options]
 *                      [--filter F [--set ...] [--paced]] [--dump-ids FILE.json] IN OUT
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-filter-job.h"
#include "tl-image.h"
#include "tl-overlay.h"
#include "tl-plan.h"
#include "tl-process.h"
#include "tl-report.h"
#include "tl-run.h"
#include "tl-tune.h"

#include "tl-bench.h"
#include "tl-cli-overlay.h"
#include "tl-cli-report.h"
#include "tl-cli-watch.h"

#define CLI_EXIT_FAILURE 1
#define CLI_EXIT_USAGE   2

typedef struct
{
  gchar    *shape;
  gchar    *mode;
  gint      swizzle;
  gint      pixels_per_item;
  gchar    *device;
  gboolean  json;
} CliDispatchOptions;

static CliDispatchOptions cli_dispatch = { NULL, NULL, 0, 0, NULL, FALSE };

static GOptionEntry cli_dispatch_entries[] =
{
  { "shape", 0, 0, G_OPTION_ARG_STRING, &cli_dispatch.shape,
    N_("Work-group shape: auto (default), seed (w = P, h = M / P) or WxH"), "SHAPE" },
  { "mode", 0, 0, G_OPTION_ARG_STRING, &cli_dispatch.mode,
    N_("uniform (default), non-uniform or emulated"), "MODE" },
  { "swizzle", 0, 0, G_OPTION_ARG_INT, &cli_dispatch.swizzle,
    N_("Thread-group ID swizzle tile width in groups (0 = off)"), "N" },
  { "pixels-per-item", 0, 0, G_OPTION_ARG_INT, &cli_dispatch.pixels_per_item,
    N_("Pixels per work-item along x (0 = the default for the device and storage)"), "K" },
  { "device", 0, 0, G_OPTION_ARG_STRING, &cli_dispatch.device,
    N_("OpenCL device: index or name substring (default: THREADLENS_DEVICE, "
       "else the first GPU, else the first device)"), "SPEC" },
  { "json", 0, 0, G_OPTION_ARG_NONE, &cli_dispatch.json,
    N_("Machine-readable output"), NULL },
  { NULL }
};

static void
cli_error (const gchar *message)
{
  g_printerr ("threadlens: %s\n", message);
}

static gint
cli_fail (GError *error)
{
  cli_error (error->message);
  g_error_free (error);
  return CLI_EXIT_FAILURE;
}

static gint
cli_usage (GOptionContext *options,
           const gchar    *message)
{
  cli_error (message);
  g_printerr (_("Try '%s --help' for more information.\n"), g_get_prgname ());
  g_option_context_free (options);
  return CLI_EXIT_USAGE;
}

static void
cli_print_json (JsonNode *node)
{
  g_autofree gchar *text = tl_report_to_string (node);

  g_print ("%s\n", text);
  json_node_unref (node);
}

/* A command's options, their help in ThreadLens's text domain: the
 * context's for the summary line, each group's (add_main_entries) for the
 * option descriptions.
 */
static GOptionContext *
cli_options_new (const gchar *parameters)
{
  GOptionContext *options = g_option_context_new (parameters);

  g_option_context_set_translation_domain (options, GETTEXT_PACKAGE);
  return options;
}

/* Turns the shared dispatch options into a TlChoice. */
static gboolean
cli_read_choice (TlChoice *choice,
                 GError  **error)
{
  tl_choice_init (choice);
  choice->pixels_per_item = 0;

  if (cli_dispatch.shape && ! tl_shape_from_string (cli_dispatch.shape, choice, error))
    return FALSE;
  if (cli_dispatch.mode && ! tl_mode_from_string (cli_dispatch.mode, &choice->mode, error))
    return FALSE;
  if (cli_dispatch.swizzle < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("--swizzle %d: the tile width must be 0 (off) or a "
                     "positive number of groups"), cli_dispatch.swizzle);
      return FALSE;
    }
  if (cli_dispatch.pixels_per_item < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("--pixels-per-item %d: must be 0 (the filter's default) "
                     "or a positive number"), cli_dispatch.pixels_per_item);
      return FALSE;
    }
  choice->swizzle         = cli_dispatch.swizzle;
  choice->pixels_per_item = cli_dispatch.pixels_per_item;
  return TRUE;
}

static gint
cli_devices (gint    argc,
             gchar **argv)
{
  GOptionContext   *options = cli_options_new (N_("- list OpenCL devices"));
  g_autoptr(GError) error   = NULL;
  g_autoptr(GPtrArray) devices = NULL;
  JsonArray        *array;
  guint             i;

  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc > 1)
    return cli_usage (options, _("devices takes no file arguments"));
  g_option_context_free (options);

  devices = tl_cl_list_devices (&error);
  if (devices == NULL)
    return cli_fail (g_steal_pointer (&error));

  array = json_array_new ();
  for (i = 0; i < devices->len; i++)
    {
      const TlDevice       *device  = g_ptr_array_index (devices, i);
      g_autofree gchar     *spec    = g_strdup_printf ("%u", i);
      g_autoptr(TlContext)  context = NULL;
      g_autoptr(GError)     kernel_error = NULL;
      TlLimits              limits;
      gboolean              have_limits = FALSE;
      cl_kernel             kernel;

      /* P and M belong to a kernel: report them for the simplest one. */
      context = tl_context_new (spec, &kernel_error);
      if (context &&
          (kernel = tl_context_get_kernel (context, "point", "tl_invert",
                                           &kernel_error)) &&
          tl_context_kernel_limits (context, kernel, &limits, &kernel_error))
        have_limits = TRUE;

      if (cli_dispatch.json)
        {
          json_array_add_element (array, tl_report_device_json (device,
                                                                have_limits ?
                                                                &limits : NULL));
        }
      else
        {
          g_autofree gchar *text = tl_report_device_text (device,
                                                          have_limits ?
                                                          &limits : NULL);

          g_print ("%s", text);
          if (! have_limits)
            g_print (_("   (kernels do not run here: %s)\n"), kernel_error->message);
        }
    }

  if (cli_dispatch.json)
    {
      JsonNode *node = json_node_new (JSON_NODE_ARRAY);

      json_node_take_array (node, array);
      cli_print_json (node);
    }
  else
    {
      json_array_unref (array);
    }

  return EXIT_SUCCESS;
}

static gint
cli_list_filters (gint    argc,
                  gchar **argv)
{
  GOptionContext        *options = cli_options_new (N_("- list the filters"));
  g_autoptr(GError)      error   = NULL;
  const TlFilter *const *filters;
  guint                  n_filters, i;

  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc > 1)
    return cli_usage (options, _("list-filters takes no file arguments"));
  g_option_context_free (options);

  filters = tl_filter_list (&n_filters);
  if (cli_dispatch.json)
    {
      JsonArray *array = json_array_new ();
      JsonNode  *node  = json_node_new (JSON_NODE_ARRAY);

      for (i = 0; i < n_filters; i++)
        json_array_add_element (array, tl_report_filter_json (filters[i]));
      json_node_take_array (node, array);
      cli_print_json (node);
    }
  else
    {
      for (i = 0; i < n_filters; i++)
        {
          g_autofree gchar *text = tl_report_filter_text (filters[i]);

          g_print ("%s", text);
        }
    }

  return EXIT_SUCCESS;
}

static gboolean
cli_parse_size (const gchar *text,
                guint       *width,
                guint       *height,
                GError     **error)
{
  TlChoice choice;

  /* Same syntax as a shape; only the message differs. */
  if (text == NULL ||
      ! tl_shape_from_string (text, &choice, NULL) ||
      choice.shape_kind != TL_SHAPE_CUSTOM)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("bad region size '%s' (expected WxH, e.g. 1920x1080)"),
                   text ? text : "");
      return FALSE;
    }
  *width  = choice.shape[0];
  *height = choice.shape[1];
  return TRUE;
}

static gint
cli_plan (gint    argc,
          gchar **argv)
{
  static gchar *size = NULL;
  static gchar *filter_name = NULL;
  static gchar *storage = NULL;
  static gint   simd_width = 0, max_threads = 0;
  static GOptionEntry entries[] =
  {
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, N_("Region size"), "WxH" },
    { "simd-width", 0, 0, G_OPTION_ARG_INT, &simd_width,
      N_("P, the preferred work-group size multiple (instead of --device)"), "P" },
    { "max-threads", 0, 0, G_OPTION_ARG_INT, &max_threads,
      N_("M, the kernel's maximum work-group size (instead of --device)"), "M" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &filter_name,
      N_("Whose kernels give P and M with --device (default: invert)"), "FILTER" },
    { "storage", 0, 0, G_OPTION_ARG_STRING, &storage,
      N_("How the pixels travel, with --device: u8, u16, half or float "
         "(default float)"), "S" },
    { NULL }
  };
  GOptionContext   *options = cli_options_new (N_("- show the dispatch plan"));
  g_autoptr(GError) error   = NULL;
  TlChoice          choice;
  TlLimits          limits;
  TlPlan            plan;
  guint             width, height;

  g_option_context_add_main_entries (options, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc > 1)
    return cli_usage (options, _("plan takes no file arguments"));
  if (size == NULL)
    return cli_usage (options, _("plan needs --size WxH"));
  if (cli_dispatch.device && (simd_width || max_threads))
    return cli_usage (options, _("give either --device or --simd-width and "
                                 "--max-threads, not both"));
  if (! cli_dispatch.device && (simd_width <= 0 || max_threads <= 0))
    return cli_usage (options, _("plan needs --device SPEC, or --simd-width P "
                                 "and --max-threads M (both positive)"));
  /* The storage picks the kernels' program and their pixels per item,
   * which only a device has.
   */
  if (! cli_dispatch.device && storage)
    return cli_usage (options, _("--storage needs --device"));
  g_option_context_free (options);

  if (! cli_parse_size (size, &width, &height, &error) ||
      ! cli_read_choice (&choice, &error))
    return cli_fail (g_steal_pointer (&error));

  if (cli_dispatch.device)
    {
      g_autoptr(TlContext) context = tl_context_new (cli_dispatch.device, &error);
      const TlFilter      *filter  = tl_filter_lookup (filter_name ? filter_name :
                                                       "invert", &error);
      g_autoptr(TlCodec)   codec   = NULL;

      if (context == NULL || filter == NULL)
        return cli_fail (g_steal_pointer (&error));
      /* Float storage is the working format itself: no codec. */
      if (storage && ! g_str_equal (storage, "float"))
        {
          if (! tl_image_init_gegl (&error))
            return cli_fail (g_steal_pointer (&error));
          codec = tl_codec_new_for_storage (storage, NULL, filter->format,
                                            &error);
          if (codec == NULL)
            return cli_fail (g_steal_pointer (&error));
        }
      if (! tl_filter_job_plan (context, filter, codec, &choice, width,
                                height, &limits, &plan, &error))
        return cli_fail (g_steal_pointer (&error));
    }
  else
    {
      memset (&limits, 0, sizeof (limits));
      limits.simd_width     = simd_width;
      limits.max_group_size = max_threads;
      if (choice.pixels_per_item == 0)
        choice.pixels_per_item = 1;
      if (! tl_plan_compute (&limits, &choice, width, height, &plan, &error))
        return cli_fail (g_steal_pointer (&error));
    }

  if (cli_dispatch.json)
    {
      cli_print_json (tl_report_plan_json (&plan, &limits));
    }
  else
    {
      g_autofree gchar *text = tl_report_plan_text (&plan, &limits);

      g_print ("%s", text);
    }

  return EXIT_SUCCESS;
}

static gchar  **cli_settings = NULL;

static GOptionEntry cli_filter_entries[] =
{
  { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &cli_settings,
    N_("Set a filter parameter (repeatable; see list-filters)"), "NAME=VALUE" },
  { NULL }
};

/* FILTER and its --set values, shared by apply and bench. */
static const TlFilter *
cli_read_filter (const gchar *name,
                 TlValue    **values,
                 GError     **error)
{
  const TlFilter *filter = tl_filter_lookup (name, error);
  guint           i;

  if (filter == NULL)
    return NULL;

  *values = tl_filter_default_values (filter);
  for (i = 0; cli_settings && cli_settings[i]; i++)
    if (! tl_filter_parse_assignment (filter, *values, cli_settings[i], error))
      {
        g_clear_pointer (values, g_free);
        return NULL;
      }

  return filter;
}

static gboolean cli_quiet   = FALSE;
static gboolean cli_dry_run = FALSE;

static GOptionEntry cli_apply_entries[] =
{
  { "quiet", 'q', 0, G_OPTION_ARG_NONE, &cli_quiet,
    N_("No progress line (there is none where stderr is not a terminal)"),
    NULL },
  { "dry-run", 'n', 0, G_OPTION_ARG_NONE, &cli_dry_run,
    N_("Say how long the filter would take, from the first pieces of its "
       "run, and write nothing"), NULL },
  { NULL }
};

static gint
cli_apply (gint    argc,
           gchar **argv)
{
  GOptionContext    *options = cli_options_new (N_("FILTER IN OUT - apply a filter"));
  g_autoptr(GError)  error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(TlImage) image   = NULL;
  g_autofree TlValue *values = NULL;
  g_autoptr(GeglBuffer) target = NULL;
  g_autoptr(TlCodec) codec  = NULL;
  GeglBuffer        *source;
  const TlFilter    *filter;
  TlChoice           choice;
  TlProcessReport    report;
  TlLimits           limits;
  TlPlan             plan;
  TlCliWatch        *watch;
  gint               stopped;

  g_option_context_add_main_entries (options, cli_filter_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_apply_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc != 4)
    return cli_usage (options, _("apply needs FILTER IN OUT"));
  g_option_context_free (options);

  filter = cli_read_filter (argv[1], &values, &error);
  if (filter == NULL ||
      ! tl_filter_check_values (filter, values, &error) ||
      ! cli_read_choice (&choice, &error))
    return cli_fail (g_steal_pointer (&error));
  /* Before GEGL's and the driver's threads start: they must leave
   * Ctrl-C to the watch.
   */
  watch = tl_cli_watch_new (filter->name, ! cli_quiet && ! cli_dispatch.json &&
                                          isatty (STDERR_FILENO));
  if (! tl_image_init_gegl (&error))
    return cli_fail (g_steal_pointer (&error));

  image = tl_image_load (argv[2], &error);
  if (image == NULL)
    return cli_fail (g_steal_pointer (&error));

  /* No OpenCL at all: the C reference stands in, and says so. */
  context = tl_context_new (cli_dispatch.device, &error);
  if (context == NULL && ! tl_process_can_fall_back (error))
    return cli_fail (g_steal_pointer (&error));
  if (context == NULL)
    {
      g_autofree gchar *warning = tl_process_fallback_text (filter, error);

      /* TRANSLATORS: a warning on stderr */
      g_printerr (_("threadlens: warning: %s\n"), warning);
      g_clear_error (&error);
    }

  /* The image's own depth travels (8-bit files move 4 bytes a pixel),
   * in tiles when it is too big for the device's buffers.
   */
  source = tl_image_get_buffer (image);
  if (cli_dry_run)
    return tl_cli_report_estimate (context, filter, values, &choice, source,
                                   cli_dispatch.json, &error) ?
           EXIT_SUCCESS : cli_fail (g_steal_pointer (&error));
  target = gegl_buffer_new (gegl_buffer_get_extent (source),
                            gegl_buffer_get_format (source));
  if (! tl_process_region (context, filter, values, &choice, source, target,
                           gegl_buffer_get_extent (source),
                           tl_process_tile_setting (), tl_cli_watch_progress,
                           watch, &report, &error))
    {
      tl_cli_watch_end (watch);
      stopped = tl_cli_watch_status (watch);
      return stopped ? stopped : cli_fail (g_steal_pointer (&error));
    }
  tl_cli_watch_end (watch);

  gegl_buffer_copy (target, NULL, GEGL_ABYSS_NONE, source, NULL);
  tl_cli_watch_saving (watch);
  if (! tl_image_save (image, argv[3], &error))
    return cli_fail (g_steal_pointer (&error));

  if (context == NULL)
    {
      if (cli_dispatch.json)
        {
          JsonBuilder *builder = json_builder_new ();
          JsonNode    *node;

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "filter");
          json_builder_add_string_value (builder, filter->name);
          json_builder_set_member_name (builder, "device");
          json_builder_add_null_value (builder);
          json_builder_set_member_name (builder, "on_cpu");
          json_builder_add_boolean_value (builder, TRUE);
          json_builder_set_member_name (builder, "output");
          json_builder_add_string_value (builder, argv[3]);
          json_builder_end_object (builder);
          node = json_builder_get_root (builder);
          g_object_unref (builder);
          cli_print_json (node);
        }
      else
        {
          /* TRANSLATORS: FILTER: IN -> OUT, when no OpenCL device ran it */
          g_print (_("%s on the CPU (C reference): %s -> %s\n"), filter->name,
                   argv[2], argv[3]);
        }
      return EXIT_SUCCESS;
    }

  /* The report is for the plan that ran (the first tile's); P and M
   * again for the header.
   */
  codec = tl_codec_new (gegl_buffer_get_format (source), filter->format, &error);
  if (codec == NULL ||
      ! tl_filter_job_plan (context, filter, codec, &choice, report.tile.width,
                            report.tile.height, &limits, &plan, &error))
    return cli_fail (g_steal_pointer (&error));
  plan = report.plan;

  tl_cli_report_run (filter, tl_context_get_device (context)->name, &plan,
                     &limits, &report, argv[2], argv[3], cli_dispatch.json);
  return EXIT_SUCCESS;
}

static gdouble       cli_tune_budget_s = 0.0;   /* 0: no --tune */
static TlBenchSweep  cli_sweep = TL_BENCH_SWEEP_NONE;

/* --sweep alone: every choice; --sweep=shapes: every shape and k, uniform
 * and without swizzle (a fourth of the cases, for slow devices).
 */
static gboolean
cli_parse_sweep (const gchar *name,
                 const gchar *value,
                 gpointer     data,
                 GError     **error)
{
  if (value == NULL || strcmp (value, "all") == 0)
    cli_sweep = TL_BENCH_SWEEP_ALL;
  else if (strcmp (value, "shapes") == 0)
    cli_sweep = TL_BENCH_SWEEP_SHAPES;
  else
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("bad --sweep '%s' (expected all or shapes)"), value);
      return FALSE;
    }
  return TRUE;
}

/* --tune alone takes the default budget; --tune=SECONDS its own. */
static gboolean
cli_parse_tune (const gchar *name,
                const gchar *value,
                gpointer     data,
                GError     **error)
{
  gchar   *end = NULL;
  gdouble  seconds;

  if (value == NULL)
    {
      cli_tune_budget_s = TL_TUNE_DEFAULT_BUDGET_S;
      return TRUE;
    }
  seconds = g_ascii_strtod (value, &end);
  if (end == value || *end != '\0' || ! (seconds > 0.0) || seconds > 3600.0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("bad --tune budget '%s' (expected seconds, more than 0 "
                     "and at most 3600, e.g. --tune=5)"), value);
      return FALSE;
    }
  cli_tune_budget_s = seconds;
  return TRUE;
}

static gint
cli_bench (gint    argc,
           gchar **argv)
{
  static gint      runs     = 9;
  static gchar    *size     = NULL;
  static gchar    *storage  = NULL;
  static gchar    *heatmap  = NULL;
  static gchar    *save     = NULL;
  static gboolean  markdown = FALSE;
  static GOptionEntry entries[] =
  {
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, N_("Timed runs per case (default 9)"), "N" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size,
      N_("Scale the photo to cover WxH pixels first (default: its own size)"),
      "WxH" },
    { "storage", 0, 0, G_OPTION_ARG_STRING, &storage,
      N_("How the pixels travel: u8, u16, half or float (default float)"),
      "TYPE" },
    { "sweep", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, cli_parse_sweep,
      N_("Time every shape x mode x swizzle x pixels per item (=shapes: "
         "every shape x pixels per item, uniform, no swizzle)"), "all|shapes" },
    { "tune", 0, G_OPTION_FLAG_OPTIONAL_ARG, G_OPTION_ARG_CALLBACK, cli_parse_tune,
      N_("Search for --shape auto's choice for at most SECONDS (default 5) "
         "and keep it"), "SECONDS" },
    { "heatmap", 0, 0, G_OPTION_ARG_FILENAME, &heatmap,
      N_("Draw the shape sweep as a heat map (needs --sweep)"), "FILE.png" },
    { "markdown", 0, 0, G_OPTION_ARG_NONE, &markdown,
      N_("Print one row of the README's performance table"), NULL },
    { "save-input", 0, 0, G_OPTION_ARG_FILENAME, &save,
      N_("Also write the pixels as the kernels read them to PREFIX-pixels.raw "
         "and the storage's codec table to PREFIX-codec.raw, to run the "
         "kernels outside OpenCL (build-aux/ptx-profile.sh)"), "PREFIX" },
    { NULL }
  };
  GOptionContext    *options = cli_options_new (N_("FILTER IN - time a filter's dispatch choices"));
  g_autoptr(GError)  error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(TlImage) image   = NULL;
  g_autofree TlValue *values = NULL;
  const TlFilter    *filter;
  TlChoice           choice, wanted;
  TlBenchOptions     bench;

  g_option_context_add_main_entries (options, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_filter_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc != 3)
    return cli_usage (options, _("bench needs FILTER IN"));
  if (runs < 3)
    return cli_usage (options, _("--runs must be at least 3 for a median"));
  if (heatmap && cli_sweep == TL_BENCH_SWEEP_NONE)
    return cli_usage (options, _("--heatmap needs --sweep"));
  g_option_context_free (options);

  filter = cli_read_filter (argv[1], &values, &error);
  if (filter == NULL ||
      ! cli_read_choice (&choice, &error) ||
      ! tl_image_init_gegl (&error))
    return cli_fail (g_steal_pointer (&error));

  image = tl_image_load (argv[2], &error);
  if (image == NULL)
    return cli_fail (g_steal_pointer (&error));

  memset (&bench, 0, sizeof (bench));
  bench.width  = tl_image_get_width (image);
  bench.height = tl_image_get_height (image);
  if (size)
    {
      /* The shape parser reads WxH and names the problem. */
      if (! tl_shape_from_string (size, &wanted, &error) ||
          wanted.shape_kind != TL_SHAPE_CUSTOM)
        return cli_fail (error ? g_steal_pointer (&error) :
                         g_error_new (TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                                      _("bad size '%s' (expected WxH)"), size));
      bench.width  = wanted.shape[0];
      bench.height = wanted.shape[1];
    }
  bench.user_choice = (cli_dispatch.shape || cli_dispatch.mode ||
                       cli_dispatch.swizzle || cli_dispatch.pixels_per_item) ?
                      &choice : NULL;
  bench.storage = storage ? storage : "float";
  bench.runs    = runs;
  bench.sweep   = cli_sweep;
  bench.tune_budget_s = cli_tune_budget_s;
  bench.heatmap = heatmap;
  bench.save_input = save;
  bench.output  = cli_dispatch.json ? TL_BENCH_JSON_LINES :
                  markdown ? TL_BENCH_MARKDOWN : TL_BENCH_TABLE;

  context = tl_context_new (cli_dispatch.device, &error);
  if (context == NULL ||
      ! tl_bench_run (context, filter, values, image, &bench, &error))
    return cli_fail (g_steal_pointer (&error));

  return EXIT_SUCCESS;
}

static gint
cli_overlay (gint    argc,
             gchar **argv)
{
  static gchar  *by = NULL;
  static gchar  *style_name = NULL;
  static gchar  *filter_name = NULL;
  static gchar  *dump_ids = NULL;
  static gdouble opacity = 0.5;
  static gboolean on_host = FALSE;
  static gboolean paced = FALSE;
  static GOptionEntry entries[] =
  {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      N_("What to show: work-group, simd-group, lane, launch-order or "
         "compute-unit"), "MODE" },
    { "style", 0, 0, G_OPTION_ARG_STRING, &style_name,
      N_("tint (default: colours blended over the image) or checkerboard "
         "(seed 002: odd units colour-inverted)"), "STYLE" },
    { "opacity", 0, 0, G_OPTION_ARG_DOUBLE, &opacity,
      N_("Opacity of the tint, 0 to 1 (default 0.5)"), "A" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &filter_name,
      N_("Show the dispatch this filter would get (P and M of its kernels; "
         "default: the overlay kernel's own)"), "FILTER" },
    { "dump-ids", 0, 0, G_OPTION_ARG_FILENAME, &dump_ids,
      N_("Also write every pixel's IDs as JSON"), "FILE.json" },
    { "on-host", 0, 0, G_OPTION_ARG_NONE, &on_host,
      N_("Draw the map on the CPU with the C renderer, the device's "
         "reference (default: on the device, as in GIMP)"), NULL },
    { "paced", 0, 0, G_OPTION_ARG_NONE, &paced,
      N_("Run the filter first (at its --set values) and cut the map's "
         "launches as the launch budget cut the filter's"), NULL },
    { NULL }
  };
  GOptionContext         *options = cli_options_new (N_("IN OUT - draw the thread map over an image"));
  g_autoptr(GError)       error   = NULL;
  g_autoptr(TlContext)    context = NULL;
  g_autoptr(TlImage)      image   = NULL;
  g_autoptr(TlOverlayMap) map     = NULL;
  g_autoptr(TlCodec)      codec   = NULL;
  g_autofree gchar       *legend  = NULL;
  g_autofree TlValue     *values  = NULL;
  const TlFilter         *filter  = NULL;
  gdouble                 ms_per_group = 0.0;
  TlOverlayMode           mode;
  TlOverlayStyle          style   = TL_OVERLAY_TINT;
  TlChoice                choice;
  TlLimits                limits;
  TlPlan                  plan;

  g_option_context_add_main_entries (options, entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_filter_entries, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (options, cli_dispatch_entries, GETTEXT_PACKAGE);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    return cli_usage (options, error->message);
  if (argc != 3)
    return cli_usage (options, _("overlay needs IN OUT"));
  if ((paced || cli_settings) && filter_name == NULL)
    return cli_usage (options, _("--paced and --set need --filter FILTER"));
  if (by == NULL)
    return cli_usage (options, _("overlay needs --by MODE (work-group, "
                                 "simd-group, lane, launch-order or "
                                 "compute-unit)"));
  g_option_context_free (options);

  if (! tl_overlay_mode_from_string (by, &mode, &error) ||
      (style_name && ! tl_overlay_style_from_string (style_name, &style,
                                                     &error)) ||
      ! cli_read_choice (&choice, &error))
    return cli_fail (g_steal_pointer (&error));
  if (! (opacity >= 0.0 && opacity <= 1.0))
    {
      g_autofree gchar *message = g_strdup_printf (_("--opacity %g: must be "
                                                     "between 0 and 1"),
                                                   opacity);

      cli_error (message);
      return CLI_EXIT_FAILURE;
    }
  if (filter_name &&
      (filter = cli_read_filter (filter_name, &values, &error)) == NULL)
    return cli_fail (g_steal_pointer (&error));
  if (! tl_image_init_gegl (&error))
    return cli_fail (g_steal_pointer (&error));

  image = tl_image_load (argv[1], &error);
  if (image == NULL)
    return cli_fail (g_steal_pointer (&error));

  /* A filter's dispatch is planned as apply would run it: in the program
   * variant for this image's storage.
   */
  if (filter)
    {
      codec = tl_codec_new (tl_image_get_format (image), filter->format, &error);
      if (codec == NULL)
        return cli_fail (g_steal_pointer (&error));
    }
  context = tl_context_new (cli_dispatch.device, &error);
  if (context == NULL ||
      ! tl_overlay_plan (context, filter, codec, &choice, tl_image_get_width (image),
                         tl_image_get_height (image), &limits, &plan, &error) ||
      (paced && ! tl_cli_overlay_pace (context, filter, values, &choice,
                                       codec, image, &ms_per_group, &error)))
    return cli_fail (g_steal_pointer (&error));

  map = tl_cli_overlay_draw (context, &plan, &limits, ms_per_group, mode,
                             style, opacity, on_host, dump_ids != NULL, image,
                             &error);
  if (map == NULL)
    return cli_fail (g_steal_pointer (&error));

  /* The IDs first: if the image cannot be written, neither file stays. */
  if (dump_ids && ! tl_overlay_map_save_json (map, dump_ids, &error))
    return cli_fail (g_steal_pointer (&error));
  if (! tl_image_save (image, argv[2], &error))
    {
      if (dump_ids)
        g_unlink (dump_ids);
      return cli_fail (g_steal_pointer (&error));
    }

  legend = tl_overlay_legend (map, mode, style, opacity);
  if (cli_dispatch.json)
    {
      JsonNode            *node   = tl_report_plan_json (&plan, &limits);
      JsonObject          *object = json_node_get_object (node);
      g_autofree gchar    *title  = tl_overlay_title (map, mode);
      TlOverlaySimdSource  source = tl_overlay_map_get_simd_source (map);

      json_object_set_string_member (object, "device",
                                     tl_context_get_device (context)->name);
      json_object_set_string_member (object, "overlay",
                                     tl_overlay_mode_to_string (mode));
      json_object_set_string_member (object, "style",
                                     tl_overlay_style_to_string (style));
      json_object_set_double_member (object, "opacity", opacity);
      json_object_set_string_member (object, "title", title);
      json_object_set_string_member (object, "legend", legend);
      json_object_set_string_member (object, "simd_source",
                                     tl_overlay_simd_source_to_string (source));
      json_object_set_string_member (object, "simd_source_text",
                                     tl_overlay_simd_source_describe (source));
      json_object_set_int_member (object, "simd_group_width",
                                  tl_overlay_map_get_simd_width (map));
      json_object_set_string_member (object, "output", argv[2]);
      cli_print_json (node);
    }
  else
    {
      g_autofree gchar *text = tl_report_plan_text (&plan, &limits);

      g_print ("%s\n%s -> %s\n%s", legend, argv[1], argv[2], text);
    }

  return EXIT_SUCCESS;
}

static const struct
{
  const gchar *name;
  gint       (*run) (gint argc, gchar **argv);
  const gchar *summary;
} cli_commands[] =
{
  { "devices",      cli_devices,      N_("list OpenCL devices with P, M and limits") },
  { "list-filters", cli_list_filters, N_("list filters with their parameters") },
  { "plan",         cli_plan,         N_("show the dispatch plan for a region") },
  { "apply",        cli_apply,        N_("apply a filter to an image file") },
  { "bench",        cli_bench,        N_("time dispatch choices against baselines") },
  { "overlay",      cli_overlay,      N_("draw the thread map over an image") },
};

static void
cli_print_help (void)
{
  guint i;

  g_print (_("Usage: threadlens COMMAND [OPTIONS...]\n\n"
             "Runs image filters through OpenCL under explicit dispatch rules.\n\n"
             "Commands:\n"));
  for (i = 0; i < G_N_ELEMENTS (cli_commands); i++)
    g_print ("  %-14s %s\n", cli_commands[i].name, _(cli_commands[i].summary));
  g_print (_("\n'threadlens COMMAND --help' describes each command's options.\n"
             "Environment: THREADLENS_DEVICE picks the default device; "
             "THREADLENS_CACHE_DIR\nmoves the program cache (empty: no disk "
             "cache).\n"));
}

int
main (int    argc,
      char **argv)
{
  const gchar *localedir = g_getenv ("THREADLENS_LOCALEDIR");
  guint        i;

  /* THREADLENS_LOCALEDIR: the catalogues of an uninstalled build (the
   * tests point it at the build's po folder).
   */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir && *localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  g_set_prgname ("threadlens");

  if (argc < 2)
    {
      cli_error (_("no command given"));
      g_printerr (_("Try '%s --help' for more information.\n"), "threadlens");
      return CLI_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      cli_print_help ();
      return EXIT_SUCCESS;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("threadlens %s\n", PACKAGE_VERSION);
      return EXIT_SUCCESS;
    }

  for (i = 0; i < G_N_ELEMENTS (cli_commands); i++)
    if (strcmp (argv[1], cli_commands[i].name) == 0)
      {
        g_autofree gchar *prgname = g_strconcat ("threadlens ", argv[1], NULL);

        g_set_prgname (prgname);
        return cli_commands[i].run (argc - 1, argv + 1);
      }

  {
    g_autofree gchar *message = g_strdup_printf (_("unknown command '%s'"),
                                                 argv[1]);

    cli_error (message);
    g_printerr (_("Try '%s --help' for more information.\n"), "threadlens");
  }
  return CLI_EXIT_USAGE;
}
