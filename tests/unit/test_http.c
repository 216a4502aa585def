/* The HTTP API's routing and credentials (api/http.c, api/auth.c).
 *
 * First the pure parts: the route table and its lookup (api/route.h), and
 * the credential decision (sched_auth_decide), over every case.  Then
 * whole requests: a daemon context on the fake engine, its listener a
 * Unix socket in a private temporary folder, and a raw HTTP client on the
 * same event base (so the test sends exactly the bytes it means: wrong
 * methods, odd headers, bodies past the caps).  Each answer is checked
 * for its status, its JSON error body and the code in it. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <poll.h>
#include <stdlib.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "api/e2b.h"
#include "api/http.h"
#include "api/route.h"
#include "daemon/daemon.h"
#include "failmalloc.h"
#include "fake_engine.h"
#include "nodes/nodes_int.h"
#include "tap.h"

/* ---- the route table ---------------------------------------------------- */

static void
test_table (void)
{
  static const struct
  {
    const char *path;
    uint16_t methods;
    bool open, piston, says_method, prefix;
  } want[] = {
      {"/v1/executions", EVHTTP_REQ_POST, false, false, true, false},
      {"/api/v2/execute", EVHTTP_REQ_POST, false, true, true, false},
      {"/api/v2/runtimes", EVHTTP_REQ_GET, false, true, false, false},
      {"/v1/languages", EVHTTP_REQ_GET, false, false, false, false},
      {"/healthz", EVHTTP_REQ_GET, true, false, false, false},
      {"/readyz", EVHTTP_REQ_GET, true, false, false, false},
      {"/v1/pools", EVHTTP_REQ_GET, false, false, false, false},
      {"/v1/engines", EVHTTP_REQ_GET, false, false, false, false},
      {"/metrics", EVHTTP_REQ_GET, false, false, false, false},
      {"/v1/sessions", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, true, false},
      {"/v1/sessions/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, true,
       true},
      /* E2B's control plane (X-API-Key), then its sandbox plane (open to
       * route(): the handlers check the sandbox's access token). */
      {"/v2/sandboxes", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, false, false},
      {"/v2/sandboxes/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
       true},
      {"/sandboxes", EVHTTP_REQ_GET | EVHTTP_REQ_POST, false, false, false, false},
      {"/sandboxes/", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
       true},
      {"/snapshots", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
       true},
      {"/templates", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false,
       true},
      {"/volumes", EVHTTP_REQ_GET | EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, false, false, false, true},
      {"/execute", EVHTTP_REQ_POST, true, false, false, false},
      {"/contexts", EVHTTP_REQ_GET | EVHTTP_REQ_POST, true, false, false, false},
      {"/contexts/", EVHTTP_REQ_POST | EVHTTP_REQ_DELETE, true, false, false, true},
      {"/health", EVHTTP_REQ_GET, true, false, false, false},
      {"/envs", EVHTTP_REQ_GET, true, false, false, false},
      {"/files", EVHTTP_REQ_GET | EVHTTP_REQ_POST, true, false, false, false},
      {"/filesystem.Filesystem/", EVHTTP_REQ_POST, true, false, false, true},
      {"/process.Process/", EVHTTP_REQ_POST, true, false, false, true},
  };
  size_t n, opens = 0;
  const http_route_t *t = http_routes (&n);

  is_int (n, WB_ARRAY_SIZE (want), "the table has the %zu documented endpoints",
          WB_ARRAY_SIZE (want));
  for (size_t i = 0; i < WB_ARRAY_SIZE (want); i++)
    {
      const http_route_t *r = http_route_find (want[i].path);
      ok (r && r->methods == want[i].methods && r->open == want[i].open
              && r->piston == want[i].piston && r->says_method == want[i].says_method
              && r->prefix == want[i].prefix && r->handler != NULL,
          "%s: found, its method, open %d, piston %d, says its method %d", want[i].path,
          want[i].open, want[i].piston, want[i].says_method);
    }
  for (size_t i = 0; i < n; i++)
    {
      bool unique = true;
      for (size_t k = 0; k < i; k++)
        unique = unique && strcmp (t[k].path, t[i].path) != 0;
      opens += t[i].open;
      /* Open means a probe, or the E2B sandbox plane (its own check). */
      ok (!t[i].open || t[i].e2b == E2B_ROUTE_SANDBOX || strncmp (t[i].path, "/healthz", 8) == 0
              || strcmp (t[i].path, "/readyz") == 0,
          "row %zu (%s): open only as a probe or the E2B sandbox plane", i, t[i].path);
      ok (unique && t[i].path[0] == '/' && t[i].piston == http_path_is_piston (t[i].path)
              && (!t[i].says_method || (t[i].methods & EVHTTP_REQ_POST)),
          "row %zu (%s): one row per path, Piston's shape exactly under /api/, only routes that "
          "serve POST say their method",
          i, t[i].path);
    }
  is_int (opens, 10, "open: the two probes and the E2B sandbox plane's 8 routes");

  static const char *const unknown[] = {
      "/",
      "",
      "/v1",
      "/v1/",
      "/v1/executions/",
      "/V1/pools",
      "/healthz/",
      "/healthzz",
      "/api/v2",
      "/api/v2/",
      "/api/v2/executes",
      "/metrics/x",
      "v1/pools",
      "/v1/pools?x=1",
  };
  for (size_t i = 0; i < WB_ARRAY_SIZE (unknown); i++)
    ok (http_route_find (unknown[i]) == NULL, "\"%s\" is no route (paths match whole)", unknown[i]);
  /* The one prefix: a session's paths, and nothing else beginning so. */
  const http_route_t *sr = http_route_find ("/v1/sessions/ses_x/executions");
  ok (sr && sr->prefix && http_route_find ("/v1/sessions/") == sr
          && http_route_find ("/v1/sessionsx") == NULL && http_route_find ("/v1/session") == NULL
          && http_route_find ("/v1/sessions")->prefix == false,
      "/v1/sessions/ is a prefix (a session's id follows); /v1/sessions is whole");
  ok (http_path_is_piston ("/api/") && http_path_is_piston ("/api/v9/x")
          && !http_path_is_piston ("/api") && !http_path_is_piston ("/v1/executions"),
      "Piston's error shape: any path under /api/");
}

