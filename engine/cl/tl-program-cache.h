/* ThreadLens: built OpenCL programs kept on disk between runs.
 *
 * Entries are keyed by a hash of the device, its driver version, the full
 * kernel source and the build options; each file carries a checksum so a
 * damaged entry is noticed and rebuilt instead of handed to the driver.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PROGRAM_CACHE_H
#define TL_PROGRAM_CACHE_H

#include <glib.h>

G_BEGIN_DECLS

gchar   *tl_program_cache_dir    (void);
gchar   *tl_program_cache_key    (const gchar  *device_name,
                                  const gchar  *driver_version,
                                  const gchar  *platform_version,
                                  const gchar  *source,
                                  const gchar  *options);
gchar   *tl_program_cache_path   (const gchar  *key);
GBytes  *tl_program_cache_load   (const gchar  *key,
                                  gboolean     *rejected);
void     tl_program_cache_store  (const gchar  *key,
                                  const guint8 *binary,
                                  gsize         size);
void     tl_program_cache_forget (const gchar  *key);

G_END_DECLS

#endif /* TL_PROGRAM_CACHE_H */
