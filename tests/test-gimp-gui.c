/* ThreadLens tests: a real interactive run in GIMP with a display (Xvfb).
 * Built twice, like test-gimp.c: TL_GIMP_VERSION 2 or 3.
 *
 * GIMP starts with its user interface on the test's X server, opens a
 * photo in a window and calls the invert procedure with RUN-INTERACTIVE.
 * The test waits for ThreadLens's dialog, photographs the screen, presses
 * Return (OK), checks that the layer was inverted, then presses Ctrl+Z in
 * the image window and checks that one undo step gives the photo back,
 * exactly.  In GIMP 3 a first call comes before: the canvas shows the
 * photo inverted, pixel for pixel, while the dialog is open (the filter
 * previews there, in GIMP's process), Escape cancels, and then the canvas
 * shows the photo, the layer is the photo byte for byte, and Ctrl+Z has
 * nothing to undo.  The script and the test meet through files in a work
 * folder: GIMP's own message boxes would need a click.  GIMP's output
 * goes to a log there, and every failure reports its end.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gimp-session.h"
#include "pixel-compare.h"
#include "tl-image.h"

#if TL_GIMP_VERSION == 2
#define GIMP_DIR_VAR  "GIMP2_DIRECTORY"
#define LOAD(f)       "(car (gimp-file-load RUN-NONINTERACTIVE \"" f "\" \"" f "\"))"
#define LAYER         "(car (gimp-image-get-active-drawable img))"
#define CALL          "(plug-in-threadlens-invert RUN-INTERACTIVE img layer 0 0 \"uniform\" 0 0 \"none\" 0.5 \"\")"
#define SAVE(f)       "(gimp-file-save RUN-NONINTERACTIVE img layer \"" f "\" \"" f "\")"
#define COUNT(f)      "(car (file-glob \"" f "\" 1))"
#else
#define GIMP_DIR_VAR  "GIMP3_DIRECTORY"
#define LOAD(f)       "(car (gimp-file-load RUN-NONINTERACTIVE \"" f "\"))"
#define LAYER         "(vector-ref (car (gimp-image-get-selected-drawables img)) 0)"
#define CALL          "(plug-in-threadlens-invert #:run-mode RUN-INTERACTIVE #:image img #:drawables (vector layer))"
#define SAVE(f)       "(gimp-file-save RUN-NONINTERACTIVE img \"" f "\" -1)"
#define COUNT(f)      "(length (car (file-glob #:pattern \"" f "\" #:filename-encoding TRUE)))"
#endif

/* Waits for the test's file NAME in the work folder. */
#define WAIT_FOR(name) \
  "  (let wait ((n 0))" \
  "    (if (and (< n 5000000) (= 0 " COUNT ("%2$s/" name) "))" \
  "        (wait (+ n 1))))"

#if TL_GIMP_VERSION == 3
/* The call the test cancels after looking at the canvas. */
#define CANCELLED_CALL \
  "  " CALL \
  "  " SAVE ("%2$s/cancelled.png") \
  WAIT_FOR ("cancel-undo-done") \
  "  " SAVE ("%2$s/cancel-undone.png")
#else
#define CANCELLED_CALL ""
#endif

/* %s: the photo, then the work folder (several times). */
#define SCRIPT \
  "(let* ((img " LOAD ("%1$s") ")" \
  "       (layer " LAYER ")" \
  "       (display (car (gimp-display-new img))))" \
  CANCELLED_CALL \
  "  " CALL \
  "  " SAVE ("%2$s/after.png") \
  WAIT_FOR ("undo-done") \
  "  " SAVE ("%2$s/undone.png") \
  "  (gimp-image-clean-all img)" \
  "  (gimp-display-delete display))"

/* GIMP's whole start, with its first query of every plug-in, and the
 * dialog: the whole test takes 13 s here, 18 s with the GIMP 3 suite
 * running beside it.
 */
#define DIALOG_SECONDS 120

static gchar *work_dir;

