/* pool: warm pools of never-started containers, one per key
 * (language, image id, profile hash).
 *
 * The manager owns every container it created until it hands one out:
 * handout removes the container from its ready list before the caller can
 * issue any I/O for it, so a container goes to exactly one execution.  The
 * caller then owns the engine-side container and gives it back with
 * pool_release(), which removes it (never reused) and lets the pool refill.  Nothing here knows HTTP or executions; the manager only needs
 * the engine and, per pool, the create body.
 *
 * Sizing: each pool keeps between min_ready and max_ready ready containers;
 * its target follows the arrival rate (Little's law: arrivals/s x measured
 * create time x headroom).  A global cap bounds created + handed-out
 * containers.  Creates run with bounded concurrency and back off (exponential,
 * with jitter) while the engine fails.  The owner can ask creates to yield
 * (pool_mgr_set_yield) while starts are queued on the critical path.
 *
 * Callbacks run on the loop.  A waiter's callback may acquire or release
 * containers and may cancel other waiters.
 */
#ifndef WARMBOX_POOL_H
#define WARMBOX_POOL_H

#include "warmbox/engine.h"
#include "warmbox/wb.h"

typedef struct pool_mgr pool_mgr_t;
typedef struct pool pool_t;
typedef struct pool_waiter pool_waiter_t;

typedef struct pool_mgr_config
{
  const char *instance_id;   /* warmbox.instance label of this daemon */
  uint32_t max_containers;   /* global cap: created (ready or creating) + handed out */
  uint32_t create_concurrency; /* creates in flight at most (>= 1) */
  uint32_t max_waiters;      /* per pool; past it acquire answers busy */
  /* Told of every container's life: "created", "create_failed",
   * "handed_out", "destroyed", "drained" (a pool), with a duration in ms
   * (-1 when none).  May be NULL.  Runs on the loop; must not call back
   * into the pool manager. */
  void (*on_event) (void *arg, const char *event, const char *language, const char *pool_key,
                    const char *container_id, double duration_ms, const char *detail);
  void *event_arg;
} pool_mgr_config_t;

/* What one pool is built from.  Strings are copied. */
typedef struct pool_spec
{
  const char *language;
  const char *image_id;     /* "sha256:..." */
  const char *profile_hash; /* hex */
  /* Engine API create JSON from the profile.  The pool stamps its labels
   * (warmbox.instance, warmbox.pool, warmbox.owner) and a uid of each
   * container's own into "User" (so the per-uid nproc limit is per
   * container). */
  const char *create_body;
  uint32_t min_ready, max_ready;
} pool_spec_t;

/* Counters and gauges of one pool, for /v1/pools and /metrics. */
typedef struct pool_stats
{
  const char *language, *image_id, *profile_hash, *key;
  bool draining;
  uint32_t min_ready, max_ready, target;
  uint32_t ready, creating, in_use, waiting;
  uint64_t hits, misses, created, create_failures, destroyed;
  double arrival_rate;       /* per second, smoothed */
  double create_ms;          /* smoothed create time */
  const char *last_error;    /* "" when none */
} pool_stats_t;

int pool_mgr_new (struct event_base *base, eng_t *eng, const pool_mgr_config_t *cfg,
                  pool_mgr_t **out, wb_err_t *err);
/* Cancel waiters (no callbacks), stop creating; ready containers are NOT
 * removed here (see pool_mgr_drain_all).  NULL is a no-op. */
void pool_mgr_free (pool_mgr_t *mgr);

/* The pool for spec's key, made (and filling) if new.  Any other pool of
 * the same language is drained: its ready containers are removed, its
 * waiters move to the new pool.  NULL with err on allocation failure. */
pool_t *pool_mgr_ensure (pool_mgr_t *mgr, const pool_spec_t *spec, wb_err_t *err);
/* Drain the live pool of a language that is no longer served.  Can't fail. */
void pool_mgr_retire (pool_mgr_t *mgr, const char *language);
/* The live (not draining) pool of a language, or NULL. */
pool_t *pool_mgr_find (pool_mgr_t *mgr, const char *language);
/* While yield is true, creates wait unless a waiter needs one. */
void pool_mgr_set_yield (pool_mgr_t *mgr, bool yield);
/* Remove every ready container and stop refilling (shutdown).  Returns the
 * number of removals started; pool_mgr_busy() says when they are done. */
size_t pool_mgr_drain_all (pool_mgr_t *mgr);
/* Creates and removals in flight. */
size_t pool_mgr_busy (const pool_mgr_t *mgr);
/* Remove labelled containers left by daemons that are gone (crashed or
 * killed): owner label of this host with a dead pid, or of an earlier boot.
 * Async; logs what it removed. */
void pool_mgr_reap_orphans (pool_mgr_t *mgr);
/* The next uid for a container, from the one rotation every container of
 * this daemon shares (pools' and requests' own), so that no two live
 * containers share the per-uid nproc limit.  Can't fail. */
uint32_t pool_mgr_next_uid (pool_mgr_t *mgr);

/* Stats of every pool, live first.  The array and strings belong to the
 * manager and stay valid until the next call into it. */
size_t pool_mgr_stats (pool_mgr_t *mgr, const pool_stats_t **out);
/* True when every live pool holds at least min_ready ready containers. */
bool pool_mgr_ready (const pool_mgr_t *mgr);

/* Acquire a container.  On a hit returns 1 with *id set (a malloc'd string
 * the caller owns) and cb is never called.  Otherwise returns 0 with *waiter
 * set: cb(arg, from, id, NULL) follows when a container is ready (FIFO), or
 * cb(arg, NULL, NULL, err) on failure (engine down, language retired); the
 * waiter is freed after its callback.  `from` is the pool to release the
 * container to: a waiter moves to the new pool when its pool is replaced.
 * -1 with err when the pool cannot take more waiters (WB_E_BUSY). */
typedef void (*pool_acquire_cb) (void *arg, pool_t *from, char *id, const wb_err_t *err);
int pool_acquire (pool_t *pool, pool_acquire_cb cb, void *arg, char **id, pool_waiter_t **waiter,
                  wb_err_t *err);
/* Give up waiting (deadline passed, client gone): no callback.  NULL ok. */
void pool_waiter_cancel (pool_waiter_t *w);
/* The execution is over: remove the container and refill.  pool is the
 * pool it came from (kept alive, even when draining, until every container
 * it handed out is released).  Never fails: a failed removal is logged and
 * left to the reaper. */
void pool_release (pool_t *pool, const char *id);

/* Remove a container that did not come from a pool (a request's own):
 * retried while the engine is away, like every removal here.  Never fails. */
void pool_mgr_remove (pool_mgr_t *mgr, const char *id);

/* Pure sizing rule, for tests: the ready target for an arrival rate (per
 * second) and a create time (ms), clamped to [min_ready, max_ready]. */
uint32_t pool_target (double arrivals_per_s, double create_ms, uint32_t min_ready,
                      uint32_t max_ready);

#endif
