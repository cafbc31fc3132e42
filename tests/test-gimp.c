/* ThreadLens tests: a GIMP host, driven through headless GIMP and script-fu
 * exactly as a batch user drives it.  Built twice: TL_GIMP_VERSION 2 tests
 * the GIMP 2.10 host (suite gimp2), 3 the GIMP 3 host (suite gimp3).
 *
 * Every check is one call of a ThreadLens procedure on a real photo,
 * described once here; the script-fu for each GIMP (positional arguments
 * in 2.10, named ones in 3) is generated from the registry's argument
 * list, so both hosts face the same checks.  Markers (TL-BEGIN, TL-OK,
 * TL-CALL-FAILED through gimp-message) and the saved files are what the
 * test reads: GIMP 2.10's batch mode always exits 0.  Expected pixels
 * come from `threadlens apply` on the same photo with the same dispatch.
 * Every filter of the registry that no check names gets one of its own:
 * its defaults on coffee.png, as `threadlens apply` gives them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "gimp-session.h"
#include "tl-filter.h"
#include "tl-host.h"
#include "tl-image.h"

#if TL_GIMP_VERSION == 2
#define GIMP_CONSOLE   "gimp-console-2.10"
#define GIMP_DIR_VAR   "GIMP2_DIRECTORY"
#define U8_PRECISION   "PRECISION-U8-GAMMA"
#define TOP_LAYER      "(aref (cadr (gimp-image-get-layers img)) 0)"
#define LAYER_WIDTH    "gimp-drawable-width"
#define LAYER_HEIGHT   "gimp-drawable-height"
#define NEW_GROUP      "(car (gimp-layer-group-new img))"
#define NEW_TEXT       "(car (gimp-text-layer-new img \"ThreadLens\" \"Sans\" 40 PIXELS))"
#else
#define GIMP_CONSOLE   "gimp-console-3.0"
#define GIMP_DIR_VAR   "GIMP3_DIRECTORY"
#define U8_PRECISION   "PRECISION-U8-NON-LINEAR"
#define TOP_LAYER      "(vector-ref (car (gimp-image-get-layers img)) 0)"
#define LAYER_WIDTH    "gimp-drawable-get-width"
#define LAYER_HEIGHT   "gimp-drawable-get-height"
#define NEW_GROUP      "(car (gimp-group-layer-new img \"group\"))"
#define NEW_TEXT       "(car (gimp-text-layer-new img \"ThreadLens\" " \
                       "(car (gimp-context-get-font)) 40 UNIT-PIXEL))"
#endif

/* Makes a new layer of KIND the one the call gets; AFTER_KIND removes
 * it, so that the photo is saved as it was.
 */
#define USE_NEW_LAYER(kind) \
  "(set! layer (let ((new " kind ")) (gimp-image-insert-layer img new 0 -1) new))"
#define DROP_NEW_LAYER "(gimp-image-remove-layer img layer)" \
                       "(set! layer " TOP_LAYER ")"

/* Makes a mask of the layer the one the call gets; AFTER_MASK drops
 * it, so that the photo is saved as it was.
 */
#define USE_LAYER_MASK \
  "(set! layer (let ((mask (car (gimp-layer-create-mask layer ADD-MASK-COPY))))" \
  " (gimp-layer-add-mask layer mask) mask))"
#define DROP_LAYER_MASK "(set! layer " TOP_LAYER ")" \
                        "(gimp-layer-remove-mask layer MASK-DISCARD)"

/* Names the top layer and its size, then hides it so that saving shows
 * the image layer alone.
 */
#define REPORT_TOP_LAYER \
  "(let ((top " TOP_LAYER "))" \
  " (gimp-message (string-append \"TL-LAYER \" (car (gimp-item-get-name top))" \
  "   \" \" (number->string (car (" LAYER_WIDTH " top)))" \
  "   \"x\" (number->string (car (" LAYER_HEIGHT " top)))))" \
  " (gimp-item-set-visible top FALSE))"

