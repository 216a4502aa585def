/* exec/session.c: sessions, in memory only.  See session.h.
 *
 * A call's life:
 *   waiting   in its session's queue (owned by the session; a session
 *             that ends answers it session_expired)
 *   running   its execution started (owned by the set's running list; it
 *             finds its session again by id at the end)
 *   answered  its callback called: freed at once
 * Cancel while waiting: dropped.  Cancel while running: the execution is
 * cancelled, the session carries nothing of it and the next call starts.
 * The sweep (every second) ends sessions idle past their TTL or past their
 * maximum life; a session ended while a call runs lets it finish. */
#define _GNU_SOURCE
#include "exec/session.h"

#include <event2/event.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STATE_FILE ".warmbox-session"     /* the bootstrap's input (profiles/README.md) */
#define NOTEBOOK_FILE ".warmbox-notebook" /* a notebook call's (sched_request_t.notebook) */
#define ATTRS_MAX (64 * 1024)
#define OWN_PREFIX ".warmbox-" /* the sandbox's own names: never a client's */
#define TOMBSTONES 512         /* ended sessions remembered, for why */
#define SWEEP_MS 1000
#define MAX_WARNINGS 32

typedef struct session session_t;

struct session_call
{
  session_call_t *prev, *next; /* its session's queue, or the set's running list */
  sessions_t *set;
  session_t *waiting_in; /* while waiting; NULL once running */
  char id[SESSION_ID_LEN + 1];
  uint64_t seq;
  char language[33];   /* its profile's, looked up again when it starts */
  bool state;          /* its profile carries state (session_state) */
  sched_request_t req; /* until it starts */
  sched_exec_t *ex;    /* while it runs */
  /* What was sent, for the files the sandbox did not send back (unchanged). */
  sched_file_t *sent;
  size_t n_sent;
  session_done_cb cb;
  void *arg;
};

struct session
{
  session_t *prev, *next; /* the set's list, most recently used first */
  char id[SESSION_ID_LEN + 1];
  char owner[80]; /* "token:NAME", "cert:NAME" or "" */
  char language[33];
  bool
      any_language; /* calls of every language (E2B's sandboxes): the state is the stateful ones' */
  char *attrs;      /* the API's own words about it (session_spec_t.attrs), or NULL */
  size_t attrs_len; /* counted in its bytes */
  uint32_t timeout_ms, memory_mb, idle_ttl_s;
  double created_at, used_at;   /* Unix seconds, for GET */
  uint64_t created_ms, used_ms; /* monotonic */
  uint64_t calls;
  sched_file_t *files;
  size_t n_files;
  uint64_t files_bytes;
  uint64_t files_gen; /* changes with every change of the files (a reader's check) */
  wb_buf_t state;     /* opaque */
  session_call_t *running;
  session_call_t *queue; /* oldest first */
  uint32_t waiting;
};

typedef enum end_reason
{
  END_DELETED,
  END_IDLE,
  END_LIFE,
  END_EVICTED,
  END_SHUTDOWN,
} end_reason_t;

struct sessions
{
  struct event_base *base;
  session_config_t cfg;
  execs_t *execs;
  unsigned char key[32];
  char instance[9];
  char node[SESSION_NODE_MAX + 2]; /* "name." or "" */
  session_t *list;
  size_t n;
  uint64_t bytes;
  session_call_t *running;
  struct event *sweep;
  struct event *kick; /* starts waiting calls once the loop is back (next_calls) */
  bool closing;
  struct
  {
    char id[SESSION_ID_LEN + 1];
    end_reason_t why;
  } ended[TOMBSTONES];
  size_t n_ended;
};

static void next_call (sessions_t *set, session_t *s);
static void kick_cb (evutil_socket_t fd, short what, void *arg);

/* ---- files ------------------------------------------------------------ */

static void
files_free (sched_file_t *f, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      if (f[i].data)
        explicit_bzero (f[i].data, f[i].len);
      free (f[i].name);
      free (f[i].data);
    }
  free (f);
}

static int
file_copy (sched_file_t *to, const char *name, const char *data, size_t len, const char *sha)
{
  to->name = strdup (name);
  to->data = malloc (len ? len : 1);
  to->len = len;
  if (to->name == NULL || to->data == NULL)
    {
      free (to->name);
      free (to->data);
      to->name = to->data = NULL;
      return -1;
    }
  memcpy (to->data, data, len);
  if (sha)
    memcpy (to->sha256, sha, 65);
  else
    wb_sha256_hex (data, len, to->sha256);
  return 0;
}

static uint64_t
session_bytes (const session_t *s)
{
  return s->files_bytes + s->state.len + s->attrs_len;
}

/* ---- ids ------------------------------------------------------------- */

static bool
is_hex (const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* The MAC of an id's body (its node, instance and random part: body_len
 * bytes) for owner. */
static void
id_mac (const sessions_t *set, const char *body, size_t body_len, const char *owner, char out[17])
{
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_len = 0;
  char msg[200];
  int n = snprintf (msg, sizeof msg, "%s\n%.*s", owner, (int) body_len, body);
  static const char hex[] = "0123456789abcdef";

  HMAC (EVP_sha256 (), set->key, sizeof set->key, (const unsigned char *) msg, (size_t) n, md,
        &md_len);
  for (int i = 0; i < 8; i++)
    {
      out[2 * i] = hex[md[i] >> 4];
      out[2 * i + 1] = hex[md[i] & 15];
    }
  out[16] = '\0';
}

static bool
node_name_ok (const char *s, size_t n)
{
  if (n == 0 || n > SESSION_NODE_MAX)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
      return false;
  return true;
}

/* The parts of an id: its node name ("" without one) and where its hex
 * (instance, random, MAC) begins.  False when it has no id's shape. */
static bool
id_parts (const char *id, const char **node, size_t *node_len, const char **hex)
{
  size_t len = id ? strlen (id) : 0;
  const char *dot;

  if (len < 4 + 56 || len > SESSION_ID_LEN || strncmp (id, "ses_", 4) != 0)
    return false;
  dot = memchr (id + 4, '.', len - 4);
  *node = id + 4;
  *node_len = dot ? (size_t) (dot - id - 4) : 0;
  *hex = dot ? dot + 1 : id + 4;
  return (dot == NULL || node_name_ok (*node, *node_len)) && strlen (*hex) == 56
         && is_hex (*hex, 56);
}

