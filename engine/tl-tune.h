/* ThreadLens: timing dispatch choices, and the tuned "auto" shape.
 *
 * tl_tune_measure () times one choice from OpenCL events (kernel time,
 * transfers apart): one warm-up, then the median of RUNS.  tl_tune_search
 * () runs a bounded search for one device, kernel program and size class
 * and keeps the fastest choice on disk; tl_tune_lookup () finds it again,
 * which is what the shape "auto" uses.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TUNE_H
#define TL_TUNE_H

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef struct
{
  TlChoice choice;          /* the fastest: a custom shape, swizzle, k */
  gdouble  best_ms;         /* its median */
  gdouble  seed_ms;         /* the seed rule under the same mode */
  gdouble  driver_ms;       /* the driver's local size */
  gdouble  search_s;        /* wall time the search took */
  guint    n_choices;       /* choices timed */
  guint    width, height;   /* the image the search timed */
} TlTuning;

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
gboolean  tl_tune_lookup      (TlContext       *context,
                               const TlFilter  *filter,
                               const TlCodec   *codec,
                               TlMode           mode,
                               guint            width,
                               guint            height,
                               TlTuning        *tuning);
gboolean  tl_tune_lookup_device (const gchar   *device_name,
                                 const gchar   *driver_version,
                                 const TlFilter *filter,
                                 const gchar   *variant,
                                 TlMode         mode,
                                 guint          width,
                                 guint          height,
                                 TlTuning      *tuning);
gboolean  tl_tune_plan        (const TlTuning  *tuning,
                               const TlLimits  *limits,
                               guint            width,
                               guint            height,
                               TlPlan          *plan);
gchar    *tl_tune_size_class  (guint            width,
                               guint            height);

G_END_DECLS

#endif /* TL_TUNE_H */
