/* scheduler/exec.c: one execution, from a validated request to a result.
 *
 *   image id -> create -> attach (101) + wait armed -> start -> frame on
 *   stdin, half-close -> demuxed output (capped) -> exit from wait
 *   [-> inspect for OOMKilled] -> reply -> remove
 *
 * The wall-clock deadline runs from the moment start is sent; at the
 * deadline the container gets SIGKILL, and a grace timer after it ends the
 * execution even if the engine never answers.  Every engine callback may be
 * the last one: finish() frees the execution, so nothing touches `ex` after
 * calling it.  The reply goes out before the container is removed; the
 * removal is tracked by the daemon (ctx->n_cleanup), not by the execution. */
#define _GNU_SOURCE
#include "scheduler.h"

#include <event2/event.h>
#include <string.h>

#define KILL_GRACE_MS 5000  /* deadline -> give up on the engine */
#define DRAIN_GRACE_MS 2000 /* exit seen -> stop waiting for output EOF */
#define UID_FIRST 20000u
#define UID_COUNT 40000u

struct sched_exec
{
  sched_ctx_t *ctx;
  sched_request_t req;
  sched_result_t res;
  sched_exec_done_cb cb;
  void *cb_arg;
  size_t profile_index;

  char container_id[80];
  eng_req_t *op;       /* image inspect / create / start / inspect */
  eng_req_t *wait_req;
  eng_req_t *kill_req;
  eng_attach_t *attach;
  struct event *deadline;
  struct event *grace;

