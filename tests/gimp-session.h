/* ThreadLens tests: an isolated GIMP for the tests that drive one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_GIMP_SESSION_H
#define TL_TEST_GIMP_SESSION_H

#include <glib.h>

G_BEGIN_DECLS

/* The environment of a GIMP of its own under WORK_DIR: home HOME_NAME
 * (its config, caches and, with MODULE, the build's GEGL module and its
 * OpenCL safety check in the user's GEGL folder) and GIMP folder
 * GIMP_NAME (named by GIMP_DIR_VAR), the system's plug-ins plus the
 * build's ThreadLens (TL_GIMP_PLUGIN) on the plug-in path, no display.
 * Free with g_strfreev ().
 */
gchar **tl_test_gimp_environ (const gchar *work_dir,
                              const gchar *home_name,
                              const gchar *gimp_name,
                              const gchar *gimp_dir_var,
                              gboolean     module);

/* The console and the window program of GIMP MAJOR (2 or 3): the names
 * every release of that series installs.  GIMP 3.2 has no
 * "gimp-console-3.0", but 3.0 and 3.2 both have "gimp-console-3".
 */
const gchar *tl_test_gimp_console   (guint        major);
const gchar *tl_test_gimp_gui       (guint        major);

/* What GIMP MAJOR says its version is ("3.2.6"), asked once; NULL
 * where its console is not installed.  Every test program prints it, so
 * that a log says which GIMP it judged.
 */
const gchar *tl_test_gimp_version   (guint        major);

/* Whether the installed GIMP MAJOR is MAJOR.MINOR or later. */
gboolean     tl_test_gimp_at_least  (guint        major,
                                     guint        minor);

/* The TAP plan's first line where a test program cannot run GIMP MAJOR:
 * a skip where this build has no host for it (WHAT_RUNS names the other
 * missing piece, or NULL), but a bail-out where the host is built and
 * GIMP is not installed, since a build for GIMP 3 (the roots') must
 * never pass without having run it.  Returns TRUE when GIMP can run,
 * after printing its version.
 */
gboolean     tl_test_gimp_can_run   (guint        major,
                                     const gchar *program);

G_END_DECLS

#endif /* TL_TEST_GIMP_SESSION_H */
