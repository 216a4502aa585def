/* api/head.h: an HTTP/1.1 request's head and its body's framing, read
 * before evhttp reads anything (http.c's intake filter, docs/operators.md
 * "Credentials before the body").
 *
 * Debian 12's libevent (2.1.12) gives no callback on a request's head:
 * evhttp reads a whole body (up to max_body_bytes) before route() sees the
 * request.  So every connection's bytes pass a filter first, which reads
 * each head with this parser, asks route() whether that head would reach a
 * handler, and passes the body on only then; a refused body is dropped as
 * it arrives, never buffered.  For that the filter must find where each
 * body ends exactly as evhttp would (or requests could be smuggled past
 * it): this parser is stricter than evhttp everywhere, so what it accepts
 * evhttp reads the same way, and what it refuses never reaches evhttp.
 *
 * Pure: no evhttp, no daemon context (the unit tests and fuzz_head call
 * it directly).  Nothing here allocates. */
#ifndef WARMBOX_API_HEAD_H
#define WARMBOX_API_HEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A head (its request line, fields and blank line) holds at most this
 * many bytes and fields; evhttp's own cap is set no lower. */
#define HTTP_HEAD_MAX (64 * 1024)
#define HTTP_HEAD_MAX_FIELDS 128
/* A chunk's size line, and a chunked body's trailer in all. */
#define HTTP_CHUNK_LINE_MAX 64
#define HTTP_TRAILER_MAX (8 * 1024)

/* Why a head or a chunked body is refused; each has its status and a
 * sentence for the client (http_head_fault_*). */
typedef enum http_head_fault
{
  HTTP_HEAD_OK = 0,
  HTTP_HEAD_BAD_LINE,      /* the request line is not METHOD SP TARGET SP HTTP/1.x */
  HTTP_HEAD_BAD_VERSION,   /* not HTTP/1.0 or HTTP/1.1 */
  HTTP_HEAD_BAD_METHOD,    /* a method evhttp does not serve (or CONNECT) */
  HTTP_HEAD_BAD_FIELD,     /* a field line that is not NAME: VALUE, or holds a control byte */
  HTTP_HEAD_FOLDED,        /* a field continued on the next line (obsolete folding) */
  HTTP_HEAD_TOO_BIG,       /* over HTTP_HEAD_MAX bytes */
  HTTP_HEAD_TOO_MANY,      /* over HTTP_HEAD_MAX_FIELDS fields */
  HTTP_HEAD_BAD_LENGTH,    /* Content-Length not one run of digits, or sent twice */
  HTTP_HEAD_BAD_CODING,    /* Transfer-Encoding other than chunked, or sent twice */
  HTTP_HEAD_LENGTH_CODING, /* both Content-Length and Transfer-Encoding */
  HTTP_HEAD_BODY_NOT_READ, /* a body on HEAD or TRACE (evhttp would read it as the next request) */
  HTTP_HEAD_RESERVED,      /* a field named X-Warmbox-*: those are the filter's own */
  HTTP_HEAD_BAD_CHUNK,     /* a chunk size line or trailer out of shape */
  HTTP_HEAD_N_FAULTS
} http_head_fault_t;

typedef struct http_field
{
  const char *name, *value; /* NUL-terminated in the parsed copy */
} http_field_t;

/* A parsed head: pointers into the caller's copy (http_head_parse). */
typedef struct http_head
{
  uint16_t method; /* EVHTTP_REQ_* */
  const char *method_name, *target, *version;
  http_field_t fields[HTTP_HEAD_MAX_FIELDS];
  size_t n_fields;
  bool chunked;            /* Transfer-Encoding: chunked */
  uint64_t content_length; /* 0 without one */
} http_head_t;

/* Where the head at the start of buf (len bytes) ends: the length of the
 * head with its blank line, 0 when more bytes are needed, or -1 with
 * *fault when it is over HTTP_HEAD_MAX.  *scanned keeps the point a
 * previous call reached on the same head (0 the first time), so a head
 * that trickles in is scanned once.  Lines end in LF or CR LF, as evhttp
 * reads them.  Can't fail otherwise. */
long http_head_end (const char *buf, size_t len, size_t *scanned, http_head_fault_t *fault);

/* Parse the head buf of len bytes (http_head_end's length), which it
 * changes: names and values are NUL-terminated where they lie, values
 * trimmed as evhttp trims them.  0, or -1 with the fault. */
int http_head_parse (char *buf, size_t len, http_head_t *head, http_head_fault_t *fault);

/* The value of h's first field named name (case-blind, as evhttp finds
 * one), or NULL.  Can't fail. */
const char *http_head_find (const http_head_t *h, const char *name);

/* Does the request have a body for evhttp to read? */
static inline bool
http_head_has_body (const http_head_t *h)
{
  return h->chunked || h->content_length > 0;
}

/* A fault's HTTP status (400, 413, 501) and its sentence for the client.
 * Can't fail: an unknown fault reads as a bad request. */
int http_head_fault_status (http_head_fault_t fault);
const char *http_head_fault_text (http_head_fault_t fault);

/* A chunked body, read a line or a run of data at a time. */
typedef enum http_chunks_state
{
  HTTP_CHUNKS_SIZE = 0, /* before a chunk's size line (an empty line is skipped, as evhttp does) */
  HTTP_CHUNKS_DATA,     /* inside a chunk: left bytes to go */
  HTTP_CHUNKS_TRAILER,  /* after the last chunk: trailer fields, then a blank line */
  HTTP_CHUNKS_END,      /* the body has ended */
} http_chunks_state_t;

typedef struct http_chunks
{
  http_chunks_state_t state;
  uint64_t left;  /* HTTP_CHUNKS_DATA: the chunk's bytes still to come */
  size_t trailer; /* the trailer's bytes so far */
} http_chunks_t;

/* In state SIZE or TRAILER: the line at the start of buf (len bytes).
 * Its length with its end, the state moved on (DATA with left, TRAILER,
 * END); 0 when the line has not ended yet (and fits: more bytes are
 * needed); -1 with *fault when it is out of shape or too long.  Only
 * plain hex digits make a size (no extensions, no sign, at most 15), and
 * a trailer line must be a field, not named X-Warmbox-*; both are
 * stricter than evhttp. */
long http_chunks_line (http_chunks_t *c, const char *buf, size_t len, http_head_fault_t *fault);

#endif
