/* scheduler/exec.c: one execution, from a validated request to a result.
 *
 *   container (pool hit, or queued for the pool, or a create of its own)
 *   -> attach (101): frame on stdin, half-close; + wait armed
 *   -> start gate -> start -> demuxed output (capped) -> exit from wait
 *   [-> inspect for OOMKilled] -> reply -> release (removed, pool refills)
 *
 * A request takes its container from its language's pool unless it needs a
 * container the pool cannot hold (a non-default memory limit is part of
 * its cgroup): then it creates its own, which is the cold path.  Program
 * arguments travel in the stdin frame, so they don't need one.
 *
 * The wall-clock deadline runs from the moment start is sent; at the
 * deadline the container gets SIGKILL, and a grace timer after it ends the
 * execution even if the engine never answers.  Every engine callback may be
 * the last one: finish() frees the execution, so nothing touches `ex` after
 * calling it.  The reply goes out before the container is removed; the
 * removal belongs to the pool manager (retried while the engine is away),
 * not to the execution. */
#define _GNU_SOURCE
#include "scheduler.h"

#include <event2/event.h>
#include <string.h>

#define KILL_GRACE_MS 5000  /* deadline -> give up on the engine */
#define DRAIN_GRACE_MS 2000 /* exit seen -> stop waiting for output EOF */

struct sched_exec
{
  sched_ctx_t *ctx;
  sched_request_t req;
  sched_result_t res;
  sched_exec_done_cb cb;
  void *cb_arg;
  char image_id[80];   /* the image its own container is created from */

  char container_id[80];
  pool_t *pool;        /* the container came from here; NULL: our own create */
  pool_waiter_t *waiter;
  struct event *prestart_deadline;
  start_waiter_t *gate_waiter;
  bool in_gate;        /* holds a start slot */
  eng_req_t *op;       /* image inspect / create / start / inspect */
  eng_req_t *wait_req;
  eng_req_t *kill_req;
  eng_attach_t *attach;
  struct event *deadline;
  struct event *grace;

  bool attach_ready, wait_armed, started, wait_done, attach_done;
  bool cancelled;
  bool frame_failed;
  bool refused;          /* it never ran: the reply is refuse_err */
  bool reserved;         /* holds room for its record in the history backlog */
  wb_err_t refuse_err;
  char recorded_container[80]; /* for the history, after release */
  sched_status_t kill_reason; /* SCHED_ST_OK while we killed nothing */
  long exit_code;
  bool have_exit;
  wb_err_t run_err;    /* what went wrong after start, for the log */
  bool run_failed;
  uint64_t t_admit_us, t_container_us, t_start_us, t_started_us, t_exit_us;
};

const char *
sched_status_name (sched_status_t st)
{
  switch (st)
    {
    case SCHED_ST_OK: return "ok";
    case SCHED_ST_ERROR: return "error";
    case SCHED_ST_TIMEOUT: return "timeout";
    case SCHED_ST_OOM: return "oom";
    case SCHED_ST_OUTPUT_LIMIT: return "output_limit";
    }
  return "error";
}

/* ---- ending ---------------------------------------------------------- */

static void
exec_free (sched_exec_t *ex)
{
  sched_ctx_t *ctx = ex->ctx;

  eng_req_cancel (ex->op);
  eng_req_cancel (ex->wait_req);
  eng_req_cancel (ex->kill_req);
  eng_attach_free (ex->attach);
  pool_waiter_cancel (ex->waiter);
  if (ex->gate_waiter)
    startgate_cancel (&ctx->gate, ex->gate_waiter);
  if (ex->in_gate)
    startgate_leave (&ctx->gate);
  pool_mgr_set_yield (ctx->pools, ctx->gate.queued > 0);
  if (ex->deadline)
    event_free (ex->deadline);
  if (ex->grace)
    event_free (ex->grace);
  if (ex->prestart_deadline)
    event_free (ex->prestart_deadline);
  if (ex->container_id[0] && ex->pool)
    pool_release (ex->pool, ex->container_id);
  else if (ex->container_id[0])
    pool_mgr_remove (ctx->pools, ex->container_id);
  if (ex->reserved)
    store_unreserve (ctx->store);
  sched_request_clear (&ex->req);
  wb_buf_free (&ex->res.out);
  wb_buf_free (&ex->res.err);
  ctx->n_running--;
  free (ex);
}

