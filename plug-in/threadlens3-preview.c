/* ThreadLens: the dialog's preview on GIMP 3's canvas, as GIMP's own
 * filters preview: the filter runs in GIMP's process (the GEGL module) as
 * a GimpDrawableFilter at the top of the layer's stack, with the dialog's
 * values and dispatch, and GIMP redraws what the canvas shows of it.
 *
 * The undo stack is frozen while the preview lives (GIMP's way for
 * in-place previews): the filter's coming and going records nothing, and
 * the image is back in the state it was frozen in before it thaws.  OK
 * then applies the filter the ordinary way, one undo step.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "tl-host-check.h"
#include "threadlens3-filter.h"
#include "threadlens3-preview.h"

/* The canvas follows the dialog at most this often: GIMP renders the
 * visible part of the layer at the view's scale in milliseconds on a GPU,
 * but a CPU device may take longer, and every update restarts it.
 */
#define THREADLENS3_PREVIEW_DELAY_MS 120

struct _Threadlens3Preview
{
  GimpImage          *image;
  GimpDrawable       *drawable;
  const TlFilter     *filter;
  GimpDrawableFilter *live;
  TlHostSettings      pending;
  guint               timeout;
  gboolean            wanted;    /* the dialog's Preview toggle */
  gboolean            runnable;  /* the settings pass the checks */
  gboolean            shown;     /* the filter's visibility in GIMP */
};

/* SETTINGS as the live filter's properties. */
static gboolean
threadlens3_preview_configure (Threadlens3Preview   *preview,
                               const TlHostSettings *settings,
                               GError              **error)
{
  g_autoptr(TlHostProperties) properties =
    tl_host_properties_new (preview->filter, settings);

  return threadlens3_filter_configure (preview->live, properties->args,
                                       properties->values, properties->n_args,
                                       error);
}

/* Shows the filter where the user wants it and its settings can run:
 * settings that cannot (a shape the device refuses, say) hide it rather
 * than have the module report the same error at every step of a drag.
 */
static void
threadlens3_preview_show (Threadlens3Preview *preview)
{
  gboolean show = preview->wanted && preview->runnable;

  if (preview->live == NULL || show == preview->shown)
    return;
  gimp_drawable_filter_set_visible (preview->live, show);
  gimp_drawable_update (preview->drawable, 0, 0,
                        gimp_drawable_get_width (preview->drawable),
                        gimp_drawable_get_height (preview->drawable));
  preview->shown = show;
}

static void
threadlens3_preview_delete (Threadlens3Preview *preview)
{
  if (preview->live == NULL)
    return;
  gimp_drawable_filter_delete (preview->live);
  g_clear_object (&preview->live);
  gimp_displays_flush ();
}

Threadlens3Preview *
threadlens3_preview_new (GimpDrawable         *drawable,
                         TlHostDrawableKind    kind,
                         const TlFilter       *filter,
                         const TlHostSettings *settings)
{
  g_autofree gchar   *operation = NULL;
  g_autofree gchar   *title     = NULL;
  g_autoptr(GError)   error     = NULL;
  Threadlens3Preview *preview;

  g_return_val_if_fail (GIMP_IS_DRAWABLE (drawable), NULL);
  g_return_val_if_fail (settings != NULL, NULL);

  /* The thread map draws a layer of its own; masks and channels keep no
   * filter stack.
   */
  if (filter == NULL || ! tl_host_check_drawable (kind, TRUE, NULL))
    return NULL;

  preview = g_new0 (Threadlens3Preview, 1);
  preview->image    = gimp_item_get_image (GIMP_ITEM (drawable));
  preview->drawable = drawable;
  preview->filter   = filter;
  preview->wanted   = TRUE;
  preview->runnable = TRUE;
  preview->shown    = TRUE;

  operation = g_strconcat (TL_HOST_OPERATION_PREFIX, filter->name, NULL);
  title     = tl_host_filter_title (filter);
  preview->live = threadlens3_filter_new (drawable, operation, title, &error);
  if (preview->live == NULL ||
      ! tl_host_check_settings (filter, settings, &error) ||
      ! threadlens3_preview_configure (preview, settings, &error))
    {
      g_debug ("no preview on the canvas: %s", error->message);
      g_clear_object (&preview->live);
      g_free (preview);
      return NULL;
    }

  gimp_image_undo_freeze (preview->image);
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_PLUGIN);
  gimp_drawable_append_filter (drawable, preview->live);
  if (gimp_pdb_get_last_status (gimp_get_pdb ()) != GIMP_PDB_SUCCESS)
    {
      g_debug ("no preview on the canvas: %s",
               gimp_pdb_get_last_error (gimp_get_pdb ()));
      gimp_drawable_filter_delete (preview->live);
      g_clear_object (&preview->live);
    }
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_INTERNAL);
  if (preview->live == NULL)
    {
      gimp_image_undo_thaw (preview->image);
      g_free (preview);
      return NULL;
    }
  gimp_displays_flush ();
  return preview;
}

static gboolean
threadlens3_preview_draw (gpointer data)
{
  Threadlens3Preview *preview = data;
  g_autoptr(GError)   error   = NULL;

  preview->timeout  = 0;
  preview->runnable = tl_host_check_settings (preview->filter,
                                              &preview->pending, NULL);
  if (preview->runnable &&
      ! threadlens3_preview_configure (preview, &preview->pending, &error))
    {
      g_warning ("%s", error->message);
      threadlens3_preview_delete (preview);
    }
  threadlens3_preview_show (preview);
  gimp_displays_flush ();
  return G_SOURCE_REMOVE;
}

void
threadlens3_preview_set (Threadlens3Preview   *preview,
                         const TlHostSettings *settings)
{
  g_return_if_fail (settings != NULL);

  if (preview == NULL || preview->live == NULL)
    return;
  preview->pending = *settings;
  if (preview->timeout == 0)
    preview->timeout = g_timeout_add (THREADLENS3_PREVIEW_DELAY_MS,
                                      threadlens3_preview_draw, preview);
}

void
threadlens3_preview_set_visible (Threadlens3Preview *preview,
                                 gboolean            visible)
{
  if (preview == NULL)
    return;
  preview->wanted = visible;
  threadlens3_preview_show (preview);
  gimp_displays_flush ();
}

void
threadlens3_preview_free (Threadlens3Preview *preview)
{
  if (preview == NULL)
    return;
  if (preview->timeout)
    g_source_remove (preview->timeout);
  threadlens3_preview_delete (preview);
  gimp_image_undo_thaw (preview->image);
  g_free (preview);
}
