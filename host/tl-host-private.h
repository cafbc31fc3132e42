/* ThreadLens: what host/tl-host.c (arguments, settings, processing) and
 * host/tl-host-map.c (the thread map) share besides tl-host.h.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_HOST_PRIVATE_H
#define TL_HOST_PRIVATE_H

#include "tl-host.h"

G_BEGIN_DECLS

void     tl_host_report   (TlHostProgress        progress,
                           gpointer              data,
                           gdouble               fraction,
                           const gchar          *message);
gboolean tl_host_draw_map (TlContext            *context,
                           const TlHostSettings *settings,
                           const TlFilter       *filter,
                           const TlCodec        *codec,
                           GeglBuffer           *source,
                           const GeglRectangle  *region,
                           GeglBuffer           *filtered,
                           const GeglRectangle  *inner,
                           gdouble               ms_per_group,
                           TlHostOverlay        *overlay,
                           GError              **error);

G_END_DECLS

#endif /* TL_HOST_PRIVATE_H */
