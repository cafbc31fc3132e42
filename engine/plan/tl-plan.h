/* ThreadLens: the dispatch planner.
 *
 * Pure arithmetic: given a region, the kernel's and device's limits and the
 * user's dispatch choices, say exactly which NDRange launches cover the
 * region.  No OpenCL calls, so it is tested on its own and the dialog can
 * show a plan for a device that is not present.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_PLAN_H
#define TL_PLAN_H

#include <glib.h>

G_BEGIN_DECLS

#define TL_PLAN_MAX_LAUNCHES 4

typedef enum
{
  TL_MODE_UNIFORM,      /* rounded-up grid, kernels guard their bounds */
  TL_MODE_NON_UNIFORM,  /* exact grid: native if the device can, else emulated */
  TL_MODE_EMULATED      /* exact grid by up to four offset launches, forced */
} TlMode;

/* What the untuned rule needs to know of a device (CL_DEVICE_TYPE). */
typedef enum
{
  TL_DEVICE_KIND_GPU,   /* GPUs, accelerators and devices that do not say */
  TL_DEVICE_KIND_CPU
} TlDeviceKind;

typedef enum
{
  TL_SHAPE_AUTO,        /* tuned if searched, else the device's rule */
  TL_SHAPE_SEED,        /* w = P, h = M / P */
  TL_SHAPE_CUSTOM,      /* the user's w x h */
  TL_SHAPE_DRIVER       /* local size NULL: the driver chooses (a baseline) */
} TlShapeKind;

/* What the kernel and the device allow. */
typedef struct
{
  guint    simd_width;           /* P: preferred work-group size multiple */
  guint    max_group_size;       /* M: CL_KERNEL_WORK_GROUP_SIZE, or the
                                  * device's largest group where every
                                  * kernel fits it (NVIDIA, tl-cl-context.c) */
  guint    driver_group_size;    /* CL_KERNEL_WORK_GROUP_SIZE as the driver
                                  * said it */
  guint    max_item_size[2];     /* CL_DEVICE_MAX_WORK_ITEM_SIZES[0..1] */
  guint64  local_mem_size;       /* CL_DEVICE_LOCAL_MEM_SIZE, 0 = unknown */
  guint64  kernel_local_mem;     /* CL_KERNEL_LOCAL_MEM_SIZE */
  guint64  local_mem_per_item;   /* local memory the kernel needs per item */
  gboolean native_non_uniform;   /* device and program allow it */
  gboolean reads_block;          /* the kernel loads a block with a halo */
  gboolean float_storage;        /* the layer travels as floats, 16 bytes a pixel */
  TlDeviceKind device_kind;
} TlLimits;

/* What the user chose. */
typedef struct
{
  TlShapeKind shape_kind;
  guint       shape[2];          /* for TL_SHAPE_CUSTOM */
  TlMode      mode;
  guint       swizzle;           /* tile width N in groups, 0 = off */
  guint       pixels_per_item;   /* k >= 1, along x */
} TlChoice;

/* One clEnqueueNDRangeKernel call. */
typedef struct
{
  gsize offset[2];               /* global work offset, in work-items */
  gsize global[2];
  gsize local[2];
  guint group_base[2];           /* added to get_group_id () in the kernel */
} TlLaunch;

typedef struct
{
  guint    width, height;        /* region in pixels */
  guint    pixels_per_item;
  guint    items[2];             /* work-items needed: ceil (W / k) x H */
  guint    local[2];             /* the work-group shape */
  guint    groups[2];            /* the group grid, partial groups included */
  guint    full_groups[2];       /* groups of the full shape in each direction */
  guint    swizzle;              /* N, 0 = off */
  guint    swizzle_grid[2];      /* the part of the grid the swizzle permutes */
  guint64  group_count;
  guint64  threads;              /* work-items launched */
  guint64  idle_threads;         /* launched but outside the region */
  guint64  pixels;
  TlMode   mode;                 /* as chosen */
  gboolean emulated;             /* exact grid built from offset launches */
  guint    n_launches;
  TlLaunch launches[TL_PLAN_MAX_LAUNCHES];
  const gchar *shape_rule;       /* why this shape, untranslated */
  gboolean tuned;                /* "auto" found a tuned choice */
  gdouble  tuned_ms;             /* its median when it was tuned */
  gdouble  tuning_s;             /* how long its search took */
} TlPlan;

gboolean     tl_plan_compute          (const TlLimits *limits,
                                       const TlChoice *choice,
                                       guint           width,
                                       guint           height,
                                       TlPlan         *plan,
                                       GError        **error);

void         tl_plan_swizzle          (guint           grid_x,
                                       guint           grid_y,
                                       guint           tile_width,
                                       guint           gx,
                                       guint           gy,
                                       guint          *out_gx,
                                       guint          *out_gy);

void         tl_choice_init           (TlChoice       *choice);

const gchar *tl_mode_to_string        (TlMode          mode);
gboolean     tl_mode_from_string      (const gchar    *text,
                                       TlMode         *mode,
                                       GError        **error);
gboolean     tl_shape_from_string     (const gchar    *text,
                                       TlChoice       *choice,
                                       GError        **error);

gchar       *tl_plan_describe_mode    (const TlPlan   *plan);

G_END_DECLS

#endif /* TL_PLAN_H */
