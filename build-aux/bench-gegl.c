/* ThreadLens: the GEGL operations timed as GIMP runs them (a benchmark,
 * not a test).
 *
 * GIMP 3 runs a filter in its own process as a GEGL graph over the
 * layer's buffer: gegl:buffer-source -> OPERATION -> gegl:write-buffer.
 * This builds that graph over a photo scaled into an R'G'B'A u8 buffer
 * (an 8-bit layer's storage) at each size asked, and times each
 * threadlens:FILTER against GEGL's own twin on the CPU, the twin with
 * GEGL's OpenCL on, and gegl:invert-gamma (GIMP touching every pixel
 * once, the baseline of the targets).  Best and median of RUNS, and the
 * milliseconds per megapixel.  At the first size each ThreadLens result
 * is checked against the engine's own (`threadlens apply`'s) by a
 * checksum of its bytes.
 *
 * With --canvas it draws each operation as GIMP's canvas does instead:
 * chunk by chunk from one graph (GEGL keeps the node's cache between
 * chunks), at mipmap levels 0, 1 and 2, by GIMP's rule (the first chunk
 * one tile, then each sized to what the throughput measured so far does
 * in 1/15 s, up to 4096x4096) and in fixed 256x256 chunks, beside one
 * call over the whole level; GEGL's twin is drawn the same way.
 *
 * Usage: bench-gegl [--runs N] [--json FILE] [--photo PNG] [--no-twins]
 *                   [--canvas] SIZE... [FILTER[:NAME=VALUE,...]...]
 * SIZE is WxH; FILTER may be thread-map (work-groups, the overlay
 * kernel's own dispatch); without filters, every filter at its defaults
 * and gaussian-blur at std-dev 6 and 50.  Load the module as GIMP does: from
 * GEGL_PATH (the GPU bundle's env.sh), or THREADLENS_GEGL_MODULES.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gegl.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-process.h"

#define BENCH_FORMAT "R'G'B'A u8"

/* GEGL's operation that computes what a ThreadLens filter computes, its
 * properties from the filter's values ("$name" stands for the value of
 * the filter's parameter NAME); NULL: none.
 */
typedef struct
{
  const gchar *filter;
  const gchar *twin;
} BenchTwin;

static const BenchTwin bench_twins[] =
{
  { "invert",              "gegl:invert-gamma" },
  { "gaussian-blur",       "gegl:gaussian-blur std-dev-x=$std-dev std-dev-y=$std-dev" },
  { "box-blur",            "gegl:box-blur radius=$radius" },
  { "unsharp-mask",        "gegl:unsharp-mask std-dev=$std-dev scale=$scale" },
  { "pixelize",            "gegl:pixelize size-x=$size size-y=$size" },
  { "edge-sobel",          "gegl:edge-sobel" },
  { "threshold",           "gegl:threshold value=$value" },
  { "sepia",               "gegl:sepia scale=$scale" },
  { "brightness-contrast", "gegl:brightness-contrast contrast=$contrast brightness=$brightness" },
  { "mono-mixer",          "gegl:mono-mixer red=$red green=$green blue=$blue" },
  { "posterize",           "gegl:posterize levels=$levels" },
  { "bilateral-filter",    "gegl:bilateral-filter blur-radius=$blur-radius edge-preservation=$edge-preservation" },
  { "snn-mean",            "gegl:snn-mean radius=$radius pairs=$pairs" },
  { "mean-curvature-blur", "gegl:mean-curvature-blur iterations=$iterations" },
  { "noise-reduction",     "gegl:noise-reduction iterations=$iterations" },
  { "motion-blur-linear",  "gegl:motion-blur-linear length=$length angle=$angle" },
  { "difference-of-gaussians", "gegl:difference-of-gaussians radius1=$radius1 radius2=$radius2" },
  { "high-pass",           "gegl:high-pass std-dev=$std-dev contrast=$contrast" },
  /* GEGL's default circle: compare at neighborhood=1. */
  { "median-blur",         "gegl:median-blur radius=$radius percentile=$percentile alpha-percentile=$alpha-percentile" },
};

typedef struct
{
  const TlFilter *filter;
  TlValue        *values;
  gchar          *label;        /* "gaussian-blur std-dev=6" */
} BenchCase;

typedef struct
{
  gdouble first_ms;             /* the first run, as a process's first call
                                 * when it is the first case */
  gdouble best_ms;
  gdouble median_ms;
} BenchTime;

