/* exec/session.h: sessions (session.c): what one execution's sandbox
 * leaves for the next one's, kept in this daemon's memory and nowhere
 * else.
 *
 * A session is a chain of executions of one language, each in a fresh,
 * never-used container like any other.  Carried from each one to the
 * next: the working directory's files (every language), and for a
 * profile with session_state the interpreter's state as its bootstrap
 * saved it (profiles/README.md): opaque bytes, never parsed here, never
 * written to the disk, a log line or the history (whose rows name only
 * the session and the call's place in it).  The sandbox that reads the
 * state is as untrusted as the one that wrote it.
 *
 * Ownership: the set owns every session; a session owns its files, its
 * state and the calls waiting for it; a call that runs is owned by the
 * set's running list and finds its session again by id when it ends (a
 * session that ended meanwhile is simply not found: nothing is carried,
 * the client still gets the result).  One ending, session_end: DELETE,
 * the idle TTL, the maximum life, eviction (least recently used first,
 * past the caps on count and bytes) or the set freed.  Calls waiting for
 * an ended session are answered session_expired.
 *
 * Ids: "ses_" + [the daemon's node name (sessions.node) + "."] + its
 * instance (8 hex) + 32 random hex + a MAC of all of it and the owner's
 * name (16 hex) under the store's key (store_session_key), so that
 *   - a load balancer routes a session's calls to the daemon that holds
 *     it by the id alone (dist/haproxy.cfg: the node name is the
 *     server's); an id naming another node is 410 here;
 *   - another owner's use of an id, or an id never given out, is 404,
 *     exactly as for an unknown id: nobody learns that a session exists;
 *   - an id of this host whose session is gone (ended, or held by a
 *     daemon that restarted: sessions do not survive one) is 410
 *     session_expired, never a silent fresh start. */
#ifndef WARMBOX_EXEC_SESSION_H
#define WARMBOX_EXEC_SESSION_H

#include "exec/exec.h"

#define SESSION_NODE_MAX 16
#define SESSION_ID_LEN (4 + SESSION_NODE_MAX + 1 + 56) /* the longest id */

typedef struct session_config
{
  uint32_t max_sessions;    /* in all; past it the creator's least recently used idle one goes */
  uint32_t max_per_owner;   /* one token's; past it 429 */
  uint64_t max_bytes;       /* states and files of all sessions together */
  uint64_t owner_max_bytes; /* one owner's sessions together (0: max_bytes); past it the
                               owner's own idle ones go, never another's */
  uint64_t state_max_bytes; /* one session's state */
  uint64_t files_max_bytes; /* one session's files together (<= SCHED_MAX_FILES_BYTES) */
  uint32_t files_max;       /* one session's files (<= SCHED_MAX_FILES - 2) */
  uint32_t idle_ttl_s;      /* the default idle TTL */
  uint32_t idle_ttl_max_s;  /* the most a session may ask for */
  uint32_t max_life_s;      /* from its creation, whatever it does */
  uint32_t queue_max;       /* calls waiting for one session; past it 503 */
  const char *node;         /* NULL or [a-z0-9-]{1,16}: named in the ids (borrowed) */
} session_config_t;

typedef struct sessions sessions_t;
typedef struct session_call session_call_t;

/* What POST /v1/sessions asks for. */
typedef struct session_spec
{
  const char *owner;              /* the token's name, "" without tokens */
  const char *language;           /* the profile's canonical name */
  uint32_t timeout_ms, memory_mb; /* each call's defaults; 0: the profile's */
  uint32_t idle_ttl_s;            /* 0: the configured default */
  /* Calls of any language (E2B's sandboxes: runCode in Python or
   * JavaScript, commands in bash), not only language's; the state is then
   * that of the profiles with session_state, kept across the others. */
  bool any_language;
  const char *attrs; /* NULL, or the API's own text about it (JSON), at most 64 KiB: copied */
} session_spec_t;

/* A session as GET shows it (strings valid until the next call into the set). */
typedef struct session_info
{
  const char *id, *language;
  const char *attrs; /* session_spec_t.attrs, or NULL */
  uint32_t timeout_ms, memory_mb, idle_ttl_s;
  double created_at, last_used_at; /* Unix seconds */
  uint64_t expires_in_ms;          /* the sooner of the idle TTL and the maximum life */
  uint64_t calls;                  /* started so far */
  uint32_t files;
  uint64_t files_bytes, state_bytes;
  bool running;
  uint32_t waiting;
} session_info_t;

/* What a call carried, for its result ("session" in the JSON). */
typedef struct session_outcome
{
  const char *id;
  uint64_t seq; /* 1 for the session's first call */
  bool ended;   /* the session ended while the call ran: nothing carried */
  bool carried; /* the session now holds what this call left */
  /* Why not all of it was taken ("session_state_too_large",
   * "session_files_too_large", "session_memory_full", "session_quota"), or NULL. */
  const char *error;
  uint32_t files; /* what the next call gets */
  uint64_t files_bytes, state_bytes;
  char **warnings; /* sentences for the client: names and files not carried */
  size_t n_warnings;
} session_outcome_t;

/* NULL with err (a node name that is not [a-z0-9-]{1,16}).  key:
 * store_session_key's (copied); instance: the daemon's 32 hex. */
sessions_t *sessions_new (struct event_base *base, const session_config_t *cfg, execs_t *execs,
                          const unsigned char key[32], const char *instance, wb_err_t *err);
/* The figures (the node name stays the one sessions_new was given). */
void sessions_set_config (sessions_t *set, const session_config_t *cfg);
/* The daemon is exiting: calls that end from now on start no other.
 * Then sched_exec_abandon_all answers those running, and sessions_free
 * the rest.  Can't fail. */
