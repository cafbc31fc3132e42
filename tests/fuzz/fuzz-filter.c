/* ThreadLens fuzz target: filter parameters, as --set and the GIMP hosts
 * give them: tl_filter_parse_assignment (), tl_filter_set_value () and
 * tl_filter_check_values (), for every filter of tl_filter_list ().
 *
 * The first byte picks the filter, and with its top bit the way in:
 *
 *   text: the rest is lines, each given to tl_filter_parse_assignment ()
 *         and, as a value, to tl_filter_set_value () for one of the
 *         filter's parameters in turn; then the values are checked.
 *   raw:  the rest fills the values directly (counts and doubles, NaN
 *         and infinities included), as a host might, and they are checked.
 *
 * A separate reading of the rules (numbers split on commas and blanks,
 * n_min to n_max of them, each finite and in [min, max]) says what must
 * be accepted; a setting that is refused must leave the values alone and
 * say why, one that is accepted must change only its parameter and print
 * and parse back to the same numbers.  Any mismatch aborts.  No OpenCL
 * call is made: only the parameter code runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl-error.h"
#include "tl-filter.h"

#define FUZZ_CHECK(cond)                                                     \
  G_STMT_START {                                                             \
    if (G_UNLIKELY (! (cond)))                                               \
      {                                                                      \
        fprintf (stderr, "fuzz-filter: %s:%d: invariant failed: %s\n",        \
                 __FILE__, __LINE__, #cond);                                 \
        abort ();                                                            \
      }                                                                      \
  } G_STMT_END

/* Enough settings per input to reach every parameter of any filter. */
#define FUZZ_MAX_LINES 24

static gboolean
fuzz_number_ok (const TlParamSpec *spec,
                gdouble            number)
{
  return isfinite (number) && number >= spec->min && number <= spec->max;
}

/* The model of tl_filter_set_value (): whether SPEC takes TEXT. */
static gboolean
fuzz_model_accepts (const TlParamSpec *spec,
                    const gchar       *text)
{
  g_auto(GStrv) parts = g_strsplit_set (text, ", \t", -1);
  guint         count = 0, i;

  for (i = 0; parts[i]; i++)
    {
      gchar  *end;
      gdouble number;

      if (parts[i][0] == '\0')
        continue;
      number = g_ascii_strtod (parts[i], &end);
      if (end == parts[i] || *end != '\0' || ! fuzz_number_ok (spec, number))
        return FALSE;
      count++;
    }
  return count >= spec->n_min && count <= spec->n_max;
}

/* What any one setting must do to VALUES (BEFORE is a copy from before
 * it); INDEX is the parameter it names, or -1 for none.
 */
static void
fuzz_check_setting (const TlFilter *filter,
                    const TlValue  *before,
                    const TlValue  *after,
                    gint            index,
                    gboolean        ok,
                    gboolean        expected,
                    const GError   *error)
{
  gsize size = sizeof (TlValue) * MAX (1, filter->n_params);
  guint i, j;

  FUZZ_CHECK (ok == expected);

  if (! ok)
    {
      FUZZ_CHECK (error != NULL && error->domain == TL_ERROR &&
                  error->code == TL_ERROR_INVALID_ARGUMENT);
      FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
      FUZZ_CHECK (memcmp (before, after, size) == 0);
      return;
    }

  FUZZ_CHECK (error == NULL);
  FUZZ_CHECK (index >= 0 && (guint) index < filter->n_params);
  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      if (i != (guint) index)
        {
          FUZZ_CHECK (memcmp (&before[i], &after[i], sizeof (TlValue)) == 0);
          continue;
        }
      FUZZ_CHECK (after[i].n >= spec->n_min && after[i].n <= spec->n_max);
      FUZZ_CHECK (after[i].n <= TL_VALUE_MAX);
      for (j = 0; j < after[i].n; j++)
        FUZZ_CHECK (fuzz_number_ok (spec, after[i].v[j]));
    }

  /* Printed exactly and set again, the numbers come back the same. */
  {
    const TlParamSpec *spec = &filter->params[index];
    g_autoptr(GString) text = g_string_new (NULL);
    g_autofree TlValue *again = g_memdup2 (after, size);
    gchar              number[G_ASCII_DTOSTR_BUF_SIZE];

    for (j = 0; j < after[index].n; j++)
      g_string_append_printf (text, "%s%s", j ? "," : "",
                              g_ascii_dtostr (number, sizeof (number),
                                              after[index].v[j]));
    memset (&again[index], 0, sizeof (TlValue));
    FUZZ_CHECK (tl_filter_set_value (filter, again, spec->name, text->str, NULL));
    FUZZ_CHECK (again[index].n == after[index].n);
    for (j = 0; j < after[index].n; j++)
      FUZZ_CHECK (again[index].v[j] == after[index].v[j]);
  }
}

