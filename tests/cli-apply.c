/* ThreadLens tests: threadlens apply: its files against the C reference
 * on each photo, in the file's own depth and channels; bad input refused
 * with the problem named and no file written; images of one pixel, one
 * column and one row; an indexed file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <sys/wait.h>
#include <string.h>

#include "cli-fixtures.h"
#include "pixel-compare.h"

/* apply matches the C reference on each photo, keeps alpha and depth,
 * and moves the file's own depth to the device.
 */
static void
test_apply (void)
{
  const struct
  {
    const gchar *photo;
    const gchar *out;
    const gchar *filter;
    const gchar *setting;
    const gchar *storage;
  } cases[] =
  {
    { "astronaut.png", "astronaut-invert.png", "invert", "--pixels-per-item=1", "u8" },
    { "logo.png", "logo-matrix.png", "color-matrix",
      "--set=matrix=0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,1", "u8" },
    { "chessboard_GRAY_U16.tif", "chessboard-invert.tif", "invert", "--swizzle=3", "u16" },
    { "coffee.png", "coffee-blur.png", "gaussian-blur", "--set=std-dev=3", "u8" },
    { "coffee.png", "coffee-sobel.png", "edge-sobel", "--pixels-per-item=3", "u8" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const TlFilter    *filter   = tl_filter_lookup (cases[i].filter, NULL);
      g_autofree gchar  *in_path  = cli_photo (cases[i].photo);
      g_autofree gchar  *out_path = cli_output (cases[i].out);
      g_autofree TlValue *values  = tl_filter_default_values (filter);
      g_autofree gpointer in = NULL, got = NULL, want = NULL;
      g_autoptr(TlImage) image = tl_image_load (in_path, NULL);
      g_autoptr(TlCodec) codec = NULL;
      g_autofree gchar  *storage = NULL;
      const Babl        *in_format, *out_format;
      g_auto(CliResult)  r;
      guint              w, h, w2, h2;
      gdouble            worst;

      cli_run (&r, "apply", cases[i].filter, cases[i].setting, "--mode",
               "emulated", "--shape", "7x5", in_path, out_path, NULL);
      if (cli_exit_code (&r) != 0)
        g_error ("apply %s: %s", cases[i].photo, r.err);
      g_assert_nonnull (strstr (r.out, "work-group    7 x 5"));
      storage = g_strdup_printf ("storage       %s, ", cases[i].storage);
      g_assert_nonnull (strstr (r.out, storage));

      if (g_str_has_prefix (cases[i].setting, "--set="))
        g_assert_true (tl_filter_parse_assignment (filter, values,
                                                   cases[i].setting + 6, NULL));

      /* The reference on the same stored pixels, decoded and encoded as
       * the kernels do.
       */
      codec = tl_codec_new (tl_image_get_format (image), filter->format, NULL);
      g_assert_cmpstr (tl_codec_storage_name (tl_codec_get_storage (codec)), ==,
                       cases[i].storage);
      in  = cli_load_stored (in_path, tl_codec_get_format (codec), &w, &h, &in_format);
      got = cli_load_stored (out_path, tl_codec_get_format (codec), &w2, &h2, &out_format);
      g_assert_cmpuint (w, ==, w2);
      g_assert_cmpuint (h, ==, h2);
      /* Same bit depth and channels as the input. */
      g_assert_cmpstr (babl_get_name (babl_format_get_type (out_format, 0)), ==,
                       babl_get_name (babl_format_get_type (in_format, 0)));
      g_assert_cmpint (babl_format_get_n_components (out_format), ==,
                       babl_format_get_n_components (in_format));

      want = cli_reference (filter, values, codec, in, w, h);

      /* Point filters match exactly; stencils equal their references
       * within 1e-5 before rounding, so a code may flip by one.
       */
      worst = tl_test_pixels_stored_difference (codec, want, got,
                                                (gsize) w * h * 4, NULL);
      if (worst > (tl_filter_halo (filter, values) > 0 ? 1.0 : 0.0))
        g_error ("%s: file differs from the reference by %g codes",
                 cases[i].out, worst);
    }
}

/* Bad input: one line on stderr naming the problem, exit 1 or 2, and no
 * output file.
 */
static void
test_bad_input (void)
{
  g_autofree gchar *good      = cli_photo ("coffee.png");
  g_autofree gchar *out       = cli_output ("must-not-exist.png");
  g_autofree gchar *truncated = cli_output ("truncated.png");
  g_autofree gchar *text      = cli_output ("not-an-image.png");
  g_autofree gchar *data      = NULL;
  gsize             length;
  const struct
  {
    const gchar *args[10];
    const gchar *message;
  } cases[] =
  {
    { { "apply", "sharpen", good, out }, "unknown filter 'sharpen'" },
    { { "apply", "invert", "--set", "gain=2", good, out }, "no parameter 'gain'" },
    { { "apply", "gaussian-blur", "--set", "std-dev=-3", good, out }, "out of range" },
    { { "apply", "gaussian-blur", "--set", "std-dev=abc", good, out }, "not a number" },
    { { "apply", "invert", "--shape", "32by8", good, out }, "bad work-group shape '32by8'" },
    { { "apply", "invert", "--shape", "0x8", good, out }, "empty" },
    { { "apply", "invert", "--shape", "4096x4096", good, out }, "maximum work-group size" },
    { { "apply", "invert", "--mode", "sideways", good, out }, "unknown dispatch mode 'sideways'" },
    { { "apply", "invert", "--device", "no-such-device", good, out }, "no OpenCL device matches 'no-such-device'" },
    { { "apply", "invert", "--device", "42", good, out }, "no OpenCL device number 42" },
    { { "apply", "invert", "--swizzle", "-2", good, out }, "--swizzle -2" },
    { { "apply", "invert", "/nonexistent/photo.png", out }, "/nonexistent/photo.png" },
    { { "apply", "invert", truncated, out }, "truncated.png" },
    { { "apply", "invert", text, out }, "not-an-image.png" },
    { { "apply", "invert", good, "/nonexistent-dir/out.png" }, "/nonexistent-dir/out.png" },
    { { "apply", "invert", good }, "apply needs FILTER IN OUT" },
    { { "plan", "--size", "10x10" }, "--device" },
    { { "plan", "--size", "ten", "--simd-width", "8", "--max-threads", "64" }, "bad region size 'ten'" },
    { { "plan", "--size", "10x10", "--simd-width", "8", "--max-threads", "64",
        "--storage", "u8" }, "--storage needs --device" },
    { { "plan", "--size", "10x10", "--device", "0", "--storage", "f32" },
      "unknown storage 'f32'" },
  };
  guint i;

  g_assert_true (g_file_get_contents (good, &data, &length, NULL));
  g_assert_true (g_file_set_contents (truncated, data, length / 3, NULL));
  g_assert_true (g_file_set_contents (text, "hello, not a PNG\n", -1, NULL));

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();
      g_autoptr(GError)    error = NULL;
      const gchar         *bin  = g_getenv ("THREADLENS_BIN");
      g_autofree gchar    *out_text = NULL, *err_text = NULL;
      gint                 status;
      guint                j;

      g_ptr_array_add (argv, (gpointer) bin);
      for (j = 0; cases[i].args[j]; j++)
        g_ptr_array_add (argv, (gpointer) cases[i].args[j]);
      g_ptr_array_add (argv, NULL);

      g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0,
                                   NULL, NULL, &out_text, &err_text, &status,
                                   &error));
      if (g_spawn_check_wait_status (status, NULL))
        g_error ("case %u (%s) succeeded but should fail", i, cases[i].message);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), >=, 1);
      g_assert_cmpint (WEXITSTATUS (status), <=, 2);
      if (strstr (err_text, cases[i].message) == NULL)
        g_error ("case %u: stderr does not name the problem '%s':\n%s", i,
                 cases[i].message, err_text);
      g_assert_true (g_str_has_prefix (err_text, "threadlens"));
      g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
    }
}

