/* pool: warm-pool policy.  Ready lists of never-started containers, one per
 * key (language, image id, profile hash[, memory variant]), the requests
 * waiting for them, sizing, handout and drain.  Containers themselves are
 * made and destroyed by the sandbox module (sandbox.h); a pool only decides
 * when.
 *
 * Exactly once: handout removes the container from its ready list before
 * the caller can issue any I/O for it, so a container goes to exactly one
 * execution.  The caller then owns it and gives it back with pool_release(),
 * which removes it (never reused) and lets the pool refill.
 *
 * The cold path is a pool too: a request whose container no warm pool can
 * hold (a non-default memory limit is part of the container's cgroup) gets
 * a *transient* pool of size 0 for its key; its waiter makes the pool create
 * one container, and the pool is freed as soon as it holds nothing.  So
 * every container, pooled or not, is made by one path with one set of labels
 * and hardening.
 *
 * Sizing: each pool keeps between min_ready and max_ready ready containers;
 * its target follows the arrival rate (Little's law: arrivals/s x measured
 * create time x headroom).  A global cap bounds every container of the
 * sandbox (creating, ready, handed out, being removed); when it is reached
 * and requests wait, an idle ready container of another pool is given back
 * to make room.  Creates run with
 * bounded concurrency and back off (exponential, with jitter) while the
 * engine fails.  The owner can ask creates to yield (pool_mgr_set_yield)
 * while starts are queued on the critical path.
 *
 * Ownership: the manager owns its pools, their ready containers and their
 * waiters; it borrows the sandbox.  A pool stays alive, even draining, while
 * it has handed-out containers or waiters, so a pool_t* held for release
 * stays valid until pool_release.
 *
 * Callbacks run on the loop.  A waiter's callback may acquire or release
 * containers and may cancel other waiters; filling never runs inside a
 * callback (it is deferred to the loop).
 */
#ifndef WARMBOX_POOL_H
#define WARMBOX_POOL_H

#include "warmbox/sandbox.h"
#include "warmbox/wb.h"

typedef struct pool_mgr pool_mgr_t;
typedef struct pool pool_t;
typedef struct pool_waiter pool_waiter_t;

typedef struct pool_mgr_config
{
  uint32_t max_containers;     /* global cap, over sbx_count() */
  uint32_t create_concurrency; /* creates in flight at most (>= 1) */
  uint32_t max_waiters;        /* per pool; past it acquire answers busy */
  uint32_t tick_ms;            /* sizing and retry tick; 0: 1000 */
  uint32_t backoff_min_ms;     /* first pause after a failed create; 0: 100 */
  /* Told of "sized" (a pool made or resized: detail "min_ready=N
   * max_ready=M") and "drained" (a pool), with a duration in ms (-1 when
   * none) and a detail.  (Handouts are not events: every execution's row
   * says whether it was a hit.)  May be NULL.  Runs on the loop; must not
   * call back into the pool manager. */
  void (*on_event) (void *arg, const char *event, const char *language, const char *pool_key,
                    const char *container_id, double duration_ms, const char *detail);
  void *event_arg;
} pool_mgr_config_t;

/* What one pool is built from. */
typedef struct pool_spec
{
  sbx_tmpl_t *tmpl;         /* taken over by pool_mgr_ensure, success or not */
  const char *profile_hash; /* hex, for stats; copied */
  uint32_t min_ready, max_ready;
  bool transient; /* a request's own key: size 0, freed when empty */
} pool_spec_t;

/* Counters and gauges of one pool, for /v1/pools and /metrics. */
typedef struct pool_stats
{
  const char *language, *image_id, *profile_hash, *key;
  bool draining, transient;
  uint32_t min_ready, max_ready, target;
  uint32_t ready, creating, in_use, waiting;
  uint64_t hits, misses, created, create_failures, destroyed;
  double arrival_rate;    /* per second, smoothed */
  double create_ms;       /* smoothed create time */
  const char *last_error; /* "" when none */
} pool_stats_t;

/* No I/O.  -1 with err on allocation failure. */
WB_MUST_CHECK int pool_mgr_new (struct event_base *base, sbx_t *sbx, const pool_mgr_config_t *cfg,
                                pool_mgr_t **out, wb_err_t *err);
/* Cancel waiters (no callbacks) and creates; ready containers are NOT
 * removed here (see pool_mgr_drain_all): they are left to the reaper.  NULL
 * is a no-op. */
void pool_mgr_free (pool_mgr_t *mgr);

/* The pool for spec's key, made (and filling) if new.  For a pool that is
 * not transient, any other such pool of the same language is drained: its
 * ready containers are removed, its waiters move to the new pool.  NULL
 * with err on allocation failure. */
pool_t *pool_mgr_ensure (pool_mgr_t *mgr, pool_spec_t *spec, wb_err_t *err);
/* Drain every pool of a language that is no longer served; its waiters
 * fail (WB_E_NOT_FOUND).  Can't fail. */
