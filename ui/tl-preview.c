/* ThreadLens dialog: the preview of the real layer: the view drawn
 * (the layer, the filtered part, the thread map, the grid), dragged and
 * zoomed, and the public API.  tl-preview-run.c runs the kernels.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "tl-preview-private.h"
#include "tl-probe.h"

#define TL_PREVIEW_WIDTH      480
#define TL_PREVIEW_HEIGHT     360
#define TL_PREVIEW_MAX_ZOOM   8
#define TL_PREVIEW_DELAY_MS   150   /* after the last change, before a run */

G_DEFINE_TYPE (TlPreview, tl_preview, GTK_TYPE_BOX)

/* Layer coordinates to the area's. */
static void
tl_preview_to_area (TlPreview *self,
                    gdouble    x,
                    gdouble    y,
                    gdouble   *area_x,
                    gdouble   *area_y)
{
  *area_x = (x - self->centre[0]) * self->zoom +
            floor (gtk_widget_get_allocated_width (self->area) / 2.0);
  *area_y = (y - self->centre[1]) * self->zoom +
            floor (gtk_widget_get_allocated_height (self->area) / 2.0);
}

static void
tl_preview_draw_image (TlPreview           *self,
                       cairo_t             *cr,
                       cairo_surface_t     *surface,
                       const GeglRectangle *area)
{
  gdouble x, y;

  tl_preview_to_area (self, area->x, area->y, &x, &y);

  cairo_save (cr);
  cairo_translate (cr, x, y);
  cairo_scale (cr, self->zoom, self->zoom);
  cairo_set_source_surface (cr, surface, 0, 0);
  /* Zoomed pixels stay square, so work-groups stay countable. */
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, 0, 0, area->width, area->height);
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
tl_preview_draw_checks (TlPreview *self,
                        cairo_t   *cr)
{
  gdouble x0, y0, x1, y1;
  gint    width  = gtk_widget_get_allocated_width (self->area);
  gint    height = gtk_widget_get_allocated_height (self->area);
  gint    i, j;

  cairo_set_source_rgb (cr, 0.25, 0.25, 0.25);
  cairo_paint (cr);

  tl_preview_to_area (self, self->extent.x, self->extent.y, &x0, &y0);
  tl_preview_to_area (self, self->extent.x + self->extent.width,
                      self->extent.y + self->extent.height, &x1, &y1);

  cairo_save (cr);
  cairo_rectangle (cr, x0, y0, x1 - x0, y1 - y0);
  cairo_clip (cr);
  cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.4, 0.4, 0.4);
  for (j = 0; j * 8 < height; j++)
    for (i = j % 2; i * 8 < width; i += 2)
      cairo_rectangle (cr, i * 8, j * 8, 8, 8);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* A line dark and light in turns, visible on any photo. */
static void
tl_preview_stroke_ants (cairo_t *cr)
{
  static const gdouble dashes[] = { 3.0, 3.0 };

  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, 0.0, 0.0, 0.0, 0.6);
  cairo_stroke_preserve (cr);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0.0);
  cairo_set_source_rgba (cr, 1.0, 1.0, 1.0, 0.8);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.0);
}

/* The work-group grid of the region's plan, and in uniform mode the
 * padding of the rounded-up grid, where work-items idle.
 */
