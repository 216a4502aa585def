/* daemon/context.c: the daemon context's set-up, teardown and the updates
 * that touch several layers at once (reload, drain).  See daemon.h. */
#define _GNU_SOURCE
#include "daemon/daemon.h"

#include <string.h>

void
sched_ctx_nodes_config (const sched_ctx_t *ctx, nodes_config_t *out)
{
  const sched_config_t *c = &ctx->cfg;

  memset (out, 0, sizeof *out);
  out->engines = c->engines;
  out->n_engines = c->n_engines;
  out->max_containers = c->max_containers;
  out->create_concurrency = c->create_concurrency;
  out->queue_max = c->queue_max;
  out->start_limit = c->start_limit;
  out->ready_pool_grace_ms = c->ready_pool_grace_ms;
  out->engine_recheck_ms = c->engine_recheck_ms;
  out->uid_lease_dir = c->uid_lease_dir;
  out->pool_default = &c->pool_default;
  out->pools = c->pools;
  out->n_pools = c->n_pools;
  out->pool_tick_ms = c->pool_tick_ms;
  out->pool_backoff_ms = c->pool_backoff_ms;
  out->removal_retry_ms = c->removal_retry_ms;
  out->engine_timeout_ms = c->engine_timeout_ms;
}

void
sched_ctx_exec_config (const sched_ctx_t *ctx, exec_config_t *out)
{
  memset (out, 0, sizeof *out);
  out->max_concurrent = ctx->cfg.max_concurrent;
  out->admission_queue_max = ctx->cfg.admission_queue_max;
  out->max_wait_ms = ctx->cfg.max_wait_ms;
  out->start_bound_ms = ctx->cfg.start_bound_ms;
  out->exec_grace_ms = ctx->cfg.exec_grace_ms;
}

void
sched_ctx_configure (sched_ctx_t *ctx)
{
  nodes_config_t nc;
  exec_config_t ec;

  sched_ctx_nodes_config (ctx, &nc);
  sched_ctx_exec_config (ctx, &ec);
  nodes_set_config (ctx->nodes, &nc);
  execs_set_config (ctx->execs, &ec);
  sched_config_api (&ctx->cfg, &ctx->api.cfg);
}

/* For the store's start-up check: is the daemon that wrote a row alive?
 * Rows are labelled with the same owner string as containers. */
static bool
daemon_alive (const char *daemon, void *arg)
{
  return nodes_owner_alive (arg, daemon);
}

static void
node_lost_cb (void *arg, sched_node_t *node)
{
  sched_ctx_t *ctx = arg;

  sched_exec_node_lost (ctx->execs, node);
}

