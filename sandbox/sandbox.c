/* sandbox/sandbox.c: create, remove (with retries), reap, resolve images.
 * See include/warmbox/sandbox.h for the contract.
 *
 * Re-entrancy: engine callbacks here call the owner's callback last and
 * touch nothing of theirs afterwards; the owner may create or remove from
 * inside it.  A cancelled create stays in flight (detached) until the engine
 * answers, so a container the engine made anyway is removed, not leaked. */
#define _GNU_SOURCE
#include "sandbox_int.h"

#include <event2/event.h>
#include <string.h>

#define REMOVE_ATTEMPTS 20 /* with doubling delays: about 10 minutes */
#define REMOVE_DELAY_MAX_MS 60000
#define KNOWN_BUCKETS 256
#define RECONCILE_EVERY_MS 60000 /* look for containers whose create reply was lost */
#define RECONCILE_SOON_MS 1000   /* ... and soon after a create or removal failed */
/* A container still unknown after this long cannot belong to a create in
 * flight (creates time out well before): an orphan even under load. */
#define SUSPECT_AGE_MS 45000
/* Leases kept for containers that may still exist, at most (lease_park). */
#define PARKED_MAX 256
/* "wb-" instance id (its first 40 characters) "-" serial, NUL: fits the
 * ids of removals and known entries. */
#define SBX_NAME_MAX (3 + 40 + 1 + 20 + 1)

/* Names of containers: one serial for every sandbox of the process, so
 * that two on one engine never pick the same name (the instance id tells
 * daemons apart). */
static uint64_t names_made;

typedef enum op_kind
{
  OP_CREATE,
  OP_IMAGE,
  OP_LIST,
  OP_RECONCILE,
} op_kind_t;

/* An id this sandbox created and has not seen removed (or the name of a
 * create whose answer was lost, until its removal by that name ends); or,
 * on the suspects list, one it found on the engine without knowing it. */
typedef struct known
{
  struct known *next;
  char id[80];
  uint64_t since_us; /* suspects: first seen unknown */
  int uid_fd;        /* its uid's lease (uids.c) until it is gone; -1: none */
} known_t;

struct sbx_op
{
  sbx_t *s;
  sbx_op_t *prev, *next; /* every op in flight, for sbx_free */
  op_kind_t kind;
  eng_req_t *req;
  bool detached;       /* the owner cancelled: no callback */
  uint64_t generation; /* reconcile: creates started when it was sent */
  union
  {
    sbx_created_cb created;
    sbx_image_cb image;
    void (*listed) (void *arg, int n);
  } cb;
  void *arg;
  char language[33];
  char key[SBX_KEY_MAX];
  uint64_t started_us;
  int uid_fd;              /* a create's uid lease, handed to its known entry; -1: none */
  char name[SBX_NAME_MAX]; /* a create's: the container's name, known before it is sent */
};

typedef struct remove_op
{
  sbx_t *s;
  struct remove_op *prev, *next; /* every removal, for sbx_free */
  eng_req_t *req;                /* NULL while waiting for a retry */
  struct event *retry;
  char id[80];
  char language[33];
  char key[SBX_KEY_MAX];
  bool counted; /* one of ours (in sbx_count) */
  uint32_t attempts;
  uint64_t started_us;
} remove_op_t;

struct sbx
{
  struct event_base *base;
  eng_t *eng;
  sbx_config_t cfg;
  char instance_id[64];
  char owner[256];
  char hostname[128];
  char boot_id[64];
  uint32_t next_uid;
  int uid_dirfd; /* the uid leases' folder (cfg.uid_dir), or -1 */
  /* Leases of containers that may still exist though this sandbox let go
   * of them (a removal given up, a create whose answer was lost): kept
   * until the sandbox ends, so their uids go to no one else meanwhile. */
  int *parked;
  size_t n_parked;
  uint32_t count;      /* creating + live + being removed */
  uint32_t n_creates;  /* in flight */
  uint32_t n_removals; /* in flight (not waiting for a retry) */
  uint32_t n_removing; /* of ours, not yet removed (in flight or waiting) */
  sbx_op_t *ops;
  remove_op_t *removals;
  known_t *known[KNOWN_BUCKETS];
  known_t *suspects;
  uint64_t creates_started;
  struct event *reconcile;
  bool reconciling;
  bool one_request; /* runs as warmbox-oci's one exchange (run.c) */
};

