/* ThreadLens: the filter registry.
 *
 * Each filter names its parameters (with ranges and defaults), its working
 * pixel format, its default pixels per work-item, a plain C reference and
 * an OpenCL path.  Front ends (command line, GIMP hosts, dialog) are built
 * from this table, so a new filter needs no front-end change.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_FILTER_H
#define TL_FILTER_H

#include <glib.h>

#include "tl-cl.h"
#include "tl-codec.h"
#include "tl-pixels.h"
#include "tl-plan.h"
#include "tl-run.h"

G_BEGIN_DECLS

#define TL_VALUE_MAX 20

/* A halo wider than any layer: the result at a pixel depends on whole
 * lines (the recursive Gaussian), so hosts process the layer in one
 * piece.  Clamped to the layer before use.
 */
#define TL_FILTER_HALO_WHOLE (1u << 20)

typedef enum
{
  TL_PARAM_DOUBLE,      /* one number */
  TL_PARAM_VECTOR       /* a list of numbers, n_min..n_max of them */
} TlParamType;

typedef struct
{
  const gchar *name;            /* "std-dev": the PDB and --set name */
  const gchar *label;
  const gchar *description;
  TlParamType  type;
  gdouble      min, max;        /* for each number */
  guint        n_min, n_max;    /* how many numbers (1 for TL_PARAM_DOUBLE) */
  guint        n_default;
  gdouble      defaults[TL_VALUE_MAX];
  /* A distance on the image, in pixels: a preview of a scaled-down image
   * (GEGL's mipmap levels) scales it down with the image.
   */
  gboolean     is_length;
  /* How front ends show a TL_PARAM_DOUBLE, as GEGL's ui_digits, ui_steps
   * and ui_range do: DIGITS after the point (0: a whole number, which the
   * filter's check insists on), STEP for one click, and UI_MIN..UI_MAX,
   * within MIN..MAX, the range a slider covers (values beyond it are
   * still typed in).  Every entry states all four: a zero is not a
   * default.
   */
  guint        digits;
  gdouble      step;
  gdouble      ui_min, ui_max;
} TlParamSpec;

typedef struct
{
  guint   n;
  gdouble v[TL_VALUE_MAX];
} TlValue;

typedef struct _TlFilter TlFilter;

/* What C references see: 4 floats per pixel in the filter's format. */
typedef struct
{
  guint         width;
  guint         height;
  const gfloat *in;
  gfloat       *out;
  gint          x, y;           /* as in TlPixels */
  gboolean      scratch_half;   /* the recursive Gaussian's scratch
                                 * image in half precision, as the
                                 * kernels keep it for this storage
                                 * (tl_filter_scratch_half ()) */
  gboolean      convolve;       /* the blurs convolve at every standard
                                 * deviation, as a device without double
                                 * precision runs them
                                 * (tl_filter_recursive_takes ()) */
  gfloat       *scratch;        /* an image of 4 floats a pixel between
                                 * two passes, for filters with a halo
                                 * (or as many pixels as the filter's
                                 * reference_scratch () asks)
                                 * (tl_filter_reference () allocates
                                 * it, so that a reference never
                                 * aborts on memory); else NULL */
} TlFloatPixels;


struct _TlFilter
{
  const gchar        *name;
  const gchar        *label;
  const gchar        *description;
  const gchar        *format;             /* babl format name, 4 floats */
  guint               default_pixels_per_item;
  /* For 8-bit, 16-bit and half storage (0: as above): four such pixels
   * fill one 16-byte access, where four float pixels would not.
   */
  guint               narrow_pixels_per_item;
  /* Its kernel loads each group's block with a halo into local memory
   * (the fused blurs): the untuned rule gives it squarer, taller groups.
   */
  gboolean            reads_block;
  const TlParamSpec  *params;
  guint               n_params;
  const gchar        *program;            /* kernels/<program>.cl */
  const gchar *const *kernels;            /* NULL-terminated */
  /* A program variant token its kernels always take ("equal"), so that
   * the program the planner builds is the one the filter runs; NULL:
   * none.
   */
  const gchar        *variant;
  /* The kernels its runs take for pixels stored as CODEC says, where some
   * storage has a path of its own (the tone filters' tables of 8-bit
   * codes); NULL, or a NULL answer: KERNELS.  The planner builds and
   * plans with these, so that a first run builds no kernel it never takes.
   */
  const gchar *const *(* kernels_for) (const TlCodec *codec);

