/* ThreadLens: median-blur, after GEGL's operation of the same name in its
 * default (quantized) mode: on R'G'B'A, each channel's percentile over a
 * square, circle or diamond window, from 256 bins a channel, colour
 * weighted by the pixel's alpha bin, clamp-to-edge borders.
 *
 * A first pass puts each pixel's channels in their bins (tl_median_bins,
 * under the plan).  Then a work-item slides a window down a run of a
 * column for one channel (tl_median, a line pass), counting the window's
 * histogram in local memory: the first window whole (its outline from
 * the host), then at each step a pixel into and a pixel out of each of
 * its columns (where, from a list from the host), 4 radius + 2 pixels,
 * so the cost grows with the radius, not its square.  Neighbouring items take
 * neighbouring columns, so a step's reads across a group are one
 * stretch of a row.  The percentile's bin is walked
 * to from the last one, and kept; a last pass under the plan stores the
 * bins as values (tl_median_store).  The C reference (engine/filters/tl-filter-median.c)
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

/* One channel's histogram of the window, in local memory, with the bin
 * last found and the weights in bins 0 to it, so that the next search
 * walks from there.
 */
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

typedef struct
{
  local tl_median_count *bins;
  uint                   weight;     /* the window's weights */
  int                    last;
  uint                   below;
} TlMedianHistogram;

/* Adds SIGN times CHANNEL of pixel WORD (its four bins) to H. */
inline void
tl_median_pixel (TlMedianHistogram *h,
                 uint               word,
                 int                channel,
                 int                sign)
{
  uint weight = channel == 3 ? 1u : word >> 24;
  int  bin    = (word >> (8 * channel)) & 0xff;

  weight = sign > 0 ? weight : -weight;
  h->bins[bin] += (tl_median_count) weight;
  h->weight    += weight;
  if (bin <= h->last)
    h->below += weight;
}

/* Adds SIGN times CHANNEL of each pixel of column X, rows Y0 to Y1, to
 * H, from BINS (tl_median_bins): colour weighted by alpha's bin, alpha
 * by 1.
 */
inline void
tl_median_column (TlMedianHistogram   *h,
                  global const uchar4 *bins,
                  int                  width,
                  int                  height,
                  int                  channel,
                  int                  x,
                  int                  y0,
                  int                  y1,
                  int                  sign)
{
  /* A pixel's four bins as one word, red in the low byte (OpenCL
   * devices here are little-endian).
   */
  global const uint *column = (global const uint *) bins + clamp (x, 0, width - 1);

  for (int y = y0; y <= y1; y++)
    tl_median_pixel (h, column[clamp (y, 0, height - 1) * width], channel,
                     sign);
}

/* The smallest bin whose weights from bin 0 reach the percentile's share
 * of the window, ceil (weights * percentile) and at least 1, PERCENTILE a
 * fraction in 32-bit fixed point; bin 0 for a window of no weight.
 */
inline uchar
tl_median_find (TlMedianHistogram *h,
                ulong              percentile)
{
  ulong target;

  if (h->weight == 0)
    return 0;
  target = max ((ulong) 1, ((ulong) h->weight * percentile + 0xffffffffUL) >> 32);
  if (h->below < target)
    do
      h->below += h->bins[++h->last];
    while (h->below < target);
  else
    while (h->below - h->bins[h->last] >= target)
      h->below -= h->bins[h->last--];
  return (uchar) h->last;
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
 * channel of a run of RUN pixels of a column (a line pass: D counts runs
 * times 4, a band of RUN rows after another, the channels of a column
 * side by side), each item's histogram in local memory (HISTOGRAMS,
 * TL_MEDIAN_STRIDE counts an item).  OUTLINE[i]: the window's
 * half-height i columns from its centre; MOVES: what a step down adds to
 * the window and takes from it, a pixel a column of the window
 * (N_MOVES): (where the pixel entering is, where the one leaving is,
 * both from the centre as row * WIDTH + column, for runs whose windows
 * all lie inside the region; the column; the half-height).
 */
#define TL_MEDIAN_STRIDE (TL_MEDIAN_BINS + 1)

#if ! defined (TL_ONLY_KERNELS) || defined (TL_KERNEL_tl_median)
/* Argument slots: tl-args.h, TL_ARG_MEDIAN_*. */
kernel void
tl_median (global const uchar4 *bins,
           global uchar        *found,
           TlDispatch           d,
           global const float  *codec,
           global const int    *outline,
           int                  radius,
           global const int4   *moves,
           int                  n_moves,
           ulong                percentile,
           ulong                alpha_percentile,
           int                  width,
           int                  height,
           int                  run,
           local tl_median_count *histograms)
{
  int               unit    = tl_item_origin (&d).x;
  int               channel = unit & 3;
  int               x, band, first, end, inside;
  ulong             share   = channel == 3 ? alpha_percentile : percentile;
  TlMedianHistogram h;

  h.bins = histograms + get_local_id (0) * TL_MEDIAN_STRIDE;
  for (int b = 0; b < TL_MEDIAN_BINS; b++)
    h.bins[b] = 0;
  if (unit >= d.width)
    return;

  band   = (unit >> 2) / width;
  x      = (unit >> 2) - band * width;
  first  = band * run;
  end    = min (first + run, height);
  h.weight = 0;
  h.last   = 0;
  h.below  = 0;
  for (int dx = -radius; dx <= radius; dx++)
    {
      int reach = outline[abs (dx)];

      tl_median_column (&h, bins, width, height, channel, x + dx,
                        first - reach, first + reach, 1);
    }
  found[(first * width + x) * 4 + channel] = tl_median_find (&h, share);

  /* Every step's window inside the region: no clamping. */
  inside = (x - radius >= 0 && x + radius < width &&
            first - radius - 1 >= 0 && end - 1 + radius < height);
  for (int y = first + 1; y < end; y++)
    {
      global const uint *words  = (global const uint *) bins;
      int                centre = y * width + x;

      if (inside)
        for (int k = 0; k < n_moves; k++)
          {
            int4 move     = moves[k];
            uint entering = words[centre + move.x];
            uint leaving  = words[centre + move.y];

#ifdef TL_MEDIAN_SKIP_ALPHA
            /* Alpha counts every pixel once, so where the two pixels'
             * alpha bins are the same (every move of an opaque
             * layer's), its histogram stays as it is.  On CPU devices
             * (the host's "skip-alpha" variant) skipping them took the
             * pass from about 225 to 200 ms (PoCL, 1920x1080, radius
             * 5); colour, weighted by alpha, changes too often for the
             * same test to pay.  On the H100, where alpha's items share
             * a warp with colour's, the test cost 12 to 19%.
             */
            if (channel == 3 && (entering >> 24) == (leaving >> 24))
              continue;
#endif
            tl_median_pixel (&h, entering, channel, 1);
            tl_median_pixel (&h, leaving, channel, -1);
          }
      else
        for (int k = 0; k < n_moves; k++)
          {
            int4 move   = moves[k];
            int  column = clamp (x + move.z, 0, width - 1);

            tl_median_pixel (&h, words[clamp (y + move.w, 0, height - 1) * width +
                                       column], channel, 1);
            tl_median_pixel (&h, words[clamp (y - move.w - 1, 0, height - 1) * width +
                                       column], channel, -1);
          }
      found[centre * 4 + channel] = tl_median_find (&h, share);
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
