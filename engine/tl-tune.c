/* ThreadLens: timing dispatch choices, and the tuned "auto" shape.
 *
 * The search is bounded: every work-group shape of 32 to 1024 items whose
 * width is a multiple of P (or the whole group) under 1, 2 and 4 pixels
 * per item, then the swizzle tiles 4, 8 and 16 on the three fastest of
 * each k.  A swizzle is kept only when it is at least 3% faster, so noise
 * never picks one that does not pay.  Results live in one small JSON file per
 * device, filter, storage, mode and size class, written atomically; a
 * file that does not parse is searched again.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "tl-error.h"
#include "tl-program-cache.h"
#include "tl-run.h"
#include "tl-tune.h"

#define TL_TUNE_VERSION   1
#define TL_TUNE_KEEP_GAIN 0.97    /* a swizzle must beat the best by 3% */
#define TL_TUNE_FINALISTS 3       /* choices per k the swizzle is tried on */
#define TL_TUNE_N_KS      3       /* pixels per item tried: 1, 2 and 4 */

static gint
tl_tune_compare (gconstpointer a,
                 gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return (x > y) - (x < y);
}

/* One warm-up (the first launch of a local size can include the
 * driver's own compilation), then the median and minimum of RUNS.
 */
gboolean
tl_tune_measure (TlContext       *context,
                 const TlFilter  *filter,
                 const TlValue   *values,
                 const TlChoice  *choice,
                 const TlPixels  *pixels,
                 guint            runs,
                 gdouble         *median_ms,
                 gdouble         *min_ms,
                 TlPlan          *plan,
                 GError         **error)
{
  g_autofree gdouble *samples = NULL;

  g_return_val_if_fail (runs > 0 && median_ms != NULL, FALSE);

  samples = g_new (gdouble, runs + 1);
  if (! tl_run_filter_repeated (context, filter, values, choice, pixels,
                                runs + 1, samples, plan, error))
    return FALSE;

  *median_ms = tl_tune_median (samples + 1, runs);
  if (min_ms)
    *min_ms = samples[1];
  return TRUE;
}

/* Sorts SAMPLES (N of them, N > 0) and returns their median. */
gdouble
tl_tune_median (gdouble *samples,
                guint    n)
{
  g_return_val_if_fail (samples != NULL && n > 0, 0.0);

  qsort (samples, n, sizeof (gdouble), tl_tune_compare);
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

/* ERROR says a choice cannot be planned on this kernel (a shape over a
 * limit): searches and sweeps skip such choices rather than fail.
 */
gboolean
tl_tune_cannot_plan (const GError *error)
{
  return (g_error_matches (error, TL_ERROR, TL_ERROR_LIMIT) ||
          g_error_matches (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT));
}

/* The shapes the search times, under BASE's mode, swizzle and k. */
GArray *
tl_tune_candidates (const TlLimits *limits,
                    const TlChoice *base)
{
  GArray *choices = g_array_new (FALSE, FALSE, sizeof (TlChoice));
  guint   p       = MAX (1, limits->simd_width);
  guint   items, w;

  for (items = 32; items <= MIN (1024, limits->max_group_size); items *= 2)
    for (w = p; w <= items; w *= 2)
      {
        TlChoice choice = *base;

        if (items % w != 0)
          continue;
        choice.shape_kind = TL_SHAPE_CUSTOM;
        choice.shape[0]   = w;
        choice.shape[1]   = items / w;
        g_array_append_val (choices, choice);
      }

  return choices;
}

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
              const TlFilter *filter,
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
                         filter->name, variant ? variant : "",
                         tl_mode_to_string (mode), classes);
  sum    = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  parent = g_path_get_dirname (dir);
  name   = g_strconcat (sum, ".json", NULL);
  return g_build_filename (parent, "tuning", name, NULL);
}

gboolean
tl_tune_lookup (TlContext      *context,
                const TlFilter *filter,
                const TlCodec  *codec,
                TlMode          mode,
                guint           width,
                guint           height,
                TlTuning       *tuning)
{
  const TlDevice *device;

  g_return_val_if_fail (context != NULL, FALSE);

  device = tl_context_get_device (context);
  return tl_tune_lookup_device (device->name, device->driver_version, filter,
                                codec ? tl_codec_get_variant (codec) : "",
                                mode, width, height, tuning);
}

/* The same, for a device known by name and driver version (the dialog's
 * devices have no context) and a storage VARIANT ("" for float).
 */
