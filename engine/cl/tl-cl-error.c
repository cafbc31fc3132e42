/* ThreadLens: OpenCL status codes as names and readable GErrors
 * (see tl-cl.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-cl-private.h"
#include "tl-error.h"

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
