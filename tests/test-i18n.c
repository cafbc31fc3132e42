/* ThreadLens tests: the translations (po/).
 *
 * Each catalogue passes msgfmt -c with every message translated and none
 * fuzzy; each holds every message the sources mark; and the command line,
 * run as users run it under LANGUAGE=ja or zh_CN with the build's
 * catalogues (THREADLENS_LOCALEDIR), speaks the language, its own messages
 * and the engine's alike, while the C locale stays English; so do the
 * GEGL module's operations as GEGL and GIMP list them (gegl-titles.c).
 *
 * LANGUAGE only counts outside the C locale, and newer glibc (Debian 13's
 * 2.41) treats C.UTF-8 as C there too: the command line runs under the
 * first locale where a probe catalogue of the test's own translates.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <libintl.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

typedef struct
{
  gint   status;
  gchar *out;
  gchar *err;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

/* Runs ARGV (NULL-terminated) with ENVP, or this environment. */
static void
run (Result       *r,
     const gchar **argv,
     gchar       **envp)
{
  g_autoptr(GError) error = NULL;

  memset (r, 0, sizeof (*r));
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp, G_SPAWN_SEARCH_PATH,
                               NULL, NULL, &r->out, &r->err, &r->status,
                               &error));
  g_assert_no_error (error);
}

static gchar *
po_source (const gchar *file)
{
  return g_test_build_filename (G_TEST_DIST, "..", "po", file, NULL);
}

/* The languages of po/LINGUAS. */
static GStrv
linguas (void)
{
  g_autofree gchar *path = po_source ("LINGUAS");
  g_autofree gchar *text = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray        *result = g_ptr_array_new ();
  g_auto(GStrv)     lines = NULL;
  guint             i;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (i = 0; lines[i]; i++)
    {
      g_strstrip (lines[i]);
      if (lines[i][0] && lines[i][0] != '#')
        g_ptr_array_add (result, g_strdup (lines[i]));
    }
  g_assert_cmpuint (result->len, >, 0);
  g_ptr_array_add (result, NULL);

  return (GStrv) g_ptr_array_free (result, FALSE);
}

