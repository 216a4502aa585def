/* The fake engine (tests/unit/fake_engine.c) keeps the contract of
 * include/warmbox/engine.h, runs its little programs, and injects the
 * faults it promises, on a real libevent loop.  Built with the fake,
 * tests/unit/failmalloc.c and tests/unit/vclock.c linked in (see
 * FAKE_TESTS in the Makefile): its latencies, sleeps and hangs run on the
 * virtual clock, and timing checks are lower bounds on that clock. */
#include "failmalloc.h"
#include "fake_engine.h"
#include "tap.h"
#include "vclock.h"

#include <cjson/cJSON.h>
#include <event2/event.h>
#include <string.h>

/* ---- harness --------------------------------------------------------- */

static struct event_base *base;
static struct event *guard;
static eng_t *eng;
static fake_engine_t *fe;
static int seq;       /* orders callbacks */
static int in_call;   /* > 0 inside an engine call made by the test */
static int reentrant; /* callbacks that ran inside such a call */

#define BODY                                                                                       \
  "{\"Image\":\"sha256:feed\",\"Labels\":{\"warmbox.test\":\"yes\"},"                              \
  "\"OpenStdin\":true,\"StdinOnce\":true,"                                                         \
  "\"HostConfig\":{\"ReadonlyRootfs\":true,\"CapDrop\":[\"ALL\"]}}"

/* An engine call, noting whether a callback runs from inside it. */
#define CALL(expr)                                                                                 \
  ({                                                                                               \
    in_call++;                                                                                     \
    __typeof__ (expr) v_ = (expr);                                                                 \
    in_call--;                                                                                     \
    v_;                                                                                            \
  })

static void
guard_cb (evutil_socket_t fd, short what, void *arg)
{
  (void) fd;
  (void) what;
  (void) arg;
}

/* On the virtual clock (tests/unit/vclock.h) libevent's coarse clock and
 * wb_now_ms's precise one are the same clock, and a timer fires at its
 * time, never before.  On the real one (WB_REAL_CLOCK=1) libevent's timers
 * run on CLOCK_MONOTONIC_COARSE (a tick is up to 4 ms, 10 on some
 * kernels): a timer may fire that much "early".  Timing checks (lower
 * bounds only) allow for it. */
#define TICK_MS (vclock_virtual () ? 0 : 10)

/* Run the loop until cond holds or ms pass; the value of cond.  The guard
 * wakes the loop every 10 ms so the deadline is seen. */
#define RUN_UNTIL(cond, ms)                                                                        \
  ({                                                                                               \
    uint64_t dl_ = wb_now_ms () + (uint64_t) (ms);                                                 \
    struct timeval tv_ = {0, 10000};                                                               \
    while (!(cond) && wb_now_ms () < dl_)                                                          \
      {                                                                                            \
        evtimer_add (guard, &tv_);                                                                 \
        event_base_loop (base, EVLOOP_ONCE);                                                       \
      }                                                                                            \
    evtimer_del (guard);                                                                           \
    (bool) (cond);                                                                                 \
  })
#define RUN_FOR(ms) ((void) RUN_UNTIL (false, ms))

static bool
eng_up (long timeout_ms)
{
  eng_config_t cfg;
  wb_err_t err;

  memset (&cfg, 0, sizeof cfg);
  cfg.request_timeout_ms = timeout_ms;
  if (eng_new (base, &cfg, &eng, &err) < 0)
    eng = NULL;
  fe = eng ? fake_engine_of (eng) : NULL;
  return eng != NULL;
}

static void
eng_down (void)
{
  eng_free (eng);
  eng = NULL;
  fe = NULL;
}

/* What one request's callback saw. */
typedef struct rec
{
  eng_req_t *req; /* cleared when answered */
  int n, armed;
  int order, armed_order;
  int rc;
  wb_err_t err;
  long http_status;
  bool not_started;
  char id[80];
  long exit_code;
  bool oom, running;
  char api[16];
  size_t n_ids;
  char ids[8][80];
  char values[8][80];
  bool has_value[8];
  uint64_t at_ms;
  /* re-entrancy tests */
  bool cancel_self;     /* eng_req_cancel on itself from its callback */
  bool cancel_in_armed; /* eng_req_cancel on itself from armed */
  eng_req_t **cancel_other;
  struct rec *start_ping; /* start a ping into this record */
} rec_t;

static void
rec_cb (void *arg, const eng_result_t *r)
{
  rec_t *x = arg;
  wb_err_t err;

  if (in_call)
    reentrant++;
  x->n++;
  x->order = ++seq;
  x->at_ms = wb_now_ms ();
  x->rc = r->rc;
  x->err = r->err;
  x->http_status = r->http_status;
  x->not_started = r->not_started;
  snprintf (x->id, sizeof x->id, "%s", r->id ? r->id : "");
  x->exit_code = r->exit_code;
  x->oom = r->oom_killed;
  x->running = r->running;
  snprintf (x->api, sizeof x->api, "%s", r->api_version ? r->api_version : "");
  x->n_ids = r->n_ids;
  for (size_t i = 0; i < r->n_ids && i < 8; i++)
    {
      snprintf (x->ids[i], sizeof x->ids[i], "%s", r->ids[i]);
      x->has_value[i] = r->values[i] != NULL;
      snprintf (x->values[i], sizeof x->values[i], "%s", r->values[i] ? r->values[i] : "");
    }
  if (x->cancel_self)
    eng_req_cancel (x->req); /* a no-op by contract */
  x->req = NULL;
  if (x->cancel_other)
    {
      eng_req_cancel (*x->cancel_other);
      *x->cancel_other = NULL;
    }
  if (x->start_ping)
    x->start_ping->req = CALL (eng_ping (eng, rec_cb, x->start_ping, &err));
}

static void
rec_armed (void *arg)
{
  rec_t *x = arg;

  if (in_call)
    reentrant++;
  x->armed++;
  x->armed_order = ++seq;
  if (x->cancel_in_armed)
    {
      eng_req_cancel (x->req);
      x->req = NULL;
    }
}

/* What one attach stream saw. */
typedef struct arec
{
  eng_attach_t *a;
  int ready, ends, data_calls;
  int ready_order, end_order;
  int end_rc;
  wb_err_t end_err;
  wb_buf_t out, err;
  uint64_t first_data_ms;
  const char *frame; /* written, then stdin closed, on ready */
  size_t frame_len;
  int write_rc;
  bool free_in_data, pause_in_data, free_on_end;
  bool data_lost; /* output the test's own memory could not keep (the allocation sweep) */
} arec_t;

