/* api/http.c: the HTTP API on evhttp (docs/api.md, docs/openapi.yaml).
 *
 *   POST /v1/executions    run code
 *   GET  /v1/languages     the languages and their limits
 *   GET  /v1/pools         each engine's pools, for operators
 *   GET  /v1/engines       each engine's state, for operators
 *   GET  /metrics          Prometheus text (metrics.c, plus the history's)
 *   GET  /healthz          the daemon answers (and whether an engine is up)
 *   GET  /readyz           503 unless an engine is up, its pools are healthy
 *                          and no SIGTERM was seen
 *   POST /api/v2/execute   Piston's execute (piston.c translates)
 *   GET  /api/v2/runtimes  Piston's runtimes
 *
 * One table (routes[], below) lists them with what each needs; route()
 * walks it.  With API tokens configured every route but the probes
 * (/healthz, /readyz) needs credentials (auth.c decides).  The HAProxy
 * agent (agent.c) is a separate TCP protocol, not a route.
 *
 * Listeners: Unix sockets, plain TCP, and TLS ("https://host:port": a
 * second evhttp whose connections are OpenSSL bufferevents, TLS 1.2+,
 * optionally verifying client certificates, whose common name can stand
 * for a token).
 *
 * Every handler ends in exactly one reply, through reply_json/reply_error.
 * Error bodies carry a code and a sentence written for the client; the
 * engine's own words (image names, paths, versions) go to the log only. */
#define _GNU_SOURCE
#include "api/http.h"
#include "api/api.h"
#include "api/auth.h"
#include "api/call.h"
#include "api/conn.h"
#include "api/e2b.h"
#include "api/guard.h"
#include "api/head.h"
#include "api/piston.h"
#include "api/reply.h"
#include "api/request.h"
#include "api/result.h"
#include "api/route.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

struct sched_http
{
  api_ctx_t *ctx;
  struct evhttp *http;
  struct evhttp *https; /* the TLS listeners', or NULL */
  SSL_CTX *ssl_ctx;     /* theirs; a reload swaps it (each SSL holds its own reference) */
  SSL_CTX *ssl_pending; /* a reload's, until it commits */
  bool verify_clients;  /* ssl_ctx requires client certificates */
  struct evhttp_bound_socket *bound[SCHED_MAX_LISTEN];
  bool bound_tls[SCHED_MAX_LISTEN];
  char *unix_path[SCHED_MAX_LISTEN]; /* the socket file of bound[i], or NULL */
  ino_t unix_ino[SCHED_MAX_LISTEN];  /* ... and its inode, to unlink only ours */
  size_t n_bound;
  struct http_conn *conns;     /* every open connection of both evhttps */
  struct event *sweep;         /* read deadlines, and connections that closed unseen */
  struct http_intake *intakes; /* every connection's filter, until it is finalized */
  struct http_linger *lingers; /* sockets closing after a refusal (linger_start) */
  unsigned n_lingers;
  uint64_t reply_bytes; /* in the intakes' outputs: answers the kernel has not taken */
};

#define caller_name(who) caller_name_in ((who), (char[80]){0})

static SSL *bev_ssl (struct bufferevent *bev);
static void tls_info_cb (const SSL *ssl, int where, int ret);
static bool client_cert_name (const sched_http_t *h, SSL *tls, char *name, size_t size);

/* What a connection's intake filter is reading (api/head.h). */
typedef enum intake_state
{
  INTAKE_HEAD,     /* a request's head */
  INTAKE_BODY,     /* its body: passed on to evhttp, or dropped as it comes (pass false) */
  INTAKE_DROP_ALL, /* after a head it could not read: all dropped until the connection ends */
} intake_state_t;

/* One connection's filter, between its socket's (or OpenSSL's)
 * bufferevent and evhttp, which reads only what the filter passes: each
 * head, checked by route_decide before any of its body, and the bodies of
 * heads that would be served.  A refused head goes on with Content-Length
 * 0 and X-Warmbox-Withheld (route() answers it, its body dropped as it
 * arrives: never buffered); a head that cannot be read, as a request
 * carrying X-Warmbox-Fault, after which all is dropped.
 *
 * Its output side writes evhttp's replies straight to the socket (TLS:
 * SSL_write), so evhttp hears a reply is written only once the kernel has
 * it: through libevent's filter it would hear so once the bytes were
 * queued in the socket's bufferevent, and a Connection: close reply would
 * be cut by the close.  It writes only from wake's callback, on the
 * loop's turn after evhttp added to its output (or once the socket can
 * take more), never inside evhttp's own call: evhttp adds a reply's bytes
 * before it names the callback to run once they are written (a chunk's
 * next, the reply's end), so bytes written at once would be reported to
 * the callback before, or to none (a sliced reply stalled so).
 *
 * Owned by the filter bufferevent (intake_free, its free_context); the
 * connection's record and the filter point at each other, each clearing
 * the other's pointer when it goes first. */
typedef struct http_intake
{
  sched_http_t *h; /* NULL once sched_http_free let go of it */
  http_conn_t *c;
  struct http_intake *prev, *next; /* in h->intakes */
  struct bufferevent *bev;         /* the filter: evhttp's */
  struct bufferevent *under;       /* the socket's, or OpenSSL's */
  struct evbuffer_cb_entry *out_cb;
  struct event *wake;              /* the socket writable, or a reply to start: flush the output */
  struct event *retry;             /* TLS wants a read before its write: wake again shortly */
  struct event *more;              /* evhttp took the head it was given: read the next from under */
  struct evbuffer_cb_entry *in_cb; /* on evhttp's input: when it empties, more */
  bufferevent_data_cb under_read;  /* the filter's reader on under (be_filter_readcb) */
  void *under_arg;
  intake_state_t state;
  bool pass;     /* INTAKE_BODY: the body goes to evhttp */
  bool chunked;  /* ... in chunks */
  uint64_t left; /* ... or this many bytes more */
  http_chunks_t chunks;
  size_t scanned;      /* INTAKE_HEAD: http_head_end's resume point */
  int tls_retry;       /* an SSL_write to repeat with this length (OpenSSL's rule), or 0 */
  bool flushing;       /* intake_wake_cb is flushing: the output side may write */
  uint64_t held;       /* its output's bytes, counted in h->reply_bytes */
  uint64_t stalled_ms; /* when the socket last refused more (0: its output is empty) */
  bool evicted;        /* cut for http.max_reply_bytes: its bytes no longer counted */
} http_intake_t;

/* A socket closing after a refusal whose client is still sending (a body
 * being dropped, a head that could not be read): its write side shut
 * after the answer, what still comes read and dropped until its end or
 * HTTP_LINGER_MS, then closed.  Closed at once, the kernel would answer
 * the unread bytes with a reset, and the client would lose the answer.
 * Owned by h->lingers (linger_end: the one way out). */
typedef struct http_linger
{
  sched_http_t *h;
  struct bufferevent *under; /* a reference of its own */
  struct event *timer;
  struct http_linger *prev, *next;
} http_linger_t;

#define HTTP_LINGER_MS 2000

#define SWEEP_MS 250

static void conn_release_owner (http_conn_t *c);
static void conn_free (http_conn_t *c);

/* evhttp noticed the connection end (error, timeout, a cut): an
 * execution still waiting for it is cancelled; the record goes. */
static void
conn_closed_cb (struct evhttp_connection *evcon, void *arg)
{
  http_conn_t *c = arg;
  struct evhttp_request *req = c->call     ? http_call_request (c->call)
                               : c->sliced ? http_sliced_request (c->sliced)
                                           : NULL;

  (void) evcon;
  if (c->call)
    http_call_abandon (c->call);
  if (c->sliced)
    http_sliced_abandon (c->sliced);
  /* A reply begun (a stream, a sliced body) when evhttp found the
   * connection failed: it let go of the request, which is ours to free;
   * otherwise it frees it itself once this returns. */
  if (req && evhttp_request_get_connection (req) == NULL)
    evhttp_request_free (req);
  conn_release_owner (c);
  WB_LIST_UNLINK (c->h->conns, c);
  conn_free (c);
}

/* POST /v1/executions, and POST /api/v2/execute (piston): a Piston body's
 * fields go through /v1's validator (sched_request_build).  With
 * session (POST /v1/sessions/{id}/executions) the call runs in it. */
static void
execute_in (struct evhttp_request *req, const http_caller_t *who, const char *session)
{
  api_ctx_t *ctx = who->ctx;
  const sched_token_t *token = who->token;
  bool piston = who->route->piston;
  call_shape_id_t shape = piston ? CALL_PISTON : http_call_v1_shape (req);
  struct evbuffer *in = evhttp_request_get_input_buffer (req);
  size_t len = evbuffer_get_length (in);
  const char *body = len ? (const char *) evbuffer_pullup (in, -1) : NULL;
  sched_request_t parsed;
  wb_err_t err;
  int rc;

  if (http_owner_admit (req, ctx, caller_name (who), &err) < 0)
    {
      if (body)
        explicit_bzero ((void *) body, len);
      evbuffer_drain (in, len);
      http_call_refuse (req, shape, &err);
      return;
    }
  if (len > 0 && body == NULL)
    {
      /* Not made contiguous: the pieces are dropped unread. */
      evbuffer_drain (in, len);
      wb_error (&err, WB_E_NOMEM, "out of memory reading a request body of %zu bytes", len);
      http_call_refuse (req, shape, &err);
      return;
    }
  if (piston)
    rc = sched_piston_parse (body, len, ctx->profiles, &parsed, &err);
  else if (session)
    {
      char language[33];
      sched_request_defaults_t d = {.language = language};
      rc = session_call_defaults (ctx->sessions, session, caller_name (who), language,
                                  &d.timeout_ms, &d.memory_mb, &err);
      if (rc == 0)
        rc = sched_request_parse_with (body, len, ctx->profiles, &d, &parsed, &err);
    }
  else
    rc = sched_request_parse (body, len, ctx->profiles, &parsed, &err);
  /* The body held the code: it is not needed past this point. */
  if (body)
    explicit_bzero ((void *) body, len);
  evbuffer_drain (in, len);
  if (rc < 0)
    {
      http_call_refuse (req, shape, &err);
      return;
    }
  if (token)
    snprintf (parsed.client, sizeof parsed.client, "%s", token->name);
  else if (who->cert_name)
    snprintf (parsed.client, sizeof parsed.client, "%s", who->cert_name);
  if (http_call_start (req, who, session, session ? caller_name (who) : NULL, caller_name (who),
                       &parsed, shape, NULL, &err)
      < 0)
    http_call_refuse (req, shape, &err);
}

static void
handle_execute (struct evhttp_request *req, const http_caller_t *who)
{
  execute_in (req, who, NULL);
}

/* ---- sessions ------------------------------------------------------- */

static int
session_info_json (const api_ctx_t *ctx, const session_info_t *i, wb_buf_t *out)
{
  const prof_t *p = prof_find (ctx->profiles, i->language);
  uint32_t timeout = i->timeout_ms ? i->timeout_ms : p ? p->def.timeout_ms : 0;
  uint32_t memory = i->memory_mb ? i->memory_mb : p ? p->def.memory_mb : 0;

  return wb_buf_printf (out,
                        "{\"id\":\"%s\",\"language\":\"%s\",\"timeout_ms\":%u,\"memory_mb\":%u,"
                        "\"idle_ttl_s\":%u,\"created_at\":%.3f,\"last_used_at\":%.3f,"
                        "\"expires_in_ms\":%llu,\"calls\":%llu,\"files\":%u,\"files_bytes\":%llu,"
                        "\"state_bytes\":%llu,\"running\":%s,\"waiting\":%u}",
                        i->id, i->language, timeout, memory, i->idle_ttl_s, i->created_at,
                        i->last_used_at, (unsigned long long) i->expires_in_ms,
                        (unsigned long long) i->calls, i->files,
                        (unsigned long long) i->files_bytes, (unsigned long long) i->state_bytes,
                        i->running ? "true" : "false", i->waiting);
}

static void
reply_session (struct evhttp_request *req, const api_ctx_t *ctx, int status,
               const session_info_t *info)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;

  if (session_info_json (ctx, info, &body) < 0 || wb_buf_append_str (&body, "\n") < 0)
    {
      http_reply_nomem (req, "encoding a session", body.len);
      return;
    }
  http_reply_json (req, status, body.data, body.len, REPLY_V1);
}

typedef struct session_list
{
  const api_ctx_t *ctx;
  wb_buf_t *body;
  bool first;
  int bad;
} session_list_t;

