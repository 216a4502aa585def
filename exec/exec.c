/* exec/exec.c: one execution, as a state machine.
 *
 * One owner: its set's registry (execs_t.execs).  One ending:
 * exec_end(), the only function that frees an execution; it cancels every
 * handle the execution holds (engine requests, attach, pool waiter, start
 * slot, timers) and gives its container back.  Nothing outside holds a
 * pointer to an execution that can outlive it: the HTTP call forgets it on
 * cancel, and the store reports commits by serial, looked up here (a commit
 * for an execution that has ended finds nothing).
 *
 * States, in order:
 *   QUEUED          waiting for room to run (max_concurrent executions
 *                   are past this state), fair across clients
 *   WAIT_CONTAINER  queued on its pool for a never-started container
 *   PREPARING       holds a container; its run (sandbox/run.c: on Docker
 *                   the attach, frame written and stdin half-closed, and
 *                   the wait armed) being set up; its row written ahead
 *                   may still be on its way to the disk
 *   WAIT_SLOT       both done; queued at the start gate
 *   STARTING        start sent (warmbox-oci: the run's one exchange, the
 *                   frame with it); the run's deadline is armed
 *   RUNNING         started; output flows in, capped
 *   KILLING         a kill was sent (deadline, output cap, client gone,
 *                   engine failure); waiting for the exit, bounded by grace
 *   INSPECTING      exit 137 we did not cause: asking whether it was OOM
 *   RECORDING       the finished row is on its way; the reply waits for it
 *
 * State x event -> action ("end" = exec_end after recording the row;
 * "refuse" = the program never started: row "refused", an HTTP error to
 * the client at once; "move" = an engine failed it before its start and
 * another may run it: back to QUEUED and placed again (replace), else
 * refuse; "cancel" = row "cancelled", nobody to tell):
 *
 *                  | client gone     | deadline        | engine failure   | shutdown
 *   QUEUED         | cancel          | refuse (busy)   | -                | finish normally
 *   WAIT_CONTAINER | cancel          | refuse (busy)   | move             | finish normally
 *   PREPARING      | cancel          | refuse          | move             | finish normally
 *   WAIT_SLOT      | cancel          | refuse (busy)   | move             | finish normally
 *   STARTING       | kill once       | kill (timeout)  | engine down: may | finish normally
 *                  | started         |                 | have run -> kill,|
 *                  |                 |                 | engine_lost;     |
 *                  |                 |                 | answered: refuse;|
 *                  |                 |                 | never reached:   |
 *                  |                 |                 | move             |
 *   RUNNING        | kill (cancelled)| kill (timeout)  | kill, engine_lost| finish normally
 *   KILLING        | forget client   | grace: give up  | (already ending) | finish normally
 *   INSPECTING     | forget client   | -               | finish, not OOM  | finish normally
 *   RECORDING      | forget client   | -               | -                | finish normally
 *
 * The moves between states this allows are exec_transitions[] below,
 * and set_state is the only writer of the state: it refuses (and in
 * checked builds aborts on) a move the table lacks.  Every execution's
 * invariants (exec_check: the handles it holds belong to its state) are
 * checked by the unit tests after every event.  Each bound has a timer
 * of its own: the pre-start bound, the run's deadline, the kill's grace,
 * the output's drain after the exit, the inspect's bound.
 *
 * A wait the engine answers with an error (not a lost engine) while
 * RUNNING is followed by one inspect (sandbox/run.c): an exited container
 * gives its exit code, a running one is waited on again.
 *
 * An exit nothing of ours caused is the program's only when the init's
 * trailer, this execution's nonce and all, says the program ended
 * (exec_finish): without it the execution is "sandbox_error" (the runtime
 * or the init ended the sandbox; exit 137 with OOMKilled is "oom" first),
 * and "error" when the engine never ended the output after the exit.
 *
 * "deadline" before the start is max_wait_ms from admission (the longest
 * wait for room, a container and a start slot).  From the start on, with
 * warmbox's init, it is the start bound until the init's run mark says
 * the program starts (with a compile stage, the bound + compile_timeout_ms
 * + timeout_ms + RUN_SLACK_MS), then timeout_ms from the mark (+
 * RUN_SLACK_MS after a compile stage: take_run_mark); past the start bound
 * without the mark it ends "error" saying the engine is overloaded
 * (start_overdue), never "timeout".  Without warmbox's init it is
 * timeout_ms from the start.  A deadline that finds the init's report
 * already coming (the program ended in time; the engine's word of the
 * exit is late) waits the kill's grace for the exit instead
 * (reported_early), and past that ends "error", the engine's failure.
 *
 * "shutdown" is SIGTERM: executions in flight, queued ones included, run
 * to their end.  A second signal abandons them (sched_exec_abandon_all):
 * rows stay "running" and the next start-up marks them interrupted. */
#define _GNU_SOURCE
#include "exec/exec.h"
#include "exec/admission.h"

#include <event2/event.h>
#include <string.h>

#define KILL_GRACE_MS 5000    /* kill sent -> give up on the engine */
#define ADMIT_MIN_LEFT_MS 100 /* a queued execution admitted with less left is refused */
#define DRAIN_GRACE_MS 2000   /* exit seen -> stop waiting for output EOF */

static uint32_t kill_grace (const sched_exec_t *ex);
static void trailer_free (sched_exec_t *ex);
static uint32_t drain_grace (const sched_exec_t *ex);

typedef enum exec_state
{
  EX_QUEUED,
  EX_WAIT_CONTAINER,
  EX_PREPARING,
  EX_WAIT_SLOT,
  EX_STARTING,
  EX_RUNNING,
  EX_KILLING,
  EX_INSPECTING,
  EX_RECORDING,
  EX_ENDED, /* exec_end: about to be freed */
  EX_N_STATES
} exec_state_t;

#define TO(s) (1u << (s))
/* The transitions set_state allows, from each state: the table at the
 * top of the file as code.  ENDED is reachable from every state (a
 * refusal before the start, the recorded row, or the daemon abandoning
 * everything at exit: exec_end is the one ending). */
static const unsigned exec_transitions[EX_N_STATES] = {
    /* room to run: a container asked for; or refused (busy, cancelled) */
    [EX_QUEUED] = TO (EX_WAIT_CONTAINER) | TO (EX_ENDED),
    /* a container in hand; an engine failed it: to another engine (QUEUED) */
    [EX_WAIT_CONTAINER] = TO (EX_PREPARING) | TO (EX_QUEUED) | TO (EX_ENDED),
    [EX_PREPARING] = TO (EX_WAIT_SLOT) | TO (EX_QUEUED) | TO (EX_ENDED),
    [EX_WAIT_SLOT] = TO (EX_STARTING) | TO (EX_QUEUED) | TO (EX_ENDED),
    /* the start answered; or the engine said no (refused: nothing ran), or
     * was never reached (back to WAIT_SLOT, to be moved: start_undo) */
    [EX_STARTING] = TO (EX_RUNNING) | TO (EX_WAIT_SLOT) | TO (EX_ENDED),
    /* stopped; exit 137 to check for OOM; finished */
    [EX_RUNNING] = TO (EX_KILLING) | TO (EX_INSPECTING) | TO (EX_RECORDING) | TO (EX_ENDED),
    [EX_KILLING] = TO (EX_RECORDING) | TO (EX_ENDED),
    [EX_INSPECTING] = TO (EX_RECORDING) | TO (EX_ENDED),
    [EX_RECORDING] = TO (EX_ENDED),
    [EX_ENDED] = 0,
};
#undef TO

static const char *const state_names[] = {
    [EX_QUEUED] = "queued for room to run",
    [EX_WAIT_CONTAINER] = "waiting for a container",
    [EX_PREPARING] = "preparing",
    [EX_WAIT_SLOT] = "waiting for a start slot",
    [EX_STARTING] = "starting",
    [EX_RUNNING] = "running",
    [EX_KILLING] = "killing",
    [EX_INSPECTING] = "inspecting",
    [EX_RECORDING] = "recording",
    [EX_ENDED] = "ended",
};

/* The executions of one daemon (exec.h). */
struct execs
{
  struct event_base *base;
  exec_config_t cfg;
  nodes_t *nodes;
  store_t *store;
  metrics_t *metrics;
  const prof_set_t *profiles;
  bool draining; /* refuse new executions, finish what runs */
  /* Every execution in flight (the registry), and those of them that wait
   * for room to run (max_concurrent), fair across clients. */
  sched_exec_t *execs;
  size_t n_execs;
  adm_queue_t admission;
  struct event *admit_ev; /* admits from the queue, from the loop */
  uint64_t end_us[32];    /* when the last executions ended: the service rate */
  uint32_t n_ends;
  uint64_t next_serial;
};

struct sched_exec
{
  adm_node_t queued; /* in ctx->admission while QUEUED */
  execs_t *ctx;
  sched_exec_t *prev, *next; /* the registry */
  uint64_t serial;
  exec_state_t state; /* written by set_state only */
  sched_request_t req;
  sched_result_t res;
  sched_exec_done_cb cb; /* NULL once the client left */
  void *cb_arg;
  char image_id[80];
  char pool_key[SBX_KEY_MAX]; /* for the history: the pool may be gone by then */
  uint32_t reserved;          /* history records still reserved */
  bool admitted;              /* it got room to run (admit): its ending frees that room */
  uint64_t t_admit_us, t_container_us, t_start_us, t_started_us, t_exit_us;

  /* The engine it is placed on (NULL while QUEUED), and the engines it
   * was placed on before and that failed it before its start (bit per
   * node index): each is tried once. */
  sched_node_t *node;
  uint32_t tried;
  const char *engine_name; /* the last engine placed on, for the history ("" before) */

  /* The container: from pool, given back with pool_release. */
  pool_t *pool;
  pool_waiter_t *waiter; /* WAIT_CONTAINER */
  char container_id[80];
  char recorded_container[80];

  /* Its run on the container (sandbox/run.c; freed by release_container). */
  sbx_run_t *run;

  /* PREPARING: all three before the start. */
  struct
  {
    bool run_ready;       /* streams attached, exit watched, the frame is given */
    bool ahead_submitted; /* its row ahead went to the store (once) */
    bool ahead_committed; /* ... and is on disk */
  } prep;

  /* WAIT_SLOT and STARTING. */
  start_waiter_t *gate_waiter;
  struct
  {
    bool holds_slot;
    double start_ticket;    /* the start gate's, when its start was sent */
    bool kill_when_started; /* cancel or deadline while STARTING */
  } start;

