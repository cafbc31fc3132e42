/* ThreadLens: a run's pixels across the bus in bands of rows, the host's
 * copies of one band overlapping the transfers of the others
 * (tl_run_job_banded ()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-fault.h"
#include "tl-run-private.h"

/* Rows a band of a banded transfer carries: 64 MiB, so that the host
 * copies the next band while the bus carries this one.  On the H200
 * machine the recursive Gaussian at 12000x8000 (384 MB in one tile) took
 * 86 ms in 64 MiB bands and 96 ms in one; bands of 4 or 16 MiB made
 * GEGL's writes slower (57 and 52 ms against 49) and gained nothing at
 * 3840x2160, where one band is the whole layer.
 */
#define TL_RUN_BAND_BYTES ((gsize) 64 << 20)

/* THREADLENS_BANDS=N, for tests: every banded transfer in N bands, and
 * through the device's own buffers even where it could work on the
 * pixels in place (a CPU), so that PoCL takes a GPU's path.  0: unset.
 */
guint
tl_run_bands_setting (void)
{
  const gchar *text = g_getenv ("THREADLENS_BANDS");
  guint64      n    = 0;

  if (text && *text &&
      ! g_ascii_string_to_unsigned (text, 10, 1, TL_RUN_MAX_BANDS, &n, NULL))
    {
      g_warning ("THREADLENS_BANDS='%s' is not 1 to %d bands; ignored", text,
                 TL_RUN_MAX_BANDS);
      n = 0;
    }
  return (guint) n;
}

/* Where the band that starts at row START of rows FIRST to LAST ends: a
 * band's bytes on, at a multiple of GRID rows from PHASE (GEGL's tile rows,
 * so that each tile is read by one band, whole), at most LAST.
 */
static guint
tl_run_bands_end (const TlPixels *pixels,
                  guint           start,
                  guint           first,
                  guint           last,
                  guint           grid,
                  guint           phase)
{
  gsize row   = MAX ((gsize) pixels->width * tl_run_storage_pixel_size (pixels), 1);
  guint rows  = last - first;
  guint n     = CLAMP ((rows * row + TL_RUN_BAND_BYTES - 1) / TL_RUN_BAND_BYTES,
                       1, TL_RUN_MAX_BANDS);
  guint64 end;

  if (tl_run_bands_setting () > 0)
    {
      n    = tl_run_bands_setting ();
      grid = 1;
    }
  end = (guint64) start + MAX ((rows + n - 1) / n, 1);
  if (grid > 1)
    end += (grid - (phase + end) % grid) % grid;
  return (guint) MIN (end, (guint64) last);
}

void
tl_run_bands_release (cl_event *events,
                      guint     n)
{
  guint i;

  for (i = 0; i < n; i++)
    if (events[i])
      clReleaseEvent (events[i]);
}

/* BANDS fill the input band by band, each band's upload enqueued as soon
 * as it is filled, its event into EVENTS (N_EVENTS of them: the caller
 * releases them); where the device works on the pixels in place, all at
 * once.
 */
gboolean
tl_run_bands_upload (TlRun            *run,
                     const TlRunBands *bands,
                     cl_event         *events,
                     guint            *n_events,
                     GError          **error)
{
  const TlPixels *pixels = run->pixels;
  gsize           row    = (gsize) pixels->width * tl_run_storage_pixel_size (pixels);
  guint           y, end;
  cl_int          status;

  /* In place, the bands were filled before the buffers wrapped them. */
  if (run->in_place)
    return TRUE;

  for (y = 0; y < pixels->height; y = end)
    {
      guint rows;

      end  = tl_run_bands_end (pixels, y, 0, pixels->height, bands->fill_grid,
                              bands->fill_phase);
      rows = end - y;

      if (! bands->fill (y, rows, bands->data, error))
        return FALSE;
      status = TL_CL (clEnqueueWriteBuffer, tl_context_get_queue (run->context),
                      run->input, CL_FALSE, y * row, rows * row,
                      (const guint8 *) pixels->in + y * row, 0, NULL,
                      &events[*n_events]);
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("copying the image to the device"));
          return FALSE;
        }
      (*n_events)++;
    }
  return TRUE;
}

/* The output's rows BANDS asks for come back band by band, each band
 * drained (written on) as soon as it is on the host, while the next
 * ones cross the bus.  DOWNLOAD_MS gets their time on the device.  Not
 * for a device that works in place.
 */
gboolean
tl_run_bands_download (TlRun            *run,
                       const TlRunBands *bands,
                       gdouble          *download_ms,
                       GError          **error)
{
  const TlPixels *pixels = run->pixels;
  gsize           row    = (gsize) pixels->width * tl_run_storage_pixel_size (pixels);
  guint           first  = MIN (bands->first_row, pixels->height);
  guint           last   = MIN (first + bands->rows, pixels->height);
  cl_event        events[TL_RUN_MAX_BANDS] = { NULL, };
  guint           ends[TL_RUN_MAX_BANDS];
  guint           n = 0, y, i;
  cl_int          status = CL_SUCCESS;
  gboolean        ok = TRUE;

  for (y = first; y < last; y = ends[n++])
    {
      guint rows;

      ends[n] = tl_run_bands_end (pixels, y, first, last, bands->drain_grid,
                                 bands->drain_phase);
      rows    = ends[n] - y;

      status = TL_CL (clEnqueueReadBuffer, tl_context_get_queue (run->context),
                      run->output, CL_FALSE, y * row, rows * row,
                      (guint8 *) pixels->out + y * row, 0, NULL, &events[n]);
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("reading the result from the device"));
          ok = FALSE;
          break;
        }
    }
  for (i = 0, y = first; ok && i < n; y = ends[i++])
    {
      status = TL_CL (clWaitForEvents, 1, &events[i]);
      if (status != CL_SUCCESS)
        {
          tl_cl_set_error (error, status, _("reading the result from the device"));
          ok = FALSE;
          break;
        }
      *download_ms += tl_run_event_ms (events[i], events[i]);
      ok = bands->drain (y, ends[i] - y, bands->data, error);
    }
  tl_run_bands_release (events, n);
  return ok;
}

