/* ThreadLens tests: the thread-map overlay.
 *
 * The IDs the overlay kernel reads back on the device equal the planner's
 * model for every pixel, under every dispatch mode, several shapes,
 * swizzles and pixels per work-item; seed 002's three checkerboards are
 * reproduced on an 80x70 crop of a photo, pixel by pixel and against the
 * reference PNGs in tests/overlay-reference/.  Set
 * THREADLENS_UPDATE_REFERENCE=1 to rewrite those PNGs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-error.h"
#include "tl-filter-job.h"
#include "tl-image.h"
#include "tl-overlay.h"
#include "tl-plan.h"

#define SEED_W 80
#define SEED_H 70
#define SEED_X 184                /* the astronaut's face */
#define SEED_Y 56
#define SEED_P 32                 /* the article's SIMD width */

static TlContext *context;
static gchar     *work_dir;

/* A W x H crop of a photo from tests/images, R'G'B'A float. */
static gfloat *
crop_photo (const gchar *name,
            guint        x0,
            guint        y0,
            guint        width,
            guint        height)
{
  g_autofree gchar  *path  = g_test_build_filename (G_TEST_DIST, "images",
                                                    name, NULL);
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) image = tl_image_load (path, &error);
  g_autofree gfloat *all   = NULL;
  gfloat            *crop;
  guint              y;

  g_assert_no_error (error);
  g_assert_cmpuint (x0 + width, <=, tl_image_get_width (image));
  g_assert_cmpuint (y0 + height, <=, tl_image_get_height (image));

  all  = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  crop = g_new (gfloat, (gsize) width * height * 4);
  for (y = 0; y < height; y++)
    memcpy (crop + (gsize) y * width * 4,
            all + ((gsize) (y0 + y) * tl_image_get_width (image) + x0) * 4,
            width * 4 * sizeof (gfloat));

  return crop;
}

static TlOverlayMap *
run_map (const TlChoice *choice,
         guint           width,
         guint           height,
         guint           simd_width,
         TlPlan         *plan,
         const gchar    *what)
{
  g_autoptr(GError) error = NULL;
  TlOverlayMap     *map;
  TlLimits          limits;

  if (! tl_overlay_plan (context, NULL, NULL, choice, width, height, &limits,
                         plan, &error))
    g_error ("%s: planning: %s", what, error->message);

  map = tl_overlay_run (context, plan, simd_width ? simd_width :
                        limits.simd_width, 0.0, &error);
  if (map == NULL)
    g_error ("%s: %s", what, error->message);

  return map;
}

/* Device against model: every pixel's IDs, every group's record, and the
 * tickets a permutation of 0 .. groups - 1.
 */
static void
compare_with_model (const TlOverlayMap *map,
                    const gchar        *what)
{
  const TlPlan           *plan    = tl_overlay_map_get_plan (map);
  TlOverlaySimdSource     source  = tl_overlay_map_get_simd_source (map);
  guint                   p       = tl_overlay_map_get_simd_width (map);
  g_autoptr(TlOverlayMap) model   = tl_overlay_model (plan, p);
  g_autofree guint8      *tickets = g_new0 (guint8, plan->group_count);
  guint64                 i;
  guint                   x, y;

  g_assert_cmpuint (p, >, 0);

  for (i = 0; i < plan->group_count; i++)
    {
      TlOverlayIds got, want;

      tl_overlay_map_get_group (map, i, &got);
      tl_overlay_map_get_group (model, i, &want);

      if (got.ticket >= plan->group_count || tickets[got.ticket])
        g_error ("%s: group %" G_GUINT64_FORMAT " has ticket %u, out of "
                 "range or taken twice", what, i, got.ticket);
      tickets[got.ticket] = 1;
      if (tl_overlay_map_count_compute_units (map) == 0)
        g_assert_cmpuint (got.compute_unit, ==, TL_OVERLAY_UNKNOWN);

      got.ticket = want.ticket = 0;
      got.compute_unit = want.compute_unit = 0;
      got.piece = want.piece = 0;
      if (memcmp (&got, &want, sizeof (got)) != 0)
        g_error ("%s: group %" G_GUINT64_FORMAT " ran as (%u,%u) size %ux%u "
                 "idle %u partial %d, the model says (%u,%u) size %ux%u "
                 "idle %u partial %d", what, i, got.group[0], got.group[1],
                 got.group_size[0], got.group_size[1], got.idle_items,
                 got.partial, want.group[0], want.group[1],
                 want.group_size[0], want.group_size[1], want.idle_items,
                 want.partial);
    }

  for (y = 0; y < plan->height; y++)
    for (x = 0; x < plan->width; x++)
      {
        TlOverlayIds got, want;

        tl_overlay_map_get_ids (map, x, y, &got);
        tl_overlay_map_get_ids (model, x, y, &want);

        /* Real sub-groups are laid out as the driver likes: only their
         * range is checked.  NVIDIA's %laneid must be the derived lane
         * (warps are filled x-fastest from the linear local ID).
         */
        if (source == TL_OVERLAY_SIMD_SUB_GROUPS)
          {
            g_assert_cmpuint (got.lane, <, p);
            got.simd_group = want.simd_group = 0;
            got.lane = want.lane = 0;
          }
        got.ticket = want.ticket = 0;
        got.compute_unit = want.compute_unit = 0;
        got.piece = want.piece = 0;

        if (memcmp (&got, &want, sizeof (got)) != 0)
          g_error ("%s: pixel %u,%u was computed by group (%u,%u) launch %u "
                   "item (%u,%u) SIMD group %u lane %u; the model says "
                   "(%u,%u) launch %u item (%u,%u) SIMD group %u lane %u",
                   what, x, y, got.group[0], got.group[1], got.launch_index,
                   got.local[0], got.local[1], got.simd_group, got.lane,
                   want.group[0], want.group[1], want.launch_index,
                   want.local[0], want.local[1], want.simd_group, want.lane);
      }
}