typedef enum
{
  EXPECT_SAME_AS_CLI,      /* equals `threadlens apply` with cli_options */
  EXPECT_SAME_AS_CHECK,    /* equals another check's output */
  EXPECT_UNCHANGED,        /* the call fails with `error`, pixels kept */
  EXPECT_OVERLAY,          /* as EXPECT_SAME_AS_CLI (or unchanged, with no
                            * cli options), plus a new layer whose name
                            * starts with `error`, the photo's size */
  EXPECT_CUSTOM,           /* a test function of its own looks at it */
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

static const GimpCheck checks[] =
{
  { "blur-rgb", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=3.0;shape-width=7;shape-height=5;mode=emulated;swizzle=3", NULL,
    EXPECT_SAME_AS_CLI, NULL,
    { "--set=std-dev=3", "--shape=7x5", "--mode=emulated", "--swizzle=3" } },
  { "invert-alpha", "logo.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "shape-width=16;shape-height=4;mode=non-uniform;swizzle=8;pixels-per-item=2",
    NULL, EXPECT_SAME_AS_CLI, NULL, { NULL } },
  { "matrix-rgb", "astronaut.png", NULL, "color-matrix", "RUN-NONINTERACTIVE",
    "matrix=0 0 1 0 0 1 0 0 1 0 0 0 0 0 0 1", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=matrix=0,0,1,0,0,1,0,0,1,0,0,0,0,0,0,1" } },
  /* Every other filter of the registry, once, through script-fu. */
  { "brightness-contrast", "coffee.png", NULL, "brightness-contrast",
    "RUN-NONINTERACTIVE", "contrast=1.4;brightness=0.1;mode=emulated", NULL,
    EXPECT_SAME_AS_CLI, NULL,
    { "--set=contrast=1.4", "--set=brightness=0.1", "--mode=emulated" } },
  { "threshold", "coffee.png", NULL, "threshold", "RUN-NONINTERACTIVE",
    "value=0.4;swizzle=4", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=value=0.4", "--swizzle=4" } },
  { "mono-mixer", "coffee.png", NULL, "mono-mixer", "RUN-NONINTERACTIVE",
    "red=0.6;green=0.3;blue=0.1", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=red=0.6", "--set=green=0.3", "--set=blue=0.1" } },
  { "sepia", "coffee.png", NULL, "sepia", "RUN-NONINTERACTIVE",
    "scale=0.8;shape-width=7;shape-height=5", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=scale=0.8", "--shape=7x5" } },
  { "box-blur", "coffee.png", NULL, "box-blur", "RUN-NONINTERACTIVE",
    "radius=3.0;mode=non-uniform", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=radius=3", "--mode=non-uniform" } },
  { "edge-sobel", "coffee.png", NULL, "edge-sobel", "RUN-NONINTERACTIVE",
    "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL } },
  { "pixelize", "coffee.png", NULL, "pixelize", "RUN-NONINTERACTIVE",
    "size=12.0", NULL, EXPECT_SAME_AS_CLI, NULL, { "--set=size=12" } },
  { "unsharp-mask", "coffee.png", NULL, "unsharp-mask", "RUN-NONINTERACTIVE",
    "std-dev=2.0;scale=1.0", NULL, EXPECT_SAME_AS_CLI, NULL,
    { "--set=std-dev=2", "--set=scale=1" } },
  { "invert-gray16", "chessboard_GRAY_U16.tif", NULL, "invert",
    "RUN-NONINTERACTIVE", "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL } },
  /* Every 16-bit level once: the layer travels as u16, not as 8 bits. */
  { "invert-gradient16", "gradient-16bit.png", NULL, "invert",
    "RUN-NONINTERACTIVE", "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL }, TRUE },
  { "matrix-gradient16", "gradient-16bit.png", NULL, "color-matrix",
    "RUN-NONINTERACTIVE", "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL }, TRUE },
  /* A 32-bit float linear layer: converted in and out by GEGL. */
  { "invert-float32", "coffee.png",
    "(gimp-image-convert-precision img PRECISION-FLOAT-LINEAR)", "invert",
    "RUN-NONINTERACTIVE",
    "shape-width=13;shape-height=3;mode=non-uniform;pixels-per-item=3",
    "(gimp-image-convert-precision img " U8_PRECISION ")",
    EXPECT_SAME_AS_CLI, NULL, { NULL } },
  { "selection-rectangle", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 100 50 200 120)",
    "invert", "RUN-NONINTERACTIVE", "mode=emulated",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { NULL } },
  { "selection-feathered", "coffee.png",
    "(gimp-image-select-ellipse img CHANNEL-OP-REPLACE 150 100 300 200)"
    "(gimp-selection-feather img 40)",
    "invert", "RUN-NONINTERACTIVE", "swizzle=8",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { NULL } },
  /* A layer moved off the origin, partly off canvas, is filtered in its
   * own coordinates.
   */
  { "layer-offset", "coffee.png", "(gimp-layer-set-offsets layer 37 -21)",
    "invert", "RUN-NONINTERACTIVE", "", "(gimp-layer-set-offsets layer 0 0)",
    EXPECT_SAME_AS_CLI, NULL, { NULL } },
#if TL_GIMP_VERSION == 2
  /* The last values are the previous run's (blur-rgb); the arguments
   * given with RUN-WITH-LAST-VALS are ignored.  (GIMP 3 keeps last values
   * of interactive runs only.)
   */
  { "last-values", "coffee.png", NULL, "gaussian-blur", "RUN-WITH-LAST-VALS",
    "std-dev=9.0", NULL, EXPECT_SAME_AS_CHECK, NULL, { "blur-rgb" } },
#endif
  /* The overlay: a new layer on top, the filtered layer as without it. */
  { "overlay-filter", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "shape-width=32;shape-height=16;mode=emulated;swizzle=8;overlay=work-group;"
    "overlay-opacity=0.6", REPORT_TOP_LAYER, EXPECT_OVERLAY,
    "Thread map: work-groups 32x16, 4 px per item, swizzle 8, emulated",
    { "--shape=32x16", "--mode=emulated", "--swizzle=8" }, FALSE, NULL,
    { "--filter=invert", "--by=work-group", "--style=tint", "--opacity=0.6",
      "--shape=32x16", "--mode=emulated", "--swizzle=8" } },
  { "thread-map", "astronaut.png", NULL, NULL, "RUN-NONINTERACTIVE",
    "shape-width=16;shape-height=16;overlay=launch-order;overlay-style=tint",
    REPORT_TOP_LAYER, EXPECT_OVERLAY,
    "Thread map (launch order): work-groups 16x16, uniform", { NULL } },
  { "thread-map-checkerboard", "astronaut.png", NULL, NULL,
    "RUN-NONINTERACTIVE",
    "shape-width=32;shape-height=32;overlay=work-group;overlay-style=checkerboard",
    REPORT_TOP_LAYER, EXPECT_OVERLAY, "Thread map: work-groups 32x32",
    { NULL }, FALSE, NULL,
    { "--by=work-group", "--style=checkerboard", "--shape=32x32" } },
  /* Failures: an error that names the problem, the layer unchanged. */
  /* No OpenCL platform: the C reference, with a warning; the overlay
   * needs a device and fails.
   */
  { "no-platform", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE", "",
    NULL, EXPECT_SAME_AS_CLI, "ran on the CPU through its C reference",
    { NULL }, FALSE, "OCL_ICD_VENDORS=@empty" },
  { "no-platform-overlay", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "overlay=work-group", NULL, EXPECT_UNCHANGED,
    "the thread map needs an OpenCL device: no OpenCL platform found",
    { NULL }, FALSE, "OCL_ICD_VENDORS=@empty" },
  { "no-platform-thread-map", "coffee.png", NULL, NULL, "RUN-NONINTERACTIVE",
    "overlay=lane", NULL, EXPECT_UNCHANGED, "no OpenCL platform found",
    { NULL }, FALSE, "OCL_ICD_VENDORS=@empty" },
  /* The driver fails: to build (every build), to allocate, to launch. */
  { "bad-build", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE", "",
    NULL, EXPECT_UNCHANGED, "building kernels/point.cl (u8) for", { NULL }, FALSE,
    "THREADLENS_FAULT=clBuildProgram" },
#if TL_GIMP_VERSION == 2
  { "out-of-device-memory", "coffee.png", NULL, "gaussian-blur",
    "RUN-NONINTERACTIVE", "", NULL, EXPECT_UNCHANGED,
    "CL_MEM_OBJECT_ALLOCATION_FAILURE", { NULL }, FALSE,
    "THREADLENS_FAULT=clCreateBuffer" },
  { "launch-fails", "coffee.png", NULL, "box-blur", "RUN-NONINTERACTIVE", "",
    NULL, EXPECT_UNCHANGED, "CL_OUT_OF_RESOURCES", { NULL }, FALSE,
    "THREADLENS_FAULT=clEnqueueNDRangeKernel" },
#else
  /* In-core, a device that fails after the plug-in's checks (out of
   * memory, a failed launch) costs GIMP nothing: the GEGL module runs the
   * C reference, the same pixels, and says why.
   */
  { "out-of-device-memory", "coffee.png", NULL, "gaussian-blur",
    "RUN-NONINTERACTIVE", "", NULL, EXPECT_SAME_AS_CLI,
    "CL_MEM_OBJECT_ALLOCATION_FAILURE", { NULL }, FALSE,
    "THREADLENS_FAULT=clCreateBuffer" },
  { "launch-fails", "coffee.png", NULL, "box-blur", "RUN-NONINTERACTIVE", "",
    NULL, EXPECT_SAME_AS_CLI, "C reference", { NULL }, FALSE,
    "THREADLENS_FAULT=clEnqueueNDRangeKernel" },
#endif
  /* A program cache of garbage is rebuilt, not trusted. */
  { "corrupt-cache", "coffee.png", NULL, "edge-sobel", "RUN-NONINTERACTIVE",
    "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL }, FALSE,
    "THREADLENS_CACHE_DIR=@corrupt" },
  /* Tiles: a layer cut into 64-pixel tiles gives the same pixels. */
  { "tiled", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=5.0", NULL, EXPECT_SAME_AS_CLI, NULL, { "--set=std-dev=5" },
    FALSE, "THREADLENS_TILE=64" },
  /* Selections: none on this layer; one pixel; one column. */
  { "empty-selection", "coffee.png",
    "(gimp-image-resize img 800 600 0 0)"
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 650 450 100 100)",
    "invert", "RUN-NONINTERACTIVE", "",
    "(gimp-selection-none img)(gimp-image-resize img 600 400 0 0)",
    EXPECT_UNCHANGED, "the selection does not touch this layer", { NULL } },
  { "selection-1x1", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 300 200 1 1)",
    "gaussian-blur", "RUN-NONINTERACTIVE", "std-dev=3.0",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { "--set=std-dev=3" } },
  { "selection-1xN", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 250 0 1 400)",
    "box-blur", "RUN-NONINTERACTIVE", "radius=4.0",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { "--set=radius=4" } },
  /* Layers without pixels of their own. */
  { "layer-group", "coffee.png", USE_NEW_LAYER (NEW_GROUP), "invert",
    "RUN-NONINTERACTIVE", "", DROP_NEW_LAYER, EXPECT_UNCHANGED,
    "this one is a layer group", { NULL } },
  { "text-layer", "coffee.png", USE_NEW_LAYER (NEW_TEXT), "invert",
    "RUN-NONINTERACTIVE", "", DROP_NEW_LAYER, EXPECT_UNCHANGED,
    "this one is a text layer", { NULL } },
#if TL_GIMP_VERSION == 2
  { "bad-swizzle", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "swizzle=-3", NULL, EXPECT_UNCHANGED, "swizzle -3: the tile width",
    { NULL } },
#else
  /* GIMP 3 refuses it at the PDB, before the plug-in runs; script-fu
   * keeps the message to itself.
   */
  { "bad-swizzle", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "swizzle=-3", NULL, EXPECT_UNCHANGED, "TL-CALL-FAILED", { NULL } },
#endif
  /* Script-fu itself refuses a string where a number goes, before the
   * plug-in runs; its catch keeps the message, so the failure marker is
   * all there is to read.
   */
  { "bad-kind", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=\"six\"", NULL, EXPECT_UNCHANGED, "TL-CALL-FAILED", { NULL } },
  { "bad-indexed", "palette_color.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "", NULL, EXPECT_UNCHANGED, "this one is indexed", { NULL } },
  { "bad-shape-limit", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "shape-width=8192;shape-height=8192", NULL, EXPECT_UNCHANGED,
    "maximum work-group size", { NULL } },
  { "bad-shape-half", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "shape-width=32", NULL, EXPECT_UNCHANGED,
    "must both be 0 (auto) or both positive", { NULL } },
  { "bad-device", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "device=quantum-gpu", NULL, EXPECT_UNCHANGED,
    "no OpenCL device matches 'quantum-gpu'", { NULL } },
  { "bad-matrix", "coffee.png", NULL, "color-matrix", "RUN-NONINTERACTIVE",
    "matrix=1 0 0", NULL, EXPECT_UNCHANGED, "16 or 20", { NULL } },
#if TL_GIMP_VERSION == 3
  /* Non-destructive: the filter stays on the layer's filter stack; merged
   * afterwards it gives the same pixels.
   */
  { "non-destructive", "coffee.png", NULL, "gaussian-blur",
    "RUN-NONINTERACTIVE", "std-dev=3.0;mode=emulated;non-destructive=TRUE",
    "(gimp-message (string-append \"TL-FILTERS \" (number->string"
    " (vector-length (car (gimp-drawable-get-filters layer))))))"
    "(gimp-drawable-merge-filters layer)",
    EXPECT_SAME_AS_CLI, "TL-FILTERS 1", { "--set=std-dev=3" } },
  /* The operations themselves, as script-fu calls them in-core. */
  { "in-core-blur", "coffee.png", NULL, "gaussian-blur", "IN-CORE",
    "std-dev=3.0;shape-width=7;shape-height=5;mode=emulated;swizzle=3", NULL,
    EXPECT_SAME_AS_CLI, NULL, { "--set=std-dev=3" } },
  /* An operation that cannot run keeps the pixels, the thread map's
   * too (on a layer without alpha, where cleared pixels turn black),
   * and says why; a device that is not there is not the C reference's
   * to stand in for.
   */
  { "in-core-map-bad-overlay", "coffee.png", NULL, NULL, "IN-CORE",
    "overlay=bogus", NULL, EXPECT_KEPT,
    "unknown overlay 'bogus'", { NULL } },
  { "in-core-no-such-device", "coffee.png", NULL, "invert", "IN-CORE",
    "device=nosuch", NULL, EXPECT_KEPT,
    "no OpenCL device matches 'nosuch'", { NULL } },
  /* GIMP keeps filter stacks on layers only: non-destructive on a mask
   * is refused, the mask untouched (the image stays clean).
   */
  { "non-destructive-mask", "coffee.png", USE_LAYER_MASK, "invert",
    "RUN-NONINTERACTIVE", "non-destructive=TRUE", DROP_LAYER_MASK,
    EXPECT_UNCHANGED, "only layers keep non-destructive filters, and this "
    "is a layer mask", { NULL } },
#endif
#if TL_GIMP_VERSION == 2
  /* 2.10 passes these as plain numbers and strings: the host checks. */
  { "bad-std-dev", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=-2.0", NULL, EXPECT_UNCHANGED, "std-dev = -2 is out of range",
    { NULL } },
  { "bad-mode", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "mode=diagonal", NULL, EXPECT_UNCHANGED,
    "unknown dispatch mode 'diagonal'", { NULL } },
  { "bad-overlay", "coffee.png", NULL, "invert", "RUN-NONINTERACTIVE",
    "overlay=sparkles", NULL, EXPECT_UNCHANGED, "unknown overlay 'sparkles'",
    { NULL } },
#else
  /* GIMP 3 checks ranges itself, at the PDB boundary. */
  { "bad-std-dev", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=-2.0", NULL, EXPECT_UNCHANGED, "TL-CALL-FAILED", { NULL } },
#endif
};

/* "Unchanged": the same 8-bit values.  GIMP 3 may export them through
 * another babl path (with or without alpha), which can move the float
 * the test reads by an ulp; a changed pixel moves by 1/255 at least.
 */
#define UNCHANGED_TOLERANCE 1e-6

/* One judgement for every path (host/tl-host-check.c): each procedure's
 * arguments walked through bad values and bad combinations.  In GIMP 3
 * each call runs twice, with the GEGL module (in-core) and without it
 * (the plug-in's own path, env NO_MODULE), and both must give the same
 * verdict: the same error, the layer unchanged.  ARGS with "%s" takes
 * the name of each of the filter's parameters in turn.
 */
typedef struct
{
  const gchar *args;
  const gchar *error;
} Verdict;

#define NO_MODULE "@no-module"

/* Every procedure's, the thread map's included. */
static const Verdict dispatch_verdicts[] =
{
  { "shape-width=32", "must both be 0 (auto) or both positive" },
  { "shape-width=8192;shape-height=8192", "maximum work-group size" },
  { "device=nosuch", "no OpenCL device matches 'nosuch'" },
  /* PoCL names no compute units. */
  { "overlay=compute-unit", "does not say which compute unit ran" },
};

/* The thread map's own combinations. */
static const Verdict map_verdicts[] =
{
  { "overlay=compute-unit;overlay-style=checkerboard",
    "not compute-unit: use the tint style" },
  { "overlay=launch-order;overlay-style=checkerboard",
    "not launch-order: use the tint style" },
};

static gchar *work_dir;
static GString *gimp_log;
/* The registry's filters that no check names, a check each; plain ones
 * (no env).  Then the verdicts' checks, in pairs where there are two
 * paths.
 */
static GPtrArray *registry_checks;
static GPtrArray *verdict_pairs;     /* of the pairs' first checks */

static void
free_check (gpointer data)
{
  GimpCheck *check = data;

  g_free ((gchar *) check->name);
  g_free ((gchar *) check->args);
  g_free ((gchar *) check->error);
  g_free (check);
}

/* A check of VERDICT on FILTER (NULL: the thread map) with ARGS, on
 * each path this GIMP has.
 */
static void
add_verdict (const TlFilter *filter,
             const gchar    *label,
             const gchar    *args,
             const gchar    *error)
{
#if TL_GIMP_VERSION == 3
  static const gchar *paths[] = { "in-core", "plug-in" };
#else
  static const gchar *paths[] = { "plug-in" };
#endif
  guint               n_paths = G_N_ELEMENTS (paths);
  guint               i;

  for (i = 0; i < n_paths; i++)
    {
      GimpCheck *check = g_new0 (GimpCheck, 1);

      check->name     = g_strdup_printf ("verdict-%s-%s-%s",
                                         filter ? filter->name : "thread-map",
                                         label, paths[i]);
      check->photo    = "coffee.png";
      check->filter   = filter ? filter->name : NULL;
      check->run_mode = "RUN-NONINTERACTIVE";
      check->args     = g_strdup (args);
      check->expect   = EXPECT_UNCHANGED;
      check->error    = g_strdup (error);
      check->env      = i == 1 ? NO_MODULE : NULL;
      g_ptr_array_add (registry_checks, check);
      if (i == 0 && n_paths == 2)
        g_ptr_array_add (verdict_pairs, check);
    }
}

/* The verdict walk: every procedure through the bad dispatch settings,
 * each of its parameters out of its range, the thread map through its
 * bad combinations.
 */
static void
add_verdicts (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i, j;

  verdict_pairs = g_ptr_array_new ();
  filters = tl_filter_list (&n_filters);
  for (i = 0; i <= n_filters; i++)
    {
      const TlFilter *filter = i < n_filters ? filters[i] : NULL;

      for (j = 0; j < G_N_ELEMENTS (dispatch_verdicts); j++)
        {
          g_autofree gchar *label = g_strdup_printf ("dispatch%u", j);

          add_verdict (filter, label, dispatch_verdicts[j].args,
                       dispatch_verdicts[j].error);
        }
      for (j = 0; filter && j < filter->n_params; j++)
        {
          const TlParamSpec *spec  = &filter->params[j];
          g_autofree gchar  *args  = NULL;
          g_autofree gchar  *error = NULL;
          g_autofree gchar  *label = g_strdup_printf ("range-%s", spec->name);

          /* A number past its range: the 2.10 host says so; GIMP 3
           * refuses it at the PDB, before the plug-in runs, and
           * script-fu keeps the message to itself.  A list of the wrong
           * length: the host says so in both.
           */
          if (spec->type == TL_PARAM_DOUBLE)
            {
              args  = g_strdup_printf ("%s=%.1f", spec->name, spec->max + 1.0);
              error = TL_GIMP_VERSION == 3 ?
                      g_strdup ("TL-CALL-FAILED") :
                      g_strdup_printf ("%s = %g is out of range", spec->name,
                                       spec->max + 1.0);
            }
          else
            {
              args  = g_strdup_printf ("%s=1 0 0", spec->name);
              error = g_strdup_printf ("%s takes", spec->name);
            }
          add_verdict (filter, label, args, error);
        }
      for (j = 0; filter == NULL && j < G_N_ELEMENTS (map_verdicts); j++)
        {
          g_autofree gchar *label = g_strdup_printf ("combination%u", j);

          add_verdict (NULL, label, map_verdicts[j].args, map_verdicts[j].error);
        }
    }
}

static void
add_registry_checks (void)
{
  const TlFilter *const *filters;
  guint                  n_filters, i, j;

  registry_checks = g_ptr_array_new_with_free_func (free_check);
  filters = tl_filter_list (&n_filters);
  for (i = 0; i < n_filters; i++)
    {
      GimpCheck *check;

      for (j = 0; j < G_N_ELEMENTS (checks); j++)
        if (g_strcmp0 (checks[j].filter, filters[i]->name) == 0)
          break;
      if (j < G_N_ELEMENTS (checks))
        continue;

      check = g_new0 (GimpCheck, 1);
      check->name     = g_strconcat ("registry-", filters[i]->name, NULL);
      check->photo    = "coffee.png";
      check->filter   = filters[i]->name;
      check->run_mode = "RUN-NONINTERACTIVE";
      check->args     = g_strdup ("");
      check->expect   = EXPECT_SAME_AS_CLI;
      g_ptr_array_add (registry_checks, check);
    }

#if TL_GIMP_VERSION == 3
  /* Every operation of the GEGL module, as script-fu runs it in-core
   * (gimp-drawable-merge-new-filter), under a dispatch of its own: the
   * same pixels as `threadlens apply` with its defaults.
   */
  for (i = 0; i < n_filters; i++)
    {
      static const gchar *dispatches[] =
      {
        "mode=emulated;shape-width=16;shape-height=4;swizzle=3",
        "mode=non-uniform;shape-width=8;shape-height=8;pixels-per-item=2",
        "mode=uniform;swizzle=8",
      };
      GimpCheck *check = g_new0 (GimpCheck, 1);

      check->name     = g_strconcat ("in-core-", filters[i]->name, NULL);
      check->photo    = "coffee.png";
      check->filter   = filters[i]->name;
      check->run_mode = "IN-CORE";
      check->args     = g_strdup (dispatches[i % G_N_ELEMENTS (dispatches)]);
      check->expect   = EXPECT_SAME_AS_CLI;
      g_ptr_array_add (registry_checks, check);
    }
#endif
  add_verdicts ();
}

static gchar *
photo (const gchar *name)
{
  return g_test_build_filename (G_TEST_DIST, "images", name, NULL);
}

static gchar *
work_file (const gchar *name)
{
  return g_build_filename (work_dir, name, NULL);
}

static gchar *
check_output (const GimpCheck *check)
{
  g_autofree gchar *name = g_strconcat ("gimp-", check->name, ".png", NULL);

  return work_file (name);
}

/* Where the check's thread-map layer is saved, alone. */
static gchar *
check_map_output (const GimpCheck *check)
{
  g_autofree gchar *name = g_strconcat ("gimp-", check->name, "-map.png", NULL);

  return work_file (name);
}

static const gchar *
check_value (const GimpCheck *check,
             const gchar     *arg,
             GHashTable      *given)
{
  return g_hash_table_lookup (given, arg);
}

/* The procedure call for this GIMP: 2.10 takes every argument in order
 * (defaults for those the check leaves out), 3 takes named arguments.
 */
static void
append_call (GString         *script,
             const GimpCheck *check)
{
  const TlFilter       *filter = check->filter ? tl_filter_lookup (check->filter, NULL) : NULL;
  g_autoptr(GHashTable) given  = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                        g_free, g_free);
  g_auto(GStrv)         pairs  = g_strsplit (check->args, ";", -1);
  TlHostArg            *args;
  guint                 n_args, i;

  g_assert_true (filter != NULL || check->filter == NULL);
  for (i = 0; pairs[i]; i++)
    {
      gchar *equals = strchr (pairs[i], '=');

      if (equals)
        g_hash_table_insert (given, g_strndup (pairs[i], equals - pairs[i]),
                             g_strdup (equals + 1));
    }

#if TL_GIMP_VERSION == 3
  if (g_strcmp0 (check->run_mode, "IN-CORE") == 0)
    {
      g_string_append_printf (script, "(gimp-drawable-merge-new-filter layer "
                              "\"threadlens:%s\" 0 LAYER-MODE-REPLACE 1.0",
                              check->filter ? check->filter : "thread-map");
      args = filter ? tl_host_arguments (filter, &n_args) :
                      tl_host_map_operation_arguments (&n_args);
      for (i = 0; i < n_args; i++)
        {
          const gchar *value = check_value (check, args[i].name, given);

          if (value == NULL)
            continue;
          if (args[i].type == TL_HOST_ARG_STRING)
            g_string_append_printf (script, " \"%s\" \"%s\"", args[i].name, value);
          else
            g_string_append_printf (script, " \"%s\" %s", args[i].name, value);
        }
      tl_host_arguments_free (args);
      g_string_append (script, ")");
      return;
    }
#endif

#if TL_GIMP_VERSION == 2
  g_string_append_printf (script, "(plug-in-threadlens-%s %s img layer",
                          check->filter ? check->filter : "thread-map",
                          check->run_mode);
#else
  g_string_append_printf (script, "(plug-in-threadlens-%s #:run-mode %s "
                          "#:image img #:drawables (vector layer)",
                          check->filter ? check->filter : "thread-map",
                          check->run_mode);
#endif

  args = tl_host_arguments (filter, &n_args);
  for (i = 0; i < n_args; i++)
    {
      const gchar *value = check_value (check, args[i].name, given);

#if TL_GIMP_VERSION == 3
      if (value == NULL)
        continue;
      g_string_append_printf (script, " #:%s", args[i].name);
#endif
      g_string_append_c (script, ' ');
      if (args[i].type == TL_HOST_ARG_STRING)
        g_string_append_printf (script, "\"%s\"", value ? value : args[i].default_text);
      else if (value)
        g_string_append (script, value);
      else if (args[i].type == TL_HOST_ARG_DOUBLE)
        g_string_append_printf (script, "%.6f", args[i].default_number);
      else
        g_string_append_printf (script, "%d", (gint) args[i].default_number);
    }
  tl_host_arguments_free (args);
#if TL_GIMP_VERSION == 3
  /* GIMP 3's own argument, after the shared ones. */
  if (g_hash_table_lookup (given, "non-destructive"))
    g_string_append_printf (script, " #:non-destructive %s",
                            (const gchar *) g_hash_table_lookup (given, "non-destructive"));
#endif
  g_string_append (script, ")");
}

static void
append_check (GString         *script,
              const GimpCheck *check)
{
  g_autofree gchar *in  = photo (check->photo);
  g_autofree gchar *out = check_output (check);

#if TL_GIMP_VERSION == 2
  g_string_append_printf (script,
    "(tl-check \"%s\" (lambda ()\n"
    "  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"%s\" \"%s\")))\n"
    "         (layer (car (gimp-image-get-active-drawable img))))\n",
    check->name, in, in);
#else
  g_string_append_printf (script,
    "(tl-check \"%s\" (lambda ()\n"
    "  (let* ((img (car (gimp-file-load RUN-NONINTERACTIVE \"%s\")))\n"
    "         (layer (vector-ref (car (gimp-image-get-selected-drawables img)) 0)))\n",
    check->name, in);
#endif
  if (check->before)
    g_string_append_printf (script, "    %s\n", check->before);
  /* A failed call must leave no undo step: the image stays clean. */
  g_string_append (script, "    (gimp-image-clean-all img)\n");
  g_string_append (script, "    (catch (gimp-message \"TL-CALL-FAILED\")\n      ");
  append_call (script, check);
  g_string_append (script, ")\n");
  g_string_append (script, "    (gimp-message (if (member (car (gimp-image-is-dirty img)) '(0 #f))"
                           " \"TL-CLEAN\" \"TL-DIRTY\"))\n");
  if (check->expect == EXPECT_OVERLAY)
    {
      g_autofree gchar *map = check_map_output (check);

#if TL_GIMP_VERSION == 2
      g_string_append_printf (script,
        "    (gimp-file-save RUN-NONINTERACTIVE img " TOP_LAYER " \"%s\" \"%s\")\n",
        map, map);
#else
      /* The map layer alone: the filtered layer hidden while saving. */
      g_string_append_printf (script,
        "    (gimp-item-set-visible layer FALSE)\n"
        "    (gimp-file-save RUN-NONINTERACTIVE img \"%s\" -1)\n"
        "    (gimp-item-set-visible layer TRUE)\n", map);
#endif
    }
  if (check->after)
    g_string_append_printf (script, "    %s\n", check->after);
#if TL_GIMP_VERSION == 2
  g_string_append_printf (script,
    "    (gimp-file-save RUN-NONINTERACTIVE img layer \"%s\" \"%s\")\n", out, out);
#else
  g_string_append_printf (script,
    "    (gimp-file-save RUN-NONINTERACTIVE img \"%s\" -1)\n", out);
#endif
  g_string_append (script, "    (gimp-image-delete img))))\n");
}

/* Runs every check whose env is ENV (NULL: those without one) in one
 * GIMP, and appends GIMP's output to gimp_log.
 */
static gboolean
run_gimp (const gchar *env)
{
  g_autoptr(GString) script   = g_string_new ("(begin\n");
  g_autoptr(GError)  error    = NULL;
  /* Without the GEGL module: a home of its own, which has none. */
  gboolean           module   = g_strcmp0 (env, NO_MODULE) != 0;
  g_autofree gchar  *out      = NULL;
  g_autofree gchar  *log      = NULL;
  g_auto(GStrv)      envp     = NULL;
  GPtrArray         *argv     = g_ptr_array_new ();
  gint               status;
  guint              i;

  envp = tl_test_gimp_environ (work_dir, module ? "home" : "home-no-module",
                               module ? "gimp" : "gimp-no-module",
                               GIMP_DIR_VAR, module);
  if (env && module)
    {
      g_auto(GStrv)     pair  = g_strsplit (env, "=", 2);
      g_autofree gchar *value = NULL;

      if (g_str_equal (pair[1], "@empty"))
        value = work_file ("empty");
      else if (g_str_equal (pair[1], "@corrupt"))
        value = work_file ("corrupt-cache");
      else
        value = g_strdup (pair[1]);
      envp = g_environ_setenv (envp, pair[0], value, TRUE);
    }

  g_string_append (script,
    "(define (tl-check name thunk)\n"
    "  (gimp-message (string-append \"TL-BEGIN \" name))\n"
    "  (catch (gimp-message (string-append \"TL-BROKE \" name))\n"
    "    (thunk)\n"
    "    (gimp-message (string-append \"TL-OK \" name))))\n");
  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    if (g_strcmp0 (checks[i].env, env) == 0)
      append_check (script, &checks[i]);
  for (i = 0; i < registry_checks->len; i++)
    {
      const GimpCheck *check = g_ptr_array_index (registry_checks, i);

      if (g_strcmp0 (check->env, env) == 0)
        append_check (script, check);
    }
  g_string_append (script, ")\n");

  g_ptr_array_add (argv, GIMP_CONSOLE);
  g_ptr_array_add (argv, "-i");
#if TL_GIMP_VERSION == 3
  g_ptr_array_add (argv, "--batch-interpreter=plug-in-script-fu-eval");
#endif
  g_ptr_array_add (argv, "-b");
  g_ptr_array_add (argv, script->str);
#if TL_GIMP_VERSION == 2
  g_ptr_array_add (argv, "-b");
  g_ptr_array_add (argv, "(gimp-quit 0)");
#else
  g_ptr_array_add (argv, "--quit");
#endif
  g_ptr_array_add (argv, NULL);

  if (! g_spawn_sync (NULL, (gchar **) argv->pdata, envp, G_SPAWN_SEARCH_PATH,
                      NULL, NULL, &out, &log, &status, &error))
    g_error ("cannot run %s: %s", GIMP_CONSOLE, error->message);
  g_ptr_array_unref (argv);
  g_test_message ("GIMP (%s) said:\n%s", env ? env : "plain", log);

#if TL_GIMP_VERSION == 3
  /* GIMP 3 exits with the batch status. */
  if (! g_spawn_check_wait_status (status, &error))
    g_error ("%s: %s\n%s", GIMP_CONSOLE, error->message, log);
#endif
  g_string_append (gimp_log, log);
  return TRUE;
}

/* The first line of LOG that holds TEXT, the lines naming a check
 * (whose names hold the words of their errors) aside; NULL if none.
 */
static gchar *
line_with (const gchar *log,
           const gchar *text)
{
  const gchar *at;

  for (at = strstr (log, text); at; at = strstr (at + 1, text))
    {
      const gchar      *start, *end;
      g_autofree gchar *line = NULL;

      for (start = at; start > log && start[-1] != '\n'; start--)
        ;
      end  = strchr (at, '\n');
      line = end ? g_strndup (start, end - start) : g_strdup (start);
      if (! strstr (line, "TL-BEGIN ") && ! strstr (line, "TL-OK ") &&
          ! strstr (line, "TL-BROKE "))
        return g_steal_pointer (&line);
    }
  return NULL;
}

/* Whether LOG says TEXT (line_with ()). */
static gboolean
log_says (const gchar *log,
          const gchar *text)
{
  g_autofree gchar *line = line_with (log, text);

  return line != NULL;
}

/* GIMP's output between this check's TL-BEGIN and the next one. */
static gchar *
check_log (const GimpCheck *check)
{
  g_autofree gchar *begin = g_strconcat ("TL-BEGIN ", check->name, "\n", NULL);
  const gchar      *start = strstr (gimp_log->str, begin);
  const gchar      *end;

  if (start == NULL)
    g_error ("check %s did not run:\n%s", check->name, gimp_log->str);
  end = strstr (start + strlen (begin), "TL-BEGIN ");
  return end ? g_strndup (start, end - start) : g_strdup (start);
}

static gfloat *
load (const gchar *path,
      guint       *width,
      guint       *height)
{
  g_autoptr(GError)  error = NULL;
  g_autoptr(TlImage) image = tl_image_load (path, &error);

  if (image == NULL)
    g_error ("%s", error->message);
  *width  = tl_image_get_width (image);
  *height = tl_image_get_height (image);
  return tl_image_get_pixels (image, "R'G'B'A float", NULL);
}

/* `threadlens apply` on the file IN with OPTIONS; the output is named
 * after LABEL.
 */
static gchar *
cli_apply_file (const gchar        *filter,
                const gchar *const *options,
                const gchar        *in,
                const gchar        *label)
{
  g_autoptr(GPtrArray) argv   = g_ptr_array_new ();
  g_autoptr(GError)    error  = NULL;
  g_autofree gchar    *name   = g_strconcat ("cli-", label, ".png", NULL);
  g_autofree gchar    *report = NULL;
  g_autofree gchar    *err    = NULL;
  gchar               *out    = work_file (name);
  gint                 status;
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  g_ptr_array_add (argv, "apply");
  g_ptr_array_add (argv, (gpointer) filter);
  for (i = 0; options[i]; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, (gpointer) in);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &report, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens apply %s: %s", filter, err);
  return out;
}

/* `threadlens apply` on the check's photo with OPTIONS. */
static gchar *
cli_apply (const GimpCheck     *check,
           const gchar         *filter,
           const gchar *const  *options)
{
  g_autofree gchar *in = photo (check->photo);

  return cli_apply_file (filter, options, in, check->name);
}

static void assert_same_pixels (const gchar *path_a,
                                const gchar *path_b,
                                gdouble      tolerance);

/* `threadlens overlay` on the check's photo with its map options. */
static gchar *
cli_overlay (const GimpCheck *check)
{
  g_autoptr(GPtrArray) argv   = g_ptr_array_new ();
  g_autoptr(GError)    error  = NULL;
  g_autofree gchar    *in     = photo (check->photo);
  g_autofree gchar    *name   = g_strconcat ("cli-", check->name, "-map.png", NULL);
  g_autofree gchar    *report = NULL;
  g_autofree gchar    *err    = NULL;
  gchar               *out    = work_file (name);
  gint                 status;
  guint                i;

  g_ptr_array_add (argv, (gpointer) g_getenv ("THREADLENS_BIN"));
  g_ptr_array_add (argv, "overlay");
  for (i = 0; check->map[i]; i++)
    g_ptr_array_add (argv, (gpointer) check->map[i]);
  g_ptr_array_add (argv, in);
  g_ptr_array_add (argv, out);
  g_ptr_array_add (argv, NULL);

  g_assert_true (g_spawn_sync (NULL, (gchar **) argv->pdata, NULL, 0, NULL,
                               NULL, &report, &err, &status, &error));
  if (! g_spawn_check_wait_status (status, NULL))
    g_error ("threadlens overlay: %s", err);
  return out;
}

/* The thread-map layer GIMP made holds the map `threadlens overlay`
 * draws: a checkerboard the same pixels; a tint, laid over the photo as
 * `threadlens overlay` lays it, the same picture (the layer holds the
 * tint alone, see-through, to the 8-bit rounding of its colour and its
 * alpha).
 */
static void
assert_map_as_cli (const GimpCheck *check)
{
  g_autofree gchar  *map      = check_map_output (check);
  g_autofree gchar  *expected = NULL;
  g_autofree gchar  *in       = photo (check->photo);
  g_autofree gfloat *tint = NULL, *image = NULL, *want = NULL;
  guint              w1, h1, w2, h2, w3, h3, i, c;

  if (check->map[0] == NULL)
    return;
  expected = cli_overlay (check);
  if (strstr (check->args, "overlay-style=checkerboard"))
    {
      assert_same_pixels (map, expected, 1.0 / 255.0 + 1e-6);
      return;
    }

  tint  = load (map, &w1, &h1);
  image = load (in, &w2, &h2);
  want  = load (expected, &w3, &h3);
  g_assert_cmpuint (w1, ==, w3);
  g_assert_cmpuint (h1, ==, h3);
  g_assert_cmpuint (w2, ==, w3);
  g_assert_cmpuint (h2, ==, h3);
  for (i = 0; i < w1 * h1; i++)
    {
      gfloat alpha = tint[i * 4 + 3];

      if (alpha > 0.95f)
        g_error ("check %s: the map is opaque at pixel %u (alpha %g)",
                 check->name, i, alpha);
      for (c = 0; c < 3; c++)
        {
          gfloat laid = image[i * 4 + c] * (1.0f - alpha) + tint[i * 4 + c] * alpha;

          if (fabs (laid - want[i * 4 + c]) > 3.0 / 255.0)
            g_error ("check %s: the map laid over the photo differs from "
                     "`threadlens overlay` at pixel %u: %g, not %g",
                     check->name, i, laid, want[i * 4 + c]);
        }
    }
}

static gdouble
max_difference (const gfloat *a,
                const gfloat *b,
                gsize         n)
{
  gdouble worst = 0.0;
  gsize   i;

  for (i = 0; i < n; i++)
    worst = MAX (worst, fabs ((gdouble) a[i] - b[i]));
  return worst;
}

/* The two files hold the same pixels to the 8-bit rounding (or exactly). */
static void
assert_same_pixels (const gchar *path_a,
                    const gchar *path_b,
                    gdouble      tolerance)
{
  g_autofree gfloat *a = NULL, *b = NULL;
  guint              w1, h1, w2, h2;
  gdouble            diff;

  a = load (path_a, &w1, &h1);
  b = load (path_b, &w2, &h2);
  g_assert_cmpuint (w1, ==, w2);
  g_assert_cmpuint (h1, ==, h2);
  diff = max_difference (a, b, (gsize) w1 * h1 * 4);
  if (diff > tolerance)
    g_error ("%s differs from %s by %g", path_a, path_b, diff);
}

static void
test_check (gconstpointer data)
{
  const GimpCheck  *check = data;
  g_autofree gchar *log   = check_log (check);
  g_autofree gchar *out   = check_output (check);
  gboolean          failed = strstr (log, "TL-CALL-FAILED") != NULL;

  if (strstr (log, "TL-OK") == NULL)
    g_error ("check %s broke off:\n%s", check->name, log);

  if (check->expect == EXPECT_KEPT)
    {
      g_autofree gchar *in = photo (check->photo);

      if (failed)
        g_error ("check %s: the call failed:\n%s", check->name, log);
      if (! log_says (log, check->error) ||
          ! log_says (log, "the pixels are left as they were"))
        g_error ("check %s: GIMP's messages do not say '%s' and that the "
                 "pixels are kept:\n%s", check->name, check->error, log);
      assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
      return;
    }

  if (check->expect == EXPECT_UNCHANGED)
    {
      g_autofree gchar *in = photo (check->photo);

      if (! failed)
        g_error ("check %s: the call did not fail:\n%s", check->name, log);
      if (! log_says (log, check->error))
        g_error ("check %s: GIMP's error does not say '%s':\n%s",
                 check->name, check->error, log);
      if (strstr (log, "TL-CLEAN") == NULL)
        g_error ("check %s: the failed call left an undo step:\n%s",
                 check->name, log);
      assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
      return;
    }

  if (failed)
    g_error ("check %s: the call failed:\n%s", check->name, log);
  if (check->error && check->expect == EXPECT_SAME_AS_CLI &&
      ! log_says (log, check->error))
    g_error ("check %s: GIMP's messages do not say '%s':\n%s", check->name,
             check->error, log);
  if (check->filter && strstr (log, "TL-DIRTY") == NULL)
    g_error ("check %s: the image is not marked changed:\n%s", check->name, log);

  if (check->expect == EXPECT_OVERLAY)
    {
      g_autofree gchar *in    = photo (check->photo);
      g_autofree gchar *line  = g_strconcat ("TL-LAYER ", check->error, NULL);
      const gchar      *layer = strstr (log, line);
      guint             w, h, lw, lh;
      g_autofree gfloat *pixels = load (in, &w, &h);

      if (layer == NULL)
        g_error ("check %s: no layer named '%s...':\n%s", check->name,
                 check->error, log);
      /* The layer's size ends the line: "... WxH". */
      layer = strchr (layer, '\n') ? g_strndup (layer, strchr (layer, '\n') - layer) : layer;
      g_assert_cmpint (sscanf (strrchr (layer, ' ') + 1, "%ux%u", &lw, &lh), ==, 2);
      g_assert_cmpuint (lw, ==, w);
      g_assert_cmpuint (lh, ==, h);

      if (check->filter)
        {
          g_autofree gchar *expected = cli_apply (check, check->filter, check->cli);

          assert_same_pixels (out, expected, 1.0 / 255.0 + 1e-6);
        }
      else
        {
          assert_same_pixels (out, in, UNCHANGED_TOLERANCE);
        }
      assert_map_as_cli (check);
    }
  else if (check->expect == EXPECT_SAME_AS_CLI && check->sixteen_bit)
    {
      g_autofree gchar  *expected = cli_apply (check, check->filter, check->cli);
      g_autofree gfloat *pixels   = NULL;
      g_autoptr(GHashTable) levels = g_hash_table_new (NULL, NULL);
      guint              w, h, i;

      assert_same_pixels (out, expected, 1.0 / 65535.0 + 1e-7);
      pixels = load (out, &w, &h);
      for (i = 0; i < w * h; i++)
        g_hash_table_add (levels, GUINT_TO_POINTER ((guint) (pixels[i * 4] * 65535.0f + 0.5f) + 1));
      g_test_message ("check %s: %u levels of red", check->name,
                      g_hash_table_size (levels));
      g_assert_cmpuint (g_hash_table_size (levels), >, 60000);
    }
  else if (check->expect == EXPECT_SAME_AS_CLI)
    {
      g_autofree gchar *expected = cli_apply (check, check->filter, check->cli);

      assert_same_pixels (out, expected, 1.0 / 255.0 + 1e-6);
    }
  else if (check->expect == EXPECT_SAME_AS_CHECK)
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (checks); i++)
        if (strcmp (checks[i].name, check->cli[0]) == 0)
          {
            g_autofree gchar *other = check_output (&checks[i]);

            assert_same_pixels (out, other, 0.0);
          }
    }
}


/* A verdict's two paths (add_verdict ()): each passed test_check; here
 * their errors are the same words.
 */
static void
test_same_verdict (gconstpointer data)
{
  const GimpCheck  *in_core = data;
  const GimpCheck  *plug_in = NULL;
  g_autofree gchar *name    = NULL;
  g_autofree gchar *a = NULL, *b = NULL, *log_a = NULL, *log_b = NULL;
  guint             i;

  g_assert_true (g_str_has_suffix (in_core->name, "-in-core"));
  name = g_strdup_printf ("%.*s-plug-in",
                          (gint) (strlen (in_core->name) - strlen ("-in-core")),
                          in_core->name);
  for (i = 0; i < registry_checks->len; i++)
    if (strcmp (((const GimpCheck *) g_ptr_array_index (registry_checks, i))->name,
                name) == 0)
      plug_in = g_ptr_array_index (registry_checks, i);
  g_assert_nonnull (plug_in);

  log_a = check_log (in_core);
  log_b = check_log (plug_in);
  a = line_with (log_a, in_core->error);
  b = line_with (log_b, plug_in->error);
  if (a == NULL || b == NULL)
    g_error ("%s: no error saying '%s':\nin-core:\n%s\nplug-in:\n%s",
             in_core->name, in_core->error, log_a, log_b);
  g_test_message ("%s: %s", in_core->name, a);
  g_assert_cmpstr (a, ==, b);
}

#if TL_GIMP_VERSION == 3
/* Nothing ThreadLens did left GEGL buffers behind in GIMP's process
 * (GIMP counts them at exit).
 */
static void
test_no_leaks (void)
{
  g_autofree gchar *leak = line_with (gimp_log->str, "leaked");

  if (leak)
    g_error ("GIMP says: %s", leak);
}
#endif

static const GimpCheck *
find_check (const gchar *name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    if (strcmp (checks[i].name, name) == 0)
      return &checks[i];
  g_assert_not_reached ();
}

/* Inside the rectangle: inverted; outside: untouched, exactly. */
static void
test_selection_rectangle (void)
{
  const GimpCheck   *check    = find_check ("selection-rectangle");
  const gchar       *none[]   = { NULL };
  g_autofree gchar  *orig_path = photo (check->photo);
  g_autofree gchar  *inv_path  = cli_apply (check, "invert", none);
  g_autofree gchar  *got_path  = check_output (check);
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, c;

  orig = load (orig_path, &w, &h);
  inv  = load (inv_path, &w, &h);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gboolean inside = x >= 100 && x < 300 && y >= 50 && y < 170;
        gsize    i      = ((gsize) y * w + x) * 4;

        for (c = 0; c < 4; c++)
          if (got[i + c] != (inside ? inv : orig)[i + c])
            g_error ("pixel %u,%u: %s the rectangle but %s", x, y,
                     inside ? "inside" : "outside",
                     inside ? "not inverted" : "changed");
      }
}

/* A feathered ellipse: the centre inverted, the far corners untouched,
 * and the feather a blend between the two.
 */
static void
test_selection_feathered (void)
{
  const GimpCheck   *check    = find_check ("selection-feathered");
  const gchar       *none[]   = { NULL };
  g_autofree gchar  *orig_path = photo (check->photo);
  g_autofree gchar  *inv_path  = cli_apply (check, "invert", none);
  g_autofree gchar  *got_path  = check_output (check);
  g_autofree gfloat *orig = NULL, *inv = NULL, *got = NULL;
  guint              w, h, x, y, blended = 0;

  orig = load (orig_path, &w, &h);
  inv  = load (inv_path, &w, &h);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gsize   i  = ((gsize) y * w + x) * 4;
        gdouble dx = (x + 0.5 - 300.0) / 150.0, dy = (y + 0.5 - 200.0) / 100.0;
        gdouble r  = sqrt (dx * dx + dy * dy);

        if (r < 0.25 && max_difference (got + i, inv + i, 3) > 1.0 / 255.0 + 1e-6)
          g_error ("pixel %u,%u at the centre is not inverted", x, y);
        if (r > 1.6 && max_difference (got + i, orig + i, 4) != 0.0)
          g_error ("pixel %u,%u outside the selection changed", x, y);
        /* In the feather: strictly between original and inverted. */
        if (r > 0.85 && r < 1.15 && fabs (orig[i] - inv[i]) > 0.3 &&
            got[i] > MIN (orig[i], inv[i]) + 0.02 &&
            got[i] < MAX (orig[i], inv[i]) - 0.02)
          blended++;
      }
  g_assert_cmpuint (blended, >, 100);
}

/* A selection of one pixel or one column: inside, the filter as on the
 * whole photo (its halo came from the layer); outside, the photo exactly.
 */
static void
test_selection_thin (gconstpointer data)
{
  const GimpCheck   *check     = data;
  g_autofree gchar  *orig_path = photo (check->photo);
  g_autofree gchar  *want_path = NULL;
  g_autofree gchar  *got_path  = check_output (check);
  g_autofree gfloat *orig = NULL, *want = NULL, *got = NULL;
  GeglRectangle      rect;
  guint              w, h, ww, wh, x, y, inside = 0;
  gint               dx = 0, dy = 0;

  g_assert_cmpint (sscanf (strstr (check->before, "REPLACE"), "REPLACE %d %d %d %d",
                           &rect.x, &rect.y, &rect.width, &rect.height), ==, 4);
#if TL_GIMP_VERSION == 2
  want_path = cli_apply (check, check->filter, check->cli);
#else
  {
    /* In-core, GIMP 3 gives the operation the selection's bounds as its
     * whole image (GimpDrawableFilter's selection region), as it does
     * its own filters: the halo clamps at those bounds.
     */
    g_autoptr(GError)  error = NULL;
    g_autoptr(TlImage) whole = tl_image_load (orig_path, &error);
    g_autoptr(TlImage) part  = NULL;
    g_autofree gchar  *crop  = work_file ("crop-of-photo.png");

    g_assert_no_error (error);
    part = tl_image_new_from_buffer (tl_image_get_buffer (whole), &rect);
    g_assert_true (tl_image_save (part, crop, &error));
    want_path = cli_apply_file (check->filter, check->cli, crop, check->name);
    dx = rect.x;
    dy = rect.y;
  }
#endif
  orig = load (orig_path, &w, &h);
  want = load (want_path, &ww, &wh);
  got  = load (got_path, &w, &h);

  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      {
        gsize i = ((gsize) y * w + x) * 4;

        if (gegl_rectangle_contains (&rect, &(GeglRectangle) { x, y, 1, 1 }))
          {
            gsize j = ((gsize) (y - dy) * ww + (x - dx)) * 4;

            if (max_difference (got + i, want + j, 4) > 1.0 / 255.0 + 1e-6)
              g_error ("pixel %u,%u: not filtered as `threadlens apply` does", x, y);
            inside += max_difference (got + i, orig + i, 4) > 0.0;
          }
        else if (max_difference (got + i, orig + i, 4) != 0.0)
          {
            g_error ("pixel %u,%u outside the selection changed", x, y);
          }
      }
  /* The filter did change the selected pixels (a one-pixel image in
   * GIMP 3 blurs to itself).
   */
  if (rect.width * rect.height > 1 || TL_GIMP_VERSION == 2)
    g_assert_cmpuint (inside, >=, (guint) (rect.width * rect.height + 1) / 2);
}

/* A program cache whose every entry is garbage: the command line fills
 * it, then each file is overwritten.
 */
static void
prepare_corrupt_cache (void)
{
  g_autofree gchar *dir    = work_file ("corrupt-cache");
  g_autofree gchar *in     = photo ("coffee.png");
  g_autofree gchar *out    = work_file ("cache-fill.png");
  g_autofree gchar *find   = NULL;
  g_autofree gchar *files  = NULL;
  const gchar      *argv[] = { g_getenv ("THREADLENS_BIN"), "apply", "edge-sobel",
                               in, out, NULL };
  g_auto(GStrv)     envp   = g_environ_setenv (g_get_environ (),
                                               "THREADLENS_CACHE_DIR", dir, TRUE);
  g_auto(GStrv)     paths  = NULL;
  gint              status;
  guint             i, n = 0;

  g_mkdir_with_parents (dir, 0700);
  g_assert_true (g_spawn_sync (NULL, (gchar **) argv, envp,
                               G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                               NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  find = g_strdup_printf ("find %s -type f", dir);
  g_assert_true (g_spawn_command_line_sync (find, &files, NULL, &status, NULL));
  paths = g_strsplit (files, "\n", -1);
  for (i = 0; paths[i]; i++)
    if (*paths[i] && g_file_set_contents (paths[i], "not a program", -1, NULL))
      n++;
  g_assert_cmpuint (n, >=, 1);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error   = NULL;
  g_autofree gchar *console = g_find_program_in_path (GIMP_CONSOLE);
  guint             i;
  int               status;

  g_test_init (&argc, &argv, NULL);

  if (console == NULL || g_getenv ("TL_GIMP_PLUGIN") == NULL)
    {
      /* TAP: no tests, and why. */
      g_print ("1..0 # SKIP %s\n",
               console ? "this build has no host for " GIMP_CONSOLE
                       : GIMP_CONSOLE " is not installed");
      return 0;
    }

  work_dir = g_dir_make_tmp ("threadlens-gimp-XXXXXX", NULL);
  g_setenv ("THREADLENS_CACHE_DIR", work_dir, TRUE);
  if (! tl_image_init_gegl (&error))
    g_error ("GEGL: %s", error->message);
  prepare_corrupt_cache ();
  gimp_log = g_string_new (NULL);

  /* One GIMP for the plain checks, one for each environment. */
  add_registry_checks ();
  run_gimp (NULL);
  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      guint j;

      for (j = 0; j < i && g_strcmp0 (checks[j].env, checks[i].env) != 0; j++)
        ;
      if (checks[i].env && j == i)
        run_gimp (checks[i].env);
    }
  if (verdict_pairs->len > 0)
    run_gimp (NO_MODULE);

  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    {
      g_autofree gchar *path = g_strdup_printf ("/gimp%d/%s", TL_GIMP_VERSION,
                                                checks[i].name);

      g_test_add_data_func (path, &checks[i], test_check);
    }
  for (i = 0; i < registry_checks->len; i++)
    {
      const GimpCheck  *check = g_ptr_array_index (registry_checks, i);
      g_autofree gchar *path  = g_strdup_printf ("/gimp%d/%s", TL_GIMP_VERSION,
                                                 check->name);

      g_test_add_data_func (path, check, test_check);
    }
  for (i = 0; i < verdict_pairs->len; i++)
    {
      const GimpCheck  *check = g_ptr_array_index (verdict_pairs, i);
      g_autofree gchar *path  = g_strdup_printf ("/gimp%d/same-verdict/%s",
                                                 TL_GIMP_VERSION, check->name);

      g_test_add_data_func (path, check, test_same_verdict);
    }
#if TL_GIMP_VERSION == 3
  g_test_add_func ("/gimp3/no-leaked-buffers", test_no_leaks);
#endif
  g_test_add_func ("/gimp/selection/rectangle", test_selection_rectangle);
  g_test_add_func ("/gimp/selection/feathered", test_selection_feathered);
  g_test_add_data_func ("/gimp/selection/1x1", find_check ("selection-1x1"),
                        test_selection_thin);
  g_test_add_data_func ("/gimp/selection/1xN", find_check ("selection-1xN"),
                        test_selection_thin);

  status = g_test_run ();
  g_ptr_array_unref (verdict_pairs);
  g_ptr_array_unref (registry_checks);
  return status;
}
