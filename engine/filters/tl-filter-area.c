/* ThreadLens: area filters, C references beside the OpenCL paths.
 *
 * edge-sobel, pixelize and unsharp-mask, after GEGL's operations of the
 * same names (box-blur has a file of its own, tl-filter-box.c).
 * unsharp-mask gives its weights to the separable convolution of
 * tl-filter-blur.c (kernels/blur.cl); edge-sobel and pixelize have their
 * own kernels in kernels/area.cl, computing the same sums in the same
 * order as their references.  Borders clamp to the
 * edge (pixelize cuts its blocks at the edge instead).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "kernels/tl-args.h"
#include "tl-error.h"
#include "tl-filter.h"
#include "tl-run.h"

/* edge-sobel */

static guint
tl_area_sobel_halo (const TlValue *values)
{
  return 1;
}

static void
tl_area_sobel_reference (const TlFilter      *filter,
                         const TlValue       *values,
                         const TlFloatPixels *pixels)
{
  gint w = pixels->width, h = pixels->height;
  gint x, y, c;

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        const gfloat *in = pixels->in;
        gsize         top    = (gsize) CLAMP (y - 1, 0, h - 1) * w;
        gsize         mid    = (gsize) y * w;
        gsize         bottom = (gsize) CLAMP (y + 1, 0, h - 1) * w;
        gsize         left   = MAX (x - 1, 0);
        gsize         right  = MIN (x + 1, w - 1);
        gfloat       *out    = pixels->out + (mid + x) * 4;

        for (c = 0; c < 3; c++)
          {
            gfloat t0 = in[(top + left) * 4 + c];
            gfloat t1 = in[(top + x) * 4 + c];
            gfloat t2 = in[(top + right) * 4 + c];
            gfloat m0 = in[(mid + left) * 4 + c];
            gfloat m2 = in[(mid + right) * 4 + c];
            gfloat b0 = in[(bottom + left) * 4 + c];
            gfloat b1 = in[(bottom + x) * 4 + c];
            gfloat b2 = in[(bottom + right) * 4 + c];
            gfloat hor, ver;

            /* Separable: the columns' vertical smoothing (1 2 1) and
             * difference (1 0 -1), combined across.  The kernel forms
             * each column's terms once, in this order.
             */
            hor = ((t2 + 2.0f * m2) + b2) - ((t0 + 2.0f * m0) + b0);
            ver = ((t0 - b0) + 2.0f * (t1 - b1)) + (t2 - b2);

            /* sqrt (32), the largest magnitude (from a 0-to-1 step),
             * divides the root: 2^-5 scales the squares exactly.
             */
            out[c] = sqrtf ((hor * hor + ver * ver) * 0.03125f);
          }
        out[3] = in[(mid + x) * 4 + 3];
      }
}

static gboolean
tl_area_sobel_cl (TlRun         *run,
                  const TlValue *values,
                  GError       **error)
{
  cl_mem    in  = tl_run_get_input (run);
  cl_mem    out = tl_run_get_output (run);
  cl_kernel kernel = tl_run_get_kernel (run, "tl_area_sobel", error);

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const gchar *const tl_area_sobel_kernels[] = { "tl_area_sobel", NULL };

const TlFilter tl_filter_edge_sobel =
{
  .name        = "edge-sobel",
  .label       = N_("Sobel Edge Detection"),
  .description = N_("Sobel edge detection in both directions, the gradient "
                    "magnitude of each color channel, alpha kept, "
                    "clamp-to-edge borders"),
  .format      = "RGBA float",
  /* The H100's sweep: 1 in float (3 ran at 72% of its speed), 4 in u8. */
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = NULL,
  .n_params    = 0,
  .program     = "area",
  .kernels     = tl_area_sobel_kernels,
  .halo        = tl_area_sobel_halo,
  .reference   = tl_area_sobel_reference,
  .run_cl      = tl_area_sobel_cl,
};

/* pixelize */

/* Blocks sit on the layer's grid, so a block may reach size - 1 pixels
 * past a region's edges on every side.
 */
static guint
tl_area_pixelize_halo (const TlValue *values)
{
  return (guint) values[0].v[0] - 1;
}

/* How far PIXELS start past the corner of the block grid's cell. */
static void
tl_area_pixelize_anchor (gint  size,
                         gint  x,
                         gint  y,
                         gint *anchor_x,
                         gint *anchor_y)
{
  *anchor_x = ((x % size) + size) % size;
  *anchor_y = ((y % size) + size) % size;
}

static gboolean
tl_area_pixelize_check (const TlFilter *filter,
                        const TlValue  *values,
                        GError        **error)
{
  if (values[0].v[0] != floor (values[0].v[0]))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: size must be a whole number of pixels, not %g"),
                   filter->name, values[0].v[0]);
      return FALSE;
    }
  return TRUE;
}