/* A map too big for one device buffer is written in windows of rows,
 * one launch of the whole grid each: with 16-row windows (THREADLENS_TILE)
 * every pixel and group still matches the model, and the tickets are one
 * dispatch's, a permutation of the groups.
 */
static void
test_windows (void)
{
  static const TlMode window_modes[] = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM,
                                         TL_MODE_EMULATED };
  guint i;

  g_setenv ("THREADLENS_TILE", "16", TRUE);
  for (i = 0; i < G_N_ELEMENTS (window_modes); i++)
    {
      g_autoptr(GError)       error = NULL;
      g_autoptr(TlOverlayMap) map   = NULL;
      g_autofree gchar       *what  = g_strdup_printf ("16-row windows, %s",
                                                       tl_mode_to_string (window_modes[i]));
      TlChoice                choice;
      TlPlan                  plan;

      tl_choice_init (&choice);
      g_assert_true (tl_shape_from_string ("7x5", &choice, &error));
      choice.mode            = window_modes[i];
      choice.swizzle         = 3;
      choice.pixels_per_item = 2;
      map = run_map (&choice, 203, 101, 0, &plan, what);
      compare_with_model (map, what);
    }
  g_unsetenv ("THREADLENS_TILE");
}

/* The map drawn on the device (tl_overlay_draw ()) against the C
 * renderer that `threadlens overlay` uses, on the same map: every mode
 * the device shows, the tint over the image and alone, the checkerboard,
 * in 8-bit and float storage, uniform and non-uniform, whole and in
 * 16-row windows; the bytes must be the same.
 */
static void
draw_and_compare (const gchar    *storage,
                  const gchar    *shape,
                  TlMode          mode,
                  guint           k,
                  const gfloat   *photo,
                  guint           width,
                  guint           height,
                  const gchar    *what)
{
  static const TlOverlayMode kinds[] = { TL_OVERLAY_WORK_GROUP,
                                         TL_OVERLAY_SIMD_GROUP, TL_OVERLAY_LANE,
                                         TL_OVERLAY_LAUNCH_ORDER,
                                         TL_OVERLAY_COMPUTE_UNIT };
  g_autoptr(GError)   error    = NULL;
  g_autoptr(TlCodec)  codec    = tl_codec_new (babl_format (storage),
                                               "R'G'B'A float", &error);
  gsize               n        = (gsize) width * height;
  gsize               size     = 0;
  g_autofree guint8  *stored   = NULL;
  g_autofree guint8  *drawn    = NULL;
  g_autofree guint8  *expected = NULL;
  g_autofree gfloat  *image    = g_new (gfloat, n * 4);
  g_autofree gfloat  *rendered = g_new (gfloat, n * 4);
  TlChoice            choice;
  TlLimits            limits;
  TlPlan              plan;
  guint               i, s, alone;

  g_assert_no_error (error);
  size     = tl_codec_get_pixel_size (codec);
  stored   = g_malloc (n * size);
  drawn    = g_malloc (n * size);
  expected = g_malloc (n * size);
  babl_process (babl_fish (babl_format ("R'G'B'A float"),
                           tl_codec_get_format (codec)), photo, stored, n);
  tl_codec_decode (codec, stored, image, n);

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string (shape, &choice, &error));
  choice.mode            = mode;
  choice.swizzle         = 3;
  choice.pixels_per_item = k;
  g_assert_true (tl_overlay_plan (context, NULL, NULL, &choice, width, height,
                                  &limits, &plan, &error));

  for (i = 0; i < G_N_ELEMENTS (kinds); i++)
    for (s = TL_OVERLAY_TINT; s <= TL_OVERLAY_CHECKERBOARD; s++)
      for (alone = 0; alone <= (s == TL_OVERLAY_TINT); alone++)
        {
          g_autoptr(TlOverlayMap) map = NULL;
          g_autofree gchar       *at  = NULL;
          gsize                   p;

          if (! tl_overlay_device_shows (tl_context_get_device (context),
                                         kinds[i]) ||
              ! tl_overlay_check_choice (kinds[i], s, 0.6, NULL))
            continue;
          at = g_strdup_printf ("%s, %s %s%s", what,
                                tl_overlay_mode_to_string (kinds[i]),
                                tl_overlay_style_to_string (s),
                                alone ? " alone" : "");
          memset (drawn, 0x5a, n * size);
          map = tl_overlay_draw (context, &plan, limits.simd_width, 0.0,
                                 kinds[i], s, 0.6, codec,
                                 alone ? NULL : stored, drawn, TRUE, &error);
          if (map == NULL)
            g_error ("%s: %s", at, error->message);
          g_assert_true (tl_overlay_render (map, kinds[i], s, 0.6,
                                            alone ? NULL : image, rendered,
                                            &error));
          tl_codec_encode (codec, rendered, expected, n);
          for (p = 0; p < n; p++)
            if (memcmp (drawn + p * size, expected + p * size, size) != 0)
              g_error ("%s: pixel %zu,%zu differs from the C renderer's", at,
                       p % width, p / width);
        }
}

