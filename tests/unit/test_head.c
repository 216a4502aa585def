/* The intake filter's parser (api/head.c): where a head ends, what it
 * says, which heads are refused and why, and a chunked body's framing,
 * whole and a byte at a time.  Each refusal is a case evhttp would read
 * some way the filter could not follow (or a request it could smuggle). */
#include <stdlib.h>

#include <event2/http.h>

#include "api/head.h"
#include "tap.h"

/* Parse text as one head: 0 and *h filled, or -1 with *fault.  buf is the
 * caller's (the parser writes into it). */
static int
parse (const char *text, char *buf, size_t size, http_head_t *h, http_head_fault_t *fault)
{
  size_t len = strlen (text), scanned = 0;
  long end;

  snprintf (buf, size, "%s", text);
  *fault = HTTP_HEAD_OK;
  if ((end = http_head_end (buf, len, &scanned, fault)) <= 0)
    return end < 0 ? -1 : -2;
  return http_head_parse (buf, (size_t) end, h, fault);
}

static void
test_end (void)
{
  http_head_fault_t fault = HTTP_HEAD_OK;
  size_t scanned = 0;
  static const char head[] = "GET / HTTP/1.1\r\nHost: a\r\n\r\nnext";
  char *big;
  long end = -9;

  is_int (http_head_end (head, strlen (head), &scanned, &fault), sizeof head - 1 - 4,
          "a head ends after its blank line (the body not counted)");
  scanned = 0;
  is_int (http_head_end ("GET / HTTP/1.1\nHost: a\n\n", 24, &scanned, &fault), 24,
          "lines may end in a bare LF, as evhttp reads them");
  /* A byte at a time: 0 until the last, then the same length. */
  scanned = 0;
  for (size_t n = 1; n <= sizeof head - 1 - 4; n++)
    if ((end = http_head_end (head, n, &scanned, &fault)) != 0)
      break;
  is_int (end, sizeof head - 1 - 4, "... and fed a byte at a time, the same end, found once");
  big = malloc (HTTP_HEAD_MAX + 10);
  memcpy (big, "GET / HTTP/1.1\r\nX: ", 19);
  memset (big + 19, 'a', HTTP_HEAD_MAX - 9);
  scanned = 0;
  fault = HTTP_HEAD_OK;
  ok (http_head_end (big, HTTP_HEAD_MAX + 10, &scanned, &fault) == -1 && fault == HTTP_HEAD_TOO_BIG
          && http_head_fault_status (fault) == 413,
      "a head past 64 KiB: refused, 413");
  free (big);
}

