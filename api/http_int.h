/* api/http_int.h: what http.c shares with the routes of other files of
 * api/ (e2b.c): the caller of a request, the replies, and the one way an
 * execution's call starts and ends (http.c owns every call: its client
 * going, its stream, its answer).  Private to api/. */
#ifndef WARMBOX_API_HTTP_INT_H
#define WARMBOX_API_HTTP_INT_H

#include "api/api.h"
#include "api/e2b_wire.h"
#include "api/route.h"

struct http_conn;

/* What route() found out about a request before its handler runs. */
struct http_caller
{
  api_ctx_t *ctx;
  struct http_conn *hconn;
  const http_route_t *route;
  const sched_token_t *token; /* NULL without tokens configured (or on an open route) */
  size_t token_index;
  const char *cert_name; /* a verified client certificate's common name, or NULL */
  bool on_unix;          /* it came on a Unix socket (else TCP, TLS or not) */
};
typedef struct http_caller http_caller_t;

/* body as the reply (status, content_type); an empty 200 says Content-Length 0.
 * Without memory: a 500. */
void http_reply (struct evhttp_request *req, int status, const char *content_type, const char *body,
                 size_t len);
/* What a client may read of err (never the engine's words). */
const char *http_client_message (const wb_err_t *err);
/* Who owns the caller's sessions: "token:NAME", "cert:NAME", or without
 * credentials "anon:unix" or "anon:tcp" (in buf, 80 bytes). */
const char *caller_name_in (const http_caller_t *who, char *buf);
/* May owner (caller_name_in's) start one more execution, within its
 * limits (api/auth.h)?  0, or -1 with err: 429 (Retry-After set on req),
 * 401 a token gone since, 503 no room for another certificate's bucket. */
WB_MUST_CHECK int http_owner_admit (struct evhttp_request *req, api_ctx_t *ctx, const char *owner,
                                    wb_err_t *err);
/* Start parsed (taken: cleared whatever comes) for req: in session (of
 * owner), or alone when NULL; counted in flight against limits_owner
 * (admitted by http_owner_admit) until its answer is sent.  With e2b,
 * the reply is that stream (begun at once, before the container).  -1
 * with err when refused: the caller replies. */
WB_MUST_CHECK int http_call_start (struct evhttp_request *req, const http_caller_t *who,
                                   const char *session, const char *owner, const char *limits_owner,
                                   sched_request_t *parsed, bool piston, const e2b_stream_t *e2b,
                                   wb_err_t *err);

/* A body sent a slice at a time, as its client reads (backpressure from
 * its owner): next (arg, off, &data, &len, err) gives the bytes from off
 * on (data borrowed until the next call into the owner; at most what it
 * holds, never past total); a slice waits in the connection until it is
 * written, so a client that reads nothing holds one slice, never the
 * body.  done (arg) is called once: the body is out, the client is gone,
 * or next failed (-1: the connection is closed and the client sees a
 * body shorter than its Content-Length).  Without memory to begin: done
 * at once and a 500. */
#define HTTP_SLICE_BYTES (64 * 1024)
typedef int http_slice_fn (void *arg, uint64_t off, const char **data, size_t *len, wb_err_t *err);
void http_reply_sliced (struct evhttp_request *req, const http_caller_t *who,
                        const char *content_type, uint64_t total, http_slice_fn *next,
                        void (*done) (void *arg), void *arg);

#endif
