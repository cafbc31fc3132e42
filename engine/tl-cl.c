/* ThreadLens: the OpenCL runtime.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-kernels.h"
#include "tl-program-cache.h"

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif
#ifndef CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT
#define CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT 0x1072
#endif
#ifndef CL_DEVICE_MAX_NUM_SUB_GROUPS
#define CL_DEVICE_MAX_NUM_SUB_GROUPS 0x105C
#endif

#define TL_KERNEL_RESOURCE_PATH "/org/threadlens/kernels/"

struct _TlContext
{
  GPtrArray        *devices;
  const TlDevice   *device;
  cl_context        context;
  cl_command_queue  queue;
  gchar            *build_options;
  gboolean          native_non_uniform;
  GHashTable       *programs;        /* program name -> cl_program */
  GHashTable       *kernels;         /* "program/kernel" -> cl_kernel */
  TlCacheStats      stats;
};

static void
tl_cl_release_program (gpointer program)
{
  clReleaseProgram (program);
}

static void
tl_cl_release_kernel (gpointer kernel)
{
  clReleaseKernel (kernel);
}

static const struct
{
  cl_int       status;
  const gchar *name;
  const gchar *hint;
} tl_cl_errors[] =
{
  { CL_DEVICE_NOT_FOUND,                "CL_DEVICE_NOT_FOUND", N_("no matching OpenCL device") },
  { CL_DEVICE_NOT_AVAILABLE,            "CL_DEVICE_NOT_AVAILABLE", N_("the device is busy or switched off") },
  { CL_COMPILER_NOT_AVAILABLE,          "CL_COMPILER_NOT_AVAILABLE", N_("the driver has no OpenCL C compiler") },
  { CL_MEM_OBJECT_ALLOCATION_FAILURE,   "CL_MEM_OBJECT_ALLOCATION_FAILURE", N_("the device could not allocate the image buffers") },
  { CL_OUT_OF_RESOURCES,                "CL_OUT_OF_RESOURCES", N_("the device ran out of resources") },
  { CL_OUT_OF_HOST_MEMORY,              "CL_OUT_OF_HOST_MEMORY", N_("out of memory on the host") },
  { CL_PROFILING_INFO_NOT_AVAILABLE,    "CL_PROFILING_INFO_NOT_AVAILABLE", NULL },
  { CL_BUILD_PROGRAM_FAILURE,           "CL_BUILD_PROGRAM_FAILURE", N_("a kernel did not compile") },
  { CL_INVALID_VALUE,                   "CL_INVALID_VALUE", NULL },
  { CL_INVALID_DEVICE,                  "CL_INVALID_DEVICE", NULL },
  { CL_INVALID_BINARY,                  "CL_INVALID_BINARY", N_("a cached program does not fit this driver") },
  { CL_INVALID_BUILD_OPTIONS,           "CL_INVALID_BUILD_OPTIONS", NULL },
  { CL_INVALID_PROGRAM_EXECUTABLE,      "CL_INVALID_PROGRAM_EXECUTABLE", NULL },
  { CL_INVALID_KERNEL_NAME,             "CL_INVALID_KERNEL_NAME", N_("the kernel is missing from its program") },
  { CL_INVALID_KERNEL_ARGS,             "CL_INVALID_KERNEL_ARGS", NULL },
  { CL_INVALID_ARG_INDEX,               "CL_INVALID_ARG_INDEX", NULL },
  { CL_INVALID_ARG_SIZE,                "CL_INVALID_ARG_SIZE", NULL },
  { CL_INVALID_ARG_VALUE,               "CL_INVALID_ARG_VALUE", NULL },
  { CL_INVALID_WORK_DIMENSION,          "CL_INVALID_WORK_DIMENSION", NULL },
  { CL_INVALID_WORK_GROUP_SIZE,         "CL_INVALID_WORK_GROUP_SIZE", N_("the driver refused the work-group size for this grid") },
  { CL_INVALID_WORK_ITEM_SIZE,          "CL_INVALID_WORK_ITEM_SIZE", N_("a work-group side is over the device's limit") },
  { CL_INVALID_GLOBAL_OFFSET,           "CL_INVALID_GLOBAL_OFFSET", NULL },
  { CL_INVALID_GLOBAL_WORK_SIZE,        "CL_INVALID_GLOBAL_WORK_SIZE", NULL },
  { CL_INVALID_BUFFER_SIZE,             "CL_INVALID_BUFFER_SIZE", N_("the image is too large for one device buffer") },
  { CL_INVALID_COMMAND_QUEUE,           "CL_INVALID_COMMAND_QUEUE", NULL },
  { CL_INVALID_CONTEXT,                 "CL_INVALID_CONTEXT", NULL },
  { CL_INVALID_MEM_OBJECT,              "CL_INVALID_MEM_OBJECT", NULL },
  { CL_INVALID_PLATFORM,                "CL_INVALID_PLATFORM", NULL },
  { CL_INVALID_OPERATION,               "CL_INVALID_OPERATION", NULL },
  { CL_INVALID_EVENT,                   "CL_INVALID_EVENT", NULL },
  { CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
    "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST", N_("an earlier command failed") },
  { CL_PLATFORM_NOT_FOUND_KHR,          "CL_PLATFORM_NOT_FOUND_KHR", N_("no OpenCL platform is installed") },
};

