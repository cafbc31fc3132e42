/* ThreadLens: image files loaded and saved through GEGL (see tl-image.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gegl.h>
#include <gegl-plugin.h>   /* gegl_operation_get_format () */

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-image-private.h"

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
