/* api/call.c: an execution's call over HTTP (api/call.h).  A call is
 * started by its API's handler (http.c's /v1 and Piston, e2b.c's runCode
 * and commands), owned by its connection's record from then on
 * (hconn->call), and ends exactly once: answered (call_answer), or
 * cancelled because its client went (http_call_abandon from the
 * connection's close, client_closed_cb on a hang-up seen while it runs).
 *
 * What differs between the APIs is the answer's shape, and only that: one
 * entry of shapes[] each, whose hooks build the bytes (a stream's first
 * bytes, a run of output, a whole body, a stream's last line, an error
 * reply); the call's own logic (streaming, backpressure, the slot given
 * back, the end) never asks which API it serves. */
#include "api/call.h"
#include "api/auth.h"
#include "api/conn.h"
#include "api/piston.h"
#include "api/reply.h"
#include "api/result.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct http_call http_call_t;

/* One answer shape.  Hooks append to out and return -1 only when memory
 * runs out. */
typedef struct call_shape
{
  const char *name;
  /* Its stream's Content-Type; NULL: it never streams (one reply). */
  const char *(*stream_type) (const http_call_t *call);
  bool stream_at_start; /* the headers go with the start (the SDK's timers run till they come) */
  int (*first) (http_call_t *call, wb_buf_t *out); /* at the start: NULL, nothing */
  /* A run of the program's bytes, after the gap call->skipped_* says. */
  int (*chunk) (http_call_t *call, int stream, const char *data, size_t len, wb_buf_t *out);
  /* The result as one reply's body (not streamed).  NULL: always streamed. */
  int (*body) (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
               wb_buf_t *out);
  /* A stream's last bytes: the result, or err (its words safe for the client). */
  int (*last) (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
               const wb_err_t *err, wb_buf_t *out);
  /* The words of its one reply (a result's or an error's), no stream begun. */
  reply_dialect_t dialect;
} call_shape_t;

/* One execution in flight. */
struct http_call
{
  api_ctx_t *ctx;
  const call_shape_t *shape;
  bool held;             /* counted in flight against limits_owner's limits */
  char limits_owner[80]; /* by name: a reload may reorder the tokens */
  char piston_version[64];
  struct evhttp_request *req;
  struct evhttp_connection *conn;
  http_conn_t *hconn;  /* its connection's record */
  struct event *watch; /* EV_CLOSED on the client's socket while we run */
  sched_exec_t *ex;    /* a plain execution's, or */
  session_call_t *sc;  /* a session's call */
  bool stream_started;
  uint64_t skipped_out, skipped_err; /* output left out for a reader behind */
  e2b_stream_t e2b;                  /* CALL_E2B's stream */
};

/* What may wait in a streaming client's connection: past it, chunks are
 * left out (said in the stream; the result still has all the output
 * within its caps), so a slow or stalled reader never grows the daemon's
 * memory. */
#define STREAM_PENDING_MAX (1024 * 1024)

/* ---- the shapes ------------------------------------------------------- */

/* What a session's call adds to its result: "session" (what was carried)
 * and "warnings" (what was not), before the object's end. */
static int
session_outcome_json (const session_outcome_t *so, wb_buf_t *out)
{
  int bad = 0;

  if (out->len < 2 || memcmp (out->data + out->len - 2, "}\n", 2) != 0)
    return -1;
  out->len -= 2;
  bad |= wb_buf_printf (out,
                        ",\"session\":{\"id\":\"%s\",\"seq\":%llu,\"carried\":%s,\"ended\":%s,"
                        "\"files\":%u,\"files_bytes\":%llu,\"state_bytes\":%llu,\"error\":",
                        so->id, (unsigned long long) so->seq, so->carried ? "true" : "false",
                        so->ended ? "true" : "false", so->files,
                        (unsigned long long) so->files_bytes, (unsigned long long) so->state_bytes);
  bad |= so->error ? wb_buf_printf (out, "\"%s\"", so->error) : wb_buf_append_str (out, "null");
  bad |= wb_buf_append_str (out, "},\"warnings\":[");
  for (size_t i = 0; i < so->n_warnings; i++)
    {
      bad |= i ? wb_buf_append_str (out, ",") : 0;
      bad |= wb_json_append_string (out, so->warnings[i], strlen (so->warnings[i]));
    }
  bad |= wb_buf_append_str (out, "]}\n");
  return bad < 0 ? -1 : 0;
}

