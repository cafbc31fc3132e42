/* ThreadLens: the blocks an in-core operation computes when GIMP asks in
 * chunks (tl-host-blocks.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "tl-host-blocks.h"

/* A block's halo adds at most this much to its area: (1 + 2 h / side)^2
 * <= 1.2 from side >= 2 h / (sqrt (1.2) - 1), about 21 h.
 */
#define TL_HOST_BLOCK_HALO_SHARE 1.2

struct _TlHostBlocks
{
  GMutex        lock;
  GeglRectangle bounds;         /* the grid's */
  gint          side;
  gint          level;
  gint          columns, rows;
  guint8       *done;           /* columns x rows, computed into CACHE */
  GObject      *cache;          /* GEGL's cache followed, or NULL */
  gulong        invalidated;    /* its handler */
};

static void tl_host_blocks_forget_locked (TlHostBlocks        *blocks,
                                          const GeglRectangle *changed);

gint
tl_host_block_side (guint halo,
                    gint  min_side)
{
  gdouble side = 2.0 * halo / (sqrt (TL_HOST_BLOCK_HALO_SHARE) - 1.0);

  /* Past the largest layer GIMP takes (524288 pixels a side). */
  side = MIN (side, (gdouble) (1 << 20));
  side = ceil (side / TL_HOST_BLOCK_ALIGN) * TL_HOST_BLOCK_ALIGN;
  return MAX ((gint) side, MAX (min_side, 1));
}

TlHostBlocks *
tl_host_blocks_new (void)
{
  TlHostBlocks *blocks = g_new0 (TlHostBlocks, 1);

  g_mutex_init (&blocks->lock);
  return blocks;
}

/* GEGL invalidated RECT of the cache (empty: all of it). */
static void
tl_host_blocks_invalidated (GObject             *cache,
                            const GeglRectangle *rect,
                            TlHostBlocks        *blocks)
{
  g_mutex_lock (&blocks->lock);
  tl_host_blocks_forget_locked (blocks, rect && ! gegl_rectangle_is_empty (rect) ?
                                        rect : NULL);
  g_mutex_unlock (&blocks->lock);
}

static void
tl_host_blocks_cache_gone (gpointer  data,
                           GObject  *where)
{
  TlHostBlocks *blocks = data;

  g_mutex_lock (&blocks->lock);
  blocks->cache       = NULL;
  blocks->invalidated = 0;
  tl_host_blocks_forget_locked (blocks, NULL);
  g_mutex_unlock (&blocks->lock);
}

/* The record holds for OUTPUT from now on (NULL: none), forgetting what
 * it held: where OUTPUT is GEGL's cache of a node, which keeps what was
 * computed, its invalidations are followed; any other buffer keeps
 * nothing.  With the lock held, or from free.
 */
static void
tl_host_blocks_follow_locked (TlHostBlocks *blocks,
                              GObject      *output)
{
  if (blocks->cache)
    {
      g_signal_handler_disconnect (blocks->cache, blocks->invalidated);
      g_object_weak_unref (blocks->cache, tl_host_blocks_cache_gone, blocks);
      blocks->cache       = NULL;
      blocks->invalidated = 0;
    }
  tl_host_blocks_forget_locked (blocks, NULL);
  if (output && g_signal_lookup ("invalidated", G_OBJECT_TYPE (output)) != 0)
    {
      blocks->cache       = output;
      blocks->invalidated = g_signal_connect (blocks->cache, "invalidated",
                                              G_CALLBACK (tl_host_blocks_invalidated),
                                              blocks);
      g_object_weak_ref (blocks->cache, tl_host_blocks_cache_gone, blocks);
    }
}

void
tl_host_blocks_free (TlHostBlocks *blocks)
{
  if (blocks == NULL)
    return;
  tl_host_blocks_follow_locked (blocks, NULL);
  g_mutex_clear (&blocks->lock);
  g_free (blocks->done);
  g_free (blocks);
}

gint
tl_host_blocks_get_level (TlHostBlocks *blocks)
{
  gint level;

  g_return_val_if_fail (blocks != NULL, 0);

  g_mutex_lock (&blocks->lock);
  level = blocks->level;
  g_mutex_unlock (&blocks->lock);
  return level;
}

static gboolean
tl_host_blocks_same_grid (TlHostBlocks        *blocks,
                          const GeglRectangle *bounds,
                          gint                 side)
{
  return blocks->done && blocks->side == side &&
         gegl_rectangle_equal (&blocks->bounds, bounds);
}

/* The columns and rows of the blocks RECT touches, within the grid of
 * BOUNDS and SIDE; FALSE where it touches none.
 */
static gboolean
tl_host_blocks_span (const GeglRectangle *bounds,
                     gint                 side,
                     const GeglRectangle *rect,
                     gint                *first_column,
                     gint                *last_column,
                     gint                *first_row,
                     gint                *last_row)
{
  GeglRectangle inside;

  if (! gegl_rectangle_intersect (&inside, rect, bounds))
    return FALSE;
  *first_column = (inside.x - bounds->x) / side;
  *last_column  = (inside.x + inside.width - 1 - bounds->x) / side;
  *first_row    = (inside.y - bounds->y) / side;
  *last_row     = (inside.y + inside.height - 1 - bounds->y) / side;
  return TRUE;
}