static void
a_ready (void *arg)
{
  arec_t *x = arg;

  if (in_call)
    reentrant++;
  x->ready++;
  x->ready_order = ++seq;
  if (x->frame)
    {
      x->write_rc = eng_attach_write (x->a, x->frame, x->frame_len);
      eng_attach_close_stdin (x->a);
    }
}

static void
a_data (void *arg, int stream, const char *data, size_t len)
{
  arec_t *x = arg;

  if (in_call)
    reentrant++;
  if (x->data_calls++ == 0)
    x->first_data_ms = wb_now_ms ();
  if (wb_buf_append (stream == ENG_STREAM_STDERR ? &x->err : &x->out, data, len) < 0)
    x->data_lost = true;
  if (x->free_in_data)
    {
      eng_attach_free (x->a);
      x->a = NULL;
    }
  else if (x->pause_in_data)
    eng_attach_pause (x->a);
}

static void
a_end (void *arg, int rc, const wb_err_t *err)
{
  arec_t *x = arg;

  if (in_call)
    reentrant++;
  x->ends++;
  x->end_order = ++seq;
  x->end_rc = rc;
  if (err)
    x->end_err = *err;
  if (x->free_on_end)
    {
      eng_attach_free (x->a);
      x->a = NULL;
    }
}

static const eng_attach_cbs_t acbs = {a_ready, a_data, a_end};

static void
arec_clear (arec_t *x)
{
  eng_attach_free (x->a);
  wb_buf_free (&x->out);
  wb_buf_free (&x->err);
  memset (x, 0, sizeof *x);
}

/* "<code length>[ <arg length>...]\n<code><args...><stdin...>" */
/* -1 when memory runs out (only under the allocation sweep). */
static int
frame_build (wb_buf_t *f, const char *code, const char *const *args, size_t n_args, const char *in,
             size_t in_len)
{
  int bad = wb_buf_printf (f, "%zu", strlen (code));

  for (size_t i = 0; i < n_args; i++)
    bad |= wb_buf_printf (f, " %zu", strlen (args[i]));
  bad |= wb_buf_append (f, "\n", 1);
  bad |= wb_buf_append_str (f, code);
  for (size_t i = 0; i < n_args; i++)
    bad |= wb_buf_append_str (f, args[i]);
  bad |= wb_buf_append (f, in, in_len);
  return bad < 0 ? -1 : 0;
}

/* One container from create to exit, the way exec/exec.c drives it. */
typedef struct run
{
  rec_t create, wait, start;
  arec_t at;
  wb_buf_t frame;
  char id[80];
} run_t;

/* Create, attach (frame written and stdin closed on ready), arm a wait,
 * start.  False as soon as something fails. */
static bool
launch_frame (run_t *r, const char *body)
{
  wb_err_t err;

  r->at.frame = r->frame.data;
  r->at.frame_len = r->frame.len;
  if (CALL (eng_container_create (eng, NULL, body, rec_cb, &r->create, &err)) == NULL)
    return false;
  if (!RUN_UNTIL (r->create.n, 2000) || r->create.rc < 0)
    return false;
  snprintf (r->id, sizeof r->id, "%s", r->create.id);
  r->at.a = CALL (eng_attach_open (eng, r->id, &acbs, &r->at, &err));
  if (r->at.a == NULL)
    return false;
  r->wait.req = CALL (eng_container_wait (eng, r->id, rec_armed, rec_cb, &r->wait, &err));
  if (r->wait.req == NULL)
    return false;
  RUN_UNTIL ((r->at.ready && r->wait.armed) || r->at.ends || r->wait.n, 2000);
  if (!r->at.ready || !r->wait.armed || r->at.ends || r->wait.n)
    return false;
  if (CALL (eng_container_start (eng, r->id, rec_cb, &r->start, &err)) == NULL)
    return false;
  return RUN_UNTIL (r->start.n, 2000) && r->start.rc == 0;
}

static bool
launch (run_t *r, const char *code, const char *const *args, size_t n_args, const char *in,
        size_t in_len)
{
  must (frame_build (&r->frame, code, args, n_args, in, in_len));
  return launch_frame (r, BODY);
}

/* Until both the exit status and the end of the output are in. */
static bool
run_finish (run_t *r, long ms)
{
  return RUN_UNTIL (r->wait.n && r->at.ends, ms);
}

static void
run_clear (run_t *r)
{
  eng_req_cancel (r->wait.req);
  arec_clear (&r->at);
  wb_buf_free (&r->frame);
  memset (r, 0, sizeof *r);
}

static bool
is_hex64 (const char *s)
{
  size_t n = strlen (s);
  if (n != 64)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return false;
  return true;
}

/* ---- tests ----------------------------------------------------------- */

static void
test_ping_images (void)
{
  static const fake_image_t images[] = {{"python:3.12", "sha256:abc123", NULL}};
  rec_t p = {0}, known = {0}, unknown = {0};
  wb_err_t err;

  fake_engine_config_reset ();
  fake_engine_config.images = images;
  fake_engine_config.n_images = 1;
  ok (eng_up (0), "eng_new makes a fake engine");
  ok (fake_engine_current () == fe, "it is the current fake");
  fake_engine_config_reset ();

  p.req = CALL (eng_ping (eng, rec_cb, &p, &err));
  ok (p.req != NULL && p.n == 0, "ping is queued, not answered from inside the call");
  RUN_UNTIL (p.n, 1000);
  ok (p.n == 1 && p.rc == 0, "ping answers once");
  is_str (p.api, "1.41", "ping: api_version 1.41");

  CALL (eng_image_inspect (eng, "python:3.12", rec_cb, &known, &err));
  CALL (eng_image_inspect (eng, "ruby:9", rec_cb, &unknown, &err));
  RUN_UNTIL (known.n && unknown.n, 1000);
  is_str (known.id, "sha256:abc123", "image inspect: the configured id");
  ok (unknown.rc < 0 && unknown.err.code == WB_E_NOT_FOUND && unknown.err.engine_status == 404,
      "image inspect: an unknown image is WB_E_NOT_FOUND, engine_status 404");
  ok (CALL (eng_image_inspect (eng, "a b", rec_cb, &unknown, &err)) == NULL
          && err.code == WB_E_INVALID,
      "image inspect: a bad name is refused at once");
  is_int (fake_engine_calls (fe, FAKE_OP_ANY), 3, "three calls counted (the refused one not)");
  is_int (fake_engine_calls (fe, FAKE_OP_IMAGE_INSPECT), 2, "two of them image inspects");
  eng_down ();
  ok (fake_engine_current () == NULL, "no current fake after eng_free");
}