  /* The output: the init's marks and its trailer (take_run_mark,
   * stderr_data, take_trailer). */
  struct
  {
    char nonce[33];                    /* the init's line: its trailer's mark must carry it */
    char mark[64];                     /* "\x1ewarmbox-trailer <nonce>\n" */
    size_t mark_len, mark_seen;        /* ... and how much of it ends stderr so far */
    size_t streamed_out, streamed_err; /* bytes of each given to req.stream_cb */
    /* Every profile with warmbox's init: the init writes
     * "\x1ewarmbox-run <nonce>\n" to stderr, before any other byte, as the
     * program starts (a compiled one's after its compile stage); its
     * timeout counts from there (take_run_mark). */
    char run_mark[64];
    size_t run_mark_len, run_mark_seen;
    bool run_mark_done;    /* decided: the mark came whole (seen == len), or other bytes did */
    bool in_trailer;       /* stderr from here on is the init's */
    bool trailer_overflow; /* it passed its bound: ignored */
    bool trailer_done;     /* taken apart (take_trailer): stderr is final */
    bool trailer_ok;       /* ... and it parsed, end line and all: the init saw the program end */
    bool drain_cut;        /* exited, but the output's end never came (give_up_waiting) */
    wb_buf_t trailer;
  } out;

  /* The end of the run: what the engine said, and why we stopped it. */
  struct
  {
    bool wait_done, attach_done, have_exit;
    bool wait_asked; /* a failed wait was followed by an inspect (once) */
    long exit_code;
    bool outcome_set; /* the first reason to stop wins */
    sched_status_t outcome;
    const char *outcome_error; /* client-safe sentence for ERROR / ENGINE_LOST */
    bool start_overdue;        /* stopped at the start bound, its run mark not seen (deadline_cb) */
    bool reported_early;       /* the deadline came after the init's report: waiting for the exit */
    bool exit_unreported;      /* ... which the engine did not report within the kill's grace */
  } end;

  /* One timer per purpose (each made on first use, freed by exec_end). */
  struct event *prestart_timer; /* admission -> start: max_wait_ms */
  struct event *run_timer;      /* start -> exit: the run's deadline (run_deadline_ms) */
  struct event *kill_timer;     /* KILLING: the engine's time to report the exit */
  struct event *drain_timer;    /* exit seen: the engine's time to end the output */
  struct event *inspect_timer;  /* INSPECTING: the inspect's own bound */
};

/* ---- the state ------------------------------------------------------- */

bool
sched_exec_transition_allowed (int from, int to)
{
  return from >= 0 && from < EX_N_STATES && to >= 0 && to < EX_N_STATES
         && (exec_transitions[from] & (1u << to)) != 0;
}

/* Transitions set_state refused, since start-up (sched_exec_check_all
 * reports them). */
static uint64_t refused_transitions;

/* The one way to change state.  A transition the table lacks is a bug:
 * in checked builds (WB_CHECKED: the sanitizer builds) it aborts;
 * otherwise it is logged, counted and refused (the state stays), and
 * false returned. */
static bool
set_state (sched_exec_t *ex, exec_state_t to)
{
  if (!sched_exec_transition_allowed ((int) ex->state, (int) to))
    {
      refused_transitions++;
      wb_log_error ("execution %s: refused transition %s -> %s (a bug)", ex->res.id,
                    state_names[ex->state], state_names[to]);
#ifdef WB_CHECKED
      abort ();
#endif
      return false;
    }
  ex->state = to;
  return true;
}

/* Nothing of it has started on an engine: it may still be refused (with
 * an error to its client) or moved to another engine. */
static bool
before_start (const sched_exec_t *ex)
{
  switch (ex->state)
    {
    case EX_QUEUED:
    case EX_WAIT_CONTAINER:
    case EX_PREPARING:
    case EX_WAIT_SLOT:
      return true;
    case EX_STARTING:
    case EX_RUNNING:
    case EX_KILLING:
    case EX_INSPECTING:
    case EX_RECORDING:
    case EX_ENDED:
    case EX_N_STATES:
      break;
    }
  return false;
}

/* Arm timer *t (made on first use, with cb) for ms.  -1 when it cannot
 * be (out of memory): the caller decides what a missing bound means. */
static int
arm_timer (sched_exec_t *ex, struct event **t, event_callback_fn cb, uint32_t ms)
{
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

  if (*t == NULL)
    *t = evtimer_new (ex->ctx->base, cb, ex);
  return *t != NULL && evtimer_add (*t, &tv) == 0 ? 0 : -1;
}

static void
disarm (struct event *t)
{
  if (t)
    evtimer_del (t);
}

static bool
armed (const struct event *t)
{
  return t && evtimer_pending (t, NULL);
}

/* What must hold in each state, whatever happened before: the handles an
 * execution holds belong to its state.  Returns the number of broken
 * rules, each logged.  The unit tests call it after every event (SQLite's
 * assert_pager_state is the model). */
