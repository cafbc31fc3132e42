/* ThreadLens: the dialog's preview on GIMP 3's canvas.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef THREADLENS3_PREVIEW_H
#define THREADLENS3_PREVIEW_H

#include <libgimp/gimp.h>

#include "tl-filter.h"
#include "tl-host.h"
#include "tl-host-check.h"

G_BEGIN_DECLS

typedef struct _Threadlens3Preview Threadlens3Preview;

/* FILTER with SETTINGS live on DRAWABLE's canvas (of KIND), as a filter
 * at the top of its stack that no undo step records; NULL where there
 * can be none (the thread map; a mask or channel keeps no stack; GIMP
 * without ThreadLens's module), which the dialog shows as no preview.
 */
Threadlens3Preview *threadlens3_preview_new         (GimpDrawable         *drawable,
                                                     TlHostDrawableKind    kind,
                                                     const TlFilter       *filter,
                                                     const TlHostSettings *settings);
/* SETTINGS from now on, drawn a moment later so that a slider dragged
 * redraws the canvas at a steady pace, not once per step.
 */
void                threadlens3_preview_set         (Threadlens3Preview   *preview,
                                                     const TlHostSettings *settings);
void                threadlens3_preview_set_visible (Threadlens3Preview   *preview,
                                                     gboolean              visible);
/* Takes the filter off the canvas: the layer and its undo history are
 * as they were before threadlens3_preview_new ().
 */
void                threadlens3_preview_free        (Threadlens3Preview   *preview);

G_END_DECLS

#endif /* THREADLENS3_PREVIEW_H */
