/* ThreadLens tests: test-gimp's checks, described once for both GIMPs:
 * the table chosen by hand (every filter through script-fu, depths and
 * precisions, selections, layers without pixels of their own, thread
 * maps, failures of the device and bad arguments), a check of its own for
 * every filter of the registry that the table leaves out, and the
 * verdict walk: every procedure's arguments through bad values, with and
 * without the GEGL module in GIMP 3.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "tl-filter.h"

#include "gimp-checks.h"

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
  /* Cancelled: GIMP's progress cancel ends the plug-in's process
   * (SIGKILL), here two seconds into an hour's run.  The call fails, the
   * layer and the undo history are as they were.  GIMP 3 runs a run this
   * long through the plug-in, not in-core, for this.
   */
  { "cancelled", "coffee.png", NULL, "bilateral-filter", "RUN-NONINTERACTIVE",
    "blur-radius=1000", NULL, EXPECT_UNCHANGED, "TL-CALL-FAILED", { NULL },
    FALSE, KILL_PLUG_IN "=2" },
  /* A program cache of garbage is rebuilt, not trusted. */
  { "corrupt-cache", "coffee.png", NULL, "edge-sobel", "RUN-NONINTERACTIVE",
    "", NULL, EXPECT_SAME_AS_CLI, NULL, { NULL }, FALSE,
    "THREADLENS_CACHE_DIR=@corrupt" },
  /* Tiles: a layer cut into 64-pixel tiles gives the same pixels. */
  { "tiled", "coffee.png", NULL, "gaussian-blur", "RUN-NONINTERACTIVE",
    "std-dev=5.0", NULL, EXPECT_SAME_AS_CLI, NULL, { "--set=std-dev=5" },
    FALSE, "THREADLENS_TILE=64" },
  /* Selections: none on this layer (GIMP's own filters succeed and do
   * nothing there, so that a script looping over layers goes on); one
   * pixel; one column.
   */
  { "empty-selection", "coffee.png",
    "(gimp-image-resize img 800 600 0 0)"
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 650 450 100 100)",
    "invert", "RUN-NONINTERACTIVE", "",
    "(gimp-selection-none img)(gimp-image-resize img 600 400 0 0)",
    EXPECT_NOTHING, NULL, { NULL } },
  { "selection-1x1", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 300 200 1 1)",
    "gaussian-blur", "RUN-NONINTERACTIVE", "std-dev=3.0",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { "--set=std-dev=3" } },
  { "selection-1xN", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 250 0 1 400)",
    "box-blur", "RUN-NONINTERACTIVE", "radius=4.0",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { "--set=radius=4" } },
#if TL_GIMP_VERSION == 3
  /* GIMP 3's plug-in path (a long run's, or one without the module)
   * reads its halo within the selection's bounds, as in-core.
   */
  { "selection-1xN-plug-in", "coffee.png",
    "(gimp-image-select-rectangle img CHANNEL-OP-REPLACE 250 0 1 400)",
    "box-blur", "RUN-NONINTERACTIVE", "radius=4.0",
    "(gimp-selection-none img)", EXPECT_CUSTOM, NULL, { "--set=radius=4" },
    FALSE, NO_MODULE },
#endif
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

void
gimp_checks_init (void)
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

void
gimp_checks_free (void)
{
  g_clear_pointer (&verdict_pairs, g_ptr_array_unref);
  g_clear_pointer (&registry_checks, g_ptr_array_unref);
}

const GimpCheck *
gimp_checks_table (guint *n_checks)
{
  *n_checks = G_N_ELEMENTS (checks);
  return checks;
}

GPtrArray *
gimp_checks_registry (void)
{
  return registry_checks;
}

GPtrArray *
gimp_checks_verdict_pairs (void)
{
  return verdict_pairs;
}

const GimpCheck *
gimp_checks_find (const gchar *name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (checks); i++)
    if (strcmp (checks[i].name, name) == 0)
      return &checks[i];
  g_assert_not_reached ();
}
