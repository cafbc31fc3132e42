/* ThreadLens dialog: the live dispatch summary.
 *
 * A grid of facts about one plan (work-group, group grid, launches, idle
 * work-items, how non-uniform groups run, the rule that chose the shape),
 * so the user sees what each dispatch choice does before running it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_SUMMARY_H
#define TL_SUMMARY_H

#include <gtk/gtk.h>

#include "tl-plan.h"

G_BEGIN_DECLS

#define TL_TYPE_SUMMARY (tl_summary_get_type ())
G_DECLARE_FINAL_TYPE (TlSummary, tl_summary, TL, SUMMARY, GtkGrid)

GtkWidget   *tl_summary_new           (void);
void         tl_summary_show_plan     (TlSummary      *summary,
                                       const gchar    *device,
                                       const TlLimits *limits,
                                       const TlPlan   *plan,
                                       gboolean        bordered);
void         tl_summary_show_no_plan  (TlSummary      *summary,
                                       const gchar    *device,
                                       const TlLimits *limits,
                                       guint           width,
                                       guint           height,
                                       gboolean        bordered);
const gchar *tl_summary_get_text      (TlSummary      *summary,
                                       const gchar    *key);
gchar       *tl_summary_format_count  (guint64         count);
const gchar *tl_summary_translate_rule (const gchar   *rule);

G_END_DECLS

#endif /* TL_SUMMARY_H */
