/* daemon/daemon.h: warmboxd's context (context.c): one per daemon,
 * main.c owns it.
 *
 * Ownership: the context owns the configuration, the profile sets, the
 * engine nodes (nodes/), the executions (exec/), the store and the
 * metrics.  The layers below never see it: each is given what it reads
 * (sched_ctx_nodes_config, sched_ctx_exec_config) and reports up through
 * callbacks the context installs (an engine taken out goes from nodes/ to
 * exec/ through sched_ctx_init's lost callback).  Teardown: executions
 * abandoned, the store closed (its last callbacks still find the
 * executions' set), then the executions' set and the nodes freed. */
#ifndef WARMBOX_DAEMON_H
#define WARMBOX_DAEMON_H

#include "api/api.h"
#include "api/auth.h"
#include "daemon/config.h"
#include "exec/exec.h"
#include "exec/metrics.h"
#include "nodes/nodes.h"
#include "warmbox/profile.h"
#include "warmbox/store.h"

struct event_base;

typedef struct sched_ctx sched_ctx_t;

struct sched_ctx
{
  struct event_base *base;
  sched_config_t cfg;
  prof_set_t *profiles;
  nodes_t *nodes;
  execs_t *execs;
  sessions_t *sessions;
  store_t *store;
  sched_auth_t auth;
  metrics_t metrics;
  char instance_id[33];
  api_ctx_t api; /* what the listeners are given (sched_ctx_init, kept up to date here) */
  bool leaving;  /* SIGTERM seen: /readyz fails, the agent says drain */
  bool draining; /* drain_delay_ms later: refuse new work, finish what runs */
  /* Profile sets replaced by SIGHUP: requests admitted before it still
   * point into them.  Freed when nothing runs. */
  prof_set_t *retired[16];
  size_t n_retired;
};

/* Set up everything but the listeners, the signals and the timers: the
 * engine nodes, the store (which marks rows a dead daemon left "running"
 * as "interrupted"), the executions.  ctx->cfg and ctx->profiles must be
 * loaded; ctx->base made.  -1 with err; sched_ctx_clear then frees what
 * was made. */
WB_MUST_CHECK int sched_ctx_init (sched_ctx_t *ctx, wb_err_t *err);
/* Abandon executions still in flight, close the store (its pending records
 * get up to store_timeout_ms), free the nodes.  Leaves cfg and profiles to
 * the caller.  Can't fail. */
void sched_ctx_clear (sched_ctx_t *ctx, uint32_t store_timeout_ms);

/* The parts of ctx->cfg each layer reads. */
void sched_ctx_nodes_config (const sched_ctx_t *ctx, nodes_config_t *out);
void sched_ctx_exec_config (const sched_ctx_t *ctx, exec_config_t *out);
/* Give every layer the reloadable figures of ctx->cfg again (after a
 * reload changed them).  Can't fail. */
void sched_ctx_configure (sched_ctx_t *ctx);
/* SIGHUP brought fresh profiles: the nodes carry their verified images
 * over and the executions check requests against fresh; the old set is
 * retired (freed when nothing runs).  -1 with err: nothing changed, the
 * caller still owns fresh. */
WB_MUST_CHECK int sched_ctx_profiles_swap (sched_ctx_t *ctx, prof_set_t *fresh, wb_err_t *err);
/* SIGTERM's drain begins: new work is refused, pools stop refilling. */
void sched_ctx_drain (sched_ctx_t *ctx);

#endif