int
sched_ctx_init (sched_ctx_t *ctx, wb_err_t *err)
{
  char defpath[512];
  store_config_t stcfg;
  nodes_config_t nc;
  exec_config_t ec;

  if (sched_config_engines_final (&ctx->cfg, err) < 0)
    return -1;
  if (wb_random_hex (ctx->instance_id, 16) < 0)
    return wb_error (err, WB_E_INTERNAL, "cannot initialise: no random source");
  sched_ctx_nodes_config (ctx, &nc);
  ctx->nodes = nodes_new (ctx->base, &nc, ctx->profiles, ctx->instance_id, err);
  if (ctx->nodes == NULL)
    return -1;
  memset (&stcfg, 0, sizeof stcfg);
  stcfg.path
      = ctx->cfg.store_path ? ctx->cfg.store_path : store_default_path (defpath, sizeof defpath);
  stcfg.key_path = ctx->cfg.store_key_path;
  stcfg.retention_days = ctx->cfg.store_retention_days;
  stcfg.max_backlog = ctx->cfg.store_max_backlog;
  stcfg.daemon_alive = daemon_alive;
  stcfg.daemon_alive_arg = ctx->nodes;
  if (store_open (ctx->base, &stcfg, &ctx->store, err) < 0)
    return -1;
  wb_info ("history: %s (retention %u days)", stcfg.path, stcfg.retention_days);
  nodes_set_store (ctx->nodes, ctx->store);
  sched_ctx_exec_config (ctx, &ec);
  ctx->execs
      = execs_new (ctx->base, &ec, ctx->nodes, ctx->store, &ctx->metrics, ctx->profiles, err);
  if (ctx->execs == NULL)
    return -1;
  ctx->cfg.sessions.node = ctx->cfg.session_node;
  ctx->sessions = sessions_new (ctx->base, &ctx->cfg.sessions, ctx->execs,
                                store_session_key (ctx->store), ctx->instance_id, err);
  if (ctx->sessions == NULL)
    return -1;
  nodes_set_lost_cb (ctx->nodes, node_lost_cb, ctx);
  sched_config_api (&ctx->cfg, &ctx->api.cfg);
  sched_auth_init (&ctx->auth, &ctx->api.cfg);
  ctx->api.base = ctx->base;
  ctx->api.profiles = ctx->profiles;
  ctx->api.nodes = ctx->nodes;
  ctx->api.execs = ctx->execs;
  ctx->api.sessions = ctx->sessions;
  ctx->api.store = ctx->store;
  ctx->api.metrics = &ctx->metrics;
  ctx->api.auth = &ctx->auth;
  ctx->api.leaving = &ctx->leaving;
  return 0;
}

void
sched_ctx_clear (sched_ctx_t *ctx, uint32_t store_timeout_ms)
{
  /* Executions are abandoned first (they hold containers of the nodes
   * and records of the store), then the history closes (its last commits
   * may still be on their way), then the sets are freed: the executions'
   * set outlives the store, whose last callbacks (rows ahead, finished
   * rows) look their execution up in it by serial. */
  /* Sessions first: a call that ends now starts no other; those running
   * are answered by the abandonment, the waiting ones by sessions_free
   * (their state wiped). */
  if (ctx->sessions)
    sessions_closing (ctx->sessions);
  if (ctx->execs)
    sched_exec_abandon_all (ctx->execs);
  sessions_free (ctx->sessions);
  ctx->sessions = NULL;
  ctx->api.sessions = NULL;
  if (ctx->nodes)
    {
      nodes_set_lost_cb (ctx->nodes, NULL, NULL);
      nodes_set_store (ctx->nodes, NULL);
    }
  store_close (ctx->store, store_timeout_ms);
  ctx->store = NULL;
  execs_free (ctx->execs);
  ctx->execs = NULL;
  nodes_free (ctx->nodes);
  ctx->nodes = NULL;
  /* The listeners may outlive this (main.c frees them next): nothing of
   * what they were given stays reachable. */
  ctx->api.execs = NULL;
  ctx->api.nodes = NULL;
  ctx->api.store = NULL;
}

int
sched_ctx_profiles_swap (sched_ctx_t *ctx, prof_set_t *fresh, wb_err_t *err)
{
  if (ctx->n_retired == WB_ARRAY_SIZE (ctx->retired) && sched_exec_count (ctx->execs) > 0)
    return wb_error (err, WB_E_BUSY, "too many reloads in flight");
  if (nodes_profiles_swap (ctx->nodes, fresh, err) < 0)
    return -1;
  execs_set_profiles (ctx->execs, fresh);
  /* Requests admitted before still point into the old set. */
  if (sched_exec_count (ctx->execs) == 0)
    {
      while (ctx->n_retired)
        prof_set_free (ctx->retired[--ctx->n_retired]);
      prof_set_free (ctx->profiles);
    }
  else
    ctx->retired[ctx->n_retired++] = ctx->profiles;
  ctx->profiles = fresh;
  ctx->api.profiles = fresh;
  return 0;
}

void
sched_ctx_drain (sched_ctx_t *ctx)
{
  ctx->draining = true;
  execs_set_draining (ctx->execs, true);
  nodes_set_draining (ctx->nodes, true);
}