static int
exec_check (const sched_exec_t *ex)
{
  int bad = 0;
#define RULE(cond)                                                                                 \
  do                                                                                               \
    if (!(cond))                                                                                   \
      {                                                                                            \
        wb_log_error ("execution %s in state %s: broken invariant: %s", ex->res.id,                \
                      state_names[ex->state], #cond);                                              \
        bad++;                                                                                     \
      }                                                                                            \
  while (0)
  bool pre = before_start (ex);

  RULE (ex->state < EX_ENDED);
  RULE ((ex->queued.client != NULL) == (ex->state == EX_QUEUED && !ex->admitted));
  RULE (ex->waiter == NULL || ex->state == EX_WAIT_CONTAINER);
  RULE (ex->container_id[0] == '\0' || ex->node != NULL);
  RULE (ex->gate_waiter == NULL || ex->state == EX_WAIT_SLOT);
  RULE (!ex->start.holds_slot || ex->state == EX_STARTING || ex->state == EX_WAIT_SLOT);
  RULE (!pre || ex->t_start_us == 0);
  RULE (pre || ex->t_start_us != 0);
  RULE (!pre || armed (ex->prestart_timer));
  RULE (!armed (ex->run_timer) || ex->state == EX_STARTING || ex->state == EX_RUNNING);
  RULE (!armed (ex->kill_timer) || ex->state == EX_KILLING);
  RULE (!armed (ex->inspect_timer) || ex->state == EX_INSPECTING);
  RULE (ex->state != EX_RECORDING || (ex->container_id[0] == '\0' && ex->run == NULL));
  RULE (ex->state != EX_RECORDING
        || (!armed (ex->run_timer) && !armed (ex->kill_timer) && !armed (ex->drain_timer)
            && !armed (ex->inspect_timer)));
  RULE (ex->state != EX_INSPECTING || ex->run != NULL);
  RULE (!armed (ex->drain_timer) || ex->state == EX_RUNNING || ex->state == EX_KILLING);
  RULE (pre || !armed (ex->prestart_timer));
  /* No program runs without a deadline, and none is killed without a
   * bound on the engine's answer. */
  RULE (ex->state != EX_RUNNING || ex->end.wait_done || armed (ex->run_timer));
  RULE (ex->state != EX_KILLING || ex->end.wait_done || armed (ex->kill_timer));
  RULE (ex->state != EX_WAIT_CONTAINER || ex->container_id[0] != '\0' || ex->waiter != NULL);
  RULE (ex->reserved <= 2);
#undef RULE
  return bad;
}

const char *
sched_status_name (sched_status_t st)
{
  switch (st)
    {
    case SCHED_ST_OK:
      return "ok";
    case SCHED_ST_ERROR:
      return "error";
    case SCHED_ST_TIMEOUT:
      return "timeout";
    case SCHED_ST_OOM:
      return "oom";
    case SCHED_ST_OUTPUT_LIMIT:
      return "output_limit";
    case SCHED_ST_CANCELLED:
      return "cancelled";
    case SCHED_ST_ENGINE_LOST:
      return "engine_lost";
    case SCHED_ST_COMPILE_ERROR:
      return "compile_error";
    case SCHED_ST_SANDBOX_ERROR:
      return "sandbox_error";
    }
  return "error";
}

const char *
sched_exec_state (const sched_exec_t *ex)
{
  return state_names[ex->state];
}

size_t
sched_exec_count (const execs_t *ctx)
{
  return ctx->n_execs;
}

size_t
sched_exec_queued (const execs_t *ctx)
{
  return ctx->admission.n;
}

execs_t *
execs_new (struct event_base *base, const exec_config_t *cfg, nodes_t *ns, store_t *store,
           metrics_t *metrics, const prof_set_t *profiles, wb_err_t *err)
{
  execs_t *x = calloc (1, sizeof *x);

  if (x == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  x->base = base;
  x->cfg = *cfg;
  x->nodes = ns;
  x->store = store;
  x->metrics = metrics;
  x->profiles = profiles;
  return x;
}

void
execs_free (execs_t *x)
{
  if (x == NULL)
    return;
  sched_exec_abandon_all (x);
  adm_clear (&x->admission);
  if (x->admit_ev)
    event_free (x->admit_ev);
  free (x);
}

void
execs_set_config (execs_t *x, const exec_config_t *cfg)
{
  x->cfg = *cfg;
}

void
execs_set_profiles (execs_t *x, const prof_set_t *profiles)
{
  x->profiles = profiles;
}

const prof_set_t *
execs_profiles (const execs_t *x)
{
  return x->profiles;
}

void
execs_set_draining (execs_t *x, bool draining)
{
  x->draining = draining;
}

static sched_exec_t *
find (execs_t *ctx, uint64_t serial)
{
  for (sched_exec_t *ex = ctx->execs; ex; ex = ex->next)
    if (ex->serial == serial)
      return ex;
  return NULL;
}

/* Off its engine (exec_end, or before it goes to another one). */
static void
leave_node (sched_exec_t *ex)
{
  sched_node_t *n = ex->node;

  if (n == NULL)
    return;
  if (ex->gate_waiter)
    startgate_cancel (node_gate (n), ex->gate_waiter);
  ex->gate_waiter = NULL;
  if (ex->start.holds_slot)
    startgate_leave (node_gate (n), (double) wb_now_us () / 1000.0);
  ex->start.holds_slot = false;
  node_yield_update (n);
  node_exec_leave (n);
  ex->node = NULL;
}

/* ---- the one ending -------------------------------------------------- */

/* Give the container back now (removal and refill need not wait for the
 * disk).  Closes the attach and the wait first: they belong to it. */
static void
release_container (sched_exec_t *ex)
{
  sbx_run_free (ex->run);
  ex->run = NULL;
  if (ex->container_id[0])
    pool_release (ex->pool, ex->container_id, ex->t_start_us && !ex->end.have_exit);
  ex->container_id[0] = '\0';
}

static void admit_soon (execs_t *ctx);

static void
exec_end (sched_exec_t *ex)
{
  execs_t *ctx = ex->ctx;

  set_state (ex, EX_ENDED);

  if (ex->queued.client)
    adm_remove (&ctx->admission, &ex->queued);
  else if (ex->admitted)
    {
      /* Room to run freed: admit the next.  The service rate counts the
       * executions that got a container (refusals at once would inflate
       * it). */
      if (ex->t_container_us)
        ctx->end_us[ctx->n_ends++ % WB_ARRAY_SIZE (ctx->end_us)] = wb_now_us ();
      admit_soon (ctx);
    }
  release_container (ex);
  pool_waiter_cancel (ex->waiter);
  leave_node (ex);
  struct event *timers[]
      = {ex->prestart_timer, ex->run_timer, ex->kill_timer, ex->drain_timer, ex->inspect_timer};
  for (size_t i = 0; i < WB_ARRAY_SIZE (timers); i++)
    if (timers[i])
      event_free (timers[i]);
  if (ex->reserved)
    store_unreserve (ctx->store, ex->reserved);
  WB_LIST_UNLINK (ctx->execs, ex);
  ctx->n_execs--;
  sched_request_clear (&ex->req);
  wb_buf_free (&ex->res.out);
  wb_buf_free (&ex->res.err);
  sched_order_free (&ex->res.order);
  trailer_free (ex);
  sched_result_files_free (&ex->res);
  free (ex);
}

/* ---- history ---------------------------------------------------------- */

static double
unix_at (uint64_t mono_us)
{
  /* Monotonic stamps to wall time, anchored now. */
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  double wall_now = (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
  return wall_now - (double) (wb_now_us () - mono_us) / 1e6;
}

static double
span_ms (uint64_t from_us, uint64_t to_us)
{
  return from_us && to_us ? (double) (to_us - from_us) / 1000.0 : -1;
}

/* Submit the execution's row with this status; cb (may be NULL) hears of
 * its commit by serial.  -1 with err: WB_E_NOMEM when memory runs out,
 * WB_E_INTERNAL when no record was left reserved for it (a bug). */
static int
submit_row (sched_exec_t *ex, const char *status, const char *error, store_done_cb cb,
            wb_err_t *err)
{
  execs_t *ctx = ex->ctx;
  const sched_result_t *res = &ex->res;
  bool ahead = strcmp (status, "running") == 0;
  bool ran = !ahead && ex->t_start_us;
  store_execution_t rec;
  uint64_t now = wb_now_us ();

  memset (&rec, 0, sizeof rec);
  rec.id = res->id;
  rec.received_at = unix_at (ex->t_admit_us);
  rec.started_at = ran ? unix_at (ex->t_start_us) : 0;
  /* A row in flight has no end yet: it says when it was admitted. */
  rec.finished_at = ahead ? rec.received_at : unix_at (now);
  rec.client = ex->req.client;
  rec.language = res->language;
  rec.image_id = ex->image_id;
  rec.profile_hash = ex->req.profile->hash;
  memcpy (rec.code_sha256, res->code_sha256, sizeof rec.code_sha256);
  rec.code_bytes = res->code_bytes;
  memcpy (rec.stdin_sha256, res->stdin_sha256, sizeof rec.stdin_sha256);
  rec.stdin_bytes = res->stdin_bytes;
  rec.arg_count = res->arg_count;
  rec.files_in = res->files_in;
  rec.files_in_bytes = res->files_in_bytes;
  memcpy (rec.files_in_sha256, res->files_in_sha256, sizeof rec.files_in_sha256);
  rec.files_out = res->n_files_out;
  rec.files_out_bytes = res->files_out_bytes;
  memcpy (rec.files_out_sha256, res->files_out_sha256, sizeof rec.files_out_sha256);
  if (!ahead && res->has_compile)
    {
      snprintf (rec.compile_status, sizeof rec.compile_status, "%s", sched_compile_status (res));
      rec.compile_ms = (double) res->compile_us / 1000.0;
    }
  rec.has_usage = !ahead && res->has_usage;
  rec.peak_memory_kib = res->peak_memory_kib;
  rec.cpu_user_ms = (double) res->cpu_user_us / 1000.0;
  rec.cpu_system_ms = (double) res->cpu_system_us / 1000.0;
  rec.status = status;
  /* As the result says it: none after a timeout or a compile error. */
  rec.exit_code = ran && ex->end.have_exit ? res->exit_code : -1;
  rec.timed_out = ran && res->status == SCHED_ST_TIMEOUT;
  rec.oom_killed = ran && res->status == SCHED_ST_OOM;
  rec.stdout_truncated = res->out_truncated;
  rec.stderr_truncated = res->err_truncated;
  rec.stdout_bytes = res->out.len;
  rec.stderr_bytes = res->err.len;
  rec.queue_ms = span_ms (ex->t_admit_us, ex->t_container_us);
  rec.start_ms = span_ms (ex->t_start_us, ex->t_started_us);
  rec.run_ms = span_ms (ex->t_started_us, ex->t_exit_us);
  rec.total_ms = ahead ? -1 : (double) (now - ex->t_admit_us) / 1000.0;
  rec.pool_hit = res->pool_hit;
  rec.container_id = ex->recorded_container;
  rec.engine = ex->engine_name ? ex->engine_name : "";
  rec.error = error ? error : "";
  rec.daemon = nodes_owner (ctx->nodes);
  rec.pool = ex->pool_key;
  rec.session_id = ex->req.session_id;
  rec.session_seq = ex->req.session_seq;
  if (ex->reserved == 0) /* every row is reserved at admission */
    return wb_error (err, WB_E_INTERNAL,
                     "execution %s: no history record left reserved for its %s row", res->id,
                     status);
  ex->reserved--;
  return store_submit_execution (ctx->store, &rec, cb, ctx, ex->serial, err);
}

/* ---- ending without a run -------------------------------------------- */

/* The program never started.  Record why (row "refused", or "cancelled"
 * when the client left) and tell the client at once: a row for code that
 * never ran need not hold up the answer. */
static int admit (sched_exec_t *ex, wb_err_t *err);

/* Nothing of ex started on its engine: give back all it holds there (its
 * container, its place in a pool's or the start gate's queue), mark the
 * engine tried, and make it QUEUED again, to be placed elsewhere.  The
 * one way off an engine short of ending (both replace and admit). */
static void
leave_engine (sched_exec_t *ex)
{
  ex->tried |= 1u << node_index (ex->node);
  /* Its row names the engine it is placed on next, and a container only
   * once it has one there. */
  ex->recorded_container[0] = '\0';
  release_container (ex);
  pool_waiter_cancel (ex->waiter);
  ex->waiter = NULL;
  leave_node (ex);
  ex->pool = NULL;
  ex->prep.run_ready = false;
  ex->end.attach_done = ex->end.wait_done = ex->end.have_exit = false;
  ex->res.pool_hit = false;
  ex->t_container_us = 0;
  set_state (ex, EX_QUEUED);
}

/* The engine ex is placed on failed it before its start (or was taken
 * out): give back what it holds there and place it again, on an engine it
 * has not tried, if its pre-start bound leaves time.  0 when placed (or
 * waiting) again; -1 when not (nothing changed, or it holds nothing any
 * more): the caller refuses it. */
static int
replace (sched_exec_t *ex, const wb_err_t *why)
{
  execs_t *ctx = ex->ctx;
  sched_node_t *was = ex->node;
  uint64_t waited_ms = (wb_now_us () - ex->t_admit_us) / 1000;
  wb_err_t err;

  /* The pre-start bound must still be armed: it is what ends a wait on
   * the next engine (it fired early when the loop was busy). */
  if (was == NULL || ex->t_start_us || !before_start (ex) || ex->state == EX_QUEUED
      || waited_ms + ADMIT_MIN_LEFT_MS > ctx->cfg.max_wait_ms || !armed (ex->prestart_timer))
    return -1;
  if (!nodes_other_up (ctx->nodes, was, ex->tried))
    return -1; /* no engine left to try */
  wb_warn ("execution %s: engine %s failed it before it started (%s): %s; placing it on another "
           "engine",
           ex->res.id, node_name (was), state_names[ex->state], why->msg);
  leave_engine (ex);
  if (admit (ex, &err) == 0)
    return 0;
  wb_warn ("execution %s: no other engine took it: %s", ex->res.id, err.msg);
  return -1;
}

/* The program never started and never will: record why (row "refused",
 * or "cancelled" when the client left), tell the client at once, end. */
static void
exec_refuse (sched_exec_t *ex, const wb_err_t *err, bool cancelled)
{
  execs_t *ctx = ex->ctx;
  sched_exec_done_cb cb = ex->cb;
  const char *status = cancelled ? "cancelled" : "refused";
  wb_err_t row_err;
  if (cancelled)
    wb_info ("execution %s: client went away while %s; nothing ran", ex->res.id,
             state_names[ex->state]);
  else
    wb_warn ("execution %s failed before it ran (%s): %s", ex->res.id, state_names[ex->state],
             err->msg);
  metrics_count_status (ctx->metrics, ex->res.language, cancelled ? "cancelled" : "refused");
  release_container (ex);
  if (submit_row (ex, status,
                  cancelled ? "the client left before the program started"
                            : wb_code_name (err->code),
                  NULL, &row_err)
      < 0)
    wb_log_error ("execution %s: its history record was not queued: %s", ex->res.id, row_err.msg);
  ex->cb = NULL;
  if (cb)
    cb (ex->cb_arg, NULL, err);
  exec_end (ex);
}

/* Something failed it before its start.  An engine's failure (the engine
 * down, its create, attach or wait failing) may leave another engine to
 * run it: moved there (back to QUEUED, then placed) when one is left and
 * time allows (replace); otherwise, and for every other failure,
 * refused. */
static void
exec_failed_before_start (sched_exec_t *ex, const wb_err_t *err)
{
  if (err->code == WB_E_ENGINE_DOWN && replace (ex, err) == 0)
    return;
  exec_refuse (ex, err, false);
}

/* ---- ending after a run ---------------------------------------------- */

static void
recorded_cb (void *arg, uint64_t serial, int rc)
{
  sched_exec_t *ex = find (arg, serial);

  if (ex == NULL || ex->state != EX_RECORDING)
    return;
  if (rc < 0)
    wb_log_error ("execution %s: its history record was not written", ex->res.id);
  if (ex->cb)
    {
      sched_exec_done_cb cb = ex->cb;
      ex->cb = NULL;
      cb (ex->cb_arg, &ex->res, NULL);
    }
  exec_end (ex);
}

static void take_trailer (sched_exec_t *ex);
static bool run_mark_came (const sched_exec_t *ex);

/* The program may have run and is over (or we stopped waiting): decide the
 * status, give the container back, record, and reply once recorded. */
static void
exec_finish (sched_exec_t *ex)
{
  execs_t *ctx = ex->ctx;
  sched_result_t *res = &ex->res;
  uint64_t now = wb_now_us ();
  wb_err_t row_err;

  take_trailer (ex);
  if (res->err_truncated && !ex->end.outcome_set && ex->end.have_exit
      && res->status != SCHED_ST_OOM)
    {
      /* Past the cap by less than the trailer mark's room: not killed, but
       * over the limit all the same. */
      ex->end.outcome_set = true;
      ex->end.outcome = SCHED_ST_OUTPUT_LIMIT;
    }
  if (ex->end.outcome_set)
    {
      res->status = ex->end.outcome;
      if (ex->end.start_overdue)
        /* Overload, said as such: not the program's timeout.  A mark that
         * came in the output drained after the kill began the program
         * just before it was stopped. */
        ex->end.outcome_error
            = run_mark_came (ex)
                  ? "the container engine took longer than its start bound to start the program "
                    "(it is overloaded); it was stopped as it began: try again"
                  : "the container engine did not start the program within its start bound (it "
                    "is overloaded); none of the program ran: try again";
    }
  else if (res->has_compile && strcmp (sched_compile_status (res), "ok") != 0)
    res->status = SCHED_ST_COMPILE_ERROR; /* the program never ran */
  else if (res->run_timed_out)
    res->status = SCHED_ST_TIMEOUT; /* the init's deadline for the program, after compiling */
  else if (!ex->end.have_exit)
    {
      res->status = SCHED_ST_ERROR;
      ex->end.outcome_error = "the sandbox failed while the program ran; it was stopped";
    }
  else if (res->status == SCHED_ST_OOM)
    ; /* exit 137 and the engine says OOMKilled (inspected_cb): first, with or without a report */
  else if (ex->out.mark_len && !ex->out.trailer_ok && ex->out.drain_cut)
    {
      /* Not the sandbox's doing, as far as we know: the engine never
       * delivered the end of the output, where the init's report is. */
      res->status = SCHED_ST_ERROR;
      ex->end.outcome_error
          = "the container engine did not deliver the end of the program's output; how the "
            "program ended is unknown";
      wb_warn (
          "execution %s: the container exited with %ld and its output did not end within %u ms",
          res->id, ex->end.exit_code, drain_grace (ex));
    }
  else if (ex->out.mark_len && !ex->out.trailer_ok && ex->out.trailer_overflow)
    {
      /* The init did report (its mark came), but the report passed what
       * we keep (or memory ran out keeping it): ours, not the sandbox's. */
      res->status = SCHED_ST_ERROR;
      ex->end.outcome_error
          = "warmbox could not keep the sandbox's report of how the program ended; how it ended "
            "is unknown";
    }
  else if (ex->out.mark_len && !ex->out.trailer_ok)
    {
      /* It exited on its own (nothing of ours killed it: that would be an
       * outcome), yet its init never reported the program's end: the init
       * was killed (the program, of its uid, can) or the runtime ended the
       * sandbox (gVisor's sentry dying).  The container's exit code is
       * theirs, not the program's. */
      res->status = SCHED_ST_SANDBOX_ERROR;
      ex->end.outcome_error
          = "the sandbox ended before its init could report how the program ended (the "
            "runtime ended it, or the init was killed); the program's exit status is unknown";
      wb_warn ("execution %s: the container exited with %ld and %s; status sandbox_error", res->id,
               ex->end.exit_code,
               ex->out.in_trailer ? "a report of its init that does not parse (cut short?)"
                                  : "no report of its init");
    }
  else
    res->status = SCHED_ST_OK;
  if (res->status == SCHED_ST_ERROR || res->status == SCHED_ST_ENGINE_LOST
      || res->status == SCHED_ST_SANDBOX_ERROR)
    res->error = ex->end.outcome_error;
  res->exit_code
      = ex->end.have_exit && res->status != SCHED_ST_COMPILE_ERROR
                && res->status != SCHED_ST_TIMEOUT && res->status != SCHED_ST_SANDBOX_ERROR
                && !(res->status == SCHED_ST_ERROR
                     && (ex->out.drain_cut || ex->out.trailer_overflow || ex->end.start_overdue
                         || ex->end.exit_unreported))
                /* We stopped it for a failure: its exit is our kill's. */
                && !((res->status == SCHED_ST_ERROR || res->status == SCHED_ST_ENGINE_LOST)
                     && ex->end.outcome_set)
            ? (int) ex->end.exit_code
            : -1;
  res->duration_ms = ((ex->t_exit_us ? ex->t_exit_us : now) - ex->t_start_us) / 1000;
  res->total_ms = (now - ex->t_admit_us) / 1000;
  wb_info ("execution %s language=%s status=%s exit=%d pool_hit=%d duration_ms=%llu "
           "total_ms=%llu",
           res->id, res->language, sched_status_name (res->status), res->exit_code, res->pool_hit,
           (unsigned long long) res->duration_ms, (unsigned long long) res->total_ms);
  wb_debug ("execution %s phases (ms): container %.1f, attach+wait %.1f, start %.1f, run %.1f, "
            "drain %.1f",
            res->id, span_ms (ex->t_admit_us, ex->t_container_us),
            span_ms (ex->t_container_us, ex->t_start_us),
            span_ms (ex->t_start_us, ex->t_started_us),
            span_ms (ex->t_started_us, ex->t_exit_us ? ex->t_exit_us : now),
            span_ms (ex->t_exit_us ? ex->t_exit_us : now, now));
  metrics_count_status (ctx->metrics, res->language, sched_status_name (res->status));
  metrics_observe (ctx->metrics, res->language, M_RUN, (double) res->duration_ms / 1000.0);
  metrics_observe (ctx->metrics, res->language, M_TOTAL, (double) (now - ex->t_admit_us) / 1e6);
  disarm (ex->prestart_timer);
  disarm (ex->run_timer);
  disarm (ex->kill_timer);
  disarm (ex->drain_timer);
  disarm (ex->inspect_timer);
  release_container (ex);
  set_state (ex, EX_RECORDING);
  if (submit_row (ex, sched_status_name (res->status), res->error, recorded_cb, &row_err) < 0)
    {
      wb_log_error ("execution %s: its history record was not queued: %s", res->id, row_err.msg);
      recorded_cb (ctx, ex->serial, -1);
    }
}

/* ---- stopping a run -------------------------------------------------- */

/* A bound on the engine passed (the exit after a kill, the output's end
 * after the exit, an inspect): stop waiting for what it did not send. */
static void
give_up_waiting (sched_exec_t *ex)
{
  if (ex->end.wait_done && !ex->end.attach_done)
    ex->out.drain_cut = true; /* the init's report may be in what did not come */
  if (!ex->end.wait_done && !ex->end.outcome_set)
    {
      ex->end.outcome_set = true;
      ex->end.outcome = SCHED_ST_ENGINE_LOST;
      ex->end.outcome_error
          = "the container engine stopped answering while the program ran; it was "
            "stopped and will not run again";
    }
  ex->end.wait_done = ex->end.attach_done = true;
  exec_finish (ex);
}

static void
kill_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  give_up_waiting (arg);
}

static void
drain_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  give_up_waiting (arg);
}

static void
inspect_timer_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  give_up_waiting (arg);
}

