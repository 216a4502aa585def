/* store: the execution history in SQLite.  Metadata and hashes only: the
 * code, the stdin and the output are never written here (nor anywhere).
 *
 * One writer thread owns the write connection.  The event loop hands it
 * records (store_submit_execution, store_submit_pool_event) and never
 * touches the disk itself; the writer batches them into transactions and
 * reports each execution's commit back on the loop, through a pipe watched
 * by the loop's base.  WAL mode with synchronous=NORMAL: a committed row
 * survives the daemon being killed at any moment.
 *
 * An execution is written twice under one id: ahead, with status
 * "running", before its code may start, and finished, with its outcome
 * (the second write replaces the first).  Each row names the daemon that
 * wrote it; at open, "running" rows of daemons that are gone become
 * "interrupted".  Commits are reported with the submitter's tag, never a
 * pointer the store would have to keep alive.
 *
 * When the database cannot be written (disk full, locked, read-only), the
 * writer keeps the batch and retries with backoff; records wait in a
 * bounded backlog.  store_accepting() turns false when the backlog is full,
 * so the scheduler refuses new executions instead of running code that
 * would have no record.  Retention prunes old rows in small batches from
 * the writer thread.
 */
#ifndef WARMBOX_STORE_H
#define WARMBOX_STORE_H

#include "warmbox/wb.h"

struct event_base;
typedef struct store store_t;

/* One execution, as recorded.  Strings are copied on submit.  Its
 * *_sha256 are plain SHA-256 when submitted (the store keys them before
 * they reach the file: store_keyed_hex) and keyed when read back. */
typedef struct store_execution
{
  const char *id;
  double received_at, started_at, finished_at; /* Unix seconds; started_at 0 if never */
  const char *client;                          /* token name, "" if none */
  const char *language, *image_id, *profile_hash;
  char code_sha256[65];
  uint64_t code_bytes;
  char stdin_sha256[65];
  uint64_t stdin_bytes;
  uint32_t arg_count;
  uint32_t files_in;         /* files given to the program */
  uint64_t files_in_bytes;   /* their contents together */
  char files_in_sha256[65];  /* over names and contents, "" without files */
  uint32_t files_out;        /* files the program left and got back */
  uint64_t files_out_bytes;  /* their sizes together */
  char files_out_sha256[65]; /* over names and contents, "" without files */
  bool has_usage;            /* false: NULL (the sandbox was stopped) */
  uint64_t peak_memory_kib;  /* the program's peak RSS (largest process) */
  double cpu_user_ms, cpu_system_ms;
  /* A compiled language's compile stage, as the sandbox reported it:
   * "ok", "error", "timeout", "killed"; "" (NULL in the table) without one. */
  char compile_status[16];
  double compile_ms;
  /* running (written ahead), ok, error, timeout, oom, output_limit,
   * cancelled, engine_lost, compile_error, sandbox_error, refused (never
   * started), interrupted */
  const char *status;
  int exit_code; /* -1: none */
  bool timed_out, oom_killed, stdout_truncated, stderr_truncated, pool_hit;
  uint64_t stdout_bytes, stderr_bytes;
  double queue_ms, start_ms, run_ms, total_ms; /* < 0: none (NULL) */
  const char *container_id;                    /* "" if none */
  const char *engine;                          /* the engine endpoint */
  const char *error;                           /* client-safe reason, "" if none */
  const char *daemon; /* the writing daemon (its owner label), "" if none */
  const char *pool;   /* the pool key it was served from, "" if none */
  /* A session's execution: its session and its place in it (1 for the
   * first call); "" (NULL in the table) for the others. */
  const char *session_id;
  uint64_t session_seq;
} store_execution_t;

typedef struct store_config
{
  const char *path;
  uint32_t retention_days; /* 0: keep forever */
  uint32_t max_backlog;    /* records waiting for the disk; 0: 10000 */
  /* At open, "running" rows whose daemon is not alive become
   * "interrupted".  NULL: no row is touched. */
  bool (*daemon_alive) (const char *daemon, void *arg);
  void *daemon_alive_arg;
  const char *key_path; /* the input hashes' key (store_key_load); NULL: path + ".key" */
} store_config_t;

/* Open (creating and migrating as needed) and start the writer.  Blocking
 * (start-up only).  -1 with err when the file cannot be opened or migrated. */
WB_MUST_CHECK int store_open (struct event_base *base, const store_config_t *cfg, store_t **out,
                              wb_err_t *err);