static int
session_list_cb (void *arg, const session_info_t *info)
{
  session_list_t *l = arg;
  l->bad |= l->first ? 0 : wb_buf_append_str (l->body, ",");
  l->first = false;
  l->bad |= session_info_json (l->ctx, info, l->body);
  return l->bad;
}

/* POST /v1/sessions: a new one; GET: the caller's own. */
static void
handle_sessions (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  struct evbuffer *in = evhttp_request_get_input_buffer (req);
  size_t len = evbuffer_get_length (in);
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  char id[SESSION_ID_LEN + 1];
  sched_session_spec_t spec;
  session_info_t info;
  wb_err_t err;

  if (evhttp_request_get_command (req) == EVHTTP_REQ_GET)
    {
      session_list_t l = {ctx, &body, true, 0};
      l.bad |= wb_buf_append_str (&body, "{\"sessions\":[");
      session_each (ctx->sessions, caller_name (who), session_list_cb, &l);
      if (l.bad < 0 || wb_buf_append_str (&body, "]}\n") < 0)
        {
          http_reply_nomem (req, "listing the sessions", body.len);
          return;
        }
      http_reply_json (req, 200, body.data, body.len, REPLY_V1);
      return;
    }
  if (ctx->leaving && *ctx->leaving)
    {
      evbuffer_drain (in, len);
      wb_error (&err, WB_E_BUSY, "warmboxd is shutting down: no new sessions");
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  const char *data = len ? (const char *) evbuffer_pullup (in, -1) : NULL;
  if (sched_session_spec_parse (data, data ? len : 0, ctx->profiles, &spec, &err) < 0)
    {
      evbuffer_drain (in, len);
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  evbuffer_drain (in, len);
  session_spec_t s = {.owner = caller_name (who),
                      .language = spec.profile->language,
                      .timeout_ms = spec.timeout_ms,
                      .memory_mb = spec.memory_mb,
                      .idle_ttl_s = spec.idle_ttl_s};
  if (session_create (ctx->sessions, &s, id, &err) < 0
      || session_get (ctx->sessions, id, s.owner, &info, &err) < 0)
    {
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  reply_session (req, ctx, 201, &info);
}

/* /v1/sessions/{id} (GET, DELETE) and /v1/sessions/{id}/executions (POST). */
static void
handle_session (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  const char *rest = path + strlen ("/v1/sessions/");
  const char *slash = strchr (rest, '/');
  size_t id_len = slash ? (size_t) (slash - rest) : strlen (rest);
  enum evhttp_cmd_type method = evhttp_request_get_command (req);
  char id[SESSION_ID_LEN + 1];
  session_info_t info;
  wb_err_t err;

  if (id_len == 0 || id_len > SESSION_ID_LEN)
    {
      evbuffer_drain (evhttp_request_get_input_buffer (req),
                      evbuffer_get_length (evhttp_request_get_input_buffer (req)));
      wb_error (&err, WB_E_NOT_FOUND, "no such session");
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  memcpy (id, rest, id_len);
  id[id_len] = '\0';
  if (slash && strcmp (slash, "/executions") == 0)
    {
      if (method != EVHTTP_REQ_POST)
        {
          wb_error (&err, WB_E_INVALID, "use POST on %s", path);
          http_reply_error (req, &err, REPLY_V1);
          return;
        }
      execute_in (req, who, id);
      return;
    }
  evbuffer_drain (evhttp_request_get_input_buffer (req),
                  evbuffer_get_length (evhttp_request_get_input_buffer (req)));
  if (slash)
    {
      wb_error (&err, WB_E_NOT_FOUND, "no such endpoint");
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  if (method == EVHTTP_REQ_GET)
    {
      if (session_get (ctx->sessions, id, caller_name (who), &info, &err) < 0)
        http_reply_error (req, &err, REPLY_V1);
      else
        reply_session (req, ctx, 200, &info);
      return;
    }
  if (method == EVHTTP_REQ_DELETE)
    {
      if (session_delete (ctx->sessions, id, caller_name (who), &err) < 0)
        http_reply_error (req, &err, REPLY_V1);
      else
        http_reply_json (req, 200, "{\"deleted\":true}\n", 16, REPLY_V1);
      return;
    }
  wb_error (&err, WB_E_INVALID, "use GET or DELETE on %s", path);
  http_reply_error (req, &err, REPLY_V1);
}

/* ---- small endpoints ------------------------------------------------- */

static void
handle_languages (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  int bad = wb_buf_append_str (&body, "{\"languages\":[");

  for (size_t i = 0; i < ctx->profiles->n && bad == 0; i++)
    {
      const prof_t *p = ctx->profiles->items[i];
      bad = wb_buf_printf (
          &body,
          "%s{\"language\":\"%s\",\"version\":\"%s\",\"runtime\":\"%s\",\"ready\":%s,"
          "\"default\":{\"timeout_ms\":%u,\"memory_mb\":%u},"
          "\"max\":{\"timeout_ms\":%u,\"memory_mb\":%u,\"code_bytes\":%llu,\"stdin_bytes\":%llu,"
          "\"output_bytes\":%llu}}",
          i ? "," : "", p->language, p->version, p->runtime,
          nodes_profile_ready (ctx->nodes, i) ? "true" : "false", p->def.timeout_ms,
          p->def.memory_mb, p->max.timeout_ms, p->max.memory_mb,
          (unsigned long long) p->max.code_bytes, (unsigned long long) p->max.stdin_bytes,
          (unsigned long long) p->def.output_bytes);
      /* The object's closing brace is taken back for what follows. */
      if (bad == 0)
        body.len--;
      bad |= wb_buf_append_str (&body, ",\"aliases\":[");
      for (size_t k = 0; k < p->n_aliases && bad == 0; k++)
        bad = wb_buf_printf (&body, "%s\"%s\"", k ? "," : "", p->aliases[k]);
      bad |= wb_buf_printf (&body, "],\"compiled\":%s", p->compile_argv ? "true" : "false");
      if (p->compile_argv)
        bad |= wb_buf_printf (&body,
                              ",\"compile\":{\"default\":{\"timeout_ms\":%u,\"memory_mb\":%u},"
                              "\"max\":{\"timeout_ms\":%u,\"memory_mb\":%u}}",
                              p->def.compile_timeout_ms, p->def.compile_memory_mb,
                              p->max.compile_timeout_ms, p->max.compile_memory_mb);
      bad |= wb_buf_append_str (&body, "}");
    }
  if (bad < 0 || wb_buf_append_str (&body, "]}\n") < 0)
    {
      http_reply_nomem (req, "listing the languages", body.len);
      return;
    }
  http_reply_json (req, 200, body.data, body.len, REPLY_V1);
}

static void
handle_pools (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  int bad = wb_buf_append_str (&body, "{\"pools\":[");
  uint32_t limit = 0, queued = 0;
  bool first = true;

  for (size_t k = 0; k < nodes_count (ctx->nodes); k++)
    {
      node_view_t node;
      node_view (nodes_at (ctx->nodes, k), &node);
      const pool_stats_t *st;
      size_t n = pool_mgr_stats (node.pools, &st);

      limit += startgate_limit (node.gate);
      queued += node.gate->queued;
      for (size_t i = 0; i < n && bad == 0; i++, first = false)
        {
          const pool_stats_t *s = &st[i];
          bad |= wb_buf_printf (
              &body,
              "%s{\"engine\":\"%s\",\"language\":\"%s\",\"image_id\":\"%s\",\"profile_hash\":\"%"
              "s\","
              "\"key\":\"%s\",\"draining\":%s,\"transient\":%s,\"min_ready\":%u,\"max_ready\":%u,"
              "\"target\":%u,\"ready\":%u,\"creating\":%u,\"in_use\":%u,\"waiting\":%u,"
              "\"hits\":%llu,\"misses\":%llu,\"created\":%llu,\"create_failures\":%llu,"
              "\"destroyed\":%llu,\"arrival_rate\":%.3f,\"replenish_ms\":%.1f,\"last_error\":",
              first ? "" : ",", node.name, s->language, s->image_id, s->profile_hash, s->key,
              s->draining ? "true" : "false", s->transient ? "true" : "false", s->min_ready,
              s->max_ready, s->target, s->ready, s->creating, s->in_use, s->waiting,
              (unsigned long long) s->hits, (unsigned long long) s->misses,
              (unsigned long long) s->created, (unsigned long long) s->create_failures,
              (unsigned long long) s->destroyed, s->arrival_rate, s->create_ms);
          /* The engine's words are for operators; this endpoint is theirs. */
          bad |= s->last_error[0]
                     ? wb_json_append_string (&body, s->last_error, strlen (s->last_error))
                     : wb_buf_append_str (&body, "null");
          bad |= wb_buf_append_str (&body, "}");
        }
    }
  bad |= wb_buf_printf (&body, "],\"start_limit\":%u,\"starts_queued\":%u}\n", limit, queued);
  if (bad)
    {
      http_reply_nomem (req, "listing the pools", body.len);
      return;
    }
  http_reply_json (req, 200, body.data, body.len, REPLY_V1);
}

/* GET /v1/engines: each engine's state, for operators (no secrets: the
 * endpoint, and whether TLS is used, not its files). */
static void
handle_engines (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  int bad = wb_buf_append_str (&body, "{\"engines\":[");
  uint64_t now = wb_now_ms ();

  for (size_t k = 0; k < nodes_count (ctx->nodes) && bad == 0; k++)
    {
      node_view_t view;
      const node_view_t *n = &view;
      node_view (nodes_at (ctx->nodes, k), &view);
      const pool_stats_t *st;
      size_t np = pool_mgr_stats (n->pools, &st);
      uint32_t ready = 0, in_use = 0, images = (uint32_t) n->images;

      for (size_t i = 0; i < np; i++)
        ready += st[i].ready, in_use += st[i].in_use;
      bad |= wb_buf_printf (&body, "%s{\"name\":\"%s\",\"endpoint\":", k ? "," : "", n->name);
      bad |= wb_json_append_string (&body, n->endpoint, strlen (n->endpoint));
      bad |= wb_buf_printf (
          &body,
          ",\"tls\":%s,\"state\":\"%s\",\"state_for_ms\":%llu,\"api_version\":\"%s\","
          "\"server_version\":",
          n->tls ? "true" : "false", sched_node_state_name (n->state),
          (unsigned long long) (now - n->state_since_ms), n->api_version);
      bad |= wb_json_append_string (&body, n->facts->server_version,
                                    strlen (n->facts->server_version));
      bad |= wb_buf_append_str (&body, ",\"runtimes\":");
      bad |= wb_json_append_string (&body, n->facts->runtimes, strlen (n->facts->runtimes));
      bad |= wb_buf_printf (
          &body, ",\"kind\":\"%s\",\"default_runtime\":", n->podman ? "podman" : "docker");
      bad |= wb_json_append_string (&body, n->facts->default_runtime,
                                    strlen (n->facts->default_runtime));
      bad |= wb_buf_append_str (&body, ",\"oci_runtime\":");
      bad |= n->facts->oci_runtime[0] ? wb_json_append_string (&body, n->facts->oci_runtime,
                                                               strlen (n->facts->oci_runtime))
                                      : wb_buf_append_str (&body, "null");
      bad |= wb_buf_append_str (&body, ",\"cgroup_version\":");
      bad |= wb_json_append_string (&body, n->facts->cgroup_version,
                                    strlen (n->facts->cgroup_version));
      bad |= wb_buf_append_str (&body, ",\"engine_id\":");
      bad |= wb_json_append_string (&body, n->facts->engine_id, strlen (n->facts->engine_id));
      bad |= wb_buf_append_str (&body, ",\"security_options\":");
      bad |= wb_json_append_string (&body, n->facts->security, strlen (n->facts->security));
      bad |= wb_buf_append_str (&body, ",\"refused\":");
      bad |= n->refused[0] ? wb_json_append_string (&body, n->refused, strlen (n->refused))
                           : wb_buf_append_str (&body, "null");
      bad |= wb_buf_printf (&body,
                            ",\"weight\":%u,\"max_containers\":%u,\"containers\":%u,\"pools\":%zu,"
                            "\"ready\":%u,\"in_use\":%u,\"images\":%u,\"in_flight\":%u,"
                            "\"executions_total\":%llu,\"start_limit\":%u,\"ping_failures\":%llu,"
                            "\"taken_out\":%llu,\"last_seen_ms_ago\":",
                            n->weight, n->max_containers, n->containers, np, ready, in_use, images,
                            n->executions, (unsigned long long) n->executions_total,
                            startgate_limit (n->gate), (unsigned long long) n->ping_failures,
                            (unsigned long long) n->taken_out);
      bad |= n->last_seen_ms
                 ? wb_buf_printf (&body, "%llu", (unsigned long long) (now - n->last_seen_ms))
                 : wb_buf_append_str (&body, "null");
      bad |= wb_buf_append_str (&body, ",\"info_ms_ago\":");
      bad |= n->facts_at_ms
                 ? wb_buf_printf (&body, "%llu", (unsigned long long) (now - n->facts_at_ms))
                 : wb_buf_append_str (&body, "null");
      bad |= wb_buf_append_str (&body, ",\"last_error\":");
      bad |= n->last_error[0] ? wb_json_append_string (&body, n->last_error, strlen (n->last_error))
                              : wb_buf_append_str (&body, "null");
      bad |= wb_buf_append_str (&body, "}");
    }
  if (bad || wb_buf_append_str (&body, "]}\n") < 0)
    {
      http_reply_nomem (req, "listing the engines", body.len);
      return;
    }
  http_reply_json (req, 200, body.data, body.len, REPLY_V1);
}

static int
engines_up (const api_ctx_t *ctx)
{
  int n = 0;

  for (size_t k = 0; k < nodes_count (ctx->nodes); k++)
    n += node_state (nodes_at_const (ctx->nodes, k)) == NODE_UP;
  return n;
}

uint64_t
sched_http_reply_bytes (const sched_http_t *h)
{
  return h->reply_bytes;
}

static unsigned
http_connections (const sched_http_t *h)
{
  unsigned n = 0;

  for (const struct http_intake *in = h->intakes; in; in = in->next)
    n++;
  return n;
}

static void
handle_metrics (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  metrics_engine_t engines[SCHED_MAX_ENGINES];

  size_t n_nodes = nodes_count (ctx->nodes);
  for (size_t k = 0; k < n_nodes; k++)
    {
      node_view_t v;
      node_view (nodes_at (ctx->nodes, k), &v);
      engines[k].name = v.name;
      engines[k].up = v.state == NODE_UP;
      engines[k].gate = v.gate;
      engines[k].executions = v.executions;
      /* Each manager's array stays valid until its next call: one each. */
      engines[k].n_pools = pool_mgr_stats (v.pools, &engines[k].pools);
    }
  store_stats_t ss;
  store_get_stats (ctx->store, &ss);
  if (metrics_render (ctx->metrics, engines, n_nodes,
                      sched_exec_count (ctx->execs) - sched_exec_queued (ctx->execs),
                      sched_exec_queued (ctx->execs), &body)
          < 0
      || wb_buf_printf (
             &body,
             "# HELP warmbox_history_backlog Records waiting to be written.\n"
             "# TYPE warmbox_history_backlog gauge\nwarmbox_history_backlog %u\n"
             "# HELP warmbox_history_failing 1 while the history cannot be written.\n"
             "# TYPE warmbox_history_failing gauge\nwarmbox_history_failing %d\n"
             "# HELP warmbox_history_committed_total Execution records committed.\n"
             "# TYPE warmbox_history_committed_total counter\n"
             "warmbox_history_committed_total %llu\n"
             "# HELP warmbox_history_write_errors_total Failed write attempts.\n"
             "# TYPE warmbox_history_write_errors_total counter\n"
             "warmbox_history_write_errors_total %llu\n"
             "# HELP warmbox_history_dropped_events_total Pool events dropped (backlog full).\n"
             "# TYPE warmbox_history_dropped_events_total counter\n"
             "warmbox_history_dropped_events_total %llu\n"
             "# HELP warmbox_engines_up Engines taking work (see warmbox_engine_up).\n"
             "# TYPE warmbox_engines_up gauge\nwarmbox_engines_up %d\n"
             "# HELP warmbox_draining 1 once SIGTERM was seen.\n"
             "# TYPE warmbox_draining gauge\nwarmbox_draining %d\n"
             "# HELP warmbox_http_connections Open connections (the Unix socket's included).\n"
             "# TYPE warmbox_http_connections gauge\nwarmbox_http_connections %u\n"
             "# HELP warmbox_http_reply_bytes Answers' bytes waiting for their readers "
             "(http.max_reply_bytes).\n"
             "# TYPE warmbox_http_reply_bytes gauge\nwarmbox_http_reply_bytes %llu\n",
             ss.backlog, ss.failing ? 1 : 0, (unsigned long long) ss.committed,
             (unsigned long long) ss.write_errors, (unsigned long long) ss.dropped_events,
             engines_up (ctx), *ctx->leaving ? 1 : 0, http_connections (who->hconn->h),
             (unsigned long long) who->hconn->h->reply_bytes)
             < 0)
    {
      http_reply_nomem (req, "rendering the metrics", body.len);
      return;
    }
  if (evhttp_add_header (evhttp_request_get_output_headers (req), "Content-Type",
                         "text/plain; version=0.0.4")
          < 0
      || evbuffer_add (evhttp_request_get_output_buffer (req), body.data, body.len) < 0)
    {
      http_reply_nomem (req, "sending the metrics", body.len);
      return;
    }
  evhttp_send_reply (req, 200, "OK", NULL);
}

/* ---- connections --------------------------------------------------- */

static uint64_t
read_deadline (const sched_http_t *h)
{
  return wb_now_ms () + h->ctx->cfg.request_read_timeout_ms;
}

/* A record for a bufferevent evhttp is about to use for a new connection.
 * NULL without memory: the connection goes unrecorded until its first
 * request (conn_of_request makes one then, whose requests are refused). */
static http_conn_t *
conn_track (sched_http_t *h, struct bufferevent *bev)
{
  http_conn_t *c = calloc (1, sizeof *c);

  if (c == NULL)
    return NULL;
  c->h = h;
  c->bev = bev;
  bufferevent_incref (bev);
  c->deadline_ms = read_deadline (h);
  WB_LIST_PUSH (h->conns, c);
  return c;
}

/* The record goes (its connection ended): its filter forgets it. */
static void
conn_free (http_conn_t *c)
{
  if (c->intake)
    c->intake->c = NULL;
  if (c->bev)
    bufferevent_decref (c->bev);
  free (c);
}

/* The answered call's owner has its slot back (its answer is out, or the
 * connection is gone). */
static void
conn_release_owner (http_conn_t *c)
{
  if (c->release_owner[0])
    sched_auth_release (c->h->ctx->auth, &c->h->ctx->cfg, c->release_owner);
  c->release_owner[0] = '\0';
}

/* The reply is out: the next request on a kept-alive connection has a
 * deadline of its own, and the answered call's owner its slot back. */
static void
request_done_cb (struct evhttp_request *req, void *arg)
{
  http_conn_t *c = arg;

  (void) req;
  c->deadline_ms = read_deadline (c->h);
  conn_release_owner (c);
}

/* A connection's first request: is there room for it?  At most
 * max_connections with a request in all, and max_connections_per_address
 * of one TCP client address (an IPv6 client's /64); one past either is
 * answered 503 and closed (c->refused).  A Unix socket's are not counted. */
static void
conn_admit (sched_http_t *h, http_conn_t *c, evutil_socket_t fd)
{
  struct sockaddr_storage peer;
  socklen_t len = sizeof peer;
  uint32_t all = 0, mine = 0;

  c->peer[0] = '\0';
  c->admitted = true;
  if (fd < 0 || getpeername (fd, (struct sockaddr *) &peer, &len) < 0)
    peer.ss_family = AF_UNSPEC;
  /* The Unix socket's callers (the operator's own) are never turned away. */
  if (peer.ss_family == AF_UNIX)
    return;
  if (peer.ss_family == AF_INET)
    inet_ntop (AF_INET, &((struct sockaddr_in *) (void *) &peer)->sin_addr, c->peer,
               sizeof c->peer);
  else if (peer.ss_family == AF_INET6)
    {
      /* One client holds a /64 at least: counted as one address. */
      struct in6_addr net = ((struct sockaddr_in6 *) (void *) &peer)->sin6_addr;
      if (!IN6_IS_ADDR_V4MAPPED (&net))
        memset (net.s6_addr + 8, 0, 8);
      inet_ntop (AF_INET6, &net, c->peer, sizeof c->peer);
    }
  for (const http_conn_t *o = h->conns; o; o = o->next)
    if (o != c && o->counted)
      {
        all++;
        mine += c->peer[0] && strcmp (o->peer, c->peer) == 0;
      }
  c->refused = all >= h->ctx->cfg.max_connections
               || (c->peer[0] && mine >= h->ctx->cfg.max_connections_per_address);
  c->counted = !c->refused;
  if (c->refused)
    wb_warn ("a connection%s%s refused: %u open%s", c->peer[0] ? " from " : "", c->peer,
             c->peer[0] && mine >= h->ctx->cfg.max_connections_per_address ? mine : all,
             c->peer[0] && mine >= h->ctx->cfg.max_connections_per_address
                 ? " from that address (http.max_connections_per_address)"
                 : " in all (http.max_connections)");
}

/* The record of the connection a request arrived on, its deadline paused
 * until the reply is out; NULL only without memory. */
static http_conn_t *
conn_of_request (sched_http_t *h, struct evhttp_request *req)
{
  struct evhttp_connection *evcon = evhttp_request_get_connection (req);
  struct bufferevent *bev = evhttp_connection_get_bufferevent (evcon);
  http_conn_t *c;

  for (c = h->conns; c; c = c->next)
    if (c->evcon ? c->evcon == evcon : c->bev == bev)
      break;
  if (c == NULL)
    {
      if ((c = calloc (1, sizeof *c)) == NULL)
        return NULL;
      c->h = h;
      WB_LIST_PUSH (h->conns, c);
    }
  if (c->evcon == NULL)
    {
      c->evcon = evcon;
      evhttp_connection_set_closecb (evcon, conn_closed_cb, c);
      if (c->bev)
        bufferevent_decref (c->bev);
      c->bev = NULL;
      if (!c->admitted)
        conn_admit (h, c, bufferevent_getfd (bev));
    }
  c->deadline_ms = 0;
  evhttp_request_set_on_complete_cb (req, request_done_cb, c);
  return c;
}

static void
sweep_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_http_t *h = arg;
  uint64_t now = wb_now_ms ();
  http_conn_t *next;

  (void) fd;
  (void) what;
  for (http_conn_t *c = h->conns; c; c = next)
    {
      struct bufferevent *bev = c->evcon ? evhttp_connection_get_bufferevent (c->evcon) : c->bev;
      bufferevent_event_cb eventcb = NULL;

      next = c->next;
      if (c->evcon == NULL)
        {
          bufferevent_getcb (c->bev, NULL, NULL, &eventcb, NULL);
          if (eventcb == NULL) /* evhttp let go of it: closed before any request */
            {
              WB_LIST_UNLINK (h->conns, c);
              conn_free (c);
              continue;
            }
        }
      if (c->deadline_ms && now >= c->deadline_ms && !c->cut)
        {
          /* Shut down, the socket reads as closed: evhttp ends the
           * connection its usual way, and the record goes with it. */
          evutil_socket_t sfd = bufferevent_getfd (bev);
          c->cut = true;
          if (sfd >= 0)
            shutdown (sfd, SHUT_RDWR);
          wb_debug ("a connection sent no whole request within %u ms: closed",
                    h->ctx->cfg.request_read_timeout_ms);
        }
    }
}

/* ---- routes ---------------------------------------------------------- */

static void
handle_runtimes (struct evhttp_request *req, const http_caller_t *who)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;

  if (sched_piston_runtimes_json (who->ctx->profiles, &body, &err) < 0)
    http_reply_error (req, &err, REPLY_PISTON);
  else
    http_reply_json (req, 200, body.data, body.len, REPLY_PISTON);
}

static void
handle_healthz (struct evhttp_request *req, const http_caller_t *who)
{
  static const char ok[] = "{\"status\":\"ok\",\"engine\":\"up\"}\n";
  static const char down[] = "{\"status\":\"ok\",\"engine\":\"down\"}\n";

  if (nodes_any_up (who->ctx->nodes))
    http_reply_json (req, 200, ok, sizeof ok - 1, REPLY_V1);
  else
    http_reply_json (req, 200, down, sizeof down - 1, REPLY_V1);
}

static void
handle_readyz (struct evhttp_request *req, const http_caller_t *who)
{
  static const char ready[] = "{\"ready\":true}\n";
  static const char not_ready[] = "{\"ready\":false}\n";
  api_ctx_t *ctx = who->ctx;

  if (nodes_any_up (ctx->nodes) && !*ctx->leaving && nodes_pools_healthy (ctx->nodes))
    http_reply_json (req, 200, ready, sizeof ready - 1, REPLY_V1);
  else
    http_reply_json (req, 503, not_ready, sizeof not_ready - 1, REPLY_V1);
}

/* Every endpoint, once.  Paths match whole; a method a route does not
 * serve gets 404 as an unknown path does, except where says_method asks
 * for a 400 that names the method to use.  (No 405, no Allow header.)
 * HEAD is accepted by evhttp but served by no route; other methods are
 * refused by evhttp itself (501) before route() runs. */
static const http_route_t routes[] = {
    /* path, methods, open, piston, says_method, handler, prefix, e2b plane, its POST's body,
     * operators only */
    {"/v1/executions", EVHTTP_REQ_POST, false, false, true, handle_execute, false, 0,
     HTTP_BODY_JSON, false},
    {"/api/v2/execute", EVHTTP_REQ_POST, false, true, true, handle_execute, false, 0,
     HTTP_BODY_PISTON, false},
    {"/api/v2/runtimes", EVHTTP_REQ_GET, false, true, false, handle_runtimes, false, 0,
     HTTP_BODY_NONE, false},
    {"/v1/languages", EVHTTP_REQ_GET, false, false, false, handle_languages, false, 0,
     HTTP_BODY_NONE, false},
    {"/healthz", EVHTTP_REQ_GET, true, false, false, handle_healthz, false, 0, HTTP_BODY_NONE,
     false},
    {"/readyz", EVHTTP_REQ_GET, true, false, false, handle_readyz, false, 0, HTTP_BODY_NONE, false},
    {"/v1/pools", EVHTTP_REQ_GET, false, false, false, handle_pools, false, 0, HTTP_BODY_NONE,
     true},
    {"/v1/engines", EVHTTP_REQ_GET, false, false, false, handle_engines, false, 0, HTTP_BODY_NONE,
     true},
    {"/metrics", EVHTTP_REQ_GET, false, false, false, handle_metrics, false, 0, HTTP_BODY_NONE,
     true},
    {"/v1/sessions", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, true, handle_sessions, false,
     0, HTTP_BODY_JSON, false},
    {"/v1/sessions/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, true,
     handle_session, true, 0, HTTP_BODY_JSON, false},
    /* The E2B SDK's (api/e2b.h): the control plane, then the sandbox's. */
    {"/v2/sandboxes", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, false, e2b_handle_sandboxes,
     false, E2B_ROUTE_API, HTTP_BODY_JSON, false},
    {"/v2/sandboxes/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
     e2b_handle_sandbox, true, E2B_ROUTE_API, HTTP_BODY_JSON, false},
    {"/sandboxes", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, false, e2b_handle_sandboxes,
     false, E2B_ROUTE_API, HTTP_BODY_JSON, false},
    {"/sandboxes/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
     e2b_handle_sandbox, true, E2B_ROUTE_API, HTTP_BODY_JSON, false},
    {"/snapshots", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
     e2b_handle_unsupported, true, E2B_ROUTE_API, HTTP_BODY_NONE, false},
    {"/templates", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
     e2b_handle_unsupported, true, E2B_ROUTE_API, HTTP_BODY_NONE, false},
    {"/volumes", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
     e2b_handle_unsupported, true, E2B_ROUTE_API, HTTP_BODY_NONE, false},
    {"/execute", EVHTTP_REQ_POST, true, false, false, e2b_handle_execute, false, E2B_ROUTE_SANDBOX,
     HTTP_BODY_JSON, false},
    {"/contexts", EVHTTP_REQ_GET | EVHTTP_REQ_POST, true, false, false, e2b_handle_contexts, false,
     E2B_ROUTE_SANDBOX, HTTP_BODY_JSON, false},
    {"/contexts/", EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, true, false, false, e2b_handle_contexts,
     true, E2B_ROUTE_SANDBOX, HTTP_BODY_JSON, false},
    {"/health", EVHTTP_REQ_GET, true, false, false, e2b_handle_health, false, E2B_ROUTE_SANDBOX,
     HTTP_BODY_NONE, false},
    {"/envs", EVHTTP_REQ_GET, true, false, false, e2b_handle_envs, false, E2B_ROUTE_SANDBOX,
     HTTP_BODY_NONE, false},
    {"/files", EVHTTP_REQ_GET | EVHTTP_REQ_POST, true, false, false, e2b_handle_files, false,
     E2B_ROUTE_SANDBOX, HTTP_BODY_UPLOAD, false},
    {"/filesystem.Filesystem/", EVHTTP_REQ_POST, true, false, false, e2b_handle_filesystem, true,
     E2B_ROUTE_SANDBOX, HTTP_BODY_CONNECT, false},
    {"/process.Process/", EVHTTP_REQ_POST, true, false, false, e2b_handle_process, true,
     E2B_ROUTE_SANDBOX, HTTP_BODY_CONNECT, false},
};

const http_route_t *
http_route_find (const char *path)
{
  for (size_t i = 0; i < WB_ARRAY_SIZE (routes); i++)
    if (routes[i].prefix ? strncmp (routes[i].path, path, strlen (routes[i].path)) == 0
                         : strcmp (routes[i].path, path) == 0)
      return &routes[i];
  return NULL;
}

const http_route_t *
http_routes (size_t *n)
{
  *n = WB_ARRAY_SIZE (routes);
  return routes;
}

bool
http_path_is_piston (const char *path)
{
  return strncmp (path, "/api/", 5) == 0;
}

/* The method a route serves, for "use POST on ..." (routes that say it
 * serve one). */
static const char *
method_name (uint16_t methods)
{
  return methods & EVHTTP_REQ_POST ? "POST" : methods & EVHTTP_REQ_GET ? "GET" : "another method";
}

/* A request refused before its handler, in its route's shape (E2B's,
 * Piston's for any path under /api/, else /v1's); its body dropped unread. */
static void
reply_refused (struct evhttp_request *req, const http_route_t *r, const char *path,
               const wb_err_t *err)
{
  struct evbuffer *in = evhttp_request_get_input_buffer (req);
  size_t len = evbuffer_get_length (in);
  char *body = len ? (char *) evbuffer_pullup (in, -1) : NULL;

  /* It may hold code: wiped before its memory is given back (without
   * memory to make it one piece, it is only dropped). */
  if (body)
    explicit_bzero (body, len);
  evbuffer_drain (in, len);
  if (r && r->e2b)
    e2b_reply_error (req, err);
  else
    http_reply_error (req, err, http_path_is_piston (path) ? REPLY_PISTON : REPLY_V1);
}

/* A request's head as route_decide reads it: evhttp's request, or the
 * intake filter's parsed head before its body (the same decision, from
 * the same head, by the same function). */
typedef struct route_head
{
  uint16_t method;
  const char *path;
  const char *(*find) (const void *src, const char *name); /* a header's value, or NULL */
  const void *src;
  uint64_t body_len;            /* its body's bytes; ROUTE_BODY_UNKNOWN: chunked, not read yet */
  SSL *ssl;                     /* the connection's TLS session, or NULL */
  const struct sockaddr *local; /* the listener's side of the connection */
  socklen_t local_len;          /* 0: not known */
} route_head_t;

#define ROUTE_BODY_UNKNOWN UINT64_MAX
/* A body evhttp may buffer for any request route_decide serves: past it,
 * only for a caller its route lets send one (route_decide). */
#define ROUTE_BODY_UNCHECKED (64u * 1024)

/* What route() does with a request, decided on its head alone. */
typedef enum route_verdict
{
  ROUTE_SERVE,     /* its route's handler runs */
  ROUTE_GUARD,     /* a browser's request refused (421, 403, 415): reply_refused */
  ROUTE_PREFLIGHT, /* OPTIONS: a browser's preflight (cors_preflight answers) */
  ROUTE_REFUSE,    /* credentials, role or size refused: reply_refused */
  ROUTE_ERROR, /* no such endpoint, or not this method: http_reply_error (*piston: Piston's words)
                */
} route_verdict_t;

static const char *
find_evhttp_header (const void *src, const char *name)
{
  return evhttp_find_header ((const struct evkeyvalq *) src, name);
}

/* The Host, the Origin, and (a POST to a route that reads one) the body's
 * media type: 0, or -1 with err (421, 403, 415). */
static int
guard_head (const api_config_t *cfg, const route_head_t *in, const http_route_t *r, wb_err_t *err)
{
  size_t body_len = in->body_len > SIZE_MAX ? SIZE_MAX : (size_t) in->body_len;

  if (http_guard_host (cfg, in->local_len ? in->local : NULL, in->local_len,
                       in->find (in->src, "Host"), err)
          < 0
      || http_guard_origin (cfg, in->find (in->src, "Origin"), in->find (in->src, "Sec-Fetch-Site"),
                            err)
             < 0)
    return -1;
  if (r && in->method == EVHTTP_REQ_POST && (r->methods & EVHTTP_REQ_POST)
      && http_guard_body (r->body, in->find (in->src, "Content-Type"), body_len, err) < 0)
    return -1;
  return 0;
}

/* The listener's side of the connection on bev: its address into local
 * (*len 0 when it cannot be known). */
static void
bev_local_address (struct bufferevent *bev, struct sockaddr_storage *local, socklen_t *len)
{
  evutil_socket_t fd = bev ? bufferevent_getfd (bev) : -1;

  *len = sizeof *local;
  if (fd < 0 || getsockname (fd, (struct sockaddr *) local, len) < 0)
    *len = 0;
}

/* What route() does with the request whose head is in: who's route,
 * certificate name (into cert_name, 65 bytes), Unix-ness and token
 * filled in; err (and *piston, for ROUTE_ERROR) set for a refusal.  In
 * route's order: the browser guard first (before credentials: nothing is
 * read for a page), the preflight, credentials, the endpoint and its
 * method, the operators' routes, and a declared body over max_body_bytes. */
static route_verdict_t
route_decide (sched_http_t *h, const route_head_t *in, http_caller_t *who, char *cert_name,
              bool *piston, wb_err_t *err)
{
  api_ctx_t *ctx = h->ctx;
  sched_caller_t caller;
  char bearer[300];
  const char *api_key;

  *piston = false;
  who->cert_name = client_cert_name (h, in->ssl, cert_name, 65) ? cert_name : NULL;
  who->route = http_route_find (in->path);
  who->on_unix = in->local_len && in->local->sa_family == AF_UNIX;
  /* A browser's request (a page the operator visits, DNS rebinding) is
   * refused before anything runs or is read (api/guard.h). */
  if (guard_head (&ctx->cfg, in, who->route, err) < 0)
    return ROUTE_GUARD;
  if (in->method == EVHTTP_REQ_OPTIONS)
    return ROUTE_PREFLIGHT;
  caller = (sched_caller_t){
      .open = who->route && who->route->open,
      .cert_required = h->verify_clients && in->ssl != NULL,
      .cert_name = who->cert_name,
      .authorization = in->find (in->src, "Authorization"),
  };
  /* The E2B SDK's key: a token, as a bearer's would be. */
  api_key = in->find (in->src, "X-API-Key");
  if (who->route && who->route->e2b == E2B_ROUTE_API && caller.authorization == NULL && api_key
      && strlen (api_key) < sizeof bearer - 8)
    {
      snprintf (bearer, sizeof bearer, "Bearer %s", api_key);
      caller.authorization = bearer;
    }
  if (sched_auth_decide (&ctx->cfg, &caller, &who->token, &who->token_index, err) < 0)
    return ROUTE_REFUSE;
  if (who->route == NULL || (!(who->route->methods & in->method) && !who->route->says_method))
    {
      wb_error (err, WB_E_NOT_FOUND, "no such endpoint");
      return ROUTE_ERROR;
    }
  if (!(who->route->methods & in->method))
    {
      wb_error (err, WB_E_INVALID, "use %s on %s", method_name (who->route->methods), in->path);
      *piston = who->route->piston;
      return ROUTE_ERROR;
    }
  /* The routes about the whole daemon (other tenants' pools, the engines'
   * endpoints and errors) are the operators'. */
  if (who->route->operators
      && sched_auth_role (&ctx->cfg, who->token, who->on_unix, who->cert_name)
             != SCHED_ROLE_OPERATOR)
    {
      wb_error (err, WB_E_FORBIDDEN,
                "%s is for operators: this caller's role is tenant (docs/operators.md, \"Roles\")",
                in->path);
      return ROUTE_REFUSE;
    }
  if (in->body_len != ROUTE_BODY_UNKNOWN && in->body_len > ctx->cfg.max_body_bytes)
    {
      wb_error (err, WB_E_TOO_LARGE, "the request body is over %zu bytes (max_body_bytes)",
                (size_t) ctx->cfg.max_body_bytes);
      return ROUTE_REFUSE;
    }
  /* evhttp buffers a body whole before the handler sees it: past a small
   * one, only for a route that reads it, and on the sandbox plane (open to
   * route(): its handler checks the sandbox's access token) only for a
   * head whose token names a live sandbox. */
  if (in->body_len > ROUTE_BODY_UNCHECKED)
    {
      if (in->method != EVHTTP_REQ_POST || who->route->body == HTTP_BODY_NONE)
        {
          wb_error (err, WB_E_TOO_LARGE, "the request carries a body that %s does not read",
                    in->path);
          return ROUTE_REFUSE;
        }
      if (who->route->e2b == E2B_ROUTE_SANDBOX && !e2b_head_names_sandbox (ctx, in->find, in->src))
        {
          wb_error (err, WB_E_UNAUTHORIZED,
                    "no such sandbox, or not this access token's (E2b-Sandbox-Id, "
                    "X-Access-Token)");
          return ROUTE_REFUSE;
        }
    }
  return ROUTE_SERVE;
}

/* A request from a page of an origin in http.origins (the guard let no
 * other Origin through): its answer may be read there.  Can't fail
 * (without memory for the headers the browser only refuses to read). */
static void
cors_headers (struct evhttp_request *req)
{
  struct evkeyvalq *out = evhttp_request_get_output_headers (req);
  const char *origin = evhttp_find_header (evhttp_request_get_input_headers (req), "Origin");

  if (origin)
    {
      evhttp_add_header (out, "Access-Control-Allow-Origin", origin);
      evhttp_add_header (out, "Vary", "Origin");
      evhttp_add_header (out, "Access-Control-Expose-Headers", "Retry-After");
    }
}

/* A browser's preflight (OPTIONS, before credentials: a browser sends
 * none on it), answered. */
static void
cors_preflight (struct evhttp_request *req)
{
  struct evkeyvalq *in = evhttp_request_get_input_headers (req);
  struct evkeyvalq *out = evhttp_request_get_output_headers (req);
  wb_err_t err;

  if (evhttp_find_header (in, "Origin") == NULL
      || evhttp_find_header (in, "Access-Control-Request-Method") == NULL)
    {
      wb_error (&err, WB_E_NOT_FOUND, "OPTIONS answers only a browser's preflight");
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  evhttp_add_header (out, "Access-Control-Allow-Methods", "GET, POST, DELETE");
  evhttp_add_header (out, "Access-Control-Allow-Headers",
                     "Authorization, Content-Type, Accept, X-API-Key, E2b-Sandbox-Id, "
                     "X-Access-Token, E2B-Traffic-Access-Token, Connect-Protocol-Version, "
                     "Connect-Timeout-Ms");
  evhttp_add_header (out, "Access-Control-Max-Age", "600");
  evhttp_send_reply (req, 204, "No Content", NULL);
}

/* A request the intake filter marked (its own headers: a client's
 * X-Warmbox-* never pass it): a head it could not read (X-Warmbox-Fault:
 * the fault's number) is answered with the fault; true then.  A body it
 * withheld (X-Warmbox-Withheld: the length the head declared, or
 * "chunked") is that length for route_decide, into *body_len. */
static bool
intake_marks (struct evhttp_request *req, uint64_t *body_len, bool *withheld)
{
  struct evkeyvalq *in = evhttp_request_get_input_headers (req);
  const char *fault = evhttp_find_header (in, "X-Warmbox-Fault");
  const char *held = evhttp_find_header (in, "X-Warmbox-Withheld");
  wb_err_t err;

  *withheld = held != NULL;
  if (fault)
    {
      http_head_fault_t f = (http_head_fault_t) atoi (fault);
      int status = http_head_fault_status (f);
      wb_error (&err,
                status == 413   ? WB_E_TOO_LARGE
                : status == 501 ? WB_E_UNSUPPORTED
                                : WB_E_INVALID,
                "%s", http_head_fault_text (f));
      http_reply_error (req, &err, REPLY_V1);
      return true;
    }
  if (held)
    *body_len = strcmp (held, "chunked") == 0 ? ROUTE_BODY_UNKNOWN : strtoull (held, NULL, 10);
  return false;
}

/* Every request of both evhttps: its connection's record, then
 * route_decide's verdict: the route's handler (which replies) or one
 * error. */
static void
route (struct evhttp_request *req, void *arg)
{
  sched_http_t *h = arg;
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  struct evhttp_connection *evcon = evhttp_request_get_connection (req);
  struct bufferevent *bev = evhttp_connection_get_bufferevent (evcon);
  struct sockaddr_storage local;
  wb_err_t err;
  char cert_name[65];
  bool piston, withheld;
  http_caller_t who = {.ctx = h->ctx, .hconn = conn_of_request (h, req)};
  route_head_t head = {
      .method = (uint16_t) evhttp_request_get_command (req),
      .find = find_evhttp_header,
      .src = evhttp_request_get_input_headers (req),
      .body_len = evbuffer_get_length (evhttp_request_get_input_buffer (req)),
      .ssl = bev_ssl (bev),
      .local = (struct sockaddr *) &local,
  };

  if (path == NULL || *path == '\0')
    path = "/";
  head.path = path;
  if (who.hconn == NULL || who.hconn->intake == NULL)
    {
      /* No record, or a connection evhttp made without our filter (no
       * memory for it): its body was read unchecked; nothing is served. */
      wb_error (&err, WB_E_NOMEM, "out of memory setting up this connection");
      evhttp_add_header (evhttp_request_get_output_headers (req), "Connection", "close");
      reply_refused (req, http_route_find (path), path, &err);
      return;
    }
  if (who.hconn->refused)
    {
      wb_error (&err, WB_E_BUSY, "too many connections%s; close some and try again",
                who.hconn->peer[0] ? " from this address" : "");
      evhttp_add_header (evhttp_request_get_output_headers (req), "Connection", "close");
      reply_refused (req, http_route_find (path), path, &err);
      return;
    }
  /* Cut at its deadline, with the request already buffered: not served
   * (its socket is shut down; the reply goes nowhere). */
  if (who.hconn->cut)
    {
      evhttp_send_error (req, 408, "request read timeout");
      return;
    }
  if (intake_marks (req, &head.body_len, &withheld))
    return;
  bev_local_address (bev, &local, &head.local_len);
  switch (route_decide (h, &head, &who, cert_name, &piston, &err))
    {
    case ROUTE_GUARD:
      reply_refused (req, who.route, path, &err);
      return;
    case ROUTE_PREFLIGHT:
      cors_headers (req);
      cors_preflight (req);
      return;
    case ROUTE_REFUSE:
      cors_headers (req);
      reply_refused (req, who.route, path, &err);
      return;
    case ROUTE_ERROR:
      cors_headers (req);
      http_reply_error (req, &err, piston ? REPLY_PISTON : REPLY_V1);
      return;
    case ROUTE_SERVE:
      break;
    }
  cors_headers (req);
  /* The filter withheld the body of a head that would not have been
   * served a moment ago (a reload gave its token since): not served
   * without it. */
  if (withheld)
    {
      wb_error (&err, WB_E_UNAUTHORIZED,
                "the credentials changed while the request arrived; "
                "send it again");
      reply_refused (req, who.route, path, &err);
      return;
    }
  who.route->handler (req, &who);
}

/* ---- intake: each request's head read before its body ------------------ */

static const char *
find_head_field (const void *src, const char *name)
{
  return http_head_find ((const http_head_t *) src, name);
}

/* Drop n bytes of b, wiped first: a refused body may hold code. */
static void
drop_wiped (struct evbuffer *b, size_t n)
{
  while (n > 0)
    {
      struct evbuffer_iovec v[8];
      int k = evbuffer_peek (b, (ev_ssize_t) n, NULL, v, 8);
      size_t done = 0;

      for (int i = 0; i < k && i < 8 && done < n; i++)
        {
          size_t m = v[i].iov_len < n - done ? v[i].iov_len : n - done;
          explicit_bzero (v[i].iov_base, m);
          done += m;
        }
      if (done == 0)
        break;
      evbuffer_drain (b, done);
      n -= done;
    }
}

/* n bytes of the body from src: to evhttp, or dropped. */
static void
intake_take (http_intake_t *in, struct evbuffer *src, struct evbuffer *dst, size_t n)
{
  if (in->pass)
    evbuffer_remove_buffer (src, dst, n);
  else
    drop_wiped (src, n);
}

/* A head that cannot be read: evhttp gets a request carrying the fault
 * (route() answers it, then closes); the rest is dropped. */
static void
intake_fault (http_intake_t *in, struct evbuffer *src, struct evbuffer *dst,
              http_head_fault_t fault)
{
  evbuffer_add_printf (dst, "GET / HTTP/1.1\r\nConnection: close\r\nX-Warmbox-Fault: %d\r\n\r\n",
                       (int) fault);
  in->state = INTAKE_DROP_ALL;
  drop_wiped (src, evbuffer_get_length (src));
}

/* Would route() serve this head (so its body may be read)?  Its
 * connection admitted first (the caps count connections from their first
 * head). */
static bool
intake_would_serve (http_intake_t *in, const http_head_t *head, const char *path)
{
  struct sockaddr_storage local;
  route_head_t rh = {
      .method = head->method,
      .path = path,
      .find = find_head_field,
      .src = head,
      .body_len = head->chunked ? ROUTE_BODY_UNKNOWN : head->content_length,
      .ssl = bev_ssl (in->bev),
      .local = (struct sockaddr *) &local,
  };
  http_caller_t who = {.ctx = in->h->ctx, .hconn = in->c};
  char cert_name[65];
  bool piston;
  wb_err_t err;

  if (in->c == NULL)
    return false;
  if (!in->c->admitted)
    conn_admit (in->h, in->c, bufferevent_getfd (in->bev));
  if (in->c->refused || in->c->cut)
    return false;
  bev_local_address (in->bev, &local, &rh.local_len);
  return route_decide (in->h, &rh, &who, cert_name, &piston, &err) == ROUTE_SERVE;
}

/* The head as evhttp reads it: one field a line, values as they were
 * trimmed.  A withheld body's framing goes, for Content-Length 0 and the
 * mark route() reads. */
static void
intake_put_head (struct evbuffer *dst, const http_head_t *head, bool withheld)
{
  /* A client that waits for 100 Continue before its body may send none
   * after the refusal: what it sends next would be dropped as that body.
   * Its connection closes after the answer instead. */
  bool close = withheld && http_head_find (head, "Expect") != NULL;

  evbuffer_add_printf (dst, "%s %s %s\r\n", head->method_name, head->target, head->version);
  for (size_t i = 0; i < head->n_fields; i++)
    {
      const http_field_t *f = &head->fields[i];
      if (withheld
          && (strcasecmp (f->name, "Content-Length") == 0
              || strcasecmp (f->name, "Transfer-Encoding") == 0
              || strcasecmp (f->name, "Expect") == 0
              || (close && strcasecmp (f->name, "Connection") == 0)))
        continue;
      evbuffer_add_printf (dst, "%s: %s\r\n", f->name, f->value);
    }
  if (close)
    evbuffer_add_printf (dst, "Connection: close\r\n");
  if (withheld && head->chunked)
    evbuffer_add_printf (dst, "Content-Length: 0\r\nX-Warmbox-Withheld: chunked\r\n");
  else if (withheld)
    evbuffer_add_printf (dst, "Content-Length: 0\r\nX-Warmbox-Withheld: %" PRIu64 "\r\n",
                         head->content_length);
  evbuffer_add (dst, "\r\n", 2);
}

/* A whole head of len bytes at the start of src: parsed, decided,
 * passed on (or its fault), and its body's reading set up. */
static void
intake_head (http_intake_t *in, struct evbuffer *src, struct evbuffer *dst, size_t len)
{
  http_head_t head;
  http_head_fault_t fault = HTTP_HEAD_OK;
  char *copy = malloc (len + 1);
  struct evhttp_uri *uri = NULL;
  bool serve;

  if (copy == NULL || evbuffer_copyout (src, copy, len) != (ev_ssize_t) len)
    {
      free (copy);
      intake_fault (in, src, dst, HTTP_HEAD_OK);
      return;
    }
  copy[len] = '\0';
  if (http_head_parse (copy, len, &head, &fault) < 0
      || (uri = evhttp_uri_parse_with_flags (head.target, EVHTTP_URI_NONCONFORMANT)) == NULL)
    {
      explicit_bzero (copy, len);
      free (copy);
      intake_fault (in, src, dst, fault ? fault : HTTP_HEAD_BAD_LINE);
      return;
    }
  const char *path = evhttp_uri_get_path (uri);
  serve = intake_would_serve (in, &head, path && *path ? path : "/") || !http_head_has_body (&head);
  evhttp_uri_free (uri);
  intake_put_head (dst, &head, !serve);
  drop_wiped (src, len);
  if (http_head_has_body (&head))
    {
      in->state = INTAKE_BODY;
      in->pass = serve;
      in->chunked = head.chunked;
      in->left = head.content_length;
      in->chunks = (http_chunks_t){0};
    }
  /* It may hold a token. */
  explicit_bzero (copy, len);
  free (copy);
}

/* One step through src: true when something was taken (and another may
 * follow), false when more bytes are needed. */
static bool
intake_step (http_intake_t *in, struct evbuffer *src, struct evbuffer *dst)
{
  size_t have = evbuffer_get_length (src), n;
  http_head_fault_t fault = HTTP_HEAD_OK;
  const char *p;
  long end;

  switch (in->state)
    {
    case INTAKE_HEAD:
      /* One head at a time: the next waits in under's input (its read
       * watermark stops the socket's reading there) until evhttp took
       * this one (intake_input_cb).  So a client that sends heads and
       * never reads its answers holds a few heads, not all it sent. */
      if (evbuffer_get_length (dst) > 0)
        return false;
      /* Blank lines before a request line are skipped (RFC 9112 2.2:
       * some clients end a body with one more CR LF than it declared). */
      if (in->scanned == 0 && (p = (const char *) evbuffer_pullup (src, have < 2 ? 1 : 2)) != NULL
          && (p[0] == '\n' || p[0] == '\r'))
        {
          if (p[0] == '\r' && have < 2)
            return false;
          if (p[0] == '\n' || p[1] == '\n')
            {
              evbuffer_drain (src, p[0] == '\n' ? 1 : 2);
              return true;
            }
        }
      n = have < HTTP_HEAD_MAX ? have : HTTP_HEAD_MAX;
      if ((p = (const char *) evbuffer_pullup (src, (ev_ssize_t) n)) == NULL)
        {
          intake_fault (in, src, dst, HTTP_HEAD_OK);
          return true;
        }
      if ((end = http_head_end (p, n, &in->scanned, &fault)) == 0)
        return false;
      in->scanned = 0;
      if (end < 0)
        intake_fault (in, src, dst, fault);
      else
        intake_head (in, src, dst, (size_t) end);
      return true;
    case INTAKE_BODY:
      if (!in->chunked || in->chunks.state == HTTP_CHUNKS_DATA)
        {
          uint64_t *left = in->chunked ? &in->chunks.left : &in->left;
          n = *left < have ? (size_t) *left : have;
          intake_take (in, src, dst, n);
          if ((*left -= n) == 0)
            {
              if (in->chunked)
                in->chunks.state = HTTP_CHUNKS_SIZE;
              else
                in->state = INTAKE_HEAD;
            }
          return true;
        }
      n = have < HTTP_TRAILER_MAX + 2 ? have : HTTP_TRAILER_MAX + 2;
      if ((p = (const char *) evbuffer_pullup (src, (ev_ssize_t) n)) == NULL)
        end = -1;
      else if ((end = http_chunks_line (&in->chunks, p, n, &fault)) == 0)
        return false;
      if (end < 0)
        {
          /* None of the bad line reached evhttp: this one it reads as a
           * bad chunk size (or trailer), and closes the connection. */
          if (in->pass)
            evbuffer_add (dst, "!\r\n", 3);
          in->state = INTAKE_DROP_ALL;
          return true;
        }
      intake_take (in, src, dst, (size_t) end);
      if (in->chunks.state == HTTP_CHUNKS_END)
        in->state = INTAKE_HEAD;
      return true;
    case INTAKE_DROP_ALL:
      drop_wiped (src, have);
      return true;
    }
  return false;
}

/* The filter's input side (bufferevent_filter_cb): everything it can
 * take now.  evhttp sets no read watermark, so there is no limit to keep. */
static enum bufferevent_filter_result
intake_read (struct evbuffer *src, struct evbuffer *dst, ev_ssize_t limit,
             enum bufferevent_flush_mode mode, void *arg)
{
  http_intake_t *in = arg;
  size_t before = evbuffer_get_length (src);

  (void) limit;
  (void) mode;
  while (evbuffer_get_length (src) > 0 && intake_step (in, src, dst))
    ;
  return evbuffer_get_length (src) < before ? BEV_OK : BEV_NEED_MORE;
}

static void intake_wake_cb (evutil_socket_t fd, short what, void *arg);

/* Flush the output once the loop comes round (now: a reply just added),
 * or once the socket is writable (later: it was full). */
static void
intake_wake (http_intake_t *in, bool now)
{
  evutil_socket_t fd = bufferevent_getfd (in->under);

  if (in->wake == NULL && fd >= 0)
    in->wake = event_new (bufferevent_get_base (in->bev), fd, EV_WRITE, intake_wake_cb, in);
  if (in->wake == NULL)
    return;
  if (now)
    event_active (in->wake, EV_WRITE, 0);
  else
    event_add (in->wake, NULL);
}

/* TLS wants to read before it writes again (a renegotiation): OpenSSL's
 * bufferevent reads; try again shortly. */
static void
intake_wake_soon (http_intake_t *in)
{
  static const struct timeval soon = {0, 20000};

  if (in->retry)
    event_add (in->retry, &soon);
}

static void
intake_retry_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  intake_wake (arg, true);
}

/* The filter's output side: evhttp's bytes straight to the kernel, as
 * many as it takes; what it does not take waits in the filter's output
 * (evhttp's reply is written only when that is empty).  A socket that
 * fails drops the rest and is shut down: the connection ends its usual
 * way. */
static enum bufferevent_filter_result
intake_write (struct evbuffer *src, struct evbuffer *dst, ev_ssize_t limit,
              enum bufferevent_flush_mode mode, void *arg)
{
  http_intake_t *in = arg;
  SSL *ssl = bufferevent_openssl_get_ssl (in->under);
  evutil_socket_t fd = bufferevent_getfd (in->under);
  bool wrote = false;

  (void) dst;
  (void) limit;
  (void) mode;
  if (!in->flushing)
    {
      intake_wake (in, true);
      return BEV_NEED_MORE;
    }
  while (evbuffer_get_length (src) > 0)
    {
      size_t n = evbuffer_get_length (src);
      const void *p;
      ssize_t w;

      n = in->tls_retry ? (size_t) in->tls_retry : n < 65536 ? n : 65536;
      if (fd < 0 || (p = evbuffer_pullup (src, (ev_ssize_t) n)) == NULL)
        goto broken;
      if (ssl)
        {
          int r = SSL_write (ssl, p, (int) n);
          if (r <= 0)
            {
              int e = SSL_get_error (ssl, r);
              ERR_clear_error ();
              if (e != SSL_ERROR_WANT_WRITE && e != SSL_ERROR_WANT_READ)
                goto broken;
              in->tls_retry = (int) n;
              if (in->stalled_ms == 0)
                in->stalled_ms = wb_now_ms ();
              if (e == SSL_ERROR_WANT_READ)
                intake_wake_soon (in);
              else
                intake_wake (in, false);
              break;
            }
          in->tls_retry = 0;
          w = r;
        }
      else if ((w = send (fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT)) < 0)
        {
          if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            goto broken;
          if (in->stalled_ms == 0)
            in->stalled_ms = wb_now_ms ();
          intake_wake (in, false);
          break;
        }
      evbuffer_drain (src, (size_t) w);
      wrote = true;
    }
  return wrote ? BEV_OK : BEV_NEED_MORE;
broken:
  drop_wiped (src, evbuffer_get_length (src));
  if (fd >= 0)
    shutdown (fd, SHUT_RDWR);
  return BEV_OK;
}

static void
intake_wake_cb (evutil_socket_t fd, short what, void *arg)
{
  http_intake_t *in = arg;
  bufferevent_event_cb eventcb = NULL;

  (void) fd;
  (void) what;
  /* evhttp let go of the filter (it clears a freed one's callbacks). */
  bufferevent_getcb (in->bev, NULL, NULL, &eventcb, NULL);
  if (eventcb == NULL || in->flushing)
    return;
  /* bufferevent_flush holds a reference: in outlives it even when evhttp
   * frees the connection in the write callback this runs (the filter is
   * finalized on a later turn of the loop).  That callback may add the
   * next chunk with flushing still set: libevent's filter turns its own
   * output callback off while it flushes and writes what was added on
   * its next pass, after evhttp named that chunk's callback, so nothing
   * is written inside evhttp's own call even then. */
  in->flushing = true;
  bufferevent_flush (in->bev, EV_WRITE, BEV_NORMAL);
  in->flushing = false;
  /* A reply written ends with evhttp reading again: a head waiting in
   * under's input is the next request (nothing else would start it: its
   * bytes were read from the socket already). */
  if (evbuffer_get_length (bufferevent_get_input (in->under)) > 0)
    event_active (in->more, EV_READ, 0);
}

/* Read what waits in under's input, as its read callback would: when
 * evhttp reads (it disables reading while a request is handled; the
 * reply's wake comes back here once it is written). */
static void
intake_more_cb (evutil_socket_t fd, short what, void *arg)
{
  http_intake_t *in = arg;
  bufferevent_event_cb eventcb = NULL;

  (void) fd;
  (void) what;
  bufferevent_getcb (in->bev, NULL, NULL, &eventcb, NULL);
  if (eventcb == NULL || !(bufferevent_get_enabled (in->bev) & EV_READ)
      || evbuffer_get_length (bufferevent_get_input (in->under)) == 0)
    return;
  in->under_read (in->under, in->under_arg);
}

/* evhttp took bytes from its input: once it is empty, the next head. */
static void
intake_input_cb (struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
  http_intake_t *in = arg;

  if (info->n_deleted && evbuffer_get_length (buf) == 0
      && evbuffer_get_length (bufferevent_get_input (in->under)) > 0)
    event_active (in->more, EV_READ, 0);
}

/* evhttp added to its output: a reply begun before it enabled writing is
 * started on the loop's next turn (see http_intake). */
/* Past http.max_reply_bytes in all, the answers stalled longest are cut
 * (their sockets shut: evhttp ends them its usual way) until the rest fit:
 * a reader that stopped reading gives its memory up before any other
 * client is refused.  One that is reading is never cut. */
static void
reply_evict (sched_http_t *h)
{
  while (h->reply_bytes > h->ctx->cfg.max_reply_bytes)
    {
      http_intake_t *oldest = NULL;

      for (http_intake_t *in = h->intakes; in; in = in->next)
        if (in->held && !in->evicted && in->stalled_ms
            && (oldest == NULL || in->stalled_ms < oldest->stalled_ms))
          oldest = in;
      if (oldest == NULL)
        return;
      wb_warn ("an answer stalled for %llu ms cut with %llu bytes unsent: answers waiting held "
               "%llu bytes (http.max_reply_bytes)",
               (unsigned long long) (wb_now_ms () - oldest->stalled_ms),
               (unsigned long long) oldest->held, (unsigned long long) h->reply_bytes);
      h->reply_bytes -= oldest->held;
      oldest->held = 0;
      oldest->evicted = true;
      evutil_socket_t fd = bufferevent_getfd (oldest->under);
      if (fd >= 0)
        shutdown (fd, SHUT_RDWR);
      /* Its wake sees the socket fail, and drops the rest. */
      intake_wake (oldest, true);
    }
}

static void
intake_output_cb (struct evbuffer *buf, const struct evbuffer_cb_info *info, void *arg)
{
  http_intake_t *in = arg;

  if (in->h && !in->evicted)
    {
      in->h->reply_bytes += info->n_added;
      in->held += info->n_added;
      in->h->reply_bytes -= info->n_deleted;
      in->held -= info->n_deleted;
    }
  if (evbuffer_get_length (buf) == 0)
    in->stalled_ms = 0;
  if (info->n_added && evbuffer_get_length (buf) > 0)
    intake_wake (in, true);
  if (in->h && info->n_added && in->h->reply_bytes > in->h->ctx->cfg.max_reply_bytes)
    reply_evict (in->h);
}

/* ---- lingering close ------------------------------------------------- */

#define HTTP_LINGER_MAX 256 /* past it, a socket closes at once */

/* The one way a linger ends: its socket closed (its last reference). */
static void
linger_end (http_linger_t *l)
{
  WB_LIST_UNLINK (l->h->lingers, l);
  l->h->n_lingers--;
  event_free (l->timer);
  bufferevent_setcb (l->under, NULL, NULL, NULL, NULL);
  bufferevent_decref (l->under);
  free (l);
}

static void
linger_read_cb (struct bufferevent *under, void *arg)
{
  struct evbuffer *b = bufferevent_get_input (under);

  (void) arg;
  drop_wiped (b, evbuffer_get_length (b));
}

static void
linger_event_cb (struct bufferevent *under, short what, void *arg)
{
  (void) under;
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT))
    linger_end (arg);
}

static void
linger_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  linger_end (arg);
}

