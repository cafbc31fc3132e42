/* ThreadLens: what apply tells.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CLI_REPORT_H
#define TL_CLI_REPORT_H

#include <gegl.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"
#include "tl-process.h"

G_BEGIN_DECLS

/* Prints how long FILTER with VALUES would take over SOURCE on CONTEXT's
 * device (NULL: the C reference) under CHOICE, as text or (JSON) as an
 * object; FALSE with ERROR where the trial fails.
 */
gboolean tl_cli_report_estimate (TlContext             *context,
                                 const TlFilter        *filter,
                                 const TlValue         *values,
                                 const TlChoice        *choice,
                                 GeglBuffer            *source,
                                 gboolean               json,
                                 GError               **error);
/* After apply on DEVICE: the plan that ran (the first tile's) under
 * LIMITS, REPORT's times and storage, IN and OUT, as text or (JSON) an
 * object.
 */
void     tl_cli_report_run      (const TlFilter        *filter,
                                 const gchar           *device,
                                 const TlPlan          *plan,
                                 const TlLimits        *limits,
                                 const TlProcessReport *report,
                                 const gchar           *in,
                                 const gchar           *out,
                                 gboolean               json);

G_END_DECLS

#endif /* TL_CLI_REPORT_H */
