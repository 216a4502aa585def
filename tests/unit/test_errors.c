/* Error paths that say why (issue 22, "Errors"): a failure fills the
 * caller's wb_err_t instead of leaving it to guess, a setting is never
 * lost to a failed copy, and engine/ itself says a start did not run.
 * Allocation failures come from tests/unit/failmalloc.c; the engine's
 * answers from a one-shot HTTP server on a Unix socket. */
#define _GNU_SOURCE
#include "api/http.h"
#include "api/piston.h"
#include "api/result.h"
#include "exec/admission.h"
#include "failmalloc.h"
#include "nodes/startgate.h"
#include "tap.h"
#include "warmbox/engine.h"
#include "warmbox/store.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

static void
on_open (void *arg)
{
  (void) arg;
}

/* A full gate queues; without memory for the waiter it says so. */
static void
test_startgate (void)
{
  startgate_t g;
  start_waiter_t *w = NULL;
  wb_err_t err = {0};
  int rc;

  startgate_init (&g, &(startgate_config_t){1, 1, 1});
  ok (startgate_enter (&g, 0, on_open, NULL, &w, &err) == 1, "gate: the first start is admitted");
  failmalloc_arm (1);
  rc = startgate_enter (&g, 0, on_open, NULL, &w, &err);
  failmalloc_arm (0);
  ok (rc == -1 && err.code == WB_E_NOMEM && strstr (err.msg, "start slot"),
      "gate: no memory to queue: -1, WB_E_NOMEM, saying what for (%s)", err.msg);
  is_int (g.queued, 0, "gate: and nothing is queued");
  ok (startgate_enter (&g, 0, on_open, NULL, &w, &err) == 0 && g.queued == 1,
      "gate: with memory the next one queues");
  startgate_clear (&g);
}

/* A new client's record needs memory; a known client's does not. */
static void
test_admission (void)
{
  adm_queue_t q = {0};
  adm_node_t a = {0}, b = {0}, c = {0};
  wb_err_t err = {0};
  int rc;

  ok (adm_push (&q, "alice", &a, &err) == 0, "admission: alice queues");
  failmalloc_arm (1);
  rc = adm_push (&q, "bob", &b, &err);
  bool fired = failmalloc_fired ();
  failmalloc_arm (0);
  ok (fired && rc == -1 && err.code == WB_E_NOMEM && strstr (err.msg, "room to run"),
      "admission: no memory for bob's record: -1, WB_E_NOMEM (%s)", err.msg);
  ok (q.n == 1 && b.client == NULL, "admission: bob is not queued");
  failmalloc_arm (1);
  rc = adm_push (&q, "alice", &c, &err);
  fired = failmalloc_fired ();
  failmalloc_arm (0);
  ok (rc == 0 && !fired && q.n == 2, "admission: alice's second needs no allocation");
  adm_clear (&q);
}

/* Fail each allocation of an encoder in turn: every failure is -1 with
 * WB_E_NOMEM; the run that fails nothing encodes. */
typedef int (*encode_fn) (const sched_result_t *res, wb_buf_t *out, wb_err_t *err);

static int
encode_piston (const sched_result_t *res, wb_buf_t *out, wb_err_t *err)
{
  return sched_piston_result_json (res, "3.11.0", out, err);
}

static void
sweep_encoder (const char *what, encode_fn encode, const sched_result_t *res)
{
  long n, failures = 0, bad = 0;

  for (n = 1; n < 1000; n++)
    {
      wb_buf_t out = WB_BUF_INIT;
      wb_err_t err = {0};
      failmalloc_arm (n);
      int rc = encode (res, &out, &err);
      bool fired = failmalloc_fired ();
      failmalloc_arm (0);
      wb_buf_free (&out);
      if (!fired)
        {
          ok (rc == 0, "%s: encodes when nothing fails", what);
          break;
        }
      failures++;
      bad += rc != -1 || err.code != WB_E_NOMEM || strstr (err.msg, "out of memory") == NULL;
    }
  ok (failures > 0 && bad == 0, "%s: each of %ld allocation failures is -1 with WB_E_NOMEM", what,
      failures);
}