static int
v1_body (http_call_t *call, const sched_result_t *res, const session_outcome_t *so, wb_buf_t *out)
{
  (void) call;
  return sched_result_json (res, out, NULL) < 0 || (so && session_outcome_json (so, out) < 0) ? -1
                                                                                              : 0;
}

static const char *
ndjson_type (const http_call_t *call)
{
  (void) call;
  return "application/x-ndjson";
}

/* One run of the program's bytes: {"type": "stdout" | "stderr", "data",
 * "encoding": "utf-8" | "base64"} (base64 for bytes that are not UTF-8 on
 * their own, or hold NUL: the decoded chunks, joined, are the stream),
 * after a {"type": "skipped", ...} line for a gap. */
static int
ndjson_chunk (http_call_t *call, int stream, const char *data, size_t len, wb_buf_t *out)
{
  bool text = wb_utf8_valid (data, len) && memchr (data, '\0', len) == NULL;
  int bad = 0;

  if (call->skipped_out || call->skipped_err)
    {
      bad |= wb_buf_printf (
          out, "{\"type\":\"skipped\",\"stdout_bytes\":%llu,\"stderr_bytes\":%llu}\n",
          (unsigned long long) call->skipped_out, (unsigned long long) call->skipped_err);
      call->skipped_out = call->skipped_err = 0;
    }
  bad |= wb_buf_printf (
      out, "{\"type\":\"%s\",\"data\":", stream == ENG_STREAM_STDOUT ? "stdout" : "stderr");
  if (text)
    bad |= wb_json_append_string (out, data, len);
  else
    {
      bad |= wb_buf_append_str (out, "\"");
      bad |= wb_base64_encode (out, data, len);
      bad |= wb_buf_append_str (out, "\"");
    }
  bad |= wb_buf_printf (out, ",\"encoding\":\"%s\"}\n", text ? "utf-8" : "base64");
  return bad < 0 ? -1 : 0;
}

/* The last line: {"type": "result", "result": {...}} or {"type": "error",
 * "error": {...}}. */
static int
ndjson_last (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
             const wb_err_t *err, wb_buf_t *out)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  int bad = 0;

  if (res && v1_body (call, res, so, &body) == 0)
    {
      size_t len = body.len;
      while (len && body.data[len - 1] == '\n')
        len--;
      bad |= wb_buf_append_str (out, "{\"type\":\"result\",\"result\":");
      bad |= wb_buf_append (out, body.data, len);
      bad |= wb_buf_append_str (out, "}\n");
      return bad < 0 ? -1 : 0;
    }
  wb_err_t nomem;
  if (res)
    {
      wb_error (&nomem, WB_E_NOMEM, "out of memory encoding the result");
      err = &nomem;
    }
  const char *msg = http_client_message (err);
  bad |= wb_buf_printf (
      out, "{\"type\":\"error\",\"error\":{\"code\":\"%s\",\"message\":", wb_code_name (err->code));
  bad |= wb_json_append_string (out, msg, strlen (msg));
  bad |= wb_buf_append_str (out, "}}\n");
  return bad < 0 ? -1 : 0;
}

static int
piston_body (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
             wb_buf_t *out)
{
  (void) so; /* Piston has no sessions */
  return sched_piston_result_json (res, call->piston_version, out, NULL);
}

static const char *
e2b_type (const http_call_t *call)
{
  return call->e2b.kind == E2B_PROCESS ? "application/connect+json" : "application/x-ndjson";
}

