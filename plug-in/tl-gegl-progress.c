/* ThreadLens: the GEGL operations' progress.
 *
 * A long computation's progress as the node's "progress" signal, which
 * GIMP's filter tool shows in its status bar, its text GIMP's own: 0.0
 * starts the bar, 1.0 ends it, values between move it (GIMP 2.10 and 3
 * alike).  A computation under TL_GEGL_PROGRESS_MS (most chunks) shows
 * none, rather than a bar that flashes chunk by chunk.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-gegl-progress.h"

#define TL_GEGL_PROGRESS_MS 500

void
tl_gegl_progress_begin (TlGeglProgress *progress,
                        GeglOperation  *operation)
{
  progress->operation = operation;
  progress->start     = g_get_monotonic_time ();
  progress->shown     = FALSE;
}

gboolean
tl_gegl_progress (gdouble      fraction,
                  const gchar *message,
                  gpointer     data)
{
  TlGeglProgress *progress = data;

  if (! progress->shown)
    {
      if (g_get_monotonic_time () - progress->start <
          TL_GEGL_PROGRESS_MS * 1000)
        return TRUE;
      progress->shown = TRUE;
      gegl_operation_progress (progress->operation, 0.0, NULL);
    }
  /* Neither end of the bar's range: those start and end it. */
  gegl_operation_progress (progress->operation,
                           CLAMP (fraction, 0.001, 0.999), NULL);
  /* GIMP's cancel never reaches an operation: it stops between chunks. */
  return TRUE;
}

void
tl_gegl_progress_end (TlGeglProgress *progress)
{
  if (progress->shown)
    gegl_operation_progress (progress->operation, 1.0, NULL);
  progress->shown = FALSE;
}
