/* ThreadLens: the iterative filters, C references beside the OpenCL
 * paths (kernels/iterate.cl, which says how the steps run).
 *
 * mean-curvature-blur and noise-reduction, after GEGL's operations of the
 * same names: ITERATIONS steps of a 3x3 stencil over the layer padded
 * once by as many clamped pixels.  GEGL's mean-curvature-blur pads so
 * too.  Its noise-reduction pads with transparent black, and its C path
 * writes each step over its input as it goes (so a pixel sees some
 * neighbours already stepped) and leaves the right and bottom edges of
 * each of its tiles fewer steps, which marks tile seams in the result;
 * GEGL's own OpenCL path steps from one image into another, as here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-filter.h"
#include "tl-run.h"

#define TL_ITERATE_NEIGHBOURS 8

/* One step at a pixel: CENTRE and its neighbours, in GEGL's order
 * ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
 * into OUT.
 */
typedef void (* TlIterateStep) (const gfloat *centre,
                                 const gfloat *neighbours[TL_ITERATE_NEIGHBOURS],
                                 gfloat       *out);

static guint
tl_iterate_halo (const TlValue *values)
{
  return (guint) values[0].v[0];
}

static gboolean
tl_iterate_check (const TlFilter *filter,
                  const TlValue  *values,
                  GError        **error)
{
  return tl_filter_check_whole (filter, values, 0, error);
}

/* Two copies of the image padded by a pixel a step on every side. */
static gsize
tl_iterate_scratch (const TlValue *values,
                    guint          width,
                    guint          height)
{
  gsize margin = (gsize) values[0].v[0];

  return 2 * (width + 2 * margin) * (height + 2 * margin);
}

static void
tl_iterate_pixel (TlIterateStep  step,
                  const gfloat  *src,
                  gsize          i,
                  gsize          cols,
                  gfloat        *out)
{
  const gfloat *c = src + i * 4;
  const gfloat *neighbours[TL_ITERATE_NEIGHBOURS] =
  {
    c - (cols + 1) * 4, c - cols * 4, c - (cols - 1) * 4,
    c - 4, c + 4,
    c + (cols - 1) * 4, c + cols * 4, c + (cols + 1) * 4,
  };

  step (c, neighbours, out);
}

/* Padded once by the steps' count of clamped pixels, then every step but
 * the last over the whole padded image, its outer ring copied; the last
 * step's pixels of the region itself go out.
 */
