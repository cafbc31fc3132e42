/* ThreadLens: the thread map written out as JSON (see tl-overlay.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "tl-error.h"
#include "tl-overlay-private.h"

static void
tl_overlay_json_pair (JsonBuilder *builder,
                      const gchar *name,
                      guint64      a,
                      guint64      b)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, a);
  json_builder_add_int_value (builder, b);
  json_builder_end_array (builder);
}

/* The dispatch: small, and holds the one string that needs escaping. */
static JsonNode *
tl_overlay_json_header (const TlOverlayMap *map)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  const TlPlan          *plan    = &map->plan;

  json_builder_begin_object (builder);
  tl_overlay_json_pair (builder, "size", plan->width, plan->height);
  json_builder_set_member_name (builder, "device");
  if (map->device)
    json_builder_add_string_value (builder, map->device);
  else
    json_builder_add_null_value (builder);

  json_builder_set_member_name (builder, "dispatch");
  json_builder_begin_object (builder);
  tl_overlay_json_pair (builder, "local", plan->local[0], plan->local[1]);
  tl_overlay_json_pair (builder, "groups", plan->groups[0], plan->groups[1]);
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, tl_mode_to_string (plan->mode));
  json_builder_set_member_name (builder, "emulated");
  json_builder_add_boolean_value (builder, plan->emulated);
  json_builder_set_member_name (builder, "launches");
  json_builder_add_int_value (builder, plan->n_launches);
  /* The launches' pieces under the launch budget: a group's "piece". */
  json_builder_set_member_name (builder, "pieces");
  json_builder_add_int_value (builder, MAX (map->n_pieces, plan->n_launches));
  json_builder_set_member_name (builder, "swizzle");
  json_builder_add_int_value (builder, plan->swizzle);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, plan->pixels_per_item);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "simd_source");
  json_builder_add_string_value (builder,
                                 tl_overlay_simd_source_to_string (map->simd_source));
  json_builder_set_member_name (builder, "simd_source_text");
  json_builder_add_string_value (builder,
                                 tl_overlay_simd_source_describe (map->simd_source));
  json_builder_set_member_name (builder, "simd_width");
  json_builder_add_int_value (builder, map->simd_width);

  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* One array per field over the pixels, row-major: a table of objects
 * would be several times larger for the same numbers.
 */
static void
tl_overlay_json_column (GString            *text,
                        const TlOverlayMap *map,
                        const gchar        *name,
                        guint               word,
                        guint               shift,
                        guint32             mask)
{
  gsize n = (gsize) map->plan.width * map->plan.height;
  gsize i;

  g_string_append_printf (text, ",\"%s\":[", name);
  for (i = 0; i < n; i++)
    g_string_append_printf (text, i ? ",%u" : "%u",
                            (map->pixels[i * TL_OVERLAY_PIXEL_WORDS + word] >>
                             shift) & mask);
  g_string_append_c (text, ']');
}

static void
tl_overlay_json_groups (GString            *text,
                        const TlOverlayMap *map)
{
  guint64 i;

  g_string_append (text, ",\"groups\":[");
  for (i = 0; i < map->plan.group_count; i++)
    {
      TlOverlayIds ids;

      tl_overlay_map_get_group (map, i, &ids);
      g_string_append_printf (text, "%s{\"launch_index\":%" G_GUINT64_FORMAT
                              ",\"group\":[%u,%u],\"size\":[%u,%u],",
                              i ? "," : "", i, ids.group[0], ids.group[1],
                              ids.group_size[0], ids.group_size[1]);
      if (ids.ticket == TL_OVERLAY_UNKNOWN)
        g_string_append (text, "\"ticket\":null,");
      else
        g_string_append_printf (text, "\"ticket\":%u,", ids.ticket);
      if (ids.compute_unit == TL_OVERLAY_UNKNOWN)
        g_string_append (text, "\"compute_unit\":null,");
      else
        g_string_append_printf (text, "\"compute_unit\":%u,",
                                ids.compute_unit);
      g_string_append_printf (text, "\"piece\":%u,\"idle_items\":%u,"
                              "\"partial\":%s}", ids.piece, ids.idle_items,
                              ids.partial ? "true" : "false");
    }
  g_string_append_c (text, ']');
}

/* Writes the dispatch, one record per work-group in launch order
 * ("groups"), and the per-pixel IDs as columns ("pixels"); a pixel's
 * launch_index names its group.  Groups and pixels are written as text
 * directly: a JSON tree of millions of numbers would need gigabytes for a
 * large photo.
 */
gboolean
tl_overlay_map_save_json (const TlOverlayMap *map,
                          const gchar        *path,
                          GError            **error)
{
  g_autoptr(JsonNode) header = NULL;
  g_autofree gchar   *start  = NULL;
  g_autoptr(GString)  text   = NULL;
  g_autoptr(GError)   local  = NULL;

  g_return_val_if_fail (map != NULL && path != NULL, FALSE);

  header = tl_overlay_json_header (map);
  start  = json_to_string (header, FALSE);
  text   = g_string_sized_new ((gsize) map->plan.width * map->plan.height * 16);

  /* The header object, reopened for one more member. */
  g_string_append_len (text, start, strlen (start) - 1);
  tl_overlay_json_groups (text, map);
  g_string_append (text, ",\"pixels\":{\"layout\":\"row-major, one number "
                   "per pixel\"");
  tl_overlay_json_column (text, map, "launch_index", 0, 0, G_MAXUINT32);
  tl_overlay_json_column (text, map, "local_x", 1, 0, 0xFFFF);
  tl_overlay_json_column (text, map, "local_y", 1, 16, 0xFFFF);
  tl_overlay_json_column (text, map, "simd_group", 2, 0, 0xFFFF);
  tl_overlay_json_column (text, map, "lane", 2, 16, 0xFFFF);
  g_string_append (text, "}}\n");

  if (! g_file_set_contents (path, text->str, text->len, &local))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_IO,
                   _("writing the thread map to %s: %s"), path, local->message);
      return FALSE;
    }
  return TRUE;
}
