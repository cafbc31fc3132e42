/* ThreadLens dialog: what the files of the TlDialogPanel share.
 *
 * One object, one job per file: tl-dialog-panel.c (the object, its
 * layout and public API), tl-panel-pages.c (the Filter, Dispatch and
 * Overlay pages), tl-panel-settings.c (settings <-> widgets, values by
 * name), tl-panel-devices.c (the device list), tl-panel-plan.c (judging
 * the choices for the summary) and tl-panel-tune.c (the Tune search).
 * Only those files include this header.
 *
 * Calls run one way, down this list: tl-dialog-panel.c calls every part;
 * tl-panel-tune.c calls tl-panel-plan.c; tl-panel-plan.c and
 * tl-panel-settings.c call tl-panel-pages.c and tl-panel-devices.c, which
 * call no other part.  No part calls up into tl-dialog-panel.c: a part
 * that sees the user change something reports it through the panel's
 * changed () (tl_dialog_panel_update () there: the widgets read, judged,
 * the host told), and what a part needs from above (the default pixels
 * per item, the panel's "runnable" property) it takes as an argument.
 * Handlers of the parts' buttons that start other parts' work (Tune) are
 * connected by tl-dialog-panel.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_DIALOG_PANEL_PRIVATE_H
#define TL_DIALOG_PANEL_PRIVATE_H

#include "tl-dialog-panel.h"

G_BEGIN_DECLS

#define TL_DIALOG_PANEL_MAX_SHAPE   4096   /* over any device: the planner refuses, not the spin */
#define TL_DIALOG_PANEL_MAX_K       4096
#define TL_DIALOG_PANEL_MAX_SWIZZLE 4096
#define TL_DIALOG_PANEL_SWIZZLE     4      /* the tile width offered first */
#define TL_DIALOG_PANEL_MATRIX_ROWS 4
#define TL_DIALOG_PANEL_N_SHAPES    8      /* tl_panel_pages_shapes */
#define TL_DIALOG_PANEL_N_MODES     3      /* tl_panel_pages_modes */

/* Device list rows that are not a device. */
enum
{
  TL_DIALOG_PANEL_DEVICE_AUTO    = -1,    /* settings' device "" */
  TL_DIALOG_PANEL_DEVICE_MISSING = -2     /* a remembered device not present */
};

enum
{
  TL_DIALOG_PANEL_COLUMN_TEXT,
  TL_DIALOG_PANEL_COLUMN_INDEX,
  TL_DIALOG_PANEL_N_COLUMNS
};

/* The Dispatch page's choices, by the ids the settings use. */
typedef struct
{
  const gchar *id;
  const gchar *label;
} TlDialogShape;

typedef struct
{
  TlMode       mode;
  const gchar *label;
  const gchar *hint;
} TlDialogMode;

/* How a part tells the panel that the user changed a choice. */
typedef void (* TlDialogPanelChanged) (TlDialogPanel *self);

/* The widgets of one filter parameter. */
typedef struct
{
  const TlParamSpec *spec;
  GtkAdjustment     *adjustment;  /* a number, over its whole range */
  GtkAdjustment     *slider;      /* the same, over its slider range */
  gboolean           following;   /* the slider follows the number */
  GtkWidget        **cells;       /* a matrix: rows x max_cols entries */
  guint              rows;
  guint              min_cols;
  guint              max_cols;
  GtkWidget         *more;        /* a matrix's optional columns */
  GtkWidget         *entry;       /* any other list of numbers */
} TlDialogParam;

struct _TlDialogPanel
{
  GtkBox                parent_instance;

  const TlFilter       *filter;        /* NULL: the thread-map procedure */
  guint                 n_params;      /* the filter's; 0 for the thread map */
  TlDialogPanelChanged  changed;       /* set before the parts are built */
  gchar                *variant;       /* the layer's storage, for tuning */
  GeglRectangle         region;
  GeglRectangle         extent;        /* the layer */
  GeglRectangle         area;          /* where the kernels run */
  TlHostSettings        settings;      /* what the widgets say */

