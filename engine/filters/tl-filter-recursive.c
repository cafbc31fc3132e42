/* ThreadLens: the recursive Gaussian, whose cost does not grow with the
 * standard deviation.
 *
 * A third-order recursive filter (Young and van Vliet's coefficients) runs
 * forward then backward along every row, then along every column, in
 * double precision: at large standard deviations its gain B falls to
 * 1e-5 and below, where single precision would drown the input in the
 * rounding of the state.  Borders clamp to the edge, as the convolution's
 * do: the forward pass starts from the steady state of the first pixel,
 * and the backward pass from the exact continuation of the forward pass
 * over a constant extension by the last pixel (the matrix M below).
 *
 * One work-item filters a whole line (on a GPU, one channel of it: the
 * channels never mix), so every pixel of the line gets the same
 * arithmetic whatever the dispatch; the C reference below does the
 * same operations in the same order, and those kernels (kernels/blur.cl,
 * tl_recursive_*) equal it bit for bit.  On a GPU a work-group takes each
 * row in segments whose starts are carried in double precision
 * (tl_recursive_group_rows), the same to a rounding of doubles, so within
 * a rounding of the reference.  Against the exact convolution it is an
 * approximation, measured in the README.  In 8-bit storage the
 * values between the sweeps are halves (tl_filter_scratch_half ()), here
 * as in the kernels.
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

/* B, the feedback a1..a3, then M row by row: as the kernels read them. */
#define TL_RECURSIVE_N_COEFS 13

static void
tl_recursive_coefficients (gdouble  std_dev,
                           gdouble *coef)
{
  gdouble q  = std_dev >= 2.5 ? 0.98711 * std_dev - 0.96330
                              : 3.97156 - 4.14554 * sqrt (1.0 - 0.26891 * std_dev);
  gdouble b0 = 1.57825 + 2.44413 * q + 1.4281 * q * q + 0.422205 * q * q * q;
  gdouble a1 = (2.44413 * q + 2.85619 * q * q + 1.26661 * q * q * q) / b0;
  gdouble a2 = -(1.4281 * q * q + 1.26661 * q * q * q) / b0;
  gdouble a3 = 0.422205 * q * q * q / b0;
  gint    steps = 64 * (gint) ceil (std_dev) + 256;
  gint    j;

  coef[0] = 1.0 - (a1 + a2 + a3);
  coef[1] = a1;
  coef[2] = a2;
  coef[3] = a3;

  /* M maps the forward state's distance from the last pixel u at the
   * line's end, (w[N-1], w[N-2], w[N-3]) - u, to the backward pass's
   * first three values beyond it, (y[N], y[N+1], y[N+2]) - u.  Both are
   * linear, so M is found by running the two passes over the extension
   * (where the input is u and the distances obey the bare recursion) for
   * each unit state, far enough that the rest has decayed to nothing.
   */
  for (j = 0; j < 3; j++)
    {
      g_autofree gdouble *d = g_new0 (gdouble, steps + 3);
      gdouble             e[3] = { 0.0, 0.0, 0.0 };
      gint                n;

      d[2 - j] = 1.0;                   /* d[0..2]: w[N-3..N-1] */
      for (n = 3; n < steps + 3; n++)
        d[n] = a1 * d[n - 1] + a2 * d[n - 2] + a3 * d[n - 3];
      for (n = steps + 2; n >= 3; n--)
        {
          gdouble y = coef[0] * d[n] + a1 * e[0] + a2 * e[1] + a3 * e[2];

          e[2] = e[1];
          e[1] = e[0];
          e[0] = y;
          /* e now holds y[n], y[n+1], y[n+2]: at n = 3, those past N - 1. */
        }
      coef[4 + 0 * 3 + j] = e[0];
      coef[4 + 1 * 3 + j] = e[1];
      coef[4 + 2 * 3 + j] = e[2];
    }
}

