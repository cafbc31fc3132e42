/* ThreadLens: separable convolution, and the Gaussian blur on it.
 *
 * One C reference and one OpenCL path (kernels/blur.cl) for the blurs
 * that weigh their taps: gaussian-blur here, unsharp-mask in
 * tl-filter-area.c and box-blur's smaller radii in tl-filter-box.c, each
 * giving only its weights.  Clamp-to-edge borders; both paths use the same
 * weights, summed in the same order.  The Gaussian works in premultiplied
 * linear light, as GEGL's gaussian-blur does ("RaGaBaA float").
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-fault.h"
#include "tl-filter.h"
#include "tl-run.h"

/* Three standard deviations hold all but 0.3% of the weight. */
gint
tl_filter_gaussian_radius (gdouble std_dev)
{
  return (gint) ceil (3.0 * std_dev);
}

static guint
tl_blur_halo (const TlValue *values)
{
  if (tl_filter_recursive_applies (values[0].v[0]))
    return TL_FILTER_HALO_WHOLE;
  return tl_filter_gaussian_radius (values[0].v[0]);
}

/* Normalised weights of taps -radius..radius, shared by every filter that
 * blurs with a Gaussian (gaussian-blur, unsharp-mask); free with g_free ().
 */
gfloat *
tl_filter_gaussian_weights (gdouble  std_dev,
                            gint    *radius)
{
  gint    r = tl_filter_gaussian_radius (std_dev);
  gfloat *weights = g_new (gfloat, 2 * r + 1);
  gdouble sum = 0.0;
  gint    i;

  if (r == 0)
    {
      weights[0] = 1.0f;
      *radius = 0;
      return weights;
    }

  for (i = -r; i <= r; i++)
    sum += exp (-(gdouble) i * i / (2.0 * std_dev * std_dev));
  for (i = -r; i <= r; i++)
    weights[i + r] = exp (-(gdouble) i * i / (2.0 * std_dev * std_dev)) / sum;

  *radius = r;
  return weights;
}

/* How a convolution with WEIGHTS sums its taps: equal weights (a box)
 * in one sum scaled once, which takes half the operations a tap; others
 * weighted tap by tap, in pairs from TL_CONVOLVE_PAIRED_RADIUS up.
 */
TlConvolveOrder
tl_filter_convolve_order (const gfloat *weights,
                          gint          radius)
{
  gint t;

  g_return_val_if_fail (weights != NULL && radius >= 0, TL_CONVOLVE_EACH);

  for (t = 1; t <= 2 * radius; t++)
    if (weights[t] != weights[0])
      return radius < TL_CONVOLVE_PAIRED_RADIUS ? TL_CONVOLVE_EACH :
                                                  TL_CONVOLVE_PAIRED;
  return TL_CONVOLVE_EQUAL;
}

/* SUM, the four channels' sum of the taps around the centre, AT (t)
 * being the pixel t from it, in the kernels' order (TL_CONVOLVE_TAPS in
 * kernels/blur.cl) for ORDER: the taps added from the left, then scaled
 * by the one weight; each tap weighted and added in turn from the left;
 * or the centre's share, then each pair of taps either side added first
 * and weighted once by a fused multiply-add.
 */
#define TL_BLUR_TAPS(AT)                                                \
  do                                                                    \
    {                                                                   \
      gint t, c;                                                        \
                                                                        \
      switch (order)                                                    \
        {                                                               \
        case TL_CONVOLVE_EQUAL:                                         \
          for (c = 0; c < 4; c++)                                       \
            sum[c] = AT (-radius)[c];                                   \
          for (t = -radius + 1; t <= radius; t++)                       \
            for (c = 0; c < 4; c++)                                     \
              sum[c] += AT (t)[c];                                      \
          for (c = 0; c < 4; c++)                                       \
            sum[c] *= weights[0];                                       \
          break;                                                        \
        case TL_CONVOLVE_EACH:                                          \
          for (c = 0; c < 4; c++)                                       \
            sum[c] = 0.0f;                                              \
          for (t = -radius; t <= radius; t++)                           \
            for (c = 0; c < 4; c++)                                     \
              sum[c] += weights[radius + t] * AT (t)[c];                \
          break;                                                        \
        case TL_CONVOLVE_PAIRED:                                        \
          for (c = 0; c < 4; c++)                                       \
            sum[c] = weights[radius] * AT (0)[c];                       \
          for (t = 1; t <= radius; t++)                                 \
            for (c = 0; c < 4; c++)                                     \
              sum[c] = fmaf (weights[radius + t], AT (-t)[c] + AT (t)[c], \
                             sum[c]);                                   \
          break;                                                        \
        }                                                               \
    }                                                                   \
  while (0)

