/* ThreadLens: timing dispatch choices, and the search behind "auto".
 *
 * The search is bounded: every work-group shape of 32 to 1024 items whose
 * width is a multiple of P (or the whole group) under 1, 2 and 4 pixels
 * per item, then the swizzle tiles 4, 8 and 16 on the three fastest of
 * each k.  A swizzle is kept only when it is at least 3% faster, so noise
 * never picks one that does not pay.  The result goes to the tuning
 * store (tl-tune-store.c), where "auto" finds it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-run.h"
#include "tl-tune.h"

#define TL_TUNE_KEEP_GAIN 0.97    /* a swizzle must beat the best by 3% */
#define TL_TUNE_FINALISTS 3       /* choices per k the swizzle is tried on */
#define TL_TUNE_N_KS      3       /* pixels per item tried: 1, 2 and 4 */

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
  g_autofree gdouble *samples = NULL;

  g_return_val_if_fail (runs > 0 && median_ms != NULL, FALSE);

  samples = g_new (gdouble, runs + 1);
  if (! tl_run_filter_repeated (context, filter, values, choice, pixels,
                                runs + 1, samples, plan, error))
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

/* The shapes the search times, under BASE's mode, swizzle and k. */
GArray *
tl_tune_candidates (const TlLimits *limits,
                    const TlChoice *base)
{
  GArray *choices = g_array_new (FALSE, FALSE, sizeof (TlChoice));
  guint   p       = MAX (1, limits->simd_width);
  guint   items, w;

  for (items = 32; items <= MIN (1024, limits->max_group_size); items *= 2)
    for (w = p; w <= items; w *= 2)
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

typedef struct
{
  TlContext      *context;
  const TlFilter *filter;
  const TlValue  *values;
  const TlPixels *pixels;
  guint           runs;
  guint           done, total;
  TlTuneProgress  progress;
  gpointer        progress_data;
} TlTuneSearch;

/* The median of CHOICE, or G_MAXDOUBLE when the plan cannot be made (a
 * shape over this kernel's limits): those are skipped, not errors.
 */
static gboolean
tl_tune_time (TlTuneSearch   *search,
              const TlChoice *choice,
              gdouble        *ms,
              GError        **error)
{
  g_autoptr(GError) local = NULL;

  if (search->progress)
    search->progress (search->done, search->total, search->progress_data);
  search->done++;

  if (tl_tune_measure (search->context, search->filter, search->values,
                       choice, search->pixels, search->runs, ms, NULL, NULL,
                       &local))
    return TRUE;
  if (tl_tune_cannot_plan (local))
    {
      *ms = G_MAXDOUBLE;
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
tl_tune_search (TlContext       *context,
                const TlFilter  *filter,
                const TlValue   *values,
                TlMode           mode,
                const TlPixels  *pixels,
                guint            runs,
                TlTuneProgress   progress,
                gpointer         progress_data,
                TlTuning        *tuning,
                GError         **error)
{
  static const guint swizzles[] = { 4, 8, 16 };
  static const guint ks[TL_TUNE_N_KS] = { 1, 2, 4 };
  TlTuneSearch       search     = { context, filter, values, pixels, runs,
                                    0, 0, progress, progress_data };
  g_autoptr(GArray)  shapes     = NULL;
  TlChoice           base, choice;
  TlLimits           limits;
  TlPlan             plan;
  gint64             start      = g_get_monotonic_time ();
  TlChoice           finalists[TL_TUNE_N_KS][TL_TUNE_FINALISTS];
  gdouble            finalist_ms[TL_TUNE_N_KS][TL_TUNE_FINALISTS];
  gdouble            ms;
  guint              i, k, f;

  g_return_val_if_fail (context != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL && tuning != NULL, FALSE);

  tl_choice_init (&base);
  base.mode            = mode;
  base.pixels_per_item = tl_filter_pixels_per_item (filter,
                                                    tl_codec_is_narrow (pixels->codec));
  if (! tl_run_plan_filter (context, filter, pixels->codec, &base,
                            pixels->width, pixels->height, &limits, &plan,
                            error))
    return FALSE;

  shapes       = tl_tune_candidates (&limits, &base);
  search.total = (shapes->len + TL_TUNE_FINALISTS * G_N_ELEMENTS (swizzles)) *
                 G_N_ELEMENTS (ks) + 2;
  memset (tuning, 0, sizeof (*tuning));
  tuning->width  = pixels->width;
  tuning->height = pixels->height;

  /* The baselines the result is reported against. */
  choice            = base;
  choice.shape_kind = TL_SHAPE_SEED;
  if (! tl_tune_time (&search, &choice, &tuning->seed_ms, error))
    return FALSE;
  choice.shape_kind = TL_SHAPE_DRIVER;
  if (! tl_tune_time (&search, &choice, &tuning->driver_ms, error))
    return FALSE;

  /* Every shape under each k: more pixels per item change which shape
   * is best (on CPUs most of all).  The three fastest of each k go on to
   * the swizzle, which pays for some shapes and not for others.
   */
  tuning->best_ms = G_MAXDOUBLE;
  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (i = 0; i < TL_TUNE_FINALISTS; i++)
      finalist_ms[k][i] = G_MAXDOUBLE;
  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (i = 0; i < shapes->len; i++)
      {
        guint f;

        choice                 = g_array_index (shapes, TlChoice, i);
        choice.pixels_per_item = ks[k];
        if (! tl_tune_time (&search, &choice, &ms, error))
          return FALSE;
        if (ms < tuning->best_ms)
          {
            tuning->best_ms = ms;
            tuning->choice  = choice;
          }
        /* Keep each k's finalists sorted, fastest first. */
        for (f = TL_TUNE_FINALISTS; f > 0 && ms < finalist_ms[k][f - 1]; f--)
          if (f < TL_TUNE_FINALISTS)
            {
              finalist_ms[k][f] = finalist_ms[k][f - 1];
              finalists[k][f]   = finalists[k][f - 1];
            }
        if (f < TL_TUNE_FINALISTS)
          {
            finalist_ms[k][f] = ms;
            finalists[k][f]   = choice;
          }
      }
  if (tuning->best_ms == G_MAXDOUBLE)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("no work-group shape of 32 to 1024 items fits %s's "
                     "kernels on %s"), filter->name,
                   tl_context_get_device (context)->name);
      return FALSE;
    }

  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (f = 0; f < TL_TUNE_FINALISTS && finalist_ms[k][f] < G_MAXDOUBLE; f++)
      for (i = 0; i < G_N_ELEMENTS (swizzles); i++)
        {
          choice         = finalists[k][f];
          choice.swizzle = swizzles[i];
          if (! tl_tune_time (&search, &choice, &ms, error))
            return FALSE;
          if (ms < TL_TUNE_KEEP_GAIN * tuning->best_ms)
            {
              tuning->best_ms = ms;
              tuning->choice  = choice;
            }
        }

  tuning->n_choices = search.done;
  tuning->search_s  = (g_get_monotonic_time () - start) / 1e6;
  if (progress)
    progress (search.total, search.total, progress_data);

  tl_tune_store (context, filter, pixels->codec, pixels, tuning);
  return TRUE;
}
