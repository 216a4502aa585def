/* api/head.c: an HTTP/1.1 request's head and its body's framing (head.h).
 *
 * Every rule here is evhttp's (libevent 2.1.12, http.c) or stricter:
 *   - lines end in LF, or CR LF (evbuffer_readln's EVBUFFER_EOL_CRLF);
 *   - the request line is exactly METHOD SP TARGET SP HTTP/1.x;
 *   - a field's value loses its leading spaces and trailing white space
 *     (evhttp_parse_headers_: strspn " ", then evutil_rtrim_lws_);
 *   - a body is chunked when Transfer-Encoding is "chunked", else
 *     Content-Length long; without either a request has none;
 *   - HEAD and TRACE have none whatever they say (evhttp_method_may_have_body):
 *     one that says it has one is refused, or its body would be read as
 *     the next request;
 *   - a chunk's size is a line of hex digits; empty lines between chunks
 *     are skipped; "0" ends the chunks, a blank line the trailer.
 * What evhttp would accept in another reading (a signed or 0x size, a
 * size with an extension, a value folded on two lines, two lengths) is
 * refused here. */
#include "api/head.h"

#include <event2/http.h>
#include <string.h>
#include <strings.h>

long
http_head_end (const char *buf, size_t len, size_t *scanned, http_head_fault_t *fault)
{
  size_t line = *scanned; /* where the line being scanned starts */
  size_t lim = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;

  for (size_t i = line; i < lim; i++)
    {
      if (buf[i] != '\n')
        continue;
      if (i == line || (i == line + 1 && buf[line] == '\r'))
        return (long) (i + 1);
      line = i + 1;
    }
  *scanned = line;
  if (len >= HTTP_HEAD_MAX)
    {
      *fault = HTTP_HEAD_TOO_BIG;
      return -1;
    }
  return 0;
}

/* The next line of [*p, end): NUL-terminated where its LF (and a CR
 * before it) was; NULL at the end. */
static char *
next_line (char **p, char *end)
{
  char *line = *p, *lf;

  if (line >= end || (lf = memchr (line, '\n', (size_t) (end - line))) == NULL)
    return NULL;
  *p = lf + 1;
  if (lf > line && lf[-1] == '\r')
    lf--;
  *lf = '\0';
  return line;
}

static bool
is_tchar (unsigned char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
         || (c && strchr ("!#$%&'*+-.^_`|~", c));
}

/* A value's bytes: visible, spaces and tabs, and obs-text; no controls. */
static bool
value_ok (const char *v)
{
  for (const unsigned char *p = (const unsigned char *) v; *p; p++)
    if ((*p < 0x20 && *p != '\t') || *p == 0x7f)
      return false;
  return true;
}

static uint16_t
method_of (const char *name)
{
  static const struct
  {
    const char *name;
    uint16_t method;
  } methods[] = {
      {"GET", EVHTTP_REQ_GET},     {"POST", EVHTTP_REQ_POST},     {"HEAD", EVHTTP_REQ_HEAD},
      {"PUT", EVHTTP_REQ_PUT},     {"DELETE", EVHTTP_REQ_DELETE}, {"OPTIONS", EVHTTP_REQ_OPTIONS},
      {"TRACE", EVHTTP_REQ_TRACE}, {"PATCH", EVHTTP_REQ_PATCH},
  };

  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp (name, methods[i].name) == 0)
      return methods[i].method;
  return 0;
}

static int
fail (http_head_fault_t *fault, http_head_fault_t f)
{
  *fault = f;
  return -1;
}

/* The request line: METHOD SP TARGET SP VERSION, nothing more. */
static int
parse_request_line (char *line, http_head_t *h, http_head_fault_t *fault)
{
  char *sp1 = strchr (line, ' '), *sp2;

  if (sp1 == NULL || (sp2 = strchr (sp1 + 1, ' ')) == NULL || strchr (sp2 + 1, ' ') || sp1 == line
      || sp2 == sp1 + 1)
    return fail (fault, HTTP_HEAD_BAD_LINE);
  *sp1 = *sp2 = '\0';
  h->method_name = line;
  h->target = sp1 + 1;
  h->version = sp2 + 1;
  for (const unsigned char *p = (const unsigned char *) h->target; *p; p++)
    if (*p <= 0x20 || *p == 0x7f)
      return fail (fault, HTTP_HEAD_BAD_LINE);
  if (strcmp (h->version, "HTTP/1.1") != 0 && strcmp (h->version, "HTTP/1.0") != 0)
    return fail (fault, HTTP_HEAD_BAD_VERSION);
  if ((h->method = method_of (h->method_name)) == 0)
    return fail (fault, HTTP_HEAD_BAD_METHOD);
  return 0;
}

