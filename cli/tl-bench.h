/* ThreadLens: benchmarks of dispatch choices against baselines.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_BENCH_H
#define TL_BENCH_H

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-plan.h"

G_BEGIN_DECLS

gboolean tl_bench_run (TlContext      *context,
                       const TlFilter *filter,
                       const TlValue  *values,
                       const TlChoice *user_choice,
                       gboolean        user_chose,
                       TlImage        *image,
                       gdouble         scale,
                       guint           runs,
                       gboolean        json,
                       GError        **error);

G_END_DECLS

#endif /* TL_BENCH_H */
