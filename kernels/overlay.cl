/* ThreadLens: the thread map.
 *
 * Runs under any plan, like the filters, and records who computed each
 * pixel: the work-item writes, for each of its pixels, its group's place in
 * dispatch order, its local ID, its SIMD group and lane; the group's first
 * work-item writes the group's record: its place in the grid (after the
 * swizzle), the ticket it took when the group started, its compute unit,
 * its size as launched and how many of its work-items had no pixel.
 *
 * Layout, shared with engine/overlay/tl-overlay-private.h:
 *   pixels[3 p + 0]    launch index: gy * groups_x + gx before the swizzle
 *   pixels[3 p + 1]    lx | ly << 16
 *   pixels[3 p + 2]    SIMD group | lane << 16
 *   groups[8 i + 0..7] gx, gy, ticket, compute unit, launched width and
 *                      height, idle work-items, partial (0 or 1)
 *   info[0]            the ticket counter
 *   info[1]            the SIMD width seen
 *   info[2]            where SIMD group and lane came from
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define TL_SIMD_DERIVED    0u
#define TL_SIMD_SUB_GROUPS 1u
#define TL_SIMD_PTX        2u

#define TL_UNKNOWN         0xFFFFFFFFu

#if defined (TL_SUBGROUPS) && defined (cl_khr_subgroups)
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
#endif

/* Argument slots: tl-args.h, TL_ARG_THREAD_MAP_*. */
kernel void
tl_thread_map (global uint          *pixels,
               global uint          *groups,
               global volatile uint *info,
               TlDispatch            d,
               uint                  simd_width,
               int                   window_rows,
               uint                  record_groups)
{
  local uint idle;
  uint  lx       = get_local_id (0);
  uint  ly       = get_local_id (1);
  uint  size_w   = get_local_size (0);
  uint  size_h   = get_local_size (1);
  uint  linear   = ly * size_w + lx;
  uint  items_x  = (d.width + d.pixels_per_item - 1) / d.pixels_per_item;
  uint  groups_x = (items_x + d.group_w - 1) / d.group_w;
  uint  launch   = (get_group_id (1) + d.base_y) * groups_x +
                   get_group_id (0) + d.base_x;
  uint2 group    = tl_group_id (&d);
  int2  origin   = tl_item_origin (&d);
  bool  active   = origin.x < d.width && origin.y < d.height;
  bool  shown    = origin.y >= d.row_base && origin.y < d.row_base + window_rows;
  uint  ticket   = TL_UNKNOWN;
  uint  unit     = TL_UNKNOWN;
  uint  simd, lane, width, source;

  /* The ticket first, so that it says when the group started.  A map
   * too big for one buffer is written a window of rows per launch of
   * the whole grid; only the first launch takes tickets and records the
   * groups, so both stay those of one dispatch.
   */
  if (linear == 0)
    {
      if (record_groups)
        ticket = atomic_inc (&info[0]);
      idle = 0;
    }

#if defined (TL_SUBGROUPS)
  simd   = get_sub_group_id ();
  lane   = get_sub_group_local_id ();
  width  = get_max_sub_group_size ();
  source = TL_SIMD_SUB_GROUPS;
#elif defined (TL_NVIDIA)
  /* NVIDIA's OpenCL has no sub-groups; warps are 32 consecutive linear
   * IDs, and %laneid is the hardware's own word for the lane.
   */
  asm volatile ("mov.u32 %0, %%laneid;" : "=r" (lane));
  simd   = linear / 32;
  width  = 32;
  source = TL_SIMD_PTX;
#else
  simd   = linear / simd_width;
  lane   = linear % simd_width;
  width  = simd_width;
  source = TL_SIMD_DERIVED;
#endif

#if defined (TL_NVIDIA)
  asm volatile ("mov.u32 %0, %%smid;" : "=r" (unit));
#endif

  /* Padding work-items of a uniform grid count themselves here, so every
   * work-item must reach both barriers: no early return above.
   */
  barrier (CLK_LOCAL_MEM_FENCE);
  if (! active)
    atomic_inc (&idle);
  barrier (CLK_LOCAL_MEM_FENCE);

  if (linear == 0 && record_groups)
    {
      global uint *record = groups + 8 * launch;
      uint         used_w = min ((uint) d.group_w,
                                 items_x - group.x * d.group_w);
      uint         used_h = min ((uint) d.group_h,
                                 (uint) d.height - group.y * d.group_h);

      record[0] = group.x;
      record[1] = group.y;
      record[2] = ticket;
      record[3] = unit;
      record[4] = size_w;
      record[5] = size_h;
      record[6] = idle;
      record[7] = used_w * used_h < (uint) (d.group_w * d.group_h);
      atomic_max (&info[1], width);
      info[2] = source;
    }

  if (! active || ! shown)
    return;

  for (int x = origin.x; x < min (origin.x + d.pixels_per_item, d.width); x++)
    {
      uint p = (origin.y - d.row_base) * d.stride + x;

      pixels[3 * p + 0] = launch;
      pixels[3 * p + 1] = lx | ly << 16;
      pixels[3 * p + 2] = simd | lane << 16;
    }
}