static void
test_create (void)
{
  rec_t bad = {0}, a = {0}, b = {0};
  wb_err_t err;
  fake_container_t *c;
  const cJSON *spec;

  eng_up (0);
  CALL (eng_container_create (eng, NULL, "{not json", rec_cb, &bad, &err));
  CALL (eng_container_create (eng, NULL, BODY, rec_cb, &a, &err));
  CALL (eng_container_create (eng, NULL, "{\"Labels\":{\"k\":\"v\"}}", rec_cb, &b, &err));
  RUN_UNTIL (bad.n && a.n && b.n, 1000);
  ok (bad.rc < 0 && bad.err.code == WB_E_ENGINE && bad.err.engine_status == 400,
      "create: a body that is not JSON is a 400 engine error");
  ok (a.rc == 0 && is_hex64 (a.id), "create: a 64-hex-digit id");
  ok (b.rc == 0 && strcmp (a.id, b.id) != 0, "create: ids differ");
  ok (bad.order < a.order && a.order < b.order, "answers come in the order of the calls");
  c = fake_engine_container (fe, a.id);
  ok (c != NULL && fake_container_state (c) == FAKE_CREATED, "the container exists, created");
  is_str (fake_container_label (c, "warmbox.test"), "yes", "its labels are parsed");
  ok (fake_container_label (c, "nope") == NULL, "a missing label is NULL");
  is_str (fake_container_body (c), BODY, "the create body is kept as sent");
  spec = fake_container_spec (c);
  ok (cJSON_IsTrue (cJSON_GetObjectItemCaseSensitive (
          cJSON_GetObjectItemCaseSensitive (spec, "HostConfig"), "ReadonlyRootfs")),
      "and parsed, for hardening checks");
  ok (fake_engine_containers (fe) == c
          && fake_container_next (c) == fake_engine_container (fe, b.id)
          && fake_container_next (fake_engine_container (fe, b.id)) == NULL,
      "iteration in creation order");
  is_int (fake_engine_stats (fe).created, 2, "stats: 2 created");
  is_int (fake_engine_stats (fe).live, 2, "stats: 2 live");
  is_int (fake_engine_stats (fe).requests, 0, "stats: no request left");
  eng_down ();
}

/* A create may name its container; a lost answer leaves what was done. */
static void
test_names_lost (void)
{
  rec_t a = {0}, dup = {0}, lost = {0}, rm = {0}, rm2 = {0};
  fake_engine_faults_t *f;
  fake_container_t *c;
  wb_err_t err;

  eng_up (0);
  ok (eng_container_create (eng, "a/b", BODY, rec_cb, &a, &err) == NULL && err.code == WB_E_INVALID,
      "name: one that could leave the path is refused at once");
  CALL (eng_container_create (eng, "wb-x-1", BODY, rec_cb, &a, &err));
  CALL (eng_container_create (eng, "wb-x-1", BODY, rec_cb, &dup, &err));
  RUN_UNTIL (a.n && dup.n, 1000);
  c = fake_engine_container (fe, "wb-x-1");
  ok (a.rc == 0 && c != NULL && strcmp (fake_container_id (c), a.id) == 0
          && strcmp (fake_container_name (c), "wb-x-1") == 0,
      "name: the container is found by it");
  ok (dup.rc < 0 && dup.err.engine_status == 409, "name: taken, a second create is a 409");

  f = fake_engine_faults (fe);
  f->op = FAKE_OP_CREATE;
  f->lost_call = fake_engine_calls (fe, FAKE_OP_CREATE) + 1;
  CALL (eng_container_create (eng, "wb-x-2", BODY, rec_cb, &lost, &err));
  RUN_UNTIL (lost.n, 1000);
  ok (lost.rc < 0 && lost.err.code == WB_E_ENGINE_DOWN && lost.err.engine_status == 0,
      "lost: WB_E_ENGINE_DOWN, no engine status");
  ok (fake_engine_container (fe, "wb-x-2") != NULL, "lost: the engine made it all the same");
  CALL (eng_container_remove (eng, "wb-x-2", rec_cb, &rm, &err));
  CALL (eng_container_remove (eng, "wb-x-2", rec_cb, &rm2, &err));
  RUN_UNTIL (rm.n && rm2.n, 1000);
  ok (rm.rc == 0 && fake_engine_container (fe, "wb-x-2") == NULL,
      "lost: it is removed by its name");
  ok (rm2.rc == 0 && rm2.http_status == 404, "lost: removed again, 404 (gone)");
  eng_down ();
}

static void
test_run_script (void)
{
  run_t r = {0};
  rec_t ins = {0};
  wb_err_t err;
  fake_container_t *c;
  size_t in_len;
  const char *in;

  eng_up (0);
  ok (launch (&r, "out hello; err oops\nexit 3", NULL, 0, "", 0), "a script is launched");
  ok (r.at.write_rc == 0, "the frame was written on ready");
  ok (r.wait.armed_order < r.start.order, "the wait was armed before start answered");
  ok (run_finish (&r, 2000), "it exits and its output ends");
  is_int (r.wait.rc, 0, "wait: success");
  is_int (r.wait.exit_code, 3, "wait: exit 3");
  is_str (r.at.out.data, "hello\n", "out: stdout");
  is_str (r.at.err.data, "oops\n", "err: stderr");
  ok (r.at.ends == 1 && r.at.end_rc == 0, "on_end(0) once");
  ok (r.wait.order < r.at.end_order, "the wait answers before the stream ends");
  c = fake_engine_container (fe, r.id);
  ok (c && fake_container_state (c) == FAKE_EXITED && fake_container_exit_code (c) == 3,
      "the container is exited, code 3");
  in = fake_container_stdin (c, &in_len);
  ok (in_len == r.frame.len && memcmp (in, r.frame.data, in_len) == 0
          && fake_container_stdin_closed (c),
      "its stdin holds the frame, closed");
  is_int (fake_container_starts (c), 1, "started once");
  CALL (eng_container_inspect (eng, r.id, rec_cb, &ins, &err));
  RUN_UNTIL (ins.n, 1000);
  ok (ins.rc == 0 && ins.exit_code == 3 && !ins.running && !ins.oom,
      "inspect: exit 3, not running, not OOM");
  is_int (fake_engine_stats (fe).started, 1, "stats: 1 started");
  run_clear (&r);
  eng_down ();
}

static void
test_echo_args (void)
{
  static const char *const args[] = {"a1", "two words", ""};
  static const char in[] = "input\0bytes";
  static const char want[] = "a1\ntwo words\n\ninput\0bytes";
  run_t r = {0};

  eng_up (0);
  ok (launch (&r, "args;echo", args, 3, in, sizeof in - 1) && run_finish (&r, 2000),
      "args; echo runs");
  ok (r.at.out.len == sizeof want - 1 && memcmp (r.at.out.data, want, sizeof want - 1) == 0,
      "args one per line, then stdin byte for byte");
  is_int (r.wait.exit_code, 0, "the end of the script exits 0");
  run_clear (&r);
  eng_down ();
}