static void
cannot_bound (const sched_exec_t *ex, const char *what)
{
  wb_log_error ("execution %s: cannot arm the bound on %s (out of memory); the engine's answers "
                "must end it",
                ex->res.id, what);
}

/* The exit is in, the output's end not yet: the engine gets drain_grace
 * for it (the kill's bound, if any, is over: the exit came). */
static void
arm_drain (sched_exec_t *ex)
{
  disarm (ex->kill_timer);
  if (arm_timer (ex, &ex->drain_timer, drain_timer_cb, drain_grace (ex)) < 0)
    cannot_bound (ex, "the output's end");
}

static uint32_t
kill_grace (const sched_exec_t *ex)
{
  return ex->ctx->cfg.exec_grace_ms ? ex->ctx->cfg.exec_grace_ms : KILL_GRACE_MS;
}

static uint32_t
drain_grace (const sched_exec_t *ex)
{
  return ex->ctx->cfg.exec_grace_ms ? ex->ctx->cfg.exec_grace_ms : DRAIN_GRACE_MS;
}

static void
on_kill_failed (void *arg, const wb_err_t *err)
{
  sched_exec_t *ex = arg;

  if (!ex->end.wait_done)
    {
      /* The program may still run: stop waiting for its exit; giving the
       * container back removes it with force, which kills it, retried
       * while the engine is away. */
      wb_warn ("execution %s: kill failed (%s); removing the container instead", ex->res.id,
               err->msg);
      exec_finish (ex);
    }
}

/* Stop the program: the first reason is the outcome.  STARTING: the kill
 * goes out once the start is answered.  Later: SIGKILL now, and give the
 * engine KILL_GRACE_MS to report the exit. */
static void
exec_kill (sched_exec_t *ex, sched_status_t reason, const char *error)
{
  wb_err_t err;

  if (!ex->end.outcome_set)
    {
      ex->end.outcome_set = true;
      ex->end.outcome = reason;
      ex->end.outcome_error = error;
    }
  if (ex->state == EX_STARTING)
    {
      ex->start.kill_when_started = true;
      return;
    }
  if (ex->state != EX_RUNNING)
    return;
  set_state (ex, EX_KILLING);
  disarm (ex->run_timer); /* the run's deadline is spent: it is being stopped */
  if (ex->end.wait_done)
    {
      /* It exited already: only the output's end is awaited. */
      if (!ex->end.attach_done && !armed (ex->drain_timer))
        arm_drain (ex);
      return;
    }
  if (arm_timer (ex, &ex->kill_timer, kill_timer_cb, kill_grace (ex)) < 0)
    cannot_bound (ex, "the exit after the kill");
  if (sbx_run_kill (ex->run, &err) < 0)
    wb_log_error ("execution %s: %s", ex->res.id, err.msg);
}

static const char *
lost_sentence (const wb_err_t *err)
{
  return err->code == WB_E_ENGINE_DOWN
             ? "the container engine was lost while the program ran; it will not run again"
             : "the sandbox failed while the program ran; it was stopped";
}

static sched_status_t
lost_status (const wb_err_t *err)
{
  return err->code == WB_E_ENGINE_DOWN ? SCHED_ST_ENGINE_LOST : SCHED_ST_ERROR;
}

static void
on_oom (void *arg, int rc, bool oom, const wb_err_t *err)
{
  sched_exec_t *ex = arg;

  if (rc == 0 && oom)
    ex->res.status = SCHED_ST_OOM;
  else if (rc < 0)
    wb_warn ("execution %s: inspect failed: %s", ex->res.id, err->msg);
  exec_finish (ex);
}

/* Both the exit status and the end of the output are in (or we stopped
 * waiting for one of them): the OOM check, or finish. */
static void
after_run (sched_exec_t *ex)
{
  wb_err_t err;

  if (!ex->end.wait_done || !ex->end.attach_done || ex->state == EX_INSPECTING)
    return;
  if (ex->end.have_exit && ex->end.exit_code == 137 && !ex->end.outcome_set)
    {
      if (sbx_run_oom (ex->run, &err) == 0)
        {
          set_state (ex, EX_INSPECTING);
          disarm (ex->run_timer); /* exited: in time */
          disarm (ex->drain_timer);
          if (arm_timer (ex, &ex->inspect_timer, inspect_timer_cb, kill_grace (ex)) < 0)
            cannot_bound (ex, "the inspect");
          return;
        }
      wb_warn ("execution %s: %s", ex->res.id, err.msg);
    }
  exec_finish (ex);
}

static void deadline_cb (evutil_socket_t fd, short what, void *arg);

/* The container's exit (sandbox/run.c asked the engine, and its state
 * when a wait failed). */
static void
on_exited (void *arg, int rc, long code, const wb_err_t *err)
{
  sched_exec_t *ex = arg;
  wb_err_t e;

  if (before_start (ex))
    {
      /* Before the start, an exit is an engine failure. */
      if (rc == 0)
        wb_error (&e, WB_E_ENGINE, "the container exited before it was started");
      else
        e = *err;
      exec_failed_before_start (ex, &e);
      return;
    }
  ex->t_exit_us = wb_now_us ();
  if (rc < 0)
    exec_kill (ex, lost_status (err), lost_sentence (err)); /* before wait_done: sent */
  else
    {
      ex->end.exit_code = code;
      ex->end.have_exit = true;
    }
  ex->end.wait_done = true;
  if (ex->state == EX_STARTING)
    return; /* the start's answer carries on */
  if (!ex->end.attach_done)
    arm_drain (ex);
  after_run (ex);
}