/* A Content-Length: one run of decimal digits, at most 18 (no sign, no
 * space inside: evhttp's strtoll would take "+5" and " 5"). */
static int
parse_length (const char *v, uint64_t *out)
{
  size_t n = strlen (v);
  uint64_t x = 0;

  if (n == 0 || n > 18 || strspn (v, "0123456789") != n)
    return -1;
  for (size_t i = 0; i < n; i++)
    x = x * 10 + (uint64_t) (v[i] - '0');
  *out = x;
  return 0;
}

int
http_head_parse (char *buf, size_t len, http_head_t *h, http_head_fault_t *fault)
{
  char *p = buf, *end = buf + len, *line;
  int n_length = 0, n_coding = 0;

  memset (h, 0, sizeof *h);
  *fault = HTTP_HEAD_OK;
  if (len > HTTP_HEAD_MAX)
    return fail (fault, HTTP_HEAD_TOO_BIG);
  /* A NUL would end a line early for evhttp and for us alike: none. */
  if (memchr (buf, '\0', len))
    return fail (fault, HTTP_HEAD_BAD_FIELD);
  if ((line = next_line (&p, end)) == NULL || parse_request_line (line, h, fault) < 0)
    return *fault ? -1 : fail (fault, HTTP_HEAD_BAD_LINE);
  while ((line = next_line (&p, end)) != NULL && *line)
    {
      char *colon, *value, *tail;

      if (*line == ' ' || *line == '\t')
        return fail (fault, HTTP_HEAD_FOLDED);
      if ((colon = strchr (line, ':')) == NULL || colon == line)
        return fail (fault, HTTP_HEAD_BAD_FIELD);
      *colon = '\0';
      for (const char *c = line; *c; c++)
        if (!is_tchar ((unsigned char) *c))
          return fail (fault, HTTP_HEAD_BAD_FIELD);
      value = colon + 1;
      value += strspn (value, " ");
      tail = value + strlen (value);
      while (tail > value && (tail[-1] == ' ' || tail[-1] == '\t'))
        *--tail = '\0';
      if (!value_ok (value))
        return fail (fault, HTTP_HEAD_BAD_FIELD);
      if (h->n_fields == HTTP_HEAD_MAX_FIELDS)
        return fail (fault, HTTP_HEAD_TOO_MANY);
      if (strncasecmp (line, "X-Warmbox-", 10) == 0)
        return fail (fault, HTTP_HEAD_RESERVED);
      if (strcasecmp (line, "Content-Length") == 0
          && (n_length++ > 0 || parse_length (value, &h->content_length) < 0))
        return fail (fault, HTTP_HEAD_BAD_LENGTH);
      if (strcasecmp (line, "Transfer-Encoding") == 0)
        {
          if (n_coding++ > 0 || strcasecmp (value, "chunked") != 0)
            return fail (fault, HTTP_HEAD_BAD_CODING);
          h->chunked = true;
        }
      h->fields[h->n_fields++] = (http_field_t){.name = line, .value = value};
    }
  /* The head must end in its blank line, exactly at len. */
  if (line == NULL || p != end)
    return fail (fault, HTTP_HEAD_BAD_LINE);
  if (n_length && n_coding)
    return fail (fault, HTTP_HEAD_LENGTH_CODING);
  if ((h->method == EVHTTP_REQ_HEAD || h->method == EVHTTP_REQ_TRACE) && http_head_has_body (h))
    return fail (fault, HTTP_HEAD_BODY_NOT_READ);
  return 0;
}

const char *
http_head_find (const http_head_t *h, const char *name)
{
  for (size_t i = 0; i < h->n_fields; i++)
    if (strcasecmp (h->fields[i].name, name) == 0)
      return h->fields[i].value;
  return NULL;
}