/* The container's part is over: give it back now, not after the record's
 * commit (removal and refill need not wait for the disk). */
static void
release_container (sched_exec_t *ex)
{
  if (ex->container_id[0] && ex->pool)
    pool_release (ex->pool, ex->container_id);
  else if (ex->container_id[0])
    pool_mgr_remove (ex->ctx->pools, ex->container_id);
  ex->container_id[0] = '\0';
}

static double
unix_at (uint64_t mono_us)
{
  /* Monotonic stamps to wall time, anchored now. */
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  double wall_now = (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
  return wall_now - (double) (wb_now_us () - mono_us) / 1e6;
}

static void
recorded_cb (void *arg, int rc)
{
  sched_exec_t *ex = arg;

  if (rc < 0)
    wb_log_error ("execution %s: its history record was not written", ex->res.id);
  /* Committed (or given up at shutdown): now the client may hear. */
  if (!ex->cancelled && ex->cb)
    {
      if (ex->refused)
        ex->cb (ex->cb_arg, NULL, &ex->refuse_err);
      else
        ex->cb (ex->cb_arg, &ex->res, NULL);
    }
  exec_free (ex);
}

/* Hand the execution's row to the store; the reply waits for its commit.
 * status_override names a refusal ("refused") instead of res->status. */
static void
record (sched_exec_t *ex, const char *refusal)
{
  sched_ctx_t *ctx = ex->ctx;
  const sched_result_t *res = &ex->res;
  store_execution_t rec;
  uint64_t now = wb_now_us ();

  memset (&rec, 0, sizeof rec);
  rec.id = res->id;
  rec.received_at = unix_at (ex->t_admit_us);
  rec.started_at = ex->t_start_us ? unix_at (ex->t_start_us) : 0;
  rec.finished_at = unix_at (now);
  rec.client = ex->req.client;
  rec.language = res->language;
  rec.image_id = ex->image_id;
  rec.profile_hash = ex->req.profile->hash;
  memcpy (rec.code_sha256, res->code_sha256, sizeof rec.code_sha256);
  rec.code_bytes = res->code_bytes;
  memcpy (rec.stdin_sha256, res->stdin_sha256, sizeof rec.stdin_sha256);
  rec.stdin_bytes = res->stdin_bytes;
  rec.arg_count = res->arg_count;
  rec.status = *refusal ? "refused" : sched_status_name (res->status);
  rec.exit_code = *refusal ? -1 : res->exit_code;
  rec.timed_out = !*refusal && res->status == SCHED_ST_TIMEOUT;
  rec.oom_killed = !*refusal && res->status == SCHED_ST_OOM;
  rec.stdout_truncated = res->out_truncated;
  rec.stderr_truncated = res->err_truncated;
  rec.stdout_bytes = res->out.len;
  rec.stderr_bytes = res->err.len;
  rec.queue_ms = ex->t_container_us ? (double) (ex->t_container_us - ex->t_admit_us) / 1000.0 : -1;
  rec.start_ms = ex->t_started_us ? (double) (ex->t_started_us - ex->t_start_us) / 1000.0 : -1;
  rec.run_ms = ex->t_exit_us && ex->t_started_us ? (double) (ex->t_exit_us - ex->t_started_us) / 1000.0 : -1;
  rec.total_ms = (double) (now - ex->t_admit_us) / 1000.0;
  rec.pool_hit = res->pool_hit;
  rec.container_id = ex->recorded_container;
  rec.engine = ctx->engine_desc;
  rec.error = *refusal ? refusal : (res->error ? res->error : "");
  /* The record uses the room reserved at admission. */
  ex->reserved = false;
  if (*refusal)
    {
      /* A refusal ran no code: its row need not hold up the answer. */
      store_submit_execution (ctx->store, &rec, NULL, NULL);
      recorded_cb (ex, 0);
    }
  else if (store_submit_execution (ctx->store, &rec, recorded_cb, ex) < 0)
    {
      wb_log_error ("execution %s: out of memory queueing its history record", res->id);
      recorded_cb (ex, -1);
    }
}

/* The execution could not run: report err (unless the client left). */
static void
fail (sched_exec_t *ex, const wb_err_t *err)
{
  wb_warn ("execution %s failed before it ran: %s", ex->res.id, err->msg);
  metrics_count_status (&ex->ctx->metrics, ex->res.language, "refused");
  ex->refused = true;
  ex->refuse_err = *err;
  release_container (ex);
  record (ex, wb_code_name (err->code));
}

static void
finish (sched_exec_t *ex)
{
  sched_result_t *res = &ex->res;
  uint64_t now = wb_now_us ();

  if (ex->kill_reason != SCHED_ST_OK)
    res->status = ex->kill_reason;
  else if (ex->run_failed || !ex->have_exit)
    res->status = SCHED_ST_ERROR;
  else if (res->status != SCHED_ST_OOM)
    res->status = SCHED_ST_OK;
  if (res->status == SCHED_ST_ERROR)
    {
      res->error = "the sandbox failed while the program ran; it was stopped";
      wb_warn ("execution %s: %s", res->id, ex->run_failed ? ex->run_err.msg : "no exit status");
    }
  res->exit_code = ex->have_exit ? (int) ex->exit_code : -1;
  res->duration_ms = ((ex->t_exit_us ? ex->t_exit_us : now) - ex->t_start_us) / 1000;
  res->total_ms = (now - ex->t_admit_us) / 1000;
  wb_info ("execution %s language=%s status=%s exit=%d pool_hit=%d duration_ms=%llu "
           "total_ms=%llu",
           res->id, res->language, sched_status_name (res->status), res->exit_code, res->pool_hit,
           (unsigned long long) res->duration_ms, (unsigned long long) res->total_ms);
  if (ex->t_start_us)
    wb_debug ("execution %s phases (ms): container %.1f, attach+wait %.1f, start %.1f, run %.1f, "
              "drain %.1f",
              res->id, (double) (ex->t_container_us - ex->t_admit_us) / 1000.0,
              (double) (ex->t_start_us - ex->t_container_us) / 1000.0,
              (double) (ex->t_started_us - ex->t_start_us) / 1000.0,
              (double) ((ex->t_exit_us ? ex->t_exit_us : now) - ex->t_started_us) / 1000.0,
              (double) (now - (ex->t_exit_us ? ex->t_exit_us : now)) / 1000.0);
  metrics_count_status (&ex->ctx->metrics, res->language, sched_status_name (res->status));
  metrics_observe (&ex->ctx->metrics, res->language, M_RUN, (double) res->duration_ms / 1000.0);
  metrics_observe (&ex->ctx->metrics, res->language, M_TOTAL, (double) (now - ex->t_admit_us) / 1e6);
  release_container (ex);
  record (ex, "");
}

static void
inspected_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;

  ex->op = NULL;
  if (r->rc == 0 && r->oom_killed)
    ex->res.status = SCHED_ST_OOM;
  else if (r->rc < 0)
    wb_warn ("execution %s: inspect failed: %s", ex->res.id, r->err.msg);
  finish (ex);
}

