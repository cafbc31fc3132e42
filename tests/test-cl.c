/* ThreadLens tests: the OpenCL runtime (devices, builds, program cache).
 * Runs on whatever OpenCL platform is installed: PoCL in CI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "kernels/tl-args.h"
#include "tl-cl.h"
#include "tl-error.h"
#include "tl-program-cache.h"

static gchar *cache_root;

/* Each case starts with an empty disk cache of its own. */
static void
fresh_cache (const gchar *name)
{
  g_autofree gchar *dir = g_build_filename (cache_root, name, NULL);

  g_setenv ("THREADLENS_CACHE_DIR", dir, TRUE);
}

static void
test_devices (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(GPtrArray) devices = tl_cl_list_devices (&error);
  const TlDevice      *device;
  guint                i;

  g_assert_no_error (error);
  g_assert_nonnull (devices);
  g_assert_cmpuint (devices->len, >, 0);

  for (i = 0; i < devices->len; i++)
    {
      device = g_ptr_array_index (devices, i);
      g_assert_cmpuint (device->index, ==, i);
      g_assert_cmpstr (device->name, !=, "");
      g_assert_cmpuint (device->max_group_size, >, 0);
      g_assert_cmpuint (device->max_item_size[0], >, 0);
      g_assert_cmpuint (device->compute_units, >, 0);
    }

  /* By index, by name substring in any case, and the default. */
  device = tl_cl_find_device (devices, "0", &error);
  g_assert_no_error (error);
  g_assert_true (device == g_ptr_array_index (devices, 0));

  {
    const TlDevice   *first = g_ptr_array_index (devices, 0);
    g_autofree gchar *upper = g_utf8_strup (first->name, -1);

    device = tl_cl_find_device (devices, upper, &error);
    g_assert_no_error (error);
    g_assert_true (device == first);
  }

  g_unsetenv ("THREADLENS_DEVICE");
  device = tl_cl_find_device (devices, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (device);

  g_setenv ("THREADLENS_DEVICE", "0", TRUE);
  device = tl_cl_find_device (devices, NULL, &error);
  g_assert_true (device == g_ptr_array_index (devices, 0));
  g_unsetenv ("THREADLENS_DEVICE");

  device = tl_cl_find_device (devices, "99", &error);
  g_assert_null (device);
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "99"));
  g_clear_error (&error);

  device = tl_cl_find_device (devices, "no-such-gpu", &error);
  g_assert_null (device);
  g_assert_error (error, TL_ERROR, TL_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "no-such-gpu"));
}

static void
test_error_names (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (tl_cl_error_name (CL_INVALID_WORK_GROUP_SIZE), ==,
                   "CL_INVALID_WORK_GROUP_SIZE");
  g_assert_cmpstr (tl_cl_error_name (-9999), ==, "unknown OpenCL error");

  tl_cl_set_error (&error, CL_OUT_OF_RESOURCES, "launch 1 of 4");
  g_assert_error (error, TL_ERROR, TL_ERROR_OPENCL);
  g_assert_nonnull (strstr (error->message, "launch 1 of 4"));
  g_assert_nonnull (strstr (error->message, "CL_OUT_OF_RESOURCES"));
}