/* Is id one this daemon's key signed for owner? */
static bool
id_valid (const sessions_t *set, const char *id, const char *owner)
{
  const char *node, *hex;
  size_t node_len;
  char mac[17];

  if (!id_parts (id, &node, &node_len, &hex))
    return false;
  id_mac (set, id + 4, (size_t) (hex + 40 - (id + 4)), owner, mac);
  return CRYPTO_memcmp (mac, hex + 40, 16) == 0;
}

static const char *
end_words (end_reason_t why)
{
  switch (why)
    {
    case END_DELETED:
      return "it was deleted";
    case END_IDLE:
      return "it was idle for longer than its TTL";
    case END_LIFE:
      return "it reached the maximum life of a session";
    case END_EVICTED:
      return "it was evicted, least recently used, to keep the daemon's sessions within their "
             "memory caps";
    case END_SHUTDOWN:
      return "the daemon stopped";
    }
  return "it ended";
}

/* id of owner, or NULL with err: 404 for an id that is not owner's
 * (unknown, forged, another's), 410 for one that ended. */
static session_t *
find (sessions_t *set, const char *id, const char *owner, wb_err_t *err)
{
  const char *node, *hex;
  size_t node_len, ours = strlen (set->node);

  /* Another node's (its name in the id: whatever the rest, the same
   * answer, so it tells nothing of the session): it reached the wrong
   * daemon, or the one holding it is gone. */
  if (id_parts (id, &node, &node_len, &hex) && node_len
      && (ours == 0 || node_len != ours - 1 || memcmp (node, set->node, node_len) != 0))
    {
      wb_error (err, WB_E_SESSION_EXPIRED,
                "session %s is held by warmboxd \"%.*s\", and this request reached %s%.*s%s: "
                "that daemon is down or was restarted (sessions live only in its memory); "
                "start a new one",
                id, (int) node_len, node, ours ? "\"" : "another", ours ? (int) ours - 1 : 0,
                set->node, ours ? "\"" : "");
      return NULL;
    }
  if (!id_valid (set, id, owner))
    {
      wb_error (err, WB_E_NOT_FOUND, "no such session");
      return NULL;
    }
  for (session_t *s = set->list; s; s = s->next)
    if (strcmp (s->id, id) == 0 && strcmp (s->owner, owner) == 0)
      return s;
  for (size_t i = 0; i < set->n_ended && i < TOMBSTONES; i++)
    if (strcmp (set->ended[i].id, id) == 0)
      {
        wb_error (err, WB_E_SESSION_EXPIRED, "session %s has ended: %s; start a new one", id,
                  end_words (set->ended[i].why));
        return NULL;
      }
  if (strncmp (hex, set->instance, 8) != 0)
    wb_error (err, WB_E_SESSION_EXPIRED,
              "session %s was lost: the daemon that held it restarted, and sessions live only "
              "in its memory; start a new one",
              id);
  else
    wb_error (err, WB_E_SESSION_EXPIRED, "session %s has ended; start a new one", id);
  return NULL;
}

/* ---- ending ----------------------------------------------------------- */

static void
call_free (session_call_t *c)
{
  sched_request_clear (&c->req);
  files_free (c->sent, c->n_sent);
  free (c);
}

static void
answer_error (session_call_t *c, const wb_err_t *err)
{
  session_outcome_t so = {.id = c->id, .seq = c->seq, .ended = true};
  c->cb (c->arg, NULL, &so, err);
}

/* The one ending of a session. */
static void
session_end (sessions_t *set, session_t *s, end_reason_t why)
{
  session_call_t *waiting = s->queue;
  wb_err_t err;

  wb_info ("session %s (%s, %llu calls) ended: %s", s->id, s->language,
           (unsigned long long) s->calls, end_words (why));
  WB_LIST_UNLINK (set->list, s);
  set->n--;
  set->bytes -= session_bytes (s);
  snprintf (set->ended[set->n_ended % TOMBSTONES].id, sizeof set->ended[0].id, "%s", s->id);
  set->ended[set->n_ended % TOMBSTONES].why = why;
  set->n_ended++;
  /* A call running finishes; it will not find the session. */
  if (s->state.data)
    explicit_bzero (s->state.data, s->state.cap);
  wb_buf_free (&s->state);
  files_free (s->files, s->n_files);
  free (s->attrs);
  if (why == END_SHUTDOWN)
    wb_error (&err, WB_E_BUSY, "the daemon is shutting down");
  else
    wb_error (&err, WB_E_SESSION_EXPIRED, "session %s ended while this call waited: %s", s->id,
              end_words (why));
  for (session_call_t *c = waiting; c; c = c->next)
    c->waiting_in = NULL; /* their session is gone: nothing may reach it through them */
  free (s);
  while (waiting)
    {
      session_call_t *c = waiting;
      waiting = c->next;
      answer_error (c, &err);
      call_free (c);
    }
}

/* May s go to make room?  Not while a call of it runs or waits. */
static bool
evictable (const session_t *s)
{
  return s->running == NULL && s->queue == NULL;
}

/* The least recently used idle session of owner other than keep, or
 * NULL.  Only an owner's own sessions ever go to make room for it: one
 * tenant's calls never end another's sessions. */
static session_t *
lru_of (sessions_t *set, const char *owner, const session_t *keep)
{
  session_t *last = NULL;
  for (session_t *s = set->list; s; s = s->next)
    if (s != keep && evictable (s) && strcmp (s->owner, owner) == 0)
      last = s;
  return last;
}

/* What owner's sessions hold, and of it what could go (idle), keep
 * aside. */
static uint64_t
owner_bytes (const sessions_t *set, const char *owner, const session_t *keep, uint64_t *idle)
{
  uint64_t all = 0;

  *idle = 0;
  for (const session_t *s = set->list; s; s = s->next)
    if (s != keep && strcmp (s->owner, owner) == 0)
      {
        all += session_bytes (s);
        *idle += evictable (s) ? session_bytes (s) : 0;
      }
  return all;
}

static uint64_t
owner_cap (const sessions_t *set)
{
  return set->cfg.owner_max_bytes && set->cfg.owner_max_bytes < set->cfg.max_bytes
             ? set->cfg.owner_max_bytes
             : set->cfg.max_bytes;
}

