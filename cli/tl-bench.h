/* ThreadLens: benchmarks of dispatch choices against baselines.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_BENCH_H
#define TL_BENCH_H

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-plan.h"

G_BEGIN_DECLS

typedef enum
{
  TL_BENCH_TABLE,          /* a table for people */
  TL_BENCH_JSON_LINES,     /* one JSON object per case */
  TL_BENCH_MARKDOWN        /* one row of the README's table */
} TlBenchOutput;

typedef enum
{
  TL_BENCH_SWEEP_NONE,
  TL_BENCH_SWEEP_ALL,      /* shapes x modes x swizzles x pixels per item */
  TL_BENCH_SWEEP_SHAPES    /* shapes x pixels per item, uniform, no swizzle */
} TlBenchSweep;

typedef struct
{
  const TlChoice *user_choice;   /* NULL: the default cases */
  guint           width, height; /* the photo scaled to this */
  const gchar    *storage;       /* u8, u16, half or float */
  guint           runs;
  TlBenchSweep    sweep;
  gdouble         tune_budget_s; /* > 0: also run the search, keep it */
  const gchar    *heatmap;       /* PNG of the shape sweep, or NULL */
  const gchar    *save_input;    /* prefix of the input's raw files, or NULL */
  TlBenchOutput   output;
} TlBenchOptions;

gboolean tl_bench_run (TlContext            *context,
                       const TlFilter       *filter,
                       const TlValue        *values,
                       TlImage              *image,
                       const TlBenchOptions *options,
                       GError              **error);

G_END_DECLS

#endif /* TL_BENCH_H */
