/* ThreadLens: kernel programs built from the embedded sources, through
 * the program cache, and their kernels (see tl-cl.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n-lib.h>

#include "tl-cl-private.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-kernels.h"
#include "tl-program-cache.h"

#define TL_KERNEL_RESOURCE_PATH "/org/threadlens/kernels/"

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
    { "pairs",  "#define TL_CONVOLVE_PAIRS 1\n" },
    { "equal",  "#define TL_CONVOLVE_EQUAL 1\n" },
    { "short",  "#define TL_MEDIAN_SHORT 1\n" },
    { "skip-alpha", "#define TL_MEDIAN_SKIP_ALPHA 1\n" },
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
 * and the shared headers (tl-args.h, tl-index.h, tl-pixel.h, tl-math.h)
 * go in front of the program's source, so the driver never needs an
 * include path.  Building only the kernels a filter runs matters on
 * PoCL, whose LLVM takes about 0.1 s a kernel.
 */
static gchar *
tl_context_load_source (const gchar *program,
                        GError     **error)
{
  g_auto(GStrv)     name    = g_strsplit (program, "@", 2);
  g_auto(GStrv)     parts   = g_strsplit (name[0], ":", 2);
  g_autofree gchar *file    = g_strconcat (parts[0], ".cl", NULL);
  g_autoptr(GBytes) args    = NULL;
  g_autoptr(GBytes) index   = NULL;
  g_autoptr(GBytes) pixel   = NULL;
  g_autoptr(GBytes) math    = NULL;
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

  args  = tl_context_lookup_kernel_file ("tl-args.h", error);
  index = args ? tl_context_lookup_kernel_file ("tl-index.h", error) : NULL;
  pixel = index ? tl_context_lookup_kernel_file ("tl-pixel.h", error) : NULL;
  math  = pixel ? tl_context_lookup_kernel_file ("tl-math.h", error) : NULL;
  if (math == NULL)
    return NULL;

  body = tl_context_lookup_kernel_file (file, NULL);
  if (body == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_BUILD,
                   _("no kernel program named '%s' is built in"), parts[0]);
      return NULL;
    }

  g_string_append_len (source, g_bytes_get_data (args, NULL),
                       g_bytes_get_size (args));
  g_string_append_len (source, g_bytes_get_data (index, NULL),
                       g_bytes_get_size (index));
  g_string_append_len (source, g_bytes_get_data (pixel, NULL),
                       g_bytes_get_size (pixel));
  g_string_append_len (source, g_bytes_get_data (math, NULL),
                       g_bytes_get_size (math));
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

/* Whether PROGRAM's variant ("blur:tl_convolve_2d@u8+trc+equal") has
 * TOKEN.
 */
gboolean
tl_program_has_variant (const gchar *program,
                        const gchar *token)
{
  const gchar  *variant = strchr (program, '@');
  g_auto(GStrv) tokens  = NULL;

  g_return_val_if_fail (program != NULL && token != NULL, FALSE);

  tokens = g_strsplit (variant ? variant + 1 : "", "+", -1);
  return g_strv_contains ((const gchar *const *) tokens, token);
}

/* Programs whose divisions and roots are rounded correctly (see below):
 * a kernels/ file's, or one kernel's of a file ("file:kernel").
 */
static const gchar *const tl_exact_programs[] =
{
  "smooth", "iterate", "median", "blur:tl_high_pass_combine",
};

/* Whether program NAME ("smooth:tl_bilateral@u8") is PREFIX's: PREFIX
 * then the end of the name, ':', ',' or '@'.
 */
static gboolean
tl_program_is (const gchar *name,
               const gchar *prefix)
{
  gsize length = strlen (prefix);

  return (strncmp (name, prefix, length) == 0 &&
          strchr (":,@", name[length]) != NULL);
}

static gboolean
tl_program_is_exact (const gchar *name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tl_exact_programs); i++)
    if (tl_program_is (name, tl_exact_programs[i]))
      return TRUE;
  return FALSE;
}

/* The build options for program NAME ("blur:tl_convolve_2d@u8+premul").
 * Programs that leave premultiplied light divide by alpha, in every
 * kernel that stores pixels; by default OpenCL C lets a division be 2.5
 * ulp off, and NVIDIA's compiler then divided differently from kernel to
 * kernel, so a translucent layer's pixels changed with the dispatch
 * choice (a fused blur against its two passes).  Rounded correctly, the
 * division is the C codec's in every kernel.  Other programs keep the
 * default: edge-sobel's square roots, rounded correctly, took 0.207 to
 * 0.271 ms in float on the H100.  The smoothing, iterative and median
 * filters' programs divide once a pixel (a step) after many taps, and
 * high-pass's pass divides in its curves (tl-math.h), so they are
 * rounded correctly too (tl_exact_programs): their references hold them
 * to the C bits, on the H100 too.
 */
static gchar *
tl_context_program_options (TlContext   *context,
                            const gchar *name)
{
  if (context->device->exact_divide &&
      (tl_program_has_variant (name, "premul") || tl_program_is_exact (name)))
    return g_strconcat (context->build_options,
                        " -cl-fp32-correctly-rounded-divide-sqrt", NULL);
  return g_strdup (context->build_options);
}

static cl_program
tl_context_build_from_binary (TlContext   *context,
                              const gchar *key,
                              const gchar *options)
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
      TL_CL (clBuildProgram, program, 1, &context->device->id, options, NULL,
             NULL) == CL_SUCCESS)
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
  g_autofree gchar *key     = NULL;
  g_autofree gchar *options = NULL;
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

  options = tl_context_program_options (context, name);
  key     = tl_program_cache_key (context->device->name,
                                  context->device->driver_version,
                                  context->device->version, source, options);
  program = tl_context_build_from_binary (context, key, options);

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
                      options, NULL, NULL);
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
  cl_ulong          local_mem = 0;
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

  /* Its own local memory, asked before any argument is set: the driver's
   * answer counts local arguments set since, and kernels are reused.
   */
  status = TL_CL (clGetKernelWorkGroupInfo, kernel, context->device->id,
                  CL_KERNEL_LOCAL_MEM_SIZE, sizeof (local_mem), &local_mem,
                  NULL);
  if (status != CL_SUCCESS)
    {
      tl_cl_set_error (error, status, _("querying the kernel's work-group limits"));
      TL_CL (clReleaseKernel, kernel);
      return NULL;
    }

  g_hash_table_insert (context->kernels, g_steal_pointer (&key), kernel);
  g_hash_table_insert (context->kernel_local, kernel,
                       g_memdup2 (&local_mem, sizeof (local_mem)));
  return kernel;
}

/* The local memory KERNEL (from tl_context_get_kernel ()) needs of its
 * own, whatever its local arguments.
 */
guint64
tl_context_get_kernel_local_mem (TlContext *context,
                                 cl_kernel  kernel)
{
  const cl_ulong *local_mem;

  g_return_val_if_fail (context != NULL && kernel != NULL, 0);

  local_mem = g_hash_table_lookup (context->kernel_local, kernel);
  g_return_val_if_fail (local_mem != NULL, 0);
  return *local_mem;
}
