/* ThreadLens: a filter over a region of a GEGL buffer, in tiles (see
 * tl-process.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-codec.h"
#include "tl-error.h"
#include "tl-filter-job.h"
#include "tl-process.h"
#include "tl-run.h"

/* Host memory for one tile's input, and as much again for its output.
 * On the device a pixel may widen to 4 floats (the blurs' first pass),
 * which the device's largest buffer must hold too.
 */
#define TL_PROCESS_TILE_BYTES   ((gsize) 256 << 20)
#define TL_PROCESS_DEVICE_PIXEL 16
#define TL_PROCESS_MIN_TILE     16

/* THREADLENS_TILE=N caps tiles at N x N pixels (halo aside): 0 or unset
 * leaves the size to the memory bounds.
 */
guint
tl_process_tile_setting (void)
{
  const gchar *text = g_getenv ("THREADLENS_TILE");
  guint64      side = 0;

  if (text && *text &&
      ! g_ascii_string_to_unsigned (text, 10, TL_PROCESS_MIN_TILE, 1 << 20,
                                    &side, NULL))
    {
      g_warning ("THREADLENS_TILE='%s' is not a tile size of %d to %d pixels; "
                 "ignored", text, TL_PROCESS_MIN_TILE, 1 << 20);
      side = 0;
    }
  return (guint) side;
}

/* The most pixels of PIXEL_SIZE bytes one tile can have at all: the
 * device's largest buffer (a pixel may widen to 4 floats there), and a
 * quarter of the host's memory for the tile's input and output.
 */
static guint64
tl_process_whole_pixels (TlContext *context,
                         gsize      pixel_size)
{
  gint64  pages = sysconf (_SC_PHYS_PAGES);
  gint64  page  = sysconf (_SC_PAGESIZE);
  guint64 most  = G_MAXUINT64;

  if (pages > 0 && page > 0)
    most = (guint64) pages * (guint64) page / 4 / (2 * MAX (pixel_size, 1));
  if (context && tl_context_get_device (context)->max_alloc_size > 0)
    most = MIN (most, tl_context_get_device (context)->max_alloc_size /
                      TL_PROCESS_DEVICE_PIXEL);
  return most;
}

/* The side of square tiles for REGION (G_MAXINT: one tile), or 0 with
 * ERROR when the halo leaves no room.
 */
static gint
tl_process_tile_side (TlContext           *context,
                      const GeglRectangle *region,
                      const GeglRectangle *extent,
                      guint                halo,
                      gsize                pixel_size,
                      guint                max_tile,
                      GError             **error)
{
  guint64       pixels = TL_PROCESS_TILE_BYTES / MAX (pixel_size, 1);
  GeglRectangle grown  = { region->x - (gint) halo, region->y - (gint) halo,
                           region->width + 2 * (gint) halo,
                           region->height + 2 * (gint) halo };
  guint64       area;
  gint64        side;

  /* What is read: the grown region within the layer. */
  gegl_rectangle_intersect (&grown, &grown, extent);
  area = (guint64) grown.width * grown.height;

  /* A device that did not say its largest buffer (0) bounds nothing. */
  if (context && tl_context_get_device (context)->max_alloc_size > 0)
    pixels = MIN (pixels, tl_context_get_device (context)->max_alloc_size /
                          TL_PROCESS_DEVICE_PIXEL);
  /* Tiles whose halo reaches over the whole layer would each read all
   * of it: one tile, whatever the cap.
   */
  if (area <= pixels && (max_tile == 0 ||
                         halo >= (guint) MAX (extent->width, extent->height) ||
                         (region->width <= (gint) max_tile &&
                          region->height <= (gint) max_tile)))
    return G_MAXINT;

  side = (gint64) sqrt ((gdouble) pixels) - 2 * (gint64) halo;
  if (max_tile > 0)
    side = MIN (side, (gint64) max_tile);
  /* A halo over whole lines (the recursive Gaussian) cannot be tiled:
   * the tiles' budget is a preference, and such a layer goes whole
   * wherever the device's largest buffer and the host's memory hold it.
   */
  if (side < TL_PROCESS_MIN_TILE &&
      halo >= (guint) MAX (extent->width, extent->height))
    {
      guint64 most = tl_process_whole_pixels (context, pixel_size);

      if (area <= most)
        return G_MAXINT;
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("this filter needs whole lines, and a %dx%d region is "
                     "more than one buffer of the device or a quarter of "
                     "the memory holds (%llu pixels)"), grown.width,
                   grown.height, (unsigned long long) most);
      return 0;
    }
  if (side < TL_PROCESS_MIN_TILE)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("a halo of %u pixels leaves no room for tiles in "
                     "buffers of %llu pixels; use a smaller radius"), halo,
                   (unsigned long long) pixels);
      return 0;
    }
  return (gint) side;
}

