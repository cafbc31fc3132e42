/* ThreadLens tests: what the parts of test-filters share: a filter case,
 * the photo it runs on as a layer of its storage would hold it, its C
 * reference, and one OpenCL run held to that reference; and the parts
 * themselves.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#ifndef TL_TEST_FILTER_FIXTURES_H
#define TL_TEST_FILTER_FIXTURES_H

#include "tl-cl.h"
#include "tl-filter.h"
#include "tl-image.h"
#include "tl-run.h"

G_BEGIN_DECLS

typedef struct
{
  const gchar *filter;
  const gchar *settings[4];     /* --set style, NULL-terminated */
  const gchar *photo;
  gdouble      tolerance;       /* against the reference; 0 = exact */
  gboolean     full_sweep;      /* every combination, or a cross section */
  const gchar *layer;           /* the layer's babl format, so its storage;
                                 * NULL: floats in the working format */
  guint        width;           /* the photo's first columns only; 0: all */
  gboolean     translucent;     /* alpha from the photo's green channel */
} FilterCase;

/* A case prepared to run (filter_fixture_prepare ()). */
typedef struct
{
  TlImage  *image;
  TlValue  *values;
  TlCodec  *codec;
  TlPixels  pixels;
  gpointer  in;
  gpointer  reference;
  gpointer  baseline;      /* OpenCL under the default dispatch */
  gdouble   rounding;      /* the layout's tolerance beyond the case's */
  gsize     n_values;      /* channels in the image */
  gsize     n_bytes;
} FilterFixture;

/* The OpenCL context every test runs on; main () makes it. */
extern TlContext *filter_fixture_context;

/* PHOTO from the test images; free it with tl_image_free (). */
TlImage *filter_fixture_load_photo    (const gchar      *photo);

/* The case's photo in its layer's storage, its settings parsed, and the
 * C reference of what the device runs; free with filter_fixture_clear ().
 */
void     filter_fixture_prepare       (const FilterCase *c,
                                       const TlFilter   *filter,
                                       FilterFixture    *p);
void     filter_fixture_clear         (FilterFixture    *p);

/* One dispatch, CHOICE, into OUT, held to the C reference within the
 * case's tolerance; WHAT names the dispatch in messages.
 */
void     filter_fixture_run           (const FilterCase *c,
                                       const TlFilter   *filter,
                                       FilterFixture    *p,
                                       const TlChoice   *choice,
                                       gpointer          out,
                                       const gchar      *what);

/* PHOTO in FILTER's working format, as its C reference sees it; free
 * PIXELS->in and PIXELS->scratch with g_free ().
 */
void     filter_fixture_load_working  (const gchar      *photo,
                                       const TlFilter   *filter,
                                       TlFloatPixels    *pixels);

/* The parts of test-filters beside the dispatch sweep (test-filters.c),
 * each adding its tests.
 */
void     filter_checks_add_tests      (void);     /* filter-checks.c */

G_END_DECLS

#endif /* TL_TEST_FILTER_FIXTURES_H */
