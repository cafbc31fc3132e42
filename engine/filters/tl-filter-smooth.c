/* ThreadLens: edge-preserving smoothing, C references beside the OpenCL
 * paths (kernels/smooth.cl).
 *
 * bilateral-filter and snn-mean, after GEGL's operations of the same
 * names, on straight linear RGBA.  GEGL reads transparent black past the
 * layer's edges, which fades and darkens a border as wide as the radius;
 * these clamp to the edge, as every ThreadLens filter does.  GEGL's
 * bilateral-filter also misplaces its window by a pixel when the radius
 * is not whole; here the window is always centred.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-math.h"
#include "tl-run.h"

static gfloat
tl_smooth_colour_distance (const gfloat *a,
                           const gfloat *b)
{
  gfloat e0 = a[0] - b[0], e1 = a[1] - b[1], e2 = a[2] - b[2];

  return (e0 * e0 + e1 * e1) + e2 * e2;
}

/* bilateral-filter */

/* GEGL's window: the radius's whole part either side. */
static guint
tl_smooth_bilateral_halo (const TlValue *values)
{
  return (guint) values[0].v[0];
}

/* The window's weights by place, e^(-d^2 / (2 radius)) as GEGL takes
 * them (the radius is the spatial variance), computed in double and
 * rounded once.  Free with g_free ().
 */
static gfloat *
tl_smooth_bilateral_spatial (gdouble radius,
                             gint   *whole)
{
  gint    r = (gint) radius, side = 2 * r + 1, u, v;
  gfloat *weights = g_new (gfloat, (gsize) side * side);

  for (v = -r; v <= r; v++)
    for (u = -r; u <= r; u++)
      weights[(v + r) * side + u + r] =
        u == 0 && v == 0 ? 1.0f : exp (-0.5 * (u * u + v * v) / radius);
  *whole = r;
  return weights;
}

static void
tl_smooth_bilateral_reference (const TlFilter      *filter,
                               const TlValue       *values,
                               const TlFloatPixels *pixels)
{
  gfloat             preserve = values[1].v[0];
  gint               r, side, x, y, u, v, c;
  g_autofree gfloat *spatial = tl_smooth_bilateral_spatial (values[0].v[0], &r);

  side = 2 * r + 1;
  for (y = 0; y < (gint) pixels->height; y++)
    for (x = 0; x < (gint) pixels->width; x++)
      {
        const gfloat *centre = tl_filter_pixel_clamped (pixels, x, y);
        gfloat        sum[4] = { 0, 0, 0, 0 }, total = 0.0f;
        gfloat       *out    = pixels->out + ((gsize) y * pixels->width + x) * 4;

        for (v = -r; v <= r; v++)
          for (u = -r; u <= r; u++)
            {
              const gfloat *p     = tl_filter_pixel_clamped (pixels, x + u, y + v);
              gfloat        range = tl_math_exp (-tl_smooth_colour_distance (centre, p) *
                                                   preserve);
              gfloat        weight = range * spatial[(v + r) * side + u + r];

              for (c = 0; c < 4; c++)
                sum[c] += p[c] * weight;
              total += weight;
            }
        for (c = 0; c < 4; c++)
          out[c] = sum[c] / total;
      }
}

