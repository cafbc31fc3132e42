/* ThreadLens: median-blur, after GEGL's operation of the same name, its C
 * reference beside its OpenCL path (kernels/median.cl, which says how the
 * kernel slides its window).
 *
 * GEGL's default mode: on R'G'B'A each channel's value is put in one of
 * 256 bins (rounded from [0, 1], the rest clamped into it); each colour
 * bin counts a pixel by its alpha's bin, so transparent pixels weigh
 * nothing, and alpha by 1; the output is the smallest bin whose count
 * from bin 0 reaches ceil (count * percentile), at least 1, as a value
 * (bin / 255).  A negative radius takes the percentiles from the other
 * end (100 - percentile), as GEGL does.  Borders clamp to the edge, GEGL's
 * default.  GEGL's high-precision mode (unquantized float values) is not
 * offered.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-run.h"

#define TL_MEDIAN_BINS 256

typedef enum
{
  TL_MEDIAN_SQUARE,
  TL_MEDIAN_CIRCLE,
  TL_MEDIAN_DIAMOND
} TlMedianShape;

/* The parameters' places in the registry entry. */
enum
{
  TL_MEDIAN_NEIGHBORHOOD,
  TL_MEDIAN_RADIUS,
  TL_MEDIAN_PERCENTILE,
  TL_MEDIAN_ALPHA_PERCENTILE
};

static guint
tl_median_halo (const TlValue *values)
{
  return (guint) fabs (values[TL_MEDIAN_RADIUS].v[0]);
}

static gboolean
tl_median_check (const TlFilter *filter,
                 const TlValue  *values,
                 GError        **error)
{
  return (tl_filter_check_whole (filter, values, TL_MEDIAN_NEIGHBORHOOD,
                                 error) &&
          tl_filter_check_whole (filter, values, TL_MEDIAN_RADIUS, error));
}

/* The window's half-height I columns from its centre, for I from 0 to
 * RADIUS, as GEGL draws its shapes.  Free with g_free ().
 */
static gint *
tl_median_outline (const TlValue *values,
                   gint          *radius)
{
  TlMedianShape shape = (TlMedianShape) values[TL_MEDIAN_NEIGHBORHOOD].v[0];
  gint          r     = abs ((gint) values[TL_MEDIAN_RADIUS].v[0]);
  gint         *outline = g_new (gint, r + 1);
  gint          i;

  for (i = 0; i <= r; i++)
    switch (shape)
      {
      case TL_MEDIAN_SQUARE:
        outline[i] = r;
        break;
      case TL_MEDIAN_CIRCLE:
        outline[i] = (gint) sqrt ((r + 0.5) * (r + 0.5) - i * i);
        break;
      default:
        outline[i] = r - i;
        break;
      }
  *radius = r;
  return outline;
}

/* The window's pixels. */
static guint64
tl_median_window (const gint *outline,
                  gint        radius)
{
  guint64 pixels = 0;
  gint    dx;

  for (dx = -radius; dx <= radius; dx++)
    pixels += 2 * outline[ABS (dx)] + 1;
  return pixels;
}

/* What a step of the window down adds and takes away: in each of its
 * columns DX, the pixel a half-height below the new centre enters and
 * the one a half-height and a row above it leaves.  MOVES gets (where
 * the one entering is, where the one leaving is, both from the centre as
 * row * WIDTH + column; DX; the half-height) a column.  Returns how many;
 * free *MOVES with g_free ().
 */
static gint
tl_median_moves (const gint *outline,
                 gint        radius,
                 gint        width,
                 cl_int    **moves)
{
  gint n = 2 * radius + 1, dx;

  *moves = g_new (cl_int, 4 * n);
  for (dx = -radius; dx <= radius; dx++)
    {
      cl_int *move  = *moves + 4 * (dx + radius);
      gint    reach = outline[ABS (dx)];

      move[0] = reach * width + dx;
      move[1] = -(reach + 1) * width + dx;
      move[2] = dx;
      move[3] = reach;
    }
  return n;
}

/* A percentile (0 to 100) as a fraction in 32-bit fixed point, from the
 * other end for a negative radius.
 */
static guint64
tl_median_share (const TlValue *values,
                 guint          index)
{
  gdouble fraction = values[index].v[0] / 100.0;

  if (values[TL_MEDIAN_RADIUS].v[0] < 0)
    fraction = 1.0 - fraction;
  return (guint64) llround (fraction * 4294967296.0);
}

static gint
tl_median_bin (gfloat v)
{
  v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  return (gint) floorf (v * 255.0f + 0.5f);
}

