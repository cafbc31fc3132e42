/* ThreadLens: one judgement of a call, for every way it arrives.
 *
 * The GIMP 2.10 and GIMP 3 procedures, the GEGL module's operations and
 * the dialog each get their settings their own way; whether those
 * settings can run is decided here alone, so that the paths cannot
 * disagree: a call refused by one is refused by all, with the same
 * message.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_HOST_CHECK_H
#define TL_HOST_CHECK_H

#include "tl-host.h"

G_BEGIN_DECLS

gboolean tl_host_check_shape    (const TlHostSettings *settings,
                                 GError              **error);
gboolean tl_host_check_settings (const TlFilter       *filter,
                                 const TlHostSettings *settings,
                                 GError              **error);
gboolean tl_host_check_device   (const TlFilter       *filter,
                                 const TlHostSettings *settings,
                                 const TlDevice       *device,
                                 GError              **error);
gboolean tl_host_check_drawable (TlHostDrawableKind    kind,
                                 gboolean              non_destructive,
                                 GError              **error);

G_END_DECLS

#endif /* TL_HOST_CHECK_H */
