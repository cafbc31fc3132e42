/* ThreadLens: median-blur, after GEGL's operation of the same name in its
 * default (quantized) mode: on R'G'B'A, each channel's percentile over a
 * square, circle or diamond window, from 256 bins a channel, colour
 * weighted by the pixel's alpha bin, clamp-to-edge borders.
 *
 * A first pass puts each pixel's channels in their bins (tl_median_bins,
 * under the plan).  Then a work-item slides the windows of two
 * neighbouring columns down a run of rows for one channel (tl_median, a
 * line pass).  The two windows share all but a column's worth of
 * pixels, so the item keeps three histograms in local memory: the
 * shared part, and what only the left window and only the right window
 * hold.  The first windows are counted whole (a list of their pixels
 * from the host); at each step the parts of rows by which they move (a
 * list from the host): about 4 radius + 4 pixels for two outputs, where
 * a window alone would move 4 radius + 2 for one.  So the cost grows with
 * the radius, not its square, and at half the rate of one window an
 * item.  Neighbouring items take neighbouring columns, so a step's reads
 * across a group are one stretch of a row.  Each output's percentile bin
 * is walked to from its last one, over the shared histogram and its own,
 * and kept; a last pass under the plan stores the bins as values
 * (tl_median_store).  The C reference (engine/filters/tl-filter-median.c)
 * counts each window afresh; both find the smallest bin whose count
 * reaches the target, so both give the same bin.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define TL_MEDIAN_BINS 256

/* A value's bin, as GEGL quantizes it (what is not above 0, NaN too, to
 * bin 0).
 */
inline int
tl_median_bin (float v)
{
  v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
  return (int) floor (v * 255.0f + 0.5f);
}

/* Counts in 16 bits where every window's weights fit them (the host's
 * "short" variant, TL_MEDIAN_SHORT: 255 times the window's pixels at
 * most 65535), which halves each item's local memory and so doubles the
 * items a compute unit holds; else 32.
 */
#ifdef TL_MEDIAN_SHORT
typedef ushort tl_median_count;
#else
typedef uint   tl_median_count;
#endif

/* One output's window: its weights, the bin last found and the weights
 * in bins 0 to it, so that the next search walks from there.
 */
typedef struct
{
  uint weight;
  int  last;
  uint below;
} TlMedianWindow;

inline void
tl_median_count_in (TlMedianWindow *w,
                    int             bin,
                    uint            weight)
{
  w->weight += weight;
  if (bin <= w->last)
    w->below += weight;
}

/* The parts of the histograms an item keeps, in local memory. */
enum
{
  TL_MEDIAN_SHARED,   /* in both windows */
  TL_MEDIAN_LEFT,     /* in the left column's window only */
  TL_MEDIAN_RIGHT     /* in the right column's only */
};

/* Adds SIGN times CHANNEL of pixel WORD (its four bins) to PART of the
 * histograms HISTOGRAMS (each TL_MEDIAN_STRIDE counts), and to the
 * windows that hold it: colour weighted by alpha's bin, alpha by 1.
 */
#define TL_MEDIAN_STRIDE (TL_MEDIAN_BINS + 1)

inline void
tl_median_pixel (local tl_median_count *histograms,
                 TlMedianWindow        *left,
                 TlMedianWindow        *right,
                 int                    part,
                 uint                   word,
                 int                    channel,
                 int                    sign)
{
  uint weight = channel == 3 ? 1u : word >> 24;
  int  bin    = (word >> (8 * channel)) & 0xff;

  weight = sign > 0 ? weight : -weight;
  histograms[part * TL_MEDIAN_STRIDE + bin] += (tl_median_count) weight;
  if (part != TL_MEDIAN_RIGHT)
    tl_median_count_in (left, bin, weight);
  if (part != TL_MEDIAN_LEFT)
    tl_median_count_in (right, bin, weight);
}

/* The smallest bin whose weights from bin 0 reach the percentile's share
 * of window W, ceil (weights * percentile) and at least 1, PERCENTILE a
 * fraction in 32-bit fixed point, its counts the shared histogram
 * SHARED plus its own, OWN; bin 0 for a window of no weight.
 */
inline uchar
tl_median_find (local const tl_median_count *shared,
                local const tl_median_count *own,
                TlMedianWindow              *w,
                ulong                        percentile)
{
  ulong target;

  if (w->weight == 0)
    return 0;
  target = max ((ulong) 1, ((ulong) w->weight * percentile + 0xffffffffUL) >> 32);
  if (w->below < target)
    do
      {
        w->last++;
        w->below += (uint) shared[w->last] + own[w->last];
      }
    while (w->below < target);
  else
    while (w->below - ((uint) shared[w->last] + own[w->last]) >= target)
      {
        w->below -= (uint) shared[w->last] + own[w->last];
        w->last--;
      }
  return (uchar) w->last;
}