  /* Pixels outside a region that its result depends on (NULL: none);
   * TL_FILTER_HALO_WHOLE: every pixel of the layer's lines.
   */
  guint    (* halo)      (const TlValue   *values);
  /* Pixels of scratch its reference takes for a WIDTH x HEIGHT image
   * (NULL: one such image where it has a halo, else none).
   */
  gsize    (* reference_scratch) (const TlValue *values,
                                  guint          width,
                                  guint          height);
  /* Checks values beyond their ranges (NULL: nothing to check). */
  gboolean (* check)     (const TlFilter  *filter,
                          const TlValue   *values,
                          GError         **error);
  void     (* reference) (const TlFilter      *filter,
                          const TlValue       *values,
                          const TlFloatPixels *pixels);
  gboolean (* run_cl)    (TlRun           *run,
                          const TlValue   *values,
                          GError         **error);
};

const TlFilter *const *tl_filter_list            (guint           *n_filters);
const TlFilter       *tl_filter_lookup           (const gchar     *name,
                                                  GError         **error);
gboolean              tl_filter_scratch_half     (const TlCodec   *codec);
const gchar *const   *tl_filter_get_kernels      (const TlFilter  *filter,
                                                  const TlCodec   *codec);
const TlParamSpec    *tl_filter_find_param       (const TlFilter  *filter,
                                                  const gchar     *name,
                                                  guint           *index);

TlValue              *tl_filter_default_values   (const TlFilter  *filter);
gboolean              tl_filter_set_value        (const TlFilter  *filter,
                                                  TlValue         *values,
                                                  const gchar     *name,
                                                  const gchar     *text,
                                                  GError         **error);
gboolean              tl_filter_parse_assignment (const TlFilter  *filter,
                                                  TlValue         *values,
                                                  const gchar     *assignment,
                                                  GError         **error);
gboolean              tl_filter_check_values     (const TlFilter  *filter,
                                                  const TlValue   *values,
                                                  GError         **error);
const gfloat         *tl_filter_pixel_clamped    (const TlFloatPixels *pixels,
                                                  gint             x,
                                                  gint             y);
gboolean              tl_filter_check_whole      (const TlFilter  *filter,
                                                  const TlValue   *values,
                                                  guint            index,
                                                  GError         **error);
guint                 tl_filter_halo             (const TlFilter  *filter,
                                                  const TlValue   *values);
guint                 tl_filter_pixels_per_item  (const TlFilter  *filter,
                                                  gboolean         narrow);
guint                 tl_filter_auto_pixels_per_item (const TlFilter *filter,
                                                      gboolean        narrow,
                                                      TlDeviceKind    device_kind);
gboolean              tl_filter_reference        (const TlFilter  *filter,
                                                  const TlValue   *values,
                                                  const TlPixels  *pixels,
                                                  GError         **error);
gboolean              tl_filter_device_reference (TlContext       *context,
                                                  const TlFilter  *filter,
                                                  const TlValue   *values,
                                                  const TlPixels  *pixels,
                                                  GError         **error);

/* Separable convolution with clamp-to-edge borders (tl-filter-blur.c):
 * the blurs give their weights, 2 radius + 1 of them, symmetric.  The
 * order of the sums follows from the weights (tl_filter_convolve_order
 * (), and the kernels' program variants, kernels/blur.cl): equal ones
 * (a box) add the taps, then scale the sum once; others weight each tap
 * in turn, from TL_CONVOLVE_PAIRED_RADIUS up in pairs either side.
 */
#define TL_CONVOLVE_PAIRED_RADIUS 6