/* Both the exit status and the end of the output are in (or we stopped
 * waiting for one of them). */
static void
maybe_finish (sched_exec_t *ex)
{
  wb_err_t err;

  if (!ex->wait_done || !ex->attach_done || ex->op)
    return;
  /* 137 is SIGKILL; if we did not send it, ask whether the kernel's OOM
   * killer did. */
  if (ex->have_exit && ex->exit_code == 137 && ex->kill_reason == SCHED_ST_OK)
    {
      ex->op = eng_container_inspect (ex->ctx->eng, ex->container_id, inspected_cb, ex, &err);
      if (ex->op)
        return;
      wb_warn ("execution %s: %s", ex->res.id, err.msg);
    }
  finish (ex);
}

static void
killed_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;

  ex->kill_req = NULL;
  if (r->rc < 0)
    wb_warn ("execution %s: kill failed: %s", ex->res.id, r->err.msg);
}

static void
kill_container (sched_exec_t *ex, sched_status_t reason)
{
  wb_err_t err;

  if (ex->kill_reason == SCHED_ST_OK)
    ex->kill_reason = reason;
  if (ex->kill_req || ex->wait_done)
    return;
  ex->kill_req = eng_container_kill (ex->ctx->eng, ex->container_id, "SIGKILL", killed_cb, ex,
                                     &err);
  if (ex->kill_req == NULL)
    wb_log_error ("execution %s: %s", ex->res.id, err.msg);
}

