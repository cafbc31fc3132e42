/* ThreadLens: pinned host memory a device copies by DMA (see tl-cl.h).
 *
 * A GPU copies between its memory and the host's fastest from memory
 * the driver has pinned: on the H100, a 33 MB 8-bit layer went up in
 * 0.63 ms from pinned memory and 3.7 ms from the memory a tile had from
 * malloc (), and down in 0.63 against 2.2 ms; memory the process had not
 * touched before cost a page fault a page on top (85 ms for a 133 MB
 * result).  So a context keeps a tile's input and output in buffers the
 * driver allocates in host memory (CL_MEM_ALLOC_HOST_PTR), mapped once
 * for the life of the context: GEGL reads the layer straight into one,
 * the upload copies from it, the download copies into the other, and
 * GEGL writes the result from there.  A CPU's kernels work on host
 * memory in place (tl-run.c), so it takes none.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-cl-private.h"
#include "tl-fault.h"

/* Pinned memory a slot takes, and keeps from one call to the next, at
 * most: a 100 MP layer's whole lines in 8 bits.  Pinning costs time
 * (about 0.6 s for two 384 MB slots on the H100's host): larger tiles
 * travel from memory of their own, and no process keeps more pinned.
 */
#define TL_STAGING_KEPT_MAX ((gsize) 512 << 20)

static void
tl_staging_release (TlStaging *staging,
                    cl_command_queue queue)
{
  if (staging->buffer == NULL)
    return;
  if (staging->mapped)
    {
      clEnqueueUnmapMemObject (queue, staging->buffer, staging->mapped, 0,
                               NULL, NULL);
      clFinish (queue);
    }
  clReleaseMemObject (staging->buffer);
  staging->buffer = NULL;
  staging->mapped = NULL;
  staging->size   = 0;
}

/* Whether CONTEXT's device copies through staging at all. */
gboolean
tl_context_stages (TlContext *context)
{
  g_return_val_if_fail (context != NULL, FALSE);

  return ! (context->device->type & CL_DEVICE_TYPE_CPU) &&
         g_strcmp0 (g_getenv ("THREADLENS_STAGING"), "off") != 0;
}

/* At least BYTES of pinned host memory for SLOT (TL_STAGING_INPUT or
 * TL_STAGING_OUTPUT), the caller's until tl_context_give_staging ();
 * NULL where the device takes none (a CPU), the slot is taken, or the
 * driver pins no more (the caller then uses memory of its own: slower,
 * not wrong).
 */
gpointer
tl_context_take_staging (TlContext     *context,
                         TlStagingSlot  slot,
                         gsize          bytes)
{
  TlStaging *staging;
  cl_int     status;

  g_return_val_if_fail (context != NULL, NULL);
  g_return_val_if_fail (slot < TL_STAGING_SLOTS, NULL);

  staging = &context->staging[slot];
  if (! tl_context_stages (context) || bytes > TL_STAGING_KEPT_MAX)
    return NULL;
  g_mutex_lock (&context->staging_lock);
  if (staging->taken)
    {
      g_mutex_unlock (&context->staging_lock);
      return NULL;
    }
  staging->taken = TRUE;
  g_mutex_unlock (&context->staging_lock);

  if (staging->size < bytes)
    {
      gint64 start = g_get_monotonic_time ();

      tl_staging_release (staging, context->queue);
      staging->buffer = TL_CL_NEW (clCreateBuffer, &status, context->context,
                                   CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                   bytes, NULL);
      if (staging->buffer)
        staging->mapped = TL_CL_NEW (clEnqueueMapBuffer, &status,
                                     context->queue, staging->buffer, CL_TRUE,
                                     CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                     NULL, NULL);
      if (staging->mapped == NULL)
        {
          g_debug ("no pinned host memory of %" G_GSIZE_FORMAT " bytes (%d): "
                   "tiles copy from their own", bytes, status);
          tl_staging_release (staging, context->queue);
          tl_context_give_staging (context, slot);
          return NULL;
        }
      staging->size = bytes;
      g_debug ("%" G_GSIZE_FORMAT " bytes of pinned host memory in %.1f ms",
               bytes, (g_get_monotonic_time () - start) / 1000.0);
    }
  return staging->mapped;
}

/* SLOT back to CONTEXT, kept mapped for the next tile. */
void
tl_context_give_staging (TlContext     *context,
                         TlStagingSlot  slot)
{
  g_return_if_fail (context != NULL);
  g_return_if_fail (slot < TL_STAGING_SLOTS);

  g_mutex_lock (&context->staging_lock);
  context->staging[slot].taken = FALSE;
  g_mutex_unlock (&context->staging_lock);
}

/* Every slot unmapped and released (the context goes). */
void
tl_context_release_staging (TlContext *context)
{
  guint i;

  for (i = 0; i < TL_STAGING_SLOTS; i++)
    tl_staging_release (&context->staging[i], context->queue);
}
