/* ThreadLens tests: what the parts of test-cli share: threadlens run as
 * users run it, the files it reads and writes, its JSON, and the C
 * reference of the pixels it writes; and the parts themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_CLI_FIXTURES_H
#define TL_TEST_CLI_FIXTURES_H

#include <json-glib/json-glib.h>

#include "tl-filter.h"
#include "tl-image.h"

G_BEGIN_DECLS

/* What a run of threadlens gave: its wait status and its output. */
typedef struct
{
  gint   status;
  gchar *out;
  gchar *err;
} CliResult;

void          cli_result_clear      (CliResult       *r);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliResult, cli_result_clear)

/* Makes the folder the tests write in, the program cache too, and
 * starts GEGL; cli_clear () forgets the folder.
 */
void          cli_init              (void);
void          cli_clear             (void);
const gchar  *cli_work_dir          (void);

/* Runs threadlens (THREADLENS_BIN) with the arguments, NULL-terminated. */
void          cli_run               (CliResult       *r,
                                     const gchar     *first,
                                     ...) G_GNUC_NULL_TERMINATED;
gint          cli_exit_code         (const CliResult *r);

/* A test photo; a file NAME in the work folder.  Free with g_free (). */
gchar        *cli_photo             (const gchar     *name);
gchar        *cli_output            (const gchar     *name);

/* TEXT's JSON object, owned by PARSER. */
JsonObject   *cli_parse_object      (JsonParser      *parser,
                                     const gchar     *text);

/* Loads a file back in FORMAT (a codec's storage), as the command line
 * read it.
 */
gpointer      cli_load_stored       (const gchar     *path,
                                     const Babl      *format,
                                     guint           *width,
                                     guint           *height,
                                     const Babl     **file_format);

/* FILTER's C reference on W x H pixels IN stored as CODEC says, decoded
 * and encoded as the kernels do.
 */
gpointer      cli_reference         (const TlFilter  *filter,
                                     const TlValue   *values,
                                     const TlCodec   *codec,
                                     gconstpointer    in,
                                     guint            w,
                                     guint            h);


/* The parts of test-cli beside the commands that report (test-cli.c),
 * each adding its tests.
 */
void          cli_apply_add_tests   (void);     /* cli-apply.c */
void          cli_bench_add_tests   (void);     /* cli-bench.c */
void          cli_faults_add_tests  (void);     /* cli-faults.c */
void          cli_watch_add_tests   (void);     /* cli-watch.c */

G_END_DECLS

#endif /* TL_TEST_CLI_FIXTURES_H */