/* Each block's mean: the sum of its part of each row, then of those
 * down the block, the order of the kernels' passes (kernels/area.cl).
 */
static void
tl_area_pixelize_reference (const TlFilter      *filter,
                            const TlValue       *values,
                            const TlFloatPixels *pixels)
{
  gint w = pixels->width, h = pixels->height;
  gint size = (gint) values[0].v[0];
  gint ax, ay, bx, by, x, y, u, v, c;

  tl_area_pixelize_anchor (size, pixels->x, pixels->y, &ax, &ay);
  for (by = -ay; by < h; by += size)
    for (bx = -ax; bx < w; bx += size)
      {
        gint   x0 = MAX (bx, 0), y0 = MAX (by, 0);
        gint   x1 = MIN (bx + size, w), y1 = MIN (by + size, h);
        gfloat sum[4] = { 0, 0, 0, 0 };
        gfloat mean[4];

        for (v = y0; v < y1; v++)
          {
            gfloat row[4] = { 0, 0, 0, 0 };

            for (u = x0; u < x1; u++)
              for (c = 0; c < 4; c++)
                row[c] += pixels->in[((gsize) v * w + u) * 4 + c];
            for (c = 0; c < 4; c++)
              sum[c] += row[c];
          }
        for (c = 0; c < 4; c++)
          mean[c] = sum[c] / (gfloat) ((y1 - y0) * (x1 - x0));

        for (y = y0; y < y1; y++)
          for (x = x0; x < x1; x++)
            memcpy (pixels->out + ((gsize) y * w + x) * 4, mean, sizeof (mean));
      }
}

/* Blocks, whole or cut, along a line of LENGTH pixels from ANCHOR. */
static gint
tl_area_pixelize_blocks (gint length,
                         gint size,
                         gint anchor)
{
  return (length + anchor + size - 1) / size;
}

/* Three passes (kernels/area.cl): row parts' sums and block means (in
 * the storage) as line passes, then every pixel under the plan.
 */
static gboolean
tl_area_pixelize_cl (TlRun         *run,
                     const TlValue *values,
                     GError       **error)
{
  const TlPixels *pixels = tl_run_get_pixels (run);
  cl_int          size   = (cl_int) values[0].v[0];
  cl_int          w      = pixels->width, h = pixels->height;
  cl_mem          in     = tl_run_get_input (run);
  cl_mem          out    = tl_run_get_output (run);
  cl_kernel       rows, means, spread;
  cl_mem          sums, mean_buffer;
  gint            anchor[2];
  cl_int          ax, ay, blocks_x, blocks_y;

  tl_area_pixelize_anchor (size, pixels->x, pixels->y, &anchor[0], &anchor[1]);
  ax       = anchor[0];
  ay       = anchor[1];
  blocks_x = tl_area_pixelize_blocks (w, size, ax);
  blocks_y = tl_area_pixelize_blocks (h, size, ay);

  sums = tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                            (gsize) blocks_x * h * 4 * sizeof (gfloat), NULL,
                            error);
  mean_buffer = sums ? tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                                          (gsize) blocks_x * blocks_y *
                                          tl_run_pixel_size (run), NULL,
                                          error) : NULL;
  if (mean_buffer == NULL)
    return FALSE;

  rows = tl_run_get_kernel (run, "tl_pixelize_rows", error);
  if (rows == NULL ||
      ! tl_run_set_arg (run, rows, TL_ARG_IN, sizeof (cl_mem), &in, error) ||
      ! tl_run_set_arg (run, rows, TL_ARG_OUT, sizeof (cl_mem), &sums,
                        error) ||
      ! tl_run_set_arg (run, rows, TL_ARG_PIXELIZE_ROWS_SIZE, sizeof (cl_int),
                        &size, error) ||
      ! tl_run_set_arg (run, rows, TL_ARG_PIXELIZE_ROWS_ANCHOR_X,
                        sizeof (cl_int), &ax, error) ||
      ! tl_run_set_arg (run, rows, TL_ARG_PIXELIZE_ROWS_BLOCKS_X,
                        sizeof (cl_int), &blocks_x, error) ||
      ! tl_run_set_arg (run, rows, TL_ARG_PIXELIZE_ROWS_WIDTH, sizeof (cl_int),
                        &w, error) ||
      ! tl_run_enqueue_lines (run, rows, TL_ARG_DISPATCH, (guint) blocks_x * h,
                              error))
    return FALSE;

  means = tl_run_get_kernel (run, "tl_pixelize_means", error);
  if (means == NULL ||
      ! tl_run_set_arg (run, means, TL_ARG_IN, sizeof (cl_mem), &sums,
                        error) ||
      ! tl_run_set_arg (run, means, TL_ARG_OUT, sizeof (cl_mem), &mean_buffer,
                        error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_SIZE,
                        sizeof (cl_int), &size, error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_ANCHOR_X,
                        sizeof (cl_int), &ax, error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_ANCHOR_Y,
                        sizeof (cl_int), &ay, error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_BLOCKS_X,
                        sizeof (cl_int), &blocks_x, error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_WIDTH,
                        sizeof (cl_int), &w, error) ||
      ! tl_run_set_arg (run, means, TL_ARG_PIXELIZE_MEANS_HEIGHT,
                        sizeof (cl_int), &h, error) ||
      ! tl_run_enqueue_lines (run, means, TL_ARG_DISPATCH,
                              (guint) blocks_x * blocks_y, error))
    return FALSE;

  spread = tl_run_get_kernel (run, "tl_area_pixelize", error);
  return (spread != NULL &&
          tl_run_set_arg (run, spread, TL_ARG_IN, sizeof (cl_mem),
                          &mean_buffer, error) &&
          tl_run_set_arg (run, spread, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, spread, TL_ARG_AREA_PIXELIZE_SIZE,
                          sizeof (cl_int), &size, error) &&
          tl_run_set_arg (run, spread, TL_ARG_AREA_PIXELIZE_ANCHOR_X,
                          sizeof (cl_int), &ax, error) &&
          tl_run_set_arg (run, spread, TL_ARG_AREA_PIXELIZE_ANCHOR_Y,
                          sizeof (cl_int), &ay, error) &&
          tl_run_set_arg (run, spread, TL_ARG_AREA_PIXELIZE_BLOCKS_X,
                          sizeof (cl_int), &blocks_x, error) &&
          tl_run_enqueue (run, spread, TL_ARG_DISPATCH, error));
}

