/* api/e2b.c: the E2B SDK's routes.  See e2b.h; the formats are e2b_wire.c's.
 *
 * A sandbox's attributes (its template, metadata and envVars) are the
 * session's attrs, JSON, kept with it and gone with it: nothing here
 * outlives a session, and nothing is kept of the access tokens (a MAC of
 * the session, exec/session.c). */
#define _GNU_SOURCE
#include "api/e2b.h"
#include "api/call.h"
#include "api/e2b_wire.h"
#include "api/reply.h"
#include "api/request.h"

#include <cJSON.h>
#include <event2/buffer.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>
#include <time.h>

#define DEFAULT_TIMEOUT_S 300 /* the SDK's, when create gives none */
#define CLIENT_ID "warmbox"
#define UPLOAD_PARTS E2B_MULTIPART_MAX
#define ENV_MAX (64 * 1024) /* a call's env, as JSON */
/* A reply whose body is a string literal: its length counted by the compiler. */
#define REPLY_LITERAL(req, status, type, literal)                                                  \
  http_reply ((req), (status), (type), "" literal, sizeof (literal) - 1)

/* ---- replies ----------------------------------------------------------- */

/* REST: {"code": <status>, "message"}. */
void
e2b_reply_error (struct evhttp_request *req, const wb_err_t *err)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  int status = wb_code_http_status (err->engine_status && err->code == WB_E_NOT_FOUND ? WB_E_ENGINE
                                                                                      : err->code);
  const char *msg = http_client_message (err);

  if (status >= 500 && status != 501)
    wb_warn ("%d %s: %s", status, wb_code_name (err->code), err->msg);
  if (wb_buf_printf (&body, "{\"code\":%d,\"message\":", status) < 0
      || wb_json_append_string (&body, msg, strlen (msg)) < 0 || wb_buf_append_str (&body, "}") < 0)
    {
      REPLY_LITERAL (req, 500, "application/json", "{\"code\":500,\"message\":\"out of memory\"}");
      return;
    }
  http_reply (req, status, "application/json", body.data, body.len);
}

static void
rest_error (struct evhttp_request *req, wb_code_t code, const char *fmt, const char *arg)
{
  wb_err_t err;
  wb_error (&err, code, fmt, arg);
  e2b_reply_error (req, &err);
}

/* Connect's unary errors: {"code": "<connect code>", "message"}, with the
 * status of Connect's mapping. */
static void
connect_error (struct evhttp_request *req, const wb_err_t *err)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  const char *code;
  int status;
  const char *msg = http_client_message (err);

  switch (err->code)
    {
    case WB_E_INVALID:
      code = "invalid_argument", status = 400;
      break;
    case WB_E_NOT_FOUND:
      code = "not_found", status = 404;
      break;
    case WB_E_TOO_LARGE:
      code = "resource_exhausted", status = 429;
      break;
    case WB_E_UNSUPPORTED:
      code = "unimplemented", status = 501;
      break;
    case WB_E_UNAUTHORIZED:
      code = "unauthenticated", status = 401;
      break;
    case WB_E_BUSY:
    case WB_E_RATE_LIMITED:
    case WB_E_ENGINE_DOWN:
      code = "unavailable", status = 503;
      break;
    default:
      code = "internal", status = 500;
    }
  if (wb_buf_printf (&body, "{\"code\":\"%s\",\"message\":", code) < 0
      || wb_json_append_string (&body, msg, strlen (msg)) < 0 || wb_buf_append_str (&body, "}") < 0)
    status = 500;
  http_reply (req, status, "application/json", body.data ? body.data : "", body.len);
}

static void
connect_already_exists (struct evhttp_request *req, const char *path)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  if (wb_buf_append_str (&body, "{\"code\":\"already_exists\",\"message\":") < 0
      || wb_json_append_string (&body, path, strlen (path)) < 0
      || wb_buf_append_str (&body, "}") < 0)
    {
      REPLY_LITERAL (req, 500, "application/json", "{\"code\":\"internal\"}");
      return;
    }
  http_reply (req, 409, "application/json", body.data, body.len);
}

/* A streaming RPC that is not served: 200, then an end of stream saying so. */
static void
connect_stream_error (struct evhttp_request *req, const char *code, const char *message)
{
  cleanup_buf wb_buf_t msg = WB_BUF_INIT, out = WB_BUF_INIT;
  if (wb_buf_printf (&msg, "{\"error\":{\"code\":\"%s\",\"message\":", code) < 0
      || wb_json_append_string (&msg, message, strlen (message)) < 0
      || wb_buf_append_str (&msg, "}}") < 0 || e2b_envelope_append (&out, 2, msg.data, msg.len) < 0)
    {
      REPLY_LITERAL (req, 500, "application/json", "{\"code\":\"internal\"}");
      return;
    }
  http_reply (req, 200, "application/connect+json", out.data, out.len);
}

/* ---- bodies ------------------------------------------------------------ */

/* The request's body, whole (NULL with len 0 when empty); the pointer is
 * the input buffer's, wiped and drained by body_done. */
static const char *
body_of (struct evhttp_request *req, size_t *len)
{
  struct evbuffer *in = evhttp_request_get_input_buffer (req);
  *len = evbuffer_get_length (in);
  return *len ? (const char *) evbuffer_pullup (in, -1) : NULL;
}

static void
body_done (struct evhttp_request *req)
{
  struct evbuffer *in = evhttp_request_get_input_buffer (req);
  size_t len = evbuffer_get_length (in);
  if (len)
    {
      unsigned char *p = evbuffer_pullup (in, -1);
      if (p)
        explicit_bzero (p, len);
      evbuffer_drain (in, len);
    }
}

/* The body as a JSON object (an empty one for an empty body); NULL with
 * err (400). */
static cJSON *
json_body (struct evhttp_request *req, const char *what, wb_err_t *err)
{
  size_t len;
  const char *body = body_of (req, &len);
  cJSON *j;

  if (len && body == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory reading the body");
      return NULL;
    }
  if (len && sched_json_has_nul_escape (body, len))
    {
      body_done (req);
      wb_error (err, WB_E_INVALID, "%s: strings may not hold \\u0000", what);
      return NULL;
    }
  j = len ? cJSON_ParseWithLength (body, len) : cJSON_CreateObject ();
  body_done (req);
  if (!cJSON_IsObject (j))
    {
      cJSON_Delete (j);
      wb_error (err, WB_E_INVALID, "%s must be a JSON object", what);
      return NULL;
    }
  return j;
}

static const char *
header (struct evhttp_request *req, const char *name)
{
  return evhttp_find_header (evhttp_request_get_input_headers (req), name);
}

static const char *
query_param (struct evhttp_request *req, const char *name, struct evkeyvalq *q)
{
  const char *query = evhttp_uri_get_query (evhttp_request_get_evhttp_uri (req));
  TAILQ_INIT (q);
  if (query == NULL || evhttp_parse_query_str (query, q) < 0)
    return NULL;
  return evhttp_find_header (q, name);
}

