/* ThreadLens: edge-preserving smoothing, C references beside the OpenCL
 * paths (kernels/smooth.cl).
 *
 * bilateral-filter, snn-mean and mean-curvature-blur, after GEGL's
 * operations of the same names.  The first two work on straight linear
 * RGBA.  GEGL reads transparent black past the
 * layer's edges, which fades and darkens a border as wide as the radius;
 * these clamp to the edge, as every ThreadLens filter does.  GEGL's
 * bilateral-filter also misplaces its window by a pixel when the radius
 * is not whole; here the window is always centred.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-filter.h"
#include "tl-math.h"
#include "tl-run.h"

static const gfloat *
tl_smooth_pixel (const TlFloatPixels *pixels,
                 gint                 x,
                 gint                 y)
{
  x = CLAMP (x, 0, (gint) pixels->width - 1);
  y = CLAMP (y, 0, (gint) pixels->height - 1);
  return pixels->in + ((gsize) y * pixels->width + x) * 4;
}

static gfloat
tl_smooth_colour_distance (const gfloat *a,
                           const gfloat *b)
{
  gfloat e0 = a[0] - b[0], e1 = a[1] - b[1], e2 = a[2] - b[2];

  return (e0 * e0 + e1 * e1) + e2 * e2;
}

static gboolean
tl_smooth_check_whole (const TlFilter *filter,
                       const TlValue  *values,
                       guint           index,
                       GError        **error)
{
  gdouble value = values[index].v[0];

  if (value != floor (value))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: %s must be a whole number, not %g"),
                   filter->name, filter->params[index].name, value);
      return FALSE;
    }
  return TRUE;
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
        const gfloat *centre = tl_smooth_pixel (pixels, x, y);
        gfloat        sum[4] = { 0, 0, 0, 0 }, total = 0.0f;
        gfloat       *out    = pixels->out + ((gsize) y * pixels->width + x) * 4;

        for (v = -r; v <= r; v++)
          for (u = -r; u <= r; u++)
            {
              const gfloat *p     = tl_smooth_pixel (pixels, x + u, y + v);
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
  cl_mem             in       = tl_run_get_input (run);
  cl_mem             out      = tl_run_get_output (run);
  gint               r;
  cl_int             radius;
  cl_mem             taps;
  cl_kernel          kernel;
  g_autofree gfloat *spatial = tl_smooth_bilateral_spatial (values[0].v[0], &r);

  radius = r;
  taps   = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                              sizeof (gfloat) * (2 * r + 1) * (2 * r + 1),
                              spatial, error);
  kernel = taps ? tl_run_get_kernel (run, "tl_bilateral", error) : NULL;
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, 0, sizeof (cl_mem), &in, error) &&
          tl_run_set_arg (run, kernel, 1, sizeof (cl_mem), &out, error) &&
          tl_run_set_arg (run, kernel, 4, sizeof (cl_mem), &taps, error) &&
          tl_run_set_arg (run, kernel, 5, sizeof (cl_int), &radius, error) &&
          tl_run_set_arg (run, kernel, 6, sizeof (cl_float), &preserve, error) &&
          tl_run_enqueue (run, kernel, 2, error));
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
  },
};

static const gchar *const tl_smooth_bilateral_kernels[] = { "tl_bilateral", NULL };

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
  return (tl_smooth_check_whole (filter, values, 0, error) &&
          tl_smooth_check_whole (filter, values, 1, error));
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
        const gfloat *centre = tl_smooth_pixel (pixels, x, y);
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
                      const gfloat *p    = tl_smooth_pixel (pixels, xs[i], ys[i]);
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
  cl_mem    in     = tl_run_get_input (run);
  cl_mem    out    = tl_run_get_output (run);
  cl_kernel kernel = tl_run_get_kernel (run, "tl_snn_mean", error);

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, 0, sizeof (cl_mem), &in, error) &&
          tl_run_set_arg (run, kernel, 1, sizeof (cl_mem), &out, error) &&
          tl_run_set_arg (run, kernel, 4, sizeof (cl_int), &radius, error) &&
          tl_run_set_arg (run, kernel, 5, sizeof (cl_int), &pairs, error) &&
          tl_run_enqueue (run, kernel, 2, error));
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
  },
};

static const gchar *const tl_smooth_snn_kernels[] = { "tl_snn_mean", NULL };

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

/* mean-curvature-blur */

