/* api/reply.h: an HTTP request's one reply (reply.c): a body whole, an
 * error in the caller's API's words, or a body sent a slice at a time as
 * its client reads.  Each function ends the request's reply (a failure to
 * build it becomes a 500 with a static body: never a second reply, never
 * evhttp's HTML).  Private to api/. */
#ifndef WARMBOX_API_REPLY_H
#define WARMBOX_API_REPLY_H

#include "api/api.h"

#include <event2/http.h>

/* The words of an API's JSON errors: /v1's {"error":{"code","message"}},
 * Piston's {"message"}; the same statuses either way. */
typedef enum reply_dialect
{
  REPLY_V1,
  REPLY_PISTON,
} reply_dialect_t;

/* body as the reply (status, content_type); an empty 200 says
 * Content-Length 0. */
void http_reply (struct evhttp_request *req, int status, const char *content_type, const char *body,
                 size_t len);
/* A JSON body (its copy in the request's own output buffer), with the
 * headers its status calls for (Retry-After, WWW-Authenticate). */
void http_reply_json (struct evhttp_request *req, int status, const char *body, size_t len,
                      reply_dialect_t dialect);
/* err as the reply, its status from its code (an engine's 5xx logged). */
void http_reply_error (struct evhttp_request *req, const wb_err_t *err, reply_dialect_t dialect);
/* Memory ran out building a /v1 reply, doing what, built bytes in: a 500. */
void http_reply_nomem (struct evhttp_request *req, const char *what, size_t built);
/* What a client may read of err (never the engine's words).  Can't fail. */
const char *http_client_message (const wb_err_t *err);

/* A body sent a slice at a time, as its client reads (backpressure from
 * its owner): next (arg, off, &data, &len, err) gives the bytes from off
 * on (data borrowed until the next call into the owner; at most what it
 * holds, never past total); a slice waits in the connection until it is
 * written, so a client that reads nothing holds one slice, never the
 * body.  done (arg) is called once: the body is out, the client is gone,
 * or next failed (-1: the connection is closed and the client sees a
 * body shorter than its Content-Length).  Without memory to begin: done
 * at once and a 500.  The connection's record (api/conn.h) owns the
 * reply until it ends. */
#define HTTP_SLICE_BYTES (64 * 1024)
struct http_conn;
typedef int http_slice_fn (void *arg, uint64_t off, const char **data, size_t *len, wb_err_t *err);
void http_reply_sliced (struct evhttp_request *req, struct http_conn *hconn,
                        const char *content_type, uint64_t total, http_slice_fn *next,
                        void (*done) (void *arg), void *arg);
/* The connection of a sliced reply went: it ends (done is called).  The
 * request is its connection's to free. */
struct http_sliced;
void http_sliced_abandon (struct http_sliced *sl);
/* The request a sliced reply answers.  Can't fail. */
struct evhttp_request *http_sliced_request (const struct http_sliced *sl);

#endif
