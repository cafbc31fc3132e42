/* ThreadLens dialog: the panel's choices judged: the plan on the chosen
 * device's limits for the summary and the preview, or why they cannot
 * run.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"
#include "tl-error.h"
#include "tl-host-check.h"
#include "tl-preview.h"
#include "tl-summary.h"
#include "tl-tune.h"

/* What tl_host_process () reads and runs the kernels on: the region and
 * the filter's halo around it, within the layer.
 */
static void
tl_panel_plan_run_area (TlDialogPanel *self,
                        GeglRectangle *area)
{
  guint halo = 0;

  if (self->filter &&
      tl_filter_check_values (self->filter, self->settings.values, NULL))
    halo = tl_filter_halo (self->filter, self->settings.values);

  *area = self->region;
  area->x      -= halo;
  area->y      -= halo;
  area->width  += 2 * halo;
  area->height += 2 * halo;
  gegl_rectangle_intersect (area, area, &self->extent);
}

/* What a run takes by default on the device the choices were last judged
 * for (a GPU until then) for the layer's storage ("" variant: floats).
 */
guint
tl_panel_plan_default_pixels (TlDialogPanel *self)
{
  if (self->filter == NULL)
    return 1;
  return tl_filter_auto_pixels_per_item (self->filter,
                                         self->variant && *self->variant,
                                         self->have_limits ?
                                         self->limits.device_kind :
                                         TL_DEVICE_KIND_GPU);
}

static gboolean
tl_panel_plan_overlay_is (TlDialogPanel *self,
                          const gchar   *name)
{
  return strcmp (tl_host_overlay_names[self->settings.overlay], name) == 0;
}

void
tl_panel_plan_set_message (TlDialogPanel *self,
                           const gchar   *heading,
                           const gchar   *detail)
{
  g_autofree gchar *markup = NULL;

  g_clear_pointer (&self->message, g_free);
  if (heading == NULL)
    {
      gtk_stack_set_visible_child (GTK_STACK (self->summary_stack), self->summary);
      return;
    }

  self->message = g_strdup_printf ("%s\n%s", heading, detail);
  markup = g_markup_printf_escaped ("<b>%s</b>\n%s", heading, detail);
  gtk_label_set_markup (GTK_LABEL (self->info_label), markup);
  gtk_stack_set_visible_child (GTK_STACK (self->summary_stack), self->info_bar);
}

/* Judges the settings: the plan on the chosen device's limits, or why
 * they cannot run.  Nothing is adjusted to make them fit.  RUNNABLE is
 * the panel's property of that name, notified when the verdict changes.
 */