/* Host memory kept from one tile to the next, and from one call to the
 * next.  Memory the process has not touched before costs a page fault
 * and a page of zeroes a page: a 3840x2160 8-bit layer's 33 MB took
 * 19-25 ms to fill fresh on this 2-core machine and 3 ms again, and the
 * GEGL module in GIMP's process reads a tile and writes one for every
 * call.  At most two blocks (a tile's input and its output) of at most
 * TL_PROCESS_KEPT_MAX bytes each stay, for the life of the process.
 */
#define TL_PROCESS_KEPT_BLOCKS 2
#define TL_PROCESS_KEPT_MAX    ((gsize) 64 << 20)

typedef struct
{
  guint8        *data;
  gsize          size;
  TlContext     *staged;      /* the context whose pinned memory it is */
  TlStagingSlot  slot;
} TlProcessBlock;

static GMutex         tl_process_kept_lock;
static TlProcessBlock tl_process_kept[TL_PROCESS_KEPT_BLOCKS];

/* At least BYTES into BLOCK: the pinned memory of BLOCK's context where
 * it has some (a GPU's), else the smallest kept block that holds them,
 * else fresh memory, whose size FRESH gains.  FALSE with ERROR when
 * there is none.
 */
static gboolean
tl_process_block_take (TlProcessBlock *block,
                       gsize           bytes,
                       gsize          *fresh,
                       GError        **error)
{
  gint best = -1;
  gint i;

  /* A GPU's pinned memory first (tl-cl-staging.c). */
  if (block->staged)
    {
      block->data = tl_context_take_staging (block->staged, block->slot, bytes);
      block->size = bytes;
      if (block->data)
        return TRUE;
      block->staged = NULL;
    }

  g_mutex_lock (&tl_process_kept_lock);
  for (i = 0; i < TL_PROCESS_KEPT_BLOCKS; i++)
    if (tl_process_kept[i].data && tl_process_kept[i].size >= bytes &&
        (best < 0 || tl_process_kept[i].size < tl_process_kept[best].size))
      best = i;
  if (best >= 0)
    {
      *block = tl_process_kept[best];
      tl_process_kept[best].data = NULL;
      tl_process_kept[best].size = 0;
    }
  g_mutex_unlock (&tl_process_kept_lock);
  if (best >= 0)
    return TRUE;

  /* At a page's start: a CPU's OpenCL works on them in place when they
   * are aligned (tl-run.c).
   */
  block->data = tl_alloc_pages_n (bytes, 1, error);
  block->size = bytes;
  *fresh += block->data ? bytes : 0;
  return block->data != NULL;
}

/* BLOCK back to the kept ones, in place of an empty or a smaller one,
 * else freed.
 */
static void
tl_process_block_give (TlProcessBlock *block)
{
  guint8 *spare = block->data;
  gint    i;

  if (block->staged)
    {
      tl_context_give_staging (block->staged, block->slot);
      block->staged = NULL;
      block->data   = NULL;
      return;
    }

  if (block->data && block->size <= TL_PROCESS_KEPT_MAX)
    {
      gint slot = -1;

      g_mutex_lock (&tl_process_kept_lock);
      for (i = 0; i < TL_PROCESS_KEPT_BLOCKS; i++)
        if (slot < 0 || tl_process_kept[i].size < tl_process_kept[slot].size)
          slot = i;
      if (tl_process_kept[slot].size < block->size)
        {
          spare = tl_process_kept[slot].data;
          tl_process_kept[slot] = *block;
        }
      g_mutex_unlock (&tl_process_kept_lock);
    }
  g_free (spare);
  block->data = NULL;
  block->size = 0;
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TlProcessBlock, tl_process_block_give)