void pool_mgr_retire (pool_mgr_t *mgr, const char *language);
/* The live (not draining, not transient) pool of a language, or NULL. */
pool_t *pool_mgr_find (pool_mgr_t *mgr, const char *language);
/* The live pool of a key (transient or not), or NULL. */
pool_t *pool_mgr_find_key (pool_mgr_t *mgr, const char *key);
/* SIGTERM: from now on create only for waiting requests (no top-ups).
 * Can't fail. */
void pool_mgr_set_draining (pool_mgr_t *mgr);
/* While yield is true (starts use the engine), creates wait unless a
 * waiter needs one, and removals of used containers are held back — for at
 * most 1 s of continuous yield (a burst; sustained load must refill all
 * the same) and 2 s per removal; all go when yield ends. */
void pool_mgr_set_yield (pool_mgr_t *mgr, bool yield);
/* Room may have freed under the cap (a container is gone): fill soon.
 * Safe from any callback. */
void pool_mgr_kick (pool_mgr_t *mgr);
/* The engine answers again after failing: forget the create backoff and
 * fill now.  Can't fail. */
void pool_mgr_engine_back (pool_mgr_t *mgr);
/* The owner took the engine out (it stopped answering): every ready
 * container is given to the sandbox for removal (retried until the engine
 * answers, see sbx_remove), every waiter fails with WB_E_ENGINE_DOWN (its
 * request may go elsewhere: nothing of it started), and neither creates
 * nor new waiters are taken until pool_mgr_engine_back.  Can't fail. */
void pool_mgr_engine_lost (pool_mgr_t *mgr);
/* Its creates are failing now (backing off after a failure). */
bool pool_mgr_failing (const pool_mgr_t *mgr);
/* Containers the cap still has room for (max_containers - sbx_count). */
uint32_t pool_mgr_free_capacity (const pool_mgr_t *mgr);
/* Remove every ready container, fail every waiter (WB_E_BUSY) and stop
 * refilling (shutdown).  Returns the number of removals started. */
size_t pool_mgr_drain_all (pool_mgr_t *mgr);

/* Stats of every pool, live first.  The array and strings belong to the
 * manager and stay valid until the next call into it. */
size_t pool_mgr_stats (pool_mgr_t *mgr, const pool_stats_t **out);
/* True when every live (not transient) pool holds at least min_ready
 * ready containers, and there is at least one. */
bool pool_mgr_ready (const pool_mgr_t *mgr);
/* What /readyz reports about the pools: false until pool_mgr_ready has
 * held once; after that, false only while some live pool is below
 * min_ready and its creates have been failing (none succeeding, the
 * latest failure recent) for more than grace_ms.  A pool emptied by traffic, or kept empty by the
 * global cap, is healthy: only an engine that can't make containers is not (a hung create fails at
 * the engine timeout). */
bool pool_mgr_healthy (pool_mgr_t *mgr, uint64_t grace_ms);

/* Acquire a container.  On a hit returns 1 with *id set (a malloc'd string
 * the caller owns) and cb is never called.  Otherwise returns 0 with *waiter
 * set: cb(arg, from, id, NULL) follows when a container is ready (FIFO), or
 * cb(arg, NULL, NULL, err) on failure (engine down, language retired,
 * shutdown); the waiter is freed after its callback.  `from` is the pool to
 * release the container to: a waiter moves to the new pool when its pool is
 * replaced.  -1 with err when the pool takes no more waiters (WB_E_BUSY) or
 * the engine is known down (WB_E_ENGINE_DOWN); a transient pool left empty
 * by a refusal is freed at once. */
typedef void (*pool_acquire_cb) (void *arg, pool_t *from, char *id, const wb_err_t *err);
WB_MUST_CHECK int pool_acquire (pool_t *pool, pool_acquire_cb cb, void *arg, char **id,
                                pool_waiter_t **waiter, wb_err_t *err);
/* Give up waiting (deadline passed, client gone): no callback.  NULL ok. */
void pool_waiter_cancel (pool_waiter_t *w);
/* The execution is over: remove the container (now, or once the engine
 * is less busy: see pool_mgr_set_yield; always now when may_run: its
 * program was not seen to exit, and the forced removal is what stops it)
 * and refill.  pool is the pool it came from.  Never fails (see
 * sbx_remove). */
void pool_release (pool_t *pool, const char *id, bool may_run);
/* Ready containers in the pool now. */
uint32_t pool_ready_count (const pool_t *pool);
/* The pool's key and language.  Never NULL. */
const char *pool_key (const pool_t *pool);
const char *pool_language (const pool_t *pool);

/* Pure sizing rule, for tests: the ready target for an arrival rate (per
 * second) and a create time (ms), clamped to [min_ready, max_ready]. */
uint32_t pool_target (double arrivals_per_s, double create_ms, uint32_t min_ready,
                      uint32_t max_ready);

#endif
