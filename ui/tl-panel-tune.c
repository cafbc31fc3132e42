/* ThreadLens dialog: the panel's Tune button: the search for the fastest
 * automatic choices on this layer, in a worker thread, with its progress
 * shown under the shape and the button turned into Cancel while it runs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-dialog-panel-private.h"
#include "tl-tune.h"

#define TL_PANEL_TUNE_POLL_MS 100

typedef struct
{
  TlHostSettings  settings;
  const TlFilter *filter;
  GeglBuffer     *source;
  GeglRectangle   region;
  TlTuning        tuning;
  GError         *error;
  GCancellable   *cancellable;
  GWeakRef        panel;
  guint           poll_id;

  /* Written by the worker's progress callback, read by the poll. */
  GMutex          lock;
  TlTuneStatus    status;
} TlPanelTuneJob;

static void
tl_panel_tune_job_free (gpointer data)
{
  TlPanelTuneJob *job = data;

  g_clear_object (&job->source);
  g_clear_object (&job->cancellable);
  g_clear_error (&job->error);
  g_weak_ref_clear (&job->panel);
  g_mutex_clear (&job->lock);
  g_free (job);
}

/* In the worker: keeps the latest status; FALSE once Cancel was pressed. */
static gboolean
tl_panel_tune_progress (const TlTuneStatus *status,
                        gpointer            data)
{
  TlPanelTuneJob *job = data;

  g_mutex_lock (&job->lock);
  job->status = *status;
  g_mutex_unlock (&job->lock);
  return ! g_cancellable_is_cancelled (job->cancellable);
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
                TL_TUNE_DEFAULT_BUDGET_S, tl_panel_tune_progress, job,
                &job->tuning, &job->error);
  tl_probe_unlock ();
  g_task_return_boolean (task, TRUE);
}

/* In the main loop: the progress bar follows the worker. */
static gboolean
tl_panel_tune_poll (gpointer data)
{
  TlPanelTuneJob   *job  = data;
  TlDialogPanel    *self = g_weak_ref_get (&job->panel);
  g_autofree gchar *text = NULL;
  TlTuneStatus      status;

  if (self == NULL)
    return G_SOURCE_CONTINUE;

  g_mutex_lock (&job->lock);
  status = job->status;
  g_mutex_unlock (&job->lock);

  if (! self->disposed && status.n_timed > 0)
    {
      /* TRANSLATORS: while tuning: choices timed so far, then the
       * fastest one's work-group shape and time.
       */
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u choice timed, fastest %u × %u: %.3f ms",
                                           "%u choices timed, fastest %u × %u: %.3f ms",
                                           status.n_timed),
                              status.n_timed, status.best.shape[0],
                              status.best.shape[1], status.best_ms);
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->tune_progress),
                                     status.fraction);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->tune_progress), text);
    }
  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

static void
tl_panel_tune_done (GObject      *source_object,
                    GAsyncResult *result,
                    gpointer      data)
{
  TlPanelTuneJob   *job  = g_task_get_task_data (G_TASK (result));
  TlDialogPanel    *self = g_weak_ref_get (&job->panel);
  g_autofree gchar *text = NULL;

  g_source_remove (job->poll_id);
  tl_probe_job_end ();
  if (self == NULL)
    return;

  self->tuning = FALSE;
  g_clear_object (&self->tune_cancellable);
  if (! self->disposed)
    {
      gtk_button_set_label (GTK_BUTTON (self->tune_button), _("Tu_ne"));
      gtk_widget_set_sensitive (self->tune_button, TRUE);
      if (g_error_matches (job->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          text = g_strdup (_("Tuning cancelled: Automatic keeps its choice."));
          self->changed (self);
        }
      else if (job->error)
        {
          text = g_strdup (_("Tuning failed."));
          tl_panel_plan_set_message (self, _("Tuning failed."),
                                     job->error->message);
        }
      else
        {
          /* TRANSLATORS: after tuning: choices timed, seconds taken. */
          text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Tuned: %u choice timed in %.1f s",
                                               "Tuned: %u choices timed in %.1f s",
                                               job->tuning.n_choices),
                                  job->tuning.n_choices, job->tuning.search_s);
          self->changed (self);
        }
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->tune_progress),
                                     job->error ? 0.0 : 1.0);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->tune_progress), text);
    }
  g_object_unref (self);
}

/* The Tune button's handler (the panel connects it): starts the search
 * in a worker thread, or cancels the running one; the summary shows its
 * result.
 */
void
tl_panel_tune_start (TlDialogPanel *self)
{
  TlPanelTuneJob *job;
  GTask          *task;

  if (self->tuning)
    {
      g_cancellable_cancel (self->tune_cancellable);
      gtk_widget_set_sensitive (self->tune_button, FALSE);
      return;
    }

  job = g_new0 (TlPanelTuneJob, 1);
  job->settings    = self->settings;
  job->filter      = self->filter;
  job->source      = g_object_ref (self->source);
  job->region      = self->region;
  job->cancellable = g_cancellable_new ();
  g_mutex_init (&job->lock);
  g_weak_ref_init (&job->panel, self);

  self->tuning           = TRUE;
  self->tune_cancellable = g_object_ref (job->cancellable);
  gtk_button_set_label (GTK_BUTTON (self->tune_button), _("_Cancel"));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->tune_progress), 0.0);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->tune_progress),
                             _("Tuning…"));
  gtk_widget_show (self->tune_progress);

  job->poll_id = g_timeout_add (TL_PANEL_TUNE_POLL_MS, tl_panel_tune_poll, job);
  tl_probe_job_begin ();
  task = g_task_new (NULL, NULL, tl_panel_tune_done, NULL);
  g_task_set_task_data (task, job, tl_panel_tune_job_free);
  g_task_run_in_thread (task, tl_panel_tune_thread);
  g_object_unref (task);
}