/* The filter goes while its client may still be sending what was being
 * dropped: under (freed with the filter) is kept for a while instead, its
 * write side shut (the answer is in the kernel already: intake_write). */
static void
linger_start (sched_http_t *h, struct bufferevent *under)
{
  static const struct timeval most = {HTTP_LINGER_MS / 1000, (HTTP_LINGER_MS % 1000) * 1000};
  evutil_socket_t fd = bufferevent_getfd (under);
  http_linger_t *l;

  if (fd < 0 || h->n_lingers >= HTTP_LINGER_MAX || (l = calloc (1, sizeof *l)) == NULL)
    return;
  if ((l->timer = evtimer_new (bufferevent_get_base (under), linger_timer_cb, l)) == NULL
      || evtimer_add (l->timer, &most) < 0)
    {
      if (l->timer)
        event_free (l->timer);
      free (l);
      return;
    }
  shutdown (fd, SHUT_WR);
  l->h = h;
  l->under = under;
  bufferevent_incref (under);
  drop_wiped (bufferevent_get_input (under), evbuffer_get_length (bufferevent_get_input (under)));
  bufferevent_setcb (under, linger_read_cb, NULL, linger_event_cb, l);
  bufferevent_enable (under, EV_READ);
  WB_LIST_PUSH (h->lingers, l);
  h->n_lingers++;
}

