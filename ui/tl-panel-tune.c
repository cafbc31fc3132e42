/* ThreadLens dialog: the panel's Tune button: the search for the fastest
 * automatic choices on this layer, in a worker thread.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"
#include "tl-tune.h"

typedef struct
{
  TlHostSettings  settings;
  const TlFilter *filter;
  GeglBuffer     *source;
  GeglRectangle   region;
  TlTuning        tuning;
  GError         *error;
} TlPanelTuneJob;

static void
tl_panel_tune_job_free (gpointer data)
{
  TlPanelTuneJob *job = data;

  g_clear_object (&job->source);
  g_clear_error (&job->error);
  g_free (job);
}

static void
tl_panel_tune_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  TlPanelTuneJob *job = task_data;

  /* The preview's kernels and the search must not share the device. */
  tl_probe_lock ();
  tl_host_tune (&job->settings, job->filter, job->source, &job->region,
                &job->tuning, &job->error);
  tl_probe_unlock ();
  g_task_return_boolean (task, TRUE);
}

static void
tl_panel_tune_done (GObject      *source_object,
                    GAsyncResult *result,
                    gpointer      data)
{
  GWeakRef        *ref  = data;
  TlDialogPanel   *self = g_weak_ref_get (ref);
  TlPanelTuneJob *job  = g_task_get_task_data (G_TASK (result));

  tl_probe_job_end ();
  g_weak_ref_clear (ref);
  g_free (ref);
  if (self == NULL)
    return;

  self->tuning = FALSE;
  if (! self->disposed)
    {
      gtk_button_set_label (GTK_BUTTON (self->tune_button), _("Tu_ne"));
      gtk_widget_set_sensitive (self->tune_button, TRUE);
      if (job->error)
        tl_panel_plan_set_message (self, _("Tuning failed."),
                                   job->error->message);
      else
        tl_dialog_panel_update (self);
    }
  g_object_unref (self);
}

/* Runs the search in a worker thread; the summary shows its result. */
void
tl_panel_tune_start (TlDialogPanel *self)
{
  TlPanelTuneJob *job;
  GWeakRef        *ref;
  GTask           *task;

  if (self->tuning)
    return;

  job = g_new0 (TlPanelTuneJob, 1);
  job->settings = self->settings;
  job->filter   = self->filter;
  job->source   = g_object_ref (self->source);
  job->region   = self->region;

  self->tuning = TRUE;
  gtk_button_set_label (GTK_BUTTON (self->tune_button), _("Tuning…"));
  gtk_widget_set_sensitive (self->tune_button, FALSE);

  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, self);
  tl_probe_job_begin ();
  task = g_task_new (NULL, NULL, tl_panel_tune_done, ref);
  g_task_set_task_data (task, job, tl_panel_tune_job_free);
  g_task_run_in_thread (task, tl_panel_tune_thread);
  g_object_unref (task);
}