const gchar *
tl_cl_error_name (cl_int status)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tl_cl_errors); i++)
    if (tl_cl_errors[i].status == status)
      return tl_cl_errors[i].name;

  return "unknown OpenCL error";
}

void
tl_cl_set_error (GError     **error,
                 cl_int       status,
                 const gchar *what)
{
  const gchar *hint = NULL;
  guint        i;

  for (i = 0; i < G_N_ELEMENTS (tl_cl_errors); i++)
    if (tl_cl_errors[i].status == status)
      hint = tl_cl_errors[i].hint;

  /* TRANSLATORS: WHAT failed: CL_ERROR_NAME (NUMBER): HINT, where WHAT
   * says what ThreadLens was doing ("creating an OpenCL context").
   */
  if (hint)
    g_set_error (error, TL_ERROR, TL_ERROR_OPENCL, _("%s failed: %s (%d): %s"),
                 what, tl_cl_error_name (status), status, _(hint));
  else
    g_set_error (error, TL_ERROR, TL_ERROR_OPENCL, _("%s failed: %s (%d)"),
                 what, tl_cl_error_name (status), status);
}

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
static guint
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
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->global_mem_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->max_alloc_size = ulong_value;
  if (TL_CL (clGetDeviceInfo, id, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof (ulong_value), &ulong_value, NULL) == CL_SUCCESS)
    device->max_constant_size = ulong_value;

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

TlContext *
tl_context_new (const gchar *device_spec,
                GError     **error)
{
  g_autoptr(TlContext)   context = g_new0 (TlContext, 1);
  cl_context_properties  properties[3];
  cl_int                 status = CL_SUCCESS;
  guint                  version;

  context->devices = tl_cl_list_devices (error);
  if (context->devices == NULL)
    return NULL;

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
  if (context->device->vendor_id == TL_VENDOR_ID_NVIDIA)
    {
      gchar *options = g_strconcat (context->build_options, " -DTL_NVIDIA=1",
                                    NULL);

      g_free (context->build_options);
      context->build_options = options;
    }

  context->programs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             tl_cl_release_program);
  context->kernels  = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             tl_cl_release_kernel);

  g_debug ("device %u: %s (%s), options '%s'", context->device->index,
           context->device->name, context->device->platform_name,
           context->build_options);

  return g_steal_pointer (&context);
}

