/* exec/exec.h: executions, from a validated request to its result and
 * its history row (exec.c), and the set of them (execs_t: the registry,
 * the admission queue, the room to run).
 *
 * An execution is an object with one owner (its execs_t's registry),
 * named states and one function that ends it; see the state table at the
 * top of exec.c.  Every execution that is admitted has a history row,
 * written ahead (status "running") before its code can start and finished
 * with its outcome; the client hears only after the finished row commits.
 */
#ifndef WARMBOX_SCHED_EXEC_H
#define WARMBOX_SCHED_EXEC_H

#include "exec/metrics.h"
#include "exec/order.h"
#include "exec/request.h"
#include "nodes/nodes.h"

typedef enum sched_status
{
  SCHED_ST_OK,            /* the program ran and exited; see exit_code */
  SCHED_ST_ERROR,         /* the sandbox failed after the program may have started */
  SCHED_ST_TIMEOUT,       /* killed at the wall-clock deadline */
  SCHED_ST_OOM,           /* killed by the kernel at the memory limit */
  SCHED_ST_OUTPUT_LIMIT,  /* killed when a stream passed its cap */
  SCHED_ST_CANCELLED,     /* the client left; stopped (history only: nobody hears) */
  SCHED_ST_ENGINE_LOST,   /* the engine went away after the program may have started */
  SCHED_ST_COMPILE_ERROR, /* the compile stage failed (see compile): the program never ran */
  /* The sandbox ended on its own, but not through the program's end: its
   * init wrote no (whole) report, so something else ended it (the
   * runtime: gVisor's sentry dying; the init killed, which the program,
   * of the same uid, can do).  No exit code: the container's is not the
   * program's. */
  SCHED_ST_SANDBOX_ERROR,
} sched_status_t;

/* "ok", "error", "timeout", "oom", "output_limit", "cancelled",
 * "engine_lost", "compile_error", "sandbox_error".  Never NULL. */
const char *sched_status_name (sched_status_t st);

/* A file the program left in its working directory (profiles/init.c says
 * which), as the sandbox's init reported it. */
typedef struct sched_file_out
{
  char *name; /* its path under the working directory, UTF-8 */
  uint64_t size;
  char sha256[65];    /* of its whole content */
  char *content;      /* NULL when left out (past the output budget) */
  size_t content_len; /* = size when content is there */
} sched_file_out_t;

typedef struct sched_result
{
  char id[37]; /* execution id (uuid form) */
  const char *language;
  sched_status_t status;
  int exit_code;     /* -1 when the program never exited by itself */
  wb_buf_t out, err; /* captured stdout / stderr (capped) */
  /* The order in which the engine delivered stdout's and stderr's bytes
   * (order.h), always in step with out and err once the result is final;
   * for "output" (Piston's always, /v1's when the request asked). */
  sched_order_t order;
  bool combined_output; /* the request asked for "output" (/v1) */
  bool out_truncated, err_truncated;
  uint64_t duration_ms; /* start sent -> exit seen */
  uint64_t total_ms;    /* request admitted -> result */
  char code_sha256[65];
  char stdin_sha256[65];
  uint64_t code_bytes, stdin_bytes;
  uint32_t arg_count;
  uint32_t files_in;        /* files given to the program */
  uint64_t files_in_bytes;  /* their contents together */
  char files_in_sha256[65]; /* over names and contents, "" without files */
  /* Files the program made or changed in its working directory, sorted by
   * path (at most SCHED_MAX_FILES; the rest counted in files_omitted), with
   * their content while it fits in output_bytes altogether.  None when
   * the sandbox was stopped before its init could report. */
  bool has_files; /* the sandbox reported (files_out may still be empty) */
  sched_file_out_t *files_out;
  uint32_t n_files_out, files_omitted;
  uint64_t files_out_bytes;  /* their sizes together */
  char files_out_sha256[65]; /* over names and contents, as files_in_sha256 */
  bool pool_hit;
  /* What the program used, measured by the kernel and reported by the
   * sandbox's /warmbox/init (profiles/init.c); has_usage false when the
   * sandbox was stopped before the init could report (timeout, output cap,
   * engine loss) or its profile has no init.  Figures are of the processes
   * the init reaped: a lower bound a program can lower (children it lets
   * the kernel reap unwaited are not counted). */
  bool has_usage;
  uint64_t peak_memory_kib;            /* the largest single process's peak RSS */
  uint64_t cpu_user_us, cpu_system_us; /* summed over every process */
  /* The compile stage, as the init reported it (profiles/init.c); only for
   * a profile with one, and only when the init could report. */
  bool has_compile;
  int compile_exit;       /* the compiler's exit status (127: could not run it) */
  int compile_signal;     /* the signal that ended it, or 0 */
  bool compile_timed_out; /* killed at compile_timeout_ms */
  bool compile_truncated; /* output past compile_output_bytes was dropped */
  uint64_t compile_us;
  wb_buf_t compile_out, compile_err;
  sched_order_t compile_order; /* as the init read them; unknown from an older init */
  /* The init stopped the program at its own timeout_ms (after a compile
   * stage, the daemon's deadline covers both stages). */
  bool run_timed_out;
  /* A session's execution: the trailer's session section
   * (profiles/README.md), the sandbox's words, untrusted.  has_session
   * false: none came (not a session, or no whole trailer). */
  bool has_session;
  char **session_gone; /* the input files the program removed */
  uint32_t n_session_gone;
  int session_state_has;       /* 0 none left, 1 here (or only its size), 2 not collected */
  uint64_t session_state_size; /* its size; past the bound the bytes are not here */
  wb_buf_t session_state;      /* opaque: never parsed, never logged */
  wb_buf_t session_notes;      /* "name\tkind\twhy" lines: what the bootstrap could not carry */
  /* A notebook call's display records (sched_request_t.notebook): the
   * bootstrap's JSON lines, untrusted, at most SCHED_DISPLAY_MAX bytes. */
  wb_buf_t session_display;
  const char *error; /* a client-safe sentence when status is not ok */
} sched_result_t;

