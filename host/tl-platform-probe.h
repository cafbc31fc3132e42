/* ThreadLens: is it safe to call OpenCL in this process?
 *
 * Some OpenCL drivers abort the whole process inside the ICD loader (PoCL
 * 6 calls abort () in clGetPlatformIDs when /sys is not mounted).  In a
 * plug-in that costs one filter; in GIMP's own process (the GEGL module)
 * it costs every unsaved image.  So a host that lives in someone else's
 * process first lists the platforms in a child process (the
 * threadlens-cl-probe helper) and keeps the verdict on disk, keyed by the
 * installed ICDs, so that only a changed driver set is probed again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PLATFORM_PROBE_H
#define TL_PLATFORM_PROBE_H

#include <glib.h>

G_BEGIN_DECLS

#define TL_PLATFORM_PROBE_HELPER "threadlens-cl-probe"

gchar    *tl_platform_probe_key   (void);
gboolean  tl_platform_probe_check (const gchar  *helper,
                                   gboolean     *from_cache,
                                   GError      **error);

G_END_DECLS

#endif /* TL_PLATFORM_PROBE_H */