  bool attach_ready, wait_armed, started, wait_done, attach_done;
  bool cancelled;
  sched_status_t kill_reason; /* SCHED_ST_OK while we killed nothing */
  long exit_code;
  bool have_exit;
  wb_err_t run_err;    /* what went wrong after start, for the log */
  bool run_failed;
  uint64_t t_admit_us, t_start_us, t_exit_us;
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

/* ---- removal, owned by the daemon ------------------------------------ */

typedef struct removal
{
  sched_ctx_t *ctx;
  char id[80];
} removal_t;

static void
removed_cb (void *arg, const eng_result_t *r)
{
  removal_t *rm = arg;

  if (r->rc < 0)
    wb_warn ("container %.12s not removed: %s (left for the reaper)", rm->id, r->err.msg);
  rm->ctx->n_cleanup--;
  free (rm);
}

static void
remove_container (sched_ctx_t *ctx, const char *id)
{
  removal_t *rm = calloc (1, sizeof *rm);
  wb_err_t err;

  if (rm == NULL)
    {
      wb_log_error ("container %.12s not removed: out of memory", id);
      return;
    }
  rm->ctx = ctx;
  snprintf (rm->id, sizeof rm->id, "%s", id);
  if (eng_container_remove (ctx->eng, rm->id, removed_cb, rm, &err) == NULL)
    {
      wb_log_error ("container %.12s not removed: %s", id, err.msg);
      free (rm);
      return;
    }
  ctx->n_cleanup++;
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
  if (ex->deadline)
    event_free (ex->deadline);
  if (ex->grace)
    event_free (ex->grace);
  if (ex->container_id[0])
    remove_container (ctx, ex->container_id);
  sched_request_clear (&ex->req);
  wb_buf_free (&ex->res.out);
  wb_buf_free (&ex->res.err);
  ctx->n_running--;
  free (ex);
}

/* The execution could not run: report err (unless the client left). */
static void
fail (sched_exec_t *ex, const wb_err_t *err)
{
  wb_warn ("execution %s failed before it ran: %s", ex->res.id, err->msg);
  if (!ex->cancelled && ex->cb)
    ex->cb (ex->cb_arg, NULL, err);
  exec_free (ex);
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
  wb_info ("execution %s language=%s status=%s exit=%d duration_ms=%llu total_ms=%llu",
           res->id, res->language, sched_status_name (res->status), res->exit_code,
           (unsigned long long) res->duration_ms, (unsigned long long) res->total_ms);
  if (!ex->cancelled && ex->cb)
    ex->cb (ex->cb_arg, res, NULL);
  exec_free (ex);
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
  wb_buf_t frame = WB_BUF_INIT;
  wb_err_t err;

  ex->op = NULL;
  if (r->rc < 0)
    {
      err = r->err;
      wb_err_wrap (&err, "starting container");
      fail (ex, &err);
      return;
    }
  ex->started = true;
  /* The code and stdin go straight from memory to the socket. */
  if (sched_frame_build (ex->req.code, ex->req.code_len, ex->req.stdin_data, ex->req.stdin_len,
                         &frame)
          < 0
      || eng_attach_write (ex->attach, frame.data, frame.len) < 0)
    {
      ex->run_failed = true;
      wb_error (&ex->run_err, WB_E_NOMEM, "could not queue the input frame");
      kill_container (ex, SCHED_ST_OK);
    }
  /* Wipe our copy: the frame held the user's code. */
  if (frame.data)
    explicit_bzero (frame.data, frame.cap);
  wb_buf_free (&frame);
  eng_attach_close_stdin (ex->attach);
}

static void
maybe_start (sched_exec_t *ex)
{
  struct timeval tv;
  wb_err_t err;

  if (!ex->attach_ready || !ex->wait_armed || ex->op || ex->started)
    return;
  ex->t_start_us = wb_now_us ();
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
on_attach_ready (void *arg)
{
  sched_exec_t *ex = arg;
  ex->attach_ready = true;
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

/* ---- create ---------------------------------------------------------- */

static void
created_cb (void *arg, const eng_result_t *r)
{
  sched_exec_t *ex = arg;
  wb_err_t err;

  ex->op = NULL;
  if (r->rc < 0)
    {
      err = r->err;
      if (err.code == WB_E_NOT_FOUND)
        {
          /* The image went away under us: resolve it again next time. */
          free (ex->ctx->image_ids[ex->profile_index]);
          ex->ctx->image_ids[ex->profile_index] = NULL;
          err.code = WB_E_ENGINE;
        }
      wb_err_wrap (&err, "creating container");
      fail (ex, &err);
      return;
    }
  snprintf (ex->container_id, sizeof ex->container_id, "%s", r->id);
  if (ex->cancelled)
    {
      exec_free (ex);
      return;
    }
  ex->attach = eng_attach_open (ex->ctx->eng, ex->container_id, &attach_cbs, ex, &err);
  if (ex->attach == NULL)
    {
      fail (ex, &err);
      return;
    }
  ex->wait_req = eng_container_wait (ex->ctx->eng, ex->container_id, on_wait_armed, wait_cb, ex,
                                     &err);
  if (ex->wait_req == NULL)
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

  snprintf (pool_key, sizeof pool_key, "%s/%.19s/%.12s", p->language,
            ctx->image_ids[ex->profile_index], p->hash);
  memset (&x, 0, sizeof x);
  x.image_id = ctx->image_ids[ex->profile_index];
  x.instance_id = ctx->instance_id;
  x.pool_key = pool_key;
  x.uid = UID_FIRST + (ctx->next_uid++ % UID_COUNT);
  x.args = (const char *const *) ex->req.args;
  x.n_args = ex->req.n_args;
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
      err = r->err;
      if (err.code == WB_E_NOT_FOUND)
        err.code = WB_E_ENGINE; /* our setup's fault, not the client's */
      wb_err_wrap (&err, "sandbox image for %s", ex->req.profile->language);
      fail (ex, &err);
      return;
    }
  free (ex->ctx->image_ids[ex->profile_index]);
  ex->ctx->image_ids[ex->profile_index] = strdup (r->id);
  if (ex->ctx->image_ids[ex->profile_index] == NULL)
    {
      wb_error (&err, WB_E_NOMEM, "out of memory");
      fail (ex, &err);
      return;
    }
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
  ex = calloc (1, sizeof *ex);
  if (ex == NULL || wb_random_hex (hex, 16) < 0)
    {
      free (ex);
      sched_request_clear (req);
      wb_error (err, WB_E_NOMEM, "cannot allocate an execution");
      return NULL;
    }
  ex->ctx = ctx;
  ex->req = *req;
  memset (req, 0, sizeof *req);
  ex->cb = cb;
  ex->cb_arg = arg;
  ex->t_admit_us = wb_now_us ();
  ex->res.language = ex->req.profile->language;
  uuid_from_hex (hex, ex->res.id);
  wb_sha256_hex (ex->req.code, ex->req.code_len, ex->res.code_sha256);
  for (size_t i = 0; i < ctx->profiles->n; i++)
    if (ctx->profiles->items[i] == ex->req.profile)
      ex->profile_index = i;
  ctx->n_running++;

  if (ctx->image_ids[ex->profile_index] == NULL)
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
  if (ex->container_id[0] == '\0')
    return; /* create (or image lookup) in flight: its callback cleans up */
  /* Removing with force kills it too; no need to wait for anything. */
  exec_free (ex);
}

/* ---- image ids ------------------------------------------------------- */

typedef struct image_lookup
{
  sched_ctx_t *ctx;
  size_t index;
} image_lookup_t;

static void
image_refreshed_cb (void *arg, const eng_result_t *r)
{
  image_lookup_t *lk = arg;
  sched_ctx_t *ctx = lk->ctx;
  const prof_t *p = ctx->profiles->items[lk->index];

  if (r->rc < 0)
    wb_warn ("sandbox image %s for %s is not usable: %s (build it with `make images`)", p->image,
             p->language, r->err.msg);
  else
    {
      char *id = strdup (r->id);
      if (id)
        {
          free (ctx->image_ids[lk->index]);
          ctx->image_ids[lk->index] = id;
          wb_info ("language %s: image %s is %.19s, profile %.12s", p->language, p->image, id,
                   p->hash);
        }
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
      lk->index = i;
      if (eng_image_inspect (ctx->eng, ctx->profiles->items[i]->image, image_refreshed_cb, lk,
                             &err)
          == NULL)
        {
          wb_warn ("%s", err.msg);
          free (lk);
        }
    }
}
