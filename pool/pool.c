/* pool/pool.c: warm pools of never-started containers.  See
 * include/warmbox/pool.h for the contract.
 *
 * Re-entrancy: engine callbacks and waiter callbacks may add or remove
 * pool entries.  Filling never runs inside them: fill_soon() arms a zero
 * timer, and fill() runs from the loop.  A pool is freed only when it is
 * draining and holds nothing (no ready, creating or handed-out container,
 * no waiter), checked after each of those counts drops. */
#define _GNU_SOURCE
#include "warmbox/pool.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <event2/event.h>
#include <math.h>
#include <string.h>
#include <sys/random.h>

#define UID_FIRST 20000u
#define UID_COUNT 40000u
#define BACKOFF_MIN_MS 100
#define BACKOFF_MAX_MS 10000
#define TICK_MS 1000
#define RATE_TAU_S 10.0   /* arrival-rate smoothing horizon */
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

struct pool
{
  pool_mgr_t *mgr;
  pool_t *next;
  char *language, *image_id, *profile_hash, *key;
  cJSON *tmpl;
  uint32_t min_ready, max_ready;
  bool draining;

  ready_node_t *ready_head, *ready_tail;
  uint32_t n_ready, n_creating, n_in_use, n_waiting;
  pool_waiter_t *wait_head, *wait_tail;

  uint64_t hits, misses, created, create_failures, destroyed;
  uint32_t arrivals_this_tick;
  double arrival_rate;
  double create_ms;
  char last_error[STATS_ERR_MAX];
};

struct pool_mgr
{
  struct event_base *base;
  eng_t *eng;
  pool_mgr_config_t cfg;
  char instance_id[64];
  char owner[256];
  char hostname[128];
  char boot_id[64];
  pool_t *pools;
  uint32_t n_total;      /* ready + creating + in use + being removed */
  uint32_t n_creates;    /* creates in flight */
  uint32_t n_removals;   /* removals in flight */
  uint32_t next_uid;
  bool yield;
  bool stopping;
  uint64_t backoff_until_us;
  uint32_t backoff_ms;
  bool engine_down;
  struct event *tick;
  struct event *kick;
  struct remove_op *retry; /* removals that failed: tried again on ticks */
  uint32_t n_retry;
  pool_stats_t *stats;
  size_t stats_cap;
};

typedef struct create_op
{
  pool_t *pool;
  uint64_t started_us;
} create_op_t;

typedef struct remove_op
{
  pool_mgr_t *mgr;
  char id[80];
  char language[33];
  char key[160];
  uint64_t started_us;
  uint32_t attempts;
  struct remove_op *next; /* on the retry list */
} remove_op_t;

#define REMOVE_ATTEMPTS 20 /* about 10 minutes of ticks with backoff */

static void fill_soon (pool_mgr_t *mgr);

static void
emit (pool_mgr_t *mgr, const char *event, const char *language, const char *key, const char *id,
      double ms, const char *detail)
{
  if (mgr->cfg.on_event)
    mgr->cfg.on_event (mgr->cfg.event_arg, event, language, key, id ? id : "", ms,
                       detail ? detail : "");
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
  cJSON_Delete (p->tmpl);
  free (p->language);
  free (p->image_id);
  free (p->profile_hash);
  free (p->key);
  free (p);
}

/* Free a draining pool once nothing refers to it any more. */
static void
maybe_reap_pool (pool_t *p)
{
  pool_mgr_t *mgr = p->mgr;
  pool_t **pp;

  if (!p->draining || p->n_ready || p->n_creating || p->n_in_use || p->n_waiting)
    return;
  for (pp = &mgr->pools; *pp; pp = &(*pp)->next)
    if (*pp == p)
      {
        *pp = p->next;
        wb_info ("pool %s drained and gone", p->key);
        pool_free (p);
        return;
      }
}

/* ---- removal --------------------------------------------------------- */

static void start_removal (remove_op_t *op);