/* Images of one pixel, one column and one row: each stencil filter of the
 * registry (a halo at its defaults) runs and matches its C reference on
 * the same stored pixels.
 */
static void
test_thin_images (void)
{
  static const guint        sizes[][2] = { { 1, 1 }, { 1, 37 }, { 53, 1 } };
  g_autofree gchar         *good       = cli_photo ("coffee.png");
  const TlFilter *const    *filters;
  guint                     n_filters, i, f;

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (f = 0; f < n_filters; f++)
      {
        g_autoptr(GError)   error  = NULL;
        g_autoptr(TlImage)  image  = NULL;
        g_autoptr(TlImage)  crop   = NULL;
        g_autoptr(TlCodec)  codec  = NULL;
        const TlFilter     *filter = filters[f];
        g_autofree TlValue *values = tl_filter_default_values (filter);
        GeglRectangle       rect   = { 290, 190, sizes[i][0], sizes[i][1] };
        g_autofree gchar   *name   = g_strdup_printf ("thin-%ux%u.png", sizes[i][0], sizes[i][1]);
        g_autofree gchar   *out_name = g_strdup_printf ("thin-%u-%s.png", i, filter->name);
        g_autofree gchar   *path   = cli_output (name);
        g_autofree gchar   *out    = cli_output (out_name);
        g_autofree gpointer in = NULL, got = NULL, want = NULL;
        CliResult           r;
        guint               w, h;

        if (tl_filter_halo (filter, values) == 0)
          continue;
        image = tl_image_load (good, &error);
        g_assert_no_error (error);
        crop = tl_image_new_from_buffer (tl_image_get_buffer (image), &rect);
        g_assert_true (tl_image_save (crop, path, &error));

        cli_run (&r, "apply", filter->name, path, out, NULL);
        if (cli_exit_code (&r) != 0)
          g_error ("%s on %ux%u: %s", filter->name, sizes[i][0], sizes[i][1], r.err);
        cli_result_clear (&r);

        codec = tl_codec_new (tl_image_get_format (crop), filter->format, NULL);
        in    = cli_load_stored (path, tl_codec_get_format (codec), &w, &h, NULL);
        got   = cli_load_stored (out, tl_codec_get_format (codec), &w, &h, NULL);
        g_assert_cmpuint (w, ==, sizes[i][0]);
        g_assert_cmpuint (h, ==, sizes[i][1]);
        want  = cli_reference (filter, values, codec, in, w, h);
        if (tl_test_pixels_stored_difference (codec, want, got,
                                              (gsize) w * h * 4, NULL) > 1.0)
          g_error ("%s on %ux%u differs from its reference", filter->name,
                   sizes[i][0], sizes[i][1]);
      }
}

