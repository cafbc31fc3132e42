/* ThreadLens: an OpenCL device's peak rates for the floors in README.md
 * ("Floors under the rows still open"): single- and double-precision
 * multiply-adds a second and local memory's bytes a second, each from
 * a kernel that does nothing else, timed by the device's own events.
 * A measurement, not a test.
 *
 *   cc -O2 -o device-rates build-aux/device-rates.c -lOpenCL
 *   ./device-rates [DEVICE-INDEX]     (default: the first GPU, else device 0)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>

/* Eight independent chains an item, so latency does not bound them. */
static const char *rates_source =
  "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
  "#define CHAINS(T, N)                                              \\\n"
  "  T a0 = x, a1 = x + 1, a2 = x + 2, a3 = x + 3,                 \\\n"
  "    a4 = x + 4, a5 = x + 5, a6 = x + 6, a7 = x + 7;             \\\n"
  "  for (int i = 0; i < (N); i++)                                  \\\n"
  "    {                                                            \\\n"
  "      a0 = fma (a0, m, c); a1 = fma (a1, m, c);                  \\\n"
  "      a2 = fma (a2, m, c); a3 = fma (a3, m, c);                  \\\n"
  "      a4 = fma (a4, m, c); a5 = fma (a5, m, c);                  \\\n"
  "      a6 = fma (a6, m, c); a7 = fma (a7, m, c);                  \\\n"
  "    }                                                            \\\n"
  "  out[get_global_id (0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7\n"
  "kernel void fma32 (global float *out, float x, float m, float c, int n)\n"
  "{ CHAINS (float, n); }\n"
  "kernel void fma64 (global double *out, double x, double m, double c, int n)\n"
  "{ CHAINS (double, n); }\n"
  "kernel void local_reads (global float4 *out, int n)\n"
  "{\n"
  "  local float4 tile[1024];\n"
  "  int          id  = get_local_id (0);\n"
  "  float4       sum = 0.0f;\n"
  "\n"
  "  for (int i = id; i < 1024; i += get_local_size (0))\n"
  "    tile[i] = (float4) (i);\n"
  "  barrier (CLK_LOCAL_MEM_FENCE);\n"
  "  for (int i = 0; i < n; i++)\n"
  "    sum += tile[(id + i * 32) & 1023];\n"
  "  out[get_global_id (0)] = sum;\n"
  "}\n";

#define RATES_ITEMS (1 << 20)
#define RATES_GROUP 256
#define RATES_RUNS  5

static void
rates_check (cl_int      status,
             const char *what)
{
  if (status != CL_SUCCESS)
    {
      fprintf (stderr, "device-rates: %s failed (%d)\n", what, status);
      exit (1);
    }
}

/* The median of RATES_RUNS timed launches of KERNEL, in seconds. */
static double
rates_time (cl_command_queue queue,
            cl_kernel        kernel)
{
  double times[RATES_RUNS];
  size_t global = RATES_ITEMS, local = RATES_GROUP;
  int    i, j;

  for (i = -1; i < RATES_RUNS; i++)
    {
      cl_event event;
      cl_ulong start, end;

      rates_check (clEnqueueNDRangeKernel (queue, kernel, 1, NULL, &global,
                                           &local, 0, NULL, &event),
                   "a launch");
      rates_check (clWaitForEvents (1, &event), "waiting");
      clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_START,
                               sizeof (start), &start, NULL);
      clGetEventProfilingInfo (event, CL_PROFILING_COMMAND_END,
                               sizeof (end), &end, NULL);
      clReleaseEvent (event);
      if (i >= 0)
        times[i] = (end - start) * 1e-9;
    }
  for (i = 1; i < RATES_RUNS; i++)
    for (j = i; j > 0 && times[j - 1] > times[j]; j--)
      {
        double t = times[j];

        times[j] = times[j - 1];
        times[j - 1] = t;
      }
  return times[RATES_RUNS / 2];
}

/* Multiply-adds a second, in T, of the chains kernel NAME, whose
 * scalar arguments X, M and C are SIZE bytes each.
 */
