/* pool/pool.c: warm-pool policy.  See include/warmbox/pool.h for the
 * contract.
 *
 * Re-entrancy: sandbox callbacks and waiter callbacks may add or remove
 * pool entries.  Filling never runs inside them: fill_soon() activates an
 * event, and fill() runs from the loop.  A pool is freed only when it is
 * draining (or transient) and holds nothing (no ready, creating or
 * handed-out container, no waiter), checked after each of those counts
 * drops (maybe_free_pool). */
#define _GNU_SOURCE
#include "warmbox/pool.h"

#include <event2/event.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>

#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 10000
#define RATE_TAU_S 10.0 /* arrival-rate smoothing horizon */
#define HEADROOM 2.0
#define STATS_ERR_MAX 512

typedef struct ready_node
{
  char *id;
  struct ready_node *next;
} ready_node_t;

struct pool_waiter
{
  pool_t *pool;
  pool_acquire_cb cb;
  void *arg;
  pool_waiter_t *prev, *next;
};

/* A used container whose removal waits until starts stop crowding the
 * engine. */
typedef struct deferred
{
  struct deferred *next;
  uint64_t since_us;
  char id[80];
  char language[33];
  char key[SBX_KEY_MAX];
} deferred_t;

#define DEFER_MAX_MS 2000 /* a used container is removed by then at the latest */
#define YIELD_MAX_MS 1000 /* top-ups pause for a burst, not for sustained load */

/* One create in flight, for one pool. */
typedef struct create_op
{
  pool_t *pool;
  sbx_op_t *op;
  uint64_t started_us;
  struct create_op *prev, *next;
} create_op_t;

struct pool
{
  pool_mgr_t *mgr;
  pool_t *next;
  sbx_tmpl_t *tmpl;
  char *profile_hash;
  uint32_t min_ready, max_ready;
  bool draining, transient;
  int busy; /* inside a waiter's callback: not to be freed */

  ready_node_t *ready_head, *ready_tail;
  uint32_t n_ready, n_creating, n_in_use, n_waiting;
  pool_waiter_t *wait_head, *wait_tail;

  uint64_t hits, misses, created, create_failures, destroyed;
  uint32_t arrivals_this_tick;
  double arrival_rate;
  double create_ms;
  uint64_t failing_since_us; /* the first failed create since the last success, or 0 */
  uint64_t last_failure_us;  /* the latest failed create */
  char last_error[STATS_ERR_MAX];
};

struct pool_mgr
{
  struct event_base *base;
  sbx_t *sbx;
  pool_mgr_config_t cfg;
  pool_t *pools;
  create_op_t *creates; /* every create in flight */
  deferred_t *deferred; /* removals held while the engine is busy with starts */
  uint32_t n_creates;
  bool yield;
  uint64_t yield_since_us;
  bool draining; /* SIGTERM: serve waiters, no top-ups */
  bool stopping;
  uint64_t backoff_until_us;
  uint32_t backoff_ms;
  bool engine_down;
  bool engine_lost; /* taken out by the owner: no creates, no waiters (pool_mgr_engine_lost) */
  bool was_ready;   /* pool_mgr_ready has held once */
  struct event *tick;
  struct event *kick;
  pool_stats_t *stats;
  size_t stats_cap;
};

static void fill_soon (pool_mgr_t *mgr);
static void flush_deferred (pool_mgr_t *mgr, bool all);

static void
emit (pool_mgr_t *mgr, const char *event, const pool_t *p, const char *id, double ms,
      const char *detail)
{
  if (mgr->cfg.on_event)
    mgr->cfg.on_event (mgr->cfg.event_arg, event, sbx_tmpl_language (p->tmpl),
                       sbx_tmpl_key (p->tmpl), id ? id : "", ms, detail ? detail : "");
}