static gboolean
have_program (const gchar *name)
{
  g_autofree gchar *path = g_find_program_in_path (name);

  if (path == NULL)
    {
      g_autofree gchar *why = g_strdup_printf ("%s not found (install gettext)", name);

      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

/* msgfmt -c: the header, plural forms and every format string check out,
 * and --statistics counts no untranslated or fuzzy message.
 */
static void
test_catalogues (void)
{
  g_auto(GStrv) languages = linguas ();
  guint         i;

  if (! have_program ("msgfmt"))
    return;

  for (i = 0; languages[i]; i++)
    {
      g_autofree gchar *file = g_strconcat (languages[i], ".po", NULL);
      g_autofree gchar *po   = po_source (file);
      const gchar      *argv[] = { "msgfmt", "-c", "--statistics", "-o",
                                   "/dev/null", po, NULL };
      g_auto(Result)    r = { 0 };

      run (&r, argv, NULL);
      g_test_message ("%s: %s", file, g_strstrip (r.err));
      g_assert_true (g_spawn_check_wait_status (r.status, NULL));
      g_assert_nonnull (strstr (r.err, "translated message"));
      g_assert_null (strstr (r.err, "untranslated"));
      g_assert_null (strstr (r.err, "fuzzy"));
    }
}

/* Every message the sources mark (xgettext over po/POTFILES.in, as the
 * threadlens-pot target runs it) is translated in every catalogue.  When
 * this fails: `meson compile -C _build threadlens-update-po`, then
 * translate what is new in each po/LANG.po.
 */
static void
test_up_to_date (void)
{
  g_auto(GStrv)     languages = linguas ();
  g_autofree gchar *potfiles  = po_source ("POTFILES.in");
  g_autofree gchar *top       = g_test_build_filename (G_TEST_DIST, "..", NULL);
  g_autofree gchar *dir       = NULL;
  g_autofree gchar *pot       = NULL;
  const gchar      *xgettext[] = { "xgettext", "--from-code=UTF-8",
                                   "--keyword=_", "--keyword=N_",
                                   "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
                                   "--keyword=g_dngettext:2,3",
                                   "-D", top, "-f", potfiles, "-o", NULL,
                                   NULL };
  g_auto(Result)    r = { 0 };
  guint             i;

  if (! have_program ("xgettext") || ! have_program ("msgcmp"))
    return;

  dir = g_dir_make_tmp ("threadlens-i18n-XXXXXX", NULL);
  g_assert_nonnull (dir);
  pot = g_build_filename (dir, "threadlens.pot", NULL);
  xgettext[G_N_ELEMENTS (xgettext) - 2] = pot;
  run (&r, xgettext, NULL);
  if (r.err[0])
    g_test_message ("xgettext: %s", r.err);
  g_assert_true (g_spawn_check_wait_status (r.status, NULL));

  for (i = 0; languages[i]; i++)
    {
      g_autofree gchar *file = g_strconcat (languages[i], ".po", NULL);
      g_autofree gchar *po   = po_source (file);
      const gchar      *msgcmp[] = { "msgcmp", po, pot, NULL };
      g_auto(Result)    c = { 0 };

      /* Untranslated and fuzzy entries count as missing. */
      run (&c, msgcmp, NULL);
      if (! g_spawn_check_wait_status (c.status, NULL))
        g_test_message ("%s lacks messages the sources mark:\n%s", file, c.err);
      g_assert_true (g_spawn_check_wait_status (c.status, NULL));
    }

  g_unlink (pot);
  g_rmdir (dir);
}

/* A locale of this system where LANGUAGE picks the catalogue (C.UTF-8,
 * else any installed one but C and POSIX), found with a catalogue of the
 * test's own; NULL if there is none.
 */
static const gchar *
translating_locale (void)
{
  static gsize      done = 0;
  static gchar     *found = NULL;
  g_autofree gchar *dir = NULL, *po = NULL, *mo = NULL, *mo_dir = NULL;
  g_autofree gchar *list = NULL;
  g_auto(GStrv)     names = NULL;
  g_autoptr(GPtrArray) candidates = g_ptr_array_new ();
  const gchar      *msgfmt[] = { "msgfmt", "-o", NULL, NULL, NULL };
  const gchar      *locale_a[] = { "locale", "-a", NULL };
  gchar            *saved;
  g_auto(Result)    r = { 0 };
  guint             i;

  if (! g_once_init_enter (&done))
    return found;

  dir    = g_dir_make_tmp ("threadlens-probe-XXXXXX", NULL);
  po     = g_build_filename (dir, "probe.po", NULL);
  mo_dir = g_build_filename (dir, "ja", "LC_MESSAGES", NULL);
  mo     = g_build_filename (mo_dir, "threadlens-probe.mo", NULL);
  g_mkdir_with_parents (mo_dir, 0700);
  g_assert_true (g_file_set_contents (po,
                                      "msgid \"\"\nmsgstr \"Content-Type: text/plain; "
                                      "charset=UTF-8\\n\"\n\nmsgid \"probe\"\n"
                                      "msgstr \"translated\"\n", -1, NULL));
  msgfmt[2] = mo;
  msgfmt[3] = po;
  run (&r, msgfmt, NULL);
  g_assert_true (g_spawn_check_wait_status (r.status, NULL));

  g_ptr_array_add (candidates, "C.UTF-8");
  if (g_spawn_sync (NULL, (gchar **) locale_a, NULL, G_SPAWN_SEARCH_PATH |
                    G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &list, NULL, NULL,
                    NULL))
    {
      names = g_strsplit (list, "\n", -1);
      for (i = 0; names[i]; i++)
        if (names[i][0] && ! g_str_has_prefix (names[i], "C") &&
            strcmp (names[i], "POSIX") != 0)
          g_ptr_array_add (candidates, names[i]);
    }

  saved = g_strdup (setlocale (LC_ALL, NULL));
  g_setenv ("LANGUAGE", "ja", TRUE);
  bindtextdomain ("threadlens-probe", dir);
  for (i = 0; i < candidates->len && found == NULL; i++)
    if (setlocale (LC_ALL, g_ptr_array_index (candidates, i)) &&
        strcmp (dgettext ("threadlens-probe", "probe"), "translated") == 0)
      found = g_strdup (g_ptr_array_index (candidates, i));
  setlocale (LC_ALL, saved);
  g_free (saved);
  g_unsetenv ("LANGUAGE");

  g_unlink (mo);
  g_rmdir (mo_dir);
  g_clear_pointer (&mo_dir, g_free);
  mo_dir = g_build_filename (dir, "ja", NULL);
  g_rmdir (mo_dir);
  g_unlink (po);
  g_rmdir (dir);

  g_once_init_leave (&done, 1);
  return found;
}

typedef struct
{
  const gchar    *language;
  GUnicodeScript  scripts[2];  /* its messages show one of these */
} Language;

static const Language languages[] =
{
  { "ja",    { G_UNICODE_SCRIPT_HIRAGANA, G_UNICODE_SCRIPT_KATAKANA } },
  { "zh_CN", { G_UNICODE_SCRIPT_HAN,      G_UNICODE_SCRIPT_HAN } },
};

/* TEXT holds a character of LANGUAGE's scripts. */
static gboolean
has_script (const gchar    *text,
            const Language *language)
{
  const gchar *p;

  for (p = text; *p; p = g_utf8_next_char (p))
    {
      GUnicodeScript script = g_unichar_get_script (g_utf8_get_char (p));

      if (script == language->scripts[0] || script == language->scripts[1])
        return TRUE;
    }
  return FALSE;
}

static gboolean
is_ascii (const gchar *text)
{
  const gchar *p;

  for (p = text; *p; p++)
    if (*p & 0x80)
      return FALSE;
  return TRUE;
}

/* threadlens ARGS... under LC_ALL and LANGUAGE, with the build's
 * catalogues.
 */
static void
run_cli (Result       *r,
         const gchar  *lc_all,
         const gchar  *language,
         const gchar **args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv)        envp = g_get_environ ();
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  for (i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  envp = g_environ_setenv (envp, "LC_ALL", lc_all, TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", language, TRUE);
  envp = g_environ_setenv (envp, "THREADLENS_LOCALEDIR",
                           g_getenv ("THREADLENS_PO_DIR"), TRUE);
  run (r, (const gchar **) argv->pdata, envp);
}

static gboolean
have_catalogue (const gchar *language)
{
  g_autofree gchar *mo = g_build_filename (g_getenv ("THREADLENS_PO_DIR"),
                                           language, "LC_MESSAGES",
                                           GETTEXT_PACKAGE ".mo", NULL);

  if (! g_file_test (mo, G_FILE_TEST_EXISTS))
    {
      g_autofree gchar *why = g_strdup_printf ("%s was not built (no msgfmt)", mo);

      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

static void
test_cli (gconstpointer data)
{
  const Language *language = data;
  const gchar    *help[]    = { "--help", NULL };
  const gchar    *unknown[] = { "frobnicate", NULL };
  const gchar    *plan[]    = { "plan", "--size", "64x64", "--simd-width", "32",
                                "--max-threads", "256", "--shape", "0x4", NULL };
  const gchar    *options[] = { "plan", "--help", NULL };
  const gchar    *locale;
  gchar          *line;
  g_auto(Result)  r = { 0 };

  g_assert_nonnull (g_getenv ("THREADLENS_BIN"));
  g_assert_nonnull (g_getenv ("THREADLENS_PO_DIR"));
  if (! have_catalogue (language->language) || ! have_program ("msgfmt"))
    return;
  locale = translating_locale ();
  if (locale == NULL)
    {
      g_test_skip ("no locale here lets LANGUAGE choose a catalogue (this "
                   "glibc ignores it in C.UTF-8 too): install one, e.g. "
                   "ja_JP.UTF-8 or locales-all");
      return;
    }
  g_test_message ("locale %s", locale);

  /* The command line's own text: help, the summaries of the commands. */
  run_cli (&r, locale, language->language, help);
  g_assert_true (g_spawn_check_wait_status (r.status, NULL));
  g_assert_true (g_utf8_validate (r.out, -1, NULL));
  g_assert_true (has_script (r.out, language));
  g_assert_nonnull (strstr (r.out, "threadlens"));
  g_assert_nonnull (strstr (r.out, "THREADLENS_DEVICE"));
  result_clear (&r);

  /* A command's summary and an option's description, through GOption. */
  run_cli (&r, locale, language->language, options);
  g_assert_true (g_spawn_check_wait_status (r.status, NULL));
  g_assert_null (strstr (r.out, "show the dispatch plan"));
  line = strstr (r.out, "--simd-width=P");
  g_assert_nonnull (line);
  line = g_strndup (line, strcspn (line, "\n"));
  g_assert_true (has_script (line, language));
  g_clear_pointer (&line, g_free);
  result_clear (&r);

  /* An error of the command line's own, then one of the engine's (the
   * planner's): both translated, the prefix and the names kept.
   */
  run_cli (&r, locale, language->language, unknown);
  g_assert_cmpint (WEXITSTATUS (r.status), ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "threadlens: "));
  g_assert_true (has_script (r.err, language));
  g_assert_nonnull (strstr (r.err, "frobnicate"));
  result_clear (&r);

  run_cli (&r, locale, language->language, plan);
  g_assert_cmpint (WEXITSTATUS (r.status), ==, 1);
  g_assert_true (g_str_has_prefix (r.err, "threadlens: "));
  g_assert_true (has_script (r.err, language));
  g_assert_nonnull (strstr (r.err, "0x4"));
  result_clear (&r);

  /* The C locale ignores LANGUAGE: what the other tests read stays
   * English, byte for byte.
   */
  run_cli (&r, "C", language->language, unknown);
  g_assert_cmpstr (r.err, ==, "threadlens: unknown command 'frobnicate'\n"
                   "Try 'threadlens --help' for more information.\n");
  result_clear (&r);

  run_cli (&r, "C", language->language, plan);
  g_assert_true (is_ascii (r.err));
  g_assert_nonnull (strstr (r.err, "work-group shape '0x4' is empty"));
}

/* The module's threadlens:median-blur as GEGL shows it under LC_ALL and
 * LANGUAGE: title, description, its radius's nick and blurb.
 */
static void
run_gegl_titles (Result      *r,
                 const gchar *lc_all,
                 const gchar *language)
{
  const gchar   *argv[] = { g_getenv ("THREADLENS_GEGL_TITLES"),
                            g_getenv ("THREADLENS_GEGL_MODULE_DIR"),
                            "threadlens:median-blur", "radius", NULL };
  g_auto(GStrv)  envp   = g_get_environ ();

  envp = g_environ_setenv (envp, "LC_ALL", lc_all, TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", language, TRUE);
  envp = g_environ_setenv (envp, "THREADLENS_LOCALEDIR",
                           g_getenv ("THREADLENS_PO_DIR"), TRUE);
  run (r, argv, envp);
  g_assert_true (g_spawn_check_wait_status (r->status, NULL));
}

static void
test_gegl (gconstpointer data)
{
  const Language *language = data;
  const gchar    *locale;
  g_auto(GStrv)   lines = NULL;
  g_auto(Result)  r = { 0 };
  guint           i;

  g_assert_nonnull (g_getenv ("THREADLENS_GEGL_TITLES"));
  if (! have_catalogue (language->language))
    return;
  locale = translating_locale ();
  if (locale == NULL)
    {
      g_test_skip ("no locale here lets LANGUAGE choose a catalogue (this "
                   "glibc ignores it in C.UTF-8 too): install one, e.g. "
                   "ja_JP.UTF-8 or locales-all");
      return;
    }

  /* Each of the four in the language (the nick, a word or two, may be
   * all kanji in Japanese: not English is what it can show), the title
   * still marked as ThreadLens's.
   */
  run_gegl_titles (&r, locale, language->language);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  for (i = 0; i < 4; i++)
    {
      g_test_message ("%s", lines[i]);
      if (i == 2)
        g_assert_false (is_ascii (lines[i]));
      else
        g_assert_true (has_script (lines[i], language));
    }
  g_assert_nonnull (strstr (lines[0], "ThreadLens"));
  g_clear_pointer (&lines, g_strfreev);
  result_clear (&r);

  /* English in the C locale. */
  run_gegl_titles (&r, "C", language->language);
  lines = g_strsplit (r.out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "Median Blur (ThreadLens)");
  g_assert_cmpstr (lines[2], ==, "Radius");
  g_assert_true (is_ascii (r.out));
}

int
main (int    argc,
      char **argv)
{
  guint i;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/i18n/catalogues", test_catalogues);
  g_test_add_func ("/i18n/up-to-date", test_up_to_date);
  for (i = 0; i < G_N_ELEMENTS (languages); i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/i18n/cli/%s", languages[i].language);

      g_test_add_data_func (path, &languages[i], test_cli);
      g_free (path);
      path = g_strdup_printf ("/i18n/gegl/%s", languages[i].language);
      g_test_add_data_func (path, &languages[i], test_gegl);
    }

  return g_test_run ();
}
