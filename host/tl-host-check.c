/* ThreadLens: one judgement of a call (see tl-host-check.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "tl-host-check.h"
#include "tl-overlay.h"

/* The overlay SETTINGS name, or FALSE with ERROR. */
static gboolean
tl_host_check_overlay_mode (const TlHostSettings *settings,
                            TlOverlayMode        *mode,
                            GError              **error)
{
  return tl_overlay_mode_from_string (tl_host_overlay_names[settings->overlay],
                                      mode, error);
}

/* Whether SETTINGS' work-group shape is auto (0 x 0) or both sides. */
gboolean
tl_host_check_shape (const TlHostSettings *settings,
                     GError              **error)
{
  g_return_val_if_fail (settings != NULL, FALSE);

  if ((settings->shape[0] == 0) != (settings->shape[1] == 0) ||
      settings->shape[0] < 0 || settings->shape[1] < 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("work-group shape %dx%d: shape-width and shape-height "
                     "must both be 0 (auto) or both positive"),
                   settings->shape[0], settings->shape[1]);
      return FALSE;
    }
  return TRUE;
}

/* Whether SETTINGS can run FILTER (NULL: the thread map) on any device:
 * the filter's values, the dispatch's pairs and the overlay's rules.
 */
gboolean
tl_host_check_settings (const TlFilter       *filter,
                        const TlHostSettings *settings,
                        GError              **error)
{
  TlOverlayStyle style;
  TlOverlayMode  mode;

  g_return_val_if_fail (settings != NULL, FALSE);
  g_return_val_if_fail (settings->overlay >= 0 &&
                        settings->overlay < (gint) g_strv_length ((gchar **) tl_host_overlay_names),
                        FALSE);
  g_return_val_if_fail (settings->overlay_style >= 0 &&
                        settings->overlay_style < (gint) g_strv_length ((gchar **) tl_host_overlay_style_names),
                        FALSE);

  if (filter && ! tl_filter_check_values (filter, settings->values, error))
    return FALSE;

  if (! tl_host_check_shape (settings, error))
    return FALSE;

  if (filter == NULL && settings->overlay <= 0)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("the thread map needs an overlay mode: "
                             "work-group, simd-group, lane, launch-order or "
                             "compute-unit"));
      return FALSE;
    }
  if (settings->overlay <= 0)
    return TRUE;

  if (! tl_host_check_overlay_mode (settings, &mode, error) ||
      ! tl_overlay_style_from_string (tl_host_overlay_style_names[settings->overlay_style],
                                      &style, error))
    return FALSE;
  return tl_overlay_check_choice (mode, style, settings->overlay_opacity,
                                  error);
}

/* What only the device can tell: whether it can draw the overlay that
 * SETTINGS ask for beside FILTER (NULL: the thread map alone).
 */
gboolean
tl_host_check_device (const TlFilter       *filter,
                      const TlHostSettings *settings,
                      const TlDevice       *device,
                      GError              **error)
{
  TlOverlayMode mode;

  g_return_val_if_fail (settings != NULL && device != NULL, FALSE);

  if (settings->overlay <= 0)
    return TRUE;
  return tl_host_check_overlay_mode (settings, &mode, error) &&
         tl_overlay_check_device (device, mode, error);
}

/* Whether a drawable of KIND can take a filter, NON_DESTRUCTIVE or not.
 * GIMP keeps filter stacks on layers only: a mask or channel would drop
 * a non-destructive filter, so that is refused rather than merged
 * against the user's choice.
 */
gboolean
tl_host_check_drawable (TlHostDrawableKind   kind,
                        gboolean             non_destructive,
                        GError             **error)
{
  switch (kind)
    {
    case TL_HOST_DRAWABLE_INDEXED:
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("ThreadLens filters work on RGB and grayscale "
                             "layers; this one is indexed (Image > Mode > RGB "
                             "converts it)"));
      return FALSE;
    case TL_HOST_DRAWABLE_GROUP:
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("ThreadLens filters work on pixel layers; this one "
                             "is a layer group (pick a layer inside it, or "
                             "merge the group first)"));
      return FALSE;
    case TL_HOST_DRAWABLE_TEXT:
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("ThreadLens filters work on pixel layers; this one "
                             "is a text layer (Layer > Discard Text Information "
                             "makes it one)"));
      return FALSE;
    case TL_HOST_DRAWABLE_LAYER_MASK:
    case TL_HOST_DRAWABLE_CHANNEL:
      if (non_destructive && kind == TL_HOST_DRAWABLE_LAYER_MASK)
        {
          g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                               _("only layers keep non-destructive filters, "
                                 "and this is a layer mask: turn "
                                 "non-destructive off to filter it directly"));
          return FALSE;
        }
      if (non_destructive)
        {
          g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                               _("only layers keep non-destructive filters, "
                                 "and this is a channel: turn non-destructive "
                                 "off to filter it directly"));
          return FALSE;
        }
      return TRUE;
    case TL_HOST_DRAWABLE_LAYER:
      return TRUE;
    }
  g_return_val_if_reached (FALSE);
}