static guint
tl_smooth_curvature_halo (const TlValue *values)
{
  return (guint) values[0].v[0];
}

static gboolean
tl_smooth_curvature_check (const TlFilter *filter,
                           const TlValue  *values,
                           GError        **error)
{
  return tl_smooth_check_whole (filter, values, 0, error);
}

/* Two copies of the image padded by a pixel a step on every side. */
static gsize
tl_smooth_curvature_scratch (const TlValue *values,
                             guint          width,
                             guint          height)
{
  gsize margin = (gsize) values[0].v[0];

  return 2 * (width + 2 * margin) * (height + 2 * margin);
}

/* The kernels' tl_curvature_channel (): the step for one channel. */
static gfloat
tl_smooth_curvature_channel (gfloat c,
                             gfloat l,
                             gfloat r,
                             gfloat t,
                             gfloat b,
                             gfloat tl,
                             gfloat tr,
                             gfloat bl,
                             gfloat br)
{
  gfloat dx  = r - l;
  gfloat dy  = b - t;
  gfloat dx2 = dx * dx;
  gfloat dy2 = dy * dy;
  gfloat s   = dx2 + dy2;
  gfloat dxx, dyy, dxy, n;

  if (! (s > 0.0f))
    return c;
  dxx = (r + l) - 2.0f * c;
  dyy = (b + t) - 2.0f * c;
  dxy = 0.25f * (((br - tr) - bl) + tl);
  n   = (dx2 * dyy + dy2 * dxx) - ((2.0f * dx) * dy) * dxy;
  return c + (0.25f * n) / s;
}

static void
tl_smooth_curvature_pixel (const gfloat *src,
                           gsize         i,
                           gsize         cols,
                           gfloat       *dst)
{
  const gfloat *c = src + i * 4;
  const gfloat *l = c - 4, *r = c + 4;
  const gfloat *t = c - cols * 4, *b = c + cols * 4;
  gint          k;

  for (k = 0; k < 3; k++)
    dst[k] = tl_smooth_curvature_channel (c[k], l[k], r[k], t[k], b[k],
                                          t[k - 4], t[k + 4],
                                          b[k - 4], b[k + 4]);
  dst[3] = c[3];
}

/* Padded once by ITERATIONS clamped pixels, then every step over the
 * whole padded image, its outer ring copied; the last step's pixels of
 * the region itself go out.
 */
static void
tl_smooth_curvature_reference (const TlFilter      *filter,
                               const TlValue       *values,
                               const TlFloatPixels *pixels)
{
  gsize   margin = (gsize) values[0].v[0];
  gsize   cols   = pixels->width + 2 * margin;
  gsize   rows   = pixels->height + 2 * margin;
  gfloat *src    = pixels->scratch;
  gfloat *dst    = pixels->scratch + cols * rows * 4;
  gsize   x, y, step;

  for (y = 0; y < rows; y++)
    for (x = 0; x < cols; x++)
      memcpy (src + (y * cols + x) * 4,
              tl_smooth_pixel (pixels, (gint) x - (gint) margin,
                               (gint) y - (gint) margin),
              4 * sizeof (gfloat));

  for (step = 0; step + 1 < margin; step++)
    {
      gfloat *swap;

      for (y = 0; y < rows; y++)
        for (x = 0; x < cols; x++)
          {
            gsize i = y * cols + x;

            if (x == 0 || y == 0 || x == cols - 1 || y == rows - 1)
              memcpy (dst + i * 4, src + i * 4, 4 * sizeof (gfloat));
            else
              tl_smooth_curvature_pixel (src, i, cols, dst + i * 4);
          }
      swap = src;
      src  = dst;
      dst  = swap;
    }

  for (y = 0; y < pixels->height; y++)
    for (x = 0; x < pixels->width; x++)
      {
        gsize   i   = (y + margin) * cols + x + margin;
        gfloat *out = pixels->out + (y * pixels->width + x) * 4;

        if (margin > 0)
          tl_smooth_curvature_pixel (src, i, cols, out);
        else
          memcpy (out, src + i * 4, 4 * sizeof (gfloat));
      }
}

/* Padding and all steps but the last as line passes over the padded
 * image, in two scratch images on the device; the last step under the
 * plan.
 */
