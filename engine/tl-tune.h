/* ThreadLens: timing dispatch choices, and the search behind "auto".
 *
 * tl_tune_measure () times one choice from OpenCL events (kernel time,
 * transfers apart): one warm-up, then the median of RUNS.  tl_tune_search
 * () runs a bounded search for one device, kernel program and size class
 * and keeps the fastest choice in the tuning store (tl-tune-store.h,
 * included here for TlTuning and the lookups), where the shape "auto"
 * finds it.
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

typedef void (* TlTuneProgress) (guint        done,
                                 guint        total,
                                 gpointer     data);

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
                               guint            runs,
                               TlTuneProgress   progress,
                               gpointer         progress_data,
                               TlTuning        *tuning,
                               GError         **error);

G_END_DECLS

#endif /* TL_TUNE_H */
