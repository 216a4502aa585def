/* api/route.h: the API's routes as one table (http.c), and the lookup its
 * request callback makes before a handler runs.  Pure: no evhttp request
 * and no daemon context, so the unit tests can walk the table itself.
 * Private to api/ and its tests. */
#ifndef WARMBOX_API_ROUTE_H
#define WARMBOX_API_ROUTE_H

#include "api/guard.h"

#include <event2/http.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a handler is given (http.c's; opaque here). */
struct http_caller;
struct evhttp_request;
typedef void http_handler_t (struct evhttp_request *req, const struct http_caller *who);

typedef struct http_route
{
  const char *path; /* matched whole, or as a prefix (the query string is not part of it) */
  uint16_t methods; /* the EVHTTP_REQ_* it serves */
  bool open;        /* served without credentials (the probes), whatever the method */
  bool piston;      /* its errors in Piston's shape ({"message"}) */
  bool says_method; /* another method: 400 "use POST on PATH"; else 404 (as unknown) */
  http_handler_t *handler;
  bool prefix; /* path is a prefix: what follows is the handler's (a session's id) */
  /* An E2B route's plane (api/e2b.h: E2B_ROUTE_*; 0 for the others): the
   * control plane's key comes in X-API-Key, the sandbox plane is open to
   * route() (its handler checks the sandbox's access token). */
  uint8_t e2b;
  http_body_t body; /* what its POST reads: a body of another media type gets 415 */
  bool operators;   /* for operators only (api.h's sched_role_t): a tenant gets 403 */
} http_route_t;

/* The route of path, whatever the method, or NULL when there is none.
 * Can't fail. */
const http_route_t *http_route_find (const char *path);
/* The table, in the order it is walked (for the tests and the docs). */
const http_route_t *http_routes (size_t *n);
/* A refusal of credentials is in Piston's shape for any path under /api/,
 * known or not; the 404 of an unknown path is always in /v1's. */
bool http_path_is_piston (const char *path);

#endif
