/* ThreadLens: is it safe to call OpenCL in this process (see
 * tl-platform-probe.h)?
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-platform-probe.h"

/* A driver that hangs is as bad as one that aborts. */
#define TL_PLATFORM_PROBE_SECONDS 20

/* The verdicts live beside the program cache (THREADLENS_CACHE_DIR moves
 * both; empty turns the disk off, and then every process probes).
 */
static gchar *
tl_platform_probe_dir (void)
{
  const gchar *env = g_getenv ("THREADLENS_CACHE_DIR");

  if (env != NULL)
    return *env ? g_build_filename (env, "opencl-probe", NULL) : NULL;
  return g_build_filename (g_get_user_cache_dir (), "threadlens",
                           "opencl-probe", NULL);
}

static void
tl_platform_probe_hash_file (GChecksum   *sum,
                             const gchar *path)
{
  g_autofree gchar *contents = NULL;
  gsize             length   = 0;
  GStatBuf          info;

  g_checksum_update (sum, (const guchar *) path, strlen (path) + 1);
  if (g_stat (path, &info) == 0)
    {
      gint64 stamp[2] = { (gint64) info.st_size, (gint64) info.st_mtime };

      g_checksum_update (sum, (const guchar *) stamp, sizeof (stamp));
    }
  if (g_str_has_suffix (path, ".icd") &&
      g_file_get_contents (path, &contents, &length, NULL))
    {
      g_strstrip (contents);
      g_checksum_update (sum, (const guchar *) contents, strlen (contents) + 1);
      /* The library an .icd names, where it is a path: a new driver
       * build under the same name is probed again.
       */
      if (g_path_is_absolute (contents) && g_stat (contents, &info) == 0)
        {
          gint64 stamp[2] = { (gint64) info.st_size, (gint64) info.st_mtime };

          g_checksum_update (sum, (const guchar *) stamp, sizeof (stamp));
        }
    }
}

static void
tl_platform_probe_hash_vendors (GChecksum   *sum,
                                const gchar *place)
{
  g_autoptr(GDir)    dir   = g_dir_open (place, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const gchar       *name;
  guint              i;

  if (dir == NULL)
    {
      tl_platform_probe_hash_file (sum, place);
      return;
    }
  while ((name = g_dir_read_name (dir)))
    g_ptr_array_add (names, g_build_filename (place, name, NULL));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (i = 0; i < names->len; i++)
    tl_platform_probe_hash_file (sum, g_ptr_array_index (names, i));
}

/* The installed ICDs as the loader will find them: ocl-icd reads
 * OCL_ICD_VENDORS (a folder or one file) or /etc/OpenCL/vendors, and
 * OCL_ICD_FILENAMES; the loader's own file counts too.
 */
gchar *
tl_platform_probe_key (void)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  const gchar         *vendors   = g_getenv ("OCL_ICD_VENDORS");
  const gchar         *filenames = g_getenv ("OCL_ICD_FILENAMES");

  tl_platform_probe_hash_vendors (sum, vendors && *vendors ?
                                  vendors : "/etc/OpenCL/vendors");
  if (filenames)
    {
      g_auto(GStrv) files = g_strsplit (filenames, ":", -1);
      guint         i;

      for (i = 0; files[i]; i++)
        tl_platform_probe_hash_file (sum, files[i]);
    }
  tl_platform_probe_hash_file (sum, "/etc/OpenCL/vendors");
  return g_strdup (g_checksum_get_string (sum));
}

/* Runs HELPER; TRUE when it listed the platforms and exited cleanly.
 * VERDICT is whether the outcome speaks of the drivers, to be kept for
 * later processes: a helper that could not start (not installed, a
 * broken package) or did not finish in time (a loaded machine) says
 * nothing of them, and a later process asks again.
 */
