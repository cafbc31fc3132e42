/* ThreadLens: a long command that the user can watch and stop.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CLI_WATCH_H
#define TL_CLI_WATCH_H

#include "tl-run.h"

G_BEGIN_DECLS

typedef struct _TlCliWatch TlCliWatch;

/* Takes SIGINT and SIGTERM from here on, in every thread started later
 * (call it before any): the first stops the run WHAT (a filter's name)
 * at its next check, or ends the process within
 * TL_CLI_WATCH_GRACE_MS where the device holds on; a second ends it at
 * once.  A progress line goes to stderr where SHOW says so.
 */
TlCliWatch *tl_cli_watch_new      (const gchar      *what,
                                   gboolean          show);
/* A TlWatchFunc: WATCH's progress line, and FALSE once a signal came. */
gboolean    tl_cli_watch_progress (const TlProgress *progress,
                                   gpointer          watch);
/* The output is being written: a signal from now on lets the write
 * finish (a file is whole or absent), and the command ends as it would.
 */
void        tl_cli_watch_saving   (TlCliWatch       *watch);
/* The exit status the signal asks for (128 + its number), or 0 where
 * none came.
 */
gint        tl_cli_watch_status   (TlCliWatch       *watch);
/* Clears the progress line. */
void        tl_cli_watch_end      (TlCliWatch       *watch);

#define TL_CLI_WATCH_GRACE_MS 400

G_END_DECLS

#endif /* TL_CLI_WATCH_H */
