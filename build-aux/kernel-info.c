/* ThreadLens: what the driver says of kernels as the engine builds them.
 * A developer's tool, not a test: for each PROGRAM KERNEL pair (a program
 * name as the engine spells it, "point:tl_invert@u8"), the largest
 * work-group the driver allows (CL_KERNEL_WORK_GROUP_SIZE), its preferred
 * multiple, the private and local memory per work-item and group, and
 * the driver's build log.  With THREADLENS_BUILD_OPTIONS=-cl-nv-verbose
 * NVIDIA's log names the registers a work-item uses, which is what caps
 * a kernel's work-groups there.  The program cache is bypassed (a cached
 * binary has no log).
 *
 *   kernel-info [--device N] PROGRAM KERNEL [PROGRAM KERNEL ...]
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "tl-cl.h"

static void
kernel_info_print (TlContext   *context,
                   const gchar *program_name,
                   const gchar *kernel_name)
{
  g_autoptr(GError) error   = NULL;
  cl_device_id      device  = tl_context_get_device (context)->id;
  cl_kernel         kernel  = tl_context_get_kernel (context, program_name,
                                                     kernel_name, &error);
  cl_program        program = NULL;
  gsize             group = 0, multiple = 0, size = 0;
  cl_ulong          private_mem = 0, local_mem = 0;
  g_autofree gchar *log = NULL;

  if (kernel == NULL)
    {
      printf ("%s %s: %s\n", program_name, kernel_name, error->message);
      return;
    }
  clGetKernelWorkGroupInfo (kernel, device, CL_KERNEL_WORK_GROUP_SIZE,
                            sizeof (group), &group, NULL);
  clGetKernelWorkGroupInfo (kernel, device,
                            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                            sizeof (multiple), &multiple, NULL);
  clGetKernelWorkGroupInfo (kernel, device, CL_KERNEL_PRIVATE_MEM_SIZE,
                            sizeof (private_mem), &private_mem, NULL);
  clGetKernelWorkGroupInfo (kernel, device, CL_KERNEL_LOCAL_MEM_SIZE,
                            sizeof (local_mem), &local_mem, NULL);
  printf ("%s %s: work-group up to %zu, multiple %zu, private %lu bytes, "
          "local %lu bytes\n", program_name, kernel_name, group, multiple,
          (unsigned long) private_mem, (unsigned long) local_mem);

  if (clGetKernelInfo (kernel, CL_KERNEL_PROGRAM, sizeof (program), &program,
                       NULL) != CL_SUCCESS ||
      clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, 0, NULL,
                             &size) != CL_SUCCESS || size <= 1)
    return;
  log = g_malloc0 (size + 1);
  clGetProgramBuildInfo (program, device, CL_PROGRAM_BUILD_LOG, size, log,
                         NULL);
  printf ("%s\n", g_strstrip (log));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError)    error  = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autofree gchar    *cache  = g_dir_make_tmp ("threadlens-kernel-info-XXXXXX",
                                                NULL);
  const gchar         *device = NULL;
  gint                 first  = 1;
  gint                 i;

  if (argc > 2 && g_str_equal (argv[1], "--device"))
    {
      device = argv[2];
      first  = 3;
    }
  if (argc - first < 2 || (argc - first) % 2 != 0)
    {
      fprintf (stderr, "usage: %s [--device N] PROGRAM KERNEL [PROGRAM KERNEL ...]\n",
               argv[0]);
      return EXIT_FAILURE;
    }
  /* A fresh cache: every program is built, with its log. */
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);

  context = tl_context_new (device, &error);
  if (context == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return EXIT_FAILURE;
    }
  printf ("%s, options '%s'\n", tl_context_get_device (context)->name,
          tl_context_get_build_options (context));
  for (i = first; i < argc; i += 2)
    kernel_info_print (context, argv[i], argv[i + 1]);
  return EXIT_SUCCESS;
}