static double
rates_fma (cl_command_queue queue,
           cl_program       program,
           cl_mem           out,
           const char      *name,
           size_t           size,
           const void      *x,
           const void      *m,
           const void      *c,
           cl_int           n)
{
  cl_int    status;
  cl_kernel kernel = clCreateKernel (program, name, &status);
  double    seconds;

  rates_check (status, name);
  clSetKernelArg (kernel, 0, sizeof (out), &out);
  clSetKernelArg (kernel, 1, size, x);
  clSetKernelArg (kernel, 2, size, m);
  clSetKernelArg (kernel, 3, size, c);
  clSetKernelArg (kernel, 4, sizeof (n), &n);
  seconds = rates_time (queue, kernel);
  clReleaseKernel (kernel);
  return 8.0 * n * RATES_ITEMS / seconds * 1e-12;
}

int
main (int    argc,
      char **argv)
{
  cl_platform_id   platforms[8];
  cl_device_id     devices[16];
  cl_uint          n_platforms, n_devices = 0, p, found;
  cl_int           status;
  unsigned         pick = 0;
  char             name[256];
  cl_context       context;
  cl_command_queue queue;
  cl_program       program;
  cl_mem           out;
  cl_kernel        kernel;
  cl_int           n = 4096;
  double           seconds;

  rates_check (clGetPlatformIDs (8, platforms, &n_platforms), "listing platforms");
  for (p = 0; p < n_platforms && n_devices < 16; p++)
    if (clGetDeviceIDs (platforms[p], CL_DEVICE_TYPE_ALL, 16 - n_devices,
                        devices + n_devices, &found) == CL_SUCCESS)
      n_devices += found;
  /* Default: the first GPU, as threadlens picks. */
  if (argc > 1)
    pick = (unsigned) atoi (argv[1]);
  else
    for (p = n_devices; p-- > 0;)
      {
        cl_device_type type = 0;

        clGetDeviceInfo (devices[p], CL_DEVICE_TYPE, sizeof (type), &type, NULL);
        if (type & CL_DEVICE_TYPE_GPU)
          pick = p;
      }
  if (pick >= n_devices)
    {
      fprintf (stderr, "device-rates: no device %u (%u found)\n", pick, n_devices);
      return 1;
    }
  clGetDeviceInfo (devices[pick], CL_DEVICE_NAME, sizeof (name), name, NULL);

  context = clCreateContext (NULL, 1, &devices[pick], NULL, NULL, &status);
  rates_check (status, "a context");
  queue = clCreateCommandQueue (context, devices[pick], CL_QUEUE_PROFILING_ENABLE,
                                &status);
  rates_check (status, "a queue");
  program = clCreateProgramWithSource (context, 1, &rates_source, NULL, &status);
  rates_check (status, "the program");
  rates_check (clBuildProgram (program, 1, &devices[pick], "", NULL, NULL),
               "building the program");
  out = clCreateBuffer (context, CL_MEM_WRITE_ONLY,
                        (size_t) RATES_ITEMS * 4 * sizeof (float), NULL, &status);
  rates_check (status, "a buffer");
  printf ("%s\n", name);

  {
    float  fx = 1.0f, fm = 0.999f, fc = 0.001f;
    double dx = 1.0, dm = 0.999, dc = 0.001;

    printf ("float multiply-adds   %.3g T/s\n",
            rates_fma (queue, program, out, "fma32", sizeof (float),
                       &fx, &fm, &fc, n));
    printf ("double multiply-adds  %.3g T/s\n",
            rates_fma (queue, program, out, "fma64", sizeof (double),
                       &dx, &dm, &dc, n));
  }
  {
    kernel = clCreateKernel (program, "local_reads", &status);
    rates_check (status, "local_reads");
    clSetKernelArg (kernel, 0, sizeof (out), &out);
    clSetKernelArg (kernel, 1, sizeof (n), &n);
    seconds = rates_time (queue, kernel);
    printf ("local memory reads    %.3g TB/s (16 bytes an item a read)\n",
            16.0 * n * RATES_ITEMS / seconds * 1e-12);
    clReleaseKernel (kernel);
  }

  clReleaseMemObject (out);
  clReleaseProgram (program);
  clReleaseCommandQueue (queue);
  clReleaseContext (context);
  return 0;
}
