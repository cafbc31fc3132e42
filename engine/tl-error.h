/* ThreadLens: errors shared by the engine and its front ends.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_ERROR_H
#define TL_ERROR_H

#include <glib.h>

G_BEGIN_DECLS

#define TL_ERROR (tl_error_quark ())

typedef enum
{
  TL_ERROR_INVALID_ARGUMENT,   /* a user's choice that cannot be honoured */
  TL_ERROR_LIMIT,              /* a shape over a kernel or device limit */
  TL_ERROR_NO_PLATFORM,        /* no OpenCL platform or device at all */
  TL_ERROR_NO_DEVICE,          /* the requested device does not exist */
  TL_ERROR_OPENCL,             /* an OpenCL call failed */
  TL_ERROR_BUILD,              /* a kernel failed to build; message has the log */
  TL_ERROR_IO,                 /* an image could not be read or written */
  TL_ERROR_NO_OPERATION,       /* the host has no such GEGL operation */
  TL_ERROR_CANCELLED           /* the user stopped the run */
} TlErrorCode;

GQuark tl_error_quark (void);

G_END_DECLS

#endif /* TL_ERROR_H */
