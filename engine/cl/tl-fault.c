/* ThreadLens: test-only OpenCL fault injection (see tl-fault.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-fault.h"

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

static GMutex  tl_fault_lock;
static gsize   tl_fault_loaded;         /* THREADLENS_FAULT read */
static gchar  *tl_fault_name;           /* NULL: any call */
static guint   tl_fault_nth;            /* 0: every call of the name */
static gboolean tl_fault_armed;
static guint   tl_fault_seen;           /* calls matching the name */
static guint   tl_fault_total;          /* all calls */
static guint   tl_fault_hits;           /* calls made to fail */

/* The status a failed CALL reports: what the driver itself would say. */
static cl_int
tl_fault_status_for (const gchar *call)
{
  if (strcmp (call, TL_FAULT_ALLOC) == 0)
    return CL_OUT_OF_HOST_MEMORY;
  if (strcmp (call, "clCreateBuffer") == 0)
    return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (strcmp (call, "clBuildProgram") == 0)
    return CL_BUILD_PROGRAM_FAILURE;
  if (strcmp (call, "clGetPlatformIDs") == 0)
    return CL_PLATFORM_NOT_FOUND_KHR;
  return CL_OUT_OF_RESOURCES;
}

static gboolean
tl_fault_parse (const gchar *spec,
                GError     **error)
{
  g_auto(GStrv) parts = NULL;
  guint64       nth   = 0;

  g_clear_pointer (&tl_fault_name, g_free);
  tl_fault_nth   = 0;
  tl_fault_armed = FALSE;
  if (spec == NULL || *spec == '\0')
    return TRUE;

  parts = g_strsplit (spec, ":", 2);
  if (g_ascii_isdigit (parts[0][0]) && parts[1] == NULL)
    {
      if (! g_ascii_string_to_unsigned (parts[0], 10, 1, G_MAXUINT, &nth, NULL))
        goto bad;
    }
  else if (g_str_has_prefix (parts[0], "cl") ||
           strcmp (parts[0], TL_FAULT_ALLOC) == 0)
    {
      tl_fault_name = g_strdup (parts[0]);
      if (parts[1] &&
          ! g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT, &nth, NULL))
        goto bad;
    }
  else
    {
      goto bad;
    }
  tl_fault_nth   = nth;
  tl_fault_armed = TRUE;
  return TRUE;

 bad:
  g_clear_pointer (&tl_fault_name, g_free);
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               "THREADLENS_FAULT='%s': expected N, clName, clName:N, "
               "alloc or alloc:N", spec);
  return FALSE;
}

static void
tl_fault_load (void)
{
  if (g_once_init_enter (&tl_fault_loaded))
    {
      g_autoptr(GError) error = NULL;

      if (! tl_fault_parse (g_getenv ("THREADLENS_FAULT"), &error))
        g_warning ("%s", error->message);
      g_once_init_leave (&tl_fault_loaded, 1);
    }
}

/* Counts CALL; its injected status when it is the armed one, else
 * CL_SUCCESS (and the caller makes the real call).
 */
cl_int
tl_fault_check (const gchar *call)
{
  cl_int   status = CL_SUCCESS;
  gboolean memory = strcmp (call, TL_FAULT_ALLOC) == 0;

  tl_fault_load ();
  g_mutex_lock (&tl_fault_lock);
  /* "N" walks the OpenCL calls alone; allocations are walked by name. */
  if (! memory)
    tl_fault_total++;
  if (tl_fault_armed &&
      ((tl_fault_name == NULL && ! memory) ||
       (tl_fault_name != NULL && strcmp (tl_fault_name, call) == 0)))
    {
      guint index = tl_fault_name ? ++tl_fault_seen : tl_fault_total;

      if (tl_fault_nth == 0 || tl_fault_nth == index)
        {
          status = tl_fault_status_for (call);
          tl_fault_hits++;
          g_debug ("fault: %s call %u fails with %d", call, index, status);
        }
    }
  g_mutex_unlock (&tl_fault_lock);
  return status;
}

/* Arms SPEC (NULL or "": nothing) and restarts the counts. */
gboolean
tl_fault_arm (const gchar *spec,
              GError     **error)
{
  gboolean ok;

  tl_fault_load ();
  g_mutex_lock (&tl_fault_lock);
  ok = tl_fault_parse (spec, error);
  tl_fault_seen  = 0;
  tl_fault_total = 0;
  tl_fault_hits  = 0;
  g_mutex_unlock (&tl_fault_lock);
  return ok;
}

/* OpenCL calls made since the counts restarted. */
guint
tl_fault_calls (void)
{
  guint calls;

  g_mutex_lock (&tl_fault_lock);
  calls = tl_fault_total;
  g_mutex_unlock (&tl_fault_lock);
  return calls;
}

/* Calls made to fail since the counts restarted. */
guint
tl_fault_fired (void)
{
  guint hits;

  g_mutex_lock (&tl_fault_lock);
  hits = tl_fault_hits;
  g_mutex_unlock (&tl_fault_lock);
  return hits;
}
