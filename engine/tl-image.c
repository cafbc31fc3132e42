/* ThreadLens: image files in and out, through GEGL.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gio/gio.h>
#include <gegl.h>
#include <gegl-plugin.h>   /* gegl_operation_get_format () */

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-image.h"

struct _TlImage
{
  GeglBuffer *buffer;   /* in the file's own format */
  const Babl *format;
};

typedef gboolean (* TlImageCheck) (const gchar  *path,
                                   int           fd,
                                   goffset       size,
                                   GError      **error);

static gboolean tl_image_check_png  (const gchar  *path,
                                     int           fd,
                                     goffset       size,
                                     GError      **error);
static gboolean tl_image_check_jpeg (const gchar  *path,
                                     int           fd,
                                     goffset       size,
                                     GError      **error);

/* The file types we hand to GEGL.  GEGL's own registry
 * (gegl_operation_handlers_get_loader/saver) cannot be asked whether it
 * knows a type: for an unknown one it warns and falls back to
 * gegl:magick-load (which can hang on garbage) or gegl:png-save (a PNG
 * under a foreign name).  So the mapping is kept here, and each operation
 * is checked with gegl_has_operation when it is used.
 *
 * Only loaders that fail cleanly (a warning we can catch) or whose file
 * structure is checked first are listed: gegl:jpg-load calls exit() on a
 * bad header and hangs on a cut one, hence the JPEG check; gegl:rgbe-load
 * crashes and gegl:ppm-load and gegl:webp-load return cut files without a
 * word, so those types are left out.
 */
typedef struct
{
  const gchar  *mime_type;
  const gchar  *extensions;   /* ";"-separated, lower case, with the dot */
  const gchar  *loader;
  const gchar  *saver;
  TlImageCheck  check;        /* NULL: the loader reports damage itself */
} TlImageType;

static const TlImageType tl_image_types[] =
{
  { "image/png",   ".png",
    "gegl:png-load",  "gegl:png-save",  tl_image_check_png  },
  { "image/jpeg",  ".jpg;.jpeg;.jpe",
    "gegl:jpg-load",  "gegl:jpg-save",  tl_image_check_jpeg },
  { "image/tiff",  ".tif;.tiff",
    "gegl:tiff-load", "gegl:tiff-save", NULL                },
  { "image/x-exr", ".exr",
    "gegl:exr-load",  "gegl:exr-save",  NULL                }
};

/* Without these no ThreadLens run can read or write its images. */
static const gchar *const tl_image_required_ops[] =
{
  "gegl:buffer-source",
  "gegl:png-load",
  "gegl:png-save"
};

/* GEGL's loaders and savers report failures only through g_warning, which
 * is process-wide; loads and saves are serialised so that each warning is
 * charged to the right file.
 */
typedef struct
{
  gchar *first;        /* set atomically: GEGL warns from worker threads */
  guint  default_id;
  guint  gegl_id;
} TlImageCapture;

static GMutex tl_image_capture_mutex;

static gsize  tl_image_gegl_ready = 0;


static void
tl_image_capture_handler (const gchar    *log_domain,
                          GLogLevelFlags  log_level,
                          const gchar    *message,
                          gpointer        user_data)
{
  TlImageCapture *capture = user_data;
  gchar          *line;

  /* libtiff's remarks come as messages; they are not failures. */
  if (! (log_level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL)))
    return;

  /* GError messages stay on one line. */
  line = g_strdelimit (g_strstrip (g_strdup (message)), "\r\n", ' ');

  if (! g_atomic_pointer_compare_and_exchange (&capture->first, NULL, line))
    g_free (line);
}

static void
tl_image_capture_begin (TlImageCapture *capture)
{
  /* With G_LOG_FLAG_FATAL, since GLib matches handlers on the flags too,
   * and tests or G_DEBUG=fatal-warnings make every warning fatal.
   */
  const GLogLevelFlags levels = G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL |
                                G_LOG_LEVEL_MESSAGE | G_LOG_FLAG_FATAL;

  g_mutex_lock (&tl_image_capture_mutex);

  capture->first      = NULL;
  capture->default_id = g_log_set_handler (NULL, levels,
                                           tl_image_capture_handler, capture);
  capture->gegl_id    = g_log_set_handler ("GEGL", levels,
                                           tl_image_capture_handler, capture);
}

