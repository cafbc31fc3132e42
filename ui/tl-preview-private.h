/* ThreadLens dialog: what the files of the TlPreview share.
 *
 * tl-preview.c: the widget, its drawing, dragging and zooming, and the
 * public API; tl-preview-run.c: the kernels run on the visible part.
 * Only those files include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PREVIEW_PRIVATE_H
#define TL_PREVIEW_PRIVATE_H

#include "tl-preview.h"

G_BEGIN_DECLS

/* A run in flight, as the worker and the widget both see it (shared,
 * g_atomic_rc_box): how far it has got, and whether it should stop.
 */
typedef struct
{
  gint stop;              /* atomic: the run is stale, or nobody waits */
  gint ppm;               /* atomic: of the run done, in millionths */
  gint elapsed_ms;        /* atomic */
} TlPreviewWatch;

struct _TlPreview
{
  GtkBox           parent_instance;

  const TlFilter  *filter;
  GeglBuffer      *source;
  GeglRectangle    region;
  GeglRectangle    extent;          /* the whole layer */

  TlHostSettings   settings;
  gboolean         have_settings;
  gboolean         runnable;
  TlPlan           plan;            /* the real run's, over RUN_AREA */
  gboolean         have_plan;
  GeglRectangle    run_area;        /* where the kernels run: the region
                                     * and the filter's halo */

  GtkWidget       *area;
  GtkWidget       *toggle;
  GtkWidget       *zoom_combo;
  GtkWidget       *grid_toggle;
  GtkWidget       *status;
  gint             allocated[2];    /* the area's last size */

  gboolean         active;
  gboolean         grid;
  guint            zoom;
  gdouble          centre[2];       /* layer coordinates shown mid-area */

  /* The last render, in layer coordinates. */
  cairo_surface_t *original;
  GeglRectangle    original_area;
  cairo_surface_t *filtered;
  GeglRectangle    filtered_area;
  cairo_surface_t *overlay;
  GeglRectangle    overlay_area;
  gchar           *error;
  gdouble          ms;
  gdouble          region_ms;       /* the whole region's expected time */
  guint            renders;

  guint            timeout_id;
  guint            progress_id;     /* the status's refresh while running */
  TlPreviewWatch  *watch;           /* the run in flight's, or NULL */
  GeglRectangle    running_area;    /* where it runs the kernels */
  gboolean         running;
  gboolean         dirty;
  gboolean         disposed;

  gboolean         dragging;
  gdouble          drag_start[2];
  gdouble          drag_centre[2];
};

/* tl-preview-run.c */
void tl_preview_run_update_status (TlPreview *self);
void tl_preview_run_queue         (TlPreview *self,
                                   guint      delay);
void tl_preview_run_halt          (TlPreview *self);

G_END_DECLS

#endif /* TL_PREVIEW_PRIVATE_H */