static void
iso_time (double t, char out[32])
{
  time_t s = (time_t) t;
  struct tm tm;
  gmtime_r (&s, &tm);
  size_t n = strftime (out, 32, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf (out + n, 32 - n, ".%03dZ", (int) ((t - (double) s) * 1000) % 1000);
}

/* ---- sandboxes (the control plane) -------------------------------------- */

static cJSON *
attrs_of (const session_info_t *info)
{
  cJSON *a = info->attrs ? cJSON_Parse (info->attrs) : NULL;
  return a ? a : cJSON_CreateObject ();
}

/* The Sandbox / ListedSandbox / SandboxDetail JSON of info, owner's
 * (detail: with the times, state and sizes). */
static int
sandbox_json (const api_ctx_t *ctx, const session_info_t *info, const char *owner, bool detail,
              wb_buf_t *out)
{
  char token[33], started[32], ends[32];
  wb_err_t err;
  cJSON *attrs = attrs_of (info);
  const char *tmpl = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (attrs, "template"));
  int bad = 0;

  if (tmpl == NULL)
    tmpl = "base";
  if (session_access_token (ctx->sessions, info->id, owner, token, &err) < 0)
    {
      cJSON_Delete (attrs);
      return -1;
    }
  bad |= wb_buf_printf (out, "{\"sandboxID\":\"%s\",\"templateID\":", info->id);
  bad |= wb_json_append_string (out, tmpl, strlen (tmpl));
  bad |= wb_buf_printf (out,
                        ",\"clientID\":\"" CLIENT_ID "\",\"envdVersion\":\"" E2B_ENVD_VERSION
                        "\",\"envdAccessToken\":\"%s\",\"trafficAccessToken\":\"%s\","
                        "\"domain\":null",
                        token, token);
  explicit_bzero (token, sizeof token);
  if (detail)
    {
      const prof_t *p = prof_find (ctx->profiles, info->language);
      char *meta = cJSON_PrintUnformatted (cJSON_GetObjectItemCaseSensitive (attrs, "metadata"));
      iso_time (info->created_at, started);
      iso_time ((double) time (NULL) + (double) info->expires_in_ms / 1000.0, ends);
      bad |= wb_buf_printf (out,
                            ",\"startedAt\":\"%s\",\"endAt\":\"%s\",\"state\":\"running\","
                            "\"cpuCount\":%u,\"memoryMB\":%u,\"diskSizeMB\":%u,"
                            "\"allowInternetAccess\":false,\"metadata\":%s",
                            started, ends, p ? (unsigned) (p->def.cpus + 0.999) : 1u,
                            info->memory_mb ? info->memory_mb
                            : p             ? p->def.memory_mb
                                            : 0,
                            p ? p->def.tmpfs_mb : 0, meta ? meta : "{}");
      free (meta);
    }
  bad |= wb_buf_append_str (out, "}");
  cJSON_Delete (attrs);
  return bad < 0 ? -1 : 0;
}

static void
reply_sandbox (struct evhttp_request *req, const api_ctx_t *ctx, int status, const char *id,
               const char *owner, bool detail)
{
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  session_info_t info;
  wb_err_t err;

  if (session_get (ctx->sessions, id, owner, &info, &err) < 0)
    {
      if (err.code == WB_E_SESSION_EXPIRED) /* ended: as gone as unknown, to the SDK */
        err.code = WB_E_NOT_FOUND;
      e2b_reply_error (req, &err);
      return;
    }
  if (sandbox_json (ctx, &info, owner, detail, &body) < 0)
    {
      rest_error (req, WB_E_NOMEM, "out of memory encoding sandbox %s", id);
      return;
    }
  http_reply (req, status, "application/json", body.data, body.len);
}

/* A map of strings ({"K": "V"}), or absent; -1 with err otherwise. */
static int
string_map (const cJSON *j, const char *what, wb_err_t *err)
{
  const cJSON *e;
  if (j == NULL || cJSON_IsNull (j))
    return 0;
  if (!cJSON_IsObject (j))
    return wb_error (err, WB_E_INVALID, "%s must be an object of strings", what);
  cJSON_ArrayForEach (e, j)
  {
    if (!cJSON_IsString (e))
      return wb_error (err, WB_E_INVALID, "%s must be an object of strings", what);
  }
  return 0;
}

/* Each name of env a variable's (as commands export them); -1 with err. */
static int
env_names (const cJSON *env, const char *what, wb_err_t *err)
{
  const cJSON *e;
  cJSON_ArrayForEach (e, env)
  {
    if (!e2b_env_name_ok (e->string))
      return wb_error (err, WB_E_INVALID,
                       "%s: %.64s is not a variable's name ([A-Za-z_][A-Za-z0-9_]*)", what,
                       e->string ? e->string : "");
  }
  return 0;
}

/* The options of create that warmbox does not have: a 400 naming it. */
static const char *
unsupported_create_field (const cJSON *body)
{
  static const char *const fields[]
      = {"autoPause", "autoPauseMemory", "autoResume", "mcp", "volumeMounts",
         "iam",       "snapshotID",      "network"};
  for (size_t i = 0; i < WB_ARRAY_SIZE (fields); i++)
    {
      const cJSON *f = cJSON_GetObjectItemCaseSensitive (body, fields[i]);
      if (f && !cJSON_IsNull (f) && !cJSON_IsFalse (f))
        return fields[i];
    }
  const cJSON *net = cJSON_GetObjectItemCaseSensitive (body, "allow_internet_access");
  if (cJSON_IsTrue (net))
    return "allow_internet_access";
  return NULL;
}

typedef struct sandbox_list
{
  const api_ctx_t *ctx;
  const char *owner;
  wb_buf_t *body;
  bool first;
  int bad;
} sandbox_list_t;

static int
sandbox_list_cb (void *arg, const session_info_t *info)
{
  sandbox_list_t *l = arg;
  if (!info->attrs) /* a /v1 session: not a sandbox */
    return 0;
  l->bad |= l->first ? 0 : wb_buf_append_str (l->body, ",");
  l->first = false;
  l->bad |= sandbox_json (l->ctx, info, l->owner, true, l->body);
  return l->bad;
}