/* The deadline passed without an exit (or the engine went quiet): stop
 * waiting for it. */
static void
grace_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_exec_t *ex = arg;

  (void) fd;
  (void) what;
  if (!ex->wait_done)
    {
      eng_req_cancel (ex->wait_req);
      ex->wait_req = NULL;
      ex->wait_done = true;
      if (!ex->run_failed && ex->kill_reason == SCHED_ST_OK)
        {
          ex->run_failed = true;
          wb_error (&ex->run_err, WB_E_ENGINE_DOWN, "no exit status from the engine");
        }
    }
  if (!ex->attach_done)
    {
      eng_attach_free (ex->attach);
      ex->attach = NULL;
      ex->attach_done = true;
    }
  eng_req_cancel (ex->op);
  ex->op = NULL;
  finish (ex);
}

static void
arm_grace (sched_exec_t *ex, uint32_t ms)
{
  struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

  if (ex->grace == NULL)
    ex->grace = evtimer_new (ex->ctx->base, grace_cb, ex);
  if (ex->grace)
    evtimer_add (ex->grace, &tv);
}

static void
deadline_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_exec_t *ex = arg;

  (void) fd;
  (void) what;
  if (ex->wait_done)
    return;
  kill_container (ex, SCHED_ST_TIMEOUT);
  arm_grace (ex, KILL_GRACE_MS);
}

static void
wait_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->wait_req = NULL;
  ex->wait_done = true;
  ex->t_exit_us = wb_now_us ();
  if (r->rc < 0)
    {
      if (!ex->started)
        {
          err = r->err;
          wb_err_wrap (&err, "waiting on container");
          fail (ex, &err);
          return;
        }
      ex->run_failed = true;
      ex->run_err = r->err;
    }
  else
    {
      ex->exit_code = r->exit_code;
      ex->have_exit = true;
    }
  if (!ex->attach_done)
    arm_grace (ex, DRAIN_GRACE_MS);
  maybe_finish (ex);
}

/* ---- output ---------------------------------------------------------- */

static void
on_data (void *arg, int stream, const char *data, size_t len)
{
  sched_exec_t *ex = arg;
  wb_buf_t *b = stream == ENG_STREAM_STDERR ? &ex->res.err : &ex->res.out;
  bool *trunc = stream == ENG_STREAM_STDERR ? &ex->res.err_truncated : &ex->res.out_truncated;
  uint64_t cap = ex->req.limits.output_bytes;
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
  if (*trunc)
    {
      /* Past the cap the program is stopped: output it cannot deliver is
       * not worth the CPU it burns. */
      eng_attach_pause (ex->attach);
      kill_container (ex, SCHED_ST_OUTPUT_LIMIT);
    }
}

static void
on_attach_end (void *arg, int rc, const wb_err_t *err)
{
  sched_exec_t *ex = arg;

  ex->attach_done = true;
  if (rc < 0)
    {
      if (!ex->attach_ready)
        {
          wb_err_t e = *err;
          wb_err_wrap (&e, "attaching to container");
          fail (ex, &e);
          return;
        }
      if (ex->kill_reason == SCHED_ST_OK && !ex->run_failed)
        {
          ex->run_failed = true;
          ex->run_err = *err;
        }
    }
  maybe_finish (ex);
}

/* ---- start ----------------------------------------------------------- */

static void
started_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->op = NULL;
  ex->in_gate = false;
  ex->t_started_us = wb_now_us ();
  startgate_leave (&ex->ctx->gate);
  pool_mgr_set_yield (ex->ctx->pools, ex->ctx->gate.queued > 0);
  if (r->rc < 0)
    {
      err = r->err;
      wb_err_wrap (&err, "starting container");
      fail (ex, &err);
      return;
    }
  ex->started = true;
  metrics_observe (&ex->ctx->metrics, ex->res.language, M_START,
                   (double) (ex->t_started_us - ex->t_start_us) / 1e6);
  if (ex->frame_failed)
    {
      ex->run_failed = true;
      wb_error (&ex->run_err, WB_E_NOMEM, "could not queue the input frame");
      kill_container (ex, SCHED_ST_OK);
    }
}

