/* ThreadLens tests: the checks of test-gimp, each one call of a
 * ThreadLens procedure on a real photo, and the names the two GIMPs give
 * what the checks' script-fu uses.  Built twice, like test-gimp.c:
 * TL_GIMP_VERSION 2 or 3.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_GIMP_CHECKS_H
#define TL_TEST_GIMP_CHECKS_H

#include <glib.h>

G_BEGIN_DECLS

#ifndef TL_GIMP_VERSION
#error "TL_GIMP_VERSION (2 or 3) names the GIMP under test"
#endif

/* What the two GIMPs call the same things. */
#if TL_GIMP_VERSION == 2
#define GIMP_DIR_VAR   "GIMP2_DIRECTORY"
#define U8_PRECISION   "PRECISION-U8-GAMMA"
#define TOP_LAYER      "(aref (cadr (gimp-image-get-layers img)) 0)"
#define LAYER_WIDTH    "gimp-drawable-width"
#define LAYER_HEIGHT   "gimp-drawable-height"
#define NEW_GROUP      "(car (gimp-layer-group-new img))"
#define NEW_TEXT       "(car (gimp-text-layer-new img \"ThreadLens\" \"Sans\" 40 PIXELS))"
#else
#define GIMP_DIR_VAR   "GIMP3_DIRECTORY"
#define U8_PRECISION   "PRECISION-U8-NON-LINEAR"
#define TOP_LAYER      "(vector-ref (car (gimp-image-get-layers img)) 0)"
#define LAYER_WIDTH    "gimp-drawable-get-width"
#define LAYER_HEIGHT   "gimp-drawable-get-height"
#define NEW_GROUP      "(car (gimp-group-layer-new img \"group\"))"
#define NEW_TEXT       "(car (gimp-text-layer-new img \"ThreadLens\" " \
                       "(car (gimp-context-get-font)) 40 UNIT-PIXEL))"
#endif

/* A check's env that ends the plug-in's process (SIGKILL) that many
 * seconds after it starts, as GIMP's progress cancel does
 * (gimp-batch.c).
 */
#define KILL_PLUG_IN "TL_TEST_KILL_PLUG_IN"

/* What a check expects of GIMP's call. */
typedef enum
{
  EXPECT_SAME_AS_CLI,      /* equals `threadlens apply` with cli_options */
  EXPECT_SAME_AS_CHECK,    /* equals another check's output */
  EXPECT_UNCHANGED,        /* the call fails with `error`, pixels kept */
  EXPECT_OVERLAY,          /* as EXPECT_SAME_AS_CLI (or unchanged, with no
                            * cli options), plus a new layer whose name
                            * starts with `error`, the photo's size */
  EXPECT_CUSTOM,           /* a test function of its own looks at it */
  EXPECT_NOTHING,          /* the call succeeds, as GIMP's own filters
                            * do, with the pixels kept and no undo step */
  EXPECT_KEPT              /* an operation in GIMP's process that cannot
                            * run: the call returns, GIMP's messages say
                            * `error`, the pixels are the input's */
} Expect;

typedef struct
{
  const gchar *name;
  const gchar *photo;
  const gchar *before;       /* scheme on img and layer before the call */
  const gchar *filter;
  const gchar *run_mode;
  const gchar *args;         /* "name=value;..." (strings unquoted) */
  const gchar *after;        /* scheme after the call, before saving */
  Expect       expect;
  const gchar *error;        /* EXPECT_UNCHANGED: text of GIMP's error */
  const gchar *cli[6];       /* EXPECT_SAME_AS_CLI: apply's options; or
                              * EXPECT_SAME_AS_CHECK: cli[0] the check */
  gboolean     sixteen_bit;  /* compared to 16-bit precision, levels kept */
  const gchar *env;          /* NAME=VALUE for a GIMP run of its own;
                              * @empty: an empty folder, @corrupt: a program
                              * cache of garbage */
  const gchar *map[8];       /* EXPECT_OVERLAY: `threadlens overlay`'s
                              * options for the same map; none for a launch
                              * order, which differs from run to run */
} GimpCheck;

/* A check's env that runs it in a GIMP without the GEGL module: the
 * plug-in's own path, beside the in-core one (gimp-checks.c's verdicts).
 */
#define NO_MODULE "@no-module"

/* Makes the checks that the table leaves to the registry: a check for
 * each filter that no check names (and in GIMP 3, each operation of the
 * GEGL module in-core), then the verdicts' checks; gimp_checks_free ()
 * forgets them.
 */
void             gimp_checks_init          (void);
void             gimp_checks_free          (void);

/* The checks chosen by hand, N_CHECKS of them. */
const GimpCheck *gimp_checks_table         (guint       *n_checks);

/* The registry's checks and the verdicts' (GimpCheck *), after the
 * table's; and the first check of each verdict that runs on two paths
 * (GIMP 3: in-core, then without the module), whose second check is
 * named alike with "-plug-in" for "-in-core".
 */
GPtrArray       *gimp_checks_registry      (void);
GPtrArray       *gimp_checks_verdict_pairs (void);

/* The table's check NAME. */
const GimpCheck *gimp_checks_find          (const gchar *name);

G_END_DECLS

#endif /* TL_TEST_GIMP_CHECKS_H */