eng_t *
sbx_engine (const sbx_t *s)
{
  return s->eng;
}

struct event_base *
sbx_base (const sbx_t *s)
{
  return s->base;
}

void
sbx_set_one_request (sbx_t *s, bool one_request)
{
  s->one_request = one_request;
}

bool
sbx_one_request (const sbx_t *s)
{
  return s->one_request;
}

/* ---- identity -------------------------------------------------------- */

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

bool
sbx_owner_is_dead (const char *owner, const char *host, const char *boot_id)
{
  char o_host[128], o_boot[64];
  long pid;
  unsigned long long start, now_start;

  if (owner == NULL
      || sscanf (owner, "%127[^/]/%63[^/]/%ld/%llu", o_host, o_boot, &pid, &start) != 4)
    return false;
  if (strcmp (o_host, host) != 0)
    return false; /* another host's daemon reaps its own */
  if (strcmp (o_boot, boot_id) != 0)
    return true; /* this host rebooted since */
  /* The pid alone is not enough, ours included: a daemon restarted as PID
   * 1 of a container has the pid, host and boot of the one it replaces. */
  return !process_start_time (pid, &now_start) || now_start != start;
}

bool
sbx_owner_gone (const sbx_t *s, const char *owner)
{
  if (owner && strcmp (owner, s->owner) == 0)
    return false;
  return sbx_owner_is_dead (owner, s->hostname, s->boot_id);
}

const char *
sbx_owner (const sbx_t *s)
{
  return s->owner;
}

uint32_t
sbx_next_uid (sbx_t *s)
{
  return SBX_UID_FIRST + s->next_uid++ % SBX_UID_COUNT;
}

uint32_t
sbx_count (const sbx_t *s)
{
  return s->count;
}

uint32_t
sbx_removing (const sbx_t *s)
{
  return s->n_removing;
}

uint32_t
sbx_busy (const sbx_t *s)
{
  return s->n_creates + s->n_removals;
}

static void
emit (sbx_t *s, const char *event, const char *language, const char *key, const char *id, double ms,
      const char *detail)
{
  if (s->cfg.on_event)
    s->cfg.on_event (s->cfg.arg, event, language, key, id ? id : "", ms, detail ? detail : "");
}

static known_t **
known_slot (sbx_t *s, const char *id)
{
  unsigned h = 5381;

  for (const char *p = id; *p; p++)
    h = h * 33 + (unsigned char) *p;
  known_t **kp = &s->known[h % KNOWN_BUCKETS];
  while (*kp && strcmp ((*kp)->id, id) != 0)
    kp = &(*kp)->next;
  return kp;
}

static void
lease_close (int *fd)
{
  if (*fd >= 0)
    close (*fd);
  *fd = -1;
}

/* Keep a lease whose container may still be there (taken: -1 after); if
 * it cannot be kept, it is closed, and the uid may serve another. */
static void
lease_park (sbx_t *s, int *fd)
{
  int *grown;

  if (*fd < 0)
    return;
  grown = s->n_parked < PARKED_MAX ? realloc (s->parked, (s->n_parked + 1) * sizeof *grown) : NULL;
  if (grown == NULL)
    {
      lease_close (fd);
      return;
    }
  s->parked = grown;
  s->parked[s->n_parked++] = *fd;
  *fd = -1;
}

/* Known from now on, holding *uid_fd (taken: -1 after, whatever comes;
 * closed when it cannot be kept). */
