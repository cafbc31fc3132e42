/* ThreadLens tests: what the parts of test-ui share: the photo the
 * dialogs show, devices that need not be present, the dialog's widgets
 * set and found as a user would, the main loop run until the dialog is
 * idle, and screenshots; and the parts themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_UI_FIXTURES_H
#define TL_TEST_UI_FIXTURES_H

#include <gtk/gtk.h>

#include "tl-dialog.h"

G_BEGIN_DECLS

/* Limits of devices that need not be present. */
#define UI_N_FAKE_DEVICES 4
extern const TlProbeDevice ui_fake_devices[UI_N_FAKE_DEVICES];

/* The test photo (coffee.png), loaded once by main (). */
void            ui_photo_load      (void);
void            ui_photo_free      (void);
GeglBuffer     *ui_photo           (void);
GeglRectangle   ui_photo_region    (void);

/* A dialog panel for FILTER_NAME on REGION of the photo; with FAKE, on
 * the fake devices.  Free with ui_destroy ().
 */
TlDialogPanel  *ui_new_panel       (const gchar         *filter_name,
                                    const GeglRectangle *region,
                                    gboolean             fake);

/* Runs the main loop until the panel has measured its devices and the
 * preview has nothing left to do.
 */
void            ui_wait_for        (TlDialogPanel       *panel);

/* Shows DIALOG, then ui_wait_for (). */
void            ui_show_and_wait   (GtkWidget           *dialog,
                                    TlDialogPanel       *panel);

/* Destroys WIDGET (the dialog or the panel PANEL), checks it is
 * finalized at once (worker threads hold no reference to it) and waits
 * for their jobs, so every test leaves nothing running behind.
 */
void            ui_destroy         (GtkWidget           *widget,
                                    TlDialogPanel       *panel);

/* Sets the panel's setting NAME to VALUE, as a user would. */
void            ui_set             (TlDialogPanel       *panel,
                                    const gchar         *name,
                                    const gchar         *value);
TlHostSettings  ui_settings_of     (TlDialogPanel       *panel);

/* The first widget of TYPE in WIDGET, WIDGET included; NULL if none. */
GtkWidget      *ui_find_widget     (GtkWidget           *widget,
                                    GType                type);

/* Looks for the Tune button in WIDGET, into *DATA (a GtkWidget **). */
void            ui_find_button     (GtkWidget           *widget,
                                    gpointer             data);

/* Whether the message of INFO_BAR has taken the summary's place. */
gboolean        ui_message_shown   (GtkWidget           *info_bar);
gboolean        ui_ok_sensitive    (GtkWidget           *dialog);

/* An idle function that presses OK in the dialog DATA. */
gboolean        ui_respond         (gpointer             data);

/* The dialogs' Help, so that they show their Help button: sets the
 * gboolean DATA points to, where DATA is not NULL.
 */
void            ui_help            (gpointer             data);

/* Saves WINDOW as threadlens-ui-NAME.png to the build directory and to
 * the temporary one; it must fit a 1280x800 screen.
 */
void            ui_save_screenshot (GtkWidget           *window,
                                    const gchar         *name);

/* The parts of test-ui beside its start-up and screenshots (test-ui.c),
 * each adding its tests.
 */
void            ui_panel_add_tests   (void);    /* ui-panel.c */
void            ui_summary_add_tests (void);    /* ui-summary.c */
void            ui_preview_add_tests (void);    /* ui-preview.c */
void            ui_tune_add_tests    (void);    /* ui-tune.c */

G_END_DECLS

#endif /* TL_TEST_UI_FIXTURES_H */