static gchar *
work_file (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

/* Waits for GIMP to have written the PNG file PATH whole and to have
 * left it alone: the file exists before GIMP has finished writing it, and
 * GIMP then writes it again with its metadata, so on a loaded machine a
 * fixed pause read a truncated or half-rewritten file.  Whole: it ends
 * with PNG's IEND chunk; left alone: neither its size nor its time has
 * changed for a second.
 */
static gboolean
wait_for_file (const gchar *path,
               guint        seconds)
{
  static const guchar iend[] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
                                 0xae, 0x42, 0x60, 0x82 };
  GStatBuf last   = { 0 };
  guint    stable = 0;
  guint    i;

  for (i = 0; i < seconds * 10; i++)
    {
      g_autofree gchar *data = NULL;
      gsize             size = 0;
      GStatBuf          now;

      if (g_stat (path, &now) == 0 &&
          g_file_get_contents (path, &data, &size, NULL) &&
          size >= sizeof iend &&
          memcmp (data + size - sizeof iend, iend, sizeof iend) == 0 &&
          now.st_size == last.st_size && now.st_mtime == last.st_mtime)
        stable++;
      else
        stable = 0;
      if (stable >= 10)
        return TRUE;
      if (g_stat (path, &last) != 0)
        memset (&last, 0, sizeof last);
      g_usleep (100000);
    }
  return FALSE;
}

static gchar *
run_tool (const gchar *command)
{
  gchar *out = NULL;

  if (! g_spawn_command_line_sync (command, &out, NULL, NULL, NULL))
    return g_strdup ("");
  return g_strstrip (out);
}

/* The first visible window whose title contains NAME. */
static gchar *
wait_for_window (const gchar *name,
                 guint        seconds)
{
  g_autofree gchar *command = g_strdup_printf ("xdotool search --onlyvisible --name '%s'", name);
  guint             i;

  for (i = 0; i < seconds * 4; i++)
    {
      gchar *ids = run_tool (command);

      if (*ids)
        {
          gchar *newline = strchr (ids, '\n');

          if (newline)
            *newline = '\0';
          return ids;
        }
      g_free (ids);
      g_usleep (250000);
    }
  return NULL;
}

static void
screenshot (const gchar *name)
{
  g_autofree gchar *path    = work_file (name);
  g_autofree gchar *command = g_strdup_printf ("sh -c 'xwd -root | xwdtopnm 2>/dev/null | pnmtopng > \"%s\"'", path);
  g_autofree gchar *copy    = g_strdup_printf ("/tmp/threadlens-gimp%d-%s", TL_GIMP_VERSION, name);

  g_free (run_tool (command));
  /* Kept where a person can look at it after the run. */
  g_free (run_tool (g_strdup_printf ("cp \"%s\" \"%s\"", path, copy)));
  g_test_message ("screenshot: %s", copy);
}

static gchar *
visible_window_names (void)
{
  return run_tool ("sh -c 'for w in $(xdotool search --onlyvisible --name .); "
                   "do xdotool getwindowname $w; done'");
}

/* What a person needs when GIMP did not do its part: whether it is still
 * running, the windows on the display and the end of its output.
 * Returns whether it is still running (an exited GIMP has been reaped).
 */
static gboolean
report_gimp (GPid         pid,
             const gchar *log)
{
  g_autofree gchar *text    = NULL;
  g_autofree gchar *windows = visible_window_names ();
  gint              status  = 0;
  gsize             length  = 0;

  gboolean          running = waitpid (pid, &status, WNOHANG) != pid;

  if (running)
    g_test_message ("GIMP is still running");
  else
    g_test_message ("GIMP has exited (wait status %d)", status);
  g_test_message ("windows on the display: %s", *windows ? windows : "none");
  if (g_file_get_contents (log, &text, &length, NULL))
    g_test_message ("the end of GIMP's output (%s): %s", log,
                    length > 4000 ? text + length - 4000 : text);
  return running;
}

