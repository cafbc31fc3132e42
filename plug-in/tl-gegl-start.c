/* ThreadLens: what the GEGL module does once per process before its
 * first computation: the platforms checked in a test process, and the
 * default device's context made ahead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* dladdr (): where this module was loaded from. */
#define _GNU_SOURCE

#include "config.h"

#include <dlfcn.h>

#include "tl-gegl-start.h"
#include "tl-host.h"
#include "tl-platform-probe.h"

/* "0": no context made ahead (tl_gegl_start_warm_up ()). */
#define TL_GEGL_START_ENV "THREADLENS_WARM_UP"

/* When the context made ahead was ready (monotonic time; 0: not yet). */
static gint64 tl_gegl_start_ready = 0;
G_LOCK_DEFINE_STATIC (tl_gegl_start_ready);

/* Once per process: may OpenCL be called here at all?  The safety check
 * runs beside this module's file (where meson install puts it); without
 * it OpenCL stays off, since nothing then stands between a driver's
 * abort () and GIMP.
 */
void
tl_gegl_start_check_platforms (void)
{
  static gsize      checked = 0;
  g_autoptr(GError) error   = NULL;
  g_autofree gchar *folder  = NULL;
  g_autofree gchar *helper  = NULL;
  Dl_info           self;
  gboolean          cached  = FALSE;

  if (! g_once_init_enter (&checked))
    return;

  if (dladdr ((gpointer) tl_gegl_start_check_platforms, &self) && self.dli_fname)
    folder = g_path_get_dirname (self.dli_fname);
  helper = g_build_filename (folder ? folder : ".", TL_PLATFORM_PROBE_HELPER,
                             NULL);
  if (! tl_platform_probe_check (helper, &cached, &error))
    {
      g_message ("ThreadLens: %s", error->message);
      tl_host_set_opencl_off (error->message);
    }
  else
    {
      g_debug ("OpenCL platforms checked in a test process%s",
               cached ? " (verdict from the cache)" : "");
      /* A new driver set: its programs, built beside GIMP. */
      if (! cached)
        tl_platform_probe_prebuild (helper);
    }
  g_once_init_leave (&checked, 1);
}

/* The platform check and the default device's context, in a thread of
 * their own from the moment the first operation is made (GIMP makes it
 * when a filter's dialog or preview starts): its first chunk then finds
 * them ready, or waits only for what is left of them (the context's lock).
 * Not earlier: a GIMP that never runs a ThreadLens filter makes no
 * context.
 */
static gpointer
tl_gegl_start_thread (gpointer data)
{
  TlHostSettings settings;
  gint64         start = g_get_monotonic_time ();

  tl_gegl_start_check_platforms ();
  tl_host_settings_init (&settings, NULL);
  tl_host_get_context (&settings, NULL);
  G_LOCK (tl_gegl_start_ready);
  tl_gegl_start_ready = g_get_monotonic_time ();
  G_UNLOCK (tl_gegl_start_ready);
  g_debug ("the OpenCL context made ahead in %.0f ms",
           (g_get_monotonic_time () - start) / 1000.0);
  return NULL;
}

void
tl_gegl_start_warm_up (void)
{
  static gsize started = 0;

  if (g_once_init_enter (&started))
    {
      if (g_strcmp0 (g_getenv (TL_GEGL_START_ENV), "0") != 0)
        g_thread_unref (g_thread_new ("threadlens-warm-up",
                                      tl_gegl_start_thread, NULL));
      g_once_init_leave (&started, 1);
    }
}

gint64
tl_gegl_start_ready_at (void)
{
  gint64 ready;

  G_LOCK (tl_gegl_start_ready);
  ready = tl_gegl_start_ready;
  G_UNLOCK (tl_gegl_start_ready);
  return ready;
}
