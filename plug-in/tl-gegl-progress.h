/* ThreadLens: the GEGL operations' progress, as GIMP shows it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_GEGL_PROGRESS_H
#define TL_GEGL_PROGRESS_H

#include <gegl-plugin.h>

G_BEGIN_DECLS

typedef struct
{
  GeglOperation *operation;
  gint64         start;
  gboolean       shown;
} TlGeglProgress;

/* PROGRESS for a computation of OPERATION starting now. */
void     tl_gegl_progress_begin (TlGeglProgress *progress,
                                 GeglOperation  *operation);
/* A TlHostProgress: FRACTION as OPERATION's node tells it, once the
 * computation has lasted (MESSAGE is GIMP's own).
 */
gboolean tl_gegl_progress       (gdouble         fraction,
                                 const gchar    *message,
                                 gpointer        progress);
/* Ends the bar where one was started. */
void     tl_gegl_progress_end   (TlGeglProgress *progress);

G_END_DECLS

#endif /* TL_GEGL_PROGRESS_H */
