/* ThreadLens tests: what GEGL (and so GIMP) shows of one of the module's
 * operations, in the language of the environment: its title, its
 * description, and one property's nick and blurb, a line each.  For
 * test-i18n, which runs it under each catalogue.
 *
 * Usage: gegl-titles MODULE-FOLDER OPERATION PROPERTY
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <locale.h>
#include <stdio.h>

#include <gegl.h>

int
main (int    argc,
      char **argv)
{
  GParamSpec *property;

  if (argc != 4)
    {
      fprintf (stderr, "usage: gegl-titles MODULE-FOLDER OPERATION PROPERTY\n");
      return 2;
    }
  /* Before GEGL starts: the module's classes take their titles from the
   * locale when they are first made.
   */
  setlocale (LC_ALL, "");
  gegl_init (NULL, NULL);
  gegl_load_module_directory (argv[1]);
  if (! gegl_has_operation (argv[2]))
    {
      fprintf (stderr, "gegl-titles: no operation %s\n", argv[2]);
      return 1;
    }
  property = gegl_operation_find_property (argv[2], argv[3]);
  if (property == NULL)
    {
      fprintf (stderr, "gegl-titles: %s has no property %s\n", argv[2], argv[3]);
      return 1;
    }
  printf ("%s\n%s\n%s\n%s\n",
          gegl_operation_get_key (argv[2], "title"),
          gegl_operation_get_key (argv[2], "description"),
          g_param_spec_get_nick (property),
          g_param_spec_get_blurb (property));
  gegl_exit ();
  return 0;
}