static void
test_flood (void)
{
  run_t r = {0};
  size_t xs = 0;

  eng_up (0);
  ok (launch (&r, "flood 300000; out done", NULL, 0, "", 0) && run_finish (&r, 5000), "flood runs");
  for (size_t i = 0; i < r.at.out.len && r.at.out.data[i] == 'x'; i++)
    xs++;
  is_int (xs, 300000, "300000 x");
  ok (r.at.out.len == 300005 && strcmp (r.at.out.data + 300000, "done\n") == 0,
      "then the rest of the script");
  ok (r.at.data_calls >= 6, "in chunks of at most 64 KiB (%d deliveries)", r.at.data_calls);
  run_clear (&r);
  eng_down ();
}

static void
test_bad_programs (void)
{
  run_t r = {0}, f = {0};

  eng_up (0);
  ok (launch (&r, "out a; frobnicate; out b", NULL, 0, "", 0) && run_finish (&r, 2000),
      "an unknown command");
  is_str (r.at.err.data, "fake: unknown command\n", "says so on stderr");
  is_str (r.at.out.data, "a\n", "after what came before");
  is_int (r.wait.exit_code, 2, "and exits 2");
  must (wb_buf_append_str (&f.frame, "12 x\nshort"));
  ok (launch_frame (&f, BODY) && run_finish (&f, 2000), "a malformed frame");
  is_str (f.at.err.data, "fake: bad stdin frame\n", "says so on stderr");
  is_int (f.wait.exit_code, 2, "and exits 2");
  run_clear (&r);
  run_clear (&f);
  eng_down ();
}

static void
test_kill (void)
{
  run_t r = {0};
  rec_t ins = {0}, k = {0}, k2 = {0}, k3 = {0};
  wb_err_t err;

  eng_up (0);
  ok (launch (&r, "out started; hang", NULL, 0, "", 0), "a hanging program");
  RUN_UNTIL (r.at.out.len > 0, 1000);
  is_str (r.at.out.data, "started\n", "it wrote before hanging");
  RUN_FOR (50);
  CALL (eng_container_inspect (eng, r.id, rec_cb, &ins, &err));
  RUN_UNTIL (ins.n, 1000);
  ok (ins.running && r.wait.n == 0 && r.at.ends == 0, "it still runs 50 ms later");
  CALL (eng_container_kill (eng, r.id, "SIGKILL", rec_cb, &k, &err));
  ok (run_finish (&r, 1000), "kill ends it");
  ok (k.rc == 0 && k.http_status == 204, "kill: success");
  is_int (r.wait.exit_code, 137, "exit 137");
  ok (r.at.ends == 1 && r.at.end_rc == 0, "the stream ends cleanly");
  CALL (eng_container_kill (eng, r.id, "SIGKILL", rec_cb, &k2, &err));
  CALL (eng_container_kill (eng, "0123abcd", "SIGKILL", rec_cb, &k3, &err));
  RUN_UNTIL (k2.n && k3.n, 1000);
  ok (k2.rc == 0 && k2.http_status == 409, "kill of an exited container: success (409)");
  ok (k3.rc == 0 && k3.http_status == 404, "kill of an unknown container: success (404)");
  ok (CALL (eng_container_kill (eng, "a/b", "SIGKILL", rec_cb, &k3, &err)) == NULL
          && err.code == WB_E_INVALID,
      "a bad id is refused at once");
  run_clear (&r);
  eng_down ();
}

typedef struct deadline
{
  char id[80];
  rec_t kill;
} deadline_t;

/* An execution's deadline: SIGKILL. */
static void
deadline_cb (evutil_socket_t fd, short what, void *arg)
{
  deadline_t *d = arg;
  wb_err_t err;

  (void) fd;
  (void) what;
  d->kill.req = eng_container_kill (eng, d->id, "SIGKILL", rec_cb, &d->kill, &err);
}

static void
test_sleep_timeout (void)
{
  run_t r = {0}, s = {0};
  deadline_t d = {0};
  struct event *deadline = evtimer_new (base, deadline_cb, &d);
  struct timeval tv = {0, 50000};
  uint64_t t0;

  eng_up (0);
  ok (launch (&r, "sleep 10000; out never", NULL, 0, "", 0), "a program sleeping 10 s");
  snprintf (d.id, sizeof d.id, "%s", r.id);
  t0 = wb_now_ms ();
  evtimer_add (deadline, &tv);
  ok (run_finish (&r, 2000), "ends at the deadline's kill");
  ok (wb_now_ms () - t0 >= 50 - TICK_MS, "not before the deadline's 50 ms (%llu)",
      (unsigned long long) (wb_now_ms () - t0));
  ok (d.kill.n == 1 && d.kill.rc == 0, "the kill succeeded");
  is_int (r.wait.exit_code, 137, "killed: 137");
  ok (r.at.out.len == 0, "no output");
  event_free (deadline);

  t0 = wb_now_ms ();
  ok (launch (&s, "sleep 40; out late", NULL, 0, "", 0) && run_finish (&s, 2000),
      "a program sleeping 40 ms");
  is_str (s.at.out.data, "late\n", "writes after its sleep");
  ok (s.at.first_data_ms - t0 >= 40 - TICK_MS, "not before 40 ms (%llu)",
      (unsigned long long) (s.at.first_data_ms - t0));
  run_clear (&r);
  run_clear (&s);
  eng_down ();
}

static void
test_oom (void)
{
  run_t r = {0};
  rec_t ins = {0};
  wb_err_t err;

  eng_up (0);
  ok (launch (&r, "out x; oom", NULL, 0, "", 0) && run_finish (&r, 2000), "oom runs");
  is_int (r.wait.exit_code, 137, "exit 137");
  CALL (eng_container_inspect (eng, r.id, rec_cb, &ins, &err));
  RUN_UNTIL (ins.n, 1000);
  ok (ins.rc == 0 && ins.oom && ins.exit_code == 137, "inspect: OOMKilled");
  run_clear (&r);
  eng_down ();
}

