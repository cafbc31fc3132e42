/* ThreadLens tests: filtering a region of a buffer, in tiles.
 *
 * For every filter of the registry (with the table's settings, or its
 * defaults where the table does not name it) on a real photo: the layer
 * in small tiles equals the layer in one piece, bit for bit; a
 * selection's region equals the same pixels of the whole layer's result
 * (its halo comes from the layer); and with no OpenCL device the C
 * reference gives the same pixels as the reference itself.  A watched
 * run gives the same pixels as one unwatched, and a watch that says stop
 * stops it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-estimate.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-process.h"

typedef struct
{
  const gchar *filter;
  const gchar *setting;
  const gchar *layer;       /* babl format of the layer */
} ProcessCase;

static const ProcessCase process_cases[] =
{
  { "invert",              NULL,           "R'G'B' u8" },
  { "color-matrix",        NULL,           "RGBA float" },
  { "brightness-contrast", "contrast=1.3", "R'G'B' u8" },
  { "threshold",           NULL,           "R'G'B'A u16" },
  { "mono-mixer",          NULL,           "R'G'B' u8" },
  { "sepia",               NULL,           "R'G'B' u8" },
  { "gaussian-blur",       "std-dev=4",    "R'G'B' u8" },
  { "gaussian-blur",       "std-dev=2.5",  "RGBA float" },
  { "box-blur",            "radius=5",     "R'G'B'A u16" },
  { "box-blur",            "radius=30",    "R'G'B' u8" },
  { "edge-sobel",          NULL,           "R'G'B' u8" },
  { "pixelize",            "size=7",       "R'G'B' u8" },
  { "pixelize",            "size=16",      "RGBA float" },
  { "unsharp-mask",        "std-dev=3",    "R'G'B' u8" },
};

static TlContext *context;
static TlImage   *photo;

/* Whether the table names FILTER; the registry's other filters get a
 * case of their own, with their defaults on an 8-bit layer.
 */
static gboolean
table_names (const gchar *filter)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (process_cases); i++)
    if (strcmp (process_cases[i].filter, filter) == 0)
      return TRUE;
  return FALSE;
}

static GeglBuffer *
layer_of (const gchar *format)
{
  GeglBuffer *source = tl_image_get_buffer (photo);
  GeglBuffer *layer  = gegl_buffer_new (gegl_buffer_get_extent (source),
                                        babl_format_with_space (format,
                                                                gegl_buffer_get_format (source)));

  gegl_buffer_copy (source, NULL, GEGL_ABYSS_NONE, layer, NULL);
  return layer;
}

static GeglBuffer *
run (TlContext           *with,
     const TlFilter      *filter,
     const TlValue       *values,
     GeglBuffer          *layer,
     const GeglRectangle *region,
     guint                max_tile,
     TlProcessReport     *report)
{
  g_autoptr(GError) error  = NULL;
  GeglBuffer       *target = gegl_buffer_new (gegl_buffer_get_extent (layer),
                                              gegl_buffer_get_format (layer));
  TlChoice          choice;

  tl_choice_init (&choice);
  if (! tl_process_region (with, filter, values, &choice, layer, target,
                           region, max_tile, NULL, NULL, report, &error))
    g_error ("%s: %s", filter->name, error->message);
  return target;
}

