/* ThreadLens: the filter registry.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-error.h"
#include "tl-filter.h"

#define TL_FILTER_CPU_NARROW_PIXELS_PER_ITEM     4
#define TL_FILTER_CPU_FLOAT_PIXELS_PER_ITEM      2
#define TL_FILTER_CPU_FLOAT_AREA_PIXELS_PER_ITEM 4

static const TlFilter *const tl_filters[] =
{
  &tl_filter_invert,
  &tl_filter_color_matrix,
  &tl_filter_gaussian_blur,
  &tl_filter_brightness_contrast,
  &tl_filter_threshold,
  &tl_filter_mono_mixer,
  &tl_filter_sepia,
  &tl_filter_box_blur,
  &tl_filter_edge_sobel,
  &tl_filter_pixelize,
  &tl_filter_unsharp_mask,
  &tl_filter_posterize,
  &tl_filter_bilateral_filter,
  &tl_filter_snn_mean,
  &tl_filter_mean_curvature_blur,
  &tl_filter_motion_blur_linear,
  &tl_filter_difference_of_gaussians,
  &tl_filter_high_pass,
  &tl_filter_noise_reduction,
  &tl_filter_median_blur,
};

const TlFilter *const *
tl_filter_list (guint *n_filters)
{
  if (n_filters)
    *n_filters = G_N_ELEMENTS (tl_filters);

  return tl_filters;
}

const TlFilter *
tl_filter_lookup (const gchar *name,
                  GError     **error)
{
  g_autoptr(GString) known = g_string_new (NULL);
  guint              i;

  g_return_val_if_fail (name != NULL, NULL);

  for (i = 0; i < G_N_ELEMENTS (tl_filters); i++)
    {
      if (strcmp (tl_filters[i]->name, name) == 0)
        return tl_filters[i];
      g_string_append_printf (known, "%s%s", i ? ", " : "", tl_filters[i]->name);
    }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown filter '%s' (filters: %s)"), name, known->str);
  return NULL;
}

const TlParamSpec *
tl_filter_find_param (const TlFilter *filter,
                      const gchar    *name,
                      guint          *index)
{
  guint i;

  g_return_val_if_fail (filter != NULL && name != NULL, NULL);

  for (i = 0; i < filter->n_params; i++)
    if (strcmp (filter->params[i].name, name) == 0)
      {
        if (index)
          *index = i;
        return &filter->params[i];
      }

  return NULL;
}

TlValue *
tl_filter_default_values (const TlFilter *filter)
{
  TlValue *values;
  guint    i;

  g_return_val_if_fail (filter != NULL, NULL);

  values = g_new0 (TlValue, MAX (1, filter->n_params));
  for (i = 0; i < filter->n_params; i++)
    {
      values[i].n = filter->params[i].n_default;
      memcpy (values[i].v, filter->params[i].defaults,
              sizeof (gdouble) * values[i].n);
    }

  return values;
}

static gboolean
tl_filter_check_number (const TlFilter    *filter,
                        const TlParamSpec *spec,
                        gdouble            value,
                        GError           **error)
{
  if (! isfinite (value) || value < spec->min || value > spec->max)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: %s = %g is out of range [%g, %g]"),
                   filter->name, spec->name, value, spec->min, spec->max);
      return FALSE;
    }
  return TRUE;
}

/* TEXT is one number, or for vectors numbers separated by commas or
 * spaces.  VALUES is left unchanged on error.
 */
gboolean
tl_filter_set_value (const TlFilter *filter,
                     TlValue        *values,
                     const gchar    *name,
                     const gchar    *text,
                     GError        **error)
{
  const TlParamSpec *spec;
  g_auto(GStrv)      parts = NULL;
  TlValue            value = { 0 };
  guint              index, i;

  g_return_val_if_fail (filter != NULL && values != NULL, FALSE);
  g_return_val_if_fail (name != NULL && text != NULL, FALSE);

  spec = tl_filter_find_param (filter, name, &index);
  if (spec == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (i = 0; i < filter->n_params; i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "",
                                filter->params[i].name);
      /* TRANSLATORS: the last %s lists the filter's parameters, or is
       * "none".
       */
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s has no parameter '%s' (parameters: %s)"), filter->name,
                   name, filter->n_params ? known->str : _("none"));
      return FALSE;
    }

  parts = g_strsplit_set (text, ", \t", -1);
  for (i = 0; parts[i]; i++)
    {
      gchar  *end;
      gdouble number;

      if (parts[i][0] == '\0')
        continue;

      number = g_ascii_strtod (parts[i], &end);
      if (*end != '\0' || end == parts[i])
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       _("%s: %s: '%s' is not a number"), filter->name,
                       spec->name, parts[i]);
          return FALSE;
        }
      if (value.n == TL_VALUE_MAX || value.n == spec->n_max)
        {
          value.n = spec->n_max + 1;
          break;
        }
      if (! tl_filter_check_number (filter, spec, number, error))
        return FALSE;
      value.v[value.n++] = number;
    }

  if (value.n < spec->n_min || value.n > spec->n_max)
    {
      /* TRANSLATORS: FILTER: PARAMETER takes N numbers, not M (or "not
       * more than M" where more were given).
       */
      if (spec->n_min == spec->n_max && value.n > spec->n_max)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "%s: %s takes %u number, not more than %u",
                                  "%s: %s takes %u numbers, not more than %u",
                                  spec->n_min),
                     filter->name, spec->name, spec->n_min, spec->n_max);
      else if (spec->n_min == spec->n_max)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                     g_dngettext (GETTEXT_PACKAGE,
                                  "%s: %s takes %u number, not %u",
                                  "%s: %s takes %u numbers, not %u",
                                  spec->n_min),
                     filter->name, spec->name, spec->n_min, value.n);
      else if (value.n > spec->n_max)
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                     _("%s: %s takes %u or %u numbers, not more than %u"),
                     filter->name, spec->name, spec->n_min, spec->n_max,
                     spec->n_max);
      else
        g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                     _("%s: %s takes %u or %u numbers, not %u"),
                     filter->name, spec->name, spec->n_min, spec->n_max,
                     value.n);
      return FALSE;
    }

  values[index] = value;
  return TRUE;
}