/* The sizes in force, for the history: a replay of it needs them. */
static void
emit_sized (const pool_t *p)
{
  char detail[64];

  snprintf (detail, sizeof detail, "min_ready=%u max_ready=%u create_concurrency=%u", p->min_ready,
            p->max_ready, p->mgr->cfg.create_concurrency);
  emit (p->mgr, "sized", p, NULL, -1, detail);
}

uint32_t
pool_target (double arrivals_per_s, double create_ms, uint32_t min_ready, uint32_t max_ready)
{
  double want = ceil (arrivals_per_s * (create_ms / 1000.0) * HEADROOM);
  uint32_t t;

  if (!isfinite (want) || want < 0)
    want = 0;
  t = want > (double) max_ready ? max_ready : (uint32_t) want;
  if (t < min_ready)
    t = min_ready;
  if (t > max_ready)
    t = max_ready;
  return t;
}

static uint32_t
target_of (const pool_t *p)
{
  return pool_target (p->arrival_rate, p->create_ms, p->min_ready, p->max_ready);
}

const char *
pool_key (const pool_t *p)
{
  return sbx_tmpl_key (p->tmpl);
}

const char *
pool_language (const pool_t *p)
{
  return sbx_tmpl_language (p->tmpl);
}

/* ---- pool lifetime --------------------------------------------------- */

static void
pool_free (pool_t *p)
{
  ready_node_t *n;

  while ((n = p->ready_head))
    {
      p->ready_head = n->next;
      free (n->id);
      free (n);
    }
  sbx_tmpl_free (p->tmpl);
  free (p->profile_hash);
  free (p);
}

/* Free a draining or transient pool once nothing refers to it any more. */
static void
maybe_free_pool (pool_t *p)
{
  pool_mgr_t *mgr = p->mgr;
  pool_t **pp;

  if (!(p->draining || p->transient) || p->busy || p->n_ready || p->n_creating || p->n_in_use
      || p->n_waiting)
    return;
  for (pp = &mgr->pools; *pp; pp = &(*pp)->next)
    if (*pp == p)
      {
        *pp = p->next;
        if (!p->transient)
          wb_info ("pool %s drained and gone", pool_key (p));
        pool_free (p);
        return;
      }
}

static void
destroy (pool_t *p, const char *id)
{
  p->destroyed++;
  sbx_remove (p->mgr->sbx, id, pool_language (p), pool_key (p));
}

/* ---- waiters --------------------------------------------------------- */

static void
waiter_unlink (pool_waiter_t *w)
{
  pool_t *p = w->pool;

  if (w->prev)
    w->prev->next = w->next;
  else
    p->wait_head = w->next;
  if (w->next)
    w->next->prev = w->prev;
  else
    p->wait_tail = w->prev;
  w->prev = w->next = NULL;
  p->n_waiting--;
}

static void
waiter_append (pool_t *p, pool_waiter_t *w)
{
  w->pool = p;
  w->prev = p->wait_tail;
  w->next = NULL;
  if (p->wait_tail)
    p->wait_tail->next = w;
  else
    p->wait_head = w;
  p->wait_tail = w;
  p->n_waiting++;
}

void
pool_waiter_cancel (pool_waiter_t *w)
{
  pool_t *p;

  if (w == NULL)
    return;
  p = w->pool;
  waiter_unlink (w);
  free (w);
  maybe_free_pool (p);
}

/* Fail every waiter of p with err (engine down, language retired ...).
 * Each callback may touch the pool; the list is re-read every time, and p
 * outlives the callbacks (busy); the caller frees it if it may go. */
static void
fail_waiters (pool_t *p, const wb_err_t *err)
{
  pool_waiter_t *w;

  p->busy++;
  while ((w = p->wait_head))
    {
      waiter_unlink (w);
      w->cb (w->arg, NULL, NULL, err);
      free (w);
    }
  p->busy--;
}

/* Every ready container of p goes (removed, never used). */
static void
empty_ready (pool_t *p)
{
  ready_node_t *n;

  while ((n = p->ready_head))
    {
      p->ready_head = n->next;
      p->n_ready--;
      destroy (p, n->id);
      free (n->id);
      free (n);
    }
  p->ready_tail = NULL;
}