/* Each pixel's four bins, decoded once for the many windows that hold
 * it.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_median_bins)
kernel void
tl_median_bins (global const tl_pixel *in,
                global uchar4         *bins,
                TlDispatch             d,
                global const float    *codec)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;
  for (int x = origin.x; x < end; x++)
    {
      int    i = origin.y * d.stride + x;
      float4 v = tl_load (in, i, codec);

      bins[i] = (uchar4) (tl_median_bin (v.x), tl_median_bin (v.y),
                          tl_median_bin (v.z), tl_median_bin (v.w));
    }
}
#endif

/* The bins of each pixel's percentiles into FOUND, a work-item a
 * channel of two neighbouring columns along a run of RUN rows (a line
 * pass: D counts pairs times runs times 4, a band of RUN rows after
 * another, the channels of a pair side by side), each item's three
 * histograms in local memory (HISTOGRAMS, 3 TL_MEDIAN_STRIDE counts an
 * item).  CELLS: the first windows' pixels, (column, row, part) from the
 * left column's centre; MOVES: what a step down adds to the parts and
 * takes from them, a pixel each, (column, row, +1 or -1, row * WIDTH +
 * column) from the left centre, the shared part's N_SHARED first, then
 * the left's N_LEFT, then the right's, the last for runs whose windows
 * all lie inside the region, RADIUS from either centre.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_median)
/* Argument slots: tl-args.h, TL_ARG_MEDIAN_*. */
kernel void
tl_median (global const uchar4 *bins,
           global uchar        *found,
           TlDispatch           d,
           global const float  *codec,
           global const int4   *cells,
           int                  n_cells,
           int                  radius,
           global const int4   *moves,
           int                  n_shared,
           int                  n_left,
           int                  n_moves,
           ulong                percentile,
           ulong                alpha_percentile,
           int                  width,
           int                  height,
           int                  run,
           local tl_median_count *histograms)
{
  int                    unit    = tl_item_origin (&d).x;
  int                    channel = unit & 3;
  int                    pairs   = (width + 1) / 2;
  int                    band, x, first, end, inside, k;
  ulong                  share   = channel == 3 ? alpha_percentile : percentile;
  global const uint     *words   = (global const uint *) bins;
  local tl_median_count *mine;
  TlMedianWindow         left    = { 0, 0, 0 };
  TlMedianWindow         right   = { 0, 0, 0 };

  /* A pixel's four bins as one word, red in the low byte (OpenCL
   * devices here are little-endian).
   */
  mine = histograms + get_local_id (0) * 3 * TL_MEDIAN_STRIDE;
  for (int b = 0; b < 3 * TL_MEDIAN_STRIDE; b++)
    mine[b] = 0;
  if (unit >= d.width)
    return;

  band  = (unit >> 2) / pairs;
  x     = ((unit >> 2) - band * pairs) * 2;
  first = band * run;
  end   = min (first + run, height);

  for (k = 0; k < n_cells; k++)
    {
      int4 cell = cells[k];

      tl_median_pixel (mine, &left, &right, cell.z,
                       words[clamp (first + cell.y, 0, height - 1) * width +
                             clamp (x + cell.x, 0, width - 1)],
                       channel, 1);
    }
  found[(first * width + x) * 4 + channel] =
    tl_median_find (mine, mine + TL_MEDIAN_STRIDE, &left, share);
  if (x + 1 < width)
    found[(first * width + x + 1) * 4 + channel] =
      tl_median_find (mine, mine + 2 * TL_MEDIAN_STRIDE, &right, share);

  /* Every step's windows inside the region: no clamping. */
  inside = (x - radius >= 0 && x + 1 + radius < width &&
            first - radius - 1 >= 0 && end - 1 + radius < height);
  for (int y = first + 1; y < end; y++)
    {
      int centre = y * width + x;

      if (inside)
        {
          for (k = 0; k < n_shared; k++)
            tl_median_pixel (mine, &left, &right, TL_MEDIAN_SHARED,
                             words[centre + moves[k].w], channel, moves[k].z);
          for (; k < n_shared + n_left; k++)
            tl_median_pixel (mine, &left, &right, TL_MEDIAN_LEFT,
                             words[centre + moves[k].w], channel, moves[k].z);
          for (; k < n_moves; k++)
            tl_median_pixel (mine, &left, &right, TL_MEDIAN_RIGHT,
                             words[centre + moves[k].w], channel, moves[k].z);
        }
      else
        for (k = 0; k < n_moves; k++)
          {
            int4 move = moves[k];
            int  part = k < n_shared ? TL_MEDIAN_SHARED :
                        k < n_shared + n_left ? TL_MEDIAN_LEFT : TL_MEDIAN_RIGHT;

            tl_median_pixel (mine, &left, &right, part,
                             words[clamp (y + move.y, 0, height - 1) * width +
                                   clamp (x + move.x, 0, width - 1)],
                             channel, move.z);
          }
      found[centre * 4 + channel] =
        tl_median_find (mine, mine + TL_MEDIAN_STRIDE, &left, share);
      if (x + 1 < width)
        found[(centre + 1) * 4 + channel] =
          tl_median_find (mine, mine + 2 * TL_MEDIAN_STRIDE, &right, share);
    }
}
#endif

/* The percentiles' bins as values, bin / 255, into the storage. */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_median_store)
kernel void
tl_median_store (global const uchar4 *found,
                 global tl_pixel     *out,
                 TlDispatch           d,
                 global const float  *codec)
{
  int2 origin = tl_item_origin (&d);
  int  end    = min (origin.x + d.pixels_per_item, d.width);

  if (origin.y >= d.height)
    return;
  for (int x = origin.x; x < end; x++)
    {
      int i = origin.y * d.stride + x;

      tl_store (out, i, convert_float4 (found[i]) / 255.0f, codec);
    }
}
#endif