/* Whether gaussian-blur at STD_DEV takes the recursive filter: from here
 * up it is several times faster than the convolution on CPUs and at most
 * 1.5 ms slower on the GPU measured (README); one rule for every device
 * keeps a layer's pixels the same on every device.
 */
gboolean
tl_filter_recursive_applies (gdouble std_dev)
{
  return std_dev >= TL_RECURSIVE_MIN_STD_DEV;
}

/* One step of either pass: the newest state last, each state's term
 * added by a fused multiply-add, so that a step's chain is one operation
 * long (kernels/blur.cl, TL_RECURSIVE_STEP).
 */
static inline gdouble
tl_recursive_step (const gdouble *coef,
                   gfloat         x,
                   gdouble        s1,
                   gdouble        s2,
                   gdouble        s3)
{
  return fma (coef[1], s1, fma (coef[2], s2, fma (coef[3], s3,
                                                  coef[0] * (gdouble) x)));
}

/* V as the scratch image keeps it: a half where HALF says so. */
static inline gfloat
tl_recursive_keep (gfloat   v,
                   gboolean half)
{
  return half ? tl_codec_half_round (v) : v;
}

/* One line of LENGTH values, STEP floats apart (4 channels each), in
 * place: forward, then backward from the clamp-to-edge continuation.
 * The kernels repeat these operations in this order; the newest state
 * comes last, so the sums of older ones are ready before it is.  With
 * HALF every value read and written is a half, as the kernels' scratch
 * image holds it.
 */
static void
tl_recursive_line (const gdouble *coef,
                   const gfloat  *in,
                   gfloat        *out,
                   gsize          step,
                   gint           length,
                   gboolean       half)
{
  gint c, n;

  for (c = 0; c < 4; c++)
    {
      gdouble u  = tl_recursive_keep (in[(gsize) (length - 1) * step + c],
                                      half);
      gdouble w1 = tl_recursive_keep (in[c], half), w2 = w1, w3 = w1;
      gdouble d0, d1, d2, y1, y2, y3;

      for (n = 0; n < length; n++)
        {
          gdouble w = tl_recursive_step (coef,
                                         tl_recursive_keep (in[(gsize) n * step + c],
                                                            half),
                                         w1, w2, w3);

          out[(gsize) n * step + c] = tl_recursive_keep ((gfloat) w, half);
          w3 = w2;
          w2 = w1;
          w1 = w;
        }

      d0 = w1 - u;
      d1 = w2 - u;
      d2 = w3 - u;
      y1 = coef[4] * d0 + coef[5] * d1 + coef[6] * d2 + u;
      y2 = coef[7] * d0 + coef[8] * d1 + coef[9] * d2 + u;
      y3 = coef[10] * d0 + coef[11] * d1 + coef[12] * d2 + u;

      for (n = length - 1; n >= 0; n--)
        {
          gdouble y = tl_recursive_step (coef, out[(gsize) n * step + c],
                                         y1, y2, y3);

          out[(gsize) n * step + c] = tl_recursive_keep ((gfloat) y, half);
          y3 = y2;
          y2 = y1;
          y1 = y;
        }
    }
}

/* Rows, then columns, into PIXELS->out. */
void
tl_filter_recursive_reference (gdouble              std_dev,
                               const TlFloatPixels *pixels)
{
  gint    w = pixels->width, h = pixels->height;
  gdouble coef[TL_RECURSIVE_N_COEFS];
  gint    x, y;

  tl_recursive_coefficients (std_dev, coef);
  for (y = 0; y < h; y++)
    tl_recursive_line (coef, pixels->in + (gsize) y * w * 4,
                       pixels->out + (gsize) y * w * 4, 4, w,
                       pixels->scratch_half);
  for (x = 0; x < w; x++)
    tl_recursive_line (coef, pixels->out + (gsize) x * 4,
                       pixels->out + (gsize) x * 4, (gsize) w * 4, h,
                       pixels->scratch_half);
}