/* Returns the first warning seen, or NULL; free it with g_free. */
static gchar *
tl_image_capture_end (TlImageCapture *capture)
{
  g_log_remove_handler (NULL, capture->default_id);
  g_log_remove_handler ("GEGL", capture->gegl_id);

  g_mutex_unlock (&tl_image_capture_mutex);

  return g_atomic_pointer_get (&capture->first);
}

static const TlImageType *
tl_image_type_from_mime (const gchar *mime_type)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (tl_image_types); i++)
    if (g_strcmp0 (mime_type, tl_image_types[i].mime_type) == 0)
      return &tl_image_types[i];

  return NULL;
}

/* @extension includes the dot; matched case-insensitively. */
static const TlImageType *
tl_image_type_from_extension (const gchar *extension)
{
  gchar *lower = g_ascii_strdown (extension, -1);
  guint  i;

  for (i = 0; i < G_N_ELEMENTS (tl_image_types); i++)
    {
      gchar **names = g_strsplit (tl_image_types[i].extensions, ";", -1);
      gboolean found = g_strv_contains ((const gchar *const *) names, lower);

      g_strfreev (names);
      if (found)
        {
          g_free (lower);
          return &tl_image_types[i];
        }
    }

  g_free (lower);
  return NULL;
}

/* The extension of @path's last component with its dot, or NULL; a
 * leading dot (".png" alone) names a hidden file, not a type.
 */
static const gchar *
tl_image_get_extension (const gchar *path)
{
  const gchar *base = strrchr (path, G_DIR_SEPARATOR);
  const gchar *dot;

  base = base ? base + 1 : path;
  dot  = strrchr (base, '.');

  return (dot && dot != base && dot[1] != '\0') ? dot : NULL;
}