static gboolean
tl_platform_probe_spawn (const gchar  *helper,
                         gboolean     *verdict,
                         GError      **error)
{
  g_autoptr(GSubprocess) child  = NULL;
  g_autoptr(GError)      failed = NULL;
  gint64                 end;

  *verdict = FALSE;
  child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                            G_SUBPROCESS_FLAGS_STDERR_SILENCE, &failed,
                            helper, NULL);
  if (child == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                   _("OpenCL is off in this process: its safety check "
                     "(%s) could not run: %s"), helper, failed->message);
      return FALSE;
    }

  /* Polled rather than waited on: this may run on a thread of GIMP's
   * with no main loop of its own (GLib's worker thread reaps the child).
   */
  end = g_get_monotonic_time () + TL_PLATFORM_PROBE_SECONDS * G_USEC_PER_SEC;
  while (g_subprocess_get_identifier (child) && g_get_monotonic_time () < end)
    g_usleep (5000);
  if (g_subprocess_get_identifier (child))
    {
      g_subprocess_force_exit (child);
      g_subprocess_wait (child, NULL, NULL);
      g_set_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                   _("OpenCL is off in this process: listing the OpenCL "
                     "platforms did not finish in %d s in a test process"),
                   TL_PLATFORM_PROBE_SECONDS);
      return FALSE;
    }
  g_subprocess_wait (child, NULL, NULL);
  *verdict = TRUE;
  if (g_subprocess_get_successful (child))
    return TRUE;
  if (g_subprocess_get_if_signaled (child))
    g_set_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                 _("OpenCL is off in this process: an OpenCL driver killed "
                   "a test process with signal %d (%s) while listing the "
                   "platforms"), g_subprocess_get_term_sig (child),
                 g_strsignal (g_subprocess_get_term_sig (child)));
  else
    g_set_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                 _("OpenCL is off in this process: listing the OpenCL "
                   "platforms failed in a test process (exit status %d)"),
                 g_subprocess_get_exit_status (child));
  return FALSE;
}

/* TRUE when OpenCL may be called in this process.  The verdict for the
 * installed ICDs comes from the disk (FROM_CACHE) or from running HELPER
 * now; a failure says what the helper met.
 */
gboolean
tl_platform_probe_check (const gchar  *helper,
                         gboolean     *from_cache,
                         GError      **error)
{
  g_autofree gchar *dir     = tl_platform_probe_dir ();
  g_autofree gchar *key     = tl_platform_probe_key ();
  g_autofree gchar *path    = dir ? g_build_filename (dir, key, NULL) : NULL;
  g_autofree gchar *verdict = NULL;
  g_autoptr(GError) unsafe  = NULL;
  gboolean          safe, verdict_known;

  g_return_val_if_fail (helper != NULL, FALSE);

  if (from_cache)
    *from_cache = FALSE;
  if (path && g_file_get_contents (path, &verdict, NULL, NULL))
    {
      if (from_cache)
        *from_cache = TRUE;
      if (strcmp (verdict, "ok") == 0)
        return TRUE;
      g_set_error_literal (error, TL_ERROR, TL_ERROR_NO_PLATFORM, verdict);
      return FALSE;
    }

  safe = tl_platform_probe_spawn (helper, &verdict_known, &unsafe);
  if (path && verdict_known && g_mkdir_with_parents (dir, 0700) == 0)
    g_file_set_contents (path, safe ? "ok" : unsafe->message, -1, NULL);
  if (! safe)
    g_propagate_error (error, g_steal_pointer (&unsafe));
  return safe;
}

gchar *
tl_platform_probe_programs_path (void)
{
  g_autofree gchar *dir = tl_platform_probe_dir ();
  g_autofree gchar *key = tl_platform_probe_key ();
  g_autofree gchar *name = g_strconcat (key, ".programs", NULL);

  return dir ? g_build_filename (dir, name, NULL) : NULL;
}

/* A low priority: the programs are for later, GIMP's work is now. */
static void
tl_platform_probe_lower_priority (gpointer data)
{
  if (nice (10) == -1)
    return;
}

void
tl_platform_probe_prebuild (const gchar *helper)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess)         child    = NULL;
  g_autoptr(GError)              failed   = NULL;
  const gchar                   *wanted   = g_getenv (TL_PLATFORM_PROBE_PREBUILD_ENV);

  g_return_if_fail (helper != NULL);

  if (wanted && strcmp (wanted, "0") == 0)
    return;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher,
                                         tl_platform_probe_lower_priority,
                                         NULL, NULL);
  /* Not waited for: GLib's worker thread reaps it. */
  child = g_subprocess_launcher_spawn (launcher, &failed, helper,
                                       "--build-programs", NULL);
  if (child == NULL)
    g_debug ("the programs are not built ahead: %s", failed->message);
}
