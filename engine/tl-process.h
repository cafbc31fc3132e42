/* ThreadLens: a filter over a region of a GEGL buffer, in tiles.
 *
 * Both front ends (the command line and the GIMP hosts) filter through
 * here.  A region too big for one device buffer (or for a bounded amount
 * of host memory) runs in tiles, each read with the filter's halo around
 * it, so tiled output is the untiled output bit for bit.  With no OpenCL
 * platform at all (context NULL), the filter's C reference runs instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PROCESS_H
#define TL_PROCESS_H

#include <gegl.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"
#include "tl-run.h"

G_BEGIN_DECLS

typedef struct
{
  TlRunTimes     times;         /* summed over the tiles */
  gdouble        read_ms;       /* GEGL's buffer into the tiles' memory */
  gdouble        write_ms;      /* the tiles' results into GEGL's buffer */
  gdouble        device_ms;     /* the runs on the device, wall clock: the
                                 * transfers and kernels, and the host's
                                 * calls around them */
  gdouble        region_ms;     /* all of tl_process_region () */
  TlPlan         plan;          /* the first tile's */
  guint          tiles;
  GeglRectangle  tile;          /* the first tile, halo excluded */
  gsize          peak_bytes;    /* host memory the pixels took at once */
  gsize          fresh_bytes;   /* of it, memory the process had not kept */
  gsize          pixel_size;    /* bytes per pixel as they travelled */
  const gchar   *storage;       /* "u8", "u16", "half" or "float" */
  gboolean       on_cpu;        /* the C reference ran (no platform) */
} TlProcessReport;

gboolean  tl_process_region        (TlContext           *context,
                                    const TlFilter      *filter,
                                    const TlValue       *values,
                                    const TlChoice      *choice,
                                    GeglBuffer          *source,
                                    GeglBuffer          *target,
                                    const GeglRectangle *region,
                                    guint                max_tile,
                                    TlWatchFunc          watch,
                                    gpointer             watch_data,
                                    TlProcessReport     *report,
                                    GError             **error);
gboolean  tl_process_write_area    (GeglBuffer          *buffer,
                                    const GeglRectangle *area,
                                    const Babl          *format,
                                    gconstpointer        pixels,
                                    GError             **error);
gpointer  tl_process_read_area     (GeglBuffer          *source,
                                    const GeglRectangle *region,
                                    guint                halo,
                                    const Babl          *format,
                                    GeglRectangle       *area,
                                    GError             **error);
guint     tl_process_tile_setting  (void);
gboolean  tl_process_can_fall_back (const GError        *error);
gchar    *tl_process_fallback_text (const TlFilter      *filter,
                                    const GError        *why);

G_END_DECLS

#endif /* TL_PROCESS_H */