typedef enum
{
  TL_CONVOLVE_EACH,
  TL_CONVOLVE_PAIRED,
  TL_CONVOLVE_EQUAL
} TlConvolveOrder;

TlConvolveOrder       tl_filter_convolve_order     (const gfloat        *weights,
                                                    gint                 radius);

void                  tl_filter_convolve_reference (const gfloat        *weights,
                                                    gint                 radius,
                                                    const TlFloatPixels *pixels);
/* Sets a fused or vertical kernel's arguments past the seven they share. */
typedef gboolean    (* TlConvolveExtraArgs)      (TlRun           *run,
                                                  cl_kernel        kernel,
                                                  gconstpointer    data,
                                                  GError         **error);
gboolean              tl_filter_convolve_cl      (TlRun           *run,
                                                  const gfloat    *weights,
                                                  gint             radius,
                                                  const gchar     *family,
                                                  TlConvolveExtraArgs extra,
                                                  gconstpointer    extra_data,
                                                  GError         **error);
gint                  tl_filter_gaussian_radius  (gdouble          std_dev);
gfloat               *tl_filter_gaussian_weights (gdouble          std_dev,
                                                  gint            *radius);

/* The recursive Gaussian (tl-filter-recursive.c), which gaussian-blur
 * and unsharp-mask take from TL_RECURSIVE_MIN_STD_DEV up on devices with
 * double precision.
 */
#define TL_RECURSIVE_MIN_STD_DEV 5.0

gboolean              tl_filter_recursive_applies   (gdouble              std_dev);
gboolean              tl_filter_recursive_supported (TlContext           *context);
gboolean              tl_filter_recursive_takes     (gdouble              std_dev,
                                                     const TlFloatPixels *pixels);
void                  tl_filter_recursive_reference (gdouble              std_dev,
                                                     const TlFloatPixels *pixels);
gboolean              tl_filter_recursive_cl        (TlRun               *run,
                                                     gdouble              std_dev,
                                                     GError             **error);
gboolean              tl_filter_recursive_blur_cl   (TlRun               *run,
                                                     gdouble              std_dev,
                                                     cl_mem              *blurred,
                                                     GError             **error);
cl_mem                tl_filter_blur_scratch_new    (TlRun               *run,
                                                     GError             **error);

/* gaussian-blur's blur kept in a scratch image (tl_filter_blur_scratch_new
 * ()), for filters that combine blurs (tl-filter-blur.c): its reference
 * rounds as that image keeps values.
 */
gboolean              tl_filter_gaussian_scratch_cl        (TlRun               *run,
                                                            gdouble              std_dev,
                                                            cl_mem              *blurred,
                                                            GError             **error);
void                  tl_filter_gaussian_scratch_reference (gdouble              std_dev,
                                                            const TlFloatPixels *pixels);

/* Filter families register themselves here. */
extern const TlFilter tl_filter_invert;
extern const TlFilter tl_filter_color_matrix;
extern const TlFilter tl_filter_gaussian_blur;
extern const TlFilter tl_filter_brightness_contrast;
extern const TlFilter tl_filter_threshold;
extern const TlFilter tl_filter_mono_mixer;
extern const TlFilter tl_filter_sepia;
extern const TlFilter tl_filter_box_blur;
extern const TlFilter tl_filter_edge_sobel;
extern const TlFilter tl_filter_pixelize;
extern const TlFilter tl_filter_unsharp_mask;
extern const TlFilter tl_filter_posterize;
extern const TlFilter tl_filter_bilateral_filter;
extern const TlFilter tl_filter_snn_mean;
extern const TlFilter tl_filter_mean_curvature_blur;
extern const TlFilter tl_filter_motion_blur_linear;
extern const TlFilter tl_filter_difference_of_gaussians;
extern const TlFilter tl_filter_high_pass;
extern const TlFilter tl_filter_noise_reduction;
extern const TlFilter tl_filter_median_blur;

G_END_DECLS

#endif /* TL_FILTER_H */
