/* ThreadLens tests: the dialog's summary against the planner: on each
 * fake device, for the whole photo and an odd selection, every number it
 * shows is the planner's, and what the planner refuses the dialog
 * refuses with its words; every rule the planner can name has its
 * sentence.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tl-summary.h"

#include "ui-fixtures.h"

typedef struct
{
  const gchar *shape;
  const gchar *mode;
  const gchar *swizzle;
  const gchar *pixels;
} Choice;

static void
check_summary (TlDialogPanel       *panel,
               const TlProbeDevice *device,
               const Choice        *choice,
               const GeglRectangle *region)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(GString) launches = g_string_new (NULL);
  g_autofree gchar  *text = NULL, *count = NULL, *mode = NULL;
  TlChoice           planned;
  TlPlan             expected, shown;
  TlLimits           limits;
  guint              i;

  tl_choice_init (&planned);
  g_assert_true (tl_shape_from_string (choice->shape, &planned, NULL));
  g_assert_true (tl_mode_from_string (choice->mode, &planned.mode, NULL));
  planned.swizzle         = atoi (choice->swizzle);
  planned.pixels_per_item = atoi (choice->pixels);

  if (! tl_plan_compute (&device->limits, &planned, region->width,
                         region->height, &expected, &error))
    {
      /* What the planner refuses, the dialog refuses, with its words. */
      g_assert_false (tl_dialog_panel_get_runnable (panel));
      g_assert_nonnull (strstr (tl_dialog_panel_get_message (panel), error->message));
      g_assert_false (tl_dialog_panel_get_plan (panel, NULL, NULL));
      return;
    }

  g_assert_true (tl_dialog_panel_get_runnable (panel));
  g_assert_null (tl_dialog_panel_get_message (panel));
  g_assert_true (tl_dialog_panel_get_plan (panel, &limits, &shown));
  g_assert_cmpmem (&limits, sizeof (limits), &device->limits, sizeof (limits));
  g_assert_cmpmem (shown.launches, sizeof (shown.launches),
                   expected.launches, sizeof (expected.launches));
  g_assert_cmpuint (shown.idle_threads, ==, expected.idle_threads);

  text = g_strdup_printf ("%s, P = %u, M = %u", device->name,
                          device->limits.simd_width,
                          device->limits.max_group_size);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "device"), ==, text);
  g_clear_pointer (&text, g_free);

  text = g_strdup_printf ("%d × %d pixels", region->width, region->height);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "region"), ==, text);
  g_clear_pointer (&text, g_free);

  count = tl_summary_format_count ((guint64) expected.local[0] * expected.local[1]);
  text  = g_strdup_printf ("%u × %u = %s work-items", expected.local[0],
                           expected.local[1], count);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "local"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  count = tl_summary_format_count (expected.group_count);
  text  = g_strdup_printf ("%u × %u = %s group%s", expected.groups[0],
                           expected.groups[1], count,
                           expected.group_count == 1 ? "" : "s");
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "groups"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  for (i = 0; i < expected.n_launches; i++)
    g_string_append_printf (launches,
                            "%s%u: %zu × %zu at offset (%zu, %zu), groups of %zu × %zu",
                            i ? "\n" : "", i + 1,
                            expected.launches[i].global[0],
                            expected.launches[i].global[1],
                            expected.launches[i].offset[0],
                            expected.launches[i].offset[1],
                            expected.launches[i].local[0],
                            expected.launches[i].local[1]);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "launches"), ==, launches->str);

  count = tl_summary_format_count (expected.idle_threads);
  text  = g_strdup_printf ("%s (%.1f %%)", count,
                           100.0 * expected.idle_threads / expected.threads);
  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "idle"), ==, text);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&count, g_free);

  count = tl_summary_format_count (expected.threads);
  g_assert_true (g_str_has_prefix (tl_dialog_panel_get_summary (panel, "items"), count));

  /* Native or emulated, as the planner decided for this device. */
  text = g_strdup (tl_dialog_panel_get_summary (panel, "non-uniform"));
  if (expected.mode == TL_MODE_UNIFORM)
    g_assert_true (g_str_has_prefix (text, "not used"));
  else if (expected.emulated)
    g_assert_true (g_str_has_prefix (text, "emulated"));
  else
    g_assert_true (g_str_has_prefix (text, "native"));
  g_assert_cmpuint (expected.emulated, ==,
                    expected.mode != TL_MODE_UNIFORM &&
                    (expected.mode == TL_MODE_EMULATED ||
                     ! device->limits.native_non_uniform));
  g_clear_pointer (&text, g_free);

  g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "rule"), ==,
                   tl_summary_translate_rule (expected.shape_rule));

  if (expected.swizzle)
    {
      text = g_strdup_printf ("tiles %u groups wide over %u × %u groups",
                              expected.swizzle, expected.swizzle_grid[0],
                              expected.swizzle_grid[1]);
      g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "swizzle"), ==, text);
      g_clear_pointer (&text, g_free);
    }
  else
    {
      g_assert_cmpstr (tl_dialog_panel_get_summary (panel, "swizzle"), ==, "off");
    }
}

