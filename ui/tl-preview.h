/* ThreadLens dialog: the preview of the real layer.
 *
 * Shows the layer around the centre of the region, zoomed so single
 * work-groups can be seen, with the filter run by the real kernels on
 * the visible part (tl_host_process () into a scratch
 * buffer, in a worker thread) and the thread map over it when an overlay
 * is chosen.  The preview's run starts on the real run's group
 * boundaries, so its groups are the real ones.  A grid can outline the
 * work-groups and the idle padding of a rounded-up grid.  Drag to move
 * the view, scroll to zoom.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PREVIEW_H
#define TL_PREVIEW_H

#include <gtk/gtk.h>

#include "tl-host.h"

G_BEGIN_DECLS

#define TL_TYPE_PREVIEW (tl_preview_get_type ())
G_DECLARE_FINAL_TYPE (TlPreview, tl_preview, TL, PREVIEW, GtkBox)

GtkWidget       *tl_preview_new          (const TlFilter       *filter,
                                          GeglBuffer           *source,
                                          const GeglRectangle  *region);
void             tl_preview_set_settings (TlPreview            *preview,
                                          const TlHostSettings *settings,
                                          const GeglRectangle  *area,
                                          const TlPlan         *plan,
                                          gboolean              runnable);

void             tl_preview_set_active   (TlPreview            *preview,
                                          gboolean              active);
gboolean         tl_preview_get_active   (TlPreview            *preview);
void             tl_preview_set_zoom     (TlPreview            *preview,
                                          guint                 zoom);
guint            tl_preview_get_zoom     (TlPreview            *preview);
void             tl_preview_set_grid     (TlPreview            *preview,
                                          gboolean              grid);
gboolean         tl_preview_get_grid     (TlPreview            *preview);
void             tl_preview_set_centre   (TlPreview            *preview,
                                          gdouble               x,
                                          gdouble               y);

void             tl_preview_stop         (TlPreview            *preview);

/* For tests. */
gboolean         tl_preview_is_busy      (TlPreview            *preview);
guint            tl_preview_get_renders  (TlPreview            *preview);
const gchar     *tl_preview_get_error    (TlPreview            *preview);
const gchar     *tl_preview_get_status   (TlPreview            *preview);
cairo_surface_t *tl_preview_get_filtered (TlPreview            *preview,
                                          GeglRectangle        *area);
cairo_surface_t *tl_preview_get_overlay  (TlPreview            *preview,
                                          GeglRectangle        *area);

G_END_DECLS

#endif /* TL_PREVIEW_H */