static int
known_add (sbx_t *s, const char *id, int *uid_fd)
{
  known_t **kp = known_slot (s, id);
  known_t *k;

  if (*kp)
    {
      lease_close (uid_fd);
      return 0;
    }
  k = calloc (1, sizeof *k);
  if (k == NULL)
    {
      lease_close (uid_fd);
      return -1;
    }
  snprintf (k->id, sizeof k->id, "%s", id);
  k->uid_fd = *uid_fd;
  *uid_fd = -1;
  *kp = k;
  return 0;
}

static void
known_free (known_t *k)
{
  lease_close (&k->uid_fd);
  free (k);
}

/* Gone (or given up): its uid is free for another sandbox of the host. */
static void
known_del (sbx_t *s, const char *id)
{
  known_t **kp = known_slot (s, id);
  known_t *k = *kp;

  if (k)
    {
      *kp = k->next;
      known_free (k);
    }
}

static void
reconcile_in (sbx_t *s, uint32_t ms)
{
  if (ms == RECONCILE_SOON_MS)
    ms = s->cfg.reconcile_ms;
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

  if (s->reconcile && evtimer_add (s->reconcile, &tv) < 0)
    wb_log_error ("cannot arm the reconciler's timer: it runs when next asked to");
}

static void
gone (sbx_t *s)
{
  s->count--;
  if (s->cfg.on_gone)
    s->cfg.on_gone (s->cfg.arg);
}

/* ---- ops ------------------------------------------------------------- */

static sbx_op_t *
op_new (sbx_t *s, op_kind_t kind, void *arg)
{
  sbx_op_t *op = calloc (1, sizeof *op);

  if (op == NULL)
    return NULL;
  op->s = s;
  op->kind = kind;
  op->arg = arg;
  op->uid_fd = -1;
  op->started_us = wb_now_us ();
  WB_LIST_PUSH (s->ops, op);
  return op;
}

static void
op_free (sbx_op_t *op)
{
  WB_LIST_UNLINK (op->s->ops, op);
  lease_close (&op->uid_fd);
  free (op);
}

void
sbx_op_cancel (sbx_op_t *op)
{
  if (op == NULL)
    return;
  if (op->kind == OP_CREATE)
    {
      /* The engine may make the container anyway: keep listening, and
       * remove it when it comes. */
      op->detached = true;
      return;
    }
  eng_req_cancel (op->req);
  op_free (op);
}

/* ---- removal --------------------------------------------------------- */

static void start_removal (remove_op_t *r);

static void
removal_free (remove_op_t *r)
{
  WB_LIST_UNLINK (r->s->removals, r);
  if (r->retry)
    event_free (r->retry);
  free (r);
}

static void
retry_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  start_removal (arg);
}

/* The removal is over, done or given up (the reconciler then finds the
 * container: it is no longer known). */
static void
removal_end (remove_op_t *r, bool done)
{
  sbx_t *s = r->s;
  bool counted = r->counted;

  if (!done)
    {
      /* Given up, the container may still be there: its uid stays out. */
      known_t *k = *known_slot (s, r->id);
      if (k)
        lease_park (s, &k->uid_fd);
      reconcile_in (s, RECONCILE_SOON_MS);
    }
  known_del (s, r->id);
  removal_free (r);
  if (counted)
    {
      s->n_removing--;
      gone (s);
    }
}