void
tl_panel_plan_evaluate (TlDialogPanel *self,
                        GParamSpec    *runnable)
{
  g_autoptr(GError)    error   = NULL;
  g_autofree gchar    *heading = NULL;
  const TlProbeDevice *device  = NULL;
  const gchar         *detail  = NULL;
  const gchar         *shape   = tl_panel_pages_shape_id (self);
  gint                 index   = tl_panel_devices_active (self);
  gboolean             limit   = FALSE;
  gboolean             bordered;
  TlChoice             choice;
  guint                i;

  self->have_plan       = FALSE;
  self->have_limits     = FALSE;
  self->message_is_note = FALSE;

  if (self->devices)
    device = tl_panel_devices_get (self, index);
  if (device && device->measured)
    {
      self->limits      = device->limits;
      self->have_limits = TRUE;
    }

  tl_panel_plan_run_area (self, &self->area);

  if (self->param_error ||
      (self->filter &&
       ! tl_filter_check_values (self->filter, self->settings.values, &error)))
    {
      heading = g_strdup (_("A filter parameter is not valid."));
      detail  = self->param_error ? self->param_error : error->message;
    }
  else if (! tl_host_check_settings (self->filter, &self->settings, &error))
    {
      /* The procedures' own judgement, said before the run fails on it. */
      heading = g_strdup (_("These settings cannot run."));
      detail  = error->message;
    }
  else if (self->devices_error && self->cpu_only && self->filter &&
           self->settings.overlay == 0)
    {
      /* The C reference stands in, as the run itself will say. */
      heading = g_strdup (_("No OpenCL platform: the filter will run on the "
                            "CPU, through its C reference."));
      detail  = self->devices_error;
      self->message_is_note = TRUE;
    }
  else if (self->devices_error)
    {
      heading = g_strdup (_("No OpenCL device is available."));
      detail  = self->devices_error;
    }
  else if (self->devices && device == NULL)
    {
      /* TRANSLATORS: %s is a remembered device name. */
      heading = g_strdup_printf (_("The device “%s” is not present."),
                                 self->settings.device);
      detail  = _("Choose another device.");
    }
  else if (device && ! device->measured)
    {
      heading = g_strdup_printf (_("The kernels do not build on %s."),
                                 device->name);
      detail  = device->error;
    }
  else if (device && tl_panel_plan_overlay_is (self, "compute-unit") &&
           ! device->names_compute_units)
    {
      heading = g_strdup_printf (_("%s does not say which compute unit ran a "
                                   "work-group."), device->name);
      detail  = _("Only NVIDIA's OpenCL does. Choose another overlay or "
                  "device.");
    }
  else if (self->have_limits)
    {
      if (! tl_host_settings_to_choice (&self->settings, &choice, &error))
        {
          heading = g_strdup_printf (_("These choices cannot run on %s."),
                                     device->name);
          detail  = error->message;
        }
      else
        {
          TlTuning tuning;
          gboolean tuned = FALSE;

          if (strcmp (shape, "seed") == 0)
            choice.shape_kind = TL_SHAPE_SEED;
          if (choice.pixels_per_item == 0)
            choice.pixels_per_item = tl_panel_plan_default_pixels (self);

          /* "auto" shows what a run will take: the tuned choice where a
           * search has been run for this device, storage and size.
           */
          if (choice.shape_kind == TL_SHAPE_AUTO && self->filter && device &&
              tl_tune_lookup_device (device->name, device->driver,
                                     self->filter->name,
                                     self->variant ? self->variant : "",
                                     choice.mode, self->area.width,
                                     self->area.height, &tuning) &&
              tl_tune_plan (&tuning, &self->limits, self->area.width,
                            self->area.height, &self->plan))
            {
              self->have_plan = TRUE;
              tuned           = TRUE;
            }

          if (! tuned &&
              tl_plan_compute (&self->limits, &choice, self->area.width,
                               self->area.height, &self->plan, &error))
            {
              self->have_plan = TRUE;
            }
          else if (! tuned)
            {
              /* TRANSLATORS: %s is an OpenCL device's name; the planner's
               * reason follows on the next line.
               */
              heading = g_strdup_printf (_("These choices cannot run on %s."),
                                         device->name);
              detail  = error->message;
              limit   = g_error_matches (error, TL_ERROR, TL_ERROR_LIMIT);
            }
        }
    }

  tl_panel_plan_set_message (self, heading, detail);
  tl_panel_pages_set_error_style (self->shape_width, limit);
  tl_panel_pages_set_error_style (self->shape_height, limit);

  /* Automatic and seed shapes show the size they came to; with no plan
   * there is no such size, and the spin buttons say nothing.
   */
  if (strcmp (shape, "auto") == 0 || strcmp (shape, "seed") == 0)
    {
      if (self->have_plan)
        {
          self->updating++;
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_width), self->plan.local[0]);
          gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->shape_height), self->plan.local[1]);
          self->updating--;
        }
      gtk_widget_set_sensitive (self->shape_width, self->have_plan);
      gtk_widget_set_sensitive (self->shape_height, self->have_plan);
    }
  else
    {
      gtk_widget_set_sensitive (self->shape_width, TRUE);
      gtk_widget_set_sensitive (self->shape_height, TRUE);
    }

  for (i = 0; i < G_N_ELEMENTS (tl_panel_pages_modes); i++)
    if (tl_panel_pages_modes[i].mode == self->settings.mode)
      gtk_label_set_text (GTK_LABEL (self->mode_hint),
                          _(tl_panel_pages_modes[i].hint));

  bordered = ! gegl_rectangle_equal (&self->area, &self->region);
  if (self->have_plan)
    tl_summary_show_plan (TL_SUMMARY (self->summary), device->name,
                          &self->limits, &self->plan, bordered);
  else
    tl_summary_show_no_plan (TL_SUMMARY (self->summary),
                             device ? device->name : NULL,
                             self->have_limits ? &self->limits : NULL,
                             self->area.width, self->area.height, bordered);

  /* Tuning times kernels: it needs a device that built them. */
  if (self->tune_button && ! self->tuning)
    gtk_widget_set_sensitive (self->tune_button, self->have_limits);
  gtk_widget_set_sensitive (self->style_combo, self->settings.overlay > 0);
  for (i = 0; i < G_N_ELEMENTS (self->opacity_row); i++)
    gtk_widget_set_sensitive (self->opacity_row[i], self->settings.overlay > 0);

  if (self->runnable != (self->message == NULL || self->message_is_note))
    {
      self->runnable = self->message == NULL || self->message_is_note;
      g_object_notify_by_pspec (G_OBJECT (self), runnable);
    }

  tl_preview_set_settings (TL_PREVIEW (self->preview), &self->settings,
                           &self->area, self->have_plan ? &self->plan : NULL,
                           self->runnable);
}
