/* daemon/config.h: warmboxd's configuration (config.c); each layer below
 * is given the part it reads (nodes_config_t, exec_config_t: see
 * daemon.h's sched_ctx_nodes_config and sched_ctx_exec_config).
 *
 * A sched_config_t owns every string it holds (sched_config_clear frees
 * them).  Loading never half-applies: a file that fails leaves err naming
 * the file and key, and the caller keeps or drops the whole struct. */
#ifndef WARMBOX_SCHED_CONFIG_H
#define WARMBOX_SCHED_CONFIG_H

#include "api/api.h"
#include "exec/session.h"
#include "nodes/nodes.h"
#include "warmbox/wb.h"

#define SCHED_MAX_POOL_CFG 32
#define SCHED_MAX_NAMES 32

/* engines[] and pools (sched_engine_config_t, sched_pool_config_t) are
 * the nodes' types (nodes/nodes.h). */

/* tokens[] (sched_token_t) are the API's type (api/api.h). */

typedef struct sched_config
{
  char *listen[SCHED_MAX_LISTEN]; /* "unix:/path.sock", "host:port" or "https://host:port" */
  char *hosts[SCHED_MAX_NAMES];   /* "http.hosts": names the TCP listeners answer for */
  size_t n_hosts;
  char *origins[SCHED_MAX_NAMES]; /* "http.origins": browser origins served */
  size_t n_origins;
  char *tls_cert, *tls_key; /* PEM files of the https:// listeners */
  char *tls_client_ca;      /* NULL, or the CA client certificates must chain to */
  size_t n_listen;
  /* "engines" in the file, or its one-entry form "engine" (named
   * "default"); none given: one engine, "default", at DOCKER_HOST or the
   * default socket (sched_config_engines_final). */
  sched_engine_config_t engines[SCHED_MAX_ENGINES];
  size_t n_engines;
  bool engines_from_list; /* they came from "engines" */
  char *profiles_dir;
  bool insecure_no_auth;
  uint32_t max_concurrent;          /* executions running or preparing; past it they queue */
  uint32_t admission_queue_max;     /* executions queued for room to run; past it 503 */
  uint32_t max_wait_ms;             /* the longest an execution waits before its start */
  uint32_t start_bound_ms;          /* from the start to the init's run mark: past it the
                                       engine is overloaded and the program never ran */
  uint32_t shutdown_grace_ms;       /* SIGTERM: the longest wait for executions in flight */
  uint32_t drain_delay_ms;          /* SIGTERM: how long /readyz fails while new executions are
                                       still taken, so a load balancer can notice first */
  uint32_t request_read_timeout_ms; /* a request must arrive whole within this of its
                                       connection opening (or the previous reply) */
  uint32_t ready_pool_grace_ms;     /* /readyz: how long a pool may stay below min_ready
                                       without a create succeeding */
  char *agent_listen;               /* NULL, or "host:port" of the HAProxy agent-check port */
  uint64_t max_body_bytes;
  uint32_t max_connections, max_connections_per_address; /* "http.max_connections", ... */
  uint64_t max_reply_bytes; /* "http.max_reply_bytes": answers waiting for slow readers, in all */
  uint32_t max_containers;  /* global cap: created + running */
  uint32_t create_concurrency;    /* pool creates in flight */
  uint32_t queue_max;             /* requests waiting per pool */
  startgate_config_t start_limit; /* starts in flight: initial, min, max */
  uint32_t image_refresh_ms;      /* how often image tags are re-resolved */
  uint32_t engine_recheck_ms;     /* how often an engine up is asked /info again (daemon.h) */
  char *store_path;               /* NULL: store_default_path () */
  char *store_key_path;           /* "store.key_path"; NULL: store_path + ".key" */
  char *uid_lease_dir;            /* "uid_lease_dir": the host's sandboxes' uid leases (NULL:
                                     none, the unit tests' own rotation); main sets the default */
  uint32_t store_retention_days;
  uint32_t store_max_backlog;
  session_config_t sessions; /* "sessions": {...} (exec/session.h); its node is session_node */
  char *session_node;        /* "sessions.node", or NULL */
  sched_pool_config_t pool_default;
  sched_pool_config_t pools[SCHED_MAX_POOL_CFG];
  size_t n_pools;
  sched_token_t tokens[SCHED_MAX_TOKENS];
  size_t n_tokens;
  sched_token_t caller_unix, caller_tcp; /* "callers.unix", "callers.tcp": anonymous callers */
  sched_token_t cert_callers[SCHED_MAX_CERT_CALLERS]; /* "callers.certificates" */
  size_t n_cert_callers;
  /* Not in the file: timings the unit tests shorten (0: the defaults). */
  uint32_t pool_tick_ms;     /* pool sizing and retry tick */
  uint32_t pool_backoff_ms;  /* first pause after a failed create */
  uint32_t removal_retry_ms; /* first retry of a failed removal */
  long engine_timeout_ms;    /* per engine request but wait */
  uint32_t exec_grace_ms;    /* kill sent, or exit seen: how long the engine may take to
                                report the exit, or the output's end */
} sched_config_t;