static gboolean
tl_image_read_at (int     fd,
                  goffset offset,
                  guchar *data,
                  gsize   size)
{
  gsize done = 0;

  if (lseek (fd, offset, SEEK_SET) != offset)
    return FALSE;

  while (done < size)
    {
      gssize n = read (fd, data + done, size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += n;
    }

  return TRUE;
}

static const guint32 *
tl_image_crc_table (void)
{
  static guint32 table[256];
  static gsize   ready = 0;

  if (g_once_init_enter (&ready))
    {
      guint32 n, k;

      for (n = 0; n < 256; n++)
        {
          guint32 c = n;

          for (k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
          table[n] = c;
        }
      g_once_init_leave (&ready, 1);
    }

  return table;
}

static guint32
tl_image_read_be32 (const guchar *data)
{
  return ((guint32) data[0] << 24) | ((guint32) data[1] << 16) |
         ((guint32) data[2] << 8)  |  (guint32) data[3];
}

static guint
tl_image_read_be16 (const guchar *data)
{
  return ((guint) data[0] << 8) | data[1];
}

/* Walks the PNG chunk list and checks each chunk's CRC, so that a cut-short
 * or damaged file gets a clear error here: libpng prints its errors to
 * stderr and leaves GEGL with an empty or half-decoded image.
 */
static gboolean
tl_image_check_png (const gchar *path,
                    int          fd,
                    goffset      size,
                    GError     **error)
{
  static const guchar signature[8] =
    { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  const guint32 *table  = tl_image_crc_table ();
  guchar        *block  = g_malloc (65536);
  guchar         header[8];
  goffset        offset = 8;
  gboolean       first  = TRUE;
  gboolean       ok     = FALSE;

  if (size < 8 || ! tl_image_read_at (fd, 0, header, 8) ||
      memcmp (header, signature, 8) != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': not a PNG file (no PNG signature)"),
                   path);
      goto out;
    }

  while (TRUE)
    {
      guint32 length;
      guint32 crc = 0xffffffffu;
      guint32 done;
      guint32 n;
      gchar   type[5];
      gint    i;

      if (offset + 12 > size)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': truncated PNG file (it ends at "
                         "byte %" PRId64 " without an IEND chunk)"),
                       path, size);
          goto out;
        }

      if (! tl_image_read_at (fd, offset, header, 8))
        goto read_error;

      length = tl_image_read_be32 (header);
      memcpy (type, header + 4, 4);
      type[4] = '\0';

      for (i = 0; i < 4; i++)
        if (! g_ascii_isalpha (type[i]))
          break;

      if (i < 4 || length > G_MAXINT32 ||
          (first && strcmp (type, "IHDR") != 0))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': damaged PNG file (bad chunk at "
                         "byte %" PRId64 ")"), path, offset);
          goto out;
        }

      if (offset + 12 + length > size)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': truncated PNG file (its %s chunk "
                         "at byte %" PRId64 " needs %u bytes, only "
                         "%" PRId64 " are left)"),
                       path, type, offset, length + 12, size - offset);
          goto out;
        }

      /* The CRC covers the type and the data, and is stored after them. */
      for (i = 4; i < 8; i++)
        crc = table[(crc ^ header[i]) & 0xff] ^ (crc >> 8);

      for (done = 0; done < length; done += n)
        {
          guint32 j;

          n = MIN (length - done, 65536);
          if (! tl_image_read_at (fd, offset + 8 + done, block, n))
            goto read_error;

          for (j = 0; j < n; j++)
            crc = table[(crc ^ block[j]) & 0xff] ^ (crc >> 8);
        }

      if (! tl_image_read_at (fd, offset + 8 + length, header, 4))
        goto read_error;

      if ((crc ^ 0xffffffffu) != tl_image_read_be32 (header))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': damaged PNG file (CRC error in its "
                         "%s chunk at byte %" PRId64 ")"),
                       path, type, offset);
          goto out;
        }

      if (strcmp (type, "IEND") == 0)
        break;

      offset += 12 + length;
      first   = FALSE;
    }

  ok = TRUE;
  goto out;

read_error:
  g_set_error (error, TL_ERROR, TL_ERROR_IO,
               _("cannot load '%s': read error: %s"), path, g_strerror (errno));

out:
  g_free (block);
  return ok;
}

/* Whether libjpeg knows marker @m (0xff @m): it calls exit() on others. */
static gboolean
tl_image_jpeg_marker_known (guint m)
{
  return m == 0x01 || (m >= 0xc0 && m <= 0xdd) || (m >= 0xe0 && m <= 0xef) ||
         m == 0xfe;
}

/* Walks the JPEG markers up to the first scan, then scans the rest for bad
 * markers and the end of the image.  gegl:jpg-load leaves libjpeg's fatal
 * errors to its default handler, which calls exit(), and loops for ever on
 * a file cut in its headers.  Corrupt entropy-coded data is left to
 * libjpeg, which warns on stderr and decodes what it can.
 */
