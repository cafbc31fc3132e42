/* ThreadLens: what both GIMP hosts share.
 *
 * The hosts differ only in how GIMP hands over arguments and pixels.  The
 * procedure's argument list, the checks on each value, the remembered
 * settings and the processing of a layer region all live here, so that the
 * GIMP 2.10 and GIMP 3 files do nothing but translate between GIMP's API
 * and these calls.  No libgimp here: GLib, GEGL and the engine only.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_HOST_H
#define TL_HOST_H

#include <gegl.h>

#include "tl-filter.h"
#include "tl-plan.h"
#include "tl-process.h"
#include "tl-tune.h"

G_BEGIN_DECLS

#define TL_HOST_PROC_PREFIX  "plug-in-threadlens-"
#define TL_HOST_THREAD_MAP   "plug-in-threadlens-thread-map"
#define TL_HOST_OPERATION_PREFIX "threadlens:"   /* the GEGL module's */
/* threadlens:thread-map's property naming the filter whose dispatch it
 * draws (empty: the overlay kernel's own).
 */
#define TL_HOST_MAP_FILTER_ARG   "filter"
#define TL_HOST_MENU_PATH    "<Image>/Filters/ThreadLens (OpenCL)"
#define TL_HOST_MAX_PARAMS   4
#define TL_HOST_DEVICE_LEN   128

typedef enum
{
  TL_HOST_ARG_INT,
  TL_HOST_ARG_DOUBLE,
  TL_HOST_ARG_STRING
} TlHostArgType;

/* One PDB argument after run-mode, image and drawable(s). */
typedef struct
{
  const gchar   *name;
  const gchar   *nick;
  const gchar   *blurb;
  TlHostArgType  type;
  gdouble        min, max;
  gdouble        default_number;
  const gchar   *default_text;
  const gchar  **choices;        /* for strings with fixed values, NULL-terminated */
} TlHostArg;

typedef union
{
  gint         i;
  gdouble      d;
  const gchar *s;
} TlHostValue;

/* Everything a run needs besides the pixels; a plain struct, so the 2.10
 * host can keep it with gimp_set_data ().
 */
typedef struct
{
  TlValue  values[TL_HOST_MAX_PARAMS];
  gint     shape[2];              /* 0 x 0: auto */
  TlMode   mode;
  gint     swizzle;
  gint     pixels_per_item;       /* 0: the filter's default */
  gint     overlay;               /* index into tl_host_overlay_names */
  gint     overlay_style;         /* index into tl_host_overlay_style_names */
  gdouble  overlay_opacity;
  gchar    device[TL_HOST_DEVICE_LEN];
  gboolean non_destructive;       /* GIMP 3: onto the layer's filter stack */
} TlHostSettings;

/* A thread map to put on a new layer: AREA of the drawable (the region the
 * kernels ran on), its pixels in FORMAT (the layer's storage with alpha,
 * or R'G'B'A float), the layer's name.
 */
typedef struct
{
  GeglRectangle  area;
  const Babl    *format;
  gpointer       pixels;
  TlContext     *staged;          /* whose pinned memory PIXELS are, or NULL */
  gchar         *title;
  gchar         *legend;
} TlHostOverlay;

/* FRACTION of a host's work done, MESSAGE saying what it is.  FALSE
 * stops the filter's run (TL_ERROR_CANCELLED): the dialog's preview,
 * when its run is stale.  GIMP's hosts always go on: GIMP stops a
 * plug-in by ending its process, not by asking.
 */
typedef gboolean (* TlHostProgress) (gdouble      fraction,
                                     const gchar *message,
                                     gpointer     data);

/* What a host does to GIMP's image: each is one or two libgimp calls,
 * which differ between GIMP 2.10 (IDs) and 3 (objects) in types only.
 * IMAGE, DRAWABLE and layers are the host's handles.
 */