static void
test_double_start (void)
{
  run_t r = {0}, h = {0};
  rec_t s1 = {0}, s2 = {0}, s3 = {0};
  wb_err_t err;

  eng_up (0);
  ok (launch (&r, "exit 0", NULL, 0, "", 0) && run_finish (&r, 2000), "a program ran");
  is_int (fake_engine_stats (fe).double_starts, 0, "no double start yet");
  CALL (eng_container_start (eng, r.id, rec_cb, &s1, &err));
  RUN_UNTIL (s1.n, 1000);
  ok (s1.rc < 0 && s1.err.code == WB_E_ENGINE && s1.http_status == 304
          && strstr (s1.err.msg, "already started"),
      "a second start is an engine error, already started");
  ok (!s1.not_started, "... which does not say the container did not start (it runs)");
  is_int (fake_engine_stats (fe).double_starts, 1, "counted as a double start");
  is_int (fake_container_starts (fake_engine_container (fe, r.id)), 2, "two starts reached it");
  ok (launch (&h, "hang", NULL, 0, "", 0), "a running program");
  CALL (eng_container_start (eng, h.id, rec_cb, &s2, &err));
  CALL (eng_container_start (eng, "feedfeed", rec_cb, &s3, &err));
  RUN_UNTIL (s2.n && s3.n, 1000);
  ok (s2.rc < 0 && fake_engine_stats (fe).double_starts == 2, "starting it again: counted");
  ok (s3.rc < 0 && s3.err.code == WB_E_NOT_FOUND && s3.err.engine_status == 404,
      "start of an unknown container: not found");
  ok (s3.not_started, "... and it says the container did not start");
  run_clear (&r);
  run_clear (&h);
  eng_down ();
}

static void
test_wait_remove (void)
{
  run_t r = {0}, h = {0};
  rec_t create = {0}, w1 = {0}, w2 = {0}, w3 = {0}, rm1 = {0}, rm2 = {0}, rm3 = {0}, rm4 = {0};
  wb_err_t err;
  fake_engine_stats_t st;
  char created_id[80];

  eng_up (0);
  CALL (eng_container_wait (eng, "cafe", rec_armed, rec_cb, &w1, &err));
  RUN_UNTIL (w1.n, 1000);
  ok (w1.rc < 0 && w1.err.code == WB_E_NOT_FOUND && w1.armed == 0,
      "wait on an unknown container: not found, never armed");

  ok (launch (&r, "exit 5", NULL, 0, "", 0) && run_finish (&r, 2000), "a program exited");
  CALL (eng_container_wait (eng, r.id, rec_armed, rec_cb, &w2, &err));
  RUN_FOR (50);
  ok (w2.armed == 1 && w2.n == 0, "next-exit on an exited container waits");
  CALL (eng_container_remove (eng, r.id, rec_cb, &rm1, &err));
  RUN_UNTIL (w2.n && rm1.n, 1000);
  ok (rm1.rc == 0 && w2.rc == 0 && w2.exit_code == 5, "removal wakes it with the exit code");
  ok (fake_engine_container (fe, r.id) == NULL, "the container is gone");

  CALL (eng_container_create (eng, NULL, BODY, rec_cb, &create, &err));
  RUN_UNTIL (create.n, 1000);
  snprintf (created_id, sizeof created_id, "%s", create.id);
  CALL (eng_container_wait (eng, created_id, rec_armed, rec_cb, &w3, &err));
  RUN_UNTIL (w3.armed, 1000);
  CALL (eng_container_remove (eng, created_id, rec_cb, &rm2, &err));
  RUN_UNTIL (w3.n && rm2.n, 1000);
  ok (w3.rc == 0 && w3.exit_code == 0, "a created container's removal: wait answers 0");

  ok (launch (&h, "out x; hang", NULL, 0, "", 0), "a running program with a stream and a wait");
  st = fake_engine_stats (fe);
  CALL (eng_container_remove (eng, h.id, rec_cb, &rm3, &err));
  ok (run_finish (&h, 1000) && RUN_UNTIL (rm3.n, 1000), "remove (force) of a running container");
  ok (rm3.rc == 0 && h.wait.exit_code == 137 && h.at.end_rc == 0,
      "it is killed: wait 137, the stream ends");
  ok (fake_engine_stats (fe).live == st.live - 1
          && fake_engine_stats (fe).removed == st.removed + 1,
      "stats: one fewer live, one more removed");
  CALL (eng_container_remove (eng, h.id, rec_cb, &rm4, &err));
  RUN_UNTIL (rm4.n, 1000);
  ok (rm4.rc == 0 && rm4.http_status == 404, "removing it again: success (404)");
  run_clear (&r);
  run_clear (&h);
  eng_down ();
}

static void
test_list (void)
{
  static const char *const bodies[] = {
      "{\"Labels\":{\"warmbox.owner\":\"h/a\"}}",
      "{\"Labels\":{\"other\":\"1\"}}",
      "{\"Labels\":{\"warmbox.owner\":\"h/b\",\"x\":\"1\"}}",
  };
  rec_t c[3] = {{0}}, l1 = {0}, l2 = {0}, l3 = {0}, l4 = {0};
  wb_err_t err;

  eng_up (0);
  for (int i = 0; i < 3; i++)
    CALL (eng_container_create (eng, NULL, bodies[i], rec_cb, &c[i], &err));
  RUN_UNTIL (c[2].n, 1000);
  CALL (eng_container_list (eng, "warmbox.owner", "warmbox.owner", rec_cb, &l1, &err));
  CALL (eng_container_list (eng, "warmbox.owner", NULL, rec_cb, &l2, &err));
  CALL (eng_container_list (eng, "x=1", "other", rec_cb, &l3, &err));
  CALL (eng_container_list (eng, "nothing", "x", rec_cb, &l4, &err));
  RUN_UNTIL (l4.n, 1000);
  ok (l1.rc == 0 && l1.n_ids == 2 && strcmp (l1.ids[0], c[0].id) == 0
          && strcmp (l1.ids[1], c[2].id) == 0,
      "list by label: the two containers that have it");
  ok (strcmp (l1.values[0], "h/a") == 0 && strcmp (l1.values[1], "h/b") == 0,
      "with their values of the asked label");
  ok (l2.n_ids == 2 && !l2.has_value[0] && !l2.has_value[1], "no value_key: values NULL");
  ok (l3.n_ids == 1 && strcmp (l3.ids[0], c[2].id) == 0 && !l3.has_value[0],
      "key=value filter; a label it lacks is NULL");
  ok (l4.rc == 0 && l4.n_ids == 0, "no match: an empty list");
  eng_down ();
}

