/* ThreadLens: the thread map drawn over an image, with its title and
 * legend (see tl-overlay.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <gegl.h>
#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-error.h"
#include "tl-overlay-private.h"

/* Below this many pixels on a side, group edges are not outlined: the
 * lines would cover the tint.
 */
#define TL_OVERLAY_MIN_OUTLINED 6

static const gchar *const tl_overlay_mode_names[] =
{
  [TL_OVERLAY_WORK_GROUP]   = "work-group",
  [TL_OVERLAY_SIMD_GROUP]   = "simd-group",
  [TL_OVERLAY_LANE]         = "lane",
  [TL_OVERLAY_LAUNCH_ORDER] = "launch-order",
  [TL_OVERLAY_COMPUTE_UNIT] = "compute-unit"
};

static const gchar *const tl_overlay_style_names[] =
{
  [TL_OVERLAY_TINT]         = "tint",
  [TL_OVERLAY_CHECKERBOARD] = "checkerboard"
};

/* Seven well-separated hues (R'G'B').  Work-group (gx, gy) takes colour
 * (gx + 3 gy) mod 7: neighbours differ by 1, 3, 2 or 4, never by 0 mod 7,
 * so no two touching groups, diagonals included, look alike.
 */
static const gfloat tl_overlay_palette[7][3] =
{
  { 0.122f, 0.467f, 0.706f },   /* blue */
  { 1.000f, 0.498f, 0.055f },   /* orange */
  { 0.173f, 0.627f, 0.173f },   /* green */
  { 0.839f, 0.153f, 0.157f },   /* red */
  { 0.580f, 0.404f, 0.741f },   /* purple */
  { 0.988f, 0.839f, 0.180f },   /* yellow */
  { 0.090f, 0.745f, 0.812f },   /* cyan */
};

/* Viridis at 0, 1/8, ... 1: perceptually even and readable in grey. */
static const gfloat tl_overlay_viridis[9][3] =
{
  { 0.267f, 0.005f, 0.329f },
  { 0.278f, 0.176f, 0.482f },
  { 0.231f, 0.322f, 0.545f },
  { 0.176f, 0.439f, 0.557f },
  { 0.129f, 0.569f, 0.553f },
  { 0.122f, 0.620f, 0.537f },
  { 0.208f, 0.718f, 0.475f },
  { 0.565f, 0.843f, 0.263f },
  { 0.993f, 0.906f, 0.144f },
};

const gchar *
tl_overlay_mode_to_string (TlOverlayMode mode)
{
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  return tl_overlay_mode_names[mode];
}

gboolean
tl_overlay_mode_from_string (const gchar   *text,
                             TlOverlayMode *mode,
                             GError       **error)
{
  guint i;

  g_return_val_if_fail (text != NULL && mode != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (tl_overlay_mode_names); i++)
    if (g_ascii_strcasecmp (text, tl_overlay_mode_names[i]) == 0)
      {
        *mode = i;
        return TRUE;
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown overlay mode '%s' (expected work-group, simd-group, "
                 "lane, launch-order or compute-unit)"), text);
  return FALSE;
}

const gchar *
tl_overlay_style_to_string (TlOverlayStyle style)
{
  g_return_val_if_fail (style <= TL_OVERLAY_CHECKERBOARD, NULL);

  return tl_overlay_style_names[style];
}

gboolean
tl_overlay_style_from_string (const gchar    *text,
                              TlOverlayStyle *style,
                              GError        **error)
{
  guint i;

  g_return_val_if_fail (text != NULL && style != NULL, FALSE);

  for (i = 0; i < G_N_ELEMENTS (tl_overlay_style_names); i++)
    if (g_ascii_strcasecmp (text, tl_overlay_style_names[i]) == 0)
      {
        *style = i;
        return TRUE;
      }

  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("unknown overlay style '%s' (expected tint or checkerboard)"),
               text);
  return FALSE;
}