/* What a drawable is, for the kinds ThreadLens cannot filter. */
typedef enum
{
  TL_HOST_DRAWABLE_LAYER,       /* a layer of pixels */
  TL_HOST_DRAWABLE_LAYER_MASK,
  TL_HOST_DRAWABLE_CHANNEL,     /* a channel (selection masks included) */
  TL_HOST_DRAWABLE_INDEXED,
  TL_HOST_DRAWABLE_GROUP,       /* a layer group: its pixels are its children's */
  TL_HOST_DRAWABLE_TEXT         /* a text layer: filtering would drop its text */
} TlHostDrawableKind;

typedef struct
{
  TlHostDrawableKind (* kind)    (gpointer             drawable);
  gboolean     (* mask_bounds)   (gpointer             drawable,
                                  GeglRectangle       *region);
  GeglBuffer * (* get_buffer)    (gpointer             drawable);
  GeglBuffer * (* get_shadow)    (gpointer             drawable);
  void         (* merge_shadow)  (gpointer             drawable,
                                  const GeglRectangle *region);
  gpointer     (* add_layer)     (gpointer             image,
                                  gpointer             above,
                                  const gchar         *name,
                                  const GeglRectangle *area);
  void         (* update)        (gpointer             drawable,
                                  const GeglRectangle *area);
  void         (* undo_begin)    (gpointer             image);
  void         (* undo_end)      (gpointer             image);
  void         (* progress_init) (const gchar         *message);
  void         (* progress_end)  (void);
  TlHostProgress progress;
  void         (* message)       (const gchar         *text);
  /* In-core (NULL where the GIMP has no such call: 2.10): runs OPERATION
   * on DRAWABLE in GIMP's process with ARGS' values as its properties
   * (those it has), merged as one undo step through the selection or,
   * with APPEND, onto the drawable's filter stack under TITLE.  FALSE
   * with TL_ERROR_NO_OPERATION when GIMP does not know the operation.
   */
  gboolean     (* run_operation) (gpointer             drawable,
                                  const gchar         *operation,
                                  const gchar         *title,
                                  const TlHostArg     *args,
                                  const TlHostValue   *values,
                                  guint                n_args,
                                  gboolean             append,
                                  GError             **error);
  /* In-core too: a new layer NAME above ABOVE over AREA of it, holding
   * ABOVE's pixels there with OPERATION run on them, whatever the
   * selection; NULL with ERROR (as run_operation's) and nothing added.
   */
  gpointer     (* add_operation_layer) (gpointer             image,
                                        gpointer             above,
                                        const gchar         *name,
                                        const GeglRectangle *area,
                                        const gchar         *operation,
                                        const TlHostArg     *args,
                                        const TlHostValue   *values,
                                        guint                n_args,
                                        GError             **error);
  void         (* remove_layer)  (gpointer             image,
                                  gpointer             layer);
} TlHostGimp;

/* The overlay argument's values ("none", then the modes) and the
 * overlay-style's, NULL-terminated: TlHostSettings' overlay and
 * overlay_style index them.
 */
extern const gchar *tl_host_overlay_names[];
extern const gchar *tl_host_overlay_style_names[];

/* FILTER NULL stands for the thread-map procedure throughout. */

/* Every procedure's name, the registry's filters then the thread map;
 * free with g_strfreev ().
 */
gchar          **tl_host_procedure_names  (void);
/* Whether PROCEDURE (or NULL) is the thread-map procedure's name. */
gboolean         tl_host_is_thread_map    (const gchar          *procedure);

/* FILTER's procedure name, "plug-in-threadlens-FILTER"; free with
 * g_free ().
 */
gchar           *tl_host_procedure_name   (const TlFilter       *filter);
/* The filter PROCEDURE runs, or NULL with ERROR when it names none (the
 * thread map's included: it runs no filter).
 */
const TlFilter  *tl_host_filter_for_procedure (const gchar      *procedure,
                                           GError              **error);
/* FILTER's menu label, marked for translation but not translated (GIMP
 * translates menu labels itself); free with g_free ().
 */
gchar           *tl_host_menu_label       (const TlFilter       *filter);
gchar           *tl_host_filter_title     (const TlFilter       *filter);

/* FILTER's procedure arguments after run-mode, image and drawable(s):
 * its parameters in registry order, then the dispatch and overlay ones;
 * N_ARGS gets how many.  NULL-name-terminated; free with
 * tl_host_arguments_free ().
 */