static void
tl_preview_draw_grid (TlPreview *self,
                      cairo_t   *cr)
{
  gint     width  = gtk_widget_get_allocated_width (self->area);
  gint     height = gtk_widget_get_allocated_height (self->area);
  gint     group_w, group_h, grid_w, grid_h, i;
  gdouble  x0, y0, x1, y1, gx1, gy1, x, y;

  group_w = self->plan.local[0] * self->plan.pixels_per_item;
  group_h = self->plan.local[1];
  if (group_w == 0 || group_h == 0)
    return;

  /* The kernels run over the area: the region and the filter's halo. */
  grid_w = self->run_area.width;
  grid_h = self->run_area.height;
  if (self->plan.mode == TL_MODE_UNIFORM)
    {
      grid_w = self->plan.groups[0] * group_w;
      grid_h = self->plan.groups[1] * group_h;
    }

  tl_preview_to_area (self, self->run_area.x, self->run_area.y, &x0, &y0);
  tl_preview_to_area (self, self->run_area.x + self->run_area.width,
                      self->run_area.y + self->run_area.height, &x1, &y1);
  tl_preview_to_area (self, self->run_area.x + grid_w,
                      self->run_area.y + grid_h, &gx1, &gy1);

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_clip (cr);

  /* Padding: hatched. */
  if (gx1 > x1 || gy1 > y1)
    {
      cairo_save (cr);
      cairo_rectangle (cr, x1, y0, gx1 - x1, gy1 - y0);
      cairo_rectangle (cr, x0, y1, x1 - x0, gy1 - y1);
      cairo_clip (cr);
      cairo_set_source_rgba (cr, 0.9, 0.2, 0.2, 0.35);
      cairo_paint (cr);
      cairo_set_source_rgba (cr, 1.0, 0.4, 0.4, 0.8);
      cairo_set_line_width (cr, 1.0);
      for (x = -height; x < width; x += 6)
        {
          cairo_move_to (cr, x, height);
          cairo_line_to (cr, x + height, 0);
        }
      cairo_stroke (cr);
      cairo_restore (cr);
    }

  /* Group edges in view only: a large layer has many. */
  for (i = MAX (0, (gint) floor ((0 - x0) / (group_w * self->zoom)));
       i * group_w <= grid_w; i++)
    {
      x = x0 + (gdouble) i * group_w * self->zoom;
      if (x > width)
        break;
      cairo_move_to (cr, floor (x) + 0.5, MAX (y0, 0));
      cairo_line_to (cr, floor (x) + 0.5, MIN (gy1, height));
    }
  for (i = MAX (0, (gint) floor ((0 - y0) / (group_h * self->zoom)));
       i * group_h <= grid_h; i++)
    {
      y = y0 + (gdouble) i * group_h * self->zoom;
      if (y > height)
        break;
      cairo_move_to (cr, MAX (x0, 0), floor (y) + 0.5);
      cairo_line_to (cr, MIN (gx1, width), floor (y) + 0.5);
    }
  tl_preview_stroke_ants (cr);

  cairo_restore (cr);
}

static gboolean
tl_preview_draw (GtkWidget *widget,
                 cairo_t   *cr,
                 TlPreview *self)
{
  tl_preview_draw_checks (self, cr);

  if (self->original)
    tl_preview_draw_image (self, cr, self->original, &self->original_area);
  if (self->active && self->runnable)
    {
      if (self->filtered)
        tl_preview_draw_image (self, cr, self->filtered, &self->filtered_area);
      /* Over it, as the new layer goes above the filtered one. */
      if (self->overlay)
        tl_preview_draw_image (self, cr, self->overlay, &self->overlay_area);
    }

  if (self->grid && self->have_plan)
    tl_preview_draw_grid (self, cr);

  /* The selection's bounds, when the region is not the whole layer. */
  if (! gegl_rectangle_equal (&self->region, &self->extent))
    {
      gdouble x0, y0, x1, y1;

      tl_preview_to_area (self, self->region.x, self->region.y, &x0, &y0);
      tl_preview_to_area (self, self->region.x + self->region.width,
                          self->region.y + self->region.height, &x1, &y1);
      cairo_rectangle (cr, floor (x0) + 0.5, floor (y0) + 0.5,
                       floor (x1 - x0) - 1, floor (y1 - y0) - 1);
      tl_preview_stroke_ants (cr);
    }

  return TRUE;
}

static void
tl_preview_clamp_centre (TlPreview *self)
{
  self->centre[0] = CLAMP (self->centre[0], self->extent.x,
                           self->extent.x + self->extent.width);
  self->centre[1] = CLAMP (self->centre[1], self->extent.y,
                           self->extent.y + self->extent.height);
}

static gboolean
tl_preview_button_press (GtkWidget      *widget,
                         GdkEventButton *event,
                         TlPreview      *self)
{
  if (event->button != GDK_BUTTON_PRIMARY || event->type != GDK_BUTTON_PRESS)
    return FALSE;

  self->dragging       = TRUE;
  self->drag_start[0]  = event->x;
  self->drag_start[1]  = event->y;
  self->drag_centre[0] = self->centre[0];
  self->drag_centre[1] = self->centre[1];

  return TRUE;
}

static gboolean
tl_preview_motion (GtkWidget      *widget,
                   GdkEventMotion *event,
                   TlPreview      *self)
{
  if (! self->dragging)
    return FALSE;

  self->centre[0] = self->drag_centre[0] - (event->x - self->drag_start[0]) / self->zoom;
  self->centre[1] = self->drag_centre[1] - (event->y - self->drag_start[1]) / self->zoom;
  tl_preview_clamp_centre (self);
  gtk_widget_queue_draw (self->area);
  tl_preview_run_queue (self, TL_PREVIEW_DELAY_MS);

  return TRUE;
}

