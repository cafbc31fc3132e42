/* ThreadLens: one kernel, as NVIDIA's OpenCL compiled it, run through the
 * CUDA driver API, so that Nsight Compute (which does not profile OpenCL)
 * can count what bounds it.  A developer's tool for a machine with CUDA;
 * build-aux/ptx-profile.sh builds it, feeds it and runs ncu over it.
 *
 *   ptx-profile PTX KERNEL WIDTH HEIGHT PIXEL-BYTES PIXELS CODEC
 *               GROUPS-X GROUPS-Y LOCAL-X LOCAL-Y LOCAL-BYTES ARG...
 *
 * PIXELS and CODEC are the files `threadlens bench --save-input` writes.
 * Each ARG is the kernel's next argument:
 *   in, out        the pixels, and a buffer of their size for the result
 *   codec          the codec table
 *   scratch        WIDTH x HEIGHT working floats (16 bytes a pixel), zeroed
 *   dispatch:K,W,H[,X,Y]  a TlDispatch (kernels/tl-index.h): K pixels an
 *                  item, W x H groups, over the image or over X x Y items
 *                  (the recursive filters' passes count lines)
 *   int:N, float:V
 *   vector:V,V,..  floats by value (a float4 or float16)
 *   constant:V,..  a `constant float *` buffer
 *   doubles:V,..   a `constant double *` buffer
 *   local          the local-memory argument, LOCAL-BYTES long
 * Local and constant arguments become symbols of the module (an `extern
 * .shared` array and a `.const` array), since a CUDA kernel takes no
 * pointer into those spaces as an argument.  RUNS (default 20) timed
 * launches; prints their median and a checksum of the out buffer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PTX_MAX_ARGS   32
#define PTX_CONST_SIZE 4096

#define PTX_CHECK(call)                                                 \
  do                                                                    \
    {                                                                   \
      CUresult status_ = (call);                                        \
      const char *text_ = NULL;                                         \
                                                                        \
      if (status_ != CUDA_SUCCESS)                                      \
        {                                                               \
          cuGetErrorString (status_, &text_);                           \
          fprintf (stderr, "ptx-profile: %s: %s\n", #call,              \
                   text_ ? text_ : "unknown error");                    \
          exit (1);                                                     \
        }                                                               \
    }                                                                   \
  while (0)

static void
ptx_fail (const char *what,
          const char *detail)
{
  fprintf (stderr, "ptx-profile: %s%s%s\n", what, detail ? ": " : "",
           detail ? detail : "");
  exit (1);
}

static char *
ptx_read_file (const char *path,
               size_t     *size)
{
  FILE *file = fopen (path, "rb");
  char *data;

  if (file == NULL || fseek (file, 0, SEEK_END) != 0)
    ptx_fail ("cannot read", path);
  *size = (size_t) ftell (file);
  rewind (file);
  data = malloc (*size + 1);
  if (data == NULL || fread (data, 1, *size, file) != *size)
    ptx_fail ("cannot read", path);
  data[*size] = '\0';
  fclose (file);
  return data;
}

/* TEXT with [AT, AT + LENGTH) replaced by WITH; frees TEXT. */
static char *
ptx_splice (char       *text,
            size_t      at,
            size_t      length,
            const char *with)
{
  size_t rest = strlen (text + at + length);
  char  *out  = malloc (at + strlen (with) + rest + 1);

  memcpy (out, text, at);
  strcpy (out + at, with);
  strcpy (out + at + strlen (with), text + at + length);
  free (text);
  return out;
}

/* The start of the line of TEXT that holds AT. */
static char *
ptx_line_start (char *text,
                char *at)
{
  while (at > text && at[-1] != '\n')
    at--;
  return at;
}

/* Argument INDEX of KERNEL becomes the symbol SYMBOL, declared by
 * DECLARATION before the entry: its parameter loses its state space and
 * its one load from the parameter becomes the symbol's address.
 */
static char *
ptx_argument_to_symbol (char       *ptx,
                        const char *kernel,
                        int         index,
                        const char *symbol,
                        const char *declaration)
{
  char  name[256], line[512], type[16], reg[64];
  char *hit, *start, *space, *end;

  snprintf (name, sizeof name, "%s_param_%d", kernel, index);
  hit = strstr (ptx, name);
  if (hit == NULL)
    ptx_fail ("no such parameter", name);
  start = ptx_line_start (ptx, hit);
  space = strstr (start, ".ptr ");
  if (space != NULL && space < hit)
    ptx = ptx_splice (ptx, space - ptx, hit - space, "");

  snprintf (line, sizeof line, "[%s];", name);
  hit = strstr (ptx, line);
  if (hit == NULL)
    ptx_fail ("parameter never loaded", name);
  start = ptx_line_start (ptx, hit);
  if (sscanf (start, " ld.param.%15s %63[^,],", type, reg) != 2)
    ptx_fail ("unexpected load of", name);
  end = strchr (hit, '\n');
  snprintf (line, sizeof line, "\tmov.%s %s, %s;", type, reg, symbol);
  ptx = ptx_splice (ptx, start - ptx, end - start, line);

  start = ptx_line_start (ptx, strstr (ptx, ".entry"));
  return ptx_splice (ptx, start - ptx, 0, declaration);
}