static void
removed_cb (void *arg, const eng_result_t *res)
{
  remove_op_t *r = arg;
  sbx_t *s = r->s;
  uint32_t delay;
  struct timeval tv;

  r->req = NULL;
  s->n_removals--;
  if (res->rc == 0)
    {
      emit (s, "destroyed", r->language, r->key, r->id,
            (double) (wb_now_us () - r->started_us) / 1000.0, NULL);
      removal_end (r, true);
      return;
    }
  if (++r->attempts >= REMOVE_ATTEMPTS)
    {
      wb_log_error ("container %.12s not removed after %u tries; left for the reaper: %s", r->id,
                    r->attempts, res->err.msg);
      removal_end (r, false);
      return;
    }
  /* Most likely the engine is away: try again later, so nothing leaks
   * until the next start-up. */
  delay = s->cfg.retry_ms << (r->attempts - 1 < 16 ? r->attempts - 1 : 16);
  if (delay > REMOVE_DELAY_MAX_MS || delay == 0)
    delay = REMOVE_DELAY_MAX_MS;
  wb_warn ("container %.12s not removed (try %u, next in %u ms): %s", r->id, r->attempts, delay,
           res->err.msg);
  tv.tv_sec = delay / 1000;
  tv.tv_usec = (delay % 1000) * 1000;
  if (r->retry == NULL)
    r->retry = evtimer_new (s->base, retry_cb, r);
  if (r->retry == NULL || evtimer_add (r->retry, &tv) < 0)
    {
      wb_log_error ("container %.12s not removed: cannot arm a retry; left for the reaper", r->id);
      removal_end (r, false);
    }
}

static void
start_removal (remove_op_t *r)
{
  sbx_t *s = r->s;
  wb_err_t err;

  r->started_us = wb_now_us ();
  r->req = eng_container_remove (s->eng, r->id, removed_cb, r, &err);
  if (r->req == NULL)
    {
      wb_log_error ("container %.12s not removed: %s; left for the reaper", r->id, err.msg);
      removal_end (r, false);
      return;
    }
  s->n_removals++;
}

static void
remove_as (sbx_t *s, const char *id, const char *language, const char *key, bool counted)
{
  remove_op_t *r = calloc (1, sizeof *r);

  if (r == NULL)
    {
      wb_log_error ("container %.12s not removed: out of memory; left for the reconciler", id);
      known_del (s, id);
      reconcile_in (s, RECONCILE_SOON_MS);
      if (counted)
        gone (s);
      return;
    }
  r->s = s;
  r->counted = counted;
  s->n_removing += counted;
  snprintf (r->id, sizeof r->id, "%s", id);
  snprintf (r->language, sizeof r->language, "%s", language ? language : "");
  snprintf (r->key, sizeof r->key, "%s", key ? key : "");
  WB_LIST_PUSH (s->removals, r);
  start_removal (r);
}

void
sbx_remove (sbx_t *s, const char *id, const char *language, const char *pool_key)
{
  remove_as (s, id, language, pool_key, true);
}

void
sbx_retry_now (sbx_t *s)
{
  for (remove_op_t *r = s->removals; r; r = r->next)
    if (r->req == NULL && r->retry)
      event_active (r->retry, EV_TIMEOUT, 0);
}

/* ---- create ---------------------------------------------------------- */

static void
created_cb (void *arg, const eng_result_t *res)
{
  sbx_op_t *op = arg;
  sbx_t *s = op->s;
  double ms = (double) (wb_now_us () - op->started_us) / 1000.0;
  sbx_created_cb cb = op->cb.created;
  void *cb_arg = op->arg;
  bool detached = op->detached;
  char language[33], key[SBX_KEY_MAX], name[SBX_NAME_MAX];
  int uid_fd = op->uid_fd;
  wb_err_t err;

  s->n_creates--;
  memcpy (language, op->language, sizeof language);
  memcpy (key, op->key, sizeof key);
  memcpy (name, op->name, sizeof name);
  op->uid_fd = -1; /* the container's now, or given back below */
  op_free (op);
  if (res->rc < 0)
    {
      emit (s, "create_failed", language, key, NULL, ms, res->err.msg);
      if (res->err.code == WB_E_ENGINE_DOWN || res->err.code == WB_E_ENGINE)
        {
          /* The engine may have made it anyway (an answer lost on the way,
           * the connection cut, a timeout): it stays counted, holding its
           * uid, and goes by the name it was created with, the removal
           * retried while the engine is away (a 404 says it never was).
           * So a drain, or an engine's re-admission, waits for it like any
           * other; the reconciler, soon, is for an engine that ignored the
           * name. */
          known_add (s, name, &uid_fd);
          remove_as (s, name, language, key, true);
          reconcile_in (s, RECONCILE_SOON_MS);
        }
      else
        {
          /* Refused: the container is not there. */
          lease_close (&uid_fd);
          gone (s);
        }
      if (!detached)
        cb (cb_arg, NULL, &res->err);
      return;
    }
  emit (s, "created", language, key, res->id, ms, NULL);
  if (known_add (s, res->id, &uid_fd) < 0)
    {
      /* Untracked, the reconciler could take it for an orphan: give it up
       * rather than hand it out. */
      wb_error (&err, WB_E_NOMEM, "container create: out of memory");
      sbx_remove (s, res->id, language, key);
      if (!detached)
        cb (cb_arg, NULL, &err);
      return;
    }
  if (detached)
    {
      sbx_remove (s, res->id, language, key); /* still counted until removed */
      return;
    }
  cb (cb_arg, res->id, NULL);
}