void
e2b_handle_sandboxes (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  char owner[80], id[SESSION_ID_LEN + 1];
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;

  caller_name_in (who, owner);
  if (evhttp_request_get_command (req) == EVHTTP_REQ_GET)
    {
      sandbox_list_t l = {ctx, owner, &body, true, 0};
      l.bad |= wb_buf_append_str (&body, "[");
      session_each (ctx->sessions, owner, sandbox_list_cb, &l);
      if (l.bad < 0 || wb_buf_append_str (&body, "]") < 0)
        {
          rest_error (req, WB_E_NOMEM, "out of memory listing the %s", "sandboxes");
          return;
        }
      http_reply (req, 200, "application/json", body.data, body.len);
      return;
    }
  if (ctx->leaving && *ctx->leaving)
    {
      body_done (req);
      rest_error (req, WB_E_BUSY, "warmboxd is shutting down: no new %s", "sandboxes");
      return;
    }
  cJSON *j = json_body (req, "the body of POST /v2/sandboxes", &err);
  if (j == NULL)
    {
      e2b_reply_error (req, &err);
      return;
    }
  const char *tmpl = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "templateID"));
  const cJSON *timeout = cJSON_GetObjectItemCaseSensitive (j, "timeout");
  const cJSON *env = cJSON_GetObjectItemCaseSensitive (j, "envVars");
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive (j, "metadata");
  const char *no = unsupported_create_field (j);
  const prof_t *python = prof_find (ctx->profiles, "python");
  const prof_t *first = ctx->profiles->n ? ctx->profiles->items[0] : NULL;
  int rc = 0;

  if (no)
    rc = wb_error (&err, WB_E_INVALID,
                   "%s is not supported by warmbox: its sandboxes have no network, and are "
                   "neither paused nor resumed (docs/agents.md)",
                   no);
  else if (tmpl && strcmp (tmpl, "base") != 0 && strcmp (tmpl, "code-interpreter-v1") != 0
           && prof_find_alias (ctx->profiles, tmpl) == NULL)
    rc = wb_error (&err, WB_E_INVALID,
                   "template %s: warmbox serves \"base\" and \"code-interpreter-v1\" (each "
                   "language of /v1/languages in every sandbox)",
                   tmpl);
  else if (timeout && !cJSON_IsNull (timeout)
           && (!cJSON_IsNumber (timeout) || timeout->valuedouble < 1
               || timeout->valuedouble > 86400 * 30))
    rc = wb_error (&err, WB_E_INVALID, "timeout is a number of seconds, at least 1");
  else if (string_map (env, "envVars", &err) < 0 || string_map (meta, "metadata", &err) < 0
           || env_names (env, "envVars", &err) < 0)
    rc = -1;
  else if (python == NULL && first == NULL)
    rc = wb_error (&err, WB_E_NOT_FOUND, "this daemon serves no language");
  if (rc < 0)
    {
      cJSON_Delete (j);
      e2b_reply_error (req, &err);
      return;
    }
  /* What the sandbox keeps of its creation: the session's attributes. */
  cJSON *attrs = cJSON_CreateObject ();
  cJSON_AddStringToObject (attrs, "template", tmpl ? tmpl : "base");
  cJSON_AddItemToObject (attrs, "metadata",
                         meta && cJSON_IsObject (meta) ? cJSON_Duplicate (meta, true)
                                                       : cJSON_CreateObject ());
  cJSON_AddItemToObject (attrs, "envVars",
                         env && cJSON_IsObject (env) ? cJSON_Duplicate (env, true)
                                                     : cJSON_CreateObject ());
  char *attrs_text = cJSON_PrintUnformatted (attrs);
  double ttl = cJSON_IsNumber (timeout) ? timeout->valuedouble : DEFAULT_TIMEOUT_S;
  session_spec_t spec = {
      .owner = owner,
      .language = (python ? python : first)->language,
      .idle_ttl_s = (uint32_t) ttl,
      .any_language = true,
      .attrs = attrs_text,
  };
  cJSON_Delete (attrs);
  cJSON_Delete (j);
  rc = attrs_text ? session_create (ctx->sessions, &spec, id, &err)
                  : wb_error (&err, WB_E_NOMEM, "out of memory");
  free (attrs_text);
  if (rc < 0)
    {
      e2b_reply_error (req, &err);
      return;
    }
  reply_sandbox (req, ctx, 201, id, owner, false);
}

void
e2b_handle_unsupported (struct evhttp_request *req, const http_caller_t *who)
{
  (void) who;
  body_done (req);
  rest_error (req, WB_E_UNSUPPORTED,
              "%s is not supported by warmbox (no snapshots, templates, volumes, pause or "
              "metrics: docs/agents.md)",
              evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req)));
}

/* /sandboxes/{id} (GET, DELETE), /sandboxes/{id}/timeout (POST),
 * /v2/sandboxes/{id}/connect (POST); the rest of /sandboxes/{id}/... 501. */
void
e2b_handle_sandbox (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  const char *rest
      = path + strlen (strncmp (path, "/v2/", 4) == 0 ? "/v2/sandboxes/" : "/sandboxes/");
  const char *slash = strchr (rest, '/');
  size_t id_len = slash ? (size_t) (slash - rest) : strlen (rest);
  const char *verb = slash ? slash + 1 : "";
  enum evhttp_cmd_type method = evhttp_request_get_command (req);
  char owner[80], id[SESSION_ID_LEN + 1];
  wb_err_t err;

  caller_name_in (who, owner);
  if (id_len == 0 || id_len > SESSION_ID_LEN)
    {
      body_done (req);
      rest_error (req, WB_E_NOT_FOUND, "no such sandbox%s", "");
      return;
    }
  memcpy (id, rest, id_len);
  id[id_len] = '\0';
  bool v2 = strncmp (path, "/v2/", 4) == 0;
  if (!v2 && *verb == '\0' && (method == EVHTTP_REQ_GET || method == EVHTTP_REQ_DELETE))
    {
      body_done (req);
      if (method == EVHTTP_REQ_GET)
        {
          reply_sandbox (req, ctx, 200, id, owner, true);
          return;
        }
      if (session_delete (ctx->sessions, id, owner, &err) < 0)
        {
          /* An ended sandbox is as gone as an unknown one: 404, the SDK's false. */
          if (err.code == WB_E_SESSION_EXPIRED)
            err.code = WB_E_NOT_FOUND;
          e2b_reply_error (req, &err);
          return;
        }
      REPLY_LITERAL (req, 204, "application/json", "");
      return;
    }
  bool timeout = !v2 && strcmp (verb, "timeout") == 0 && method == EVHTTP_REQ_POST;
  bool connect = v2 && strcmp (verb, "connect") == 0 && method == EVHTTP_REQ_POST;
  if (!timeout && !connect)
    {
      e2b_handle_unsupported (req, who);
      return;
    }
  cJSON *j = json_body (req,
                        timeout ? "the body of POST /sandboxes/{id}/timeout"
                                : "the body of POST /v2/sandboxes/{id}/connect",
                        &err);
  if (j == NULL)
    {
      e2b_reply_error (req, &err);
      return;
    }
  const cJSON *t = cJSON_GetObjectItemCaseSensitive (j, "timeout");
  session_info_t info;
  int rc = 0;
  if (timeout && (!cJSON_IsNumber (t) || t->valuedouble < 1 || t->valuedouble > 86400 * 30))
    rc = wb_error (&err, WB_E_INVALID, "timeout is a number of seconds, at least 1");
  else if (connect && t && !cJSON_IsNull (t)
           && (!cJSON_IsNumber (t) || t->valuedouble < 1 || t->valuedouble > 86400 * 30))
    rc = wb_error (&err, WB_E_INVALID, "timeout is a number of seconds, at least 1");
  else if ((rc = session_get (ctx->sessions, id, owner, &info, &err)) == 0)
    {
      /* timeout: the TTL from now, as given (it may shorten it);
       * connect: only ever longer. */
      uint32_t want = cJSON_IsNumber (t) ? (uint32_t) t->valuedouble : 0;
      if (timeout || (want && (uint64_t) want * 1000 > info.expires_in_ms))
        rc = session_set_ttl (ctx->sessions, id, owner, want, &err);
      else if (connect)
        rc = session_set_ttl (ctx->sessions, id, owner, info.idle_ttl_s, &err);
    }
  cJSON_Delete (j);
  if (rc < 0)
    {
      if (err.code == WB_E_SESSION_EXPIRED)
        err.code = WB_E_NOT_FOUND;
      e2b_reply_error (req, &err);
      return;
    }
  if (timeout)
    REPLY_LITERAL (req, 204, "application/json", "");
  else
    reply_sandbox (req, ctx, 200, id, owner, false);
}

