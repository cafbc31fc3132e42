/* ThreadLens: box-blur, after GEGL's operation of the same name: the mean
 * of the (2 radius + 1)^2 square around each pixel, clamp-to-edge
 * borders, in linear premultiplied light, as the mean of each row's
 * window, then the mean of those along the column.
 *
 * Below TL_BOX_MIN_RADIUS it is the separable convolution of
 * tl-filter-blur.c with equal weights.  From there up it runs in sums
 * whose cost does not grow with the radius: every value enters a sum as
 * a whole number of 2^-32 (tl_box_quantum ()), so each sum is exact in
 * 64-bit integers and its bits do not depend on the order it is taken
 * in.  The kernels (kernels/blur.cl, tl_box_*) slide a window along runs
 * of each line, adding the value that enters and taking away the one
 * that leaves; this reference slides along whole lines; both give the
 * same bits.
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

/* From this radius up the running sums, whose cost barely moves with
 * the radius: on the H100 at 4096x4096 1.3-1.4 ms in float and 0.8-0.9
 * ms in 8-bit storage from radius 4 to 250 (1.9 and 1.8 ms at 1000),
 * where the convolution took 1.20 and 1.23 ms at radius 24 and 2.29 and
 * 2.26 ms at 28; on PoCL at 3840x2160 in 8-bit storage 283-294 ms, the
 * convolution 289 ms at 20 and 403 ms at 24 (README).
 * One rule for every device keeps a layer's pixels the same everywhere.
 */
#define TL_BOX_MIN_RADIUS 24

/* 2^52: a value's whole 2^-32 stay below it, so the 2001 values of a
 * window at radius 1000 cannot overflow 63 bits.
 */
#define TL_BOX_LIMIT 0x1p52f

/* Pixels a work-item slides along, at least: its run starts with the whole
 * window (2 radius + 1 loads), so a run at least that long keeps a pixel
 * under three loads.  On the H100 at 4096x4096 runs of 64 leave 262,144
 * items a pass.
 */
#define TL_BOX_MIN_RUN 64

static guint
tl_box_halo (const TlValue *values)
{
  return (guint) values[0].v[0];
}

/* GEGL's radius is an integer; ours is a number that must be whole. */
static gboolean
tl_box_check (const TlFilter *filter,
              const TlValue  *values,
              GError        **error)
{
  if (values[0].v[0] != floor (values[0].v[0]))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: radius must be a whole number of pixels, not %g"),
                   filter->name, values[0].v[0]);
      return FALSE;
    }
  return TRUE;
}

/* 2 radius + 1 equal taps for the convolution; as GEGL, each
 * 1 / (2 radius + 1) in single precision.  Free with g_free ().
 */
static gfloat *
tl_box_weights (gint radius)
{
  gfloat *weights = g_new (gfloat, 2 * radius + 1);
  gint    i;

  for (i = 0; i < 2 * radius + 1; i++)
    weights[i] = 1.0 / (gfloat) (radius * 2 + 1);
  return weights;
}

/* V in whole 2^-32, as the kernels' tl_box_quantum () rounds it: to the
 * nearest, halves to even, NaN as 0, clamped to the limit.
 */
static inline gint64
tl_box_quantum (gfloat v)
{
  gfloat scaled = v * 0x1p32f;

  if (isnan (scaled))
    return 0;
  return llrintf (CLAMP (scaled, -TL_BOX_LIMIT, TL_BOX_LIMIT));
}

/* A window's sum as a mean: SCALE is 2^-32 / (2 radius + 1), rounded once
 * to single precision.
 */
static gfloat
tl_box_scale (gint radius)
{
  return (gfloat) (1.0 / ((2.0 * radius + 1.0) * 4294967296.0));
}

/* Every line of IN (LINES of LENGTH pixels, PITCH floats between their
 * starts and STEP between neighbours) into OUT, each pixel SCALE times
 * its window's sum.
 */
static void
tl_box_lines (const gfloat *in,
              gfloat       *out,
              gint          lines,
              gint          length,
              gsize         pitch,
              gsize         step,
              gint          radius,
              gfloat        scale)
{
  gint line, x, i, c;

  for (line = 0; line < lines; line++)
    {
      const gfloat *src = in + line * pitch;
      gfloat       *dst = out + line * pitch;
      gint64        sum[4] = { 0, 0, 0, 0 };

      for (i = -radius; i <= radius; i++)
        for (c = 0; c < 4; c++)
          sum[c] += tl_box_quantum (src[CLAMP (i, 0, length - 1) * step + c]);
      for (x = 0; x < length; x++)
        {
          if (x > 0)
            for (c = 0; c < 4; c++)
              {
                sum[c] += tl_box_quantum (src[MIN (x + radius, length - 1) * step + c]);
                sum[c] -= tl_box_quantum (src[MAX (x - radius - 1, 0) * step + c]);
              }
          for (c = 0; c < 4; c++)
            dst[x * step + c] = (gfloat) sum[c] * scale;
        }
    }
}