/* ---- creation -------------------------------------------------------- */

static void
backoff (pool_mgr_t *mgr)
{
  uint32_t jitter = 0;

  mgr->backoff_ms = mgr->backoff_ms ? mgr->backoff_ms * 2 : mgr->cfg.backoff_min_ms;
  if (mgr->backoff_ms > BACKOFF_MAX_MS)
    mgr->backoff_ms = BACKOFF_MAX_MS;
  if (getrandom (&jitter, sizeof jitter, GRND_NONBLOCK) < 0)
    jitter = 0;
  /* Full jitter on the upper half: [backoff/2, backoff]. */
  mgr->backoff_until_us
      = wb_now_us () + 1000ull * (mgr->backoff_ms / 2 + jitter % (mgr->backoff_ms / 2 + 1));
}

static void
create_op_free (create_op_t *c)
{
  WB_LIST_UNLINK (c->pool->mgr->creates, c);
  free (c);
}

/* A new container for p: to the first waiter, else to the ready list, else
 * (draining, stopping, or more than the pool may hold) away. */
static void
place (pool_t *p, const char *id)
{
  pool_mgr_t *mgr = p->mgr;
  pool_waiter_t *w = p->wait_head;
  char *copy;

  /* A create that answers after the engine was taken out: its container
   * goes (the removal waits for the engine), it must not hold the engine's
   * re-admission up by sitting in a ready list nothing empties. */
  if (p->draining || mgr->stopping || mgr->engine_lost || (w == NULL && p->n_ready >= p->max_ready))
    {
      destroy (p, id);
      return;
    }
  copy = strdup (id);
  if (copy == NULL)
    {
      destroy (p, id);
      return; /* the waiter keeps waiting: the next create is for it */
    }
  if (w)
    {
      waiter_unlink (w);
      p->n_in_use++;
      p->busy++;
      w->cb (w->arg, p, copy, NULL);
      p->busy--;
      free (w);
      return;
    }
  ready_node_t *n = calloc (1, sizeof *n);
  if (n == NULL)
    {
      free (copy);
      destroy (p, id);
      return;
    }
  n->id = copy;
  if (p->ready_tail)
    p->ready_tail->next = n;
  else
    p->ready_head = n;
  p->ready_tail = n;
  p->n_ready++;
}

static void
created_cb (void *arg, const char *id, const wb_err_t *err)
{
  create_op_t *c = arg;
  pool_t *p = c->pool;
  pool_mgr_t *mgr = p->mgr;
  double ms = (double) (wb_now_us () - c->started_us) / 1000.0;

  create_op_free (c);
  p->n_creating--;
  mgr->n_creates--;
  if (id == NULL)
    {
      wb_err_t e = *err;
      p->create_failures++;
      p->last_failure_us = wb_now_us ();
      if (p->failing_since_us == 0)
        p->failing_since_us = p->last_failure_us;
      snprintf (p->last_error, sizeof p->last_error, "%s", err->msg);
      mgr->engine_down = err->code == WB_E_ENGINE_DOWN;
      backoff (mgr);
      wb_warn ("pool %s: create failed (next try in %u ms or later): %s", pool_key (p),
               mgr->backoff_ms / 2, err->msg);
      /* Queued requests should hear now rather than at their deadline. */
      fail_waiters (p, &e);
      maybe_free_pool (p);
      fill_soon (mgr);
      return;
    }
  mgr->backoff_ms = 0;
  mgr->backoff_until_us = 0;
  mgr->engine_down = false;
  p->created++;
  p->failing_since_us = 0;
  p->create_ms = p->create_ms > 0 ? 0.8 * p->create_ms + 0.2 * ms : ms;
  place (p, id);
  maybe_free_pool (p);
  fill_soon (mgr);
}