/* "name=value", as given to --set. */
gboolean
tl_filter_parse_assignment (const TlFilter *filter,
                            TlValue        *values,
                            const gchar    *assignment,
                            GError        **error)
{
  const gchar      *equals;
  g_autofree gchar *name = NULL;

  g_return_val_if_fail (assignment != NULL, FALSE);

  equals = strchr (assignment, '=');
  if (equals == NULL || equals == assignment)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("bad parameter setting '%s' (expected NAME=VALUE)"),
                   assignment);
      return FALSE;
    }

  name = g_strndup (assignment, equals - assignment);
  return tl_filter_set_value (filter, values, name, equals + 1, error);
}

/* For the windowed references: the pixel at (X, Y) of PIXELS' input,
 * clamped to the edge, as the kernels' tl_floats_clamped () reads it.
 */
const gfloat *
tl_filter_pixel_clamped (const TlFloatPixels *pixels,
                         gint                 x,
                         gint                 y)
{
  x = CLAMP (x, 0, (gint) pixels->width - 1);
  y = CLAMP (y, 0, (gint) pixels->height - 1);
  return pixels->in + ((gsize) y * pixels->width + x) * 4;
}

/* For a filter's check: parameter INDEX, a number like GEGL's integer
 * properties, must be whole.
 */
gboolean
tl_filter_check_whole (const TlFilter *filter,
                       const TlValue  *values,
                       guint           index,
                       GError        **error)
{
  gdouble value;

  g_return_val_if_fail (filter != NULL && values != NULL, FALSE);
  g_return_val_if_fail (index < filter->n_params, FALSE);

  value = values[index].v[0];
  if (value != floor (value))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s: %s must be a whole number, not %g"),
                   filter->name, filter->params[index].name, value);
      return FALSE;
    }
  return TRUE;
}

/* Ranges are checked when values are set; this catches values built by
 * hand (the GIMP hosts) and the filters' own cross-checks.
 */
gboolean
tl_filter_check_values (const TlFilter *filter,
                        const TlValue  *values,
                        GError        **error)
{
  guint i, j;

  g_return_val_if_fail (filter != NULL && values != NULL, FALSE);

  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      if (values[i].n < spec->n_min || values[i].n > spec->n_max)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                       g_dngettext (GETTEXT_PACKAGE,
                                    "%s: %s has %u number, expected %u to %u",
                                    "%s: %s has %u numbers, expected %u to %u",
                                    values[i].n),
                       filter->name, spec->name, values[i].n, spec->n_min,
                       spec->n_max);
          return FALSE;
        }
      for (j = 0; j < values[i].n; j++)
        if (! tl_filter_check_number (filter, spec, values[i].v[j], error))
          return FALSE;
    }

  return filter->check == NULL || filter->check (filter, values, error);
}

guint
tl_filter_halo (const TlFilter *filter,
                const TlValue  *values)
{
  g_return_val_if_fail (filter != NULL && values != NULL, 0);

  return filter->halo ? filter->halo (values) : 0;
}

/* The kernels FILTER's runs take for pixels stored as CODEC says (NULL:
 * float in the working format).
 */
const gchar *const *
tl_filter_get_kernels (const TlFilter *filter,
                       const TlCodec  *codec)
{
  const gchar *const *kernels = NULL;

  g_return_val_if_fail (filter != NULL, NULL);

  if (filter->kernels_for)
    kernels = filter->kernels_for (codec);
  return kernels ? kernels : filter->kernels;
}

/* FILTER's default pixels per work-item, for pixels stored narrower than
 * floats (NARROW) or as floats.
 */
guint
tl_filter_pixels_per_item (const TlFilter *filter,
                           gboolean        narrow)
{
  g_return_val_if_fail (filter != NULL, 1);

  if (narrow && filter->narrow_pixels_per_item > 0)
    return filter->narrow_pixels_per_item;
  return filter->default_pixels_per_item;
}