/* Pixels move between GEGL's tiles and the kernels' memory in parts on
 * GEGL's threads (gegl_parallel_distribute_area (), the threads GIMP's
 * preferences give GEGL; rows of a tall area, columns of a wide band, so
 * that a part spans whole tiles): one thread converting a 3840x2160 8-bit
 * layer took 17-23 ms to read it and 8-20 ms to write it on this 2-core
 * machine, two threads 12-14 and 5-10 ms, and a GIMP of more cores runs
 * its own filters on all of them.  Nested in a distribution that is
 * already running, GEGL runs the whole area on the calling thread.
 */
#define TL_PROCESS_PIXELS_PER_THREAD (64.0 * 64.0)

/* Rows moved at once where the alpha is added or dropped by hand. */
#define TL_PROCESS_ALPHA_ROWS 32

typedef struct
{
  GeglBuffer          *buffer;
  const GeglRectangle *area;        /* what PIXELS holds */
  const Babl          *format;
  guint8              *pixels;
  gsize                rowstride;
  gboolean             write;       /* PIXELS into BUFFER, else out of it */
  const Babl          *layer;       /* BUFFER's format: FORMAT without alpha */
  guint8               opaque[4];   /* FORMAT's alpha of an opaque pixel */
  gint                 no_memory;   /* a band found no scratch (atomic) */
} TlProcessRows;

/* BUFFER's format where it is FORMAT without alpha (same curve, type and
 * space), so that reading adds an opaque alpha to each pixel (its bytes
 * into OPAQUE) and writing drops it; else NULL.  babl's conversions do
 * the same, bit for bit, but in GIMP 3's babl dropping it took 33-36 ms
 * for a 3840x2160 layer of 16-bit pixels (3.4 ms for 8-bit ones) and
 * adding it 12-16 ms (8-12 by hand), on one thread, and babl's first
 * conversion of a pair took 70-211 ms while it chose its path.
 */
static const Babl *
tl_process_without_alpha (GeglBuffer *buffer,
                          const Babl *format,
                          guint8     *opaque)
{
  const guint8      u8    = 0xff;
  const guint16     u16   = 0xffff;
  const gfloat      one   = 1.0f;
  const guint16     half  = 0x3c00;
  const Babl       *layer = gegl_buffer_get_format (buffer);
  const gchar      *name  = babl_format_get_encoding (layer);
  const gchar      *type  = strrchr (name, ' ');
  g_autofree gchar *with  = NULL;

  if (type == NULL || babl_format_get_n_components (layer) != 3 ||
      babl_format_get_space (layer) != babl_format_get_space (format))
    return NULL;
  if (g_str_equal (type, " u8"))
    memcpy (opaque, &u8, sizeof (u8));
  else if (g_str_equal (type, " u16"))
    memcpy (opaque, &u16, sizeof (u16));
  else if (g_str_equal (type, " float"))
    memcpy (opaque, &one, sizeof (one));
  else if (g_str_equal (type, " half"))
    memcpy (opaque, &half, sizeof (half));
  else
    return NULL;
  with = g_strdup_printf ("%.*sA%s", (gint) (type - name), name, type);
  return g_str_equal (with, babl_format_get_encoding (format)) ? layer : NULL;
}

/* ROWS of BUFFER into PIXELS, or PIXELS into BUFFER, a band of rows at a
 * time through SCRATCH in the layer's own format: each pixel's colour
 * copied and the alpha added (opaque) or dropped.
 */