/* The two passes, along x then y, into PIXELS->out. */
void
tl_filter_convolve_reference (const gfloat        *weights,
                              gint                 radius,
                              const TlFloatPixels *pixels)
{
  gint               w = pixels->width, h = pixels->height;
  gint               x, y;
  TlConvolveOrder    order;
  gfloat            *tmp = pixels->scratch;

  g_return_if_fail (weights != NULL && radius >= 0);
  g_return_if_fail (tmp != NULL);

  order = tl_filter_convolve_order (weights, radius);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        const gfloat *row = pixels->in + (gsize) y * w * 4;
        gfloat        sum[4];

#define TL_BLUR_ROW_TAP(t) (row + (gsize) CLAMP (x + (t), 0, w - 1) * 4)
        TL_BLUR_TAPS (TL_BLUR_ROW_TAP);
#undef TL_BLUR_ROW_TAP
        memcpy (tmp + ((gsize) y * w + x) * 4, sum, sizeof (sum));
      }

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gfloat sum[4];

#define TL_BLUR_COLUMN_TAP(t) (tmp + ((gsize) CLAMP (y + (t), 0, h - 1) * w + x) * 4)
        TL_BLUR_TAPS (TL_BLUR_COLUMN_TAP);
#undef TL_BLUR_COLUMN_TAP
        memcpy (pixels->out + ((gsize) y * w + x) * 4, sum, sizeof (sum));
      }
}

/* Which pass a tile is for: the row pass, the column pass, or the fused
 * pass whose block holds both the input and its row sums.
 */
typedef enum
{
  TL_CONVOLVE_ROWS,
  TL_CONVOLVE_COLUMNS,
  TL_CONVOLVE_FUSED
} TlConvolvePass;

/* Local memory for PASS's tile under the run's plan (the largest
 * launch's groups are the plan's shape), or 0 when the taps should read
 * global memory (tl_run_local_fits ()).
 */
static gsize
tl_filter_convolve_tile_size (TlRun          *run,
                              cl_kernel       kernel,
                              gint            radius,
                              TlConvolvePass  pass)
{
  const TlPlan *plan = tl_run_get_plan (run);
  gsize         span = (gsize) plan->local[0] * plan->pixels_per_item;
  gsize         rows = plan->local[1];
  gsize         pixels;

  switch (pass)
    {
    case TL_CONVOLVE_ROWS:
      pixels = (span + 2 * radius) * rows;
      break;
    case TL_CONVOLVE_COLUMNS:
      pixels = span * (rows + 2 * radius);
      break;
    default:
      /* Groups fewer rows tall than the halo above and below them load
       * and sum more halo rows than their own: on the H100 a fused 32x4
       * box blur ran at 77% of the two passes' speed, a Gaussian of
       * radius 6 at 57%.  Those take the two passes.
       */
      if (rows < 2 * (gsize) radius)
        return 0;
      pixels = (2 * span + 2 * radius) * (rows + 2 * radius);
      break;
    }
  return tl_run_local_fits (run, kernel, pixels * 4 * sizeof (gfloat));
}

/* KERNEL_NAME from the program variant that sums in ORDER, as the C
 * reference does.
 */
static cl_kernel
tl_filter_convolve_kernel (TlRun            *run,
                           const gchar      *kernel_name,
                           TlConvolveOrder   order,
                           GError          **error)
{
  static const gchar *const variants[] =
  {
    [TL_CONVOLVE_EACH]   = NULL,
    [TL_CONVOLVE_PAIRED] = "pairs",
    [TL_CONVOLVE_EQUAL]  = "equal",
  };

  return tl_run_get_kernel_variant (run, kernel_name, variants[order],
                                    error);
}

/* The fused kernels call their tile BLOCK: one slot for both. */
G_STATIC_ASSERT (TL_ARG_CONVOLVE_BLOCK == TL_ARG_CONVOLVE_TILE);

/* KERNEL_NAME's kernel (with FALLBACK_NAME's where the tile does not
 * fit; NULL: no fallback, *KERNEL stays NULL) and its (weights, radius,
 * tile) arguments, TL_ARG_CONVOLVE_*, set.  FALSE on error.
 */
