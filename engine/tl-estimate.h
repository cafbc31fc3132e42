/* ThreadLens: how long a filter will take, before it runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_ESTIMATE_H
#define TL_ESTIMATE_H

#include <gegl.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef struct
{
  gdouble ms;             /* the region's expected time */
  guint   trial_side;     /* the last square timed, the C reference's or
                           * a device's sample (0: the run's own first
                           * pieces were timed) */
  gdouble trial_ms;       /* the time the estimate rests on */
  gdouble took_ms;        /* what the estimate cost, wall clock */
  gboolean ran;           /* the run ended before the estimate settled:
                           * its time is its own */
} TlEstimate;

/* A run counts as long past this: a user is told before it starts. */
#define TL_ESTIMATE_LONG_MS 2000.0

/* An estimate of FILTER's time over REGION of SOURCE on CONTEXT's device
 * (NULL: the C reference), from the rates its first pieces are measured
 * at (see tl-estimate.c); FALSE with ERROR where the trial fails.
 */
gboolean tl_estimate_region (TlContext           *context,
                             const TlFilter      *filter,
                             const TlValue       *values,
                             const TlChoice      *choice,
                             GeglBuffer          *source,
                             const GeglRectangle *region,
                             TlEstimate          *estimate,
                             GError             **error);

/* As tl_estimate_region (), from two squares at REGION's middle, of
 * SIDE and twice SIDE (the whole region where it is not much larger,
 * or where the squares' halos would read a quarter of it), on a device: what it costs stays small on any layer.  A run's fixed
 * costs (set-up, the first launches) are counted once, not scaled with
 * the area, and a kernel's first launch is not taken for its rate.  The
 * C reference samples squares of its own.
 */
gboolean tl_estimate_sampled (TlContext           *context,
                              const TlFilter      *filter,
                              const TlValue       *values,
                              const TlChoice      *choice,
                              GeglBuffer          *source,
                              const GeglRectangle *region,
                              gint                 side,
                              TlEstimate          *estimate,
                              GError             **error);

/* ESTIMATE's time as a user reads it: "about 41 min".  Free with
 * g_free ().
 */
gchar   *tl_estimate_text   (const TlEstimate    *estimate);

G_END_DECLS

#endif /* TL_ESTIMATE_H */