/* ---- the credential decision ------------------------------------------ */

static int
decide (const sched_config_t *cfg, bool open, bool cert_required, const char *cert_name,
        const char *authorization, const sched_token_t **token, size_t *index, wb_err_t *err)
{
  sched_caller_t c = {open, cert_required, cert_name, authorization};

  api_config_t view;

  sched_config_api (cfg, &view);
  *token = (const sched_token_t *) (uintptr_t) 1; /* must be set either way */
  memset (err, 0, sizeof *err);
  return sched_auth_decide (&view, &c, token, index, err);
}

static void
test_decide (void)
{
  sched_config_t none, two;
  const sched_token_t *t;
  size_t i = 99;
  wb_err_t err;
  char hex[65];

  must (sched_config_defaults (&none, &err));
  must (sched_config_defaults (&two, &err));
  wb_sha256_hex ("alice-secret", 12, hex);
  must (sched_token_add (&two, "alice", hex, 10, 10, 4, &err));
  wb_sha256_hex ("bob-secret", 10, hex);
  must (sched_token_add (&two, "bob", hex, 10, 10, 4, &err));

  /* Without tokens. */
  ok (decide (&none, false, false, NULL, NULL, &t, &i, &err) == 0 && t == NULL,
      "no tokens: served as nobody");
  ok (decide (&none, false, false, NULL, "Bearer whatever", &t, &i, &err) == 0 && t == NULL,
      "no tokens: a bearer token is ignored");
  ok (decide (&none, false, true, "client-7", NULL, &t, &i, &err) == 0 && t == NULL,
      "no tokens, certificates required: a certificate with a usable name is served");
  ok (decide (&none, false, true, NULL, NULL, &t, &i, &err) < 0 && err.code == WB_E_UNAUTHORIZED
          && strstr (err.msg, "common name") && t == NULL,
      "no tokens, certificates required: one with no usable name is refused (401), not served "
      "anonymously");
  ok (decide (&none, true, true, NULL, NULL, &t, &i, &err) == 0 && t == NULL,
      "... but it may call the probes");

  /* With tokens. */
  ok (decide (&two, true, false, NULL, NULL, &t, &i, &err) == 0 && t == NULL,
      "tokens: the probes need none");
  ok (decide (&two, true, false, NULL, "Bearer wrong", &t, &i, &err) == 0 && t == NULL,
      "tokens: the probes ignore a wrong one");
  ok (decide (&two, false, false, NULL, NULL, &t, &i, &err) < 0 && err.code == WB_E_UNAUTHORIZED
          && strstr (err.msg, "Bearer") && t == NULL,
      "tokens: none sent is refused (401)");
  ok (decide (&two, false, false, NULL, "Bearer wrong", &t, &i, &err) < 0
          && err.code == WB_E_UNAUTHORIZED && strstr (err.msg, "not valid"),
      "tokens: a wrong one is refused (401)");
  ok (decide (&two, false, false, NULL, "Basic YWxpY2U6eA==", &t, &i, &err) < 0
          && err.code == WB_E_UNAUTHORIZED,
      "tokens: another scheme is refused");
  ok (decide (&two, false, false, NULL, "Bearer alice-secret", &t, &i, &err) == 0
          && t == &two.tokens[0] && i == 0,
      "tokens: the right one is its token (hashed, compared)");
  ok (decide (&two, false, false, NULL, "bearer  bob-secret", &t, &i, &err) == 0
          && t == &two.tokens[1] && i == 1,
      "tokens: the second, the scheme in lower case, two spaces");
  ok (decide (&two, false, true, "bob", NULL, &t, &i, &err) == 0 && t == &two.tokens[1] && i == 1,
      "tokens: a certificate named as a token stands for it");
  ok (decide (&two, false, true, "carol", NULL, &t, &i, &err) < 0 && err.code == WB_E_UNAUTHORIZED,
      "tokens: a certificate naming no token needs a bearer token");
  ok (decide (&two, false, true, "carol", "Bearer alice-secret", &t, &i, &err) == 0
          && t == &two.tokens[0],
      "... which it may send");
  ok (decide (&two, false, true, NULL, "Bearer alice-secret", &t, &i, &err) == 0
          && t == &two.tokens[0],
      "tokens, certificates required: no usable name but a right bearer token is served");
  sched_config_clear (&none);
  sched_config_clear (&two);
}

/* ---- whole requests ------------------------------------------------------ */

static char dir[64];
static sched_ctx_t ctx;
static sched_http_t *http;
static prof_set_t *profiles;
static char sock_path[100];

typedef bool (*pred_t) (void *arg);

/* Run the loop until pred holds; false when the loop has nothing left to
 * wait for, or after a great many passes (a hang, not a slow machine: each
 * pass waits for an event). */
static bool
run_until (pred_t pred, void *arg)
{
  for (long pass = 0; !pred (arg); pass++)
    if (pass > 2000000 || event_base_loop (ctx.base, EVLOOP_ONCE) != 0)
      return false;
  return true;
}

typedef struct reply
{
  int status;
  char head[4096]; /* the status line and the headers, NUL-terminated */
  char *body;      /* malloc'd, NUL-terminated */
  size_t body_len;
  bool done;
  struct bufferevent *bev;
  struct evbuffer *in;
} reply_t;

static void
client_event_cb (struct bufferevent *bev, short what, void *arg)
{
  reply_t *r = arg;

  (void) bev;
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
    r->done = true;
}

static void
client_read_cb (struct bufferevent *bev, void *arg)
{
  reply_t *r = arg;
  evbuffer_add_buffer (r->in, bufferevent_get_input (bev));
}

static bool
reply_done (void *arg)
{
  return ((reply_t *) arg)->done;
}