/* P and M come from the driver for a real kernel. */
static void
test_kernel_limits (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  cl_kernel            kernel;
  TlLimits             limits;

  fresh_cache ("limits");
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);

  kernel = tl_context_get_kernel (context, "point", "tl_invert", &error);
  g_assert_no_error (error);
  g_assert_true (tl_context_kernel_limits (context, kernel, &limits, &error));
  g_assert_cmpuint (limits.simd_width, >=, 1);
  g_assert_cmpuint (limits.max_group_size, >=, limits.simd_width);
  g_assert_cmpuint (limits.max_group_size, <=,
                    tl_context_get_device (context)->max_group_size);

  /* A kernel the program lacks. */
  g_assert_null (tl_context_get_kernel (context, "point", "tl_missing", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_OPENCL);
  g_assert_nonnull (strstr (error->message, "tl_missing"));
  g_clear_error (&error);

  /* A program that is not built in. */
  g_assert_null (tl_context_get_kernel (context, "nothing", "tl_x", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_BUILD);
}

/* The driver's own build log reaches the user. */
static void
test_build_failure_log (void)
{
  const gchar *broken = "kernel void tl_broken (global float *out)\n"
                        "{\n"
                        "  out[get_global_id (0)] = undeclared_name;\n"
                        "}\n";
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;

  fresh_cache ("broken");
  context = tl_context_new (NULL, &error);
  g_assert_no_error (error);

  g_assert_null (tl_context_build_program (context, "broken", broken, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_BUILD);
  g_assert_nonnull (strstr (error->message, "kernels/broken.cl"));
  g_assert_nonnull (strstr (error->message, "undeclared_name"));
  g_assert_cmpuint (tl_context_get_stats (context)->programs_from_source, ==, 0);
}

static guint
count_entries (const gchar *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);
  guint           n      = 0;

  while (handle && g_dir_read_name (handle))
    n++;
  return n;
}

static gchar *
only_entry (const gchar *dir)
{
  g_autoptr(GDir) handle = g_dir_open (dir, 0, NULL);

  g_assert_nonnull (handle);
  return g_build_filename (dir, g_dir_read_name (handle), NULL);
}

static void
build_invert (guint from_source,
              guint from_disk,
              guint rejected)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = tl_context_new (NULL, &error);
  const TlCacheStats  *stats;

  g_assert_no_error (error);
  g_assert_nonnull (tl_context_get_kernel (context, "point", "tl_invert", &error));
  g_assert_no_error (error);
  /* The second kernel of the program comes from the same build. */
  g_assert_nonnull (tl_context_get_kernel (context, "point", "tl_color_matrix",
                                           &error));
  g_assert_no_error (error);

  stats = tl_context_get_stats (context);
  g_assert_cmpuint (stats->programs_from_source, ==, from_source);
  g_assert_cmpuint (stats->programs_from_disk, ==, from_disk);
  g_assert_cmpuint (stats->disk_entries_rejected, ==, rejected);
  g_assert_cmpuint (stats->programs_from_memory, ==, 1);
}

static void
test_program_cache (void)
{
  g_autofree gchar *dir  = NULL;
  g_autofree gchar *path = NULL;
  g_autofree gchar *data = NULL;
  gsize             length;

  fresh_cache ("cache");
  dir = tl_program_cache_dir ();

  /* Cold: built from source and stored. */
  build_invert (1, 0, 0);
  g_assert_cmpuint (count_entries (dir), ==, 1);

  /* Warm: taken from disk. */
  build_invert (0, 1, 0);

  /* A damaged entry (one flipped byte in the payload) is noticed,
   * rebuilt and rewritten.
   */
  path = only_entry (dir);
  g_assert_true (g_file_get_contents (path, &data, &length, NULL));
  data[length - 10] ^= 0x55;
  g_assert_true (g_file_set_contents (path, data, length, NULL));
  build_invert (1, 0, 1);
  build_invert (0, 1, 0);

  /* A truncated entry likewise. */
  g_assert_cmpint (truncate (path, 20), ==, 0);
  build_invert (1, 0, 1);
  build_invert (0, 1, 0);
  g_assert_cmpuint (count_entries (dir), ==, 1);
}

/* A well-formed entry whose binary the driver refuses is rebuilt too. */
static void
test_program_cache_refused (void)
{
  g_autofree gchar *dir  = NULL;
  g_autofree gchar *path = NULL;
  g_autofree gchar *name = NULL;
  const guint8      junk[] = "this is not a program binary";

  fresh_cache ("refused");
  dir = tl_program_cache_dir ();
  build_invert (1, 0, 0);

  path = only_entry (dir);
  name = g_path_get_basename (path);
  *strrchr (name, '.') = '\0';
  tl_program_cache_store (name, junk, sizeof (junk));

  build_invert (1, 0, 1);
  build_invert (0, 1, 0);
}