void
tl_context_free (TlContext *context)
{
  if (context == NULL)
    return;

  g_clear_pointer (&context->kernels, g_hash_table_unref);
  g_clear_pointer (&context->programs, g_hash_table_unref);
  if (context->queue)
    clReleaseCommandQueue (context->queue);
  if (context->context)
    clReleaseContext (context->context);
  g_free (context->build_options);
  g_clear_pointer (&context->devices, g_ptr_array_unref);
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

static GBytes *
tl_context_lookup_kernel_file (const gchar *name,
                               GError     **error)
{
  g_autofree gchar *path = g_strconcat (TL_KERNEL_RESOURCE_PATH, name, NULL);

  /* Looked up in our own bundle: a static engine library drops the
   * constructor that would register it globally.
   */
  return g_resource_lookup_data (tl_kernels_get_resource (), path,
                                 G_RESOURCE_LOOKUP_FLAGS_NONE, error);
}

/* The defines of a program variant ("u8+trc+premul"), for tl-pixel.h. */
static gboolean
tl_context_variant_defines (const gchar  *variant,
                            GString      *source,
                            GError      **error)
{
  static const struct { const gchar *token, *define; } tokens[] =
  {
    { "half",   "#define TL_STORE TL_STORE_HALF\n" },
    { "u16",    "#define TL_STORE TL_STORE_U16\n" },
    { "u8",     "#define TL_STORE TL_STORE_U8\n" },
    { "trc",    "#define TL_STORE_TRC 1\n" },
    { "step",   "#define TL_CODE_ONE_STEP 1\n" },
    { "premul", "#define TL_PREMUL 1\n" },
  };
  g_auto(GStrv) parts = g_strsplit (variant, "+", -1);
  guint         i, j;

  for (i = 0; parts[i]; i++)
    {
      for (j = 0; j < G_N_ELEMENTS (tokens); j++)
        if (g_str_equal (parts[i], tokens[j].token))
          break;
      if (j == G_N_ELEMENTS (tokens))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_BUILD,
                       _("unknown kernel program variant '%s'"), variant);
          return FALSE;
        }
      g_string_append (source, tokens[j].define);
    }
  return TRUE;
}

/* PROGRAM is a kernels/ file's name, optionally with the kernels wanted
 * after ':' (comma-separated; none: all of them) and a storage variant
 * after '@': "tone:tl_sepia@u8+trc".  The variant's defines, the kernels'
 * and the shared headers go in front of the program's source, so the
 * driver never needs an include path.  Building only the kernels a filter
 * runs matters on PoCL, whose LLVM takes about 0.1 s a kernel.
 */
static gchar *
tl_context_load_source (const gchar *program,
                        GError     **error)
{
  g_auto(GStrv)     name    = g_strsplit (program, "@", 2);
  g_auto(GStrv)     parts   = g_strsplit (name[0], ":", 2);
  g_autofree gchar *file    = g_strconcat (parts[0], ".cl", NULL);
  g_autoptr(GBytes) index   = NULL;
  g_autoptr(GBytes) pixel   = NULL;
  g_autoptr(GBytes) body    = NULL;
  g_autoptr(GString) source = g_string_new (NULL);

  if (name[1] && ! tl_context_variant_defines (name[1], source, error))
    return NULL;
  if (parts[1])
    {
      g_auto(GStrv) kernels = g_strsplit (parts[1], ",", -1);
      guint         i;

      g_string_append (source, "#define TL_ONLY_KERNELS 1\n");
      for (i = 0; kernels[i]; i++)
        g_string_append_printf (source, "#define TL_KERNEL_%s 1\n", kernels[i]);
    }

  index = tl_context_lookup_kernel_file ("tl-index.h", error);
  pixel = index ? tl_context_lookup_kernel_file ("tl-pixel.h", error) : NULL;
  if (pixel == NULL)
    return NULL;

  body = tl_context_lookup_kernel_file (file, NULL);
  if (body == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_BUILD,
                   _("no kernel program named '%s' is built in"), parts[0]);
      return NULL;
    }

  g_string_append_len (source, g_bytes_get_data (index, NULL),
                       g_bytes_get_size (index));
  g_string_append_len (source, g_bytes_get_data (pixel, NULL),
                       g_bytes_get_size (pixel));
  g_string_append_printf (source, "\n#line 1 \"%s\"\n", file);
  g_string_append_len (source, g_bytes_get_data (body, NULL),
                       g_bytes_get_size (body));

  return g_string_free (g_steal_pointer (&source), FALSE);
}

