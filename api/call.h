/* api/call.h: one execution's call over HTTP, from its start to its one
 * answer (call.c), whichever API asked: the caller's owner and limits,
 * the execution or session call it runs, its client going, its stream,
 * and its answer in the shape of that API, each shape one entry of a
 * table (call_shape_t in call.c), the way curl keeps its protocols.
 * Private to api/. */
#ifndef WARMBOX_API_CALL_H
#define WARMBOX_API_CALL_H

#include "api/api.h"
#include "api/e2b_wire.h"
#include "api/route.h"

struct http_conn;
struct evhttp_request;

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

/* The shapes an answer takes (the table in call.c). */
typedef enum call_shape_id
{
  CALL_V1,     /* /v1's JSON: the result whole, or {"error": ...} */
  CALL_NDJSON, /* /v1 with Accept: application/x-ndjson: output lines, then the result's */
  CALL_PISTON, /* Piston's run object, or {"message"} */
  CALL_E2B,    /* the E2B SDK's stream (/execute's NDJSON, envd's Connect), begun at once */
} call_shape_id_t;

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
 * (admitted by http_owner_admit) until its answer is sent; answered in
 * shape (CALL_E2B with its stream's state e2b: the stream begins at once,
 * before the container).  -1 with err when refused: the caller replies
 * (http_call_refuse, or its API's own words). */
WB_MUST_CHECK int http_call_start (struct evhttp_request *req, const http_caller_t *who,
                                   const char *session, const char *owner, const char *limits_owner,
                                   sched_request_t *parsed, call_shape_id_t shape,
                                   const e2b_stream_t *e2b, wb_err_t *err);
/* err as req's whole reply in shape's words (before a call started, or
 * when it could not).  Not for CALL_E2B: its handlers have their own. */
void http_call_refuse (struct evhttp_request *req, call_shape_id_t shape, const wb_err_t *err);
/* The shape /v1's req asks for: CALL_NDJSON or CALL_V1.  Can't fail. */
call_shape_id_t http_call_v1_shape (struct evhttp_request *req);
/* Its connection went: the call is cancelled and ends without an answer.
 * The request is the connection's to free. */
struct http_call;
void http_call_abandon (struct http_call *call);
/* The request a call answers.  Can't fail. */
struct evhttp_request *http_call_request (const struct http_call *call);

#endif