static void
test_faults (void)
{
  rec_t p1 = {0}, p2 = {0}, p3 = {0}, cr = {0}, ins = {0}, w = {0}, g = {0}, n = {0};
  arec_t af = {0}, ah = {0}, ag = {0}, a404 = {0};
  fake_engine_faults_t *f;
  fake_engine_stats_t st;
  wb_err_t err;
  uint64_t t0;
  run_t r = {0};

  eng_up (60);
  f = fake_engine_faults (fe);

  /* fail */
  f->fail_call = fake_engine_calls (fe, FAKE_OP_ANY) + 1;
  CALL (eng_ping (eng, rec_cb, &p1, &err));
  CALL (eng_ping (eng, rec_cb, &p2, &err));
  RUN_UNTIL (p1.n && p2.n, 1000);
  ok (p1.rc < 0 && p1.err.code == WB_E_ENGINE_DOWN && p1.err.engine_status == 0,
      "fail: that call answers WB_E_ENGINE_DOWN, no engine status");
  ok (p2.rc == 0, "fail: only that call");

  /* fail, counting creates only */
  fake_engine_reset_faults (fe);
  f->op = FAKE_OP_CREATE;
  f->fail_call = fake_engine_calls (fe, FAKE_OP_CREATE) + 1;
  st = fake_engine_stats (fe);
  CALL (eng_ping (eng, rec_cb, &p3, &err));
  CALL (eng_container_create (eng, NULL, BODY, rec_cb, &cr, &err));
  RUN_UNTIL (p3.n && cr.n, 1000);
  ok (p3.rc == 0 && cr.rc < 0 && cr.err.code == WB_E_ENGINE_DOWN,
      "fail with op: the next create fails, a ping is not touched");
  is_int (fake_engine_stats (fe).created, st.created, "a failed create creates nothing");

  /* hang: an inspect times out after request_timeout_ms */
  fake_engine_reset_faults (fe);
  f->op = FAKE_OP_INSPECT;
  f->hang_call = fake_engine_calls (fe, FAKE_OP_INSPECT) + 1;
  t0 = wb_now_ms ();
  CALL (eng_container_inspect (eng, "abc", rec_cb, &ins, &err));
  RUN_FOR (20);
  ok (ins.n == 0, "hang: no answer yet");
  RUN_UNTIL (ins.n, 2000);
  ok (ins.rc < 0 && ins.err.code == WB_E_ENGINE_DOWN && strstr (ins.err.msg, "Timeout"),
      "hang: WB_E_ENGINE_DOWN, timed out");
  ok (ins.at_ms - t0 >= 60 - TICK_MS, "after the request timeout (%llu ms)",
      (unsigned long long) (ins.at_ms - t0));

  /* hang: a wait has no timeout */
  fake_engine_reset_faults (fe);
  f->hang_call = fake_engine_calls (fe, FAKE_OP_ANY) + 1;
  w.req = CALL (eng_container_wait (eng, "abc", rec_armed, rec_cb, &w, &err));
  RUN_FOR (150);
  ok (w.n == 0 && w.armed == 0, "hang: a wait is never answered, never armed");
  eng_req_cancel (w.req);
  is_int (fake_engine_stats (fe).requests, 0, "and can be cancelled");

  /* garbage: performed, the reply unreadable */
  fake_engine_reset_faults (fe);
  f->op = FAKE_OP_CREATE;
  f->garbage_call = fake_engine_calls (fe, FAKE_OP_CREATE) + 1;
  st = fake_engine_stats (fe);
  CALL (eng_container_create (eng, NULL, BODY, rec_cb, &g, &err));
  RUN_UNTIL (g.n, 1000);
  ok (g.rc < 0 && g.err.code == WB_E_ENGINE && strstr (g.err.msg, "not JSON"),
      "garbage: WB_E_ENGINE, reply is not JSON");
  is_int (fake_engine_stats (fe).live, st.live + 1, "garbage: the container was created anyway");

  /* garbage on a wait: armed, then an unreadable exit status */
  fake_engine_reset_faults (fe);
  f->op = FAKE_OP_WAIT;
  f->garbage_call = fake_engine_calls (fe, FAKE_OP_WAIT) + 1;
  ok (launch (&r, "exit 1", NULL, 0, "", 0) && run_finish (&r, 2000), "garbage wait: runs");
  ok (r.wait.armed == 1 && r.wait.rc < 0 && r.wait.err.code == WB_E_ENGINE,
      "garbage wait: armed, then an engine error at exit");
  run_clear (&r);

  /* null: NULL at once, never a callback */
  fake_engine_reset_faults (fe);
  f->null_call = fake_engine_calls (fe, FAKE_OP_ANY) + 1;
  memset (&err, 0, sizeof err);
  ok (CALL (eng_ping (eng, rec_cb, &n, &err)) == NULL && err.code == WB_E_NOMEM,
      "null: the call returns NULL with WB_E_NOMEM");
  RUN_FOR (20);
  ok (n.n == 0 && fake_engine_stats (fe).requests == 0, "null: no callback, nothing queued");

  /* attach: fail, hang, garbage, null, 404 */
  fake_engine_reset_faults (fe);
  f->op = FAKE_OP_ATTACH;
  f->fail_call = fake_engine_calls (fe, FAKE_OP_ATTACH) + 1;
  f->hang_call = f->fail_call + 1;
  f->garbage_call = f->fail_call + 2;
  f->null_call = f->fail_call + 3;
  ok (launch (&r, "hang", NULL, 0, "", 0) == false && r.at.ends == 1 && r.at.ready == 0
          && r.at.end_rc < 0 && r.at.end_err.code == WB_E_ENGINE_DOWN,
      "attach fail: on_end(-1, WB_E_ENGINE_DOWN), no on_ready");
  af = r.at; /* the container stays; attach to it again */
  memset (&r.at, 0, sizeof r.at);
  arec_clear (&af);
  t0 = wb_now_ms ();
  ah.a = CALL (eng_attach_open (eng, r.id, &acbs, &ah, &err));
  RUN_FOR (20);
  ok (ah.a && ah.ends == 0, "attach hang: nothing yet");
  RUN_UNTIL (ah.ends, 2000);
  ok (ah.ready == 0 && ah.end_rc < 0 && ah.end_err.code == WB_E_ENGINE_DOWN
          && wb_now_ms () - t0 >= 60 - TICK_MS,
      "attach hang: on_end(-1, WB_E_ENGINE_DOWN) after the request timeout");
  ag.a = CALL (eng_attach_open (eng, r.id, &acbs, &ag, &err));
  RUN_UNTIL (ag.ends, 1000);
  ok (ag.ready == 1 && ag.ready_order < ag.end_order && ag.end_rc < 0
          && ag.end_err.code == WB_E_ENGINE && strstr (ag.end_err.msg, "malformed"),
      "attach garbage: on_ready, then on_end(-1, WB_E_ENGINE malformed stream)");
  ok (CALL (eng_attach_open (eng, r.id, &acbs, &a404, &err)) == NULL && err.code == WB_E_NOMEM,
      "attach null: NULL with WB_E_NOMEM");
  a404.a = CALL (eng_attach_open (eng, "nosuch", &acbs, &a404, &err));
  RUN_UNTIL (a404.ends, 1000);
  ok (a404.ready == 0 && a404.end_err.code == WB_E_NOT_FOUND && a404.end_err.engine_status == 404,
      "attach to an unknown container: on_end(-1, WB_E_NOT_FOUND), engine_status 404");
  arec_clear (&ah);
  arec_clear (&ag);
  arec_clear (&a404);
  run_clear (&r);

  /* down */
  fake_engine_reset_faults (fe);
  ok (f->fail_call == 0 && f->hang_call == 0 && f->garbage_call == 0 && f->null_call == 0
          && f->op == FAKE_OP_ANY,
      "reset_faults: all knobs off");
  fake_engine_set_down (fe, true);
  memset (&p1, 0, sizeof p1);
  memset (&af, 0, sizeof af);
  CALL (eng_ping (eng, rec_cb, &p1, &err));
  af.a = CALL (eng_attach_open (eng, "abc", &acbs, &af, &err));
  ok (p1.n == 0 && af.ends == 0, "down: calls still answer later, not at once");
  RUN_UNTIL (p1.n && af.ends, 1000);
  ok (p1.rc < 0 && p1.err.code == WB_E_ENGINE_DOWN && af.end_err.code == WB_E_ENGINE_DOWN,
      "down: every call fails with WB_E_ENGINE_DOWN");
  fake_engine_set_down (fe, false);
  memset (&p2, 0, sizeof p2);
  CALL (eng_ping (eng, rec_cb, &p2, &err));
  RUN_UNTIL (p2.n, 1000);
  ok (p2.rc == 0, "up again: calls work");
  arec_clear (&af);
  eng_down ();
}

