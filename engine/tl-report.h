/* ThreadLens: plans, devices and filters as text and JSON.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_REPORT_H
#define TL_REPORT_H

#include <json-glib/json-glib.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

JsonNode *tl_report_plan_json     (const TlPlan    *plan,
                                   const TlLimits  *limits);
gchar    *tl_report_plan_text     (const TlPlan    *plan,
                                   const TlLimits  *limits);
JsonNode *tl_report_device_json   (const TlDevice  *device,
                                   const TlLimits  *kernel_limits);
gchar    *tl_report_device_text   (const TlDevice  *device,
                                   const TlLimits  *kernel_limits);
JsonNode *tl_report_filter_json   (const TlFilter  *filter);
gchar    *tl_report_filter_text   (const TlFilter  *filter);
gchar    *tl_report_to_string     (JsonNode        *node);

G_END_DECLS

#endif /* TL_REPORT_H */