/* Every rule the planner can name has its sentence in the summary: an
 * untranslated engine string there would mean a rule the table lacks.
 */
static void
test_summary_rules (void)
{
  static const TlShapeKind kinds[] = { TL_SHAPE_AUTO, TL_SHAPE_SEED,
                                       TL_SHAPE_CUSTOM, TL_SHAPE_DRIVER };
  guint k, cpu, block;

  for (k = 0; k < G_N_ELEMENTS (kinds); k++)
    for (cpu = 0; cpu < 2; cpu++)
      for (block = 0; block < 4; block++)
        {
          g_autoptr(GError) error = NULL;
          TlLimits          limits;
          TlChoice          choice;
          TlPlan            plan;
          const gchar      *text;

          memset (&limits, 0, sizeof (limits));
          limits.simd_width       = cpu ? 8 : 32;
          limits.max_group_size   = cpu ? 4096 : 256;
          limits.max_item_size[0] = 4096;
          limits.max_item_size[1] = 4096;
          limits.device_kind      = cpu ? TL_DEVICE_KIND_CPU : TL_DEVICE_KIND_GPU;
          limits.reads_block      = block & 1;
          limits.float_storage    = block >> 1;
          tl_choice_init (&choice);
          choice.shape_kind = kinds[k];
          choice.shape[0]   = 8;
          choice.shape[1]   = 8;
          g_assert_true (tl_plan_compute (&limits, &choice, 640, 480, &plan,
                                          &error));
          g_assert_no_error (error);
          text = tl_summary_translate_rule (plan.shape_rule);
          g_test_message ("%s -> %s", plan.shape_rule, text);
          g_assert_cmpstr (text, !=, plan.shape_rule);
        }
}

static void
test_summary (void)
{
  static const Choice choices[] =
  {
    { "auto",  "uniform",     "0", "1" },
    { "seed",  "non-uniform", "0", "1" },
    { "32x8",  "non-uniform", "0", "1" },
    { "16x16", "emulated",    "4", "1" },
    { "8x8",   "uniform",     "3", "2" },
    { "64x4",  "non-uniform", "0", "3" },
    { "32x32", "uniform",     "0", "1" },   /* over M on two devices */
    { "7x13",  "non-uniform", "2", "1" },
    { "4x128", "uniform",     "0", "1" },   /* over Narrow-y's 64 in y */
  };
  /* The whole photo, and an odd selection with partial groups. */
  const GeglRectangle regions[] =
  {
    ui_photo_region (),
    { 37, 21, 301, 157 },
  };
  guint r, d, c;

  for (r = 0; r < G_N_ELEMENTS (regions); r++)
    {
      TlDialogPanel *panel = ui_new_panel ("invert", &regions[r], TRUE);

      ui_set (panel, "preview", "off");
      for (d = 0; d < G_N_ELEMENTS (ui_fake_devices); d++)
        {
          ui_set (panel, "device", ui_fake_devices[d].name);
          for (c = 0; c < G_N_ELEMENTS (choices); c++)
            {
              g_test_message ("%dx%d on %s: %s %s swizzle %s k %s",
                              regions[r].width, regions[r].height,
                              ui_fake_devices[d].name, choices[c].shape,
                              choices[c].mode, choices[c].swizzle,
                              choices[c].pixels);
              ui_set (panel, "shape", choices[c].shape);
              ui_set (panel, "mode", choices[c].mode);
              ui_set (panel, "swizzle", choices[c].swizzle);
              ui_set (panel, "pixels-per-item", choices[c].pixels);
              check_summary (panel, &ui_fake_devices[d], &choices[c], &regions[r]);
            }
        }
      ui_destroy (GTK_WIDGET (panel), panel);
    }
}

void
ui_summary_add_tests (void)
{
  g_test_add_func ("/ui/summary", test_summary);
  g_test_add_func ("/ui/summary-rules", test_summary_rules);
}