/* Whether CONTEXT's device computes in double precision. */
gboolean
tl_filter_recursive_supported (TlContext *context)
{
  return tl_context_get_device (context)->fp64;
}

/* Whether the C reference on PIXELS blurs at STD_DEV with the recursive
 * filter: not where it stands for a device that convolves instead.
 */
gboolean
tl_filter_recursive_takes (gdouble              std_dev,
                           const TlFloatPixels *pixels)
{
  return tl_filter_recursive_applies (std_dev) && ! pixels->convolve;
}

/* KERNEL over LINES lines of LENGTH pixels, PITCH pixels from one line's
 * start to the next's and STEP between a line's pixels, ITEMS_PER_LINE
 * work-items a line.
 */
static gboolean
tl_recursive_pass (TlRun       *run,
                   const gchar *kernel_name,
                   cl_mem       in,
                   cl_mem       out,
                   cl_mem       coef,
                   guint        lines,
                   guint        items_per_line,
                   cl_int       length,
                   cl_int       pitch,
                   cl_int       step,
                   GError     **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, kernel_name, error);

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_COEF, sizeof (cl_mem),
                          &coef, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_LENGTH,
                          sizeof (cl_int), &length, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_PITCH, sizeof (cl_int),
                          &pitch, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_STEP, sizeof (cl_int),
                          &step, error) &&
          tl_run_enqueue_lines (run, kernel, TL_ARG_DISPATCH,
                                items_per_line * lines, error));
}

/* KERNEL from IN to OUT under the filter's plan: storage to working
 * floats or back.  (A pixel an item in one long row of line-sized groups
 * took 0.7 ms each way on the H100 at 4096x4096, fourteen copies' time.)
 */
static gboolean
tl_recursive_convert (TlRun        *run,
                      const gchar  *kernel_name,
                      cl_mem        in,
                      cl_mem        out,
                      GError      **error)
{
  cl_kernel kernel = tl_run_get_kernel (run, kernel_name, error);

  return (kernel != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &out,
                          error) &&
          tl_run_enqueue (run, kernel, TL_ARG_DISPATCH, error));
}

/* How the work is laid out on the device: an item a line (its four
 * channels as vectors), an item a channel of a line, or a group a row
 * kept in local memory (or a part of its channels) and then an item a
 * channel of a column.
 */
typedef enum
{
  TL_RECURSIVE_LINE_ITEMS,
  TL_RECURSIVE_CHANNEL_ITEMS,
  TL_RECURSIVE_LINE_GROUPS
} TlRecursiveLayout;

/* The device's layout: on a CPU an item a line (four items a line ran
 * 2.7 times slower on PoCL), elsewhere groups for the rows, where a row
 * fits local memory (tl_recursive_group_channels ()), else an item a
 * channel (on the H100, 1.6 times as fast as an item a line); and at
 * most *GROUP_CHANNELS channels a group.  THREADLENS_RECURSIVE_ITEMS
 * ("line", "channel", "group", or "group-2" for two channels a group at
 * most) overrides the device's rule, so that tests run every kernel on
 * one device.  The items' layouts give the same bits, the groups' the
 * same but for a rounding (kernels/blur.cl, tl_recursive_group_rows).
 */
static gboolean
tl_recursive_layout (TlContext          *context,
                     TlRecursiveLayout  *layout,
                     gint               *group_channels,
                     GError            **error)
{
  const gchar *setting = g_getenv ("THREADLENS_RECURSIVE_ITEMS");

  *group_channels = 4;
  if (setting == NULL || *setting == '\0')
    *layout = (tl_context_get_device (context)->type & CL_DEVICE_TYPE_CPU) ?
              TL_RECURSIVE_LINE_ITEMS : TL_RECURSIVE_LINE_GROUPS;
  else if (g_str_equal (setting, "line"))
    *layout = TL_RECURSIVE_LINE_ITEMS;
  else if (g_str_equal (setting, "channel"))
    *layout = TL_RECURSIVE_CHANNEL_ITEMS;
  else if (g_str_equal (setting, "group") || g_str_equal (setting, "group-2"))
    {
      *layout         = TL_RECURSIVE_LINE_GROUPS;
      *group_channels = g_str_equal (setting, "group") ? 4 : 2;
    }
  else
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("THREADLENS_RECURSIVE_ITEMS is '%s'; it takes 'line', "
                     "'channel', 'group' or 'group-2'"), setting);
      return FALSE;
    }
  return TRUE;
}