/* Stop the writer after it committed what it can (up to timeout_ms), close,
 * free.  Completion callbacks still pending are called with rc -1. */
void store_close (store_t *st, uint32_t timeout_ms);

/* Admission: reserve room for n records before an execution's code runs
 * (2: the row ahead and the finished one).  False when the backlog
 * (reservations + records not yet written) has no room for n: the caller
 * must refuse the execution.  Each record submitted uses one; what is not
 * used is given back with store_unreserve.  Also false while writes are
 * failing (the last attempt failed): new work is refused at once. */
WB_MUST_CHECK bool store_reserve (store_t *st, uint32_t n);
void store_unreserve (store_t *st, uint32_t n);
/* True when a reservation of n would succeed now. */
bool store_accepting (const store_t *st, uint32_t n);
/* Uses a reservation (never refused for room).  cb(arg, tag, 0) on the loop
 * once the row is committed; cb(arg, tag, -1) if the store closes first.
 * Callbacks come in submission order.  cb may be NULL.  -1 with err
 * (WB_E_NOMEM; the reservation is given back, cb never called) only when
 * memory runs out. */
typedef void (*store_done_cb) (void *arg, uint64_t tag, int rc);
WB_MUST_CHECK int store_submit_execution (store_t *st, const store_execution_t *rec,
                                          store_done_cb cb, void *arg, uint64_t tag, wb_err_t *err);
/* Fire and forget, under a bound of its own: dropped (and counted) when
 * that is full, so pool events never crowd out execution records. */
void store_submit_pool_event (store_t *st, const char *event, const char *language,
                              const char *pool_key, const char *container_id, double duration_ms,
                              const char *detail);

typedef struct store_stats
{
  uint64_t committed, write_errors, dropped_events, pruned;
  uint64_t interrupted; /* rows marked interrupted at open */
  uint32_t backlog;
  bool failing; /* the last write failed */
  char last_error[256];
} store_stats_t;
void store_get_stats (store_t *st, store_stats_t *out);

/* The key this host signs session ids with (32 bytes, made at the first
 * open and kept in the file's secrets table, so that ids a daemon gave out
 * before a restart are still known for its: exec/session.h).  Valid while
 * st is open. */
const unsigned char *store_session_key (const store_t *st);
/* The schema version this build writes (PRAGMA user_version). */
int store_schema_version (void);
/* Migrate an open database to the current schema.  Used by store_open and
 * by tests on old files. */
struct sqlite3;
WB_MUST_CHECK int store_migrate (struct sqlite3 *db, const unsigned char key[32], wb_err_t *err);

/* ---- keyed input hashes ------------------------------------------------
 * The history never holds a plain hash of what a client sent: a short
 * stdin (a password, a key) would be recovered from its SHA-256 by a
 * dictionary.  Its code_hmac, stdin_hmac, files_in_hmac and files_out_hmac
 * are HMAC-SHA-256, under a key kept outside the history file, of the
 * lower-case hex SHA-256 (what results and clients call code_sha256), so
 * that an operator with the key correlates a client's SHA-256 with its
 * rows (warmbox history --sha256), and the file alone gives a dictionary
 * nothing.  The key file holds 64 hex digits; it must be a regular file of
 * this user's, readable by nobody else (mode 0600). */

/* The key file of the history at db_path (db_path + ".key") into buf. */
const char *store_key_path (const char *db_path, char *buf, size_t len);
/* Read the key at path into key; with create, a missing one is made (32
 * random bytes, mode 0600, never replacing a file).  -1 with err: missing
 * (without create), not a regular file of this user's, readable or
 * writable by others, or not 64 hex digits. */
WB_MUST_CHECK int store_key_load (const char *path, bool create, unsigned char key[32],
                                  wb_err_t *err);
/* The keyed form of a hex hash: HMAC-SHA-256 under key, lower-case hex,
 * into out[65]; "" stays "".  Can't fail. */
void store_keyed_hex (const unsigned char key[32], const char *hex, char out[65]);

/* ---- reading (warmbox history, warmbox plan): no daemon needed --------- */

typedef struct store_history_filter
{
  double since;         /* Unix seconds; 0: all */
  const char *language; /* NULL: any */
  const char *status;   /* NULL: any */
  const char *sha256;   /* a plain SHA-256 of code, stdin or files (keyed here), NULL: any */
  const char *key_path; /* with sha256: the history's key file; NULL: path + ".key" */
  uint32_t limit;       /* 0: 50 */
} store_history_filter_t;