static const struct
{
  int status;
  const char *text;
} faults[HTTP_HEAD_N_FAULTS] = {
    [HTTP_HEAD_OK] = {400, "bad request"},
    [HTTP_HEAD_BAD_LINE] = {400, "the request line must be METHOD TARGET HTTP/1.1"},
    [HTTP_HEAD_BAD_VERSION] = {400, "only HTTP/1.0 and HTTP/1.1 are spoken here"},
    [HTTP_HEAD_BAD_METHOD] = {501, "no endpoint serves this method"},
    [HTTP_HEAD_BAD_FIELD] = {400, "a header line is not NAME: VALUE, or holds a control byte"},
    [HTTP_HEAD_FOLDED] = {400, "a header continued on the next line (obsolete line folding)"},
    [HTTP_HEAD_TOO_BIG] = {413, "the request's headers exceed 64 KiB"},
    [HTTP_HEAD_TOO_MANY] = {413, "the request has more than 128 headers"},
    [HTTP_HEAD_BAD_LENGTH] = {400, "Content-Length must be one decimal number, sent once"},
    [HTTP_HEAD_BAD_CODING] = {501, "Transfer-Encoding must be chunked, sent once"},
    [HTTP_HEAD_LENGTH_CODING] = {400, "send Content-Length or Transfer-Encoding, not both"},
    [HTTP_HEAD_BODY_NOT_READ] = {400, "HEAD and TRACE requests carry no body"},
    [HTTP_HEAD_RESERVED] = {400, "X-Warmbox-* headers are the daemon's own"},
    [HTTP_HEAD_BAD_CHUNK]
    = {400, "a chunk size must be plain hex digits; trailers, NAME: VALUE lines"},
};

int
http_head_fault_status (http_head_fault_t fault)
{
  return fault > 0 && fault < HTTP_HEAD_N_FAULTS ? faults[fault].status : 400;
}

const char *
http_head_fault_text (http_head_fault_t fault)
{
  return fault > 0 && fault < HTTP_HEAD_N_FAULTS ? faults[fault].text : faults[0].text;
}

long
http_chunks_line (http_chunks_t *c, const char *buf, size_t len, http_head_fault_t *fault)
{
  size_t max, scan, n, used;
  const char *lf;

  if ((c->state != HTTP_CHUNKS_SIZE && c->state != HTTP_CHUNKS_TRAILER)
      || c->trailer >= HTTP_TRAILER_MAX)
    return fail (fault, HTTP_HEAD_BAD_CHUNK);
  max = c->state == HTTP_CHUNKS_SIZE ? HTTP_CHUNK_LINE_MAX : HTTP_TRAILER_MAX - c->trailer;
  scan = len < max + 2 ? len : max + 2;
  lf = memchr (buf, '\n', scan);
  if (lf == NULL)
    return scan < max + 2 ? 0 : fail (fault, HTTP_HEAD_BAD_CHUNK);
  used = (size_t) (lf - buf) + 1;
  n = (size_t) (lf - buf);
  if (n && buf[n - 1] == '\r')
    n--;
  if (n > max)
    return fail (fault, HTTP_HEAD_BAD_CHUNK);
  if (c->state == HTTP_CHUNKS_SIZE)
    {
      uint64_t size = 0;

      if (n == 0) /* between chunks: skipped */
        return (long) used;
      if (n > 15)
        return fail (fault, HTTP_HEAD_BAD_CHUNK);
      for (size_t i = 0; i < n; i++)
        {
          char d = buf[i];
          unsigned v = d >= '0' && d <= '9'   ? (unsigned) (d - '0')
                       : d >= 'a' && d <= 'f' ? (unsigned) (d - 'a' + 10)
                       : d >= 'A' && d <= 'F' ? (unsigned) (d - 'A' + 10)
                                              : 16;
          if (v == 16)
            return fail (fault, HTTP_HEAD_BAD_CHUNK);
          size = size * 16 + v;
        }
      c->left = size;
      c->state = size ? HTTP_CHUNKS_DATA : HTTP_CHUNKS_TRAILER;
      return (long) used;
    }
  /* A trailer's line: blank ends the body; else a field, unfolded. */
  c->trailer += used;
  if (n == 0)
    {
      c->state = HTTP_CHUNKS_END;
      return (long) used;
    }
  const char *colon = memchr (buf, ':', n);
  if (colon == NULL || colon == buf)
    return fail (fault, HTTP_HEAD_BAD_CHUNK);
  for (const char *p = buf; p < colon; p++)
    if (!is_tchar ((unsigned char) *p))
      return fail (fault, HTTP_HEAD_BAD_CHUNK);
  /* evhttp adds trailer fields to the request's headers: never the
   * filter's own marks. */
  if (colon - buf >= 10 && strncasecmp (buf, "X-Warmbox-", 10) == 0)
    return fail (fault, HTTP_HEAD_BAD_CHUNK);
  for (const char *p = colon + 1; p < buf + n; p++)
    if (((unsigned char) *p < 0x20 && *p != '\t') || *p == 0x7f)
      return fail (fault, HTTP_HEAD_BAD_CHUNK);
  return (long) used;
}
