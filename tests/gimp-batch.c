/* ThreadLens tests: test-gimp's checks run in headless GIMP, exactly as a
 * batch user runs them (see gimp-batch.h).  The script-fu for each GIMP
 * (positional arguments in 2.10, named ones in 3) is generated from the
 * registry's argument list, so both hosts face the same checks.  Markers
 * (TL-BEGIN, TL-OK, TL-CALL-FAILED through gimp-message) and the saved
 * files are what the tests read: GIMP 2.10's batch mode always exits 0.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "gimp-batch.h"
#include "gimp-session.h"
#include "tl-filter.h"
#include "tl-host.h"

static gchar   *work_dir;
static GString *gimp_log;

gchar *
gimp_batch_photo (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "images", name, NULL);
}

gchar *
gimp_batch_work_file (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

gchar *
gimp_batch_output (const GimpCheck *check)
{
  g_autofree gchar *name = g_strconcat ("gimp-", check->name, ".png", NULL);

  return gimp_batch_work_file (name);
}

gchar *
gimp_batch_map_output (const GimpCheck *check)
{
  g_autofree gchar *name = g_strconcat ("gimp-", check->name, "-map.png", NULL);

  return gimp_batch_work_file (name);
}

static const gchar *
check_value (const GimpCheck *check,
             const gchar     *arg,
             GHashTable      *given)
{
  return g_hash_table_lookup (given, arg);
}

/* The procedure call for this GIMP: 2.10 takes every argument in order
 * (defaults for those the check leaves out), 3 takes named arguments.
 */
static void
append_call (GString         *script,
             const GimpCheck *check)
{
  const TlFilter       *filter = check->filter ? tl_filter_lookup (check->filter, NULL) : NULL;
  g_autoptr(GHashTable) given  = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                        g_free, g_free);
  g_auto(GStrv)         pairs  = g_strsplit (check->args, ";", -1);
  TlHostArg            *args;
  guint                 n_args, i;

  g_assert_true (filter != NULL || check->filter == NULL);
  for (i = 0; pairs[i]; i++)
    {
      gchar *equals = strchr (pairs[i], '=');

      if (equals)
        g_hash_table_insert (given, g_strndup (pairs[i], equals - pairs[i]),
                             g_strdup (equals + 1));
    }

#if TL_GIMP_VERSION == 3
  if (g_strcmp0 (check->run_mode, "IN-CORE") == 0)
    {
      g_string_append_printf (script, "(gimp-drawable-merge-new-filter layer "
                              "\"threadlens:%s\" 0 LAYER-MODE-REPLACE 1.0",
                              check->filter ? check->filter : "thread-map");
      args = filter ? tl_host_arguments (filter, &n_args) :
                      tl_host_map_operation_arguments (&n_args);
      for (i = 0; i < n_args; i++)
        {
          const gchar *value = check_value (check, args[i].name, given);

          if (value == NULL)
            continue;
          if (args[i].type == TL_HOST_ARG_STRING)
            g_string_append_printf (script, " \"%s\" \"%s\"", args[i].name, value);
          else
            g_string_append_printf (script, " \"%s\" %s", args[i].name, value);
        }
      tl_host_arguments_free (args);
      g_string_append (script, ")");
      return;
    }
#endif

#if TL_GIMP_VERSION == 2
  g_string_append_printf (script, "(plug-in-threadlens-%s %s img layer",
                          check->filter ? check->filter : "thread-map",
                          check->run_mode);
#else
  g_string_append_printf (script, "(plug-in-threadlens-%s #:run-mode %s "
                          "#:image img #:drawables (vector layer)",
                          check->filter ? check->filter : "thread-map",
                          check->run_mode);
#endif

  args = tl_host_arguments (filter, &n_args);
  for (i = 0; i < n_args; i++)
    {
      const gchar *value = check_value (check, args[i].name, given);

#if TL_GIMP_VERSION == 3
      if (value == NULL)
        continue;
      g_string_append_printf (script, " #:%s", args[i].name);
#endif
      g_string_append_c (script, ' ');
      if (args[i].type == TL_HOST_ARG_STRING)
        g_string_append_printf (script, "\"%s\"", value ? value : args[i].default_text);
      else if (value)
        g_string_append (script, value);
      else if (args[i].type == TL_HOST_ARG_DOUBLE)
        g_string_append_printf (script, "%.6f", args[i].default_number);
      else
        g_string_append_printf (script, "%d", (gint) args[i].default_number);
    }
  tl_host_arguments_free (args);
