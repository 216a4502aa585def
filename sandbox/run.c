/* sandbox/run.c: one run of one created container, on either engine kind.
 *
 * Two backends behind sbx_run_*:
 *   Docker Engine API  the attach (its stdin takes the input), a wait
 *                      armed before the start, the start, a kill, and
 *                      an inspect for the OOM flag after exit code 137;
 *                      a wait that fails while the program runs is
 *                      followed by one inspect, then a not-running wait.
 *   warmbox-oci's run  one exchange (eng_run_open): the input goes with
 *                      the request, the start, the output and the exit
 *                      (with its OOM flag) come back on it.  Only a kill
 *                      is a request of its own.
 * The caller sees the same callbacks from both, in the same order rules
 * (sandbox.h).
 *
 * Callbacks may free the run: every path that calls out holds busy, and
 * sbx_run_free from inside one only marks it dead; the last unwinding
 * frees it. */
#define _GNU_SOURCE
#include "sandbox_int.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbx_run
{
  sbx_t *s;
  eng_t *eng;
  char id[80];
  sbx_run_cbs_t cbs;
  void *arg;
  bool one_request;
  int busy;
  bool dead;

  eng_attach_t *attach; /* the attach, or the run's exchange */
  eng_req_t *wait_req;  /* Docker */
  eng_req_t *start_req; /* Docker */
  eng_req_t *op;        /* Docker: the wait's fallback inspect, or the OOM inspect */
  eng_req_t *kill_req;
  struct event *soon;        /* one request: ready and the OOM answer, on a later pass */
  struct event *start_bound; /* one request: "started" within the engine's request bound */

  bool attach_ready, wait_armed, ready_told;
  bool start_sent, started_told, started_ok;
  bool kill_sent;
  bool wait_asked; /* Docker: a failed wait was followed by an inspect (once) */
  bool exited_told, output_told;
  bool oom_asked; /* one request: the answer is due on soon */
  bool have_oom, oom;
  bool input_given;
  wb_buf_t frame; /* one request: the input until the start sends it */
};

static void
run_destroy (sbx_run_t *r)
{
  eng_attach_free (r->attach);
  eng_req_cancel (r->wait_req);
  eng_req_cancel (r->start_req);
  eng_req_cancel (r->op);
  eng_req_cancel (r->kill_req);
  if (r->soon)
    event_free (r->soon);
  if (r->start_bound)
    event_free (r->start_bound);
  if (r->frame.data)
    explicit_bzero (r->frame.data, r->frame.cap);
  wb_buf_free (&r->frame);
  free (r);
}

static void
hold (sbx_run_t *r)
{
  r->busy++;
}

/* Let go; false when the run was freed meanwhile (it is gone now). */
static bool
release (sbx_run_t *r)
{
  if (--r->busy == 0 && r->dead)
    {
      run_destroy (r);
      return false;
    }
  return !r->dead;
}

/* ---- what the caller hears (each once) ------------------------------- */

static void
tell_ready (sbx_run_t *r)
{
  if (r->ready_told || r->dead)
    return;
  r->ready_told = true;
  r->cbs.ready (r->arg);
}

static void
tell_started (sbx_run_t *r, int rc, bool not_started, const wb_err_t *err)
{
  if (r->started_told || r->dead)
    return;
  r->started_told = true;
  if (r->start_bound)
    event_del (r->start_bound);
  r->started_ok = rc == 0;
  r->cbs.started (r->arg, rc, not_started, err);
}

static void
tell_exited (sbx_run_t *r, int rc, long code, const wb_err_t *err)
{
  if (r->exited_told || r->dead)
    return;
  r->exited_told = true;
  r->cbs.exited (r->arg, rc, code, err);
}

static void
tell_output_end (sbx_run_t *r, int rc, const wb_err_t *err)
{
  if (r->output_told || r->dead)
    return;
  r->output_told = true;
  r->cbs.output_end (r->arg, rc, err);
}

static void
on_data (void *arg, int stream, const char *data, size_t len)
{
  sbx_run_t *r = arg;
  if (!r->dead)
    r->cbs.data (r->arg, stream, data, len);
}

/* ---- the Docker Engine API ------------------------------------------- */

static void
d_attach_ready (void *arg)
{
  sbx_run_t *r = arg;

  r->attach_ready = true;
  if (r->wait_armed)
    tell_ready (r);
}