static void
tl_process_copy_alpha (TlProcessRows       *copy,
                       const GeglRectangle *rows)
{
  gsize              channel = babl_format_get_bytes_per_pixel (copy->format) / 4;
  gsize              stride  = (gsize) rows->width * 3 * channel;
  g_autofree guint8 *scratch = tl_alloc_n (stride, MIN (rows->height,
                                                        TL_PROCESS_ALPHA_ROWS),
                                           NULL);
  gint               y;

  if (scratch == NULL)
    {
      g_atomic_int_set (&copy->no_memory, 1);
      return;
    }

  for (y = rows->y; y < rows->y + rows->height; y += TL_PROCESS_ALPHA_ROWS)
    {
      GeglRectangle band = { rows->x, y, rows->width,
                             MIN (TL_PROCESS_ALPHA_ROWS, rows->y + rows->height - y) };
      gint          i, x;

      if (! copy->write)
        gegl_buffer_get (copy->buffer, &band, 1.0, copy->layer, scratch, stride,
                         GEGL_ABYSS_CLAMP);
      for (i = 0; i < band.height; i++)
        {
          guint8 *pixels = copy->pixels +
                           (gsize) (y + i - copy->area->y) * copy->rowstride +
                           (gsize) (rows->x - copy->area->x) * 4 * channel;
          guint8 *layer  = scratch + i * stride;

          /* A constant size for each type, so the copies inline. */
          if (copy->write && channel == 2)
            for (x = 0; x < band.width; x++)
              memcpy (layer + x * 6, pixels + x * 8, 6);
          else if (copy->write && channel == 1)
            for (x = 0; x < band.width; x++)
              memcpy (layer + x * 3, pixels + x * 4, 3);
          else if (copy->write)
            for (x = 0; x < band.width; x++)
              memcpy (layer + x * 3 * channel, pixels + x * 4 * channel,
                      3 * channel);
          else if (channel == 2)
            for (x = 0; x < band.width; x++)
              {
                memcpy (pixels + x * 8, layer + x * 6, 6);
                memcpy (pixels + x * 8 + 6, copy->opaque, 2);
              }
          else if (channel == 1)
            for (x = 0; x < band.width; x++)
              {
                memcpy (pixels + x * 4, layer + x * 3, 3);
                pixels[x * 4 + 3] = copy->opaque[0];
              }
          else
            for (x = 0; x < band.width; x++)
              {
                memcpy (pixels + x * 4 * channel, layer + x * 3 * channel,
                        3 * channel);
                memcpy (pixels + (x * 4 + 3) * channel, copy->opaque, channel);
              }
        }
      if (copy->write)
        gegl_buffer_set (copy->buffer, &band, 0, copy->layer, scratch, stride);
    }
}

static void
tl_process_copy_rows (const GeglRectangle *rows,
                      gpointer             data)
{
  TlProcessRows *copy  = data;
  guint8        *first = copy->pixels +
                         (gsize) (rows->y - copy->area->y) * copy->rowstride +
                         (gsize) (rows->x - copy->area->x) *
                         babl_format_get_bytes_per_pixel (copy->format);

  if (copy->layer)
    tl_process_copy_alpha (copy, rows);
  else if (copy->write)
    gegl_buffer_set (copy->buffer, rows, 0, copy->format, first,
                     copy->rowstride);
  else
    gegl_buffer_get (copy->buffer, rows, 1.0, copy->format, first,
                     copy->rowstride, GEGL_ABYSS_CLAMP);
}

/* AREA of BUFFER to PIXELS (WRITE: from them), ROWSTRIDE bytes a row.
 * FALSE with ERROR when a band found no memory to add or drop the alpha
 * in (and some of AREA is not copied).
 */