static void
tl_overlay_hsv (gdouble  hue,
                gdouble  saturation,
                gdouble  value,
                gfloat  *rgb)
{
  gdouble h = fmod (hue, 1.0) * 6.0;
  gdouble f = h - floor (h);
  gdouble p = value * (1.0 - saturation);
  gdouble q = value * (1.0 - saturation * f);
  gdouble t = value * (1.0 - saturation * (1.0 - f));

  switch ((gint) floor (h) % 6)
    {
    case 0: rgb[0] = value; rgb[1] = t;     rgb[2] = p;     break;
    case 1: rgb[0] = q;     rgb[1] = value; rgb[2] = p;     break;
    case 2: rgb[0] = p;     rgb[1] = value; rgb[2] = t;     break;
    case 3: rgb[0] = p;     rgb[1] = q;     rgb[2] = value; break;
    case 4: rgb[0] = t;     rgb[1] = p;     rgb[2] = value; break;
    default: rgb[0] = value; rgb[1] = p;    rgb[2] = q;     break;
    }
}

static void
tl_overlay_heat (gdouble  t,
                 gfloat  *rgb)
{
  gdouble s = CLAMP (t, 0.0, 1.0) * 8.0;
  guint   i = MIN ((guint) s, 7);
  gdouble f = s - i;
  guint   c;

  for (c = 0; c < 3; c++)
    rgb[c] = tl_overlay_viridis[i][c] * (1.0 - f) +
             tl_overlay_viridis[i + 1][c] * f;
}

/* Every other piece of a launch cut by the launch budget: its colours
 * lighter where they are dark and darker where they are light, so that
 * a piece's edge shows anywhere on the heat map.
 */
static void
tl_overlay_shade (gfloat *rgb)
{
  gfloat luma = 0.2126f * rgb[0] + 0.7152f * rgb[1] + 0.0722f * rgb[2];
  guint  c;

  for (c = 0; c < 3; c++)
    rgb[c] = luma > 0.5f ? rgb[c] * 0.6f : rgb[c] + (1.0f - rgb[c]) * 0.45f;
}

static void
tl_overlay_colour (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   const TlOverlayIds *ids,
                   gfloat             *rgb)
{
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      memcpy (rgb, tl_overlay_palette[(ids->group[0] + 3 * ids->group[1]) % 7],
              3 * sizeof (gfloat));
      break;
    case TL_OVERLAY_SIMD_GROUP:
      memcpy (rgb, tl_overlay_palette[ids->simd_group % 7], 3 * sizeof (gfloat));
      break;
    case TL_OVERLAY_LANE:
      /* A rainbow across each SIMD group: red at lane 0, violet last. */
      tl_overlay_hsv (0.83 * ids->lane / MAX (1, map->simd_width), 0.85, 1.0,
                      rgb);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      tl_overlay_heat (map->plan.group_count > 1 ?
                       (gdouble) ids->ticket / (map->plan.group_count - 1) :
                       0.0, rgb);
      if (map->ticket_piece && ids->ticket < map->plan.group_count &&
          map->ticket_piece[ids->ticket] % 2 == 1)
        tl_overlay_shade (rgb);
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      /* Golden-ratio hues keep consecutive units apart. */
      tl_overlay_hsv (ids->compute_unit * 0.618034, 0.8,
                      ids->compute_unit % 2 ? 0.75 : 1.0, rgb);
      break;
    }
}

