/* ThreadLens: the thread map's layout, shared by the overlay's files.
 *
 * Private to tl-overlay.c (building the map), tl-overlay-render.c
 * (drawing it) and tl-overlay-json.c (writing it out); everyone else goes
 * through tl-overlay.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_OVERLAY_PRIVATE_H
#define TL_OVERLAY_PRIVATE_H

#include "tl-overlay.h"

G_BEGIN_DECLS

/* Words per pixel and per group, as kernels/overlay.cl writes them. */
#define TL_OVERLAY_PIXEL_WORDS 3
#define TL_OVERLAY_GROUP_WORDS 8

struct _TlOverlayMap
{
  TlPlan               plan;
  TlOverlaySimdSource  simd_source;
  guint                simd_width;
  gboolean             measured;      /* from a device: tickets are known */
  gchar               *device;        /* NULL for a model */
  guint32             *pixels;        /* TL_OVERLAY_PIXEL_WORDS per pixel */
  guint32             *groups;        /* TL_OVERLAY_GROUP_WORDS per group,
                                       * by launch index */
};

G_END_DECLS

#endif /* TL_OVERLAY_PRIVATE_H */