static gboolean
tl_process_copy (GeglBuffer          *buffer,
                 const GeglRectangle *area,
                 const Babl          *format,
                 guint8              *pixels,
                 gsize                rowstride,
                 gboolean             write,
                 GError             **error)
{
  TlProcessRows copy = { buffer, area, format, pixels, rowstride, write };

  copy.layer = tl_process_without_alpha (buffer, format, copy.opaque);

  gegl_parallel_distribute_area (area, TL_PROCESS_PIXELS_PER_THREAD,
                                 GEGL_SPLIT_STRATEGY_AUTO,
                                 tl_process_copy_rows, &copy);
  if (g_atomic_int_get (&copy.no_memory))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("not enough memory to copy a %dx%d region"), area->width,
                   area->height);
      return FALSE;
    }
  return TRUE;
}

/* REGION grown by HALO and cut to SOURCE's extent. */
static void
tl_process_grow (GeglBuffer          *source,
                 const GeglRectangle *region,
                 guint                halo,
                 GeglRectangle       *area)
{
  *area = *region;
  area->x      -= halo;
  area->y      -= halo;
  area->width  += 2 * halo;
  area->height += 2 * halo;
  gegl_rectangle_intersect (area, area, gegl_buffer_get_extent (source));
}

/* REGION grown by HALO and cut to SOURCE's extent (AREA), read in FORMAT
 * with the layer's edges clamped, as the filters' own borders are.
 */
gpointer
tl_process_read_area (GeglBuffer          *source,
                      const GeglRectangle *region,
                      guint                halo,
                      const Babl          *format,
                      GeglRectangle       *area,
                      GError             **error)
{
  gsize    pixel_size, n_pixels;
  gpointer pixels;

  g_return_val_if_fail (GEGL_IS_BUFFER (source) && region != NULL, NULL);
  g_return_val_if_fail (format != NULL && area != NULL, NULL);

  tl_process_grow (source, region, halo, area);
  pixel_size = babl_format_get_bytes_per_pixel (format);
  if (! tl_alloc_mul (area->width, area->height, &n_pixels, error))
    return NULL;
  /* At a page's start, as the tiles' blocks. */
  pixels = tl_alloc_pages_n (n_pixels, pixel_size, error);
  if (pixels &&
      ! tl_process_copy (source, area, format, pixels,
                         area->width * pixel_size, FALSE, error))
    g_clear_pointer (&pixels, g_free);
  return pixels;
}

/* PIXELS (AREA's pixels in FORMAT, rows packed) into BUFFER, on GEGL's
 * threads as tiles are.
 */
gboolean
tl_process_write_area (GeglBuffer          *buffer,
                       const GeglRectangle *area,
                       const Babl          *format,
                       gconstpointer        pixels,
                       GError             **error)
{
  g_return_val_if_fail (GEGL_IS_BUFFER (buffer) && area != NULL, FALSE);
  g_return_val_if_fail (format != NULL && pixels != NULL, FALSE);

  return tl_process_copy (buffer, area, format, (guint8 *) pixels,
                          (gsize) area->width *
                          babl_format_get_bytes_per_pixel (format), TRUE,
                          error);
}

/* One tile's bands (tl_run_job_banded ()): its rows read from GEGL
 * just before they cross the bus, and written to GEGL as soon as they
 * are back, so the host's copies overlap the transfers.
 */
typedef struct
{
  GeglBuffer          *source;
  GeglBuffer          *target;
  const GeglRectangle *area;        /* the tile grown by its halo */
  const GeglRectangle *tile;
  const Babl          *format;
  gsize                pixel_size;
  guint8              *in;
  guint8              *out;
  TlProcessReport     *report;
} TlProcessBands;

/* BUFFER's tile rows, for a band that starts at row Y: GRID rows a tile,
 * and where Y sits in them.
 */
static void
tl_process_tile_grid (GeglBuffer *buffer,
                      gint        y,
                      guint      *grid,
                      guint      *phase)
{
  gint height = 0, shift = 0;

  g_object_get (buffer, "tile-height", &height, "shift-y", &shift, NULL);
  *grid  = MAX (height, 1);
  *phase = (guint) (((gint64) y + shift) % *grid + *grid) % *grid;
}

/* BAND of the tile's input (WRITE FALSE: from SOURCE) or output (from
 * the pixels into TARGET), its rows FIRST on from the area's top; its
 * time goes to the report's read or write.
 */