TlHostArg       *tl_host_arguments        (const TlFilter       *filter,
                                           guint                *n_args);
/* threadlens:thread-map's properties: the thread-map procedure's
 * arguments, then TL_HOST_MAP_FILTER_ARG; as tl_host_arguments ().
 */
TlHostArg       *tl_host_map_operation_arguments (guint         *n_args);
/* Frees ARGS (NULL: nothing) from either function above. */
void             tl_host_arguments_free   (TlHostArg            *args);

/* SETTINGS set to FILTER's defaults and the default dispatch: automatic
 * shape, uniform mode, no overlay for a filter (the thread map: the
 * work-group map).
 */
void             tl_host_settings_init    (TlHostSettings       *settings,
                                           const TlFilter       *filter);
/* SETTINGS from VALUES, N_VALUES of them, one per argument of
 * tl_host_arguments (FILTER) in order, each checked and then all
 * together.  FALSE with ERROR naming the value that cannot run;
 * SETTINGS is changed only on success.
 */
gboolean         tl_host_settings_from_values (TlHostSettings   *settings,
                                           const TlFilter       *filter,
                                           const TlHostValue    *values,
                                           guint                 n_values,
                                           GError              **error);
/* The inverse: VALUES (one per argument of tl_host_arguments (FILTER))
 * from SETTINGS.  Their strings belong to the returned array: keep it
 * while VALUES is used, then free it with g_ptr_array_unref ().
 */
GPtrArray       *tl_host_settings_to_values (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           TlHostValue          *values);
/* A threadlens: operation and its properties from settings, for GIMP 3's
 * filters: ARGS (N_ARGS of them) and their VALUES, whose strings
 * STRINGS holds.
 */
typedef struct
{
  gchar       *operation;
  TlHostArg   *args;
  TlHostValue *values;
  guint        n_args;
  GPtrArray   *strings;
} TlHostProperties;

/* threadlens:FILTER with SETTINGS. */
TlHostProperties *tl_host_properties_new  (const TlFilter       *filter,
                                           const TlHostSettings *settings);
/* threadlens:thread-map with SETTINGS, drawing SHOWN's dispatch (NULL:
 * the overlay kernel's own).
 */
TlHostProperties *tl_host_map_properties_new (const TlFilter     *shown,
                                           const TlHostSettings *settings);
void             tl_host_properties_free  (TlHostProperties     *properties);

/* The engine's dispatch CHOICE from SETTINGS; FALSE with ERROR when the
 * shape is not a valid one.
 */
gboolean         tl_host_settings_to_choice (const TlHostSettings *settings,
                                           TlChoice             *choice,
                                           GError              **error);

/* No OpenCL in this process from now on, for WHY (the GEGL module, when
 * the platforms' probe failed): runs take the C references, WHY in their
 * message.
 */
void             tl_host_set_opencl_off   (const gchar          *why);
/* The OpenCL context of SETTINGS' device (empty: the default), kept for
 * the life of the process and owned there: do not free it.  NULL with
 * ERROR where there is none (TL_ERROR_NO_PLATFORM: no OpenCL at all).
 */
TlContext       *tl_host_get_context      (const TlHostSettings *settings,
                                           GError              **error);
/* CONTEXT gets the context for SETTINGS' device, or NULL where there is
 * no OpenCL platform at all: FILTER then runs its C reference and
 * WARNING (when given; free with g_free ()) says so, unless NEED_DEVICE
 * (a thread map), which makes that an error.  FALSE with ERROR for every
 * other failure.
 */
gboolean         tl_host_open_device      (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           gboolean              need_device,
                                           TlContext           **context,
                                           gchar               **warning,
                                           GError              **error);

/* The thread-map procedure: OVERLAY (empty; the caller clears it with
 * tl_host_overlay_clear ()) gets the map of the overlay kernel's own
 * dispatch over REGION of SOURCE, which stays as it is.  PROGRESS (or
 * NULL) gets PROGRESS_DATA.  FALSE with ERROR, nothing in OVERLAY.
 */
