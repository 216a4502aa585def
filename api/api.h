/* api/api.h: what the API layer is given by the daemon (no functions).
 *
 * The daemon fills one api_ctx_t (daemon/context.c) and keeps it up to
 * date (a reload's tokens and timeouts, new profiles); http.c and agent.c
 * read it and never see the daemon's own context.  Everything it points
 * to belongs to the daemon and outlives the listeners. */
#ifndef WARMBOX_API_H
#define WARMBOX_API_H

#include "exec/exec.h"
#include "exec/metrics.h"
#include "exec/session.h"
#include "nodes/nodes.h"
#include "warmbox/profile.h"
#include "warmbox/store.h"
#include "warmbox/wb.h"

struct event_base;
struct sched_auth;

#define SCHED_MAX_TOKENS 64
#define SCHED_MAX_LISTEN 8

/* What a caller may see: a tenant runs code and sees its own sessions; an
 * operator also reads the routes about the whole daemon (pools, engines,
 * metrics: other tenants' activity, engine endpoints and errors). */
typedef enum sched_role
{
  SCHED_ROLE_TENANT = 0,
  SCHED_ROLE_OPERATOR,
} sched_role_t;

/* callers.certificates' names, "*" included. */
#define SCHED_MAX_CERT_CALLERS 64

/* tokens[] in the config: an API client.  The token itself is never
 * stored. */
typedef struct sched_token
{
  char name[65];
  sched_role_t role;      /* tenant unless the config says operator */
  unsigned char hash[32]; /* SHA-256 of the bearer token */
  double rate;            /* executions per second, sustained */
  double burst;           /* executions at once after a quiet spell */
  uint32_t max_concurrent;
} sched_token_t;

/* What the API reads of the configuration; the strings and the tokens
 * point into the daemon's configuration. */
typedef struct api_config
{
  char *const *listen; /* "unix:/path.sock", "host:port" or "https://host:port" */
  size_t n_listen;
  const char *tls_cert, *tls_key; /* PEM files of the https:// listeners */
  const char *tls_client_ca;      /* NULL, or the CA client certificates must chain to */
  bool insecure_no_auth;
  uint64_t max_body_bytes;
  uint32_t request_read_timeout_ms;     /* a request must arrive whole within this */
  uint32_t max_concurrent;              /* the agent's weight is the share of it free */
  uint32_t max_connections;             /* http.max_connections: with a request, in all */
  uint32_t max_connections_per_address; /* http.max_connections_per_address: of one TCP client */
  uint64_t max_reply_bytes; /* http.max_reply_bytes: answers not yet taken by the kernel, in all */
  const sched_token_t *tokens;
  size_t n_tokens;
  /* http.hosts: the names TCP listeners answer for besides their own
   * addresses (and, on loopback, "localhost"); http.origins: the browser
   * origins served ("https://console.example"); none by default. */
  char *const *hosts;
  size_t n_hosts;
  char *const *origins;
  size_t n_origins;
  /* Callers without a token: their role and limits (name, role, rate,
   * burst, max_concurrent of a sched_token_t; no hash).  Anonymous ones
   * on a Unix socket (callers.unix: an operator by default) and on TCP
   * (callers.tcp: a tenant), and client certificates that are no token's
   * (callers.certificates: named by the certificate's name, "*" for the
   * others). */
  const sched_token_t *caller_unix, *caller_tcp;
  const sched_token_t *cert_callers;
  size_t n_cert_callers;
} api_config_t;

typedef struct api_ctx
{
  struct event_base *base;
  api_config_t cfg;
  const prof_set_t *profiles; /* the set in force (replaced on reload) */
  nodes_t *nodes;
  execs_t *execs;
  sessions_t *sessions;
  store_t *store;
  const metrics_t *metrics;
  struct sched_auth *auth; /* the tokens' buckets */
  const bool *leaving;     /* SIGTERM seen: /readyz fails, the agent says drain */
} api_ctx_t;

#endif
