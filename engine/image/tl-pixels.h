/* ThreadLens: an image as it travels between a host, a filter's
 * reference and a run on a device.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PIXELS_H
#define TL_PIXELS_H

#include <glib.h>

#include "tl-codec.h"

G_BEGIN_DECLS

/* 4 channels per pixel in CODEC's storage, or (CODEC NULL) 4 floats in
 * the filter's working format.
 */
typedef struct
{
  guint          width;
  guint          height;
  const TlCodec *codec;
  gconstpointer  in;
  gpointer       out;
  gint           x, y;          /* where they sit in the layer (tiles,
                                 * regions: pixelize's block grid) */
} TlPixels;

G_END_DECLS

#endif /* TL_PIXELS_H */