static void
test_device_draw (void)
{
  g_autofree gfloat *photo = crop_photo ("coffee.png", 211, 97, 203, 101);

  draw_and_compare ("R'G'B'A u8", "7x5", TL_MODE_UNIFORM, 2, photo, 203, 101,
                    "u8 7x5 uniform k=2");
  draw_and_compare ("R'G'B'A u8", "seed", TL_MODE_NON_UNIFORM, 1, photo, 203,
                    101, "u8 seed non-uniform");
  draw_and_compare ("R'G'B'A float", "32x8", TL_MODE_EMULATED, 1, photo, 203,
                    101, "float 32x8 emulated");
  draw_and_compare ("RGBA u16", "16x16", TL_MODE_UNIFORM, 1, photo, 203, 101,
                    "linear u16 16x16");
  g_setenv ("THREADLENS_TILE", "16", TRUE);
  draw_and_compare ("R'G'B'A u8", "13x1", TL_MODE_NON_UNIFORM, 3, photo, 203,
                    101, "u8 13x1 in 16-row windows");
  g_unsetenv ("THREADLENS_TILE");
}

static const gchar *const shapes[] = { "seed", "7x5", "1x1", "2x3", "32x8", "13x1" };
static const TlMode modes[] = { TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM, TL_MODE_EMULATED };
static const guint  swizzles[] = { 0, 3, 8 };
static const guint  ks[] = { 1, 2, 3 };

/* A 203x101 crop of coffee.png: neither side divides evenly by any shape
 * above, so every run has partial edge groups.
 */
static void
test_sweep (void)
{
  g_autofree gfloat *photo = crop_photo ("coffee.png", 211, 97, 203, 101);
  g_autofree gfloat *out   = g_new (gfloat, 203 * 101 * 4);
  guint              s, m, n, k, runs = 0;

  for (s = 0; s < G_N_ELEMENTS (shapes); s++)
    for (m = 0; m < G_N_ELEMENTS (modes); m++)
      for (n = 0; n < G_N_ELEMENTS (swizzles); n++)
        for (k = 0; k < G_N_ELEMENTS (ks); k++)
          {
            g_autoptr(TlOverlayMap) map   = NULL;
            g_autoptr(GError)       error = NULL;
            g_autofree gchar       *what  = NULL;
            TlChoice                choice;
            TlPlan                  plan;

            /* Tiny groups are slow on CPU drivers: a cross section. */
            if (strlen (shapes[s]) == 3 && shapes[s][0] < '3' &&
                (n + k) % 3 != m)
              continue;

            tl_choice_init (&choice);
            g_assert_true (tl_shape_from_string (shapes[s], &choice, NULL));
            choice.mode            = modes[m];
            choice.swizzle         = swizzles[n];
            choice.pixels_per_item = ks[k];
            what = g_strdup_printf ("shape %s, %s, swizzle %u, %u px/item",
                                    shapes[s], tl_mode_to_string (modes[m]),
                                    swizzles[n], ks[k]);

            map = run_map (&choice, 203, 101, 0, &plan, what);
            compare_with_model (map, what);

            /* Every mode the device supports draws on the photo. */
            g_assert_true (tl_overlay_render (map, TL_OVERLAY_LAUNCH_ORDER,
                                              TL_OVERLAY_TINT, 0.5, photo,
                                              out, &error));
            g_assert_no_error (error);
            runs++;
          }

  g_test_message ("%u dispatch choices matched the model", runs);
}

/* Seed 002's rule computed straight from the article: groups of 32 x GH
 * laid over the 80x70 image as Metal's non-uniform dispatch does (the last
 * column 16 wide), SIMD groups of 32 consecutive linear IDs.
 */
static gboolean
seed_inverted (TlOverlayMode mode,
               guint         group_h,
               guint         x,
               guint         y)
{
  guint gx     = x / 32;
  guint gy     = y / group_h;
  guint width  = MIN (32, SEED_W - gx * 32);
  guint linear = (y % group_h) * width + x % 32;

  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      return (gx + gy) % 2 == 1;
    case TL_OVERLAY_SIMD_GROUP:
      return (linear / SEED_P) % 2 == 1;
    case TL_OVERLAY_LANE:
      return (linear % SEED_P) % 8 != 0;
    default:
      g_assert_not_reached ();
    }
}

static gchar *
reference_path (TlOverlayMode mode,
                guint         group_h)
{
  g_autofree gchar *name = g_strdup_printf ("seed002-%s-32x%u.png",
                                            tl_overlay_mode_to_string (mode),
                                            group_h);

  return g_test_build_filename (G_TEST_DIST, "overlay-reference", name, NULL);
}

/* 8-bit R'G'B' PNG, written through GEGL. */
static void
save_png (const gfloat *pixels,
          guint         width,
          guint         height,
          const gchar  *path)
{
  GeglBuffer *buffer = gegl_buffer_new (GEGL_RECTANGLE (0, 0, width, height),
                                        babl_format ("R'G'B' u8"));
  GeglNode   *graph  = gegl_node_new ();
  GeglNode   *source = gegl_node_new_child (graph, "operation",
                                            "gegl:buffer-source", "buffer",
                                            buffer, NULL);
  GeglNode   *save   = gegl_node_new_child (graph, "operation",
                                            "gegl:png-save", "path", path,
                                            "bitdepth", 8, NULL);

  gegl_buffer_set (buffer, NULL, 0, babl_format ("R'G'B'A float"), pixels,
                   GEGL_AUTO_ROWSTRIDE);
  gegl_node_link (source, save);
  gegl_node_process (save);
  g_object_unref (graph);
  g_object_unref (buffer);
}

