/* ThreadLens: median-blur, after GEGL's operation of the same name in its
 * default (quantized) mode: on R'G'B'A, each channel's percentile over a
 * square, circle or diamond window, from 256 bins a channel, colour
 * weighted by the pixel's alpha bin, clamp-to-edge borders.
 *
 * A first pass puts each pixel's channels in their bins (tl_median_bins).
 * Then a work-item slides a window along a run of its row (tl_median),
 * counting the window's histograms: the first window whole (its outline
 * from the host), then at each step the parts of columns by which the
 * window moves (a list from the host), about 4 radius + 2 pixels, so the
 * cost grows with the radius, not its square.  The percentile's bin is
 * walked to from the last one, and kept; a last pass stores the bins as
 * values (tl_median_store).  The C reference (engine/tl-filter-median.c)
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

/* Channels a pass of the sliding window counts: all four at once (4 KiB
 * of histograms an item), or one at a time (TL_MEDIAN_CHANNEL_PASSES: a
 * quarter of that, each pass reading the window again).
 */
#ifdef TL_MEDIAN_CHANNEL_PASSES
#define TL_MEDIAN_PASS 1
#else
#define TL_MEDIAN_PASS 4
#endif

/* The window's histograms for the pass's channels, each with the bin
 * last found and the weights in bins 0 to it, so that the next search
 * walks from there.
 */
typedef struct
{
  uint  bins[TL_MEDIAN_PASS][TL_MEDIAN_BINS];
  uint  colour;       /* the window's weights: colour's, */
  uint  alpha;        /* and alpha's (its pixels) */
  int   last[TL_MEDIAN_PASS];
  uint  below[TL_MEDIAN_PASS];
} TlMedianHistogram;

inline void
tl_median_count (TlMedianHistogram *h,
                 int                k,
                 int                bin,
                 uint               change)
{
  h->bins[k][bin] += change;
  if (bin <= h->last[k])
    h->below[k] += change;
}

/* Adds SIGN times each pixel of column X, rows Y0 to Y1, to H, from BINS
 * (tl_median_bins), channels FIRST on: colour weighted by alpha's bin,
 * alpha by 1.
 */
inline void
tl_median_column (TlMedianHistogram   *h,
                  global const uchar4 *bins,
                  const TlDispatch    *d,
                  int                  first,
                  int                  x,
                  int                  y0,
                  int                  y1,
                  int                  sign)
{
  global const uchar4 *column = bins + clamp (x, 0, d->width - 1);

  for (int y = y0; y <= y1; y++)
    {
      uchar4 p      = column[clamp (y, 0, d->height - 1) * d->stride];
      uint   weight = sign > 0 ? (uint) p.w : -(uint) p.w;
      uint   one    = sign > 0 ? 1u : (uint) -1;

#if TL_MEDIAN_PASS == 4
      tl_median_count (h, 0, p.x, weight);
      tl_median_count (h, 1, p.y, weight);
      tl_median_count (h, 2, p.z, weight);
      tl_median_count (h, 3, p.w, one);
#else
      uchar  c[4]   = { p.x, p.y, p.z, p.w };

      tl_median_count (h, 0, c[first], first == 3 ? one : weight);
#endif
      h->colour += weight;
      h->alpha  += one;
    }
}

/* The smallest bin of the pass's channel K (the image's channel
 * CHANNEL) whose weights from bin 0 reach the percentile's share of the
 * window, ceil (weights * percentile) and at least 1, PERCENTILE a
 * fraction in 32-bit fixed point; bin 0 for a window of no weight.
 */
inline uchar
tl_median_find (TlMedianHistogram *h,
                int                k,
                int                channel,
                ulong              percentile)
{
  uint  count = channel == 3 ? h->alpha : h->colour;
  ulong target;
  int   last  = h->last[k];
  uint  below = h->below[k];

  if (count == 0)
    return 0;
  target = max ((ulong) 1, ((ulong) count * percentile + 0xffffffffUL) >> 32);
  if (below < target)
    do
      below += h->bins[k][++last];
    while (below < target);
  else
    while (below - h->bins[k][last] >= target)
      below -= h->bins[k][last--];
  h->last[k]  = last;
  h->below[k] = below;
  return (uchar) last;
}

/* The pass's channels' bins at pixel I of FOUND. */
inline void
tl_median_keep (TlMedianHistogram *h,
                global uchar4     *found,
                int                i,
                int                first,
                ulong              percentile,
                ulong              alpha_percentile)
{
#if TL_MEDIAN_PASS == 4
  found[i] = (uchar4) (tl_median_find (h, 0, 0, percentile),
                       tl_median_find (h, 1, 1, percentile),
                       tl_median_find (h, 2, 2, percentile),
                       tl_median_find (h, 3, 3, alpha_percentile));
#else
  ((global uchar *) (found + i))[first] =
    tl_median_find (h, 0, first, first == 3 ? alpha_percentile : percentile);
#endif
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

/* The bins of each pixel's percentiles into FOUND.  OUTLINE[i]: the
 * window's half-height i columns from its centre; CHANGES: (column,
 * first row, last row, +1 or -1) from the centre, what a step to the
 * right adds to the window and takes from it.
 */
#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_median)
kernel void
tl_median (global const uchar4 *bins,
           global uchar4       *found,
           TlDispatch           d,
           global const float  *codec,
           global const int    *outline,
           int                  radius,
           global const int4   *changes,
           int                  n_changes,
           ulong                percentile,
           ulong                alpha_percentile)
{
  int2              origin = tl_item_origin (&d);
  int               end    = min (origin.x + d.pixels_per_item, d.width);
  int               y      = origin.y;
  TlMedianHistogram h;

  if (y >= d.height || origin.x >= d.width)
    return;

  for (int first = 0; first < 4; first += TL_MEDIAN_PASS)
    {
      for (int k = 0; k < TL_MEDIAN_PASS; k++)
        {
          for (int b = 0; b < TL_MEDIAN_BINS; b++)
            h.bins[k][b] = 0;
          h.last[k]  = 0;
          h.below[k] = 0;
        }
      h.colour = 0;
      h.alpha  = 0;
      for (int dx = -radius; dx <= radius; dx++)
        {
          int reach = outline[abs (dx)];

          tl_median_column (&h, bins, &d, first, origin.x + dx, y - reach,
                            y + reach, 1);
        }
      tl_median_keep (&h, found, y * d.stride + origin.x, first, percentile,
                      alpha_percentile);

      for (int x = origin.x + 1; x < end; x++)
        {
          for (int k = 0; k < n_changes; k++)
            {
              int4 change = changes[k];

              tl_median_column (&h, bins, &d, first, x + change.x,
                                y + change.y, y + change.z, change.w);
            }
          tl_median_keep (&h, found, y * d.stride + x, first, percentile,
                          alpha_percentile);
        }
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