static gint    bench_runs    = 3;
static gchar  *bench_json    = NULL;
static gchar  *bench_photo   = NULL;
static gboolean bench_no_twins = FALSE;
static gint    bench_cache_gib = 16;
static gboolean bench_verbose = FALSE;
static gboolean bench_canvas  = FALSE;

/* What the module's calls of one run said of their OpenCL work (its
 * debug line "... upload X ms, kernels Y ms, download Z ms"), summed
 * over GEGL's chunks.
 */
typedef struct
{
  guint   calls;
  gdouble read_ms, upload_ms, kernels_ms, download_ms, write_ms;
  gdouble device_ms;            /* the device's part, wall clock */
  gdouble region_ms;            /* the engine's whole region */
  gdouble operation_ms;         /* the whole operation, lock included */
  guint   launches;
  gdouble longest_ms;           /* the longest single kernel launch */
} BenchBreakdown;

static BenchBreakdown bench_breakdown;

static void
bench_log (const gchar    *domain,
           GLogLevelFlags  level,
           const gchar    *message,
           gpointer        data)
{
  const gchar *at = strstr (message, "read ");
  const gchar *op = strstr (message, " ms in the operation");
  gdouble      read, up, kernels, down, write, device, region, longest;
  guint        launches;

  if (op)
    {
      const gchar *number = op;

      while (number > message && (g_ascii_isdigit (number[-1]) || number[-1] == '.'))
        number--;
      bench_breakdown.operation_ms += g_ascii_strtod (number, NULL);
    }

  if (at && sscanf (at, "read %lf ms, upload %lf ms, kernels %lf ms in %u "
                    "launches (the longest %lf ms), download %lf ms, write "
                    "%lf ms", &read, &up, &kernels, &launches, &longest, &down,
                    &write) == 7)
    {
      bench_breakdown.launches  += launches;
      bench_breakdown.longest_ms = MAX (bench_breakdown.longest_ms, longest);
      bench_breakdown.calls++;
      bench_breakdown.read_ms     += read;
      bench_breakdown.upload_ms   += up;
      bench_breakdown.kernels_ms  += kernels;
      bench_breakdown.download_ms += down;
      bench_breakdown.write_ms    += write;
      at = strstr (at, "on the device ");
      if (at && sscanf (at, "on the device %lf ms of wall clock, the region "
                        "%lf ms", &device, &region) == 2)
        {
          bench_breakdown.device_ms += device;
          bench_breakdown.region_ms += region;
        }
    }
  if ((level & G_LOG_LEVEL_DEBUG) == 0 || bench_verbose)
    g_printerr ("%s: %s\n", domain, message);
}

static int
bench_compare (const void *a,
               const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* Sets NAME=VALUE on NODE's operation, VALUE converted to the
 * property's type.
 */
static gboolean
bench_set (GeglNode    *node,
           const gchar *name,
           const gchar *value)
{
  GeglOperation *operation = gegl_node_get_gegl_operation (node);
  GParamSpec    *spec;
  GValue         text   = G_VALUE_INIT;
  GValue         result = G_VALUE_INIT;

  spec = g_object_class_find_property (G_OBJECT_GET_CLASS (operation), name);
  if (spec == NULL)
    return FALSE;
  g_value_init (&result, G_PARAM_SPEC_VALUE_TYPE (spec));
  if (G_VALUE_HOLDS_DOUBLE (&result))
    g_value_set_double (&result, g_ascii_strtod (value, NULL));
  else if (G_VALUE_HOLDS_INT (&result))
    g_value_set_int (&result, (gint) g_ascii_strtod (value, NULL));
  else
    {
      g_value_init (&text, G_TYPE_STRING);
      g_value_set_string (&text, value);
      if (! g_value_transform (&text, &result))
        return FALSE;
      g_value_unset (&text);
    }
  gegl_node_set_property (node, name, &result);
  g_value_unset (&result);
  return TRUE;
}

/* The twin's description with the filter's values put in. */
static gchar *
bench_twin_for (const BenchCase *c)
{
  guint i, j;

  if (c->filter == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (bench_twins); i++)
    if (strcmp (bench_twins[i].filter, c->filter->name) == 0)
      {
        gchar *twin = g_strdup (bench_twins[i].twin);

        for (j = 0; j < c->filter->n_params; j++)
          {
            g_autofree gchar *key   = g_strconcat ("$", c->filter->params[j].name, NULL);
            g_autofree gchar *value = g_strdup_printf ("%g", c->values[j].v[0]);
            g_auto(GStrv)     parts = g_strsplit (twin, key, -1);

            g_free (twin);
            twin = g_strjoinv (value, parts);
          }
        return twin;
      }
  return NULL;
}

/* OPERATION ("name prop=value ...") in GRAPH, fed SOURCE. */
static GeglNode *
bench_node_new (GeglNode    *graph,
                GeglBuffer  *source,
                const gchar *operation)
{
  g_auto(GStrv) words = g_strsplit (operation, " ", -1);
  GeglNode     *input, *op;
  guint         i;

  input = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                               "buffer", source, NULL);
  op    = gegl_node_new_child (graph, "operation", words[0], NULL);
  if (gegl_node_get_gegl_operation (op) == NULL)
    g_error ("GEGL has no operation %s (is the module on GEGL_PATH?)",
             words[0]);
  for (i = 1; words[i]; i++)
    {
      g_auto(GStrv) pair = g_strsplit (words[i], "=", 2);

      if (pair[1] == NULL || ! bench_set (op, pair[0], pair[1]))
        g_error ("%s: no property %s", words[0], words[i]);
    }
  gegl_node_link (input, op);
  return op;
}

