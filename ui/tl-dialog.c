/* ThreadLens dialog: the window the GIMP 2.10 host shows.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-dialog.h"

struct _TlDialog
{
  GtkDialog         parent_instance;

  TlHostSettings   *settings;      /* the caller's: written on OK */
  GtkWidget        *panel;
  GtkWidget        *help;
  TlDialogHelpFunc  help_func;
  gpointer          help_data;
  GDestroyNotify    help_destroy;
};

G_DEFINE_TYPE (TlDialog, tl_dialog, GTK_TYPE_DIALOG)

static void
tl_dialog_finalize (GObject *object)
{
  TlDialog *self = TL_DIALOG (object);

  if (self->help_destroy)
    self->help_destroy (self->help_data);

  G_OBJECT_CLASS (tl_dialog_parent_class)->finalize (object);
}

static void
tl_dialog_class_init (TlDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tl_dialog_finalize;
}

static void
tl_dialog_init (TlDialog *self)
{
}

static void
tl_dialog_runnable_changed (TlDialogPanel *panel,
                            GParamSpec    *pspec,
                            TlDialog      *self)
{
  gtk_dialog_set_response_sensitive (GTK_DIALOG (self), GTK_RESPONSE_OK,
                                     tl_dialog_panel_get_runnable (panel));
}

/* SETTINGS are shown, and replaced by the user's choices when
 * tl_dialog_run () returns TRUE.  FILTER NULL: the thread-map procedure.  SOURCE (may be NULL: no preview) is the
 * layer's buffer, REGION the part to filter.  PARENT may be NULL: the
 * GIMP 2.10 host makes the window transient to GIMP's through GDK.
 */
GtkWidget *
tl_dialog_new (const TlFilter      *filter,
               TlHostSettings      *settings,
               GeglBuffer          *source,
               const GeglRectangle *region,
               GtkWindow           *parent)
{
  TlDialog         *self;
  GtkWidget        *content;
  g_autofree gchar *title = NULL;

  g_return_val_if_fail (settings != NULL, NULL);
  g_return_val_if_fail (region != NULL, NULL);
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  /* TRANSLATORS: the dialog's title; %s is the filter's name. */
  title = g_strdup_printf (_("ThreadLens: %s"),
                           filter ? _(filter->label) : _("Thread Map"));
  self  = g_object_new (TL_TYPE_DIALOG,
                        "title", title,
                        "role", "gimp-threadlens",
                        "use-header-bar", FALSE,
                        "resizable", TRUE,
                        NULL);
  self->settings = settings;

  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (self), parent);
      gtk_window_set_position (GTK_WINDOW (self), GTK_WIN_POS_CENTER_ON_PARENT);
    }

  /* Help stays hidden until the host says what it does. */
  self->help = gtk_dialog_add_button (GTK_DIALOG (self), _("_Help"),
                                      GTK_RESPONSE_HELP);
  gtk_widget_hide (self->help);
  gtk_widget_set_no_show_all (self->help, TRUE);
  gtk_dialog_add_button (GTK_DIALOG (self), _("_Reset"),
                         TL_DIALOG_RESPONSE_RESET);
  gtk_dialog_add_button (GTK_DIALOG (self), _("_Cancel"), GTK_RESPONSE_CANCEL);
  gtk_dialog_add_button (GTK_DIALOG (self), _("_OK"), GTK_RESPONSE_OK);
  gtk_dialog_set_default_response (GTK_DIALOG (self), GTK_RESPONSE_OK);

  /* GIMP's spacing: 12 pixels to the edge, buttons 6 in from it. */
  gtk_container_set_border_width (GTK_CONTAINER (self), 6);
  self->panel = tl_dialog_panel_new (filter, settings, source, region);
  gtk_container_set_border_width (GTK_CONTAINER (self->panel), 6);
  content = gtk_dialog_get_content_area (GTK_DIALOG (self));
  gtk_box_pack_start (GTK_BOX (content), self->panel, TRUE, TRUE, 0);

  g_signal_connect_object (self->panel, "notify::runnable",
                           G_CALLBACK (tl_dialog_runnable_changed), self, 0);
  tl_dialog_runnable_changed (TL_DIALOG_PANEL (self->panel), NULL, self);

  return GTK_WIDGET (self);
}

/* FUNC runs when Help is pressed (the GIMP 2.10 host calls gimp_help ());
 * without one there is no Help button.
 */
void
tl_dialog_set_help_func (TlDialog         *dialog,
                         TlDialogHelpFunc  func,
                         gpointer          user_data,
                         GDestroyNotify    destroy)
{
  g_return_if_fail (TL_IS_DIALOG (dialog));

  if (dialog->help_destroy)
    dialog->help_destroy (dialog->help_data);

  dialog->help_func    = func;
  dialog->help_data    = user_data;
  dialog->help_destroy = destroy;
  gtk_widget_set_visible (dialog->help, func != NULL);
}

/* Shows the dialog and runs it until OK or Cancel (Reset and Help keep it
 * open).  TRUE: OK, and the settings given to tl_dialog_new () hold the
 * choices.  It returns once no preview kernel runs any more; the caller
 * destroys the dialog.
 */
gboolean
tl_dialog_run (TlDialog *dialog)
{
  TlDialogPanel *panel;
  gint           response;

  g_return_val_if_fail (TL_IS_DIALOG (dialog), FALSE);

  panel = TL_DIALOG_PANEL (dialog->panel);
  gtk_widget_show (GTK_WIDGET (dialog));

  while (TRUE)
    {
      response = gtk_dialog_run (GTK_DIALOG (dialog));

      if (response == TL_DIALOG_RESPONSE_RESET)
        tl_dialog_panel_reset (panel);
      else if (response == GTK_RESPONSE_HELP && dialog->help_func)
        dialog->help_func (dialog->help_data);
      else if (response != GTK_RESPONSE_HELP)
        break;
    }

  /* The host's own run must not share the device with the preview's. */
  tl_dialog_panel_stop (panel);

  if (response != GTK_RESPONSE_OK || ! tl_dialog_panel_get_runnable (panel))
    return FALSE;

  tl_dialog_panel_get_settings (panel, dialog->settings);
  return TRUE;
}

TlDialogPanel *
tl_dialog_get_panel (TlDialog *dialog)
{
  g_return_val_if_fail (TL_IS_DIALOG (dialog), NULL);

  return TL_DIALOG_PANEL (dialog->panel);
}