/* ---- output ---------------------------------------------------------- */

/* What the init's trailer may hold past the files' contents: the files
 * line, a record header and a path per file, the usage line; a session's
 * section with a "gone" record per input and its notes. */
#define TRAILER_OVERHEAD                                                                           \
  (4096 + SCHED_MAX_FILES * (256 + 1024) + (SCHED_MAX_FILES + 2) * 300 + 4096)

/* The files' contents the init may send back: a session's own budget, or
 * the output cap. */
static uint64_t
files_out_budget (const sched_exec_t *ex)
{
  return ex->req.files_out_bytes ? ex->req.files_out_bytes : ex->req.limits.output_bytes;
}

/* What a compiled language's init gets, past the program's own timeout,
 * to stop it and report (profiles/init.c) before the daemon kills the
 * sandbox. */
#define RUN_SLACK_MS 1000

static bool uses_init (const sched_exec_t *ex);

/* From the start to the init's run mark, at most: admission.start_bound_ms,
 * or what is left of the request's max_wait_ms when that is more (all the
 * time before its program starts is the request's wait: a loaded Docker
 * takes 10 s and more to start one of 64, and a request that may wait
 * longer is served, not told the engine is overloaded). */
static uint32_t
start_bound_ms (const sched_exec_t *ex)
{
  uint32_t bound = ex->ctx->cfg.start_bound_ms ? ex->ctx->cfg.start_bound_ms : 10000;
  uint64_t waited_ms = (wb_now_us () - ex->t_admit_us) / 1000;

  if (waited_ms < ex->ctx->cfg.max_wait_ms && ex->ctx->cfg.max_wait_ms - waited_ms > bound)
    bound = (uint32_t) (ex->ctx->cfg.max_wait_ms - waited_ms);
  return bound;
}

/* The run's deadline from the start.  With warmbox's init the program's
 * time counts from its run mark, not from the start (a loaded engine's
 * slow start is not the program's): until the mark, the start bound (and
 * with a compile stage the compiler's timeout and RUN_SLACK_MS, the init
 * holding the compiler to its own); at the mark, timeout_ms (and
 * RUN_SLACK_MS after a compile stage, for the init's own deadline to act
 * first: take_run_mark).  Without the init, timeout_ms from the start. */
static uint32_t
run_deadline_ms (const sched_exec_t *ex)
{
  const prof_limits_t *l = &ex->req.limits;

  if (!uses_init (ex))
    return l->timeout_ms;
  if (ex->req.profile->compile_argv == NULL)
    return start_bound_ms (ex);
  return start_bound_ms (ex) + l->compile_timeout_ms + l->timeout_ms + RUN_SLACK_MS;
}

/* The deadline from the run mark on. */
static uint32_t
run_deadline_after_mark_ms (const sched_exec_t *ex)
{
  return ex->req.limits.timeout_ms + (ex->req.profile->compile_argv ? RUN_SLACK_MS : 0);
}

/* Did the init's run mark come (the program started)? */
static bool
run_mark_came (const sched_exec_t *ex)
{
  return ex->out.run_mark_len && ex->out.run_mark_seen == ex->out.run_mark_len;
}

/* The init's report, gone: wiped first when it may hold a session's
 * state (which never outlives its use in warmboxd's memory either). */
static void
trailer_free (sched_exec_t *ex)
{
  if (ex->req.session_state_max && ex->out.trailer.data)
    explicit_bzero (ex->out.trailer.data, ex->out.trailer.cap);
  wb_buf_free (&ex->out.trailer);
}

/* Does the profile run /warmbox/init first (the nonce line, the trailer)? */
static bool
uses_init (const sched_exec_t *ex)
{
  return prof_runs_warmbox_init (ex->req.profile);
}

/* The init's trailer into the result, or a log line saying why not. */
static void
parse_trailer (sched_exec_t *ex)
{
  if (ex->out.trailer_overflow)
    wb_warn ("execution %s: the sandbox's report (files, usage) passed its bound; left out",
             ex->res.id);
  else if (sched_trailer_parse (ex->out.trailer.data, ex->out.trailer.len, ex->out.nonce, &ex->res)
           < 0)
    wb_warn ("execution %s: the sandbox's report (files, usage) does not parse; left out",
             ex->res.id);
  else
    ex->out.trailer_ok = true;
}

/* Take the init's trailer apart (stderr past its mark: see stderr_data),
 * then hold stderr to its cap. */
static void
take_trailer (sched_exec_t *ex)
{
  sched_result_t *res = &ex->res;
  wb_buf_t *b = &res->err;

  if (ex->out.trailer_done)
    return;
  ex->out.trailer_done = true;
  if (ex->out.in_trailer)
    parse_trailer (ex);
  trailer_free (ex); /* parsed: its copy is not needed any longer */
  if (b->len > ex->req.limits.output_bytes)
    {
      b->len = (size_t) ex->req.limits.output_bytes;
      res->err_truncated = true;
    }
  if (b->data)
    b->data[b->len] = '\0';
  /* Both streams are final: the order loses what came off stderr's tail
   * (the init's mark, the cut to the cap). */
  sched_order_close (&res->order, res->out.len, res->err.len);
}

/* Append to a stream's buffer within cap; false when it did not all fit
 * (the program is then stopped: output_limit). */
static bool
append_capped (sched_exec_t *ex, wb_buf_t *b, bool *trunc, uint64_t cap, const char *data,
               size_t len)
{
  size_t room = b->len < cap ? (size_t) (cap - b->len) : 0;

  if (len > room)
    {
      *trunc = true;
      len = room;
    }
  if (len && wb_buf_append (b, data, len) < 0)
    {
      *trunc = true;
      wb_log_error ("execution %s: out of memory buffering output", ex->res.id);
    }
  else if (sched_order_add (&ex->res.order, b == &ex->res.err ? SCHED_ORDER_ERR : SCHED_ORDER_OUT,
                            len)
           < 0)
    wb_warn ("execution %s: out of memory recording the output's order; \"output\" is stdout, then "
             "stderr",
             ex->res.id);
  return !*trunc;
}

/* stderr of a sandbox with the init: the program's bytes until the init's
 * mark (this execution's nonce: the program can't know it), the init's
 * trailer after it.  The program's part may pass its cap by up to the
 * mark's length without being stopped (take_trailer holds it to the cap
 * and the status says output_limit), and the buffer has room for the mark
 * after that, so a program just over its cap still gets its report; the
 * trailer has a budget of its own. */
static bool
stderr_data (sched_exec_t *ex, const char *data, size_t len)
{
  sched_result_t *res = &ex->res;

  if (ex->out.trailer_done)
    return true;
  if (!ex->out.in_trailer)
    {
      size_t i = 0;
      while (i < len && ex->out.mark_seen < ex->out.mark_len)
        {
          if (ex->out.mark_seen == 0)
            {
              const char *rs = memchr (data + i, '\x1e', len - i);
              if (rs == NULL)
                {
                  i = len;
                  break;
                }
              i = (size_t) (rs - data) + 1;
              ex->out.mark_seen = 1;
              continue;
            }
          if (data[i] == ex->out.mark[ex->out.mark_seen])
            ex->out.mark_seen++;
          else
            ex->out.mark_seen = data[i] == '\x1e' ? 1 : 0;
          i++;
        }
      if (!append_capped (ex, &res->err, &res->err_truncated,
                          ex->req.limits.output_bytes + 2 * ex->out.mark_len, data, i))
        return false;
      if (ex->out.mark_seen < ex->out.mark_len)
        {
          /* The program's own bytes (a partial mark at the end may be the
           * init's) past the cap and the mark's room: stopped. */
          if (res->err.len - ex->out.mark_seen > ex->req.limits.output_bytes + ex->out.mark_len)
            {
              res->err_truncated = true;
              return false;
            }
          return true;
        }
      /* The mark: off the program's stderr; the rest is the trailer. */
      res->err.len -= ex->out.mark_len;
      ex->out.in_trailer = true;
      data += i;
      len -= i;
    }
  if (ex->out.trailer_overflow)
    return true;
  /* Files' contents, the compile stage's two streams and their order
   * (no bigger than they are: order.h), records and lines. */
  if (ex->out.trailer.len + len > files_out_budget (ex) + ex->req.session_state_max
                                      + (ex->req.notebook ? SCHED_DISPLAY_MAX : 0)
                                      + 4 * ex->req.limits.compile_output_bytes + TRAILER_OVERHEAD
      || wb_buf_append (&ex->out.trailer, data, len) < 0)
    ex->out.trailer_overflow = true;
  return true;
}

/* With warmbox's init stderr begins with its run mark (a compiled
 * language's only when the compile succeeded: the trailer's mark comes
 * instead when it failed).  Takes the mark's bytes off data and returns
 * how many; on the mark the deadline becomes now plus
 * run_deadline_after_mark_ms.  Bytes held back that turn out not to be
 * the mark go on as stderr (*fits). */
static size_t
take_run_mark (sched_exec_t *ex, const char *data, size_t len, bool *fits)
{
  size_t i = 0;

  while (i < len && ex->out.run_mark_seen < ex->out.run_mark_len)
    {
      if (data[i] != ex->out.run_mark[ex->out.run_mark_seen])
        {
          ex->out.run_mark_done = true;
          *fits = stderr_data (ex, ex->out.run_mark, ex->out.run_mark_seen);
          return i;
        }
      ex->out.run_mark_seen++;
      i++;
    }
  if (ex->out.run_mark_seen == ex->out.run_mark_len)
    {
      ex->out.run_mark_done = true;
      /* Only the run's own deadline, while it is armed (not after a kill):
       * re-arming an armed timer cannot fail for lack of memory, and if it
       * did, the deadline armed at the start still holds. */
      if (armed (ex->run_timer)
          && arm_timer (ex, &ex->run_timer, deadline_cb, run_deadline_after_mark_ms (ex)) < 0)
        wb_log_error ("execution %s: cannot re-arm the deadline", ex->res.id);
    }
  return i;
}

/* The program's bytes that are final now go to the client that streams:
 * stdout within its cap; stderr within its cap, less a partial trailer
 * mark at its end (it may be the init's), never the trailer. */
static void
stream_output (sched_exec_t *ex)
{
  const sched_result_t *res = &ex->res;
  size_t cap = (size_t) ex->req.limits.output_bytes;
  size_t out = res->out.len < cap ? res->out.len : cap;
  size_t err = res->err.len;

  if (ex->req.stream_cb == NULL)
    return;
  if (ex->out.mark_len && !ex->out.in_trailer && !ex->out.trailer_done)
    err = err > ex->out.mark_seen ? err - ex->out.mark_seen : 0;
  if (err > cap)
    err = cap;
  if (out > ex->out.streamed_out)
    {
      ex->req.stream_cb (ex->req.stream_arg, ENG_STREAM_STDOUT,
                         res->out.data + ex->out.streamed_out, out - ex->out.streamed_out);
      ex->out.streamed_out = out;
    }
  if (ex->req.stream_cb && err > ex->out.streamed_err)
    {
      ex->req.stream_cb (ex->req.stream_arg, ENG_STREAM_STDERR,
                         res->err.data + ex->out.streamed_err, err - ex->out.streamed_err);
      ex->out.streamed_err = err;
    }
}