/* The values a group's item filters as one segment of a row
 * (kernels/blur.cl, tl_recursive_group_rows) for pixels stored as CODEC
 * says: fixed, so that every dispatch gives the same bits.  Of 64, 128
 * and 256 on the H100 at 4096x4096, 128 was the fastest in 8-bit
 * storage and float (row pass 0.32 and 0.45 ms, against 0.43 and 0.47
 * at 64) and 64 in 16-bit storage (0.49 ms, against 0.55 at 128).
 * THREADLENS_RECURSIVE_SEGMENT (a power of two from 4 to 4096) overrides
 * it, so that the tests' small images have segments.
 */
static gboolean
tl_recursive_segment (const TlCodec  *codec,
                      gint           *segment,
                      GError        **error)
{
  const gchar *setting = g_getenv ("THREADLENS_RECURSIVE_SEGMENT");
  gint64       value   = codec && tl_codec_get_storage (codec) ==
                                  TL_STORAGE_U16 ? 64 : 128;

  if (setting && *setting)
    {
      gchar *end = NULL;

      value = g_ascii_strtoll (setting, &end, 10);
      if (*end != '\0' || value < 4 || value > 4096 || (value & (value - 1)))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("THREADLENS_RECURSIVE_SEGMENT is '%s'; it takes a "
                         "power of two from 4 to 4096"), setting);
          return FALSE;
        }
    }
  *segment = (gint) value;
  return TRUE;
}

/* The bytes of local memory a group takes for CHANNELS channels of a
 * line of LENGTH values VALUE bytes each: each channel's values with one
 * 32-bit word more after each segment and one at the end (TL_GROUP_PAD,
 * TL_GROUP_AT), then its carries (TL_GROUP_CARRIES).
 */
static guint64
tl_recursive_group_bytes (gint     length,
                          gsize    value,
                          gint     channels,
                          gint     segment,
                          guint64 *line_bytes)
{
  gint segments = (length + segment - 1) / segment;

  *line_bytes = ((guint64) length + (segments + 1) * (4 / value)) * value *
                channels;
  return *line_bytes + (8 + 6 * (guint64) segments) * sizeof (gdouble) *
                       channels;
}

/* The channels of a line of LENGTH values VALUE bytes each, in segments
 * of SEGMENT, that one group keeps in CONTEXT's local memory: four, two
 * or one, at most MOST, or 0 where not even one fits.
 */
static gint
tl_recursive_group_channels (TlContext *context,
                             gint       length,
                             gsize      value,
                             gint       segment,
                             gint       most)
{
  const TlDevice *device = tl_context_get_device (context);
  guint64         line;
  gint            channels;

  for (channels = most; channels >= 1; channels /= 2)
    if (tl_recursive_group_bytes (length, value, channels, segment, &line) <=
        device->local_mem_size)
      return channels;
  return 0;
}

/* The bare recursion carried N values on, as a 3x3 matrix row by row
 * into POWER: the state (newest first) it maps is the one N steps back.
 */
static void
tl_recursive_power (const gdouble *coef,
                    gint           n,
                    gdouble       *power)
{
  gint j, k;

  memset (power, 0, 9 * sizeof (gdouble));
  power[0] = power[4] = power[8] = 1.0;
  for (k = 0; k < n; k++)
    for (j = 0; j < 3; j++)
      {
        gdouble newest = coef[1] * power[j] + coef[2] * power[3 + j] +
                         coef[3] * power[6 + j];

        /* The older rows shift down; the newest is the recursion's. */
        power[6 + j] = power[3 + j];
        power[3 + j] = power[j];
        power[j]     = newest;
      }
}