static gboolean
tl_preview_button_release (GtkWidget      *widget,
                           GdkEventButton *event,
                           TlPreview      *self)
{
  if (event->button != GDK_BUTTON_PRIMARY || ! self->dragging)
    return FALSE;

  self->dragging = FALSE;
  tl_preview_run_queue (self, 0);

  return TRUE;
}

static gboolean
tl_preview_scroll (GtkWidget      *widget,
                   GdkEventScroll *event,
                   TlPreview      *self)
{
  gdouble dx = 0.0, dy = 0.0;

  if (event->direction == GDK_SCROLL_UP)
    dy = -1.0;
  else if (event->direction == GDK_SCROLL_DOWN)
    dy = 1.0;
  else if (event->direction == GDK_SCROLL_SMOOTH)
    gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy);

  if (dy < 0.0 && self->zoom < TL_PREVIEW_MAX_ZOOM)
    tl_preview_set_zoom (self, self->zoom * 2);
  else if (dy > 0.0 && self->zoom > 1)
    tl_preview_set_zoom (self, self->zoom / 2);

  return TRUE;
}

/* A new size shows another part: run again.  GTK allocates the same size
 * again on any change of layout (the status line's text): no run then.
 */
static void
tl_preview_size_allocate (GtkWidget     *widget,
                          GtkAllocation *allocation,
                          TlPreview     *self)
{
  if (allocation->width == self->allocated[0] &&
      allocation->height == self->allocated[1])
    return;
  self->allocated[0] = allocation->width;
  self->allocated[1] = allocation->height;
  tl_preview_run_queue (self, TL_PREVIEW_DELAY_MS);
}

static void
tl_preview_toggled (GtkToggleButton *button,
                    TlPreview       *self)
{
  tl_preview_set_active (self, gtk_toggle_button_get_active (button));
}

static void
tl_preview_grid_toggled (GtkToggleButton *button,
                         TlPreview       *self)
{
  tl_preview_set_grid (self, gtk_toggle_button_get_active (button));
}

static void
tl_preview_zoom_changed (GtkComboBox *combo,
                         TlPreview   *self)
{
  const gchar *id = gtk_combo_box_get_active_id (combo);

  if (id)
    tl_preview_set_zoom (self, (guint) g_ascii_strtoull (id, NULL, 10));
}

static void
tl_preview_dispose (GObject *object)
{
  TlPreview *self = TL_PREVIEW (object);

  self->disposed = TRUE;
  if (self->timeout_id)
    {
      g_source_remove (self->timeout_id);
      self->timeout_id = 0;
    }
  if (self->progress_id)
    {
      g_source_remove (self->progress_id);
      self->progress_id = 0;
    }
  /* Nobody waits for the run in flight. */
  tl_preview_run_halt (self);

  G_OBJECT_CLASS (tl_preview_parent_class)->dispose (object);
}

static void
tl_preview_finalize (GObject *object)
{
  TlPreview *self = TL_PREVIEW (object);

  g_clear_object (&self->source);
  g_clear_pointer (&self->original, cairo_surface_destroy);
  g_clear_pointer (&self->filtered, cairo_surface_destroy);
  g_clear_pointer (&self->overlay, cairo_surface_destroy);
  g_free (self->error);

  G_OBJECT_CLASS (tl_preview_parent_class)->finalize (object);
}

static void
tl_preview_class_init (TlPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose  = tl_preview_dispose;
  object_class->finalize = tl_preview_finalize;
}