static int
create_one (pool_t *p)
{
  pool_mgr_t *mgr = p->mgr;
  create_op_t *c = calloc (1, sizeof *c);
  wb_err_t err;

  if (c == NULL)
    return -1;
  c->pool = p;
  c->started_us = wb_now_us ();
  c->op = sbx_create (mgr->sbx, p->tmpl, created_cb, c, &err);
  if (c->op == NULL)
    {
      wb_warn ("pool %s: %s", pool_key (p), err.msg);
      free (c);
      return -1;
    }
  WB_LIST_PUSH (mgr->creates, c);
  p->n_creating++;
  mgr->n_creates++;
  return 0;
}

/* How many more containers p wants right now. */
static uint32_t
deficit (const pool_t *p)
{
  uint32_t have = p->n_ready + p->n_creating;
  uint32_t want = target_of (p);
  uint32_t need_waiters = p->n_waiting > p->n_creating ? p->n_waiting - p->n_creating : 0;
  uint32_t need_target = want > have ? want - have : 0;

  return need_waiters > need_target ? need_waiters : need_target;
}

/* The cap is reached and `for_pool` has waiters: give back one idle
 * ready container of another pool (the one with the most ready above its
 * min_ready, else the most ready), so that waiting requests are not
 * starved by containers nobody is asking for.  Its removal frees the room
 * (on_gone kicks the fill).  Returns true when one went. */
static bool
evict_one (pool_mgr_t *mgr, const pool_t *for_pool)
{
  pool_t *victim = NULL;
  long best = -1;

  for (pool_t *q = mgr->pools; q; q = q->next)
    {
      long score;
      if (q == for_pool || q->n_ready == 0)
        continue;
      score = q->n_ready > q->min_ready ? 100000L + (long) (q->n_ready - q->min_ready)
                                        : (long) q->n_ready;
      if (score > best)
        best = score, victim = q;
    }
  if (victim == NULL)
    return false;
  ready_node_t *n = victim->ready_head;
  victim->ready_head = n->next;
  if (victim->ready_head == NULL)
    victim->ready_tail = NULL;
  victim->n_ready--;
  wb_info ("pool %s: a ready container makes room under the cap for %s", pool_key (victim),
           pool_key (for_pool));
  destroy (victim, n->id);
  free (n->id);
  free (n);
  return true;
}

/* Top-ups and removals give way to starts for a burst's length: while
 * yield is on, for at most YIELD_MAX_MS in a row (under sustained load the
 * pools must refill all the same). */
static bool
holding (const pool_mgr_t *mgr)
{
  return mgr->yield && wb_now_us () - mgr->yield_since_us < YIELD_MAX_MS * 1000ull;
}

static void
fill (pool_mgr_t *mgr)
{
  bool progress;
  uint32_t waiting = 0;

  if (mgr->stopping || mgr->engine_lost)
    return;
  if (mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us)
    return; /* the tick retries */
  for (pool_t *p = mgr->pools; p; p = p->next)
    waiting += p->n_waiting > p->n_creating ? p->n_waiting - p->n_creating : 0;
  /* Round-robin one create per pool per pass; pools with waiters first. */
  for (int pass = 0; pass < 2; pass++)
    {
      progress = true;
      while (progress)
        {
          progress = false;
          for (pool_t *p = mgr->pools; p; p = p->next)
            {
              bool has_waiters = p->n_waiting > p->n_creating;
              if (p->draining || (pass == 0 && !has_waiters))
                continue;
              /* Starts on the critical path come first: top-ups wait, and
               * stop once the daemon drains. */
              if (pass == 1 && (holding (mgr) || mgr->draining))
                continue;
              if (mgr->n_creates >= mgr->cfg.create_concurrency)
                return;
              if (sbx_count (mgr->sbx) >= mgr->cfg.max_containers)
                {
                  /* Requests wait and the cap is full: first the used
                   * containers held back go, and only if their room does
                   * not cover the waiters, an idle ready one. */
                  if (pass == 0 && mgr->deferred)
                    flush_deferred (mgr, true);
                  else if (pass == 0 && sbx_removing (mgr->sbx) < waiting)
                    evict_one (mgr, p);
                  return;
                }
              if (deficit (p) == 0)
                continue;
              if (create_one (p) == 0)
                progress = true;
            }
        }
    }
}

