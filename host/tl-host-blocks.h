/* ThreadLens: the blocks an in-core operation computes when GIMP asks in
 * chunks.
 *
 * GIMP asks for a filter's output in chunks sized to about 1/15 s of
 * work, and each chunk of a neighbourhood filter reads its halo again: a
 * halo as large as the layer (500 steps of mean-curvature-blur, a median
 * of radius 100) computes the whole layer once per chunk.  So the GEGL
 * module answers a chunk with the grid blocks it touches that are not
 * computed yet, GEGL keeps them in the node's cache, and the chunks that
 * follow are cut from them.  A block is wide enough that its halo adds
 * little, and on a GPU wide enough that a call's fixed cost does too.
 *
 * Rectangles are in level-0 coordinates at every level, as GEGL's
 * requests are; a block's side then grows with the level.
 *
 * The record of computed blocks is a hint only: a region always holds
 * the chunk asked for, and GEGL's cache says which pixels are valid, so
 * a record that is out of date costs time, never pixels.
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
#define TL_HOST_BLOCK_MIN_CPU     512
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

/* The level of the last region computed (GEGL does not say a request's
 * level before it is processed; requests come a level at a time).
 */
gint           tl_host_blocks_get_level (TlHostBlocks       *blocks);

/* The region to compute for ROI within BOUNDS: ROI and every block of side SIDE (a grid from BOUNDS'
 * origin) that ROI touches and that is not computed, within BOUNDS.
 */
GeglRectangle  tl_host_blocks_region   (TlHostBlocks        *blocks,
                                        const GeglRectangle *bounds,
                                        gint                 side,
                                        const GeglRectangle *roi);
/* REGION of BOUNDS was computed at LEVEL with blocks of side SIDE: the
 * blocks wholly inside it are done.  A new level, bounds or side
 * forgets the others.
 */
void           tl_host_blocks_done     (TlHostBlocks        *blocks,
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