/* The filter's end (its free_context, when libevent finalizes it). */
static void
intake_free (void *arg)
{
  http_intake_t *in = arg;

  if (in->c)
    in->c->intake = NULL;
  if (in->h)
    {
      if (!in->evicted)
        in->h->reply_bytes -= in->held;
      WB_LIST_UNLINK (in->h->intakes, in);
      if (in->state == INTAKE_DROP_ALL || (in->state == INTAKE_BODY && !in->pass))
        linger_start (in->h, in->under);
    }
  if (in->out_cb)
    evbuffer_remove_cb_entry (bufferevent_get_output (in->bev), in->out_cb);
  if (in->in_cb)
    evbuffer_remove_cb_entry (bufferevent_get_input (in->bev), in->in_cb);
  if (in->wake)
    event_free (in->wake);
  if (in->retry)
    event_free (in->retry);
  if (in->more)
    event_free (in->more);
  free (in);
}

/* The bufferevent evhttp gets for a new connection: the intake filter
 * over under (taken: freed with it), and the connection's record.  NULL
 * without memory (evhttp then makes a plain one, whose requests route()
 * refuses). */
static struct bufferevent *
intake_wrap (sched_http_t *h, struct bufferevent *under)
{
  http_intake_t *in = calloc (1, sizeof *in);
  struct bufferevent *bev;

  if (in == NULL)
    {
      bufferevent_free (under);
      return NULL;
    }
  bev = bufferevent_filter_new (under, intake_read, intake_write, BEV_OPT_CLOSE_ON_FREE,
                                intake_free, in);
  if (bev == NULL)
    {
      free (in);
      bufferevent_free (under);
      return NULL;
    }
  in->h = h;
  in->bev = bev;
  in->under = under;
  /* The filter's callbacks on under, less its writer: nothing is ever
   * written to under's output (intake_write writes to the socket, and
   * wake watches it), and libevent's writer (be_filter_writecb) flushes
   * without a reference: when evhttp freed the connection in the write
   * callback it ran, the filter re-armed its write timeout after it was
   * cancelled for finalizing, and the freed filter stayed in the timer
   * heap (valgrind found it; event_base_free never returned). */
  bufferevent_event_cb under_event = NULL;
  bufferevent_getcb (under, &in->under_read, NULL, &under_event, &in->under_arg);
  bufferevent_setcb (under, in->under_read, NULL, under_event, in->under_arg);
  /* What waits unread in under: a head being read, or the heads after
   * the one evhttp has not taken yet (intake_step); the socket is not
   * read past it. */
  bufferevent_setwatermark (under, EV_READ, 0, HTTP_HEAD_MAX + 16 * 1024);
  WB_LIST_PUSH (h->intakes, in);
  struct event_base *base = bufferevent_get_base (bev);
  if ((in->out_cb = evbuffer_add_cb (bufferevent_get_output (bev), intake_output_cb, in)) == NULL
      || (in->in_cb = evbuffer_add_cb (bufferevent_get_input (bev), intake_input_cb, in)) == NULL
      || (in->retry = evtimer_new (base, intake_retry_cb, in)) == NULL
      || (in->more = event_new (base, -1, 0, intake_more_cb, in)) == NULL)
    {
      bufferevent_free (bev);
      return NULL;
    }
  if ((in->c = conn_track (h, bev)) != NULL)
    in->c->intake = in;
  return bev;
}