static const TlParamSpec tl_area_pixelize_params[] =
{
  {
    .name        = "size",
    .label       = N_("Block size"),
    .description = N_("Width and height of the square blocks, in whole "
                      "pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 1.0,
    .max         = 2048.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 16.0 },
    .is_length   = TRUE,
    .digits      = 0,
    .step        = 1.0,
    .ui_min      = 1.0,
    .ui_max      = 256.0,
  },
};

static const gchar *const tl_area_pixelize_kernels[] =
{
  "tl_pixelize_rows", "tl_pixelize_means", "tl_area_pixelize",
  NULL
};

const TlFilter tl_filter_pixelize =
{
  .name        = "pixelize",
  .label       = N_("Pixelize"),
  .description = N_("Simplify the image into an array of square blocks of "
                    "the mean color, in linear light; blocks sit on a grid "
                    "from the layer's corner and are cut at its edges"),
  .format      = "RaGaBaA float",
  /* The H100's sweep of the three-pass kernels: 1 in float (4 ran at
   * 55% of its speed), 2 in 8-bit storage.
   */
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 2,
  .params      = tl_area_pixelize_params,
  .n_params    = G_N_ELEMENTS (tl_area_pixelize_params),
  .program     = "area",
  .kernels     = tl_area_pixelize_kernels,
  .halo        = tl_area_pixelize_halo,
  .check       = tl_area_pixelize_check,
  .reference   = tl_area_pixelize_reference,
  .run_cl      = tl_area_pixelize_cl,
};

/* unsharp-mask */

/* Its blur is gaussian-blur's: the convolution below
 * TL_RECURSIVE_MIN_STD_DEV, the recursive filter from there up (on a
 * device without double precision the convolution throughout).
 */
static guint
tl_area_unsharp_halo (const TlValue *values)
{
  if (tl_filter_recursive_applies (values[0].v[0]))
    return TL_FILTER_HALO_WHOLE;
  return tl_filter_gaussian_radius (values[0].v[0]);
}

