/* ThreadLens tests: the GEGL module (plug-in/gegl-threadlens.c) in a GEGL
 * graph, outside GIMP.
 *
 * Every registry filter as threadlens:FILTER, fed a real photo through
 * gegl:buffer-source, equals the engine's own result (what `threadlens
 * apply` writes) bit for bit: on the whole image, on a rectangle that is
 * not the whole image, in GEGL's small chunks, and under several dispatch
 * choices.  threadlens:thread-map equals the host's map.  At mipmap level
 * 1 an invert is the invert of the scaled-down image.  And nothing that a
 * driver or a setting can do takes the process down: a dispatch the
 * device refuses leaves the pixels as they were, an OpenCL fault falls
 * back to the C reference, an allocation that fails leaves the pixels as
 * they were with a message, and an ICD that aborts inside
 * clGetPlatformIDs only kills the safety check's child process.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gegl-paramspecs.h>

#include "tl-cl.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-filter.h"
#include "tl-host.h"
#include "tl-host-blocks.h"
#include "tl-image.h"
#include "tl-platform-probe.h"
#include "tl-process.h"

/* More OpenCL calls than one invert through the module makes from a
 * cold start (about 50 on PoCL), so that the walk passes the last.
 */
#define TL_TEST_FAULT_CALLS 80

/* A photo crop with odd sides, so edge groups are partial. */
static const GeglRectangle crop = { 0, 0, 157, 101 };

typedef struct
{
  const gchar *shape;       /* "WxH" or NULL (auto) */
  const gchar *mode;
  gint         swizzle;
} Dispatch;

static const Dispatch dispatches[] =
{
  { NULL,   "uniform",     0 },
  { "16x4", "emulated",    3 },
  { "8x8",  "non-uniform", 2 },
};

static TlContext *context;
static TlImage   *photo;

static GeglBuffer *
layer_of (const gchar *format)
{
  GeglBuffer *source = tl_image_get_buffer (photo);
  GeglBuffer *layer  = gegl_buffer_new (&crop,
                                        babl_format_with_space (format,
                                                                gegl_buffer_get_format (source)));

  gegl_buffer_copy (source, &crop, GEGL_ABYSS_NONE, layer, &crop);
  return layer;
}

/* The engine's result, as `threadlens apply` computes it. */
static GeglBuffer *
engine_result (TlContext      *with,
               const TlFilter *filter,
               const TlValue  *values,
               const Dispatch *dispatch,
               GeglBuffer     *layer)
{
  g_autoptr(GError) error  = NULL;
  GeglBuffer       *target = gegl_buffer_new (gegl_buffer_get_extent (layer),
                                              gegl_buffer_get_format (layer));
  TlProcessReport   report;
  TlChoice          choice;

  tl_choice_init (&choice);
  if (dispatch && dispatch->shape)
    g_assert_true (tl_shape_from_string (dispatch->shape, &choice, &error));
  if (dispatch)
    {
      g_assert_true (tl_mode_from_string (dispatch->mode, &choice.mode, &error));
      choice.swizzle = dispatch->swizzle;
    }
  if (! tl_process_region (with, filter, values, &choice, layer, target,
                           gegl_buffer_get_extent (layer), 0, NULL, NULL,
                           &report, &error))
    g_error ("%s: %s", filter->name, error->message);
  return target;
}

/* A graph: LAYER -> threadlens:NAME, properties set by the caller. */
static GeglNode *
graph_for (GeglNode    **op,
           const gchar  *name,
           GeglBuffer   *layer)
{
  GeglNode         *graph = gegl_node_new ();
  g_autofree gchar *type  = g_strconcat ("threadlens:", name, NULL);
  GeglNode         *input;

  input = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                               "buffer", layer, NULL);
  *op   = gegl_node_new_child (graph, "operation", type, NULL);
  g_assert_nonnull (gegl_node_get_gegl_operation (*op));
  gegl_node_link (input, *op);
  return graph;
}

static void
set_dispatch (GeglNode       *op,
              const Dispatch *dispatch)
{
  gint w = 0, h = 0;

  if (dispatch->shape)
    g_assert_cmpint (sscanf (dispatch->shape, "%dx%d", &w, &h), ==, 2);
  gegl_node_set (op, "shape-width", w, "shape-height", h,
                 "mode", dispatch->mode, "swizzle", dispatch->swizzle, NULL);
}

static void
set_values (GeglNode       *op,
            const TlFilter *filter,
            const TlValue  *values)
{
  guint i;

  for (i = 0; i < filter->n_params; i++)
    if (filter->params[i].type == TL_PARAM_DOUBLE)
      gegl_node_set (op, filter->params[i].name, values[i].v[0], NULL);
}