/* Seed 002's rule for which pixels the checkerboard inverts. */
static gboolean
tl_overlay_inverted (TlOverlayMode       mode,
                     const TlOverlayIds *ids)
{
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      return (ids->group[0] + ids->group[1]) % 2 == 1;
    case TL_OVERLAY_SIMD_GROUP:
      return ids->simd_group % 2 == 1;
    case TL_OVERLAY_LANE:
      return ids->lane % 8 != 0;
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* Whether PLAN's groups are big enough to outline. */
gboolean
tl_overlay_outlined (const TlPlan *plan)
{
  return plan->local[0] * plan->pixels_per_item >= TL_OVERLAY_MIN_OUTLINED &&
         plan->local[1] >= TL_OVERLAY_MIN_OUTLINED;
}

/* The alpha of an edge group's hatching. */
gfloat
tl_overlay_hatch_alpha (gdouble opacity)
{
  return MIN (1.0, opacity * 1.5);
}

/* The first row or column of pixels of a work-group. */
static gboolean
tl_overlay_on_edge (const TlPlan       *plan,
                    guint               x,
                    guint               y,
                    const TlOverlayIds *ids)
{
  guint k = plan->pixels_per_item;

  return ((ids->local[0] == 0 && x % k == 0) || ids->local[1] == 0) &&
         tl_overlay_outlined (plan);
}

/* MODE's colours as tl_overlay_colour () picks them, 4 floats each (the
 * last unused), for the device's drawing (tl-overlay-draw.c), indexed by
 * what MODE shows: the palette entry of a work-group ((gx + 3 gy) % 7)
 * or SIMD group (% 7), the lane, the ticket, the compute unit.
 */
gfloat *
tl_overlay_colours (const TlOverlayMap *map,
                    TlOverlayMode       mode,
                    guint              *n_colours,
                    GError            **error)
{
  guint64       n = 7;
  guint64       k;
  gfloat       *colours;

  g_return_val_if_fail (map != NULL && n_colours != NULL, NULL);

  if (mode == TL_OVERLAY_LANE)
    n = MAX (MAX (map->simd_width, 1),
             (guint64) map->plan.local[0] * map->plan.local[1]);
  else if (mode == TL_OVERLAY_LAUNCH_ORDER)
    n = map->plan.group_count;
  else if (mode == TL_OVERLAY_COMPUTE_UNIT)
    for (k = 0, n = 0; k < map->plan.group_count; k++)
      {
        guint32 unit = map->groups[k * TL_OVERLAY_GROUP_WORDS + 3];

        if (unit != TL_OVERLAY_UNKNOWN)
          n = MAX (n, (guint64) unit + 1);
      }
  if (n > G_MAXUINT)
    n = G_MAXUINT;

  colours = tl_alloc_n (MAX (n, 1), 4 * sizeof (gfloat), error);
  if (colours == NULL)
    return NULL;
  for (k = 0; k < n; k++)
    {
      TlOverlayIds ids = { { 0, } };

      ids.group[0]     = k;
      ids.simd_group   = k;
      ids.lane         = k;
      ids.ticket       = k;
      ids.compute_unit = k;
      tl_overlay_colour (map, mode, &ids, colours + 4 * k);
      colours[4 * k + 3] = 0.0f;
    }
  *n_colours = n;
  return colours;
}

/* The overlay's own rules, before any map exists: every caller (the
 * hosts' judgement of arguments, the renderer) asks here.
 */
gboolean
tl_overlay_check_choice (TlOverlayMode   mode,
                         TlOverlayStyle  style,
                         gdouble         opacity,
                         GError        **error)
{
  if (! (opacity >= 0.0 && opacity <= 1.0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("overlay opacity %g is outside 0 to 1"), opacity);
      return FALSE;
    }
  if (style == TL_OVERLAY_CHECKERBOARD && mode > TL_OVERLAY_LANE)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("the checkerboard style shows work-groups, SIMD groups "
                     "or lanes, not %s: use the tint style"),
                   tl_overlay_mode_to_string (mode));
      return FALSE;
    }
  return TRUE;
}

/* Whether a map of MODE can be drawn from a run on DEVICE: only NVIDIA's
 * OpenCL says which compute unit ran a group (PTX %smid, kernels/overlay.cl).
 */
gboolean
tl_overlay_device_shows (const TlDevice *device,
                         TlOverlayMode   mode)
{
  g_return_val_if_fail (device != NULL, FALSE);

  return mode != TL_OVERLAY_COMPUTE_UNIT ||
         device->vendor_id == TL_VENDOR_ID_NVIDIA;
}