/* The two buffers hold the same bytes in REGION. */
static void
assert_same (GeglBuffer          *a,
             GeglBuffer          *b,
             const GeglRectangle *region,
             const gchar         *what)
{
  const Babl        *format = gegl_buffer_get_format (a);
  gsize              size   = (gsize) region->width * region->height *
                              babl_format_get_bytes_per_pixel (format);
  g_autofree guint8 *x      = g_malloc (size);
  g_autofree guint8 *y      = g_malloc (size);
  gsize              i;

  gegl_buffer_get (a, region, 1.0, format, x, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (b, region, 1.0, format, y, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  for (i = 0; i < size && x[i] == y[i]; i++)
    ;
  if (i < size)
    {
      gsize pixel = i / babl_format_get_bytes_per_pixel (format);

      g_error ("%s: differ at pixel %d,%d", what,
               region->x + (gint) (pixel % region->width),
               region->y + (gint) (pixel / region->width));
    }
}

static void
test_process (gconstpointer data)
{
  const ProcessCase      *c      = data;
  g_autoptr(GError)       error  = NULL;
  const TlFilter         *filter = tl_filter_lookup (c->filter, &error);
  g_autofree TlValue     *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer)   layer  = layer_of (c->layer);
  g_autoptr(GeglBuffer)   whole  = NULL;
  g_autoptr(GeglBuffer)   tiled  = NULL;
  g_autoptr(GeglBuffer)   part   = NULL;
  g_autoptr(GeglBuffer)   part_tiled = NULL;
  const GeglRectangle    *extent = gegl_buffer_get_extent (layer);
  /* A selection's bounds, away from every edge and off the block grid. */
  GeglRectangle           region = { 101, 57, 333, 211 };
  TlProcessReport         report;
  guint                   halo;
  gsize                   bound;

  if (c->setting)
    g_assert_true (tl_filter_parse_assignment (filter, values, c->setting, &error));
  halo = tl_filter_halo (filter, values);

  whole = run (context, filter, values, layer, extent, 0, &report);
  g_assert_cmpuint (report.tiles, ==, 1);

  tiled = run (context, filter, values, layer, extent, 37, &report);
  g_assert_cmpuint (report.tiles, ==, ((extent->width + 36) / 37) *
                                      ((extent->height + 36) / 37));
  g_assert_cmpint (report.tile.width, ==, 37);
  /* Memory stays bounded by the tile: input and output with the halo. */
  bound = 2 * (gsize) (37 + 2 * halo) * (37 + 2 * halo) * report.pixel_size;
  g_assert_cmpuint (report.peak_bytes, <=, bound);
  assert_same (whole, tiled, extent, "37-pixel tiles against one piece");

  part = run (context, filter, values, layer, &region, 0, &report);
  assert_same (whole, part, &region, "a region against the whole layer");
  part_tiled = run (context, filter, values, layer, &region, 50, &report);
  g_assert_cmpuint (report.tiles, ==, 7 * 5);
  assert_same (whole, part_tiled, &region, "a region in tiles");
}

/* LAYER (of three channels) with an opaque alpha added by hand, in
 * WITH_ALPHA: the same colour bytes, which babl's conversions need not
 * give (its choice of path changes between runs).
 */
static GeglBuffer *
opaque_copy (GeglBuffer  *layer,
             const gchar *with_alpha)
{
  const GeglRectangle *extent  = gegl_buffer_get_extent (layer);
  const Babl          *format  = gegl_buffer_get_format (layer);
  const Babl          *target  = babl_format_with_space (with_alpha, format);
  gsize                channel = babl_format_get_bytes_per_pixel (format) / 3;
  gsize                n       = (gsize) extent->width * extent->height;
  g_autofree guint8   *rgb     = g_malloc (n * 3 * channel);
  g_autofree guint8   *rgba    = g_malloc (n * 4 * channel);
  const guint8         opaque_u8 = 255;
  const guint16        opaque_u16 = 65535;
  const guint16        opaque_half = 0x3c00;
  const gfloat         opaque_float = 1.0f;
  const Babl          *type    = babl_format_get_type (format, 0);
  const void          *opaque  = type == babl_type ("u8") ? (const void *) &opaque_u8 :
                                 type == babl_type ("u16") ? (const void *) &opaque_u16 :
                                 type == babl_type ("half") ? (const void *) &opaque_half :
                                                             (const void *) &opaque_float;
  GeglBuffer          *copy    = gegl_buffer_new (extent, target);
  gsize                i;

  g_assert_cmpuint (babl_format_get_bytes_per_pixel (target), ==, 4 * channel);
  gegl_buffer_get (layer, extent, 1.0, format, rgb, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  for (i = 0; i < n; i++)
    {
      memcpy (rgba + i * 4 * channel, rgb + i * 3 * channel, 3 * channel);
      memcpy (rgba + (i * 4 + 3) * channel, opaque, channel);
    }
  gegl_buffer_set (copy, extent, 0, target, rgba, GEGL_AUTO_ROWSTRIDE);
  return copy;
}

/* A layer without alpha is read with an opaque alpha added and written
 * with the alpha dropped, by hand where babl would do only that
 * (tl_process_without_alpha ()): the same bytes as babl's conversion of
 * the result of the same pixels with an opaque alpha, for 8-bit, 16-bit,
 * half and float layers (a matrix that takes alpha into red sees the alpha
 * added).  A layer whose curve is not the storage's goes through babl
 * both ways, whose choice of path changes between runs, so it has no
 * case here.
 */
static void
test_without_alpha (void)
{
  static const struct
  {
    const gchar *filter;
    const gchar *setting;
    const gchar *layer;
    const gchar *with_alpha;
  } cases[] =
  {
    { "mono-mixer",    NULL,          "R'G'B' u16", "R'G'B'A u16" },
    { "gaussian-blur", "std-dev=2.5", "R'G'B' u16", "R'G'B'A u16" },
    { "edge-sobel",    NULL,          "R'G'B' u8",  "R'G'B'A u8" },
    { "invert",        NULL,          "RGB u16",    "RGBA u16" },
    /* Alpha into red: the alpha added on reading shows. */
    { "color-matrix",  "matrix=0.9,0,0,0.1, 0,1,0,0, 0,0,1,0, 0,0,0,1",
                       "R'G'B' u8",  "R'G'B'A u8" },
    { "color-matrix",  "matrix=0.9,0,0,0.1, 0,1,0,0, 0,0,1,0, 0,0,0,1",
                       "RGB float",  "RGBA float" },
    { "color-matrix",  "matrix=0.9,0,0,0.1, 0,1,0,0, 0,0,1,0, 0,0,0,1",
                       "RGB half",   "RGBA half" },
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError)     error  = NULL;
      const TlFilter       *filter = tl_filter_lookup (cases[i].filter, &error);
      g_autofree TlValue   *values = tl_filter_default_values (filter);
      g_autoptr(GeglBuffer) layer  = layer_of (cases[i].layer);
      g_autoptr(GeglBuffer) alpha  = opaque_copy (layer, cases[i].with_alpha);
      g_autoptr(GeglBuffer) direct = NULL;
      g_autoptr(GeglBuffer) full   = NULL;
      g_autoptr(GeglBuffer) by_babl = NULL;
      const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
      GeglRectangle         region = { 37, 21, 301, 203 };
      TlProcessReport       report;

      if (cases[i].setting)
        g_assert_true (tl_filter_parse_assignment (filter, values,
                                                   cases[i].setting, &error));
      direct  = run (context, filter, values, layer, &region, 0, &report);
      full    = run (context, filter, values, alpha, &region, 0, &report);
      by_babl = gegl_buffer_new (extent, gegl_buffer_get_format (layer));
      gegl_buffer_copy (full, &region, GEGL_ABYSS_NONE, by_babl, &region);
      assert_same (direct, by_babl, &region, cases[i].layer);
    }
}

/* No device: the C reference, and exactly its pixels. */
static void
test_on_cpu (void)
{
  g_autoptr(GError)     error  = NULL;
  const TlFilter       *filter = tl_filter_lookup ("gaussian-blur", &error);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  g_autoptr(GeglBuffer) cpu    = NULL;
  g_autoptr(GeglBuffer) cpu_tiled = NULL;
  g_autoptr(TlCodec)    codec  = NULL;
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  g_autofree guint8    *in     = NULL;
  g_autofree guint8    *out    = NULL;
  g_autofree guint8    *got    = NULL;
  TlPixels              pixels = { 0, };
  TlProcessReport       report;
  gsize                 size;

  codec = tl_codec_new (gegl_buffer_get_format (layer), filter->format, &error);
  g_assert_no_error (error);
  size = (gsize) extent->width * extent->height * tl_codec_get_pixel_size (codec);
  in   = g_malloc (size);
  out  = g_malloc (size);
  got  = g_malloc (size);
  gegl_buffer_get (layer, extent, 1.0, tl_codec_get_format (codec), in,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  pixels.width  = extent->width;
  pixels.height = extent->height;
  pixels.codec  = codec;
  pixels.in     = in;
  pixels.out    = out;
  g_assert_true (tl_filter_reference (filter, values, &pixels, NULL));

  cpu = run (NULL, filter, values, layer, extent, 0, &report);
  g_assert_true (report.on_cpu);
  gegl_buffer_get (cpu, extent, 1.0, tl_codec_get_format (codec), got,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  g_assert_cmpmem (got, size, out, size);

  cpu_tiled = run (NULL, filter, values, layer, extent, 100, &report);
  assert_same (cpu, cpu_tiled, extent, "the C reference in tiles");
}

static void
test_bad_region (void)
{
  g_autoptr(GError)     error  = NULL;
  const TlFilter       *filter = tl_filter_lookup ("invert", NULL);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  g_autoptr(GeglBuffer) target = gegl_buffer_new (gegl_buffer_get_extent (layer),
                                                  gegl_buffer_get_format (layer));
  GeglRectangle         empty  = { 10, 10, 0, 5 };
  TlProcessReport       report;
  TlChoice              choice;

  tl_choice_init (&choice);
  g_assert_false (tl_process_region (context, filter, values, &choice, layer,
                                     target, &empty, 0, NULL, NULL, &report,
                                     &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "empty"));
}

/* 1x1 and 1xN regions: the smallest selections run and match. */
static void
test_thin_regions (void)
{
  static const GeglRectangle regions[] =
  {
    { 300, 200, 1, 1 }, { 0, 0, 1, 1 }, { 599, 0, 1, 400 }, { 0, 399, 600, 1 },
  };
  g_autoptr(GError)     error  = NULL;
  const TlFilter       *filter = tl_filter_lookup ("gaussian-blur", NULL);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  g_autoptr(GeglBuffer) whole  = NULL;
  TlProcessReport       report;
  guint                 i;

  whole = run (context, filter, values, layer, gegl_buffer_get_extent (layer), 0,
               &report);
  for (i = 0; i < G_N_ELEMENTS (regions); i++)
    {
      g_autoptr(GeglBuffer) part = run (context, filter, values, layer,
                                        &regions[i], 0, &report);

      assert_same (whole, part, &regions[i], "a thin region");
    }
}

/* Host memory is kept between calls, as the GEGL module in GIMP's
 * process makes one call after another: a second call of the same size
 * takes no fresh memory, a bigger one does, and smaller tiles then fit
 * the kept blocks.  The pixels stay those of the first call throughout,
 * so nothing of a kept block's earlier contents shows.
 */
static void
test_kept_memory (void)
{
  const TlFilter       *filter = tl_filter_lookup ("edge-sobel", NULL);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B'A u8");
  g_autoptr(GeglBuffer) first  = NULL;
  g_autoptr(GeglBuffer) again  = NULL;
  g_autoptr(GeglBuffer) tiled  = NULL;
  g_autoptr(GeglBuffer) wide   = NULL;
  g_autoptr(GeglBuffer) grown  = NULL;
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  GeglRectangle         part   = { 50, 40, 200, 150 };
  GeglRectangle         bigger = { 0, 0, extent->width * 2, extent->height };
  TlProcessReport       report;

  first = run (context, filter, values, layer, &part, 0, &report);
  again = run (context, filter, values, layer, &part, 0, &report);
  g_assert_cmpuint (report.fresh_bytes, ==, 0);
  assert_same (first, again, &part, "a second call on kept memory");

  /* Twice the layer, its right half a copy of the left. */
  wide = gegl_buffer_new (&bigger, gegl_buffer_get_format (layer));
  gegl_buffer_copy (layer, NULL, GEGL_ABYSS_NONE, wide, NULL);
  gegl_buffer_copy (layer, NULL, GEGL_ABYSS_NONE, wide,
                    GEGL_RECTANGLE (extent->width, 0, 0, 0));
  grown = run (context, filter, values, wide, &bigger, 0, &report);
  g_assert_cmpuint (report.fresh_bytes, >, 0);

  tiled = run (context, filter, values, layer, &part, 64, &report);
  g_assert_cmpuint (report.tiles, >, 1);
  g_assert_cmpuint (report.fresh_bytes, ==, 0);
  assert_same (first, tiled, &part, "tiles on kept memory");
}

/* What a watch heard, and when it says stop (STOP_MS of the run; 0:
 * never).
 */
typedef struct
{
  guint   calls;
  gdouble last_fraction;
  gdouble last_elapsed_ms;
  gdouble stop_ms;
  gint64  stopped_at;
} Watched;

static gboolean
watch_run (const TlProgress *progress,
           gpointer          data)
{
  Watched *watched = data;

  g_assert_cmpfloat (progress->fraction, >=, 0.0);
  g_assert_cmpfloat (progress->fraction, <=, 1.0);
  g_assert_cmpfloat (progress->elapsed_ms, >=, 0.0);
  /* A bar never steps back, even where a new kernel's rate says the
   * work ahead is more than was thought.
   */
  if (watched->calls > 0)
    g_assert_cmpfloat (progress->fraction, >=, watched->last_fraction);
  watched->calls++;
  watched->last_fraction   = progress->fraction;
  watched->last_elapsed_ms = progress->elapsed_ms;
  if (watched->stop_ms > 0.0 && progress->elapsed_ms >= watched->stop_ms)
    {
      watched->stopped_at = g_get_monotonic_time ();
      return FALSE;
    }
  return TRUE;
}

/* Every filter of the registry, watched with launches cut small (many
 * waits, each a call of the watch): the pixels of a run unwatched, and
 * the watch told of the end.  The counting pass must leave no trace.
 */
static void
test_watched (void)
{
  g_autoptr(GeglBuffer)  layer = layer_of ("R'G'B' u8");
  const GeglRectangle   *extent = gegl_buffer_get_extent (layer);
  const TlFilter *const *filters;
  guint                  n_filters, i;

  g_setenv ("THREADLENS_LAUNCH_MS", "5", TRUE);
  g_setenv ("THREADLENS_LAUNCH_GROUPS", "1", TRUE);
  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    {
      g_autoptr(GError)     error   = NULL;
      g_autofree TlValue   *values  = tl_filter_default_values (filters[i]);
      g_autoptr(GeglBuffer) plain   = NULL;
      g_autoptr(GeglBuffer) watched = NULL;
      Watched               heard   = { 0, };
      TlProcessReport       report;
      TlChoice              choice;

      tl_choice_init (&choice);
      plain   = run (context, filters[i], values, layer, extent, 0, &report);
      watched = gegl_buffer_new (extent, gegl_buffer_get_format (layer));
      if (! tl_process_region (context, filters[i], values, &choice, layer,
                               watched, extent, 0, watch_run, &heard, &report,
                               &error))
        g_error ("%s watched: %s", filters[i]->name, error->message);
      assert_same (plain, watched, extent, filters[i]->name);
      g_assert_cmpuint (heard.calls, >=, 1);
      g_assert_cmpfloat (heard.last_fraction, ==, 1.0);
    }
  g_unsetenv ("THREADLENS_LAUNCH_MS");
  g_unsetenv ("THREADLENS_LAUNCH_GROUPS");
}

/* mean-curvature-blur at 300 iterations: its last kernel does under 1%
 * of the work, so the estimate settles without it, and its first timing
 * comes at the end.  The fraction told moves forward all the same, to
 * 1.0 (watch_run checks each step).
 */
static void
test_watch_forward (void)
{
  const TlFilter       *filter = tl_filter_lookup ("mean-curvature-blur", NULL);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  g_autoptr(GeglBuffer) target = gegl_buffer_new (extent,
                                                  gegl_buffer_get_format (layer));
  g_autoptr(GError)     error  = NULL;
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  Watched               heard  = { 0, };
  TlProcessReport       report;
  TlChoice              choice;

  g_assert_true (tl_filter_set_value (filter, values, "iterations", "300",
                                      NULL));
  tl_choice_init (&choice);
  g_setenv ("THREADLENS_LAUNCH_MS", "2", TRUE);
  if (! tl_process_region (context, filter, values, &choice, layer, target,
                           extent, 0, watch_run, &heard, &report, &error))
    g_error ("%s watched: %s", filter->name, error->message);
  g_unsetenv ("THREADLENS_LAUNCH_MS");
  g_test_message ("%u calls of the watch in %.0f ms", heard.calls,
                  heard.last_elapsed_ms);
  g_assert_cmpuint (heard.calls, >=, 4);
  g_assert_cmpfloat (heard.last_fraction, ==, 1.0);
}

/* The photo N x N times over, as one layer. */
static GeglBuffer *
tiled_layer (guint n)
{
  g_autoptr(GeglBuffer) one    = layer_of ("R'G'B' u8");
  const GeglRectangle  *extent = gegl_buffer_get_extent (one);
  GeglRectangle         whole  = { 0, 0, extent->width * n, extent->height * n };
  GeglBuffer           *layer  = gegl_buffer_new (&whole, gegl_buffer_get_format (one));
  guint                 i, j;

  for (j = 0; j < n; j++)
    for (i = 0; i < n; i++)
      {
        GeglRectangle at = { extent->width * i, extent->height * j,
                             extent->width, extent->height };

        gegl_buffer_copy (one, extent, GEGL_ABYSS_NONE, layer, &at);
      }
  return layer;
}

/* GIMP 3 decides in-core or not from a sampled estimate: bilateral-
 * filter at a radius of 6 on the photo twice over each way, from the
 * middle 128x128 and 256x256 squares, scaled to the whole (over 8 times
 * the larger square), on the device and on the C reference.  It is held
 * to the run's own time within bounds that a sample left unscaled falls
 * outside of (an eighth of the run, or less).  Estimates and runs take
 * turns, and the quickest of three of each is compared: the suite shares
 * the machine, and a run slowed eightfold by the rest once failed a
 * single comparison.  A device's small launches keep fewer of its cores
 * busy than the whole run's, so its estimate errs long on an idle
 * machine (0.6 to 1.0 s for 0.4 s) and short on a busy one (0.9 s for
 * 2.5 s, beside the rest of the suite).
 */
static void
test_estimate_sampled (void)
{
  const TlFilter       *filter = tl_filter_lookup ("bilateral-filter", NULL);
  g_autoptr(GeglBuffer) layer  = tiled_layer (2);
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  guint                 pass, i;

  g_assert_cmpfloat ((gdouble) extent->width * extent->height / (256 * 256),
                     >, 8.0);
  g_assert_true (tl_filter_set_value (filter, values, "blur-radius", "6",
                                      NULL));
  for (pass = 0; pass < 2; pass++)
    {
      TlContext *with        = pass == 0 ? context : NULL;
      gdouble    estimate_ms = G_MAXDOUBLE;
      gdouble    run_ms      = G_MAXDOUBLE;
      guint      side        = 0;

      for (i = 0; i < 3; i++)
        {
          g_autoptr(GError)     error  = NULL;
          g_autoptr(GeglBuffer) result = NULL;
          TlEstimate            estimate;
          TlProcessReport       report;
          TlChoice              choice;

          tl_choice_init (&choice);
          if (! tl_estimate_sampled (with, filter, values, &choice, layer,
                                     extent, 128, &estimate, &error))
            g_error ("estimate: %s", error->message);
          result = run (with, filter, values, layer, extent, 0, &report);
          estimate_ms = MIN (estimate_ms, estimate.ms);
          run_ms      = MIN (run_ms, report.region_ms);
          side        = estimate.trial_side;
        }
      g_test_message ("%s: estimated %.1f ms from squares of %u, ran %.1f ms "
                      "(the quickest of 3 each)",
                      pass == 0 ? "OpenCL" : "C reference", estimate_ms, side,
                      run_ms);
      if (pass == 0)
        g_assert_cmpuint (side, ==, 256);
      g_assert_cmpfloat (estimate_ms, >, run_ms / 5.0);
      g_assert_cmpfloat (estimate_ms, <, run_ms * 5.0);
    }
}

/* A run of minutes (bilateral-filter at a radius of 200 on PoCL) stops
 * within a second of its watch saying so, with TL_ERROR_CANCELLED; the
 * C reference (at the default radius, in tiles) at the end of the tile
 * under way.
 */
static void
test_watch_stops (void)
{
  const TlFilter       *filter = tl_filter_lookup ("bilateral-filter", NULL);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  guint                 pass;

  for (pass = 0; pass < 2; pass++)
    {
      g_autoptr(GError)     error  = NULL;
      g_autofree TlValue   *values = tl_filter_default_values (filter);
      g_autoptr(GeglBuffer) target = gegl_buffer_new (extent,
                                                      gegl_buffer_get_format (layer));
      Watched               heard  = { 0, 0.0, 0.0, pass == 0 ? 300.0 : 0.001,
                                       0 };
      TlProcessReport       report;
      TlChoice              choice;
      gdouble               late_ms;

      if (pass == 0)
        g_assert_true (tl_filter_set_value (filter, values, "blur-radius",
                                            "200", NULL));
      tl_choice_init (&choice);
      g_assert_false (tl_process_region (pass == 0 ? context : NULL, filter,
                                         values, &choice, layer, target,
                                         extent, pass == 0 ? 0 : 64,
                                         watch_run, &heard, &report, &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_CANCELLED);
      g_assert_nonnull (strstr (error->message, "bilateral-filter"));
      late_ms = (g_get_monotonic_time () - heard.stopped_at) / 1000.0;
      g_test_message ("%s: stopped at %.0f ms, back %.1f ms later, %u tiles",
                      pass == 0 ? "OpenCL" : "C reference",
                      heard.last_elapsed_ms, late_ms, report.tiles);
      if (pass == 0)
        g_assert_cmpfloat (late_ms, <, 1000.0);
      else
        g_assert_cmpuint (report.tiles, ==, 1);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = g_dir_make_tmp ("threadlens-process-XXXXXX", NULL);
  g_autofree gchar *path  = NULL;
  g_autoptr(GPtrArray) extra = g_ptr_array_new_with_free_func (g_free);
  const TlFilter *const *filters;
  guint             n_filters, i;
  int               status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  path  = g_test_build_filename (G_TEST_DIST, "images", "coffee.png", NULL);
  photo = tl_image_load (path, &error);
  g_assert_no_error (error);
  context = tl_context_new (NULL, &error);
  if (context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);

  for (i = 0; i < G_N_ELEMENTS (process_cases); i++)
    {
      g_autofree gchar *format = g_strdelimit (g_strdup (process_cases[i].layer), " '", '-');
      g_autofree gchar *test   = g_strdup_printf ("/process/%s/%s/%u",
                                                  process_cases[i].filter, format, i);

      g_test_add_data_func (test, &process_cases[i], test_process);
    }
  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    if (! table_names (filters[i]->name))
      {
        ProcessCase      *c    = g_new0 (ProcessCase, 1);
        g_autofree gchar *test = g_strdup_printf ("/process/%s/registry",
                                                  filters[i]->name);

        c->filter = filters[i]->name;
        c->layer  = "R'G'B' u8";
        g_ptr_array_add (extra, c);
        g_test_add_data_func (test, c, test_process);
      }
  g_test_add_func ("/process/on-cpu", test_on_cpu);
  g_test_add_func ("/process/without-alpha", test_without_alpha);
  g_test_add_func ("/process/bad-region", test_bad_region);
  g_test_add_func ("/process/thin-regions", test_thin_regions);
  g_test_add_func ("/process/kept-memory", test_kept_memory);
  g_test_add_func ("/process/watched", test_watched);
  g_test_add_func ("/process/watch-forward", test_watch_forward);
  g_test_add_func ("/process/estimate-sampled", test_estimate_sampled);
  g_test_add_func ("/process/watch-stops", test_watch_stops);

  status = g_test_run ();
  tl_context_free (context);
  tl_image_free (photo);
  return status;
}