#if TL_GIMP_VERSION == 3
  /* GIMP 3's own argument, after the shared ones. */
  if (g_hash_table_lookup (given, "non-destructive"))
    g_string_append_printf (script, " #:non-destructive %s",
                            (const gchar *) g_hash_table_lookup (given, "non-destructive"));
#endif
  g_string_append (script, ")");
}

static void
append_check (GString         *script,
              const GimpCheck *check)
{
  g_autofree gchar *in  = gimp_batch_photo (check->photo);
  g_autofree gchar *out = gimp_batch_output (check);

#if TL_GIMP_VERSION == 2
  g_string_append_printf (script,
    "(tl-check \"%s\" (lambda ()\n"
    "  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"%s\" \"%s\")))\n"
    "         (layer (car (gimp-image-get-active-drawable img))))\n",
    check->name, in, in);
#else
  g_string_append_printf (script,
    "(tl-check \"%s\" (lambda ()\n"
    "  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"%s\")))\n"
    "         (layer (vector-ref (car (gimp-image-get-selected-drawables img)) 0)))\n",
    check->name, in);
#endif
  if (check->before)
    g_string_append_printf (script, "    %s\n", check->before);
  /* A failed call must leave no undo step: the image stays clean. */
  g_string_append (script, "    (gimp-image-clean-all img)\n");
  g_string_append (script, "    (catch (gimp-message \"TL-CALL-FAILED\")\n      ");
  append_call (script, check);
  g_string_append (script, ")\n");
  g_string_append (script, "    (gimp-message (if (member (car (gimp-image-is-dirty img)) '(0 #f))"
                           " \"TL-CLEAN\" \"TL-DIRTY\"))\n");
  if (check->expect == EXPECT_OVERLAY)
    {
      g_autofree gchar *map = gimp_batch_map_output (check);

#if TL_GIMP_VERSION == 2
      g_string_append_printf (script,
        "    (gimp-file-save RUN-NONINTERACTIVE img " TOP_LAYER " \"%s\" \"%s\")\n",
        map, map);
#else
      /* The map layer alone: the filtered layer hidden while saving. */
      g_string_append_printf (script,
        "    (gimp-item-set-visible layer FALSE)\n"
        "    (gimp-file-save RUN-NONINTERACTIVE img \"%s\" -1)\n"
        "    (gimp-item-set-visible layer TRUE)\n", map);
#endif
    }
  if (check->after)
    g_string_append_printf (script, "    %s\n", check->after);
#if TL_GIMP_VERSION == 2
  g_string_append_printf (script,
    "    (gimp-file-save RUN-NONINTERACTIVE img layer \"%s\" \"%s\")\n", out, out);
#else
  g_string_append_printf (script,
    "    (gimp-file-save RUN-NONINTERACTIVE img \"%s\" -1)\n", out);
#endif
  g_string_append (script, "    (gimp-image-delete img))))\n");
}

/* KILL_PLUG_IN's killer: the plug-in's process (its program in this
 * run's folder, so no other GIMP's) ended with SIGKILL a while after it
 * is first seen, as GIMP's progress cancel ends it.
 */
typedef struct
{
  gdouble after_s;
  gint    killed;       /* atomic: the pid killed, 0 none yet */
  gint    stop;         /* atomic: GIMP has ended */
} Killer;

static GPid
find_plug_in (void)
{
  g_autoptr(GDir) proc   = g_dir_open ("/proc", 0, NULL);
  g_autofree gchar *path = g_build_filename (work_dir, "plug-ins",
                                             "gimp-threadlens",
                                             "gimp-threadlens", NULL);
  const gchar    *name;

  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree gchar *file    = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree gchar *cmdline = NULL;

      if (g_ascii_isdigit (name[0]) &&
          g_file_get_contents (file, &cmdline, NULL, NULL) &&
          g_str_equal (cmdline, path))
        return atoi (name);
    }
  return 0;
}