/* tl_overlay_device_shows () as an error naming the device. */
gboolean
tl_overlay_check_device (const TlDevice *device,
                         TlOverlayMode   mode,
                         GError        **error)
{
  g_return_val_if_fail (device != NULL, FALSE);

  if (tl_overlay_device_shows (device, mode))
    return TRUE;
  g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
               _("%s does not say which compute unit ran a work-group "
                 "(only NVIDIA's does, through PTX %%smid)"), device->name);
  return FALSE;
}

gboolean
tl_overlay_check_mode (const TlOverlayMap *map,
                       TlOverlayMode       mode,
                       TlOverlayStyle      style,
                       gdouble             opacity,
                       GError            **error)
{
  if (! tl_overlay_check_choice (mode, style, opacity, error))
    return FALSE;
  if (mode == TL_OVERLAY_LAUNCH_ORDER && ! map->measured)
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                           _("the launch order is known only from a run on a "
                             "device, not from the planner's model"));
      return FALSE;
    }
  if (mode == TL_OVERLAY_COMPUTE_UNIT &&
      tl_overlay_map_count_compute_units (map) == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID_ARGUMENT,
                   _("%s does not say which compute unit ran a work-group "
                     "(only NVIDIA's does, through PTX %%smid)"),
                   map->device ? map->device : _("the planner's model"));
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  const TlOverlayMap *map;
  TlOverlayMode       mode;
  TlOverlayStyle      style;
  gdouble             opacity;
  const gfloat       *in;
  gfloat             *out;
} TlOverlayDraw;

/* ROWS of DATA's map drawn; each pixel depends on the map alone, so any
 * split into rows gives the same bits.
 */
static void
tl_overlay_render_rows (const GeglRectangle *rows,
                        gpointer             data)
{
  const TlOverlayDraw *draw = data;
  const TlPlan        *plan = &draw->map->plan;
  guint                x, y, c;

  for (y = rows->y; y < (guint) (rows->y + rows->height); y++)
    for (x = 0; x < plan->width; x++)
      {
        gsize         i   = ((gsize) y * plan->width + x) * 4;
        const gfloat *src = draw->in ? draw->in + i : NULL;
        gfloat       *dst = draw->out + i;
        TlOverlayIds  ids;
        gfloat        rgb[3];
        gfloat        alpha = draw->opacity;

        tl_overlay_map_get_ids (draw->map, x, y, &ids);

        if (draw->style == TL_OVERLAY_CHECKERBOARD)
          {
            gboolean invert = tl_overlay_inverted (draw->mode, &ids);

            for (c = 0; c < 3; c++)
              dst[c] = invert ? 1.0f - src[c] : src[c];
            dst[3] = src[3];
            continue;
          }

        tl_overlay_colour (draw->map, draw->mode, &ids, rgb);

        /* Edge groups are hatched with dark diagonals; other modes
         * outline each work-group, where neighbours may look alike.
         */
        if (ids.partial && (x + y) % 8 < 3)
          {
            for (c = 0; c < 3; c++)
              rgb[c] *= 0.15f;
            alpha = tl_overlay_hatch_alpha (draw->opacity);
          }
        else if (draw->mode != TL_OVERLAY_WORK_GROUP &&
                 tl_overlay_on_edge (plan, x, y, &ids))
          {
            for (c = 0; c < 3; c++)
              rgb[c] = 0.0f;
          }

        if (src)
          {
            for (c = 0; c < 3; c++)
              dst[c] = src[c] * (1.0f - alpha) + rgb[c] * alpha;
            dst[3] = src[3];
          }
        else
          {
            for (c = 0; c < 3; c++)
              dst[c] = rgb[c];
            dst[3] = alpha;
          }
      }
}

/* Draws MODE in STYLE.  IN and OUT are R'G'B'A float, 4 floats a pixel,
 * and may be the same buffer.  With the tint style IN may be NULL: OUT
 * then gets the tint alone, its alpha the opacity, for a layer of its own.
 * Rows are drawn on GEGL's threads: one thread took most of a thread
 * map's 560 ms at 3840x2160 inside GIMP's process on the H100 machine.
 */