static void
tl_box_reference (const TlFilter      *filter,
                  const TlValue       *values,
                  const TlFloatPixels *pixels)
{
  gint               radius = (gint) values[0].v[0];
  gfloat             scale  = tl_box_scale (radius);
  gint               w = pixels->width, h = pixels->height;

  if (radius < TL_BOX_MIN_RADIUS)
    {
      g_autofree gfloat *weights = tl_box_weights (radius);

      tl_filter_convolve_reference (weights, radius, pixels);
      return;
    }

  g_return_if_fail (pixels->scratch != NULL);
  tl_box_lines (pixels->in, pixels->scratch, h, w, (gsize) w * 4, 4, radius,
                scale);
  tl_box_lines (pixels->scratch, pixels->out, w, h, 4, (gsize) w * 4, radius,
                scale);
}

/* KERNEL from IN to OUT over LINES lines of LENGTH pixels, each cut into
 * runs of RUN pixels, an item a run.
 */
static gboolean
tl_box_pass (TlRun       *run,
             const gchar *kernel_name,
             cl_mem       in,
             cl_mem       out,
             gint         radius,
             cl_int       lines,
             cl_int       length,
             cl_int       pitch,
             cl_int       step,
             GError     **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, kernel_name, error);
  cl_float  scale  = tl_box_scale (radius);
  cl_int    r      = radius;
  cl_int    pixels = MAX (TL_BOX_MIN_RUN, 2 * radius + 1);
  guint     runs   = (length + pixels - 1) / pixels;

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_SCALE, sizeof (cl_float),
                          &scale, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_RADIUS, sizeof (cl_int), &r,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_LENGTH, sizeof (cl_int),
                          &length, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_PITCH, sizeof (cl_int),
                          &pitch, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_STEP, sizeof (cl_int), &step,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_LINES, sizeof (cl_int),
                          &lines, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_BOX_RUN, sizeof (cl_int),
                          &pixels, error) &&
          tl_run_enqueue_lines (run, kernel, TL_ARG_DISPATCH,
                                (guint) lines * runs, error));
}

/* The convolution below TL_BOX_MIN_RADIUS; from there up the rows from
 * the storage into a scratch image of working floats, then the columns
 * from it into the storage.
 */
static gboolean
tl_box_cl (TlRun         *run,
           const TlValue *values,
           GError       **error)
{
  const TlPixels *pixels = tl_run_get_pixels (run);
  gint            radius = (gint) values[0].v[0];
  cl_int          w = pixels->width, h = pixels->height;
  cl_mem          tmp;

  if (radius < TL_BOX_MIN_RADIUS)
    {
      g_autofree gfloat *weights = tl_box_weights (radius);

      return tl_filter_convolve_cl (run, weights, radius, "tl_convolve", NULL,
                                    NULL, error);
    }

  tmp = tl_run_new_scratch (run, error);
  return (tmp != NULL &&
          tl_box_pass (run, "tl_box_rows", tl_run_get_input (run), tmp,
                       radius, h, w, w, 1, error) &&
          tl_box_pass (run, "tl_box_columns", tmp, tl_run_get_output (run),
                       radius, w, h, 1, w, error));
}

static const TlParamSpec tl_box_params[] =
{
  {
    .name        = "radius",
    .label       = N_("Radius"),
    .description = N_("Radius of the square pixel region, in whole pixels "
                      "(width and height will be radius * 2 + 1)"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1000.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 4.0 },
    .is_length   = TRUE,
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
};

/* The fused convolution; the others are built on first use
 * (tl_run_get_kernel ()).
 */
static const gchar *const tl_box_kernels[] = { "tl_convolve_2d", NULL };

const TlFilter tl_filter_box_blur =
{
  .name        = "box-blur",
  .label       = N_("Box Blur"),
  .description = N_("Blur by averaging the colors of a square neighborhood, "
                    "in linear light, clamp-to-edge borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .reads_block = TRUE,
  .params      = tl_box_params,
  .n_params    = G_N_ELEMENTS (tl_box_params),
  .program     = "blur",
  .kernels     = tl_box_kernels,
  /* Its convolution's weights are equal (tl_filter_convolve_order ()):
   * without this, a first run on a CPU built the plain program for the
   * planner, 1-2 s on PoCL, and then the equal one.
   */
  .variant     = "equal",
  .halo        = tl_box_halo,
  .check       = tl_box_check,
  .reference   = tl_box_reference,
  .run_cl      = tl_box_cl,
};
