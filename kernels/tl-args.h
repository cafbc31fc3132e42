/* ThreadLens: the kernels' argument slots, named once.
 *
 * The host code sets a kernel's arguments by their places
 * (tl_run_set_arg (), engine/run/tl-run.h); these names are those places,
 * for engine/ (which includes this file as "kernels/tl-args.h") and the
 * kernels (which get it in front of their source, engine/cl/tl-cl-program.c).
 * A kernel's parameter list cannot use them, so each kernel's parameters
 * must stay in the order given here: a name is TL_ARG_, the kernel (or
 * the kernels that share the layout), then the parameter's own name in
 * capitals, and tests/test-cl.c (/cl/kernel-args) checks every one
 * against the parameter names the driver reports, and that every
 * parameter has a name.  Plain #defines: this file is both C and
 * OpenCL C.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_ARGS_H
#define TL_ARGS_H

/* Every filter kernel's first four: what it reads, what it writes, the
 * launch's TlDispatch and the codec's table, both of which
 * tl_run_enqueue () sets (the table in the slot after the dispatch).
 */
#define TL_ARG_IN       0
#define TL_ARG_OUT      1
#define TL_ARG_DISPATCH 2
#define TL_ARG_CODEC    3

/* The filter kernels' own parameters, from 4 on. */

/* area.cl: tl_pixelize_rows, tl_pixelize_means, tl_area_pixelize */
#define TL_ARG_PIXELIZE_ROWS_SIZE      4
#define TL_ARG_PIXELIZE_ROWS_ANCHOR_X  5
#define TL_ARG_PIXELIZE_ROWS_BLOCKS_X  6
#define TL_ARG_PIXELIZE_ROWS_WIDTH     7

#define TL_ARG_PIXELIZE_MEANS_SIZE     4
#define TL_ARG_PIXELIZE_MEANS_ANCHOR_X 5
#define TL_ARG_PIXELIZE_MEANS_ANCHOR_Y 6
#define TL_ARG_PIXELIZE_MEANS_BLOCKS_X 7
#define TL_ARG_PIXELIZE_MEANS_WIDTH    8
#define TL_ARG_PIXELIZE_MEANS_HEIGHT   9

#define TL_ARG_AREA_PIXELIZE_SIZE      4
#define TL_ARG_AREA_PIXELIZE_ANCHOR_X  5
#define TL_ARG_AREA_PIXELIZE_ANCHOR_Y  6
#define TL_ARG_AREA_PIXELIZE_BLOCKS_X  7

/* blur.cl: the convolutions, tl_convolve_* and tl_unsharp_v, _v_tiled
 * and _2d; the fused ones (_2d) call their tile BLOCK.  The unsharp
 * kernels take two more.
 */
#define TL_ARG_CONVOLVE_WEIGHTS        4
#define TL_ARG_CONVOLVE_RADIUS         5
#define TL_ARG_CONVOLVE_TILE           6
#define TL_ARG_CONVOLVE_BLOCK          6

#define TL_ARG_UNSHARP_IN              7
#define TL_ARG_UNSHARP_SCALE           8

/* blur.cl: tl_recursive_rows, _columns, _lines and _channels; and
 * tl_recursive_group_rows, which shares the first three.
 */
#define TL_ARG_RECURSIVE_COEF          4
#define TL_ARG_RECURSIVE_LENGTH        5
#define TL_ARG_RECURSIVE_PITCH         6
#define TL_ARG_RECURSIVE_STEP          7

#define TL_ARG_GROUP_ROWS_CHANNELS     7
#define TL_ARG_GROUP_ROWS_SEGMENT      8
#define TL_ARG_GROUP_ROWS_POWERS       9
#define TL_ARG_GROUP_ROWS_LINE         10
#define TL_ARG_GROUP_ROWS_CARRIES      11

/* blur.cl: the passes that combine a blur with the layer. */
#define TL_ARG_UNSHARP_COMBINE_BLURRED   4
#define TL_ARG_UNSHARP_COMBINE_SCALE     5

#define TL_ARG_DOG_COMBINE_FIRST         4
#define TL_ARG_DOG_COMBINE_SECOND        5

#define TL_ARG_HIGH_PASS_COMBINE_BLURRED  4
#define TL_ARG_HIGH_PASS_COMBINE_CONTRAST 5

/* blur.cl: tl_box_rows and tl_box_columns */
#define TL_ARG_BOX_SCALE               4
#define TL_ARG_BOX_RADIUS              5
#define TL_ARG_BOX_LENGTH              6
#define TL_ARG_BOX_PITCH               7
#define TL_ARG_BOX_STEP                8
#define TL_ARG_BOX_LINES               9
#define TL_ARG_BOX_RUN                 10

/* iterate.cl: tl_padded_fill, then each family's _step and _last */
#define TL_ARG_PADDED_FILL_MARGIN      4
#define TL_ARG_PADDED_FILL_COLS        5
#define TL_ARG_PADDED_FILL_WIDTH       6
#define TL_ARG_PADDED_FILL_HEIGHT      7

#define TL_ARG_PADDED_STEP_COLS        4
#define TL_ARG_PADDED_STEP_ROWS        5