static gboolean
tl_process_copy_band (TlProcessBands *bands,
                      guint           first,
                      guint           rows,
                      gboolean        write,
                      GError        **error)
{
  const GeglRectangle *span   = write ? bands->tile : bands->area;
  gsize                stride = (gsize) bands->area->width * bands->pixel_size;
  GeglRectangle        band   = { span->x, bands->area->y + (gint) first,
                                  span->width, (gint) rows };
  guint8              *pixels = (write ? bands->out : bands->in) + first * stride +
                                (gsize) (span->x - bands->area->x) *
                                bands->pixel_size;
  gint64               start  = g_get_monotonic_time ();
  gboolean             ok;

  ok = tl_process_copy (write ? bands->target : bands->source, &band,
                        bands->format, pixels, stride, write, error);
  *(write ? &bands->report->write_ms : &bands->report->read_ms) +=
    (g_get_monotonic_time () - start) / 1000.0;
  return ok;
}

static gboolean
tl_process_fill_band (guint     first,
                      guint     rows,
                      gpointer  data,
                      GError  **error)
{
  return tl_process_copy_band (data, first, rows, FALSE, error);
}

static gboolean
tl_process_drain_band (guint     first,
                       guint     rows,
                       gpointer  data,
                       GError  **error)
{
  return tl_process_copy_band (data, first, rows, TRUE, error);
}

static gboolean
tl_process_tile (TlContext           *context,
                 const TlFilter      *filter,
                 const TlValue       *values,
                 const TlChoice      *choice,
                 const TlCodec       *codec,
                 GeglBuffer          *source,
                 GeglBuffer          *target,
                 const GeglRectangle *tile,
                 guint                halo,
                 const TlRunWatch    *watch,
                 TlProcessReport     *report,
                 GError             **error)
{
  const Babl             *format     = tl_codec_get_format (codec);
  gsize                   pixel_size = tl_codec_get_pixel_size (codec);
  g_auto(TlProcessBlock)  in         = { NULL, 0, context, TL_STAGING_INPUT };
  g_auto(TlProcessBlock)  out        = { NULL, 0, context, TL_STAGING_OUTPUT };
  g_auto(TlFilterJob)     job        = { { NULL, }, };
  GeglRectangle           area;
  TlPixels                pixels     = { 0, };
  TlRunTimes              times;
  TlPlan                  plan;
  gsize                   bytes, offset;
  gint64                  start;

  tl_process_grow (source, tile, halo, &area);
  bytes = (gsize) area.width * area.height * pixel_size;
  if (! tl_process_block_take (&in, bytes, &report->fresh_bytes, error) ||
      ! tl_process_block_take (&out, bytes, &report->fresh_bytes, error))
    return FALSE;
  report->peak_bytes = MAX (report->peak_bytes, 2 * bytes);

  pixels.width  = area.width;
  pixels.height = area.height;
  pixels.codec  = codec;
  pixels.in     = in.data;
  pixels.out    = out.data;
  pixels.x      = area.x;
  pixels.y      = area.y;

  if (context == NULL)
    {
      start = g_get_monotonic_time ();
      if (! tl_process_copy (source, &area, format, in.data,
                             area.width * pixel_size, FALSE, error))
        return FALSE;
      report->read_ms += (g_get_monotonic_time () - start) / 1000.0;
      if (! tl_filter_reference (filter, values, &pixels, error))
        return FALSE;
      offset = ((gsize) (tile->y - area.y) * area.width + (tile->x - area.x)) *
               pixel_size;
      start = g_get_monotonic_time ();
      if (! tl_process_copy (target, tile, format, out.data + offset,
                             area.width * pixel_size, TRUE, error))
        return FALSE;
      report->write_ms += (g_get_monotonic_time () - start) / 1000.0;
    }
  else
    {
      TlProcessBands bands  = { source, target, &area, tile, format,
                                pixel_size, in.data, out.data, report };
      TlRunBands     moving = { tl_process_fill_band, tl_process_drain_band,
                                tile->y - area.y, tile->height };
      gdouble        copies = report->read_ms + report->write_ms;

      moving.data = &bands;
      tl_process_tile_grid (source, area.y, &moving.fill_grid,
                            &moving.fill_phase);
      tl_process_tile_grid (target, area.y, &moving.drain_grid,
                            &moving.drain_phase);

      start = g_get_monotonic_time ();
      if (! tl_filter_job_init (&job, filter, values, pixels.codec, error) ||
          ! tl_run_job_banded (context, &job.run, choice, &pixels, &moving,
                               watch, &plan, &times, error))
        return FALSE;
      /* The device's part: what the bands' copies did not take. */
      report->device_ms += (g_get_monotonic_time () - start) / 1000.0 -
                           (report->read_ms + report->write_ms - copies);
      /* The first tile's, as its plan is the report's. */
      if (report->tiles == 0)
        {
          report->plan               = plan;
          report->times.ms_per_group = times.ms_per_group;
        }
      report->times.kernel_ms   += times.kernel_ms;
      report->times.upload_ms   += times.upload_ms;
      report->times.download_ms += times.download_ms;
      report->times.launches    += times.launches;
      report->times.longest_ms   = MAX (report->times.longest_ms,
                                        times.longest_ms);
    }
  if (report->tiles == 0)
    report->tile = *tile;
  report->tiles++;

  /* Hand the tile on now (GIMP's shadow lives in GIMP), rather than keep
   * every written tile in this process's cache.
   */
  gegl_buffer_flush (target);
  return TRUE;
}