sbx_op_t *
sbx_create (sbx_t *s, const sbx_tmpl_t *t, sbx_created_cb cb, void *arg, wb_err_t *err)
{
  wb_buf_t body = WB_BUF_INIT;
  sbx_op_t *op;
  uint32_t uid;
  int uid_fd = -1;

  /* A uid no other live sandbox of the host has, held from before the
   * create to the container's removal. */
  if (s->cfg.uid_dir)
    {
      if (sbx_uid_lease (s->uid_dirfd, &s->next_uid, &uid, &uid_fd, err) < 0)
        return NULL;
    }
  else
    uid = sbx_next_uid (s);
  if (sbx_tmpl_render (t, s->instance_id, s->owner, uid, &body, err) < 0)
    {
      lease_close (&uid_fd);
      return NULL;
    }
  op = op_new (s, OP_CREATE, arg);
  if (op == NULL)
    {
      lease_close (&uid_fd);
      wb_buf_free (&body);
      wb_error (err, WB_E_NOMEM, "container create: out of memory");
      return NULL;
    }
  op->uid_fd = uid_fd;
  op->cb.created = cb;
  snprintf (op->language, sizeof op->language, "%s", sbx_tmpl_language (t));
  snprintf (op->key, sizeof op->key, "%s", sbx_tmpl_key (t));
  /* Named before it is sent: should the answer, and with it the id, be
   * lost, the name still finds the container (created_cb). */
  snprintf (op->name, sizeof op->name, "wb-%.40s-%llu", s->instance_id,
            (unsigned long long) ++names_made);
  op->req = eng_container_create (s->eng, op->name, body.data, created_cb, op, err);
  wb_buf_free (&body);
  if (op->req == NULL)
    {
      op_free (op);
      return NULL;
    }
  s->n_creates++;
  s->creates_started++;
  s->count++;
  return op;
}

/* ---- images ---------------------------------------------------------- */

static void
image_cb (void *arg, const eng_result_t *res)
{
  sbx_op_t *op = arg;
  sbx_image_cb cb = op->cb.image;
  void *cb_arg = op->arg;

  op_free (op);
  if (res->rc < 0)
    cb (cb_arg, NULL, &res->err);
  else
    cb (cb_arg, res->id, NULL);
}

sbx_op_t *
sbx_resolve_image (sbx_t *s, const char *ref, sbx_image_cb cb, void *arg, wb_err_t *err)
{
  sbx_op_t *op = op_new (s, OP_IMAGE, arg);

  if (op == NULL)
    {
      wb_error (err, WB_E_NOMEM, "image inspect: out of memory");
      return NULL;
    }
  op->cb.image = cb;
  op->req = eng_image_inspect (s->eng, ref, image_cb, op, err);
  if (op->req == NULL)
    {
      op_free (op);
      return NULL;
    }
  return op;
}

/* ---- reaping orphans ------------------------------------------------- */