static gchar *
tl_context_build_log (TlContext  *context,
                      cl_program  program)
{
  gsize  size = 0;
  gchar *log;

  if (TL_CL (clGetProgramBuildInfo, program, context->device->id, CL_PROGRAM_BUILD_LOG,
             0, NULL, &size) != CL_SUCCESS || size == 0)
    return g_strdup (_("(the driver gave no build log)"));

  log = g_malloc0 (size + 1);
  TL_CL (clGetProgramBuildInfo, program, context->device->id, CL_PROGRAM_BUILD_LOG,
         size, log, NULL);
  return g_strstrip (log);
}

static cl_program
tl_context_build_from_binary (TlContext   *context,
                              const gchar *key)
{
  g_autoptr(GBytes) binary   = NULL;
  const guint8     *data;
  gsize             size;
  gboolean          rejected = FALSE;
  cl_int            status   = CL_SUCCESS;
  cl_int            binary_status = CL_SUCCESS;
  cl_program        program;

  binary = tl_program_cache_load (key, &rejected);
  if (rejected)
    context->stats.disk_entries_rejected++;
  if (binary == NULL)
    return NULL;

  data    = g_bytes_get_data (binary, &size);
  program = TL_CL_NEW (clCreateProgramWithBinary, &status, context->context, 1,
                       &context->device->id, &size, &data, &binary_status);
  if (status == CL_SUCCESS && binary_status == CL_SUCCESS &&
      TL_CL (clBuildProgram, program, 1, &context->device->id,
             context->build_options, NULL, NULL) == CL_SUCCESS)
    {
      context->stats.programs_from_disk++;
      return program;
    }

  /* A binary the driver no longer takes: forget it and build afresh. */
  g_debug ("program cache: driver refused entry %s", key);
  if (program)
    clReleaseProgram (program);
  tl_program_cache_forget (key);
  context->stats.disk_entries_rejected++;
  return NULL;
}

static void
tl_context_store_binary (TlContext   *context,
                         cl_program   program,
                         const gchar *key)
{
  g_autofree guint8 *binary = NULL;
  gsize              size   = 0;

  if (TL_CL (clGetProgramInfo, program, CL_PROGRAM_BINARY_SIZES, sizeof (size),
             &size, NULL) != CL_SUCCESS || size == 0)
    return;

  binary = g_malloc (size);
  if (TL_CL (clGetProgramInfo, program, CL_PROGRAM_BINARIES, sizeof (binary),
             &binary, NULL) != CL_SUCCESS)
    return;

  tl_program_cache_store (key, binary, size);
}

/* Builds SOURCE under NAME (or finds it built), through the disk cache.
 * The program is owned by the context.
 */
