/* ThreadLens: difference-of-gaussians and high-pass, after GEGL's
 * operations of the same names, built on gaussian-blur's blur
 * (tl_filter_gaussian_scratch_cl (): the convolution below
 * TL_RECURSIVE_MIN_STD_DEV, the recursive filter from there up) kept in
 * scratch images on the device, then one pass under the plan that
 * combines them with the layer (kernels/blur.cl: tl_dog_combine,
 * tl_high_pass_combine).  The C references combine the same values in
 * the same order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-filter.h"
#include "tl-math.h"
#include "tl-run.h"

#define TL_DETAIL_ALPHA_FLOOR (1.0f / 65536.0f)

/* A blur's halo: its taps, or whole lines for the recursive filter. */
static guint
tl_detail_blur_halo (gdouble std_dev)
{
  if (tl_filter_recursive_applies (std_dev))
    return TL_FILTER_HALO_WHOLE;
  return tl_filter_gaussian_radius (std_dev);
}

/* The convolution's row sums, and for difference-of-gaussians its second
 * blur.
 */
static gsize
tl_detail_dog_scratch (const TlValue *values,
                       guint          width,
                       guint          height)
{
  return 2 * (gsize) width * height;
}

/* difference-of-gaussians */

static guint
tl_detail_dog_halo (const TlValue *values)
{
  return MAX (tl_detail_blur_halo (values[0].v[0]),
              tl_detail_blur_halo (values[1].v[0]));
}

/* GEGL subtracts the blurs as its blur leaves them, premultiplied,
 * keeping the first one's alpha.
 */
static void
tl_detail_dog_reference (const TlFilter      *filter,
                         const TlValue       *values,
                         const TlFloatPixels *pixels)
{
  gsize         n      = (gsize) pixels->width * pixels->height;
  gfloat       *second = pixels->scratch + n * 4;
  TlFloatPixels blur   = *pixels;
  gsize         i;
  gint          c;

  blur.out = second;
  tl_filter_gaussian_scratch_reference (values[1].v[0], &blur);
  blur.out = pixels->out;
  tl_filter_gaussian_scratch_reference (values[0].v[0], &blur);
  for (i = 0; i < n; i++)
    for (c = 0; c < 3; c++)
      pixels->out[i * 4 + c] = pixels->out[i * 4 + c] - second[i * 4 + c];
}