/* The bin of the percentile SHARE of HISTOGRAM, COUNT weights in all. */
static gfloat
tl_median_find (const guint32 *histogram,
                guint64        count,
                guint64        share)
{
  guint64 target, below = 0;
  gint    bin;

  if (count == 0)
    return 0.0f;
  target = MAX (1, (count * share + 0xffffffffu) >> 32);
  for (bin = 0; bin < TL_MEDIAN_BINS - 1; bin++)
    {
      below += histogram[bin];
      if (below >= target)
        break;
    }
  return (gfloat) bin / 255.0f;
}

/* Each window counted afresh. */
static void
tl_median_reference (const TlFilter      *filter,
                     const TlValue       *values,
                     const TlFloatPixels *pixels)
{
  gint               w = pixels->width, h = pixels->height, r;
  g_autofree gint   *outline = tl_median_outline (values, &r);
  guint64            shares[4];
  gint               x, y, dx, dy, c;

  shares[0] = shares[1] = shares[2] =
    tl_median_share (values, TL_MEDIAN_PERCENTILE);
  shares[3] = tl_median_share (values, TL_MEDIAN_ALPHA_PERCENTILE);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        guint32 histograms[4][TL_MEDIAN_BINS];
        guint64 counts[4] = { 0, 0, 0, 0 };
        gfloat *out = pixels->out + ((gsize) y * w + x) * 4;

        memset (histograms, 0, sizeof (histograms));
        for (dx = -r; dx <= r; dx++)
          for (dy = -outline[abs (dx)]; dy <= outline[abs (dx)]; dy++)
            {
              gint          u = CLAMP (x + dx, 0, w - 1);
              gint          v = CLAMP (y + dy, 0, h - 1);
              const gfloat *p = pixels->in + ((gsize) v * w + u) * 4;
              gint          alpha = tl_median_bin (p[3]);

              for (c = 0; c < 3; c++)
                {
                  histograms[c][tl_median_bin (p[c])] += alpha;
                  counts[c] += alpha;
                }
              histograms[3][alpha]++;
              counts[3]++;
            }
        for (c = 0; c < 4; c++)
          out[c] = tl_median_find (histograms[c], counts[c], shares[c]);
      }
}

/* Pixels a work-item of tl_median slides its window down: its first
 * window costs about a row's pixels times the window's height, each
 * further step about four rows' widths, so runs grow with the radius to
 * keep the first window's share small.
 */
#define TL_MEDIAN_MIN_RUN 64

/* Three passes (kernels/median.cl): the pixels' bins under the plan, the
 * windows' percentiles as bins in runs of a column, a channel an item (a
 * line pass, its histogram in local memory), those stored as values
 * under the plan.
 */