static gboolean
tl_smooth_bilateral_cl (TlRun         *run,
                        const TlValue *values,
                        GError       **error)
{
  cl_float           preserve = values[1].v[0];
  cl_mem             in       = tl_run_input_floats (run, "tl_smooth_decode",
                                                      error);
  cl_mem             out      = tl_run_get_output (run);
  gint               r;
  cl_int             radius;
  cl_mem             taps;
  cl_kernel          kernel;
  g_autofree gfloat *spatial = tl_smooth_bilateral_spatial (values[0].v[0], &r);

  if (in == NULL)
    return FALSE;
  radius = r;
  taps   = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                              sizeof (gfloat) * (2 * r + 1) * (2 * r + 1),
                              spatial, error);
  kernel = taps ? tl_run_get_kernel (run, "tl_bilateral", error) : NULL;
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BILATERAL_SPATIAL,
                          sizeof (cl_mem), &taps, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BILATERAL_RADIUS,
                          sizeof (cl_int), &radius, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BILATERAL_PRESERVE,
                          sizeof (cl_float), &preserve, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_smooth_bilateral_params[] =
{
  {
    .name        = "blur-radius",
    .label       = N_("Blur radius"),
    .description = N_("Radius of the square window, in pixels (its whole "
                      "part; the window is 2 radius + 1 wide)"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1000.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 4.0 },
    .is_length   = TRUE,
    .digits      = 1,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  {
    .name        = "edge-preservation",
    .label       = N_("Edge preservation"),
    .description = N_("How strongly a difference in colour from the centre "
                      "lowers a pixel's weight"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 100.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 8.0 },
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
};

static const gchar *const tl_smooth_bilateral_kernels[] =
{
  "tl_smooth_decode", "tl_bilateral", NULL
};

const TlFilter tl_filter_bilateral_filter =
{
  .name        = "bilateral-filter",
  .label       = N_("Bilateral Filter"),
  .description = N_("Smooth while keeping edges: each pixel the mean of its "
                    "window weighted by distance and by likeness in colour, "
                    "in linear light, clamp-to-edge borders"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .params      = tl_smooth_bilateral_params,
  .n_params    = G_N_ELEMENTS (tl_smooth_bilateral_params),
  .program     = "smooth",
  .kernels     = tl_smooth_bilateral_kernels,
  .halo        = tl_smooth_bilateral_halo,
  .reference   = tl_smooth_bilateral_reference,
  .run_cl      = tl_smooth_bilateral_cl,
};

/* snn-mean */

static guint
tl_smooth_snn_halo (const TlValue *values)
{
  return (guint) values[0].v[0];
}

static gboolean
tl_smooth_snn_check (const TlFilter *filter,
                     const TlValue  *values,
                     GError        **error)
{
  return (tl_filter_check_whole (filter, values, 0, error) &&
          tl_filter_check_whole (filter, values, 1, error));
}

/* Over the window's upper-left quarter (PAIRS 2) or upper half (1), each
 * place's nearest in colour to the centre among itself and its mirror
 * images; on the centre's row and column the centre itself, as GEGL
 * counts them.
 */
static void
tl_smooth_snn_reference (const TlFilter      *filter,
                         const TlValue       *values,
                         const TlFloatPixels *pixels)
{
  gint r = (gint) values[0].v[0], pairs = (gint) values[1].v[0];
  gint x, y, u, v, i, c;

  for (y = 0; y < (gint) pixels->height; y++)
    for (x = 0; x < (gint) pixels->width; x++)
      {
        const gfloat *centre = tl_filter_pixel_clamped (pixels, x, y);
        gfloat        sum[4] = { 0, 0, 0, 0 };
        gint          count  = 0;
        gfloat       *out    = pixels->out + ((gsize) y * pixels->width + x) * 4;

        for (v = -r; v <= 0; v++)
          for (u = -r; u <= (v == 0 || pairs == 2 ? 0 : r); u++)
            {
              const gfloat *chosen = centre;

              if (u != 0 && v != 0)
                {
                  const gint xs[4] = { x + u, x - u, x - u, x + u };
                  const gint ys[4] = { y + v, y - v, y + v, y - v };
                  gfloat     best  = 1000.0f;

                  for (i = 0; i < 2 * pairs; i++)
                    {
                      const gfloat *p    = tl_filter_pixel_clamped (pixels, xs[i], ys[i]);
                      gfloat        diff = tl_smooth_colour_distance (p, centre);

                      if (diff < best)
                        {
                          best   = diff;
                          chosen = p;
                        }
                    }
                }
              for (c = 0; c < 4; c++)
                sum[c] += chosen[c];
              count++;
            }
        for (c = 0; c < 4; c++)
          out[c] = sum[c] / (gfloat) count;
      }
}

static gboolean
tl_smooth_snn_cl (TlRun         *run,
                  const TlValue *values,
                  GError       **error)
{
  cl_int    radius = values[0].v[0], pairs = values[1].v[0];
  cl_mem    in     = tl_run_input_floats (run, "tl_smooth_decode", error);
  cl_mem    out    = tl_run_get_output (run);
  cl_kernel kernel = in ? tl_run_get_kernel (run, "tl_snn_mean", error) : NULL;

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_SNN_MEAN_RADIUS, sizeof (cl_int),
                          &radius, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_SNN_MEAN_PAIRS, sizeof (cl_int),
                          &pairs, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_smooth_snn_params[] =
{
  {
    .name        = "radius",
    .label       = N_("Radius"),
    .description = N_("Radius of the square window, in whole pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 100.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 8.0 },
    .is_length   = TRUE,
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  {
    .name        = "pairs",
    .label       = N_("Pairs"),
    .description = N_("Mirror images compared for each place: 1 pair, or 2 "
                      "(keeps sharper corners)"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 1.0,
    .max         = 2.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 2.0 },
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 1.0,
    .ui_max      = 2.0,
  },
};

static const gchar *const tl_smooth_snn_kernels[] =
{
  "tl_smooth_decode", "tl_snn_mean", NULL
};

const TlFilter tl_filter_snn_mean =
{
  .name        = "snn-mean",
  .label       = N_("Symmetric Nearest Neighbor"),
  .description = N_("Smooth while keeping edges: the mean of the pixels "
                    "nearest in colour to the centre among mirror-image "
                    "pairs, in linear light, clamp-to-edge borders"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .params      = tl_smooth_snn_params,
  .n_params    = G_N_ELEMENTS (tl_smooth_snn_params),
  .program     = "smooth",
  .kernels     = tl_smooth_snn_kernels,
  .halo        = tl_smooth_snn_halo,
  .check       = tl_smooth_snn_check,
  .reference   = tl_smooth_snn_reference,
  .run_cl      = tl_smooth_snn_cl,
};
