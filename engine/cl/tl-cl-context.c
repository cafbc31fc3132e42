/* ThreadLens: an OpenCL context on one device, its queue, build options
 * and limits (see tl-cl.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-cl-private.h"
#include "tl-fault.h"

static void
tl_context_release_program (gpointer program)
{
  clReleaseProgram (program);
}

static void
tl_context_release_kernel (gpointer kernel)
{
  clReleaseKernel (kernel);
}

TlContext *
tl_context_new (const gchar *device_spec,
                GError     **error)
{
  g_autoptr(TlContext)   context = g_new0 (TlContext, 1);
  cl_context_properties  properties[3];
  cl_int                 status = CL_SUCCESS;
  guint                  version;
  gint64                 start = g_get_monotonic_time ();
  gdouble                listed_ms;

  g_mutex_init (&context->staging_lock);

  context->devices = tl_cl_list_devices (error);
  if (context->devices == NULL)
    return NULL;
  listed_ms = (g_get_monotonic_time () - start) / 1000.0;

  context->device = tl_cl_find_device (context->devices, device_spec, error);
  if (context->device == NULL)
    return NULL;

  properties[0] = CL_CONTEXT_PLATFORM;
  properties[1] = (cl_context_properties) context->device->platform;
  properties[2] = 0;
  context->context = TL_CL_NEW (clCreateContext, &status, properties, 1,
                                &context->device->id, NULL, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("creating an OpenCL context"));
      return NULL;
    }

  /* Profiling on: benchmarks read kernel times from events. */
  context->queue = TL_CL_NEW (clCreateCommandQueue, &status, context->context,
                              context->device->id, CL_QUEUE_PROFILING_ENABLE);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("creating an OpenCL command queue"));
      return NULL;
    }

  /* Native non-uniform work-groups need a program built as OpenCL C 2.0+
   * (or 3.0 with the feature); everything else is built as 1.2, which every
   * device here compiles.
   */
  version = tl_cl_parse_version (context->device->c_version);
  if (context->device->non_uniform && version >= 20)
    {
      context->build_options = g_strdup ("-cl-std=CL2.0");
      context->native_non_uniform = TRUE;
    }
  else if (context->device->non_uniform &&
           tl_cl_parse_version (context->device->version) >= 30)
    {
      context->build_options = g_strdup ("-cl-std=CL3.0");
      context->native_non_uniform = TRUE;
    }
  else if (context->device->max_sub_groups > 0 &&
           tl_cl_parse_version (context->device->version) >= 30)
    {
      /* OpenCL C 1.2 has no sub-group built-ins; every 3.0 device
       * compiles 3.0, and the overlay reads real sub-groups there.
       */
      context->build_options = g_strdup ("-cl-std=CL3.0");
    }
  else
    {
      context->build_options = g_strdup ("-cl-std=CL1.2");
    }
  if ((context->device->khr_subgroups &&
       g_str_has_prefix (context->build_options, "-cl-std=CL2.0")) ||
      (context->device->max_sub_groups > 0 &&
       g_str_has_prefix (context->build_options, "-cl-std=CL3.0")))
    {
      gchar *options = g_strconcat (context->build_options, " -DTL_SUBGROUPS=1",
                                    NULL);

      g_free (context->build_options);
      context->build_options = options;
    }
  /* Kernels copy small tables into local memory only where it is a
   * store of its own (a GPU's), not the same memory behind a barrier.
   */
  if (context->device->local_mem_dedicated)
    {
      gchar *options = g_strconcat (context->build_options,
                                    " -DTL_LOCAL_MEMORY=1", NULL);

      g_free (context->build_options);
      context->build_options = options;
    }
  if (context->device->vendor_id == TL_VENDOR_ID_NVIDIA)
    {
      gchar *options = g_strconcat (context->build_options, " -DTL_NVIDIA=1",
                                    NULL);

      g_free (context->build_options);
      context->build_options = options;
    }
  /* NVIDIA's OpenCL (driver 580, H100) answers CL_KERNEL_WORK_GROUP_SIZE
   * 256 for every kernel, a one-line one too, whatever its registers
   * (22 to 32 here, from -cl-nv-verbose), yet launches groups of the
   * device's 1024.  Registers are what bounds a group: capped at the
   * group's registers over the device's largest group (65536 / 1024 =
   * 64, twice what any kernel here uses), every kernel fits a whole
   * group, and that is its M (tl_context_kernel_limits ()).
   */
  if (context->device->group_registers > 0 &&
      context->device->max_group_size > 0 &&
      context->device->group_registers / context->device->max_group_size >= 16)
    {
      gchar *options = g_strdup_printf ("%s -cl-nv-maxrregcount=%u",
                                        context->build_options,
                                        (guint) (context->device->group_registers /
                                                 context->device->max_group_size));

      g_free (context->build_options);
      context->build_options = options;
      context->whole_groups  = TRUE;
    }
  /* A developer's knob (build-aux/kernel-info): more options for the
   * driver, such as NVIDIA's -cl-nv-verbose.  They are part of the
   * program cache's key.
   */
  if (g_getenv ("THREADLENS_BUILD_OPTIONS"))
    {
      gchar *options = g_strconcat (context->build_options, " ",
                                    g_getenv ("THREADLENS_BUILD_OPTIONS"),
                                    NULL);

      g_free (context->build_options);
      context->build_options = options;
    }

  context->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             tl_context_release_program);
  context->kernels  = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             tl_context_release_kernel);
  context->kernel_local = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  /* Where a process's first call goes (build-aux/bench-gegl --verbose). */
  g_debug ("device %u: %s (%s), options '%s'; platforms listed in %.1f ms, "
           "context and queue made in %.1f ms", context->device->index,
           context->device->name, context->device->platform_name,
           context->build_options, listed_ms,
           (g_get_monotonic_time () - start) / 1000.0 - listed_ms);

  return g_steal_pointer (&context);
}