/* ---- the sandbox plane: which session --------------------------------- */

/* The session req names (E2b-Sandbox-Id) and its owner, by its access
 * token.  False when there is none of that token: replied (502, the
 * SDK's "sandbox gone", in the plane's shape: connect for RPCs). */
typedef enum
{
  SHAPE_REST,
  SHAPE_CONNECT,
  SHAPE_TEXT,
} shape_t;

/* Is owner still a caller this daemon serves (a token a reload dropped
 * is not, nor are its sandboxes' access tokens)? */
static bool
owner_current (const api_ctx_t *ctx, const char *owner)
{
  if (strncmp (owner, "token:", 6) != 0)
    return true;
  for (size_t i = 0; i < ctx->cfg.n_tokens; i++)
    if (strcmp (ctx->cfg.tokens[i].name, owner + 6) == 0)
      return true;
  return false;
}

/* The owner of the sandbox sid names by its access token, into owner;
 * false when there is none (or its owner is no longer served). */
static bool
sandbox_owner (const api_ctx_t *ctx, const char *sid, const char *token, char owner[80])
{
  wb_err_t err;

  return sid && strlen (sid) <= SESSION_ID_LEN && token
         && session_owner_by_token (ctx->sessions, sid, token, owner, &err) == 0
         && owner_current (ctx, owner);
}

bool
e2b_head_names_sandbox (const api_ctx_t *ctx, const char *(*find) (const void *, const char *),
                        const void *src)
{
  const char *token = find (src, "X-Access-Token");
  char owner[80];

  return sandbox_owner (ctx, find (src, "E2b-Sandbox-Id"),
                        token ? token : find (src, "E2B-Traffic-Access-Token"), owner);
}

static bool
sandbox_of (struct evhttp_request *req, const http_caller_t *who, shape_t shape,
            char id[SESSION_ID_LEN + 1], char owner[80])
{
  const char *sid = header (req, "E2b-Sandbox-Id");
  const char *token = header (req, "X-Access-Token");
  wb_err_t err;

  if (token == NULL)
    token = header (req, "E2B-Traffic-Access-Token");
  if (sandbox_owner (who->ctx, sid, token, owner))
    {
      snprintf (id, SESSION_ID_LEN + 1, "%s", sid);
      return true;
    }
  body_done (req);
  static const char gone[] = "no such sandbox, or not this access token's: it may have ended "
                             "(its timeout), been killed, or the daemon restarted";
  if (sid == NULL)
    {
      static const char none[] = "a sandbox's request names it in E2b-Sandbox-Id";
      if (shape == SHAPE_CONNECT)
        {
          wb_error (&err, WB_E_INVALID, "%s", none);
          connect_error (req, &err);
        }
      else if (shape == SHAPE_TEXT)
        http_reply (req, 400, "text/plain", none, sizeof none - 1);
      else
        REPLY_LITERAL (req, 400, "application/json",
                       "{\"code\":400,\"message\":\"a sandbox's request names it in "
                       "E2b-Sandbox-Id\"}");
      return false;
    }
  if (shape == SHAPE_CONNECT)
    REPLY_LITERAL (req, 502, "application/json",
                   "{\"code\":\"unavailable\",\"message\":\"no such sandbox: it may have ended\"}");
  else if (shape == SHAPE_TEXT)
    http_reply (req, 502, "text/plain", gone, sizeof gone - 1);
  else
    REPLY_LITERAL (req, 502, "application/json",
                   "{\"code\":502,\"message\":\"no such sandbox: it may have ended\"}");
  return false;
}

void
e2b_handle_health (struct evhttp_request *req, const http_caller_t *who)
{
  char id[SESSION_ID_LEN + 1], owner[80];
  if (sandbox_of (req, who, SHAPE_REST, id, owner))
    REPLY_LITERAL (req, 204, "application/json", "");
}

/* The sandbox's envVars (create's), an object. */
static cJSON *
sandbox_env (const api_ctx_t *ctx, const char *id, const char *owner)
{
  session_info_t info;
  wb_err_t err;
  if (session_get (ctx->sessions, id, owner, &info, &err) < 0)
    return cJSON_CreateObject ();
  cJSON *attrs = attrs_of (&info);
  cJSON *env = cJSON_DetachItemFromObjectCaseSensitive (attrs, "envVars");
  cJSON_Delete (attrs);
  return cJSON_IsObject (env) ? env : (cJSON_Delete (env), cJSON_CreateObject ());
}

void
e2b_handle_envs (struct evhttp_request *req, const http_caller_t *who)
{
  char id[SESSION_ID_LEN + 1], owner[80];
  if (!sandbox_of (req, who, SHAPE_REST, id, owner))
    return;
  cJSON *env = sandbox_env (who->ctx, id, owner);
  char *text = cJSON_PrintUnformatted (env);
  cJSON_Delete (env);
  if (text == NULL)
    {
      rest_error (req, WB_E_NOMEM, "out of memory%s", "");
      return;
    }
  http_reply (req, 200, "application/json", text, strlen (text));
  free (text);
}

/* ---- runCode ------------------------------------------------------------ */

/* A language as /execute and /contexts name them: lower case, js and ts
 * as the SDK's server takes them; NULL: not one this daemon has. */
static const prof_t *
execute_language (const api_ctx_t *ctx, const char *name)
{
  char lower[33];
  size_t n = 0;
  if (name == NULL || *name == '\0')
    name = "python";
  for (; name[n] && n < sizeof lower - 1; n++)
    lower[n] = (char) (name[n] >= 'A' && name[n] <= 'Z' ? name[n] + 32 : name[n]);
  lower[n] = '\0';
  if (strcmp (lower, "js") == 0)
    return prof_find (ctx->profiles, "javascript");
  if (strcmp (lower, "ts") == 0)
    return prof_find (ctx->profiles, "typescript");
  return prof_find_alias (ctx->profiles, lower);
}

static void
text_error (struct evhttp_request *req, int status, const char *msg)
{
  http_reply (req, status, "text/plain", msg, strlen (msg));
}

/* A context id is its language's name: contexts of one language share the
 * sandbox's state (docs/agents.md). */
static const prof_t *
context_language (const api_ctx_t *ctx, const char *id)
{
  return id ? prof_find (ctx->profiles, id) : NULL;
}

/* The request of one E2B call: language p, the program (taken: its
 * bytes wiped and freed whatever comes), the longest run the profile
 * allows (the SDK's own timers are the client's; the sandbox still ends
 * at this), into *out.  -1 with err. */