static void
test_result_encoders (void)
{
  sched_result_t res;
  prof_set_t *profiles = NULL;
  wb_err_t err;

  memset (&res, 0, sizeof res);
  snprintf (res.id, sizeof res.id, "00000000-0000-0000-0000-000000000000");
  res.language = "python";
  res.status = SCHED_ST_ERROR;
  res.error = "the sandbox failed";
  must (wb_buf_append (&res.out, "out\n", 4));
  must (wb_buf_append (&res.err, "e\xff", 2));
  sweep_encoder ("result JSON", sched_result_json, &res);
  sweep_encoder ("Piston result JSON", encode_piston, &res);
  wb_buf_free (&res.out);
  wb_buf_free (&res.err);

  if (!ok (prof_load_dir (WB_DEFAULT_PROFILES_DIR, &profiles, &err) == 0,
           "the shipped profiles load"))
    return;
  long n, failures = 0, bad = 0;
  for (n = 1; n < 1000; n++)
    {
      wb_buf_t out = WB_BUF_INIT;
      wb_err_t e = {0};
      failmalloc_arm (n);
      int rc = sched_piston_runtimes_json (profiles, &out, &e);
      bool fired = failmalloc_fired ();
      failmalloc_arm (0);
      wb_buf_free (&out);
      if (!fired)
        break;
      failures++;
      bad += rc != -1 || e.code != WB_E_NOMEM;
    }
  ok (failures > 0 && bad == 0,
      "Piston runtimes: each of %ld allocation failures is -1 with WB_E_NOMEM", failures);
  prof_set_free (profiles);
}

/* eng_new copies tls_ca, tls_cert and tls_key: a copy that fails fails the
 * create (before, a lost tls_ca meant "trust the system's CAs"). */
static void
test_eng_new_settings (struct event_base *base)
{
  eng_config_t cfg = {"tcp://127.0.0.1:2376", "/etc/warmbox/engine-ca.pem", "/etc/warmbox/cert.pem",
                      "/etc/warmbox/key.pem", 0};
  long n, failures = 0, silent = 0;

  for (n = 1; n < 200; n++)
    {
      eng_t *eng = NULL;
      wb_err_t err = {0};
      failmalloc_arm (n);
      int rc = eng_new (base, &cfg, &eng, &err);
      bool fired = failmalloc_fired ();
      failmalloc_arm (0);
      if (!fired)
        {
          ok (rc == 0 && eng != NULL, "eng_new: succeeds when nothing fails");
          eng_free (eng);
          break;
        }
      failures++;
      /* A failure it did not report is a setting (or more) it dropped. */
      if (rc == 0)
        silent++;
      else if (eng != NULL || err.code != WB_E_NOMEM)
        silent++;
      eng_free (rc == 0 ? eng : NULL);
    }
  ok (failures >= 3 && silent == 0,
      "eng_new: each of %ld allocation failures fails the create with WB_E_NOMEM (%ld did not)",
      failures, silent);
}

/* ---- a one-shot engine on a Unix socket ------------------------------ */

#define FAKE_CONNS 4

typedef struct fake_answer
{
  int listen_fd;
  const char *reply; /* the whole HTTP response */
  struct event *accept_ev;
  struct event *conn_ev[FAKE_CONNS];
  int conn_fd[FAKE_CONNS];
} fake_answer_t;