/* Values built only by accepted settings pass every range check, so
 * tl_filter_check_values () may refuse them only through the filter's
 * own cross-check, and must say why.
 */
static void
fuzz_check_values (const TlFilter *filter,
                   const TlValue  *values,
                   gboolean        in_range)
{
  g_autoptr(GError) error = NULL;
  gboolean          ok;

  ok = tl_filter_check_values (filter, values, &error);
  if (ok)
    {
      FUZZ_CHECK (in_range && error == NULL);
      /* Valid values give a halo without overflow (UBSan watches). */
      (void) tl_filter_halo (filter, values);
    }
  else
    {
      FUZZ_CHECK (error != NULL && error->domain == TL_ERROR);
      FUZZ_CHECK (error->message != NULL && error->message[0] != '\0');
      FUZZ_CHECK (in_range ? filter->check != NULL : TRUE);
    }
}

static void
fuzz_text (const TlFilter *filter,
           const gchar    *text)
{
  g_autofree TlValue *values = tl_filter_default_values (filter);
  g_auto(GStrv)       lines = g_strsplit (text, "\n", FUZZ_MAX_LINES);
  gsize               size = sizeof (TlValue) * MAX (1, filter->n_params);
  guint               i;

  for (i = 0; lines[i]; i++)
    {
      const gchar       *line = lines[i];
      const gchar       *equals = strchr (line, '=');
      const TlParamSpec *spec = NULL;
      g_autofree TlValue *before = g_memdup2 (values, size);
      guint              index = 0;
      gboolean           ok, expected = FALSE;

      /* NAME=VALUE, through the --set parser. */
      {
        g_autoptr(GError) error = NULL;

        if (equals != NULL && equals != line)
          {
            g_autofree gchar *name = g_strndup (line, equals - line);

            spec = tl_filter_find_param (filter, name, &index);
            expected = spec != NULL && fuzz_model_accepts (spec, equals + 1);
          }
        ok = tl_filter_parse_assignment (filter, values, line, &error);
        fuzz_check_setting (filter, before, values, spec ? (gint) index : -1,
                            ok, expected, error);
      }

      /* The value alone, for one parameter in turn. */
      if (filter->n_params > 0)
        {
          g_autoptr(GError) error = NULL;
          const gchar      *value = equals ? equals + 1 : line;

          index = i % filter->n_params;
          spec  = &filter->params[index];
          memcpy (before, values, size);
          expected = fuzz_model_accepts (spec, value);
          ok = tl_filter_set_value (filter, values, spec->name, value, &error);
          fuzz_check_setting (filter, before, values, index, ok, expected,
                              error);
        }
    }

  fuzz_check_values (filter, values, TRUE);
}

static void
fuzz_raw (const TlFilter *filter,
          const guint8   *data,
          gsize           size)
{
  g_autofree TlValue *values = tl_filter_default_values (filter);
  gboolean            in_range = TRUE;
  guint               i, j;

  for (i = 0; i < filter->n_params; i++)
    {
      const TlParamSpec *spec = &filter->params[i];

      if (size > 0)
        {
          values[i].n = *data % (TL_VALUE_MAX + 1);
          data++;
          size--;
        }
      for (j = 0; j < values[i].n && size >= sizeof (gdouble); j++)
        {
          memcpy (&values[i].v[j], data, sizeof (gdouble));
          data += sizeof (gdouble);
          size -= sizeof (gdouble);
        }
      if (values[i].n < spec->n_min || values[i].n > spec->n_max)
        in_range = FALSE;
      for (j = 0; j < values[i].n; j++)
        if (! fuzz_number_ok (spec, values[i].v[j]))
          in_range = FALSE;
    }

  fuzz_check_values (filter, values, in_range);
}

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static gboolean        checked_defaults = FALSE;
  const TlFilter *const *filters;
  const TlFilter        *filter;
  guint                  n_filters;

  filters = tl_filter_list (&n_filters);

  if (! checked_defaults)
    {
      guint i;

      /* A failed g_return_if_fail () is a finding too. */
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);

      /* Every filter's defaults are valid values. */
      for (i = 0; i < n_filters; i++)
        {
          g_autofree TlValue *values = tl_filter_default_values (filters[i]);

          FUZZ_CHECK (tl_filter_check_values (filters[i], values, NULL));
        }
      checked_defaults = TRUE;
    }

  if (size == 0)
    return 0;

  filter = filters[(data[0] & 0x7f) % n_filters];
  if (data[0] & 0x80)
    {
      fuzz_raw (filter, data + 1, size - 1);
    }
  else
    {
      /* Command-line arguments end at the first NUL. */
      g_autofree gchar *text = g_strndup ((const gchar *) data + 1, size - 1);

      fuzz_text (filter, text);
    }
  return 0;
}