static gboolean
tl_detail_dog_cl (TlRun         *run,
                  const TlValue *values,
                  GError       **error)
{
  cl_mem    in  = tl_run_get_input (run);
  cl_mem    out = tl_run_get_output (run);
  cl_mem    first, second;
  cl_kernel kernel;

  if (! tl_filter_gaussian_scratch_cl (run, values[0].v[0], &first, error) ||
      ! tl_filter_gaussian_scratch_cl (run, values[1].v[0], &second, error))
    return FALSE;
  kernel = tl_run_get_kernel (run, "tl_dog_combine", error);
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_DOG_COMBINE_FIRST,
                          sizeof (cl_mem), &first, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_DOG_COMBINE_SECOND,
                          sizeof (cl_mem), &second, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_detail_dog_params[] =
{
  {
    .name        = "radius1",
    .label       = N_("Radius 1"),
    .description = N_("Standard deviation of the first Gaussian, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1000.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 1.0 },
    .is_length   = TRUE,
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 20.0,
  },
  {
    .name        = "radius2",
    .label       = N_("Radius 2"),
    .description = N_("Standard deviation of the second Gaussian, taken "
                      "away from the first, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1000.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 2.0 },
    .is_length   = TRUE,
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 20.0,
  },
};

static const gchar *const tl_detail_dog_kernels[] = { "tl_dog_combine", NULL };

const TlFilter tl_filter_difference_of_gaussians =
{
  .name        = "difference-of-gaussians",
  .label       = N_("Difference of Gaussians"),
  .description = N_("Edge detection: one Gaussian blur less another, in "
                    "linear premultiplied light, clamp-to-edge borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .params      = tl_detail_dog_params,
  .n_params    = G_N_ELEMENTS (tl_detail_dog_params),
  .program     = "blur",
  .kernels     = tl_detail_dog_kernels,
  .halo        = tl_detail_dog_halo,
  .reference_scratch = tl_detail_dog_scratch,
  .reference   = tl_detail_dog_reference,
  .run_cl      = tl_detail_dog_cl,
};

/* high-pass */

static guint
tl_detail_high_pass_halo (const TlValue *values)
{
  return tl_detail_blur_halo (values[0].v[0]);
}

/* The kernels' tl_high_pass_pixel () on one pixel: see there. */
static void
tl_detail_high_pass_pixel (const gfloat *v,
                           const gfloat *blurred,
                           gfloat        contrast,
                           gfloat       *out)
{
  gfloat blur_alpha = MAX (blurred[3], TL_DETAIL_ALPHA_FLOOR);
  gfloat alpha      = MAX (v[3], TL_DETAIL_ALPHA_FLOOR);
  gfloat top_alpha  = blurred[3] * 0.5f;
  gfloat over_alpha = (top_alpha + v[3]) - top_alpha * v[3];
  gfloat over_floor = MAX (over_alpha, TL_DETAIL_ALPHA_FLOOR);
  gint   c;

  for (c = 0; c < 3; c++)
    {
      gfloat top      = (1.0f - tl_math_to_srgb (blurred[c] / blur_alpha)) *
                        top_alpha;
      gfloat below    = tl_math_to_srgb (v[c] / alpha) * v[3];
      gfloat over     = top + below * (1.0f - top_alpha);
      gfloat straight = over / over_floor;
      gfloat linear   = tl_math_from_srgb (straight) * over_alpha;
      gfloat g        = tl_math_pow (linear, 0.4545f);

      g      = ((g + -0.5f) * contrast) + 0.5f;
      out[c] = tl_math_pow (g, 2.2f);
    }
  out[3] = over_alpha;
}

static void
tl_detail_high_pass_reference (const TlFilter      *filter,
                               const TlValue       *values,
                               const TlFloatPixels *pixels)
{
  gfloat contrast = values[1].v[0];
  gsize  i, n = (gsize) pixels->width * pixels->height;

  tl_filter_gaussian_scratch_reference (values[0].v[0], pixels);
  for (i = 0; i < n; i++)
    {
      gfloat blurred[4];

      memcpy (blurred, pixels->out + i * 4, sizeof (blurred));
      tl_detail_high_pass_pixel (pixels->in + i * 4, blurred, contrast,
                                 pixels->out + i * 4);
    }
}

static gboolean
tl_detail_high_pass_cl (TlRun         *run,
                        const TlValue *values,
                        GError       **error)
{
  cl_float  contrast = values[1].v[0];
  cl_mem    in       = tl_run_get_input (run);
  cl_mem    out      = tl_run_get_output (run);
  cl_mem    blurred;
  cl_kernel kernel;

  if (! tl_filter_gaussian_scratch_cl (run, values[0].v[0], &blurred, error))
    return FALSE;
  kernel = tl_run_get_kernel (run, "tl_high_pass_combine", error);
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_HIGH_PASS_COMBINE_BLURRED,
                          sizeof (cl_mem), &blurred, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_HIGH_PASS_COMBINE_CONTRAST,
                          sizeof (cl_float), &contrast, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_detail_high_pass_params[] =
{
  {
    .name        = "std-dev",
    .label       = N_("Std. Dev."),
    .description = N_("Standard deviation of the Gaussian whose detail is "
                      "kept, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1500.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 4.0 },
    .is_length   = TRUE,
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  {
    .name        = "contrast",
    .label       = N_("Contrast"),
    .description = N_("Contrast of the detail about mid-grey"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 5.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 1.0 },
    .digits      = 2,
    .step        = 0.01,
    .ui_min      = 0.0,
    .ui_max      = 5.0,
  },
};

static const gchar *const tl_detail_high_pass_kernels[] =
{
  "tl_high_pass_combine", NULL
};

const TlFilter tl_filter_high_pass =
{
  .name        = "high-pass",
  .label       = N_("High Pass"),
  .description = N_("Keep fine detail about mid-grey: the layer with its "
                    "blur's inverse laid over it at half opacity, as GEGL "
                    "composes them, clamp-to-edge borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .params      = tl_detail_high_pass_params,
  .n_params    = G_N_ELEMENTS (tl_detail_high_pass_params),
  .program     = "blur",
  .kernels     = tl_detail_high_pass_kernels,
  .halo        = tl_detail_high_pass_halo,
  .reference   = tl_detail_high_pass_reference,
  .run_cl      = tl_detail_high_pass_cl,
};