static void
compare_with_png (const gfloat *pixels,
                  const gchar  *path)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) image = tl_image_load (path, &error);
  g_autofree gfloat *want  = NULL;
  gsize              i;

  g_assert_no_error (error);
  g_assert_cmpuint (tl_image_get_width (image), ==, SEED_W);
  g_assert_cmpuint (tl_image_get_height (image), ==, SEED_H);

  want = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  for (i = 0; i < SEED_W * SEED_H * 4; i++)
    if (fabsf (pixels[i] - want[i]) > 0.5f / 255.0f + 1e-6f)
      g_error ("%s differs at pixel %zu,%zu channel %zu: %g, not %g", path,
               (i / 4) % SEED_W, (i / 4) / SEED_W, i % 4, pixels[i], want[i]);
}

static void
test_seed002 (void)
{
  static const guint heights[] = { 32, 16 };
  static const TlOverlayMode kinds[] =
  {
    TL_OVERLAY_WORK_GROUP, TL_OVERLAY_SIMD_GROUP, TL_OVERLAY_LANE
  };
  g_autofree gfloat *photo  = crop_photo ("astronaut.png", SEED_X, SEED_Y,
                                          SEED_W, SEED_H);
  g_autofree gfloat *out    = g_new (gfloat, SEED_W * SEED_H * 4);
  gboolean           update = g_getenv ("THREADLENS_UPDATE_REFERENCE") != NULL;
  guint              h, i, x, y, c, skipped = 0;

  if (update)
    {
      g_autofree gchar *crop = g_test_build_filename (G_TEST_DIST,
                                                      "overlay-reference",
                                                      "astronaut-80x70.png",
                                                      NULL);

      save_png (photo, SEED_W, SEED_H, crop);
    }

  for (h = 0; h < G_N_ELEMENTS (heights); h++)
    {
      g_autoptr(TlOverlayMap) map   = NULL;
      g_autoptr(GError)       error = NULL;
      TlChoice                choice;
      TlPlan                  plan;

      /* The article's 3x3 and 3x5 groups, its SIMD width of 32. */
      tl_choice_init (&choice);
      choice.shape_kind = TL_SHAPE_CUSTOM;
      choice.shape[0]   = 32;
      choice.shape[1]   = heights[h];
      choice.mode       = TL_MODE_NON_UNIFORM;

      /* The article's groups are larger than some devices allow (NVIDIA
       * gives this kernel M = 256): there, the picture cannot be made.
       */
      {
        TlLimits limits;

        if (! tl_overlay_plan (context, NULL, NULL, &choice, SEED_W, SEED_H,
                               &limits, &plan, &error) &&
            g_error_matches (error, TL_ERROR, TL_ERROR_LIMIT))
          {
            g_test_message ("seed 002 with 32x%u groups skipped on this "
                            "device: %s", heights[h], error->message);
            skipped++;
            continue;
          }
        g_assert_no_error (error);
      }
      map = run_map (&choice, SEED_W, SEED_H, SEED_P, &plan, "seed 002");
      g_assert_cmpuint (plan.groups[0], ==, 3);
      g_assert_cmpuint (plan.groups[1], ==, heights[h] == 32 ? 3 : 5);

      if (tl_overlay_map_get_simd_source (map) != TL_OVERLAY_SIMD_DERIVED)
        {
          g_test_message ("SIMD groups come from the device here, not from "
                          "P = 32: only the work-group picture is checked");
        }

      for (i = 0; i < G_N_ELEMENTS (kinds); i++)
        {
          g_autofree gchar *path = reference_path (kinds[i], heights[h]);

          if (kinds[i] != TL_OVERLAY_WORK_GROUP &&
              tl_overlay_map_get_simd_source (map) != TL_OVERLAY_SIMD_DERIVED)
            continue;

          g_assert_true (tl_overlay_render (map, kinds[i],
                                            TL_OVERLAY_CHECKERBOARD, 0.5,
                                            photo, out, &error));
          g_assert_no_error (error);

          for (y = 0; y < SEED_H; y++)
            for (x = 0; x < SEED_W; x++)
              {
                gboolean      invert = seed_inverted (kinds[i], heights[h], x, y);
                const gfloat *src    = photo + (y * SEED_W + x) * 4;
                const gfloat *dst    = out + (y * SEED_W + x) * 4;

                for (c = 0; c < 3; c++)
                  if (dst[c] != (invert ? 1.0f - src[c] : src[c]))
                    g_error ("seed 002, %s, 32x%u: pixel %u,%u %s be "
                             "inverted", tl_overlay_mode_to_string (kinds[i]),
                             heights[h], x, y, invert ? "should" : "should not");
                g_assert_cmpfloat (dst[3], ==, src[3]);
              }

          if (update)
            save_png (out, SEED_W, SEED_H, path);
          compare_with_png (out, path);
        }
    }

  if (skipped == G_N_ELEMENTS (heights))
    g_test_skip ("this device's maximum work-group size is below the "
                 "article's 32x16 and 32x32 groups");
}

