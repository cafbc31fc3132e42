/* ThreadLens tests: an OpenCL driver that aborts the process as soon as
 * the ICD loader asks it for its platforms, as PoCL 6 does when /sys is
 * not mounted.  test-gegl-module installs it through OCL_ICD_VENDORS.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <stdlib.h>
#include <string.h>

int  clIcdGetPlatformIDsKHR        (unsigned int  n,
                                    void        **platforms,
                                    unsigned int *n_platforms);
void *clGetExtensionFunctionAddress (const char   *name);

int
clIcdGetPlatformIDsKHR (unsigned int  n,
                        void        **platforms,
                        unsigned int *n_platforms)
{
  abort ();
}

void *
clGetExtensionFunctionAddress (const char *name)
{
  if (strcmp (name, "clIcdGetPlatformIDsKHR") == 0)
    return (void *) clIcdGetPlatformIDsKHR;
  abort ();
}