static int
e2b_first (http_call_t *call, wb_buf_t *out)
{
  return e2b_stream_start (&call->e2b, out);
}

static int
e2b_chunk (http_call_t *call, int stream, const char *data, size_t len, wb_buf_t *out)
{
  int bad = 0;

  if (call->skipped_out || call->skipped_err)
    {
      char note[160];
      snprintf (note, sizeof note,
                "%llu bytes of stdout and %llu of stderr were left out: the client read "
                "slower than the program wrote",
                (unsigned long long) call->skipped_out, (unsigned long long) call->skipped_err);
      call->skipped_out = call->skipped_err = 0;
      bad |= e2b_stream_note (&call->e2b, note, out);
    }
  bad |= e2b_stream_chunk (&call->e2b, stream, data, len, out);
  return bad < 0 ? -1 : 0;
}

static int
e2b_last (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
          const wb_err_t *err, wb_buf_t *out)
{
  wb_err_t safe;

  if (err)
    {
      safe = *err;
      snprintf (safe.msg, sizeof safe.msg, "%s", http_client_message (err));
    }
  return e2b_stream_finish (&call->e2b, res, so, err ? &safe : NULL, out);
}

/* The table.  E2B's stream begins with the call, so it never replies in
 * one piece (its handlers word their own refusals). */
static const call_shape_t shapes[] = {
    [CALL_V1] = {.name = "v1", .body = v1_body, .dialect = REPLY_V1},
    [CALL_NDJSON] = {.name = "ndjson",
                     .stream_type = ndjson_type,
                     .body = v1_body, /* when its stream could not begin */
                     .chunk = ndjson_chunk,
                     .last = ndjson_last,
                     .dialect = REPLY_V1},
    [CALL_PISTON] = {.name = "piston", .body = piston_body, .dialect = REPLY_PISTON},
    [CALL_E2B] = {.name = "e2b",
                  .stream_type = e2b_type,
                  .stream_at_start = true,
                  .first = e2b_first,
                  .chunk = e2b_chunk,
                  .last = e2b_last},
};

void
http_call_refuse (struct evhttp_request *req, call_shape_id_t shape, const wb_err_t *err)
{
  http_reply_error (req, err, shapes[shape].dialect);
}

call_shape_id_t
http_call_v1_shape (struct evhttp_request *req)
{
  const char *accept = evhttp_find_header (evhttp_request_get_input_headers (req), "Accept");
  return accept && strstr (accept, "application/x-ndjson") != NULL ? CALL_NDJSON : CALL_V1;
}

/* ---- the stream --------------------------------------------------------- */

static void
stream_send (http_call_t *call, const wb_buf_t *bytes)
{
  struct evbuffer *chunk;

  if (bytes->len == 0 || (chunk = evbuffer_new ()) == NULL)
    return;
  if (evbuffer_add (chunk, bytes->data, bytes->len) == 0)
    evhttp_send_reply_chunk (call->req, chunk);
  evbuffer_free (chunk);
}

static bool
stream_begin (http_call_t *call)
{
  struct evkeyvalq *h = evhttp_request_get_output_headers (call->req);

  if (call->stream_started)
    return true;
  if (evhttp_add_header (h, "Content-Type", call->shape->stream_type (call)) < 0
      || evhttp_add_header (h, "Cache-Control", "no-store") < 0)
    {
      /* Not begun: what it added would be doubled by the reply. */
      evhttp_remove_header (h, "Content-Type");
      evhttp_remove_header (h, "Cache-Control");
      return false;
    }
  evhttp_send_reply_start (call->req, 200, "OK");
  call->stream_started = true;
  return true;
}

