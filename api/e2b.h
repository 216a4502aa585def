/* api/e2b.h: the E2B SDK's routes (e2b.c) on warmboxd's own listeners,
 * beside /v1 and Piston's, so that E2B_API_URL = E2B_SANDBOX_URL = the
 * daemon's address serves an unchanged E2B client (docs/agents.md).
 *
 * A sandbox is a session of any language (exec/session.h): runCode is a
 * session call (Python as a notebook cell, JavaScript, TypeScript),
 * commands.run a bash call with the session's files, files.* the session's
 * files between calls (in warmboxd's memory only), the timeout the
 * session's idle TTL.  Every call is a fresh container, as any other.
 *
 * Two planes, named by path:
 *   the control plane (/v2/sandboxes, /sandboxes/...), whose caller shows
 *     X-API-Key: a warmbox API token, as "Authorization: Bearer" would;
 *   the sandbox plane (/execute, /contexts, /files, /health, /envs, envd's
 *     Connect RPCs), whose requests name their sandbox in E2b-Sandbox-Id
 *     and carry the access token create gave out (X-Access-Token or
 *     E2B-Traffic-Access-Token) instead of a key: an unknown id, an ended
 *     one, and a wrong token get one answer, 502 (the SDK's "sandbox is
 *     gone").
 * Each handler ends in exactly one reply, in the shape the SDK reads
 * there: REST {"code": N, "message"}, Connect {"code": "not_found", ...},
 * /execute plain text before its stream.  What warmbox does not have
 * answers 501 (REST, unary RPCs) or an `unimplemented` end of stream,
 * never a 404. */
#ifndef WARMBOX_API_E2B_H
#define WARMBOX_API_E2B_H

#include "api/route.h"

/* Which plane a route is (http_route_t.e2b). */
enum
{
  E2B_ROUTE_NONE = 0,
  E2B_ROUTE_API,     /* X-API-Key */
  E2B_ROUTE_SANDBOX, /* E2b-Sandbox-Id with its access token: open to route() */
};

http_handler_t e2b_handle_sandboxes;   /* /v2/sandboxes, /sandboxes: GET list, POST create */
http_handler_t e2b_handle_sandbox;     /* /sandboxes/{id}[/...], /v2/sandboxes/{id}/connect */
http_handler_t e2b_handle_unsupported; /* /snapshots, /templates, /volumes: 501 */
http_handler_t e2b_handle_execute;     /* POST /execute */
http_handler_t e2b_handle_contexts;    /* /contexts, /contexts/{id}[/restart] */
http_handler_t e2b_handle_health;      /* GET /health */
http_handler_t e2b_handle_envs;        /* GET /envs */
http_handler_t e2b_handle_files;       /* GET, POST /files */
http_handler_t e2b_handle_filesystem;  /* POST /filesystem.Filesystem/{method} */
http_handler_t e2b_handle_process;     /* POST /process.Process/{method} */

/* Does a request's head name a live sandbox by its access token
 * (E2b-Sandbox-Id, with X-Access-Token or E2B-Traffic-Access-Token), of
 * an owner still served?  find: the head's header lookup (route_decide
 * asks before a sandbox plane's body is read).  Can't fail. */
typedef struct api_ctx api_ctx_t;
bool e2b_head_names_sandbox (const api_ctx_t *ctx, const char *(*find) (const void *, const char *),
                             const void *src);

/* An error of the control plane in its shape ({"code": N, "message"}),
 * for route()'s refusals of credentials. */
struct evhttp_request;
typedef struct wb_err wb_err_t;
void e2b_reply_error (struct evhttp_request *req, const wb_err_t *err);

#endif