static GeglRectangle
tl_host_blocks_block (const GeglRectangle *bounds,
                      gint                 side,
                      gint                 column,
                      gint                 row)
{
  GeglRectangle block = { bounds->x + column * side, bounds->y + row * side,
                          side, side };

  gegl_rectangle_intersect (&block, &block, bounds);
  return block;
}

GeglRectangle
tl_host_blocks_cover (const GeglRectangle *bounds,
                      gint                 side,
                      const GeglRectangle *roi)
{
  GeglRectangle region = *roi;
  GeglRectangle first, last;
  gint          c0, c1, r0, r1;

  g_return_val_if_fail (bounds != NULL && roi != NULL, region);
  g_return_val_if_fail (side > 0, region);

  if (! tl_host_blocks_span (bounds, side, roi, &c0, &c1, &r0, &r1))
    return region;
  first = tl_host_blocks_block (bounds, side, c0, r0);
  last  = tl_host_blocks_block (bounds, side, c1, r1);
  gegl_rectangle_bounding_box (&region, &region, &first);
  gegl_rectangle_bounding_box (&region, &region, &last);
  return region;
}

GeglRectangle
tl_host_blocks_todo (TlHostBlocks        *blocks,
                     GObject             *output,
                     const GeglRectangle *bounds,
                     gint                 side,
                     gint                 level,
                     const GeglRectangle *region)
{
  GeglRectangle todo = { 0, 0, 0, 0 };
  gint          c0, c1, r0, r1, c, r;

  g_return_val_if_fail (blocks != NULL && bounds != NULL && region != NULL,
                        todo);
  g_return_val_if_fail (side > 0, *region);

  g_mutex_lock (&blocks->lock);
  if (output != blocks->cache)
    tl_host_blocks_follow_locked (blocks, output);
  /* Nothing is recorded for another cache, level or grid, nor outside
   * the grid.
   */
  if (blocks->cache == NULL || level != blocks->level ||
      ! tl_host_blocks_same_grid (blocks, bounds, side) ||
      ! gegl_rectangle_contains (bounds, region))
    todo = *region;
  else if (tl_host_blocks_span (bounds, side, region, &c0, &c1, &r0, &r1))
    for (r = r0; r <= r1; r++)
    for (c = c0; c <= c1; c++)
      if (! blocks->done[r * blocks->columns + c])
        {
          GeglRectangle part = tl_host_blocks_block (bounds, side, c, r);

          gegl_rectangle_intersect (&part, &part, region);
          if (gegl_rectangle_is_empty (&todo))
            todo = part;
          else
            gegl_rectangle_bounding_box (&todo, &todo, &part);
        }
  g_mutex_unlock (&blocks->lock);
  return todo;
}

void
tl_host_blocks_done (TlHostBlocks        *blocks,
                     GObject             *output,
                     const GeglRectangle *bounds,
                     gint                 side,
                     gint                 level,
                     const GeglRectangle *region)
{
  gint c0, c1, r0, r1, c, r;

  g_return_if_fail (blocks != NULL && bounds != NULL && region != NULL);
  g_return_if_fail (side > 0);

  g_mutex_lock (&blocks->lock);
  if (blocks->cache == NULL || output != blocks->cache)
    {
      g_mutex_unlock (&blocks->lock);
      return;
    }
  if (level != blocks->level || ! tl_host_blocks_same_grid (blocks, bounds, side))
    {
      g_free (blocks->done);
      blocks->bounds  = *bounds;
      blocks->side    = side;
      blocks->level   = level;
      blocks->columns = (bounds->width + side - 1) / side;
      blocks->rows    = (bounds->height + side - 1) / side;
      blocks->done    = g_new0 (guint8, (gsize) MAX (blocks->columns, 1) *
                                        MAX (blocks->rows, 1));
    }
  if (tl_host_blocks_span (bounds, side, region, &c0, &c1, &r0, &r1))
    for (r = r0; r <= r1; r++)
      for (c = c0; c <= c1; c++)
        {
          GeglRectangle block = tl_host_blocks_block (bounds, side, c, r);

          if (gegl_rectangle_contains (region, &block))
            blocks->done[r * blocks->columns + c] = 1;
        }
  g_mutex_unlock (&blocks->lock);
}

void
tl_host_blocks_forget (TlHostBlocks        *blocks,
                       const GeglRectangle *changed)
{
  g_return_if_fail (blocks != NULL);

  g_mutex_lock (&blocks->lock);
  tl_host_blocks_forget_locked (blocks, changed);
  g_mutex_unlock (&blocks->lock);
}

static void
tl_host_blocks_forget_locked (TlHostBlocks        *blocks,
                              const GeglRectangle *changed)
{
  gint c0, c1, r0, r1, c, r;

  if (blocks->done == NULL)
    return;
  if (changed == NULL)
    {
      memset (blocks->done, 0, (gsize) blocks->columns * blocks->rows);
      return;
    }
  if (! tl_host_blocks_span (&blocks->bounds, blocks->side, changed,
                             &c0, &c1, &r0, &r1))
    return;
  for (r = r0; r <= r1; r++)
    for (c = c0; c <= c1; c++)
      blocks->done[r * blocks->columns + c] = 0;
}