static void
kick_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  fill (arg);
}

static void
fill_soon (pool_mgr_t *mgr)
{
  if (mgr->kick && !mgr->stopping)
    event_active (mgr->kick, EV_TIMEOUT, 0);
}

void
pool_mgr_kick (pool_mgr_t *mgr)
{
  if (mgr)
    fill_soon (mgr);
}

static void
tick_cb (evutil_socket_t fd, short what, void *arg)
{
  pool_mgr_t *mgr = arg;
  double dt = mgr->cfg.tick_ms / 1000.0;
  double alpha = 1.0 - exp (-dt / RATE_TAU_S);

  (void) fd;
  (void) what;
  for (pool_t *p = mgr->pools; p; p = p->next)
    {
      p->arrival_rate += alpha * ((double) p->arrivals_this_tick / dt - p->arrival_rate);
      p->arrivals_this_tick = 0;
    }
  flush_deferred (mgr, false);
  fill (mgr);
}

/* ---- public ---------------------------------------------------------- */

int
pool_mgr_new (struct event_base *base, sbx_t *sbx, const pool_mgr_config_t *cfg, pool_mgr_t **out,
              wb_err_t *err)
{
  pool_mgr_t *mgr = calloc (1, sizeof *mgr);
  struct timeval tick;

  if (mgr == NULL)
    return wb_error (err, WB_E_NOMEM, "pool: out of memory");
  mgr->base = base;
  mgr->sbx = sbx;
  mgr->cfg = *cfg;
  if (mgr->cfg.create_concurrency == 0)
    mgr->cfg.create_concurrency = 1;
  if (mgr->cfg.tick_ms == 0)
    mgr->cfg.tick_ms = 1000;
  if (mgr->cfg.backoff_min_ms == 0)
    mgr->cfg.backoff_min_ms = BACKOFF_MIN_MS;
  tick.tv_sec = mgr->cfg.tick_ms / 1000;
  tick.tv_usec = (mgr->cfg.tick_ms % 1000) * 1000;
  mgr->tick = event_new (base, -1, EV_PERSIST, tick_cb, mgr);
  mgr->kick = evtimer_new (base, kick_cb, mgr);
  if (mgr->tick == NULL || mgr->kick == NULL || event_add (mgr->tick, &tick) < 0)
    {
      pool_mgr_free (mgr);
      return wb_error (err, WB_E_NOMEM, "pool: cannot create timers");
    }
  *out = mgr;
  return 0;
}

void
pool_mgr_free (pool_mgr_t *mgr)
{
  pool_t *p;

  if (mgr == NULL)
    return;
  while (mgr->creates)
    {
      sbx_op_cancel (mgr->creates->op);
      create_op_free (mgr->creates);
    }
  while (mgr->deferred)
    {
      deferred_t *d = mgr->deferred;
      mgr->deferred = d->next;
      wb_warn ("container %.12s not removed at exit; left for the reaper", d->id);
      free (d);
    }
  while ((p = mgr->pools))
    {
      pool_waiter_t *w;
      mgr->pools = p->next;
      while ((w = p->wait_head))
        {
          waiter_unlink (w);
          free (w);
        }
      if (p->n_ready)
        wb_warn ("pool %s: %u ready containers left for the reaper", pool_key (p), p->n_ready);
      pool_free (p);
    }
  if (mgr->tick)
    event_free (mgr->tick);
  if (mgr->kick)
    event_free (mgr->kick);
  free (mgr->stats);
  free (mgr);
}

void
pool_mgr_engine_back (pool_mgr_t *mgr)
{
  mgr->backoff_ms = 0;
  mgr->backoff_until_us = 0;
  mgr->engine_down = false;
  mgr->engine_lost = false;
  fill_soon (mgr);
}

