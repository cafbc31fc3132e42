/* ThreadLens: a threadlens:* operation as a GIMP 3 drawable filter, made
 * and configured the same way for a run (gimp-threadlens-3.c) and for the
 * dialog's preview on the canvas (threadlens3-preview.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "tl-error.h"
#include "threadlens3-filter.h"

#if GIMP_CHECK_VERSION (3, 2, 0)
/* Whether GIMP has OPERATION, asked once a process: GEGL's modules are
 * loaded when GIMP starts, and a plug-in process lives for one call.
 */
static gboolean
threadlens3_filter_available (const gchar *operation)
{
  static gchar **available = NULL;

  if (available == NULL)
    available = gimp_drawable_filter_operation_get_available ();
  return available != NULL &&
         g_strv_contains ((const gchar * const *) available, operation);
}
#endif

GimpDrawableFilter *
threadlens3_filter_new (GimpDrawable *drawable,
                        const gchar  *operation,
                        const gchar  *title,
                        GError      **error)
{
  GimpDrawableFilter *filter;

  g_return_val_if_fail (GIMP_IS_DRAWABLE (drawable), NULL);
  g_return_val_if_fail (operation != NULL, NULL);

#if GIMP_CHECK_VERSION (3, 2, 0)
  /* GIMP 3.2 lists the operations it has, so a missing module is known
   * without a failed call.
   */
  filter = threadlens3_filter_available (operation) ?
           gimp_drawable_filter_new (drawable, operation, title) : NULL;
#else
  /* GIMP reports an unknown operation through the PDB; the caller then
   * takes another path, so that message is not the user's.
   */
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_PLUGIN);
  filter = gimp_drawable_filter_new (drawable, operation, title);
  gimp_plug_in_set_pdb_error_handler (gimp_get_plug_in (),
                                      GIMP_PDB_ERROR_HANDLER_INTERNAL);
#endif
  if (filter == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_NO_OPERATION,
                   _("GIMP has no GEGL operation %s (the ThreadLens GEGL "
                     "module is not installed)"), operation);
      return NULL;
    }
  gimp_drawable_filter_set_opacity (filter, 1.0);
  gimp_drawable_filter_set_blend_mode (filter, GIMP_LAYER_MODE_REPLACE);
  return filter;
}

/* VALUE (a procedure argument's) as the filter config's property SPEC. */
static gboolean
threadlens3_filter_value (const TlHostArg   *arg,
                          const TlHostValue *value,
                          GParamSpec        *spec,
                          GValue            *result)
{
  g_value_init (result, G_PARAM_SPEC_VALUE_TYPE (spec));
  switch (arg->type)
    {
    case TL_HOST_ARG_INT:
      if (G_VALUE_HOLDS_INT (result))
        g_value_set_int (result, value->i);
      else if (G_VALUE_HOLDS_DOUBLE (result))
        g_value_set_double (result, value->i);
      else
        return FALSE;
      return TRUE;
    case TL_HOST_ARG_DOUBLE:
      if (! G_VALUE_HOLDS_DOUBLE (result))
        return FALSE;
      g_value_set_double (result, value->d);
      return TRUE;
    case TL_HOST_ARG_STRING:
      if (! G_VALUE_HOLDS_STRING (result))
        return FALSE;
      g_value_set_string (result, value->s);
      return TRUE;
    }
  return FALSE;
}

gboolean
threadlens3_filter_configure (GimpDrawableFilter *filter,
                              const TlHostArg    *args,
                              const TlHostValue  *values,
                              guint               n_args,
                              GError            **error)
{
  GimpDrawableFilterConfig *config;
  guint                     i;

  g_return_val_if_fail (GIMP_IS_DRAWABLE_FILTER (filter), FALSE);

  config = gimp_drawable_filter_get_config (filter);
  for (i = 0; i < n_args; i++)
    {
      GParamSpec *spec  = g_object_class_find_property (G_OBJECT_GET_CLASS (config),
                                                        args[i].name);
      GValue      value = G_VALUE_INIT;

      if (spec == NULL)
        continue;
      if (! threadlens3_filter_value (&args[i], &values[i], spec, &value))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_NO_OPERATION,
                       _("%s: its property %s is not what this plug-in "
                         "expects (an older module?)"),
                       gimp_drawable_filter_get_operation_name (filter),
                       args[i].name);
          g_value_unset (&value);
          return FALSE;
        }
      g_object_set_property (G_OBJECT (config), args[i].name, &value);
      g_value_unset (&value);
    }
  gimp_drawable_filter_update (filter);
  return TRUE;
}
