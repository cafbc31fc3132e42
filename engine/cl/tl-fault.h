/* ThreadLens: test-only OpenCL fault injection.
 *
 * Every OpenCL call the engine makes (releases aside) goes through
 * TL_CL () or TL_CL_NEW (), which count it and, when a fault is armed,
 * make it fail without calling the driver; every allocation sized by a
 * layer (tl-alloc.h) asks tl_fault_check (TL_FAULT_ALLOC) first.  The tests arm one call at a
 * time and check that each run ends in a clean error: no crash, no leak,
 * no half-written output.
 *
 * Armed from THREADLENS_FAULT (read once) or tl_fault_arm ():
 *   "N"          the N-th call (from 1) fails
 *   "NAME"       every call of NAME fails ("clBuildProgram")
 *   "NAME:N"     the N-th call of NAME fails
 *   "alloc:N"    the N-th allocation sized by a layer fails ("alloc":
 *                every one); "N" counts OpenCL calls only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_FAULT_H
#define TL_FAULT_H

#include <glib.h>
#include <CL/cl.h>      /* not tl-cl.h: the runtime includes this header */

G_BEGIN_DECLS

#define TL_FAULT_ALLOC "alloc"

cl_int   tl_fault_check (const gchar *call);
gboolean tl_fault_arm   (const gchar *spec,
                         GError     **error);
guint    tl_fault_calls (void);
guint    tl_fault_fired (void);

/* A call returning its status: TL_CL (clFinish, queue). */
#define TL_CL(call, ...)                                               \
  ({ cl_int tl_fault_status_ = tl_fault_check (#call);                 \
     tl_fault_status_ != CL_SUCCESS ? tl_fault_status_                 \
                                    : call (__VA_ARGS__); })

/* A call returning an object, its status in STATUS (a cl_int *):
 * TL_CL_NEW (clCreateKernel, &status, program, name).
 */
#define TL_CL_NEW(call, status, ...)                                   \
  ({ cl_int tl_fault_status_ = tl_fault_check (#call);                 \
     tl_fault_status_ != CL_SUCCESS ? (*(status) = tl_fault_status_, NULL) \
                                    : call (__VA_ARGS__, status); })

G_END_DECLS

#endif /* TL_FAULT_H */
