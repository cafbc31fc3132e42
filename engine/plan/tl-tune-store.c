/* ThreadLens: the tuned choices kept on disk (see tl-tune-store.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "tl-program-cache.h"
#include "tl-tune-store.h"

/* Part of every file's key: a new layout never reads an old file. */
#define TL_TUNE_VERSION 1

/* PLAN for TUNING's choice under LIMITS, marked as tuned: what "auto"
 * means once a search has run.  FALSE when the choice no longer fits
 * (tuned under other limits); the caller falls back to the seed rule.
 */
gboolean
tl_tune_plan (const TlTuning *tuning,
              const TlLimits *limits,
              guint           width,
              guint           height,
              TlPlan         *plan)
{
  g_return_val_if_fail (tuning != NULL && limits != NULL && plan != NULL, FALSE);

  if (! tl_plan_compute (limits, &tuning->choice, width, height, plan, NULL))
    return FALSE;
  plan->shape_rule = N_("auto: tuned, the fastest choice measured");
  plan->tuned      = TRUE;
  plan->tuned_ms   = tuning->best_ms;
  plan->tuning_s   = tuning->search_s;
  return TRUE;
}

gchar *
tl_tune_size_class (guint width,
                    guint height)
{
  /* Powers of two: 3840x2160 and 4096x4096 tune apart, 4000x3000 and
   * 4096x3072 together.
   */
  return g_strdup_printf ("%ux%u", 1u << g_bit_storage (MAX (width, 1) - 1),
                          1u << g_bit_storage (MAX (height, 1) - 1));
}

static gchar *
tl_tune_path (const gchar    *device_name,
              const gchar    *driver_version,
              const gchar    *filter_name,
              const gchar    *variant,
              TlMode          mode,
              guint           width,
              guint           height)
{
  g_autofree gchar *dir     = tl_program_cache_dir ();
  g_autofree gchar *classes = tl_tune_size_class (width, height);
  g_autofree gchar *key     = NULL;
  g_autofree gchar *sum     = NULL;
  g_autofree gchar *parent  = NULL;
  g_autofree gchar *name    = NULL;

  if (dir == NULL)
    return NULL;

  key = g_strdup_printf ("v%d|%s|%s|%s|%s|%s|%s", TL_TUNE_VERSION,
                         device_name, driver_version ? driver_version : "",
                         filter_name, variant ? variant : "",
                         tl_mode_to_string (mode), classes);
  sum    = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  parent = g_path_get_dirname (dir);
  name   = g_strconcat (sum, ".json", NULL);
  return g_build_filename (parent, "tuning", name, NULL);
}

gboolean
tl_tune_lookup (TlContext      *context,
                const gchar    *filter_name,
                const TlCodec  *codec,
                TlMode          mode,
                guint           width,
                guint           height,
                TlTuning       *tuning)
{
  const TlDevice *device;

  g_return_val_if_fail (context != NULL, FALSE);

  device = tl_context_get_device (context);
  return tl_tune_lookup_device (device->name, device->driver_version,
                                filter_name,
                                codec ? tl_codec_get_variant (codec) : "",
                                mode, width, height, tuning);
}

/* The same, for a device known by name and driver version (the dialog's
 * devices have no context) and a storage VARIANT ("" for float).
 */