static void
on_data (void *arg, int stream, const char *data, size_t len)
{
  sched_exec_t *ex = arg;
  bool fits = true;

  if (stream == ENG_STREAM_STDERR && ex->out.run_mark_len && !ex->out.run_mark_done)
    {
      size_t used = take_run_mark (ex, data, len, &fits);
      data += used;
      len -= used;
    }
  if (!fits)
    ; /* the held-back bytes passed stderr's cap */
  else if (stream == ENG_STREAM_STDERR && ex->out.mark_len)
    fits = stderr_data (ex, data, len);
  else if (stream == ENG_STREAM_STDERR)
    fits = append_capped (ex, &ex->res.err, &ex->res.err_truncated, ex->req.limits.output_bytes,
                          data, len);
  else
    fits = append_capped (ex, &ex->res.out, &ex->res.out_truncated, ex->req.limits.output_bytes,
                          data, len);
  stream_output (ex);
  if (!fits)
    {
      /* Past the cap the program is stopped: output it cannot deliver is
       * not worth the CPU it burns. */
      sbx_run_mute (ex->run);
      exec_kill (ex, SCHED_ST_OUTPUT_LIMIT, NULL);
    }
}

static void
on_output_end (void *arg, int rc, const wb_err_t *err)
{
  sched_exec_t *ex = arg;
  wb_err_t e;

  if (before_start (ex))
    {
      /* Before the start: the engine failed us; nothing ran. */
      if (rc == 0)
        wb_error (&e, WB_E_ENGINE, "the engine ended the container's output before the start");
      else
        e = *err;
      exec_failed_before_start (ex, &e);
      return;
    }
  ex->end.attach_done = true;
  if (rc < 0)
    exec_kill (ex, lost_status (err), lost_sentence (err));
  if (ex->state == EX_STARTING)
    return;
  after_run (ex);
}

/* ---- start ----------------------------------------------------------- */

static int start_undo (sched_exec_t *ex);

static void
on_started (void *arg, int rc, bool not_started, const wb_err_t *why)
{
  sched_exec_t *ex = arg;
  execs_t *ctx = ex->ctx;
  wb_err_t err;

  ex->start.holds_slot = false;
  ex->t_started_us = wb_now_us ();
  /* A start that failed slowly (a timeout, a 5xx under load) is a sample
   * too: under overload that is all there is.  One that failed faster than
   * starts take (a refusal, a dead socket) says nothing of the engine's
   * pace and would teach the gate that starts are nearly free. */
  double rtt_ms = (double) (ex->t_started_us - ex->t_start_us) / 1000.0;
  if (rc == 0 || rtt_ms >= node_gate (ex->node)->last_rtt_ms)
    startgate_sample (node_gate (ex->node), rtt_ms, ex->start.start_ticket,
                      (double) ex->t_started_us / 1000.0);
  startgate_leave (node_gate (ex->node), (double) ex->t_started_us / 1000.0);
  node_yield_update (ex->node);
  if (rc < 0 && not_started)
    {
      /* The engine said no (engine/ and sandbox/ decide which answers say
       * so): the container did not start.  One that was never reached
       * (warmbox-oci's run: the start is the exchange) may go to another
       * engine while time is left, as a failure before the start does. */
      bool cancelled = ex->end.outcome_set && ex->end.outcome == SCHED_ST_CANCELLED;
      err = *why;
      wb_err_wrap (&err, "starting the container");
      if (err.code == WB_E_ENGINE_DOWN && start_undo (ex) == 0 && replace (ex, &err) == 0)
        return;
      exec_refuse (ex, &err, cancelled);
      return;
    }
  set_state (ex, EX_RUNNING);
  metrics_observe (ctx->metrics, ex->res.language, M_START,
                   (double) (ex->t_started_us - ex->t_start_us) / 1e6);
  if (rc < 0)
    {
      /* No answer, or an error after which it may have started anyway (a
       * 500 from a start half done, a proxy's 502): make sure it is
       * stopped, and never say it did not run. */
      wb_warn ("execution %s: start failed, it may have run: %s", ex->res.id, why->msg);
      exec_kill (ex, lost_status (why),
                 why->code == WB_E_ENGINE_DOWN
                     ? lost_sentence (why)
                     : "the sandbox failed while starting the program; it may have run, and "
                       "was stopped");
    }
  else if (ex->start.kill_when_started)
    exec_kill (ex, ex->end.outcome, ex->end.outcome_error);
  else if (ex->end.wait_done && !ex->end.attach_done)
    arm_drain (ex); /* it exited during the start: a fast program */
  after_run (ex);
}

static void prestart_deadline_cb (evutil_socket_t fd, short what, void *arg);

/* The start was never reached (on_started: not_started, the engine
 * down): nothing ran, so back to WAIT_SLOT, its pre-start bound armed
 * again with what is left of it, for replace to move it.  -1 (nothing
 * changed) when too little time is left or a reason to stop came while
 * it was STARTING (a cancel, the deadline): it is refused then. */
static int
start_undo (sched_exec_t *ex)
{
  uint64_t waited_ms = (wb_now_us () - ex->t_admit_us) / 1000;
  uint32_t max_wait = ex->ctx->cfg.max_wait_ms;

  if (ex->end.outcome_set || ex->end.wait_done || waited_ms + ADMIT_MIN_LEFT_MS > max_wait
      || arm_timer (ex, &ex->prestart_timer, prestart_deadline_cb,
                    (uint32_t) (max_wait - waited_ms))
             < 0)
    return -1;
  disarm (ex->run_timer);
  ex->t_start_us = ex->t_started_us = 0;
  ex->start.kill_when_started = false;
  set_state (ex, EX_WAIT_SLOT);
  return 0;
}

static void
send_start (sched_exec_t *ex)
{
  wb_err_t err;

  ex->start.holds_slot = true;
  /* From the start on the run's own deadline rules: armed first, since no
   * program may run without one (it is refused instead, nothing ran). */
  if (arm_timer (ex, &ex->run_timer, deadline_cb, run_deadline_ms (ex)) < 0)
    {
      wb_error (&err, WB_E_NOMEM, "cannot arm the run's deadline (out of memory)");
      exec_failed_before_start (ex, &err);
      return;
    }
  disarm (ex->prestart_timer);
  set_state (ex, EX_STARTING);
  ex->t_start_us = wb_now_us ();
  ex->start.start_ticket
      = startgate_ticket (node_gate (ex->node), (double) ex->t_start_us / 1000.0);
  node_yield_update (ex->node);
  if (sbx_run_start (ex->run, &err) < 0)
    {
      /* Nothing was sent.  warmbox-oci's start is the run's connection:
       * a socket that is gone (a helper restarting) is an engine failure
       * before the start, and another engine may run it. */
      if (err.code == WB_E_ENGINE_DOWN && start_undo (ex) == 0 && replace (ex, &err) == 0)
        return;
      exec_refuse (ex, &err, false); /* nothing ran */
    }
}

static void
gate_open_cb (void *arg)
{
  sched_exec_t *ex = arg;

  ex->gate_waiter = NULL;
  send_start (ex);
}

/* PREPARING is over when the attach answered (frame written), the wait is
 * armed and the row ahead is on disk: take a start slot, or queue. */
static void
maybe_start (sched_exec_t *ex)
{
  wb_err_t err;
  int r;

  if (ex->state != EX_PREPARING || !ex->prep.run_ready || !ex->prep.ahead_committed)
    return;
  set_state (ex, EX_WAIT_SLOT);
  r = startgate_enter (node_gate (ex->node), (double) wb_now_us () / 1000.0, gate_open_cb, ex,
                       &ex->gate_waiter, &err);
  if (r < 0)
    {
      exec_failed_before_start (ex, &err);
      return;
    }
  node_yield_update (ex->node);
  if (r == 1)
    send_start (ex);
}

static void
ahead_cb (void *arg, uint64_t serial, int rc)
{
  sched_exec_t *ex = find (arg, serial);
  wb_err_t err;

  if (ex == NULL || ex->prep.ahead_committed)
    return;
  if (rc < 0)
    {
      wb_error (&err, WB_E_BUSY, "the execution history cannot be written; try again later");
      exec_failed_before_start (ex, &err);
      return;
    }
  ex->prep.ahead_committed = true;
  maybe_start (ex);
}

/* The attach is up: queue the whole input frame and half-close stdin now,
 * before start.  The engine holds it in the container's stdin pipe, so the
 * program finds its code the moment it reads instead of after the start
 * round trip.  Code, args and stdin go from memory to the socket, nowhere
 * else. */
/* The program's file name the frame carries: the request's, else, where
 * the bootstrap writes the code to a file, the profile's (so that the name
 * the bootstrap writes is the name the init was told of) unless a given
 * file has that name (the code is then no file: the bootstrap writes its
 * program's file only for a name the frame carries); NULL: the language's
 * default, the init's or the bootstrap's own. */
static const char *
program_name (const sched_exec_t *ex)
{
  const char *own = ex->req.profile->program_file;

  if (ex->req.filename)
    return ex->req.filename;
  for (size_t i = 0; own && i < ex->req.n_files; i++)
    if (strcmp (ex->req.files[i].name, own) == 0)
      return NULL;
  return own;
}

static int
write_frame (sched_exec_t *ex, wb_err_t *err)
{
  wb_buf_t frame = WB_BUF_INIT;
  int rc = 0;

  /* The init's lines (profiles/init.c): the nonce, the bounds of the files
   * it returns, and each input file's hash and name, so that an input left
   * unchanged is not sent back. */
  if (uses_init (ex))
    {
      ex->out.mark_len = (size_t) snprintf (ex->out.mark, sizeof ex->out.mark,
                                            "\x1ewarmbox-trailer %s\n", ex->out.nonce);
      const prof_limits_t *l = &ex->req.limits;
      /* The program's own file, where the bootstrap writes one, is an
       * input too (prof_t.program_file). */
      const char *program
          = ex->req.profile->program_file ? program_name (ex) : NULL; /* NULL: no file */
      rc = wb_buf_printf (&frame, "w1 %s %d %llu %zu", ex->out.nonce, SCHED_MAX_FILES,
                          (unsigned long long) files_out_budget (ex),
                          ex->req.n_files + (program != NULL));
      /* A compile stage's limits, and the program's own timeout after it. */
      if (rc == 0 && ex->req.profile->compile_argv)
        {
          rc = wb_buf_printf (&frame, " %u %llu %u", l->compile_timeout_ms,
                              (unsigned long long) l->compile_output_bytes, l->timeout_ms);
        }
      /* Every profile's init marks the program's start (" m": a compiled
       * one's does after its compile stage unasked). */
      else if (rc == 0)
        rc = wb_buf_append_str (&frame, " m");
      ex->out.run_mark_len = (size_t) snprintf (ex->out.run_mark, sizeof ex->out.run_mark,
                                                "\x1ewarmbox-run %s\n", ex->out.nonce);
      /* A session's: its section in the trailer, the state up to its cap. */
      if (rc == 0 && ex->req.session_state_max)
        rc = wb_buf_printf (&frame, " s%llu", (unsigned long long) ex->req.session_state_max);
      if (rc == 0)
        rc = wb_buf_append (&frame, "\n", 1);
      for (size_t i = 0; i < ex->req.n_files && rc == 0; i++)
        rc = wb_buf_printf (&frame, "%s %s\n", ex->req.files[i].sha256, ex->req.files[i].name);
      if (rc == 0 && program)
        rc = wb_buf_printf (&frame, "%s %s\n", ex->res.code_sha256, program);
    }
  if (rc < 0
      || sched_frame_build (program_name (ex), ex->req.code, ex->req.code_len, ex->req.args,
                            ex->req.n_args, ex->req.files, ex->req.n_files, ex->req.stdin_data,
                            ex->req.stdin_len, &frame)
             < 0)
    rc = wb_error (err, WB_E_NOMEM, "out of memory building the input");
  else
    rc = sbx_run_input (ex->run, frame.data, frame.len, err);
  /* Wipe our copy: the frame held the user's code. */
  if (frame.data)
    explicit_bzero (frame.data, frame.cap);
  wb_buf_free (&frame);
  return rc;
}