static void
conn_read_cb (evutil_socket_t fd, short what, void *arg)
{
  fake_answer_t *fa = arg;
  char buf[4096];
  ssize_t n = read (fd, buf, sizeof buf);

  (void) what;
  if (n < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  /* A start has no body: the request is whole at its blank line. */
  if (n > 0 && memmem (buf, (size_t) n, "\r\n\r\n", 4) != NULL)
    {
      if (write (fd, fa->reply, strlen (fa->reply)) < 0)
        ok (0, "the fake engine could not answer: %s", strerror (errno));
      shutdown (fd, SHUT_WR);
    }
  else if (n <= 0)
    for (int i = 0; i < FAKE_CONNS; i++)
      if (fa->conn_fd[i] == fd)
        event_del (fa->conn_ev[i]); /* closed with the rest at the end */
}

static void
accept_cb (evutil_socket_t fd, short what, void *arg)
{
  fake_answer_t *fa = arg;
  int c = accept4 (fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  int i = 0;

  (void) what;
  if (c < 0)
    return;
  while (i < FAKE_CONNS && fa->conn_fd[i] >= 0)
    i++;
  if (i == FAKE_CONNS
      || (fa->conn_ev[i]
          = event_new (event_get_base (fa->accept_ev), c, EV_READ | EV_PERSIST, conn_read_cb, fa))
             == NULL
      || event_add (fa->conn_ev[i], NULL) < 0)
    {
      ok (0, "the fake engine takes the connection");
      close (c);
      return;
    }
  fa->conn_fd[i] = c;
}

typedef struct start_rec
{
  int n;
  eng_result_t r;
  wb_err_t err;
} start_rec_t;

static void
started (void *arg, const eng_result_t *r)
{
  start_rec_t *s = arg;

  s->n++;
  s->r = *r;
  s->err = r->err;
}

/* Start a container against an engine that answers reply; what came back. */
static start_rec_t
start_against (struct event_base *base, const char *dir, const char *reply)
{
  char path[100], endpoint[120];
  struct sockaddr_un sun = {.sun_family = AF_UNIX};
  fake_answer_t fa = {-1, reply, NULL, {NULL}, {-1, -1, -1, -1}};
  start_rec_t rec = {0};
  eng_t *eng = NULL;
  wb_err_t err;

  snprintf (path, sizeof path, "%s/engine.sock", dir);
  unlink (path);
  snprintf (sun.sun_path, sizeof sun.sun_path, "%s", path);
  fa.listen_fd = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fa.listen_fd < 0 || bind (fa.listen_fd, (struct sockaddr *) &sun, sizeof sun) < 0
      || listen (fa.listen_fd, 8) < 0)
    {
      ok (0, "the fake engine listens on %s: %s", path, strerror (errno));
      return rec;
    }
  fa.accept_ev = event_new (base, fa.listen_fd, EV_READ | EV_PERSIST, accept_cb, &fa);
  snprintf (endpoint, sizeof endpoint, "unix://%s", path);
  if (fa.accept_ev == NULL || event_add (fa.accept_ev, NULL) < 0
      || eng_new (base, &(eng_config_t){endpoint, NULL, NULL, NULL, 5000}, &eng, &err) < 0
      || eng_container_start (eng, "c0ffee", started, &rec, &err) == NULL)
    ok (0, "a start is sent to the fake engine");
  for (int i = 0; i < 500 && rec.n == 0; i++)
    {
      struct timeval tv = {0, 10000};
      event_base_loopexit (base, &tv);
      event_base_dispatch (base);
    }
  eng_free (eng);
  for (int i = 0; i < FAKE_CONNS; i++)
    if (fa.conn_fd[i] >= 0)
      {
        event_free (fa.conn_ev[i]);
        close (fa.conn_fd[i]);
      }
  if (fa.accept_ev)
    event_free (fa.accept_ev);
  close (fa.listen_fd);
  unlink (path);
  return rec;
}

static const char *
reply_of (char *buf, size_t size, const char *status, const char *body)
{
  snprintf (buf, size,
            "HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
            "Connection: close\r\n\r\n%s",
            status, strlen (body), body);
  return buf;
}

static void
test_not_started (struct event_base *base, const char *dir)
{
  static const struct
  {
    const char *status;
    bool not_started;
  } cases[] = {
      {"204 No Content", false},
      {"400 Bad Request", true},
      {"404 Not Found", true},
      {"409 Conflict", true},
      {"500 Internal Server Error", false},
      {"502 Bad Gateway", false},
      {"304 Not Modified", false},
  };
  char buf[512];

  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      bool empty
          = strncmp (cases[i].status, "204", 3) == 0 || strncmp (cases[i].status, "304", 3) == 0;
      start_rec_t rec = start_against (
          base, dir,
          reply_of (buf, sizeof buf, cases[i].status, empty ? "" : "{\"message\":\"no\"}"));
      ok (rec.n == 1 && rec.r.not_started == cases[i].not_started
              && (rec.r.rc == 0) == (strncmp (cases[i].status, "204", 3) == 0),
          "engine: a start answered %s: %s", cases[i].status,
          cases[i].not_started ? "did not start" : "not said to have not started");
    }
}