static void
test_render (void)
{
  g_autofree gfloat      *photo = crop_photo ("coffee.png", 0, 0, 96, 64);
  g_autofree gfloat      *out   = g_new (gfloat, 96 * 64 * 4);
  g_autoptr(TlOverlayMap) map   = NULL;
  g_autoptr(GError)       error = NULL;
  TlChoice                choice;
  TlPlan                  plan;
  TlOverlayIds            a, b;
  gsize                   i;

  /* 240 work-items: within every device's M (NVIDIA gives 256). */
  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("20x12", &choice, NULL));
  map = run_map (&choice, 96, 64, 0, &plan, "render");

  /* Opacity 0 leaves the image as it was. */
  g_assert_true (tl_overlay_render (map, TL_OVERLAY_WORK_GROUP,
                                    TL_OVERLAY_TINT, 0.0, photo, out, &error));
  g_assert_no_error (error);
  for (i = 0; i < 96 * 64 * 4; i++)
    g_assert_cmpfloat (out[i], ==, photo[i]);

  /* Without an image: the tint alone, alpha = opacity outside hatching;
   * neighbouring groups in different colours.
   */
  g_assert_true (tl_overlay_render (map, TL_OVERLAY_WORK_GROUP,
                                    TL_OVERLAY_TINT, 0.5, NULL, out, &error));
  g_assert_no_error (error);
  tl_overlay_map_get_ids (map, 0, 0, &a);
  tl_overlay_map_get_ids (map, 20, 0, &b);
  g_assert_false (a.partial);
  g_assert_true (b.partial || b.group[0] == 1);
  g_assert_cmpfloat (out[3], ==, 0.5f);
  g_assert_true (memcmp (out, out + 20 * 4, 3 * sizeof (gfloat)) != 0);

  /* The last column of groups is padded: 96 = 4 x 20 + 16. */
  tl_overlay_map_get_ids (map, 95, 10, &a);
  g_assert_true (a.partial);
  g_assert_cmpuint (a.idle_items, ==, 4 * 12);

  /* Applied in place, over the photo. */
  memcpy (out, photo, 96 * 64 * 4 * sizeof (gfloat));
  g_assert_true (tl_overlay_render (map, TL_OVERLAY_LANE, TL_OVERLAY_TINT,
                                    0.7, out, out, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (out[3], ==, photo[3]);
}

static void
test_errors (void)
{
  g_autoptr(TlOverlayMap) map   = NULL;
  g_autoptr(TlOverlayMap) model = NULL;
  g_autoptr(GError)       error = NULL;
  g_autofree gfloat      *out   = g_new (gfloat, 16 * 16 * 4);
  TlOverlayMode           mode;
  TlOverlayStyle          style;
  TlChoice                choice;
  TlPlan                  plan;

  g_assert_true (tl_overlay_mode_from_string ("Launch-Order", &mode, NULL));
  g_assert_cmpint (mode, ==, TL_OVERLAY_LAUNCH_ORDER);
  g_assert_false (tl_overlay_mode_from_string ("warp", &mode, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "'warp'"));
  g_assert_nonnull (strstr (error->message, "compute-unit"));
  g_clear_error (&error);
  g_assert_false (tl_overlay_style_from_string ("hatch", &style, &error));
  g_assert_nonnull (strstr (error->message, "tint or checkerboard"));
  g_clear_error (&error);

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("8x8", &choice, NULL));
  map   = run_map (&choice, 16, 16, 0, &plan, "errors");
  model = tl_overlay_model (&plan, 8);

  g_assert_false (tl_overlay_render (map, TL_OVERLAY_WORK_GROUP,
                                     TL_OVERLAY_TINT, 1.5, NULL, out, &error));
  g_assert_nonnull (strstr (error->message, "opacity"));
  g_clear_error (&error);

  g_assert_false (tl_overlay_render (map, TL_OVERLAY_LAUNCH_ORDER,
                                     TL_OVERLAY_CHECKERBOARD, 0.5, out, out,
                                     &error));
  g_assert_nonnull (strstr (error->message, "checkerboard"));
  g_clear_error (&error);

  g_assert_false (tl_overlay_render (model, TL_OVERLAY_LAUNCH_ORDER,
                                     TL_OVERLAY_TINT, 0.5, NULL, out, &error));
  g_assert_nonnull (strstr (error->message, "launch order"));
  g_clear_error (&error);

  if (tl_overlay_map_count_compute_units (map) == 0)
    {
      g_assert_false (tl_overlay_render (map, TL_OVERLAY_COMPUTE_UNIT,
                                         TL_OVERLAY_TINT, 0.5, NULL, out,
                                         &error));
      g_assert_nonnull (strstr (error->message, "%smid"));
      g_clear_error (&error);
    }

  /* The driver's shape hides the groups. */
  choice.shape_kind = TL_SHAPE_DRIVER;
  g_assert_true (tl_overlay_plan (context, NULL, NULL, &choice, 16, 16,
                                  &(TlLimits) { 0 }, &plan, &error));
  g_assert_null (tl_overlay_run (context, &plan, 0, 0.0, &error));
  g_assert_nonnull (strstr (error->message, "explicit work-group shape"));
}

/* The pieces of MAP's launches: their number, and each piece's group
 * count and tickets' range into COUNT, FIRST and LAST (N_PIECES long).
 */