/* OPERATION ("name prop=value ...") over SOURCE into a new buffer,
 * RUNS times; the last result in RESULT (when given).
 */
static BenchTime
bench_graph (GeglBuffer  *source,
             const gchar *operation,
             GeglBuffer **result)
{
  g_autofree gdouble *ms  = g_new (gdouble, bench_runs);
  BenchTime         time;
  gint              run;

  for (run = 0; run < bench_runs; run++)
    {
      g_autoptr(GeglNode)   graph  = gegl_node_new ();
      g_autoptr(GeglBuffer) target = gegl_buffer_new (gegl_buffer_get_extent (source),
                                                      gegl_buffer_get_format (source));
      GeglNode             *op, *output;
      gint64                start;

      op     = bench_node_new (graph, source, operation);
      output = gegl_node_new_child (graph, "operation", "gegl:write-buffer",
                                    "buffer", target, NULL);
      gegl_node_link (op, output);

      memset (&bench_breakdown, 0, sizeof (bench_breakdown));
      start = g_get_monotonic_time ();
      gegl_node_process (output);
      ms[run] = (g_get_monotonic_time () - start) / 1000.0;
      if (result && run == bench_runs - 1)
        *result = g_object_ref (target);
    }
  time.first_ms  = ms[0];
  qsort (ms, bench_runs, sizeof (gdouble), bench_compare);
  time.best_ms   = ms[0];
  time.median_ms = ms[bench_runs / 2];
  return time;
}

/* How a canvas is drawn: one call over the whole level, chunks by
 * GIMP's rule, or fixed 256x256 chunks.
 */
typedef enum
{
  BENCH_ONE_CALL,
  BENCH_GIMP_RULE,
  BENCH_FIXED_256,
  BENCH_N_DRAWS
} BenchDraw;

/* GIMP's rule for the size of the next chunk, after its chunk iterator:
 * rows of chunks over AREA, the first chunk a tile, then each of the
 * area that the median of the last three chunks' throughput covers in
 * 1/15 s, in whole tiles, at most 4096 a side.
 */
#define BENCH_CHUNK_INTERVAL_S  (1.0 / 15.0)
#define BENCH_CHUNK_MAX_SIDE    4096
#define BENCH_CHUNK_MIN_AREA    4096  /* smaller chunks do not measure */

typedef struct
{
  GeglRectangle area;
  gint          tile_w, tile_h;
  gint          x, y, row_h;
  gdouble       target;              /* pixels a chunk */
  gdouble       history[3];
  guint         n_history;
} BenchChunker;

static void
bench_chunker_init (BenchChunker        *chunker,
                    const GeglRectangle *area)
{
  memset (chunker, 0, sizeof (*chunker));
  chunker->area = *area;
  g_object_get (gegl_config (), "tile-width", &chunker->tile_w,
                "tile-height", &chunker->tile_h, NULL);
  chunker->x      = area->x;
  chunker->y      = area->y;
  chunker->target = chunker->tile_w * (gdouble) chunker->tile_h;
}

/* Rounded to whole STEPs, at least one, at most LIMIT. */
static gint
bench_whole (gdouble length,
             gint    step,
             gint    limit)
{
  gint whole = (gint) (length / step + 0.5) * step;

  return MIN (MAX (whole, step), limit);
}