static void
reply_clear (reply_t *r)
{
  free (r->body);
  memset (r, 0, sizeof *r);
}

/* A header of r's (the name matched case-blind), into out; false when none. */
static bool
header (const reply_t *r, const char *name, char *out, size_t size)
{
  size_t n = strlen (name);

  for (const char *p = strstr (r->head, "\r\n"); p && p[2]; p = strstr (p + 2, "\r\n"))
    if (strncasecmp (p + 2, name, n) == 0 && p[2 + n] == ':')
      {
        const char *v = p + 3 + n, *end;
        while (*v == ' ')
          v++;
        end = strstr (v, "\r\n");
        snprintf (out, size, "%.*s", (int) (end ? end - v : (long) strlen (v)), v);
        return true;
      }
  return false;
}

/* One request on a new connection ("Connection: close": the reply ends at
 * EOF).  extra: more header lines ("Name: value\r\n...") or NULL.  The
 * body is sent with a Content-Length of content_length when that is not
 * -1, else of its own length.  0, or -1 when there was no reply. */
static int
request (const char *method, const char *path, const char *extra, const char *body, size_t body_len,
         long long content_length, reply_t *r)
{
  struct sockaddr_un sun = {.sun_family = AF_UNIX};
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  char *text;
  size_t len;

  memset (r, 0, sizeof *r);
  memcpy (sun.sun_path, sock_path, sizeof sock_path);
  if (fd < 0 || connect (fd, (struct sockaddr *) &sun, sizeof sun) < 0
      || evutil_make_socket_nonblocking (fd) < 0)
    {
      if (fd >= 0)
        close (fd);
      return -1;
    }
  r->in = evbuffer_new ();
  r->bev = bufferevent_socket_new (ctx.base, fd, BEV_OPT_CLOSE_ON_FREE);
  bufferevent_setcb (r->bev, client_read_cb, NULL, client_event_cb, r);
  bufferevent_enable (r->bev, EV_READ | EV_WRITE);
  evbuffer_add_printf (bufferevent_get_output (r->bev),
                       "%s %s HTTP/1.1\r\nHost: warmbox\r\nConnection: close\r\n%s", method, path,
                       extra ? extra : "");
  if (body || content_length >= 0)
    evbuffer_add_printf (bufferevent_get_output (r->bev),
                         "Content-Type: application/json\r\nContent-Length: %lld\r\n",
                         content_length >= 0 ? content_length : (long long) body_len);
  evbuffer_add (bufferevent_get_output (r->bev), "\r\n", 2);
  if (body)
    evbuffer_add (bufferevent_get_output (r->bev), body, body_len);
  run_until (reply_done, r);
  evbuffer_add_buffer (r->in, bufferevent_get_input (r->bev));
  bufferevent_free (r->bev);
  r->bev = NULL;

  len = evbuffer_get_length (r->in);
  text = calloc (1, len + 1);
  evbuffer_remove (r->in, text, len);
  evbuffer_free (r->in);
  r->in = NULL;
  const char *end = strstr (text, "\r\n\r\n");
  if (end == NULL || sscanf (text, "HTTP/1.%*d %d", &r->status) != 1)
    {
      free (text);
      return -1;
    }
  snprintf (r->head, sizeof r->head, "%.*s", (int) (end + 2 - text), text);
  r->body_len = len - (size_t) (end + 4 - text);
  r->body = strndup (end + 4, r->body_len);
  free (text);
  return 0;
}

static int
get (const char *path, const char *authorization, reply_t *r)
{
  char extra[256] = "";

  if (authorization)
    snprintf (extra, sizeof extra, "Authorization: %s\r\n", authorization);
  return request ("GET", path, extra, NULL, 0, -1, r);
}

static int
post (const char *path, const char *authorization, const char *body, reply_t *r)
{
  char extra[256] = "";

  if (authorization)
    snprintf (extra, sizeof extra, "Authorization: %s\r\n", authorization);
  return request ("POST", path, extra, body, strlen (body), -1, r);
}

/* r is JSON: /v1's error shape with code (piston false), or Piston's
 * {"message"} (piston true). */
static bool
json_error (const reply_t *r, const char *code, bool piston)
{
  cJSON *j = cJSON_Parse (r->body);
  char type[64];
  bool good;

  if (piston)
    good = cJSON_IsString (cJSON_GetObjectItemCaseSensitive (j, "message"))
           && cJSON_GetArraySize (j) == 1;
  else
    {
      cJSON *e = cJSON_GetObjectItemCaseSensitive (j, "error");
      good = cJSON_IsString (cJSON_GetObjectItemCaseSensitive (e, "message"))
             && strcmp (cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (e, "code")) ?: "",
                        code)
                    == 0;
    }
  good = good && header (r, "Content-Type", type, sizeof type)
         && strcmp (type, "application/json") == 0;
  if (!good)
    printf ("#   status %d, body: %s\n", r->status, r->body ? r->body : "(none)");
  cJSON_Delete (j);
  return good;
}

/* r's status is want and its body an error of code in the shape asked. */
static void
is_error (const reply_t *r, int want, const char *code, bool piston, const char *what)
{
  ok (r->status == want && json_error (r, code, piston), "%s: %d %s%s", what, want, code,
      piston ? " (Piston's shape)" : "");
}

static bool
images_resolved (void *arg)
{
  (void) arg;
  for (size_t i = 0; i < ctx.profiles->n; i++)
    if (ctx.nodes->image_ids[i] == NULL || ctx.nodes->nodes[0].image_ids[i] == NULL)
      return false;
  return true;
}

static bool
pools_ready (void *arg)
{
  (void) arg;
  return pool_mgr_ready (ctx.nodes->nodes[0].pools);
}

static bool
no_execs (void *arg)
{
  (void) arg;
  return sched_exec_count (ctx.execs) == 0;
}

/* A daemon on the fake engine with the shipped profiles, listening on
 * a Unix socket in dir.  extra: more config keys ("\"k\":v,...") or "". */
