/* engine/engine_int.h: state shared by engine.c (requests) and attach.c
 * (hijacked streams).  Private to engine/. */
#ifndef WARMBOX_ENGINE_INT_H
#define WARMBOX_ENGINE_INT_H

#include "warmbox/engine.h"

#include <curl/curl.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <sys/un.h>

struct eng
{
  struct event_base *base;
  CURLM *multi;
  struct event *timer; /* curl's one timer */

  /* Endpoint, parsed once. */
  char *unix_path;     /* set for unix sockets */
  char *base_url;      /* "http://localhost" or "https://host:port" */
  char *host;          /* for TLS name checks and the Host header */
  struct sockaddr_storage addr; /* tcp: resolved once in eng_new */
  socklen_t addr_len;
  bool tls;
  char *tls_ca, *tls_cert, *tls_key;
  SSL_CTX *ssl_ctx; /* for attach streams over TLS; built on first use */
  long request_timeout_ms;

  char api_version[16];
  struct eng_req *reqs; /* doubly linked list of requests in flight */
  CURL *spare[32];      /* easy handles kept for reuse */
  size_t n_spare;
};

/* Map an HTTP status and the engine's JSON body to a wb error.  Returns -1. */
int eng_http_error (wb_err_t *err, long status, const char *what, const char *body,
                    size_t body_len);

#endif