static void
tl_preview_init (TlPreview *self)
{
  static const guint zooms[] = { 1, 2, 4, 8 };
  GtkWidget *frame, *row, *label;
  guint      i;

  self->active = TRUE;
  self->zoom   = 1;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);

  frame = gtk_frame_new (NULL);
  gtk_frame_set_shadow_type (GTK_FRAME (frame), GTK_SHADOW_IN);
  gtk_box_pack_start (GTK_BOX (self), frame, TRUE, TRUE, 0);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->area, TL_PREVIEW_WIDTH, TL_PREVIEW_HEIGHT);
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_add_events (self->area,
                         GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                         GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                         GDK_SMOOTH_SCROLL_MASK);
  gtk_widget_set_tooltip_text (self->area,
                               _("Drag to move the view; scroll to zoom."));
  gtk_container_add (GTK_CONTAINER (frame), self->area);
  g_signal_connect (self->area, "draw", G_CALLBACK (tl_preview_draw), self);
  g_signal_connect (self->area, "button-press-event",
                    G_CALLBACK (tl_preview_button_press), self);
  g_signal_connect (self->area, "motion-notify-event",
                    G_CALLBACK (tl_preview_motion), self);
  g_signal_connect (self->area, "button-release-event",
                    G_CALLBACK (tl_preview_button_release), self);
  g_signal_connect (self->area, "scroll-event",
                    G_CALLBACK (tl_preview_scroll), self);
  g_signal_connect (self->area, "size-allocate",
                    G_CALLBACK (tl_preview_size_allocate), self);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_box_pack_start (GTK_BOX (self), row, FALSE, FALSE, 0);

  self->toggle = gtk_check_button_new_with_mnemonic (_("_Preview"));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->toggle), TRUE);
  gtk_widget_set_tooltip_text (self->toggle,
                               _("Run the filter on the visible part of the "
                                 "layer with the real kernels"));
  gtk_box_pack_start (GTK_BOX (row), self->toggle, FALSE, FALSE, 0);
  g_signal_connect (self->toggle, "toggled", G_CALLBACK (tl_preview_toggled), self);

  self->grid_toggle = gtk_check_button_new_with_mnemonic (_("Work-_group grid"));
  gtk_widget_set_tooltip_text (self->grid_toggle,
                               _("Outline each work-group; in uniform mode "
                                 "the padding where work-items idle is "
                                 "hatched"));
  gtk_box_pack_start (GTK_BOX (row), self->grid_toggle, FALSE, FALSE, 0);
  g_signal_connect (self->grid_toggle, "toggled",
                    G_CALLBACK (tl_preview_grid_toggled), self);

  self->zoom_combo = gtk_combo_box_text_new ();
  for (i = 0; i < G_N_ELEMENTS (zooms); i++)
    {
      g_autofree gchar *id   = g_strdup_printf ("%u", zooms[i]);
      /* TRANSLATORS: a zoom ratio, screen pixels : layer pixels. */
      g_autofree gchar *text = g_strdup_printf (_("%u:1"), zooms[i]);

      gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (self->zoom_combo), id, text);
    }
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->zoom_combo), "1");
  gtk_box_pack_end (GTK_BOX (row), self->zoom_combo, FALSE, FALSE, 0);
  g_signal_connect (self->zoom_combo, "changed",
                    G_CALLBACK (tl_preview_zoom_changed), self);

  label = gtk_label_new_with_mnemonic (_("_Zoom:"));
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), self->zoom_combo);
  gtk_box_pack_end (GTK_BOX (row), label, FALSE, FALSE, 0);

  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (self->status), 30);
  /* A long status must not widen the dialog: the tooltip has it whole. */
  gtk_label_set_max_width_chars (GTK_LABEL (self->status), 30);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->status),
                               "dim-label");
  gtk_box_pack_start (GTK_BOX (self), self->status, FALSE, FALSE, 0);
}

/* FILTER NULL: the thread-map procedure's preview, the map over the
 * layer.  SOURCE may be NULL: the preview then shows nothing but says so.
 */
GtkWidget *
tl_preview_new (const TlFilter      *filter,
                GeglBuffer          *source,
                const GeglRectangle *region)
{
  TlPreview *self;

  g_return_val_if_fail (region != NULL, NULL);
  g_return_val_if_fail (source == NULL || GEGL_IS_BUFFER (source), NULL);

  self = g_object_new (TL_TYPE_PREVIEW, NULL);
  self->filter = filter;
  self->region = *region;
  self->run_area = *region;
  self->extent = *region;
  if (source)
    {
      self->source = g_object_ref (source);
      self->extent = *gegl_buffer_get_extent (source);
    }
  self->centre[0] = region->x + region->width / 2.0;
  self->centre[1] = region->y + region->height / 2.0;

  if (source == NULL)
    {
      gtk_widget_set_sensitive (self->toggle, FALSE);
      gtk_label_set_text (GTK_LABEL (self->status), _("No layer to preview."));
    }

  return GTK_WIDGET (self);
}

/* PLAN is the plan of the real run over AREA (the region grown by the
 * filter's halo, within the layer), NULL while the device's limits are
 * being measured or when the choices cannot run; RUNNABLE says which.
 */
void
tl_preview_set_settings (TlPreview            *preview,
                         const TlHostSettings *settings,
                         const GeglRectangle  *area,
                         const TlPlan         *plan,
                         gboolean              runnable)
{
  g_return_if_fail (TL_IS_PREVIEW (preview));
  g_return_if_fail (settings != NULL && area != NULL);

  preview->settings      = *settings;
  preview->have_settings = TRUE;
  preview->runnable      = runnable;
  preview->run_area      = *area;
  preview->have_plan     = plan != NULL;
  if (plan)
    preview->plan = *plan;

  tl_preview_run_update_status (preview);
  gtk_widget_queue_draw (preview->area);
  tl_preview_run_queue (preview, TL_PREVIEW_DELAY_MS);
}