static bool
setup (const char *extra)
{
  static int serial;
  char cfg[2048], store[300];
  wb_err_t err;

  memset (&ctx, 0, sizeof ctx);
  snprintf (sock_path, sizeof sock_path, "%s/api-%d.sock", dir, ++serial);
  snprintf (store, sizeof store, "%s/history-%d.db", dir, serial);
  snprintf (cfg, sizeof cfg,
            "{%s%s\"listen\":[\"unix:%s\"],\"max_body_bytes\":4194304,"
            "\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1}}}",
            extra, *extra ? "," : "", sock_path);
  ctx.base = event_base_new ();
  if (ctx.base == NULL || sched_config_defaults (&ctx.cfg, &err) < 0
      || sched_config_parse (&ctx.cfg, cfg, strlen (cfg), &err) < 0)
    {
      printf ("# setup: %s\n", err.msg);
      return false;
    }
  free (ctx.cfg.store_path);
  ctx.cfg.store_path = strdup (store);
  ctx.profiles = profiles;
  fake_engine_config_reset ();
  fake_engine_config.images = fake_shipped_images;
  fake_engine_config.n_images = fake_n_shipped_images;
  if (sched_ctx_init (&ctx, &err) < 0 || sched_http_start (&ctx.api, &http, &err) < 0)
    {
      printf ("# setup: %s\n", err.msg);
      return false;
    }
  nodes_ping (ctx.nodes);
  if (!run_until (images_resolved, NULL) || !run_until (pools_ready, NULL))
    {
      printf ("# setup: the image or the pool never came\n");
      return false;
    }
  return true;
}

static void
teardown (void)
{
  run_until (no_execs, NULL);
  sched_http_free (http);
  http = NULL;
  sched_ctx_clear (&ctx, 2000);
  ctx.profiles = NULL;
  sched_config_clear (&ctx.cfg);
  event_base_free (ctx.base);
  ctx.base = NULL;
}

/* With tokens: alice (ample limits) and bob (a bucket of one, refilled
 * every ~16 minutes). */
