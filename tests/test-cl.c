/* ThreadLens tests: the OpenCL runtime (devices, builds, program cache).
 * Runs on whatever OpenCL platform is installed: PoCL in CI.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

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

  status = g_test_run ();
  remove_tree (cache_root);
  g_free (cache_root);
  return status;
}