gboolean
tl_overlay_render (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   TlOverlayStyle      style,
                   gdouble             opacity,
                   const gfloat       *in,
                   gfloat             *out,
                   GError            **error)
{
  TlOverlayDraw draw = { map, mode, style, opacity, in, out };
  GeglRectangle whole;

  g_return_val_if_fail (map != NULL && out != NULL, FALSE);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, FALSE);
  g_return_val_if_fail (style <= TL_OVERLAY_CHECKERBOARD, FALSE);
  g_return_val_if_fail (in != NULL || style == TL_OVERLAY_TINT, FALSE);

  if (! tl_overlay_check_mode (map, mode, style, opacity, error))
    return FALSE;

  whole.x      = 0;
  whole.y      = 0;
  whole.width  = map->plan.width;
  whole.height = map->plan.height;
  gegl_parallel_distribute_area (&whole, 64.0 * 64.0,
                                 GEGL_SPLIT_STRATEGY_HORIZONTAL,
                                 tl_overlay_render_rows, &draw);
  return TRUE;
}

static void
tl_overlay_append_dispatch (GString      *text,
                            const TlPlan *plan)
{
  g_string_append_printf (text, "work-groups %ux%u", plan->local[0],
                          plan->local[1]);
  if (plan->pixels_per_item > 1)
    g_string_append_printf (text, ", %u px per item", plan->pixels_per_item);
  if (plan->swizzle)
    g_string_append_printf (text, ", swizzle %u", plan->swizzle);

  if (plan->mode == TL_MODE_UNIFORM)
    g_string_append (text, ", uniform");
  else if (plan->mode == TL_MODE_EMULATED)
    g_string_append (text, ", emulated");
  else if (plan->emulated)
    g_string_append (text, ", non-uniform (emulated)");
  else
    g_string_append (text, ", non-uniform");
}

/* One line naming what is shown and the dispatch, e.g. "Thread map:
 * work-groups 32x16, swizzle 8, emulated": the GIMP layer's name.  From
 * the plan alone, so that a host can name a layer whose map is drawn
 * elsewhere (GIMP's process); SIMD_WIDTH is the map's.
 */
gchar *
tl_overlay_plan_title (const TlPlan  *plan,
                       guint          simd_width,
                       TlOverlayMode  mode)
{
  GString *text;

  g_return_val_if_fail (plan != NULL, NULL);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  text = g_string_new ("Thread map");
  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      g_string_append (text, ": ");
      break;
    case TL_OVERLAY_SIMD_GROUP:
      g_string_append_printf (text, " (SIMD groups of %u): ", simd_width);
      break;
    case TL_OVERLAY_LANE:
      g_string_append_printf (text, " (lanes of %u): ", simd_width);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      g_string_append (text, " (launch order): ");
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      g_string_append (text, " (compute units): ");
      break;
    }
  tl_overlay_append_dispatch (text, plan);

  return g_string_free (text, FALSE);
}

gchar *
tl_overlay_title (const TlOverlayMap *map,
                  TlOverlayMode       mode)
{
  g_return_val_if_fail (map != NULL, NULL);

  return tl_overlay_plan_title (&map->plan, map->simd_width, mode);
}

/* The title, then a line each on where the IDs came from, what the colours
 * mean and what is hatched.
 */
