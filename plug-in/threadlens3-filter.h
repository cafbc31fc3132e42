/* ThreadLens: a threadlens:* operation as a GIMP 3 drawable filter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef THREADLENS3_FILTER_H
#define THREADLENS3_FILTER_H

#include <libgimp/gimp.h>

#include "tl-host.h"

G_BEGIN_DECLS

/* A new filter running OPERATION on DRAWABLE, called TITLE in the
 * drawable's stack, at full opacity replacing the pixels; NULL with
 * TL_ERROR_NO_OPERATION when GIMP does not know the operation (the
 * module is not installed).  Not yet appended nor merged.
 */
GimpDrawableFilter *threadlens3_filter_new       (GimpDrawable       *drawable,
                                                  const gchar        *operation,
                                                  const gchar        *title,
                                                  GError            **error);

/* Sets the filter's properties from ARGS and their VALUES (those of the
 * N_ARGS it has) and syncs them with GIMP.  FALSE with ERROR when a
 * property's type is not the argument's (a module older than the
 * plug-in).
 */
gboolean            threadlens3_filter_configure (GimpDrawableFilter *filter,
                                                  const TlHostArg    *args,
                                                  const TlHostValue  *values,
                                                  guint               n_args,
                                                  GError            **error);

G_END_DECLS

#endif /* THREADLENS3_FILTER_H */
