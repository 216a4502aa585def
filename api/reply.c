/* api/reply.c: the one reply of a request (api/reply.h): JSON bodies and
 * errors in /v1's or Piston's words, plain bodies, and bodies sent a slice
 * at a time as their reader takes them.  Never evhttp_send_error: its
 * body is HTML. */
#include "api/reply.h"
#include "api/conn.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* Each dialect's words: its 500 when even the reply could not be built
 * (static, referenced by the output buffer, never copied), and its error
 * object's opening and closing. */
static const struct
{
  const char *nomem;
  const char *error_open; /* printf'd with the code's name */
  const char *error_close;
} dialects[] = {
    [REPLY_V1] = {"{\"error\":{\"code\":\"out_of_memory\",\"message\":\"internal error\"}}\n",
                  "{\"error\":{\"code\":\"%s\",\"message\":", "}}\n"},
    [REPLY_PISTON] = {"{\"message\":\"internal error\"}\n", "{\"message\":", "}\n"},
};

/* Memory ran out building a reply: a 500 whose body is static, in the
 * dialect's words; without memory even for that, the status alone. */
static void
reply_nomem (struct evhttp_request *req, reply_dialect_t dialect)
{
  const char *body = dialects[dialect].nomem;
  struct evbuffer *out = evhttp_request_get_output_buffer (req);
  struct evkeyvalq *h = evhttp_request_get_output_headers (req);

  wb_warn ("500 out_of_memory: the reply's own body could not be built");
  evbuffer_drain (out, evbuffer_get_length (out));
  evhttp_clear_headers (h);
  if (evbuffer_add_reference (out, body, strlen (body), NULL, NULL) < 0
      || evhttp_add_header (h, "Content-Type", "application/json") < 0)
    evbuffer_drain (out, evbuffer_get_length (out)); /* a body with no type would be guessed at */
  evhttp_send_reply (req, 500, "Internal Server Error", NULL);
}

void
http_reply_json (struct evhttp_request *req, int status, const char *body, size_t len,
                 reply_dialect_t dialect)
{
  struct evbuffer *out = evhttp_request_get_output_buffer (req);
  struct evkeyvalq *h = evhttp_request_get_output_headers (req);

  if (evhttp_add_header (h, "Content-Type", "application/json") < 0
      || evhttp_add_header (h, "Cache-Control", "no-store") < 0
      || ((status == 503 || status == 429) && evhttp_find_header (h, "Retry-After") == NULL
          && evhttp_add_header (h, "Retry-After", "1") < 0)
      || (status == 401
          && evhttp_add_header (h, "WWW-Authenticate", "Bearer realm=\"warmbox\"") < 0)
      || evbuffer_add (out, body, len) < 0)
    {
      reply_nomem (req, dialect);
      return;
    }
  evhttp_send_reply (req, status, status == 200 ? "OK" : "Error", NULL);
}

void
http_reply (struct evhttp_request *req, int status, const char *content_type, const char *body,
            size_t len)
{
  struct evbuffer *out = evhttp_request_get_output_buffer (req);
  struct evkeyvalq *h = evhttp_request_get_output_headers (req);

  if (evhttp_add_header (h, "Content-Type", content_type) < 0
      || evhttp_add_header (h, "Cache-Control", "no-store") < 0
      || ((status == 503 || status == 429) && evhttp_find_header (h, "Retry-After") == NULL
          && evhttp_add_header (h, "Retry-After", "1") < 0)
      || (len && evbuffer_add (out, body, len) < 0))
    {
      reply_nomem (req, REPLY_V1);
      return;
    }
  /* An empty success: no body for the SDK to parse (204, or a length of 0). */
  if (len == 0 && status == 200)
    evhttp_add_header (h, "Content-Length", "0");
  evhttp_send_reply (req, status, status < 300 ? "OK" : "Error", NULL);
}

/* What the client may read about an error.  Errors from our own checks
 * (bad input, limits, capacity) are worded for clients already; anything
 * the engine or the host said is replaced by a fixed sentence. */
const char *
http_client_message (const wb_err_t *err)
{
  /* Anything the engine said (ids, names, versions) stays in the log. */
  if (err->engine_status != 0)
    return err->code == WB_E_ENGINE_DOWN ? "the container engine is unavailable; try again later"
                                         : "the sandbox could not be prepared; try again later";
  switch (err->code)
    {
    case WB_E_INVALID:
    case WB_E_NOT_FOUND:
    case WB_E_TOO_LARGE:
    case WB_E_BUSY:
    case WB_E_UNAUTHORIZED:
    case WB_E_RATE_LIMITED:
    case WB_E_SESSION_EXPIRED:
    case WB_E_UNSUPPORTED:
    case WB_E_FORBIDDEN:
    case WB_E_MISDIRECTED:
    case WB_E_MEDIA_TYPE:
      return err->msg;
    case WB_E_ENGINE_DOWN:
      return "the container engine is unavailable; try again later";
    case WB_E_ENGINE:
      return "the sandbox could not be prepared; try again later";
    case WB_E_CANCELLED:
      return "the request was cancelled";
    default:
      return "internal error";
    }
}