gboolean         tl_host_thread_map       (const TlHostSettings *settings,
                                           GeglBuffer           *source,
                                           const GeglRectangle  *region,
                                           TlHostProgress        progress,
                                           gpointer              progress_data,
                                           TlHostOverlay        *overlay,
                                           GError              **error);
/* As tl_host_thread_map (), the map of the dispatch that runs FILTER's
 * kernels (NULL: the overlay kernel's own).
 */
gboolean         tl_host_thread_map_for   (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           GeglBuffer           *source,
                                           const GeglRectangle  *region,
                                           TlHostProgress        progress,
                                           gpointer              progress_data,
                                           TlHostOverlay        *overlay,
                                           GError              **error);
/* The title (the new layer's name) of the thread map of FILTER (NULL:
 * the overlay kernel's own) over AREA of SOURCE, without drawing it,
 * after the same checks of the settings and device; only SOURCE's format
 * is read.  Free with g_free (); NULL with ERROR.
 */
gchar           *tl_host_thread_map_title (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           GeglBuffer           *source,
                                           const GeglRectangle  *area,
                                           GError              **error);
/* Frees what OVERLAY holds (its pixels back to the context's staging
 * memory where they came from there) and empties it.
 */
void             tl_host_overlay_clear    (TlHostOverlay        *overlay);
/* The search behind "auto" for FILTER on REGION of SOURCE as it would
 * run (the layer's storage, SETTINGS' device, mode and values), within
 * BUDGET_S seconds; PROGRESS (or NULL) gets PROGRESS_DATA and may cancel.
 * TUNING gets the best choice, which is also stored on disk for later
 * runs.  FALSE with ERROR.
 */
gboolean         tl_host_tune             (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           GeglBuffer           *source,
                                           const GeglRectangle  *region,
                                           gdouble               budget_s,
                                           TlTuneProgress        progress,
                                           gpointer              progress_data,
                                           TlTuning             *tuning,
                                           GError              **error);

/* FALSE with ERROR when the selection misses DRAWABLE: a dialog does
 * not open for it, as GIMP's own do not.
 */
gboolean         tl_host_check_selection  (const TlHostGimp     *gimp,
                                           gpointer              drawable,
                                           GError              **error);

/* Runs FILTER (NULL: the thread map alone) in SETTINGS on DRAWABLE of
 * IMAGE (the host's handles; GIMP's calls in GIMP) the way GIMP's own
 * filters run: on the selection's bounds (nothing, and TRUE, where the
 * selection misses DRAWABLE, as GIMP's own), in GIMP's process where GIMP
 * has run_operation and the module is loaded, else through the shadow
 * buffer; with the overlay layer if asked; as one undo step.  FALSE with
 * ERROR, the image as it was.
 */
gboolean         tl_host_apply            (const TlHostGimp     *gimp,
                                           const TlFilter       *filter,
                                           const TlHostSettings *settings,
                                           gpointer              image,
                                           gpointer              drawable,
                                           GError              **error);

/* Filters REGION of SOURCE into the same place of TARGET (not SOURCE),
 * in tiles where it is big, the halo read from SOURCE.  PROGRESS (or
 * NULL) gets PROGRESS_DATA, while the kernels run too.  With an overlay
 * in SETTINGS and OVERLAY given, OVERLAY gets the thread map of the same
 * dispatch.  REPORT (or NULL) gets the run's times.  With no OpenCL
 * platform at all the C reference runs, and WARNING (when given; free
 * with g_free ()) says so.  FALSE with ERROR, TARGET then maybe partly
 * written.
 */
gboolean         tl_host_process          (const TlHostSettings *settings,
                                           const TlFilter       *filter,
                                           GeglBuffer           *source,
                                           GeglBuffer           *target,
                                           const GeglRectangle  *region,
                                           TlHostProgress        progress,
                                           gpointer              progress_data,
                                           TlHostOverlay        *overlay,
                                           TlProcessReport      *report,
                                           gchar               **warning,
                                           GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlHostProperties, tl_host_properties_free)

G_END_DECLS

#endif /* TL_HOST_H */