gboolean
tl_tune_lookup_device (const gchar    *device_name,
                       const gchar    *driver_version,
                       const gchar    *filter_name,
                       const gchar    *variant,
                       TlMode          mode,
                       guint           width,
                       guint           height,
                       TlTuning       *tuning)
{
  g_autofree gchar     *path   = NULL;
  g_autoptr(JsonParser) parser = NULL;
  JsonObject           *object;
  JsonArray            *shape;

  g_return_val_if_fail (device_name != NULL && filter_name != NULL, FALSE);
  g_return_val_if_fail (tuning != NULL, FALSE);

  path = tl_tune_path (device_name, driver_version, filter_name, variant, mode,
                       width, height);
  if (path == NULL || ! g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;

  parser = json_parser_new ();
  if (! json_parser_load_from_file (parser, path, NULL) ||
      ! JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    goto corrupt;

  object = json_node_get_object (json_parser_get_root (parser));
  shape  = json_object_get_array_member (object, "shape");
  if (shape == NULL || json_array_get_length (shape) != 2 ||
      json_array_get_int_element (shape, 0) < 1 ||
      json_array_get_int_element (shape, 1) < 1 ||
      json_object_get_int_member (object, "pixels_per_item") < 1)
    goto corrupt;

  memset (tuning, 0, sizeof (*tuning));
  tl_choice_init (&tuning->choice);
  tuning->choice.shape_kind      = TL_SHAPE_CUSTOM;
  tuning->choice.shape[0]        = json_array_get_int_element (shape, 0);
  tuning->choice.shape[1]        = json_array_get_int_element (shape, 1);
  tuning->choice.mode            = mode;
  tuning->choice.swizzle         = json_object_get_int_member (object, "swizzle");
  tuning->choice.pixels_per_item = json_object_get_int_member (object, "pixels_per_item");
  tuning->best_ms   = json_object_get_double_member (object, "best_ms");
  tuning->rule_ms   = json_object_get_double_member_with_default (object, "rule_ms", 0.0);
  tuning->cut_short = json_object_get_boolean_member_with_default (object, "cut_short", FALSE);
  tuning->seed_ms   = json_object_get_double_member (object, "seed_ms");
  tuning->driver_ms = json_object_get_double_member (object, "driver_ms");
  tuning->search_s  = json_object_get_double_member (object, "search_s");
  tuning->n_choices = json_object_get_int_member (object, "choices");
  return TRUE;

 corrupt:
  /* Searched again next time. */
  g_debug ("tuning: %s does not parse, forgetting it", path);
  g_unlink (path);
  return FALSE;
}

/* Keeps TUNING, the result of a search on PIXELS, for tl_tune_lookup ().
 * Best effort: a result that cannot be written is searched again.
 */
void
tl_tune_store (TlContext      *context,
               const gchar    *filter_name,
               const TlCodec  *codec,
               const TlPixels *pixels,
               const TlTuning *tuning)
{
  const TlDevice         *device  = tl_context_get_device (context);
  g_autofree gchar       *path    = tl_tune_path (device->name,
                                                  device->driver_version,
                                                  filter_name,
                                                  codec ? tl_codec_get_variant (codec) : "",
                                                  tuning->choice.mode,
                                                  pixels->width, pixels->height);
  g_autofree gchar       *dir     = NULL;
  g_autofree gchar       *text    = NULL;
  g_autoptr(JsonBuilder)  builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError)       error   = NULL;
  JsonNode               *root;

  if (path == NULL)
    return;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "device");
  json_builder_add_string_value (builder, tl_context_get_device (context)->name);
  json_builder_set_member_name (builder, "filter");
  json_builder_add_string_value (builder, filter_name);
  json_builder_set_member_name (builder, "storage");
  json_builder_add_string_value (builder, codec ? tl_codec_get_variant (codec) : "float");
  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, tl_mode_to_string (tuning->choice.mode));
  json_builder_set_member_name (builder, "size");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, pixels->width);
  json_builder_add_int_value (builder, pixels->height);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "shape");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, tuning->choice.shape[0]);
  json_builder_add_int_value (builder, tuning->choice.shape[1]);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "swizzle");
  json_builder_add_int_value (builder, tuning->choice.swizzle);
  json_builder_set_member_name (builder, "pixels_per_item");
  json_builder_add_int_value (builder, tuning->choice.pixels_per_item);
  json_builder_set_member_name (builder, "best_ms");
  json_builder_add_double_value (builder, tuning->best_ms);
  json_builder_set_member_name (builder, "rule_ms");
  json_builder_add_double_value (builder, tuning->rule_ms);
  json_builder_set_member_name (builder, "cut_short");
  json_builder_add_boolean_value (builder, tuning->cut_short);
  json_builder_set_member_name (builder, "seed_ms");
  json_builder_add_double_value (builder, tuning->seed_ms);
  json_builder_set_member_name (builder, "driver_ms");
  json_builder_add_double_value (builder, tuning->driver_ms);
  json_builder_set_member_name (builder, "search_s");
  json_builder_add_double_value (builder, tuning->search_s);
  json_builder_set_member_name (builder, "choices");
  json_builder_add_int_value (builder, tuning->n_choices);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  json_node_unref (root);

  dir = g_path_get_dirname (path);
  /* Best effort, as the program cache: g_file_set_contents renames a
   * finished temporary file into place.
   */
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      ! g_file_set_contents (path, text, -1, &error))
    g_debug ("tuning: cannot store %s: %s", path,
             error ? error->message : g_strerror (errno));
}