gboolean
tl_tune_lookup_device (const gchar    *device_name,
                       const gchar    *driver_version,
                       const TlFilter *filter,
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

  g_return_val_if_fail (device_name != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (tuning != NULL, FALSE);

  path = tl_tune_path (device_name, driver_version, filter, variant, mode,
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

static void
tl_tune_store (TlContext      *context,
               const TlFilter *filter,
               const TlCodec  *codec,
               const TlPixels *pixels,
               const TlTuning *tuning)
{
  const TlDevice         *device  = tl_context_get_device (context);
  g_autofree gchar       *path    = tl_tune_path (device->name,
                                                  device->driver_version, filter,
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
  json_builder_add_string_value (builder, filter->name);
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

typedef struct
{
  TlContext      *context;
  const TlFilter *filter;
  const TlValue  *values;
  const TlPixels *pixels;
  guint           runs;
  guint           done, total;
  TlTuneProgress  progress;
  gpointer        progress_data;
} TlTuneSearch;

/* The median of CHOICE, or G_MAXDOUBLE when the plan cannot be made (a
 * shape over this kernel's limits): those are skipped, not errors.
 */
static gboolean
tl_tune_time (TlTuneSearch   *search,
              const TlChoice *choice,
              gdouble        *ms,
              GError        **error)
{
  g_autoptr(GError) local = NULL;

  if (search->progress)
    search->progress (search->done, search->total, search->progress_data);
  search->done++;

  if (tl_tune_measure (search->context, search->filter, search->values,
                       choice, search->pixels, search->runs, ms, NULL, NULL,
                       &local))
    return TRUE;
  if (tl_tune_cannot_plan (local))
    {
      *ms = G_MAXDOUBLE;
      return TRUE;
    }
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
tl_tune_search (TlContext       *context,
                const TlFilter  *filter,
                const TlValue   *values,
                TlMode           mode,
                const TlPixels  *pixels,
                guint            runs,
                TlTuneProgress   progress,
                gpointer         progress_data,
                TlTuning        *tuning,
                GError         **error)
{
  static const guint swizzles[] = { 4, 8, 16 };
  static const guint ks[TL_TUNE_N_KS] = { 1, 2, 4 };
  TlTuneSearch       search     = { context, filter, values, pixels, runs,
                                    0, 0, progress, progress_data };
  g_autoptr(GArray)  shapes     = NULL;
  TlChoice           base, choice;
  TlLimits           limits;
  TlPlan             plan;
  gint64             start      = g_get_monotonic_time ();
  TlChoice           finalists[TL_TUNE_N_KS][TL_TUNE_FINALISTS];
  gdouble            finalist_ms[TL_TUNE_N_KS][TL_TUNE_FINALISTS];
  gdouble            ms;
  guint              i, k, f;

  g_return_val_if_fail (context != NULL && filter != NULL, FALSE);
  g_return_val_if_fail (pixels != NULL && tuning != NULL, FALSE);

  tl_choice_init (&base);
  base.mode            = mode;
  base.pixels_per_item = tl_filter_pixels_per_item (filter,
                                                    tl_codec_is_narrow (pixels->codec));
  if (! tl_run_plan_filter (context, filter, pixels->codec, &base,
                            pixels->width, pixels->height, &limits, &plan,
                            error))
    return FALSE;

  shapes       = tl_tune_candidates (&limits, &base);
  search.total = (shapes->len + TL_TUNE_FINALISTS * G_N_ELEMENTS (swizzles)) *
                 G_N_ELEMENTS (ks) + 2;
  memset (tuning, 0, sizeof (*tuning));
  tuning->width  = pixels->width;
  tuning->height = pixels->height;

  /* The baselines the result is reported against. */
  choice            = base;
  choice.shape_kind = TL_SHAPE_SEED;
  if (! tl_tune_time (&search, &choice, &tuning->seed_ms, error))
    return FALSE;
  choice.shape_kind = TL_SHAPE_DRIVER;
  if (! tl_tune_time (&search, &choice, &tuning->driver_ms, error))
    return FALSE;

  /* Every shape under each k: more pixels per item change which shape
   * is best (on CPUs most of all).  The three fastest of each k go on to
   * the swizzle, which pays for some shapes and not for others.
   */
  tuning->best_ms = G_MAXDOUBLE;
  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (i = 0; i < TL_TUNE_FINALISTS; i++)
      finalist_ms[k][i] = G_MAXDOUBLE;
  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (i = 0; i < shapes->len; i++)
      {
        guint f;

        choice                 = g_array_index (shapes, TlChoice, i);
        choice.pixels_per_item = ks[k];
        if (! tl_tune_time (&search, &choice, &ms, error))
          return FALSE;
        if (ms < tuning->best_ms)
          {
            tuning->best_ms = ms;
            tuning->choice  = choice;
          }
        /* Keep each k's finalists sorted, fastest first. */
        for (f = TL_TUNE_FINALISTS; f > 0 && ms < finalist_ms[k][f - 1]; f--)
          if (f < TL_TUNE_FINALISTS)
            {
              finalist_ms[k][f] = finalist_ms[k][f - 1];
              finalists[k][f]   = finalists[k][f - 1];
            }
        if (f < TL_TUNE_FINALISTS)
          {
            finalist_ms[k][f] = ms;
            finalists[k][f]   = choice;
          }
      }
  if (tuning->best_ms == G_MAXDOUBLE)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
                   _("no work-group shape of 32 to 1024 items fits %s's "
                     "kernels on %s"), filter->name,
                   tl_context_get_device (context)->name);
      return FALSE;
    }

  for (k = 0; k < G_N_ELEMENTS (ks); k++)
    for (f = 0; f < TL_TUNE_FINALISTS && finalist_ms[k][f] < G_MAXDOUBLE; f++)
      for (i = 0; i < G_N_ELEMENTS (swizzles); i++)
        {
          choice         = finalists[k][f];
          choice.swizzle = swizzles[i];
          if (! tl_tune_time (&search, &choice, &ms, error))
            return FALSE;
          if (ms < TL_TUNE_KEEP_GAIN * tuning->best_ms)
            {
              tuning->best_ms = ms;
              tuning->choice  = choice;
            }
        }

  tuning->n_choices = search.done;
  tuning->search_s  = (g_get_monotonic_time () - start) / 1e6;
  if (progress)
    progress (search.total, search.total, progress_data);

  tl_tune_store (context, filter, pixels->codec, pixels, tuning);
  return TRUE;
}
