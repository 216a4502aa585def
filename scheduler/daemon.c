/* scheduler/daemon.c: the daemon context's set-up and teardown, image ids
 * and the pools that follow them.  See daemon.h. */
#define _GNU_SOURCE
#include "daemon.h"

#include <event2/event.h>
#include <string.h>
#include <unistd.h>

/* Carries the language, not an index: a SIGHUP may replace the profile
 * set while the lookup is in flight. */
typedef struct image_lookup
{
  sched_ctx_t *ctx;
  struct image_lookup *prev, *next; /* ctx->lookups */
  sbx_op_t *op;
  char language[33];
  char image[256];
} image_lookup_t;

static void
lookup_free (image_lookup_t *lk)
{
  WB_LIST_UNLINK (lk->ctx->lookups, lk);
  free (lk);
}

static void
pool_event_cb (void *arg, const char *event, const char *language, const char *pool_key,
               const char *container_id, double duration_ms, const char *detail)
{
  sched_ctx_t *ctx = arg;

  if (ctx->store)
    store_submit_pool_event (ctx->store, event, language, pool_key, container_id, duration_ms,
                             detail);
}

static void
container_gone_cb (void *arg)
{
  sched_ctx_t *ctx = arg;

  pool_mgr_kick (ctx->pools);
}

/* For the store's start-up check: is the daemon that wrote a row alive?
 * Rows are labelled with the same owner string as containers. */
static bool
daemon_alive (const char *daemon, void *arg)
{
  return !sbx_owner_gone (arg, daemon);
}

int
sched_ctx_init (sched_ctx_t *ctx, wb_err_t *err)
{
  eng_config_t ecfg;
  sbx_config_t scfg;
  pool_mgr_config_t pcfg;
  char defpath[512];
  store_config_t stcfg;

  ctx->image_ids = calloc (ctx->profiles->n, sizeof *ctx->image_ids);
  if (ctx->image_ids == NULL || wb_random_hex (ctx->instance_id, 16) < 0)
    return wb_error (err, WB_E_INTERNAL, "cannot initialise (random source or memory)");
  memset (&ecfg, 0, sizeof ecfg);
  ecfg.endpoint = ctx->cfg.engine_endpoint;
  ecfg.tls_ca = ctx->cfg.engine_tls_ca;
  ecfg.tls_cert = ctx->cfg.engine_tls_cert;
  ecfg.tls_key = ctx->cfg.engine_tls_key;
  ecfg.request_timeout_ms = ctx->cfg.engine_timeout_ms;
  if (eng_new (ctx->base, &ecfg, &ctx->eng, err) < 0)
    return -1;
  memset (&scfg, 0, sizeof scfg);
  scfg.instance_id = ctx->instance_id;
  scfg.on_event = pool_event_cb;
  scfg.on_gone = container_gone_cb;
  scfg.arg = ctx;
  scfg.retry_ms = ctx->cfg.removal_retry_ms;
  scfg.reconcile_ms = ctx->cfg.removal_retry_ms;
  if (sbx_new (ctx->base, ctx->eng, &scfg, &ctx->sbx, err) < 0)
    return -1;
  memset (&pcfg, 0, sizeof pcfg);
  pcfg.max_containers = ctx->cfg.max_containers;
  pcfg.create_concurrency = ctx->cfg.create_concurrency;
  pcfg.max_waiters = ctx->cfg.queue_max;
  pcfg.tick_ms = ctx->cfg.pool_tick_ms;
  pcfg.backoff_min_ms = ctx->cfg.pool_backoff_ms;
  pcfg.on_event = pool_event_cb;
  pcfg.event_arg = ctx;
  if (pool_mgr_new (ctx->base, ctx->sbx, &pcfg, &ctx->pools, err) < 0)
    return -1;
  memset (&stcfg, 0, sizeof stcfg);
  stcfg.path = ctx->cfg.store_path ? ctx->cfg.store_path
                                   : store_default_path (defpath, sizeof defpath);
  stcfg.retention_days = ctx->cfg.store_retention_days;
  stcfg.max_backlog = ctx->cfg.store_max_backlog;
  stcfg.daemon_alive = daemon_alive;
  stcfg.daemon_alive_arg = ctx->sbx;
  if (store_open (ctx->base, &stcfg, &ctx->store, err) < 0)
    return -1;
  wb_info ("history: %s (retention %u days)", stcfg.path, stcfg.retention_days);
  snprintf (ctx->engine_desc, sizeof ctx->engine_desc, "%s",
            eng_default_endpoint (ctx->cfg.engine_endpoint));
  startgate_init (&ctx->gate, &ctx->cfg.start_limit);
  sched_auth_init (&ctx->auth, &ctx->cfg);
  return 0;
}