void
tl_context_free (TlContext *context)
{
  if (context == NULL)
    return;

  if (context->queue)
    tl_context_release_staging (context);
  g_clear_pointer (&context->kernel_local, g_hash_table_unref);
  g_clear_pointer (&context->kernels, g_hash_table_unref);
  g_clear_pointer (&context->programs, g_hash_table_unref);
  if (context->queue)
    clReleaseCommandQueue (context->queue);
  if (context->context)
    clReleaseContext (context->context);
  g_free (context->build_options);
  g_clear_pointer (&context->devices, g_ptr_array_unref);
  g_mutex_clear (&context->staging_lock);
  g_free (context);
}

const TlDevice *
tl_context_get_device (TlContext *context)
{
  g_return_val_if_fail (context != NULL, NULL);

  return context->device;
}

cl_context
tl_context_get_cl (TlContext *context)
{
  g_return_val_if_fail (context != NULL, NULL);

  return context->context;
}

cl_command_queue
tl_context_get_queue (TlContext *context)
{
  g_return_val_if_fail (context != NULL, NULL);

  return context->queue;
}

const gchar *
tl_context_get_build_options (TlContext *context)
{
  g_return_val_if_fail (context != NULL, NULL);

  return context->build_options;
}

const TlCacheStats *
tl_context_get_stats (TlContext *context)
{
  g_return_val_if_fail (context != NULL, NULL);

  return &context->stats;
}

/* The device's own limits, before any kernel is known: P and M fall back to
 * the device's values.
 */
gboolean
tl_context_device_limits (TlContext *context,
                          TlLimits  *limits)
{
  const TlDevice *device;

  g_return_val_if_fail (context != NULL && limits != NULL, FALSE);

  device = context->device;
  memset (limits, 0, sizeof (*limits));
  limits->simd_width         = 1;
  limits->max_group_size     = MAX (1, device->max_group_size);
  limits->max_item_size[0]   = MIN (device->max_item_size[0], G_MAXUINT);
  limits->max_item_size[1]   = MIN (device->max_item_size[1], G_MAXUINT);
  limits->local_mem_size     = device->local_mem_size;
  limits->native_non_uniform = context->native_non_uniform;
  limits->device_kind        = (device->type & CL_DEVICE_TYPE_CPU) ?
                               TL_DEVICE_KIND_CPU : TL_DEVICE_KIND_GPU;

  return TRUE;
}

gboolean
tl_context_kernel_limits (TlContext *context,
                          cl_kernel  kernel,
                          TlLimits  *limits,
                          GError   **error)
{
  gsize    multiple = 0, group_size = 0;
  cl_int   status;

  g_return_val_if_fail (context != NULL && kernel != NULL, FALSE);
  g_return_val_if_fail (limits != NULL, FALSE);

  tl_context_device_limits (context, limits);

  status = TL_CL (clGetKernelWorkGroupInfo, kernel, context->device->id,
                  CL_KERNEL_WORK_GROUP_SIZE,
                  sizeof (group_size), &group_size, NULL);
  if (status == CL_SUCCESS)
    status = TL_CL (clGetKernelWorkGroupInfo, kernel, context->device->id,
                    CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                    sizeof (multiple), &multiple, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("querying the kernel's work-group limits"));
      return FALSE;
    }

  limits->driver_group_size = MAX (1, group_size);
  if (context->whole_groups)
    group_size = MAX (group_size, context->device->max_group_size);
  limits->simd_width       = MAX (1, multiple);
  limits->max_group_size   = MAX (1, group_size);
  limits->kernel_local_mem = tl_context_get_kernel_local_mem (context, kernel);

  return TRUE;
}