void
pool_mgr_engine_lost (pool_mgr_t *mgr)
{
  wb_err_t e;

  wb_error (&e, WB_E_ENGINE_DOWN, "the container engine is unavailable");
  mgr->engine_lost = true;
  mgr->engine_down = true;
  flush_deferred (mgr, true);
  for (pool_t *p = mgr->pools, *next; p; p = next)
    {
      empty_ready (p);
      fail_waiters (p, &e);
      next = p->next;
      maybe_free_pool (p);
    }
}

uint32_t
pool_ready_count (const pool_t *pool)
{
  return pool->n_ready;
}

bool
pool_mgr_failing (const pool_mgr_t *mgr)
{
  return mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us;
}

uint32_t
pool_mgr_free_capacity (const pool_mgr_t *mgr)
{
  uint32_t n = sbx_count (mgr->sbx);

  return n >= mgr->cfg.max_containers ? 0 : mgr->cfg.max_containers - n;
}

void
pool_mgr_set_draining (pool_mgr_t *mgr)
{
  mgr->draining = true;
}

void
pool_mgr_set_yield (pool_mgr_t *mgr, bool yield)
{
  bool was = mgr->yield;

  if (yield && !was)
    mgr->yield_since_us = wb_now_us ();
  mgr->yield = yield;
  if (was && !yield)
    {
      flush_deferred (mgr, true);
      fill_soon (mgr);
    }
}

static void
drain_pool (pool_t *p)
{
  if (!p->draining && !p->transient)
    emit (p->mgr, "drained", p, NULL, -1, NULL);
  p->draining = true;
  empty_ready (p);
}

void
pool_mgr_retire (pool_mgr_t *mgr, const char *language)
{
  wb_err_t e;

  wb_error (&e, WB_E_NOT_FOUND, "language %s is no longer served", language);
  /* A pool freed by a waiter's callback is unlinked, and the unlink
   * updates its predecessor's next: p itself survives (busy). */
  for (pool_t *p = mgr->pools, *next; p; p = next)
    {
      if (!p->draining && strcmp (pool_language (p), language) == 0)
        {
          wb_info ("pool %s: language no longer served; draining", pool_key (p));
          drain_pool (p);
          fail_waiters (p, &e);
        }
      next = p->next;
      maybe_free_pool (p);
    }
}

pool_t *
pool_mgr_find (pool_mgr_t *mgr, const char *language)
{
  for (pool_t *p = mgr->pools; p; p = p->next)
    if (!p->draining && !p->transient && strcmp (pool_language (p), language) == 0)
      return p;
  return NULL;
}

pool_t *
pool_mgr_find_key (pool_mgr_t *mgr, const char *key)
{
  for (pool_t *p = mgr->pools; p; p = p->next)
    if (!p->draining && strcmp (pool_key (p), key) == 0)
      return p;
  return NULL;
}