static gboolean
tl_filter_convolve_pass (TlRun          *run,
                         const gchar    *kernel_name,
                         const gchar    *fallback_name,
                         cl_mem          taps,
                         gint            radius,
                         TlConvolveOrder order,
                         TlConvolvePass  pass,
                         cl_kernel      *kernel,
                         GError        **error)
{
  gsize  tile;
  cl_int r = radius;

  *kernel = tl_filter_convolve_kernel (run, kernel_name, order, error);
  if (*kernel == NULL)
    return FALSE;
  tile = tl_filter_convolve_tile_size (run, *kernel, radius, pass);
  if (tile == 0)
    {
      *kernel = NULL;
      if (fallback_name == NULL)
        return TRUE;
      *kernel = tl_filter_convolve_kernel (run, fallback_name, order,
                                           error);
      if (*kernel == NULL)
        return FALSE;
    }

  /* An untiled pass still needs some local argument. */
  return (tl_run_set_arg (run, *kernel, TL_ARG_CONVOLVE_WEIGHTS,
                          sizeof (cl_mem), &taps, error) &&
          tl_run_set_arg (run, *kernel, TL_ARG_CONVOLVE_RADIUS,
                          sizeof (cl_int), &r, error) &&
          tl_run_set_arg (run, *kernel, TL_ARG_CONVOLVE_TILE,
                          tile ? tile : sizeof (cl_float4), NULL, error));
}

/* FAMILY's fused pass (FAMILY_2d) where its block fits local memory
 * and the group is at least as tall as the halo above and below it;
 * elsewhere the row pass (tl_convolve_h) into a scratch image of working
 * floats, then FAMILY_v from it into the output, each tiled where its
 * tile fits.  All give the same bits.  Every kernel of a family takes
 * (in, out, dispatch, codec, weights, radius, tile) first; EXTRA sets
 * any further arguments of the fused or vertical kernel.
 */
gboolean
tl_filter_convolve_cl (TlRun              *run,
                       const gfloat       *weights,
                       gint                radius,
                       const gchar        *family,
                       TlConvolveExtraArgs extra,
                       gconstpointer       extra_data,
                       GError            **error)
{
  g_autofree gchar *fused_name = g_strconcat (family, "_2d", NULL);
  g_autofree gchar *v_name     = g_strconcat (family, "_v", NULL);
  g_autofree gchar *v_tiled    = g_strconcat (family, "_v_tiled", NULL);
  cl_kernel         fused, horizontal, vertical;
  cl_mem            in  = tl_run_get_input (run);
  cl_mem            out = tl_run_get_output (run);
  cl_mem            tmp, taps;
  TlConvolveOrder   order;

  g_return_val_if_fail (weights != NULL && radius >= 0 && family != NULL, FALSE);

  order = tl_filter_convolve_order (weights, radius);

  taps = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                            sizeof (gfloat) * (2 * radius + 1), weights, error);
  if (taps == NULL ||
      ! tl_filter_convolve_pass (run, fused_name, NULL, taps, radius, order,
                                 TL_CONVOLVE_FUSED, &fused, error))
    return FALSE;
  if (fused != NULL)
    return (tl_run_set_arg (run, fused, TL_ARG_IN, sizeof (cl_mem), &in,
                            error) &&
            tl_run_set_arg (run, fused, TL_ARG_OUT, sizeof (cl_mem), &out,
                            error) &&
            (extra == NULL || extra (run, fused, extra_data, error)) &&
            tl_run_enqueue (run, fused, TL_ARG_DISPATCH, error));

  tmp = tl_run_new_scratch (run, error);
  if (tmp == NULL ||
      ! tl_filter_convolve_pass (run, "tl_convolve_h_tiled", "tl_convolve_h",
                                 taps, radius, order, TL_CONVOLVE_ROWS,
                                 &horizontal, error) ||
      ! tl_run_set_arg (run, horizontal, TL_ARG_IN, sizeof (cl_mem), &in,
                        error) ||
      ! tl_run_set_arg (run, horizontal, TL_ARG_OUT, sizeof (cl_mem), &tmp,
                        error) ||
      ! tl_run_enqueue (run, horizontal, TL_ARG_DISPATCH, error))
    return FALSE;

  return (tl_filter_convolve_pass (run, v_tiled, v_name, taps, radius,
                                   order, TL_CONVOLVE_COLUMNS, &vertical,
                                   error) &&
          tl_run_set_arg (run, vertical, TL_ARG_IN, sizeof (cl_mem), &tmp,
                          error) &&
          tl_run_set_arg (run, vertical, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          (extra == NULL || extra (run, vertical, extra_data, error)) &&
          tl_run_enqueue (run, vertical, TL_ARG_DISPATCH, error));
}

/* The blur of gaussian-blur, the convolution or the recursive filter
 * by the same rule, into *BLURRED: the row pass as ever, then the column
 * pass into the scratch image, not the storage.
 */