/* THREADLENS_CACHE_DIR="" turns the disk cache off. */
static void
test_program_cache_off (void)
{
  g_setenv ("THREADLENS_CACHE_DIR", "", TRUE);
  g_assert_null (tl_program_cache_dir ());
  build_invert (1, 0, 0);
  build_invert (1, 0, 0);
}

/* A kernel parameter that the host sets by its place: the place as
 * kernels/tl-args.h names it, and the parameter's name in the kernel,
 * which is that name's last part in small letters.
 */
typedef struct
{
  const gchar *kernel;
  guint        slot;
  const gchar *param;
} ArgSlot;

#define SLOT(kernel, PREFIX, PARAM) { #kernel, TL_ARG_##PREFIX##_##PARAM, #PARAM }

static const ArgSlot arg_slots[] =
{
  SLOT (tl_pixelize_rows, PIXELIZE_ROWS, SIZE),
  SLOT (tl_pixelize_rows, PIXELIZE_ROWS, ANCHOR_X),
  SLOT (tl_pixelize_rows, PIXELIZE_ROWS, BLOCKS_X),
  SLOT (tl_pixelize_rows, PIXELIZE_ROWS, WIDTH),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, SIZE),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, ANCHOR_X),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, ANCHOR_Y),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, BLOCKS_X),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, WIDTH),
  SLOT (tl_pixelize_means, PIXELIZE_MEANS, HEIGHT),
  SLOT (tl_area_pixelize, AREA_PIXELIZE, SIZE),
  SLOT (tl_area_pixelize, AREA_PIXELIZE, ANCHOR_X),
  SLOT (tl_area_pixelize, AREA_PIXELIZE, ANCHOR_Y),
  SLOT (tl_area_pixelize, AREA_PIXELIZE, BLOCKS_X),

#define CONVOLVE_SLOTS(kernel, LOCAL)         \
  SLOT (kernel, CONVOLVE, WEIGHTS),           \
  SLOT (kernel, CONVOLVE, RADIUS),            \
  SLOT (kernel, CONVOLVE, LOCAL)
  CONVOLVE_SLOTS (tl_convolve_h, TILE),
  CONVOLVE_SLOTS (tl_convolve_h_tiled, TILE),
  CONVOLVE_SLOTS (tl_convolve_v, TILE),
  CONVOLVE_SLOTS (tl_convolve_v_tiled, TILE),
  CONVOLVE_SLOTS (tl_convolve_v_scratch, TILE),
  CONVOLVE_SLOTS (tl_convolve_v_scratch_tiled, TILE),
  CONVOLVE_SLOTS (tl_convolve_2d, BLOCK),
  CONVOLVE_SLOTS (tl_unsharp_v, TILE),
  CONVOLVE_SLOTS (tl_unsharp_v_tiled, TILE),
  CONVOLVE_SLOTS (tl_unsharp_2d, BLOCK),
  SLOT (tl_unsharp_v, UNSHARP, IN),
  SLOT (tl_unsharp_v, UNSHARP, SCALE),
  SLOT (tl_unsharp_v_tiled, UNSHARP, IN),
  SLOT (tl_unsharp_v_tiled, UNSHARP, SCALE),
  SLOT (tl_unsharp_2d, UNSHARP, IN),
  SLOT (tl_unsharp_2d, UNSHARP, SCALE),

