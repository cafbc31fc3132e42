/* ThreadLens dialog: what each OpenCL device allows for a filter.
 *
 * The dialog lists every OpenCL device with the P and M of the current
 * filter's kernels, which means building those kernels on each device.
 * That takes about a second per device on PoCL the first time (the disk
 * cache makes later dialogs quick), so it runs in a worker thread.
 * Tests pass their own TlProbeDevice lists instead, so the dialog can be
 * checked against limits of devices that are not present.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PROBE_H
#define TL_PROBE_H

#include <gio/gio.h>

#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef struct
{
  gchar    *name;          /* the device's name */
  gchar    *kind;          /* "GPU", "CPU", ...; NULL: not shown */
  gchar    *spec;          /* what TlHostSettings.device gets; NULL: the name */
  TlLimits  limits;        /* for the filter's kernels: valid when measured */
  gboolean  measured;
  gchar    *error;         /* why it was not measured */
  gboolean  names_compute_units;  /* the overlay's compute-unit mode works */
  gchar    *driver;        /* its driver version, for the tuning data */
} TlProbeDevice;

TlProbeDevice *tl_probe_device_copy    (const TlProbeDevice *device);
void           tl_probe_device_free    (TlProbeDevice       *device);

GPtrArray     *tl_probe_devices        (const TlFilter      *filter,
                                        const Babl          *layer_format,
                                        guint                width,
                                        guint                height,
                                        guint               *default_index,
                                        GError             **error);
void           tl_probe_devices_async  (const TlFilter      *filter,
                                        const Babl          *layer_format,
                                        guint                width,
                                        guint                height,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
GPtrArray     *tl_probe_devices_finish (GAsyncResult        *result,
                                        guint               *default_index,
                                        GError             **error);

void           tl_probe_lock           (void);
void           tl_probe_unlock         (void);

void           tl_probe_job_begin      (void);
void           tl_probe_job_end        (void);
guint          tl_probe_get_jobs       (void);
void           tl_probe_wait_jobs      (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlProbeDevice, tl_probe_device_free)

G_END_DECLS

#endif /* TL_PROBE_H */