static GPid
start_gimp (const gchar * const *argv,
            gchar              **envp,
            const gchar         *log)
{
  g_autoptr(GError) error = NULL;
  GPid              pid;
  gint              log_fd = g_open (log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

  g_assert_cmpint (log_fd, >=, 0);
  g_assert_true (g_spawn_async_with_fds (NULL, (gchar **) argv, envp,
                                         G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                         NULL, NULL, &pid, -1, log_fd, log_fd, &error));
  close (log_fd);
  return pid;
}

#if TL_GIMP_VERSION == 3
/* A screenshot NAME as R'G'B'A floats, its size in WIDTH and HEIGHT. */
static gfloat *
screen_pixels (const gchar *name,
               gint        *width,
               gint        *height)
{
  g_autofree gchar  *path = work_file (name);
  g_autoptr(TlImage) shot = NULL;

  screenshot (name);
  shot = tl_image_load (path, NULL);
  g_assert_nonnull (shot);
  *width  = tl_image_get_width (shot);
  *height = tl_image_get_height (shot);
  return tl_image_get_pixels (shot, "R'G'B'A float", NULL);
}

/* Whether pixel P of the screen shows Q (within a level: the canvas
 * shows an sRGB layer on an sRGB display as it is).
 */
static gboolean
shows (const gfloat *p,
       const gfloat *q)
{
  return (fabsf (p[0] - q[0]) <= 1.5f / 255.0f &&
          fabsf (p[1] - q[1]) <= 1.5f / 255.0f &&
          fabsf (p[2] - q[2]) <= 1.5f / 255.0f);
}

/* How many of IMAGE's pixels (IW x IH, R'G'B'A floats) the screen shows
 * at 1:1, where it shows the 16 x 16 of them 32 pixels in from the
 * image's corner (the canvas draws the layer's boundary over its edge);
 * 0 where it shows them nowhere.
 */
#define SHOWN_INSET 32

static gsize
pixels_shown (const gfloat *screen,
              gint          width,
              gint          height,
              const gfloat *image,
              gint          iw,
              gint          ih)
{
  gint x, y, u, v;

  g_assert_cmpint (iw, >, SHOWN_INSET + 16);
  g_assert_cmpint (ih, >, SHOWN_INSET + 16);
  for (y = SHOWN_INSET; y + 16 <= height; y++)
    for (x = SHOWN_INSET; x + 16 <= width; x++)
      {
        gint     left = x - SHOWN_INSET, top = y - SHOWN_INSET;
        gboolean match = TRUE;
        gsize    count = 0;

        for (v = 0; v < 16 && match; v++)
          for (u = 0; u < 16 && match; u++)
            match = shows (screen + 4 * ((gsize) (y + v) * width + x + u),
                           image + 4 * ((gsize) (SHOWN_INSET + v) * iw +
                                        SHOWN_INSET + u));
        if (! match)
          continue;
        for (v = 0; v < ih && top + v < height; v++)
          for (u = 0; u < iw && left + u < width; u++)
            count += shows (screen + 4 * ((gsize) (top + v) * width + left + u),
                            image + 4 * ((gsize) v * iw + u));
        g_test_message ("the screen shows %" G_GSIZE_FORMAT " of its pixels "
                        "from %d,%d", count, left, top);
        return count;
      }
  return 0;
}

/* Waits until screenshot NAME shows IMAGE on the canvas (GIMP renders
 * the canvas in its own time, the first call of an operation building
 * its kernels): at least 20,000 of its pixels, coffee.png's top-left
 * fifth, where GIMP's first zoom shows about 100,000.
 */
static void
wait_for_canvas (const gchar  *name,
                 const gfloat *image,
                 gint          iw,
                 gint          ih)
{
  guint i;

  for (i = 0; i < 60; i++)
    {
      g_autofree gfloat *screen = NULL;
      gint               width, height;

      g_usleep (1000000);
      screen = screen_pixels (name, &width, &height);
      if (pixels_shown (screen, width, height, image, iw, ih) >= 20000)
        return;
    }
  g_error ("the canvas did not show the expected pixels within 60 s "
           "(screenshot %s)", name);
}

/* The first call: the preview on the canvas, then Escape. */
static void
check_cancelled_preview (const gchar *dialog,
                         const gchar *photo,
                         GPid         pid,
                         const gchar *log)
{
  g_autofree gchar  *cancelled = work_file ("cancelled.png");
  g_autofree gchar  *undone    = work_file ("cancel-undone.png");
  g_autofree gchar  *flag      = work_file ("cancel-undo-done");
  g_autofree gchar  *key       = NULL;
  g_autofree gchar  *image     = NULL;
  g_autoptr(TlImage) original  = tl_image_load (photo, NULL);
  g_autofree gfloat *pixels    = NULL;
  g_autofree gfloat *inverted  = NULL;
  gint               iw, ih;
  gsize              i;

  g_assert_nonnull (original);
  iw       = tl_image_get_width (original);
  ih       = tl_image_get_height (original);
  pixels   = tl_image_get_pixels (original, "R'G'B'A float", NULL);
  inverted = g_memdup2 (pixels, sizeof (gfloat) * 4 * iw * ih);
  for (i = 0; i < (gsize) iw * ih; i++)
    {
      inverted[4 * i + 0] = 1.0f - pixels[4 * i + 0];
      inverted[4 * i + 1] = 1.0f - pixels[4 * i + 1];
      inverted[4 * i + 2] = 1.0f - pixels[4 * i + 2];
    }

  /* Xvfb has no window manager: the dialog opens over the image window.
   * The two side by side, the canvas in view, as a user would have them:
   * the dialog over the image window's docks.
   */
  image = wait_for_window ("RGB color", 30);
  g_assert_nonnull (image);
  key = g_strdup_printf ("xdotool windowmove %s 0 0 windowsize %s 1150 1000",
                         image, image);
  g_free (run_tool (key));
  g_free (key);
  key = g_strdup_printf ("xdotool windowmove --sync %s 840 0 windowraise %s",
                         dialog, dialog);
  g_free (run_tool (key));
  wait_for_canvas ("preview-on.png", inverted, iw, ih);

  g_free (key);
  key = g_strdup_printf ("xdotool windowfocus --sync %s key --clearmodifiers Escape", dialog);
  g_free (run_tool (key));
  if (! wait_for_file (cancelled, 60))
    {
      screenshot ("no-cancel.png");
      report_gimp (pid, log);
      g_error ("GIMP did not save the image after Cancel");
    }
  g_assert_cmpfloat (tl_test_pixels_file_difference (cancelled, photo), ==, 0.0);
  /* And the canvas shows the photo again. */
  wait_for_canvas ("cancelled.png", pixels, iw, ih);

  /* The preview's coming and going left no step to undo. */
  g_free (key);
  key = g_strdup_printf ("xdotool windowfocus --sync %s key --clearmodifiers ctrl+z", image);
  g_free (run_tool (key));
  g_usleep (1000000);
  g_assert_true (g_file_set_contents (flag, "", 0, NULL));
  if (! wait_for_file (undone, 60))
    {
      report_gimp (pid, log);
      g_error ("GIMP did not save the image after Ctrl+Z");
    }
  g_assert_cmpfloat (tl_test_pixels_file_difference (undone, photo), ==, 0.0);
}
#endif

static void
test_interactive_run (void)
{
  g_autofree gchar *photo   = g_test_build_filename (G_TEST_DIST, "images", "coffee.png", NULL);
  g_autofree gchar *script  = g_strdup_printf (SCRIPT, photo, work_dir);
  g_autofree gchar *after   = work_file ("after.png");
  g_autofree gchar *undone  = work_file ("undone.png");
  g_autofree gchar *flag    = work_file ("undo-done");
  g_autofree gchar *dialog  = NULL;
  g_autofree gchar *image   = NULL;
  g_autofree gchar *key     = NULL;
  g_autofree gchar *log     = NULL;
  g_auto(GStrv)     envp    = NULL;
  GPid              pid     = 0;
  guint             attempt;
  /* A new instance: otherwise a GIMP already on the session bus (the
   * developer's own) would be handed the script.  Messages go to the
   * log, not to message boxes nobody can click; --verbose names each
   * step of GIMP's start there.
   */
  const gchar      *argv[]  = { tl_test_gimp_gui (TL_GIMP_VERSION),
                                "--no-splash", "--new-instance",
                                "--console-messages", "--verbose",
#if TL_GIMP_VERSION == 3
                                "--batch-interpreter=plug-in-script-fu-eval",
#endif
                                "-b", script,
#if TL_GIMP_VERSION == 2
                                "-b", "(gimp-quit 0)",
#else
                                "--quit",
#endif
                                NULL };

  /* A GIMP of its own, with the GEGL module where GIMP's GEGL loads it
   * (the canvas preview runs there), on the test's display.
   */
  envp = tl_test_gimp_environ (work_dir, "home", "gimp-1", GIMP_DIR_VAR, TRUE);
  envp = g_environ_setenv (envp, "DISPLAY", g_getenv ("DISPLAY"), TRUE);

  /* The dialog: its title names ThreadLens and the filter.  Where GIMP
   * showed no window at all, its start stalled before the script opened
   * the photo's window, let alone called the plug-in: that is said, with
   * its output, and GIMP gets one more start in a fresh folder.  Any
   * other miss fails at once.
   */
  for (attempt = 1; dialog == NULL; attempt++)
    {
      g_autofree gchar *name    = g_strdup_printf ("gimp-%u", attempt);
      g_autofree gchar *gimpdir = work_file (name);
      g_autofree gchar *windows = NULL;
      gboolean          running;

      g_free (log);
      log  = g_strdup_printf ("%s.log", gimpdir);
      envp = g_environ_setenv (envp, GIMP_DIR_VAR, gimpdir, TRUE);
      pid  = start_gimp (argv, envp, log);
      dialog = wait_for_window ("ThreadLens", DIALOG_SECONDS);
      if (dialog != NULL)
        break;
      screenshot ("no-dialog.png");
      windows = visible_window_names ();
      running = report_gimp (pid, log);
      if (attempt > 1 || *windows)
        g_error ("no ThreadLens dialog appeared within %d s", DIALOG_SECONDS);
      g_test_message ("GIMP showed no window within %d s; starting it once more",
                      DIALOG_SECONDS);
      if (running)
        {
          kill (pid, SIGKILL);
          waitpid (pid, NULL, 0);
        }
      g_spawn_close_pid (pid);
    }
  /* The pointer out of the way: without a compositor its tooltip would
   * be a black box in the picture.
   */
  g_free (run_tool ("xdotool mousemove 1919 1079"));
#if TL_GIMP_VERSION == 3
  check_cancelled_preview (dialog, photo, pid, log);
  g_free (dialog);
  dialog = wait_for_window ("ThreadLens", DIALOG_SECONDS);
  if (dialog == NULL)
    {
      report_gimp (pid, log);
      g_error ("no second ThreadLens dialog appeared");
    }
#endif
  g_usleep (4000000);     /* the preview's first render */
  screenshot ("dialog.png");
  /* Xvfb has no window manager: focus the window directly, then OK by
   * its mnemonic, as a keyboard user would.
   */
  key = g_strdup_printf ("xdotool windowfocus --sync %s key --clearmodifiers alt+o", dialog);
  g_free (run_tool (key));

  if (! wait_for_file (after, 60))
    {
      screenshot ("no-result.png");
      report_gimp (pid, log);
      g_error ("GIMP did not save the filtered image");
    }
  g_assert_cmpfloat (tl_test_pixels_file_difference (after, photo), >, 0.5);

  /* One Ctrl+Z in the image window undoes the whole filter.  The window
   * title describes the image ("... RGB color 8-bit ..."); GIMP 3 calls
   * an image loaded by a script [Untitled].
   */
  image = wait_for_window ("RGB color", 30);
  if (image == NULL)
    {
      report_gimp (pid, log);
      g_error ("no image window to press Ctrl+Z in");
    }
  g_free (key);
  key = g_strdup_printf ("xdotool windowfocus --sync %s key --clearmodifiers ctrl+z", image);
  g_free (run_tool (key));
  g_usleep (1000000);
  screenshot ("undone.png");
  g_assert_true (g_file_set_contents (flag, "", 0, NULL));

  if (! wait_for_file (undone, 60))
    {
      report_gimp (pid, log);
      g_error ("GIMP did not save the image after undo");
    }
  /* GIMP quits after the save: the file is complete then. */
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
  g_assert_cmpfloat (tl_test_pixels_file_difference (undone, photo), ==, 0.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  const gchar      *tools[] = { "xdotool", "xwd", "xwdtopnm", "pnmtopng" };
  guint             i;

  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("TL_GIMP_PLUGIN") != NULL && g_getenv ("DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no X display (xvfb-run is missing)\n");
      return 0;
    }
  if (! tl_test_gimp_can_run (TL_GIMP_VERSION, tl_test_gimp_gui (TL_GIMP_VERSION)))
    return 0;
  for (i = 0; i < G_N_ELEMENTS (tools); i++)
    if (g_find_program_in_path (tools[i]) == NULL)
      {
        g_print ("1..0 # SKIP %s is not installed\n", tools[i]);
        return 0;
      }

  work_dir = g_dir_make_tmp ("threadlens-gimp-gui-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);

  g_test_add_func ("/gimp-gui/interactive-run-and-undo", test_interactive_run);
  return g_test_run ();
}
