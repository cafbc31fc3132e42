/* ThreadLens: the tuned choices kept on disk.
 *
 * A search (tl-tune.h) keeps the fastest choice it measured with
 * tl_tune_store (); tl_tune_lookup () finds it again and tl_tune_plan ()
 * turns it into a plan, which is what the shape "auto" uses.  Results
 * live in one small JSON file per device, filter, storage, mode and size
 * class, beside the program cache, written atomically; a file that does
 * not parse is forgotten and searched again.
 *
 * Nothing here runs a filter: the run layer reads the store without
 * depending on the search, which itself runs filters.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TUNE_STORE_H
#define TL_TUNE_STORE_H

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-pixels.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef struct
{
  TlChoice choice;          /* the fastest: a custom shape, swizzle, k */
  gdouble  best_ms;         /* its median */
  gdouble  rule_ms;         /* untuned "auto": the device's rule */
  gdouble  seed_ms;         /* the seed rule under the same mode */
  gdouble  driver_ms;       /* the driver's local size */
  gdouble  search_s;        /* wall time the search took */
  guint    n_choices;       /* choices timed */
  gboolean cut_short;       /* the budget ended the search early */
  guint    width, height;   /* the image the search timed */
} TlTuning;

gboolean  tl_tune_lookup      (TlContext       *context,
                               const gchar     *filter_name,
                               const TlCodec   *codec,
                               TlMode           mode,
                               guint            width,
                               guint            height,
                               TlTuning        *tuning);
gboolean  tl_tune_lookup_device (const gchar   *device_name,
                                 const gchar   *driver_version,
                                 const gchar   *filter_name,
                                 const gchar   *variant,
                                 TlMode         mode,
                                 guint          width,
                                 guint          height,
                                 TlTuning      *tuning);
void      tl_tune_store       (TlContext       *context,
                               const gchar     *filter_name,
                               const TlCodec   *codec,
                               const TlPixels  *pixels,
                               const TlTuning  *tuning);
gboolean  tl_tune_plan        (const TlTuning  *tuning,
                               const TlLimits  *limits,
                               guint            width,
                               guint            height,
                               TlPlan          *plan);
gchar    *tl_tune_size_class  (guint            width,
                               guint            height);

G_END_DECLS

#endif /* TL_TUNE_STORE_H */
