/* ThreadLens: the thread map drawn over an image file (overlay).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CLI_OVERLAY_H
#define TL_CLI_OVERLAY_H

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-overlay.h"
#include "tl-plan.h"

G_BEGIN_DECLS

/* The rate FILTER's run with VALUES under CHOICE on IMAGE (in CODEC's
 * storage) measured, for its map's launches (tl_run_pace_at ()): the
 * filter runs once, its pixels dropped.  FALSE with ERROR.
 */
gboolean      tl_cli_overlay_pace (TlContext      *context,
                                   const TlFilter *filter,
                                   const TlValue  *values,
                                   const TlChoice *choice,
                                   const TlCodec  *codec,
                                   TlImage        *image,
                                   gdouble        *ms_per_group,
                                   GError        **error);
/* PLAN's thread map (LIMITS' SIMD width; launches paced at MS_PER_GROUP,
 * or 0) drawn over IMAGE in MODE, STYLE and OPACITY: on the device in
 * the image's own storage, as in GIMP, or ON_HOST with the C renderer.
 * KEEP_PIXELS keeps the pixels' words in the map (for --dump-ids).  The
 * map, or NULL with ERROR and IMAGE as it was.
 */
TlOverlayMap *tl_cli_overlay_draw (TlContext      *context,
                                   const TlPlan   *plan,
                                   const TlLimits *limits,
                                   gdouble         ms_per_group,
                                   TlOverlayMode   mode,
                                   TlOverlayStyle  style,
                                   gdouble         opacity,
                                   gboolean        on_host,
                                   gboolean        keep_pixels,
                                   TlImage        *image,
                                   GError        **error);

G_END_DECLS

#endif /* TL_CLI_OVERLAY_H */
