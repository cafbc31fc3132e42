/* ThreadLens: motion-blur-linear, after GEGL's operation of the same
 * name, its C reference beside its OpenCL path (kernels/motion.cl).
 *
 * Each pixel is the mean of ceil (length) + 1 samples spread evenly along
 * a line of that length through it, at the angle given (degrees,
 * clockwise on the image), each sample interpolated bilinearly, in linear
 * premultiplied light.  GEGL reads transparent black past the layer's
 * edges, which fades a border as wide as half the length; this clamps to
 * the edge, as every ThreadLens filter does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-run.h"

/* Where the samples fall, the same for every pixel: for sample s its
 * whole offset (OFFSETS[2 s], OFFSETS[2 s + 1]) and fractions (FRACTIONS
 * likewise), from GEGL's positions t (length cos, length sin), t from
 * -0.5 to 0.5, in double.  Free both with g_free ().
 */
static gint
tl_motion_samples (const TlValue  *values,
                   gint          **offsets,
                   gfloat        **fractions)
{
  gdouble length  = values[0].v[0];
  gdouble theta   = values[1].v[0] * G_PI / 180.0;
  gint    n_steps = (gint) ceil (length) + 1;
  gdouble along_x, along_y;
  gint    s;

  while (theta < 0.0)
    theta += 2 * G_PI;
  along_x = length * cos (theta);
  along_y = length * sin (theta);

  *offsets   = g_new (gint, 2 * n_steps);
  *fractions = g_new (gfloat, 2 * n_steps);
  for (s = 0; s < n_steps; s++)
    {
      gdouble t  = n_steps == 1 ? 0.0 : s / (gdouble) (n_steps - 1) - 0.5;
      gdouble dx = t * along_x, dy = t * along_y;

      (*offsets)[2 * s]       = (gint) floor (dx);
      (*offsets)[2 * s + 1]   = (gint) floor (dy);
      (*fractions)[2 * s]     = dx - floor (dx);
      (*fractions)[2 * s + 1] = dy - floor (dy);
    }
  return n_steps;
}

/* Half the length, and the pixel past it that interpolation reads. */
static guint
tl_motion_halo (const TlValue *values)
{
  return (guint) ceil (0.5 * values[0].v[0]) + 1;
}

static void
tl_motion_reference (const TlFilter      *filter,
                     const TlValue       *values,
                     const TlFloatPixels *pixels)
{
  g_autofree gint   *offsets   = NULL;
  g_autofree gfloat *fractions = NULL;
  gint               n_steps   = tl_motion_samples (values, &offsets, &fractions);
  gfloat             inv       = 1.0f / n_steps;
  gint               x, y, s, c;

  for (y = 0; y < (gint) pixels->height; y++)
    for (x = 0; x < (gint) pixels->width; x++)
      {
        gfloat  sum[4] = { 0, 0, 0, 0 };
        gfloat *out    = pixels->out + ((gsize) y * pixels->width + x) * 4;

        for (s = 0; s < n_steps; s++)
          {
            gint          ax = x + offsets[2 * s], ay = y + offsets[2 * s + 1];
            gfloat        fx = fractions[2 * s], fy = fractions[2 * s + 1];
            const gfloat *p0 = tl_filter_pixel_clamped (pixels, ax, ay);
            const gfloat *p1 = tl_filter_pixel_clamped (pixels, ax + 1, ay);
            const gfloat *p2 = tl_filter_pixel_clamped (pixels, ax, ay + 1);
            const gfloat *p3 = tl_filter_pixel_clamped (pixels, ax + 1, ay + 1);

            for (c = 0; c < 4; c++)
              {
                gfloat top = fy * (p2[c] - p0[c]) + p0[c];
                gfloat low = fy * (p3[c] - p1[c]) + p1[c];

                sum[c] += fx * (low - top) + top;
              }
          }
        for (c = 0; c < 4; c++)
          out[c] = sum[c] * inv;
      }
}

static gboolean
tl_motion_cl (TlRun         *run,
              const TlValue *values,
              GError       **error)
{
  g_autofree gint   *offsets   = NULL;
  g_autofree gfloat *fractions = NULL;
  cl_int             n_steps   = tl_motion_samples (values, &offsets, &fractions);
  cl_float           inv       = 1.0f / n_steps;
  cl_mem             in        = tl_run_input_floats (run, "tl_motion_decode",
                                                       error);
  cl_mem             out       = tl_run_get_output (run);
  cl_mem             steps, parts;
  cl_kernel          kernel;

  if (in == NULL)
    return FALSE;
  steps = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                             sizeof (cl_int) * 2 * n_steps, offsets, error);
  parts = steps ? tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                                     sizeof (cl_float) * 2 * n_steps,
                                     fractions, error) : NULL;
  kernel = parts ? tl_run_get_kernel (run, "tl_motion_linear", error) : NULL;
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_MOTION_LINEAR_STEPS,
                          sizeof (cl_mem), &steps, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_MOTION_LINEAR_FRACTIONS,
                          sizeof (cl_mem), &parts, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_MOTION_LINEAR_N_STEPS,
                          sizeof (cl_int), &n_steps, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_MOTION_LINEAR_INV_N_STEPS,
                          sizeof (cl_float), &inv, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_motion_params[] =
{
  {
    .name        = "length",
    .label       = N_("Length"),
    .description = N_("Length of the blur, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1000.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 10.0 },
    .is_length   = TRUE,
    .digits      = 1,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 300.0,
  },
  {
    .name        = "angle",
    .label       = N_("Angle"),
    .description = N_("Direction of the blur, in degrees clockwise from the "
                      "right"),
    .type        = TL_PARAM_DOUBLE,
    .min         = -180.0,
    .max         = 180.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.0 },
    .digits      = 1,
    .step        = 1.0,
    .ui_min      = -180.0,
    .ui_max      = 180.0,
  },
};

static const gchar *const tl_motion_kernels[] =
{
  "tl_motion_decode", "tl_motion_linear", NULL
};

const TlFilter tl_filter_motion_blur_linear =
{
  .name        = "motion-blur-linear",
  .label       = N_("Linear Motion Blur"),
  .description = N_("Blur along a straight line, as a moving camera does, in "
                    "linear light, clamp-to-edge borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .params      = tl_motion_params,
  .n_params    = G_N_ELEMENTS (tl_motion_params),
  .program     = "motion",
  .kernels     = tl_motion_kernels,
  .halo        = tl_motion_halo,
  .reference   = tl_motion_reference,
  .run_cl      = tl_motion_cl,
};