cl_program
tl_context_build_program (TlContext   *context,
                          const gchar *name,
                          const gchar *source,
                          GError     **error)
{
  g_autofree gchar *key = NULL;
  cl_program        program;
  cl_int            status = CL_SUCCESS;
  gint64            start  = g_get_monotonic_time ();

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (name != NULL && source != NULL, NULL);

  program = g_hash_table_lookup (context->programs, name);
  if (program)
    {
      context->stats.programs_from_memory++;
      return program;
    }

  key = tl_program_cache_key (context->device->name,
                              context->device->driver_version,
                              context->device->version,
                              source, context->build_options);
  program = tl_context_build_from_binary (context, key);

  if (program == NULL)
    {
      program = TL_CL_NEW (clCreateProgramWithSource, &status, context->context, 1,
                           &source, NULL);
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("creating an OpenCL program"));
          return NULL;
        }

      status = TL_CL (clBuildProgram, program, 1, &context->device->id,
                      context->build_options, NULL, NULL);
      if (status != CL_SUCCESS)
        {
          g_autofree gchar *log  = tl_context_build_log (context, program);
          g_autofree gchar *file = g_strdup (name);
          gchar            *variant = strchr (file, '@');

          /* "blur:tl_convolve_h@u8+trc": kernels/blur.cl, built for u8
           * storage.
           */
          if (variant)
            *variant++ = '\0';
          if (strchr (file, ':'))
            *strchr (file, ':') = '\0';
          g_set_error (error, TL_ERROR, TL_ERROR_BUILD,
                       _("building kernels/%s.cl%s%s%s for %s failed (%s):\n%s"),
                       file, variant ? " (" : "", variant ? variant : "",
                       variant ? ")" : "", context->device->name,
                       tl_cl_error_name (status), log);
          clReleaseProgram (program);
          return NULL;
        }
      context->stats.programs_from_source++;
      tl_context_store_binary (context, program, key);
    }

  g_debug ("program %s ready in %.1f ms", name,
           (g_get_monotonic_time () - start) / 1e3);
  g_hash_table_insert (context->programs, g_strdup (name), program);
  return program;
}

static cl_program
tl_context_get_program (TlContext   *context,
                        const gchar *name,
                        GError     **error)
{
  g_autofree gchar *source = NULL;
  cl_program        program;

  program = g_hash_table_lookup (context->programs, name);
  if (program)
    {
      context->stats.programs_from_memory++;
      return program;
    }

  source = tl_context_load_source (name, error);
  if (source == NULL)
    return NULL;

  return tl_context_build_program (context, name, source, error);
}

/* Kernels are owned by the context; callers must not release them. */
cl_kernel
tl_context_get_kernel (TlContext   *context,
                       const gchar *program_name,
                       const gchar *kernel_name,
                       GError     **error)
{
  g_autofree gchar *key = NULL;
  cl_program        program;
  cl_kernel         kernel;
  cl_int            status = CL_SUCCESS;

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (program_name != NULL && kernel_name != NULL, NULL);

  key    = g_strconcat (program_name, "/", kernel_name, NULL);
  kernel = g_hash_table_lookup (context->kernels, key);
  if (kernel)
    return kernel;

  program = tl_context_get_program (context, program_name, error);
  if (program == NULL)
    return NULL;

  kernel = TL_CL_NEW (clCreateKernel, &status, program, kernel_name);
  if (status != CL_SUCCESS)
    {
      g_autofree gchar *what = g_strdup_printf (_("creating kernel %s"),
                                                kernel_name);

      tl_cl_set_error (error, status, what);
      return NULL;
    }

  g_hash_table_insert (context->kernels, g_steal_pointer (&key), kernel);
  return kernel;
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

  return TRUE;
}

gboolean
tl_context_kernel_limits (TlContext *context,
                          cl_kernel  kernel,
                          TlLimits  *limits,
                          GError   **error)
{
  gsize    multiple = 0, group_size = 0;
  cl_ulong local_mem = 0;
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
  if (status == CL_SUCCESS)
    status = TL_CL (clGetKernelWorkGroupInfo, kernel, context->device->id,
                    CL_KERNEL_LOCAL_MEM_SIZE,
                    sizeof (local_mem), &local_mem, NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("querying the kernel's work-group limits"));
      return FALSE;
    }

  limits->simd_width       = MAX (1, multiple);
  limits->max_group_size   = MAX (1, group_size);
  limits->kernel_local_mem = local_mem;

  return TRUE;
}
