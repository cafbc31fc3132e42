/* ThreadLens: point filters (invert, color-matrix), C reference beside the
 * OpenCL path.
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

/* Row-major 4x4 plus an offset column, from 16 or 20 numbers. */
static void
tl_point_matrix (const TlValue *value,
                 gfloat         matrix[16],
                 gfloat         offset[4])
{
  guint row, col;
  guint columns = value->n == 20 ? 5 : 4;

  for (row = 0; row < 4; row++)
    {
      for (col = 0; col < 4; col++)
        matrix[row * 4 + col] = value->v[row * columns + col];
      offset[row] = columns == 5 ? value->v[row * columns + 4] : 0.0f;
    }
}

static void
tl_point_invert_reference (const TlFilter      *filter,
                           const TlValue       *values,
                           const TlFloatPixels *pixels)
{
  gsize i, n = (gsize) pixels->width * pixels->height;

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      out[0] = 1.0f - in[0];
      out[1] = 1.0f - in[1];
      out[2] = 1.0f - in[2];
      out[3] = in[3];
    }
}

static gboolean
tl_point_invert_cl (TlRun         *run,
                    const TlValue *values,
                    GError       **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, "tl_invert", error);
  cl_mem    in     = tl_run_get_input (run);
  cl_mem    out    = tl_run_get_output (run);

  return (kernel &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static void
tl_point_color_matrix_reference (const TlFilter      *filter,
                                 const TlValue       *values,
                                 const TlFloatPixels *pixels)
{
  gfloat m[16], offset[4];
  gsize  i, n = (gsize) pixels->width * pixels->height;
  guint  row;

  tl_point_matrix (&values[0], m, offset);

  for (i = 0; i < n; i++)
    {
      const gfloat *in  = pixels->in + i * 4;
      gfloat       *out = pixels->out + i * 4;

      /* Fused multiply-adds from the offset, the kernel's order. */
      for (row = 0; row < 4; row++)
        out[row] = fmaf (m[row * 4 + 3], in[3],
                         fmaf (m[row * 4 + 2], in[2],
                               fmaf (m[row * 4 + 1], in[1],
                                     fmaf (m[row * 4 + 0], in[0], offset[row]))));
    }
}

static gboolean
tl_point_color_matrix_cl (TlRun         *run,
                          const TlValue *values,
                          GError       **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, "tl_color_matrix", error);
  cl_mem    in     = tl_run_get_input (run);
  cl_mem    out    = tl_run_get_output (run);
  cl_float  matrix[16], offset[4];

  tl_point_matrix (&values[0], matrix, offset);

  return (kernel &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_COLOR_MATRIX_M, sizeof (matrix),
                          matrix, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_COLOR_MATRIX_OFFSET,
                          sizeof (offset), offset, error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

static const gchar *const tl_point_invert_kernels[] = { "tl_invert", NULL };
static const gchar *const tl_point_color_matrix_kernels[] = { "tl_color_matrix", NULL };

const TlFilter tl_filter_invert =
{
  .name        = "invert",
  .label       = N_("Invert"),
  .description = N_("Perceptual invert: 1 - v on R'G'B', alpha kept"),
  .format      = "R'G'B'A float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = NULL,
  .n_params    = 0,
  .program     = "point",
  .kernels     = tl_point_invert_kernels,
  .reference   = tl_point_invert_reference,
  .run_cl      = tl_point_invert_cl,
};

static const TlParamSpec tl_point_color_matrix_params[] =
{
  {
    .name        = "matrix",
    .label       = N_("Matrix"),
    .description = N_("Row-major 4x4 matrix on linear RGBA (16 numbers), or "
                      "4x5 with an offset column (20 numbers)"),
    .type        = TL_PARAM_VECTOR,
    .min         = -100.0,
    .max         = 100.0,
    .n_min       = 16,
    .n_max       = 20,
    .n_default   = 16,
    .defaults    = { 1, 0, 0, 0,
                     0, 1, 0, 0,
                     0, 0, 1, 0,
                     0, 0, 0, 1 },
  },
};

static gboolean
tl_point_color_matrix_check (const TlFilter *filter,
                             const TlValue  *values,
                             GError        **error)
{
  if (values[0].n != 16 && values[0].n != 20)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("color-matrix: matrix takes 16 or 20 numbers, not %u"),
                   values[0].n);
      return FALSE;
    }
  return TRUE;
}

const TlFilter tl_filter_color_matrix =
{
  .name        = "color-matrix",
  .label       = N_("Color Matrix"),
  .description = N_("Multiply each linear RGBA pixel by a 4x4 matrix, plus an "
                    "optional offset"),
  .format      = "RGBA float",
  .default_pixels_per_item = 1,
  .narrow_pixels_per_item  = 4,
  .params      = tl_point_color_matrix_params,
  .n_params    = G_N_ELEMENTS (tl_point_color_matrix_params),
  .program     = "point",
  .kernels     = tl_point_color_matrix_kernels,
  .check       = tl_point_color_matrix_check,
  .reference   = tl_point_color_matrix_reference,
  .run_cl      = tl_point_color_matrix_cl,
};