static void
test_with_tokens (void)
{
  char hex_a[65], hex_b[65], cfg[512], v[128];
  reply_t r;
  const char *alice = "Bearer alice-secret", *bob = "Bearer bob-secret";

  wb_sha256_hex ("alice-secret", 12, hex_a);
  wb_sha256_hex ("bob-secret", 10, hex_b);
  snprintf (cfg, sizeof cfg,
            "\"tokens\":[{\"name\":\"alice\",\"sha256\":\"%s\",\"rate\":100,\"burst\":100,"
            "\"max_concurrent\":8,\"role\":\"operator\"},{\"name\":\"bob\",\"sha256\":\"%s\","
            "\"rate\":0.001,\"burst\":1,"
            "\"max_concurrent\":1}]",
            hex_a, hex_b);
  if (!ok (setup (cfg), "set up, with two tokens"))
    return;

  /* The probes need nothing. */
  ok (get ("/healthz", NULL, &r) == 0 && r.status == 200 && strstr (r.body, "\"engine\":\"up\""),
      "GET /healthz without a token: 200, engine up");
  reply_clear (&r);
  ok (get ("/readyz", "Bearer wrong", &r) == 0 && r.status == 200
          && strstr (r.body, "\"ready\":true"),
      "GET /readyz with a wrong token: 200 ready (the token is not looked at)");
  reply_clear (&r);
  ok (get ("/healthz?verbose=1", NULL, &r) == 0 && r.status == 200,
      "the query string is not the path");
  reply_clear (&r);
  ok (request ("POST", "/healthz", NULL, "{}", 2, -1, &r) == 0 && r.status == 404
          && json_error (&r, "not_found", false),
      "POST /healthz without a token: 404 (open, but GET only)");
  reply_clear (&r);
  ok (request ("HEAD", "/healthz", NULL, NULL, 0, -1, &r) == 0 && r.status == 404,
      "HEAD /healthz: 404 (no route serves HEAD)");
  reply_clear (&r);

  /* Credentials. */
  static const char *const closed[]
      = {"/v1/languages", "/v1/pools", "/v1/engines", "/metrics", "/nope", "/"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (closed); i++)
    {
      get (closed[i], NULL, &r);
      ok (r.status == 401 && json_error (&r, "unauthorized", false)
              && header (&r, "WWW-Authenticate", v, sizeof v) && strncmp (v, "Bearer", 6) == 0,
          "GET %s without a token: 401 unauthorized, WWW-Authenticate: Bearer", closed[i]);
      reply_clear (&r);
      get (closed[i], "Bearer alice-secreT", &r);
      is_error (&r, 401, "unauthorized", false, "... with a wrong token");
      reply_clear (&r);
    }
  get ("/v1/languages", "Basic YWxpY2U6eA==", &r);
  is_error (&r, 401, "unauthorized", false, "GET /v1/languages with Basic credentials");
  reply_clear (&r);
  get ("/api/v2/runtimes", NULL, &r);
  is_error (&r, 401, "unauthorized", true, "GET /api/v2/runtimes without a token");
  reply_clear (&r);
  get ("/api/v2/nope", "Bearer wrong", &r);
  is_error (&r, 401, "unauthorized", true, "GET /api/v2/nope with a wrong token");
  reply_clear (&r);
  post ("/v1/executions", NULL, "{\"language\":\"python\",\"code\":\"out hi\"}", &r);
  is_error (&r, 401, "unauthorized", false, "POST /v1/executions without a token");
  reply_clear (&r);

  /* The right token: every route answers. */
  ok (get ("/v1/languages", alice, &r) == 0 && r.status == 200
          && strstr (r.body, "\"language\":\"python\""),
      "GET /v1/languages with the right token: 200, python listed");
  reply_clear (&r);
  ok (get ("/v1/languages", "bearer   alice-secret", &r) == 0 && r.status == 200,
      "... the scheme in lower case, spaces before the token");
  reply_clear (&r);
  ok (get ("/api/v2/runtimes", alice, &r) == 0 && r.status == 200 && r.body[0] == '[',
      "GET /api/v2/runtimes: 200, an array");
  reply_clear (&r);
  ok (get ("/v1/pools", alice, &r) == 0 && r.status == 200
          && strstr (r.body, "\"engine\":\"default\""),
      "GET /v1/pools: 200, the engine's pool");
  reply_clear (&r);
  ok (get ("/v1/engines", alice, &r) == 0 && r.status == 200 && strstr (r.body, "\"state\":\"up\""),
      "GET /v1/engines: 200, the engine up");
  reply_clear (&r);
  ok (get ("/metrics", alice, &r) == 0 && r.status == 200
          && header (&r, "Content-Type", v, sizeof v) && strncmp (v, "text/plain", 10) == 0
          && strstr (r.body, "\nwarmbox_engine_up{engine=\"default\"} 1\n"),
      "GET /metrics: 200 text/plain, the engine up");
  reply_clear (&r);
  /* bob is a tenant (the default): the operators' routes are not his. */
  static const char *const operators[] = {"/v1/pools", "/v1/engines", "/metrics"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (operators); i++)
    {
      ok (get (operators[i], bob, &r) == 0 && r.status == 403 && strstr (r.body, "\"forbidden\"")
              && strstr (r.body, "operators") && !strstr (r.body, "default"),
          "GET %s with a tenant's token: 403 forbidden, nothing of the engine", operators[i]);
      reply_clear (&r);
    }

  /* Unknown paths and wrong methods, past the credentials. */
  static const char *const unknown[]
      = {"/nope", "/", "/v1/executions/", "/V1/pools", "/api/v2/nope"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (unknown); i++)
    {
      get (unknown[i], alice, &r);
      is_error (&r, 404, "not_found", false, unknown[i]);
      reply_clear (&r);
    }
  get ("/v1/executions", alice, &r);
  is_error (&r, 400, "invalid_request", false, "GET /v1/executions");
  ok (strstr (r.body, "use POST on /v1/executions") != NULL, "... which says to use POST");
  reply_clear (&r);
  get ("/api/v2/execute", alice, &r);
  is_error (&r, 400, "invalid_request", true, "GET /api/v2/execute");
  reply_clear (&r);
  post ("/v1/languages", alice, "{}", &r);
  is_error (&r, 404, "not_found", false, "POST /v1/languages");
  reply_clear (&r);
  post ("/api/v2/runtimes", alice, "{}", &r);
  is_error (&r, 404, "not_found", false, "POST /api/v2/runtimes");
  reply_clear (&r);
  ok (request ("PUT", "/v1/executions", "Authorization: Bearer alice-secret\r\n", "{}", 2, -1, &r)
              == 0
          && r.status == 501,
      "PUT /v1/executions: 501 from evhttp (only GET, POST and HEAD reach the routes)");
  reply_clear (&r);

  /* Bodies. */
  post ("/v1/executions", alice, "{\"language\":\"python\",\"code\":", &r);
  is_error (&r, 400, "invalid_request", false, "malformed JSON");
  reply_clear (&r);
  post ("/v1/executions", alice, "[1,2]", &r);
  is_error (&r, 400, "invalid_request", false, "JSON that is not an object");
  reply_clear (&r);
  post ("/v1/executions", alice, "", &r);
  is_error (&r, 400, "invalid_request", false, "an empty body");
  reply_clear (&r);
  post ("/api/v2/execute", alice, "{\"language\":", &r);
  is_error (&r, 400, "invalid_request", true, "malformed JSON to Piston's execute");
  reply_clear (&r);
  post ("/v1/executions", alice, "{\"language\":\"cobol\",\"code\":\"x\"}", &r);
  is_error (&r, 404, "not_found", false, "an unknown language");
  reply_clear (&r);
  {
    /* Code past python's largest code_bytes (1 MiB), the body within
     * max_body_bytes (4 MiB): our own 413. */
    size_t n = 1024 * 1024 + 16;
    char *big = malloc (n + 64);
    int len = snprintf (big, 64, "{\"language\":\"python\",\"code\":\"");
    memset (big + len, 'x', n);
    memcpy (big + len + n, "\"}", 3);
    request ("POST", "/v1/executions", "Authorization: Bearer alice-secret\r\n", big, strlen (big),
             -1, &r);
    is_error (&r, 413, "too_large", false, "code over the language's maximum");
    reply_clear (&r);
    free (big);
  }
  request ("POST", "/v1/executions", "Authorization: Bearer alice-secret\r\n", "{}", 2, 4194305,
           &r);
  is_error (&r, 413, "too_large", false,
            "a Content-Length past max_body_bytes, answered from its head");
  reply_clear (&r);

  /* Executions. */
  ok (post ("/v1/executions", alice, "{\"language\":\"python\",\"code\":\"out hi\"}", &r) == 0
          && r.status == 200 && strstr (r.body, "\"status\":\"ok\"")
          && strstr (r.body, "\"stdout\":\"hi\\n\""),
      "POST /v1/executions with the right token: 200, it ran");
  reply_clear (&r);
  run_until (pools_ready, NULL);
  ok (post ("/api/v2/execute", alice,
            "{\"language\":\"python\",\"version\":\"*\",\"files\":[{\"content\":\"out hi\"}]}", &r)
              == 0
          && r.status == 200 && strstr (r.body, "\"run\":")
          && strstr (r.body, "\"stdout\":\"hi\\n\""),
      "POST /api/v2/execute: 200 in Piston's shape");
  reply_clear (&r);

  /* A token's bucket: bob has one execution, then waits. */
  post ("/v1/executions", bob, "{\"language\":", &r);
  is_error (&r, 400, "invalid_request", false,
            "bob's first request (malformed) takes his one token");
  reply_clear (&r);
  post ("/v1/executions", bob, "{\"language\":", &r);
  is_error (&r, 429, "rate_limited", false, "bob's second");
  ok (header (&r, "Retry-After", v, sizeof v) && atoi (v) >= 1, "... with Retry-After (%s s)", v);
  reply_clear (&r);
  post ("/api/v2/execute", bob, "{\"language\":", &r);
  is_error (&r, 429, "rate_limited", true, "bob's third, to Piston");
  reply_clear (&r);
  ok (get ("/v1/languages", bob, &r) == 0 && r.status == 200,
      "bob may still read /v1/languages (the bucket is for executions)");
  reply_clear (&r);
  teardown ();
}

