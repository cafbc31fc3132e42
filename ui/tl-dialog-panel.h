/* ThreadLens dialog: the content both GIMP hosts show.
 *
 * A TlDialogPanel holds every choice of a run (the filter's parameters,
 * the dispatch rules, the device, the overlay), the live summary of the
 * resulting plan, and the preview.  The GIMP 2.10 host shows it in a
 * TlDialog (tl-dialog.h); the GIMP 3 host packs it into its
 * GimpProcedureDialog and follows the "runnable" property for its OK
 * button.  GIMP-free: GTK 3, GEGL and the engine only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_DIALOG_PANEL_H
#define TL_DIALOG_PANEL_H

#include <gtk/gtk.h>

#include "tl-host.h"
#include "tl-probe.h"

G_BEGIN_DECLS

#define TL_TYPE_DIALOG_PANEL (tl_dialog_panel_get_type ())
G_DECLARE_FINAL_TYPE (TlDialogPanel, tl_dialog_panel, TL, DIALOG_PANEL, GtkBox)

GtkWidget     *tl_dialog_panel_new               (const TlFilter       *filter,
                                                  const TlHostSettings *settings,
                                                  GeglBuffer           *source,
                                                  const GeglRectangle  *region);

void           tl_dialog_panel_get_settings      (TlDialogPanel        *panel,
                                                  TlHostSettings       *settings);
void           tl_dialog_panel_set_settings      (TlDialogPanel        *panel,
                                                  const TlHostSettings *settings);
void           tl_dialog_panel_reset             (TlDialogPanel        *panel);

gboolean       tl_dialog_panel_get_runnable      (TlDialogPanel        *panel);
void           tl_dialog_panel_stop              (TlDialogPanel        *panel);
const gchar   *tl_dialog_panel_get_message       (TlDialogPanel        *panel);

/* For tests: choices by name, the summary's text, fake devices. */
gboolean       tl_dialog_panel_set_value         (TlDialogPanel        *panel,
                                                  const gchar          *name,
                                                  const gchar          *value,
                                                  GError              **error);
const gchar   *tl_dialog_panel_get_summary       (TlDialogPanel        *panel,
                                                  const gchar          *key);
gboolean       tl_dialog_panel_get_plan          (TlDialogPanel        *panel,
                                                  TlLimits             *limits,
                                                  TlPlan               *plan);
void           tl_dialog_panel_set_devices       (TlDialogPanel        *panel,
                                                  const TlProbeDevice  *devices,
                                                  guint                 n_devices,
                                                  guint                 default_index);
gboolean       tl_dialog_panel_is_busy           (TlDialogPanel        *panel);
GtkWidget     *tl_dialog_panel_get_preview       (TlDialogPanel        *panel);

G_END_DECLS

#endif /* TL_DIALOG_PANEL_H */
