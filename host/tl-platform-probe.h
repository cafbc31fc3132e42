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

/* The environment variable that turns the programs' building ahead
 * off when "0" (the tests, whose caches live for one process).
 */
#define TL_PLATFORM_PROBE_PREBUILD_ENV "THREADLENS_PREBUILD"

gchar    *tl_platform_probe_key   (void);
gboolean  tl_platform_probe_check (const gchar  *helper,
                                   gboolean     *from_cache,
                                   GError      **error);
/* Starts HELPER building every filter's programs into the program cache
 * (its --build-programs), at a low priority, and returns at once: after
 * a check that passed for a new driver set, so that a filter's first
 * use does not wait for the compiler.
 */
void      tl_platform_probe_prebuild (const gchar *helper);
/* Where the helper says, once it has built them, how many programs it
 * built for the installed drivers (beside the verdict; NULL where the
 * disk cache is off).  Free with g_free ().
 */
gchar    *tl_platform_probe_programs_path (void);

G_END_DECLS

#endif /* TL_PLATFORM_PROBE_H */
