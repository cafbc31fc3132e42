/* ThreadLens tests: a preloaded library for the kernels suite that
 * appends the name of every kernel enqueued to the file TL_KERNEL_LOG
 * names, then passes the call on.  Oclgrind's own instruction counts
 * (--inst-counts) would name them too, but that plug-in corrupts the heap
 * on some of these kernels in Oclgrind 21.10.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

typedef cl_int (*TlEnqueueFunc) (cl_command_queue  queue,
                                 cl_kernel         kernel,
                                 cl_uint           work_dim,
                                 const size_t     *offset,
                                 const size_t     *global,
                                 const size_t     *local,
                                 cl_uint           n_events,
                                 const cl_event   *events,
                                 cl_event         *event);

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel (cl_command_queue  queue,
                        cl_kernel         kernel,
                        cl_uint           work_dim,
                        const size_t     *offset,
                        const size_t     *global,
                        const size_t     *local,
                        cl_uint           n_events,
                        const cl_event   *events,
                        cl_event         *event)
{
  static TlEnqueueFunc next = NULL;
  const char          *path = getenv ("TL_KERNEL_LOG");
  char                 name[256];

  /* The next definition in lookup order: Oclgrind's runtime, or the ICD
   * loader.
   */
  if (next == NULL)
    next = (TlEnqueueFunc) dlsym (RTLD_NEXT, "clEnqueueNDRangeKernel");
  if (next == NULL)
    return CL_INVALID_OPERATION;

  if (path != NULL &&
      clGetKernelInfo (kernel, CL_KERNEL_FUNCTION_NAME, sizeof (name), name,
                       NULL) == CL_SUCCESS)
    {
      FILE *log = fopen (path, "a");

      if (log != NULL)
        {
          fprintf (log, "%s\n", name);
          fclose (log);
        }
    }

  return next (queue, kernel, work_dim, offset, global, local, n_events,
               events, event);
}