/* A region's progress, from its tiles': tile DONE of TOTAL so far. */
typedef struct
{
  TlWatchFunc func;
  gpointer    data;
  guint       done;
  guint       total;
  gint64      start;
} TlProcessWatch;

/* PROGRESS of the tile under way, told as the whole region's: later
 * tiles expected to take as long as this one will.
 */
static gboolean
tl_process_watch_tile (const TlProgress *progress,
                       gpointer          data)
{
  TlProcessWatch *tiles = data;
  TlProgress      whole = *progress;
  guint           after = tiles->total - tiles->done - 1;

  whole.elapsed_ms = (g_get_monotonic_time () - tiles->start) / 1000.0;
  whole.fraction   = MIN ((tiles->done + progress->fraction) /
                          MAX (tiles->total, 1), 1.0);
  if (progress->remaining_ms >= 0.0)
    whole.remaining_ms = progress->remaining_ms +
                         after * (progress->elapsed_ms + progress->remaining_ms);
  return tiles->func (&whole, tiles->data);
}

/* Between tiles: DONE of them took the time so far. */
static gboolean
tl_process_watch_between (TlProcessWatch *tiles)
{
  TlProgress whole = { 0, };

  whole.elapsed_ms   = (g_get_monotonic_time () - tiles->start) / 1000.0;
  whole.fraction     = (gdouble) tiles->done / MAX (tiles->total, 1);
  whole.remaining_ms = whole.elapsed_ms / MAX (tiles->done, 1) *
                       (tiles->total - tiles->done);
  whole.settled      = TRUE;
  return tiles->func (&whole, tiles->data);
}

/* Filters REGION of SOURCE into the same place of TARGET (which must not
 * be SOURCE: later tiles read their halo from it).  On failure TARGET
 * may hold some tiles: callers write to a shadow or a scratch buffer and
 * keep it only on success.  MAX_TILE caps the tiles' side (0: memory
 * alone decides).  WATCH (or NULL) hears how far it has got, and may
 * stop it (tl-run.h's TlWatchFunc): then FALSE with TL_ERROR_CANCELLED.
 */