/* The TLS listeners' requests: only over TLS (see tls_bevcb). */
static void
route_tls (struct evhttp_request *req, void *arg)
{
  struct evhttp_connection *evcon = evhttp_request_get_connection (req);

  if (bev_ssl (evhttp_connection_get_bufferevent (evcon)) == NULL)
    {
      wb_err_t err;
      wb_error (&err, WB_E_INVALID, "this port speaks HTTPS: use https://");
      http_reply_error (req, &err, REPLY_V1);
      return;
    }
  route (req, arg);
}

/* ---- listeners ------------------------------------------------------- */

static int
listen_unix (sched_http_t *h, const char *path, wb_err_t *err)
{
  struct sockaddr_un sun;
  struct stat st;
  cleanup_free char *copy = NULL;
  int fd;

  if (strlen (path) >= sizeof sun.sun_path)
    return wb_error (err, WB_E_INVALID, "listen unix:%s: path too long", path);
  /* Copied first: a socket file bound is one we must be able to unlink. */
  if ((copy = strdup (path)) == NULL)
    return wb_error (err, WB_E_NOMEM, "listen unix:%s: out of memory", path);
  /* Replace a stale socket left by a dead daemon, never any other file. */
  if (lstat (path, &st) == 0)
    {
      if (!S_ISSOCK (st.st_mode))
        return wb_error (err, WB_E_INVALID, "listen unix:%s: exists and is not a socket", path);
      unlink (path);
    }
  fd = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return wb_error_errno (err, WB_E_IO, errno, "listen unix:%s: socket", path);
  memset (&sun, 0, sizeof sun);
  sun.sun_family = AF_UNIX;
  memcpy (sun.sun_path, path, strlen (path) + 1);
  /* 0660: the owner and its group may call the API; nobody else. */
  mode_t old = umask (0117);
  int rc = bind (fd, (struct sockaddr *) &sun, sizeof sun);
  umask (old);
  if (rc < 0 || listen (fd, 128) < 0)
    {
      int e = errno;
      close (fd);
      return wb_error_errno (err, WB_E_IO, e, "listen unix:%s", path);
    }
  if ((h->bound[h->n_bound] = evhttp_accept_socket_with_handle (h->http, fd)) == NULL)
    {
      close (fd);
      return wb_error (err, WB_E_IO, "listen unix:%s: evhttp refused the socket", path);
    }
  h->unix_path[h->n_bound] = copy;
  copy = NULL;
  if (stat (path, &st) == 0)
    h->unix_ino[h->n_bound] = st.st_ino;
  h->n_bound++;
  wb_info ("listening on unix:%s", path);
  return 0;
}