/* The pixels per work-item a run takes when the user leaves it to
 * ThreadLens.  On a CPU four in 8-bit, 16-bit and half storage: PoCL runs
 * a group as a loop vectorised along x, and four narrow pixels make one
 * 16-byte load per item.  In float two for a point filter (four spread
 * neighbouring items' loads apart; two was the fastest of 1, 2 and 4 in
 * every float point filter's sweep at 3840x2160) and four for a filter
 * that reads neighbours, whose pixels in one item share them (PoCL's
 * float sweeps of box-blur, gaussian-blur, edge-sobel and pixelize all
 * peaked at four).  Elsewhere the filter's own default for the storage.
 */
guint
tl_filter_auto_pixels_per_item (const TlFilter *filter,
                                gboolean        narrow,
                                TlDeviceKind    device_kind)
{
  g_return_val_if_fail (filter != NULL, 1);

  if (device_kind != TL_DEVICE_KIND_CPU)
    return tl_filter_pixels_per_item (filter, narrow);
  if (narrow)
    return TL_FILTER_CPU_NARROW_PIXELS_PER_ITEM;
  return filter->halo ? TL_FILTER_CPU_FLOAT_AREA_PIXELS_PER_ITEM :
                        TL_FILTER_CPU_FLOAT_PIXELS_PER_ITEM;
}

/* Whether pixels stored as CODEC says keep the recursive Gaussian's
 * scratch image in half precision rather than floats: 8-bit codes, whose
 * intervals are at least 8 halves' steps wide (kernels/blur.cl,
 * TL_SCRATCH_HALF).  The convolution's scratch image stays float: its
 * fused pass, which must give the two passes' bits, sums in floats.
 */
gboolean
tl_filter_scratch_half (const TlCodec *codec)
{
  return codec != NULL && tl_codec_get_storage (codec) == TL_STORAGE_U8;
}

/* The C reference on PIXELS in their storage: decoded to the working
 * format, filtered, encoded back, as the kernels do it; with CONVOLVE
 * the blurs convolve at every standard deviation.  FALSE with ERROR,
 * and PIXELS' output untouched, when memory runs out.
 */
static gboolean
tl_filter_reference_convolving (const TlFilter *filter,
                                const TlValue  *values,
                                const TlPixels *pixels,
                                gboolean        convolve,
                                GError        **error)
{
  TlFloatPixels      floats = { 0, };
  g_autofree gfloat *in      = NULL;
  g_autofree gfloat *out     = NULL;
  g_autofree gfloat *scratch = NULL;
  gsize              n;
  gboolean           narrow;

  g_return_val_if_fail (filter != NULL && values != NULL && pixels != NULL,
                        FALSE);

  n      = (gsize) pixels->width * pixels->height;
  narrow = pixels->codec != NULL &&
           tl_codec_get_storage (pixels->codec) != TL_STORAGE_FLOAT;
  if (filter->halo || filter->reference_scratch)
    {
      gsize pixels_wanted = filter->reference_scratch ?
                            filter->reference_scratch (values, pixels->width,
                                                       pixels->height) : n;

      scratch = tl_alloc_n (pixels_wanted, 4 * sizeof (gfloat), error);
      if (scratch == NULL)
        return FALSE;
    }
  if (narrow)
    {
      in = tl_alloc_n (n, 4 * sizeof (gfloat), error);
      if (in == NULL)
        return FALSE;
      out = tl_alloc_n (n, 4 * sizeof (gfloat), error);
      if (out == NULL)
        return FALSE;
      tl_codec_decode (pixels->codec, pixels->in, in, n);
    }

  floats.width        = pixels->width;
  floats.height       = pixels->height;
  floats.x            = pixels->x;
  floats.y            = pixels->y;
  floats.scratch_half = tl_filter_scratch_half (pixels->codec);
  floats.convolve     = convolve;
  floats.scratch      = scratch;
  floats.in           = narrow ? in : pixels->in;
  floats.out          = narrow ? out : pixels->out;
  filter->reference (filter, values, &floats);
  if (narrow)
    tl_codec_encode (pixels->codec, out, pixels->out, n);
  return TRUE;
}

/* The C reference on PIXELS in their storage, as above. */
gboolean
tl_filter_reference (const TlFilter *filter,
                     const TlValue  *values,
                     const TlPixels *pixels,
                     GError        **error)
{
  return tl_filter_reference_convolving (filter, values, pixels, FALSE, error);
}

/* The C reference of what CONTEXT's device runs: where it has no double
 * precision (rusticl's llvmpipe, unless RUSTICL_FEATURES=fp64) the blurs
 * convolve instead of taking the recursive Gaussian, so their bits are
 * the convolution's.
 */
gboolean
tl_filter_device_reference (TlContext      *context,
                            const TlFilter *filter,
                            const TlValue  *values,
                            const TlPixels *pixels,
                            GError        **error)
{
  return tl_filter_reference_convolving (filter, values, pixels,
                                         ! tl_filter_recursive_supported (context),
                                         error);
}
