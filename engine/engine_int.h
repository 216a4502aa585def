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
  char *unix_path;              /* set for unix sockets */
  char *base_url;               /* "http://localhost" or "https://host:port" */
  char *host;                   /* for TLS name checks and the Host header */
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

/* Map an HTTP status and the engine's JSON body to a wb error (proto.c).
 * Returns -1. */
int eng_http_error (wb_err_t *err, long status, const char *what, const char *body,
                    size_t body_len);

/* ---- replies, by request kind (proto.c: pure, fuzzed) ------------------ */

#define ENG_API_MAX "1.41"   /* the newest API version we speak */
#define ENG_API_MIN_MINOR 40 /* the oldest: 1.40 */

typedef enum req_kind
{
  REQ_PING,
  REQ_IMAGE_INSPECT,
  REQ_CREATE,
  REQ_START,
  REQ_WAIT,
  REQ_KILL,
  REQ_INSPECT,
  REQ_REMOVE,
  REQ_LIST,
  REQ_INFO,
  REQ_IMAGE_SAVE,
  REQ_IMAGE_LOAD,
  REQ_N_KINDS
} req_kind_t;

/* A finished transfer's reply, as eng_reply_decode reads it. */
typedef struct eng_reply
{
  long status;      /* its HTTP status */
  const char *body; /* NULL when empty */
  size_t len;
  const char *api_header; /* ping: its API-Version header ("" when none) */
  bool libpod;            /* ping: it carried Libpod-Api-Version (Podman) */
  const char *value_key;  /* list: the label whose values to return, or NULL */
} eng_reply_t;

/* What a decoded result points into, until eng_decoded_clear. */
typedef struct eng_decoded
{
  struct cJSON *json;
  const char **ids, **values;
  char api_version[16]; /* ping: the version agreed on */
} eng_decoded_t;

/* A request kind's name for messages ("container create"); "request" for
 * a kind out of range.  Can't fail. */
const char *eng_req_what (req_kind_t kind);
/* Decode a reply of kind into res (its http_status is the caller's): rc 0
 * with the kind's fields, or -1 with err when the engine refused (a status
 * out of 2xx but those that mean "already so": a kill's 404 and 409, a
 * remove's 404) or the reply cannot be read (WB_E_NOMEM when memory ran
 * out).  res's pointers point into r's body and into own, which must be
 * zeroed before and cleared after (eng_decoded_clear). */
void eng_reply_decode (req_kind_t kind, const eng_reply_t *r, eng_result_t *res,
                       eng_decoded_t *own);
void eng_decoded_clear (eng_decoded_t *own);

#endif
