/* ThreadLens dialog: the preview of the real layer.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-preview.h"
#include "tl-probe.h"

#define TL_PREVIEW_WIDTH      480
#define TL_PREVIEW_HEIGHT     360
#define TL_PREVIEW_MAX_ZOOM   8
#define TL_PREVIEW_DELAY_MS   150   /* after the last change, before a run */

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
  guint            renders;

  guint            timeout_id;
  gboolean         running;
  gboolean         dirty;
  gboolean         disposed;

  gboolean         dragging;
  gdouble          drag_start[2];
  gdouble          drag_centre[2];
};

/* One preview run, handed to the worker thread and back. */
typedef struct
{
  const TlFilter  *filter;          /* NULL: the thread map alone */
  GeglBuffer      *source;
  TlHostSettings   settings;
  gboolean         run;
  GeglRectangle    visible;
  GeglRectangle    work;
  cairo_surface_t *original;
  cairo_surface_t *filtered;
  cairo_surface_t *overlay;
  GeglRectangle    overlay_area;
  gchar           *legend;
  gchar           *error;
  gdouble          ms;
} TlPreviewJob;

G_DEFINE_TYPE (TlPreview, tl_preview, GTK_TYPE_BOX)

static void tl_preview_queue  (TlPreview *self,
                               guint      delay);

static void
tl_preview_job_free (gpointer data)
{
  TlPreviewJob *job = data;

  g_clear_object (&job->source);
  g_clear_pointer (&job->original, cairo_surface_destroy);
  g_clear_pointer (&job->filtered, cairo_surface_destroy);
  g_clear_pointer (&job->overlay, cairo_surface_destroy);
  g_free (job->legend);
  g_free (job->error);
  g_free (job);
}

static cairo_surface_t *
tl_preview_read (GeglBuffer          *buffer,
                 const GeglRectangle *area)
{
  cairo_surface_t *surface;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, area->width,
                                        area->height);
  cairo_surface_flush (surface);
  gegl_buffer_get (buffer, area, 1.0, babl_format ("cairo-ARGB32"),
                   cairo_image_surface_get_data (surface),
                   cairo_image_surface_get_stride (surface),
                   GEGL_ABYSS_NONE);
  cairo_surface_mark_dirty (surface);

  return surface;
}

/* The thread map as the new layer would show it: a tint with its alpha,
 * or the checkerboarded image.
 */
static cairo_surface_t *
tl_preview_read_overlay (const TlHostOverlay *overlay)
{
  cairo_surface_t *surface;
  const Babl      *fish;
  guchar          *data;
  gint             stride, y;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                        overlay->area.width,
                                        overlay->area.height);
  cairo_surface_flush (surface);
  data   = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  fish   = babl_fish (babl_format ("R'G'B'A float"), babl_format ("cairo-ARGB32"));
  for (y = 0; y < overlay->area.height; y++)
    babl_process (fish, overlay->pixels + (gsize) y * overlay->area.width * 4,
                  data + (gsize) y * stride, overlay->area.width);
  cairo_surface_mark_dirty (surface);

  return surface;
}

static void
tl_preview_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  TlPreviewJob  *job     = task_data;
  TlHostOverlay  overlay = { { 0, } };
  GeglBuffer    *scratch = NULL;
  GError        *error   = NULL;
  gint64         start;
  gboolean       ok;

  if (job->visible.width > 0 && job->visible.height > 0)
    job->original = tl_preview_read (job->source, &job->visible);

  if (! job->run || job->work.width <= 0 || job->work.height <= 0)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  start = g_get_monotonic_time ();
  tl_probe_lock ();
  if (job->filter)
    {
      scratch = gegl_buffer_new (&job->work, babl_format (job->filter->format));
      ok = tl_host_process (&job->settings, job->filter, job->source,
                            scratch, &job->work, NULL, NULL, &overlay,
                            NULL, &error);
    }
  else
    {
      ok = tl_host_thread_map (&job->settings, job->source, &job->work,
                               NULL, NULL, &overlay, &error);
    }
  tl_probe_unlock ();
  job->ms = (g_get_monotonic_time () - start) / 1000.0;

  if (ok)
    {
      if (scratch)
        job->filtered = tl_preview_read (scratch, &job->work);
      if (overlay.pixels)
        {
          job->overlay      = tl_preview_read_overlay (&overlay);
          job->overlay_area = overlay.area;
          job->legend       = g_strdup (overlay.legend);
        }
    }
  else
    {
      job->error = g_strdup (error->message);
    }

  tl_host_overlay_clear (&overlay);
  g_clear_error (&error);
  g_clear_object (&scratch);
  g_task_return_boolean (task, TRUE);
}