/* Without tokens, every route is served to whoever reaches the socket. */
static void
test_without_tokens (void)
{
  reply_t r;

  if (!ok (setup (""), "set up, no tokens"))
    return;
  ok (get ("/v1/languages", NULL, &r) == 0 && r.status == 200,
      "GET /v1/languages without a token: 200");
  reply_clear (&r);
  ok (get ("/metrics", "Bearer anything", &r) == 0 && r.status == 200,
      "GET /metrics, a token ignored: 200");
  reply_clear (&r);
  get ("/nope", NULL, &r);
  is_error (&r, 404, "not_found", false, "GET /nope");
  reply_clear (&r);
  get ("/api/v2/nope", NULL, &r);
  is_error (&r, 404, "not_found", false, "GET /api/v2/nope (the 404 is in /v1's shape)");
  reply_clear (&r);
  ok (post ("/v1/executions", NULL, "{\"language\":\"python\",\"code\":\"out hi\"}", &r) == 0
          && r.status == 200 && strstr (r.body, "\"stdout\":\"hi\\n\""),
      "POST /v1/executions: 200");
  reply_clear (&r);
  teardown ();
}

/* ---- the intake filter: heads before bodies ------------------------------ */

/* A raw connection kept open across several writes, its replies read as
 * they come. */
typedef struct raw
{
  struct bufferevent *bev;
  struct evbuffer *in;
  bool eof;
} raw_t;

static void
raw_read_cb (struct bufferevent *bev, void *arg)
{
  evbuffer_add_buffer (((raw_t *) arg)->in, bufferevent_get_input (bev));
}

static void
raw_event_cb (struct bufferevent *bev, short what, void *arg)
{
  (void) bev;
  if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
    ((raw_t *) arg)->eof = true;
}

static bool
raw_open (raw_t *c)
{
  struct sockaddr_un sun = {.sun_family = AF_UNIX};
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

  memset (c, 0, sizeof *c);
  memcpy (sun.sun_path, sock_path, sizeof sock_path);
  if (fd < 0 || connect (fd, (struct sockaddr *) &sun, sizeof sun) < 0
      || evutil_make_socket_nonblocking (fd) < 0)
    {
      if (fd >= 0)
        close (fd);
      return false;
    }
  c->in = evbuffer_new ();
  c->bev = bufferevent_socket_new (ctx.base, fd, BEV_OPT_CLOSE_ON_FREE);
  bufferevent_setcb (c->bev, raw_read_cb, NULL, raw_event_cb, c);
  bufferevent_enable (c->bev, EV_READ | EV_WRITE);
  return true;
}

static void
raw_send (raw_t *c, const void *bytes, size_t len)
{
  evbuffer_add (bufferevent_get_output (c->bev), bytes, len);
}

static void
raw_close (raw_t *c)
{
  if (c->bev)
    bufferevent_free (c->bev);
  if (c->in)
    evbuffer_free (c->in);
  memset (c, 0, sizeof *c);
}

/* The whole replies at the start of text (each with a Content-Length, as
 * evhttp sends them): their statuses into status[], and their count.
 * body_of[i] points at reply i's body (within text). */
static int
raw_replies (const char *text, size_t len, int *status, const char **body_of, int max)
{
  int n = 0;
  size_t at = 0;

  while (n < max && at < len)
    {
      const char *p = text + at, *end = memmem (p, len - at, "\r\n\r\n", 4), *cl;
      long body;

      if (end == NULL || sscanf (p, "HTTP/1.%*d %d", &status[n]) != 1)
        break;
      cl = memmem (p, (size_t) (end - p), "Content-Length:", 15);
      body = cl ? atol (cl + 15) : 0;
      if ((size_t) (end + 4 - text) + (size_t) body > len)
        break;
      body_of[n++] = end + 4;
      at = (size_t) (end + 4 - text) + (size_t) body;
    }
  return n;
}

typedef struct raw_wait
{
  raw_t *c;
  int replies; /* this many whole replies, or the connection's end */
} raw_wait_t;

static bool
raw_has (void *arg)
{
  raw_wait_t *w = arg;
  int status[16];
  const char *body[16];
  size_t len = evbuffer_get_length (w->c->in);
  char *text = calloc (1, len + 1); /* NUL-terminated for sscanf */
  bool done;

  evbuffer_copyout (w->c->in, text, len);
  done = w->c->eof || raw_replies (text, len, status, body, 16) >= w->replies;
  free (text);
  return done;
}

/* Wait for n whole replies (or the end); their statuses, and their count.
 * body[i] points into a copy of all received so far (kept until the
 * next call). */
static int
raw_wait (raw_t *c, int n, int *status, const char **body)
{
  static char *text;
  raw_wait_t w = {c, n};
  size_t len;

  run_until (raw_has, &w);
  free (text);
  len = evbuffer_get_length (c->in);
  text = calloc (1, len + 1);
  evbuffer_copyout (c->in, text, len);
  return raw_replies (text, len, status, body, 16);
}

static bool
raw_ended (void *arg)
{
  return ((raw_t *) arg)->eof;
}

#define HEAD_OF(method, path, more) method " " path " HTTP/1.1\r\nHost: warmbox\r\n" more "\r\n"