gboolean
tl_filter_gaussian_scratch_cl (TlRun    *run,
                               gdouble   std_dev,
                               cl_mem   *blurred,
                               GError  **error)
{
  gint               radius;
  g_autofree gfloat *weights = NULL;
  TlConvolveOrder    order;
  cl_mem             in = tl_run_get_input (run);
  cl_mem             taps, tmp;
  cl_kernel          horizontal, vertical;

  if (tl_filter_recursive_applies (std_dev) &&
      tl_filter_recursive_supported (tl_run_get_context (run)))
    return tl_filter_recursive_blur_cl (run, std_dev, blurred, error);

  weights = tl_filter_gaussian_weights (std_dev, &radius);
  order   = tl_filter_convolve_order (weights, radius);
  taps    = tl_run_new_buffer (run, CL_MEM_READ_ONLY,
                               sizeof (gfloat) * (2 * radius + 1), weights,
                               error);
  tmp      = taps ? tl_run_new_scratch (run, error) : NULL;
  *blurred = tmp ? tl_filter_blur_scratch_new (run, error) : NULL;
  return (*blurred != NULL &&
          tl_filter_convolve_pass (run, "tl_convolve_h_tiled", "tl_convolve_h",
                                   taps, radius, order, TL_CONVOLVE_ROWS,
                                   &horizontal, error) &&
          tl_run_set_arg (run, horizontal, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, horizontal, TL_ARG_OUT, sizeof (cl_mem), &tmp,
                          error) &&
          tl_run_enqueue (run, horizontal, TL_ARG_DISPATCH, error) &&
          tl_filter_convolve_pass (run, "tl_convolve_v_scratch_tiled",
                                   "tl_convolve_v_scratch", taps, radius,
                                   order, TL_CONVOLVE_COLUMNS, &vertical,
                                   error) &&
          tl_run_set_arg (run, vertical, TL_ARG_IN, sizeof (cl_mem), &tmp,
                          error) &&
          tl_run_set_arg (run, vertical, TL_ARG_OUT, sizeof (cl_mem), blurred,
                          error) &&
          tl_run_enqueue (run, vertical, TL_ARG_DISPATCH, error));
}

void
tl_filter_gaussian_scratch_reference (gdouble              std_dev,
                                      const TlFloatPixels *pixels)
{
  gint               radius;
  gsize              i, n = (gsize) pixels->width * pixels->height * 4;
  g_autofree gfloat *weights = NULL;

  if (tl_filter_recursive_takes (std_dev, pixels))
    {
      tl_filter_recursive_reference (std_dev, pixels);
      return;
    }
  weights = tl_filter_gaussian_weights (std_dev, &radius);
  tl_filter_convolve_reference (weights, radius, pixels);
  if (pixels->scratch_half)
    for (i = 0; i < n; i++)
      pixels->out[i] = tl_codec_half_round (pixels->out[i]);
}

static void
tl_blur_reference (const TlFilter      *filter,
                   const TlValue       *values,
                   const TlFloatPixels *pixels)
{
  gint               radius;
  g_autofree gfloat *weights = NULL;

  if (tl_filter_recursive_takes (values[0].v[0], pixels))
    {
      tl_filter_recursive_reference (values[0].v[0], pixels);
      return;
    }
  weights = tl_filter_gaussian_weights (values[0].v[0], &radius);
  tl_filter_convolve_reference (weights, radius, pixels);
}

static gboolean
tl_blur_run_cl (TlRun         *run,
                const TlValue *values,
                GError       **error)
{
  gint               radius;
  g_autofree gfloat *weights = NULL;

  /* A device without double precision convolves instead: the same blur
   * within the recursive filter's stated accuracy, not its bits.
   */
  if (tl_filter_recursive_applies (values[0].v[0]) &&
      tl_filter_recursive_supported (tl_run_get_context (run)))
    return tl_filter_recursive_cl (run, values[0].v[0], error);

  weights = tl_filter_gaussian_weights (values[0].v[0], &radius);
  return tl_filter_convolve_cl (run, weights, radius, "tl_convolve", NULL,
                                NULL, error);
}

static const TlParamSpec tl_blur_params[] =
{
  {
    .name        = "std-dev",
    .label       = N_("Standard deviation"),
    .description = N_("Standard deviation of the Gaussian, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 500.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 2.0 },
    .is_length   = TRUE,
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
};

/* The fused pass; the others are built when its block does not fit
 * (tl_run_get_kernel ()), which keeps a first build on PoCL short.
 */
static const gchar *const tl_blur_kernels[] = { "tl_convolve_2d", NULL };

const TlFilter tl_filter_gaussian_blur =
{
  .name        = "gaussian-blur",
  .label       = N_("Gaussian Blur"),
  .description = N_("Separable Gaussian blur in linear light, clamp-to-edge "
                    "borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .reads_block = TRUE,
  .params      = tl_blur_params,
  .n_params    = G_N_ELEMENTS (tl_blur_params),
  .program     = "blur",
  .kernels     = tl_blur_kernels,
  .halo        = tl_blur_halo,
  .reference   = tl_blur_reference,
  .run_cl      = tl_blur_run_cl,
};
