/* ThreadLens: every filter's OpenCL programs built ahead, into the disk
 * cache, so that a filter's first use in GIMP loads them instead of
 * waiting for the driver's compiler.
 *
 * The GEGL module runs this in its platform probe's helper, a process of
 * its own, when the probe is new (a new driver set): nothing that can
 * abort runs in GIMP's process, and GIMP does not wait for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_HOST_PREBUILD_H
#define TL_HOST_PREBUILD_H

#include "tl-cl.h"

G_BEGIN_DECLS

/* Runs every filter of the registry on a few pixels in each layer format
 * GIMP users' layers mostly have, at its defaults and at each number's
 * slider ends (which pick other program variants), on CONTEXT: what its
 * runs build goes to the program cache.  FALSE with ERROR where a run at
 * the defaults fails.  GEGL must be initialised.
 */
gboolean  tl_host_prebuild  (TlContext  *context,
                             GError    **error);

G_END_DECLS

#endif /* TL_HOST_PREBUILD_H */
