/* ThreadLens: timing dispatch choices, and the search behind "auto".
 *
 * tl_tune_measure () times one choice from OpenCL events (kernel time,
 * transfers apart): one warm-up, then the median of RUNS.  tl_tune_search
 * () searches for one device, kernel program and size class within a
 * time budget and keeps the fastest choice in the tuning store
 * (tl-tune-store.h, included here for TlTuning and the lookups), where
 * the shape "auto" finds it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TUNE_H
#define TL_TUNE_H

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-filter.h"
#include "tl-plan.h"
#include "tl-tune-store.h"

G_BEGIN_DECLS

/* How far a search is, for its progress callback. */
typedef struct
{
  gdouble  fraction;        /* of the time budget spent, 0 to 1 */
  guint    n_timed;         /* choices timed so far */
  guint    n_candidates;    /* choices the model ordered (0: not yet) */
  TlChoice best;            /* the fastest so far */
  gdouble  best_ms;
} TlTuneStatus;

/* Returns FALSE to cancel the search (nothing is stored then). */
typedef gboolean (* TlTuneProgress) (const TlTuneStatus *status,
                                     gpointer            data);

#define TL_TUNE_DEFAULT_BUDGET_S 5.0

gboolean  tl_tune_measure     (TlContext       *context,
                               const TlFilter  *filter,
                               const TlValue   *values,
                               const TlChoice  *choice,
                               const TlPixels  *pixels,
                               guint            runs,
                               gdouble         *median_ms,
                               gdouble         *min_ms,
                               TlPlan          *plan,
                               GError         **error);
gdouble   tl_tune_median      (gdouble         *samples,
                               guint            n);
gboolean  tl_tune_cannot_plan (const GError    *error);
GArray   *tl_tune_candidates  (const TlLimits  *limits,
                               const TlChoice  *base);
gboolean  tl_tune_search      (TlContext       *context,
                               const TlFilter  *filter,
                               const TlValue   *values,
                               TlMode           mode,
                               const TlPixels  *pixels,
                               gdouble          budget_s,
                               TlTuneProgress   progress,
                               gpointer         progress_data,
                               TlTuning        *tuning,
                               GError         **error);

G_END_DECLS

#endif /* TL_TUNE_H */