void
sched_ctx_clear (sched_ctx_t *ctx, uint32_t store_timeout_ms)
{
  sched_exec_abandon_all (ctx);
  /* The history first: its last commits may still be on their way. */
  store_close (ctx->store, store_timeout_ms);
  ctx->store = NULL;
  startgate_clear (&ctx->gate);
  adm_clear (&ctx->admission);
  if (ctx->admit_ev)
    event_free (ctx->admit_ev);
  ctx->admit_ev = NULL;
  while (ctx->lookups)
    {
      sbx_op_cancel (ctx->lookups->op);
      lookup_free (ctx->lookups);
    }
  pool_mgr_free (ctx->pools);
  ctx->pools = NULL;
  sbx_free (ctx->sbx);
  ctx->sbx = NULL;
  eng_free (ctx->eng);
  ctx->eng = NULL;
  if (ctx->image_ids)
    for (size_t i = 0; i < ctx->profiles->n; i++)
      free (ctx->image_ids[i]);
  free (ctx->image_ids);
  ctx->image_ids = NULL;
}

/* ---- image ids and pools --------------------------------------------- */

void
sched_pool_update (sched_ctx_t *ctx, size_t i)
{
  const prof_t *p = ctx->profiles->items[i];
  const sched_pool_config_t *pc = sched_config_pool (&ctx->cfg, p->language);
  pool_spec_t spec;
  wb_err_t err;

  if (ctx->image_ids[i] == NULL || ctx->draining)
    return;
  memset (&spec, 0, sizeof spec);
  spec.tmpl = sbx_tmpl_new (p, &p->def, ctx->image_ids[i], &err);
  spec.profile_hash = p->hash;
  spec.min_ready = pc->min_ready;
  spec.max_ready = pc->max_ready;
  if (spec.tmpl == NULL || pool_mgr_ensure (ctx->pools, &spec, &err) == NULL)
    wb_log_error ("pool for %s: %s", p->language, err.msg);
}

static void
image_resolved_cb (void *arg, const char *image_id, const wb_err_t *err)
{
  image_lookup_t *lk = arg;
  sched_ctx_t *ctx = lk->ctx;
  const prof_t *p = NULL;
  size_t index = 0;

  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (strcmp (ctx->profiles->items[i]->language, lk->language) == 0)
      p = ctx->profiles->items[i], index = i;
  if (p == NULL || strcmp (p->image, lk->image) != 0)
    {
      lookup_free (lk); /* the profile changed meanwhile; its own lookup follows */
      return;
    }
  if (image_id == NULL)
    wb_warn ("sandbox image %s for %s is not usable: %s (build it with `make images`)", p->image,
             p->language, err->msg);
  else
    {
      bool changed = ctx->image_ids[index] == NULL || strcmp (ctx->image_ids[index], image_id) != 0;
      char *id = changed ? strdup (image_id) : NULL;
      if (id)
        {
          free (ctx->image_ids[index]);
          ctx->image_ids[index] = id;
          wb_info ("language %s: image %s is %.19s, profile %.12s", p->language, p->image, id,
                   p->hash);
        }
      if (changed || pool_mgr_find (ctx->pools, p->language) == NULL)
        sched_pool_update (ctx, index);
    }
  lookup_free (lk);
}

void
sched_images_refresh (sched_ctx_t *ctx)
{
  for (size_t i = 0; i < ctx->profiles->n; i++)
    {
      image_lookup_t *lk = calloc (1, sizeof *lk);
      wb_err_t err;

      if (lk == NULL)
        return;
      lk->ctx = ctx;
      snprintf (lk->language, sizeof lk->language, "%s", ctx->profiles->items[i]->language);
      snprintf (lk->image, sizeof lk->image, "%s", ctx->profiles->items[i]->image);
      lk->op = sbx_resolve_image (ctx->sbx, lk->image, image_resolved_cb, lk, &err);
      if (lk->op == NULL)
        {
          wb_warn ("%s", err.msg);
          free (lk);
          continue;
        }
      WB_LIST_PUSH (ctx->lookups, lk);
    }
}

static void
reaped_cb (void *arg, int n)
{
  sched_ctx_t *ctx = arg;

  ctx->reaping = false;
  ctx->reaped = n >= 0; /* a failed list is tried again at the next ping */
}

void
sched_engine_answers (sched_ctx_t *ctx, bool was_down)
{
  if (!ctx->reaped && !ctx->reaping)
    {
      ctx->reaping = true;
      sbx_reap_orphans (ctx->sbx, reaped_cb, ctx);
    }
  if (!was_down)
    return;
  /* Back after an outage (or for the first time): creates and removals
   * that were waiting for it go now, and image tags may have moved. */
  pool_mgr_engine_back (ctx->pools);
  sbx_retry_now (ctx->sbx);
  sched_images_refresh (ctx);
}