pool_t *
pool_mgr_ensure (pool_mgr_t *mgr, pool_spec_t *spec, wb_err_t *err)
{
  sbx_tmpl_t *tmpl = spec->tmpl;
  uint32_t max_ready = spec->max_ready < spec->min_ready ? spec->min_ready : spec->max_ready;
  pool_t *p, *old;

  spec->tmpl = NULL; /* ours from here, whatever happens */
  p = pool_mgr_find_key (mgr, sbx_tmpl_key (tmpl));
  if (p && p->transient == spec->transient)
    {
      /* Same key: only the sizes may have changed (config reload). */
      sbx_tmpl_free (tmpl);
      if (!p->transient && (p->min_ready != spec->min_ready || p->max_ready != max_ready))
        {
          p->min_ready = spec->min_ready;
          p->max_ready = max_ready;
          emit_sized (p);
          fill_soon (mgr);
        }
      return p;
    }
  old = spec->transient ? NULL : pool_mgr_find (mgr, sbx_tmpl_language (tmpl));

  p = calloc (1, sizeof *p);
  if (p == NULL
      || (p->profile_hash = strdup (spec->profile_hash ? spec->profile_hash : "")) == NULL)
    {
      free (p);
      sbx_tmpl_free (tmpl);
      wb_error (err, WB_E_NOMEM, "pool: out of memory");
      return NULL;
    }
  p->mgr = mgr;
  p->tmpl = tmpl;
  p->transient = spec->transient;
  p->min_ready = spec->transient ? 0 : spec->min_ready;
  p->max_ready = spec->transient ? 0 : max_ready;
  p->next = mgr->pools;
  mgr->pools = p;
  if (!p->transient)
    {
      wb_info ("pool %s: min_ready %u, max_ready %u", pool_key (p), p->min_ready, p->max_ready);
      emit_sized (p);
    }
  if (old)
    {
      /* The image or the profile changed: the old pool's never-started
       * containers go, its queued requests move to the new pool. */
      pool_waiter_t *w;
      wb_info ("pool %s replaces %s; draining the old one", pool_key (p), pool_key (old));
      p->arrival_rate = old->arrival_rate;
      p->create_ms = old->create_ms;
      while ((w = old->wait_head))
        {
          waiter_unlink (w);
          waiter_append (p, w);
        }
      drain_pool (old);
      maybe_free_pool (old);
    }
  fill_soon (mgr);
  return p;
}

int
pool_acquire (pool_t *p, pool_acquire_cb cb, void *arg, char **id, pool_waiter_t **waiter,
              wb_err_t *err)
{
  pool_mgr_t *mgr = p->mgr;
  pool_waiter_t *w;

  p->arrivals_this_tick++;
  if (p->ready_head)
    {
      ready_node_t *n = p->ready_head;
      /* Off the list before the caller can do anything with it. */
      p->ready_head = n->next;
      if (p->ready_head == NULL)
        p->ready_tail = NULL;
      p->n_ready--;
      p->n_in_use++;
      p->hits++;
      *id = n->id;
      free (n);
      fill_soon (mgr);
      return 1;
    }
  p->misses++;
  if (mgr->stopping || p->draining)
    wb_error (err, WB_E_BUSY, "the daemon is shutting down");
  else if (mgr->engine_lost)
    wb_error (err, WB_E_ENGINE_DOWN, "the container engine is unavailable");
  else if (mgr->engine_down && mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us)
    wb_error (err, WB_E_ENGINE_DOWN, "the container engine is unavailable");
  else if (p->n_waiting >= mgr->cfg.max_waiters)
    wb_error (err, WB_E_BUSY, "%u requests already wait for a %s sandbox", p->n_waiting,
              pool_language (p));
  else if ((w = calloc (1, sizeof *w)) == NULL)
    wb_error (err, WB_E_NOMEM, "out of memory");
  else
    {
      w->cb = cb;
      w->arg = arg;
      waiter_append (p, w);
      *waiter = w;
      fill_soon (mgr);
      return 0;
    }
  maybe_free_pool (p);
  return -1;
}

/* Remove the used containers held back: all of them, or (all = false)
 * those held for DEFER_MAX_MS. */
static void
flush_deferred (pool_mgr_t *mgr, bool all)
{
  uint64_t now = wb_now_us ();
  deferred_t **dp = &mgr->deferred;

  while (*dp)
    {
      deferred_t *d = *dp;
      if (!all && now - d->since_us < DEFER_MAX_MS * 1000ull)
        {
          dp = &d->next;
          continue;
        }
      *dp = d->next;
      sbx_remove (mgr->sbx, d->id, d->language, d->key);
      free (d);
    }
}