gboolean
tl_process_region (TlContext           *context,
                   const TlFilter      *filter,
                   const TlValue       *values,
                   const TlChoice      *choice,
                   GeglBuffer          *source,
                   GeglBuffer          *target,
                   const GeglRectangle *region,
                   guint                max_tile,
                   TlWatchFunc          watch,
                   gpointer             watch_data,
                   TlProcessReport     *report,
                   GError             **error)
{
  g_autoptr(TlCodec) codec = NULL;
  guint              halo;
  gint               side, x, y;
  TlProcessWatch     tiles = { watch, watch_data, 0, 0,
                               g_get_monotonic_time () };
  TlRunWatch         tile_watch = { tl_process_watch_tile, &tiles };
  gint64             start = tiles.start;

  g_return_val_if_fail (filter != NULL && values != NULL && choice != NULL, FALSE);
  g_return_val_if_fail (GEGL_IS_BUFFER (source) && GEGL_IS_BUFFER (target), FALSE);
  g_return_val_if_fail (source != target, FALSE);
  g_return_val_if_fail (region != NULL && report != NULL, FALSE);

  memset (report, 0, sizeof (*report));
  report->on_cpu = context == NULL;
  if (region->width <= 0 || region->height <= 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("the region %ux%u is empty"), (guint) MAX (region->width, 0),
                   (guint) MAX (region->height, 0));
      return FALSE;
    }
  /* Tiles are written from buffers of the source's pixels. */
  g_return_val_if_fail (gegl_rectangle_contains (gegl_buffer_get_extent (source),
                                                 region), FALSE);
  if (! tl_filter_check_values (filter, values, error))
    return FALSE;

  codec = tl_codec_new (gegl_buffer_get_format (source), filter->format, error);
  if (codec == NULL)
    return FALSE;
  report->pixel_size = tl_codec_get_pixel_size (codec);
  report->storage    = tl_codec_storage_name (tl_codec_get_storage (codec));

  /* A halo beyond the layer reads nothing more: borders clamp. */
  halo = MIN (tl_filter_halo (filter, values),
              (guint) MAX (gegl_buffer_get_extent (source)->width,
                           gegl_buffer_get_extent (source)->height));
  side = tl_process_tile_side (context, region,
                               gegl_buffer_get_extent (source), halo,
                               report->pixel_size, max_tile, error);
  if (side == 0)
    return FALSE;
  side  = MIN (side, MAX (region->width, region->height));
  tiles.total = ((region->width + side - 1) / side) *
                ((region->height + side - 1) / side);

  for (y = region->y; y < region->y + region->height; y += side)
    for (x = region->x; x < region->x + region->width; x += side)
      {
        GeglRectangle tile = { x, y,
                               MIN (side, region->x + region->width - x),
                               MIN (side, region->y + region->height - y) };

        if (! tl_process_tile (context, filter, values, choice, codec, source,
                               target, &tile, halo,
                               watch ? &tile_watch : NULL, report, error))
          return FALSE;
        tiles.done++;
        /* Between tiles (the C reference's only chance): progress, and
         * the last word on stopping.
         */
        if (watch)
          {
            if (! tl_process_watch_between (&tiles))
              {
                /* TRANSLATORS: %s is a filter's name. */
                g_set_error (error, TL_ERROR, TL_ERROR_CANCELLED,
                             _("%s was cancelled"), filter->name);
                return FALSE;
              }
          }
      }

  report->region_ms = (g_get_monotonic_time () - start) / 1000.0;
  if (report->tiles > 1)
    g_debug ("%s: %u tiles of up to %dx%d, halo %u, %zu bytes of pixels at once",
             filter->name, report->tiles, side, side, halo, report->peak_bytes);
  return TRUE;
}

/* ERROR means no OpenCL at all, so the C references may stand in. */
gboolean
tl_process_can_fall_back (const GError *error)
{
  return g_error_matches (error, TL_ERROR, TL_ERROR_NO_PLATFORM);
}

/* What the user is told when FILTER ran on its C reference for WHY. */
gchar *
tl_process_fallback_text (const TlFilter *filter,
                          const GError   *why)
{
  g_return_val_if_fail (filter != NULL && why != NULL, NULL);

  /* TRANSLATORS: WHY (the OpenCL error); FILTER's name. */
  return g_strdup_printf (_("%s; %s ran on the CPU through its C reference "
                            "instead"), why->message, _(filter->label));
}