static void
piece_tickets (const TlOverlayMap *map,
               guint               n_pieces,
               guint              *count,
               guint              *first,
               guint              *last)
{
  const TlPlan *plan = tl_overlay_map_get_plan (map);
  guint64       i;

  for (i = 0; i < n_pieces; i++)
    {
      count[i] = 0;
      first[i] = G_MAXUINT;
      last[i]  = 0;
    }
  for (i = 0; i < plan->group_count; i++)
    {
      TlOverlayIds ids;

      tl_overlay_map_get_group (map, i, &ids);
      g_assert_cmpuint (ids.piece, <, n_pieces);
      count[ids.piece]++;
      first[ids.piece] = MIN (first[ids.piece], ids.ticket);
      last[ids.piece]  = MAX (last[ids.piece], ids.ticket);
    }
}

/* A filter's thread map is cut into the pieces the launch budget cut
 * the filter's launches into, at the rate the filter's run measured
 * (TlRunTimes.ms_per_group): with a budget of 7 of its groups (a piece
 * takes half: 3), every piece holds 1 to 3 groups, most of them 3 (the
 * rest end a row), and the pieces started one after another (each
 * one's tickets all before the next one's).  With no budget a launch is
 * one piece.  Every dispatch mode's launches, with and without a
 * swizzle.  (The map kernel at its own rate is cut otherwise: into big
 * pieces on a CPU, into pieces of a group on a GPU, whose per-launch
 * cost it then measures.)
 */
static void
test_pieces (void)
{
  static const TlMode modes[] = { TL_MODE_UNIFORM, TL_MODE_EMULATED };
  const TlFilter     *filter = tl_filter_lookup ("bilateral-filter", NULL);
  g_autofree TlValue *values = tl_filter_default_values (filter);
  g_autofree gfloat  *photo  = crop_photo ("coffee.png", 0, 0, 200, 120);
  g_autofree gfloat  *out    = g_new (gfloat, 200 * 120 * 4);
  guint               m, swizzle;

  for (m = 0; m < G_N_ELEMENTS (modes); m++)
    for (swizzle = 0; swizzle <= 4; swizzle += 4)
      {
        g_autoptr(GError)       error  = NULL;
        g_autoptr(TlOverlayMap) paced  = NULL;
        g_autoptr(TlOverlayMap) whole  = NULL;
        g_autofree gchar       *budget = NULL;
        g_autofree gchar       *legend = NULL;
        g_autofree guint       *count  = NULL;
        g_autofree guint       *first  = NULL;
        g_autofree guint       *last   = NULL;
        TlPixels                pixels = { 200, 120, NULL, photo, out };
        TlChoice                choice;
        TlRunTimes              times;
        TlLimits                limits;
        TlPlan                  plan, map_plan;
        guint                   n, i, threes = 0;

        tl_choice_init (&choice);
        choice.shape_kind = TL_SHAPE_CUSTOM;
        choice.shape[0]   = 16;
        choice.shape[1]   = 8;
        choice.mode       = modes[m];
        choice.swizzle    = swizzle;

        g_setenv ("THREADLENS_LAUNCH_MS", "0", TRUE);
        if (! tl_filter_job_run (context, filter, values, &choice, &pixels,
                                 &plan, &times, &error))
          g_error ("bilateral-filter: %s", error->message);
        g_assert_cmpfloat (times.ms_per_group, >, 0.0);
        g_assert_true (tl_overlay_plan (context, filter, NULL, &choice, 200,
                                        120, &limits, &map_plan, &error));
        g_assert_cmpuint (map_plan.group_count, ==, plan.group_count);
        g_assert_cmpuint (map_plan.n_launches, ==, plan.n_launches);

        whole = tl_overlay_run (context, &map_plan, 0, times.ms_per_group,
                                &error);
        g_assert_no_error (error);
        g_assert_cmpuint (tl_overlay_map_count_pieces (whole), ==,
                          plan.n_launches);

        budget = g_strdup_printf ("%.9g", 7.0 * times.ms_per_group);
        g_setenv ("THREADLENS_LAUNCH_MS", budget, TRUE);
        g_setenv ("THREADLENS_LAUNCH_GROUPS", "1", TRUE);
        paced = tl_overlay_run (context, &map_plan, 0, times.ms_per_group,
                                &error);
        g_assert_no_error (error);
        g_unsetenv ("THREADLENS_LAUNCH_MS");
        g_unsetenv ("THREADLENS_LAUNCH_GROUPS");

        n = tl_overlay_map_count_pieces (paced);
        g_test_message ("%s, swizzle %u: %" G_GUINT64_FORMAT " groups in %u "
                        "launches; %.4f ms a group; %u pieces at the "
                        "filter's rate", tl_mode_to_string (modes[m]),
                        swizzle, plan.group_count, plan.n_launches,
                        times.ms_per_group, n);
        g_assert_cmpuint (n, >=, plan.group_count / 3);

        count = g_new (guint, n);
        first = g_new (guint, n);
        last  = g_new (guint, n);
        piece_tickets (paced, n, count, first, last);
        for (i = 0; i < n; i++)
          {
            g_assert_cmpuint (count[i], >=, 1);
            g_assert_cmpuint (count[i], <=, 3);
            threes += count[i] == 3;
            g_assert_cmpuint (last[i] - first[i] + 1, ==, count[i]);
            if (i > 0)
              g_assert_cmpuint (first[i], ==, last[i - 1] + 1);
          }

        g_assert_cmpuint (threes * 2, >=, n);

        legend = tl_overlay_legend (paced, TL_OVERLAY_LAUNCH_ORDER,
                                    TL_OVERLAY_TINT, 0.5);
        g_assert_nonnull (strstr (legend, "at the filter's measured rate"));
      }
}