static gboolean
bench_chunker_next (BenchChunker  *chunker,
                    GeglRectangle *chunk)
{
  const GeglRectangle *area = &chunker->area;

  if (chunker->y >= area->y + area->height)
    return FALSE;
  if (chunker->x == area->x)
    chunker->row_h = bench_whole (sqrt (chunker->target * chunker->tile_h /
                                        chunker->tile_w), chunker->tile_h,
                                  MIN (BENCH_CHUNK_MAX_SIDE,
                                       area->y + area->height - chunker->y));
  chunk->x      = chunker->x;
  chunk->y      = chunker->y;
  chunk->height = chunker->row_h;
  chunk->width  = bench_whole (chunker->target / chunker->row_h,
                               chunker->tile_w,
                               MIN (BENCH_CHUNK_MAX_SIDE,
                                    area->x + area->width - chunker->x));
  chunker->x += chunk->width;
  if (chunker->x >= area->x + area->width)
    {
      chunker->x  = area->x;
      chunker->y += chunker->row_h;
    }
  return TRUE;
}

/* A chunk of PIXELS took SECONDS. */
static void
bench_chunker_took (BenchChunker *chunker,
                    gdouble       pixels,
                    gdouble       seconds)
{
  gdouble sorted[3];
  guint   n = MIN (chunker->n_history + 1, 3);

  if (pixels < BENCH_CHUNK_MIN_AREA)
    return;
  chunker->history[chunker->n_history++ % 3] =
    pixels * BENCH_CHUNK_INTERVAL_S / MAX (seconds, 1e-6);
  memcpy (sorted, chunker->history, n * sizeof (gdouble));
  qsort (sorted, n, sizeof (gdouble), bench_compare);
  chunker->target = sorted[n / 2];
}

/* OPERATION on SOURCE drawn at LEVEL as HOW says, from a fresh graph;
 * milliseconds in GEGL's blits.  RESULT gets the pixels, CHUNKS how many
 * chunks.
 */
