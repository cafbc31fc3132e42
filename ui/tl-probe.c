/* ThreadLens dialog: what each OpenCL device allows for a filter.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-cl.h"
#include "tl-overlay.h"
#include "tl-probe.h"
#include "tl-run.h"

/* The dialog's OpenCL work (probing, preview runs) takes turns: two
 * builds at once on a CPU device only make both late.
 */
static GMutex tl_probe_mutex;

/* Worker-thread jobs not yet back in the main thread.  Counted in the
 * main thread only: jobs begin there and their callbacks run there.
 */
static guint  tl_probe_jobs;

typedef struct
{
  const TlFilter *filter;
  const Babl     *layer_format;  /* babl formats live for the process */
  guint           width;
  guint           height;
} TlProbeRequest;

typedef struct
{
  GPtrArray *devices;
  guint      default_index;
} TlProbeResult;

void
tl_probe_lock (void)
{
  g_mutex_lock (&tl_probe_mutex);
}

void
tl_probe_unlock (void)
{
  g_mutex_unlock (&tl_probe_mutex);
}

void
tl_probe_job_begin (void)
{
  tl_probe_jobs++;
}

void
tl_probe_job_end (void)
{
  g_return_if_fail (tl_probe_jobs > 0);

  tl_probe_jobs--;
}

guint
tl_probe_get_jobs (void)
{
  return tl_probe_jobs;
}

/* Runs the default main context until every job is back: no kernel of
 * the dialog still runs when the host starts its own, or exits.
 */
void
tl_probe_wait_jobs (void)
{
  while (tl_probe_jobs > 0)
    g_main_context_iteration (NULL, TRUE);
}

TlProbeDevice *
tl_probe_device_copy (const TlProbeDevice *device)
{
  TlProbeDevice *copy;

  g_return_val_if_fail (device != NULL, NULL);

  copy = g_new0 (TlProbeDevice, 1);
  *copy = *device;
  copy->name  = g_strdup (device->name ? device->name : "");
  copy->kind  = g_strdup (device->kind);
  copy->driver = g_strdup (device->driver);
  copy->spec  = g_strdup (device->spec ? device->spec : copy->name);
  copy->error = g_strdup (device->error);

  return copy;
}

void
tl_probe_device_free (TlProbeDevice *device)
{
  if (device == NULL)
    return;

  g_free (device->name);
  g_free (device->kind);
  g_free (device->driver);
  g_free (device->spec);
  g_free (device->error);
  g_free (device);
}

/* Every device with its limits for FILTER's kernels (NULL: the overlay
 * kernel's, for the thread map), the way the host will plan on it: in the
 * program variant for a layer in LAYER_FORMAT (NULL: float), so that the
 * run builds nothing the dialog did not.  DEFAULT_INDEX gets the device
 * an empty TlHostSettings.device means.  Blocks while kernels build.
 */
GPtrArray *
tl_probe_devices (const TlFilter *filter,
                  const Babl     *layer_format,
                  guint           width,
                  guint           height,
                  guint          *default_index,
                  GError        **error)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(TlCodec)   codec   = NULL;
  const TlDevice      *fallback;
  GPtrArray           *result;
  TlChoice             choice;
  guint                i;

  g_return_val_if_fail (width > 0 && height > 0, NULL);

  devices = tl_cl_list_devices (error);
  if (devices == NULL)
    return NULL;

  if (filter && layer_format)
    codec = tl_codec_new (layer_format, filter->format, NULL);
  tl_choice_init (&choice);
  result = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_probe_device_free);

  for (i = 0; i < devices->len; i++)
    {
      const TlDevice      *device  = g_ptr_array_index (devices, i);
      TlProbeDevice       *probe   = g_new0 (TlProbeDevice, 1);
      g_autoptr(TlContext) context = NULL;
      g_autoptr(GError)    failure = NULL;
      g_autofree gchar    *index   = g_strdup_printf ("%u", i);
      TlPlan               plan;

      probe->name = g_strdup (device->name);
      probe->kind = g_strdup (tl_cl_device_type_name (device->type));
      probe->driver = g_strdup (device->driver_version);
      /* A name survives a new device being plugged in; an index is the
       * only way to tell two devices of the same name apart.
       */
      if (tl_cl_find_device (devices, device->name, NULL) == device)
        probe->spec = g_strdup (device->name);
      else
        probe->spec = g_strdup (index);

      probe->names_compute_units = tl_overlay_device_shows (device,
                                                            TL_OVERLAY_COMPUTE_UNIT);

      context = tl_context_new (index, &failure);
      if (context &&
          tl_overlay_plan (context, filter, codec, &choice, width, height,
                           &probe->limits, &plan, &failure))
        probe->measured = TRUE;
      else
        probe->error = g_strdup (failure->message);

      g_ptr_array_add (result, probe);
    }

  fallback = tl_cl_find_device (devices, NULL, NULL);
  if (default_index)
    *default_index = fallback ? fallback->index : 0;

  return result;
}

static void
tl_probe_result_free (gpointer data)
{
  TlProbeResult *result = data;

  g_clear_pointer (&result->devices, g_ptr_array_unref);
  g_free (result);
}

static void
tl_probe_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  TlProbeRequest *request = task_data;
  TlProbeResult  *result  = g_new0 (TlProbeResult, 1);
  GError         *error   = NULL;

  tl_probe_lock ();
  result->devices = tl_probe_devices (request->filter, request->layer_format,
                                      request->width, request->height,
                                      &result->default_index, &error);
  tl_probe_unlock ();

  if (result->devices == NULL)
    {
      tl_probe_result_free (result);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, result, tl_probe_result_free);
}

/* CALLBACK gets no source object: widgets pass a GWeakRef as USER_DATA,
 * so a worker thread never holds the last reference to a widget.
 */
void
tl_probe_devices_async (const TlFilter      *filter,
                        const Babl          *layer_format,
                        guint                width,
                        guint                height,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  TlProbeRequest  *request;

  g_return_if_fail (width > 0 && height > 0);

  request = g_new0 (TlProbeRequest, 1);
  request->filter = filter;
  request->layer_format = layer_format;
  request->width  = width;
  request->height = height;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, tl_probe_devices_async);
  g_task_set_task_data (task, request, g_free);
  g_task_run_in_thread (task, tl_probe_thread);
}

GPtrArray *
tl_probe_devices_finish (GAsyncResult *result,
                         guint        *default_index,
                         GError      **error)
{
  TlProbeResult *probed;
  GPtrArray     *devices;

  g_return_val_if_fail (G_IS_TASK (result), NULL);

  probed = g_task_propagate_pointer (G_TASK (result), error);
  if (probed == NULL)
    return NULL;

  devices = g_steal_pointer (&probed->devices);
  if (default_index)
    *default_index = probed->default_index;
  tl_probe_result_free (probed);

  return devices;
}