static gpointer
kill_plug_in (gpointer data)
{
  Killer *killer = data;
  gint64  seen   = 0;

  while (! g_atomic_int_get (&killer->stop))
    {
      GPid pid = find_plug_in ();

      if (pid && seen == 0)
        seen = g_get_monotonic_time ();
      if (pid && g_get_monotonic_time () - seen >= killer->after_s * 1e6)
        {
          kill (pid, SIGKILL);
          g_atomic_int_set (&killer->killed, pid);
          return NULL;
        }
      g_usleep (20000);
    }
  return NULL;
}

gboolean
gimp_batch_run (const gchar *env)
{
  g_autoptr(GString) script   = g_string_new ("(begin\n");
  g_autoptr(GError)  error    = NULL;
  /* Without the GEGL module: a home of its own, which has none. */
  gboolean           module   = g_strcmp0 (env, NO_MODULE) != 0;
  g_autofree gchar  *out      = NULL;
  g_autofree gchar  *log      = NULL;
  g_auto(GStrv)      envp     = NULL;
  GPtrArray         *argv     = g_ptr_array_new ();
  GPtrArray         *registry = gimp_checks_registry ();
  Killer             killer   = { 0.0, 0, 0 };
  GThread           *killing  = NULL;
  const GimpCheck   *checks;
  gint               status;
  guint              n_checks, i;

  checks = gimp_checks_table (&n_checks);
  envp = tl_test_gimp_environ (work_dir, module ? "home" : "home-no-module",
                               module ? "gimp" : "gimp-no-module",
                               GIMP_DIR_VAR, module);
  if (env && module)
    {
      g_auto(GStrv)     pair  = g_strsplit (env, "=", 2);
      g_autofree gchar *value = NULL;

      if (g_str_equal (pair[1], "@empty"))
        value = gimp_batch_work_file ("empty");
      else if (g_str_equal (pair[1], "@corrupt"))
        value = gimp_batch_work_file ("corrupt-cache");
      else
        value = g_strdup (pair[1]);
      envp = g_environ_setenv (envp, pair[0], value, TRUE);
      if (g_str_equal (pair[0], KILL_PLUG_IN))
        {
          killer.after_s = g_ascii_strtod (value, NULL);
          killing = g_thread_new ("kill-plug-in", kill_plug_in, &killer);
        }
    }

#if TL_GIMP_VERSION == 3
  /* What a batch user sees of a failed call: script-fu's error,
   * "Procedure execution of PROC failed: MESSAGE".  GIMP 3.0 also logs
   * the message itself ("Calling error for procedure"); 3.2 leaves it to
   * the caller, and the checks' catch would swallow it.  So the error
   * goes into the log on its way to the catch, on both.
   */
  g_string_append (script,
    "(define tl-throw throw)\n"
    "(define (*error-hook* . args)\n"
    "  (if (and (pair? args) (string? (car args)))\n"
    "      (gimp-message (string-append \"TL-ERROR \" (car args))))\n"
    "  (apply tl-throw args))\n");
#endif
  g_string_append (script,
    "(define (tl-check name thunk)\n"
    "  (gimp-message (string-append \"TL-BEGIN \" name))\n"
    "  (catch (gimp-message (string-append \"TL-BROKE \" name))\n"
    "    (thunk)\n"
    "    (gimp-message (string-append \"TL-OK \" name))))\n");
  for (i = 0; i < n_checks; i++)
    if (g_strcmp0 (checks[i].env, env) == 0)
      append_check (script, &checks[i]);
  for (i = 0; i < registry->len; i++)
    {
      const GimpCheck *check = g_ptr_array_index (registry, i);

      if (g_strcmp0 (check->env, env) == 0)
        append_check (script, check);
    }
  g_string_append (script, ")\n");

  g_ptr_array_add (argv, (gpointer) tl_test_gimp_console (TL_GIMP_VERSION));
  g_ptr_array_add (argv, "-i");
#if TL_GIMP_VERSION == 3
  g_ptr_array_add (argv, "--batch-interpreter=plug-in-script-fu-eval");
#endif
  g_ptr_array_add (argv, "-b");
  g_ptr_array_add (argv, script->str);
#if TL_GIMP_VERSION == 2
  g_ptr_array_add (argv, "-b");
  g_ptr_array_add (argv, "(gimp-quit 0)");
#else
  g_ptr_array_add (argv, "--quit");
#endif
  g_ptr_array_add (argv, NULL);

  if (! g_spawn_sync (NULL, (gchar **) argv->pdata, envp, G_SPAWN_SEARCH_PATH,
                      NULL, NULL, &out, &log, &status, &error))
    g_error ("cannot run %s: %s", tl_test_gimp_console (TL_GIMP_VERSION),
             error->message);
  g_ptr_array_unref (argv);
  g_test_message ("GIMP (%s) said:\n%s", env ? env : "plain", log);
  if (killing)
    {
      g_atomic_int_set (&killer.stop, 1);
      g_thread_join (killing);
      if (! g_atomic_int_get (&killer.killed))
        g_error ("%s: the plug-in's process was never seen", env);
      g_test_message ("the plug-in's process %d was killed after %g s",
                      g_atomic_int_get (&killer.killed), killer.after_s);
    }

#if TL_GIMP_VERSION == 3
  /* GIMP 3 exits with the batch status. */
  if (! g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s\n%s", tl_test_gimp_console (TL_GIMP_VERSION),
             error->message, log);
#endif
  g_string_append (gimp_log, log);
  return TRUE;
}

