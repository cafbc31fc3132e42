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
#include "tl-run.h"

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
  guint32             *pixels;        /* TL_OVERLAY_PIXEL_WORDS per pixel;
                                       * NULL where it was drawn on the
                                       * device (tl-overlay-draw.c) */
  guint32             *groups;        /* TL_OVERLAY_GROUP_WORDS per group,
                                       * by launch index */
  guint                n_pieces;      /* what the plan's launches were cut
                                       * into by the launch budget */
  gboolean             paced;         /* at a filter's rate, not the
                                       * map kernel's own */
  guint32             *group_piece;   /* by launch index: its group's
                                       * piece, 0 first; NULL where no
                                       * launch was cut */
  guint32             *ticket_piece;  /* by ticket: the same, for the
                                       * launch order's colours; NULL
                                       * likewise */
};

/* Called by tl_overlay_run_windows () after the overlay kernel wrote
 * ROWS rows of the map from FIRST_ROW into WINDOW on the device; GROUPS
 * holds the groups' records.
 */
typedef gboolean (* TlOverlayWindowFunc) (TlRun              *run,
                                          const TlOverlayMap *map,
                                          cl_mem              window,
                                          cl_mem              groups,
                                          guint               first_row,
                                          guint               rows,
                                          gpointer            data,
                                          GError            **error);

TlOverlayMap *tl_overlay_run_windows   (TlContext           *context,
                                        const TlPlan        *plan,
                                        guint                simd_width,
                                        gdouble              ms_per_group,
                                        gboolean             keep_pixels,
                                        TlOverlayWindowFunc  window,
                                        gpointer             window_data,
                                        GError             **error);
void          tl_overlay_set_unwritten (const TlOverlayMap  *map,
                                        gsize                index,
                                        GError             **error);
gfloat       *tl_overlay_colours       (const TlOverlayMap  *map,
                                        TlOverlayMode        mode,
                                        guint               *n_colours,
                                        GError             **error);
gboolean      tl_overlay_check_mode    (const TlOverlayMap  *map,
                                        TlOverlayMode        mode,
                                        TlOverlayStyle       style,
                                        gdouble              opacity,
                                        GError             **error);
gfloat        tl_overlay_hatch_alpha   (gdouble              opacity);
gboolean      tl_overlay_outlined      (const TlPlan        *plan);

G_END_DECLS

#endif /* TL_OVERLAY_PRIVATE_H */