#define RECURSIVE_SLOTS(kernel)               \
  SLOT (kernel, RECURSIVE, COEF),             \
  SLOT (kernel, RECURSIVE, LENGTH),           \
  SLOT (kernel, RECURSIVE, PITCH)
  RECURSIVE_SLOTS (tl_recursive_rows),
  RECURSIVE_SLOTS (tl_recursive_columns),
  RECURSIVE_SLOTS (tl_recursive_lines),
  RECURSIVE_SLOTS (tl_recursive_channels),
  RECURSIVE_SLOTS (tl_recursive_group_rows),
  SLOT (tl_recursive_rows, RECURSIVE, STEP),
  SLOT (tl_recursive_columns, RECURSIVE, STEP),
  SLOT (tl_recursive_lines, RECURSIVE, STEP),
  SLOT (tl_recursive_channels, RECURSIVE, STEP),
  SLOT (tl_recursive_group_rows, GROUP_ROWS, CHANNELS),
  SLOT (tl_recursive_group_rows, GROUP_ROWS, SEGMENT),
  SLOT (tl_recursive_group_rows, GROUP_ROWS, POWERS),
  SLOT (tl_recursive_group_rows, GROUP_ROWS, LINE),
  SLOT (tl_recursive_group_rows, GROUP_ROWS, CARRIES),

  SLOT (tl_unsharp_combine, UNSHARP_COMBINE, BLURRED),
  SLOT (tl_unsharp_combine, UNSHARP_COMBINE, SCALE),
  SLOT (tl_dog_combine, DOG_COMBINE, FIRST),
  SLOT (tl_dog_combine, DOG_COMBINE, SECOND),
  SLOT (tl_high_pass_combine, HIGH_PASS_COMBINE, BLURRED),
  SLOT (tl_high_pass_combine, HIGH_PASS_COMBINE, CONTRAST),

#define BOX_SLOTS(kernel)                     \
  SLOT (kernel, BOX, SCALE),                  \
  SLOT (kernel, BOX, RADIUS),                 \
  SLOT (kernel, BOX, LENGTH),                 \
  SLOT (kernel, BOX, PITCH),                  \
  SLOT (kernel, BOX, STEP),                   \
  SLOT (kernel, BOX, LINES),                  \
  SLOT (kernel, BOX, RUN)
  BOX_SLOTS (tl_box_rows),
  BOX_SLOTS (tl_box_columns),

  SLOT (tl_padded_fill, PADDED_FILL, MARGIN),
  SLOT (tl_padded_fill, PADDED_FILL, COLS),
  SLOT (tl_padded_fill, PADDED_FILL, WIDTH),
  SLOT (tl_padded_fill, PADDED_FILL, HEIGHT),
