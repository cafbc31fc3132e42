/* ThreadLens tests: an isolated GIMP for the tests that drive one, so
 * that neither the developer's GIMP settings nor an earlier run can
 * change what a test sees.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gimp-session.h"

/* Links TARGET (an environment variable's path) into FOLDER, once. */
static void
tl_test_gimp_link (const gchar *variable,
                   const gchar *folder)
{
  const gchar      *target = g_getenv (variable);
  g_autofree gchar *name   = NULL;
  g_autofree gchar *path   = NULL;

  if (target == NULL)
    return;
  name = g_path_get_basename (target);
  path = g_build_filename (folder, name, NULL);
  if (! g_file_test (path, G_FILE_TEST_EXISTS) && symlink (target, path) != 0)
    g_error ("cannot link %s into %s", target, folder);
}

gchar **
tl_test_gimp_environ (const gchar *work_dir,
                      const gchar *home_name,
                      const gchar *gimp_name,
                      const gchar *gimp_dir_var,
                      gboolean     module)
{
  g_autofree gchar *plugins  = g_build_filename (work_dir, "plug-ins", NULL);
  g_autofree gchar *link_dir = g_build_filename (plugins, "gimp-threadlens", NULL);
  g_autofree gchar *home     = g_build_filename (work_dir, home_name, NULL);
  g_autofree gchar *config   = g_build_filename (home, ".config", NULL);
  g_autofree gchar *cache    = g_build_filename (home, ".cache", NULL);
  g_autofree gchar *gimpdir  = g_build_filename (work_dir, gimp_name, NULL);
  g_autofree gchar *gegl_dir = g_build_filename (home, ".local", "share",
                                                 "gegl-0.4", "plug-ins", NULL);
  g_autofree gchar *pdirs    = NULL;
  gchar           **envp     = g_get_environ ();

  g_mkdir_with_parents (link_dir, 0700);
  tl_test_gimp_link ("TL_GIMP_PLUGIN", link_dir);
  /* GIMP's GEGL loads the module from the user's GEGL folder; its OpenCL
   * safety check sits beside it.
   */
  g_mkdir_with_parents (gegl_dir, 0700);
  if (module)
    {
      tl_test_gimp_link ("TL_GEGL_MODULE", gegl_dir);
      tl_test_gimp_link ("TL_CL_PROBE", gegl_dir);
    }
  g_mkdir_with_parents (config, 0700);
  g_mkdir_with_parents (cache, 0700);

  /* No fatal criticals: GIMP's own are not ours to fail on. */
  pdirs = g_strconcat (g_getenv ("TL_GIMP_SYSTEM_PLUGINS"), ":", plugins, NULL);
  envp = g_environ_setenv (envp, "HOME", home, TRUE);
  envp = g_environ_setenv (envp, "XDG_CONFIG_HOME", config, TRUE);
  envp = g_environ_setenv (envp, "XDG_CACHE_HOME", cache, TRUE);
  envp = g_environ_unsetenv (envp, "XDG_DATA_HOME");
  envp = g_environ_setenv (envp, gimp_dir_var, gimpdir, TRUE);
  envp = g_environ_setenv (envp, "GIMP_TESTING_PLUGINDIRS", pdirs, TRUE);
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "G_DEBUG");
  return envp;
}

const gchar *
tl_test_gimp_console (guint major)
{
  g_return_val_if_fail (major == 2 || major == 3, NULL);
  return major == 2 ? "gimp-console-2.10" : "gimp-console-3";
}

const gchar *
tl_test_gimp_gui (guint major)
{
  g_return_val_if_fail (major == 2 || major == 3, NULL);
  return major == 2 ? "gimp-2.10" : "gimp-3";
}

const gchar *
tl_test_gimp_version (guint major)
{
  static gchar *versions[4];
  const gchar  *argv[] = { tl_test_gimp_console (major), "--version", NULL };
  g_autofree gchar *out = NULL;
  gint          status;
  gchar        *space;

  g_return_val_if_fail (major == 2 || major == 3, NULL);
  if (versions[major] != NULL)
    return versions[major];
  /* "GNU Image Manipulation Program version 3.2.6" */
  if (! g_spawn_sync (NULL, (gchar **) argv, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, &out, NULL, &status, NULL) ||
      ! g_spawn_check_wait_status (status, NULL))
    return NULL;
  g_strstrip (out);
  space = strrchr (out, ' ');
  versions[major] = g_strdup (space ? space + 1 : out);
  return versions[major];
}

gboolean
tl_test_gimp_at_least (guint major,
                       guint minor)
{
  const gchar  *version = tl_test_gimp_version (major);
  g_auto(GStrv) parts   = NULL;

  if (version == NULL)
    g_error ("%s is not installed", tl_test_gimp_console (major));
  parts = g_strsplit (version, ".", 3);
  if (parts[0] == NULL || parts[1] == NULL)
    g_error ("%s --version says '%s'", tl_test_gimp_console (major), version);
  return atoi (parts[0]) > (gint) major ||
         (atoi (parts[0]) == (gint) major && atoi (parts[1]) >= (gint) minor);
}

gboolean
tl_test_gimp_can_run (guint        major,
                      const gchar *program)
{
  g_autofree gchar *found = g_find_program_in_path (program);

  if (g_getenv ("TL_GIMP_PLUGIN") == NULL)
    {
      g_print ("1..0 # SKIP this build has no host for GIMP %u\n", major);
      return FALSE;
    }
  if (found == NULL || tl_test_gimp_version (major) == NULL)
    {
      g_print ("Bail out! this build is for GIMP %u, but %s is not "
               "installed (or does not say its version)\n", major, program);
      exit (1);
    }
  g_print ("# GIMP %s (%s)\n", tl_test_gimp_version (major), found);
  return TRUE;
}