static void
test_intake (void)
{
  char hex_a[65], cfg[512];
  raw_t c;
  int status[16];
  const char *body[16];

  wb_sha256_hex ("alice-secret", 12, hex_a);
  snprintf (cfg, sizeof cfg,
            "\"tokens\":[{\"name\":\"alice\",\"sha256\":\"%s\",\"rate\":100,\"burst\":100,"
            "\"max_concurrent\":8}]",
            hex_a);
  if (!ok (setup (cfg), "set up, intake"))
    return;

  /* A chunked body, the head authenticated: read and run. */
  {
    static const char req[]
        = HEAD_OF ("POST", "/v1/executions",
                   "Authorization: Bearer alice-secret\r\n"
                   "Content-Type: application/json\r\n"
                   "Transfer-Encoding: chunked\r\nConnection: close\r\n") "c\r\n{\"language\":\r\n"
                                                                          "17\r\n\"python\","
                                                                          "\"code\":\"out hi\r\n"
                                                                          "3\r\n\"}\n\r\n"
                                                                          "0\r\n\r\n";
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    ok (raw_wait (&c, 1, status, body) == 1 && status[0] == 200
            && strstr (body[0], "\"stdout\":\"hi\\n\""),
        "a chunked POST with a token: read through the filter, 200, it ran");
    raw_close (&c);
  }

  /* Two requests in one write: both answered, in order. */
  {
    static const char req[] = HEAD_OF (
        "GET", "/v1/languages",
        "Authorization: Bearer alice-secret\r\n") "\r\n" HEAD_OF ("GET", "/nope",
                                                                  "Authorization: Bearer "
                                                                  "alice-secret\r\nConnection: "
                                                                  "close\r\n");
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    ok (raw_wait (&c, 2, status, body) == 2 && status[0] == 200 && status[1] == 404,
        "two pipelined requests, a blank line between: 200 then 404, each its own answer");
    raw_close (&c);
  }

  /* A body declared without credentials: answered 401 from its head
   * alone, the body never sent; the connection goes on once the body
   * passes (dropped as it arrives). */
  {
    static const char req[] = HEAD_OF ("POST", "/v1/executions",
                                       "Content-Type: application/json\r\n"
                                       "Content-Length: 2097152\r\n");
    static const char next[] = HEAD_OF ("GET", "/v1/languages",
                                        "Authorization: Bearer alice-secret\r\n"
                                        "Connection: close\r\n");
    char *filler = malloc (2097152);
    int n;

    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    n = raw_wait (&c, 1, status, body);
    ok (n == 1 && status[0] == 401 && !c.eof,
        "2 MiB declared, no token: 401 before a byte of the body was sent, the connection open");
    memset (filler, '{', 2097152);
    raw_send (&c, filler, 2097152);
    raw_send (&c, next, sizeof next - 1);
    free (filler);
    ok (raw_wait (&c, 2, status, body) == 2 && status[1] == 200,
        "... its 2 MiB dropped as they came, the next request on it answered 200");
    raw_close (&c);
  }

  /* Expect: 100-continue on a kept-alive connection's second request:
   * evhttp's "100 Continue" is written on the loop's next turn, once
   * evhttp has named what follows it (written at once, the first reply's
   * end ran again and freed the second request). */
  {
    static const char first[] = HEAD_OF ("GET", "/healthz", "");
    static const char second[] = HEAD_OF ("POST", "/v1/executions",
                                          "Authorization: Bearer alice-secret\r\n"
                                          "Content-Type: application/json\r\n"
                                          "Expect: 100-continue\r\nContent-Length: 37\r\n");
    static const char body2[] = "{\"language\":\"python\",\"code\":\"out hi\"}";
    static const char third[] = HEAD_OF ("GET", "/healthz", "Connection: close\r\n");
    raw_open (&c);
    raw_send (&c, first, sizeof first - 1);
    ok (raw_wait (&c, 1, status, body) == 1 && status[0] == 200, "kept alive: GET /healthz 200");
    raw_send (&c, second, sizeof second - 1);
    ok (raw_wait (&c, 2, status, body) >= 2 && status[1] == 100,
        "then a POST with Expect: 100-continue: 100 Continue before its body");
    raw_send (&c, body2, sizeof body2 - 1);
    raw_send (&c, third, sizeof third - 1);
    ok (raw_wait (&c, 4, status, body) == 4 && status[2] == 200
            && strstr (body[2], "\"stdout\":\"hi\\n\"") && status[3] == 200,
        "... its body read, it ran (200), and the next request is answered");
    raw_close (&c);
  }

  /* A body on a route that reads none: 413 from its head. */
  {
    int n;
    static const char req[] = HEAD_OF ("GET", "/healthz", "Content-Length: 1048576\r\n");
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    n = raw_wait (&c, 1, status, body);
    ok (n == 1 && status[0] == 413 && strstr (body[0], "does not read"),
        "GET /healthz (open) declaring a 1 MiB body: 413 from its head");
    raw_close (&c);
  }

  /* The sandbox plane is open to route(); its body only for a head whose
   * access token names a live sandbox. */
  {
    static const char req[] = HEAD_OF ("POST", "/files?path=x",
                                       "Content-Type: application/octet-stream\r\n"
                                       "E2b-Sandbox-Id: nosuch\r\nX-Access-Token: nope\r\n"
                                       "Content-Length: 1048576\r\n");
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    ok (raw_wait (&c, 1, status, body) == 1 && status[0] == 401,
        "POST /files (E2B's sandbox plane) of 1 MiB without a live sandbox's token: 401 from its "
        "head");
    raw_close (&c);
  }

  /* A body over max_body_bytes with a good token: 413 from its head. */
  {
    static const char req[] = HEAD_OF ("POST", "/v1/executions",
                                       "Authorization: Bearer alice-secret\r\n"
                                       "Content-Type: application/json\r\n"
                                       "Content-Length: 41943040\r\n");
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    ok (raw_wait (&c, 1, status, body) == 1 && status[0] == 413
            && strstr (body[0], "\"too_large\""),
        "40 MiB declared with a token: 413 too_large (JSON) before the body was sent");
    raw_close (&c);
  }

  /* Framing the filter refuses: answered, then the connection closed. */
  {
    static const struct
    {
      const char *req, *what;
      int status;
    } bad[] = {
        {HEAD_OF ("POST", "/v1/executions",
                  "Authorization: Bearer alice-secret\r\nContent-Length: 5\r\n"
                  "Transfer-Encoding: chunked\r\n") "0\r\n\r\n",
         "Content-Length with Transfer-Encoding", 400},
        {HEAD_OF (
             "POST", "/v1/executions",
             "Authorization: Bearer alice-secret\r\nContent-Length: 5\r\nContent-Length: 6\r\n"),
         "two Content-Lengths", 400},
        {HEAD_OF ("POST", "/v1/executions",
                  "Authorization: Bearer alice-secret\r\nTransfer-Encoding: gzip, chunked\r\n"),
         "a Transfer-Encoding other than chunked", 501},
        {HEAD_OF ("GET", "/v1/languages",
                  "Authorization: Bearer alice-secret\r\nX-Warmbox-Withheld: 0\r\n"),
         "a client's X-Warmbox-* header", 400},
        {HEAD_OF ("GET", "/v1/languages", "Authorization: Bearer alice-secret\r\n folded\r\n"),
         "a folded header", 400},
        {"GET /v1/languages HTTP/2.0\r\nHost: warmbox\r\n\r\n", "HTTP/2.0 in the request line",
         400},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
      {
        raw_open (&c);
        raw_send (&c, bad[i].req, strlen (bad[i].req));
        int n = raw_wait (&c, 1, status, body);
        run_until (raw_ended, &c);
        ok (n == 1 && status[0] == bad[i].status && c.eof, "%s: %d, then closed (got %d)",
            bad[i].what, bad[i].status, n ? status[0] : 0);
        raw_close (&c);
      }
  }

  /* A chunk size line out of shape: nothing served, the connection ends. */
  {
    static const char req[]
        = HEAD_OF ("POST", "/v1/executions",
                   "Authorization: Bearer alice-secret\r\n"
                   "Content-Type: application/json\r\n"
                   "Transfer-Encoding: chunked\r\n") "c;ext=1\r\n{\"language\":\r\n0\r\n\r\n";
    raw_open (&c);
    raw_send (&c, req, sizeof req - 1);
    int n = raw_wait (&c, 1, status, body);
    run_until (raw_ended, &c);
    ok (c.eof && (n == 0 || status[0] >= 400), "a chunk extension: not served, closed (%d)",
        n ? status[0] : 0);
    raw_close (&c);
  }
  teardown ();
}

/* http.max_reply_bytes: past it, the answer stalled longest is cut. */
static bool
reply_bytes_over (void *arg)
{
  return sched_http_reply_bytes (http) > *(uint64_t *) arg;
}

static bool
reply_bytes_within (void *arg)
{
  return sched_http_reply_bytes (http) <= *(uint64_t *) arg;
}

/* The daemon shut the socket of raw connection arg (its unread answer
 * still queued). */
static bool
peer_shut (void *arg)
{
  struct pollfd p = {.fd = bufferevent_getfd (((raw_t *) arg)->bev), .events = POLLRDHUP};

  return poll (&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP));
}