gchar *
tl_overlay_legend (const TlOverlayMap *map,
                   TlOverlayMode       mode,
                   TlOverlayStyle      style,
                   gdouble             opacity)
{
  g_autofree gchar *title = NULL;
  GString          *text;
  guint64           partial = 0, idle = 0, i;
  guint             p;
  const gchar      *edges = "\n  dark lines: the work-groups' top and left edges";

  g_return_val_if_fail (map != NULL, NULL);
  g_return_val_if_fail (mode <= TL_OVERLAY_COMPUTE_UNIT, NULL);

  title = tl_overlay_title (map, mode);
  text  = g_string_new (title);
  p     = map->simd_width;
  if (map->plan.local[0] * map->plan.pixels_per_item < TL_OVERLAY_MIN_OUTLINED ||
      map->plan.local[1] < TL_OVERLAY_MIN_OUTLINED)
    edges = "";

  g_string_append_printf (text, "\n  %ux%u pixels, %ux%u = %" G_GUINT64_FORMAT
                          " work-groups, computed %s%s",
                          map->plan.width, map->plan.height,
                          map->plan.groups[0], map->plan.groups[1],
                          map->plan.group_count,
                          map->device ? "on " : "by the planner's model",
                          map->device ? map->device : "");
  g_string_append_printf (text, "\n  SIMD groups and lanes: %s",
                          tl_overlay_simd_source_describe (map->simd_source));
  if (map->simd_source == TL_OVERLAY_SIMD_DERIVED)
    g_string_append_printf (text, " = %u", p);
  else if (map->simd_source == TL_OVERLAY_SIMD_SUB_GROUPS)
    g_string_append_printf (text, " (sub-groups of up to %u)", p);

  if (style == TL_OVERLAY_CHECKERBOARD)
    {
      g_string_append_printf (text, "\n  checkerboard (seed 002): %s "
                              "colour-inverted, the rest unchanged",
                              mode == TL_OVERLAY_WORK_GROUP ?
                              "work-groups with odd gx + gy" :
                              mode == TL_OVERLAY_SIMD_GROUP ?
                              "odd SIMD groups" : "lanes not divisible by 8");
      return g_string_free (text, FALSE);
    }

  switch (mode)
    {
    case TL_OVERLAY_WORK_GROUP:
      g_string_append (text, "\n  colours: 7 hues, no two touching "
                       "work-groups alike");
      break;
    case TL_OVERLAY_SIMD_GROUP:
      g_string_append (text, "\n  colours: 7 hues, SIMD group n of each "
                       "work-group in hue n mod 7");
      break;
    case TL_OVERLAY_LANE:
      g_string_append_printf (text, "\n  colours: a rainbow across each SIMD "
                              "group, red = lane 0 to violet = lane %u",
                              p ? p - 1 : 0);
      break;
    case TL_OVERLAY_LAUNCH_ORDER:
      g_string_append_printf (text, "\n  colours: heat map of the start "
                              "ticket, dark purple = first of %"
                              G_GUINT64_FORMAT " work-groups to start, "
                              "yellow = last", map->plan.group_count);
      if (map->ticket_piece)
        g_string_append_printf (text, "; the launch budget cut the %u "
                                "launch%s into %u pieces at %s, every other "
                                "one shaded", map->plan.n_launches,
                                map->plan.n_launches == 1 ? "" : "es",
                                map->n_pieces,
                                map->paced ? "the filter's measured rate" :
                                             "the map kernel's own rate");
      break;
    case TL_OVERLAY_COMPUTE_UNIT:
      g_string_append_printf (text, "\n  colours: one hue per compute unit "
                              "(%u seen)",
                              tl_overlay_map_count_compute_units (map));
      break;
    }
  g_string_append_printf (text, ", blended at %.0f%%", opacity * 100.0);
  if (mode != TL_OVERLAY_WORK_GROUP)
    g_string_append (text, edges);

  for (i = 0; i < map->plan.group_count; i++)
    {
      TlOverlayIds ids;

      tl_overlay_map_get_group (map, i, &ids);
      partial += ids.partial;
      idle    += ids.idle_items;
    }
  if (partial && map->plan.mode == TL_MODE_UNIFORM)
    g_string_append_printf (text, "\n  hatched: %" G_GUINT64_FORMAT " edge "
                            "work-groups padded past the image, with %"
                            G_GUINT64_FORMAT " idle work-items", partial, idle);
  else if (partial)
    g_string_append_printf (text, "\n  hatched: %" G_GUINT64_FORMAT " smaller "
                            "edge work-groups (no idle work-items)", partial);

  return g_string_free (text, FALSE);
}