static bool
host_is_loopback (const char *host)
{
  struct in_addr a4;
  struct in6_addr a6;

  if (strcmp (host, "localhost") == 0)
    return true;
  if (inet_pton (AF_INET, host, &a4) == 1)
    return (ntohl (a4.s_addr) >> 24) == 127;
  if (inet_pton (AF_INET6, host, &a6) == 1)
    return IN6_IS_ADDR_LOOPBACK (&a6);
  return false;
}

static int
bind_tcp (sched_http_t *h, const char *host, long port, bool tls)
{
  h->bound[h->n_bound]
      = evhttp_bind_socket_with_handle (tls ? h->https : h->http, host, (ev_uint16_t) port);
  if (h->bound[h->n_bound] == NULL)
    return -1;
  h->bound_tls[h->n_bound] = tls;
  h->n_bound++;
  return 0;
}

/* ---- TLS ----------------------------------------------------------------- */

/* OpenSSL's reasons, queued, as one line into err; -1. */
static int
tls_error (wb_err_t *err, const char *what)
{
  char reason[256] = "";
  unsigned long e = ERR_peek_last_error ();

  if (e)
    ERR_error_string_n (e, reason, sizeof reason);
  ERR_clear_error ();
  return wb_error (err, WB_E_INVALID, "tls: %s%s%s", what, *reason ? ": " : "", reason);
}