gchar *
gimp_batch_line_with (const gchar *log,
                      const gchar *text)
{
  const gchar *at;

  for (at = strstr (log, text); at; at = strstr (at + 1, text))
    {
      const gchar      *start, *end;
      g_autofree gchar *line = NULL;

      for (start = at; start > log && start[-1] != '\n'; start--)
        ;
      end  = strchr (at, '\n');
      line = end ? g_strndup (start, end - start) : g_strdup (start);
      if (! strstr (line, "TL-BEGIN ") && ! strstr (line, "TL-OK ") &&
          ! strstr (line, "TL-BROKE "))
        return g_steal_pointer (&line);
    }
  return NULL;
}

gboolean
gimp_batch_log_says (const gchar *log,
                     const gchar *text)
{
  g_autofree gchar *line = gimp_batch_line_with (log, text);

  return line != NULL;
}

const gchar *
gimp_batch_log (void)
{
  return gimp_log->str;
}

gchar *
gimp_batch_check_log (const GimpCheck *check)
{
  g_autofree gchar *begin = g_strconcat ("TL-BEGIN ", check->name, "\n", NULL);
  const gchar      *start = strstr (gimp_log->str, begin);
  const gchar      *end;

  if (start == NULL)
    g_error ("check %s did not run:\n%s", check->name, gimp_log->str);
  end = strstr (start + strlen (begin), "TL-BEGIN ");
  return end ? g_strndup (start, end - start) : g_strdup (start);
}

/* A program cache whose every entry is garbage: the command line fills
 * it, then each file is overwritten.
 */
static void
prepare_corrupt_cache (void)
{
  g_autofree gchar *dir    = gimp_batch_work_file ("corrupt-cache");
  g_autofree gchar *in     = gimp_batch_photo ("coffee.png");
  g_autofree gchar *out    = gimp_batch_work_file ("cache-fill.png");
  g_autofree gchar *find   = NULL;
  g_autofree gchar *files  = NULL;
  const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply", "edge-sobel",
                               in, out, NULL };
  g_auto(GStrv)     envp   = g_environ_setenv (g_get_environ (),
                                               "THREADLENS_CACHE_DIR", dir, TRUE);
  g_auto(GStrv)     paths  = NULL;
  gint              status;
  guint             i, n = 0;

  g_mkdir_with_parents (dir, 0700);
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp,
                               G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  find = g_strdup_printf ("find %s -type f", dir);
  g_assert_true (g_spawn_command_line_sync (find, &files, NULL, &status, NULL));
  paths = g_strsplit (files, "\n", -1);
  for (i = 0; paths[i]; i++)
    if (*paths[i] && g_file_set_contents (paths[i], "not a program", -1, NULL))
      n++;
  g_assert_cmpuint (n, >=, 1);
}

void
gimp_batch_init (void)
{
  work_dir = g_dir_make_tmp ("threadlens-gimp-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  gimp_log = g_string_new (NULL);
  prepare_corrupt_cache ();
}