static void
tl_iterate_reference (TlIterateStep        step,
                      const TlValue       *values,
                      const TlFloatPixels *pixels)
{
  gsize   margin = (gsize) values[0].v[0];
  gsize   cols   = pixels->width + 2 * margin;
  gsize   rows   = pixels->height + 2 * margin;
  gfloat *src    = pixels->scratch;
  gfloat *dst    = pixels->scratch + cols * rows * 4;
  gsize   x, y, k;

  for (y = 0; y < rows; y++)
    for (x = 0; x < cols; x++)
      memcpy (src + (y * cols + x) * 4,
              tl_filter_pixel_clamped (pixels, (gint) x - (gint) margin,
                                       (gint) y - (gint) margin),
              4 * sizeof (gfloat));

  for (k = 0; k + 1 < margin; k++)
    {
      gfloat *swap;

      for (y = 0; y < rows; y++)
        for (x = 0; x < cols; x++)
          {
            gsize i = y * cols + x;

            if (x == 0 || y == 0 || x == cols - 1 || y == rows - 1)
              memcpy (dst + i * 4, src + i * 4, 4 * sizeof (gfloat));
            else
              tl_iterate_pixel (step, src, i, cols, dst + i * 4);
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
          tl_iterate_pixel (step, src, i, cols, out);
        else
          memcpy (out, src + i * 4, 4 * sizeof (gfloat));
      }
}

/* The padding and every step but the last as line passes over the padded
 * image, in two scratch images on the device; the last step under the
 * plan (FAMILY_step and FAMILY_last).
 */
static gboolean
tl_iterate_cl (TlRun         *run,
               const TlValue *values,
               const gchar   *family,
               GError       **error)
{
  const TlPixels   *pixels    = tl_run_get_pixels (run);
  cl_int            margin    = values[0].v[0];
  cl_int            width     = pixels->width, height = pixels->height;
  cl_int            cols      = width + 2 * margin, rows = height + 2 * margin;
  guint             lines     = (guint) cols * rows;
  cl_mem            in        = tl_run_get_input (run);
  cl_mem            out       = tl_run_get_output (run);
  g_autofree gchar *step_name = g_strconcat (family, "_step", NULL);
  g_autofree gchar *last_name = g_strconcat (family, "_last", NULL);
  cl_mem            padded[2] = { NULL, NULL };
  cl_kernel         fill, step, last;
  cl_int            i;

  padded[0] = tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                 (gsize) lines * 4 * sizeof (gfloat), NULL,
                                 error);
  if (padded[0] == NULL)
    return FALSE;
  if (margin > 1)
    {
      padded[1] = tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                     (gsize) lines * 4 * sizeof (gfloat),
                                     NULL, error);
      if (padded[1] == NULL)
        return FALSE;
    }

  fill = tl_run_get_kernel (run, "tl_padded_fill", error);
  if (fill == NULL ||
      ! tl_run_set_arg (run, fill, TL_ARG_IN, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, fill, TL_ARG_OUT, sizeof (cl_mem), &padded[0],
                        error) ||
      ! tl_run_set_arg (run, fill, TL_ARG_PADDED_FILL_MARGIN, sizeof (cl_int),
                        &margin, error) ||
      ! tl_run_set_arg (run, fill, TL_ARG_PADDED_FILL_COLS, sizeof (cl_int),
                        &cols, error) ||
      ! tl_run_set_arg (run, fill, TL_ARG_PADDED_FILL_WIDTH, sizeof (cl_int),
                        &width, error) ||
      ! tl_run_set_arg (run, fill, TL_ARG_PADDED_FILL_HEIGHT, sizeof (cl_int),
                        &height, error) ||
      ! tl_run_enqueue_lines (run, fill, TL_ARG_DISPATCH, lines, error))
    return FALSE;

  if (margin > 1)
    {
      step = tl_run_get_kernel (run, step_name, error);
      if (step == NULL ||
          ! tl_run_set_arg (run, step, TL_ARG_PADDED_STEP_COLS,
                            sizeof (cl_int), &cols, error) ||
          ! tl_run_set_arg (run, step, TL_ARG_PADDED_STEP_ROWS,
                            sizeof (cl_int), &rows, error))
        return FALSE;
      for (i = 0; i + 1 < margin; i++)
        if (! tl_run_set_arg (run, step, TL_ARG_IN, sizeof (cl_mem),
                              &padded[i % 2], error) ||
            ! tl_run_set_arg (run, step, TL_ARG_OUT, sizeof (cl_mem),
                              &padded[(i + 1) % 2], error) ||
            ! tl_run_enqueue_lines (run, step, TL_ARG_DISPATCH, lines, error))
          return FALSE;
    }

  last = tl_run_get_kernel (run, last_name, error);
  return (last != NULL &&
          tl_run_set_arg (run, last, TL_ARG_IN, sizeof (cl_mem),
                          &padded[margin > 1 ? (margin - 1) % 2 : 0], error) &&
          tl_run_set_arg (run, last, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, last, TL_ARG_PADDED_LAST_MARGIN,
                          sizeof (cl_int), &margin, error) &&
          tl_run_set_arg (run, last, TL_ARG_PADDED_LAST_COLS, sizeof (cl_int),
                          &cols, error) &&
          tl_run_set_arg (run, last, TL_ARG_PADDED_LAST_STEPS, sizeof (cl_int),
                          &margin, error) &&
          tl_run_enqueue (run, last, TL_ARG_DISPATCH, error));
}

/* mean-curvature-blur */

/* The kernels' tl_curvature_channel (): the step for one channel. */
static gfloat
tl_iterate_curvature_channel (gfloat c,
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
tl_iterate_curvature_step (const gfloat *c,
                           const gfloat *n[TL_ITERATE_NEIGHBOURS],
                           gfloat       *out)
{
  gint k;

  for (k = 0; k < 3; k++)
    out[k] = tl_iterate_curvature_channel (c[k], n[3][k], n[4][k], n[1][k],
                                           n[6][k], n[0][k], n[2][k],
                                           n[5][k], n[7][k]);
  out[3] = c[3];
}

static void
tl_iterate_curvature_reference (const TlFilter      *filter,
                                const TlValue       *values,
                                const TlFloatPixels *pixels)
{
  tl_iterate_reference (tl_iterate_curvature_step, values, pixels);
}

static gboolean
tl_iterate_curvature_cl (TlRun         *run,
                         const TlValue *values,
                         GError       **error)
{
  return tl_iterate_cl (run, values, "tl_curvature", error);
}

static const TlParamSpec tl_iterate_curvature_params[] =
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
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
};

