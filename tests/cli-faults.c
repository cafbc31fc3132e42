/* ThreadLens tests: threadlens apply where OpenCL lets it down or is
 * shared: no platform at all (every filter on its C reference), a driver
 * that fails to build, allocate or launch, a program cache of garbage,
 * and several processes filling one program cache at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/wait.h>
#include <string.h>

#include "cli-fixtures.h"

/* No OpenCL platform at all: every filter of the registry runs on its C
 * reference with a warning that says so, giving the device's pixels; the
 * overlay, which needs a device, fails with a clear message.
 */
static void
test_no_platform (void)
{
  g_autofree gchar *empty    = cli_output ("no-vendors");
  g_autofree gchar *good     = cli_photo ("coffee.png");
  g_autofree gchar *out      = cli_output ("no-platform.png");
  g_autofree gchar *expected = cli_output ("with-platform.png");
  g_autofree gchar *map      = cli_output ("no-platform-map.png");
  g_auto(GStrv)     envp     = g_get_environ ();
  const TlFilter *const *filters;
  guint             n_filters, i;

  g_mkdir_with_parents (empty, 0700);
  /* ocl-icd reads its vendor list from here instead of /etc/OpenCL. */
  envp = g_environ_setenv (envp, "OCL_ICD_VENDORS", empty, TRUE);

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    {
      const gchar      *name   = filters[i]->name;
      g_autofree TlValue *values = tl_filter_default_values (filters[i]);
      guint             slack  = tl_filter_halo (filters[i], values) ? 1 : 0;
      const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply", name,
                                   "--mode=uniform", good, out, NULL };
      const gchar      *device_argv[] = { g_getenv ("THREADLENS_BIN"), "apply",
                                          name, "--mode=uniform", good,
                                          expected, NULL };
      g_autofree gchar *stdout_text = NULL, *stderr_text = NULL;
      g_autofree guint8 *a = NULL, *b = NULL;
      guint              w, h, j;
      gint               status;

      g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp, 0, NULL, NULL,
                                   &stdout_text, &stderr_text, &status, NULL));
      if (! g_spawn_check_wait_status (status, NULL))
        g_error ("%s without a platform failed: %s", name, stderr_text);
      g_assert_nonnull (strstr (stderr_text, "warning: no OpenCL platform found"));
      g_assert_nonnull (strstr (stderr_text, "ran on the CPU through its C reference"));
      g_assert_nonnull (strstr (stdout_text, "on the CPU (C reference)"));

      g_assert_true (g_spawn_sync (NULL, (gchar **) device_argv, NULL,
                                   G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                                   NULL, &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      a = cli_load_stored (out, babl_format ("R'G'B'A u8"), &w, &h, NULL);
      b = cli_load_stored (expected, babl_format ("R'G'B'A u8"), &w, &h, NULL);
      /* Point filters match exactly; the stencils' sums and divisions
       * may round a code apart.
       */
      for (j = 0; j < w * h * 4; j++)
        if ((guint) ABS ((gint) a[j] - (gint) b[j]) > slack)
          g_error ("%s on the CPU differs from the device at value %u",
                   name, j);
    }

  {
    const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "overlay",
                                 "--by=work-group", good, map, NULL };
    g_autofree gchar *stderr_text = NULL;
    gint              status;

    g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp, 0, NULL, NULL,
                                 NULL, &stderr_text, &status, NULL));
    g_assert_false (g_spawn_check_wait_status (status, NULL));
    g_assert_nonnull (strstr (stderr_text, "no OpenCL platform found"));
    g_assert_false (g_file_test (map, G_FILE_TEST_EXISTS));
  }
}

/* The driver fails (THREADLENS_FAULT, tl-fault.h): to build, to allocate,
 * to launch.  Each names the problem and writes no file; a program cache
 * of garbage is rebuilt and gives the right pixels.
 */