/* The execution's output as it comes (exec.h's stream_cb). */
static void
stream_cb (void *arg, int stream, const char *data, size_t len)
{
  http_call_t *call = arg;
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  struct bufferevent *bev = evhttp_connection_get_bufferevent (call->conn);
  size_t pending = bev ? evbuffer_get_length (bufferevent_get_output (bev)) : 0;

  if (!stream_begin (call))
    return;
  if (pending > STREAM_PENDING_MAX)
    {
      *(stream == ENG_STREAM_STDOUT ? &call->skipped_out : &call->skipped_err) += len;
      /* A character cut before the gap belongs to nothing after it. */
      call->e2b.tail_len[0] = call->e2b.tail_len[1] = 0;
      return;
    }
  if (call->shape->chunk (call, stream, data, len, &out) == 0)
    stream_send (call, &out);
}

/* ---- start and end ------------------------------------------------------ */

static void
call_free (http_call_t *call)
{
  if (call->watch)
    event_free (call->watch);
  if (call->held)
    sched_auth_release (call->ctx->auth, &call->ctx->cfg, call->limits_owner);
  free (call);
}

/* The client left: whichever it is, it ends without an answer. */
static void
call_cancel (http_call_t *call)
{
  if (call->sc)
    session_exec_cancel (call->sc);
  else
    sched_exec_cancel (call->ex);
}

void
http_call_abandon (http_call_t *call)
{
  call->hconn->call = NULL;
  call_cancel (call);
  call_free (call);
}

struct evhttp_request *
http_call_request (const http_call_t *call)
{
  return call->req;
}

/* The peer hung up while its execution runs.  evhttp reads nothing from a
 * connection whose request it is handling, so it would only find out when
 * the reply fails; by then the container would have run to its deadline.
 * (A client that half-closes its side counts as gone too.) */
static void
client_closed_cb (evutil_socket_t fd, short what, void *arg)
{
  http_call_t *call = arg;
  struct evhttp_connection *conn = call->conn;

  (void) fd;
  (void) what;
  http_call_abandon (call);
  evhttp_connection_free (conn); /* frees the pending request and the record */
}

static void
watch_client (http_call_t *call)
{
  struct bufferevent *bev = evhttp_connection_get_bufferevent (call->conn);
  evutil_socket_t fd = bev ? bufferevent_getfd (bev) : -1;

  if (fd < 0 || !(event_base_get_features (call->ctx->base) & EV_FEATURE_EARLY_CLOSE))
    return;
  call->watch = event_new (call->ctx->base, fd, EV_CLOSED, client_closed_cb, call);
  if (call->watch && event_add (call->watch, NULL) < 0)
    {
      event_free (call->watch);
      call->watch = NULL;
    }
}

/* The one answer of a call: res (with so for a session's call) or err,
 * in its shape: a stream's last bytes once a stream began (a result is
 * always one where the shape streams), else one reply. */
static void
call_answer (http_call_t *call, const sched_result_t *res, const session_outcome_t *so,
             const wb_err_t *err)
{
  const call_shape_t *s = call->shape;
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  wb_err_t e;

  call->hconn->call = NULL;
  if (call->watch)
    {
      event_free (call->watch);
      call->watch = NULL;
    }
  /* The slot is given back once the answer is written, not queued. */
  if (call->held && call->hconn->release_owner[0] == '\0')
    {
      snprintf (call->hconn->release_owner, sizeof call->hconn->release_owner, "%s",
                call->limits_owner);
      call->held = false;
    }
  /* A result is a stream's last line even when no output came before it
   * (an error before any output keeps its own status); a stream due from
   * the start tries once more to begin. */
  if ((res || s->stream_at_start) && s->stream_type)
    (void) stream_begin (call);
  if (call->stream_started)
    {
      if (s->last (call, res, so, err, &out) == 0)
        stream_send (call, &out);
      evhttp_send_reply_end (call->req);
    }
  else if (s->stream_at_start)
    {
      /* Its stream could not begin (no memory for the headers): they are
       * not out, so a plain 500 still can be. */
      static const char msg[] = "internal error";
      http_reply (call->req, 500, "text/plain", msg, sizeof msg - 1);
    }
  else if (res && s->body && s->body (call, res, so, &out) == 0)
    http_reply_json (call->req, 200, out.data, out.len, s->dialect);
  else
    {
      if (res)
        {
          wb_error (&e, WB_E_NOMEM, "out of memory encoding the result");
          err = &e;
        }
      http_reply_error (call->req, err, s->dialect);
    }
  call_free (call);
}