/* ROI of NODE's output, rendered by GEGL in LAYER's format. */
static GeglBuffer *
render (GeglNode            *node,
        GeglBuffer          *layer,
        const GeglRectangle *roi,
        gdouble              scale)
{
  const Babl        *format = gegl_buffer_get_format (layer);
  GeglBuffer        *out    = gegl_buffer_new (roi, format);
  g_autofree guint8 *pixels = g_malloc ((gsize) roi->width * roi->height *
                                        babl_format_get_bytes_per_pixel (format));

  gegl_node_blit (node, scale, roi, format, pixels, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  gegl_buffer_set (out, roi, 0, format, pixels, GEGL_AUTO_ROWSTRIDE);
  return out;
}

static gboolean
same_pixels (GeglBuffer          *a,
             GeglBuffer          *b,
             const GeglRectangle *region,
             gint                *worst)
{
  const Babl        *format = gegl_buffer_get_format (a);
  gsize              size   = (gsize) region->width * region->height *
                              babl_format_get_bytes_per_pixel (format);
  g_autofree guint8 *x      = g_malloc (size);
  g_autofree guint8 *y      = g_malloc (size);
  gsize              i;

  gegl_buffer_get (a, region, 1.0, format, x, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (b, region, 1.0, format, y, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  *worst = 0;
  for (i = 0; i < size; i++)
    *worst = MAX (*worst, ABS ((gint) x[i] - (gint) y[i]));
  return *worst == 0;
}

static void
assert_same (GeglBuffer          *a,
             GeglBuffer          *b,
             const GeglRectangle *region,
             const gchar         *what)
{
  gint worst;

  if (! same_pixels (a, b, region, &worst))
    g_error ("%s: differs by up to %d codes", what, worst);
}

static void
test_filter (gconstpointer data)
{
  const TlFilter       *filter = data;
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  /* Away from every edge, so its halo comes from the layer. */
  GeglRectangle         part   = { 23, 17, 71, 53 };
  guint                 i;

  for (i = 0; i < G_N_ELEMENTS (dispatches); i++)
    {
      g_autoptr(GeglBuffer) expected = engine_result (context, filter, values,
                                                      &dispatches[i], layer);
      g_autoptr(GeglBuffer) whole    = NULL;
      g_autoptr(GeglBuffer) piece    = NULL;
      g_autoptr(GeglNode)   graph    = NULL;
      g_autofree gchar     *what     = g_strdup_printf ("%s, %s %s swizzle %d",
                                         filter->name,
                                         dispatches[i].shape ? dispatches[i].shape : "auto",
                                         dispatches[i].mode, dispatches[i].swizzle);
      GeglNode             *op;

      graph = graph_for (&op, filter->name, layer);
      set_values (op, filter, values);
      set_dispatch (op, &dispatches[i]);

      whole = render (op, layer, &crop, 1.0);
      assert_same (expected, whole, &crop, what);
      piece = render (op, layer, &part, 1.0);
      assert_same (expected, piece, &part, what);
    }
}

/* GEGL's own chunks: a processor with a small chunk size renders the
 * output in many pieces, each read with its halo (the convolution at
 * std-dev 3.5) or cut from the whole result GEGL keeps (the recursive
 * filter at 12, which depends on whole lines).
 */
static void
test_chunks (void)
{
  static const gdouble  std_devs[] = { 3.5, 12.0 };
  g_autoptr(GError)     error    = NULL;
  const TlFilter       *filter   = tl_filter_lookup ("gaussian-blur", &error);
  g_autofree TlValue   *values   = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer    = layer_of ("R'G'B'A u16");
  guint                 i;

  for (i = 0; i < G_N_ELEMENTS (std_devs); i++)
    {
      g_autoptr(GeglBuffer) expected = NULL;
      g_autoptr(GeglBuffer) result   = gegl_buffer_new (&crop, gegl_buffer_get_format (layer));
      g_autoptr(GeglNode)   graph    = NULL;
      g_autofree gchar     *what     = NULL;
      GeglNode             *op, *sink;
      GeglProcessor        *processor;
      gint                  chunks = 0;

      values[0].v[0] = std_devs[i];
      expected = engine_result (context, filter, values, NULL, layer);
      graph = graph_for (&op, "gaussian-blur", layer);
      set_values (op, filter, values);
      sink = gegl_node_new_child (graph, "operation", "gegl:write-buffer",
                                  "buffer", result, NULL);
      gegl_node_link (op, sink);

      g_object_set (gegl_config (), "chunk-size", 32 * 32, NULL);
      processor = gegl_node_new_processor (sink, &crop);
      while (gegl_processor_work (processor, NULL))
        chunks++;
      g_object_unref (processor);
      g_object_set (gegl_config (), "chunk-size", 1 << 20, NULL);

      what = g_strdup_printf ("gaussian-blur at std-dev %g in 32x32 chunks",
                              std_devs[i]);
      g_test_message ("%s: %d chunks", what, chunks);
      g_assert_cmpint (chunks, >, 4);
      assert_same (expected, result, &crop, what);
    }
}

static void
hear_progress (GeglNode *node,
               gdouble   value,
               GArray   *heard)
{
  g_array_append_val (heard, value);
}

/* A long computation in-core (mean-curvature-blur at 500 iterations,
 * seconds on PoCL) tells the node's "progress", as GIMP's filter tool
 * hears it: 0.0 first (GIMP starts its bar), values strictly between
 * that never step back, 1.0 last (GIMP ends the bar).  A short one (the
 * default) tells none.
 */
static void
test_progress (void)
{
  const TlFilter       *filter = tl_filter_lookup ("mean-curvature-blur", NULL);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer  = layer_of ("R'G'B' u8");
  guint                 pass;

  for (pass = 0; pass < 2; pass++)
    {
      g_autoptr(GeglNode)   graph  = NULL;
      g_autoptr(GeglBuffer) result = NULL;
      g_autoptr(GArray)     heard  = g_array_new (FALSE, FALSE, sizeof (gdouble));
      g_autoptr(GString)    told   = g_string_new (NULL);
      GeglNode             *op;
      guint                 n, i;

      values[0].v[0] = pass == 0 ? 500 : 2;
      graph = graph_for (&op, filter->name, layer);
      set_values (op, filter, values);
      g_signal_connect (op, "progress", G_CALLBACK (hear_progress), heard);
      result = render (op, layer, gegl_buffer_get_extent (layer), 1.0);
      n = heard->len;
      g_test_message ("%s at %g iterations: %u progress signals",
                      filter->name, values[0].v[0], n);
      for (i = 0; i < n; i++)
        g_string_append_printf (told, " %.3g", g_array_index (heard, gdouble, i));
      g_test_message ("told:%s", told->str);
      if (pass == 1)
        {
          g_assert_cmpuint (n, ==, 0);
          continue;
        }
      g_assert_cmpuint (n, >=, 4);
      g_assert_cmpfloat (g_array_index (heard, gdouble, 0), ==, 0.0);
      for (i = 1; i + 1 < n; i++)
        {
          g_assert_cmpfloat (g_array_index (heard, gdouble, i), >,  0.0);
          g_assert_cmpfloat (g_array_index (heard, gdouble, i), <,  1.0);
          g_assert_cmpfloat (g_array_index (heard, gdouble, i), >=,
                             g_array_index (heard, gdouble, i - 1));
        }
      g_assert_cmpfloat (g_array_index (heard, gdouble, n - 1), ==, 1.0);
    }
}

/* GIMP's canvas at a zoom: one graph drawn chunk by chunk, CHUNK_W x
 * CHUNK_H, row after row, as GIMP's projection asks, each chunk blitted
 * at LEVEL's scale (GEGL keeps the node's cache between them).  CALLS
 * gets how many times the operation computed pixels.
 */
static guint operation_calls;

static void
count_calls (const gchar    *domain,
             GLogLevelFlags  level,
             const gchar    *message,
             gpointer        data)
{
  if (strstr (message, " ms in the operation") &&
      ! strstr (message, "computed 0x0"))
    {
      operation_calls++;
      if (g_getenv ("TL_TEST_SHOW_CALLS"))
        g_test_message ("%s", message);
    }
  else if ((level & G_LOG_LEVEL_DEBUG) == 0)
    g_log_default_handler (domain, level, message, data);
}

static GeglRectangle
level_area (GeglBuffer *layer,
            gint        level)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (layer);
  gint                 scale  = 1 << level;
  GeglRectangle        area   = { extent->x / scale, extent->y / scale,
                                  (extent->width + scale - 1) / scale,
                                  (extent->height + scale - 1) / scale };

  return area;
}

static GeglBuffer *
render_chunks (GeglNode   *node,
               GeglBuffer *layer,
               gint        level,
               gint        chunk_w,
               gint        chunk_h,
               guint      *chunks,
               guint      *calls)
{
  GeglRectangle area = level_area (layer, level);
  GeglBuffer   *out  = gegl_buffer_new (&area, gegl_buffer_get_format (layer));
  guint         handler;
  gint          x, y;

  *chunks = 0;
  operation_calls = 0;
  handler = g_log_set_handler ("ThreadLens", G_LOG_LEVEL_MASK, count_calls, NULL);
  for (y = area.y; y < area.y + area.height; y += chunk_h)
    for (x = area.x; x < area.x + area.width; x += chunk_w)
      {
        GeglRectangle         rect = { x, y, chunk_w, chunk_h };
        g_autoptr(GeglBuffer) part = NULL;

        gegl_rectangle_intersect (&rect, &rect, &area);
        part = render (node, layer, &rect, 1.0 / (1 << level));
        gegl_buffer_copy (part, &rect, GEGL_ABYSS_NONE, out, &rect);
        (*chunks)++;
      }
  g_log_remove_handler ("ThreadLens", handler);
  *calls = operation_calls;
  return out;
}

/* Every filter on GIMP's canvas, 8-bit and float, at levels 0 and 2:
 * the chunks equal one call bit for bit (at level 0, `threadlens
 * apply`), though GEGL ran the operation on blocks, fewer times than
 * there were chunks.  Small blocks (96 pixels a side at the least) make
 * several on the photo at both levels, and the chunks straddle them.
 */
static void
test_canvas (gconstpointer data)
{
  static const gchar *const formats[] = { "R'G'B'A u8", "R'G'B'A float" };
  static const gint         levels[]  = { 0, 2 };
  const TlFilter           *filter    = data;
  g_autofree TlValue       *values    = tl_filter_default_values (filter);
  const GeglRectangle      *extent    = gegl_buffer_get_extent (tl_image_get_buffer (photo));
  guint                     f, l;

  g_setenv (TL_HOST_BLOCK_SIDE_ENV, "96", TRUE);
  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr(GeglBuffer) layer = gegl_buffer_new (extent, babl_format (formats[f]));

      gegl_buffer_copy (tl_image_get_buffer (photo), extent, GEGL_ABYSS_NONE,
                        layer, extent);
      for (l = 0; l < G_N_ELEMENTS (levels); l++)
        {
          GeglRectangle         area  = level_area (layer, levels[l]);
          g_autoptr(GeglNode)   graph = NULL, single = NULL;
          g_autoptr(GeglBuffer) once  = NULL, chunked = NULL;
          g_autofree gchar     *what  = NULL;
          GeglNode             *op, *whole;
          guint                 chunks, calls;

          graph = graph_for (&op, filter->name, layer);
          set_values (op, filter, values);
          chunked = render_chunks (op, layer, levels[l], 80, 48, &chunks, &calls);
          if (levels[l] == 0)
            once = engine_result (context, filter, values, NULL, layer);
          else
            {
              single = graph_for (&whole, filter->name, layer);
              set_values (whole, filter, values);
              once = render (whole, layer, &area, 1.0 / (1 << levels[l]));
            }
          what = g_strdup_printf ("%s, %s, level %d: %u chunks in %u calls",
                                  filter->name, formats[f], levels[l], chunks,
                                  calls);
          g_test_message ("%s", what);
          assert_same (once, chunked, &area, what);
          g_assert_cmpuint (calls, >=, 1);
          g_assert_cmpuint (calls, <, chunks);
        }
    }
  g_unsetenv (TL_HOST_BLOCK_SIDE_ENV);
}

/* What the blocks keep never outlives what it was computed from: after a
 * new setting, a stroke on the input or another region asked for, the
 * chunks equal `threadlens apply` on what is there now.
 */
static void
test_canvas_changes (void)
{
  g_autoptr(GError)     error  = NULL;
  const TlFilter       *filter = tl_filter_lookup ("box-blur", &error);
  g_autofree TlValue   *values = tl_filter_default_values (filter);
  const GeglRectangle  *extent = gegl_buffer_get_extent (tl_image_get_buffer (photo));
  g_autoptr(GeglBuffer) layer  = gegl_buffer_new (extent, babl_format ("R'G'B'A u8"));
  g_autoptr(GeglNode)   graph  = NULL;
  GeglRectangle         stroke = { 150, 90, 40, 12 };
  GeglRectangle         part   = { 200, 30, 130, 170 };
  GeglColor            *ink    = gegl_color_new ("#e0107a");
  GeglNode             *op;
  guint                 step;

  gegl_buffer_copy (tl_image_get_buffer (photo), extent, GEGL_ABYSS_NONE,
                    layer, extent);
  g_setenv (TL_HOST_BLOCK_SIDE_ENV, "128", TRUE);
  graph = graph_for (&op, filter->name, layer);
  for (step = 0; step < 4; step++)
    {
      g_autoptr(GeglBuffer) expected = NULL, chunked = NULL;
      const gchar          *what[]   = { "first render", "new radius",
                                         "a stroke on the input",
                                         "another region" };
      guint                 chunks, calls;

      if (step == 1)
        values[0].v[0] = 9;
      if (step == 2)
        gegl_buffer_set_color (layer, &stroke, ink);
      if (step < 2)
        set_values (op, filter, values);
      expected = engine_result (context, filter, values, NULL, layer);
      if (step < 3)
        {
          chunked = render_chunks (op, layer, 0, 64, 64, &chunks, &calls);
          g_test_message ("%s: %u chunks in %u calls", what[step], chunks, calls);
          assert_same (expected, chunked, extent, what[step]);
        }
      else
        {
          chunked = render (op, layer, &part, 1.0);
          assert_same (expected, chunked, &part, what[step]);
        }
    }
  g_object_unref (ink);
  g_unsetenv (TL_HOST_BLOCK_SIDE_ENV);
}

/* A stand-in for GEGL's cache: an object with its "invalidated" signal. */
typedef GObject      FakeCache;
typedef GObjectClass FakeCacheClass;

G_DEFINE_TYPE (FakeCache, fake_cache, G_TYPE_OBJECT)

static void
fake_cache_class_init (FakeCacheClass *klass)
{
  g_signal_new ("invalidated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 1, GEGL_TYPE_RECTANGLE);
}

static void
fake_cache_init (FakeCache *cache)
{
}

/* The rule's arithmetic: a block's halo adds at most a fifth; a chunk
 * widens to its blocks; what is computed into the cache followed is not
 * computed again; an invalidation reaches the blocks it touches; another
 * output, level or grid knows nothing.
 */
static void
test_blocks (void)
{
  GeglRectangle bounds = { 0, 0, 1000, 700 };
  GeglRectangle chunk  = { 480, 100, 64, 64 };   /* straddles 512 */
  GeglRectangle region, todo;
  TlHostBlocks *blocks = tl_host_blocks_new ();
  GObject      *cache  = g_object_new (fake_cache_get_type (), NULL);
  GObject      *other  = g_object_new (fake_cache_get_type (), NULL);
  gint          halo;

  g_assert_cmpint (tl_host_block_side (0, 512), ==, 512);
  g_assert_cmpint (tl_host_block_side (1, 7), ==, 64);
  for (halo = 1; halo <= 500; halo += 37)
    {
      gint    side = tl_host_block_side (halo, 1);
      gdouble area = (side + 2.0 * halo) * (side + 2.0 * halo) /
                     ((gdouble) side * side);

      g_assert_cmpint (side % TL_HOST_BLOCK_ALIGN, ==, 0);
      g_assert_cmpfloat (area, <=, 1.2);
    }

  region = tl_host_blocks_cover (&bounds, 512, &chunk);
  g_assert_true (gegl_rectangle_equal (&region, GEGL_RECTANGLE (0, 0, 1000, 512)));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  tl_host_blocks_done (blocks, cache, &bounds, 512, 0, GEGL_RECTANGLE (0, 0, 512, 512));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, GEGL_RECTANGLE (512, 0, 488, 512)));
  tl_host_blocks_done (blocks, cache, &bounds, 512, 0, &todo);
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_is_empty (&todo));
  /* Another level, another grid, beyond the bounds: nothing known. */
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 1, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 256, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, GEGL_RECTANGLE (-4, 0, 100, 100));
  g_assert_true (gegl_rectangle_equal (&todo, GEGL_RECTANGLE (-4, 0, 100, 100)));
  /* GEGL invalidates a little of the left block. */
  g_signal_emit_by_name (cache, "invalidated", GEGL_RECTANGLE (10, 10, 5, 5));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, GEGL_RECTANGLE (0, 0, 512, 512)));
  tl_host_blocks_done (blocks, cache, &bounds, 512, 0, &todo);
  /* All of it (an empty rectangle). */
  g_signal_emit_by_name (cache, "invalidated", GEGL_RECTANGLE (0, 0, 0, 0));
  todo = tl_host_blocks_todo (blocks, cache, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  tl_host_blocks_done (blocks, cache, &bounds, 512, 0, &region);
  /* Another output starts a new record; a plain one keeps none. */
  todo = tl_host_blocks_todo (blocks, other, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  tl_host_blocks_done (blocks, cache, &bounds, 512, 0, &region);
  todo = tl_host_blocks_todo (blocks, other, &bounds, 512, 0, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  tl_host_blocks_done (blocks, other, &bounds, 512, 1, GEGL_RECTANGLE (0, 0, 10, 10));
  g_assert_cmpint (tl_host_blocks_get_level (blocks), ==, 1);
  /* The cache followed is gone. */
  g_clear_object (&other);
  todo = tl_host_blocks_todo (blocks, NULL, &bounds, 512, 1, &region);
  g_assert_true (gegl_rectangle_equal (&todo, &region));
  tl_host_blocks_free (blocks);
  g_object_unref (cache);
}

/* Each number's property carries the registry's display hints, which
 * GIMP's dialog for a filter on the layer's stack follows: its slider
 * range, steps and digits.
 */
static void
test_display_hints (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i, j;

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    for (j = 0; j < filters[i]->n_params; j++)
      {
        const TlParamSpec   *spec = &filters[i]->params[j];
        g_autofree gchar    *type = g_strconcat ("threadlens:", filters[i]->name, NULL);
        GParamSpec          *property;
        GeglParamSpecDouble *number;

        property = gegl_operation_find_property (type, spec->name);
        g_assert_nonnull (property);
        if (spec->type != TL_PARAM_DOUBLE)
          {
            g_assert_true (G_IS_PARAM_SPEC_STRING (property));
            continue;
          }
        g_assert_true (GEGL_IS_PARAM_SPEC_DOUBLE (property));
        number = GEGL_PARAM_SPEC_DOUBLE (property);
        g_assert_cmpfloat (G_PARAM_SPEC_DOUBLE (property)->minimum, ==, spec->min);
        g_assert_cmpfloat (G_PARAM_SPEC_DOUBLE (property)->maximum, ==, spec->max);
        g_assert_cmpfloat (number->ui_minimum, ==, spec->ui_min);
        g_assert_cmpfloat (number->ui_maximum, ==, spec->ui_max);
        g_assert_cmpfloat (number->ui_step_small, ==, spec->step);
        g_assert_cmpfloat (number->ui_step_big, ==, spec->step * 10);
        g_assert_cmpint (number->ui_digits, ==, (gint) spec->digits);
      }

  /* A whole number, and a fraction. */
  g_assert_cmpint (GEGL_PARAM_SPEC_DOUBLE (gegl_operation_find_property ("threadlens:median-blur",
                                                                         "radius"))->ui_digits, ==, 0);
  g_assert_cmpint (GEGL_PARAM_SPEC_DOUBLE (gegl_operation_find_property ("threadlens:gaussian-blur",
                                                                         "std-dev"))->ui_digits, >, 0);
}

/* Level 1 (a zoomed-out preview) through threadlens:invert: the largest
 * differences of its pixels to the invert of the half-size image and to
 * that image itself.
 */
static void
level_one (gdouble *to_invert,
           gdouble *to_input)
{
  g_autoptr(GeglBuffer) layer = layer_of ("R'G'B'A float");
  g_autoptr(GeglNode)   graph = NULL;
  GeglRectangle         half  = { 0, 0, crop.width / 2, crop.height / 2 };
  g_autofree gfloat    *in    = g_new (gfloat, half.width * half.height * 4);
  g_autofree gfloat    *out   = g_new (gfloat, half.width * half.height * 4);
  GeglNode             *op;
  gint                  i;

  graph = graph_for (&op, "invert", layer);
  gegl_buffer_get (layer, &half, 0.5, babl_format ("R'G'B'A float"), in,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_CLAMP);
  gegl_node_blit (op, 0.5, &half, babl_format ("R'G'B'A float"), out,
                  GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
  *to_invert = *to_input = 0.0;
  for (i = 0; i < half.width * half.height * 4; i++)
    {
      gdouble d = ABS (((i % 4) == 3 ? in[i] : 1.0f - in[i]) - out[i]);

      *to_invert = MAX (*to_invert, d);
      *to_input  = MAX (*to_input, ABS (in[i] - out[i]));
    }
}

static void
test_level (void)
{
  gdouble worst, to_input;

  level_one (&worst, &to_input);
  g_test_message ("largest difference at level 1: %g", worst);
  g_assert_cmpfloat (worst, <, 1e-5);
}

/* threadlens:thread-map draws what the host draws for the same dispatch. */
static void
test_thread_map (void)
{
  g_autoptr(GError)     error   = NULL;
  g_autoptr(GeglBuffer) layer   = layer_of ("R'G'B'A float");
  g_autoptr(GeglBuffer) drawn   = NULL;
  g_autoptr(GeglBuffer) host    = gegl_buffer_new (&crop, babl_format ("R'G'B'A float"));
  g_autoptr(GeglNode)   graph   = NULL;
  TlHostOverlay         overlay = { { 0, } };
  TlHostSettings        settings;
  const TlFilter       *filter  = tl_filter_lookup ("box-blur", &error);
  GeglNode             *op;

  graph = graph_for (&op, "thread-map", layer);
  gegl_node_set (op, "shape-width", 16, "shape-height", 8, "filter", "box-blur",
                 NULL);
  drawn = render (op, host, &crop, 1.0);

  tl_host_settings_init (&settings, NULL);
  settings.shape[0] = 16;
  settings.shape[1] = 8;
  g_assert_true (tl_host_thread_map_for (&settings, filter, layer, &crop, NULL,
                                         NULL, &overlay, &error));
  g_assert_no_error (error);
  gegl_buffer_set (host, &overlay.area, 0, overlay.format, overlay.pixels,
                   GEGL_AUTO_ROWSTRIDE);
  tl_host_overlay_clear (&overlay);
  assert_same (host, drawn, &crop, "thread map against the host's");
}

/* Run in a child: FILTER through the module, with whatever the parent
 * armed in the environment; the result's worst difference to EXPECTED
 * (the C reference) and to the input go to stdout.
 */
static void
run_child (const gchar    *name,
           const Dispatch *dispatch,
           gint           *reference_out,
           gint           *input_out)
{
  g_autoptr(GError)     error    = NULL;
  const TlFilter       *filter   = tl_filter_lookup (name, &error);
  g_autofree TlValue   *values   = tl_filter_default_values (filter);
  g_autoptr(GeglBuffer) layer    = layer_of ("R'G'B' u8");
  g_autoptr(GeglBuffer) expected = engine_result (NULL, filter, values, NULL, layer);
  g_autoptr(GeglBuffer) result   = NULL;
  g_autoptr(GeglNode)   graph    = NULL;
  GeglNode             *op;
  gint                  to_reference, to_input;

  graph = graph_for (&op, name, layer);
  set_values (op, filter, values);
  if (dispatch)
    set_dispatch (op, dispatch);
  result = render (op, layer, &crop, 1.0);
  same_pixels (expected, result, &crop, &to_reference);
  same_pixels (layer, result, &crop, &to_input);
  g_print ("reference %d input %d\n", to_reference, to_input);
  if (reference_out)
    *reference_out = to_reference;
  if (input_out)
    *input_out = to_input;
}

/* An ICD whose clIcdGetPlatformIDsKHR calls abort (): only the safety
 * check's child dies; the filter runs on its C reference.
 */
static void
test_aborting_icd (void)
{
  if (g_test_subprocess ())
    {
      g_autofree gchar *vendors = g_dir_make_tmp ("threadlens-icd-XXXXXX", NULL);
      g_autofree gchar *file    = g_build_filename (vendors, "abort.icd", NULL);
      g_autofree gchar *line    = g_strconcat (g_getenv ("TL_TEST_ABORT_ICD"),
                                               "\n", NULL);

      /* Read by the ICD loader in the safety check's process. */
      g_assert_true (g_file_set_contents (file, line, -1, NULL));
      g_setenv ("OCL_ICD_VENDORS", vendors, TRUE);
      run_child ("invert", NULL, NULL, NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDIN);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*reference 0 input *");
  g_test_trap_assert_stderr ("*OpenCL is off in this process*signal 6*C reference*");
}

/* No device memory (every clCreateBuffer fails): the C reference, and a
 * message.
 */
static void
test_fault (void)
{
  if (g_test_subprocess ())
    {
      /* Read once, at the module's first OpenCL call. */
      g_setenv ("THREADLENS_FAULT", "clCreateBuffer", TRUE);
      run_child ("gaussian-blur", NULL, NULL, NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDIN);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*reference 0 input *");
  g_test_trap_assert_stderr ("*C reference*");
}

/* The fault walk: the N-th OpenCL call of the module fails, for every N
 * up to past a whole run (platforms, devices, context, program, buffers,
 * launches, reads).  The process lives, and the pixels are the filter's
 * (OpenCL, or the C reference standing in) or the input's, never garbage.
 */
static void
test_fault_walk (gconstpointer data)
{
  const gchar *bands = data;
  guint        n;

  if (g_test_subprocess ())
    {
      gint to_reference, to_input;

      run_child (bands ? "box-blur" : "invert", NULL, &to_reference, &to_input);
      g_assert_true (to_reference == 0 || to_input == 0);
      return;
    }
  /* Banded: the pixels cross in bands, a failure mid-transfer too. */
  if (bands)
    g_setenv ("THREADLENS_BANDS", bands, TRUE);
  for (n = 1; n <= TL_TEST_FAULT_CALLS; n++)
    {
      g_autofree gchar *spec = g_strdup_printf ("%u", n);

      /* Children inherit it; this process read its own long ago. */
      g_setenv ("THREADLENS_FAULT", spec, TRUE);
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_INHERIT_STDIN);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout ("*reference * input *");
    }
  g_unsetenv ("THREADLENS_FAULT");
  g_unsetenv ("THREADLENS_BANDS");
}

/* GPU's path on any device: small tiles (THREADLENS_TILE), each moved in
 * bands through the device's own buffers (THREADLENS_BANDS).  Every
 * operation through the module equals the engine's whole-image result
 * (`threadlens apply`'s), in 8-bit and float storage.
 */
static void
test_tiled_bands (void)
{
  static const gchar *const formats[] = { "R'G'B'A u8", "R'G'B'A float" };
  guint                     n;
  const TlFilter *const    *filters   = tl_filter_list (&n);
  guint                     f, i;

  for (f = 0; f < G_N_ELEMENTS (formats); f++)
    for (i = 0; i < n; i++)
      {
        const TlFilter       *filter   = filters[i];
        g_autofree TlValue   *values   = tl_filter_default_values (filter);
        g_autoptr(GeglBuffer) layer    = layer_of (formats[f]);
        g_autoptr(GeglBuffer) expected = engine_result (context, filter, values,
                                                        NULL, layer);
        g_autoptr(GeglBuffer) result   = NULL;
        g_autoptr(GeglNode)   graph    = NULL;
        g_autofree gchar     *what     = g_strdup_printf ("%s in %s, 48x48 tiles "
                                                          "in 3 bands",
                                                          filter->name,
                                                          formats[f]);
        GeglNode             *op;

        graph = graph_for (&op, filter->name, layer);
        set_values (op, filter, values);
        g_setenv ("THREADLENS_TILE", "48", TRUE);
        g_setenv ("THREADLENS_BANDS", "3", TRUE);
        result = render (op, layer, &crop, 1.0);
        g_unsetenv ("THREADLENS_TILE");
        g_unsetenv ("THREADLENS_BANDS");
        assert_same (expected, result, &crop, what);
      }
}

/* Allocations sized by the layer that one run through the module makes
 * at most (tl-alloc.h; 5 to 9 on PoCL): a walk to this many passes the
 * last, which the walk checks.
 */
#define TL_TEST_ALLOC_WALK 12

/* Where the walk's children run: with OpenCL (the tiles' blocks, the
 * alpha's bands, the thread map's), without (the C reference's copies).
 */
typedef struct
{
  const gchar *name;
  const gchar *operation;       /* a filter, or "thread-map" */
  gboolean     opencl;
} AllocWalk;

static const AllocWalk alloc_walks[] =
{
  { "opencl",       "gaussian-blur", TRUE },
  { "c-reference",  "gaussian-blur", FALSE },
  { "c-reference-box", "box-blur",   FALSE },
  { "thread-map",   "thread-map",    TRUE },
  /* The module's own copies of a zoomed-out view's pixels. */
  { "level-1",      "level-1",       TRUE },
};

static gboolean alloc_failed;   /* the module said memory ran out */

static void
note_memory (const gchar    *domain,
             GLogLevelFlags  level,
             const gchar    *message,
             gpointer        data)
{
  if (strstr (message, "not enough memory"))
    alloc_failed = TRUE;
  g_log_default_handler (domain, level, message, data);
}

/* In a child: the thread map through the module, against the host's
 * map and the input.
 */
static void
run_map_child (gint *map_out,
               gint *input_out)
{
  g_autoptr(GError)     error    = NULL;
  g_autoptr(GeglBuffer) layer    = layer_of ("R'G'B'A float");
  g_autoptr(GeglBuffer) host     = gegl_buffer_new (&crop, babl_format ("R'G'B'A float"));
  g_autoptr(GeglBuffer) drawn    = NULL;
  g_autoptr(GeglNode)   graph    = NULL;
  TlHostOverlay         overlay  = { { 0, } };
  TlHostSettings        settings;
  GeglNode             *op;

  tl_host_settings_init (&settings, NULL);
  g_assert_true (tl_host_thread_map_for (&settings, NULL, layer, &crop, NULL,
                                         NULL, &overlay, &error));
  gegl_buffer_set (host, &overlay.area, 0, overlay.format, overlay.pixels,
                   GEGL_AUTO_ROWSTRIDE);
  tl_host_overlay_clear (&overlay);

  graph = graph_for (&op, "thread-map", layer);
  drawn = render (op, host, &crop, 1.0);
  same_pixels (host, drawn, &crop, map_out);
  same_pixels (layer, drawn, &crop, input_out);
}

/* In a child: level 1 through the module, against the invert of the
 * half-size image and that image.
 */
static void
run_level_child (gint *invert_out,
                 gint *input_out)
{
  gdouble to_invert, to_input;

  level_one (&to_invert, &to_input);
  g_print ("level 1: %g from the invert, %g from the input\n", to_invert,
           to_input);
  *invert_out = to_invert >= 1e-5;
  *input_out  = to_input >= 1e-5;
}

/* The allocation walk: the N-th allocation sized by the layer fails in
 * the module, for every N up to past a whole run.  The process lives;
 * the pixels are the filter's (or the map's) or the input's, never
 * garbage; and the message says memory ran out.  The walk is whole when
 * its last run makes no allocation fail.
 */
static void
test_alloc_walk (gconstpointer data)
{
  const AllocWalk *walk = data;
  guint            n;

  if (g_test_subprocess ())
    {
      gint to_result, to_input;

      /* This process's own copy of the engine computes the expected
       * result: only the module's copy walks.
       */
      g_assert_true (tl_fault_arm (NULL, NULL));
      g_log_set_default_handler (note_memory, NULL);
      if (! walk->opencl)
        {
          g_autofree gchar *empty = g_dir_make_tmp ("threadlens-icd-XXXXXX", NULL);

          g_setenv ("OCL_ICD_VENDORS", empty, TRUE);
        }
      if (strcmp (walk->operation, "thread-map") == 0)
        run_map_child (&to_result, &to_input);
      else if (strcmp (walk->operation, "level-1") == 0)
        run_level_child (&to_result, &to_input);
      else
        run_child (walk->operation, NULL, &to_result, &to_input);
      g_print ("memory-fault %s\n", alloc_failed ? "yes" : "no");
      g_assert_true (to_result == 0 || to_input == 0);
      /* Never the result without the message, or the input without it. */
      g_assert_true (alloc_failed == (to_result != 0));
      return;
    }
  for (n = 1; n <= TL_TEST_ALLOC_WALK; n++)
    {
      g_autofree gchar *spec = g_strdup_printf ("alloc:%u", n);

      g_setenv ("THREADLENS_FAULT", spec, TRUE);
      g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_INHERIT_STDIN);
      g_test_trap_assert_passed ();
      /* The first allocation fails; the last walked never comes. */
      if (n == 1)
        g_test_trap_assert_stdout ("*memory-fault yes*");
      if (n == TL_TEST_ALLOC_WALK)
        g_test_trap_assert_stdout ("*memory-fault no*");
    }
  g_unsetenv ("THREADLENS_FAULT");
}

/* A shape over the device's limit: the pixels stay as they were, and
 * the message names the limit.
 */
static void
test_refused (void)
{
  static const Dispatch huge = { "4096x4096", "uniform", 0 };

  if (g_test_subprocess ())
    {
      run_child ("sepia", &huge, NULL, NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 120 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDIN);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout ("*input 0*");
  g_test_trap_assert_stderr ("*threadlens:sepia*4096x4096*left as they were*");
}

/* The safety check's verdict is kept for later processes only when the
 * check ran: a helper that cannot start (a broken installation) is asked
 * again next time, so that fixing it turns OpenCL back on.
 */
static void
test_probe_kept (void)
{
  g_autofree gchar *cache  = g_dir_make_tmp ("threadlens-probe-XXXXXX", NULL);
  g_autofree gchar *helper = g_test_build_filename (G_TEST_BUILT, "..", "plug-in",
                                                    "threadlens-cl-probe", NULL);
  g_autofree gchar *saved  = g_strdup (g_getenv ("THREADLENS_CACHE_DIR"));
  gboolean          from_cache = TRUE;
  guint             i;

  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
  for (i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (tl_platform_probe_check ("/nonexistent/threadlens-cl-probe",
                                               &from_cache, &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_NO_PLATFORM);
      g_assert_nonnull (strstr (error->message, "could not run"));
      g_assert_false (from_cache);
    }
  for (i = 0; i < 2; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (tl_platform_probe_check (helper, &from_cache, &error));
      g_assert_no_error (error);
      g_assert_true (from_cache == (i == 1));
    }
  if (saved)
    g_setenv ("THREADLENS_CACHE_DIR", saved, TRUE);
  else
    g_unsetenv ("THREADLENS_CACHE_DIR");
  {
    g_autofree gchar *verdicts = g_build_filename (cache, "opencl-probe", NULL);
    GDir             *dir      = g_dir_open (verdicts, 0, NULL);
    const gchar      *name;

    while (dir && (name = g_dir_read_name (dir)))
      {
        g_autofree gchar *file = g_build_filename (verdicts, name, NULL);

        g_unlink (file);
      }
    if (dir)
      g_dir_close (dir);
    g_rmdir (verdicts);
    g_rmdir (cache);
  }
}

/* A filter's first use waits for no compiler: the module's first check
 * of a new driver set starts its helper building every filter's
 * programs, and a process after it loads each filter's programs from
 * the disk cache, in 8-bit and in float.
 */
static void
test_programs_ahead (void)
{
  static const gchar *const formats[] = { "R'G'B'A u8", "RGBA float" };
  g_autofree gchar         *cache     = NULL;
  g_autofree gchar         *done      = NULL;
  g_autofree gchar         *said      = NULL;
  g_autofree gchar         *remove    = NULL;
  g_autoptr(GError)         error     = NULL;
  g_autoptr(GeglBuffer)     layer     = NULL;
  g_autoptr(GeglBuffer)     out       = NULL;
  g_autoptr(GeglNode)       graph     = NULL;
  const TlFilter *const    *filters;
  const TlCacheStats       *stats;
  TlContext                *fresh;
  GeglNode                 *op;
  gint64                    end;
  guint                     n, f, i;

#ifdef __SANITIZE_ADDRESS__
  /* The helper would run every filter's runs under ASan's slow unwinder
   * for minutes, and its reports go nowhere (it runs silenced): the
   * sanitizers see the same code in the other tests.
   */
  g_test_skip ("under AddressSanitizer: the helper's reports go nowhere; "
               "the unsanitized suite runs this");
  return;
#endif
  if (! g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 900 * G_USEC_PER_SEC, 0);
      g_test_trap_assert_passed ();
      return;
    }

  /* A new user's cache: the probe is new, and so are the programs. */
  cache = g_dir_make_tmp ("threadlens-ahead-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
  g_unsetenv (TL_PLATFORM_PROBE_PREBUILD_ENV);
  layer = layer_of ("R'G'B'A u8");
  graph = graph_for (&op, "invert", layer);
  out   = render (op, layer, &crop, 1.0);

  done = tl_platform_probe_programs_path ();
  end  = g_get_monotonic_time () + 600 * G_USEC_PER_SEC;
  while (! g_file_get_contents (done, &said, NULL, NULL) &&
         g_get_monotonic_time () < end)
    g_usleep (G_USEC_PER_SEC / 4);
  g_assert_nonnull (said);
  g_test_message ("the helper: %s", g_strstrip (said));

  fresh = tl_context_new (NULL, &error);
  g_assert_no_error (error);
  filters = tl_filter_list (&n);
  for (i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autoptr(GeglBuffer) source = layer_of (formats[i]);

      for (f = 0; f < n; f++)
        {
          g_autofree TlValue   *values = tl_filter_default_values (filters[f]);
          g_autoptr(GeglBuffer) result = engine_result (fresh, filters[f],
                                                        values, NULL, source);
        }
    }
  stats = tl_context_get_stats (fresh);
  g_test_message ("programs from the disk %u, built %u",
                  stats->programs_from_disk, stats->programs_from_source);
  g_assert_cmpuint (stats->programs_from_disk, >=, n);
  g_assert_cmpuint (stats->programs_from_source, ==, 0);
  tl_context_free (fresh);

  remove = g_strdup_printf ("rm -rf '%s'", cache);
  g_spawn_command_line_sync (remove, NULL, NULL, NULL, NULL);
}

/* The first operation made starts the platform check and the context in
 * a thread, so that GIMP's first chunk (after the dialog is built) finds
 * them ready; THREADLENS_WARM_UP=0 (the tests' environment) turns that
 * off.  The first chunk says which it met.
 */
static void
test_warm_up (void)
{
  guint on;

#ifdef __SANITIZE_ADDRESS__
  /* ASan's runtime aborts when the thread that first listed PoCL's
   * platform exits ("failed to deallocate ... unable to unmap" in
   * UnsetAlternateSignalStack, with no report of ours): a runtime's
   * check, not this code's.  The unsanitized suite runs this.
   */
  g_test_skip ("under AddressSanitizer: its runtime aborts at the exit of "
               "the thread that made the context; the unsanitized suite "
               "runs this");
  return;
#endif
  for (on = 0; on < 2; on++)
    {
      g_autofree gchar *path = g_strdup_printf ("/gegl-module/warm-up/subprocess/%u", on);

      g_test_trap_subprocess (path, 120 * G_USEC_PER_SEC, 0);
      g_test_trap_assert_passed ();
      g_test_trap_assert_stdout (on ?
                                 "*the first chunk found the OpenCL context ready*" :
                                 "*the first chunk waits for the OpenCL context*");
    }
}

/* One of test_warm_up ()'s processes: with DATA 1 the context is made
 * ahead, with 0 not.
 */
static void
test_warm_up_run (gconstpointer data)
{
  g_autoptr(GeglBuffer) layer = NULL;
  g_autoptr(GeglBuffer) out   = NULL;
  g_autoptr(GeglNode)   graph = NULL;
  GeglNode             *op;

  if (! g_test_subprocess ())
    {
      g_test_skip ("a process of /gegl-module/warm-up");
      return;
    }
  if (GPOINTER_TO_UINT (data))
    g_unsetenv ("THREADLENS_WARM_UP");
  else
    g_setenv ("THREADLENS_WARM_UP", "0", TRUE);
  g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
  layer = layer_of ("R'G'B'A u8");
  graph = graph_for (&op, "invert", layer);
  /* What GIMP's dialog takes to build, and more: the thread's work is a
   * platform check in a child process and a context (tens of ms on
   * PoCL), seconds under the sanitizers.
   */
  if (GPOINTER_TO_UINT (data))
    g_usleep (8 * G_USEC_PER_SEC);
  out = render (op, layer, &crop, 1.0);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError)         error   = NULL;
  g_autofree gchar         *cache   = NULL;
  g_autofree gchar         *path    = NULL;
  g_autofree gchar         *modules = NULL;
  const TlFilter *const    *filters;
  const gchar              *icd     = g_getenv ("TL_TEST_ABORT_ICD");
  guint                     n, i;

  g_test_init (&argc, &argv, NULL);
  /* Blits at a scale below 1 render at a mipmap level, as GIMP's
   * zoomed-out views do, not at level 0 and then scale.
   */
  g_setenv ("GEGL_MIPMAP_RENDERING", "1", TRUE);
  if (! g_test_subprocess ())
    {
      cache = g_dir_make_tmp ("threadlens-gegl-module-XXXXXX", NULL);
      g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);
    }

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  modules = g_test_build_filename (G_TEST_BUILT, "..", "plug-in", NULL);
  gegl_load_module_directory (modules);
  path  = g_test_build_filename (G_TEST_DIST, "images", "coffee.png", NULL);
  photo = tl_image_load (path, &error);
  g_assert_no_error (error);

  if (! g_test_subprocess ())
    {
      context = tl_context_new (NULL, &error);
      if (context == NULL)
        g_error ("OpenCL is required for these tests (CI has PoCL): %s",
                 error->message);
    }

  filters = tl_filter_list (&n);
  for (i = 0; i < n; i++)
    {
      g_autofree gchar *name = g_strdup_printf ("/gegl-module/filter/%s",
                                                filters[i]->name);

      g_test_add_data_func (name, filters[i], test_filter);
    }
  for (i = 0; i < n; i++)
    {
      g_autofree gchar *name = g_strdup_printf ("/gegl-module/canvas/%s",
                                                filters[i]->name);

      g_test_add_data_func (name, filters[i], test_canvas);
    }
  g_test_add_func ("/gegl-module/canvas-changes", test_canvas_changes);
  g_test_add_func ("/gegl-module/blocks", test_blocks);
  g_test_add_func ("/gegl-module/display-hints", test_display_hints);
  g_test_add_func ("/gegl-module/chunks", test_chunks);
  g_test_add_func ("/gegl-module/progress", test_progress);
  g_test_add_func ("/gegl-module/level-1", test_level);
  g_test_add_func ("/gegl-module/thread-map", test_thread_map);
  g_test_add_func ("/gegl-module/refused-dispatch", test_refused);
  g_test_add_func ("/gegl-module/fault", test_fault);
  g_test_add_data_func ("/gegl-module/fault-walk", NULL, test_fault_walk);
  g_test_add_data_func ("/gegl-module/fault-walk-banded", "4", test_fault_walk);
  g_test_add_func ("/gegl-module/tiled-bands", test_tiled_bands);
  g_test_add_func ("/gegl-module/probe-kept", test_probe_kept);
  g_test_add_func ("/gegl-module/programs-ahead", test_programs_ahead);
  g_test_add_func ("/gegl-module/warm-up", test_warm_up);
  g_test_add_data_func ("/gegl-module/warm-up/subprocess/0", GUINT_TO_POINTER (0),
                        test_warm_up_run);
  g_test_add_data_func ("/gegl-module/warm-up/subprocess/1", GUINT_TO_POINTER (1),
                        test_warm_up_run);
  for (i = 0; i < G_N_ELEMENTS (alloc_walks); i++)
    {
      g_autofree gchar *name = g_strdup_printf ("/gegl-module/alloc-walk/%s",
                                                alloc_walks[i].name);

      g_test_add_data_func (name, &alloc_walks[i], test_alloc_walk);
    }
  if (icd)
    g_test_add_func ("/gegl-module/aborting-icd", test_aborting_icd);
  else
    g_test_message ("SKIP aborting-icd: TL_TEST_ABORT_ICD not set");

  return g_test_run ();
}