static void
d_wait_armed (void *arg)
{
  sbx_run_t *r = arg;

  r->wait_armed = true;
  if (r->attach_ready)
    tell_ready (r);
}

static void
d_attach_end (void *arg, int rc, const wb_err_t *err)
{
  sbx_run_t *r = arg;
  wb_err_t e = {0};

  if (rc < 0)
    e = *err;
  else if (!r->ready_told)
    wb_error (&e, WB_E_ENGINE, "the engine closed the attach stream before the start");
  if (!r->ready_told)
    wb_err_wrap (&e, "attaching to the container");
  tell_output_end (r, rc < 0 || !r->ready_told ? -1 : 0, rc < 0 || !r->ready_told ? &e : NULL);
}

static void d_wait_cb (void *arg, const eng_result_t *res);

/* The wait failed; the container's state says whether (and how) the
 * program exited, or that it still runs (then wait again). */
static void
d_wait_inspected_cb (void *arg, const eng_result_t *res)
{
  sbx_run_t *r = arg;
  wb_err_t err;

  r->op = NULL;
  if (res->rc == 0 && res->running && !r->kill_sent)
    {
      /* not-running: an exit between the inspect and this wait is met at
       * once (next-exit would wait for an exit that has been). */
      r->wait_req = eng_container_wait_stopped (r->eng, r->id, d_wait_cb, r, &err);
      if (r->wait_req)
        return;
      tell_exited (r, -1, 0, &err);
      return;
    }
  if (res->rc == 0 && !res->running)
    {
      wb_info ("container %.12s: its exit status (%ld) came from its state after its wait failed",
               r->id, res->exit_code);
      tell_exited (r, 0, res->exit_code, NULL);
    }
  else if (res->rc < 0)
    tell_exited (r, -1, 0, &res->err);
  else
    {
      wb_error (&err, WB_E_ENGINE, "its wait failed and it still runs");
      tell_exited (r, -1, 0, &err);
    }
}

static void
d_wait_cb (void *arg, const eng_result_t *res)
{
  sbx_run_t *r = arg;
  wb_err_t err;

  r->wait_req = NULL;
  if (!r->start_sent)
    {
      /* Before the start, a wait that ends is an engine failure. */
      err = res->err;
      if (res->rc == 0)
        wb_error (&err, WB_E_ENGINE, "the container exited before it was started");
      wb_err_wrap (&err, "waiting on the container");
      tell_exited (r, -1, 0, &err);
      return;
    }
  if (res->rc < 0)
    wb_warn ("container %.12s: the wait for its exit failed: %s", r->id, res->err.msg);
  /* A wait the engine answered with an error (not a lost engine) says
   * nothing of the program: ask the container itself, once, while it is
   * meant to run. */
  if (res->rc < 0 && res->err.code != WB_E_ENGINE_DOWN && r->started_told && !r->kill_sent
      && r->op == NULL && !r->wait_asked)
    {
      r->wait_asked = true;
      r->op = eng_container_inspect (r->eng, r->id, d_wait_inspected_cb, r, &err);
      if (r->op)
        return;
    }
  if (res->rc < 0)
    tell_exited (r, -1, 0, &res->err);
  else
    tell_exited (r, 0, res->exit_code, NULL);
}

static void
d_started_cb (void *arg, const eng_result_t *res)
{
  sbx_run_t *r = arg;

  r->start_req = NULL;
  tell_started (r, res->rc, res->rc < 0 && res->not_started, res->rc < 0 ? &res->err : NULL);
}

static void
d_oom_cb (void *arg, const eng_result_t *res)
{
  sbx_run_t *r = arg;

  r->op = NULL;
  r->cbs.oom (r->arg, res->rc, res->rc == 0 && res->oom_killed, res->rc < 0 ? &res->err : NULL);
}

static const eng_attach_cbs_t d_attach_cbs = {d_attach_ready, on_data, d_attach_end};

/* ---- warmbox-oci's run ----------------------------------------------- */

/* ready after the open, and an OOM answer, on a later loop pass. */
static void
soon_cb (evutil_socket_t fd, short what, void *arg)
{
  sbx_run_t *r = arg;

  (void) fd;
  (void) what;
  hold (r);
  tell_ready (r);
  if (!r->dead && r->oom_asked)
    {
      r->oom_asked = false;
      r->cbs.oom (r->arg, 0, r->have_oom && r->oom, NULL);
    }
  release (r);
}

