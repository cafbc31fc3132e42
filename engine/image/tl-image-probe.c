/* ThreadLens: image files known and checked before GEGL reads them
 * (see tl-image.h).
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

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-image-private.h"

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
const TlImageType *
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
const gchar *
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
const TlImageType *
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