static void
on_run_ready (void *arg)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->prep.run_ready = true;
  if (write_frame (ex, &err) < 0)
    {
      exec_failed_before_start (ex, &err);
      return;
    }
  maybe_start (ex);
}

static const sbx_run_cbs_t run_cbs
    = {on_run_ready, on_started, on_data, on_exited, on_output_end, on_kill_failed, on_oom};

/* ex->container_id is ours now: attach and arm the wait together. */
static int
have_container (sched_exec_t *ex, wb_err_t *err)
{
  execs_t *ctx = ex->ctx;

  set_state (ex, EX_PREPARING);
  ex->t_container_us = wb_now_us ();
  snprintf (ex->recorded_container, sizeof ex->recorded_container, "%s", ex->container_id);
  metrics_observe (ctx->metrics, ex->res.language, M_QUEUE_WAIT,
                   (double) (ex->t_container_us - ex->t_admit_us) / 1e6);
  ex->run = sbx_run_open (node_sandbox (ex->node), ex->container_id, &run_cbs, ex, err);
  if (ex->run == NULL)
    return -1;
  /* From here the execution is in the history (with its container, so
   * an operator can match an interrupted row to it), and no code starts
   * before this row is on disk.  An execution that moved to another
   * engine before its start has its row rewritten with the new engine and
   * container, when the history has room.  The start waits for the first
   * row only (ahead_committed): rows are written in order, so the
   * rewrite lands before the finished row. */
  if (ex->prep.ahead_submitted)
    {
      if (!store_reserve (ctx->store, 1))
        wb_warn ("execution %s: its row still names engine and container it left (the history "
                 "has no room to rewrite it)",
                 ex->res.id);
      else
        {
          wb_err_t row_err;
          ex->reserved++;
          if (submit_row (ex, "running", NULL, ahead_cb, &row_err) < 0)
            wb_warn ("execution %s: its row could not be rewritten: %s", ex->res.id, row_err.msg);
        }
      return 0;
    }
  ex->prep.ahead_submitted = true;
  return submit_row (ex, "running", NULL, ahead_cb, err);
}

/* ---- the container --------------------------------------------------- */

static void
acquired_cb (void *arg, pool_t *from, char *id, const wb_err_t *perr)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->waiter = NULL;
  if (id == NULL)
    {
      err = *perr;
      exec_failed_before_start (ex, &err);
      return;
    }
  ex->pool = from; /* maybe not the pool we queued on: it may have been replaced */
  snprintf (ex->pool_key, sizeof ex->pool_key, "%s", pool_key (from));
  snprintf (ex->container_id, sizeof ex->container_id, "%s", id);
  free (id);
  if (have_container (ex, &err) < 0)
    exec_failed_before_start (ex, &err);
}

/* The request's bound passed before its program started. */
static void
prestart_deadline_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  (void) fd;
  (void) what;
  uint32_t ms = ex->ctx->cfg.max_wait_ms;

  if (ex->state == EX_QUEUED)
    {
      metrics_observe (ex->ctx->metrics, ex->res.language, M_ADMIT_WAIT, (double) ms / 1000.0);
      wb_error (&err, WB_E_BUSY, "no room to run became free within %u ms", ms);
    }
  else if (ex->state == EX_WAIT_CONTAINER)
    wb_error (&err, WB_E_BUSY, "no sandbox became free within %u ms", ms);
  else if (ex->state == EX_WAIT_SLOT)
    wb_error (&err, WB_E_BUSY, "no start slot became free within %u ms", ms);
  else if (!ex->prep.ahead_committed)
    wb_error (&err, WB_E_BUSY,
              "the execution history could not be written within %u ms; try "
              "again later",
              ms);
  else
    wb_error (&err, WB_E_ENGINE_DOWN, "the engine did not prepare the container within %u ms", ms);
  exec_failed_before_start (ex, &err);
}

static void
deadline_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_exec_t *ex = arg;

  (void) fd;
  (void) what;
  /* An exit already seen is in time, even if its output is still
   * draining. */
  if ((ex->state != EX_STARTING && ex->state != EX_RUNNING) || ex->end.wait_done)
    return;
  /* The init reported the program's end before its deadline: the program
   * ended in time, only the engine's word of the container's exit is
   * late (a loaded Docker answers the wait seconds after the exit).  The
   * exit gets the kill's grace; past it the engine failed, not the
   * program. */
  if (ex->out.in_trailer)
    {
      if (!ex->end.reported_early)
        {
          ex->end.reported_early = true;
          if (arm_timer (ex, &ex->run_timer, deadline_cb, kill_grace (ex)) == 0)
            return;
        }
      ex->end.exit_unreported = true;
      exec_kill (ex, SCHED_ST_ERROR,
                 "the container engine did not report the sandbox's end after the program's own; "
                 "it was stopped");
      return;
    }
  /* No run mark within the start bound: the engine never got the program
   * going (a compiled one's own deadlines are its init's to report). */
  if (ex->out.run_mark_len && !run_mark_came (ex) && ex->req.profile->compile_argv == NULL)
    {
      /* Only as the first reason to stop: an earlier one (a cancel, the
       * engine lost) keeps its own sentence. */
      ex->end.start_overdue = !ex->end.outcome_set;
      exec_kill (ex, SCHED_ST_ERROR, NULL); /* its sentence is exec_finish's */
      return;
    }
  exec_kill (ex, SCHED_ST_TIMEOUT, NULL);
}

/* The pool for this request's key on the engine placed on: the language's
 * warm pool, or a transient one of its own (a memory limit the warm pool
 * can't serve, or a language whose warm pool is missing).  NULL with
 * err. */
static pool_t *
pool_for (sched_exec_t *ex, wb_err_t *err)
{
  execs_t *ctx = ex->ctx;
  const prof_t *p = NULL;
  char key[SBX_KEY_MAX];
  pool_spec_t spec;
  pool_t *pool;
  sched_node_t *node;
  size_t index = 0;

  /* The profile and image in force now: a queued execution may have
   * waited through an image refresh or a reload. */
  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (strcmp (ctx->profiles->items[i]->language, ex->req.profile->language) == 0)
      p = ctx->profiles->items[i], index = i;
  if (p == NULL)
    {
      wb_error (err, WB_E_NOT_FOUND, "language %s is no longer served", ex->req.profile->language);
      return NULL;
    }
  if (ex->req.limits.timeout_ms > p->max.timeout_ms || ex->req.limits.memory_mb > p->max.memory_mb)
    {
      wb_error (err, WB_E_INVALID,
                "the %s profile changed: the request's limits are above its "
                "maximum now",
                p->language);
      return NULL;
    }
  ex->req.profile = p;
  node = nodes_place (ctx->nodes, p, &ex->req.limits, index, ex->tried, err);
  if (node == NULL)
    return NULL;
  /* The image that engine holds, verified (the current one, or while it
   * is being checked there, the previous). */
  snprintf (ex->image_id, sizeof ex->image_id, "%s", node_image (node, index));
  sbx_pool_key (p, &ex->req.limits, ex->image_id, key);
  pool = pool_mgr_find_key (node_pools (node), key);
  if (pool == NULL)
    {
      memset (&spec, 0, sizeof spec);
      sbx_dialect_t d;
      spec.tmpl
          = sbx_tmpl_new (p, &ex->req.limits, ex->image_id, node_dialect (node, index, &d), err);
      if (spec.tmpl == NULL)
        return NULL;
      spec.profile_hash = p->hash;
      spec.transient = true;
      pool = pool_mgr_ensure (node_pools (node), &spec, err);
      if (pool == NULL)
        return NULL;
    }
  ex->node = node;
  ex->engine_name = node_name (node);
  node_exec_enter (node);
  return pool;
}

/* ---- public ---------------------------------------------------------- */