static gboolean
tl_image_check_jpeg (const gchar *path,
                     int          fd,
                     goffset      size,
                     GError     **error)
{
  guchar   marker[4];
  guchar  *block  = NULL;
  goffset  offset = 2;
  gboolean after_ff = FALSE;

  if (size < 4 || ! tl_image_read_at (fd, 0, marker, 3) ||
      marker[0] != 0xff || marker[1] != 0xd8 || marker[2] != 0xff)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': not a JPEG file (no JPEG signature)"),
                   path);
      return FALSE;
    }

  while (TRUE)
    {
      guint length;

      if (offset + 4 > size || ! tl_image_read_at (fd, offset, marker, 4))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': truncated JPEG file (it ends in "
                         "its headers, at byte %" PRId64 ")"),
                       path, size);
          return FALSE;
        }

      /* Fill bytes before a marker. */
      if (marker[0] == 0xff && marker[1] == 0xff)
        {
          offset++;
          continue;
        }

      if (marker[0] != 0xff || marker[1] == 0xd9 ||
          ! tl_image_jpeg_marker_known (marker[1]))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': damaged JPEG file (bad marker at "
                         "byte %" PRId64 ")"), path, offset);
          return FALSE;
        }

      /* Markers without a length. */
      if (marker[1] == 0x01 || (marker[1] >= 0xd0 && marker[1] <= 0xd7))
        {
          offset += 2;
          continue;
        }

      length = tl_image_read_be16 (marker + 2);
      if (length < 2 || offset + 2 + length > size)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': truncated JPEG file (a segment at "
                         "byte %" PRId64 " runs past its end)"),
                       path, offset);
          return FALSE;
        }

      offset += 2 + length;

      if (marker[1] == 0xda)
        break;
    }

  /* In scan data 0xff is followed by 0x00 (a stuffed byte), 0xff (fill)
   * or a marker; progressive files carry more tables and scans.  Bytes
   * after the end-of-image marker are ignored, as libjpeg does.
   */
  block = g_malloc (65536);

  while (offset < size)
    {
      gsize n = MIN (size - offset, 65536);
      gsize i;

      if (! tl_image_read_at (fd, offset, block, n))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': read error: %s"),
                       path, g_strerror (errno));
          g_free (block);
          return FALSE;
        }

      for (i = 0; i < n; i++)
        {
          if (! after_ff)
            {
              after_ff = block[i] == 0xff;
              continue;
            }

          if (block[i] == 0xd9)
            {
              g_free (block);
              return TRUE;
            }

          if (block[i] != 0x00 && block[i] != 0xff &&
              ! tl_image_jpeg_marker_known (block[i]))
            {
              g_set_error (error, TL_ERROR, TL_ERROR_IO,
                           _("cannot load '%s': damaged JPEG file (bad marker "
                             "at byte %" PRId64 ")"),
                           path, offset + (goffset) i - 1);
              g_free (block);
              return FALSE;
            }

          after_ff = block[i] == 0xff;
        }

      offset += n;
    }

  g_free (block);
  g_set_error (error, TL_ERROR, TL_ERROR_IO,
               _("cannot load '%s': truncated JPEG file (no end-of-image "
                 "marker)"), path);
  return FALSE;
}

/* Checks that @path is a readable, non-empty file of a type we know, before
 * GEGL sees it: GEGL's loaders answer a missing file, a directory or the
 * wrong data with warnings and an empty or placeholder image, not errors.
 * The type is judged from the content, then from the extension.
 */
static const TlImageType *
tl_image_probe (const gchar  *path,
                GError      **error)
{
  const TlImageType *type = NULL;
  GStatBuf           st;
  guchar             head[4096];
  gssize             n;
  gchar             *content_type;
  int                fd;

  if (g_stat (path, &st) != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': %s"), path, g_strerror (errno));
      return NULL;
    }

  if (S_ISDIR (st.st_mode))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': it is a directory, not an image file"),
                   path);
      return NULL;
    }

  if (! S_ISREG (st.st_mode))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': not a regular file"), path);
      return NULL;
    }

  fd = g_open (path, O_RDONLY, 0);
  if (fd < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': %s"), path, g_strerror (errno));
      return NULL;
    }

  if (st.st_size == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': the file is empty"), path);
      g_close (fd, NULL);
      return NULL;
    }

  do
    n = read (fd, head, sizeof (head));
  while (n < 0 && errno == EINTR);

  if (n <= 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': read error: %s"), path,
                   n < 0 ? g_strerror (errno) : _("no data"));
      g_close (fd, NULL);
      return NULL;
    }

  /* Content first, as a name says little about what a file holds; then
   * the extension, as the guess is not always right.  Data of the wrong
   * kind then fails in the check or the loader.
   */
  content_type = g_content_type_guess (NULL, head, n, NULL);
  {
    gchar *mime_type = g_content_type_get_mime_type (content_type);

    type = tl_image_type_from_mime (mime_type);
    g_free (mime_type);
  }

  if (! type && tl_image_get_extension (path))
    type = tl_image_type_from_extension (tl_image_get_extension (path));

  if (! type)
    {
      if (g_content_type_is_unknown (content_type))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': not a recognised image file"), path);
        }
      else
        {
          gchar *description = g_content_type_get_description (content_type);

          g_set_error (error, TL_ERROR, TL_ERROR_IO,
                       _("cannot load '%s': not an image file ThreadLens can "
                         "read (it looks like: %s)"), path, description);
          g_free (description);
        }
      g_free (content_type);
      g_close (fd, NULL);
      return NULL;
    }
  g_free (content_type);

  if (! gegl_has_operation (type->loader))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': GEGL has no %s operation to read %s "
                     "files"), path, type->loader, type->mime_type);
      g_close (fd, NULL);
      return NULL;
    }

  if (type->check && ! type->check (path, fd, st.st_size, error))
    {
      g_close (fd, NULL);
      return NULL;
    }

  g_close (fd, NULL);
  return type;
}