static void
tl_preview_visible (TlPreview     *self,
                    GeglRectangle *visible)
{
  gdouble width  = (gdouble) gtk_widget_get_allocated_width (self->area) / self->zoom;
  gdouble height = (gdouble) gtk_widget_get_allocated_height (self->area) / self->zoom;

  visible->x      = (gint) floor (self->centre[0] - width / 2.0);
  visible->y      = (gint) floor (self->centre[1] - height / 2.0);
  visible->width  = (gint) ceil (width) + 2;
  visible->height = (gint) ceil (height) + 2;
}

/* One axis of tl_preview_work_area (): the part [*START, *END) of the
 * region [R0, R1) to filter so that the visible part [V0, V1) is covered
 * and the preview's run, which reads HALO more on each side within the
 * area [A0, A1), begins on a boundary of two of the real run's groups
 * (GROUP pixels each, so the checkerboard keeps its parity) and ends on
 * one of its groups.
 */
static gboolean
tl_preview_work_axis (gint  r0,
                      gint  r1,
                      gint  a0,
                      gint  a1,
                      gint  v0,
                      gint  v1,
                      gint  halo,
                      gint  group,
                      gint *start,
                      gint *end)
{
  gint run0, run1;

  v0 = MAX (v0, r0);
  v1 = MIN (v1, r1);
  if (v1 <= v0)
    return FALSE;

  run0 = a0 + MAX (0, v0 - halo - a0) / (2 * group) * (2 * group);
  run1 = a0 + (v1 + halo - a0 + group - 1) / group * group;

  *start = run0 > a0 ? run0 + halo : r0;
  *end   = MIN (r1, run1 - halo);
  if (*end < v1)
    *end = v1;
  return *end > *start;
}

/* The part of the region to run on: the visible part, grown so that the
 * preview's work-groups are the real run's.
 */
static void
tl_preview_work_area (TlPreview           *self,
                      const GeglRectangle *visible,
                      GeglRectangle       *work)
{
  gint halo, x0, x1, y0, y1;

  memset (work, 0, sizeof (*work));
  if (! self->have_plan || self->plan.local[0] == 0)
    {
      gegl_rectangle_intersect (work, visible, &self->region);
      return;
    }

  halo = self->region.x - self->run_area.x;
  halo = MAX (halo, self->run_area.x + self->run_area.width -
                    self->region.x - self->region.width);
  halo = MAX (halo, self->region.y - self->run_area.y);
  halo = MAX (halo, self->run_area.y + self->run_area.height -
                    self->region.y - self->region.height);

  if (tl_preview_work_axis (self->region.x, self->region.x + self->region.width,
                            self->run_area.x, self->run_area.x + self->run_area.width,
                            visible->x, visible->x + visible->width, halo,
                            self->plan.local[0] * self->plan.pixels_per_item,
                            &x0, &x1) &&
      tl_preview_work_axis (self->region.y, self->region.y + self->region.height,
                            self->run_area.y, self->run_area.y + self->run_area.height,
                            visible->y, visible->y + visible->height, halo,
                            self->plan.local[1], &y0, &y1))
    {
      work->x      = x0;
      work->y      = y0;
      work->width  = x1 - x0;
      work->height = y1 - y0;
    }
}

static void
tl_preview_update_status (TlPreview *self)
{
  g_autofree gchar *text = NULL;

  if (! self->active)
    text = g_strdup (_("Preview off: the original layer is shown."));
  else if (! self->runnable)
    text = g_strdup (_("No preview: these choices cannot run."));
  else if (self->running)
    text = g_strdup (_("Running the kernels…"));
  else if (self->error)
    text = g_strdup_printf (_("Preview failed: %s"), self->error);
  else if (self->filtered == NULL && self->overlay == NULL)
    text = g_strdup (_("The visible part is outside the region."));
  else
    /* TRANSLATORS: the size of the preview's run and its time. */
    text = g_strdup_printf (_("Ran on %d × %d pixels in %.0f ms."),
                            self->filtered_area.width,
                            self->filtered_area.height, self->ms);

  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_tooltip_text (self->status, text);
}