static int
soon (sbx_run_t *r, wb_err_t *err)
{
  if (r->soon == NULL && (r->soon = evtimer_new (sbx_base (r->s), soon_cb, r)) == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory");
  event_active (r->soon, EV_TIMEOUT, 0);
  return 0;
}

static void
o_ready (void *arg)
{
  (void) arg; /* the 101: the input went with the request */
}

/* The exchange is unusable (a start that never answered, an event that
 * does not parse): closed, and whatever was not told is told now, in
 * order, with err (the start: it may have run). */
static void
o_fail (sbx_run_t *r, const wb_err_t *err)
{
  hold (r);
  eng_attach_free (r->attach);
  r->attach = NULL;
  tell_started (r, -1, false, err);
  tell_exited (r, -1, 0, err);
  tell_output_end (r, -1, err);
  release (r);
}

static void
start_bound_cb (evutil_socket_t fd, short what, void *arg)
{
  sbx_run_t *r = arg;
  wb_err_t err;

  (void) fd;
  (void) what;
  wb_error (&err, WB_E_ENGINE_DOWN, "the engine did not answer the run's start within %ld ms",
            eng_request_timeout_ms (r->eng));
  o_fail (r, &err);
}

static void
o_event (void *arg, const char *line)
{
  sbx_run_t *r = arg;
  eng_run_event_t ev;
  wb_err_t err;

  hold (r);
  switch (eng_run_event_parse (line, &ev))
    {
    case ENG_RUN_STARTED:
      tell_started (r, 0, false, NULL);
      break;
    case ENG_RUN_NOT_STARTED:
      wb_error (&err, WB_E_ENGINE, "the engine did not start it: %.200s",
                ev.why[0] ? ev.why : "(no reason given)");
      tell_started (r, -1, true, &err);
      break;
    case ENG_RUN_START_FAILED:
      wb_error (&err, WB_E_ENGINE, "its start failed, it may have run: %.200s",
                ev.why[0] ? ev.why : "(no reason given)");
      tell_started (r, -1, false, &err);
      break;
    case ENG_RUN_EXIT:
      r->have_oom = true;
      r->oom = ev.oom;
      if (!r->started_told)
        {
          /* An exit before a start answer is the helper's bug: said so. */
          wb_error (&err, WB_E_ENGINE, "the engine reported an exit before the start");
          tell_started (r, -1, false, &err);
        }
      tell_exited (r, 0, ev.exit_code, NULL);
      break;
    case ENG_RUN_BAD:
      wb_error (&err, WB_E_ENGINE, "the engine's exit line does not parse: %.64s", line);
      o_fail (r, &err);
      break;
    case ENG_RUN_OTHER:
      break; /* a later helper's: skipped */
    }
  release (r);
}

/* The exchange ended: whatever was not told is told now, in order. */
static void
o_end (void *arg, int rc, const wb_err_t *err)
{
  sbx_run_t *r = arg;
  wb_err_t e;
  int status = eng_attach_status (r->attach);

  hold (r);
  if (rc < 0)
    e = *err;
  else
    /* The helper ends a run's stream only after the exit, or when the
     * container is removed (never while warmboxd runs it): it went away. */
    wb_error (&e, WB_E_ENGINE_DOWN,
              "the engine's connection ended without the container's exit (the engine went away)");
  if (!r->started_told)
    {
      /* Any answer but the 101 comes before the helper begins anything
       * (404, 409, a 500 that could not attach), and a connection never
       * made reached nobody: it did not start.  Cut after its 101: it
       * may have. */
      wb_err_t se = e;
      wb_err_wrap (&se, "running the container");
      tell_started (r, -1, status == -1 || (status > 0 && status != 101), &se);
    }
  tell_exited (r, -1, 0, &e);
  tell_output_end (r, rc, rc < 0 ? err : NULL);
  release (r);
}

static const eng_attach_cbs_t o_attach_cbs = {o_ready, on_data, o_end};

/* ---- the interface ---------------------------------------------------- */

sbx_run_t *
sbx_run_open (sbx_t *s, const char *id, const sbx_run_cbs_t *cbs, void *arg, wb_err_t *err)
{
  sbx_run_t *r = calloc (1, sizeof *r);

  if (r == NULL)
    {
      wb_error (err, WB_E_NOMEM, "out of memory");
      return NULL;
    }
  r->s = s;
  r->eng = sbx_engine (s);
  snprintf (r->id, sizeof r->id, "%s", id);
  r->cbs = *cbs;
  r->arg = arg;
  r->one_request = sbx_one_request (s);
  if (r->one_request)
    {
      /* Nothing to open: the exchange is the start. */
      if (soon (r, err) < 0)
        goto fail;
      return r;
    }
  r->attach = eng_attach_open (r->eng, r->id, &d_attach_cbs, r, err);
  if (r->attach == NULL)
    goto fail;
  r->wait_req = eng_container_wait (r->eng, r->id, d_wait_armed, d_wait_cb, r, err);
  if (r->wait_req == NULL)
    goto fail;
  return r;

fail:
  run_destroy (r);
  return NULL;
}

int
sbx_run_input (sbx_run_t *r, const void *data, size_t len, wb_err_t *err)
{
  if (r->input_given || r->start_sent)
    return wb_error (err, WB_E_INTERNAL, "the input was given already");
  r->input_given = true;
  if (r->one_request)
    {
      if (wb_buf_append (&r->frame, data, len) < 0)
        return wb_error (err, WB_E_NOMEM, "out of memory keeping the input");
      return 0;
    }
  if (eng_attach_write (r->attach, data, len) < 0)
    {
      eng_attach_close_stdin (r->attach);
      return wb_error (err, WB_E_NOMEM, "the input could not be queued");
    }
  eng_attach_close_stdin (r->attach);
  return 0;
}

int
sbx_run_start (sbx_run_t *r, wb_err_t *err)
{
  if (r->start_sent)
    return wb_error (err, WB_E_INTERNAL, "started already");
  if (r->one_request)
    {
      r->attach = eng_run_open (r->eng, r->id, r->frame.data ? r->frame.data : "", r->frame.len,
                                &o_attach_cbs, o_event, r, err);
      /* Our copy of the input goes now: the connection holds its own. */
      if (r->frame.data)
        explicit_bzero (r->frame.data, r->frame.cap);
      wb_buf_free (&r->frame);
      if (r->attach == NULL)
        return -1;
      /* The Docker start's request has its bound; the run's start too. */
      long ms = eng_request_timeout_ms (r->eng);
      struct timeval tv = {ms / 1000, (ms % 1000) * 1000};
      if ((r->start_bound = evtimer_new (sbx_base (r->s), start_bound_cb, r)) == NULL
          || evtimer_add (r->start_bound, &tv) < 0)
        {
          eng_attach_free (r->attach);
          r->attach = NULL;
          return wb_error (err, WB_E_NOMEM, "cannot arm the start's bound (out of memory)");
        }
    }
  else if ((r->start_req = eng_container_start (r->eng, r->id, d_started_cb, r, err)) == NULL)
    return -1;
  r->start_sent = true;
  return 0;
}

static void
killed_cb (void *arg, const eng_result_t *res)
{
  sbx_run_t *r = arg;

  r->kill_req = NULL;
  if (res->rc < 0 && !r->exited_told)
    r->cbs.kill_failed (r->arg, &res->err);
}

int
sbx_run_kill (sbx_run_t *r, wb_err_t *err)
{
  if (r->kill_req)
    return 0;
  r->kill_sent = true;
  r->kill_req = eng_container_kill (r->eng, r->id, "SIGKILL", killed_cb, r, err);
  return r->kill_req ? 0 : -1;
}

int
sbx_run_oom (sbx_run_t *r, wb_err_t *err)
{
  if (r->one_request)
    {
      r->oom_asked = true;
      return soon (r, err);
    }
  if (r->op)
    return wb_error (err, WB_E_INTERNAL, "an inspect is in flight");
  r->op = eng_container_inspect (r->eng, r->id, d_oom_cb, r, err);
  return r->op ? 0 : -1;
}

void
sbx_run_mute (sbx_run_t *r)
{
  if (r->attach)
    eng_attach_pause (r->attach);
}

void
sbx_run_free (sbx_run_t *r)
{
  if (r == NULL || r->dead)
    return;
  r->dead = true;
  /* Nothing of it runs again: its streams and requests go now. */
  eng_attach_free (r->attach);
  r->attach = NULL;
  eng_req_cancel (r->wait_req);
  eng_req_cancel (r->start_req);
  eng_req_cancel (r->op);
  eng_req_cancel (r->kill_req);
  r->wait_req = r->start_req = r->op = r->kill_req = NULL;
  if (r->busy == 0)
    run_destroy (r);
}