/* Savers with a "bitdepth" property (gegl:png-save, gegl:ppm-save) default
 * to 16 bits; 8-bit input is written as 8 bits, deeper input as 16.
 */
static void
tl_image_set_bit_depth (GeglNode   *saver,
                        const Babl *format)
{
  GParamSpec *pspec = gegl_node_find_property (saver, "bitdepth");
  gint        bits;

  if (! pspec || ! G_IS_PARAM_SPEC_INT (pspec))
    return;

  bits = 8 * babl_format_get_bytes_per_pixel (format) /
         babl_format_get_n_components (format);
  bits = bits <= 8 ? 8 : 16;
  bits = CLAMP (bits,
                G_PARAM_SPEC_INT (pspec)->minimum,
                G_PARAM_SPEC_INT (pspec)->maximum);

  gegl_node_set (saver, "bitdepth", bits, NULL);
}

/* The 4-component float format named @name, in @image's colour space so
 * that a round trip through it leaves the pixels unchanged; NULL when
 * @name is not such a format.
 */
static const Babl *
tl_image_float_format (TlImage     *image,
                       const gchar *name)
{
  const Babl *format;

  if (! babl_format_exists (name))
    return NULL;

  format = babl_format_with_space (name, image->format);

  if (babl_format_get_n_components (format) != 4 ||
      babl_format_get_type (format, 0) != babl_type ("float"))
    return NULL;

  return format;
}

gboolean
tl_image_init_gegl (GError **error)
{
  guint i;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_once_init_enter (&tl_image_gegl_ready))
    {
      gegl_init (NULL, NULL);
      g_once_init_leave (&tl_image_gegl_ready, 1);
    }

  for (i = 0; i < G_N_ELEMENTS (tl_image_required_ops); i++)
    if (! gegl_has_operation (tl_image_required_ops[i]))
      {
        g_set_error (error, TL_ERROR, TL_ERROR_IO,
                     _("GEGL operation '%s' is missing: GEGL's plug-ins are "
                       "not installed or GEGL_PATH is wrong"),
                     tl_image_required_ops[i]);
        return FALSE;
      }

  return TRUE;
}