static void
send_start (sched_exec_t *ex)
{
  struct timeval tv;
  wb_err_t err;

  ex->in_gate = true;
  ex->t_start_us = wb_now_us ();
  evtimer_del (ex->prestart_deadline); /* from here the run's own deadline rules */
  ex->op = eng_container_start (ex->ctx->eng, ex->container_id, started_cb, ex, &err);
  if (ex->op == NULL)
    {
      fail (ex, &err);
      return;
    }
  tv.tv_sec = ex->req.limits.timeout_ms / 1000;
  tv.tv_usec = (ex->req.limits.timeout_ms % 1000) * 1000;
  ex->deadline = evtimer_new (ex->ctx->base, deadline_cb, ex);
  if (ex->deadline == NULL || evtimer_add (ex->deadline, &tv) < 0)
    {
      wb_error (&err, WB_E_NOMEM, "cannot arm the deadline");
      fail (ex, &err);
    }
}

static void
gate_open_cb (void *arg)
{
  sched_exec_t *ex = arg;

  ex->gate_waiter = NULL;
  send_start (ex);
}

/* Attach answered and wait is armed: take a start slot, or queue for one. */
static void
maybe_start (sched_exec_t *ex)
{
  sched_ctx_t *ctx = ex->ctx;
  wb_err_t err;
  int r;

  if (!ex->attach_ready || !ex->wait_armed || ex->op || ex->started || ex->in_gate
      || ex->gate_waiter)
    return;
  r = startgate_enter (&ctx->gate, gate_open_cb, ex, &ex->gate_waiter);
  if (r < 0)
    {
      wb_error (&err, WB_E_NOMEM, "out of memory");
      fail (ex, &err);
      return;
    }
  pool_mgr_set_yield (ctx->pools, ctx->gate.queued > 0);
  if (r == 1)
    send_start (ex);
}

/* The attach is up: queue the whole input frame and half-close stdin now,
 * before start.  The engine holds it in the container's stdin pipe, so the
 * program finds its code the moment it reads instead of after the start
 * round trip.  Code, args and stdin go from memory to the socket, nowhere
 * else. */
static void
write_frame (sched_exec_t *ex)
{
  wb_buf_t frame = WB_BUF_INIT;

  if (sched_frame_build (ex->req.code, ex->req.code_len, ex->req.args, ex->req.n_args,
                         ex->req.stdin_data, ex->req.stdin_len, &frame)
          < 0
      || eng_attach_write (ex->attach, frame.data, frame.len) < 0)
    ex->frame_failed = true; /* reported once the container runs */
  /* Wipe our copy: the frame held the user's code. */
  if (frame.data)
    explicit_bzero (frame.data, frame.cap);
  wb_buf_free (&frame);
  eng_attach_close_stdin (ex->attach);
}

static void
on_attach_ready (void *arg)
{
  sched_exec_t *ex = arg;
  ex->attach_ready = true;
  write_frame (ex);
  maybe_start (ex);
}

static void
on_wait_armed (void *arg)
{
  sched_exec_t *ex = arg;
  ex->wait_armed = true;
  maybe_start (ex);
}

static const eng_attach_cbs_t attach_cbs = {on_attach_ready, on_data, on_attach_end};

/* ex->container_id is ours now: attach and arm the wait together. */
static int
have_container (sched_exec_t *ex, wb_err_t *err)
{
  ex->t_container_us = wb_now_us ();
  snprintf (ex->recorded_container, sizeof ex->recorded_container, "%s", ex->container_id);
  metrics_observe (&ex->ctx->metrics, ex->res.language, M_QUEUE_WAIT,
                   (double) (ex->t_container_us - ex->t_admit_us) / 1e6);
  ex->attach = eng_attach_open (ex->ctx->eng, ex->container_id, &attach_cbs, ex, err);
  if (ex->attach == NULL)
    return -1;
  ex->wait_req = eng_container_wait (ex->ctx->eng, ex->container_id, on_wait_armed, wait_cb, ex,
                                     err);
  return ex->wait_req ? 0 : -1;
}