static void
removed_cb (void *arg, const eng_result_t *r)
{
  remove_op_t *op = arg;
  pool_mgr_t *mgr = op->mgr;

  mgr->n_removals--;
  if (r->rc < 0 && ++op->attempts < REMOVE_ATTEMPTS)
    {
      /* Most likely the engine is away: keep the id and try again on a
       * later tick, so nothing leaks until the next start-up. */
      wb_warn ("container %.12s not removed (try %u): %s", op->id, op->attempts, r->err.msg);
      op->next = mgr->retry;
      mgr->retry = op;
      mgr->n_retry++;
      return;
    }
  if (r->rc < 0)
    wb_log_error ("container %.12s not removed after %u tries; left for the reaper", op->id,
                  op->attempts);
  else
    emit (mgr, "destroyed", op->language, op->key, op->id,
          (double) (wb_now_us () - op->started_us) / 1000.0, NULL);
  mgr->n_total--;
  free (op);
  fill_soon (mgr);
}

static void
start_removal (remove_op_t *op)
{
  pool_mgr_t *mgr = op->mgr;
  wb_err_t err;

  op->started_us = wb_now_us ();
  if (eng_container_remove (mgr->eng, op->id, removed_cb, op, &err) == NULL)
    {
      mgr->n_total--;
      wb_log_error ("container %.12s not removed: %s", op->id, err.msg);
      free (op);
      return;
    }
  mgr->n_removals++;
}

static void
remove_as (pool_mgr_t *mgr, const char *id, const char *language, const char *key)
{
  remove_op_t *op = calloc (1, sizeof *op);

  if (op == NULL)
    {
      mgr->n_total--;
      wb_log_error ("container %.12s not removed: out of memory", id);
      return;
    }
  op->mgr = mgr;
  snprintf (op->id, sizeof op->id, "%s", id);
  snprintf (op->language, sizeof op->language, "%s", language);
  snprintf (op->key, sizeof op->key, "%s", key);
  start_removal (op);
}

void
pool_mgr_remove (pool_mgr_t *mgr, const char *id)
{
  mgr->n_total++; /* counted until removed, like the pools' own */
  remove_as (mgr, id, "", "");
}

static void
retry_removals (pool_mgr_t *mgr, bool now)
{
  remove_op_t *list = mgr->retry;

  if (list == NULL || (!now && mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us))
    return;
  mgr->retry = NULL;
  mgr->n_retry = 0;
  while (list)
    {
      remove_op_t *op = list;
      list = op->next;
      op->next = NULL;
      start_removal (op);
    }
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
  maybe_reap_pool (p);
}

/* Fail every waiter of p with err (engine down, image gone ...). */
static void
fail_waiters (pool_t *p, const wb_err_t *err)
{
  pool_waiter_t *w;

  while ((w = p->wait_head))
    {
      waiter_unlink (w);
      w->cb (w->arg, NULL, NULL, err);
      free (w);
    }
}

/* ---- creation -------------------------------------------------------- */

static void
backoff (pool_mgr_t *mgr)
{
  uint32_t jitter = 0;

  mgr->backoff_ms = mgr->backoff_ms ? mgr->backoff_ms * 2 : BACKOFF_MIN_MS;
  if (mgr->backoff_ms > BACKOFF_MAX_MS)
    mgr->backoff_ms = BACKOFF_MAX_MS;
  if (getrandom (&jitter, sizeof jitter, GRND_NONBLOCK) < 0)
    jitter = 0;
  /* Full jitter on the upper half: [backoff/2, backoff]. */
  mgr->backoff_until_us
      = wb_now_us () + 1000ull * (mgr->backoff_ms / 2 + jitter % (mgr->backoff_ms / 2 + 1));
}