/* Numbers separated by commas into OUT (at most MAX); returns the count. */
static int
ptx_parse_numbers (const char *text,
                   double     *out,
                   int         max)
{
  int   n = 0;
  char *end;

  while (*text && n < max)
    {
      out[n++] = strtod (text, &end);
      if (end == text)
        ptx_fail ("not a number list", text);
      text = *end == ',' ? end + 1 : end;
    }
  return n;
}

int
main (int    argc,
      char **argv)
{
  const char *kernel_name;
  int         width, height, pixel_bytes, runs, n_args, i;
  unsigned    grid[2], local[2], local_bytes;
  size_t      ptx_size, n_pixels, n_codec, n_bytes;
  char       *ptx, *pixels, *codec, *arg_kind[PTX_MAX_ARGS];
  void       *values[PTX_MAX_ARGS];
  CUdevice    device;
  CUcontext   context;
  CUmodule    module;
  CUfunction  kernel;
  CUdeviceptr in, out, table;
  CUevent     start, stop;
  float      *times;
  uint64_t    checksum = 0;
  unsigned char *result;

  if (argc < 13)
    {
      fprintf (stderr, "usage: ptx-profile PTX KERNEL WIDTH HEIGHT PIXEL-BYTES "
               "PIXELS CODEC GROUPS-X GROUPS-Y LOCAL-X LOCAL-Y LOCAL-BYTES ARG...\n");
      return 2;
    }
  ptx         = ptx_read_file (argv[1], &ptx_size);
  kernel_name = argv[2];
  width       = atoi (argv[3]);
  height      = atoi (argv[4]);
  pixel_bytes = atoi (argv[5]);
  pixels      = ptx_read_file (argv[6], &n_pixels);
  codec       = ptx_read_file (argv[7], &n_codec);
  grid[0]     = (unsigned) atoi (argv[8]);
  grid[1]     = (unsigned) atoi (argv[9]);
  local[0]    = (unsigned) atoi (argv[10]);
  local[1]    = (unsigned) atoi (argv[11]);
  local_bytes = (unsigned) atoi (argv[12]);
  n_args      = argc - 13;
  runs        = getenv ("RUNS") ? atoi (getenv ("RUNS")) : 20;
  n_bytes     = (size_t) width * height * pixel_bytes;
  if (n_pixels != n_bytes)
    ptx_fail ("the pixels file does not hold WIDTH x HEIGHT x PIXEL-BYTES",
              argv[6]);
  if (n_args > PTX_MAX_ARGS || runs < 1)
    ptx_fail ("too many arguments or RUNS below 1", NULL);

  for (i = 0; i < n_args; i++)
    {
      char symbol[32], declaration[128];

      arg_kind[i] = argv[13 + i];
      snprintf (symbol, sizeof symbol, "ptx_argument_%d", i);
      if (strcmp (arg_kind[i], "local") == 0)
        {
          snprintf (declaration, sizeof declaration,
                    ".extern .shared .align 16 .b8 %s[];\n", symbol);
          ptx = ptx_argument_to_symbol (ptx, kernel_name, i, symbol, declaration);
        }
      else if (strncmp (arg_kind[i], "constant:", 9) == 0 ||
               strncmp (arg_kind[i], "doubles:", 8) == 0)
        {
          snprintf (declaration, sizeof declaration,
                    ".const .align 16 .b8 %s[%d];\n", symbol, PTX_CONST_SIZE);
          ptx = ptx_argument_to_symbol (ptx, kernel_name, i, symbol, declaration);
        }
    }

  PTX_CHECK (cuInit (0));
  PTX_CHECK (cuDeviceGet (&device, 0));
  PTX_CHECK (cuDevicePrimaryCtxRetain (&context, device));
  PTX_CHECK (cuCtxSetCurrent (context));
  PTX_CHECK (cuModuleLoadData (&module, ptx));
  PTX_CHECK (cuModuleGetFunction (&kernel, module, kernel_name));
  if (local_bytes > 48 * 1024)
    PTX_CHECK (cuFuncSetAttribute (kernel,
                                   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   (int) local_bytes));

  PTX_CHECK (cuMemAlloc (&in, n_bytes));
  PTX_CHECK (cuMemAlloc (&out, n_bytes));
  PTX_CHECK (cuMemAlloc (&table, n_codec ? n_codec : 16));
  PTX_CHECK (cuMemcpyHtoD (in, pixels, n_bytes));
  if (n_codec)
    PTX_CHECK (cuMemcpyHtoD (table, codec, n_codec));

  for (i = 0; i < n_args; i++)
    {
      const char *kind = arg_kind[i];
      double      numbers[64];
      int         n;

      values[i] = calloc (1, 64 * sizeof (double));
      if (strcmp (kind, "in") == 0)
        memcpy (values[i], &in, sizeof in);
      else if (strcmp (kind, "out") == 0)
        memcpy (values[i], &out, sizeof out);
      else if (strcmp (kind, "codec") == 0)
        memcpy (values[i], &table, sizeof table);
      else if (strcmp (kind, "scratch") == 0)
        {
          CUdeviceptr scratch;

          PTX_CHECK (cuMemAlloc (&scratch, (size_t) width * height * 16));
          PTX_CHECK (cuMemsetD8 (scratch, 0, (size_t) width * height * 16));
          memcpy (values[i], &scratch, sizeof scratch);
        }
      else if (strncmp (kind, "dispatch:", 9) == 0)
        {
          int32_t *d = values[i];

          n = ptx_parse_numbers (kind + 9, numbers, 5);
          if (n != 3 && n != 5)
            ptx_fail ("dispatch takes K,W,H or K,W,H,X,Y", kind);
          d[0] = n == 5 ? (int32_t) numbers[3] : width;
          d[1] = n == 5 ? (int32_t) numbers[4] : height;
          d[2] = d[0];
          d[3] = (int32_t) numbers[0];
          d[4] = (int32_t) numbers[1];
          d[5] = (int32_t) numbers[2];
        }
      else if (strncmp (kind, "int:", 4) == 0)
        *(int32_t *) values[i] = atoi (kind + 4);
      else if (strncmp (kind, "float:", 6) == 0)
        *(float *) values[i] = strtof (kind + 6, NULL);
      else if (strncmp (kind, "vector:", 7) == 0)
        {
          n = ptx_parse_numbers (kind + 7, numbers, 16);
          while (n-- > 0)
            ((float *) values[i])[n] = (float) numbers[n];
        }
      else if (strncmp (kind, "constant:", 9) == 0 ||
               strncmp (kind, "doubles:", 8) == 0)
        {
          static unsigned char data[PTX_CONST_SIZE];
          char                 symbol[32];
          CUdeviceptr          address;
          size_t               size;
          int                  wide = kind[0] == 'd';

          memset (data, 0, sizeof data);
          n = ptx_parse_numbers (strchr (kind, ':') + 1, numbers, 64);
          while (n-- > 0)
            if (wide)
              ((double *) data)[n] = numbers[n];
            else
              ((float *) data)[n] = (float) numbers[n];
          snprintf (symbol, sizeof symbol, "ptx_argument_%d", i);
          PTX_CHECK (cuModuleGetGlobal (&address, &size, module, symbol));
          PTX_CHECK (cuMemcpyHtoD (address, data, size));
        }
      else if (strcmp (kind, "local") != 0)
        ptx_fail ("unknown argument", kind);
    }

  times = malloc (runs * sizeof (float));
  PTX_CHECK (cuEventCreate (&start, 0));
  PTX_CHECK (cuEventCreate (&stop, 0));
  for (i = 0; i < runs; i++)
    {
      PTX_CHECK (cuEventRecord (start, 0));
      PTX_CHECK (cuLaunchKernel (kernel, grid[0], grid[1], 1, local[0],
                                 local[1], 1, local_bytes, 0, values, NULL));
      PTX_CHECK (cuEventRecord (stop, 0));
      PTX_CHECK (cuEventSynchronize (stop));
      PTX_CHECK (cuEventElapsedTime (&times[i], start, stop));
    }
  for (i = 1; i < runs; i++)
    {
      float t = times[i];
      int   j = i;

      for (; j > 0 && times[j - 1] > t; j--)
        times[j] = times[j - 1];
      times[j] = t;
    }

  result = malloc (n_bytes);
  PTX_CHECK (cuMemcpyDtoH (result, out, n_bytes));
  for (n_pixels = 0; n_pixels < n_bytes; n_pixels++)
    checksum = checksum * 31 + result[n_pixels];
  printf ("%s: median %.4f ms, fastest %.4f ms, %d runs; output checksum %016llx\n",
          kernel_name, times[runs / 2], times[0], runs,
          (unsigned long long) checksum);
  return 0;
}
