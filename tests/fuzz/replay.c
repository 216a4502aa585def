/* Replays a fuzz harness over files, without libFuzzer: every seed and
 * every crash ever found (tests/fuzz/corpus/<name>/) runs in `make test`
 * as a regression test, under the sanitizers in `make check`.
 *   replay-NAME DIR...   prints TAP, one line per file */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int
cmp (const void *a, const void *b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

int
main (int argc, char **argv)
{
  int n = 0;
#ifdef CORPUS_DIR
  static char *default_argv[] = {NULL, (char *) CORPUS_DIR, NULL};
  if (argc < 2)
    {
      default_argv[0] = argv[0];
      argc = 2;
      argv = default_argv;
    }
#endif

  for (int i = 1; i < argc; i++)
    {
      DIR *d = opendir (argv[i]);
      struct dirent *de;
      char **names = NULL;
      size_t count = 0;

      if (d == NULL)
        {
          printf ("Bail out! cannot open %s\n", argv[i]);
          return 1;
        }
      while ((de = readdir (d)))
        if (de->d_name[0] != '.')
          {
            names = realloc (names, (count + 1) * sizeof *names);
            names[count++] = strdup (de->d_name);
          }
      closedir (d);
      qsort (names, count, sizeof *names, cmp);
      for (size_t k = 0; k < count; k++)
        {
          char path[4096];
          FILE *f;
          char *buf = NULL;
          size_t len = 0;

          snprintf (path, sizeof path, "%s/%s", argv[i], names[k]);
          f = fopen (path, "rb");
          if (f)
            {
              fseek (f, 0, SEEK_END);
              long sz = ftell (f);
              rewind (f);
              buf = malloc (sz > 0 ? (size_t) sz : 1);
              len = fread (buf, 1, sz > 0 ? (size_t) sz : 0, f);
              fclose (f);
            }
          /* A crash aborts the process: prove then reports the failure. */
          LLVMFuzzerTestOneInput ((const uint8_t *) buf, len);
          printf ("ok %d - %s\n", ++n, path);
          free (buf);
          free (names[k]);
        }
      free (names);
    }
  printf ("1..%d\n", n);
  return 0;
}
