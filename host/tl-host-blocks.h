/* ThreadLens: the blocks an in-core operation computes when GIMP asks in
 * chunks.
 *
 * GIMP asks for a filter's output in chunks sized to about 1/15 s of
 * work, and each chunk of a neighbourhood filter reads its halo again: a
 * halo as large as the layer (500 steps of mean-curvature-blur, a median
 * of radius 100) computes the whole layer once per chunk, and on a GPU
 * each chunk pays a call's fixed cost.  So the GEGL module widens a
 * chunk to the grid blocks it touches, GEGL keeps them in the node's
 * cache, and the chunks that follow are cut from them.  A chunk that
 * straddles blocks computed earlier and new ones computes only the new
 * ones: the old ones are in the cache it writes into, as the record of
 * computed blocks says.  The record follows GEGL's cache object (its
 * "invalidated" signal): whatever GEGL invalidates there is forgotten
 * here, and another output buffer starts a new record.  Every call may
 * come from any thread.
 *
 * Rectangles are in level-0 coordinates at every level, as GEGL's
 * requests are; a block's side then grows with the level.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_HOST_BLOCKS_H
#define TL_HOST_BLOCKS_H

#include <gegl.h>

G_BEGIN_DECLS

/* A block's side from its halo is a multiple of this (GEGL's tiles). */
#define TL_HOST_BLOCK_ALIGN       64
/* A call's fixed cost on a GPU (about 0.3 ms on the H100) stays under a
 * tenth of a block's work from about 2048x2048 up (doc/experiments.md).
 */
#define TL_HOST_BLOCK_MIN_GPU     2048
#define TL_HOST_BLOCK_MIN_CPU     1024
/* An environment variable: the least side in pixels instead of the
 * device's (the tests' small layers, the benchmark's experiments).
 */
#define TL_HOST_BLOCK_SIDE_ENV    "THREADLENS_BLOCK_SIDE"

typedef struct _TlHostBlocks TlHostBlocks;

/* The side of a block for a filter whose halo is HALO pixels, at one
 * level: at least MIN_SIDE, and wide enough that the halo adds at
 * most a fifth to a block's area.
 */
gint           tl_host_block_side      (guint                halo,
                                        gint                 min_side);

TlHostBlocks  *tl_host_blocks_new      (void);
void           tl_host_blocks_free     (TlHostBlocks        *blocks);

/* ROI within BOUNDS widened to the blocks of side SIDE it touches (a
 * grid from BOUNDS' origin).
 */
GeglRectangle  tl_host_blocks_cover    (const GeglRectangle *bounds,
                                        gint                 side,
                                        const GeglRectangle *roi);

/* The level of the blocks last recorded: GEGL does not say a request's
 * level before it is processed, and requests come a level at a time.
 */
gint           tl_host_blocks_get_level (TlHostBlocks       *blocks);

/* What of REGION is still to compute at LEVEL on the grid of BOUNDS and
 * SIDE, into OUTPUT: the bounding box of its parts outside computed
 * blocks (empty where there is none).  All of REGION where the record is
 * of another level or grid, or OUTPUT is not the cache it follows (from
 * now on it follows OUTPUT where OUTPUT has GEGL's cache's "invalidated"
 * signal, whose rectangle, empty for all, it forgets).
 */
GeglRectangle  tl_host_blocks_todo     (TlHostBlocks        *blocks,
                                        GObject             *output,
                                        const GeglRectangle *bounds,
                                        gint                 side,
                                        gint                 level,
                                        const GeglRectangle *region);
/* REGION was computed into OUTPUT at LEVEL on the grid of BOUNDS and
 * SIDE: where OUTPUT is the cache the record follows, the blocks wholly
 * inside REGION are done.  Another level or grid than the record's
 * starts a new record.
 */
void           tl_host_blocks_done     (TlHostBlocks        *blocks,
                                        GObject             *output,
                                        const GeglRectangle *bounds,
                                        gint                 side,
                                        gint                 level,
                                        const GeglRectangle *region);
/* The blocks that CHANGED (NULL: all) touches are to be computed
 * again.
 */
void           tl_host_blocks_forget   (TlHostBlocks        *blocks,
                                        const GeglRectangle *changed);

G_END_DECLS

#endif /* TL_HOST_BLOCKS_H */
