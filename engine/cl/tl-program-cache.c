/* ThreadLens: built OpenCL programs kept on disk between runs.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "tl-program-cache.h"

/* File layout: magic, payload size (little endian), SHA-256 of the payload
 * in hex, payload.
 */
#define TL_PROGRAM_CACHE_MAGIC     "TLPROG1\n"
#define TL_PROGRAM_CACHE_MAGIC_LEN 8
#define TL_PROGRAM_CACHE_SUM_LEN   64
#define TL_PROGRAM_CACHE_HEADER    (TL_PROGRAM_CACHE_MAGIC_LEN + 8 + \
                                    TL_PROGRAM_CACHE_SUM_LEN)

/* THREADLENS_CACHE_DIR overrides the place; set to "" it turns the disk
 * cache off.  Returns NULL when there is no cache.
 */
gchar *
tl_program_cache_dir (void)
{
  const gchar *env = g_getenv ("THREADLENS_CACHE_DIR");

  if (env != NULL)
    return *env ? g_build_filename (env, "programs", NULL) : NULL;

  return g_build_filename (g_get_user_cache_dir (), "threadlens", "programs",
                           NULL);
}

gchar *
tl_program_cache_key (const gchar *device_name,
                      const gchar *driver_version,
                      const gchar *platform_version,
                      const gchar *source,
                      const gchar *options)
{
  GChecksum *sum = g_checksum_new (G_CHECKSUM_SHA256);
  gchar     *key;

  /* NUL separators keep ("ab","c") and ("a","bc") apart. */
  g_checksum_update (sum, (const guchar *) device_name, strlen (device_name) + 1);
  g_checksum_update (sum, (const guchar *) driver_version, strlen (driver_version) + 1);
  g_checksum_update (sum, (const guchar *) platform_version, strlen (platform_version) + 1);
  g_checksum_update (sum, (const guchar *) options, strlen (options) + 1);
  g_checksum_update (sum, (const guchar *) source, strlen (source));
  key = g_strdup (g_checksum_get_string (sum));
  g_checksum_free (sum);

  return key;
}

gchar *
tl_program_cache_path (const gchar *key)
{
  g_autofree gchar *dir  = tl_program_cache_dir ();
  g_autofree gchar *name = NULL;

  g_return_val_if_fail (key != NULL, NULL);

  if (dir == NULL)
    return NULL;

  name = g_strconcat (key, ".bin", NULL);
  return g_build_filename (dir, name, NULL);
}

void
tl_program_cache_forget (const gchar *key)
{
  g_autofree gchar *path = tl_program_cache_path (key);

  if (path != NULL)
    g_unlink (path);
}

/* Returns NULL when there is no usable entry; *rejected says an entry was
 * there but damaged (it is removed, so the next store replaces it).
 */
GBytes *
tl_program_cache_load (const gchar *key,
                       gboolean    *rejected)
{
  g_autofree gchar *path     = tl_program_cache_path (key);
  g_autofree gchar *contents = NULL;
  gsize             length   = 0;
  guint64           size;
  gchar            *sum;

  if (rejected)
    *rejected = FALSE;

  if (path == NULL ||
      ! g_file_get_contents (path, &contents, &length, NULL))
    return NULL;

  if (length < TL_PROGRAM_CACHE_HEADER ||
      memcmp (contents, TL_PROGRAM_CACHE_MAGIC, TL_PROGRAM_CACHE_MAGIC_LEN) != 0)
    goto damaged;

  memcpy (&size, contents + TL_PROGRAM_CACHE_MAGIC_LEN, 8);
  size = GUINT64_FROM_LE (size);
  if (size != length - TL_PROGRAM_CACHE_HEADER)
    goto damaged;

  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256,
                                     (const guchar *) contents +
                                     TL_PROGRAM_CACHE_HEADER, size);
  if (memcmp (sum, contents + TL_PROGRAM_CACHE_MAGIC_LEN + 8,
              TL_PROGRAM_CACHE_SUM_LEN) != 0)
    {
      g_free (sum);
      goto damaged;
    }
  g_free (sum);

  return g_bytes_new (contents + TL_PROGRAM_CACHE_HEADER, size);

 damaged:
  g_debug ("program cache: discarding damaged entry %s", path);
  g_unlink (path);
  if (rejected)
    *rejected = TRUE;
  return NULL;
}

/* Best effort: a cache that cannot be written only costs a rebuild. */
void
tl_program_cache_store (const gchar  *key,
                        const guint8 *binary,
                        gsize         size)
{
  g_autofree gchar *path  = tl_program_cache_path (key);
  g_autofree gchar *dir   = NULL;
  g_autofree gchar *sum   = NULL;
  g_autoptr(GError) error = NULL;
  GByteArray       *data;
  guint64           size_le = GUINT64_TO_LE ((guint64) size);

  if (path == NULL)
    return;

  dir = g_path_get_dirname (path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_debug ("program cache: cannot create %s: %s", dir, g_strerror (errno));
      return;
    }

  sum  = g_compute_checksum_for_data (G_CHECKSUM_SHA256, binary, size);
  data = g_byte_array_sized_new (TL_PROGRAM_CACHE_HEADER + size);
  g_byte_array_append (data, (const guint8 *) TL_PROGRAM_CACHE_MAGIC,
                       TL_PROGRAM_CACHE_MAGIC_LEN);
  g_byte_array_append (data, (const guint8 *) &size_le, 8);
  g_byte_array_append (data, (const guint8 *) sum, TL_PROGRAM_CACHE_SUM_LEN);
  g_byte_array_append (data, binary, size);

  /* g_file_set_contents writes a temporary file and renames it, so a
   * reader never sees half an entry.
   */
  if (! g_file_set_contents (path, (const gchar *) data->data, data->len,
                             &error))
    g_debug ("program cache: %s", error->message);

  g_byte_array_unref (data);
}
