/* Fuzz the Java scanner of /warmbox/init (profiles/java_scan.c): whatever
 * the bytes, every name it returns is a plain UTF-8 identifier (the
 * package: identifiers and dots) that makes a file name, the file is
 * named after the public type when there is one, and a comment before the
 * text or a newline after it changes nothing. */
#include "java_scan.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* UTF-8 without control characters, '/' or (unless dots) '.'. */
static int
plain_name (const char *s, size_t max, int dots)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t n = strlen (s);

  if (n > max)
    return 0;
  while (*p)
    {
      unsigned char c = *p;
      int need;
      uint32_t cp;
      if (c < 0x80)
        {
          if (c < 0x20 || c == 0x7f || c == '/' || (c == '.' && !dots))
            return 0;
          p++;
          continue;
        }
      if (c >= 0xc2 && c <= 0xdf)
        need = 1, cp = c & 0x1f;
      else if (c >= 0xe0 && c <= 0xef)
        need = 2, cp = c & 0x0f;
      else if (c >= 0xf0 && c <= 0xf4)
        need = 3, cp = c & 0x07;
      else
        return 0;
      for (int k = 1; k <= need; k++)
        {
          if ((p[k] & 0xc0) != 0x80)
            return 0;
          cp = (cp << 6) | (p[k] & 0x3f);
        }
      if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff))
          || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
        return 0;
      p += need + 1;
    }
  return 1;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char before[] = "/*c*/";
  java_unit_t u, again;
  char *wrapped;

  java_scan ((const char *) data, size, &u);
  if (!plain_name (u.package, JAVA_PACKAGE_MAX, 1) || !plain_name (u.public_type, JAVA_NAME_MAX, 0)
      || !plain_name (u.main_type, JAVA_NAME_MAX, 0) || !plain_name (u.file_type, JAVA_NAME_MAX, 0))
    abort ();
  if (u.package[0] == '.' || (u.package[0] && u.package[strlen (u.package) - 1] == '.')
      || strstr (u.package, ".."))
    abort ();
  if ((u.public_type[0] || u.main_type[0]) && u.n_types == 0)
    abort ();
  if (u.public_type[0] ? strcmp (u.file_type, u.public_type) != 0
                       : u.main_type[0] && strcmp (u.file_type, u.main_type) != 0)
    abort ();
  if (u.file_type[0] == '\0' && (u.public_type[0] || u.main_type[0]))
    abort ();
  /* The same text after a comment and with a newline at its end. */
  wrapped = malloc (sizeof before + size + 1);
  if (wrapped == NULL)
    return 0;
  memcpy (wrapped, before, sizeof before - 1);
  if (size)
    memcpy (wrapped + sizeof before - 1, data, size);
  wrapped[sizeof before - 1 + size] = '\n';
  java_scan (wrapped, sizeof before + size, &again);
  free (wrapped);
  if (memcmp (&u, &again, sizeof u) != 0)
    abort ();
  return 0;
}