static gdouble
bench_draw (GeglBuffer  *source,
            const gchar *operation,
            gint         level,
            BenchDraw    how,
            guint       *chunks,
            GeglBuffer **result)
{
  g_autoptr(GeglNode)  graph  = gegl_node_new ();
  const GeglRectangle *extent = gegl_buffer_get_extent (source);
  const Babl          *format = gegl_buffer_get_format (source);
  gint                 scale  = 1 << level;
  GeglRectangle        area   = { 0, 0, (extent->width + scale - 1) / scale,
                                  (extent->height + scale - 1) / scale };
  GeglNode            *op     = bench_node_new (graph, source, operation);
  GeglBuffer          *out    = gegl_buffer_new (&area, format);
  gint                 bpp    = babl_format_get_bytes_per_pixel (format);
  BenchChunker         chunker;
  GeglRectangle        chunk;
  gint64               spent  = 0;

  bench_chunker_init (&chunker, &area);
  *chunks = 0;
  for (;;)
    {
      g_autofree guint8 *pixels = NULL;
      gint64             start;

      if (how == BENCH_ONE_CALL)
        {
          if (*chunks == 1)
            break;
          chunk = area;
        }
      else if (how == BENCH_GIMP_RULE)
        {
          if (! bench_chunker_next (&chunker, &chunk))
            break;
        }
      else
        {
          chunk.x = (*chunks * 256) % (((area.width + 255) / 256) * 256);
          chunk.y = (*chunks / ((area.width + 255) / 256)) * 256;
          chunk.width = chunk.height = 256;
          if (chunk.y >= area.height)
            break;
          gegl_rectangle_intersect (&chunk, &chunk, &area);
        }
      pixels = g_malloc ((gsize) chunk.width * chunk.height * bpp);
      start  = g_get_monotonic_time ();
      gegl_node_blit (op, 1.0 / scale, &chunk, format, pixels,
                      GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
      spent += g_get_monotonic_time () - start;
      bench_chunker_took (&chunker, chunk.width * (gdouble) chunk.height,
                          (g_get_monotonic_time () - start) / 1e6);
      gegl_buffer_set (out, &chunk, 0, format, pixels, GEGL_AUTO_ROWSTRIDE);
      (*chunks)++;
    }
  if (result)
    *result = out;
  else
    g_object_unref (out);
  return spent / 1000.0;
}

/* Whether A and B hold the same bytes. */
static gboolean
bench_same (GeglBuffer *a,
            GeglBuffer *b)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (a);
  const Babl          *format = gegl_buffer_get_format (a);
  gsize                size   = (gsize) extent->width * extent->height *
                                babl_format_get_bytes_per_pixel (format);
  g_autofree guint8   *x      = g_malloc (size);
  g_autofree guint8   *y      = g_malloc (size);

  gegl_buffer_get (a, extent, 1.0, format, x, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  gegl_buffer_get (b, extent, 1.0, format, y, GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  return memcmp (x, y, size) == 0;
}

/* OPERATION (and TWIN, when given) on LAYER drawn every way at levels 0
 * to 2: medians of RUNS; a line each, and JSON.
 */
static void
bench_canvas_case (GeglBuffer  *layer,
                   const gchar *size,
                   const gchar *label,
                   const gchar *operation,
                   const gchar *twin,
                   GString     *json)
{
  gint level;

  for (level = 0; level <= 2; level++)
    {
      gdouble  ms[2][BENCH_N_DRAWS];
      guint    chunks[2][BENCH_N_DRAWS];
      guint    computed = 0;    /* ThreadLens's runs for GIMP's rule */
      gboolean same = TRUE;
      gint     who, how, run;

      for (who = 0; who < 2; who++)
        for (how = 0; how < BENCH_N_DRAWS; how++)
          {
            g_autofree gdouble *runs = g_new (gdouble, bench_runs);

            ms[who][how] = -1;
            chunks[who][how] = 0;
            if (who == 1 && twin == NULL)
              continue;
            for (run = 0; run < bench_runs; run++)
              {
                g_autoptr(GeglBuffer) drawn = NULL;

                memset (&bench_breakdown, 0, sizeof (bench_breakdown));
                runs[run] = bench_draw (layer, who ? twin : operation, level,
                                        how, &chunks[who][how], &drawn);
                if (who == 0 && how == BENCH_GIMP_RULE && run == 0)
                  computed = bench_breakdown.calls;
                /* Chunks against one call, ours only: GEGL's own
                 * filters need not give the same bits in chunks.
                 */
                if (who == 0 && run == 0 && how != BENCH_ONE_CALL)
                  {
                    g_autoptr(GeglBuffer) once = NULL;
                    guint                 one;

                    bench_draw (layer, operation, level, BENCH_ONE_CALL,
                                &one, &once);
                    same = same && bench_same (once, drawn);
                  }
              }
            qsort (runs, bench_runs, sizeof (gdouble), bench_compare);
            ms[who][how] = runs[bench_runs / 2];
          }

      g_print ("%-12s %-6d %-32s", size, level, label);
      for (who = 0; who < 2; who++)
        for (how = 0; how < BENCH_N_DRAWS; how++)
          if (ms[who][how] < 0)
            g_print (" %9s %8s", "-", "");
          else if (how == BENCH_ONE_CALL)
            g_print (" %9.1f %8s", ms[who][how], "");
          else
            g_print (" %9.1f %7.2fx", ms[who][how],
                     ms[who][how] / ms[who][BENCH_ONE_CALL]);
      g_print (" %s (GIMP's rule: %u chunks, %u computed; twin %u chunks)\n",
               same ? "same" : "DIFFERENT", chunks[0][BENCH_GIMP_RULE],
               computed, chunks[1][BENCH_GIMP_RULE]);
      g_string_append_printf (json,
        "%s  {\"size\": \"%s\", \"level\": %d, \"case\": \"%s\", "
        "\"one_call_ms\": %.3f, \"gimp_rule_ms\": %.3f, "
        "\"gimp_rule_chunks\": %u, \"gimp_rule_computed\": %u, "
        "\"fixed_256_ms\": %.3f, "
        "\"fixed_256_chunks\": %u, \"twin\": \"%s\", "
        "\"twin_one_call_ms\": %.3f, \"twin_gimp_rule_ms\": %.3f, "
        "\"twin_gimp_rule_chunks\": %u, \"twin_fixed_256_ms\": %.3f, "
        "\"check\": \"%s\", \"runs\": %d}",
        json->len > 2 ? ",\n" : "", size, level, label,
        ms[0][BENCH_ONE_CALL], ms[0][BENCH_GIMP_RULE],
        chunks[0][BENCH_GIMP_RULE], computed, ms[0][BENCH_FIXED_256],
        chunks[0][BENCH_FIXED_256], twin ? twin : "",
        ms[1][BENCH_ONE_CALL], ms[1][BENCH_GIMP_RULE],
        chunks[1][BENCH_GIMP_RULE], ms[1][BENCH_FIXED_256],
        same ? "same" : "DIFFERENT", bench_runs);
    }
}

/* A 64-bit FNV-1a of BUFFER's bytes. */
static guint64
bench_checksum (GeglBuffer *buffer)
{
  const GeglRectangle *extent = gegl_buffer_get_extent (buffer);
  gsize                size   = (gsize) extent->width * extent->height * 4;
  g_autofree guint8   *bytes  = g_malloc (size);
  guint64              hash   = 0xcbf29ce484222325ull;
  gsize                i;

  gegl_buffer_get (buffer, extent, 1.0, babl_format (BENCH_FORMAT), bytes,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
  for (i = 0; i < size; i++)
    hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

/* The engine's result for C on SOURCE, as `threadlens apply` computes
 * it (OpenCL's default device; the C reference without one).
 */
static guint64
bench_engine_checksum (TlContext       *context,
                       const BenchCase *c,
                       GeglBuffer      *source)
{
  g_autoptr(GError)     error  = NULL;
  g_autoptr(GeglBuffer) target = gegl_buffer_new (gegl_buffer_get_extent (source),
                                                  gegl_buffer_get_format (source));
  TlProcessReport       report;
  TlChoice              choice;

  tl_choice_init (&choice);
  if (! tl_process_region (context, c->filter, c->values, &choice, source,
                           target, gegl_buffer_get_extent (source), 0, NULL,
                           NULL, &report, &error))
    g_error ("%s: %s", c->label, error->message);
  return bench_checksum (target);
}

/* The operation's description for C: threadlens:FILTER and its values. */
static gchar *
bench_operation (const BenchCase *c)
{
  GString *text = g_string_new ("threadlens:");
  guint    i;

  if (c->filter == NULL)
    {
      g_string_append (text, "thread-map");
      return g_string_free (text, FALSE);
    }
  g_string_append (text, c->filter->name);
  for (i = 0; i < c->filter->n_params; i++)
    if (c->filter->params[i].type == TL_PARAM_DOUBLE)
      g_string_append_printf (text, " %s=%g", c->filter->params[i].name,
                              c->values[i].v[0]);
  return g_string_free (text, FALSE);
}

static GeglBuffer *
bench_layer (GeglBuffer *photo,
             gint        width,
             gint        height)
{
  const GeglRectangle *from  = gegl_buffer_get_extent (photo);
  GeglRectangle        whole = { 0, 0, width, height };
  GeglBuffer          *layer = gegl_buffer_new (&whole, babl_format (BENCH_FORMAT));
  g_autoptr(GeglNode)  graph = gegl_node_new ();
  GeglNode            *input, *scale, *output;

  input  = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                "buffer", photo, NULL);
  scale  = gegl_node_new_child (graph, "operation", "gegl:scale-ratio",
                                "x", (gdouble) width / from->width,
                                "y", (gdouble) height / from->height,
                                "sampler", GEGL_SAMPLER_LINEAR, NULL);
  output = gegl_node_new_child (graph, "operation", "gegl:write-buffer",
                                "buffer", layer, NULL);
  gegl_node_link_many (input, scale, output, NULL);
  gegl_node_process (output);
  return layer;
}

static void
bench_add_case (GPtrArray   *cases,
                const gchar *text)
{
  g_autoptr(GError) error  = NULL;
  g_auto(GStrv)     parts  = g_strsplit (text, ":", 2);
  BenchCase        *c      = g_new0 (BenchCase, 1);
  guint             i;

  c->label = g_strdup (text);
  /* The thread map of the overlay kernel's own dispatch, work-groups
   * tinted, as the thread-map procedure draws it in GIMP's process.
   */
  if (strcmp (parts[0], "thread-map") == 0)
    {
      g_ptr_array_add (cases, c);
      return;
    }
  c->filter = tl_filter_lookup (parts[0], &error);
  if (c->filter == NULL)
    g_error ("%s", error->message);
  c->values = tl_filter_default_values (c->filter);
  if (parts[1])
    {
      g_auto(GStrv) sets = g_strsplit (parts[1], ",", -1);

      for (i = 0; sets[i]; i++)
        if (! tl_filter_parse_assignment (c->filter, c->values, sets[i], &error))
          g_error ("%s", error->message);
    }
  g_ptr_array_add (cases, c);
}

static void
bench_case_free (gpointer data)
{
  BenchCase *c = data;

  g_free (c->values);
  g_free (c->label);
  g_free (c);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError)         error   = NULL;
  g_autoptr(GOptionContext) options = g_option_context_new ("SIZE... [FILTER[:NAME=VALUE,...]...]");
  g_autoptr(GPtrArray)      cases   = g_ptr_array_new_with_free_func (bench_case_free);
  g_autoptr(GString)        json    = g_string_new ("[\n");
  g_autoptr(TlImage)        photo   = NULL;
  TlContext                *context = NULL;
  gboolean                  context_tried = FALSE;
  const gchar              *modules = g_getenv ("THREADLENS_GEGL_MODULES");
  GOptionEntry              entries[] =
  {
    { "runs", 'n', 0, G_OPTION_ARG_INT, &bench_runs, "Runs of each case (3)", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &bench_json, "Write the results as JSON", "FILE" },
    { "photo", 0, 0, G_OPTION_ARG_FILENAME, &bench_photo, "The photo to scale (coffee.png)", "PNG" },
    { "no-twins", 0, 0, G_OPTION_ARG_NONE, &bench_no_twins, "Only ThreadLens's operations and the baseline", NULL },
    { "cache-gib", 0, 0, G_OPTION_ARG_INT, &bench_cache_gib, "GEGL's tile cache in GiB (16)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &bench_verbose, "The module's debug lines too (where a first call's time goes)", NULL },
    { "canvas", 0, 0, G_OPTION_ARG_NONE, &bench_canvas, "Draw as GIMP's canvas does: chunks at levels 0 to 2", NULL },
    { NULL }
  };
  gint                      n_sizes = 0, s, i;
  gboolean                  filters = FALSE;

  g_option_context_add_main_entries (options, entries, NULL);
  if (! g_option_context_parse (options, &argc, &argv, &error))
    g_error ("%s", error->message);
  if (bench_runs < 1)
    g_error ("--runs must be at least 1");

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  /* As GIMP sets it (half the memory by default): no tile of these
   * layers goes to swap, which would time the disk.
   */
  g_object_set (gegl_config (), "tile-cache-size",
                (guint64) bench_cache_gib << 30, NULL);
  /* The module's breakdown of each call (tl-host.c) is a debug line. */
  g_setenv ("G_MESSAGES_DEBUG", "ThreadLens", FALSE);
  if (modules)
    gegl_load_module_directory (modules);
  g_log_set_handler ("ThreadLens", G_LOG_LEVEL_MASK, bench_log, NULL);

  /* Sizes first, then filters. */
  for (i = 1; i < argc; i++)
    {
      if (! g_ascii_isdigit (argv[i][0]))
        filters = TRUE;
      if (filters)
        bench_add_case (cases, argv[i]);
      else
        n_sizes++;
    }
  if (n_sizes == 0)
    g_error ("give at least one size, WxH");
  if (cases->len == 0)
    {
      const TlFilter *const *all;
      guint                  n, k;

      all = tl_filter_list (&n);
      for (k = 0; k < n; k++)
        bench_add_case (cases, all[k]->name);
      bench_add_case (cases, "gaussian-blur:std-dev=6");
      bench_add_case (cases, "gaussian-blur:std-dev=50");
    }

  if (bench_photo == NULL)
    bench_photo = g_build_filename (g_getenv ("G_TEST_SRCDIR") ? g_getenv ("G_TEST_SRCDIR") : "tests",
                                    "images", "coffee.png", NULL);
  photo = tl_image_load (bench_photo, &error);
  if (photo == NULL)
    g_error ("%s", error->message);

  if (bench_canvas)
    g_print ("%-12s %-6s %-32s %9s %8s %9s %8s %9s %8s %9s %8s %9s %8s %9s %8s\n",
             "size", "level", "operation", "one call", "", "GIMP", "x one",
             "256x256", "x one", "twin one", "", "twin GIMP", "x one",
             "twin 256", "x one");
  else
    g_print ("%-12s %-32s %10s %10s %8s %10s %10s %8s\n", "size", "operation",
             "best ms", "median ms", "ms/MP", "vs invert", "twin CPU", "twin CL");
  for (s = 1; s <= n_sizes; s++)
    {
      g_autoptr(GeglBuffer) layer = NULL;
      BenchTime             base;
      gint                  width, height;
      gdouble               mp;
      guint                 k;

      if (sscanf (argv[s], "%dx%d", &width, &height) != 2 ||
          width < 1 || height < 1)
        g_error ("%s is not a size WxH", argv[s]);
      layer = bench_layer (tl_image_get_buffer (photo), width, height);
      mp    = width * (gdouble) height / 1e6;

      g_object_set (gegl_config (), "use-opencl", FALSE, NULL);
      if (bench_canvas)
        {
          for (k = 0; k < cases->len; k++)
            {
              BenchCase        *c    = g_ptr_array_index (cases, k);
              g_autofree gchar *op   = bench_operation (c);
              g_autofree gchar *twin = bench_no_twins ? NULL : bench_twin_for (c);

              bench_canvas_case (layer, argv[s], c->label, op, twin, json);
            }
          continue;
        }
      base = bench_graph (layer, "gegl:invert-gamma", NULL);
      g_print ("%-12s %-32s %10.1f %10.1f %8.2f\n", argv[s], "gegl:invert-gamma",
               base.best_ms, base.median_ms, base.median_ms / mp);

      for (k = 0; k < cases->len; k++)
        {
          BenchCase            *c       = g_ptr_array_index (cases, k);
          g_autofree gchar     *op      = bench_operation (c);
          g_autofree gchar     *twin    = bench_no_twins ? NULL : bench_twin_for (c);
          g_autoptr(GeglBuffer) result  = NULL;
          BenchTime             ours, cpu = { -1, -1, -1 }, cl = { -1, -1, -1 };
          const gchar          *check   = "-";

          BenchBreakdown        spent;

          ours  = bench_graph (layer, op, &result);
          spent = bench_breakdown;
          /* The engine's own context only now: the first case's first
           * run is the process's first OpenCL call, as in GIMP.
           */
          if (s == 1 && c->filter && ! context_tried)
            {
              context_tried = TRUE;
              context = tl_context_new (NULL, &error);
              if (context == NULL)
                g_printerr ("bench-gegl: %s; checksums against the C "
                            "reference\n", error->message);
              else
                g_printerr ("bench-gegl: %s\n",
                            tl_context_get_device (context)->name);
              g_clear_error (&error);
            }
          if (s == 1 && c->filter)
            check = bench_checksum (result) ==
                    bench_engine_checksum (context, c, layer) ? "same" : "DIFFERENT";
          if (twin)
            {
              g_object_set (gegl_config (), "use-opencl", FALSE, NULL);
              cpu = bench_graph (layer, twin, NULL);
              g_object_set (gegl_config (), "use-opencl", TRUE, NULL);
              cl  = bench_graph (layer, twin, NULL);
              g_object_set (gegl_config (), "use-opencl", FALSE, NULL);
            }
          g_print ("%-12s %-32s %10.1f %10.1f %8.2f %10.2f %10.1f %8.1f %s "
                   "(first run %.1f ms)\n",
                   argv[s], c->label, ours.best_ms, ours.median_ms,
                   ours.median_ms / mp, ours.median_ms / base.median_ms,
                   cpu.median_ms, cl.median_ms, check, ours.first_ms);
          g_print ("%-12s   in %u call(s): read %.1f ms, upload %.1f ms, "
                   "kernels %.1f ms in %u launches (the longest %.1f ms), "
                   "download %.1f ms, write %.1f ms; device %.1f ms, region "
                   "%.1f ms, operation %.1f ms\n", "",
                   spent.calls, spent.read_ms, spent.upload_ms,
                   spent.kernels_ms, spent.launches, spent.longest_ms,
                   spent.download_ms, spent.write_ms,
                   spent.device_ms, spent.region_ms, spent.operation_ms);
          g_string_append_printf (json,
            "%s  {\"size\": \"%s\", \"megapixels\": %.3f, \"case\": \"%s\", "
            "\"first_ms\": %.3f, \"best_ms\": %.3f, \"median_ms\": %.3f, "
            "\"ms_per_mp\": %.4f, "
            "\"invert_gamma_ms\": %.3f, \"vs_invert_gamma\": %.4f, "
            "\"twin\": \"%s\", \"twin_cpu_ms\": %.3f, \"twin_opencl_ms\": %.3f, "
            "\"check\": \"%s\", \"calls\": %u, \"read_ms\": %.3f, "
            "\"upload_ms\": %.3f, \"kernels_ms\": %.3f, "
            "\"download_ms\": %.3f, \"write_ms\": %.3f, "
            "\"device_ms\": %.3f, \"region_ms\": %.3f, "
            "\"operation_ms\": %.3f, \"launches\": %u, "
            "\"longest_launch_ms\": %.3f, \"runs\": %d}",
            json->len > 2 ? ",\n" : "", argv[s], mp, c->label, ours.first_ms,
            ours.best_ms, ours.median_ms, ours.median_ms / mp, base.median_ms,
            ours.median_ms / base.median_ms, twin ? twin : "",
            cpu.median_ms, cl.median_ms, check, spent.calls, spent.read_ms,
            spent.upload_ms, spent.kernels_ms, spent.download_ms,
            spent.write_ms, spent.device_ms, spent.region_ms,
            spent.operation_ms, spent.launches, spent.longest_ms, bench_runs);
        }
    }
  g_string_append (json, "\n]\n");
  if (bench_json && ! g_file_set_contents (bench_json, json->str, -1, &error))
    g_error ("%s", error->message);

  g_clear_pointer (&context, tl_context_free);
  return 0;
}
