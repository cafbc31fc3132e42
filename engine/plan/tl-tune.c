/* ThreadLens: timing dispatch choices, and the search behind "auto".
 *
 * The search runs against a time budget rather than through a fixed list.
 * Candidates (every shape of 32 to 1024 items whose width is a multiple
 * of P, under 1, 2 and 4 pixels per item, with and without swizzle) are
 * put in the order of a simple model: the nearer a choice is to the
 * device's untuned rule (tl-plan.c), the likelier it wins, and a swizzle
 * is a long step away.  The screen times each candidate once after a
 * warm-up pass (a driver may compile per local size) and stops early
 * once many in a row came nowhere near the best (the model's order says
 * the rest are further still).  The race then re-times the untuned rule,
 * the leaders and the fastest of each pixels-per-item in interleaved
 * rounds, so drift and noise hit them all alike, drops the clear losers
 * and keeps the lowest median.  A choice replaces the untuned rule only
 * when it is 2% faster, and a swizzle must win by 3%, so noise never
 * picks what does not pay.  All passes run on one upload of the image
 * (TlRunTimer).  The result goes to the tuning store (tl-tune-store.c),
 * where "auto" finds it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-filter-job.h"
#include "tl-run.h"
#include "tl-tune.h"

#define TL_TUNE_RULE_GAIN    0.98  /* a choice must beat the rule by 2% */
#define TL_TUNE_SWIZZLE_GAIN 0.97  /* a swizzle must beat the best by 3% */
#define TL_TUNE_FAR          1.25  /* "cannot win" in the screen */
#define TL_TUNE_PATIENCE     16    /* screened in a row, all far: stop */
#define TL_TUNE_SCREEN_SHARE 0.6   /* of the budget, at most, for the screen */
#define TL_TUNE_LEADERS      4     /* screened choices that go to the race */
#define TL_TUNE_LEAD_MARGIN  1.25  /* ... if within this of the best */
#define TL_TUNE_DROP         1.10  /* a racer this much slower drops out */
#define TL_TUNE_MAX_ROUNDS   15

