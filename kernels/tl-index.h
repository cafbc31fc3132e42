/* ThreadLens: index mapping shared by every kernel.
 *
 * The host passes one TlDispatch by value to each launch.  It says where the
 * launch sits in the whole group grid (group_base: emulated non-uniform
 * launches are offset, and their get_group_id () starts at 0), which part of
 * the grid the swizzle permutes, and how many pixels each work-item takes.
 * The layout must match TlDispatch in engine/run/tl-run.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

typedef struct
{
  int width;              /* region in pixels */
  int height;
  int stride;             /* pixels per buffer row */
  int pixels_per_item;    /* consecutive pixels along x per work-item */
  int group_w;            /* the plan's work-group shape */
  int group_h;
  int base_x;             /* group id of this launch's first group */
  int base_y;
  int swizzle_gx;         /* groups the swizzle permutes in x and y */
  int swizzle_gy;
  int swizzle;            /* tile width N in groups, 0 = off */
  int row_base;           /* first row the output buffer holds (the
                           * overlay's windows), 0 elsewhere */
} TlDispatch;

/* Seed 004's swizzle with the corrected last tile; mirrors
 * tl_plan_swizzle () on the host, which the tests hold against.
 */
inline uint2
tl_swizzle (uint2 group,
            uint  grid_x,
            uint  grid_y,
            uint  n)
{
  uint flat     = grid_x * group.y + group.x;
  uint per_tile = n * grid_y;
  uint tile     = flat / per_tile;
  uint local_id = flat % per_tile;
  uint width    = tile < grid_x / n ? n : max (1u, grid_x % n);
  uint swizzled = tile * n + (local_id / width) * grid_x + local_id % width;

  return (uint2) (swizzled % grid_x, swizzled / grid_x);
}

/* The group this work-item's group computes, in the whole grid. */
inline uint2
tl_group_id (const TlDispatch *d)
{
  uint2 group = (uint2) (get_group_id (0) + d->base_x,
                         get_group_id (1) + d->base_y);

  if (d->swizzle > 0 &&
      group.x < (uint) d->swizzle_gx && group.y < (uint) d->swizzle_gy)
    group = tl_swizzle (group, d->swizzle_gx, d->swizzle_gy, d->swizzle);

  return group;
}

/* The first pixel of this work-item: x of its leftmost pixel, and its row.
 * Work-items of a uniform grid may lie outside the region: callers guard.
 */
inline int2
tl_item_origin (const TlDispatch *d)
{
  uint2 group;
  int   ix, iy;

  /* group_w = 0: the driver chose the local size (the benchmark's
   * baseline), so only the global ID is meaningful.
   */
  if (d->group_w == 0)
    return (int2) (get_global_id (0) * d->pixels_per_item, get_global_id (1));

  /* Without a swizzle the group's place in the grid is the launch's own:
   * an emulated launch's offset is its first group times the full shape,
   * so the global ID is the same number with less arithmetic per item
   * (on CPU drivers that vectorise across items, 13% of a point filter).
   */
  if (d->swizzle == 0)
    return (int2) (get_global_id (0) * d->pixels_per_item, get_global_id (1));

  group = tl_group_id (d);
  ix    = group.x * d->group_w + get_local_id (0);
  iy    = group.y * d->group_h + get_local_id (1);

  return (int2) (ix * d->pixels_per_item, iy);
}

/* The first pixel of this work-item's group: x of its span's leftmost
 * pixel, and its top row.
 */
inline int2
tl_group_origin (const TlDispatch *d)
{
  int2 origin = tl_item_origin (d);

  return (int2) (origin.x - (int) get_local_id (0) * d->pixels_per_item,
                 origin.y - (int) get_local_id (1));
}