static void
listed_cb (void *arg, const eng_result_t *res)
{
  sbx_op_t *op = arg;
  sbx_t *s = op->s;
  void (*done) (void *, int) = op->cb.listed;
  void *done_arg = op->arg;
  int n = 0;

  op_free (op);
  if (res->rc < 0)
    {
      wb_warn ("reaper: cannot list containers: %s", res->err.msg);
      if (done)
        done (done_arg, -1);
      return;
    }
  for (size_t i = 0; i < res->n_ids; i++)
    if (sbx_owner_gone (s, res->values[i]))
      {
        remove_as (s, res->ids[i], "", "", false);
        n++;
      }
  if (n)
    wb_info ("reaper: removing %d containers left by daemons that are gone", n);
  if (done)
    done (done_arg, n);
}

void
sbx_reap_orphans (sbx_t *s, void (*done) (void *arg, int n), void *arg)
{
  sbx_op_t *op = op_new (s, OP_LIST, arg);
  wb_err_t err;

  if (op != NULL)
    {
      op->cb.listed = done;
      op->req = eng_container_list (s->eng, "warmbox.owner", "warmbox.owner", listed_cb, op, &err);
      if (op->req != NULL)
        return;
      op_free (op);
    }
  else
    wb_error (&err, WB_E_NOMEM, "out of memory");
  wb_warn ("reaper: %s", err.msg);
  if (done)
    done (arg, -1);
}

/* ---- reconciling ------------------------------------------------------ */

/* Containers of this instance that the sandbox does not know: a create
 * the engine performed but whose reply never reached us (timed out, cut
 * off), or a removal given up.  When no create was in flight from the
 * list's sending to its answer, every unknown one is such an orphan.
 * Otherwise one might be a create whose reply is still coming: it becomes
 * a suspect, removed if a later pass still finds it unknown after
 * SUSPECT_AGE_MS (so steady load cannot starve the reconciler). */
static void
reconciled_cb (void *arg, const eng_result_t *res)
{
  sbx_op_t *op = arg;
  sbx_t *s = op->s;
  bool quiet = s->n_creates == 0 && s->creates_started == op->generation;
  known_t *old = s->suspects, *fresh = NULL;
  uint64_t now = wb_now_us ();
  int n = 0;

  op_free (op);
  s->reconciling = false;
  if (res->rc < 0)
    {
      reconcile_in (s, RECONCILE_SOON_MS); /* try again */
      return;
    }
  s->suspects = NULL;
  for (size_t i = 0; i < res->n_ids; i++)
    {
      known_t *k, **kp;
      if (res->values[i] == NULL || strcmp (res->values[i], s->instance_id) != 0
          || *known_slot (s, res->ids[i]) != NULL)
        continue;
      for (kp = &old; *kp && strcmp ((*kp)->id, res->ids[i]) != 0; kp = &(*kp)->next)
        ;
      k = *kp;
      if (k)
        *kp = k->next; /* a suspect seen again */
      if (quiet || (k && now - k->since_us >= SUSPECT_AGE_MS * 1000ull))
        {
          free (k);
          remove_as (s, res->ids[i], "", "", false);
          n++;
          continue;
        }
      if (k == NULL && (k = calloc (1, sizeof *k)) != NULL)
        {
          snprintf (k->id, sizeof k->id, "%s", res->ids[i]);
          k->since_us = now;
          k->uid_fd = -1; /* a suspect holds no lease */
        }
      if (k)
        {
          k->next = fresh;
          fresh = k;
        }
    }
  while (old)
    {
      known_t *k = old;
      old = k->next;
      free (k); /* gone, or known by now */
    }
  s->suspects = fresh;
  if (n)
    wb_warn ("removing %d containers of this daemon that it does not know (a create whose reply "
             "was lost, or a removal given up)",
             n);
  reconcile_in (s, fresh ? s->cfg.reconcile_ms * 10 : RECONCILE_EVERY_MS);
}

