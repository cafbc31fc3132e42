/* ThreadLens: OpenCL platforms and devices, listed and chosen
 * (see tl-cl.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-cl-private.h"
#include "tl-error.h"
#include "tl-fault.h"

#ifndef CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT
#define CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT 0x1072
#endif
#ifndef CL_DEVICE_MAX_NUM_SUB_GROUPS
#define CL_DEVICE_MAX_NUM_SUB_GROUPS 0x105C
#endif

const gchar *
tl_cl_device_type_name (cl_device_type type)
{
  if (type & CL_DEVICE_TYPE_GPU)
    return "GPU";
  if (type & CL_DEVICE_TYPE_CPU)
    return "CPU";
  if (type & CL_DEVICE_TYPE_ACCELERATOR)
    return "accelerator";
  return "other";
}

static gchar *
tl_cl_device_string (cl_device_id   id,
                     cl_device_info param)
{
  gsize  size = 0;
  gchar *text;

  if (TL_CL (clGetDeviceInfo, id, param, 0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup ("");

  text = g_malloc0 (size + 1);
  if (TL_CL (clGetDeviceInfo, id, param, size, text, NULL) != CL_SUCCESS)
    text[0] = '\0';

  return g_strstrip (text);
}

static gboolean
tl_cl_device_has_extension (cl_device_id  id,
                            const gchar  *extension)
{
  g_autofree gchar *extensions = tl_cl_device_string (id, CL_DEVICE_EXTENSIONS);
  g_auto(GStrv)     names      = g_strsplit (extensions, " ", -1);

  return g_strv_contains ((const gchar * const *) names, extension);
}

/* Parses "OpenCL 3.0 ..." or "OpenCL C 2.0 ..." into 30 or 20. */
guint
tl_cl_parse_version (const gchar *text)
{
  const gchar *p = text;

  while (*p && ! g_ascii_isdigit (*p))
    p++;
  if (! *p)
    return 0;

  return atoi (p) * 10 + (strchr (p, '.') ? atoi (strchr (p, '.') + 1) : 0);
}

static void
tl_cl_device_free (gpointer data)
{
  TlDevice *device = data;

  g_free (device->name);
  g_free (device->vendor);
  g_free (device->platform_name);
  g_free (device->version);
  g_free (device->c_version);
  g_free (device->driver_version);
  g_free (device);
}