TlImage *
tl_image_load (const gchar  *path,
               GError      **error)
{
  const TlImageType *type;
  TlImageCapture     capture;
  TlImage           *image;
  GeglNode          *graph;
  GeglNode          *loader;
  GeglRectangle      extent;
  GeglBuffer        *buffer = NULL;
  const Babl        *format = NULL;
  gchar             *problem;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (! tl_image_init_gegl (error))
    return NULL;

  type = tl_image_probe (path, error);
  if (! type)
    return NULL;

  graph  = gegl_node_new ();
  loader = gegl_node_new_child (graph,
                                "operation", type->loader,
                                "path",      path,
                                NULL);

  tl_image_capture_begin (&capture);

  /* Computing the extent runs the loader's header parsing, which also
   * sets its output format: the file's own.
   */
  extent = gegl_node_get_bounding_box (loader);
  if (extent.width > 0 && extent.height > 0)
    format = gegl_operation_get_format (gegl_node_get_gegl_operation (loader),
                                        "output");

  if (format)
    {
      buffer = gegl_buffer_new (&extent, format);
      gegl_node_blit_buffer (loader, buffer, &extent, 0, GEGL_ABYSS_NONE);
    }

  problem = tl_image_capture_end (&capture);

  g_object_unref (graph);

  if (problem || ! buffer)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot load '%s': %s could not decode it (%s)"),
                   path, type->loader,
                   problem ? problem : _("no image data"));
      g_free (problem);
      g_clear_object (&buffer);
      return NULL;
    }

  image = g_new0 (TlImage, 1);
  image->buffer = buffer;
  image->format = format;

  return image;
}

gboolean
tl_image_save (TlImage      *image,
               const gchar  *path,
               GError      **error)
{
  const TlImageType *type;
  const gchar       *extension;
  TlImageCapture     capture;
  GeglNode          *graph;
  GeglNode          *source;
  GeglNode          *saver;
  GStatBuf           st;
  gchar             *dirname;
  gchar             *basename;
  gchar             *temp_name;
  gchar             *temp_path;
  gchar             *problem;
  int                fd;

  g_return_val_if_fail (image != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  extension = tl_image_get_extension (path);
  if (! extension)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("cannot save '%s': the name has no extension to choose "
                     "an image format by (e.g. .png, .tif)"), path);
      return FALSE;
    }

  type = tl_image_type_from_extension (extension);
  if (! type)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("cannot save '%s': unknown image file extension '%s' "
                     "(e.g. .png, .tif, .jpg, .exr)"), path, extension);
      return FALSE;
    }

  if (! gegl_has_operation (type->saver))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot save '%s': GEGL has no %s operation to write "
                     "'%s' files"), path, type->saver, extension);
      return FALSE;
    }

  dirname = g_path_get_dirname (path);
  if (! g_file_test (dirname, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot save '%s': directory '%s' does not exist"),
                   path, dirname);
      g_free (dirname);
      return FALSE;
    }

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot save '%s': it is a directory"), path);
      g_free (dirname);
      return FALSE;
    }

  /* The image goes to a hidden file beside the destination, with the same
   * extension, and replaces it only once written in full: a failure leaves
   * neither a partial file nor a damaged old one.
   */
  basename  = g_path_get_basename (path);
  temp_name = g_strdup_printf (".%.*s.XXXXXX%s",
                               (gint) (strlen (basename) - strlen (extension)),
                               basename, extension);
  temp_path = g_build_filename (dirname, temp_name, NULL);
  g_free (temp_name);
  g_free (basename);

  fd = g_mkstemp_full (temp_path, O_RDWR, 0666);
  if (fd < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot save '%s': cannot create a file in '%s': %s"),
                   path, dirname, g_strerror (errno));
      g_free (temp_path);
      g_free (dirname);
      return FALSE;
    }
  g_close (fd, NULL);
  g_free (dirname);

  graph  = gegl_node_new ();
  source = gegl_node_new_child (graph,
                                "operation", "gegl:buffer-source",
                                "buffer",    image->buffer,
                                NULL);
  saver  = gegl_node_new_child (graph,
                                "operation", type->saver,
                                "path",      temp_path,
                                NULL);
  tl_image_set_bit_depth (saver, image->format);
  gegl_node_link (source, saver);

  tl_image_capture_begin (&capture);
  gegl_node_process (saver);
  problem = tl_image_capture_end (&capture);

  g_object_unref (graph);

  /* Some savers fail silently; an empty file is never an image. */
  if (! problem && (g_stat (temp_path, &st) != 0 || st.st_size == 0))
    problem = g_strdup_printf (_("%s wrote no data"), type->saver);

  if (! problem && g_rename (temp_path, path) != 0)
    problem = g_strdup (g_strerror (errno));

  if (problem)
    {
      g_unlink (temp_path);
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("cannot save '%s': %s"), path, problem);
      g_free (problem);
      g_free (temp_path);
      return FALSE;
    }

  g_free (temp_path);
  return TRUE;
}