static void tl_preview_start (TlPreview *self);

static void
tl_preview_done (GObject      *source_object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GWeakRef     *ref  = user_data;
  TlPreview    *self = g_weak_ref_get (ref);
  TlPreviewJob *job  = g_task_get_task_data (G_TASK (result));

  g_weak_ref_clear (ref);
  g_free (ref);
  tl_probe_job_end ();

  if (self == NULL)
    return;

  self->running = FALSE;
  if (! self->disposed)
    {
      g_clear_pointer (&self->original, cairo_surface_destroy);
      g_clear_pointer (&self->filtered, cairo_surface_destroy);
      g_clear_pointer (&self->overlay, cairo_surface_destroy);
      g_clear_pointer (&self->error, g_free);
      self->original      = g_steal_pointer (&job->original);
      self->original_area = job->visible;
      self->filtered      = g_steal_pointer (&job->filtered);
      self->filtered_area = job->work;
      self->overlay       = g_steal_pointer (&job->overlay);
      self->overlay_area  = job->overlay_area;
      self->error         = g_steal_pointer (&job->error);
      /* The engine's legend explains the colors (in English). */
      gtk_widget_set_tooltip_text (self->area, job->legend ? job->legend :
                                   _("Drag to move the view; scroll to zoom."));
      self->ms            = job->ms;
      self->renders++;

      tl_preview_update_status (self);
      gtk_widget_queue_draw (self->area);

      if (self->dirty)
        tl_preview_start (self);
    }

  g_object_unref (self);
}

/* One run at a time: a change during a run marks the preview dirty, and
 * the run's end starts the next.
 */
static void
tl_preview_start (TlPreview *self)
{
  g_autoptr(GTask) task = NULL;
  TlPreviewJob    *job;
  GWeakRef        *ref;

  if (self->running)
    {
      self->dirty = TRUE;
      return;
    }
  self->dirty = FALSE;

  /* Not on screen yet: the first size allocation runs it. */
  if (gtk_widget_get_allocated_width (self->area) <= 1 || self->source == NULL)
    return;

  job = g_new0 (TlPreviewJob, 1);
  job->filter   = self->filter;
  job->source   = g_object_ref (self->source);
  job->settings = self->settings;
  job->run      = self->active && self->have_settings && self->runnable;
  tl_preview_visible (self, &job->visible);
  gegl_rectangle_intersect (&job->visible, &job->visible, &self->extent);
  if (job->run)
    tl_preview_work_area (self, &job->visible, &job->work);

  self->running = TRUE;
  tl_preview_update_status (self);

  /* A weak reference: the worker must never drop the widget's last. */
  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  task = g_task_new (NULL, NULL, tl_preview_done, ref);
  g_task_set_source_tag (task, tl_preview_start);
  g_task_set_task_data (task, job, tl_preview_job_free);
  g_task_run_in_thread (task, tl_preview_thread);
}

static gboolean
tl_preview_timeout (gpointer data)
{
  TlPreview *self = data;

  self->timeout_id = 0;
  tl_preview_start (self);

  return G_SOURCE_REMOVE;
}

static void
tl_preview_queue (TlPreview *self,
                  guint      delay)
{
  if (self->timeout_id)
    g_source_remove (self->timeout_id);
  self->timeout_id = g_timeout_add (delay, tl_preview_timeout, self);
}

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
  tl_preview_queue (self, TL_PREVIEW_DELAY_MS);

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
  tl_preview_queue (self, 0);

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

static void
tl_preview_size_allocate (GtkWidget     *widget,
                          GtkAllocation *allocation,
                          TlPreview     *self)
{
  tl_preview_queue (self, TL_PREVIEW_DELAY_MS);
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

  tl_preview_update_status (preview);
  gtk_widget_queue_draw (preview->area);
  tl_preview_queue (preview, TL_PREVIEW_DELAY_MS);
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
  tl_preview_update_status (preview);
  gtk_widget_queue_draw (preview->area);
  tl_preview_queue (preview, 0);
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
  tl_preview_queue (preview, 0);
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
  tl_preview_queue (preview, 0);
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
