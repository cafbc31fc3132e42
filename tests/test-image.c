/* ThreadLens: tests for image loading and saving (engine/image/tl-image.c).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gegl.h>

#include "tl-error.h"
#include "tl-image.h"

typedef struct
{
  const gchar *name;
  guint        width;
  guint        height;
  const gchar *type;        /* babl component type */
  gint         components;
  gboolean     alpha;
} TlImageTestFile;

static const TlImageTestFile tl_image_test_files[] =
{
  { "astronaut.png",           512, 512, "u8",  3, FALSE },
  { "coffee.png",              600, 400, "u8",  3, FALSE },
  { "logo.png",                500, 500, "u8",  4, TRUE  },
  /* Indexed: GEGL expands the palette to RGB. */
  { "palette_color.png",        10,  10, "u8",  3, FALSE },
  { "chessboard_GRAY_U16.tif", 200, 200, "u16", 1, FALSE }
};


static gchar *
tl_image_test_source (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "images", name, NULL);
}

static gchar *
tl_image_test_make_dir (void)
{
  GError *error = NULL;
  gchar  *dir   = g_dir_make_tmp ("tl-test-image-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static gint
tl_image_test_compare_names (gconstpointer a,
                             gconstpointer b)
{
  return g_strcmp0 (*(const gchar *const *) a, *(const gchar *const *) b);
}

/* The directory's entries, sorted and joined by spaces ("" when empty),
 * so that a stray temporary file shows in the assertion message.
 */
static gchar *
tl_image_test_list_dir (const gchar *dir)
{
  GError      *error  = NULL;
  GDir        *handle = g_dir_open (dir, 0, &error);
  GPtrArray   *names  = g_ptr_array_new_with_free_func (g_free);
  const gchar *name;
  gchar       *list;

  g_assert_no_error (error);

  while ((name = g_dir_read_name (handle)))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, tl_image_test_compare_names);
  g_ptr_array_add (names, NULL);

  list = g_strjoinv (" ", (gchar **) names->pdata);

  g_ptr_array_free (names, TRUE);
  g_dir_close (handle);
  return list;
}

static void
tl_image_test_remove_dir (const gchar *dir)
{
  GDir        *handle = g_dir_open (dir, 0, NULL);
  const gchar *name;

  g_assert_nonnull (handle);

  while ((name = g_dir_read_name (handle)))
    {
      gchar *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_rmdir (path);
      else
        g_unlink (path);
      g_free (path);
    }

  g_dir_close (handle);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static TlImage *
tl_image_test_load (const gchar *path)
{
  GError  *error = NULL;
  TlImage *image = tl_image_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (image);
  return image;
}

/* The pixels in the image's own format, for exact comparisons. */
static guchar *
tl_image_test_raw (TlImage *image,
                   gsize   *size)
{
  GeglBuffer *buffer = tl_image_get_buffer (image);
  const Babl *format = tl_image_get_format (image);
  guchar     *data;

  *size = (gsize) tl_image_get_width (image) * tl_image_get_height (image) *
          babl_format_get_bytes_per_pixel (format);
  data  = g_malloc (*size);

  gegl_buffer_get (buffer, NULL, 1.0, format, data,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return data;
}

static void
tl_image_test_assert_same_pixels (TlImage *a,
                                  TlImage *b)
{
  guchar *raw_a, *raw_b;
  gsize   size_a, size_b;

  g_assert_cmpuint (tl_image_get_width (a),  ==, tl_image_get_width (b));
  g_assert_cmpuint (tl_image_get_height (a), ==, tl_image_get_height (b));
  g_assert_cmpstr (babl_format_get_encoding (tl_image_get_format (a)), ==,
                   babl_format_get_encoding (tl_image_get_format (b)));

  raw_a = tl_image_test_raw (a, &size_a);
  raw_b = tl_image_test_raw (b, &size_b);
  g_assert_cmpmem (raw_a, size_a, raw_b, size_b);

  g_free (raw_a);
  g_free (raw_b);
}

static void
tl_image_test_assert_file_error (const gchar *path,
                                 gint         code)
{
  GError  *error = NULL;
  TlImage *image = tl_image_load (path, &error);
  gchar   *base  = g_path_get_basename (path);

  g_assert_null (image);
  g_assert_error (error, TL_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, base));
  g_assert_null (strchr (error->message, '\n'));

  g_free (base);
  g_error_free (error);
}


static void
tl_image_test_init (void)
{
  GError *error = NULL;

  /* Idempotent. */
  g_assert_true (tl_image_init_gegl (&error));
  g_assert_no_error (error);
  g_assert_true (tl_image_init_gegl (&error));
  g_assert_no_error (error);
}

static void
tl_image_test_load_formats (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tl_image_test_files); i++)
    {
      const TlImageTestFile *file   = &tl_image_test_files[i];
      gchar                 *path   = tl_image_test_source (file->name);
      TlImage               *image  = tl_image_test_load (path);
      const Babl            *format = tl_image_get_format (image);

      g_test_message ("%s: %ux%u %s", file->name,
                      tl_image_get_width (image), tl_image_get_height (image),
                      babl_format_get_encoding (format));

      g_assert_cmpuint (tl_image_get_width (image),  ==, file->width);
      g_assert_cmpuint (tl_image_get_height (image), ==, file->height);
      g_assert_true (babl_format_get_type (format, 0) ==
                     babl_type (file->type));
      g_assert_cmpint (babl_format_get_n_components (format), ==,
                       file->components);
      g_assert_cmpint (babl_format_has_alpha (format), ==, file->alpha);
      g_assert_true (gegl_buffer_get_format (tl_image_get_buffer (image)) ==
                     format);

      tl_image_free (image);
      g_free (path);
    }
}