static void
created_cb (void *arg, const eng_result_t *r)
{
  create_op_t *op = arg;
  pool_t *p = op->pool;
  pool_mgr_t *mgr = p->mgr;
  double ms = (double) (wb_now_us () - op->started_us) / 1000.0;

  free (op);
  p->n_creating--;
  mgr->n_creates--;
  if (r->rc < 0)
    {
      mgr->n_total--;
      p->create_failures++;
      snprintf (p->last_error, sizeof p->last_error, "%s", r->err.msg);
      mgr->engine_down = r->err.code == WB_E_ENGINE_DOWN;
      emit (mgr, "create_failed", p->language, p->key, NULL, ms, r->err.msg);
      backoff (mgr);
      wb_warn ("pool %s: create failed (next try in %u ms or later): %s", p->key, mgr->backoff_ms / 2,
               r->err.msg);
      /* Queued requests should hear now rather than at their deadline. */
      wb_err_t e = r->err;
      fail_waiters (p, &e);
      maybe_reap_pool (p);
      fill_soon (mgr);
      return;
    }
  mgr->backoff_ms = 0;
  mgr->backoff_until_us = 0;
  mgr->engine_down = false;
  p->created++;
  p->create_ms = p->create_ms > 0 ? 0.8 * p->create_ms + 0.2 * ms : ms;
  emit (mgr, "created", p->language, p->key, r->id, ms, NULL);
  if (p->draining || mgr->stopping)
    {
      p->destroyed++;
      remove_as (mgr, r->id, p->language, p->key);
      maybe_reap_pool (p);
      return;
    }
  if (p->wait_head)
    {
      pool_waiter_t *w = p->wait_head;
      char *id = strdup (r->id);
      waiter_unlink (w);
      if (id == NULL)
        {
          wb_err_t e;
          wb_error (&e, WB_E_NOMEM, "out of memory");
          remove_as (mgr, r->id, p->language, p->key);
          w->cb (w->arg, NULL, NULL, &e);
        }
      else
        {
          p->n_in_use++;
          emit (mgr, "handed_out", p->language, p->key, id, 0, "waited");
          w->cb (w->arg, p, id, NULL);
        }
      free (w);
    }
  else
    {
      ready_node_t *n = calloc (1, sizeof *n);
      if (n == NULL || (n->id = strdup (r->id)) == NULL)
        {
          free (n);
          remove_as (mgr, r->id, p->language, p->key);
        }
      else
        {
          if (p->ready_tail)
            p->ready_tail->next = n;
          else
            p->ready_head = n;
          p->ready_tail = n;
          p->n_ready++;
        }
    }
  fill_soon (mgr);
}

