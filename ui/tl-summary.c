/* ThreadLens dialog: the live dispatch summary.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-summary.h"

struct _TlSummary
{
  GtkGrid     parent_instance;

  GHashTable *values;          /* key -> value GtkLabel */
};

G_DEFINE_TYPE (TlSummary, tl_summary, GTK_TYPE_GRID)

/* The rows, in order.  The keys are what tests and
 * tl_summary_get_text () use.
 */
static const struct
{
  const gchar *key;
  const gchar *label;
  const gchar *tooltip;
} tl_summary_rows[] =
{
  { "device",      N_("Device:"),
    N_("P: the kernels' preferred work-group size multiple (SIMD width). "
       "M: the largest work-group the kernels can run.") },
  { "region",      N_("Area:"),
    N_("The pixels the kernels run on: the selection's bounds (or the "
       "whole layer), and for a blur the border it reads around them.") },
  { "local",       N_("Work-group:"),
    N_("The local size: work-items per work-group, width × height.") },
  { "rule",        N_("Shape rule:"),
    N_("Why the work-group has this shape.") },
  { "groups",      N_("Group grid:"),
    N_("Work-groups across × down, partial edge groups included.") },
  { "launches",    N_("Launches:"),
    N_("Each kernel launch: its global size, global offset and local "
       "size.") },
  { "items",       N_("Work-items:"),
    N_("Work-items launched, idle ones included.") },
  { "idle",        N_("Idle work-items:"),
    N_("Work-items launched outside the region (the padding of a "
       "rounded-up grid): they only check their bounds and return.") },
  { "non-uniform", N_("Non-uniform:"),
    N_("Whether the exact grid runs natively or is emulated by extra "
       "launches with global offsets.") },
  { "swizzle",     N_("Swizzle:"),
    N_("Thread-group ID swizzling: consecutive groups walk tiles of N "
       "groups' width, for cache locality.") },
};

/* The planner's rules are untranslated English (the engine knows no
 * gettext); these are the same rules for the user's language.
 */
static const struct
{
  const gchar *engine;
  const gchar *text;
} tl_summary_rules[] =
{
  { "auto, not tuned: GPU rule w = P, h = 128 / P",
    N_("automatic, not tuned yet: the GPU rule, w = P, h = 128 / P") },
  { "auto, not tuned: CPU rule w = P, h = 4",
    N_("automatic, not tuned yet: the CPU rule, w = P, h = 4") },
  { "auto, not tuned: GPU rule for a block, a square of 256 items",
    N_("automatic, not tuned yet: the GPU rule for a kernel that loads a "
       "block, a square of 256 items") },
  { "auto, not tuned: CPU rule for a block w = P, h = 128",
    N_("automatic, not tuned yet: the CPU rule for a kernel that loads a "
       "block, w = P, h = 128") },
  { "auto, not tuned: CPU rule for a float block w = 2 P, h = 64",
    N_("automatic, not tuned yet: the CPU rule for a kernel that loads a "
       "block of floats, w = 2 P, h = 64") },
  { "seed rule w = P, h = M / P",
    N_("the seed rule, w = P, h = M / P") },
  { "seed rule w = P, h = M / P, h cut to the device's limit in y",
    N_("the seed rule, w = P, h = M / P, with h cut to the device's limit "
       "in y") },
  { "custom shape",
    N_("the shape chosen above") },
  { "driver's choice (local size NULL)",
    N_("the driver's choice (local size NULL)") },
};

static void
tl_summary_finalize (GObject *object)
{
  TlSummary *self = TL_SUMMARY (object);

  g_hash_table_unref (self->values);

  G_OBJECT_CLASS (tl_summary_parent_class)->finalize (object);
}

static void
tl_summary_class_init (TlSummaryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tl_summary_finalize;
}