/* A TIFF named .png is loaded by its content. */
static void
tl_image_test_load_misnamed (void)
{
  gchar   *dir    = tl_image_test_make_dir ();
  gchar   *source = tl_image_test_source ("chessboard_GRAY_U16.tif");
  gchar   *path   = g_build_filename (dir, "chessboard.png", NULL);
  gchar   *data;
  gsize    size;
  TlImage *image;

  g_assert_true (g_file_get_contents (source, &data, &size, NULL));
  g_assert_true (g_file_set_contents (path, data, size, NULL));

  image = tl_image_test_load (path);
  g_assert_cmpuint (tl_image_get_width (image), ==, 200);
  g_assert_cmpstr (babl_format_get_encoding (tl_image_get_format (image)),
                   ==, "Y' u16");

  tl_image_free (image);
  g_free (data);
  g_free (path);
  g_free (source);
  tl_image_test_remove_dir (dir);
  g_free (dir);
}

/* load -> get_pixels -> set_pixels -> save -> load: the same pixels, the
 * same bit depth, the same channels, and nothing else in the directory.
 */
static void
tl_image_test_round_trip (gconstpointer data)
{
  const TlImageTestFile *file = data;
  const gchar *const     extensions[] = { ".png", ".tif" };
  gchar                 *source = tl_image_test_source (file->name);
  gchar                 *dir    = tl_image_test_make_dir ();
  TlImage               *image  = tl_image_test_load (source);
  TlImage               *copy   = tl_image_test_load (source);
  gfloat                *pixels;
  guint                  i;

  pixels = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  g_assert_nonnull (pixels);
  tl_image_set_pixels (image, "R'G'B'A float", pixels);
  g_free (pixels);

  /* The conversion to float and back is exact. */
  tl_image_test_assert_same_pixels (image, copy);

  for (i = 0; i < G_N_ELEMENTS (extensions); i++)
    {
      GError  *error = NULL;
      gchar   *name  = g_strconcat ("out", extensions[i], NULL);
      gchar   *path  = g_build_filename (dir, name, NULL);
      gchar   *list;
      TlImage *saved;

      g_assert_true (tl_image_save (image, path, &error));
      g_assert_no_error (error);

      list = tl_image_test_list_dir (dir);
      g_assert_cmpstr (list, ==, name);
      g_free (list);

      saved = tl_image_test_load (path);
      tl_image_test_assert_same_pixels (image, saved);
      g_assert_true (babl_format_get_type (tl_image_get_format (saved), 0) ==
                     babl_type (file->type));
      g_assert_cmpint (babl_format_has_alpha (tl_image_get_format (saved)),
                       ==, file->alpha);

      tl_image_free (saved);
      g_unlink (path);
      g_free (path);
      g_free (name);
    }

  tl_image_free (copy);
  tl_image_free (image);
  tl_image_test_remove_dir (dir);
  g_free (dir);
  g_free (source);
}

/* logo.png has an alpha channel but is opaque throughout (every alpha is
 * 255), so the test gives it a ramp of alpha 1/255 .. 1 and checks that
 * the values survive the float round trip and a save.
 */