static int
create_one (pool_t *p)
{
  pool_mgr_t *mgr = p->mgr;
  create_op_t *op;
  cJSON *user;
  char uid[32], *body;
  wb_err_t err;
  eng_req_t *req;

  op = calloc (1, sizeof *op);
  if (op == NULL)
    return -1;
  uint32_t u = pool_mgr_next_uid (mgr);
  snprintf (uid, sizeof uid, "%u:%u", u, u);
  user = cJSON_CreateString (uid);
  if (user == NULL || !cJSON_ReplaceItemInObjectCaseSensitive (p->tmpl, "User", user))
    {
      cJSON_Delete (user);
      free (op);
      return -1;
    }
  body = cJSON_PrintUnformatted (p->tmpl);
  if (body == NULL)
    {
      free (op);
      return -1;
    }
  op->pool = p;
  op->started_us = wb_now_us ();
  req = eng_container_create (mgr->eng, body, created_cb, op, &err);
  cJSON_free (body);
  if (req == NULL)
    {
      wb_warn ("pool %s: %s", p->key, err.msg);
      free (op);
      return -1;
    }
  p->n_creating++;
  mgr->n_creates++;
  mgr->n_total++;
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

static void
fill (pool_mgr_t *mgr)
{
  bool progress = true;

  if (mgr->stopping)
    return;
  if (mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us)
    return; /* the tick retries */
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
              /* Starts on the critical path come first: top-ups wait. */
              if (pass == 1 && mgr->yield)
                continue;
              if (mgr->n_creates >= mgr->cfg.create_concurrency
                  || mgr->n_total >= mgr->cfg.max_containers)
                return;
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

static void
tick_cb (evutil_socket_t fd, short what, void *arg)
{
  pool_mgr_t *mgr = arg;
  double alpha = 1.0 - exp (-(TICK_MS / 1000.0) / RATE_TAU_S);

  (void) fd;
  (void) what;
  for (pool_t *p = mgr->pools; p; p = p->next)
    {
      p->arrival_rate += alpha * ((double) p->arrivals_this_tick / (TICK_MS / 1000.0) - p->arrival_rate);
      p->arrivals_this_tick = 0;
    }
  retry_removals (mgr, false);
  fill (mgr);
}

/* ---- public ---------------------------------------------------------- */

static void
read_first_line (const char *path, char *out, size_t len)
{
  FILE *f = fopen (path, "re");
  out[0] = '\0';
  if (f == NULL)
    return;
  if (fgets (out, (int) len, f) == NULL)
    out[0] = '\0';
  fclose (f);
  out[strcspn (out, "\n")] = '\0';
}

/* Field 22 of /proc/PID/stat: the process's start time in clock ticks.
 * With the pid it names one process for the life of a boot. */
static bool
process_start_time (long pid, unsigned long long *out)
{
  char path[64], buf[1024];
  FILE *f;
  char *p;
  size_t n;

  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  f = fopen (path, "re");
  if (f == NULL)
    return false;
  n = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[n] = '\0';
  p = strrchr (buf, ')'); /* the command name may hold spaces */
  if (p == NULL)
    return false;
  /* p is at the space before field 3 (state); step to the one before 22. */
  p++;
  for (int field = 3; field < 22 && p; field++)
    p = strchr (p + 1, ' ');
  return p && sscanf (p, " %llu", out) == 1;
}

int
pool_mgr_new (struct event_base *base, eng_t *eng, const pool_mgr_config_t *cfg,
              pool_mgr_t **out, wb_err_t *err)
{
  pool_mgr_t *mgr = calloc (1, sizeof *mgr);
  struct timeval tick = {TICK_MS / 1000, (TICK_MS % 1000) * 1000};
  unsigned long long start = 0;

  if (mgr == NULL)
    return wb_error (err, WB_E_NOMEM, "pool: out of memory");
  mgr->base = base;
  mgr->eng = eng;
  mgr->cfg = *cfg;
  if (mgr->cfg.create_concurrency == 0)
    mgr->cfg.create_concurrency = 1;
  snprintf (mgr->instance_id, sizeof mgr->instance_id, "%s", cfg->instance_id);
  mgr->cfg.instance_id = mgr->instance_id;
  if (gethostname (mgr->hostname, sizeof mgr->hostname - 1) < 0)
    snprintf (mgr->hostname, sizeof mgr->hostname, "unknown");
  read_first_line ("/proc/sys/kernel/random/boot_id", mgr->boot_id, sizeof mgr->boot_id);
  process_start_time ((long) getpid (), &start);
  snprintf (mgr->owner, sizeof mgr->owner, "%s/%s/%ld/%llu", mgr->hostname, mgr->boot_id,
            (long) getpid (), start);
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
  while ((p = mgr->pools))
    {
      pool_waiter_t *w;
      mgr->pools = p->next;
      while ((w = p->wait_head))
        {
          waiter_unlink (w);
          free (w);
        }
      pool_free (p);
    }
  while (mgr->retry)
    {
      remove_op_t *op = mgr->retry;
      mgr->retry = op->next;
      wb_warn ("container %.12s not removed at exit; left for the reaper", op->id);
      free (op);
    }
  if (mgr->tick)
    event_free (mgr->tick);
  if (mgr->kick)
    event_free (mgr->kick);
  free (mgr->stats);
  free (mgr);
}

uint32_t
pool_mgr_next_uid (pool_mgr_t *mgr)
{
  return UID_FIRST + mgr->next_uid++ % UID_COUNT;
}

void
pool_mgr_set_yield (pool_mgr_t *mgr, bool yield)
{
  bool was = mgr->yield;
  mgr->yield = yield;
  if (was && !yield)
    fill_soon (mgr);
}

static void
drain_pool (pool_t *p)
{
  ready_node_t *n;

  if (!p->draining)
    emit (p->mgr, "drained", p->language, p->key, NULL, -1, NULL);
  p->draining = true;
  while ((n = p->ready_head))
    {
      p->ready_head = n->next;
      p->n_ready--;
      p->destroyed++;
      remove_as (p->mgr, n->id, p->language, p->key);
      free (n->id);
      free (n);
    }
  p->ready_tail = NULL;
}

void
pool_mgr_retire (pool_mgr_t *mgr, const char *language)
{
  pool_t *p = pool_mgr_find (mgr, language);
  wb_err_t e;

  if (p == NULL)
    return;
  wb_info ("pool %s: language no longer served; draining", p->key);
  wb_error (&e, WB_E_NOT_FOUND, "language %s is no longer served", language);
  drain_pool (p);
  fail_waiters (p, &e);
  maybe_reap_pool (p);
}

pool_t *
pool_mgr_find (pool_mgr_t *mgr, const char *language)
{
  for (pool_t *p = mgr->pools; p; p = p->next)
    if (!p->draining && strcmp (p->language, language) == 0)
      return p;
  return NULL;
}

pool_t *
pool_mgr_ensure (pool_mgr_t *mgr, const pool_spec_t *spec, wb_err_t *err)
{
  pool_t *p, *old;
  cJSON *labels;
  wb_buf_t key = WB_BUF_INIT;

  if (wb_buf_printf (&key, "%s/%.19s/%.12s", spec->language, spec->image_id, spec->profile_hash)
      < 0)
    {
      wb_error (err, WB_E_NOMEM, "pool: out of memory");
      return NULL;
    }
  old = pool_mgr_find (mgr, spec->language);
  if (old && strcmp (old->key, key.data) == 0 && strcmp (old->image_id, spec->image_id) == 0
      && strcmp (old->profile_hash, spec->profile_hash) == 0)
    {
      /* Same key: only the sizes may have changed (config reload). */
      old->min_ready = spec->min_ready;
      old->max_ready = spec->max_ready < spec->min_ready ? spec->min_ready : spec->max_ready;
      wb_buf_free (&key);
      fill_soon (mgr);
      return old;
    }

  p = calloc (1, sizeof *p);
  if (p == NULL)
    goto oom;
  p->mgr = mgr;
  p->key = wb_buf_steal (&key);
  p->language = strdup (spec->language);
  p->image_id = strdup (spec->image_id);
  p->profile_hash = strdup (spec->profile_hash);
  p->min_ready = spec->min_ready;
  p->max_ready = spec->max_ready < spec->min_ready ? spec->min_ready : spec->max_ready;
  p->tmpl = cJSON_Parse (spec->create_body);
  if (!p->key || !p->language || !p->image_id || !p->profile_hash || !p->tmpl)
    goto oom;
  labels = cJSON_GetObjectItemCaseSensitive (p->tmpl, "Labels");
  if (labels == NULL)
    labels = cJSON_AddObjectToObject (p->tmpl, "Labels");
  if (labels == NULL || cJSON_GetObjectItemCaseSensitive (p->tmpl, "User") == NULL)
    {
      pool_free (p);
      wb_error (err, WB_E_INVALID, "pool %s: create body lacks User or Labels", spec->language);
      return NULL;
    }
  cJSON_DeleteItemFromObjectCaseSensitive (labels, "warmbox.instance");
  cJSON_DeleteItemFromObjectCaseSensitive (labels, "warmbox.pool");
  cJSON_DeleteItemFromObjectCaseSensitive (labels, "warmbox.owner");
  if (!cJSON_AddStringToObject (labels, "warmbox.instance", mgr->instance_id)
      || !cJSON_AddStringToObject (labels, "warmbox.pool", p->key)
      || !cJSON_AddStringToObject (labels, "warmbox.owner", mgr->owner))
    goto oom;

  p->next = mgr->pools;
  mgr->pools = p;
  wb_info ("pool %s: min_ready %u, max_ready %u", p->key, p->min_ready, p->max_ready);
  if (old)
    {
      /* The image or the profile changed: the old pool's never-started
       * containers go, its queued requests move to the new pool. */
      pool_waiter_t *w;
      wb_info ("pool %s replaces %s; draining the old one", p->key, old->key);
      p->arrival_rate = old->arrival_rate;
      p->create_ms = old->create_ms;
      while ((w = old->wait_head))
        {
          waiter_unlink (w);
          waiter_append (p, w);
        }
      drain_pool (old);
      maybe_reap_pool (old);
    }
  fill_soon (mgr);
  return p;

oom:
  wb_buf_free (&key);
  if (p)
    pool_free (p);
  wb_error (err, WB_E_NOMEM, "pool: out of memory");
  return NULL;
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
      emit (mgr, "handed_out", p->language, p->key, *id, -1, "hit");
      fill_soon (mgr);
      return 1;
    }
  p->misses++;
  if (mgr->stopping || p->draining)
    return wb_error (err, WB_E_BUSY, "the daemon is shutting down");
  if (mgr->engine_down && mgr->backoff_until_us && wb_now_us () < mgr->backoff_until_us)
    return wb_error (err, WB_E_ENGINE_DOWN, "the container engine is unavailable");
  if (p->n_waiting >= mgr->cfg.max_waiters)
    return wb_error (err, WB_E_BUSY, "%u requests already wait for a %s sandbox", p->n_waiting,
                     p->language);
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  w->cb = cb;
  w->arg = arg;
  waiter_append (p, w);
  *waiter = w;
  fill_soon (mgr);
  return 0;
}

void
pool_release (pool_t *p, const char *id)
{
  p->n_in_use--;
  p->destroyed++;
  remove_as (p->mgr, id, p->language, p->key);
  maybe_reap_pool (p);
}

size_t
pool_mgr_drain_all (pool_mgr_t *mgr)
{
  size_t before = mgr->n_removals;

  mgr->stopping = true;
  retry_removals (mgr, true);
  for (pool_t *p = mgr->pools; p; p = p->next)
    {
      wb_err_t e;
      wb_error (&e, WB_E_BUSY, "the daemon is shutting down");
      fail_waiters (p, &e);
      drain_pool (p);
    }
  return mgr->n_removals - before;
}

size_t
pool_mgr_busy (const pool_mgr_t *mgr)
{
  /* Removals waiting for a retry do not hold up a shutdown: they are
   * logged at exit and the next start-up's reaper takes them. */
  return mgr->n_creates + mgr->n_removals;
}

bool
pool_mgr_ready (const pool_mgr_t *mgr)
{
  bool any = false;
  for (const pool_t *p = mgr->pools; p; p = p->next)
    {
      if (p->draining)
        continue;
      any = true;
      if (p->n_ready < p->min_ready)
        return false;
    }
  return any;
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
        s->language = p->language;
        s->image_id = p->image_id;
        s->profile_hash = p->profile_hash;
        s->key = p->key;
        s->draining = p->draining;
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

/* ---- reaping orphans ------------------------------------------------- */

/* Is the daemon named by an owner label gone?  Only labels of this host
 * are judged: another host's daemon reaps its own at its start. */
static bool
owner_is_dead (const pool_mgr_t *mgr, const char *owner)
{
  char host[128], boot[64];
  long pid;
  unsigned long long start, now_start;

  if (owner == NULL || sscanf (owner, "%127[^/]/%63[^/]/%ld/%llu", host, boot, &pid, &start) != 4)
    return false;
  if (strcmp (host, mgr->hostname) != 0)
    return false;
  if (strcmp (boot, mgr->boot_id) != 0)
    return true; /* this host rebooted since */
  if (pid == (long) getpid ())
    return false;
  return !process_start_time (pid, &now_start) || now_start != start;
}

typedef struct reap_op
{
  pool_mgr_t *mgr;
} reap_op_t;

static void
listed_cb (void *arg, const eng_result_t *r)
{
  reap_op_t *op = arg;
  pool_mgr_t *mgr = op->mgr;
  size_t n = 0;

  free (op);
  if (r->rc < 0)
    {
      wb_warn ("reaper: cannot list containers: %s", r->err.msg);
      return;
    }
  for (size_t i = 0; i < r->n_ids; i++)
    if (owner_is_dead (mgr, r->values[i]))
      {
        pool_mgr_remove (mgr, r->ids[i]);
        n++;
      }
  if (n)
    wb_info ("reaper: removing %zu containers left by daemons that are gone", n);
}

void
pool_mgr_reap_orphans (pool_mgr_t *mgr)
{
  reap_op_t *op = calloc (1, sizeof *op);
  wb_err_t err;

  if (op == NULL)
    return;
  op->mgr = mgr;
  if (eng_container_list (mgr->eng, "warmbox.owner", "warmbox.owner", listed_cb, op, &err) == NULL)
    {
      wb_warn ("reaper: %s", err.msg);
      free (op);
    }
}
