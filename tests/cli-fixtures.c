/* ThreadLens tests: what the parts of test-cli share (see
 * cli-fixtures.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/wait.h>
#include <string.h>

#include "cli-fixtures.h"

static gchar *work_dir;

void
cli_result_clear (CliResult *r)
{
  g_free (r->out);
  g_free (r->err);
}

void
cli_init (void)
{
  g_autoptr(GError) error = NULL;

  work_dir = g_dir_make_tmp ("threadlens-cli-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
}

void
cli_clear (void)
{
  g_clear_pointer (&work_dir, g_free);
}

const gchar *
cli_work_dir (void)
{
  return work_dir;
}

void
cli_run (CliResult   *r,
         const gchar *first,
         ...)
{
  g_autoptr(GPtrArray) argv  = g_ptr_array_new ();
  g_autoptr(GError)    error = NULL;
  const gchar         *bin   = g_getenv ("THREADLENS_BIN");
  const gchar         *arg;
  va_list              args;

  g_assert_nonnull (bin);
  g_ptr_array_add (argv, (gpointer) bin);
  va_start (args, first);
  for (arg = first; arg; arg = va_arg (args, const gchar *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  memset (r, 0, sizeof (*r));
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &r->out, &r->err, &r->status, &error));
  g_assert_no_error (error);
}

gint
cli_exit_code (const CliResult *r)
{
  /* A crash is never a success: the shell's 128 + signal. */
  if (WIFSIGNALED (r->status))
    return 128 + WTERMSIG (r->status);
  return g_spawn_check_wait_status (r->status, NULL) ? 0 : WEXITSTATUS (r->status);
}

gchar *
cli_photo (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "images", name, NULL);
}

gchar *
cli_output (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

JsonObject *
cli_parse_object (JsonParser  *parser,
                  const gchar *text)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

gpointer
cli_load_stored (const gchar *path,
                 const Babl  *format,
                 guint       *width,
                 guint       *height,
                 const Babl **file_format)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) image = tl_image_load (path, &error);

  g_assert_no_error (error);
  *width  = tl_image_get_width (image);
  *height = tl_image_get_height (image);
  if (file_format)
    *file_format = tl_image_get_format (image);
  return tl_image_get_stored (image, format, NULL);
}

gpointer
cli_reference (const TlFilter *filter,
               const TlValue  *values,
               const TlCodec  *codec,
               gconstpointer   in,
               guint           w,
               guint           h)
{
  gpointer want   = g_malloc ((gsize) w * h * tl_codec_get_pixel_size (codec));
  TlPixels pixels = { 0, };

  pixels.width  = w;
  pixels.height = h;
  pixels.codec  = codec;
  pixels.in     = in;
  pixels.out    = want;
  g_assert_true (tl_filter_reference (filter, values, &pixels, NULL));
  return want;
}

