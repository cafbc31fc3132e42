/* ThreadLens: every filter's OpenCL programs built ahead
 * (tl-host-prebuild.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gegl.h>

#include "tl-filter.h"
#include "tl-host-prebuild.h"
#include "tl-plan.h"
#include "tl-process.h"

/* A layer's side: a few work-groups, enough for every kernel to run. */
#define TL_HOST_PREBUILD_SIDE 8

/* The layers a GIMP user has most: 8-bit photos with and without alpha,
 * 16-bit and 32-bit float in linear light (GIMP's high-bit-depth
 * default).  Each picks its own program variants (tl_codec_get_variant).
 */
static const gchar *const tl_host_prebuild_formats[] =
{
  "R'G'B' u8", "R'G'B'A u8", "RGBA u16", "RGBA float",
};

static gboolean
tl_host_prebuild_run (TlContext      *context,
                      const TlFilter *filter,
                      const TlValue  *values,
                      GeglBuffer     *layer,
                      GError        **error)
{
  const GeglRectangle  *extent = gegl_buffer_get_extent (layer);
  g_autoptr(GeglBuffer) target = gegl_buffer_new (extent,
                                                  gegl_buffer_get_format (layer));
  TlProcessReport       report;
  TlChoice              choice;

  tl_choice_init (&choice);
  return tl_process_region (context, filter, values, &choice, layer, target,
                            extent, 0, NULL, NULL, &report, error);
}

gboolean
tl_host_prebuild (TlContext  *context,
                  GError    **error)
{
  const TlFilter *const *filters;
  GeglRectangle          extent = { 0, 0, TL_HOST_PREBUILD_SIDE,
                                    TL_HOST_PREBUILD_SIDE };
  guint                  n_filters, f, i, p;

  g_return_val_if_fail (context != NULL, FALSE);

  filters = tl_filter_list (&n_filters);
  for (i = 0; i < G_N_ELEMENTS (tl_host_prebuild_formats); i++)
    {
      g_autoptr(GeglBuffer) layer = gegl_buffer_new (&extent,
                                                     babl_format (tl_host_prebuild_formats[i]));
      GeglColor            *grey  = gegl_color_new ("rgba(0.4, 0.5, 0.6, 0.8)");

      gegl_buffer_set_color (layer, &extent, grey);
      g_object_unref (grey);
      for (f = 0; f < n_filters; f++)
        {
          const TlFilter     *filter = filters[f];
          g_autofree TlValue *values = tl_filter_default_values (filter);

          if (! tl_host_prebuild_run (context, filter, values, layer, error))
            return FALSE;
          for (p = 0; p < filter->n_params; p++)
            {
              const TlParamSpec  *spec   = &filter->params[p];
              g_autofree TlValue *corner = NULL;
              gdouble             ends[2] = { spec->ui_min, spec->ui_max };
              guint               e;

              if (spec->type != TL_PARAM_DOUBLE)
                continue;
              /* A slider's end that the checks refuse beside the other
               * defaults picks no program of its own.
               */
              for (e = 0; e < G_N_ELEMENTS (ends); e++)
                {
                  g_autoptr(GError) refused = NULL;

                  g_clear_pointer (&corner, g_free);
                  corner = tl_filter_default_values (filter);
                  corner[p].v[0] = ends[e];
                  tl_host_prebuild_run (context, filter, corner, layer,
                                        &refused);
                }
            }
        }
    }
  return TRUE;
}