/* The row pass of the group layout from IN into the scratch image TMP:
 * CHANNELS of each row's channels a group, in segments of SEGMENT.
 */
static gboolean
tl_recursive_group_rows (TlRun         *run,
                         cl_mem         in,
                         cl_mem         tmp,
                         cl_mem         coef,
                         const gdouble *taps,
                         cl_int         channels,
                         cl_int         segment,
                         gsize          value,
                         GError       **error)
{
  const TlPixels *pixels   = tl_run_get_pixels (run);
  cl_int          length   = pixels->width;
  gint            segments = (length + segment - 1) / segment;
  cl_kernel       kernel   = tl_run_get_kernel (run, "tl_recursive_group_rows",
                                                error);
  guint64         line, all = tl_recursive_group_bytes (length, value,
                                                        channels, segment,
                                                        &line);
  gdouble         powers[18];
  cl_mem          powers_buffer;

  if (kernel == NULL)
    return FALSE;
  tl_recursive_power (taps, segment, powers);
  tl_recursive_power (taps, length - (segments - 1) * segment, powers + 9);
  powers_buffer = tl_run_new_buffer (run, CL_MEM_READ_ONLY, sizeof (powers),
                                     powers, error);

  return (powers_buffer != NULL &&
          tl_run_set_arg (run, kernel, TL_ARG_IN, sizeof (cl_mem), &in,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_OUT, sizeof (cl_mem), &tmp,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_COEF, sizeof (cl_mem),
                          &coef, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_LENGTH,
                          sizeof (cl_int), &length, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_RECURSIVE_PITCH, sizeof (cl_int),
                          &length, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_GROUP_ROWS_CHANNELS,
                          sizeof (cl_int), &channels, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_GROUP_ROWS_SEGMENT,
                          sizeof (cl_int), &segment, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_GROUP_ROWS_POWERS,
                          sizeof (cl_mem), &powers_buffer, error) &&
          tl_run_set_arg (run, kernel, TL_ARG_GROUP_ROWS_LINE, line, NULL,
                          error) &&
          tl_run_set_arg (run, kernel, TL_ARG_GROUP_ROWS_CARRIES, all - line,
                          NULL, error) &&
          tl_run_enqueue_line_groups (run, kernel, TL_ARG_DISPATCH,
                                      pixels->height * (4 / channels),
                                      channels * segments, error));
}

/* The bytes of a value in the scratch image: working floats, or halves
 * for 8-bit storage (kernels/blur.cl, TL_SCRATCH_HALF).
 */
static gsize
tl_recursive_value_size (const TlPixels *pixels)
{
  return tl_filter_scratch_half (pixels->codec) ? sizeof (guint16) :
                                                  sizeof (gfloat);
}

/* The scratch image for the run: working floats, or halves for 8-bit
 * storage (tl_filter_scratch_half ()).
 */
cl_mem
tl_filter_blur_scratch_new (TlRun   *run,
                            GError **error)
{
  const TlPixels *pixels = tl_run_get_pixels (run);
  gsize           value  = tl_recursive_value_size (pixels);

  return tl_run_new_buffer (run, CL_MEM_READ_WRITE,
                            (gsize) pixels->width * pixels->height * 4 * value,
                            NULL, error);
}

/* Rows, then columns, from the run's input through the scratch image
 * TMP, into the run's output (TO_STORAGE) or into TMP.
 * An item a line decodes the storage itself, its four channels as
 * vectors, and encodes it in the column pass into the output; items a
 * channel work on the scratch image only, and narrow storage gets a pass
 * of its own each way, since four items of a pixel cannot encode it
 * alone; a group a row decodes the storage itself, so only the encoding
 * keeps its pass.
 */