static TlDevice *
tl_cl_device_new (cl_platform_id platform,
                  cl_device_id   id)
{
  TlDevice *device = g_new0 (TlDevice, 1);
  gsize     size   = 0;
  cl_uint   uint_value;
  cl_ulong  ulong_value;
  cl_bool   bool_value;
  gsize     item_sizes[3] = { 0, 0, 0 };
  gchar     name[256] = "";

  device->platform       = platform;
  device->id             = id;
  device->name           = tl_cl_device_string (id, CL_DEVICE_NAME);
  device->vendor         = tl_cl_device_string (id, CL_DEVICE_VENDOR);
  device->version        = tl_cl_device_string (id, CL_DEVICE_VERSION);
  device->c_version      = tl_cl_device_string (id, CL_DEVICE_OPENCL_C_VERSION);
  device->driver_version = tl_cl_device_string (id, CL_DRIVER_VERSION);

  if (TL_CL (clGetPlatformInfo, platform, CL_PLATFORM_NAME, sizeof (name) - 1, name,
             NULL) != CL_SUCCESS)
    name[0] = '\0';
  device->platform_name = g_strstrip (g_strdup (name));

  TL_CL (clGetDeviceInfo, id, CL_DEVICE_TYPE, sizeof (device->type), &device->type, NULL);
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_VENDOR_ID, sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->vendor_id = uint_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->compute_units = uint_value;
  TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof (gsize), &device->max_group_size, NULL);
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof (item_sizes), item_sizes, &size) == CL_SUCCESS)
    memcpy (device->max_item_size, item_sizes, MIN (size, sizeof (item_sizes)));
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->local_mem_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_LOCAL_MEM_TYPE, sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->local_mem_dedicated = uint_value == CL_LOCAL;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->fp64 = ulong_value != 0;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->exact_divide = (ulong_value & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->global_mem_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->max_alloc_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->max_constant_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->base_align = uint_value / 8;

  /* Both queries are OpenCL 2.0+/2.1+; older drivers answer with an error,
   * which means "no".
   */
  if (tl_cl_parse_version (device->version) >= 20 &&
      TL_CL (clGetDeviceInfo, id, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
             sizeof (bool_value), &bool_value, NULL) == CL_SUCCESS)
    device->non_uniform = bool_value;
  if (tl_cl_parse_version (device->version) >= 21 &&
      TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_NUM_SUB_GROUPS,
             sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->max_sub_groups = uint_value;
  device->khr_subgroups = tl_cl_device_has_extension (id, "cl_khr_subgroups");
  if (device->vendor_id == TL_VENDOR_ID_NVIDIA &&
      tl_cl_device_has_extension (id, "cl_nv_device_attribute_query") &&
      TL_CL (clGetDeviceInfo, id, TL_CL_DEVICE_REGISTERS_PER_BLOCK_NV,
             sizeof (uint_value), &uint_value, NULL) == CL_SUCCESS)
    device->group_registers = uint_value;

  return device;
}

GPtrArray *
tl_cl_list_devices (GError **error)
{
  g_autofree cl_platform_id *platforms = NULL;
  GPtrArray                 *devices;
  cl_uint                    n_platforms = 0;
  cl_int                     status;
  guint                      p;

  /* ThreadLens launches each kernel under many local sizes, and PoCL
   * compiles a work-group function for each one (1 to 2 s apiece on a
   * 2-core machine); its generic function takes any size and ran our
   * kernels as fast.  A user's own setting wins.
   */
  g_setenv ("POCL_WORK_GROUP_SPECIALIZATION", "0", FALSE);

  status = TL_CL (clGetPlatformIDs, 0, NULL, &n_platforms);
  if (status == CL_PLATFORM_NOT_FOUND_KHR || (status == CL_SUCCESS && n_platforms == 0))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                           _("no OpenCL platform found: install an OpenCL "
                             "driver (your GPU vendor's, or pocl-opencl-icd "
                             "to run on the CPU)"));
      return NULL;
    }
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("listing OpenCL platforms"));
      return NULL;
    }

  platforms = g_new0 (cl_platform_id, n_platforms);
  status = TL_CL (clGetPlatformIDs, n_platforms, platforms, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("listing OpenCL platforms"));
      return NULL;
    }

  devices = g_ptr_array_new_with_free_func (tl_cl_device_free);
  for (p = 0; p < n_platforms; p++)
    {
      g_autofree cl_device_id *ids = NULL;
      cl_uint                  n_ids = 0;
      guint                    d;

      /* A platform without devices is not an error: skip it. */
      if (TL_CL (clGetDeviceIDs, platforms[p], CL_DEVICE_TYPE_ALL, 0, NULL, &n_ids) != CL_SUCCESS ||
          n_ids == 0)
        continue;

      ids = g_new0 (cl_device_id, n_ids);
      if (TL_CL (clGetDeviceIDs, platforms[p], CL_DEVICE_TYPE_ALL, n_ids, ids, NULL) != CL_SUCCESS)
        continue;

      for (d = 0; d < n_ids; d++)
        {
          TlDevice *device = tl_cl_device_new (platforms[p], ids[d]);

          device->index = devices->len;
          g_ptr_array_add (devices, device);
        }
    }

  if (devices->len == 0)
    {
      g_ptr_array_unref (devices);
      g_set_error_literal (error, TL_ERROR, TL_ERROR_NO_PLATFORM,
                           _("the installed OpenCL platforms have no devices"));
      return NULL;
    }

  return devices;
}

/* SPEC is an index ("1") or a case-insensitive substring of the device or
 * platform name; NULL or "" falls back to THREADLENS_DEVICE, then to the
 * first GPU, then to the first device.
 */
const TlDevice *
tl_cl_find_device (GPtrArray   *devices,
                   const gchar *spec,
                   GError     **error)
{
  g_autoptr(GString) known = NULL;
  guint              i;

  g_return_val_if_fail (devices != NULL && devices->len > 0, NULL);

  if (spec == NULL || *spec == '\0')
    spec = g_getenv ("THREADLENS_DEVICE");

  if (spec == NULL || *spec == '\0')
    {
      for (i = 0; i < devices->len; i++)
        {
          const TlDevice *device = g_ptr_array_index (devices, i);

          if (device->type & CL_DEVICE_TYPE_GPU)
            return device;
        }
      return g_ptr_array_index (devices, 0);
    }

  if (g_ascii_isdigit (spec[0]))
    {
      gchar  *end;
      guint64 index = g_ascii_strtoull (spec, &end, 10);

      if (*end == '\0')
        {
          if (index < devices->len)
            return g_ptr_array_index (devices, index);
          g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "no OpenCL device number %s: there is %u "
                                    "(0 to %u)",
                                    "no OpenCL device number %s: there are %u "
                                    "(0 to %u)", devices->len),
                       spec, devices->len, devices->len - 1);
          return NULL;
        }
    }

  for (i = 0; i < devices->len; i++)
    {
      const TlDevice   *device   = g_ptr_array_index (devices, i);
      g_autofree gchar *needle   = g_utf8_casefold (spec, -1);
      g_autofree gchar *name     = g_utf8_casefold (device->name, -1);
      g_autofree gchar *platform = g_utf8_casefold (device->platform_name, -1);

      if (strstr (name, needle) || strstr (platform, needle))
        return device;
    }

  known = g_string_new (NULL);
  for (i = 0; i < devices->len; i++)
    {
      const TlDevice *device = g_ptr_array_index (devices, i);

      g_string_append_printf (known, "%s%u: %s", i ? "; " : "", i,
                              device->name);
    }
  g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE,
               _("no OpenCL device matches '%s' (devices: %s)"), spec,
               known->str);
  return NULL;
}