/* The map drawn where it was made, so that only finished pixels come
 * back: engine/overlay/tl-overlay-render.c's rules, one for one, over a window
 * of the map's rows.  The colours come from the host's own palette
 * (tl_overlay_colours ()), indexed by what each mode shows, so no
 * colour is computed twice; the blend is the same float arithmetic
 * without contraction (tl-pixel.h), so the bits equal the C renderer's.
 * Built only on request: "overlay:tl_thread_draw@u8".
 */
#if defined (TL_KERNEL_tl_thread_draw)

#pragma OPENCL FP_CONTRACT OFF

#define TL_DRAW_WORK_GROUP   0u
#define TL_DRAW_SIMD_GROUP   1u
#define TL_DRAW_LANE         2u
#define TL_DRAW_LAUNCH_ORDER 3u
#define TL_DRAW_CHECKERBOARD 1u

/* Argument slots: tl-args.h, TL_ARG_THREAD_DRAW_*. */
kernel void
tl_thread_draw (global const uint     *map,
                global const uint     *groups,
                global const float4   *colours,
                global const tl_pixel *in,
                global tl_pixel       *out,
                global const float    *codec,
                global volatile uint  *missed,
                int                    width,
                int                    rows,
                int                    row_base,
                uint                   mode,
                uint                   style,
                uint                   n_colours,
                uint                   group_count,
                uint                   pixels_per_item,
                uint                   outline,
                uint                   with_image,
                float                  opacity,
                float                  hatch_alpha)
{
  int                x = get_global_id (0);
  int                r = get_global_id (1);
  int                p = r * width + x;
  uint               y = row_base + r;
  uint               launch, lx, ly, simd, lane, key;
  global const uint *record;
  float4             src = (float4) (0.0f);
  float4             dst;

  if (x >= width || r >= rows)
    return;

  /* A pixel the overlay kernel missed is an error, as on the host. */
  launch = map[3 * p];
  if (launch >= group_count)
    {
      atomic_min (&missed[0], y * (uint) width + x);
      return;
    }
  record = groups + 8 * launch;
  lx     = map[3 * p + 1] & 0xFFFFu;
  ly     = map[3 * p + 1] >> 16;
  simd   = map[3 * p + 2] & 0xFFFFu;
  lane   = map[3 * p + 2] >> 16;
  if (with_image)
    src = tl_load (in, p, codec);

  if (style == TL_DRAW_CHECKERBOARD)
    {
      bool invert = mode == TL_DRAW_WORK_GROUP ? (record[0] + record[1]) % 2u == 1u :
                    mode == TL_DRAW_SIMD_GROUP ? simd % 2u == 1u :
                    lane % 8u != 0u;

      dst = invert ? (float4) (1.0f - src.xyz, src.w) : src;
    }
  else
    {
      float3 rgb;
      float  alpha = opacity;

      key = mode == TL_DRAW_WORK_GROUP   ? (record[0] + 3u * record[1]) % 7u :
            mode == TL_DRAW_SIMD_GROUP   ? simd % 7u :
            mode == TL_DRAW_LANE         ? lane :
            mode == TL_DRAW_LAUNCH_ORDER ? record[2] :
                                           record[3];
      if (key >= n_colours)
        {
          atomic_min (&missed[1], y * (uint) width + x);
          return;
        }
      rgb = colours[key].xyz;

      if (record[7] != 0u && (x + y) % 8u < 3u)
        {
          rgb  *= 0.15f;
          alpha = hatch_alpha;
        }
      else if (mode != TL_DRAW_WORK_GROUP && outline &&
               ((lx == 0u && x % pixels_per_item == 0u) || ly == 0u))
        {
          rgb = (float3) (0.0f);
        }

      dst = with_image ?
            (float4) (src.xyz * (1.0f - alpha) + rgb * alpha, src.w) :
            (float4) (rgb, alpha);
    }
  tl_store (out, p, dst, codec);
}
#endif