static void
tl_image_test_alpha (void)
{
  gchar   *source = tl_image_test_source ("logo.png");
  gchar   *dir    = tl_image_test_make_dir ();
  gchar   *path   = g_build_filename (dir, "logo.png", NULL);
  GError  *error  = NULL;
  TlImage *image  = tl_image_test_load (source);
  TlImage *saved;
  gfloat  *pixels;
  gsize    n, i;
  gfloat   min_alpha = 1.0;

  g_assert_true (babl_format_has_alpha (tl_image_get_format (image)));
  n = (gsize) tl_image_get_width (image) * tl_image_get_height (image);

  pixels = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  for (i = 0; i < n; i++)
    {
      g_assert_cmpfloat (pixels[4 * i + 3], ==, 1.0);
      pixels[4 * i + 3] = (1 + i % 255) / 255.0;
    }
  tl_image_set_pixels (image, "R'G'B'A float", pixels);
  g_free (pixels);

  g_assert_true (tl_image_save (image, path, &error));
  g_assert_no_error (error);

  saved = tl_image_test_load (path);
  g_assert_cmpstr (babl_format_get_encoding (tl_image_get_format (saved)),
                   ==, "R'G'B'A u8");
  tl_image_test_assert_same_pixels (image, saved);

  pixels = tl_image_get_pixels (saved, "R'G'B'A float", NULL);
  for (i = 0; i < n; i++)
    min_alpha = MIN (min_alpha, pixels[4 * i + 3]);
  g_free (pixels);
  g_assert_cmpfloat_with_epsilon (min_alpha, 1 / 255.0, 1e-6);

  /* Through premultiplied float and back: the same pixels again. */
  pixels = tl_image_get_pixels (saved, "RaGaBaA float", NULL);
  tl_image_set_pixels (saved, "RaGaBaA float", pixels);
  g_free (pixels);
  tl_image_test_assert_same_pixels (image, saved);

  tl_image_free (saved);
  tl_image_free (image);
  tl_image_test_remove_dir (dir);
  g_free (path);
  g_free (dir);
  g_free (source);
}