static int
call_request (const api_ctx_t *ctx, const prof_t *p, wb_buf_t *program, uint32_t timeout_ms,
              sched_request_t *out, wb_err_t *err)
{
  uint32_t limit = p->max.timeout_ms;
  sched_request_fields_t f = {.language = p->language};

  if (timeout_ms && timeout_ms < limit)
    limit = timeout_ms;
  f.timeout_ms = (sched_request_limit_t){true, limit};
  f.code_len = program->len;
  if (wb_buf_append (program, "", 1) < 0)
    {
      explicit_bzero (program->data, program->cap);
      wb_buf_free (program);
      return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  f.code = wb_buf_steal (program);
  return sched_request_build (&f, ctx->profiles, NULL, out, err);
}

void
e2b_handle_execute (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  char id[SESSION_ID_LEN + 1], owner[80];
  sched_request_t parsed;
  wb_err_t err;

  if (!sandbox_of (req, who, SHAPE_TEXT, id, owner))
    return;
  cJSON *j = json_body (req, "the body of /execute", &err);
  if (j == NULL)
    {
      text_error (req, 400, err.msg);
      return;
    }
  const cJSON *code = cJSON_GetObjectItemCaseSensitive (j, "code");
  const char *lang = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "language"));
  const char *context = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "context_id"));
  const cJSON *env_vars = cJSON_GetObjectItemCaseSensitive (j, "env_vars");
  const prof_t *p = NULL;
  int status = 0;
  const char *why = NULL;

  if (!cJSON_IsString (code))
    status = 400, why = "code is required, a string";
  else if (lang && context)
    status = 400, why = "give a context_id or a language, not both";
  else if (context && (p = context_language (ctx, context)) == NULL)
    status = 404, why = "no such context";
  else if (!context && (p = execute_language (ctx, lang)) == NULL)
    status = 400, why = "this language is not served here (GET /v1/languages lists them)";
  else if (string_map (env_vars, "env_vars", &err) < 0
           || env_names (env_vars, "env_vars", &err) < 0)
    status = 400, why = "env_vars must be an object of strings, named as variables";
  if (status)
    {
      if (cJSON_IsString (code))
        explicit_bzero (code->valuestring, strlen (code->valuestring));
      cJSON_Delete (j);
      text_error (req, status, why);
      return;
    }
  /* The sandbox's envVars, then this call's. */
  cJSON *env = sandbox_env (ctx, id, owner);
  const cJSON *e;
  cJSON_ArrayForEach (e, env_vars)
  {
    cJSON_DeleteItemFromObjectCaseSensitive (env, e->string);
    cJSON_AddItemToObject (env, e->string, cJSON_Duplicate (e, true));
  }
  /* The env goes into every frame of the call (and the sandbox's
   * environment): bounded as the attributes are. */
  char *env_all = cJSON_PrintUnformatted (env);
  size_t env_len = env_all ? strlen (env_all) : SIZE_MAX;
  free (env_all);
  if (env_len > ENV_MAX)
    {
      explicit_bzero (code->valuestring, strlen (code->valuestring));
      cJSON_Delete (j);
      cJSON_Delete (env);
      text_error (req, env_len == SIZE_MAX ? 500 : 413,
                  env_len == SIZE_MAX ? "out of memory"
                                      : "the sandbox's envVars and env_vars together are past "
                                        "64 KiB");
      return;
    }
  cleanup_buf wb_buf_t program = WB_BUF_INIT;
  int rc = 0;
  bool notebook = p->session_state;
  if (!notebook && cJSON_GetArraySize (env) > 0)
    {
      /* No bootstrap to hand them to: set by the program's first line
       * (its line numbers unchanged). */
      char *env_text = cJSON_PrintUnformatted (env);
      if (strcmp (p->language, "javascript") == 0 || strcmp (p->language, "typescript") == 0)
        rc = env_text ? wb_buf_printf (&program, "Object.assign(process.env, %s); ", env_text) : -1;
      free (env_text);
    }
  if (rc == 0)
    rc = wb_buf_append_str (&program, code->valuestring);
  explicit_bzero (code->valuestring, strlen (code->valuestring));
  cJSON_Delete (j);
  if (rc < 0)
    {
      if (program.data)
        explicit_bzero (program.data, program.cap);
      cJSON_Delete (env);
      text_error (req, 500, "out of memory");
      return;
    }
  rc = call_request (ctx, p, &program, 0, &parsed, &err);
  if (rc == 0 && notebook)
    {
      cJSON *nb = cJSON_CreateObject ();
      if (nb && cJSON_AddItemToObject (nb, "env", env))
        env = NULL;
      parsed.notebook = nb && env == NULL ? cJSON_PrintUnformatted (nb) : NULL;
      cJSON_Delete (nb);
      if (parsed.notebook == NULL)
        {
          sched_request_clear (&parsed);
          rc = wb_error (&err, WB_E_NOMEM, "out of memory");
        }
      else
        parsed.notebook_len = strlen (parsed.notebook);
    }
  cJSON_Delete (env);
  if (rc == 0 && http_owner_admit (req, ctx, owner, &err) < 0)
    {
      sched_request_clear (&parsed);
      rc = -1;
    }
  if (rc < 0)
    {
      text_error (req, wb_code_http_status (err.code), http_client_message (&err));
      return;
    }
  if (strncmp (owner, "token:", 6) == 0)
    snprintf (parsed.client, sizeof parsed.client, "%.64s", owner + 6);
  e2b_stream_t st = {.kind = E2B_EXECUTE, .notebook = notebook};
  if (http_call_start (req, who, id, owner, owner, &parsed, CALL_E2B, &st, &err) < 0)
    text_error (req,
                err.code == WB_E_SESSION_EXPIRED || err.code == WB_E_NOT_FOUND
                    ? 502
                    : wb_code_http_status (err.code),
                http_client_message (&err));
}

/* POST /contexts {"language", "cwd"}; GET /contexts; DELETE, POST restart
 * of /contexts/{id}: a context is its language's (see context_language). */
void
e2b_handle_contexts (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  char id[SESSION_ID_LEN + 1], owner[80];
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  enum evhttp_cmd_type method = evhttp_request_get_command (req);
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;

  if (!sandbox_of (req, who, SHAPE_TEXT, id, owner))
    return;
  if (strcmp (path, "/contexts") == 0 && method == EVHTTP_REQ_GET)
    {
      body_done (req);
      int bad = wb_buf_append_str (&body, "[");
      for (size_t i = 0; i < ctx->profiles->n; i++)
        bad |= wb_buf_printf (
            &body, "%s{\"id\":\"%s\",\"language\":\"%s\",\"cwd\":\"" E2B_HOME "\"}", i ? "," : "",
            ctx->profiles->items[i]->language, ctx->profiles->items[i]->language);
      bad |= wb_buf_append_str (&body, "]");
      if (bad < 0)
        text_error (req, 500, "out of memory");
      else
        http_reply (req, 200, "application/json", body.data, body.len);
      return;
    }
  if (strcmp (path, "/contexts") == 0 && method == EVHTTP_REQ_POST)
    {
      cJSON *j = json_body (req, "the body of POST /contexts", &err);
      if (j == NULL)
        {
          text_error (req, 400, err.msg);
          return;
        }
      const prof_t *p = execute_language (
          ctx, cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "language")));
      const char *cwd = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (j, "cwd"));
      bool cwd_ok = cwd == NULL || strcmp (cwd, E2B_HOME) == 0 || strcmp (cwd, E2B_HOME "/") == 0;
      cJSON_Delete (j);
      if (p == NULL || !cwd_ok)
        {
          text_error (req, 400,
                      p ? "a context's cwd is " E2B_HOME ", where the sandbox's files are"
                        : "this language is not served here");
          return;
        }
      if (wb_buf_printf (&body, "{\"id\":\"%s\",\"language\":\"%s\",\"cwd\":\"" E2B_HOME "\"}",
                         p->language, p->language)
          < 0)
        text_error (req, 500, "out of memory");
      else
        http_reply (req, 200, "application/json", body.data, body.len);
      return;
    }
  body_done (req);
  const char *rest = strncmp (path, "/contexts/", 10) == 0 ? path + 10 : "";
  char cid[33];
  snprintf (cid, sizeof cid, "%.*s", (int) strcspn (rest, "/"), rest);
  const char *verb = rest + strcspn (rest, "/");
  if (context_language (ctx, cid) == NULL)
    {
      text_error (req, 404, "no such context");
      return;
    }
  if ((method == EVHTTP_REQ_DELETE && *verb == '\0')
      || (method == EVHTTP_REQ_POST && strcmp (verb, "/restart") == 0))
    {
      /* The language's context is the sandbox's own: it lives as long as
       * the sandbox; a restart is a new sandbox (docs/agents.md). */
      if (method == EVHTTP_REQ_POST)
        {
          text_error (req, 501,
                      "warmbox does not restart a context: its state is the "
                      "sandbox's; create a new sandbox for a fresh one");
          return;
        }
      REPLY_LITERAL (req, 204, "application/json", "");
      return;
    }
  text_error (req, 501, "not supported by warmbox");
}