static void
test_legend (void)
{
  g_autoptr(TlOverlayMap) map    = NULL;
  g_autofree gchar       *title  = NULL;
  g_autofree gchar       *legend = NULL;
  TlChoice                choice;
  TlPlan                  plan;

  tl_choice_init (&choice);
  g_assert_true (tl_shape_from_string ("32x8", &choice, NULL));
  choice.mode    = TL_MODE_EMULATED;
  choice.swizzle = 8;
  map = run_map (&choice, 600, 70, 0, &plan, "legend");

  title = tl_overlay_title (map, TL_OVERLAY_WORK_GROUP);
  g_assert_cmpstr (title, ==, "Thread map: work-groups 32x8, swizzle 8, emulated");

  legend = tl_overlay_legend (map, TL_OVERLAY_LANE, TL_OVERLAY_TINT, 0.5);
  g_assert_true (g_str_has_prefix (legend, "Thread map (lanes of "));
  g_assert_nonnull (strstr (legend, "SIMD groups and lanes: "));
  g_assert_nonnull (strstr (legend, "hatched: "));
  g_clear_pointer (&legend, g_free);

  legend = tl_overlay_legend (map, TL_OVERLAY_WORK_GROUP,
                              TL_OVERLAY_CHECKERBOARD, 0.5);
  g_assert_nonnull (strstr (legend, "odd gx + gy colour-inverted"));
}

/* Runs threadlens; returns its exit status, output in OUT and ERR. */
static gint
run_cli (gchar      **out,
         gchar      **err,
         const gchar *first,
         ...)
{
  g_autoptr(GPtrArray) argv  = g_ptr_array_new ();
  g_autoptr(GError)    error = NULL;
  const gchar         *bin   = g_getenv ("THREADLENS_BIN");
  const gchar         *arg;
  va_list              args;
  gint                 status;

  g_assert_nonnull (bin);
  g_ptr_array_add (argv, (gpointer) bin);
  va_start (args, first);
  for (arg = first; arg; arg = va_arg (args, const gchar *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, out, err, &status, &error));
  g_assert_no_error (error);
  if (g_spawn_check_wait_status (status, NULL))
    return 0;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 255;
}

static gint64
column (JsonObject  *pixels,
        const gchar *name,
        guint        i)
{
  return json_array_get_int_element (json_object_get_array_member (pixels,
                                                                   name), i);
}

