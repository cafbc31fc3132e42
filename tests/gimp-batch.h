/* ThreadLens tests: test-gimp's checks run in headless GIMP: the
 * script-fu each check becomes, one GIMP for each environment the checks
 * ask for, the files they save and what GIMP said.  Built twice, like
 * test-gimp.c: TL_GIMP_VERSION 2 or 3.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_GIMP_BATCH_H
#define TL_TEST_GIMP_BATCH_H

#include "gimp-checks.h"

G_BEGIN_DECLS

/* Makes the folder the checks work in, the program cache too, and in it
 * a program cache of garbage (a check's env @corrupt).
 */
void         gimp_batch_init       (void);

/* A test photo; a file NAME in the work folder; where a check's image is
 * saved, and its thread-map layer alone.  Free with g_free ().
 */
gchar       *gimp_batch_photo      (const gchar     *name);
gchar       *gimp_batch_work_file  (const gchar     *name);
gchar       *gimp_batch_output     (const GimpCheck *check);
gchar       *gimp_batch_map_output (const GimpCheck *check);

/* Runs every check (gimp-checks.h) whose env is ENV (NULL: those without
 * one) in one GIMP, and keeps GIMP's output.
 */
gboolean     gimp_batch_run        (const gchar     *env);

/* All GIMP said so far; between CHECK's TL-BEGIN and the next one. */
const gchar *gimp_batch_log        (void);
gchar       *gimp_batch_check_log  (const GimpCheck *check);

/* The first line of LOG that holds TEXT, the lines naming a check
 * (whose names hold the words of their errors) aside; NULL if none.
 * Whether there is one.
 */
gchar       *gimp_batch_line_with  (const gchar     *log,
                                    const gchar     *text);
gboolean     gimp_batch_log_says   (const gchar     *log,
                                    const gchar     *text);

G_END_DECLS

#endif /* TL_TEST_GIMP_BATCH_H */
