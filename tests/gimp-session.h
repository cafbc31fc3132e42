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

G_END_DECLS

#endif /* TL_TEST_GIMP_SESSION_H */