static void
test_driver_faults (void)
{
  const struct
  {
    const gchar *fault;
    const gchar *filter;
    const gchar *message;
  } cases[] =
  {
    { "clBuildProgram", "invert", "building kernels/point.cl (u8) for" },
    { "clCreateBuffer", "gaussian-blur", "CL_MEM_OBJECT_ALLOCATION_FAILURE" },
    { "clEnqueueNDRangeKernel", "box-blur", "CL_OUT_OF_RESOURCES" },
    { "clCreateContext", "invert", "creating an OpenCL context failed" },
  };
  g_autofree gchar *good  = cli_photo ("coffee.png");
  g_autofree gchar *out   = cli_output ("fault.png");
  g_autofree gchar *cache = cli_output ("garbage-cache");
  g_autofree gchar *want  = cli_output ("fault-want.png");
  g_autofree gchar *dir   = NULL;
  g_autoptr(GDir)   files = NULL;
  const gchar      *name;
  CliResult         r;
  guint             i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_setenv ("THREADLENS_FAULT", cases[i].fault, TRUE);
      cli_run (&r, "apply", cases[i].filter, good, out, NULL);
      g_unsetenv ("THREADLENS_FAULT");
      g_assert_cmpint (cli_exit_code (&r), ==, 1);
      if (strstr (r.err, cases[i].message) == NULL)
        g_error ("%s failing: stderr does not say '%s':\n%s", cases[i].fault,
                 cases[i].message, r.err);
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
      cli_result_clear (&r);
    }

  /* Fill a cache, overwrite every entry with garbage, run again. */
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
  cli_run (&r, "apply", "edge-sobel", good, want, NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  cli_result_clear (&r);
  dir   = g_build_filename (cache, "programs", NULL);
  files = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (files);
  for (i = 0; (name = g_dir_read_name (files)); i++)
    {
      g_autofree gchar *path = g_build_filename (dir, name, NULL);

      g_assert_true (g_file_set_contents (path, "not a program", -1, NULL));
    }
  g_assert_cmpuint (i, >=, 1);
  cli_run (&r, "apply", "edge-sobel", good, out, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cli_work_dir (), TRUE);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  cli_result_clear (&r);
  {
    g_autofree gchar *a = NULL, *b = NULL;
    gsize             la, lb;

    g_assert_true (g_file_get_contents (want, &a, &la, NULL));
    g_assert_true (g_file_get_contents (out, &b, &lb, NULL));
    g_assert_cmpmem (a, la, b, lb);
  }
}

/* Several processes on one empty program cache at once (a batch script
 * running in parallel): every run succeeds with the same pixels, and the
 * cache they leave is whole: later runs load every entry from it.
 */
static void
test_concurrent_cache (void)
{
  g_autofree gchar *cache  = cli_output ("shared-cache");
  g_autofree gchar *good   = cli_photo ("coffee.png");
  g_autofree gchar *first  = NULL;
  g_auto(GStrv)     envp   = NULL;
  GPid              pids[6];
  gchar            *outs[G_N_ELEMENTS (pids)];
  g_autoptr(GDir)   dir    = NULL;
  g_autofree gchar *programs = NULL;
  const gchar      *name;
  guint             i, n_entries = 0;

  g_mkdir_with_parents (cache, 0700);
  envp = g_environ_setenv (g_get_environ (), "THREADLENS_CACHE_DIR", cache, TRUE);

  for (i = 0; i < G_N_ELEMENTS (pids); i++)
    {
      g_autofree gchar *name_i = g_strdup_printf ("concurrent-%u.png", i);
      /* Two programs, so that writers of different entries meet too. */
      const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply",
                                   i % 2 ? "sepia" : "box-blur", good, NULL, NULL };

      outs[i] = cli_output (name_i);
      argv[4] = outs[i];
      g_assert_true (g_spawn_async (NULL, (gchar **) argv, envp,
                                    G_SPAWN_DO_NOT_REAP_CHILD |
                                    G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                    &pids[i], NULL));
    }
  for (i = 0; i < G_N_ELEMENTS (pids); i++)
    {
      gint status;

      g_assert_cmpint (waitpid (pids[i], &status, 0), ==, pids[i]);
      g_spawn_close_pid (pids[i]);
      if (! g_spawn_check_wait_status (status, NULL))
        g_error ("concurrent run %u failed", i);
    }
  for (i = 2; i < G_N_ELEMENTS (pids); i++)
    {
      g_autofree gchar *a = NULL, *b = NULL;
      gsize             la, lb;

      g_assert_true (g_file_get_contents (outs[i % 2], &a, &la, NULL));
      g_assert_true (g_file_get_contents (outs[i], &b, &lb, NULL));
      g_assert_cmpmem (a, la, b, lb);
    }
  for (i = 0; i < G_N_ELEMENTS (pids); i++)
    g_free (outs[i]);

  /* No temporary files left, and every entry loads (the JSON report
   * counts programs from disk).
   */
  programs = g_build_filename (cache, "programs", NULL);
  dir = g_dir_open (programs, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      /* SHA-256.bin: a half-written temporary would have another name. */
      if (strlen (name) != 64 + 4 || ! g_str_has_suffix (name, ".bin"))
        g_error ("stray file %s in the program cache", name);
      n_entries++;
    }
  g_assert_cmpuint (n_entries, >=, 2);
  {
    const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply", "box-blur",
                                 good, NULL, NULL };
    g_autofree gchar *again  = cli_output ("concurrent-again.png");
    g_autofree gchar *debug  = NULL;
    gint              status;

    argv[4] = again;
    envp = g_environ_setenv (envp, "G_MESSAGES_DEBUG", "ThreadLens", TRUE);
    g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp,
                                 G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                                 &debug, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
    g_assert_null (strstr (debug, "driver refused"));
    g_assert_null (strstr (debug, "damaged entry"));
  }
}

void
cli_faults_add_tests (void)
{
  g_test_add_func ("/cli/no-platform", test_no_platform);
  g_test_add_func ("/cli/concurrent-cache", test_concurrent_cache);
  g_test_add_func ("/cli/driver-faults", test_driver_faults);
}