static void
tl_summary_init (TlSummary *self)
{
  GtkGrid *grid = GTK_GRID (self);
  guint    i;

  self->values = g_hash_table_new (g_str_hash, g_str_equal);

  gtk_grid_set_row_spacing (grid, 3);
  gtk_grid_set_column_spacing (grid, 12);

  for (i = 0; i < G_N_ELEMENTS (tl_summary_rows); i++)
    {
      GtkWidget *key   = gtk_label_new (_(tl_summary_rows[i].label));
      GtkWidget *value = gtk_label_new ("—");

      gtk_label_set_xalign (GTK_LABEL (key), 0.0);
      gtk_label_set_yalign (GTK_LABEL (key), 0.0);
      gtk_style_context_add_class (gtk_widget_get_style_context (key),
                                   "dim-label");
      gtk_widget_set_tooltip_text (key, _(tl_summary_rows[i].tooltip));

      gtk_label_set_xalign (GTK_LABEL (value), 0.0);
      gtk_label_set_line_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (value), 44);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      /* Selectable labels take focus; the summary is not a stop for Tab. */
      gtk_widget_set_can_focus (value, FALSE);
      gtk_widget_set_hexpand (value, TRUE);

      gtk_grid_attach (grid, key, 0, i, 1, 1);
      gtk_grid_attach (grid, value, 1, i, 1, 1);
      g_hash_table_insert (self->values, (gpointer) tl_summary_rows[i].key,
                           value);
    }
}

GtkWidget *
tl_summary_new (void)
{
  return g_object_new (TL_TYPE_SUMMARY, NULL);
}

static void
tl_summary_set (TlSummary   *self,
                const gchar *key,
                const gchar *text)
{
  GtkLabel *label = g_hash_table_lookup (self->values, key);

  g_return_if_fail (label != NULL);

  gtk_label_set_text (label, text ? text : "—");
}

/* With the locale's digit grouping: 786,432 in English. */
gchar *
tl_summary_format_count (guint64 count)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
}

const gchar *
tl_summary_translate_rule (const gchar *rule)
{
  guint i;

  if (rule == NULL)
    return NULL;

  for (i = 0; i < G_N_ELEMENTS (tl_summary_rules); i++)
    if (strcmp (rule, tl_summary_rules[i].engine) == 0)
      return _(tl_summary_rules[i].text);

  return rule;
}

static void
tl_summary_show_head (TlSummary      *self,
                      const gchar    *device,
                      const TlLimits *limits,
                      guint           width,
                      guint           height,
                      gboolean        bordered)
{
  g_autofree gchar *device_text = NULL;
  g_autofree gchar *region_text = NULL;

  if (device == NULL)
    device_text = g_strdup (_("looking for OpenCL devices…"));
  else if (limits == NULL)
    /* TRANSLATORS: %s is an OpenCL device's name. */
    device_text = g_strdup_printf (_("%s (measuring its limits…)"), device);
  else
    /* TRANSLATORS: a device's name, then its SIMD width P and maximum
     * work-group size M for this filter's kernels.
     */
    device_text = g_strdup_printf (_("%s, P = %u, M = %u"), device,
                                   limits->simd_width,
                                   limits->max_group_size);

  if (bordered)
    /* TRANSLATORS: the area the kernels run on is larger than the
     * selection: a blur reads pixels around it.
     */
    region_text = g_strdup_printf (_("%u × %u pixels: the region and the "
                                     "border the filter reads"),
                                   width, height);
  else
    region_text = g_strdup_printf (_("%u × %u pixels"), width, height);

  tl_summary_set (self, "device", device_text);
  tl_summary_set (self, "region", region_text);
}