static const gchar *const tl_iterate_curvature_kernels[] =
{
  "tl_padded_fill", "tl_curvature_step", "tl_curvature_last", NULL
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
  .params      = tl_iterate_curvature_params,
  .n_params    = G_N_ELEMENTS (tl_iterate_curvature_params),
  .program     = "iterate",
  .kernels     = tl_iterate_curvature_kernels,
  .halo        = tl_iterate_halo,
  .reference_scratch = tl_iterate_scratch,
  .check       = tl_iterate_check,
  .reference   = tl_iterate_curvature_reference,
  .run_cl      = tl_iterate_curvature_cl,
};

/* noise-reduction */

/* The kernels' tl_noise_channel (): the centre averaged with each
 * neighbour's half-way value that leaves every axis through the centre
 * as smooth as it was.
 */
static gfloat
tl_iterate_noise_channel (gfloat       c,
                          const gfloat n[TL_ITERATE_NEIGHBOURS])
{
  gfloat reference[TL_ITERATE_NEIGHBOURS / 2];
  gfloat sum   = c;
  gint   count = 1;
  gint   axis, from;

  for (axis = 0; axis < TL_ITERATE_NEIGHBOURS / 2; axis++)
    {
      gfloat second = (c * 2.0f - n[axis]) - n[7 - axis];

      reference[axis] = second * second;
    }
  for (from = 0; from < TL_ITERATE_NEIGHBOURS; from++)
    {
      gfloat   value = n[from] * 0.5f + c * 0.5f;
      gboolean valid = TRUE;

      for (axis = 0; axis < TL_ITERATE_NEIGHBOURS / 2 && valid; axis++)
        {
          gfloat second = (value * 2.0f - n[axis]) - n[7 - axis];

          valid = ! (second * second > reference[axis]);
        }
      if (valid)
        {
          sum += value;
          count++;
        }
    }
  return sum / (gfloat) count;
}

static void
tl_iterate_noise_step (const gfloat *c,
                       const gfloat *n[TL_ITERATE_NEIGHBOURS],
                       gfloat       *out)
{
  gfloat channel[TL_ITERATE_NEIGHBOURS];
  gint   k, j;

  for (k = 0; k < 3; k++)
    {
      for (j = 0; j < TL_ITERATE_NEIGHBOURS; j++)
        channel[j] = n[j][k];
      out[k] = tl_iterate_noise_channel (c[k], channel);
    }
  out[3] = c[3];
}

static void
tl_iterate_noise_reference (const TlFilter      *filter,
                            const TlValue       *values,
                            const TlFloatPixels *pixels)
{
  tl_iterate_reference (tl_iterate_noise_step, values, pixels);
}

static gboolean
tl_iterate_noise_cl (TlRun         *run,
                     const TlValue *values,
                     GError       **error)
{
  return tl_iterate_cl (run, values, "tl_noise", error);
}

static const TlParamSpec tl_iterate_noise_params[] =
{
  {
    .name        = "iterations",
    .label       = N_("Strength"),
    .description = N_("Steps of smoothing; fewer give less plastic results"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 32.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 4.0 },
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 32.0,
  },
};

static const gchar *const tl_iterate_noise_kernels[] =
{
  "tl_padded_fill", "tl_noise_step", "tl_noise_last", NULL
};

const TlFilter tl_filter_noise_reduction =
{
  .name        = "noise-reduction",
  .label       = N_("Noise Reduction"),
  .description = N_("Smooth noise while keeping edges: each step averages "
                    "a pixel with the neighbours that make no direction "
                    "through it rougher, on the sRGB curve, alpha kept, "
                    "the layer padded once by clamped pixels"),
  .format      = "R~G~B~A float",
  .default_pixels_per_item = 1,
  .params      = tl_iterate_noise_params,
  .n_params    = G_N_ELEMENTS (tl_iterate_noise_params),
  .program     = "iterate",
  .kernels     = tl_iterate_noise_kernels,
  .halo        = tl_iterate_halo,
  .reference_scratch = tl_iterate_scratch,
  .check       = tl_iterate_check,
  .reference   = tl_iterate_noise_reference,
  .run_cl      = tl_iterate_noise_cl,
};
