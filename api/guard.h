/* api/guard.h: what a listener accepts from a browser (guard.c): the Host
 * a request names, the Origin it carries, and the media type of its body.
 *
 * A web page the operator visits can send a "simple" cross-site POST (no
 * preflight) to a loopback listener, and with DNS rebinding read the
 * answers; these checks run in route() before credentials, before any
 * handler, so a refused request runs and reads nothing.  Pure: no evhttp,
 * no daemon context (the unit tests and the fuzzer call them directly). */
#ifndef WARMBOX_API_GUARD_H
#define WARMBOX_API_GUARD_H

#include "api/api.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* The body a route reads on POST (route.h's http_route_t.body). */
typedef enum http_body
{
  HTTP_BODY_NONE = 0, /* none read: anything is dropped unread */
  HTTP_BODY_JSON,     /* application/json */
  HTTP_BODY_PISTON,   /* application/json, or text/plain as Piston's own clients send it */
  HTTP_BODY_CONNECT,  /* Connect's: application/json or application/connect+json */
  HTTP_BODY_UPLOAD,   /* multipart/form-data or application/octet-stream */
} http_body_t;

/* May a request whose Host header is host (NULL: none sent) be served on
 * a connection whose local address is local (the listener's side of the
 * socket)?  A Unix socket: any Host (no browser reaches one).  TCP: a
 * name in cfg->hosts, the address literal the connection arrived on, and
 * on a loopback address also "localhost" and any loopback literal; a
 * port, and one trailing dot, are ignored; names compare without case.
 * local NULL (not known): the names in cfg->hosts only.  No Host (HTTP/1.0: never a browser's):
 * served.  0, or -1 with err (WB_E_MISDIRECTED, 421). */
WB_MUST_CHECK int http_guard_host (const api_config_t *cfg, const struct sockaddr *local,
                                   socklen_t local_len, const char *host, wb_err_t *err);
/* May a request carrying Origin origin and Sec-Fetch-Site fetch_site
 * (each NULL when not sent) be served?  With an Origin: only one listed in
 * cfg->origins ("scheme://host[:port]", compared without case; "null"
 * never).  Without one: not when the browser says the request is another
 * site's (Sec-Fetch-Site "cross-site" or "same-site": a browser that left
 * Origin off a form's POST still says that).  0, or -1 with err
 * (WB_E_FORBIDDEN, 403). */
WB_MUST_CHECK int http_guard_origin (const api_config_t *cfg, const char *origin,
                                     const char *fetch_site, wb_err_t *err);
/* Is origin (not NULL) one cfg->origins lists?  Can't fail. */
bool http_guard_origin_listed (const api_config_t *cfg, const char *origin);
/* May a POST body of body_len bytes with Content-Type ctype (NULL: none)
 * go to a route that reads kind?  The media type (before any ';'
 * parameter) must be one the route reads; without a Content-Type only an
 * empty body passes.  0, or -1 with err (WB_E_MEDIA_TYPE, 415). */
WB_MUST_CHECK int http_guard_body (http_body_t kind, const char *ctype, size_t body_len,
                                   wb_err_t *err);
/* Is name a host name or origin fit for the configuration's http.hosts
 * (origin false) or http.origins (origin true)?  Can't fail. */
bool http_guard_config_ok (const char *name, bool origin);

#endif
