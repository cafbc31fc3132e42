/* ThreadLens: the OpenCL safety check's test process.
 *
 * Lists every platform and its devices, as the engine does on its first
 * use, and exits 0.  A driver that aborts or hangs here takes only this
 * process down; the GEGL module (inside GIMP) reads the exit status and
 * keeps OpenCL off (host/tl-platform-probe.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <CL/cl.h>

int
main (int    argc,
      char **argv)
{
  cl_platform_id platforms[64];
  cl_uint        n_platforms = 0, p, n_devices = 0;
  cl_int         status;

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
