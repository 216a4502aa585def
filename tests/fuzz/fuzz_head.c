/* Fuzz the intake filter's parser (api/head.c).  Whatever the bytes:
 *   - where a head ends does not depend on how its bytes were split
 *     (fed in two parts, resuming from *scanned, or whole);
 *   - a head it accepts holds what the filter relies on: a known method,
 *     at most 128 fields of token names and control-free values, no
 *     X-Warmbox-* field, not both lengths, a body only where evhttp reads
 *     one; and written out again as the filter writes it, it parses to
 *     the same head;
 *   - the bytes after it, read as a chunked body, end at the same place
 *     however they are split, and a line is refused or ended, never read
 *     past its cap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/http.h>

#include "api/head.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static bool
same_head (const http_head_t *a, const http_head_t *b)
{
  if (a->method != b->method || strcmp (a->target, b->target) != 0
      || strcmp (a->version, b->version) != 0 || a->n_fields != b->n_fields
      || a->chunked != b->chunked || a->content_length != b->content_length)
    return false;
  for (size_t i = 0; i < a->n_fields; i++)
    if (strcmp (a->fields[i].name, b->fields[i].name) != 0
        || strcmp (a->fields[i].value, b->fields[i].value) != 0)
      return false;
  return true;
}

static void
check_head (const http_head_t *h)
{
  if (h->method == 0 || h->n_fields > HTTP_HEAD_MAX_FIELDS)
    abort ();
  if ((h->method == EVHTTP_REQ_HEAD || h->method == EVHTTP_REQ_TRACE) && http_head_has_body (h))
    abort ();
  if (h->chunked && h->content_length)
    abort ();
  for (size_t i = 0; i < h->n_fields; i++)
    {
      const char *n = h->fields[i].name, *v = h->fields[i].value;
      if (!*n || strncasecmp (n, "X-Warmbox-", 10) == 0 || strpbrk (n, " \t:\r\n"))
        abort ();
      for (const unsigned char *p = (const unsigned char *) v; *p; p++)
        if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
          abort ();
      if (*v == ' ' || (*v && (v[strlen (v) - 1] == ' ' || v[strlen (v) - 1] == '\t')))
        abort ();
    }
}

/* The head written out as intake_put_head writes it (not withheld). */
static size_t
rewrite (const http_head_t *h, char *out, size_t size)
{
  size_t n = (size_t) snprintf (out, size, "%s %s %s\r\n", h->method_name, h->target, h->version);
  for (size_t i = 0; i < h->n_fields && n < size; i++)
    n += (size_t) snprintf (out + n, size - n, "%s: %s\r\n", h->fields[i].name, h->fields[i].value);
  if (n + 2 < size)
    {
      memcpy (out + n, "\r\n", 2);
      n += 2;
    }
  return n;
}

/* data as a chunked body, the line reader given len bytes at a time more:
 * where it ended (0: not yet, -1: refused). */
static long
chunks (const char *data, size_t size, size_t step)
{
  http_chunks_t c = {0};
  http_head_fault_t fault = HTTP_HEAD_OK;
  size_t at = 0;

  while (c.state != HTTP_CHUNKS_END)
    {
      if (c.state == HTTP_CHUNKS_DATA)
        {
          if (size - at < c.left)
            return 0;
          at += (size_t) c.left;
          c.state = HTTP_CHUNKS_SIZE;
          continue;
        }
      long n = 0;
      for (size_t have = step < size - at ? step : size - at;; have += step)
        {
          if (have > size - at)
            have = size - at;
          http_chunks_t before = c;
          n = http_chunks_line (&c, data + at, have, &fault);
          if (n == 0)
            {
              if (memcmp (&before, &c, sizeof c) != 0)
                abort (); /* no line yet, yet the state moved */
              if (have > HTTP_TRAILER_MAX + 2)
                abort (); /* read past any cap without a verdict */
            }
          if (n != 0 || have == size - at)
            break;
        }
      if (n < 0)
        {
          if (fault != HTTP_HEAD_BAD_CHUNK)
            abort ();
          return -1;
        }
      if (n == 0)
        return 0;
      if ((size_t) n > size - at)
        abort ();
      at += (size_t) n;
    }
  return (long) at;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = (const char *) data;
  http_head_fault_t fault = HTTP_HEAD_OK, fault2 = HTTP_HEAD_OK;
  size_t scanned = 0, scanned2 = 0, cut = size ? data[0] % (size + 1) : 0;
  long end, end2;

  end = http_head_end (text, size, &scanned, &fault);
  /* Split in two at cut: the first part's answer, then the whole's. */
  end2 = http_head_end (text, cut, &scanned2, &fault2);
  if (end2 == 0)
    end2 = http_head_end (text, size, &scanned2, &fault2);
  if (end2 != end || (end < 0 && fault != HTTP_HEAD_TOO_BIG))
    abort ();
  if (end <= 0)
    return 0;

  char *copy = malloc ((size_t) end + 1);
  static http_head_t h, h2;
  static char again[HTTP_HEAD_MAX * 2];
  memcpy (copy, text, (size_t) end);
  copy[end] = '\0';
  if (http_head_parse (copy, (size_t) end, &h, &fault) == 0)
    {
      check_head (&h);
      size_t n = rewrite (&h, again, sizeof again);
      if (n < sizeof again - 2)
        {
          char *copy2 = malloc (n);
          memcpy (copy2, again, n);
          if (http_head_parse (copy2, n, &h2, &fault2) < 0 || !same_head (&h, &h2))
            abort ();
          free (copy2);
        }
    }
  else if (fault <= HTTP_HEAD_OK || fault >= HTTP_HEAD_N_FAULTS
           || http_head_fault_status (fault) < 400 || !*http_head_fault_text (fault))
    abort ();
  free (copy);

  /* The rest as a chunked body: split-blind. */
  const char *rest = text + end;
  size_t left = size - (size_t) end;
  long whole = chunks (rest, left, left ? left : 1);
  if (chunks (rest, left, 1) != whole || chunks (rest, left, 7) != whole)
    abort ();
  return 0;
}