/* ---- files --------------------------------------------------------------- */

static int
entry_json (wb_buf_t *out, const char *name, size_t size, bool dir, double mtime)
{
  char when[32];
  int bad;
  iso_time (mtime, when);
  if (dir)
    return wb_buf_printf (out,
                          "{\"name\":\"user\",\"type\":\"FILE_TYPE_DIRECTORY\",\"path\":\"" E2B_HOME
                          "\",\"size\":\"0\",\"mode\":%u,\"permissions\":\"drwxr-xr-x\",\"owner\":"
                          "\"user\",\"group\":\"user\",\"modifiedTime\":\"%s\"}",
                          0x80000000u | 0755u, when);
  bad = wb_buf_append_str (out, "{\"name\":");
  bad |= wb_json_append_string (out, name, strlen (name));
  bad |= wb_buf_append_str (out, ",\"type\":\"FILE_TYPE_FILE\",\"path\":");
  {
    cleanup_buf wb_buf_t full = WB_BUF_INIT;
    bad |= wb_buf_printf (&full, E2B_HOME "/%s", name);
    bad |= full.data ? wb_json_append_string (out, full.data, full.len) : -1;
  }
  bad |= wb_buf_printf (out,
                        ",\"size\":\"%zu\",\"mode\":420,\"permissions\":\"-rw-r--r--\",\"owner\":"
                        "\"user\",\"group\":\"user\",\"modifiedTime\":\"%s\"}",
                        size, when);
  return bad < 0 ? -1 : 0;
}

typedef struct list_acc
{
  wb_buf_t *out;
  double mtime;
  bool first;
  int bad;
} list_acc_t;

static void
list_cb (void *arg, const char *name, size_t len)
{
  list_acc_t *l = arg;
  l->bad |= l->first ? 0 : wb_buf_append_str (l->out, ",");
  l->first = false;
  l->bad |= entry_json (l->out, name, len, false, l->mtime);
}

static double
last_change (const api_ctx_t *ctx, const char *id, const char *owner)
{
  session_info_t info;
  wb_err_t err;
  return session_get (ctx->sessions, id, owner, &info, &err) == 0 ? info.last_used_at
                                                                  : (double) time (NULL);
}

/* The envd REST error ({"code": N, "message"}). */
static void
files_error (struct evhttp_request *req, const wb_err_t *err)
{
  wb_err_t e = *err;
  if (e.code == WB_E_SESSION_EXPIRED)
    {
      REPLY_LITERAL (req, 502, "application/json",
                     "{\"code\":502,\"message\":\"no such sandbox: it may have ended\"}");
      return;
    }
  if (e.code == WB_E_TOO_LARGE)
    {
      /* envd's "not enough space" (507): the session's caps are its disk. */
      cleanup_buf wb_buf_t body = WB_BUF_INIT;
      if (wb_buf_append_str (&body, "{\"code\":507,\"message\":") == 0
          && wb_json_append_string (&body, e.msg, strlen (e.msg)) == 0
          && wb_buf_append_str (&body, "}") == 0)
        {
          http_reply (req, 507, "application/json", body.data, body.len);
          return;
        }
    }
  e2b_reply_error (req, &e);
}

static void
files_write (struct evhttp_request *req, api_ctx_t *ctx, const char *id, const char *owner,
             const char *path_q)
{
  e2b_part_t parts[UPLOAD_PARTS];
  size_t n = 0, len;
  const char *ctype = header (req, "Content-Type");
  const char *body = body_of (req, &len);
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  bool home;
  wb_err_t err;
  int rc = 0;

  if (len && body == NULL)
    rc = wb_error (&err, WB_E_NOMEM, "out of memory reading the upload");
  else if (ctype && strncasecmp (ctype, "application/octet-stream", 24) == 0)
    {
      /* The raw body: one file, named by ?path. */
      if (path_q == NULL)
        rc = wb_error (&err, WB_E_INVALID, "an octet-stream upload names its file in ?path");
      else
        {
          parts[0]
              = (e2b_part_t){.field = "file", .field_len = 4, .data = body ? body : "", .len = len};
          n = 1;
        }
    }
  else
    rc = e2b_multipart_parse (ctype, body ? body : "", len, parts, UPLOAD_PARTS, &n, &err);
  if (rc == 0 && n == 0)
    rc = wb_error (&err, WB_E_INVALID, "the upload holds no file");
  if (rc == 0 && path_q && n != 1)
    rc = wb_error (&err, WB_E_INVALID, "?path names one file: the upload holds %zu", n);
  /* Every name, then all of the files or none (session_files_write). */
  char names[UPLOAD_PARTS][256];
  const char *name_of[UPLOAD_PARTS], *data_of[UPLOAD_PARTS];
  size_t len_of[UPLOAD_PARTS];
  for (size_t i = 0; rc == 0 && i < n; i++)
    {
      char fname[300];
      if (path_q == NULL && parts[i].filename == NULL)
        {
          rc = wb_error (&err, WB_E_INVALID, "a part of the upload has no filename");
          break;
        }
      snprintf (fname, sizeof fname, "%.*s", (int) (path_q ? 0 : parts[i].filename_len),
                path_q ? "" : parts[i].filename);
      rc = e2b_path_name (path_q ? path_q : fname, names[i], &home, &err);
      if (rc == 0 && home)
        rc = wb_error (&err, WB_E_INVALID, "%s is the sandbox's folder, not a file", E2B_HOME);
      name_of[i] = names[i];
      data_of[i] = parts[i].data;
      len_of[i] = parts[i].len;
    }
  if (rc == 0)
    rc = session_files_write (ctx->sessions, id, owner, name_of, data_of, len_of, n, &err);
  int bad = rc < 0 ? 0 : wb_buf_append_str (&out, "[");
  for (size_t i = 0; rc == 0 && i < n; i++)
    {
      bad |= wb_buf_append_str (&out, i ? "," : "");
      bad |= wb_buf_append_str (&out, "{\"name\":");
      bad |= wb_json_append_string (&out, names[i], strlen (names[i]));
      bad |= wb_buf_append_str (&out, ",\"type\":\"file\",\"path\":\"" E2B_HOME "/");
      cleanup_buf wb_buf_t esc = WB_BUF_INIT;
      bad |= wb_json_append_string (&esc, names[i], strlen (names[i]));
      bad |= esc.len >= 2 ? wb_buf_append (&out, esc.data + 1, esc.len - 1) : -1;
      bad |= wb_buf_append_str (&out, "}");
    }
  if (rc == 0 && bad < 0)
    rc = wb_error (&err, WB_E_NOMEM, "out of memory");
  body_done (req);
  if (rc == 0 && wb_buf_append_str (&out, "]") < 0)
    rc = wb_error (&err, WB_E_NOMEM, "out of memory");
  if (rc < 0)
    {
      files_error (req, &err);
      return;
    }
  http_reply (req, 200, "application/json", out.data, out.len);
}

