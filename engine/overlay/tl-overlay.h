/* ThreadLens: the thread-map overlay.
 *
 * tl_overlay_run () runs the overlay kernel under a dispatch plan and reads
 * back, for every pixel, which work-group, work-item, SIMD group and lane
 * computed it, when its group started and where it ran.  The same map can
 * be computed from the plan alone (tl_overlay_model (), for tests), drawn
 * over an image in several modes and styles, described in a legend and
 * written out as JSON.  One job a file: tl-overlay.c builds and reads the
 * map, tl-overlay-render.c draws it and says what it shows,
 * tl-overlay-json.c writes it out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_OVERLAY_H
#define TL_OVERLAY_H

#include <glib.h>

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-plan.h"

G_BEGIN_DECLS

/* A ticket or compute unit nobody measured. */
#define TL_OVERLAY_UNKNOWN G_MAXUINT32

typedef enum
{
  TL_OVERLAY_WORK_GROUP,
  TL_OVERLAY_SIMD_GROUP,
  TL_OVERLAY_LANE,
  TL_OVERLAY_LAUNCH_ORDER,      /* needs a map from a device */
  TL_OVERLAY_COMPUTE_UNIT       /* needs a device that names them (NVIDIA) */
} TlOverlayMode;

typedef enum
{
  TL_OVERLAY_TINT,              /* colours blended at an opacity */
  TL_OVERLAY_CHECKERBOARD       /* seed 002: odd units colour-inverted */
} TlOverlayStyle;

/* Where SIMD group and lane came from. */
typedef enum
{
  TL_OVERLAY_SIMD_DERIVED,      /* linear local ID / P and % P */
  TL_OVERLAY_SIMD_SUB_GROUPS,   /* get_sub_group_id (), get_sub_group_local_id () */
  TL_OVERLAY_SIMD_PTX           /* PTX %laneid; SIMD group = linear ID / 32 */
} TlOverlaySimdSource;

/* Everything known about one pixel. */
typedef struct
{
  guint    group[2];            /* its work-group's place in the grid, after the swizzle */
  guint    launch_index;        /* that group's place in dispatch order: row-major
                                 * index gy * groups_x + gx before the swizzle */
  guint    local[2];            /* the work-item's local ID */
  guint    group_size[2];       /* its group's size in work-items as launched */
  guint    simd_group;
  guint    lane;
  guint    ticket;              /* 0 = first group to start; TL_OVERLAY_UNKNOWN in a model */
  guint    piece;               /* the piece of its launch that the launch
                                 * budget cut (0 first; 0 where uncut) */
  guint    compute_unit;        /* NVIDIA's SM, else TL_OVERLAY_UNKNOWN */
  guint    idle_items;          /* work-items of its group that covered no pixel */
  gboolean partial;             /* an edge group: padded (uniform) or smaller */
} TlOverlayIds;

typedef struct _TlOverlayMap TlOverlayMap;

const gchar        *tl_overlay_mode_to_string      (TlOverlayMode        mode);
gboolean            tl_overlay_mode_from_string    (const gchar         *text,
                                                    TlOverlayMode       *mode,
                                                    GError             **error);
const gchar        *tl_overlay_style_to_string     (TlOverlayStyle       style);
gboolean            tl_overlay_style_from_string   (const gchar         *text,
                                                    TlOverlayStyle      *style,
                                                    GError             **error);
gboolean            tl_overlay_check_choice        (TlOverlayMode        mode,
                                                    TlOverlayStyle       style,
                                                    gdouble              opacity,
                                                    GError             **error);
gboolean            tl_overlay_device_shows        (const TlDevice      *device,
                                                    TlOverlayMode        mode);
gboolean            tl_overlay_check_device        (const TlDevice      *device,
                                                    TlOverlayMode        mode,
                                                    GError             **error);
const gchar        *tl_overlay_simd_source_to_string (TlOverlaySimdSource source);
const gchar        *tl_overlay_simd_source_describe (TlOverlaySimdSource source);

gboolean            tl_overlay_plan                (TlContext           *context,
                                                    const TlFilter      *filter,
                                                    const TlCodec       *codec,
                                                    const TlChoice      *choice,
                                                    guint                width,
                                                    guint                height,
                                                    TlLimits            *limits,
                                                    TlPlan              *plan,
                                                    GError             **error);
TlOverlayMap       *tl_overlay_run                 (TlContext           *context,
                                                    const TlPlan        *plan,
                                                    guint                simd_width,
                                                    gdouble              ms_per_group,
                                                    GError             **error);
TlCodec            *tl_overlay_codec_new           (const Babl          *layer_format,
                                                    GError             **error);
TlOverlayMap       *tl_overlay_draw                (TlContext           *context,
                                                    const TlPlan        *plan,
                                                    guint                simd_width,
                                                    gdouble              ms_per_group,
                                                    TlOverlayMode        mode,
                                                    TlOverlayStyle       style,
                                                    gdouble              opacity,
                                                    const TlCodec       *codec,
                                                    gconstpointer        in,
                                                    gpointer             out,
                                                    gboolean             keep_pixels,
                                                    GError             **error);
TlOverlayMap       *tl_overlay_model               (const TlPlan        *plan,
                                                    guint                simd_width);
void                tl_overlay_map_free            (TlOverlayMap        *map);

const TlPlan       *tl_overlay_map_get_plan        (const TlOverlayMap  *map);
TlOverlaySimdSource tl_overlay_map_get_simd_source (const TlOverlayMap  *map);
guint               tl_overlay_map_get_simd_width  (const TlOverlayMap  *map);
guint               tl_overlay_map_count_compute_units
                                                   (const TlOverlayMap  *map);
guint               tl_overlay_map_count_pieces    (const TlOverlayMap  *map);
void                tl_overlay_map_get_ids         (const TlOverlayMap  *map,
                                                    guint                x,
                                                    guint                y,
                                                    TlOverlayIds        *ids);
void                tl_overlay_map_get_group       (const TlOverlayMap  *map,
                                                    guint                launch_index,
                                                    TlOverlayIds        *ids);

gboolean            tl_overlay_render              (const TlOverlayMap  *map,
                                                    TlOverlayMode        mode,
                                                    TlOverlayStyle       style,
                                                    gdouble              opacity,
                                                    const gfloat        *in,
                                                    gfloat              *out,
                                                    GError             **error);
gchar              *tl_overlay_title               (const TlOverlayMap  *map,
                                                    TlOverlayMode        mode);
gchar              *tl_overlay_plan_title          (const TlPlan        *plan,
                                                    guint                simd_width,
                                                    TlOverlayMode        mode);
gchar              *tl_overlay_legend              (const TlOverlayMap  *map,
                                                    TlOverlayMode        mode,
                                                    TlOverlayStyle       style,
                                                    gdouble              opacity);

gboolean            tl_overlay_map_save_json       (const TlOverlayMap  *map,
                                                    const gchar         *path,
                                                    GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlOverlayMap, tl_overlay_map_free)

G_END_DECLS

#endif /* TL_OVERLAY_H */