  /* The devices: NULL until probed (or injected by a test). */
  GPtrArray            *devices;
  guint                 default_device;
  gchar                *devices_error;
  gboolean              cpu_only;       /* no OpenCL platform at all */
  gboolean              message_is_note; /* shown, but the run can go ahead */
  gboolean              injected;
  gboolean              probing;
  gboolean              tuning;        /* a search for "auto" is running */
  GtkWidget            *tune_button;   /* Cancel while tuning */
  GtkWidget            *tune_progress; /* shown from the first search on */
  GCancellable         *tune_cancellable;
  GeglBuffer           *source;        /* the layer, for tuning */
  GCancellable         *cancellable;
  gboolean              disposed;

  TlLimits              limits;
  gboolean              have_limits;
  TlPlan                plan;
  gboolean              have_plan;
  gchar                *param_error;
  gchar                *message;       /* why it cannot run, NULL if it can */
  gboolean              runnable;
  gint                  updating;

  GtkWidget            *summary_stack;
  GtkWidget            *info_bar;
  GtkWidget            *info_label;
  GtkWidget            *notebook;
  TlDialogParam        *params;

  GtkWidget            *device_combo;
  GtkListStore         *device_store;
  GtkWidget            *shape_combo;
  GtkWidget            *shape_width;
  GtkWidget            *shape_height;
  GtkWidget            *mode_combo;
  GtkWidget            *mode_hint;
  GtkWidget            *swizzle_toggle;
  GtkWidget            *swizzle_spin;
  GtkWidget            *pixels_spin;

  GtkWidget            *overlay_combo;
  GtkWidget            *style_combo;
  GtkAdjustment        *opacity;
  GtkWidget            *opacity_row[3];

  GtkWidget            *summary;
  GtkWidget            *preview;
};

extern const TlDialogShape  tl_panel_pages_shapes[TL_DIALOG_PANEL_N_SHAPES];
extern const TlDialogMode   tl_panel_pages_modes[TL_DIALOG_PANEL_N_MODES];

/* tl-panel-pages.c */
GtkWidget           *tl_panel_pages_frame           (const gchar          *title,
                                                     GtkWidget            *child);
void                 tl_panel_pages_set_error_style (GtkWidget            *widget,
                                                     gboolean              error);
const gchar         *tl_panel_pages_shape_id        (TlDialogPanel        *self);
GtkWidget           *tl_panel_pages_filter          (TlDialogPanel        *self);
GtkWidget           *tl_panel_pages_dispatch        (TlDialogPanel        *self,
                                                     guint                 default_pixels);
GtkWidget           *tl_panel_pages_overlay         (TlDialogPanel        *self);

/* tl-panel-settings.c */
void                 tl_panel_settings_read         (TlDialogPanel        *self,
                                                     guint                 default_pixels);
void                 tl_panel_settings_show         (TlDialogPanel        *self,
                                                     const TlHostSettings *settings,
                                                     guint                 default_pixels);
gboolean             tl_panel_settings_set_value    (TlDialogPanel        *panel,
                                                     const gchar          *name,
                                                     const gchar          *value,
                                                     GError              **error);

/* tl-panel-devices.c */
const TlProbeDevice *tl_panel_devices_get           (TlDialogPanel        *self,
                                                     gint                  index);
gint                 tl_panel_devices_find          (TlDialogPanel        *self,
                                                     const gchar          *spec);
gint                 tl_panel_devices_active        (TlDialogPanel        *self);
void                 tl_panel_devices_fill          (TlDialogPanel        *self,
                                                     const gchar          *spec);
void                 tl_panel_devices_probed        (GObject              *source_object,
                                                     GAsyncResult         *result,
                                                     gpointer              user_data);

/* tl-panel-plan.c */
guint                tl_panel_plan_default_pixels   (TlDialogPanel        *self);
void                 tl_panel_plan_set_message      (TlDialogPanel        *self,
                                                     const gchar          *heading,
                                                     const gchar          *detail);
void                 tl_panel_plan_evaluate         (TlDialogPanel        *self,
                                                     GParamSpec           *runnable);

/* tl-panel-tune.c */
void                 tl_panel_tune_start            (TlDialogPanel        *self);

G_END_DECLS

#endif /* TL_DIALOG_PANEL_PRIVATE_H */