/* A GET /files reply in progress: which file, as it was when it began. */
typedef struct file_reader
{
  sessions_t *sessions;
  char id[SESSION_ID_LEN + 1], owner[80], name[256];
  size_t len;
  uint64_t gen;
} file_reader_t;

/* The file's bytes from off on, from the session's copy, while it is
 * still the file the reply began with (else -1: the reply stops short). */
static int
file_slice (void *arg, uint64_t off, const char **data, size_t *len, wb_err_t *err)
{
  file_reader_t *fr = arg;
  const char *d;
  size_t l;
  uint64_t gen;

  if (session_file_read (fr->sessions, fr->id, fr->owner, fr->name, &d, &l, &gen, err) < 0)
    return -1;
  if (gen != fr->gen || l != fr->len || off > l)
    return wb_error (err, WB_E_BUSY, "the file changed while it was being read");
  *data = d + off;
  *len = l - (size_t) off;
  return 0;
}

/* GET /files?path= (the bytes), POST /files[?path=] (an upload). */
void
e2b_handle_files (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  char id[SESSION_ID_LEN + 1], owner[80], name[256];
  struct evkeyvalq q;
  bool home;
  wb_err_t err;

  if (!sandbox_of (req, who, SHAPE_REST, id, owner))
    return;
  const char *path = query_param (req, "path", &q);
  if (evhttp_request_get_command (req) == EVHTTP_REQ_POST)
    {
      files_write (req, ctx, id, owner, path);
      evhttp_clear_headers (&q);
      return;
    }
  body_done (req);
  const char *data;
  size_t len;
  uint64_t gen;
  if (path == NULL)
    wb_error (&err, WB_E_INVALID, "GET /files names its file in ?path");
  if (path == NULL || e2b_path_name (path, name, &home, &err) < 0
      || (home && wb_error (&err, WB_E_INVALID, "%s is a folder, not a file", E2B_HOME) < 0)
      || session_file_read (ctx->sessions, id, owner, name, &data, &len, &gen, &err) < 0)
    {
      evhttp_clear_headers (&q);
      files_error (req, &err);
      return;
    }
  evhttp_clear_headers (&q);
  struct evkeyvalq *h = evhttp_request_get_output_headers (req);
  if (len == 0)
    {
      REPLY_LITERAL (req, 200, "application/octet-stream", "");
      return;
    }
  /* Sent as the client reads, a slice at a time from the session's own
   * copy: a reader that stalls holds one slice, never the file. */
  file_reader_t *fr = calloc (1, sizeof *fr);
  if (fr == NULL)
    {
      wb_error (&err, WB_E_NOMEM, "out of memory");
      files_error (req, &err);
      return;
    }
  fr->sessions = ctx->sessions;
  snprintf (fr->id, sizeof fr->id, "%s", id);
  snprintf (fr->owner, sizeof fr->owner, "%s", owner);
  snprintf (fr->name, sizeof fr->name, "%s", name);
  fr->len = len;
  fr->gen = gen;
  evhttp_add_header (h, "Content-Disposition", "attachment");
  http_reply_sliced (req, who->hconn, "application/octet-stream", len, file_slice, free, fr);
}

/* One of envd's filesystem RPCs: the message's "path" as a name. */
static int
rpc_path (const cJSON *m, const char *key, char name[256], bool *home, wb_err_t *err)
{
  const char *p = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (m, key));
  if (p == NULL)
    return wb_error (err, WB_E_INVALID, "%s is required", key);
  return e2b_path_name (p, name, home, err);
}

void
e2b_handle_filesystem (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  const char *method = path + strlen ("/filesystem.Filesystem/");
  const char *ctype = header (req, "Content-Type");
  char id[SESSION_ID_LEN + 1], owner[80], name[256], to[256];
  cleanup_buf wb_buf_t out = WB_BUF_INIT;
  bool home, to_home;
  wb_err_t err;
  int rc = 0;

  if (!sandbox_of (req, who, SHAPE_CONNECT, id, owner))
    return;
  if (ctype && strncasecmp (ctype, "application/connect", 19) == 0)
    {
      /* A streaming method (WatchDir): not served. */
      body_done (req);
      connect_stream_error (req, "unimplemented",
                            "warmbox does not watch folders: a sandbox's files change only "
                            "between its calls");
      return;
    }
  cJSON *m = json_body (req, "the message", &err);
  if (m == NULL)
    {
      connect_error (req, &err);
      return;
    }
  double mtime = last_change (ctx, id, owner);
  if (strcmp (method, "Stat") == 0)
    {
      const char *data;
      size_t len;
      rc = rpc_path (m, "path", name, &home, &err);
      if (rc == 0 && !home)
        rc = session_file_read (ctx->sessions, id, owner, name, &data, &len, NULL, &err);
      if (rc == 0)
        rc = wb_buf_append_str (&out, "{\"entry\":") < 0
                     || entry_json (&out, name, home ? 0 : len, home, mtime) < 0
                     || wb_buf_append_str (&out, "}") < 0
                 ? wb_error (&err, WB_E_NOMEM, "out of memory")
                 : 0;
    }
  else if (strcmp (method, "ListDir") == 0)
    {
      rc = rpc_path (m, "path", name, &home, &err);
      if (rc == 0 && !home)
        {
          const char *data;
          size_t len;
          rc = session_file_read (ctx->sessions, id, owner, name, &data, &len, NULL, &err) == 0
                   ? wb_error (&err, WB_E_INVALID, "%s is a file, not a folder", name)
                   : -1;
        }
      list_acc_t l = {&out, mtime, true, 0};
      if (rc == 0)
        {
          l.bad |= wb_buf_append_str (&out, "{\"entries\":[");
          rc = session_file_each (ctx->sessions, id, owner, list_cb, &l, &err);
          l.bad |= wb_buf_append_str (&out, "]}");
          if (rc == 0 && l.bad < 0)
            rc = wb_error (&err, WB_E_NOMEM, "out of memory");
        }
    }
  else if (strcmp (method, "Remove") == 0)
    {
      rc = rpc_path (m, "path", name, &home, &err);
      if (rc == 0 && home)
        rc = wb_error (&err, WB_E_INVALID, "%s is the sandbox's own folder", E2B_HOME);
      if (rc == 0)
        rc = session_file_remove (ctx->sessions, id, owner, name, &err) < 0 ? -1 : 0;
      if (rc == 0)
        rc = wb_buf_append_str (&out, "{}") < 0 ? wb_error (&err, WB_E_NOMEM, "out of memory") : 0;
    }
  else if (strcmp (method, "MakeDir") == 0)
    {
      rc = rpc_path (m, "path", name, &home, &err);
      if (rc == 0 && home)
        {
          cJSON_Delete (m);
          connect_already_exists (req, E2B_HOME);
          return;
        }
      if (rc == 0)
        rc = wb_error (&err, WB_E_INVALID,
                       "warmbox sandboxes hold their files directly in %s: no folders under it",
                       E2B_HOME);
    }
  else if (strcmp (method, "Move") == 0)
    {
      rc = rpc_path (m, "source", name, &home, &err);
      if (rc == 0)
        rc = rpc_path (m, "destination", to, &to_home, &err);
      if (rc == 0 && (home || to_home))
        rc = wb_error (&err, WB_E_INVALID, "%s itself cannot move", E2B_HOME);
      if (rc == 0)
        rc = session_file_rename (ctx->sessions, id, owner, name, to, &err);
      const char *data;
      size_t len;
      if (rc == 0)
        rc = session_file_read (ctx->sessions, id, owner, to, &data, &len, NULL, &err);
      if (rc == 0)
        rc = wb_buf_append_str (&out, "{\"entry\":") < 0
                     || entry_json (&out, to, len, false, mtime) < 0
                     || wb_buf_append_str (&out, "}") < 0
                 ? wb_error (&err, WB_E_NOMEM, "out of memory")
                 : 0;
    }
  else
    rc = wb_error (&err, WB_E_UNSUPPORTED,
                   "filesystem.Filesystem/%.40s is not supported by warmbox (no watchers)", method);
  cJSON_Delete (m);
  if (rc < 0)
    {
      if (err.code == WB_E_SESSION_EXPIRED)
        err.code = WB_E_NOT_FOUND;
      connect_error (req, &err);
      return;
    }
  http_reply (req, 200, "application/json", out.data, out.len);
}