/* ---- the pool path --------------------------------------------------- */

static void
acquired_cb (void *arg, pool_t *from, char *id, const wb_err_t *perr)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->waiter = NULL;
  if (id == NULL)
    {
      err = *perr;
      fail (ex, &err);
      return;
    }
  ex->pool = from; /* maybe not the pool we queued on: it may have been replaced */
  snprintf (ex->container_id, sizeof ex->container_id, "%s", id);
  free (id);
  if (have_container (ex, &err) < 0)
    fail (ex, &err);
}

/* The request's deadline passed before its program started: still queued
 * for a container, or the engine never answered the attach or the wait. */
static void
prestart_deadline_cb (evutil_socket_t fd, short what, void *arg)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  (void) fd;
  (void) what;
  if (ex->waiter)
    {
      pool_waiter_cancel (ex->waiter);
      ex->waiter = NULL;
      wb_error (&err, WB_E_BUSY, "no sandbox became free within the request's %u ms",
                ex->req.limits.timeout_ms);
    }
  else if (ex->gate_waiter)
    wb_error (&err, WB_E_BUSY, "no start slot became free within the request's %u ms",
              ex->req.limits.timeout_ms);
  else
    wb_error (&err, WB_E_ENGINE_DOWN, "the engine did not prepare the container within %u ms",
              ex->req.limits.timeout_ms);
  fail (ex, &err);
}

/* Bound everything before start by the request's own timeout. */
static int
arm_prestart_deadline (sched_exec_t *ex, wb_err_t *err)
{
  struct timeval tv = {ex->req.limits.timeout_ms / 1000, (ex->req.limits.timeout_ms % 1000) * 1000};

  if (ex->prestart_deadline == NULL)
    ex->prestart_deadline = evtimer_new (ex->ctx->base, prestart_deadline_cb, ex);
  if (ex->prestart_deadline == NULL || evtimer_add (ex->prestart_deadline, &tv) < 0)
    return wb_error (err, WB_E_NOMEM, "cannot arm the deadline");
  return 0;
}

/* The pool this request can use, or NULL for a container of its own. */
static pool_t *
pool_for (sched_exec_t *ex)
{
  const sched_request_t *r = &ex->req;

  if (r->limits.memory_mb != r->profile->def.memory_mb)
    return NULL;
  return pool_mgr_find (ex->ctx->pools, r->profile->language);
}

/* Take a container from the pool: at once on a hit, else queued.
 * -1 with err when refused (nothing to report through the callback). */
static int
acquire (sched_exec_t *ex, wb_err_t *err)
{
  char *id = NULL;
  int r = pool_acquire (ex->pool, acquired_cb, ex, &id, &ex->waiter, err);

  if (r < 0)
    return -1;
  if (r == 1)
    {
      ex->res.pool_hit = true;
      snprintf (ex->container_id, sizeof ex->container_id, "%s", id);
      free (id);
      return have_container (ex, err);
    }
  return 0;
}

/* ---- create ---------------------------------------------------------- */

/* A step of our own create failed.  An image or container the engine does
 * not know is our setup's fault, not the client's (the periodic image
 * refresh resolves the tag again).  Reports and frees ex. */
static void
fail_engine (sched_exec_t *ex, const eng_result_t *r, const char *what)
{
  wb_err_t err = r->err;

  if (err.code == WB_E_NOT_FOUND)
    err.code = WB_E_ENGINE;
  wb_err_wrap (&err, "%s", what);
  fail (ex, &err);
}

static void
created_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->op = NULL;
  if (r->rc < 0)
    {
      fail_engine (ex, r, "creating container");
      return;
    }
  snprintf (ex->container_id, sizeof ex->container_id, "%s", r->id);
  if (ex->cancelled)
    {
      exec_free (ex);
      return;
    }
  if (have_container (ex, &err) < 0)
    fail (ex, &err);
}