static gint
tl_tune_compare (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* One warm-up (the first launch of a local size can include the
 * driver's own compilation), then the median and minimum of RUNS.
 */
gboolean
tl_tune_measure (TlContext       *context,
                 const TlFilter  *filter,
                 const TlValue   *values,
                 const TlChoice  *choice,
                 const TlPixels  *pixels,
                 guint            runs,
                 gdouble         *median_ms,
                 gdouble         *min_ms,
                 TlPlan          *plan,
                 GError         **error)
{
  g_auto(TlFilterJob) job     = { { NULL, }, };
  g_autofree gdouble *samples = NULL;

  g_return_val_if_fail (runs > 0 && median_ms != NULL, FALSE);

  samples = g_new (gdouble, runs + 1);
  if (! tl_filter_job_init (&job, filter, values, pixels->codec, error) ||
      ! tl_run_job_repeated (context, &job.run, choice, pixels, runs + 1,
                             samples, plan, error))
    return FALSE;

  *median_ms = tl_tune_median (samples + 1, runs);
  if (min_ms)
    *min_ms = samples[1];
  return TRUE;
}

/* Sorts SAMPLES (N of them, N > 0) and returns their median. */
gdouble
tl_tune_median (gdouble *samples,
                guint    n)
{
  g_return_val_if_fail (samples != NULL && n > 0, 0.0);

  qsort (samples, n, sizeof (gdouble), tl_tune_compare);
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

/* ERROR says a choice cannot be planned on this kernel (a shape over a
 * limit): searches and sweeps skip such choices rather than fail.
 */
gboolean
tl_tune_cannot_plan (const GError *error)
{
  return (g_error_matches (error, TL_ERROR, TL_ERROR_LIMIT) ||
          g_error_matches (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT));
}

/* The shapes the search times, under BASE's mode, swizzle and k: from
 * P wide, or from P / 4 for a kernel that loads a block with a halo,
 * where a squarer group loads less halo (8x32 and 16x16 beat 32x8 for
 * the blurs on the H100).
 */
GArray *
tl_tune_candidates (const TlLimits *limits,
                    const TlChoice *base)
{
  GArray *choices   = g_array_new (FALSE, FALSE, sizeof (TlChoice));
  guint   p         = MAX (1, limits->simd_width);
  guint   narrowest = limits->reads_block ? MAX (1, p / 4) : p;
  guint   items, w;

  for (items = 32; items <= MIN (1024, limits->max_group_size); items *= 2)
    for (w = narrowest; w <= items; w *= 2)
      {
        TlChoice choice = *base;

        if (items % w != 0)
          continue;
        choice.shape_kind = TL_SHAPE_CUSTOM;
        choice.shape[0]   = w;
        choice.shape[1]   = items / w;
        g_array_append_val (choices, choice);
      }

  return choices;
}

/* One choice in the search: its model distance and its timings. */
typedef struct
{
  TlChoice choice;
  gdouble  distance;         /* the model's: 0 = the untuned rule */
  gdouble  samples[TL_TUNE_MAX_ROUNDS + 1];
  guint    n_samples;
  gdouble  median_ms;
} TlTuneEntry;

typedef struct
{
  TlRunTimer     *timer;
  gint64          start, deadline;
  TlTuneProgress  progress;
  gpointer        progress_data;
  TlTuneStatus    status;
} TlTuneSearch;

static gint
tl_tune_compare_median (gconstpointer a,
                        gconstpointer b)
{
  const TlTuneEntry *x = *(TlTuneEntry *const *) a;
  const TlTuneEntry *y = *(TlTuneEntry *const *) b;

  return (x->median_ms > y->median_ms) - (x->median_ms < y->median_ms);
}

static gint
tl_tune_compare_distance (gconstpointer a,
                          gconstpointer b)
{
  const TlTuneEntry *x = a, *y = b;

  return (x->distance > y->distance) - (x->distance < y->distance);
}

static gdouble
tl_tune_log2_ratio (guint a,
                    guint b)
{
  return fabs (log2 ((gdouble) MAX (a, 1) / MAX (b, 1)));
}

/* The model: how far CHOICE is from RULE, the untuned plan's choice.
 * Shape and pixels per item are steps in powers of two, k's the shorter
 * on a GPU: it changes the kernel's memory pattern (its access width),
 * where a shape changes only the grouping, so the rule's shape under each
 * k is screened before its neighbours under the rule's k; a budget spent
 * on shapes alone missed a k twice as fast.  On a CPU a k step is as long
 * as a shape step: PoCL's screen of a blur takes 0.1-0.3 s a choice, and
 * every k but the rule's ran 1.2-2.2 times slower there, while the
 * fastest shape was three steps away.  A
 * swizzle is a long step, longer on a CPU, whose caches see one group at
 * a time per core whatever order the groups run in.
 */
static gdouble
tl_tune_distance (const TlChoice *choice,
                  const TlPlan   *rule,
                  const TlLimits *limits)
{
  gdouble d;

  d = tl_tune_log2_ratio (choice->shape[0], rule->local[0]) +
      tl_tune_log2_ratio (choice->shape[1], rule->local[1]) +
      (limits->device_kind == TL_DEVICE_KIND_CPU ? 1.0 : 0.5) *
      tl_tune_log2_ratio (choice->pixels_per_item, rule->pixels_per_item);
  if (choice->swizzle)
    d += (limits->device_kind == TL_DEVICE_KIND_CPU ? 4.0 : 2.0) +
         0.5 * tl_tune_log2_ratio (choice->swizzle, 8);
  return d;
}

/* Asks the caller whether to go on; FALSE: cancelled. */
static gboolean
tl_tune_report (TlTuneSearch *search,
                GError      **error)
{
  gint64 now = g_get_monotonic_time ();

  search->status.fraction = MIN (1.0, (gdouble) (now - search->start) /
                                      MAX (1, search->deadline - search->start));
  if (search->progress == NULL ||
      search->progress (&search->status, search->progress_data))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                       _("tuning was cancelled; the choices stay as they were"));
  return FALSE;
}

static gboolean
tl_tune_over_budget (TlTuneSearch *search,
                     gdouble       share)
{
  return g_get_monotonic_time () >=
         search->start + share * (search->deadline - search->start);
}

/* One timed pass of ENTRY's choice (after an untimed one when WARM_UP),
 * its sample added.  FALSE with *SKIP when the choice cannot be planned
 * on this kernel (a shape over a limit): skipped, not an error.
 */
static gboolean
tl_tune_sample (TlTuneSearch *search,
                TlTuneEntry  *entry,
                gboolean      warm_up,
                gboolean     *skip,
                GError      **error)
{
  g_autoptr(GError) local = NULL;
  gdouble           ms;

  *skip = FALSE;
  if ((warm_up &&
       ! tl_run_timer_time (search->timer, &entry->choice, &ms, NULL, &local)) ||
      ! tl_run_timer_time (search->timer, &entry->choice, &ms, NULL, &local))
    {
      *skip = tl_tune_cannot_plan (local);
      if (! *skip)
        g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }

  g_debug ("tuning: %ux%u, %u per item, swizzle %u: %.3f ms",
           entry->choice.shape[0], entry->choice.shape[1],
           entry->choice.pixels_per_item, entry->choice.swizzle, ms);
  if (entry->n_samples < G_N_ELEMENTS (entry->samples))
    entry->samples[entry->n_samples++] = ms;
  else
    entry->samples[entry->n_samples - 1] = ms;
  {
    gdouble sorted[G_N_ELEMENTS (entry->samples)];

    memcpy (sorted, entry->samples, entry->n_samples * sizeof (gdouble));
    entry->median_ms = tl_tune_median (sorted, entry->n_samples);
  }
  return TRUE;
}

/* The candidates, nearest to RULE first. */
static GArray *
tl_tune_ordered_candidates (const TlLimits *limits,
                            const TlPlan   *rule,
                            const TlChoice *base)
{
  static const guint ks[]       = { 1, 2, 4 };
  static const guint swizzles[] = { 0, 4, 8, 16 };
  g_autoptr(GArray)  shapes     = tl_tune_candidates (limits, base);
  GArray            *entries    = g_array_new (FALSE, TRUE, sizeof (TlTuneEntry));
  guint              s, k, z;

  for (s = 0; s < shapes->len; s++)
    for (k = 0; k < G_N_ELEMENTS (ks); k++)
      for (z = 0; z < G_N_ELEMENTS (swizzles); z++)
        {
          TlTuneEntry entry;

          memset (&entry, 0, sizeof (entry));
          entry.choice                 = g_array_index (shapes, TlChoice, s);
          entry.choice.pixels_per_item = ks[k];
          entry.choice.swizzle         = swizzles[z];
          if (entry.choice.shape[0] == rule->local[0] &&
              entry.choice.shape[1] == rule->local[1] &&
              ks[k] == rule->pixels_per_item && swizzles[z] == 0)
            continue;   /* the rule itself is timed first, apart */
          entry.distance = tl_tune_distance (&entry.choice, rule, limits);
          g_array_append_val (entries, entry);
        }
  g_array_sort (entries, tl_tune_compare_distance);
  return entries;
}

/* The reference points: one pass each after a warm-up. */
static gboolean
tl_tune_reference (TlTuneSearch *search,
                   const TlChoice *base,
                   TlShapeKind   kind,
                   gdouble      *ms,
                   GError      **error)
{
  TlTuneEntry entry;
  gboolean    skip;

  memset (&entry, 0, sizeof (entry));
  entry.choice            = *base;
  entry.choice.shape_kind = kind;
  *ms = 0.0;
  if (tl_tune_sample (search, &entry, TRUE, &skip, error))
    *ms = entry.median_ms;
  return *ms > 0.0 || skip;
}

static gboolean
tl_tune_run (TlTuneSearch    *search,
             const TlFilter  *filter,
             const TlLimits  *limits,
             const TlPlan    *rule_plan,
             const TlChoice  *base,
             TlTuning        *tuning,
             GError         **error)
{
  g_autoptr(GArray)  entries = NULL;
  g_autoptr(GPtrArray) racers = g_ptr_array_new ();
  TlTuneEntry        rule;
  TlTuneEntry       *best;
  guint              i, far_in_a_row = 0, round;
  gboolean           skip;

  /* The untuned rule: what "auto" does today, the choice to beat. */
  memset (&rule, 0, sizeof (rule));
  rule.choice                 = *base;
  rule.choice.shape_kind      = TL_SHAPE_CUSTOM;
  rule.choice.shape[0]        = rule_plan->local[0];
  rule.choice.shape[1]        = rule_plan->local[1];
  rule.choice.pixels_per_item = rule_plan->pixels_per_item;
  rule.choice.swizzle         = 0;
  if (! tl_tune_sample (search, &rule, TRUE, &skip, error))
    {
      if (skip)
        g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                     _("%s's untuned shape %ux%u does not fit its kernels"),
                     filter->name, rule_plan->local[0], rule_plan->local[1]);
      return FALSE;
    }
  search->status.n_timed = 1;
  search->status.best    = rule.choice;
  search->status.best_ms = rule.median_ms;
  if (! tl_tune_report (search, error) ||
      ! tl_tune_reference (search, base, TL_SHAPE_SEED, &tuning->seed_ms, error) ||
      ! tl_tune_reference (search, base, TL_SHAPE_DRIVER, &tuning->driver_ms, error))
    return FALSE;

  /* The screen, nearest first. */
  entries = tl_tune_ordered_candidates (limits, rule_plan, &rule.choice);
  search->status.n_candidates = entries->len + 1;
  best = &rule;
  for (i = 0; i < entries->len; i++)
    {
      TlTuneEntry *entry = &g_array_index (entries, TlTuneEntry, i);

      if (tl_tune_over_budget (search, TL_TUNE_SCREEN_SHARE) ||
          far_in_a_row >= TL_TUNE_PATIENCE)
        {
          tuning->cut_short = i < entries->len && far_in_a_row < TL_TUNE_PATIENCE;
          break;
        }
      if (! tl_tune_sample (search, entry, TRUE, &skip, error))
        {
          if (skip)
            continue;
          return FALSE;
        }
      search->status.n_timed++;
      far_in_a_row = entry->median_ms < TL_TUNE_FAR * best->median_ms ? 0 :
                   far_in_a_row + 1;
      if (entry->median_ms < best->median_ms)
        {
          best = entry;
          search->status.best    = entry->choice;
          search->status.best_ms = entry->median_ms;
        }
      if (! tl_tune_report (search, error))
        return FALSE;
    }

  /* The race: the rule and the leaders, interleaved round by round. */
  g_ptr_array_add (racers, &rule);
  {
    g_autoptr(GPtrArray) screened = g_ptr_array_new ();

    for (i = 0; i < entries->len; i++)
      {
        TlTuneEntry *entry = &g_array_index (entries, TlTuneEntry, i);

        if (entry->n_samples > 0 &&
            entry->median_ms < TL_TUNE_LEAD_MARGIN * best->median_ms)
          g_ptr_array_add (screened, entry);
      }
    g_ptr_array_sort (screened, tl_tune_compare_median);
    for (i = 0; i < screened->len && i < TL_TUNE_LEADERS; i++)
      g_ptr_array_add (racers, g_ptr_array_index (screened, i));
    /* One screened sample cannot tell near-equal choices apart, and a
     * change of k shifts the kernel's memory pattern: the fastest of each
     * k races too, so the leaders are never all one k's shapes.
     */
    for (i = TL_TUNE_LEADERS; i < screened->len; i++)
      {
        TlTuneEntry *entry = g_ptr_array_index (screened, i);
        gboolean     has_k = FALSE;
        guint        j;

        for (j = 1; j < racers->len; j++)
          has_k |= ((TlTuneEntry *) g_ptr_array_index (racers, j))->choice.pixels_per_item ==
                   entry->choice.pixels_per_item;
        if (! has_k)
          g_ptr_array_add (racers, entry);
      }
  }
  for (round = 0; round < TL_TUNE_MAX_ROUNDS && racers->len > 1 &&
                  ! tl_tune_over_budget (search, 1.0); round++)
    {
      gdouble fastest = G_MAXDOUBLE;

      for (i = 0; i < racers->len && ! tl_tune_over_budget (search, 1.0); i++)
        {
          TlTuneEntry *entry = g_ptr_array_index (racers, i);

          if (! tl_tune_sample (search, entry, FALSE, &skip, error))
            return FALSE;
          if (! tl_tune_report (search, error))
            return FALSE;
        }
      for (i = 0; i < racers->len; i++)
        fastest = MIN (fastest, ((TlTuneEntry *) g_ptr_array_index (racers, i))->median_ms);
      /* Clear losers leave after three samples; the rule stays, as the
       * choice every other must beat.
       */
      for (i = racers->len; i-- > 1;)
        {
          TlTuneEntry *entry = g_ptr_array_index (racers, i);

          if (entry->n_samples >= 3 && entry->median_ms > TL_TUNE_DROP * fastest)
            g_ptr_array_remove_index (racers, i);
        }
    }
  if (round == 0 && racers->len > 1)
    tuning->cut_short = TRUE;

  /* The pick: the rule unless beaten by 2%, a swizzle only by 3%. */
  best = &rule;
  for (i = 1; i < racers->len; i++)
    {
      TlTuneEntry *entry = g_ptr_array_index (racers, i);
      gdouble      gain  = entry->choice.swizzle ? TL_TUNE_SWIZZLE_GAIN :
                                                   TL_TUNE_RULE_GAIN;

      if (entry->median_ms < gain * best->median_ms)
        best = entry;
    }
  tuning->choice  = best->choice;
  tuning->best_ms = best->median_ms;
  tuning->rule_ms = rule.median_ms;
  return TRUE;
}

gboolean
tl_tune_search (TlContext       *context,
                const TlFilter  *filter,
                const TlValue   *values,
                TlMode           mode,
                const TlPixels  *pixels,
                gdouble          budget_s,
                TlTuneProgress   progress,
                gpointer         progress_data,
                TlTuning        *tuning,
                GError         **error)
{
  g_auto(TlFilterJob)   job   = { { NULL, }, };
  g_autoptr(TlRunTimer) timer = NULL;
  TlTuneSearch          search;
  TlChoice              base;
  TlLimits              limits;
  TlPlan                rule_plan;

  g_return_val_if_fail (context != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL && tuning != NULL, FALSE);
  g_return_val_if_fail (budget_s > 0.0, FALSE);

  /* The untuned plan: the device's rule and pixels per item. */
  tl_choice_init (&base);
  base.mode            = mode;
  base.pixels_per_item = 0;
  if (! tl_filter_job_init (&job, filter, values, pixels->codec, error) ||
      ! tl_run_plan_job (context, &job.run, &base, pixels->width,
                         pixels->height, &limits, &rule_plan, error))
    return FALSE;
  base.pixels_per_item = tl_run_job_auto_pixels (&job.run, limits.device_kind);
  /* A stored result is not the rule: plan the rule itself. */
  if (rule_plan.tuned &&
      ! tl_plan_compute (&limits, &base, pixels->width, pixels->height,
                         &rule_plan, error))
    return FALSE;

  timer = tl_run_timer_new (context, &job.run, pixels, error);
  if (timer == NULL)
    return FALSE;

  memset (&search, 0, sizeof (search));
  search.timer         = timer;
  search.start         = g_get_monotonic_time ();
  search.deadline      = search.start + (gint64) (budget_s * G_USEC_PER_SEC);
  search.progress      = progress;
  search.progress_data = progress_data;

  memset (tuning, 0, sizeof (*tuning));
  tuning->width  = pixels->width;
  tuning->height = pixels->height;
  if (! tl_tune_run (&search, filter, &limits, &rule_plan, &base, tuning, error))
    return FALSE;

  tuning->n_choices = search.status.n_timed;
  tuning->search_s  = (g_get_monotonic_time () - search.start) / 1e6;
  search.status.fraction = 1.0;
  search.status.best     = tuning->choice;
  search.status.best_ms  = tuning->best_ms;
  if (progress)
    progress (&search.status, progress_data);

  tl_tune_store (context, filter->name, pixels->codec, pixels, tuning);
  return TRUE;
}