static void
test_parse (void)
{
  static char buf[HTTP_HEAD_MAX];
  http_head_t h;
  http_head_fault_t fault;

  ok (parse ("POST /v1/executions?x=1 HTTP/1.1\r\nHost:  warmbox \t\r\nContent-Length: 42\r\n"
             "Authorization: Bearer t\r\n\r\n",
             buf, sizeof buf, &h, &fault)
              == 0
          && h.method == EVHTTP_REQ_POST && strcmp (h.target, "/v1/executions?x=1") == 0
          && h.content_length == 42 && !h.chunked && h.n_fields == 3
          && strcmp (http_head_find (&h, "host"), "warmbox") == 0
          && strcmp (http_head_find (&h, "AUTHORIZATION"), "Bearer t") == 0,
      "a POST: method, target, length; values trimmed as evhttp trims them; names case-blind");
  ok (parse ("PUT /x HTTP/1.0\r\nTransfer-Encoding: Chunked\r\n\r\n", buf, sizeof buf, &h, &fault)
              == 0
          && h.chunked && http_head_has_body (&h),
      "Transfer-Encoding: chunked (any case): a chunked body");
  ok (parse ("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", buf, sizeof buf, &h, &fault) == 0
          && !http_head_has_body (&h),
      "Content-Length: 0 is no body");
  ok (parse ("HEAD / HTTP/1.1\r\nContent-Length: 0\r\n\r\n", buf, sizeof buf, &h, &fault) == 0,
      "HEAD with Content-Length: 0 is read");

  static const struct
  {
    const char *text;
    http_head_fault_t fault;
    int status;
    const char *what;
  } bad[] = {
      {"GET / HTTP/1.1 x\r\n\r\n", HTTP_HEAD_BAD_LINE, 400, "a request line with a fourth part"},
      {"GET  / HTTP/1.1\r\n\r\n", HTTP_HEAD_BAD_LINE, 400, "two spaces in the request line"},
      {"GET /\x01 HTTP/1.1\r\n\r\n", HTTP_HEAD_BAD_LINE, 400, "a control byte in the target"},
      {"GET / HTTP/2.0\r\n\r\n", HTTP_HEAD_BAD_VERSION, 400, "HTTP/2.0"},
      {"CONNECT a:1 HTTP/1.1\r\n\r\n", HTTP_HEAD_BAD_METHOD, 501, "CONNECT"},
      {"get / HTTP/1.1\r\n\r\n", HTTP_HEAD_BAD_METHOD, 501, "a method in lower case"},
      {"GET / HTTP/1.1\r\nNo colon\r\n\r\n", HTTP_HEAD_BAD_FIELD, 400, "a field without a colon"},
      {"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", HTTP_HEAD_BAD_FIELD, 400, "a space in a name"},
      {"GET / HTTP/1.1\r\nX : x\r\n\r\n", HTTP_HEAD_BAD_FIELD, 400, "a space before the colon"},
      {"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", HTTP_HEAD_BAD_FIELD, 400, "a bare CR in a value"},
      {"GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n", HTTP_HEAD_FOLDED, 400, "a folded value"},
      {"POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n", HTTP_HEAD_BAD_LENGTH, 400,
       "a signed Content-Length"},
      {"POST / HTTP/1.1\r\nContent-Length: 5 5\r\n\r\n", HTTP_HEAD_BAD_LENGTH, 400,
       "a Content-Length of two numbers"},
      {"POST / HTTP/1.1\r\nContent-Length: 1234567890123456789\r\n\r\n", HTTP_HEAD_BAD_LENGTH, 400,
       "a Content-Length of 19 digits"},
      {"POST / HTTP/1.1\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\n", HTTP_HEAD_BAD_LENGTH,
       400, "Content-Length twice, even agreeing"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", HTTP_HEAD_BAD_CODING, 501,
       "Transfer-Encoding: gzip"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
       HTTP_HEAD_BAD_CODING, 501, "Transfer-Encoding twice"},
      {"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
       HTTP_HEAD_LENGTH_CODING, 400, "Transfer-Encoding with Content-Length"},
      {"HEAD / HTTP/1.1\r\nContent-Length: 3\r\n\r\n", HTTP_HEAD_BODY_NOT_READ, 400,
       "HEAD with a body"},
      {"TRACE / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", HTTP_HEAD_BODY_NOT_READ, 400,
       "TRACE with a chunked body"},
      {"GET / HTTP/1.1\r\nx-warmbox-fault: 1\r\n\r\n", HTTP_HEAD_RESERVED, 400,
       "an X-Warmbox-* field (the filter's own marks)"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      int r = parse (bad[i].text, buf, sizeof buf, &h, &fault);
      ok (r == -1 && fault == bad[i].fault && http_head_fault_status (fault) == bad[i].status
              && *http_head_fault_text (fault),
          "%s: refused, %d (fault %d)", bad[i].what, bad[i].status, (int) fault);
    }

  {
    /* 128 fields are read; the 129th is refused. */
    char *text = malloc (20 * 130 + 64);
    size_t n = (size_t) sprintf (text, "GET / HTTP/1.1\r\n");
    for (int i = 0; i < 128; i++)
      n += (size_t) sprintf (text + n, "F%d: v\r\n", i);
    strcpy (text + n, "\r\n");
    ok (parse (text, buf, sizeof buf, &h, &fault) == 0 && h.n_fields == 128, "128 fields: read");
    strcpy (text + n, "F128: v\r\n\r\n");
    ok (parse (text, buf, sizeof buf, &h, &fault) == -1 && fault == HTTP_HEAD_TOO_MANY,
        "129 fields: refused (413)");
    free (text);
  }
  {
    /* A NUL inside: evhttp's line would end early; refused. */
    char text[] = "GET / HTTP/1.1\r\nX: a\0b\r\n\r\n";
    size_t len = sizeof text - 1;
    ok (http_head_parse (text, len, &h, &fault) == -1 && fault == HTTP_HEAD_BAD_FIELD,
        "a NUL in the head: refused");
  }
}

/* Feed body (a chunked body and what follows) to the chunk reader, as the
 * filter does; chunk data is skipped by its size.  The body's length
 * when it ended, 0 when more is needed, -1 on a fault. */
static long
chunks_read (const char *body, size_t len, size_t step, http_head_fault_t *fault)
{
  http_chunks_t c = {0};
  size_t at = 0, have = 0;

  while (c.state != HTTP_CHUNKS_END)
    {
      long n;
      if (c.state == HTTP_CHUNKS_DATA)
        {
          if (len - at < c.left)
            return 0;
          at += c.left;
          c.left = 0;
          c.state = HTTP_CHUNKS_SIZE;
          continue;
        }
      if (have < at)
        have = at;
      /* Bytes arrive step at a time: the line is retried on more. */
      for (;;)
        {
          have = have + step < len ? have + step : len;
          n = http_chunks_line (&c, body + at, have - at, fault);
          if (n != 0 || have == len)
            break;
        }
      if (n < 0)
        return -1;
      if (n == 0)
        return 0;
      at += (size_t) n;
    }
  return (long) at;
}

static void
test_chunks (void)
{
  static const char good[] = "5\r\nhello\r\n\r\nA\r\n0123456789\r\n0\r\nX-Sum: 1\r\n\r\nGET";
  http_head_fault_t fault;

  for (size_t step = 1; step <= 64; step *= 4)
    is_int (chunks_read (good, sizeof good - 1, step, &fault), sizeof good - 1 - 3,
            "a chunked body (an empty line skipped, a trailer) ends where it does, %zu byte(s) "
            "at a time",
            step);
  is_int (chunks_read ("5\r\nhel", 7, 1, &fault), 0, "a chunk cut short: more needed");
  is_int (chunks_read ("0\r\n\r\n", 5, 1, &fault), 5, "the empty body: 0, then the blank line");
  static const struct
  {
    const char *body, *what;
  } bad[] = {
      {"5;ext=1\r\nhello\r\n0\r\n\r\n", "a chunk extension"},
      {"0x5\r\nhello\r\n0\r\n\r\n", "a 0x size"},
      {"-5\r\nhello\r\n0\r\n\r\n", "a signed size"},
      {" 5\r\nhello\r\n0\r\n\r\n", "a space before the size"},
      {"1000000000000000\r\n", "a size of 16 hex digits"},
      {"0\r\nno colon\r\n\r\n", "a trailer line that is no field"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    ok (chunks_read (bad[i].body, strlen (bad[i].body), 1, &fault) == -1
            && fault == HTTP_HEAD_BAD_CHUNK,
        "%s: refused", bad[i].what);
  {
    /* A size line longer than any size: refused once it passes its cap,
     * without waiting for its end. */
    char line[HTTP_CHUNK_LINE_MAX + 8];
    memset (line, '0', sizeof line);
    ok (chunks_read (line, sizeof line, 1, &fault) == -1, "a size line past its cap: refused");
  }
  {
    /* A trailer past 8 KiB: refused. */
    size_t n = HTTP_TRAILER_MAX + 64;
    char *t = malloc (n + 8);
    memcpy (t, "0\r\n", 3);
    for (size_t at = 3; at < n; at += 8)
      memcpy (t + at, "X: vvv\r\n", 8);
    ok (chunks_read (t, n, 512, &fault) == -1, "a trailer past 8 KiB: refused");
    free (t);
  }
}

int
main (void)
{
  test_end ();
  test_parse ();
  test_chunks ();
  return tap_done ();
}
