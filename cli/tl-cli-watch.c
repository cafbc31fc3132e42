/* ThreadLens: a long command that the user can watch and stop.
 *
 * Signals are taken by a thread of their own (sigwait), not a handler,
 * so that what it does on one needs no care for async-signal safety.
 * The first SIGINT or SIGTERM asks the run to stop: the engine's watch
 * hears it within TL_RUN_WATCH_MS and the command ends with nothing
 * written.  A device in the middle of a long piece (a CPU at a radius
 * of 1000) cannot let go of it, so after TL_CLI_WATCH_GRACE_MS the
 * thread ends the process itself; only the output's write, which makes
 * a file whole or not at all, is waited for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "tl-cli-watch.h"

/* The progress line's pace (its lines come with the engine's watch, every
 * TL_RUN_WATCH_MS: 450 keeps them within half a second), and how long a
 * run goes before it shows.
 */
#define TL_CLI_WATCH_LINE_MS 450

struct _TlCliWatch
{
  gchar    *message;     /* what a signal's end says, ready to write */
  gchar    *what;
  gboolean  show;
  gboolean  shown;
  gint64    shown_at;
  gint      signal;      /* atomic: the first signal's number, or 0 */
  gint      saving;      /* atomic */
  gint      told;        /* atomic: the message is out */
};

static void
tl_cli_watch_signal_set (sigset_t *set)
{
  sigemptyset (set);
  sigaddset (set, SIGINT);
  sigaddset (set, SIGTERM);
}

/* Says why the command ends, once, whoever gets there first. */
static gboolean
tl_cli_watch_tell (TlCliWatch *watch)
{
  if (! g_atomic_int_compare_and_exchange (&watch->told, 0, 1))
    return FALSE;
  if (watch->shown && write (STDERR_FILENO, "\r\033[K", 4) < 0)
    return TRUE;
  if (write (STDERR_FILENO, watch->message, strlen (watch->message)) < 0)
    return TRUE;
  return TRUE;
}

static gpointer
tl_cli_watch_signals (gpointer data)
{
  TlCliWatch *watch = data;
  sigset_t    set;

  tl_cli_watch_signal_set (&set);
  for (;;)
    {
      gint sig = 0;

      if (sigwait (&set, &sig) != 0)
        continue;
      if (g_atomic_int_compare_and_exchange (&watch->signal, 0, sig))
        {
          struct timespec grace = { 0, TL_CLI_WATCH_GRACE_MS * 1000000L };

          /* The run stops at its next check; a second signal, or the
           * grace gone, ends the process.
           */
          while (sigtimedwait (&set, NULL, &grace) < 0 && errno == EINTR)
            ;
        }
      if (g_atomic_int_get (&watch->saving))
        continue;
      tl_cli_watch_tell (watch);
      _exit (128 + g_atomic_int_get (&watch->signal));
    }
  return NULL;
}

TlCliWatch *
tl_cli_watch_new (const gchar *what,
                  gboolean     show)
{
  TlCliWatch *watch;
  sigset_t    set;

  g_return_val_if_fail (what != NULL, NULL);

  watch = g_new0 (TlCliWatch, 1);
  watch->what = g_strdup (what);
  watch->show = show;
  /* TRANSLATORS: %s is a filter's name; the command ends on Ctrl-C. */
  watch->message = g_strdup_printf (_("threadlens: %s: interrupted; no output "
                                      "was written\n"), what);
  tl_cli_watch_signal_set (&set);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  /* It waits for signals as long as the process lives: never freed. */
  g_thread_unref (g_thread_new ("threadlens-signals", tl_cli_watch_signals,
                                watch));
  return watch;
}

gboolean
tl_cli_watch_progress (const TlProgress *progress,
                       gpointer          data)
{
  TlCliWatch       *watch = data;
  g_autofree gchar *line  = NULL;
  gint64            now;

  if (g_atomic_int_get (&watch->signal))
    return FALSE;
  now = g_get_monotonic_time ();
  if (! watch->show || progress->elapsed_ms < TL_CLI_WATCH_LINE_MS ||
      now - watch->shown_at < TL_CLI_WATCH_LINE_MS * 1000)
    return TRUE;

  if (progress->remaining_ms >= 0.0)
    /* TRANSLATORS: the progress line: a filter's name, the percentage
     * done, the seconds so far and the seconds left.
     */
    line = g_strdup_printf (_("%s: %3.0f%%, %.1f s, about %.0f s left "
                              "(Ctrl-C stops)"), watch->what,
                            100.0 * progress->fraction,
                            progress->elapsed_ms / 1000.0,
                            progress->remaining_ms / 1000.0);
  else
    /* TRANSLATORS: the progress line before there is an estimate: a
     * filter's name and the seconds so far.
     */
    line = g_strdup_printf (_("%s: %.1f s (Ctrl-C stops)"), watch->what,
                            progress->elapsed_ms / 1000.0);
  g_printerr ("\r%s\033[K", line);
  watch->shown    = TRUE;
  watch->shown_at = now;
  return TRUE;
}

void
tl_cli_watch_saving (TlCliWatch *watch)
{
  g_return_if_fail (watch != NULL);

  g_atomic_int_set (&watch->saving, 1);
}

gint
tl_cli_watch_status (TlCliWatch *watch)
{
  gint sig;

  g_return_val_if_fail (watch != NULL, 0);

  sig = g_atomic_int_get (&watch->signal);
  if (sig == 0)
    return 0;
  tl_cli_watch_tell (watch);
  return 128 + sig;
}

void
tl_cli_watch_end (TlCliWatch *watch)
{
  g_return_if_fail (watch != NULL);

  if (watch->shown && ! g_atomic_int_get (&watch->told))
    g_printerr ("\r\033[K");
  watch->shown = FALSE;
}