#define PADDED_SLOTS(family)                  \
  SLOT (family##_step, PADDED_STEP, COLS),    \
  SLOT (family##_step, PADDED_STEP, ROWS),    \
  SLOT (family##_last, PADDED_LAST, MARGIN),  \
  SLOT (family##_last, PADDED_LAST, COLS),    \
  SLOT (family##_last, PADDED_LAST, STEPS)
  PADDED_SLOTS (tl_curvature),
  PADDED_SLOTS (tl_noise),

  SLOT (tl_motion_linear, MOTION_LINEAR, STEPS),
  SLOT (tl_motion_linear, MOTION_LINEAR, FRACTIONS),
  SLOT (tl_motion_linear, MOTION_LINEAR, N_STEPS),
  SLOT (tl_motion_linear, MOTION_LINEAR, INV_N_STEPS),

  SLOT (tl_color_matrix, COLOR_MATRIX, M),
  SLOT (tl_color_matrix, COLOR_MATRIX, OFFSET),

  SLOT (tl_bilateral, BILATERAL, SPATIAL),
  SLOT (tl_bilateral, BILATERAL, RADIUS),
  SLOT (tl_bilateral, BILATERAL, PRESERVE),
  SLOT (tl_snn_mean, SNN_MEAN, RADIUS),
  SLOT (tl_snn_mean, SNN_MEAN, PAIRS),
  SLOT (tl_median, MEDIAN, OUTLINE),
  SLOT (tl_median, MEDIAN, RADIUS),
  SLOT (tl_median, MEDIAN, MOVES),
  SLOT (tl_median, MEDIAN, N_MOVES),
  SLOT (tl_median, MEDIAN, PERCENTILE),
  SLOT (tl_median, MEDIAN, ALPHA_PERCENTILE),
  SLOT (tl_median, MEDIAN, WIDTH),
  SLOT (tl_median, MEDIAN, HEIGHT),
  SLOT (tl_median, MEDIAN, RUN),
  SLOT (tl_median, MEDIAN, HISTOGRAMS),

  SLOT (tl_brightness_contrast, BRIGHTNESS_CONTRAST, CONTRAST),
  SLOT (tl_brightness_contrast, BRIGHTNESS_CONTRAST, BRIGHTNESS),
  SLOT (tl_threshold, THRESHOLD, LEVEL),
  SLOT (tl_threshold_codes, THRESHOLD_CODES, LEVEL),
  SLOT (tl_threshold_codes, THRESHOLD_CODES, WHITE),
  SLOT (tl_threshold_codes, THRESHOLD_CODES, BLACK),
  SLOT (tl_mono_mixer, MONO_MIXER, W),
  SLOT (tl_mono_mixer_codes, MONO_MIXER, W),
  SLOT (tl_sepia, SEPIA, R),
  SLOT (tl_sepia, SEPIA, G),
  SLOT (tl_sepia, SEPIA, B),
  SLOT (tl_posterize, POSTERIZE, LEVELS),
  SLOT (tl_posterize, POSTERIZE, STEP),
  SLOT (tl_code_table, CODE_TABLE, TABLE),

  SLOT (tl_thread_map, THREAD_MAP, PIXELS),
  SLOT (tl_thread_map, THREAD_MAP, GROUPS),
  SLOT (tl_thread_map, THREAD_MAP, INFO),
  SLOT (tl_thread_map, THREAD_MAP, D),
  SLOT (tl_thread_map, THREAD_MAP, SIMD_WIDTH),
  SLOT (tl_thread_map, THREAD_MAP, WINDOW_ROWS),
  SLOT (tl_thread_map, THREAD_MAP, RECORD_GROUPS),
  SLOT (tl_thread_draw, THREAD_DRAW, MAP),
  SLOT (tl_thread_draw, THREAD_DRAW, GROUPS),
  SLOT (tl_thread_draw, THREAD_DRAW, COLOURS),
  SLOT (tl_thread_draw, THREAD_DRAW, IN),
  SLOT (tl_thread_draw, THREAD_DRAW, OUT),
  SLOT (tl_thread_draw, THREAD_DRAW, CODEC),
  SLOT (tl_thread_draw, THREAD_DRAW, MISSED),
  SLOT (tl_thread_draw, THREAD_DRAW, WIDTH),
  SLOT (tl_thread_draw, THREAD_DRAW, ROWS),
  SLOT (tl_thread_draw, THREAD_DRAW, ROW_BASE),
  SLOT (tl_thread_draw, THREAD_DRAW, MODE),
  SLOT (tl_thread_draw, THREAD_DRAW, STYLE),
  SLOT (tl_thread_draw, THREAD_DRAW, N_COLOURS),
  SLOT (tl_thread_draw, THREAD_DRAW, GROUP_COUNT),
  SLOT (tl_thread_draw, THREAD_DRAW, PIXELS_PER_ITEM),
  SLOT (tl_thread_draw, THREAD_DRAW, OUTLINE),
  SLOT (tl_thread_draw, THREAD_DRAW, WITH_IMAGE),
  SLOT (tl_thread_draw, THREAD_DRAW, OPACITY),
  SLOT (tl_thread_draw, THREAD_DRAW, HATCH_ALPHA),
  SLOT (tl_copy_pass, COPY_PASS, IN),
  SLOT (tl_copy_pass, COPY_PASS, OUT),
  SLOT (tl_copy_pass, COPY_PASS, COUNT),
};

/* Every program whose kernels the host sets by place, in the storage
 * that builds all of them, each with one of its kernels.
 */
static const gchar *const arg_programs[][2] =
{
  { "area@u8",                   "tl_area_sobel" },
  { "blur@u8",                   "tl_convolve_h" },
  { "copy",                      "tl_copy_pass" },
  { "iterate@u8",                "tl_padded_fill" },
  { "median@u8",                 "tl_median_bins" },
  { "motion@u8",                 "tl_motion_linear" },
  { "overlay",                   "tl_thread_map" },
  { "overlay:tl_thread_draw@u8", "tl_thread_draw" },
  { "point@u8",                  "tl_invert" },
  { "smooth@u8",                 "tl_bilateral" },
  { "tone@u8",                   "tl_sepia" },
};

/* The kernels that do not start with the filter kernels' four. */
static const gchar *const arg_own_layouts[] =
{
  "tl_thread_map", "tl_thread_draw", "tl_copy_pass", NULL,
};

static gchar *
kernel_arg_string (cl_kernel          kernel,
                   guint              index,
                   cl_kernel_arg_info what,
                   cl_int            *status)
{
  gchar text[256] = "";

  *status = clGetKernelArgInfo (kernel, index, what, sizeof (text), text, NULL);
  return g_strdup (text);
}

/* KERNEL's parameter INDEX against what tl-args.h says of it; *CHECKED
 * counts the table's entries found.
 */
static void
check_kernel_arg (cl_kernel    kernel,
                  const gchar *kernel_name,
                  guint        index,
                  guint       *checked)
{
  g_autofree gchar *name = NULL;
  cl_kernel_arg_address_qualifier space = 0;
  cl_int            status;
  guint             i;

  name = kernel_arg_string (kernel, index, CL_KERNEL_ARG_NAME, &status);
  g_assert_cmpint (status, ==, CL_SUCCESS);
  /* PoCL reports a parameter named as a built-in (length, step) as
   * _cl_length.
   */
  if (g_str_has_prefix (name, "_cl_"))
    memmove (name, name + 4, strlen (name + 4) + 1);

  for (i = 0; i < G_N_ELEMENTS (arg_slots); i++)
    if (g_str_equal (arg_slots[i].kernel, kernel_name) &&
        arg_slots[i].slot == index)
      {
        g_autofree gchar *param = g_ascii_strdown (arg_slots[i].param, -1);

        if (! g_str_equal (name, param))
          g_error ("%s: parameter %u is '%s', but tl-args.h puts %s there",
                   kernel_name, index, name, arg_slots[i].param);
        (*checked)++;
        return;
      }

  if (g_strv_contains (arg_own_layouts, kernel_name) || index > TL_ARG_CODEC)
    g_error ("%s: parameter %u ('%s') has no name in tl-args.h", kernel_name,
             index, name);

  /* The four every filter kernel starts with. */
  if (index == TL_ARG_DISPATCH || index == TL_ARG_CODEC)
    {
      if (! g_str_equal (name, index == TL_ARG_DISPATCH ? "d" : "codec"))
        g_error ("%s: parameter %u is '%s', not the %s of tl-args.h",
                 kernel_name, index, name,
                 index == TL_ARG_DISPATCH ? "dispatch" : "codec's table");
      return;
    }
  g_assert_cmpint (clGetKernelArgInfo (kernel, index,
                                       CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                       sizeof (space), &space, NULL),
                   ==, CL_SUCCESS);
  if (space != CL_KERNEL_ARG_ADDRESS_GLOBAL)
    g_error ("%s: parameter %u ('%s') is not the buffer TL_ARG_%s names",
             kernel_name, index, name, index == TL_ARG_IN ? "IN" : "OUT");
}

/* kernels/tl-args.h against the kernels themselves: every slot it names
 * holds the parameter of that name, as the driver reports the names of
 * a program built with -cl-kernel-arg-info; every parameter of every
 * kernel has a name there (the filter kernels' four included); every
 * kernel it names exists.
 */
static void
test_kernel_args (void)
{
  g_autoptr(GError)    error   = NULL;
  g_autoptr(TlContext) context = NULL;
  g_autoptr(GHashTable) seen   = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                        g_free, NULL);
  guint                checked = 0;
  guint                p, i;

  /* Built from source, with the names kept. */
  g_setenv ("THREADLENS_CACHE_DIR", "", TRUE);
  g_setenv ("THREADLENS_BUILD_OPTIONS", "-cl-kernel-arg-info", TRUE);
  context = tl_context_new (NULL, &error);
  g_unsetenv ("THREADLENS_BUILD_OPTIONS");
  g_assert_no_error (error);

  for (p = 0; p < G_N_ELEMENTS (arg_programs); p++)
    {
      g_autofree cl_kernel *kernels = NULL;
      cl_kernel  one;
      cl_program program = NULL;
      cl_uint    n_kernels = 0;

      one = tl_context_get_kernel (context, arg_programs[p][0],
                                   arg_programs[p][1], &error);
      g_assert_no_error (error);
      g_assert_cmpint (clGetKernelInfo (one, CL_KERNEL_PROGRAM,
                                        sizeof (program), &program, NULL),
                       ==, CL_SUCCESS);
      g_assert_cmpint (clCreateKernelsInProgram (program, 0, NULL, &n_kernels),
                       ==, CL_SUCCESS);
      kernels = g_new0 (cl_kernel, n_kernels);
      g_assert_cmpint (clCreateKernelsInProgram (program, n_kernels, kernels,
                                                 NULL), ==, CL_SUCCESS);

      for (i = 0; i < n_kernels; i++)
        {
          gchar   name[128] = "";
          cl_uint n_args    = 0;
          cl_int  status;
          guint   a;

          g_assert_cmpint (clGetKernelInfo (kernels[i], CL_KERNEL_FUNCTION_NAME,
                                            sizeof (name), name, NULL),
                           ==, CL_SUCCESS);
          g_assert_cmpint (clGetKernelInfo (kernels[i], CL_KERNEL_NUM_ARGS,
                                            sizeof (n_args), &n_args, NULL),
                           ==, CL_SUCCESS);
          g_free (kernel_arg_string (kernels[i], 0, CL_KERNEL_ARG_NAME,
                                     &status));
          if (status == CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
            {
              g_test_skip ("the driver keeps no kernel argument names");
              for (; i < n_kernels; i++)
                clReleaseKernel (kernels[i]);
              return;
            }
          /* Once a kernel: a program may hold another's (the overlay's). */
          if (g_hash_table_add (seen, g_strdup (name)))
            for (a = 0; a < n_args; a++)
              check_kernel_arg (kernels[i], name, a, &checked);
          clReleaseKernel (kernels[i]);
        }
    }

  for (i = 0; i < G_N_ELEMENTS (arg_slots); i++)
    if (! g_hash_table_contains (seen, arg_slots[i].kernel))
      g_error ("tl-args.h names %s's %s, but no program has that kernel",
               arg_slots[i].kernel, arg_slots[i].param);
  g_assert_cmpuint (checked, ==, G_N_ELEMENTS (arg_slots));
  g_test_message ("%u kernels, %u named slots checked",
                  g_hash_table_size (seen), checked);
}

static void
remove_tree (const gchar *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
      const gchar    *name;

      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree gchar *child = g_build_filename (path, name, NULL);

          remove_tree (child);
        }
    }
  g_remove (path);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  cache_root = g_dir_make_tmp ("threadlens-cache-XXXXXX", NULL);
  g_assert_nonnull (cache_root);

  g_test_add_func ("/cl/devices", test_devices);
  g_test_add_func ("/cl/error-names", test_error_names);
  g_test_add_func ("/cl/kernel-limits", test_kernel_limits);
  g_test_add_func ("/cl/build-failure-log", test_build_failure_log);
  g_test_add_func ("/cl/cache/disk", test_program_cache);
  g_test_add_func ("/cl/cache/refused", test_program_cache_refused);
  g_test_add_func ("/cl/cache/off", test_program_cache_off);
  g_test_add_func ("/cl/kernel-args", test_kernel_args);

  status = g_test_run ();
  remove_tree (cache_root);
  g_free (cache_root);
  return status;
}