/* An image of AREA of BUFFER, copied, at the origin (a crop to save). */
TlImage *
tl_image_new_from_buffer (GeglBuffer          *buffer,
                          const GeglRectangle *area)
{
  TlImage      *image;
  GeglRectangle extent;

  g_return_val_if_fail (GEGL_IS_BUFFER (buffer) && area != NULL, NULL);
  g_return_val_if_fail (area->width > 0 && area->height > 0, NULL);

  extent = (GeglRectangle) { 0, 0, area->width, area->height };
  image  = g_new0 (TlImage, 1);
  image->format = gegl_buffer_get_format (buffer);
  image->buffer = gegl_buffer_new (&extent, image->format);
  gegl_buffer_copy (buffer, area, GEGL_ABYSS_NONE, image->buffer, &extent);
  return image;
}

void
tl_image_free (TlImage *image)
{
  if (! image)
    return;

  g_clear_object (&image->buffer);
  g_free (image);
}

guint
tl_image_get_width (TlImage *image)
{
  g_return_val_if_fail (image != NULL, 0);

  return gegl_buffer_get_width (image->buffer);
}

guint
tl_image_get_height (TlImage *image)
{
  g_return_val_if_fail (image != NULL, 0);

  return gegl_buffer_get_height (image->buffer);
}

const Babl *
tl_image_get_format (TlImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);

  return image->format;
}

GeglBuffer *
tl_image_get_buffer (TlImage *image)
{
  g_return_val_if_fail (image != NULL, NULL);

  return image->buffer;
}

gfloat *
tl_image_get_pixels (TlImage     *image,
                     const gchar *float_format)
{
  const GeglRectangle *extent;
  const Babl          *format;
  gfloat              *pixels;

  g_return_val_if_fail (image != NULL, NULL);
  g_return_val_if_fail (float_format != NULL, NULL);

  format = tl_image_float_format (image, float_format);
  g_return_val_if_fail (format != NULL, NULL);

  extent = gegl_buffer_get_extent (image->buffer);
  pixels = g_new (gfloat, (gsize) extent->width * extent->height * 4);

  gegl_buffer_get (image->buffer, extent, 1.0, format, pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);

  return pixels;
}

void
tl_image_set_pixels (TlImage      *image,
                     const gchar  *float_format,
                     const gfloat *pixels)
{
  const Babl *format;

  g_return_if_fail (image != NULL);
  g_return_if_fail (float_format != NULL);
  g_return_if_fail (pixels != NULL);

  format = tl_image_float_format (image, float_format);
  g_return_if_fail (format != NULL);

  gegl_buffer_set (image->buffer, gegl_buffer_get_extent (image->buffer), 0,
                   format, pixels, GEGL_AUTO_ROWSTRIDE);
}

/* The whole image in FORMAT (a codec's storage); free with g_free (). */
gpointer
tl_image_get_stored (TlImage    *image,
                     const Babl *format)
{
  const GeglRectangle *extent;
  gpointer             pixels;

  g_return_val_if_fail (image != NULL && format != NULL, NULL);

  extent = gegl_buffer_get_extent (image->buffer);
  pixels = g_malloc ((gsize) extent->width * extent->height *
                     babl_format_get_bytes_per_pixel (format));
  gegl_buffer_get (image->buffer, extent, 1.0, format, pixels,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return pixels;
}

void
tl_image_set_stored (TlImage       *image,
                     const Babl    *format,
                     gconstpointer  pixels)
{
  g_return_if_fail (image != NULL && format != NULL && pixels != NULL);

  gegl_buffer_set (image->buffer, gegl_buffer_get_extent (image->buffer), 0,
                   format, pixels, GEGL_AUTO_ROWSTRIDE);
}