#define TL_ARG_PADDED_LAST_MARGIN      4
#define TL_ARG_PADDED_LAST_COLS        5
#define TL_ARG_PADDED_LAST_STEPS       6

/* motion.cl: tl_motion_linear */
#define TL_ARG_MOTION_LINEAR_STEPS       4
#define TL_ARG_MOTION_LINEAR_FRACTIONS   5
#define TL_ARG_MOTION_LINEAR_N_STEPS     6
#define TL_ARG_MOTION_LINEAR_INV_N_STEPS 7

/* point.cl: tl_color_matrix */
#define TL_ARG_COLOR_MATRIX_M          4
#define TL_ARG_COLOR_MATRIX_OFFSET     5

/* smooth.cl: tl_bilateral, tl_snn_mean */
#define TL_ARG_BILATERAL_SPATIAL       4
#define TL_ARG_BILATERAL_RADIUS        5
#define TL_ARG_BILATERAL_PRESERVE      6

#define TL_ARG_SNN_MEAN_RADIUS         4
#define TL_ARG_SNN_MEAN_PAIRS          5

/* median.cl: tl_median, the line pass between tl_median_bins and
 * tl_median_store (which take only the four).
 */
#define TL_ARG_MEDIAN_OUTLINE          4
#define TL_ARG_MEDIAN_RADIUS           5
#define TL_ARG_MEDIAN_MOVES            6
#define TL_ARG_MEDIAN_N_MOVES          7
#define TL_ARG_MEDIAN_PERCENTILE       8
#define TL_ARG_MEDIAN_ALPHA_PERCENTILE 9
#define TL_ARG_MEDIAN_WIDTH            10
#define TL_ARG_MEDIAN_HEIGHT           11
#define TL_ARG_MEDIAN_RUN              12
#define TL_ARG_MEDIAN_HISTOGRAMS       13

/* tone.cl; tl_mono_mixer_codes takes tl_mono_mixer's. */
#define TL_ARG_BRIGHTNESS_CONTRAST_CONTRAST   4
#define TL_ARG_BRIGHTNESS_CONTRAST_BRIGHTNESS 5

#define TL_ARG_THRESHOLD_LEVEL         4

#define TL_ARG_THRESHOLD_CODES_LEVEL   4
#define TL_ARG_THRESHOLD_CODES_WHITE   5
#define TL_ARG_THRESHOLD_CODES_BLACK   6

#define TL_ARG_MONO_MIXER_W            4

#define TL_ARG_SEPIA_R                 4
#define TL_ARG_SEPIA_G                 5
#define TL_ARG_SEPIA_B                 6

#define TL_ARG_POSTERIZE_LEVELS        4
#define TL_ARG_POSTERIZE_STEP          5

#define TL_ARG_CODE_TABLE_TABLE        4

/* Kernels outside the filters, every parameter named. */

/* overlay.cl: tl_thread_map, run under a plan: its dispatch is D. */
#define TL_ARG_THREAD_MAP_PIXELS        0
#define TL_ARG_THREAD_MAP_GROUPS        1
#define TL_ARG_THREAD_MAP_INFO          2
#define TL_ARG_THREAD_MAP_D             3
#define TL_ARG_THREAD_MAP_SIMD_WIDTH    4
#define TL_ARG_THREAD_MAP_WINDOW_ROWS   5
#define TL_ARG_THREAD_MAP_RECORD_GROUPS 6

/* overlay.cl: tl_thread_draw, launched over the pixels alone. */
#define TL_ARG_THREAD_DRAW_MAP             0
#define TL_ARG_THREAD_DRAW_GROUPS          1
#define TL_ARG_THREAD_DRAW_COLOURS         2
#define TL_ARG_THREAD_DRAW_IN              3
#define TL_ARG_THREAD_DRAW_OUT             4
#define TL_ARG_THREAD_DRAW_CODEC           5
#define TL_ARG_THREAD_DRAW_MISSED          6
#define TL_ARG_THREAD_DRAW_WIDTH           7
#define TL_ARG_THREAD_DRAW_ROWS            8
#define TL_ARG_THREAD_DRAW_ROW_BASE        9
#define TL_ARG_THREAD_DRAW_MODE            10
#define TL_ARG_THREAD_DRAW_STYLE           11
#define TL_ARG_THREAD_DRAW_N_COLOURS       12
#define TL_ARG_THREAD_DRAW_GROUP_COUNT     13
#define TL_ARG_THREAD_DRAW_PIXELS_PER_ITEM 14
#define TL_ARG_THREAD_DRAW_OUTLINE         15
#define TL_ARG_THREAD_DRAW_WITH_IMAGE      16
#define TL_ARG_THREAD_DRAW_OPACITY         17
#define TL_ARG_THREAD_DRAW_HATCH_ALPHA     18

/* copy.cl: tl_copy_pass, the benchmark's bus copy (cli/tl-bench.c). */
#define TL_ARG_COPY_PASS_IN            0
#define TL_ARG_COPY_PASS_OUT           1
#define TL_ARG_COPY_PASS_COUNT         2

#endif /* TL_ARGS_H */