void
pool_release (pool_t *p, const char *id, bool may_run)
{
  pool_mgr_t *mgr = p->mgr;
  deferred_t *d = NULL;

  p->n_in_use--;
  p->destroyed++;
  /* While starts crowd the engine (a burst), a removal only competes with
   * them: hold it back (the cap still counts the container) for a moment.
   * Never one whose program may still run: its removal is what stops it. */
  if (!may_run && holding (mgr) && !mgr->stopping && (d = calloc (1, sizeof *d)) != NULL)
    {
      d->since_us = wb_now_us ();
      snprintf (d->id, sizeof d->id, "%s", id);
      snprintf (d->language, sizeof d->language, "%s", pool_language (p));
      snprintf (d->key, sizeof d->key, "%s", pool_key (p));
      d->next = mgr->deferred;
      mgr->deferred = d;
    }
  else
    sbx_remove (mgr->sbx, id, pool_language (p), pool_key (p));
  maybe_free_pool (p);
}

size_t
pool_mgr_drain_all (pool_mgr_t *mgr)
{
  size_t n = 0;
  wb_err_t e;

  mgr->stopping = true;
  flush_deferred (mgr, true);
  sbx_retry_now (mgr->sbx);
  wb_error (&e, WB_E_BUSY, "the daemon is shutting down");
  for (pool_t *p = mgr->pools, *next; p; p = next)
    {
      n += p->n_ready;
      drain_pool (p);
      fail_waiters (p, &e);
      next = p->next;
      maybe_free_pool (p);
    }
  return n;
}

bool
pool_mgr_ready (const pool_mgr_t *mgr)
{
  bool any = false;

  for (const pool_t *p = mgr->pools; p; p = p->next)
    {
      if (p->draining || p->transient)
        continue;
      any = true;
      if (p->n_ready < p->min_ready)
        return false;
    }
  return any;
}

bool
pool_mgr_healthy (pool_mgr_t *mgr, uint64_t grace_ms)
{
  uint64_t now = wb_now_us ();
  /* Failing means failing still: a create failed within this window (a
   * pool whose creates keep failing retries at least every BACKOFF_MAX_MS).
   * One old failure of a pool that has had no chance to create since
   * (the global cap full, create slots busy with other pools) is not. */
  uint64_t recent_us = 1000ull * (grace_ms > 2 * BACKOFF_MAX_MS ? grace_ms : 2 * BACKOFF_MAX_MS);

  if (!mgr->was_ready)
    return mgr->was_ready = pool_mgr_ready (mgr);
  for (const pool_t *p = mgr->pools; p; p = p->next)
    if (!p->draining && !p->transient && p->n_ready < p->min_ready && p->failing_since_us
        && now - p->failing_since_us > grace_ms * 1000 && now - p->last_failure_us <= recent_us)
      return false;
  return true;
}

size_t
pool_mgr_stats (pool_mgr_t *mgr, const pool_stats_t **out)
{
  size_t n = 0;

  for (pool_t *p = mgr->pools; p; p = p->next)
    n++;
  if (n > mgr->stats_cap)
    {
      pool_stats_t *s = realloc (mgr->stats, n * sizeof *s);
      if (s == NULL)
        {
          *out = mgr->stats;
          return 0;
        }
      mgr->stats = s;
      mgr->stats_cap = n;
    }
  n = 0;
  for (int draining = 0; draining < 2; draining++)
    for (pool_t *p = mgr->pools; p; p = p->next)
      {
        pool_stats_t *s;
        if (p->draining != (bool) draining)
          continue;
        s = &mgr->stats[n++];
        s->language = pool_language (p);
        s->image_id = sbx_tmpl_image_id (p->tmpl);
        s->profile_hash = p->profile_hash;
        s->key = pool_key (p);
        s->draining = p->draining;
        s->transient = p->transient;
        s->min_ready = p->min_ready;
        s->max_ready = p->max_ready;
        s->target = target_of (p);
        s->ready = p->n_ready;
        s->creating = p->n_creating;
        s->in_use = p->n_in_use;
        s->waiting = p->n_waiting;
        s->hits = p->hits;
        s->misses = p->misses;
        s->created = p->created;
        s->create_failures = p->create_failures;
        s->destroyed = p->destroyed;
        s->arrival_rate = p->arrival_rate;
        s->create_ms = p->create_ms;
        s->last_error = p->last_error;
      }
  *out = mgr->stats;
  return n;
}