void
http_reply_error (struct evhttp_request *req, const wb_err_t *err, reply_dialect_t dialect)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  const char *msg = http_client_message (err);
  /* An engine's 404 is not the client's "no such thing". */
  wb_code_t code = err->engine_status && err->code == WB_E_NOT_FOUND ? WB_E_ENGINE : err->code;
  int status = wb_code_http_status (code);

  if (status >= 500)
    wb_warn ("%d %s: %s", status, wb_code_name (code), err->msg);
  if (wb_buf_printf (&body, dialects[dialect].error_open, wb_code_name (code)) < 0
      || wb_json_append_string (&body, msg, strlen (msg)) < 0
      || wb_buf_append_str (&body, dialects[dialect].error_close) < 0)
    {
      reply_nomem (req, dialect);
      return;
    }
  http_reply_json (req, status, body.data, body.len, dialect);
}

void
http_reply_nomem (struct evhttp_request *req, const char *what, size_t built)
{
  wb_err_t err;

  wb_error (&err, WB_E_NOMEM, "out of memory %s (%zu bytes built)", what, built);
  http_reply_error (req, &err, REPLY_V1);
}

/* ---- bodies sent as they are read ------------------------------------ */

/* http_reply_sliced's reply in progress; its connection's record owns it
 * until it ends (sliced_end: the one way). */
typedef struct http_sliced
{
  struct evhttp_request *req;
  struct evhttp_connection *evcon;
  http_conn_t *hconn;
  http_slice_fn *next;
  void (*done) (void *arg);
  void *arg;
  uint64_t off, total;
} http_sliced_t;

static void
sliced_end (http_sliced_t *sl)
{
  sl->hconn->sliced = NULL;
  sl->done (sl->arg);
  free (sl);
}

void
http_sliced_abandon (http_sliced_t *sl)
{
  sliced_end (sl);
}

struct evhttp_request *
http_sliced_request (const http_sliced_t *sl)
{
  return sl->req;
}

static void sliced_send (http_sliced_t *sl);

static void
slice_written_cb (struct evhttp_connection *evcon, void *arg)
{
  (void) evcon;
  sliced_send (arg);
}

/* The reply's end: sl first (ending the reply may free the connection,
 * whose close would otherwise end sl a second time), then the reply. */
static void
sliced_finish (http_sliced_t *sl)
{
  struct evhttp_request *req = sl->req;

  sliced_end (sl);
  evhttp_send_reply_end (req);
}

/* The headers are out: no error can be said.  The socket is shut down,
 * so the client sees a body shorter than its Content-Length and the
 * connection ends its usual way (evhttp reads its end); sl ends now. */
static void
sliced_abort (http_sliced_t *sl, const char *why)
{
  struct bufferevent *bev = evhttp_connection_get_bufferevent (sl->evcon);
  evutil_socket_t fd = bev ? bufferevent_getfd (bev) : -1;

  wb_info ("a body sent in slices stopped at %llu of %llu bytes: %s", (unsigned long long) sl->off,
           (unsigned long long) sl->total, why);
  if (fd >= 0)
    shutdown (fd, SHUT_RDWR);
  sliced_finish (sl);
}

/* The next slice, once the last one is written; the end after the last. */
static void
sliced_send (http_sliced_t *sl)
{
  const char *data = NULL;
  size_t len = 0;
  struct evbuffer *chunk;
  wb_err_t err;

  if (sl->off >= sl->total)
    {
      sliced_finish (sl);
      return;
    }
  wb_error (&err, WB_E_NOMEM, "out of memory");
  if (sl->next (sl->arg, sl->off, &data, &len, &err) < 0 || len == 0
      || (chunk = evbuffer_new ()) == NULL)
    {
      sliced_abort (sl, len == 0 ? "nothing more to send" : err.msg);
      return;
    }
  if (len > HTTP_SLICE_BYTES)
    len = HTTP_SLICE_BYTES;
  if (len > sl->total - sl->off)
    len = (size_t) (sl->total - sl->off);
  if (evbuffer_add (chunk, data, len) < 0)
    {
      evbuffer_free (chunk);
      sliced_abort (sl, "out of memory");
      return;
    }
  sl->off += len;
  evhttp_send_reply_chunk_with_cb (sl->req, chunk, slice_written_cb, sl);
  evbuffer_free (chunk);
}

void
http_reply_sliced (struct evhttp_request *req, http_conn_t *hconn, const char *content_type,
                   uint64_t total, http_slice_fn *next, void (*done) (void *arg), void *arg)
{
  http_sliced_t *sl = calloc (1, sizeof *sl);
  struct evkeyvalq *h = evhttp_request_get_output_headers (req);
  char length[32];

  snprintf (length, sizeof length, "%llu", (unsigned long long) total);
  if (sl == NULL || hconn->sliced != NULL || evhttp_add_header (h, "Content-Type", content_type) < 0
      || evhttp_add_header (h, "Cache-Control", "no-store") < 0
      /* With its length said, the body goes as it is (not chunked). */
      || evhttp_add_header (h, "Content-Length", length) < 0)
    {
      free (sl);
      done (arg);
      reply_nomem (req, REPLY_V1);
      return;
    }
  sl->req = req;
  sl->evcon = evhttp_request_get_connection (req);
  sl->hconn = hconn;
  sl->next = next;
  sl->done = done;
  sl->arg = arg;
  sl->total = total;
  hconn->sliced = sl;
  evhttp_send_reply_start (req, 200, "OK");
  sliced_send (sl);
}