static void
tl_area_unsharp_reference (const TlFilter      *filter,
                           const TlValue       *values,
                           const TlFloatPixels *pixels)
{
  gfloat             scale = values[1].v[0];
  gint               radius, c;
  gsize              i, n = (gsize) pixels->width * pixels->height;
  g_autofree gfloat *weights = NULL;

  /* The blurred image goes to out, then out = in + scale (in - out). */
  if (tl_filter_recursive_takes (values[0].v[0], pixels))
    tl_filter_recursive_reference (values[0].v[0], pixels);
  else
    {
      weights = tl_filter_gaussian_weights (values[0].v[0], &radius);
      tl_filter_convolve_reference (weights, radius, pixels);
    }

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      for (c = 0; c < 3; c++)
        out[c] = in[c] + scale * (in[c] - out[c]);
      out[3] = in[3];
    }
}

typedef struct
{
  cl_mem   in;
  cl_float scale;
} TlUnsharpArgs;

/* The vertical pass's sharpening arguments, TL_ARG_UNSHARP_*: the
 * unblurred input and the scale.
 */
static gboolean
tl_area_unsharp_args (TlRun         *run,
                      cl_kernel      kernel,
                      gconstpointer  data,
                      GError       **error)
{
  const TlUnsharpArgs *args = data;

  return (tl_run_set_arg (run, kernel, TL_ARG_UNSHARP_IN, sizeof (cl_mem),
                          &args->in, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_UNSHARP_SCALE, sizeof (cl_float),
                          &args->scale, error));
}

/* The recursive blur into a scratch image, then a pass that sharpens
 * the layer by it under the plan.
 */
static gboolean
tl_area_unsharp_recursive_cl (TlRun         *run,
                              const TlValue *values,
                              GError       **error)
{
  cl_float  scale  = values[1].v[0];
  cl_mem    in     = tl_run_get_input (run);
  cl_mem    out    = tl_run_get_output (run);
  cl_mem    blurred;
  cl_kernel kernel;

  if (! tl_filter_recursive_blur_cl (run, values[0].v[0], &blurred, error))
    return FALSE;
  kernel = tl_run_get_kernel (run, "tl_unsharp_combine", error);
  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_UNSHARP_COMBINE_BLURRED,
                          sizeof (cl_mem), &blurred, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_UNSHARP_COMBINE_SCALE,
                          sizeof (cl_float), &scale, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

/* The convolution's vertical pass does the sharpening too. */
static gboolean
tl_area_unsharp_cl (TlRun         *run,
                    const TlValue *values,
                    GError       **error)
{
  gint               radius;
  g_autofree gfloat *weights = NULL;
  TlUnsharpArgs      args    = { tl_run_get_input (run), values[1].v[0] };

  if (tl_filter_recursive_applies (values[0].v[0]) &&
      tl_filter_recursive_supported (tl_run_get_context (run)))
    return tl_area_unsharp_recursive_cl (run, values, error);

  weights = tl_filter_gaussian_weights (values[0].v[0], &radius);
  return tl_filter_convolve_cl (run, weights, radius, "tl_unsharp",
                                tl_area_unsharp_args, &args, error);
}

static const TlParamSpec tl_area_unsharp_params[] =
{
  {
    .name        = "std-dev",
    .label       = N_("Radius"),
    .description = N_("Standard deviation of the Gaussian, in pixels"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 1500.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 3.0 },
    .is_length   = TRUE,
    .digits      = 2,
    .step        = 0.1,
    .ui_min      = 0.0,
    .ui_max      = 100.0,
  },
  {
    .name        = "scale",
    .label       = N_("Amount"),
    .description = N_("Scaling factor for unsharp-mask, the strength of "
                      "effect"),
    .type        = TL_PARAM_DOUBLE,
    .min         = 0.0,
    .max         = 300.0,
    .n_min       = 1,
    .n_max       = 1,
    .n_default   = 1,
    .defaults    = { 0.5 },
    .digits      = 3,
    .step        = 0.01,
    .ui_min      = 0.0,
    .ui_max      = 10.0,
  },
};

static const gchar *const tl_area_unsharp_kernels[] = { "tl_unsharp_2d", NULL };

const TlFilter tl_filter_unsharp_mask =
{
  .name        = "unsharp-mask",
  .label       = N_("Sharpen (Unsharp Mask)"),
  .description = N_("Sharpen by adding the difference from a Gaussian blur, "
                    "in linear light, clamp-to-edge borders"),
  .format      = "RaGaBaA float",
  .default_pixels_per_item = 1,
  .reads_block = TRUE,
  .params      = tl_area_unsharp_params,
  .n_params    = G_N_ELEMENTS (tl_area_unsharp_params),
  .program     = "blur",
  .kernels     = tl_area_unsharp_kernels,
  .halo        = tl_area_unsharp_halo,
  .reference   = tl_area_unsharp_reference,
  .run_cl      = tl_area_unsharp_cl,
};