static gboolean
tl_median_cl (TlRun         *run,
              const TlValue *values,
              GError       **error)
{
  gint               r;
  g_autofree gint   *outline = tl_median_outline (values, &r);
  g_autofree cl_int *steps   = NULL;
  cl_int             n_steps;
  cl_int             radius  = r;
  cl_ulong           share   = tl_median_share (values, TL_MEDIAN_PERCENTILE);
  cl_ulong           alpha   = tl_median_share (values, TL_MEDIAN_ALPHA_PERCENTILE);
  const TlPixels    *pixels  = tl_run_get_pixels (run);
  gsize              n       = (gsize) pixels->width * pixels->height;
  cl_int             width   = pixels->width, height = pixels->height;
  cl_int             run_length = MAX (TL_MEDIAN_MIN_RUN, 4 * r);
  gboolean           short_counts = tl_median_window (outline, r) * 255 <= G_MAXUINT16;
  /* CPU devices skip alpha's moves that change nothing (median.cl). */
  gboolean           on_cpu  = (tl_context_get_device (tl_run_get_context (run))->type &
                                CL_DEVICE_TYPE_CPU) != 0;
  const gchar       *variant = short_counts ?
                               (on_cpu ? "short+skip-alpha" : "short") :
                               (on_cpu ? "skip-alpha" : NULL);
  guint64            lines   = (guint64) width *
                               ((height + run_length - 1) / run_length) * 4;
  cl_mem             in      = tl_run_get_input (run);
  cl_mem             out     = tl_run_get_output (run);
  cl_mem             heights, moves, bins, found;
  cl_kernel          binning, median, store;

  n_steps = tl_median_moves (outline, r, width, &steps);
  heights = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                               sizeof (cl_int) * (r + 1), outline, error);
  moves = heights ? tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                                       sizeof (cl_int) * 4 * n_steps, steps,
                                       error) : NULL;
  bins  = moves ? tl_run_new_buffer (run, CL_MEM_READ_WRITE, n * 4, NULL,
                                     error) : NULL;
  found = bins ? tl_run_new_buffer (run, CL_MEM_READ_WRITE, n * 4, NULL,
                                    error) : NULL;
  if (found == NULL)
    return FALSE;
  if (lines > G_MAXINT)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("%s: %" PRIu64 " runs of pixels are more than one "
                     "launch can count"), "median-blur", lines);
      return FALSE;
    }

  binning = tl_run_get_kernel (run, "tl_median_bins", error);
  if (binning == NULL ||
      ! tl_run_set_arg (run, binning, TL_ARG_IN, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, binning, TL_ARG_OUT,
                        sizeof (cl_mem), &bins, error) ||
      ! tl_run_enqueue (run, binning, TL_ARG_DISPATCH, error))
    return FALSE;

  median = tl_run_get_kernel_variant (run, "tl_median", variant, error);
  if (median == NULL ||
      ! tl_run_set_arg (run, median, TL_ARG_IN,
                        sizeof (cl_mem), &bins, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_OUT,
                        sizeof (cl_mem), &found, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_OUTLINE,
                        sizeof (cl_mem), &heights, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_RADIUS,
                        sizeof (cl_int), &radius, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_MOVES,
                        sizeof (cl_mem), &moves, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_N_MOVES,
                        sizeof (cl_int), &n_steps, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_PERCENTILE,
                        sizeof (cl_ulong), &share, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_ALPHA_PERCENTILE,
                        sizeof (cl_ulong), &alpha, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_WIDTH,
                        sizeof (cl_int), &width, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_HEIGHT,
                        sizeof (cl_int), &height, error) ||
      ! tl_run_set_arg (run, median, TL_ARG_MEDIAN_RUN,
                        sizeof (cl_int), &run_length, error) ||
      ! tl_run_enqueue_lines_local (run, median, TL_ARG_DISPATCH, lines,
                                    TL_ARG_MEDIAN_HISTOGRAMS,
                                    (TL_MEDIAN_BINS + 1) *
                                    (short_counts ? sizeof (cl_ushort) :
                                                    sizeof (cl_uint)),
                                    error))
    return FALSE;

  store = tl_run_get_kernel (run, "tl_median_store", error);
  return (store != NULL &&
          tl_run_set_arg (run, store, TL_ARG_IN,
                          sizeof (cl_mem), &found, error) &&
          tl_run_set_arg (run, store, TL_ARG_OUT,
                          sizeof (cl_mem), &out, error) &&
          tl_run_enqueue (run, store, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_median_params[] =
{
  [TL_MEDIAN_NEIGHBORHOOD] =
  {
    .name        = "neighborhood",
    .label       = N_("Neighborhood"),
    .description = N_("Shape of the window: 0 square, 1 circle, 2 diamond "
                      "(GEGL's order)"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 2.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 1.0 },
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 2.0,
  },
  [TL_MEDIAN_RADIUS] =
  {
    .name        = "radius",
    .label       = N_("Radius"),
    .description = N_("Radius of the window, in whole pixels; a negative "
                      "radius takes the percentiles from the other end"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -400.0,
    .max         = 400.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 3.0 },
    .is_length   = TRUE,
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  [TL_MEDIAN_PERCENTILE] =
  {
    .name        = "percentile",
    .label       = N_("Percentile"),
    .description = N_("Percentile of each colour channel in the window (50: "
                      "the median)"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 100.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 50.0 },
    .digits      = 1,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  [TL_MEDIAN_ALPHA_PERCENTILE] =
  {
    .name        = "alpha-percentile",
    .label       = N_("Alpha percentile"),
    .description = N_("Percentile of alpha in the window"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 100.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 50.0 },
    .digits      = 1,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
};

static const gchar *const tl_median_kernels[] =
{
  "tl_median_bins", "tl_median", "tl_median_store", NULL
};

const TlFilter tl_filter_median_blur =
{
  .name        = "median-blur",
  .label       = N_("Median Blur"),
  .description = N_("Each channel's median (or another percentile) over a "
                    "square, circle or diamond window, in 256 levels on "
                    "perceptual R'G'B', colour weighted by alpha, "
                    "clamp-to-edge borders"),
  .format      = "R'G'B'A float",
  /* The plan's passes are the point passes either side of the windows'
   * (tl_median_bins, tl_median_store).
   */
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_median_params,
  .n_params    = G_N_ELEMENTS (tl_median_params),
  .program     = "median",
  .kernels     = tl_median_kernels,
  .halo        = tl_median_halo,
  .check       = tl_median_check,
  .reference   = tl_median_reference,
  .run_cl      = tl_median_cl,
};
