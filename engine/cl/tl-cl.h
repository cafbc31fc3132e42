/* ThreadLens: the OpenCL runtime.
 *
 * Platforms and devices (tl-cl-device.c), a context per device with its
 * queue (tl-cl-context.c), programs built from the embedded kernels,
 * cached in the process and on disk (tl-cl-program.c), and OpenCL errors
 * turned into readable GErrors (tl-cl-error.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_CL_H
#define TL_CL_H

#include <glib.h>
#include <CL/cl.h>

#include "tl-plan.h"

G_BEGIN_DECLS

#define TL_VENDOR_ID_NVIDIA 0x10DE

/* cl_nv_device_attribute_query's registers of a work-group (cl_ext.h has
 * it only in newer headers).
 */
#define TL_CL_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002

typedef struct
{
  guint           index;             /* position in tl_cl_list_devices () */
  cl_platform_id  platform;
  cl_device_id    id;
  gchar          *name;
  gchar          *vendor;
  gchar          *platform_name;
  gchar          *version;           /* CL_DEVICE_VERSION */
  gchar          *c_version;         /* CL_DEVICE_OPENCL_C_VERSION */
  gchar          *driver_version;
  guint           vendor_id;
  cl_device_type  type;
  guint           compute_units;
  gsize           max_group_size;    /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
  gsize           max_item_size[3];
  guint64         local_mem_size;
  gboolean        local_mem_dedicated; /* CL_DEVICE_LOCAL_MEM_TYPE is CL_LOCAL */
  guint64         global_mem_size;
  guint64         max_alloc_size;
  guint64         max_constant_size;
  gboolean        non_uniform;       /* CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT */
  guint           max_sub_groups;    /* 0: no sub-groups */
  gboolean        khr_subgroups;     /* the cl_khr_subgroups extension */
  gboolean        fp64;              /* CL_DEVICE_DOUBLE_FP_CONFIG not 0 */
  gboolean        exact_divide;      /* CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT */
  guint           base_align;        /* CL_DEVICE_MEM_BASE_ADDR_ALIGN, bytes */
  guint           group_registers;   /* NVIDIA's CL_DEVICE_REGISTERS_PER_BLOCK_NV;
                                      * 0 elsewhere */
} TlDevice;

typedef struct
{
  guint programs_from_source;        /* clBuildProgram on source */
  guint programs_from_disk;          /* built from a cached binary */
  guint programs_from_memory;        /* found already built in this process */
  guint disk_entries_rejected;       /* corrupt or unusable cache files */
} TlCacheStats;

typedef struct _TlContext TlContext;

GPtrArray        *tl_cl_list_devices        (GError          **error);
const TlDevice   *tl_cl_find_device         (GPtrArray        *devices,
                                             const gchar      *spec,
                                             GError          **error);
const gchar      *tl_cl_device_type_name    (cl_device_type    type);

const gchar      *tl_cl_error_name          (cl_int            status);
void              tl_cl_set_error           (GError          **error,
                                             cl_int            status,
                                             const gchar      *what);

TlContext        *tl_context_new            (const gchar      *device_spec,
                                             GError          **error);
void              tl_context_free           (TlContext        *context);
const TlDevice   *tl_context_get_device     (TlContext        *context);
cl_context        tl_context_get_cl         (TlContext        *context);
cl_command_queue  tl_context_get_queue      (TlContext        *context);
const gchar      *tl_context_get_build_options (TlContext     *context);
const TlCacheStats *tl_context_get_stats    (TlContext        *context);

cl_program        tl_context_build_program  (TlContext        *context,
                                             const gchar      *name,
                                             const gchar      *source,
                                             GError          **error);
gboolean          tl_program_has_variant    (const gchar      *program,
                                             const gchar      *token);
cl_kernel         tl_context_get_kernel     (TlContext        *context,
                                             const gchar      *program,
                                             const gchar      *kernel_name,
                                             GError          **error);
guint64           tl_context_get_kernel_local_mem (TlContext  *context,
                                                   cl_kernel   kernel);
gboolean          tl_context_kernel_limits  (TlContext        *context,
                                             cl_kernel         kernel,
                                             TlLimits         *limits,
                                             GError          **error);
gboolean          tl_context_device_limits  (TlContext        *context,
                                             TlLimits         *limits);

/* Pinned host memory a tile travels through (tl-cl-staging.c). */
typedef enum
{
  TL_STAGING_INPUT,
  TL_STAGING_OUTPUT,
  TL_STAGING_SLOTS
} TlStagingSlot;

gboolean          tl_context_stages         (TlContext        *context);
gpointer          tl_context_take_staging   (TlContext        *context,
                                             TlStagingSlot     slot,
                                             gsize             bytes);
void              tl_context_give_staging   (TlContext        *context,
                                             TlStagingSlot     slot);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlContext, tl_context_free)

G_END_DECLS

#endif /* TL_CL_H */