static void
uuid_from_hex (const char hex[33], char out[37])
{
  snprintf (out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

/* Room to run: a container asked for; on a hit, its attach and wait
 * opened and its row written ahead.  -1 with err when refused: nothing was
 * recorded. */
static int
admit (sched_exec_t *ex, wb_err_t *err)
{
  ex->admitted = true;
  for (;;)
    {
      char *id = NULL;
      int r;

      ex->pool = pool_for (ex, err);
      if (ex->pool == NULL)
        return -1;
      snprintf (ex->pool_key, sizeof ex->pool_key, "%s", pool_key (ex->pool));
      set_state (ex, EX_WAIT_CONTAINER);
      r = pool_acquire (ex->pool, acquired_cb, ex, &id, &ex->waiter, err);
      if (r == 1)
        {
          /* A hit: ours now (exec_end gives it back). */
          ex->res.pool_hit = true;
          snprintf (ex->container_id, sizeof ex->container_id, "%s", id);
          free (id);
          r = have_container (ex, err) < 0 ? -1 : 1;
        }
      if (r >= 0)
        return 0;
      if (ex->container_id[0] == '\0')
        ex->pool = NULL; /* a transient pool may be gone with the refusal */
      if (err->code != WB_E_ENGINE_DOWN)
        return -1;
      /* That engine fails now (its creates, or the attach): nothing of
       * this execution started, so the next engine may take it. */
      leave_engine (ex);
    }
}

/* Executions that end per second, from the last ends (0: not known). */
static double
service_rate (const execs_t *ctx)
{
  uint32_t n = ctx->n_ends < WB_ARRAY_SIZE (ctx->end_us) ? ctx->n_ends
                                                         : (uint32_t) WB_ARRAY_SIZE (ctx->end_us);
  uint64_t newest, oldest;

  if (n < 8)
    return 0;
  newest = ctx->end_us[(ctx->n_ends - 1) % WB_ARRAY_SIZE (ctx->end_us)];
  oldest = ctx->end_us[(ctx->n_ends - n) % WB_ARRAY_SIZE (ctx->end_us)];
  /* Ends long ago say nothing about now. */
  if (newest <= oldest || wb_now_us () - newest > 10000000)
    return 0;
  return (double) (n - 1) * 1e6 / (double) (newest - oldest);
}

/* An execution must queue: refuse it (err, 503 with Retry-After) when the
 * queue is full or the wait it would face cannot fit in max_wait_ms at the
 * rate executions end now. */
static int
refuse_queueing (execs_t *ctx, const char *client, wb_err_t *err)
{
  double rate = service_rate (ctx);
  /* Clients take turns: a newcomer waits behind its place in the turns,
   * not behind the whole queue. */
  double wait_s = rate > 0 ? (double) (adm_position (&ctx->admission, client) + 1) / rate : 0;

  if (ctx->admission.n >= ctx->cfg.admission_queue_max)
    return wb_error (err, WB_E_BUSY, "%u executions already wait for room to run",
                     ctx->admission.n);
  if (wait_s * 1000 > ctx->cfg.max_wait_ms)
    return wb_error (err, WB_E_BUSY, "the wait for room to run (about %.0f s) would exceed %u ms",
                     wait_s, ctx->cfg.max_wait_ms);
  return 0;
}

sched_exec_t *
sched_exec_start (execs_t *ctx, sched_request_t *req, sched_exec_done_cb cb, void *arg,
                  wb_err_t *err)
{
  sched_exec_t *ex;
  char hex[33];

  if (ctx->draining)
    {
      sched_request_clear (req);
      wb_error (err, WB_E_BUSY, "the daemon is shutting down");
      return NULL;
    }
  bool queue = ctx->n_execs - ctx->admission.n >= ctx->cfg.max_concurrent || ctx->admission.n > 0;
  if (queue && refuse_queueing (ctx, req->client, err) < 0)
    {
      sched_request_clear (req);
      return NULL;
    }
  /* No code runs without room for its two records: reserve them now. */
  if (!store_reserve (ctx->store, 2))
    {
      sched_request_clear (req);
      wb_error (err, WB_E_BUSY,
                "the execution history cannot be written right now; try again later");
      return NULL;
    }
  ex = calloc (1, sizeof *ex);
  /* The id is public; the nonce is the init's secret, drawn apart. */
  if (ex == NULL || wb_random_hex (hex, 16) < 0 || wb_random_hex (ex->out.nonce, 16) < 0)
    {
      free (ex);
      store_unreserve (ctx->store, 2);
      sched_request_clear (req);
      wb_error (err, WB_E_NOMEM, "cannot allocate an execution");
      return NULL;
    }
  ex->ctx = ctx;
  ex->serial = ++ctx->next_serial;
  ex->reserved = 2;
  ex->req = *req;
  memset (req, 0, sizeof *req);
  ex->cb = cb;
  ex->cb_arg = arg;
  ex->t_admit_us = wb_now_us ();
  ex->res.language = ex->req.profile->language;
  ex->res.combined_output = ex->req.combined_output;
  ex->res.exit_code = -1;
  uuid_from_hex (hex, ex->res.id);
  wb_sha256_hex (ex->req.code, ex->req.code_len, ex->res.code_sha256);
  wb_sha256_hex (ex->req.stdin_data ? ex->req.stdin_data : "", ex->req.stdin_len,
                 ex->res.stdin_sha256);
  ex->res.code_bytes = ex->req.code_len;
  ex->res.stdin_bytes = ex->req.stdin_len;
  ex->res.arg_count = (uint32_t) ex->req.n_args;
  ex->res.files_in = (uint32_t) ex->req.n_files;
  ex->res.files_in_bytes = ex->req.files_bytes;
  if (ex->req.n_files > 0)
    sched_files_sha256 (ex->req.files, ex->req.n_files, ex->res.files_in_sha256);
  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (ctx->profiles->items[i] == ex->req.profile && nodes_current_image (ctx->nodes, i))
      snprintf (ex->image_id, sizeof ex->image_id, "%s", nodes_current_image (ctx->nodes, i));
  WB_LIST_PUSH (ctx->execs, ex);
  ctx->n_execs++;

  /* Everything before the start (room to run, a container, a start slot)
   * is bounded by max_wait_ms. */
  if (arm_timer (ex, &ex->prestart_timer, prestart_deadline_cb, ctx->cfg.max_wait_ms) < 0)
    wb_error (err, WB_E_NOMEM, "cannot arm the deadline");
  else if (queue ? adm_push (&ctx->admission, ex->req.client, &ex->queued, err) == 0
                 : admit (ex, err) == 0)
    return ex;
  /* Nothing recorded, nothing reported: the caller reports err. */
  metrics_count_status (ctx->metrics, ex->res.language, "refused");
  ex->cb = NULL;
  exec_end (ex);
  return NULL;
}

/* Room freed: admit queued executions while there is room, from the loop
 * (never from inside the ending that freed it). */
static void
admit_cb (evutil_socket_t fd, short what, void *arg)
{
  execs_t *ctx = arg;
  adm_node_t *node;

  (void) fd;
  (void) what;
  while (ctx->n_execs - ctx->admission.n < ctx->cfg.max_concurrent
         && (node = adm_pop (&ctx->admission)) != NULL)
    {
      sched_exec_t *ex = (sched_exec_t *) node; /* the node is its first member */
      uint64_t waited_ms = (wb_now_us () - ex->t_admit_us) / 1000;
      wb_err_t err;
      metrics_observe (ctx->metrics, ex->res.language, M_ADMIT_WAIT, (double) waited_ms / 1000.0);
      /* Too little of max_wait_ms left to prepare and start: refuse now
       * rather than take a container it would give back unused. */
      if (waited_ms + ADMIT_MIN_LEFT_MS > ctx->cfg.max_wait_ms)
        {
          wb_error (&err, WB_E_BUSY, "no room to run became free within %u ms",
                    ctx->cfg.max_wait_ms);
          exec_failed_before_start (ex, &err);
        }
      else if (admit (ex, &err) < 0)
        exec_failed_before_start (ex, &err);
    }
}

static void
admit_soon (execs_t *ctx)
{
  if (ctx->admission.n == 0)
    return;
  if (ctx->admit_ev == NULL)
    ctx->admit_ev = event_new (ctx->base, -1, 0, admit_cb, ctx);
  if (ctx->admit_ev)
    event_active (ctx->admit_ev, EV_TIMEOUT, 0);
  else
    wb_log_error ("cannot admit queued executions: out of memory");
}

void
sched_exec_cancel (sched_exec_t *ex)
{
  wb_err_t err;

  if (ex == NULL)
    return;
  ex->cb = NULL;
  ex->req.stream_cb = NULL; /* the client that streamed is gone too */
  switch (ex->state)
    {
    case EX_QUEUED:
    case EX_WAIT_CONTAINER:
    case EX_PREPARING:
    case EX_WAIT_SLOT:
      /* Nothing started: leave every queue, give the container back. */
      wb_error (&err, WB_E_CANCELLED, "the client went away");
      exec_refuse (ex, &err, true);
      break;
    case EX_STARTING:
    case EX_RUNNING:
      wb_info ("execution %s: client went away while %s; stopping it", ex->res.id,
               state_names[ex->state]);
      exec_kill (ex, SCHED_ST_CANCELLED, NULL);
      break;
    case EX_KILLING:
    case EX_INSPECTING:
    case EX_RECORDING:
      break; /* ending already; the row is written, nobody is told */
    case EX_ENDED:
    case EX_N_STATES:
      break; /* not in the registry: never seen here */
    }
}

void
sched_exec_node_lost (execs_t *ctx, sched_node_t *node)
{
  wb_err_t err;

  wb_error (&err, WB_E_ENGINE_DOWN, "engine %s was taken out", node_name (node));
  /* Ending one execution frees no other (admission is deferred). */
  for (sched_exec_t *ex = ctx->execs, *next; ex; ex = next)
    {
      next = ex->next;
      if (ex->node != node)
        continue;
      switch (ex->state)
        {
        case EX_WAIT_CONTAINER: /* its pool failed it already; in case not */
        case EX_PREPARING:
        case EX_WAIT_SLOT:
          exec_failed_before_start (ex, &err);
          break;
        case EX_STARTING:
        case EX_RUNNING:
          wb_warn ("execution %s: engine %s was taken out while it was %s; stopping it", ex->res.id,
                   node_name (node), state_names[ex->state]);
          exec_kill (ex, SCHED_ST_ENGINE_LOST,
                     "the container engine was lost while the program ran; it will not run again");
          break;
        case EX_QUEUED:
        case EX_KILLING:
        case EX_INSPECTING:
        case EX_RECORDING:
        case EX_ENDED:
        case EX_N_STATES:
          break;
        }
    }
}

void
sched_exec_abandon_all (execs_t *ctx)
{
  wb_err_t err;

  wb_error (&err, WB_E_BUSY, "the daemon is exiting; this execution was abandoned");
  /* First leave the start gate's queue, so ending one execution cannot
   * start another. */
  for (sched_exec_t *ex = ctx->execs; ex; ex = ex->next)
    if (ex->gate_waiter)
      {
        startgate_cancel (node_gate (ex->node), ex->gate_waiter);
        ex->gate_waiter = NULL;
      }
  while (ctx->execs)
    {
      sched_exec_t *ex = ctx->execs;
      sched_exec_done_cb cb = ex->cb;
      /* Leave the container where it is: the next start-up reaps it (and
       * marks the row written ahead interrupted). */
      ex->container_id[0] = '\0';
      ex->cb = NULL;
      if (cb && ex->t_start_us)
        {
          /* Its start was sent: the program may have run, so the client
           * hears a result, never "it did not start" (a client must not
           * retry code that may have run). */
          take_trailer (ex);
          ex->res.status = SCHED_ST_ERROR;
          ex->res.exit_code = -1;
          ex->res.error = "warmboxd exited while the program ran; it was stopped and will not run "
                          "again (its output is what came before)";
          cb (ex->cb_arg, &ex->res, NULL);
        }
      else if (cb)
        cb (ex->cb_arg, NULL, &err);
      exec_end (ex);
    }
}

int
sched_exec_check_all (const execs_t *x)
{
  int bad = 0;
  size_t n = 0, queued = 0;

  for (const sched_exec_t *ex = x->execs; ex; ex = ex->next, n++)
    {
      bad += exec_check (ex);
      queued += ex->queued.client != NULL;
    }
  if (refused_transitions)
    {
      wb_log_error ("executions: %llu transitions refused (bugs)",
                    (unsigned long long) refused_transitions);
      bad++;
    }
  if (n != x->n_execs || queued != x->admission.n)
    {
      wb_log_error ("executions: %zu in the registry (counted %zu), %zu queued (counted %u)", n,
                    x->n_execs, queued, x->admission.n);
      bad++;
    }
  return bad;
}

int
sched_exec_n_states (void)
{
  return EX_N_STATES;
}

const char *
sched_exec_state_name (int st)
{
  return st >= 0 && st < EX_N_STATES ? state_names[st] : "?";
}