static void
touch (sessions_t *set, session_t *s)
{
  s->used_ms = wb_now_ms ();
  s->used_at = (double) time (NULL);
  if (set->list != s)
    {
      WB_LIST_UNLINK (set->list, s);
      WB_LIST_PUSH (set->list, s);
    }
}

static void
sweep_cb (evutil_socket_t fd, short what, void *arg)
{
  sessions_t *set = arg;
  uint64_t now = wb_now_ms ();
  session_t *s, *next;

  (void) fd;
  (void) what;
  for (s = set->list; s; s = next)
    {
      next = s->next;
      if (now - s->created_ms >= (uint64_t) set->cfg.max_life_s * 1000)
        session_end (set, s, END_LIFE);
      else if (evictable (s) && now - s->used_ms >= (uint64_t) s->idle_ttl_s * 1000)
        session_end (set, s, END_IDLE);
    }
}

/* ---- the set ---------------------------------------------------------- */

sessions_t *
sessions_new (struct event_base *base, const session_config_t *cfg, execs_t *execs,
              const unsigned char key[32], const char *instance, wb_err_t *err)
{
  sessions_t *set = calloc (1, sizeof *set);
  struct timeval tv = {SWEEP_MS / 1000, (SWEEP_MS % 1000) * 1000};

  if (set == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  set->base = base;
  set->execs = execs;
  memcpy (set->key, key, sizeof set->key);
  snprintf (set->instance, sizeof set->instance, "%.8s", instance);
  if (cfg->node && cfg->node[0])
    {
      if (!node_name_ok (cfg->node, strlen (cfg->node)))
        {
          OPENSSL_cleanse (set->key, sizeof set->key);
          free (set);
          wb_error (err, WB_E_INVALID,
                    "sessions.node \"%.32s\" must be 1 to %d of [a-z0-9-] (it goes into session "
                    "ids, and a load balancer routes by it)",
                    cfg->node, SESSION_NODE_MAX);
          return NULL;
        }
      snprintf (set->node, sizeof set->node, "%s.", cfg->node);
    }
  sessions_set_config (set, cfg);
  set->sweep = event_new (base, -1, EV_PERSIST, sweep_cb, set);
  set->kick = event_new (base, -1, 0, kick_cb, set);
  if (set->sweep == NULL || set->kick == NULL || event_add (set->sweep, &tv) < 0)
    {
      if (set->sweep)
        event_free (set->sweep);
      if (set->kick)
        event_free (set->kick);
      OPENSSL_cleanse (set->key, sizeof set->key);
      free (set);
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  return set;
}

void
sessions_set_config (sessions_t *set, const session_config_t *cfg)
{
  set->cfg = *cfg;
  if (set->cfg.files_max > SCHED_MAX_FILES - 2)
    set->cfg.files_max = SCHED_MAX_FILES - 2;
  if (set->cfg.files_max_bytes > SCHED_MAX_FILES_BYTES)
    set->cfg.files_max_bytes = SCHED_MAX_FILES_BYTES;
  if (set->cfg.queue_max == 0)
    set->cfg.queue_max = 1;
}

void
sessions_closing (sessions_t *set)
{
  set->closing = true;
}

void
sessions_free (sessions_t *set)
{
  if (set == NULL)
    return;
  set->closing = true;
  while (set->list)
    session_end (set, set->list, END_SHUTDOWN);
  /* sched_exec_abandon_all ran first (daemon/context.c) and answered the
   * calls that ran; any left here are cancelled, their clients unheard. */
  if (set->running)
    wb_warn ("sessions: calls still running at the end; cancelled");
  while (set->running)
    {
      session_call_t *c = set->running;
      WB_LIST_UNLINK (set->running, c);
      sched_exec_cancel (c->ex);
      call_free (c);
    }
  event_free (set->sweep);
  event_free (set->kick);
  OPENSSL_cleanse (set->key, sizeof set->key);
  free (set);
}

size_t
sessions_count (const sessions_t *set)
{
  return set->n;
}

uint64_t
sessions_bytes (const sessions_t *set)
{
  return set->bytes;
}

int
session_create (sessions_t *set, const session_spec_t *spec, char id[SESSION_ID_LEN + 1],
                wb_err_t *err)
{
  session_t *s;
  char mac[17];
  uint32_t mine = 0;

  for (s = set->list; s; s = s->next)
    if (strcmp (s->owner, spec->owner) == 0)
      mine++;
  if (mine >= set->cfg.max_per_owner)
    return wb_error (err, WB_E_RATE_LIMITED,
                     "this token already has %u sessions, its most; delete one first", mine);
  if (set->n >= set->cfg.max_sessions && lru_of (set, spec->owner, NULL) == NULL)
    return wb_error (err, WB_E_BUSY,
                     "all %u sessions are in use and none of this caller's is idle to make room; "
                     "try again later",
                     set->cfg.max_sessions);
  if (spec->attrs && strlen (spec->attrs) > ATTRS_MAX)
    return wb_error (err, WB_E_TOO_LARGE, "a session's attributes are at most %d bytes", ATTRS_MAX);
  uint64_t idle, attrs_len = spec->attrs ? strlen (spec->attrs) : 0;
  if (owner_bytes (set, spec->owner, NULL, &idle) + attrs_len > owner_cap (set)
      || set->bytes + attrs_len > set->cfg.max_bytes)
    return wb_error (err, WB_E_TOO_LARGE,
                     "this caller's sessions are at their memory quota "
                     "(sessions.owner_max_bytes, or the daemon's sessions.max_bytes): "
                     "delete one first");
  if ((s = calloc (1, sizeof *s)) == NULL
      || (spec->attrs && (s->attrs = strdup (spec->attrs)) == NULL))
    {
      free (s);
      return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  size_t at = (size_t) snprintf (s->id, sizeof s->id, "ses_%s%s", set->node, set->instance);
  if (wb_random_hex (s->id + at, 16) < 0)
    {
      free (s->attrs);
      free (s);
      return wb_error (err, WB_E_INTERNAL, "no random source");
    }
  at += 32;
  id_mac (set, s->id + 4, at - 4, spec->owner, mac);
  memcpy (s->id + at, mac, 17);
  if (set->n >= set->cfg.max_sessions)
    session_end (set, lru_of (set, spec->owner, NULL), END_EVICTED);
  snprintf (s->owner, sizeof s->owner, "%s", spec->owner);
  snprintf (s->language, sizeof s->language, "%s", spec->language);
  s->any_language = spec->any_language;
  s->attrs_len = s->attrs ? strlen (s->attrs) : 0;
  set->bytes += s->attrs_len;
  s->timeout_ms = spec->timeout_ms;
  s->memory_mb = spec->memory_mb;
  s->idle_ttl_s = spec->idle_ttl_s ? spec->idle_ttl_s : set->cfg.idle_ttl_s;
  if (s->idle_ttl_s > set->cfg.idle_ttl_max_s)
    s->idle_ttl_s = set->cfg.idle_ttl_max_s;
  s->created_ms = s->used_ms = wb_now_ms ();
  s->created_at = s->used_at = (double) time (NULL);
  WB_LIST_PUSH (set->list, s);
  set->n++;
  memcpy (id, s->id, SESSION_ID_LEN + 1);
  wb_info ("session %s (%s) created", s->id, s->language);
  return 0;
}

static void
info_of (const sessions_t *set, const session_t *s, session_info_t *out)
{
  uint64_t now = wb_now_ms ();
  uint64_t idle_left = (uint64_t) s->idle_ttl_s * 1000,
           life_left = (uint64_t) set->cfg.max_life_s * 1000;

  idle_left = s->running || s->queue          ? idle_left
              : now - s->used_ms >= idle_left ? 0
                                              : idle_left - (now - s->used_ms);
  life_left = now - s->created_ms >= life_left ? 0 : life_left - (now - s->created_ms);
  memset (out, 0, sizeof *out);
  out->id = s->id;
  out->language = s->language;
  out->attrs = s->attrs;
  out->timeout_ms = s->timeout_ms;
  out->memory_mb = s->memory_mb;
  out->idle_ttl_s = s->idle_ttl_s;
  out->created_at = s->created_at;
  out->last_used_at = s->used_at;
  out->expires_in_ms = idle_left < life_left ? idle_left : life_left;
  out->calls = s->calls;
  out->files = (uint32_t) s->n_files;
  out->files_bytes = s->files_bytes;
  out->state_bytes = s->state.len;
  out->running = s->running != NULL;
  out->waiting = s->waiting;
}

int
session_get (sessions_t *set, const char *id, const char *owner, session_info_t *out, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  info_of (set, s, out);
  return 0;
}

void
session_each (sessions_t *set, const char *owner, int (*cb) (void *arg, const session_info_t *info),
              void *arg)
{
  session_info_t info;
  for (session_t *s = set->list; s; s = s->next)
    if (strcmp (s->owner, owner) == 0)
      {
        info_of (set, s, &info);
        if (cb (arg, &info) != 0)
          return;
      }
}

int
session_delete (sessions_t *set, const char *id, const char *owner, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  session_end (set, s, END_DELETED);
  return 0;
}

int
session_set_ttl (sessions_t *set, const char *id, const char *owner, uint32_t idle_ttl_s,
                 wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  s->idle_ttl_s = idle_ttl_s < set->cfg.idle_ttl_max_s ? idle_ttl_s : set->cfg.idle_ttl_max_s;
  s->used_ms = wb_now_ms ();
  return 0;
}

int
session_call_defaults (sessions_t *set, const char *id, const char *owner, char language[33],
                       uint32_t *timeout_ms, uint32_t *memory_mb, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  memcpy (language, s->language, 33);
  *timeout_ms = s->timeout_ms;
  *memory_mb = s->memory_mb;
  return 0;
}

/* ---- access tokens and files (the E2B API's sandbox plane) ------------ */

/* The MAC of "access", owner and id under the key, 32 hex. */
static void
access_token_of (const sessions_t *set, const session_t *s, char out[33])
{
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int md_len = 0;
  char msg[200];
  int n = snprintf (msg, sizeof msg, "access\n%s\n%s", s->owner, s->id);
  static const char hex[] = "0123456789abcdef";

  HMAC (EVP_sha256 (), set->key, sizeof set->key, (const unsigned char *) msg, (size_t) n, md,
        &md_len);
  for (int i = 0; i < 16; i++)
    {
      out[2 * i] = hex[md[i] >> 4];
      out[2 * i + 1] = hex[md[i] & 15];
    }
  out[32] = '\0';
}

int
session_access_token (sessions_t *set, const char *id, const char *owner, char token[33],
                      wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  access_token_of (set, s, token);
  return 0;
}

int
session_owner_by_token (sessions_t *set, const char *id, const char *token, char owner[80],
                        wb_err_t *err)
{
  static const session_t nobody = {.id = "ses_", .owner = ""};
  const session_t *found = NULL;
  char want[33];

  for (session_t *s = set->list; s; s = s->next)
    if (strcmp (s->id, id) == 0)
      found = s;
  /* A MAC and one comparison whatever the id: its time tells nothing. */
  access_token_of (set, found ? found : &nobody, want);
  bool good = token && strlen (token) == 32 && CRYPTO_memcmp (want, token, 32) == 0;
  OPENSSL_cleanse (want, sizeof want);
  if (found && good)
    {
      memcpy (owner, found->owner, sizeof found->owner);
      return 0;
    }
  /* Unknown, ended, or not this token's: one answer. */
  return wb_error (err, WB_E_NOT_FOUND, "no such sandbox, or not this access token's");
}

static ssize_t
file_index (const session_t *s, const char *name)
{
  for (size_t i = 0; i < s->n_files; i++)
    if (strcmp (s->files[i].name, name) == 0)
      return (ssize_t) i;
  return -1;
}

/* The session of a file operation that changes files: not while a call
 * runs or waits (what it leaves would overwrite the change). */
static session_t *
find_for_change (sessions_t *set, const char *id, const char *owner, const char *name,
                 wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return NULL;
  if (name
      && (!sched_file_name_valid (name, strlen (name))
          || strncmp (name, OWN_PREFIX, strlen (OWN_PREFIX)) == 0))
    {
      wb_error (err, WB_E_INVALID,
                "\"%s\" is not a file name a session holds: a plain name in the working "
                "directory, not a folder, not starting with %s",
                name, OWN_PREFIX);
      return NULL;
    }
  if (s->running || s->queue)
    {
      wb_error (err, WB_E_BUSY, "a call is running in session %s: change its files between calls",
                s->id);
      return NULL;
    }
  return s;
}

int
session_files_write (sessions_t *set, const char *id, const char *owner, const char *const *names,
                     const char *const *data, const size_t *lens, size_t n, wb_err_t *err)
{
  session_t *s = find_for_change (set, id, owner, NULL, err);
  if (s == NULL)
    return -1;
  /* All of them or none: every name and cap first, then copies, then the change. */
  uint64_t count = s->n_files, bytes = s->files_bytes;
  for (size_t i = 0; i < n; i++)
    {
      if (find_for_change (set, id, owner, names[i], err) == NULL)
        return -1;
      for (size_t k = 0; k < i; k++)
        if (strcmp (names[k], names[i]) == 0)
          return wb_error (err, WB_E_INVALID, "%s is given twice", names[i]);
      ssize_t at = file_index (s, names[i]);
      count += at < 0;
      bytes = bytes - (at >= 0 ? s->files[at].len : 0) + lens[i];
    }
  if (count > set->cfg.files_max || bytes > set->cfg.files_max_bytes)
    return wb_error (err, WB_E_TOO_LARGE,
                     "session %s would hold %llu files of %llu bytes together; a session holds "
                     "at most %u files of %llu bytes",
                     s->id, (unsigned long long) count, (unsigned long long) bytes,
                     set->cfg.files_max, (unsigned long long) set->cfg.files_max_bytes);
  /* Within the owner's quota and the daemon's total, without evicting
   * anyone's session: a write costs no container, so it must not push
   * others out. */
  uint64_t idle, after = set->bytes - s->files_bytes + bytes;
  uint64_t mine = owner_bytes (set, s->owner, NULL, &idle) - s->files_bytes + bytes;
  if (bytes > s->files_bytes && (after > set->cfg.max_bytes || mine > owner_cap (set)))
    return wb_error (err, WB_E_TOO_LARGE,
                     after > set->cfg.max_bytes
                         ? "the daemon's sessions are at their memory cap (sessions.max_bytes): "
                           "nothing was written"
                         : "this caller's sessions are at their memory quota "
                           "(sessions.owner_max_bytes): nothing was written");
  sched_file_t *fresh = calloc (n ? n : 1, sizeof *fresh);
  sched_file_t *grown = realloc (s->files, (size_t) (count ? count : 1) * sizeof *s->files);
  if (grown)
    s->files = grown;
  if (fresh == NULL || grown == NULL)
    {
      free (fresh);
      return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  for (size_t i = 0; i < n; i++)
    if (file_copy (&fresh[i], names[i], data[i], lens[i], NULL) < 0)
      {
        files_free (fresh, i);
        return wb_error (err, WB_E_NOMEM, "out of memory");
      }
  for (size_t i = 0; i < n; i++)
    {
      ssize_t at = file_index (s, names[i]);
      if (at < 0)
        at = (ssize_t) s->n_files++;
      else
        {
          explicit_bzero (s->files[at].data, s->files[at].len);
          free (s->files[at].name);
          free (s->files[at].data);
        }
      s->files[at] = fresh[i];
    }
  free (fresh);
  set->bytes = set->bytes - s->files_bytes + bytes;
  s->files_bytes = bytes;
  s->files_gen++;
  touch (set, s);
  return 0;
}

int
session_file_write (sessions_t *set, const char *id, const char *owner, const char *name,
                    const char *data, size_t len, wb_err_t *err)
{
  return session_files_write (set, id, owner, &name, &data, &len, 1, err);
}

int
session_file_remove (sessions_t *set, const char *id, const char *owner, const char *name,
                     wb_err_t *err)
{
  session_t *s = find_for_change (set, id, owner, NULL, err);
  if (s == NULL)
    return -1;
  ssize_t at = file_index (s, name);
  if (at < 0)
    return 1;
  s->files_bytes -= s->files[at].len;
  set->bytes -= s->files[at].len;
  explicit_bzero (s->files[at].data, s->files[at].len);
  free (s->files[at].name);
  free (s->files[at].data);
  s->files[at] = s->files[--s->n_files];
  s->files_gen++;
  touch (set, s);
  return 0;
}

int
session_file_rename (sessions_t *set, const char *id, const char *owner, const char *from,
                     const char *to, wb_err_t *err)
{
  session_t *s = find_for_change (set, id, owner, to, err);
  if (s == NULL)
    return -1;
  ssize_t at = file_index (s, from), there = file_index (s, to);
  if (at < 0)
    return wb_error (err, WB_E_NOT_FOUND, "no file %s in session %s", from, s->id);
  if (at == there)
    return 0;
  char *name = strdup (to);
  if (name == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  free (s->files[at].name);
  s->files[at].name = name;
  if (there >= 0)
    {
      s->files_bytes -= s->files[there].len;
      set->bytes -= s->files[there].len;
      explicit_bzero (s->files[there].data, s->files[there].len);
      free (s->files[there].name);
      free (s->files[there].data);
      s->files[there] = s->files[--s->n_files];
    }
  s->files_gen++;
  touch (set, s);
  return 0;
}

int
session_file_read (sessions_t *set, const char *id, const char *owner, const char *name,
                   const char **data, size_t *len, uint64_t *gen, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  ssize_t at = file_index (s, name);
  if (at < 0)
    return wb_error (err, WB_E_NOT_FOUND, "no file %s in session %s", name, s->id);
  *data = s->files[at].data;
  *len = s->files[at].len;
  if (gen)
    *gen = s->files_gen;
  return 0;
}

int
session_file_each (sessions_t *set, const char *id, const char *owner,
                   void (*cb) (void *arg, const char *name, size_t len), void *arg, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  if (s == NULL)
    return -1;
  for (size_t i = 0; i < s->n_files; i++)
    cb (arg, s->files[i].name, s->files[i].len);
  return 0;
}

/* ---- calls ------------------------------------------------------------ */

static void exec_done (void *arg, const sched_result_t *res, const wb_err_t *err);

/* The request's files become the session's files with the request's on
 * top, then (a profile with session_state) the state as STATE_FILE; what
 * was sent is remembered (c->sent) for the files the sandbox leaves as
 * they were.  -1 with err (413 past the caps). */
static int
merge_files (sessions_t *set, session_t *s, session_call_t *c, const prof_t *p, wb_err_t *err)
{
  sched_request_t *r = &c->req;
  size_t cap = s->n_files + r->n_files + 2, n = 0;
  uint64_t bytes = 0;
  sched_file_t *all = calloc (cap, sizeof *all);

  if (all == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  /* The program's own file (the request's filename, the profile's source
   * or program file) is written by the init or the bootstrap: a session
   * file of that name (the program changed its own file) steps aside. */
  const char *own = r->filename ? r->filename : p->source ? p->source : p->program_file;
  for (size_t i = 0; i < s->n_files; i++)
    {
      bool replaced = own && strcmp (own, s->files[i].name) == 0;
      for (size_t j = 0; j < r->n_files; j++)
        if (strcmp (r->files[j].name, s->files[i].name) == 0)
          replaced = true;
      if (replaced)
        continue;
      if (file_copy (&all[n], s->files[i].name, s->files[i].data, s->files[i].len,
                     s->files[i].sha256)
          < 0)
        goto oom;
      bytes += all[n++].len;
    }
  for (size_t j = 0; j < r->n_files; j++)
    {
      all[n++] = r->files[j]; /* moved */
      bytes += r->files[j].len;
      memset (&r->files[j], 0, sizeof r->files[j]);
    }
  if (n > set->cfg.files_max || bytes > set->cfg.files_max_bytes)
    {
      files_free (all, n);
      return wb_error (err, WB_E_TOO_LARGE,
                       "this session's files would be %zu files of %llu bytes together; a "
                       "session holds at most %u files of %llu bytes",
                       n, (unsigned long long) bytes, set->cfg.files_max,
                       (unsigned long long) set->cfg.files_max_bytes);
    }
  if (p->session_state
      && file_copy (&all[n++], STATE_FILE, s->state.data ? s->state.data : "", s->state.len, NULL)
             < 0)
    goto oom;
  /* A notebook call's own file: how the bootstrap learns to run a cell. */
  bool notebook = p->session_state && r->notebook;
  if (notebook && file_copy (&all[n++], NOTEBOOK_FILE, r->notebook, r->notebook_len, NULL) < 0)
    goto oom;
  files_free (r->files, r->n_files);
  r->files = all;
  r->n_files = n;
  r->files_bytes = (size_t) bytes + s->state.len + (notebook ? r->notebook_len : 0);
  if (!notebook)
    {
      free (r->notebook); /* a program of a language without notebooks: a plain call */
      r->notebook = NULL;
      r->notebook_len = 0;
    }
  /* What the session holds if the sandbox changes nothing: a copy, and
   * the file that stepped aside for the program's own (kept unless the
   * program changed or removed its file). */
  c->sent = calloc (n + 1, sizeof *c->sent);
  if (c->sent == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  for (size_t i = 0; own && i < s->n_files; i++)
    {
      bool mine = strcmp (own, s->files[i].name) == 0;
      for (size_t j = 0; mine && j < n; j++)
        mine = strcmp (all[j].name, own) != 0;
      if (mine
          && file_copy (&c->sent[c->n_sent++], s->files[i].name, s->files[i].data, s->files[i].len,
                        s->files[i].sha256)
                 < 0)
        return wb_error (err, WB_E_NOMEM, "out of memory");
    }
  for (size_t i = 0; i < n; i++)
    {
      if (strncmp (all[i].name, OWN_PREFIX, strlen (OWN_PREFIX)) == 0)
        continue; /* the state, the notebook's: never a file of the session */
      if (file_copy (&c->sent[c->n_sent], all[i].name, all[i].data, all[i].len, all[i].sha256) < 0)
        return wb_error (err, WB_E_NOMEM, "out of memory");
      c->n_sent++;
    }
  return 0;
oom:
  files_free (all, n);
  return wb_error (err, WB_E_NOMEM, "out of memory");
}

/* Start c, the next call of s.  -1 with err: it did not start (c is the
 * caller's still). */
static int
call_begin (sessions_t *set, session_t *s, session_call_t *c, wb_err_t *err)
{
  const prof_t *p = prof_find (execs_profiles (set->execs), c->language);

  if (p == NULL)
    return wb_error (err, WB_E_NOT_FOUND, "language \"%s\" is no longer served here", c->language);
  c->req.profile = p;
  c->state = p->session_state;
  if (merge_files (set, s, c, p, err) < 0)
    return -1;
  c->seq = ++s->calls;
  snprintf (c->req.session_id, sizeof c->req.session_id, "%s", s->id);
  c->req.session_seq = c->seq;
  /* A profile without state still gets the section (the files removed);
   * a state of one byte at most it never sends. */
  c->req.session_state_max = p->session_state ? set->cfg.state_max_bytes : 1;
  c->req.files_out_bytes = set->cfg.files_max_bytes ? set->cfg.files_max_bytes : 1;
  /* Running before the start is asked for: an answer that came at once
   * would find the call where it looks. */
  c->waiting_in = NULL;
  s->running = c;
  WB_LIST_PUSH (set->running, c);
  c->ex = sched_exec_start (set->execs, &c->req, exec_done, c, err);
  if (c->ex == NULL)
    {
      WB_LIST_UNLINK (set->running, c);
      s->running = NULL;
      s->calls--;
      return -1;
    }
  touch (set, s);
  return 0;
}

session_call_t *
session_exec_start (sessions_t *set, const char *id, const char *owner, sched_request_t *req,
                    session_done_cb cb, void *arg, wb_err_t *err)
{
  session_t *s = find (set, id, owner, err);
  session_call_t *c;

  if (s == NULL)
    goto refuse;
  if (!s->any_language && strcmp (req->profile->language, s->language) != 0)
    {
      wb_error (err, WB_E_INVALID, "session %s runs %s, not %s", s->id, s->language,
                req->profile->language);
      goto refuse;
    }
  for (size_t i = 0; i < req->n_files; i++)
    if (strncmp (req->files[i].name, OWN_PREFIX, strlen (OWN_PREFIX)) == 0)
      {
        wb_error (err, WB_E_INVALID, "file names starting with %s are the sandbox's own",
                  OWN_PREFIX);
        goto refuse;
      }
  if (s->waiting >= set->cfg.queue_max)
    {
      wb_error (err, WB_E_BUSY, "session %s already has %u calls waiting; try again later", s->id,
                s->waiting);
      goto refuse;
    }
  if ((c = calloc (1, sizeof *c)) == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      goto refuse;
    }
  c->set = set;
  c->cb = cb;
  c->arg = arg;
  snprintf (c->id, sizeof c->id, "%s", s->id);
  snprintf (c->language, sizeof c->language, "%s", req->profile->language);
  c->req = *req;
  memset (req, 0, sizeof *req);
  if (s->running == NULL && s->queue == NULL)
    {
      if (call_begin (set, s, c, err) < 0)
        {
          call_free (c);
          return NULL;
        }
      return c;
    }
  /* Behind the one running: in order. */
  c->waiting_in = s;
  if (s->queue == NULL)
    s->queue = c;
  else
    {
      session_call_t *t = s->queue;
      while (t->next)
        t = t->next;
      t->next = c;
      c->prev = t;
    }
  s->waiting++;
  touch (set, s);
  return c;
refuse:
  sched_request_clear (req);
  return NULL;
}

void
session_exec_cancel (session_call_t *c)
{
  sessions_t *set = c->set;
  session_t *s = c->waiting_in;

  if (s)
    {
      WB_LIST_UNLINK (s->queue, c);
      s->waiting--;
      call_free (c);
      return;
    }
  WB_LIST_UNLINK (set->running, c);
  sched_exec_cancel (c->ex);
  for (s = set->list; s; s = s->next)
    if (s->running == c)
      {
        s->running = NULL;
        touch (set, s);
        call_free (c);
        next_call (set, s);
        return;
      }
  call_free (c);
}

/* The next call of a session whose call just ended starts from the loop,
 * not from inside that call's ending: the execution that ended is gone
 * from the daemon's count by then, so the one that waited its turn is not
 * refused for room it held itself. */
static void
next_call (sessions_t *set, session_t *s)
{
  (void) s;
  if (!set->closing)
    event_active (set->kick, EV_TIMEOUT, 0);
}

static void start_next (sessions_t *set, session_t *s);

static void
kick_cb (evutil_socket_t fd, short what, void *arg)
{
  sessions_t *set = arg;
  session_t *s, *next;

  (void) fd;
  (void) what;
  for (s = set->list; s; s = next)
    {
      next = s->next;
      if (s->running == NULL && s->queue)
        start_next (set, s);
    }
}

/* Start the calls waiting for s, in order, until one starts. */
static void
start_next (sessions_t *set, session_t *s)
{
  while (!set->closing && s->running == NULL && s->queue)
    {
      session_call_t *c = s->queue;
      wb_err_t err;

      WB_LIST_UNLINK (s->queue, c);
      s->waiting--;
      if (call_begin (set, s, c, &err) == 0)
        return;
      answer_error (c, &err);
      call_free (c);
    }
}

static int warn (session_outcome_t *so, const char *fmt, ...)
    __attribute__ ((format (printf, 2, 3)));

static int
warn (session_outcome_t *so, const char *fmt, ...)
{
  va_list ap;
  char *w = NULL;

  if (so->n_warnings >= MAX_WARNINGS)
    return 0;
  va_start (ap, fmt);
  int n = vasprintf (&w, fmt, ap);
  va_end (ap);
  if (n < 0)
    return -1;
  so->warnings[so->n_warnings++] = w;
  return 0;
}

/* The bootstrap's notes ("name\tkind\twhy" lines, the sandbox's words:
 * shown, never trusted) as warnings. */
static void
notes_warnings (const wb_buf_t *notes, session_outcome_t *so)
{
  const char *p = notes->data, *end = p ? p + notes->len : NULL;
  cleanup_buf wb_buf_t clean = WB_BUF_INIT;

  while (p && p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      const char *line_end = nl ? nl : end;
      const char *t1 = memchr (p, '\t', (size_t) (line_end - p));
      const char *t2 = t1 ? memchr (t1 + 1, '\t', (size_t) (line_end - t1 - 1)) : NULL;
      wb_buf_reset (&clean);
      if (t1 && t2
          && wb_utf8_sanitize (&clean, p, (size_t) (line_end - p), 600, true) != (size_t) -1
          && wb_buf_append (&clean, "", 1) == 0)
        {
          char *name = clean.data, *kind = memchr (clean.data, '\t', clean.len), *why;
          if (kind)
            {
              *kind++ = '\0';
              why = strchr (kind, '\t');
              if (why)
                {
                  *why++ = '\0';
                  if (strcmp (name, "*") == 0)
                    (void) warn (so, "session state: %s", why);
                  else
                    (void) warn (so, "%s was not carried to the next call (%s): %s", name, kind,
                                 why);
                }
            }
        }
      p = nl ? nl + 1 : end;
    }
}

/* May a file the sandbox left be carried into the next frame?  A plain
 * name (sched_file_name_valid: no '/', no control characters), not the
 * sandbox's own (.warmbox-*). */
static bool
carriable_name (const char *name)
{
  return sched_file_name_valid (name, strlen (name))
         && strncmp (name, OWN_PREFIX, strlen (OWN_PREFIX)) != 0;
}

/* What the sandbox left becomes the session's, all of it or none: the
 * files and (a profile with state) the state, within the caps.  A call
 * that did not end by the program's own end (timeout, OOM, output cap,
 * cancelled, compile error, a failed sandbox) carries nothing.  so says
 * what was carried and why not. */
static void
carry (sessions_t *set, session_t *s, session_call_t *c, const sched_result_t *res,
       session_outcome_t *so)
{
  bool state = c->state;
  sched_file_t *files = NULL;
  size_t n = 0;
  uint64_t bytes = 0;
  bool take_state = false;
  wb_buf_t fresh = WB_BUF_INIT;

  if (res->status != SCHED_ST_OK || !res->has_session)
    {
      (void) warn (so,
                   "the call ended with status %s: the session keeps its files and state from "
                   "before it",
                   res->status != SCHED_ST_OK ? sched_status_name (res->status)
                                              : "before its sandbox could report");
      return;
    }
  notes_warnings (&res->session_notes, so);
  /* Files: what was sent, less what the program removed, with what it made
   * or changed on top. */
  files = calloc (c->n_sent + res->n_files_out + 1, sizeof *files);
  if (files == NULL)
    goto nomem;
  for (size_t i = 0; i < c->n_sent; i++)
    {
      bool gone = false, changed = false;
      for (uint32_t g = 0; g < res->n_session_gone; g++)
        if (strcmp (res->session_gone[g], c->sent[i].name) == 0)
          gone = true;
      for (uint32_t f = 0; f < res->n_files_out; f++)
        if (strcmp (res->files_out[f].name, c->sent[i].name) == 0)
          changed = true;
      if (gone || changed)
        continue;
      files[n] = c->sent[i]; /* moved */
      memset (&c->sent[i], 0, sizeof c->sent[i]);
      bytes += files[n++].len;
    }
  for (uint32_t f = 0; f < res->n_files_out; f++)
    {
      const sched_file_out_t *o = &res->files_out[f];
      if (o->content == NULL || !carriable_name (o->name))
        {
          (void) warn (so, "file %s (%llu bytes) was not carried: %s", o->name,
                       (unsigned long long) o->size,
                       o->content == NULL      ? "past the session's file budget"
                       : strchr (o->name, '/') ? "a session carries the working directory's own "
                                                 "files, not its folders"
                                               : "not a name a session can hold");
          continue;
        }
      if (file_copy (&files[n], o->name, o->content, o->content_len, o->sha256) < 0)
        goto nomem;
      bytes += files[n++].len;
    }
  if (res->files_omitted)
    (void) warn (so,
                 "%u files were not carried (past the session's caps, unreadable, or not "
                 "plain UTF-8 names)",
                 res->files_omitted);
  if (n > set->cfg.files_max || bytes > set->cfg.files_max_bytes)
    {
      so->error = "session_files_too_large";
      (void) warn (so,
                   "this call left %zu files of %llu bytes; a session holds at most %u files of "
                   "%llu bytes: the session keeps its files and state from before this call",
                   n, (unsigned long long) bytes, set->cfg.files_max,
                   (unsigned long long) set->cfg.files_max_bytes);
      goto keep;
    }
  /* The state: opaque, whole or not at all. */
  if (state && res->session_state_has == 1)
    {
      if (res->session_state.len != res->session_state_size
          || res->session_state_size > set->cfg.state_max_bytes)
        {
          so->error = "session_state_too_large";
          (void) warn (so,
                       "the state this call left is %llu bytes, past the session's cap of %llu: "
                       "the session keeps its files and state from before this call",
                       (unsigned long long) res->session_state_size,
                       (unsigned long long) set->cfg.state_max_bytes);
          goto keep;
        }
      take_state = true;
    }
  else if (state)
    {
      (void) warn (so, res->session_state_has == 2
                           ? "the sandbox could not collect the state: the session keeps its "
                             "files and state from before this call"
                           : "the program left no state: the session keeps its files and state "
                             "from before this call");
      goto keep;
    }
  /* Within the owner's quota and the daemon's total: the owner's own
   * other sessions go, least recently used first, but only when that is
   * enough; never another owner's. */
  uint64_t after = bytes + (take_state ? res->session_state.len : s->state.len) + s->attrs_len;
  uint64_t idle_mine, mine = owner_bytes (set, s->owner, s, &idle_mine);
  uint64_t others = set->bytes - session_bytes (s);
  uint64_t over_quota = mine + after > owner_cap (set) ? mine + after - owner_cap (set) : 0;
  uint64_t over_total
      = others + after > set->cfg.max_bytes ? others + after - set->cfg.max_bytes : 0;
  if (over_quota > idle_mine || over_total > idle_mine)
    {
      bool quota = over_quota > idle_mine;
      so->error = quota ? "session_quota" : "session_memory_full";
      (void) warn (so, quota ? "this caller's sessions are at their memory quota "
                               "(sessions.owner_max_bytes): the session keeps its files and state "
                               "from before this call"
                             : "the daemon's sessions are at their memory cap: the session keeps "
                               "its files and state from before this call");
      goto keep;
    }
  while (owner_bytes (set, s->owner, s, &idle_mine) + after > owner_cap (set)
         || set->bytes - session_bytes (s) + after > set->cfg.max_bytes)
    session_end (set, lru_of (set, s->owner, s), END_EVICTED);
  if (take_state
      && wb_buf_append (&fresh, res->session_state.data ? res->session_state.data : "",
                        res->session_state.len)
             < 0)
    goto nomem;
  set->bytes -= session_bytes (s);
  files_free (s->files, s->n_files);
  s->files = files;
  s->n_files = n;
  s->files_gen++;
  s->files_bytes = bytes;
  if (take_state)
    {
      if (s->state.data)
        explicit_bzero (s->state.data, s->state.cap);
      wb_buf_free (&s->state);
      s->state = fresh;
    }
  set->bytes += session_bytes (s);
  so->carried = !state || take_state;
  return;
nomem:
  so->error = "session_memory_full";
  (void) warn (so, "warmboxd ran out of memory: the session keeps its files and state from "
                   "before this call");
keep:
  files_free (files, n);
}

static void
exec_done (void *arg, const sched_result_t *res, const wb_err_t *err)
{
  session_call_t *c = arg;
  sessions_t *set = c->set;
  session_t *s = NULL;
  char *warnings[MAX_WARNINGS];
  session_outcome_t so = {.id = c->id, .seq = c->seq, .warnings = warnings};

  WB_LIST_UNLINK (set->running, c);
  for (session_t *t = set->list; t; t = t->next)
    if (t->running == c)
      s = t;
  if (s == NULL)
    {
      so.ended = true;
      (void) warn (&so, "the session ended while this call ran: nothing was carried");
    }
  else
    {
      s->running = NULL;
      if (res)
        carry (set, s, c, res, &so);
      touch (set, s);
      so.files = (uint32_t) s->n_files;
      so.files_bytes = s->files_bytes;
      so.state_bytes = s->state.len;
    }
  c->cb (c->arg, res, &so, err);
  for (size_t i = 0; i < so.n_warnings; i++)
    free (warnings[i]);
  call_free (c);
  if (s)
    next_call (set, s);
}
