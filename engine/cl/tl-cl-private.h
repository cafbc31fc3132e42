/* ThreadLens: what the OpenCL runtime's files share (see tl-cl.h).
 *
 * Private to tl-cl-error.c (errors), tl-cl-device.c (platforms and
 * devices), tl-cl-context.c (a device's context and queue),
 * tl-cl-staging.c (its pinned host memory) and tl-cl-program.c (programs
 * and kernels); everyone else goes through tl-cl.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CL_PRIVATE_H
#define TL_CL_PRIVATE_H

#include "tl-cl.h"

G_BEGIN_DECLS

#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* Pinned host memory of one slot, mapped while the context lives. */
typedef struct
{
  cl_mem    buffer;
  gpointer  mapped;
  gsize     size;
  gboolean  taken;
} TlStaging;

struct _TlContext
{
  GPtrArray        *devices;
  const TlDevice   *device;
  cl_context        context;
  cl_command_queue  queue;
  gchar            *build_options;
  gboolean          whole_groups;    /* every kernel runs the device's largest
                                      * group (NVIDIA, registers capped) */
  gboolean          native_non_uniform;
  GHashTable       *programs;        /* program name -> cl_program */
  GHashTable       *kernels;         /* "program/kernel" -> cl_kernel */
  GHashTable       *kernel_local;    /* cl_kernel -> its own local memory,
                                      * before any argument (guint64) */
  TlCacheStats      stats;
  GMutex            staging_lock;    /* guards STAGING's taken flags */
  TlStaging         staging[TL_STAGING_SLOTS];
};

void              tl_context_release_staging (TlContext       *context);

guint             tl_cl_parse_version       (const gchar      *text);

G_END_DECLS

#endif /* TL_CL_PRIVATE_H */