WB_MUST_CHECK int sched_token_add (sched_config_t *cfg, const char *name, const char *sha256_hex,
                                   double rate, double burst, uint32_t max_concurrent,
                                   wb_err_t *err);

/* The sizes configured for a language (its own entry, else the default). */
const sched_pool_config_t *sched_config_pool (const sched_config_t *cfg, const char *language);

/* Defaults good enough to run with no file.  Can't fail except on memory. */
WB_MUST_CHECK int sched_config_defaults (sched_config_t *cfg, wb_err_t *err);
/* Overlay a JSON config file; unknown keys are errors (typos must not pass
 * silently).  -1 with the file and key in err. */
WB_MUST_CHECK int sched_config_load (sched_config_t *cfg, const char *path, wb_err_t *err);
/* Same, from memory (fuzzed). */
WB_MUST_CHECK int sched_config_parse (sched_config_t *cfg, const char *json, size_t len,
                                      wb_err_t *err);
WB_MUST_CHECK int sched_config_add_listen (sched_config_t *cfg, const char *addr, wb_err_t *err);
/* An engine entry's OCI part, once its keys are read: an OCI engine
 * ("kind": "oci") gets its default paths and its endpoint (the helper's
 * socket); a Docker engine may not have those keys.  -1 with err. */
WB_MUST_CHECK int sched_config_oci_final (sched_engine_config_t *e, const char *where,
                                          wb_err_t *err);
/* The command line's --engine: replaces a one-entry list; -1 with err when
 * the file lists several engines (which of them would it replace?).
 * "oci" or "oci:ROOT" is the OCI engine (its helper's root). */
WB_MUST_CHECK int sched_config_set_engine (sched_config_t *cfg, const char *endpoint,
                                           wb_err_t *err);
/* After the file and the flags: no engine given means one, "default".
 * -1 only without memory. */
WB_MUST_CHECK int sched_config_engines_final (sched_config_t *cfg, wb_err_t *err);
void sched_config_clear (sched_config_t *cfg);
/* What the API reads of cfg, pointing into it. */
void sched_config_api (const sched_config_t *cfg, api_config_t *out);
/* SIGHUP: copy every key the key table marks reloadable (tokens, pool
 * sizes, drain_delay_ms, request_read_timeout_ms, ready_pool_grace_ms)
 * from fresh into running; the rest need a restart.  Strings are not
 * among them (running keeps its own).  Can't fail. */
void sched_config_apply_reloadable (sched_config_t *running, const sched_config_t *fresh);
/* The reloadable keys' names (for docs and tests): up to max into names;
 * returns how many there are. */
size_t sched_config_reloadable_keys (const char **names, size_t max);

#endif
