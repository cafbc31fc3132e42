/* ThreadLens: the benchmark's one-pass copy, the floor for any filter:
 * the image read once and written once, 16 bytes a work-item, whatever
 * the storage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Argument slots: tl-args.h, TL_ARG_COPY_PASS_*. */
kernel void
tl_copy_pass (global const uint4 *in,
              global uint4       *out,
              int                 count)
{
  int i = get_global_id (0);

  if (i < count)
    out[i] = in[i];
}