static void
test_lose (void)
{
  run_t r = {0};
  rec_t ins = {0}, cr = {0}, p = {0}, ins2 = {0};
  wb_err_t err;
  fake_engine_stats_t st;
  fake_container_t *c;

  eng_up (5000);
  ok (launch (&r, "out up; hang", NULL, 0, "", 0), "a running program, attached, waited on");
  RUN_UNTIL (r.at.out.len, 1000);
  fake_engine_faults (fe)->hang_call = fake_engine_calls (fe, FAKE_OP_ANY) + 1;
  CALL (eng_container_inspect (eng, r.id, rec_cb, &ins, &err)); /* hangs */
  fake_engine_set_latency (fe, 30);
  CALL (eng_container_create (eng, NULL, BODY, rec_cb, &cr, &err)); /* not answered yet */
  st = fake_engine_stats (fe);
  fake_engine_lose (fe);
  ok (r.wait.n == 0 && r.at.ends == 0 && ins.n == 0 && cr.n == 0,
      "lose: nothing answers from inside the call");
  RUN_UNTIL (r.wait.n && r.at.ends && ins.n && cr.n, 1000);
  ok (r.wait.rc < 0 && r.wait.err.code == WB_E_ENGINE_DOWN, "lose: the wait fails, engine down");
  ok (r.at.end_rc < 0 && r.at.end_err.code == WB_E_ENGINE_DOWN,
      "lose: the stream ends, engine down");
  ok (ins.rc < 0 && ins.err.code == WB_E_ENGINE_DOWN && strstr (ins.err.msg, "lost"),
      "lose: a hung request fails now");
  ok (cr.rc < 0 && cr.err.code == WB_E_ENGINE_DOWN, "lose: a pending create fails");
  is_int (fake_engine_stats (fe).created, st.created, "and created nothing");
  c = fake_engine_container (fe, r.id);
  ok (c && fake_container_state (c) == FAKE_EXITED && fake_container_exit_code (c) == 137,
      "the running container is exited, 137, and still there");
  CALL (eng_ping (eng, rec_cb, &p, &err));
  RUN_UNTIL (p.n, 1000);
  ok (p.rc < 0 && p.err.code == WB_E_ENGINE_DOWN, "the engine stays down");
  fake_engine_set_down (fe, false);
  fake_engine_set_latency (fe, 0);
  CALL (eng_container_inspect (eng, r.id, rec_cb, &ins2, &err));
  RUN_UNTIL (ins2.n, 1000);
  ok (ins2.rc == 0 && !ins2.running && ins2.exit_code == 137, "restarted: inspect says exited 137");
  is_int (fake_engine_stats (fe).requests, 0, "no request left");
  run_clear (&r);
  eng_down ();
}

static void
test_latency (void)
{
  rec_t p[3] = {{0}};
  wb_err_t err;
  uint64_t t0;

  eng_up (0);
  fake_engine_set_latency (fe, 30);
  t0 = wb_now_ms ();
  for (int i = 0; i < 3; i++)
    CALL (eng_ping (eng, rec_cb, &p[i], &err));
  RUN_FOR (10);
  ok (p[0].n == 0, "latency: not answered after 10 ms");
  RUN_UNTIL (p[2].n, 1000);
  ok (p[0].at_ms - t0 >= 30 - TICK_MS, "latency: answered after 30 ms (%llu)",
      (unsigned long long) (p[0].at_ms - t0));
  ok (p[0].order < p[1].order && p[1].order < p[2].order, "latency: in order");
  eng_down ();
}

static void
test_cancel (void)
{
  rec_t c = {0}, self = {0}, a = {0}, b = {0}, d = {0}, w = {0}, wa = {0};
  run_t r = {0};
  wb_err_t err;

  eng_up (0);
  c.req = CALL (eng_container_create (eng, NULL, BODY, rec_cb, &c, &err));
  eng_req_cancel (c.req);
  RUN_FOR (20);
  ok (c.n == 0, "a cancelled request is never answered");
  is_int (fake_engine_stats (fe).created, 0, "and was not performed");
  eng_req_cancel (NULL);

  self.cancel_self = true;
  self.req = CALL (eng_ping (eng, rec_cb, &self, &err));
  RUN_UNTIL (self.n, 1000);
  RUN_FOR (10);
  is_int (self.n, 1, "cancelling itself from its callback: a no-op, answered once");

  /* a's callback cancels b and starts d. */
  a.req = CALL (eng_ping (eng, rec_cb, &a, &err));
  b.req = CALL (eng_ping (eng, rec_cb, &b, &err));
  a.cancel_other = &b.req;
  a.start_ping = &d;
  RUN_UNTIL (a.n && d.n, 1000);
  RUN_FOR (10);
  ok (a.n == 1 && b.n == 0 && d.n == 1 && d.rc == 0,
      "a callback cancels another request and starts a new one");

  /* a registered wait, cancelled; then the container exits */
  ok (launch (&r, "sleep 20; exit 0", NULL, 0, "", 0), "a program runs");
  w.req = CALL (eng_container_wait (eng, r.id, rec_armed, rec_cb, &w, &err));
  RUN_UNTIL (w.armed, 1000);
  eng_req_cancel (w.req);
  wa.cancel_in_armed = true;
  wa.req = CALL (eng_container_wait (eng, r.id, rec_armed, rec_cb, &wa, &err));
  ok (run_finish (&r, 2000), "it exits");
  RUN_FOR (10);
  ok (w.n == 0 && wa.armed == 1 && wa.n == 0,
      "waits cancelled after and from inside armed: never answered");
  is_int (fake_engine_stats (fe).requests, 0, "no request left");
  run_clear (&r);
  eng_down ();
}