void sessions_closing (sessions_t *set);
/* End every session (wiping its state), answer the calls still waiting
 * (busy: shutting down) and free the set.  Can't fail. */
void sessions_free (sessions_t *set);

/* A new session; its id into id (SESSION_ID_LEN + 1).  -1 with err: 429
 * past the owner's cap, 503 when every session is busy at the cap. */
WB_MUST_CHECK int session_create (sessions_t *set, const session_spec_t *spec,
                                  char id[SESSION_ID_LEN + 1], wb_err_t *err);
/* id of owner into *out; -1 with err: 404 (unknown, or another owner's),
 * 410 (ended).  Refreshes nothing. */
WB_MUST_CHECK int session_get (sessions_t *set, const char *id, const char *owner,
                               session_info_t *out, wb_err_t *err);
/* Each of owner's sessions, most recently used first; cb's non-zero stops. */
void session_each (sessions_t *set, const char *owner,
                   int (*cb) (void *arg, const session_info_t *info), void *arg);
/* DELETE: ends it (a call running finishes and is answered, carrying
 * nothing; those waiting get session_expired).  -1 with err as session_get. */
WB_MUST_CHECK int session_delete (sessions_t *set, const char *id, const char *owner,
                                  wb_err_t *err);
/* A new idle TTL (capped by idle_ttl_max_s), from now.  -1 as session_get. */
WB_MUST_CHECK int session_set_ttl (sessions_t *set, const char *id, const char *owner,
                                   uint32_t idle_ttl_s, wb_err_t *err);

/* Called once, on the loop: res (the program may have run) with so, or
 * err (it never started: so is NULL then, or names the session).  Not
 * called after session_exec_cancel. */
typedef void (*session_done_cb) (void *arg, const sched_result_t *res, const session_outcome_t *so,
                                 const wb_err_t *err);
/* Run req in session id of owner: now, or after the calls before it (one
 * at a time).  Takes *req (cleared on return, success or not); its
 * language must be the session's.  NULL with err when refused at once
 * (as session_get; 400 another language or a file named .warmbox-*; 413
 * the files past the session's caps; 503 its queue full; whatever
 * sched_exec_start refuses); then cb never comes. */
session_call_t *session_exec_start (sessions_t *set, const char *id, const char *owner,
                                    sched_request_t *req, session_done_cb cb, void *arg,
                                    wb_err_t *err);
/* The client left: waiting, the call is dropped; running, its execution
 * is cancelled (exec.h) and the session carries nothing of it.  cb will
 * not come; forget call.  Can't fail. */
void session_exec_cancel (session_call_t *call);

/* The defaults of one call of id (for parsing its body): its language and
 * limits.  -1 with err as session_get. */
WB_MUST_CHECK int session_call_defaults (sessions_t *set, const char *id, const char *owner,
                                         char language[33], uint32_t *timeout_ms,
                                         uint32_t *memory_mb, wb_err_t *err);
/* The E2B API's sandbox plane, which knows a session by its id and an
 * access token (no API key comes with those requests): the token of id
 * of owner into token (32 hex: a MAC of both under the store's key, so
 * nothing is kept).  -1 with err as session_get. */
WB_MUST_CHECK int session_access_token (sessions_t *set, const char *id, const char *owner,
                                        char token[33], wb_err_t *err);
/* The owner of the live session id whose access token is token (constant
 * time), into owner.  -1 with err 404 otherwise: unknown, ended, or
 * another token, one answer. */
WB_MUST_CHECK int session_owner_by_token (sessions_t *set, const char *id, const char *token,
                                          char owner[80], wb_err_t *err);

/* A session's files between its calls (the E2B API's files.*).  Names
 * are plain (sched_file_name_valid), never .warmbox-*; each change is
 * refused (503) while a call runs or waits, since what that call leaves
 * replaces the files.  Reads see the files as the last call left them.
 * Each -1 with err as session_get, or: 400 a name a session cannot hold,
 * 413 past the session's caps (files_max, files_max_bytes) or the
 * daemon's (max_bytes: a write evicts no other session),
 * 404 no such file (read, rename). */
WB_MUST_CHECK int session_file_write (sessions_t *set, const char *id, const char *owner,
                                      const char *name, const char *data, size_t len,
                                      wb_err_t *err);
/* Several at once, all of them or none (names twice: 400). */
WB_MUST_CHECK int session_files_write (sessions_t *set, const char *id, const char *owner,
                                       const char *const *names, const char *const *data,
                                       const size_t *lens, size_t n, wb_err_t *err);
/* 0 removed, 1 there was no such file. */
WB_MUST_CHECK int session_file_remove (sessions_t *set, const char *id, const char *owner,
                                       const char *name, wb_err_t *err);
/* to replaces a file of that name. */
WB_MUST_CHECK int session_file_rename (sessions_t *set, const char *id, const char *owner,
                                       const char *from, const char *to, wb_err_t *err);
/* *data (the session's: valid until the next call into the set) and *len;
 * *gen (gen may be NULL) changes whenever any file of the session does, so
 * a reader that comes back for more can tell it is still the same file. */
WB_MUST_CHECK int session_file_read (sessions_t *set, const char *id, const char *owner,
                                     const char *name, const char **data, size_t *len,
                                     uint64_t *gen, wb_err_t *err);
WB_MUST_CHECK int session_file_each (sessions_t *set, const char *id, const char *owner,
                                     void (*cb) (void *arg, const char *name, size_t len),
                                     void *arg, wb_err_t *err);

/* Sessions held, and the bytes of their states and files. */
size_t sessions_count (const sessions_t *set);
uint64_t sessions_bytes (const sessions_t *set);

#endif