static gboolean
tl_recursive_passes (TlRun     *run,
                     gdouble    std_dev,
                     cl_mem     tmp,
                     gboolean   to_storage,
                     GError   **error)
{
  const TlPixels *pixels = tl_run_get_pixels (run);
  TlContext      *context = tl_run_get_context (run);
  gboolean        narrow = tl_codec_is_narrow (pixels->codec);
  cl_mem          in     = tl_run_get_input (run);
  cl_mem          out    = to_storage ? tl_run_get_output (run) : tmp;
  cl_int          w      = pixels->width, h = pixels->height;
  gdouble         coef[TL_RECURSIVE_N_COEFS];
  cl_mem          taps;
  gsize           value  = tl_recursive_value_size (pixels);
  TlRecursiveLayout layout;
  gint            group_channels, row_channels, segment;

  if (! tl_recursive_layout (context, &layout, &group_channels, error) ||
      ! tl_recursive_segment (pixels->codec, &segment, error))
    return FALSE;

  tl_recursive_coefficients (std_dev, coef);
  taps = tl_run_new_buffer (run, CL_MEM_READ_ONLY, sizeof (coef), coef,
                            error);
  if (taps == NULL)
    return FALSE;

  /* The column kernels take four neighbouring columns an item. */
  if (layout == TL_RECURSIVE_LINE_ITEMS)
    return (tl_recursive_pass (run, "tl_recursive_rows", in, tmp, taps,
                               h, 1, w, w, 1, error) &&
            tl_recursive_pass (run, to_storage ? "tl_recursive_columns"
                                               : "tl_recursive_lines",
                               tmp, out, taps, (w + 3) / 4, 1, h, 1, w,
                               error));

  /* Groups take the rows, decoding the storage as they read it, where
   * a row fits local memory; the channel items the columns.
   */
  if (layout == TL_RECURSIVE_LINE_GROUPS &&
      (row_channels = tl_recursive_group_channels (context, w, value,
                                                   segment,
                                                   group_channels)) > 0)
    return (tl_recursive_group_rows (run, in, tmp, taps, coef, row_channels,
                                     segment, value, error) &&
            tl_recursive_pass (run, "tl_recursive_channels", tmp,
                               narrow ? tmp : out, taps, w, 4, h, 1, w,
                               error) &&
            (! narrow || ! to_storage ||
             tl_recursive_convert (run, "tl_recursive_store", tmp, out,
                                   error)));

  return ((! narrow ||
           tl_recursive_convert (run, "tl_recursive_decode", in, tmp, error)) &&
          tl_recursive_pass (run, "tl_recursive_channels", narrow ? tmp : in,
                             tmp, taps, h, 4, w, w, 1, error) &&
          tl_recursive_pass (run, "tl_recursive_channels", tmp,
                             narrow ? tmp : out, taps, w, 4, h, 1, w, error) &&
          (! narrow || ! to_storage ||
           tl_recursive_convert (run, "tl_recursive_store", tmp, out, error)));
}

/* The recursive Gaussian of the run's input into its output. */
gboolean
tl_filter_recursive_cl (TlRun    *run,
                        gdouble   std_dev,
                        GError  **error)
{
  cl_mem tmp = tl_filter_blur_scratch_new (run, error);

  return tmp != NULL && tl_recursive_passes (run, std_dev, tmp, TRUE, error);
}

/* The recursive Gaussian of the run's input into *BLURRED, a scratch
 * image the run keeps (working floats, or halves as above): for a filter
 * that needs the blur beside its input (unsharp-mask).
 */
gboolean
tl_filter_recursive_blur_cl (TlRun    *run,
                             gdouble   std_dev,
                             cl_mem   *blurred,
                             GError  **error)
{
  *blurred = tl_filter_blur_scratch_new (run, error);

  return (*blurred != NULL &&
          tl_recursive_passes (run, std_dev, *blurred, FALSE, error));
}
