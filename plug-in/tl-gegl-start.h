/* ThreadLens: the GEGL module's start, once per process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_GEGL_START_H
#define TL_GEGL_START_H

#include <glib.h>

G_BEGIN_DECLS

/* May OpenCL be called here at all?  Checked once, in a test process;
 * where not, the host's OpenCL is turned off with the reason.
 */
void   tl_gegl_start_check_platforms (void);
/* The check and the default device's context, made in a thread of their
 * own (once; not with THREADLENS_WARM_UP=0).
 */
void   tl_gegl_start_warm_up         (void);
/* When the context made ahead was ready (monotonic time; 0: not yet). */
gint64 tl_gegl_start_ready_at        (void);

G_END_DECLS

#endif /* TL_GEGL_START_H */