static void
test_reply_bound (void)
{
  static const char req[]
      = HEAD_OF ("POST", "/v1/executions",
                 "Content-Type: application/json\r\nContent-Length: 43\r\n"
                 "Connection: close\r\n") "{\"language\":\"python\",\"code\":\"flood 900000\"}";
  raw_t a, b;
  uint64_t some = 300000, cap = 1048576;
  int status[16];
  const char *body[16];

  if (!ok (setup ("\"http\":{\"max_reply_bytes\":1048576}"), "set up, max_reply_bytes 1 MiB"))
    return;
  raw_open (&a);
  bufferevent_disable (a.bev, EV_READ);
  raw_send (&a, req, sizeof req - 1);
  bool held = run_until (reply_bytes_over, &some) && run_until (no_execs, NULL);
  uint64_t first = sched_http_reply_bytes (http);
  ok (held, "a reader that stops: its answer held for it (%llu bytes waiting)",
      (unsigned long long) first);
  raw_open (&b);
  bufferevent_disable (b.bev, EV_READ);
  raw_send (&b, req, sizeof req - 1);
  /* B's answer added (its execution over): A's and B's together were
   * past 1 MiB. */
  ok (run_until (peer_shut, &a) && run_until (no_execs, NULL)
          && run_until (reply_bytes_within, &cap),
      "a second: past 1 MiB in all, the first, stalled longest, is cut (%llu bytes waiting now)",
      (unsigned long long) sched_http_reply_bytes (http));
  bufferevent_enable (a.bev, EV_READ);
  bufferevent_enable (b.bev, EV_READ);
  run_until (raw_ended, &a);
  run_until (raw_ended, &b);
  int na = raw_wait (&a, 1, status, body);
  ok (na == 0 && a.eof, "the first reader gets its answer cut short (%zu bytes)",
      evbuffer_get_length (a.in));
  int nb = raw_wait (&b, 1, status, body);
  ok (nb == 1 && status[0] == 200 && strstr (body[0], "\"stdout\""),
      "the second gets all of its own (%d, %zu bytes)", nb ? status[0] : 0,
      evbuffer_get_length (b.in));
  raw_close (&a);
  raw_close (&b);
  ok (run_until (reply_bytes_within, &(uint64_t){0}), "nothing waits once they are gone");
  teardown ();
}

int
main (void)
{
  wb_err_t err;

  failmalloc_install ();
  wb_log_set_level (getenv ("WB_LOG") ? WB_LOG_DEBUG : WB_LOG_ERROR + 1);
  snprintf (dir, sizeof dir, "%s/warmbox-test-http-XXXXXX",
            getenv ("TMPDIR") ? getenv ("TMPDIR") : "/tmp");
  if (mkdtemp (dir) == NULL || prof_load_dir (WB_DEFAULT_PROFILES_DIR, &profiles, &err) < 0)
    {
      ok (false, "temporary folder and profiles");
      return tap_done ();
    }
  test_table ();
  test_decide ();
  test_with_tokens ();
  test_without_tokens ();
  test_intake ();
  test_reply_bound ();
  prof_set_free (profiles);
  char cmd[300];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", dir);
  return tap_done ();
}