/* BORDERED: the plan's area is the region grown by the filter's halo. */
void
tl_summary_show_plan (TlSummary      *summary,
                      const gchar    *device,
                      const TlLimits *limits,
                      const TlPlan   *plan,
                      gboolean        bordered)
{
  g_autofree gchar *local    = NULL;
  g_autofree gchar *groups   = NULL;
  g_autofree gchar *items    = NULL;
  g_autofree gchar *idle     = NULL;
  g_autofree gchar *swizzle  = NULL;
  g_autofree gchar *count    = NULL;
  g_autofree gchar *threads  = NULL;
  g_autofree gchar *idles    = NULL;
  g_autoptr(GString) launches = g_string_new (NULL);
  const gchar      *non_uniform;
  gdouble           percent;
  guint             i;

  g_return_if_fail (TL_IS_SUMMARY (summary));
  g_return_if_fail (device != NULL && limits != NULL && plan != NULL);

  tl_summary_show_head (summary, device, limits, plan->width, plan->height,
                        bordered);

  count = tl_summary_format_count ((guint64) plan->local[0] * plan->local[1]);
  /* TRANSLATORS: work-group width × height = work-items in one group. */
  local = g_strdup_printf (_("%u × %u = %s work-items"),
                           plan->local[0], plan->local[1], count);
  g_free (count);

  count  = tl_summary_format_count (plan->group_count);
  groups = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "%u × %u = %s group",
                                         "%u × %u = %s groups",
                                         plan->group_count),
                            plan->groups[0], plan->groups[1], count);

  for (i = 0; i < plan->n_launches; i++)
    {
      const TlLaunch *launch = &plan->launches[i];

      if (i > 0)
        g_string_append_c (launches, '\n');
      /* TRANSLATORS: one kernel launch: its number, global size, global
       * offset and local size, all in work-items.
       */
      g_string_append_printf (launches,
                              _("%u: %zu × %zu at offset (%zu, %zu), groups "
                                "of %zu × %zu"),
                              i + 1, launch->global[0], launch->global[1],
                              launch->offset[0], launch->offset[1],
                              launch->local[0], launch->local[1]);
    }

  threads = tl_summary_format_count (plan->threads);
  if (plan->pixels_per_item > 1)
    items = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                          "%s, %u pixel each",
                                          "%s, %u pixels each",
                                          plan->pixels_per_item),
                             threads, plan->pixels_per_item);
  else
    items = g_strdup (threads);

  idles   = tl_summary_format_count (plan->idle_threads);
  percent = plan->threads ? 100.0 * plan->idle_threads / plan->threads : 0.0;
  /* TRANSLATORS: idle work-items, then their share of those launched. */
  idle = g_strdup_printf (_("%s (%.1f %%)"), idles, percent);

  switch (plan->mode)
    {
    case TL_MODE_UNIFORM:
      non_uniform = (limits->native_non_uniform ?
                     _("not used: the grid is rounded up (this device could "
                       "run them natively)") :
                     _("not used: the grid is rounded up (this device would "
                       "emulate them)"));
      break;
    case TL_MODE_NON_UNIFORM:
      non_uniform = (plan->emulated ?
                     _("emulated: this device has no native non-uniform "
                       "work-groups, so edge groups run as extra launches") :
                     _("native: the device runs the smaller edge groups "
                       "itself"));
      break;
    case TL_MODE_EMULATED:
    default:
      non_uniform = _("emulated, as chosen: edge groups run as extra "
                      "launches");
      break;
    }

  if (plan->swizzle == 0)
    swizzle = g_strdup (_("off"));
  else
    /* TRANSLATORS: the tile width N, then the part of the group grid
     * the swizzle permutes.
     */
    swizzle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "tiles %u group wide over %u × %u groups",
                                            "tiles %u groups wide over %u × %u groups",
                                            plan->swizzle),
                               plan->swizzle, plan->swizzle_grid[0],
                               plan->swizzle_grid[1]);

  tl_summary_set (summary, "local", local);
  if (plan->tuned)
    {
      /* TRANSLATORS: the shape (and swizzle and pixels per item) came
       * from a timed search; its median time, then the search's length.
       */
      g_autofree gchar *rule = g_strdup_printf (_("automatic, tuned: the fastest "
                                                  "choice measured (%.3f ms); "
                                                  "the search took %.1f s"),
                                                plan->tuned_ms, plan->tuning_s);

      tl_summary_set (summary, "rule", rule);
    }
  else
    {
      tl_summary_set (summary, "rule", tl_summary_translate_rule (plan->shape_rule));
    }
  tl_summary_set (summary, "groups", groups);
  tl_summary_set (summary, "launches", launches->str);
  tl_summary_set (summary, "items", items);
  tl_summary_set (summary, "idle", idle);
  tl_summary_set (summary, "non-uniform", non_uniform);
  tl_summary_set (summary, "swizzle", swizzle);
}

/* No plan: still measuring, or the choices cannot run (the dialog says
 * why above the summary).
 */
void
tl_summary_show_no_plan (TlSummary      *summary,
                         const gchar    *device,
                         const TlLimits *limits,
                         guint           width,
                         guint           height,
                         gboolean        bordered)
{
  guint i;

  g_return_if_fail (TL_IS_SUMMARY (summary));

  tl_summary_show_head (summary, device, limits, width, height, bordered);

  for (i = 2; i < G_N_ELEMENTS (tl_summary_rows); i++)
    tl_summary_set (summary, tl_summary_rows[i].key, NULL);
}

const gchar *
tl_summary_get_text (TlSummary   *summary,
                     const gchar *key)
{
  GtkLabel *label;

  g_return_val_if_fail (TL_IS_SUMMARY (summary), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  label = g_hash_table_lookup (summary->values, key);

  return label ? gtk_label_get_text (label) : NULL;
}
