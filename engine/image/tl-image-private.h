/* ThreadLens: what the image's files share (see tl-image.h).
 *
 * Private to tl-image.c (the pixels), tl-image-probe.c (knowing and
 * checking a file before GEGL reads it) and tl-image-io.c (loading and
 * saving through GEGL); everyone else goes through tl-image.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_IMAGE_PRIVATE_H
#define TL_IMAGE_PRIVATE_H

#include "tl-image.h"

G_BEGIN_DECLS

struct _TlImage
{
  GeglBuffer *buffer;   /* in the file's own format */
  const Babl *format;
};

typedef gboolean (* TlImageCheck) (const gchar  *path,
                                   int           fd,
                                   goffset       size,
                                   GError      **error);

/* A file type we hand to GEGL (see tl-image-probe.c for which and why). */
typedef struct
{
  const gchar  *mime_type;
  const gchar  *extensions;   /* ";"-separated, lower case, with the dot */
  const gchar  *loader;
  const gchar  *saver;
  TlImageCheck  check;        /* NULL: the loader reports damage itself */
} TlImageType;

const TlImageType *tl_image_probe               (const gchar  *path,
                                                 GError      **error);
const TlImageType *tl_image_type_from_extension (const gchar  *extension);
const gchar       *tl_image_get_extension       (const gchar  *path);

G_END_DECLS

#endif /* TL_IMAGE_PRIVATE_H */
