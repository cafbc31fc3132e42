/* ThreadLens: memory sized by a layer (see tl-alloc.h).
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include <glib/gi18n-lib.h>

#include "tl-alloc.h"
#include "tl-error.h"
#include "tl-fault.h"

/* A CPU's OpenCL works on host memory in place when it starts a page. */
#define TL_ALLOC_PAGE 4096

static void
tl_alloc_no_memory (gsize    bytes,
                    GError **error)
{
  g_autofree gchar *size = g_format_size (bytes);

  g_set_error (error, TL_ERROR, TL_ERROR_LIMIT,
               _("not enough memory for %s of pixels"), size);
}

/* A x B in PRODUCT, or FALSE with ERROR where it overflows a gsize
 * (a 32-bit build: two gint sides always fit in 64 bits).
 */
gboolean
tl_alloc_mul (gsize    a,
              gsize    b,
              gsize   *product,
              GError **error)
{
  g_return_val_if_fail (product != NULL, FALSE);

  if (! g_size_checked_mul (product, a, b))
    {
      g_set_error_literal (error, TL_ERROR, TL_ERROR_LIMIT,
                           _("the layer needs more memory than this machine "
                             "can address"));
      return FALSE;
    }
  return TRUE;
}

/* N_ITEMS x ITEM_SIZE in BYTES, unless it overflows or an injected
 * fault stands for a full memory; FALSE with ERROR then.
 */
static gboolean
tl_alloc_size (gsize    n_items,
               gsize    item_size,
               gsize   *bytes,
               GError **error)
{
  if (! tl_alloc_mul (n_items, item_size, bytes, error))
    return FALSE;
  *bytes = MAX (*bytes, 1);
  if (tl_fault_check ("alloc") != CL_SUCCESS)
    {
      tl_alloc_no_memory (*bytes, error);
      return FALSE;
    }
  return TRUE;
}

/* N_ITEMS of ITEM_SIZE bytes, or NULL with ERROR; g_free () frees it. */
gpointer
tl_alloc_n (gsize    n_items,
            gsize    item_size,
            GError **error)
{
  gpointer memory;
  gsize    bytes;

  if (! tl_alloc_size (n_items, item_size, &bytes, error))
    return NULL;
  memory = g_try_malloc (bytes);
  if (memory == NULL)
    tl_alloc_no_memory (bytes, error);
  return memory;
}

/* As tl_alloc_n (), at a page's start. */
gpointer
tl_alloc_pages_n (gsize    n_items,
                  gsize    item_size,
                  GError **error)
{
  gpointer memory = NULL;
  gsize    bytes;

  if (! tl_alloc_size (n_items, item_size, &bytes, error))
    return NULL;
  if (posix_memalign (&memory, TL_ALLOC_PAGE, bytes) != 0)
    {
      tl_alloc_no_memory (bytes, error);
      return NULL;
    }
  return memory;
}

/* MEMORY grown or shrunk to N_ITEMS of ITEM_SIZE bytes, or NULL with
 * ERROR and MEMORY freed.
 */
gpointer
tl_alloc_realloc_n (gpointer memory,
                    gsize    n_items,
                    gsize    item_size,
                    GError **error)
{
  gpointer moved;
  gsize    bytes;

  if (! tl_alloc_size (n_items, item_size, &bytes, error))
    {
      g_free (memory);
      return NULL;
    }
  moved = g_try_realloc (memory, bytes);
  if (moved == NULL)
    {
      g_free (memory);
      tl_alloc_no_memory (bytes, error);
    }
  return moved;
}