static void
exec_done_cb (void *arg, const sched_result_t *res, const wb_err_t *err)
{
  call_answer (arg, res, NULL, err);
}

static void
session_call_done_cb (void *arg, const sched_result_t *res, const session_outcome_t *so,
                      const wb_err_t *err)
{
  call_answer (arg, res, so, err);
}

int
http_owner_admit (struct evhttp_request *req, api_ctx_t *ctx, const char *owner, wb_err_t *err)
{
  double retry;
  char secs[32];

  if (sched_auth_admit (ctx->auth, &ctx->cfg, owner, &retry, err) == 0)
    return 0;
  if (err->code == WB_E_RATE_LIMITED)
    {
      snprintf (secs, sizeof secs, "%.0f", ceil (retry > 1 ? retry : 1));
      evhttp_add_header (evhttp_request_get_output_headers (req), "Retry-After", secs);
    }
  return -1;
}

/* Who owns the caller's sessions: "token:NAME", "cert:NAME" (a client
 * certificate's name: never the same owner as a token of that name), or
 * without credentials (none configured) the listener's kind, "anon:unix"
 * or "anon:tcp": whoever reaches the loopback port is not the Unix
 * socket's owner.  In buf (80 bytes). */
const char *
caller_name_in (const http_caller_t *who, char *buf)
{
  if (who->token)
    snprintf (buf, 80, "token:%s", who->token->name);
  else if (who->cert_name)
    snprintf (buf, 80, "cert:%s", who->cert_name);
  else
    snprintf (buf, 80, "anon:%s", who->on_unix ? "unix" : "tcp");
  return buf;
}

int
http_call_start (struct evhttp_request *req, const http_caller_t *who, const char *session,
                 const char *owner, const char *limits_owner, sched_request_t *parsed,
                 call_shape_id_t shape, const e2b_stream_t *e2b, wb_err_t *err)
{
  api_ctx_t *ctx = who->ctx;
  http_call_t *call = calloc (1, sizeof *call);

  if (call == NULL)
    {
      sched_request_clear (parsed);
      return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  call->ctx = ctx;
  call->shape = &shapes[shape];
  call->req = req;
  if (shape == CALL_PISTON)
    sched_piston_version (parsed->profile, call->piston_version, sizeof call->piston_version);
  call->conn = evhttp_request_get_connection (req);
  call->hconn = who->hconn;
  if (e2b)
    call->e2b = *e2b;
  if (call->shape->chunk)
    {
      parsed->stream_cb = stream_cb;
      parsed->stream_arg = call;
    }
  if (session)
    call->sc = session_exec_start (ctx->sessions, session, owner, parsed, session_call_done_cb,
                                   call, err);
  else
    call->ex = sched_exec_start (ctx->execs, parsed, exec_done_cb, call, err);
  if (call->ex == NULL && call->sc == NULL)
    {
      free (call);
      return -1;
    }
  call->held = true;
  snprintf (call->limits_owner, sizeof call->limits_owner, "%s", limits_owner);
  sched_auth_hold (ctx->auth, &ctx->cfg, limits_owner);
  who->hconn->call = call;
  /* E2B's: the SDK's timers run until the headers come, so they go now,
   * before the container is even asked for. */
  if (call->shape->stream_at_start)
    {
      cleanup_buf wb_buf_t first = WB_BUF_INIT;
      if (stream_begin (call)
          && (call->shape->first == NULL || call->shape->first (call, &first) == 0))
        stream_send (call, &first);
    }
  watch_client (call);
  return 0;
}