/* An indexed file: GEGL reads its palette out into RGB, so the command
 * line filters the colours (GIMP's indexed layers are refused instead,
 * in test-gimp), and writes an RGB file.
 */
static void
test_indexed_file (void)
{
  g_autofree gchar  *in  = cli_photo ("palette_color.png");
  g_autofree gchar  *out = cli_output ("palette-inverted.png");
  g_autofree guint8 *a = NULL, *b = NULL;
  CliResult          r;
  guint              w, h, i;

  cli_run (&r, "apply", "invert", in, out, NULL);
  g_assert_cmpint (cli_exit_code (&r), ==, 0);
  cli_result_clear (&r);
  a = cli_load_stored (in, babl_format ("R'G'B'A u8"), &w, &h, NULL);
  b = cli_load_stored (out, babl_format ("R'G'B'A u8"), &w, &h, NULL);
  for (i = 0; i < w * h * 4; i++)
    g_assert_cmpuint (b[i], ==, i % 4 == 3 ? a[i] : 255 - a[i]);
}

void
cli_apply_add_tests (void)
{
  g_test_add_func ("/cli/apply", test_apply);
  g_test_add_func ("/cli/bad-input", test_bad_input);
  g_test_add_func ("/cli/thin-images", test_thin_images);
  g_test_add_func ("/cli/indexed-file", test_indexed_file);
}