/* Float images (from EXR) are written to PNG as 16 bits. */
static void
tl_image_test_save_float (void)
{
  gchar   *source = tl_image_test_source ("chessboard_GRAY_U16.tif");
  gchar   *dir;
  gchar   *exr_path;
  gchar   *png_path;
  GError  *error = NULL;
  TlImage *image;
  TlImage *exr;
  TlImage *png;
  gfloat  *a, *b;
  gsize    n, i;

  if (! gegl_has_operation ("gegl:exr-save") ||
      ! gegl_has_operation ("gegl:exr-load"))
    {
      g_test_skip ("GEGL has no OpenEXR support");
      g_free (source);
      return;
    }

  dir      = tl_image_test_make_dir ();
  exr_path = g_build_filename (dir, "chess.exr", NULL);
  png_path = g_build_filename (dir, "chess.png", NULL);
  image    = tl_image_test_load (source);

  g_assert_true (tl_image_save (image, exr_path, &error));
  g_assert_no_error (error);
  exr = tl_image_test_load (exr_path);
  g_test_message ("EXR loads as %s",
                  babl_format_get_encoding (tl_image_get_format (exr)));
  g_assert_true (babl_format_get_type (tl_image_get_format (exr), 0) !=
                 babl_type ("u8"));
  g_assert_true (babl_format_get_type (tl_image_get_format (exr), 0) !=
                 babl_type ("u16"));

  g_assert_true (tl_image_save (exr, png_path, &error));
  g_assert_no_error (error);
  png = tl_image_test_load (png_path);
  g_assert_true (babl_format_get_type (tl_image_get_format (png), 0) ==
                 babl_type ("u16"));

  /* Through half or float and back to 16 bits: close, if not exact. */
  n = (gsize) tl_image_get_width (image) * tl_image_get_height (image) * 4;
  a = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  b = tl_image_get_pixels (png, "R'G'B'A float", NULL);
  for (i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (a[i], b[i], 1e-3);
  g_free (a);
  g_free (b);

  tl_image_free (png);
  tl_image_free (exr);
  tl_image_free (image);
  tl_image_test_remove_dir (dir);
  g_free (png_path);
  g_free (exr_path);
  g_free (dir);
  g_free (source);
}

static void
tl_image_test_load_errors (void)
{
  gchar *dir    = tl_image_test_make_dir ();
  gchar *source = tl_image_test_source ("astronaut.png");
  gchar *data;
  gsize  size;
  gchar *path;

  g_assert_true (g_file_get_contents (source, &data, &size, NULL));

  path = g_build_filename (dir, "missing.png", NULL);
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "folder.png", NULL);
  g_assert_cmpint (g_mkdir (path, 0755), ==, 0);
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "notes.png", NULL);
  g_assert_true (g_file_set_contents (path, "not an image\n", -1, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (path, "not an image\n", -1, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "astronaut-cut.png", NULL);
  g_assert_true (g_file_set_contents (path, data, 3000, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  /* Cut after the last pixel data: only the IEND chunk is missing. */
  path = g_build_filename (dir, "astronaut-noend.png", NULL);
  g_assert_true (g_file_set_contents (path, data, size - 12, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  /* One byte changed in the pixel data: the chunk's CRC no longer fits. */
  path = g_build_filename (dir, "astronaut-crc.png", NULL);
  data[size / 2] ^= 0x10;
  g_assert_true (g_file_set_contents (path, data, size, NULL));
  data[size / 2] ^= 0x10;
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  /* Binary junk: a PNG with its signature broken. */
  path = g_build_filename (dir, "broken.png", NULL);
  data[1] = 'X';
  g_assert_true (g_file_set_contents (path, data, size, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "empty.png", NULL);
  g_assert_true (g_file_set_contents (path, "", 0, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  path = g_build_filename (dir, "locked.png", NULL);
  g_assert_true (g_file_set_contents (path, "x", 1, NULL));
  g_assert_cmpint (g_chmod (path, 0), ==, 0);
  if (g_access (path, R_OK) == 0)
    g_test_message ("running as root: cannot test an unreadable file");
  else
    tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_free (path);

  g_free (data);
  g_free (source);
  tl_image_test_remove_dir (dir);
  g_free (dir);
}

/* GEGL reports a failed decode only through g_warning; tl_image_load turns
 * it into a GError, and the warning must not abort the test.
 */
static gboolean
tl_image_test_warning_not_fatal (const gchar    *log_domain,
                                 GLogLevelFlags  log_level,
                                 const gchar    *message,
                                 gpointer        user_data)
{
  return (log_level & G_LOG_LEVEL_MASK) != G_LOG_LEVEL_WARNING;
}

static void
tl_image_test_load_damaged (void)
{
  gchar *dir    = tl_image_test_make_dir ();
  gchar *source = tl_image_test_source ("chessboard_GRAY_U16.tif");
  gchar *path   = g_build_filename (dir, "chessboard-cut.tif", NULL);
  gchar *data;
  gsize  size;

  g_assert_true (g_file_get_contents (source, &data, &size, NULL));
  g_assert_true (g_file_set_contents (path, data, size * 6 / 10, NULL));

  g_test_log_set_fatal_handler (tl_image_test_warning_not_fatal, NULL);
  tl_image_test_assert_file_error (path, TL_ERROR_IO);
  g_test_log_set_fatal_handler (NULL, NULL);

  g_free (data);
  g_free (path);
  g_free (source);
  tl_image_test_remove_dir (dir);
  g_free (dir);
}

/* gegl:jpg-load lets libjpeg call exit() on a bad header and hangs on a
 * file cut in its headers; tl_image_load must refuse such files first.
 */
static void
tl_image_test_load_jpeg (void)
{
  gchar   *dir    = tl_image_test_make_dir ();
  gchar   *source = tl_image_test_source ("astronaut.png");
  gchar   *path   = g_build_filename (dir, "astronaut.jpg", NULL);
  GError  *error  = NULL;
  TlImage *image;
  gchar   *data;
  gsize    size;
  gsize    cuts[3];
  guint    i;

  if (! gegl_has_operation ("gegl:jpg-save") ||
      ! gegl_has_operation ("gegl:jpg-load"))
    {
      g_test_skip ("GEGL has no JPEG support");
      goto out;
    }

  image = tl_image_test_load (source);
  g_assert_true (tl_image_save (image, path, &error));
  g_assert_no_error (error);
  tl_image_free (image);

  image = tl_image_test_load (path);
  g_assert_cmpuint (tl_image_get_width (image), ==, 512);
  g_assert_cmpstr (babl_format_get_encoding (tl_image_get_format (image)),
                   ==, "R'G'B' u8");
  tl_image_free (image);

  g_assert_true (g_file_get_contents (path, &data, &size, NULL));
  cuts[0] = 100;        /* in the headers */
  cuts[1] = size / 2;   /* in the scan */
  cuts[2] = size - 2;   /* just the end marker missing */

  for (i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      gchar *name = g_strdup_printf ("cut-%" G_GSIZE_FORMAT ".jpg", cuts[i]);
      gchar *cut  = g_build_filename (dir, name, NULL);

      g_assert_true (g_file_set_contents (cut, data, cuts[i], NULL));
      tl_image_test_assert_file_error (cut, TL_ERROR_IO);
      g_free (cut);
      g_free (name);
    }

  g_free (path);
  path = g_build_filename (dir, "notes.jpg", NULL);
  g_assert_true (g_file_set_contents (path, "not an image\n", -1, NULL));
  tl_image_test_assert_file_error (path, TL_ERROR_IO);

  g_free (data);

out:
  g_free (path);
  g_free (source);
  tl_image_test_remove_dir (dir);
  g_free (dir);
}

static void
tl_image_test_save_errors (void)
{
  gchar   *dir    = tl_image_test_make_dir ();
  gchar   *source = tl_image_test_source ("coffee.png");
  TlImage *image  = tl_image_test_load (source);
  GError  *error  = NULL;
  gchar   *path;
  gchar   *list;

  path = g_build_filename (dir, "out.xyz", NULL);
  g_assert_false (tl_image_save (image, path, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "'.xyz'"));
  g_clear_error (&error);
  g_free (path);

  path = g_build_filename (dir, "out", NULL);
  g_assert_false (tl_image_save (image, path, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_free (path);

  path = g_build_filename (dir, "no-such-dir", "out.png", NULL);
  g_assert_false (tl_image_save (image, path, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "no-such-dir"));
  g_clear_error (&error);
  g_free (path);

  /* Nothing written, not even a temporary file. */
  list = tl_image_test_list_dir (dir);
  g_assert_cmpstr (list, ==, "");
  g_free (list);

  tl_image_free (image);
  tl_image_test_remove_dir (dir);
  g_free (dir);
  g_free (source);
}

/* Saving over an existing file replaces it, with no temporary left. */
static void
tl_image_test_save_replace (void)
{
  gchar   *dir   = tl_image_test_make_dir ();
  gchar   *path  = g_build_filename (dir, "out.png", NULL);
  gchar   *a     = tl_image_test_source ("coffee.png");
  gchar   *b     = tl_image_test_source ("logo.png");
  TlImage *first = tl_image_test_load (a);
  TlImage *other = tl_image_test_load (b);
  TlImage *saved;
  GError  *error = NULL;
  gchar   *list;

  g_assert_true (tl_image_save (first, path, &error));
  g_assert_no_error (error);
  g_assert_true (tl_image_save (other, path, &error));
  g_assert_no_error (error);

  list = tl_image_test_list_dir (dir);
  g_assert_cmpstr (list, ==, "out.png");
  g_free (list);

  saved = tl_image_test_load (path);
  tl_image_test_assert_same_pixels (other, saved);

  tl_image_free (saved);
  tl_image_free (other);
  tl_image_free (first);
  g_free (a);
  g_free (b);
  g_free (path);
  tl_image_test_remove_dir (dir);
  g_free (dir);
}

int
main (int    argc,
      char **argv)
{
  GError *error = NULL;
  gint    result;
  guint   i;

  g_test_init (&argc, &argv, NULL);

  if (! tl_image_init_gegl (&error))
    g_error ("%s", error->message);

  g_test_add_func ("/image/init", tl_image_test_init);
  g_test_add_func ("/image/load/formats", tl_image_test_load_formats);
  g_test_add_func ("/image/load/misnamed", tl_image_test_load_misnamed);
  g_test_add_func ("/image/load/errors", tl_image_test_load_errors);
  g_test_add_func ("/image/load/damaged", tl_image_test_load_damaged);
  g_test_add_func ("/image/load/jpeg", tl_image_test_load_jpeg);

  for (i = 0; i < G_N_ELEMENTS (tl_image_test_files); i++)
    {
      gchar *name = g_strdup_printf ("/image/round-trip/%s",
                                     tl_image_test_files[i].name);

      g_test_add_data_func (name, &tl_image_test_files[i],
                            tl_image_test_round_trip);
      g_free (name);
    }

  g_test_add_func ("/image/alpha", tl_image_test_alpha);
  g_test_add_func ("/image/save/float", tl_image_test_save_float);
  g_test_add_func ("/image/save/errors", tl_image_test_save_errors);
  g_test_add_func ("/image/save/replace", tl_image_test_save_replace);

  result = g_test_run ();

  gegl_exit ();

  return result;
}