static gboolean
tl_smooth_curvature_cl (TlRun         *run,
                        const TlValue *values,
                        GError       **error)
{
  const TlPixels *pixels = tl_run_get_pixels (run);
  cl_int          margin = values[0].v[0];
  cl_int          width  = pixels->width, height = pixels->height;
  cl_int          cols   = width + 2 * margin, rows = height + 2 * margin;
  cl_int          flow   = margin > 0;
  guint           lines  = (guint) cols * rows;
  cl_mem          in     = tl_run_get_input (run);
  cl_mem          out    = tl_run_get_output (run);
  cl_mem          padded[2];
  cl_kernel       pad, step, last;
  cl_int          i;

  padded[0] = tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                 (gsize) lines * 4 * sizeof (gfloat), NULL,
                                 error);
  padded[1] = padded[0] && margin > 1 ?
              tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                 (gsize) lines * 4 * sizeof (gfloat), NULL,
                                 error) : NULL;
  if (padded[0] == NULL || (margin > 1 && padded[1] == NULL))
    return FALSE;

  pad = tl_run_get_kernel (run, "tl_curvature_pad", error);
  if (pad == NULL ||
      ! tl_run_set_arg (run, pad, 0, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, pad, 1, sizeof (cl_mem), &padded[0], error) ||
      ! tl_run_set_arg (run, pad, 4, sizeof (cl_int), &margin, error) ||
      ! tl_run_set_arg (run, pad, 5, sizeof (cl_int), &cols, error) ||
      ! tl_run_set_arg (run, pad, 6, sizeof (cl_int), &width, error) ||
      ! tl_run_set_arg (run, pad, 7, sizeof (cl_int), &height, error) ||
      ! tl_run_enqueue_lines (run, pad, 2, lines, error))
    return FALSE;

  step = margin > 1 ? tl_run_get_kernel (run, "tl_curvature_step", error) : NULL;
  if (margin > 1 &&
      (step == NULL ||
       ! tl_run_set_arg (run, step, 4, sizeof (cl_int), &cols, error) ||
       ! tl_run_set_arg (run, step, 5, sizeof (cl_int), &rows, error)))
    return FALSE;
  for (i = 0; i + 1 < margin; i++)
    if (! tl_run_set_arg (run, step, 0, sizeof (cl_mem), &padded[i % 2], error) ||
        ! tl_run_set_arg (run, step, 1, sizeof (cl_mem), &padded[(i + 1) % 2],
                          error) ||
        ! tl_run_enqueue_lines (run, step, 2, lines, error))
      return FALSE;

  last = tl_run_get_kernel (run, "tl_curvature_last", error);
  return (last != NULL &&
          tl_run_set_arg (run, last, 0, sizeof (cl_mem),
                          &padded[margin > 1 ? (margin - 1) % 2 : 0], error) &&
          tl_run_set_arg (run, last, 1, sizeof (cl_mem), &out, error) &&
          tl_run_set_arg (run, last, 4, sizeof (cl_int), &margin, error) &&
          tl_run_set_arg (run, last, 5, sizeof (cl_int), &cols, error) &&
          tl_run_set_arg (run, last, 6, sizeof (cl_int), &flow, error) &&
          tl_run_enqueue (run, last, 2, error));
}

static const TlParamSpec tl_smooth_curvature_params[] =
{
  {
    .name        = "iterations",
    .label       = N_("Iterations"),
    .description = N_("Steps of the flow, each reaching one pixel further"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 500.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 20.0 },
  },
};

static const gchar *const tl_smooth_curvature_kernels[] =
{
  "tl_curvature_pad", "tl_curvature_step", "tl_curvature_last", NULL
};

const TlFilter tl_filter_mean_curvature_blur =
{
  .name        = "mean-curvature-blur",
  .label       = N_("Mean Curvature Blur"),
  .description = N_("Smooth along edges, not across them: steps of mean "
                    "curvature flow on perceptual R'G'B', alpha kept, "
                    "the layer padded once by clamped pixels"),
  .format      = "R'G'B'A float",
  .default_pixels_per_item = 1,
  .params      = tl_smooth_curvature_params,
  .n_params    = G_N_ELEMENTS (tl_smooth_curvature_params),
  .program     = "smooth",
  .kernels     = tl_smooth_curvature_kernels,
  .halo        = tl_smooth_curvature_halo,
  .reference_scratch = tl_smooth_curvature_scratch,
  .check       = tl_smooth_curvature_check,
  .reference   = tl_smooth_curvature_reference,
  .run_cl      = tl_smooth_curvature_cl,
};