/* Queue the create.  -1 with err set (nothing reported to the client). */
static int
create (sched_exec_t *ex, wb_err_t *err)
{
  sched_ctx_t *ctx = ex->ctx;
  const prof_t *p = ex->req.profile;
  cleanup_buf wb_buf_t spec = WB_BUF_INIT;
  char pool_key[200];
  prof_spec_extra_t x;

  snprintf (pool_key, sizeof pool_key, "%s/%.19s/%.12s", p->language, ex->image_id, p->hash);
  memset (&x, 0, sizeof x);
  x.image_id = ex->image_id;
  x.instance_id = ctx->instance_id;
  x.pool_key = pool_key;
  x.uid = pool_mgr_next_uid (ctx->pools);
  if (prof_container_spec (p, &ex->req.limits, &x, &spec, err) < 0)
    return -1;
  ex->op = eng_container_create (ctx->eng, spec.data, created_cb, ex, err);
  return ex->op ? 0 : -1;
}

static void
image_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->op = NULL;
  if (r->rc < 0)
    {
      fail_engine (ex, r, "sandbox image");
      return;
    }
  snprintf (ex->image_id, sizeof ex->image_id, "%s", r->id);
  if (ex->cancelled)
    {
      exec_free (ex);
      return;
    }
  if (create (ex, &err) < 0)
    fail (ex, &err);
}

/* ---- public ---------------------------------------------------------- */

static void
uuid_from_hex (const char hex[33], char out[37])
{
  snprintf (out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16, hex + 20);
}

sched_exec_t *
sched_exec_start (sched_ctx_t *ctx, sched_request_t *req, sched_exec_done_cb cb, void *arg,
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
  if (ctx->n_running >= ctx->cfg.max_concurrent)
    {
      sched_request_clear (req);
      wb_error (err, WB_E_BUSY, "too many executions in flight (%zu)", ctx->n_running);
      return NULL;
    }
  /* No code runs without room for its record: reserve it now. */
  if (!store_reserve (ctx->store))
    {
      sched_request_clear (req);
      wb_error (err, WB_E_BUSY, "the execution history cannot be written right now; try again later");
      return NULL;
    }
  ex = calloc (1, sizeof *ex);
  if (ex == NULL || wb_random_hex (hex, 16) < 0)
    {
      free (ex);
      store_unreserve (ctx->store);
      sched_request_clear (req);
      wb_error (err, WB_E_NOMEM, "cannot allocate an execution");
      return NULL;
    }
  ex->ctx = ctx;
  ex->reserved = true;
  ex->req = *req;
  memset (req, 0, sizeof *req);
  ex->cb = cb;
  ex->cb_arg = arg;
  ex->t_admit_us = wb_now_us ();
  ex->res.language = ex->req.profile->language;
  uuid_from_hex (hex, ex->res.id);
  wb_sha256_hex (ex->req.code, ex->req.code_len, ex->res.code_sha256);
  wb_sha256_hex (ex->req.stdin_data ? ex->req.stdin_data : "", ex->req.stdin_len,
                 ex->res.stdin_sha256);
  ex->res.code_bytes = ex->req.code_len;
  ex->res.stdin_bytes = ex->req.stdin_len;
  ex->res.arg_count = (uint32_t) ex->req.n_args;
  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (ctx->profiles->items[i] == ex->req.profile && ctx->image_ids[i])
      snprintf (ex->image_id, sizeof ex->image_id, "%s", ctx->image_ids[i]);
  ctx->n_running++;

  if (arm_prestart_deadline (ex, err) < 0)
    {
      ex->cb = NULL;
      exec_free (ex);
      return NULL;
    }
  ex->pool = pool_for (ex);
  if (ex->pool)
    {
      if (acquire (ex, err) == 0)
        return ex;
      /* Refused, or the hit could not even be attached: nothing was
       * reported; a container we hold goes back through exec_free. */
      ex->cb = NULL;
      exec_free (ex);
      return NULL;
    }
  if (ex->image_id[0] == '\0')
    ex->op = eng_image_inspect (ctx->eng, ex->req.profile->image, image_cb, ex, err);
  else
    create (ex, err);
  if (ex->op == NULL)
    {
      /* Nothing was sent: no callback will come; the caller reports err. */
      ex->cb = NULL;
      exec_free (ex);
      return NULL;
    }
  return ex;
}