/* A server context from the config's tls.cert, tls.key and tls.client_ca:
 * TLS 1.2 and 1.3 only, forward-secret AEAD suites, no compression or
 * renegotiation; with client_ca, a client certificate chaining to it is
 * required.  NULL with err (the file and OpenSSL's reason). */
static SSL_CTX *
tls_context (const api_config_t *cfg, wb_err_t *err)
{
  SSL_CTX *c;

  if (cfg->tls_cert == NULL || cfg->tls_key == NULL)
    {
      wb_error (err, WB_E_INVALID,
                "an https:// listener needs \"tls\": {\"cert\", \"key\"} in the config");
      return NULL;
    }
  if ((c = SSL_CTX_new (TLS_server_method ())) == NULL)
    {
      tls_error (err, "cannot make a context");
      return NULL;
    }
  SSL_CTX_set_min_proto_version (c, TLS1_2_VERSION);
  /* Without it OpenSSL refuses every resumed session once client
   * certificates are verified ("session id context uninitialized"). */
  SSL_CTX_set_session_id_context (c, (const unsigned char *) "warmboxd", 8);
  SSL_CTX_set_options (c, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION
                              | SSL_OP_CIPHER_SERVER_PREFERENCE);
  if (SSL_CTX_set_cipher_list (c, "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                                  "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                                  "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305")
      != 1)
    {
      tls_error (err, "cipher list");
      goto fail;
    }
  if (SSL_CTX_use_certificate_chain_file (c, cfg->tls_cert) != 1)
    {
      char what[600];
      snprintf (what, sizeof what, "certificate %.500s", cfg->tls_cert);
      tls_error (err, what);
      goto fail;
    }
  if (SSL_CTX_use_PrivateKey_file (c, cfg->tls_key, SSL_FILETYPE_PEM) != 1
      || SSL_CTX_check_private_key (c) != 1)
    {
      char what[600];
      snprintf (what, sizeof what, "key %.500s (or it does not match the certificate)",
                cfg->tls_key);
      tls_error (err, what);
      goto fail;
    }
  if (cfg->tls_client_ca)
    {
      STACK_OF (X509_NAME) *names = SSL_load_client_CA_file (cfg->tls_client_ca);
      if (names == NULL || SSL_CTX_load_verify_locations (c, cfg->tls_client_ca, NULL) != 1)
        {
          char what[600];
          if (names)
            sk_X509_NAME_pop_free (names, X509_NAME_free);
          snprintf (what, sizeof what, "client CA %.500s", cfg->tls_client_ca);
          tls_error (err, what);
          goto fail;
        }
      SSL_CTX_set_client_CA_list (c, names);
      SSL_CTX_set_verify (c, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
    }
  SSL_CTX_set_info_callback (c, tls_info_cb);
  return c;
fail:
  SSL_CTX_free (c);
  return NULL;
}

/* Each TLS connection: an OpenSSL bufferevent that accepts the handshake
 * (evhttp sets its socket).  On failure evhttp would fall back to a plain
 * bufferevent: route_tls refuses what arrives on such a connection. */
static struct bufferevent *
tls_bevcb (struct event_base *base, void *arg)
{
  sched_http_t *h = arg;
  SSL *ssl = SSL_new (h->ssl_ctx);
  struct bufferevent *bev;

  if (ssl == NULL)
    return NULL;
  /* The intake filter writes with SSL_write itself (intake_write). */
  SSL_set_mode (ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
  bev = bufferevent_openssl_socket_new (base, -1, ssl, BUFFEREVENT_SSL_ACCEPTING,
                                        BEV_OPT_CLOSE_ON_FREE);
  if (bev == NULL)
    {
      SSL_free (ssl);
      return NULL;
    }
  return intake_wrap (h, bev);
}

/* Each plain connection: the bufferevent evhttp would make itself, recorded. */
static struct bufferevent *
plain_bevcb (struct event_base *base, void *arg)
{
  struct bufferevent *bev = bufferevent_socket_new (base, -1, BEV_OPT_CLOSE_ON_FREE);

  return bev ? intake_wrap (arg, bev) : NULL;
}

/* A plain HTTP request on a TLS port: OpenSSL stops the handshake at its
 * first bytes ("GET ", "POST ", ...; SSL_R_HTTP_REQUEST).  Without an
 * answer the client would see only a closed connection, so it gets a
 * plain HTTP 400 that says what to do, written straight to the socket
 * (nothing else is ever written there); then evhttp closes it. */
static void
tls_info_cb (const SSL *ssl, int where, int ret)
{
  static const char body[] = "{\"error\":{\"code\":\"invalid_request\",\"message\":"
                             "\"this port speaks HTTPS: use https://\"}}\n";
  char reply[320];
  unsigned long e;
  int fd, n;

  if (where != SSL_CB_ACCEPT_EXIT || ret > 0 || SSL_get_state (ssl) != TLS_ST_BEFORE)
    return;
  e = ERR_peek_last_error ();
  if (ERR_GET_LIB (e) != ERR_LIB_SSL
      || (ERR_GET_REASON (e) != SSL_R_HTTP_REQUEST
          && ERR_GET_REASON (e) != SSL_R_HTTPS_PROXY_REQUEST))
    return;
  if ((fd = SSL_get_fd (ssl)) < 0)
    return;
  n = snprintf (reply, sizeof reply,
                "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n"
                "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
                sizeof body - 1, body);
  if (send (fd, reply, (size_t) n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
    wb_debug ("plain HTTP on a TLS port: the reply could not be sent: %s", strerror (errno));
}

/* The TLS session of a connection's bufferevent (the intake filter's,
 * over OpenSSL's), or NULL. */
static SSL *
bev_ssl (struct bufferevent *bev)
{
  struct bufferevent *under = bev ? bufferevent_get_underlying (bev) : NULL;

  return bev ? bufferevent_openssl_get_ssl (under ? under : bev) : NULL;
}

/* The common name of a verified client certificate, as UTF-8, into name;
 * false when there is none (no client CA configured, not TLS), or it is
 * not one plain name that fits: several CNs, a NUL, SIZE bytes or more.
 * Never truncated: a long name must not become a shorter one (a token's). */
static bool
client_cert_name (const sched_http_t *h, SSL *tls, char *name, size_t size)
{
  SSL *ssl = h->verify_clients ? tls : NULL;
  X509 *peer;
  X509_NAME *subject;
  X509_NAME_ENTRY *entry;
  unsigned char *utf8 = NULL;
  int at, n = -1;
  bool good = false;

  if (ssl == NULL || SSL_get_verify_result (ssl) != X509_V_OK
      || (peer = SSL_get1_peer_certificate (ssl)) == NULL)
    return false;
  subject = X509_get_subject_name (peer);
  at = X509_NAME_get_index_by_NID (subject, NID_commonName, -1);
  if (at >= 0 && X509_NAME_get_index_by_NID (subject, NID_commonName, at) < 0
      && (entry = X509_NAME_get_entry (subject, at)) != NULL)
    n = ASN1_STRING_to_UTF8 (&utf8, X509_NAME_ENTRY_get_data (entry));
  if (n > 0 && (size_t) n < size && memchr (utf8, '\0', (size_t) n) == NULL)
    {
      memcpy (name, utf8, (size_t) n);
      name[n] = '\0';
      good = true;
    }
  OPENSSL_free (utf8);
  X509_free (peer);
  return good;
}

static int
listen_tcp (sched_http_t *h, const char *addr, bool tls, wb_err_t *err)
{
  char host[256];
  const char *colon = strrchr (addr, ':');
  long port;
  char *end;
  const char *scheme = tls ? "https" : "http";

  if (colon == NULL || (size_t) (colon - addr) >= sizeof host || colon == addr)
    return wb_error (err, WB_E_INVALID, "listen %s: use unix:/path, host:port or https://host:port",
                     addr);
  memcpy (host, addr, (size_t) (colon - addr));
  host[colon - addr] = '\0';
  if (host[0] == '[' && host[strlen (host) - 1] == ']')
    {
      memmove (host, host + 1, strlen (host));
      host[strlen (host) - 1] = '\0';
    }
  port = strtol (colon + 1, &end, 10);
  if (*end != '\0' || port < 1 || port > 65535)
    return wb_error (err, WB_E_INVALID, "listen %s: bad port", addr);
  /* Without tokens (or, over TLS, client certificates) a TCP listener would
   * hand a sandbox to anyone who can reach the port: allowed only when asked
   * for, and only on loopback. */
  if (h->ctx->cfg.n_tokens > 0 || (tls && h->verify_clients))
    {
      if (bind_tcp (h, host, port, tls) < 0)
        return wb_error_errno (err, WB_E_IO, errno, "listen %s", addr);
      wb_info (
          "listening on %s://%s (%s required)", scheme, addr,
          tls && h->verify_clients
              ? (h->ctx->cfg.n_tokens ? "client certificates or API tokens" : "client certificates")
              : "API tokens");
      return 0;
    }
  if (!h->ctx->cfg.insecure_no_auth)
    return wb_error (err, WB_E_INVALID,
                     "listen %s: a TCP listener needs API tokens%s; pass --insecure-no-auth to run "
                     "one without (loopback only)",
                     addr, tls ? " or client certificates (tls.client_ca)" : "");
  if (!host_is_loopback (host))
    return wb_error (err, WB_E_INVALID,
                     "listen %s: --insecure-no-auth allows loopback addresses only", addr);
  if (bind_tcp (h, host, port, tls) < 0)
    return wb_error_errno (err, WB_E_IO, errno, "listen %s", addr);
  wb_info ("listening on %s://%s (no authentication)", scheme, addr);
  return 0;
}

/* The evhttp settings both instances share. */
static struct evhttp *
new_evhttp (api_ctx_t *ctx, void (*cb) (struct evhttp_request *, void *), void *arg)
{
  struct evhttp *e = evhttp_new (ctx->base);

  if (e == NULL)
    return NULL;
  evhttp_set_max_body_size (e, (ev_ssize_t) ctx->cfg.max_body_bytes);
  /* The intake filter's cap (head.h), and room for the lines it adds. */
  evhttp_set_max_headers_size (e, HTTP_HEAD_MAX + 1024);
  evhttp_set_timeout (e, 120);
  evhttp_set_allowed_methods (e, EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_HEAD
                                     | EVHTTP_REQ_DELETE | EVHTTP_REQ_OPTIONS);
  evhttp_set_gencb (e, cb, arg);
  return e;
}

int
sched_http_start (api_ctx_t *ctx, sched_http_t **out, wb_err_t *err)
{
  sched_http_t *h = calloc (1, sizeof *h);
  bool any_tls = false;

  if (h == NULL || (h->ctx = ctx, h->http = new_evhttp (ctx, route, h)) == NULL
      || (h->sweep = event_new (ctx->base, -1, EV_PERSIST, sweep_cb, h)) == NULL)
    {
      sched_http_free (h);
      return wb_error (err, WB_E_NOMEM, "evhttp_new failed");
    }
  struct timeval every = {0, SWEEP_MS * 1000};
  if (event_add (h->sweep, &every) < 0)
    {
      sched_http_free (h);
      return wb_error (err, WB_E_NOMEM, "cannot arm the connections' sweep");
    }
  evhttp_set_bevcb (h->http, plain_bevcb, h);
  for (size_t i = 0; i < ctx->cfg.n_listen; i++)
    any_tls = any_tls || strncmp (ctx->cfg.listen[i], "https://", 8) == 0;
  if (any_tls)
    {
      if ((h->ssl_ctx = tls_context (&ctx->cfg, err)) == NULL)
        {
          sched_http_free (h);
          return -1;
        }
      h->verify_clients = ctx->cfg.tls_client_ca != NULL;
      if ((h->https = new_evhttp (ctx, route_tls, h)) == NULL)
        {
          sched_http_free (h);
          return wb_error (err, WB_E_NOMEM, "evhttp_new failed");
        }
      evhttp_set_bevcb (h->https, tls_bevcb, h);
    }
  for (size_t i = 0; i < ctx->cfg.n_listen; i++)
    {
      const char *a = ctx->cfg.listen[i];
      int rc = strncmp (a, "unix:", 5) == 0      ? listen_unix (h, a + 5, err)
               : strncmp (a, "https://", 8) == 0 ? listen_tcp (h, a + 8, true, err)
               : strncmp (a, "http://", 7) == 0  ? listen_tcp (h, a + 7, false, err)
                                                 : listen_tcp (h, a, false, err);
      if (rc < 0)
        {
          sched_http_free (h);
          return -1;
        }
    }
  *out = h;
  return 0;
}

int
sched_http_tls_prepare (sched_http_t *h, const api_config_t *cfg, wb_err_t *err)
{
  if (h == NULL || h->ssl_ctx == NULL)
    return 0;
  sched_http_tls_abandon (h);
  if ((cfg->tls_client_ca != NULL) != h->verify_clients)
    return wb_error (err, WB_E_INVALID,
                     "tls.client_ca can't be added or removed by a reload; restart "
                     "to do that");
  return (h->ssl_pending = tls_context (cfg, err)) ? 0 : -1;
}

void
sched_http_tls_commit (sched_http_t *h)
{
  if (h == NULL || h->ssl_pending == NULL)
    return;
  SSL_CTX_free (h->ssl_ctx);
  h->ssl_ctx = h->ssl_pending;
  h->ssl_pending = NULL;
}

void
sched_http_tls_abandon (sched_http_t *h)
{
  if (h && h->ssl_pending)
    {
      SSL_CTX_free (h->ssl_pending);
      h->ssl_pending = NULL;
    }
}

int
sched_http_check_tls (const api_config_t *cfg, wb_err_t *err)
{
  SSL_CTX *c;

  for (size_t i = 0; i < cfg->n_listen; i++)
    if (strncmp (cfg->listen[i], "https://", 8) == 0)
      {
        if ((c = tls_context (cfg, err)) == NULL)
          return -1;
        SSL_CTX_free (c);
        return 0;
      }
  return 0;
}

/* Unlink our socket file, unless it is gone or another daemon has bound
 * the path since. */
static void
unlink_ours (sched_http_t *h, size_t i)
{
  struct stat st;

  if (h->unix_path[i] && h->unix_ino[i] && stat (h->unix_path[i], &st) == 0
      && st.st_ino == h->unix_ino[i] && S_ISSOCK (st.st_mode))
    unlink (h->unix_path[i]);
  h->unix_ino[i] = 0;
}

void
sched_http_stop_accepting (sched_http_t *h)
{
  if (h == NULL)
    return;
  for (size_t i = 0; i < h->n_bound; i++)
    {
      if (h->unix_path[i])
        {
          /* Unlinked, the socket takes no new connections (connect fails
           * at once), while those already queued are still accepted and
           * answered until sched_http_free closes it. */
          unlink_ours (h, i);
          continue;
        }
      if (h->bound[i])
        evhttp_del_accept_socket (h->bound_tls[i] ? h->https : h->http, h->bound[i]);
      h->bound[i] = NULL;
    }
}

void
sched_http_free (sched_http_t *h)
{
  if (h == NULL)
    return;
  if (h->sweep)
    event_free (h->sweep);
  /* The filters are finalized after h is gone: they forget it. */
  for (http_intake_t *in = h->intakes; in; in = in->next)
    in->h = NULL;
  h->intakes = NULL;
  while (h->lingers)
    linger_end (h->lingers);
  /* Freeing each evhttp closes its connections: their records go through
   * conn_closed_cb; those that never had a request are left to drop. */
  if (h->http)
    evhttp_free (h->http);
  if (h->https)
    evhttp_free (h->https);
  while (h->conns)
    {
      http_conn_t *c = h->conns;
      h->conns = c->next;
      conn_free (c);
    }
  if (h->ssl_ctx)
    SSL_CTX_free (h->ssl_ctx);
  sched_http_tls_abandon (h);
  for (size_t i = 0; i < h->n_bound; i++)
    {
      unlink_ours (h, i);
      free (h->unix_path[i]);
    }
  free (h);
}