void
tl_preview_set_active (TlPreview *preview,
                       gboolean   active)
{
  g_return_if_fail (TL_IS_PREVIEW (preview));

  active = active && preview->source != NULL;
  if (active != gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (preview->toggle)))
    {
      /* The toggle's handler comes back here. */
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (preview->toggle), active);
      return;
    }
  if (active == preview->active)
    return;

  preview->active = active;
  tl_preview_run_update_status (preview);
  gtk_widget_queue_draw (preview->area);
  tl_preview_run_queue (preview, 0);
}

gboolean
tl_preview_get_active (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), FALSE);

  return preview->active;
}

/* ZOOM is screen pixels per layer pixel: 1, 2, 4 or 8. */
void
tl_preview_set_zoom (TlPreview *preview,
                     guint      zoom)
{
  g_autofree gchar *id = NULL;

  g_return_if_fail (TL_IS_PREVIEW (preview));
  g_return_if_fail (zoom == 1 || zoom == 2 || zoom == 4 || zoom == 8);

  id = g_strdup_printf ("%u", zoom);
  if (g_strcmp0 (id, gtk_combo_box_get_active_id (GTK_COMBO_BOX (preview->zoom_combo))) != 0)
    {
      gtk_combo_box_set_active_id (GTK_COMBO_BOX (preview->zoom_combo), id);
      return;
    }
  if (zoom == preview->zoom)
    return;

  preview->zoom = zoom;
  gtk_widget_queue_draw (preview->area);
  tl_preview_run_queue (preview, 0);
}

guint
tl_preview_get_zoom (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), 1);

  return preview->zoom;
}

void
tl_preview_set_grid (TlPreview *preview,
                     gboolean   grid)
{
  g_return_if_fail (TL_IS_PREVIEW (preview));

  if (grid != gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (preview->grid_toggle)))
    {
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (preview->grid_toggle), grid);
      return;
    }
  preview->grid = grid;
  gtk_widget_queue_draw (preview->area);
}

gboolean
tl_preview_get_grid (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), FALSE);

  return preview->grid;
}

/* Centres the view on layer coordinates X, Y. */
void
tl_preview_set_centre (TlPreview *preview,
                       gdouble    x,
                       gdouble    y)
{
  g_return_if_fail (TL_IS_PREVIEW (preview));

  preview->centre[0] = x;
  preview->centre[1] = y;
  tl_preview_clamp_centre (preview);
  gtk_widget_queue_draw (preview->area);
  tl_preview_run_queue (preview, 0);
}

/* No run pending; waits for the one in flight (and any other job of the
 * dialog's) to finish.  A later change starts the preview again.
 */
void
tl_preview_stop (TlPreview *preview)
{
  g_return_if_fail (TL_IS_PREVIEW (preview));

  if (preview->timeout_id)
    {
      g_source_remove (preview->timeout_id);
      preview->timeout_id = 0;
    }
  preview->dirty = FALSE;
  tl_preview_run_halt (preview);
  tl_probe_wait_jobs ();
}

/* A run in flight or about to start. */
gboolean
tl_preview_is_busy (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), FALSE);

  return preview->running || preview->timeout_id != 0;
}

guint
tl_preview_get_renders (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), 0);

  return preview->renders;
}

const gchar *
tl_preview_get_error (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), NULL);

  return preview->error;
}

const gchar *
tl_preview_get_status (TlPreview *preview)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), NULL);

  return gtk_label_get_text (GTK_LABEL (preview->status));
}

/* The last thread map (cairo-ARGB32) and where it lies in the layer;
 * NULL without one.
 */
cairo_surface_t *
tl_preview_get_overlay (TlPreview     *preview,
                        GeglRectangle *area)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), NULL);

  if (area)
    *area = preview->overlay_area;

  return preview->overlay;
}

/* The last filtered pixels (cairo-ARGB32) and where they lie in the
 * layer; NULL when the last run filtered nothing.
 */
cairo_surface_t *
tl_preview_get_filtered (TlPreview     *preview,
                         GeglRectangle *area)
{
  g_return_val_if_fail (TL_IS_PREVIEW (preview), NULL);

  if (area)
    *area = preview->filtered_area;

  return preview->filtered;
}