void
sbx_reconcile (sbx_t *s)
{
  sbx_op_t *op;
  wb_err_t err;

  if (s->reconciling)
    return;
  op = op_new (s, OP_RECONCILE, NULL);
  if (op == NULL)
    {
      reconcile_in (s, RECONCILE_SOON_MS);
      return;
    }
  op->generation = s->creates_started;
  op->req = eng_container_list (s->eng, "warmbox.instance", "warmbox.instance", reconciled_cb, op,
                                &err);
  if (op->req == NULL)
    {
      op_free (op);
      reconcile_in (s, RECONCILE_SOON_MS);
      return;
    }
  s->reconciling = true;
}

static void
reconcile_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  sbx_reconcile (arg);
}

/* ---- lifetime -------------------------------------------------------- */

int
sbx_new (struct event_base *base, eng_t *eng, const sbx_config_t *cfg, sbx_t **out, wb_err_t *err)
{
  sbx_t *s = calloc (1, sizeof *s);
  unsigned long long start = 0;

  if (s == NULL)
    return wb_error (err, WB_E_NOMEM, "sandbox: out of memory");
  s->base = base;
  s->eng = eng;
  s->cfg = *cfg;
  if (s->cfg.retry_ms == 0)
    s->cfg.retry_ms = 1000;
  if (s->cfg.reconcile_ms == 0)
    s->cfg.reconcile_ms = RECONCILE_SOON_MS;
  snprintf (s->instance_id, sizeof s->instance_id, "%s", cfg->instance_id);
  s->cfg.instance_id = s->instance_id;
  if (gethostname (s->hostname, sizeof s->hostname - 1) < 0)
    snprintf (s->hostname, sizeof s->hostname, "unknown");
  read_first_line ("/proc/sys/kernel/random/boot_id", s->boot_id, sizeof s->boot_id);
  process_start_time ((long) getpid (), &start);
  snprintf (s->owner, sizeof s->owner, "%s/%s/%ld/%llu", s->hostname, s->boot_id, (long) getpid (),
            start);
  s->uid_dirfd = -1;
  if (cfg->uid_dir && (s->uid_dirfd = sbx_uid_dir_open (cfg->uid_dir, err)) < 0)
    {
      free (s);
      return -1;
    }
  /* Daemons start at different places of the range: fewer files tried. */
  if (cfg->uid_dir)
    s->next_uid = (uint32_t) ((uint32_t) getpid () * 2654435761u) % SBX_UID_COUNT;
  s->reconcile = evtimer_new (base, reconcile_cb, s);
  if (s->reconcile == NULL)
    {
      if (s->uid_dirfd >= 0)
        close (s->uid_dirfd);
      free (s);
      return wb_error (err, WB_E_NOMEM, "sandbox: out of memory");
    }
  reconcile_in (s, RECONCILE_EVERY_MS);
  *out = s;
  return 0;
}

void
sbx_free (sbx_t *s)
{
  if (s == NULL)
    return;
  while (s->ops)
    {
      eng_req_cancel (s->ops->req);
      op_free (s->ops);
    }
  while (s->removals)
    {
      remove_op_t *r = s->removals;
      eng_req_cancel (r->req);
      wb_warn ("container %.12s not removed at exit; left for the reaper", r->id);
      removal_free (r);
    }
  while (s->suspects)
    {
      known_t *k = s->suspects;
      s->suspects = k->next;
      known_free (k);
    }
  for (size_t i = 0; i < KNOWN_BUCKETS; i++)
    while (s->known[i])
      {
        known_t *k = s->known[i];
        s->known[i] = k->next;
        known_free (k);
      }
  if (s->reconcile)
    event_free (s->reconcile);
  for (size_t i = 0; i < s->n_parked; i++)
    close (s->parked[i]);
  free (s->parked);
  if (s->uid_dirfd >= 0)
    close (s->uid_dirfd);
  free (s);
}