/* ---- the history ------------------------------------------------------- */

static int commits;

static void
on_commit (void *arg, uint64_t tag, int rc)
{
  (void) arg;
  (void) tag;
  commits += rc == 0;
}

static void
test_history (struct event_base *base, const char *dir)
{
  char path[300], wal[310];
  store_config_t cfg = {path, 30, 1, NULL, NULL, NULL};
  store_t *st = NULL;
  wb_err_t err = {0};
  struct stat sb;
  store_execution_t e;
  mode_t old;

  /* Whatever the umask, the file (and the -wal SQLite makes from it) is 0640. */
  snprintf (path, sizeof path, "%s/h/history.db", dir);
  snprintf (wal, sizeof wal, "%s-wal", path);
  old = umask (0);
  int rc = store_open (base, &cfg, &st, &err);
  umask (old);
  if (!ok (rc == 0, "history: opens (%s)", rc ? err.msg : "ok"))
    return;
  rc = stat (path, &sb);
  ok (rc == 0 && (sb.st_mode & 07777) == 0640, "history: created 0640 under umask 0 (%04o)",
      (unsigned) (sb.st_mode & 07777));

  /* A record memory cannot copy: -1 with why, its reservation back. */
  memset (&e, 0, sizeof e);
  e.id = "rec-1";
  e.status = "ok";
  ok (store_reserve (st, 1), "history: room for one record (max_backlog 1)");
  failmalloc_arm (1);
  rc = store_submit_execution (st, &e, on_commit, NULL, 1, &err);
  failmalloc_arm (0);
  ok (rc == -1 && err.code == WB_E_NOMEM && strstr (err.msg, "rec-1"),
      "history: a record not copied is -1, WB_E_NOMEM, naming it (%s)", err.msg);
  ok (store_reserve (st, 1), "history: and its room is given back");
  ok (store_submit_execution (st, &e, on_commit, NULL, 2, &err) == 0, "history: the retry queues");
  for (int i = 0; i < 300 && commits == 0; i++)
    {
      struct timeval tv = {0, 10000};
      event_base_loopexit (base, &tv);
      event_base_dispatch (base);
    }
  is_int (commits, 1, "history: and commits");
  rc = stat (wal, &sb);
  ok (rc == 0 && (sb.st_mode & 07777) == 0640, "history: its -wal is 0640 too (%04o)",
      (unsigned) (sb.st_mode & 07777));
  store_close (st, 1000);

  /* One left with a looser mode is brought to 0640 (checked). */
  ok (chmod (path, 0666) == 0, "history: loosened to 0666 by hand");
  st = NULL;
  rc = store_open (base, &cfg, &st, &err) < 0 ? -1 : stat (path, &sb);
  ok (rc == 0 && (sb.st_mode & 07777) == 0640, "history: reopened, it is 0640 again (%04o)",
      (unsigned) (sb.st_mode & 07777));
  store_close (st, 1000);
}

int
main (void)
{
  char dir[] = "/tmp/warmbox-test-errors-XXXXXX";
  struct event_base *base;

  failmalloc_install ();
  wb_log_set_level (WB_LOG_ERROR);
  if (mkdtemp (dir) == NULL || (base = event_base_new ()) == NULL)
    {
      printf ("Bail out! no temporary folder or event base\n");
      return 1;
    }
  test_startgate ();
  test_admission ();
  test_result_encoders ();
  test_eng_new_settings (base);
  test_not_started (base, dir);
  test_history (base, dir);
  event_base_free (base);
  char cmd[128];
  snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", dir);
  return tap_done ();
}