/* ---- commands ----------------------------------------------------------- */

/* process.Process/Start: a bash call with the session's files, streamed
 * as Connect envelopes; List: none (nothing outlives its call); the rest
 * (input, signals, reconnecting, a pty) not served. */
void
e2b_handle_process (struct evhttp_request *req, const http_caller_t *who)
{
  api_ctx_t *ctx = who->ctx;
  const char *path = evhttp_uri_get_path (evhttp_request_get_evhttp_uri (req));
  const char *method = path + strlen ("/process.Process/");
  char id[SESSION_ID_LEN + 1], owner[80];
  sched_request_t parsed;
  wb_err_t err;

  if (!sandbox_of (req, who, SHAPE_CONNECT, id, owner))
    return;
  if (strcmp (method, "List") == 0)
    {
      body_done (req);
      REPLY_LITERAL (req, 200, "application/json", "{\"processes\":[]}");
      return;
    }
  if (strcmp (method, "Start") != 0)
    {
      body_done (req);
      const char *ctype = header (req, "Content-Type");
      static const char why[] = "warmbox runs each command to its end in a fresh container: no "
                                "input, signals, reconnecting or terminals";
      if (ctype && strncasecmp (ctype, "application/connect", 19) == 0)
        connect_stream_error (req, "unimplemented", why);
      else
        {
          wb_error (&err, WB_E_UNSUPPORTED, "%s", why);
          connect_error (req, &err);
        }
      return;
    }
  size_t len;
  const char *body = body_of (req, &len);
  const char *msg;
  size_t msg_len;
  cJSON *m = NULL;
  cleanup_buf wb_buf_t script = WB_BUF_INIT;
  uint32_t hint = 0;
  int rc = 0;

  if (len && body == NULL)
    rc = wb_error (&err, WB_E_NOMEM, "out of memory reading the request");
  else if (e2b_envelope_parse (body ? body : "", len, &msg, &msg_len, &err) == 0)
    {
      if (sched_json_has_nul_escape (msg, msg_len))
        rc = wb_error (&err, WB_E_INVALID, "strings may not hold \\u0000");
      else if (!cJSON_IsObject (m = cJSON_ParseWithLength (msg, msg_len)))
        rc = wb_error (&err, WB_E_INVALID, "the message is not a JSON object");
    }
  else
    rc = -1;
  if (rc == 0)
    {
      cJSON *env = sandbox_env (ctx, id, owner);
      rc = e2b_process_script (m, env, &script, &hint, &err);
      cJSON_Delete (env);
    }
  cJSON_Delete (m);
  body_done (req);
  const char *deadline = header (req, "Connect-Timeout-Ms");
  uint32_t timeout_ms = 0;
  if (deadline)
    {
      char *end;
      unsigned long v = strtoul (deadline, &end, 10);
      timeout_ms = *end == '\0' && v > 0 && v < 0xffffffffUL ? (uint32_t) v : 0;
    }
  const prof_t *bash = prof_find (ctx->profiles, "bash");
  if (rc == 0 && bash == NULL)
    rc = wb_error (&err, WB_E_UNSUPPORTED, "this daemon serves no bash: commands cannot run");
  if (rc == 0)
    rc = call_request (ctx, bash, &script, timeout_ms, &parsed, &err);
  if (script.data)
    explicit_bzero (script.data, script.cap);
  if (rc == 0 && http_owner_admit (req, ctx, owner, &err) < 0)
    {
      sched_request_clear (&parsed);
      rc = -1;
    }
  if (rc < 0)
    {
      /* A stream's errors go in its end (the SDK reads no body of a non-200). */
      connect_stream_error (req,
                            err.code == WB_E_INVALID       ? "invalid_argument"
                            : err.code == WB_E_UNSUPPORTED ? "unimplemented"
                            : err.code == WB_E_RATE_LIMITED || err.code == WB_E_BUSY
                                ? "resource_exhausted"
                                : "internal",
                            http_client_message (&err));
      return;
    }
  if (strncmp (owner, "token:", 6) == 0)
    snprintf (parsed.client, sizeof parsed.client, "%.64s", owner + 6);
  session_info_t info;
  e2b_stream_t st = {.kind = E2B_PROCESS, .pid = 1};
  if (session_get (ctx->sessions, id, owner, &info, &err) == 0)
    st.pid = info.calls + 1;
  if (http_call_start (req, who, id, owner, owner, &parsed, CALL_E2B, &st, &err) < 0)
    connect_stream_error (
        req,
        err.code == WB_E_SESSION_EXPIRED || err.code == WB_E_NOT_FOUND ? "not_found"
        : err.code == WB_E_BUSY || err.code == WB_E_RATE_LIMITED       ? "resource_exhausted"
        : err.code == WB_E_TOO_LARGE                                   ? "resource_exhausted"
                                                                       : "internal",
        http_client_message (&err));
}
