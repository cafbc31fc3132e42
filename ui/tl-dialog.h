/* ThreadLens dialog: the window the GIMP 2.10 host shows.
 *
 * A GtkDialog around a TlDialogPanel with Help, Reset, Cancel and OK.
 * OK is insensitive while the choices cannot run.  GIMP-free: the host
 * makes it transient to GIMP's window and says what Help does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_DIALOG_H
#define TL_DIALOG_H

#include <gtk/gtk.h>

#include "tl-dialog-panel.h"

G_BEGIN_DECLS

#define TL_DIALOG_RESPONSE_RESET 1

typedef void (* TlDialogHelpFunc) (gpointer user_data);

#define TL_TYPE_DIALOG (tl_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TlDialog, tl_dialog, TL, DIALOG, GtkDialog)

GtkWidget     *tl_dialog_new           (const TlFilter       *filter,
                                        TlHostSettings       *settings,
                                        GeglBuffer           *source,
                                        const GeglRectangle  *region,
                                        GtkWindow            *parent);
void           tl_dialog_set_help_func (TlDialog             *dialog,
                                        TlDialogHelpFunc      func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy);
gboolean       tl_dialog_run           (TlDialog             *dialog);
TlDialogPanel *tl_dialog_get_panel     (TlDialog             *dialog);

G_END_DECLS

#endif /* TL_DIALOG_H */