void
sched_exec_cancel (sched_exec_t *ex)
{
  if (ex == NULL)
    return;
  ex->cancelled = true;
  ex->cb = NULL;
  wb_info ("execution %s: client went away; stopping it", ex->res.id);
  if (ex->container_id[0] == '\0' && ex->op != NULL)
    return; /* its own create (or image lookup) is in flight: the callback cleans up */
  /* Queued for the pool or the start gate: leave the queue.  Holding a
   * container: removing with force kills it too. */
  exec_free (ex);
}

/* ---- image ids and pools --------------------------------------------- */

void
sched_pool_update (sched_ctx_t *ctx, size_t i)
{
  const prof_t *p = ctx->profiles->items[i];
  const sched_pool_config_t *pc = sched_config_pool (&ctx->cfg, p->language);
  cleanup_buf wb_buf_t body = WB_BUF_INIT;
  prof_spec_extra_t x;
  pool_spec_t spec;
  wb_err_t err;

  if (ctx->image_ids[i] == NULL || ctx->draining)
    return;
  /* Labels and the uid are stamped by the pool for each container. */
  memset (&x, 0, sizeof x);
  x.image_id = ctx->image_ids[i];
  x.instance_id = ctx->instance_id;
  x.pool_key = "";
  x.uid = 0; /* the pool stamps each container's own */
  if (prof_container_spec (p, &p->def, &x, &body, &err) < 0)
    {
      wb_log_error ("pool for %s: %s", p->language, err.msg);
      return;
    }
  memset (&spec, 0, sizeof spec);
  spec.language = p->language;
  spec.image_id = ctx->image_ids[i];
  spec.profile_hash = p->hash;
  spec.create_body = body.data;
  spec.min_ready = pc->min_ready;
  spec.max_ready = pc->max_ready;
  if (pool_mgr_ensure (ctx->pools, &spec, &err) == NULL)
    wb_log_error ("pool for %s: %s", p->language, err.msg);
}

/* Carries the language, not an index: a SIGHUP may replace the profile
 * set while the lookup is in flight. */
typedef struct image_lookup
{
  sched_ctx_t *ctx;
  char language[33];
  char image[256];
} image_lookup_t;

static void
image_refreshed_cb (void *arg, const eng_result_t *r)
{
  image_lookup_t *lk = arg;
  sched_ctx_t *ctx = lk->ctx;
  const prof_t *p = NULL;
  size_t index = 0;

  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (strcmp (ctx->profiles->items[i]->language, lk->language) == 0)
      p = ctx->profiles->items[i], index = i;
  if (p == NULL || strcmp (p->image, lk->image) != 0)
    {
      free (lk); /* the profile changed meanwhile; its own lookup follows */
      return;
    }

  if (r->rc < 0)
    wb_warn ("sandbox image %s for %s is not usable: %s (build it with `make images`)", p->image,
             p->language, r->err.msg);
  else
    {
      bool changed = ctx->image_ids[index] == NULL || strcmp (ctx->image_ids[index], r->id) != 0;
      char *id = changed ? strdup (r->id) : NULL;
      if (id)
        {
          free (ctx->image_ids[index]);
          ctx->image_ids[index] = id;
          wb_info ("language %s: image %s is %.19s, profile %.12s", p->language, p->image, id,
                   p->hash);
        }
      if (changed || pool_mgr_find (ctx->pools, p->language) == NULL)
        sched_pool_update (ctx, index);
    }
  free (lk);
}

void
sched_images_refresh (sched_ctx_t *ctx)
{
  for (size_t i = 0; i < ctx->profiles->n; i++)
    {
      image_lookup_t *lk = calloc (1, sizeof *lk);
      wb_err_t err;
      if (lk == NULL)
        return;
      lk->ctx = ctx;
      snprintf (lk->language, sizeof lk->language, "%s", ctx->profiles->items[i]->language);
      snprintf (lk->image, sizeof lk->image, "%s", ctx->profiles->items[i]->image);
      if (eng_image_inspect (ctx->eng, ctx->profiles->items[i]->image, image_refreshed_cb, lk,
                             &err)
          == NULL)
        {
          wb_warn ("%s", err.msg);
          free (lk);
        }
    }
}
