/* scheduler/daemon.h: warmboxd's context, shared by the files of
 * scheduler/ (one per daemon; main.c owns it).
 *
 * Ownership: the context owns the configuration, the profile sets, the
 * engine client, the sandbox, the pool manager, the store and every
 * execution (through its registry: executions are found by serial, so
 * nothing that outlives one, such as a store commit, holds a pointer to
 * it). */
#ifndef WARMBOX_SCHED_DAEMON_H
#define WARMBOX_SCHED_DAEMON_H

#include "admission.h"
#include "auth.h"
#include "config.h"
#include "exec.h"
#include "metrics.h"
#include "startgate.h"
#include "warmbox/engine.h"
#include "warmbox/pool.h"
#include "warmbox/profile.h"
#include "warmbox/sandbox.h"
#include "warmbox/store.h"

struct event_base;

struct sched_ctx
{
  struct event_base *base;
  sched_config_t cfg;
  prof_set_t *profiles;
  eng_t *eng;
  sbx_t *sbx;
  char instance_id[33];
  bool leaving;       /* SIGTERM seen: /readyz fails, the agent says drain */
  bool draining;      /* drain_delay_ms later: refuse new work, finish what runs */
  bool engine_ok;     /* last ping answered */
  bool reaped;        /* orphans reaped once the engine answered */
  bool reaping;       /* the reaper's list is out */
  struct image_lookup *lookups; /* image resolutions in flight */
  /* Image ids resolved per profile (same order as profiles->items). */
  char **image_ids;
  pool_mgr_t *pools;
  store_t *store;
  sched_auth_t auth;
  char engine_desc[160]; /* recorded with each execution */
  startgate_t gate;
  metrics_t metrics;
  /* Every execution in flight (exec.c's registry), and those of them that
   * wait for room to run (max_concurrent), fair across clients. */
  sched_exec_t *execs;
  size_t n_execs;
  adm_queue_t admission;
  struct event *admit_ev;  /* admits from the queue, from the loop */
  uint64_t end_us[32];     /* when the last executions ended: the service rate */
  uint32_t n_ends;
  uint64_t next_serial;
  /* Profile sets replaced by SIGHUP: requests admitted before it still
   * point into them.  Freed when nothing runs. */
  prof_set_t *retired[16];
  size_t n_retired;
};

/* Set up everything but the listeners, the signals and the timers: engine
 * client, sandbox, pools, store (which marks rows a dead daemon left
 * "running" as "interrupted").  ctx->cfg and ctx->profiles must be loaded;
 * ctx->base made.  -1 with err; sched_ctx_clear then frees what was made. */
int sched_ctx_init (sched_ctx_t *ctx, wb_err_t *err);
/* Abandon executions still in flight, close the store (its pending records
 * get up to store_timeout_ms), free the rest.  Leaves cfg and profiles to
 * the caller.  Can't fail. */
void sched_ctx_clear (sched_ctx_t *ctx, uint32_t store_timeout_ms);

/* (Re)make the pool of profile i for its resolved image id. */
void sched_pool_update (sched_ctx_t *ctx, size_t i);
/* Resolve (or re-resolve) every profile's image id; pools follow.  Async. */
void sched_images_refresh (sched_ctx_t *ctx);
/* The engine answered a ping.  Reaps orphans once (until a reap succeeds);
 * when was_down (first answer, or after an outage) also retries waiting
 * creates and removals now and re-resolves the images. */
void sched_engine_answers (sched_ctx_t *ctx, bool was_down);

#endif