/* One row per execution, newest first.  Strings valid during the call. */
typedef int (*store_row_cb) (void *arg, const store_execution_t *row);
/* Opens path read-only.  -1 with err if it cannot be read or queried; the
 * callback's non-zero return stops early. */
WB_MUST_CHECK int store_history (const char *path, const store_history_filter_t *f, store_row_cb cb,
                                 void *arg, wb_err_t *err);

#define STORE_PLAN_CANDIDATES 12

typedef struct store_plan_candidate
{
  uint32_t min_ready, max_ready;
  double hit_rate, idle_mean; /* what a replay of the window gave */
  bool meets_target;
} store_plan_candidate_t;

#define STORE_PLAN_ENGINES 16

typedef struct store_plan_row
{
  char language[33];
  uint64_t executions;               /* served from the warm pool (not requests' own) */
  double mean_per_min, peak_per_min; /* arrivals */
  double peak_per_10s;               /* arrivals in the busiest 10 s, per second */
  double replenish_p50_ms, replenish_p95_ms;
  bool replenish_measured; /* false: no "created" events; a default was assumed */
  double hit_rate;         /* what the sizes in force achieved */
  bool sizes_known;        /* "sized" events (or the caller) gave them */
  uint32_t actual_min, actual_max, create_concurrency;
  double replayed_hit_rate; /* a replay with those sizes: should match hit_rate */
  double replayed_idle;
  uint32_t min_ready, max_ready; /* recommended */
  double recommended_hit_rate, recommended_idle;
  bool target_met; /* false: no candidate reached the target */
  store_plan_candidate_t candidates[STORE_PLAN_CANDIDATES];
  size_t n_candidates;
  char reason[400];
  /* Where the window's executions ran (the history's engine column; at
   * most STORE_PLAN_ENGINES, the busiest), and the recommended sizes
   * spread by each one's share: what its weight should reflect, since
   * warmboxd spreads a language's sizes over its engines by weight. */
  struct
  {
    char engine[33];
    uint64_t executions, hits;
    double share;
    uint32_t min_ready, max_ready;
  } engines[STORE_PLAN_ENGINES];
  size_t n_engines;
} store_plan_row_t;

typedef struct store_plan_opts
{
  double window_s;        /* the last window_s seconds of the file (ending at its newest row) */
  double target_hit_rate; /* in (0, 1) */
  bool sizes_given;       /* replay these sizes instead of the recorded ones */
  uint32_t min_ready, max_ready;
} store_plan_opts_t;

/* Per language: the arrivals, replenish times and sizes of the window,
 * replayed through the pool model (store_replay) for the sizes in force
 * (should reproduce the observed hit rate) and for candidate sizes; the
 * recommendation is the candidate with the fewest idle containers that
 * reaches the target.  *rows is malloc'd (caller frees).  -1 with err when
 * the file cannot be read. */
WB_MUST_CHECK int store_plan (const char *path, const store_plan_opts_t *opts,
                              store_plan_row_t **rows, size_t *n, wb_err_t *err);
/* The sizing rule alone: the smallest N with P(Poisson(rate * replenish)
 * <= N - 1) >= target, at most 10000.  Pure. */
uint32_t store_plan_size (double rate_per_s, double replenish_s, double target_hit_rate);

/* ---- replay: a recorded history through the pool model (pure) -------- */

typedef struct store_replay_sizes
{
  uint32_t min_ready, max_ready;
  uint32_t create_concurrency; /* 0: 2 */
} store_replay_sizes_t;

typedef struct store_replay_result
{
  uint64_t arrivals, hits;
  double hit_rate;     /* hits / arrivals */
  double idle_mean;    /* ready containers, averaged over time */
  double miss_wait_ms; /* a miss's mean wait for its container */
} store_replay_result_t;

/* Replay arrivals (Unix seconds, ascending) through the daemon's pool
 * policy with these sizes; create_ms are the recorded replenish times,
 * taken in turn (none: 500 ms).  The pool starts holding min_ready.
 * Deterministic; no I/O.  -1 only when memory runs out. */
WB_MUST_CHECK int store_replay (const double *arrivals, size_t n, const double *create_ms,
                                size_t n_create, const store_replay_sizes_t *sizes,
                                store_replay_result_t *out);

/* The default path: /var/lib/warmbox/history.db for root, else
 * $XDG_STATE_HOME/warmbox/history.db or ~/.local/state/warmbox/history.db.
 * Writes into buf; never fails (falls back to ./warmbox-history.db). */
const char *store_default_path (char *buf, size_t len);

#endif