/* The trailer profiles/init.c writes after its mark (the mark itself
 * already taken off) into res: the compile stage (when the profile has
 * one), files, "timeout" (when the init stopped the program), usage, then
 * the end line with nonce.  All or nothing: -1 and res untouched when it does not parse.
 * Fuzzed (tests/fuzz/fuzz_trailer.c). */
WB_MUST_CHECK int sched_trailer_parse (const char *data, size_t len, const char nonce[33],
                                       sched_result_t *res);
/* The compile stage's status: "ok", "error" (it exited non-zero or could
 * not run), "timeout", "killed" (a signal: the memory limit, most often). */
const char *sched_compile_status (const sched_result_t *res);
/* Free res->files_out, the compile stage's output and order and the
 * session section (owned by the result; the state is wiped first). */
void sched_result_files_free (sched_result_t *res);

/* What the executions read of the configuration; all of it reloadable
 * (execs_set_config). */
typedef struct exec_config
{
  uint32_t max_concurrent;      /* executions running or preparing; past it they queue */
  uint32_t admission_queue_max; /* executions queued for room to run; past it 503 */
  uint32_t max_wait_ms;         /* the longest an execution waits before its start */
  uint32_t start_bound_ms;      /* the start to the init's run mark (0: 10000): past it the
                                   program never ran, and the engine is overloaded */
  uint32_t exec_grace_ms;       /* kill sent, or exit seen: how long the engine may take to
                                   report the exit, or the output's end (0: the defaults) */
} exec_config_t;

typedef struct execs execs_t;
typedef struct sched_exec sched_exec_t;

/* The executions of one daemon: placed on the engines of ns, recorded in
 * store, counted in metrics (all three outlive the set).  profiles is
 * the set requests are checked against (execs_set_profiles replaces it).
 * NULL with err. */
execs_t *execs_new (struct event_base *base, const exec_config_t *cfg, nodes_t *ns, store_t *store,
                    metrics_t *metrics, const prof_set_t *profiles, wb_err_t *err);
/* Abandon what is still in flight (sched_exec_abandon_all) and free the
 * set.  Can't fail. */
void execs_free (execs_t *x);
void execs_set_config (execs_t *x, const exec_config_t *cfg);
void execs_set_profiles (execs_t *x, const prof_set_t *profiles);
/* The set in force (borrowed: valid until the next execs_set_profiles). */
const prof_set_t *execs_profiles (const execs_t *x);
/* SIGTERM's drain: new executions are refused; those in flight, queued
 * ones included, run to their end. */
void execs_set_draining (execs_t *x, bool draining);

/* Called at most once, on the loop: either res (the program may have run:
 * whatever its status) or err (it never started: engine down, no
 * container in time, shutdown ...).  Not called after sched_exec_cancel. */
typedef void (*sched_exec_done_cb) (void *arg, const sched_result_t *res, const wb_err_t *err);

/* Admit an execution.  Takes ownership of *req (cleared on return, success
 * or not).  Returns NULL with err set when it is refused at the door (busy,
 * shutting down, history not writable); then nothing was recorded and cb is
 * never called.  Otherwise cb follows exactly once unless cancelled. */
sched_exec_t *sched_exec_start (execs_t *x, sched_request_t *req, sched_exec_done_cb cb, void *arg,
                                wb_err_t *err);
/* The client went away: cb will not be called.  What happens next depends
 * on the state (exec.c's table): nothing started -> ended at once (row
 * "cancelled"); running -> killed, then recorded; recording -> recorded.
 * The execution ends itself; the caller must forget ex.  Can't fail. */
void sched_exec_cancel (sched_exec_t *ex);
/* An engine was taken out (the daemon installs this as the nodes' lost
 * callback).  Its executions that have not started go to another engine
 * (a request whose code never started may run elsewhere: each execution
 * tries each engine at most once, within its max_wait_ms); those that
 * started are stopped and end "engine_lost" (code that started never runs
 * twice).  Can't fail. */
void sched_exec_node_lost (execs_t *x, sched_node_t *node);

/* Where an execution is ("waiting for a container", "running" ...), for
 * logs and tests.  Never NULL. */
const char *sched_exec_state (const sched_exec_t *ex);
/* Executions in flight (admitted, not ended), and of them those queued for
 * room to run. */
size_t sched_exec_count (const execs_t *x);
size_t sched_exec_queued (const execs_t *x);
/* The state machine, for tests: the number of states (their order is
 * exec.c's), each one's name (sched_exec_state's words), whether the
 * transition table allows from -> to, and every execution's invariants
 * checked (the number of broken rules, each logged; 0 when all hold). */
int sched_exec_n_states (void);
const char *sched_exec_state_name (int st);
bool sched_exec_transition_allowed (int from, int to);
int sched_exec_check_all (const execs_t *x);

/* The daemon is exiting now (second signal, fatal error): end every
 * execution without a finished row (their rows stay "running" and the
 * next start-up marks them interrupted; their containers are left to its
 * reaper).  A client still there hears once: an error (busy) when its
 * start was never sent, else a result with status "error" (the program
 * may have run).  Can't fail. */
void sched_exec_abandon_all (execs_t *x);

#endif