static void
test_cli (void)
{
  g_autofree gchar       *in   = g_test_build_filename (G_TEST_DIST,
                                                        "overlay-reference",
                                                        "astronaut-80x70.png",
                                                        NULL);
  g_autofree gchar       *want = reference_path (TL_OVERLAY_WORK_GROUP, 16);
  g_autofree gchar       *out  = g_build_filename (work_dir, "wg.png", NULL);
  g_autofree gchar       *ids  = g_build_filename (work_dir, "ids.json", NULL);
  g_autofree gchar       *bad  = g_build_filename (work_dir, "bad.png", NULL);
  g_autofree gchar       *text = NULL;
  g_autofree gchar       *errs = NULL;
  g_autoptr(JsonParser)   parser = json_parser_new ();
  g_autoptr(GError)       error = NULL;
  g_autoptr(TlImage)      image = NULL;
  g_autoptr(TlImage)      reference = NULL;
  g_autofree gfloat      *got = NULL;
  g_autofree gfloat      *expected = NULL;
  JsonObject             *root, *pixels;
  JsonArray              *groups;
  gsize                   i;

  /* Seed 002's A9 picture needs 32x16 = 512 work-items per group. */
  {
    TlChoice choice;
    TlLimits limits;
    TlPlan   plan;

    tl_choice_init (&choice);
    g_assert_true (tl_shape_from_string ("32x16", &choice, NULL));
    if (! tl_overlay_plan (context, NULL, NULL, &choice, 80, 70, &limits, &plan, NULL))
      {
        g_test_skip ("this device's maximum work-group size is below seed "
                     "002's 32x16 groups");
        return;
      }
  }

  g_assert_cmpint (run_cli (&text, &errs, "overlay", "--by", "work-group",
                            "--style", "checkerboard", "--shape", "32x16",
                            "--mode", "non-uniform", "--dump-ids", ids, in,
                            out, NULL), ==, 0);
  g_assert_true (g_str_has_prefix (text, "Thread map: work-groups 32x16, "
                                   "non-uniform"));
  g_assert_nonnull (strstr (text, "checkerboard (seed 002)"));
  g_assert_nonnull (strstr (text, "groups        3 x 5 = 15"));

  /* Seed 002's picture, from the file, through the command line. */
  image     = tl_image_load (out, &error);
  reference = tl_image_load (want, &error);
  g_assert_no_error (error);
  got      = tl_image_get_pixels (image, "R'G'B'A float", NULL);
  expected = tl_image_get_pixels (reference, "R'G'B'A float", NULL);
  for (i = 0; i < SEED_W * SEED_H * 4; i++)
    g_assert_cmpfloat_with_epsilon (got[i], expected[i], 0.5 / 255.0);

  g_assert_true (json_parser_load_from_file (parser, ids, &error));
  g_assert_no_error (error);
  root   = json_node_get_object (json_parser_get_root (parser));
  groups = json_object_get_array_member (root, "groups");
  pixels = json_object_get_object_member (root, "pixels");
  g_assert_cmpuint (json_array_get_length (groups), ==, 15);
  {
    JsonObject *corner = json_array_get_object_element (groups, 14);
    JsonArray  *size   = json_object_get_array_member (corner, "size");

    /* The last group, 16x6 as launched (80 = 2 x 32 + 16, 70 = 4 x 16 + 6). */
    g_assert_cmpint (json_array_get_int_element (size, 0), ==, 16);
    g_assert_cmpint (json_array_get_int_element (size, 1), ==, 6);
    g_assert_true (json_object_get_boolean_member (corner, "partial"));
    g_assert_cmpint (json_object_get_int_member (corner, "idle_items"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (corner, "ticket"), <, 15);
  }
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (pixels,
                                                                         "lane")),
                    ==, SEED_W * SEED_H);
  /* Pixel 70,33 is item (6,1) of group (2,2), the 16-wide last column. */
  i = 33 * SEED_W + 70;
  g_assert_cmpint (column (pixels, "local_x", i), ==, 6);
  g_assert_cmpint (column (pixels, "local_y", i), ==, 1);
  g_assert_cmpint (column (pixels, "launch_index", i), ==, 8);
  if (g_str_has_prefix (json_object_get_string_member (root, "simd_source"),
                        "derived"))
    {
      gint64 p = json_object_get_int_member (root, "simd_width");

      /* Linear ID 1 * 16 + 6 in the 16-wide group. */
      g_assert_cmpint (column (pixels, "simd_group", i), ==, 22 / p);
      g_assert_cmpint (column (pixels, "lane", i), ==, 22 % p);
    }
  g_unlink (out);
  g_unlink (ids);
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&errs, g_free);

  /* A bad mode: one line naming it, exit 1, no files. */
  g_assert_cmpint (run_cli (&text, &errs, "overlay", "--by", "warp",
                            "--dump-ids", ids, in, bad, NULL), ==, 1);
  g_assert_cmpstr (errs, ==, "threadlens: unknown overlay mode 'warp' "
                   "(expected work-group, simd-group, lane, launch-order or "
                   "compute-unit)\n");
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (ids, G_FILE_TEST_EXISTS));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&errs, g_free);

  /* No mode at all is a usage error. */
  g_assert_cmpint (run_cli (&text, &errs, "overlay", in, bad, NULL), ==, 2);
  g_assert_nonnull (strstr (errs, "overlay needs --by MODE"));
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&errs, g_free);

  /* --paced cuts the map as the filter's run was cut: a budget below
   * one group's time gives a piece a group (1 x 5 groups, at the
   * filter's 4 pixels a work-item).  Without a filter it is a usage
   * error.
   */
  g_assert_cmpint (run_cli (&text, &errs, "overlay", "--by", "launch-order",
                            "--paced", in, bad, NULL), ==, 2);
  g_assert_nonnull (strstr (errs, "--paced and --set need --filter FILTER"));
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&errs, g_free);
  g_setenv ("THREADLENS_LAUNCH_MS", "0.000001", TRUE);
  g_setenv ("THREADLENS_LAUNCH_GROUPS", "1", TRUE);
  g_assert_cmpint (run_cli (&text, &errs, "overlay", "--by", "launch-order",
                            "--filter", "bilateral-filter", "--set",
                            "blur-radius=3", "--paced", "--shape", "32x16",
                            "--dump-ids", ids, in, out, NULL), ==, 0);
  g_unsetenv ("THREADLENS_LAUNCH_MS");
  g_unsetenv ("THREADLENS_LAUNCH_GROUPS");
  g_assert_nonnull (strstr (text, "into 5 pieces at the filter's measured "
                            "rate"));
  g_assert_true (json_parser_load_from_file (parser, ids, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member
                                                 (root, "dispatch"),
                                               "pieces"), ==, 5);
  g_unlink (out);
  g_unlink (ids);
}

/* The work directory holds the program cache: remove it all. */
static void
remove_tree (const gchar *path)
{
  GDir        *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree gchar *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree gchar *cache = NULL;
  int               status;

  g_test_init (&argc, &argv, NULL);
  work_dir = g_dir_make_tmp ("threadlens-overlay-XXXXXX", NULL);
  cache    = g_build_filename (work_dir, "cache", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", cache, TRUE);

  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  context = tl_context_new (NULL, &error);
  if (context == NULL)
    g_error ("OpenCL is required for these tests (CI has PoCL): %s",
             error->message);
  g_test_message ("device: %s", tl_context_get_device (context)->name);

  g_test_add_func ("/overlay/sweep", test_sweep);
  g_test_add_func ("/overlay/windows", test_windows);
  g_test_add_func ("/overlay/device-draw", test_device_draw);
  g_test_add_func ("/overlay/seed002", test_seed002);
  g_test_add_func ("/overlay/render", test_render);
  g_test_add_func ("/overlay/errors", test_errors);
  g_test_add_func ("/overlay/legend", test_legend);
  g_test_add_func ("/overlay/pieces", test_pieces);
  g_test_add_func ("/overlay/cli", test_cli);

  status = g_test_run ();
  tl_context_free (context);
  remove_tree (work_dir);
  g_free (work_dir);
  return status;
}
