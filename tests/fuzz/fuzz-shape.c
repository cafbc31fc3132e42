/* ThreadLens fuzz target: the --shape and --mode parsers,
 * tl_shape_from_string () and tl_mode_from_string ().
 *
 * The input, up to its first NUL, is given to both.  A separate reading of
 * the grammar (auto, seed, driver or WxH in decimal, each side 1 to 65535;
 * the three mode names, any case) says what each must accept; accepted
 * shapes must print and parse back to the same choice, refused ones must
 * leave the choice alone and say why.  Any mismatch aborts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-error.h"
#include "tl-plan.h"

#define FUZZ_CHECK(cond)                                                     \
  G_STMT_START {                                                             \
    if (G_UNLIKELY (! (cond)))                                               \
      {                                                                      \
        fprintf (stderr, "fuzz-shape: %s:%d: invariant failed: %s\n",         \
                 __FILE__, __LINE__, #cond);                                 \
        abort ();                                                            \
      }                                                                      \
  } G_STMT_END

/* One side of WxH: decimal digits, value kept to 65536 at most so long
 * runs of digits cannot overflow.  Returns where the digits end.
 */
static const gchar *
fuzz_read_side (const gchar *text,
                guint       *value)
{
  guint v = 0;

  for (; g_ascii_isdigit (*text); text++)
    v = MIN (v * 10 + (*text - '0'), G_MAXUINT16 + 1);
  *value = v;
  return text;
}

static void
fuzz_check_shape (const gchar *text)
{
  g_autoptr(GError) error = NULL;
  TlChoice          choice, before;
  const gchar      *end;
  guint             w = 0, h = 0;
  gboolean          ok, is_wxh;
  TlShapeKind       kind = TL_SHAPE_CUSTOM;

  /* The model: a keyword, or WxH with both sides all digits. */
  if (g_ascii_strcasecmp (text, "auto") == 0)
    kind = TL_SHAPE_AUTO;
  else if (g_ascii_strcasecmp (text, "seed") == 0)
    kind = TL_SHAPE_SEED;
  else if (g_ascii_strcasecmp (text, "driver") == 0)
    kind = TL_SHAPE_DRIVER;

  end = fuzz_read_side (text, &w);
  is_wxh = (end != text && (*end == 'x' || *end == 'X'));
  if (is_wxh)
    {
      const gchar *start = end + 1;

      end = fuzz_read_side (start, &h);
      is_wxh = (end != start && *end == '\0');
    }

  /* Filled with a pattern no parse gives, to see what a refusal touches. */
  memset (&choice, 0xa5, sizeof (choice));
  before = choice;

  ok = tl_shape_from_string (text, &choice, &error);

  if (kind != TL_SHAPE_CUSTOM)
    {
      FUZZ_CHECK (ok && error == NULL);
      FUZZ_CHECK (choice.shape_kind == kind);
      return;
    }

  if (is_wxh && w >= 1 && w <= G_MAXUINT16 && h >= 1 && h <= G_MAXUINT16)
    {
      g_autofree gchar *again = g_strdup_printf ("%ux%u", w, h);
      TlChoice          reparsed = choice;

      FUZZ_CHECK (ok && error == NULL);
      FUZZ_CHECK (choice.shape_kind == TL_SHAPE_CUSTOM);
      FUZZ_CHECK (choice.shape[0] == w && choice.shape[1] == h);
      FUZZ_CHECK (tl_shape_from_string (again, &reparsed, NULL));
      FUZZ_CHECK (memcmp (&reparsed, &choice, sizeof (choice)) == 0);
      return;
    }

  FUZZ_CHECK (! ok);
  FUZZ_CHECK (error != NULL && error->domain == TL_ERROR);
  FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
  /* Too large a side is a limit; everything else a bad argument. */
  FUZZ_CHECK (error->code ==
              (is_wxh && w >= 1 && h >= 1 ? TL_ERROR_LIMIT :
               TL_ERROR_INVALID_ARGUMENT));
  FUZZ_CHECK (memcmp (&choice, &before, sizeof (choice)) == 0);
}

static void
fuzz_check_mode (const gchar *text)
{
  static const TlMode modes[] =
  {
    TL_MODE_UNIFORM, TL_MODE_NON_UNIFORM, TL_MODE_EMULATED
  };
  g_autoptr(GError) error = NULL;
  TlMode            mode = (TlMode) 0x5a5a;
  gboolean          ok, known = FALSE;
  guint             i;

  ok = tl_mode_from_string (text, &mode, &error);

  for (i = 0; i < G_N_ELEMENTS (modes); i++)
    if (g_ascii_strcasecmp (text, tl_mode_to_string (modes[i])) == 0)
      {
        known = TRUE;
        FUZZ_CHECK (ok && error == NULL && mode == modes[i]);
      }

  if (! known)
    {
      FUZZ_CHECK (! ok);
      FUZZ_CHECK (mode == (TlMode) 0x5a5a);
      FUZZ_CHECK (error != NULL && error->domain == TL_ERROR &&
                  error->code == TL_ERROR_INVALID_ARGUMENT);
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean   fatal_set = FALSE;
  g_autofree gchar *text = NULL;

  /* A failed g_return_if_fail () is a finding too. */
  if (! fatal_set)
    {
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
      fatal_set = TRUE;
    }

  /* Command-line arguments end at the first NUL. */
  text = g_strndup ((const gchar *) data, size);

  fuzz_check_shape (text);
  fuzz_check_mode (text);
  return 0;
}
