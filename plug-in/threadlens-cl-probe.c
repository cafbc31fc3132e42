/* ThreadLens: the OpenCL safety check's test process.
 *
 * Lists every platform and its devices, as the engine does on its first
 * use, and exits 0.  A driver that aborts or hangs here takes only this
 * process down; the GEGL module (inside GIMP) reads the exit status and
 * keeps OpenCL off (host/tl-platform-probe.c).
 *
 * With --build-programs it builds every filter's programs on the default
 * device into the program cache instead (host/tl-host-prebuild.h), which
 * the module asks for, without waiting, once the check has passed for a
 * new driver set.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include <CL/cl.h>

#include "tl-host-prebuild.h"
#include "tl-image.h"
#include "tl-platform-probe.h"

static int
tl_probe_build_programs (void)
{
  g_autoptr(GError) error   = NULL;
  TlContext        *context = NULL;
  gint64            start   = g_get_monotonic_time ();
  gboolean          ok;

  ok = tl_image_init_gegl (&error) &&
       (context = tl_context_new (NULL, &error)) != NULL &&
       tl_host_prebuild (context, &error);
  if (ok)
    {
      const TlCacheStats *stats = tl_context_get_stats (context);
      g_autofree gchar   *done  = tl_platform_probe_programs_path ();
      g_autofree gchar   *line  = NULL;

      line = g_strdup_printf ("programs built %u, from the cache %u, in %.1f s\n",
                              stats->programs_from_source,
                              stats->programs_from_disk,
                              (g_get_monotonic_time () - start) / 1e6);
      fputs (line, stdout);
      if (done)
        {
          g_autofree gchar *folder = g_path_get_dirname (done);

          if (g_mkdir_with_parents (folder, 0700) == 0)
            g_file_set_contents (done, line, -1, NULL);
        }
    }
  else
    fprintf (stderr, "threadlens-cl-probe: %s\n", error->message);
  g_clear_pointer (&context, tl_context_free);
  return ok ? 0 : 1;
}

int
main (int    argc,
      char **argv)
{
  cl_platform_id platforms[64];
  cl_uint        n_platforms = 0, p, n_devices = 0;
  cl_int         status;

  if (argc > 1 && strcmp (argv[1], "--build-programs") == 0)
    return tl_probe_build_programs ();

  status = clGetPlatformIDs (64, platforms, &n_platforms);
  if (status != CL_SUCCESS)
    {
      /* No platform is a verdict too: the module then runs the C
       * references without asking again.
       */
      printf ("platforms 0 (status %d)\n", status);
      return 0;
    }
  if (n_platforms > 64)
    n_platforms = 64;
  for (p = 0; p < n_platforms; p++)
    {
      cl_uint n = 0;

      if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n) == CL_SUCCESS)
        n_devices += n;
    }
  printf ("platforms %u devices %u\n", n_platforms, n_devices);
  return 0;
}