static void
test_attach_free_pause (void)
{
  run_t r = {0}, p = {0}, e = {0};
  fake_engine_stats_t st;

  eng_up (0);
  r.at.free_in_data = true;
  ok (launch (&r, "flood 300000; exit 0", NULL, 0, "", 0), "a flood, freed at its first output");
  RUN_UNTIL (r.wait.n, 2000);
  RUN_FOR (10);
  ok (r.at.data_calls == 1 && r.at.ends == 0 && r.at.a == NULL,
      "freed from inside on_data: no callback after it");
  is_int (r.wait.exit_code, 0, "the program goes on and exits");
  st = fake_engine_stats (fe);
  is_int (st.attaches, 0, "no attach left");

  p.at.pause_in_data = true;
  ok (launch (&p, "out a; sleep 20; out b; flood 100000", NULL, 0, "", 0) && run_finish (&p, 2000),
      "a program paused after its first output");
  ok (p.at.data_calls == 1 && strcmp (p.at.out.data, "a\n") == 0, "after pause: no on_data");
  ok (p.at.ends == 1 && p.at.end_rc == 0, "but on_end still comes");

  e.at.free_on_end = true;
  ok (launch (&e, "out z", NULL, 0, "", 0) && run_finish (&e, 2000) && e.at.a == NULL,
      "freed from inside on_end");
  run_clear (&r);
  run_clear (&p);
  run_clear (&e);
  eng_down ();
}

static void
test_free_pending (void)
{
  run_t r = {0};
  rec_t p = {0}, h = {0};
  wb_err_t err;
  int before;

  eng_up (0);
  ok (launch (&r, "out a; hang", NULL, 0, "", 0), "a running program");
  CALL (eng_ping (eng, rec_cb, &p, &err));
  fake_engine_faults (fe)->hang_call = fake_engine_calls (fe, FAKE_OP_ANY) + 1;
  CALL (eng_container_inspect (eng, r.id, rec_cb, &h, &err));
  before = seq;
  r.wait.req = NULL;
  r.at.a = NULL; /* eng_free closes it */
  eng_down ();
  RUN_FOR (20);
  ok (seq == before && p.n == 0 && h.n == 0 && r.wait.n == 0 && r.at.ends == 0,
      "eng_free with requests, a stream and a program under way: no callback");
  run_clear (&r);
}

/* Everything the fake does, for the allocation sweep.  Returns how many
 * answers never came: a request or stream that was opened must end, even
 * when an allocation failed on the way. */
static int
sweep_scenario (void)
{
  static const char *const args[] = {"one"};
  run_t r = {0}, h = {0};
  rec_t l = {0}, ins = {0}, rm = {0}, c = {0};
  wb_err_t err;
  int lost = 0;

  if (!eng_up (200))
    return 0;
  /* The sweep may fail the test's own allocations too: a frame cut short
   * is sent empty, and the fake answers it as malformed. */
  if (frame_build (&r.frame, "out hi; args; echo; err e; flood 70000; exit 4", args, 1, "in", 2)
      < 0)
    wb_buf_reset (&r.frame);
  if (launch_frame (&r, BODY))
    lost += !run_finish (&r, 2000);
  if (eng_container_list (eng, "warmbox.test", "warmbox.test", rec_cb, &l, &err))
    lost += !RUN_UNTIL (l.n, 1000);
  if (r.id[0] && eng_container_inspect (eng, r.id, rec_cb, &ins, &err))
    lost += !RUN_UNTIL (ins.n, 1000);
  if (r.id[0] && eng_container_remove (eng, r.id, rec_cb, &rm, &err))
    lost += !RUN_UNTIL (rm.n, 1000);
  c.req = eng_container_create (eng, NULL, BODY, rec_cb, &c, &err);
  eng_req_cancel (c.req);
  if (frame_build (&h.frame, "out up; hang", NULL, 0, "", 0) < 0)
    wb_buf_reset (&h.frame);
  if (launch_frame (&h, BODY))
    lost += !RUN_UNTIL (h.at.data_calls || h.at.ends, 1000);
  fake_engine_lose (fe);
  /* Whatever launch_frame got opened must end now. */
  lost += !RUN_UNTIL ((h.wait.n || !h.wait.req) && (h.at.ends || !h.at.a), 1000);
  run_clear (&r);
  run_clear (&h);
  eng_down ();
  return lost;
}

/* Fail each allocation of the scenario in turn (SQLite's way): nothing
 * crashes, no answer is lost, and under `make check` LeakSanitizer sees
 * every failure path for leaks. */
static void
test_alloc_failures (void)
{
  long n;
  int lost = 0, first_lost = 0;

  is_int (sweep_scenario (), 0, "the sweep's scenario runs whole");
  for (n = 1; n < 5000; n++)
    {
      int l;
      bool fired;

      failmalloc_arm (n);
      l = sweep_scenario ();
      fired = failmalloc_fired (); /* before arm (0), which clears it */
      failmalloc_arm (0);
      if (l && lost++ == 0)
        first_lost = (int) n;
      if (!fired)
        break;
    }
  ok (lost == 0, "allocation failures: no answer lost at any of %ld points (first at %d)", n - 1,
      first_lost);
  ok (n > 50 && n < 5000, "the sweep covered every allocation of the scenario (%ld)", n - 1);
}

int
main (void)
{
  failmalloc_install ();
  base = event_base_new ();
  guard = evtimer_new (base, guard_cb, NULL);
  if (base == NULL || guard == NULL)
    return 99;

  test_ping_images ();
  test_create ();
  test_names_lost ();
  test_run_script ();
  test_echo_args ();
  test_flood ();
  test_bad_programs ();
  test_kill ();
  test_sleep_timeout ();
  test_oom ();
  test_double_start ();
  test_wait_remove ();
  test_list ();
  test_faults ();
  test_lose ();
  test_latency ();
  test_cancel ();
  test_attach_free_pause ();
  test_free_pending ();
  test_alloc_failures ();
  is_int (reentrant, 0, "no callback ever ran from inside an engine call");
  is_int ((int) vclock_spins (), 0, "the loop never spun at one instant of the virtual clock");

  event_free (guard);
  event_base_free (base);
  return tap_done ();
}
