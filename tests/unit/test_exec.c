/* Executions, pools and the sandbox module against the fake engine
 * (tests/unit/fake_engine.c), with fault injection.
 *
 * Each scenario builds a whole daemon context (engine client = the fake,
 * sandbox, pools, a real SQLite history in a temporary folder, the start
 * gate), sends executions through sched_exec_start, runs the loop, and
 * checks the invariants that must hold whatever happens:
 *   - every admitted execution gets exactly one answer, unless its client
 *     left (then none);
 *   - no container is started twice; every container is gone once the
 *     daemon drains;
 *   - every admitted execution has exactly one history row, and none is
 *     left "running" (when the history itself could be written).
 * The fault loops make the Nth engine call fail, hang, answer garbage or
 * lose its answer, and the Nth allocation fail, for every N a scenario
 * reaches.
 *
 * Time is virtual (tests/unit/vclock.h): the program computes in no time,
 * a timer is due as soon as nothing else is, so a hang that lasts until a
 * deadline costs nothing, and every run is the same run whatever the load
 * on the machine.  Every "ms" below is on that clock. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <event2/event.h>
#include <linux/magic.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "api/request.h"
#include "daemon/daemon.h"
#include "failmalloc.h"
#include "fake_engine.h"
#include "nodes/nodes_int.h"
#include "tap.h"
#include "vclock.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define HAVE_LSAN 1
#endif

static char dir[256];
static int db_serial;
/* The engines are warmbox-oci (fake_engine_config.oci): runs are one
 * exchange (eng_run_open) instead of the Docker Engine API's four. */
static bool one_request;

/* The call that starts a container, and the one that attaches to it: on
 * warmbox-oci both are its run. */
static fake_op_t
op_start (void)
{
  return one_request ? FAKE_OP_RUN : FAKE_OP_START;
}

static fake_op_t
op_attach (void)
{
  return one_request ? FAKE_OP_RUN : FAKE_OP_ATTACH;
}
static char db_path[300];
static sched_ctx_t ctx;
/* The one engine of these tests (the fake). */
#define NODE (&ctx.nodes->nodes[0])
static prof_set_t *profiles;
static bool quiet;

/* ---- one client ------------------------------------------------------ */

typedef struct call
{
  sched_exec_t *ex; /* while it may still answer */
  int answers;
  bool refused_at_door;
  bool cancelled;
  bool has_result;
  sched_status_t status;
  int exit_code;
  uint64_t duration_ms; /* start sent -> exit seen, on the (virtual) clock */
  bool pool_hit;
  bool has_usage;
  uint64_t peak_kib, user_us, sys_us;
  bool err_truncated;
  char files[256]; /* "name:size:content|..." of the files out */
  char files_sha[65];
  char out[512], err[256];
  char output[2048]; /* stdout and stderr in their order (res->order) */
  bool output_whole; /* ... every byte of both, nothing else */
  bool has_error;    /* a client-safe sentence */
  bool overloaded;   /* ... saying the engine was overloaded */
  bool has_compile;
  int compile_exit;
  char compile_err[128];
  wb_code_t err_code;
  int order; /* when it was answered, among all answers */
} call_t;

static int answers_seen;

/* What snprintf (dst, size, "%.*s", len, data) gives, without formatting
 * all of a flood's megabyte to keep its first bytes. */
static void
copy_text (char *dst, size_t size, const char *data, size_t len)
{
  size_t n = data ? strnlen (data, len < size - 1 ? len : size - 1) : 0;
  if (n)
    memcpy (dst, data, n);
  dst[n] = '\0';
}

static void
done_cb (void *arg, const sched_result_t *res, const wb_err_t *err)
{
  call_t *c = arg;

  c->answers++;
  c->order = ++answers_seen;
  c->ex = NULL;
  if (res)
    {
      c->has_result = true;
      c->files[0] = '\0';
      for (uint32_t i = 0; i < res->n_files_out; i++)
        {
          const sched_file_out_t *f = &res->files_out[i];
          size_t at = strlen (c->files);
          snprintf (c->files + at, sizeof c->files - at, "%s:%llu:%.*s|", f->name,
                    (unsigned long long) f->size, f->content ? (int) f->content_len : 4,
                    f->content ? f->content : "null");
        }
      snprintf (c->files_sha, sizeof c->files_sha, "%s", res->files_out_sha256);
      c->has_usage = res->has_usage;
      c->peak_kib = res->peak_memory_kib;
      c->user_us = res->cpu_user_us;
      c->sys_us = res->cpu_system_us;
      c->err_truncated = res->err_truncated;
      c->status = res->status;
      c->exit_code = res->exit_code;
      c->duration_ms = res->duration_ms;
      c->pool_hit = res->pool_hit;
      c->has_compile = res->has_compile;
      c->compile_exit = res->compile_exit;
      copy_text (c->compile_err, sizeof c->compile_err, res->compile_err.data,
                 res->compile_err.len);
      copy_text (c->out, sizeof c->out, res->out.data, res->out.len);
      {
        wb_buf_t both = WB_BUF_INIT;
        c->output_whole = sched_order_render (&res->order, res->out.data, res->out.len,
                                              res->err.data, res->err.len, &both)
                              == 0
                          && both.len == res->out.len + res->err.len;
        copy_text (c->output, sizeof c->output, both.data, both.len);
        wb_buf_free (&both);
      }
      c->has_error = res->error && res->error[0];
      c->overloaded = res->error && strstr (res->error, "overloaded");
      copy_text (c->err, sizeof c->err, res->err.data, res->err.len);
    }
  else
    c->err_code = err->code;
}

static void submit_as (call_t *c, const char *client, const char *language, const char *code,
                       const char *extra);

static void
submit (call_t *c, const char *language, const char *code, const char *extra)
{
  submit_as (c, "", language, code, extra);
}

static void
submit_as (call_t *c, const char *client, const char *language, const char *code, const char *extra)
{
  wb_buf_t body = WB_BUF_INIT;
  sched_request_t req;
  wb_err_t err;

  memset (c, 0, sizeof *c);
  if (wb_buf_printf (&body, "{\"language\":\"%s\",\"code\":", language) < 0
      || wb_json_append_string (&body, code, strlen (code)) < 0
      || wb_buf_printf (&body, "%s%s}", extra ? "," : "", extra ? extra : "") < 0
      || sched_request_parse (body.data, body.len, ctx.profiles, &req, &err) < 0)
    {
      c->refused_at_door = true;
      c->err_code = body.data ? err.code : WB_E_NOMEM;
      wb_buf_free (&body);
      return;
    }
  wb_buf_free (&body);
  snprintf (req.client, sizeof req.client, "%s", client);
  c->ex = sched_exec_start (ctx.execs, &req, done_cb, c, &err);
  if (c->ex == NULL)
    {
      c->refused_at_door = true;
      c->err_code = err.code;
    }
}

static void
cancel (call_t *c)
{
  if (c->ex)
    {
      sched_exec_cancel (c->ex);
      c->ex = NULL;
      c->cancelled = true;
    }
}

/* ---- the loop -------------------------------------------------------- */

static uint64_t
now_ms (void)
{
  return wb_now_ms ();
}

/* A predicate that pokes the daemon (a ping, a reconcile pass) does it
 * at most every ms: at every loop pass, a zero-latency engine answering at
 * once, it would keep the loop busy at one instant of the virtual clock
 * (tests/unit/vclock.h), which then never moves. */
static bool
due (uint64_t *last, uint64_t ms)
{
  uint64_t now = now_ms ();
  if (*last && now - *last < ms)
    return false;
  *last = now;
  return true;
}

typedef bool (*pred_t) (void *arg);

/* Broken invariants seen (sched_exec_check_all after every turn of the
 * loop): must stay 0. */
static int invariant_breaks;
static uint64_t invariant_checks;

/* Run the loop until pred holds or ms pass (virtual); true when it held.
 * Every execution's invariants are checked after each turn. */
static bool
run_until (pred_t pred, void *arg, uint64_t ms)
{
  uint64_t end = now_ms () + ms;

  while (!pred (arg))
    {
      struct timeval tick = {0, 5000};
      if (now_ms () > end)
        return false;
      event_base_loopexit (ctx.base, &tick);
      event_base_loop (ctx.base, EVLOOP_ONCE);
      if (ctx.execs)
        {
          invariant_breaks += sched_exec_check_all (ctx.execs);
          invariant_checks++;
        }
    }
  return true;
}

typedef struct calls
{
  call_t *c;
  int n;
} calls_t;

static bool
all_answered (void *arg)
{
  calls_t *cs = arg;
  for (int i = 0; i < cs->n; i++)
    if (cs->c[i].ex != NULL)
      return false;
  return true;
}

/* Run until the n calls from c have their answers (or were cancelled). */
static bool
wait_answers (call_t *c, int n, uint64_t ms)
{
  calls_t cs = {c, n};
  return run_until (all_answered, &cs, ms);
}

static bool
no_execs (void *arg)
{
  (void) arg;
  return sched_exec_count (ctx.execs) == 0;
}

static bool
pools_ready (void *arg)
{
  (void) arg;
  return pool_mgr_ready (NODE->pools);
}

static bool
state_is (void *arg)
{
  call_t *c = ((void **) arg)[0];
  const char *want = ((void **) arg)[1];
  return c->ex == NULL || strcmp (sched_exec_state (c->ex), want) == 0;
}

/* Run until c's execution is in state want (or has ended). */
static bool
run_to_state (call_t *c, const char *want, uint64_t ms)
{
  void *args[2] = {c, (void *) want};
  return run_until (state_is, args, ms) && c->ex != NULL;
}

static fake_engine_t *
fake (void)
{
  return fake_engine_of (NODE->eng);
}

/* ---- set-up and teardown --------------------------------------------- */

static bool
images_resolved (void *arg)
{
  (void) arg;
  for (size_t i = 0; i < ctx.profiles->n; i++)
    if (ctx.nodes->image_ids[i] == NULL || NODE->image_ids[i] == NULL)
      return false;
  return true;
}

/* Run between the context's set-up and its first pings (NULL: nothing). */
static void (*after_init) (void);

/* A daemon context with the shipped profiles on the fake engine.  pools:
 * a config document overlay (may be NULL). */
static bool
setup (const char *config_json)
{
  wb_err_t err;
  const char *cfg = config_json ? config_json : "{}";

  memset (&ctx, 0, sizeof ctx);
  ctx.base = event_base_new ();
  snprintf (db_path, sizeof db_path, "%s/history-%d.db", dir, ++db_serial);
  if (ctx.base == NULL || sched_config_defaults (&ctx.cfg, &err) < 0
      || sched_config_parse (&ctx.cfg, cfg, strlen (cfg), &err) < 0)
    {
      printf ("# setup: %s\n", err.msg);
      return false;
    }
  ctx.cfg.store_path = strdup (db_path);
  ctx.cfg.pool_tick_ms = 20;
  ctx.cfg.removal_retry_ms = 10;
  ctx.cfg.pool_backoff_ms = 5;
  ctx.cfg.engine_timeout_ms = 60;
  if (strstr (cfg, "max_wait_ms") == NULL)
    ctx.cfg.max_wait_ms = 400;
  ctx.cfg.exec_grace_ms = 100;
  ctx.profiles = profiles;
  fake_engine_config_reset ();
  fake_engine_config.images = fake_shipped_images;
  fake_engine_config.n_images = fake_n_shipped_images;
  fake_engine_config.oci = one_request;
  if (sched_ctx_init (&ctx, &err) < 0)
    {
      printf ("# setup: %s\n", err.msg);
      return false;
    }
  if (after_init)
    after_init ();
  nodes_ping (ctx.nodes);
  if (!run_until (images_resolved, NULL, 5000))
    {
      printf ("# setup: images not resolved\n");
      return false;
    }
  return true;
}

static bool
drained (void *arg)
{
  (void) arg;
  return sbx_busy (NODE->sbx) == 0 && sbx_count (NODE->sbx) == 0;
}

static uint32_t
store_backlog (void)
{
  store_stats_t s;
  store_get_stats (ctx.store, &s);
  return s.backlog;
}

static bool
store_idle (void *arg)
{
  (void) arg;
  return store_backlog () == 0;
}

/* Drain as SIGTERM would once nothing runs (every row written, every
 * reservation given back), then check that no container is left and none
 * was started twice.  Returns the number of problems. */
static int
teardown (const char *what)
{
  int bad = 0;
  fake_engine_stats_t st;

  fake_engine_reset_faults (fake ());
  fake_engine_set_down (fake (), false);
  fake_engine_set_latency (fake (), 0);
  failmalloc_arm (0);
  if (!run_until (no_execs, NULL, 20000))
    {
      bad++;
      printf ("# %s: %zu executions never ended\n", what, sched_exec_count (ctx.execs));
    }
  if (!run_until (store_idle, NULL, 20000))
    {
      bad++;
      printf ("# %s: the history's backlog stays at %u rows (a reservation never given back?)\n",
              what, store_backlog ());
    }
  sched_ctx_drain (&ctx);
  pool_mgr_drain_all (NODE->pools);
  if (!run_until (drained, NULL, 20000))
    {
      bad++;
      printf ("# %s: the sandbox still holds %u containers (%u busy)\n", what,
              sbx_count (NODE->sbx), sbx_busy (NODE->sbx));
    }
  st = fake_engine_stats (fake ());
  if (st.live != 0 || st.double_starts != 0)
    {
      bad++;
      printf ("# %s: %zu containers left on the engine, %lu started twice\n", what, st.live,
              st.double_starts);
    }
  sched_ctx_clear (&ctx, 2000);
  ctx.profiles = NULL;
  sched_config_clear (&ctx.cfg);
  event_base_free (ctx.base);
  ctx.base = NULL;
  return bad;
}

/* The first column of the first row sql gives, as an int (-1: none). */
static int
query_int (const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  int n = -1;

  if (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int (s, 0);
  sqlite3_finalize (s);
  sqlite3_close (db);
  return n;
}

/* Rows of the history with this status (NULL: all; "final": not running). */
static int
rows (const char *status)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  int n = -1;
  const char *sql = status == NULL ? "SELECT count(*) FROM executions"
                    : strcmp (status, "final") == 0
                        ? "SELECT count(*) FROM executions WHERE status != 'running'"
                        : "SELECT count(*) FROM executions WHERE status = ?1";

  if (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, sql, -1, &s, NULL) == SQLITE_OK)
    {
      if (status && strcmp (status, "final") != 0)
        sqlite3_bind_text (s, 1, status, -1, SQLITE_STATIC);
      if (sqlite3_step (s) == SQLITE_ROW)
        n = sqlite3_column_int (s, 0);
    }
  sqlite3_finalize (s);
  sqlite3_close (db);
  return n;
}

static bool
one_final_row (void *arg)
{
  (void) arg;
  return rows ("final") >= 1;
}

/* ---- scenarios ------------------------------------------------------- */

static void
test_happy_path (void)
{
  call_t c[6];

  if (!ok (setup ("{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":4}}}"), "set up"))
    return;
  ok (run_until (pools_ready, NULL, 5000), "pools fill from the fake engine");
  submit (&c[0], "python", "out hello; err oops; exit 3", NULL);
  submit (&c[1], "python", "echo", "\"stdin\":\"from stdin\"");
  submit (&c[2], "python", "args", "\"args\":[\"a 1\",\"b\"]");
  submit (&c[3], "python", "hang", "\"timeout_ms\":100");
  submit (&c[4], "python", "flood 3000000", NULL);
  submit (&c[5], "python", "oom", NULL);
  ok (wait_answers (c, (int) WB_ARRAY_SIZE (c), 10000), "six executions answered");
  is_int (c[0].status, SCHED_ST_OK, "exit status 3 is a program's own: ok");
  is_int (c[0].exit_code, 3, "exit code 3");
  is_str (c[0].out, "hello\n", "stdout");
  is_str (c[0].err, "oops\n", "stderr (the init's usage line taken off)");
  ok (c[0].has_usage && c[0].peak_kib == 2048 && c[0].user_us == 1500 && c[0].sys_us == 500,
      "the init's usage line is the result's usage");
  ok (!c[3].has_usage && !c[4].has_usage, "a program stopped by a limit has no usage figures");
  {
    call_t f;
    submit (&f, "python", "file out.txt hello; file sub/b two words; out done", NULL);
    ok (wait_answers (&f, 1, 5000) && f.has_usage, "files out: answered, with usage");
    is_str (f.files, "out.txt:5:hello|sub/b:9:two words|",
            "the init's file records are the result's files");
    is_int ((int) strlen (f.files_sha), 64, "and one hash over them");
    is_str (f.out, "done\n", "stdout unchanged");
    is_str (f.err, "", "the trailer is off stderr");
    is_str (c[0].files, "", "a program that made none has none");
  }
  {
    call_t f;
    submit (&f, "python", "err \x1ewarmbox-usage 00000000000000000000000000000000 1 2 3; exit 0",
            NULL);
    ok (wait_answers (&f, 1, 5000) && f.has_usage && f.peak_kib == 2048
            && strcmp (f.err, "\x1ewarmbox-usage 00000000000000000000000000000000 1 2 3\n") == 0,
        "a lookalike usage line without the nonce stays the program's stderr; the init's counts");
  }
  {
    /* The compile stage as the init reports it (profiles/init.c). */
    call_t k[3];
    submit (&k[0], "python", "compile 1 main.c:1: error: nope; out RAN", NULL);
    submit (&k[1], "python", "compile 0 warning: w; out ran; exit 2", NULL);
    submit (&k[2], "python", "compile 0 ; out before; inittimeout", NULL);
    ok (wait_answers (k, 3, 5000), "compile stages: answered");
    ok (k[0].status == SCHED_ST_COMPILE_ERROR && k[0].exit_code == -1 && k[0].has_compile
            && k[0].compile_exit == 1 && strcmp (k[0].compile_err, "main.c:1: error: nope") == 0
            && k[0].out[0] == '\0',
        "a failed compile: compile_error, no exit code, the compiler's words, no run");
    ok (k[1].status == SCHED_ST_OK && k[1].exit_code == 2 && k[1].has_compile
            && k[1].compile_exit == 0 && strcmp (k[1].compile_err, "warning: w") == 0
            && strcmp (k[1].out, "ran\n") == 0,
        "a compile that succeeds: the program's own status, the compiler's warnings kept apart");
    ok (k[2].status == SCHED_ST_TIMEOUT && k[2].exit_code == -1
            && strcmp (k[2].out, "before\n") == 0,
        "the init stopped the program at its own deadline: timeout");
    ok (!c[0].has_compile, "a profile without a compile stage reports none");
  }
  {
    /* A compiled language: the init's run mark is taken off stderr, and
     * from it the program has its own timeout_ms (and the slack), however
     * long the compile took and whatever the program does to its init. */
    call_t k[3];
    submit (&k[0], "c", "compile 0 ; err e1; out ran; exit 0", NULL);
    submit (&k[1], "c", "compile 0 ; hang", "\"timeout_ms\":200,\"compile_timeout_ms\":60000");
    submit (&k[2], "c", "compile 1 bad", NULL);
    ok (wait_answers (k, 3, 70000), "compiled: answered");
    ok (k[0].status == SCHED_ST_OK && strcmp (k[0].err, "e1\n") == 0
            && strcmp (k[0].out, "ran\n") == 0,
        "the run mark is not the program's stderr: \"%s\"", k[0].err);
    /* The run's duration as the daemon measured it (on the virtual clock). */
    ok (k[1].status == SCHED_ST_TIMEOUT && k[1].duration_ms >= 200 && k[1].duration_ms < 60000,
        "a program that never ends is stopped at its own timeout plus the slack, not at the "
        "compile's limit too (ran %llu ms)",
        (unsigned long long) k[1].duration_ms);
    ok (k[2].status == SCHED_ST_COMPILE_ERROR && k[2].err[0] == '\0',
        "a failed compile writes no run mark: the trailer's mark is recognised after the held-back "
        "bytes");
  }
  ok (c[0].pool_hit, "a ready container was handed out (hit)");
  is_str (c[1].out, "from stdin", "the program's stdin follows the frame");
  is_str (c[2].out, "a 1\nb\n", "args travel in the frame");
  is_int (c[3].status, SCHED_ST_TIMEOUT, "a program past its deadline: timeout");
  is_int (c[4].status, SCHED_ST_OUTPUT_LIMIT, "a flood past the output cap: output_limit");
  is_int (c[5].status, SCHED_ST_OOM, "exit 137 not caused by us, OOMKilled: oom");
  for (int i = 0; i < 6; i++)
    is_int (c[i].answers, 1, "execution %d answered once", i);
  ok (run_until (no_execs, NULL, 2000), "all ended");
  is_int (rows ("final"), 14, "fourteen finished rows");
  is_int (rows ("running"), 0, "none left running");
  is_int (teardown ("happy path"), 0, "nothing left on the engine, nothing started twice");
}

static void
test_transient_pool (void)
{
  call_t c[3];
  const pool_stats_t *st;
  size_t n;
  bool any_transient = false;

  if (!ok (setup ("{\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1},"
                  "\"javascript\":{\"min_ready\":0,\"max_ready\":0}}}"),
           "set up (javascript pool size 0)"))
    return;
  run_until (pools_ready, NULL, 5000);
  submit (&c[0], "python", "out big", "\"memory_mb\":512");
  submit (&c[1], "javascript", "out cold", NULL);
  submit (&c[2], "python", "out big2", "\"memory_mb\":512");
  n = pool_mgr_stats (NODE->pools, &st);
  for (size_t i = 0; i < n; i++)
    any_transient |= st[i].transient;
  ok (any_transient, "a non-default memory limit gets a transient pool");
  ok (wait_answers (c, (int) WB_ARRAY_SIZE (c), 5000), "answered");
  is_str (c[0].out, "big\n", "a transient pool's container runs the program");
  is_str (c[1].out, "cold\n", "a pool of size 0 serves too (cold)");
  ok (!c[0].pool_hit && !c[1].pool_hit, "neither was a hit");
  /* Every container carries the owner label, pooled or not. */
  {
    int labelled = 0, all = 0;
    for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
      {
        all++;
        labelled += fake_container_label (fc, "warmbox.owner") != NULL
                    && fake_container_label (fc, "warmbox.instance") != NULL
                    && fake_container_label (fc, "warmbox.pool") != NULL
                    && fake_container_label (fc, "warmbox.language") != NULL;
      }
    is_int (labelled, all, "every container on the engine has all four labels (%d)", all);
  }
  run_until (no_execs, NULL, 2000);
  n = pool_mgr_stats (NODE->pools, &st);
  any_transient = false;
  for (size_t i = 0; i < n; i++)
    any_transient |= st[i].transient;
  ok (!any_transient, "transient pools are freed once empty");
  is_int (teardown ("transient"), 0, "nothing left");
}

static void
created_eng_cb (void *arg, const eng_result_t *r)
{
  *(int *) arg += r->rc == 0;
}

static bool
three (void *arg)
{
  return *(int *) arg >= 3;
}

static bool
sandbox_idle (void *arg)
{
  (void) arg;
  return sbx_busy (NODE->sbx) == 0;
}

static void
reaped_cb (void *arg, int n)
{
  *(int *) arg = n;
}

static bool
int_set (void *arg)
{
  return *(int *) arg != -2;
}

/* The reaper removes the containers of a dead owner (pooled or not: every
 * container has the label), and nothing of a live one. */
static void
test_reaper (void)
{
  const prof_t *py = prof_find (profiles, "python");
  char host[128], boot[64] = "", owner[256];
  sbx_identity_t id;
  wb_buf_t body = WB_BUF_INIT;
  wb_err_t err;
  int made = 0, reaped = -2, ghosts = 0;
  FILE *f;

  if (!ok (setup ("{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":2}}}"), "set up"))
    return;
  run_until (pools_ready, NULL, 5000);
  /* Three containers of a daemon that died: this host, this boot, a pid
   * that is gone. */
  gethostname (host, sizeof host);
  f = fopen ("/proc/sys/kernel/random/boot_id", "re");
  if (f && fgets (boot, sizeof boot, f))
    boot[strcspn (boot, "\n")] = '\0';
  if (f)
    fclose (f);
  snprintf (owner, sizeof owner, "%s/%s/999999999/12345", host, boot);
  id = (sbx_identity_t){
      fake_shipped_images[0].id, "dead-instance", owner, "python/dead", SBX_UID_FIRST, NULL};
  must (sbx_body (py, &py->def, &id, &body, &err));
  for (int i = 0; i < 3; i++)
    eng_container_create (NODE->eng, NULL, body.data, created_eng_cb, &made, &err);
  wb_buf_free (&body);
  run_until (three, &made, 1000);
  for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
    ghosts += strcmp (fake_container_label (fc, "warmbox.owner"), owner) == 0;
  is_int (ghosts, 3, "a dead daemon's three containers are on the engine");
  sbx_reap_orphans (NODE->sbx, reaped_cb, &reaped);
  ok (run_until (int_set, &reaped, 2000), "the reaper listed");
  is_int (reaped, 3, "it removes exactly those three");
  run_until (sandbox_idle, NULL, 2000);
  ghosts = 0;
  for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
    ghosts += strcmp (fake_container_label (fc, "warmbox.owner"), owner) == 0;
  is_int (ghosts, 0, "gone from the engine");
  ok (pool_mgr_ready (NODE->pools), "this daemon's own ready containers stay");
  is_int (teardown ("reaper"), 0, "nothing left");
}

/* /readyz's view of the pools after their first fill (before it, it is
 * pool_mgr_ready's): a pool emptied by traffic is fine, even long after
 * its last create; one whose creates keep failing past the grace is not. */
static bool
never (void *arg)
{
  (void) arg;
  return false;
}

static bool
healthy_short (void *arg)
{
  (void) arg;
  return pool_mgr_healthy (NODE->pools, 200);
}

static void
test_readiness (void)
{
  call_t c;

  if (!setup ("{\"pools\":{\"default\":{\"min_ready\":0,\"max_ready\":0},"
              "\"python\":{\"min_ready\":2,\"max_ready\":2}}}"))
    return;
  ok (run_until (healthy_short, NULL, 3000), "healthy once the pools have filled");
  run_until (never, NULL, 400);
  fake_engine_set_latency (fake (), 100);
  submit (&c, "python", "out x", "\"timeout_ms\":1000");
  wait_answers (&c, 1, 3000);
  ok (pool_mgr_healthy (NODE->pools, 200),
      "a quiet pool that just served one, its refill under way: healthy");
  fake_engine_set_latency (fake (), 0);
  run_until (pools_ready, NULL, 3000);
  fake_engine_set_down (fake (), true);
  submit (&c, "python", "out x", "\"timeout_ms\":1000");
  wait_answers (&c, 1, 3000);
  ok (pool_mgr_healthy (NODE->pools, 200), "a pool below min_ready is healthy within the grace");
  run_until (never, NULL, 400);
  ok (!pool_mgr_healthy (NODE->pools, 200),
      "below min_ready with creates failing past the grace: not");
  ok (pool_mgr_healthy (NODE->pools, 60000), "(a longer grace still covers it)");
  fake_engine_set_down (fake (), false);
  ok (run_until (healthy_short, NULL, 3000), "the engine back, the pool refills: healthy again");
  is_int (teardown ("readiness"), 0, "nothing left");
}

/* Client gone in every state. */
static void
test_cancel_everywhere (void)
{
  static const char *const states[]
      = {"waiting for a container", "preparing", "waiting for a start slot", "starting", "running"};

  for (size_t i = 0; i < WB_ARRAY_SIZE (states); i++)
    {
      call_t c;
      bool reached;

      /* No ready container (pool size 0) and a slow engine, so each state
       * lasts long enough to be caught. */
      if (!setup ("{\"pools\":{\"python\":{\"min_ready\":0,\"max_ready\":0}}}"))
        {
          ok (false, "set up");
          continue;
        }
      fake_engine_set_latency (fake (), 30);
      if (i == 2)
        {
          /* Hold the only start slot so the next one queues. */
          NODE->gate.limit = 1;
          NODE->gate.in_flight = 1;
        }
      submit (&c, "python", "sleep 200; out done", NULL);
      reached = run_to_state (&c, states[i], 3000);
      ok (reached, "reached '%s'", states[i]);
      cancel (&c);
      if (i == 2)
        NODE->gate.in_flight = 0;
      ok (run_until (no_execs, NULL, 5000), "cancelled in '%s': it ends", states[i]);
      is_int (c.answers, 0, "cancelled in '%s': no answer to a client that left", states[i]);
      run_until (one_final_row, NULL, 2000);
      is_int (rows ("cancelled"), 1, "cancelled in '%s': one row, status cancelled", states[i]);
      is_int (rows (NULL), 1, "cancelled in '%s': exactly one row", states[i]);
      is_int (teardown (states[i]), 0, "cancelled in '%s': nothing left", states[i]);
    }
}

/* The deadline in every state before the start, and after it. */
static void
test_deadline_everywhere (void)
{
  call_t c;

  /* Waiting for a container that never comes (every create hangs). */
  if (setup ("{\"pools\":{\"python\":{\"min_ready\":0,\"max_ready\":0}}}"))
    {
      fake_engine_faults (fake ())->op = FAKE_OP_CREATE;
      fake_engine_faults (fake ())->hang_call = fake_engine_calls (fake (), FAKE_OP_CREATE) + 1;
      ctx.cfg.max_wait_ms = 30; /* shorter than the engine's own timeout */
      sched_ctx_configure (&ctx);
      submit (&c, "python", "out x", NULL);
      ok (wait_answers (&c, 1, 3000), "no container in time: answered");
      ok (!c.has_result && c.err_code == WB_E_BUSY, "as a clear busy error (%s)",
          wb_code_name (c.err_code));
      run_until (one_final_row, NULL, 2000);
      is_int (rows ("refused"), 1, "row refused");
      is_int (teardown ("deadline waiting"), 0, "nothing left");
    }
  /* The history cannot be written: nothing starts. */
  if (setup ("{\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1}}}"))
    {
      sqlite3 *locker = NULL;
      run_until (pools_ready, NULL, 3000);
      sqlite3_open (db_path, &locker);
      sqlite3_busy_timeout (locker, 5000);
      ok (sqlite3_exec (locker, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK,
          "another writer holds the history");
      submit (&c, "python", "out x", "\"timeout_ms\":300");
      ok (wait_answers (&c, 1, 5000), "history locked: answered");
      ok (!c.has_result && c.err_code == WB_E_BUSY, "busy, and the program never started");
      is_int (fake_engine_stats (fake ()).started, 0, "no container started");
      sqlite3_exec (locker, "COMMIT", NULL, NULL, NULL);
      sqlite3_close (locker);
      run_until (no_execs, NULL, 3000);
      is_int (teardown ("history locked"), 0, "nothing left");
    }
}

/* The engine lost in every state. */
static void
test_engine_loss_everywhere (void)
{
  static const char *const states[]
      = {"waiting for a container", "preparing", "starting", "running"};

  for (size_t i = 0; i < WB_ARRAY_SIZE (states); i++)
    {
      call_t c;

      if (!setup ("{\"pools\":{\"python\":{\"min_ready\":0,\"max_ready\":0}}}"))
        continue;
      fake_engine_set_latency (fake (), 30);
      submit (&c, "python", "sleep 300; out done", NULL);
      ok (run_to_state (&c, states[i], 3000), "reached '%s'", states[i]);
      fake_engine_lose (fake ());
      ok (wait_answers (&c, 1, 10000), "engine lost in '%s': answered", states[i]);
      is_int (c.answers, 1, "engine lost in '%s': exactly once", states[i]);
      if (i >= 2)
        ok (c.has_result && c.status == SCHED_ST_ENGINE_LOST,
            "engine lost in '%s': status engine_lost (it may have run)", states[i]);
      else
        ok (!c.has_result && (c.err_code == WB_E_ENGINE_DOWN || c.err_code == WB_E_ENGINE),
            "engine lost in '%s': a clear error, nothing ran (%s)", states[i],
            wb_code_name (c.err_code));
      run_until (no_execs, NULL, 3000);
      run_until (one_final_row, NULL, 2000);
      is_int (rows ("running"), 0, "engine lost in '%s': no row left running", states[i]);
      is_int (rows (NULL), 1, "engine lost in '%s': one row", states[i]);
      is_int (teardown (states[i]), 0, "engine lost in '%s': nothing left once it returns",
              states[i]);
    }
}

/* The global cap full of idle ready containers must not starve a request
 * of another pool: one of them makes room. */
static void
test_cap_eviction (void)
{
  call_t c[2];

  if (!ok (setup ("{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":2},"
                  "\"javascript\":{\"min_ready\":0,\"max_ready\":0}},\"max_containers\":2}"),
           "set up (cap 2, python keeps 2 ready)"))
    return;
  run_until (pools_ready, NULL, 3000);
  is_int (sbx_count (NODE->sbx), 2, "the cap is full of ready python containers");
  submit (&c[0], "javascript", "out js", "\"timeout_ms\":2000");
  submit (&c[1], "python", "out big", "\"memory_mb\":300,\"timeout_ms\":2000");
  ok (wait_answers (c, 2, 5000), "answered");
  is_str (c[0].out, "js\n", "another language is served under the full cap");
  is_str (c[1].out, "big\n", "so is a request's own container");
  ok (sbx_count (NODE->sbx) <= 2, "the cap held (%u)", sbx_count (NODE->sbx));
  is_int (teardown ("cap"), 0, "nothing left");
}

/* A start that failed with an error after which the program may have run
 * is never recorded as "nothing ran". */
static void
test_start_may_have_run (void)
{
  call_t c;

  if (!setup ("{\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1}}}"))
    return;
  run_until (pools_ready, NULL, 3000);
  fake_engine_faults (fake ())->op = op_start ();
  fake_engine_faults (fake ())->garbage_call = fake_engine_calls (fake (), op_start ()) + 1;
  submit (&c, "python", "sleep 50; out x", "\"timeout_ms\":2000");
  ok (wait_answers (&c, 1, 5000), "a garbled answer to start: answered");
  ok (c.has_result && c.status == SCHED_ST_ERROR,
      "as a result with status error (it may have run)");
  run_until (one_final_row, NULL, 2000);
  is_int (rows ("error"), 1, "its row says error, not refused");
  is_int (teardown ("start may have run"), 0, "nothing left");
}

/* warmbox-oci's run answers other than "started": each ends the call as
 * what it means, once, and leaves nothing running. */
static void
test_run_answers (void)
{
  static const struct
  {
    const char *answer;
    bool refused;          /* nothing ran: no result, a refusal */
    sched_status_t status; /* else: the result's */
    const char *what;
  } cases[] = {
      {"not-started its init ended before it started", true, SCHED_ST_OK,
       "\"not-started\": refused, nothing ran, never started"},
      {"start-failed runsc start failed", false, SCHED_ST_ERROR,
       "\"start-failed\": it may have run, a result with status error"},
      {"exit 999 0", false, SCHED_ST_ERROR,
       "an exit line that does not parse, before the start: error, the run ended"},
      {"", false, SCHED_ST_ENGINE_LOST,
       "nothing after the 101 (a stuck helper): ended at the start's bound, engine_lost"},
  };

  if (!one_request)
    return;
  if (!setup ("{\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1}}}"))
    return;
  for (size_t i = 0; i < WB_ARRAY_SIZE (cases); i++)
    {
      call_t c;
      unsigned long started;
      int refused_before = rows ("refused"), error_rows = rows ("error") + rows ("engine_lost");

      run_until (pools_ready, NULL, 3000);
      started = fake_engine_stats (fake ()).started;
      fake_engine_set_run_answer (fake (), cases[i].answer);
      submit (&c, "python", "sleep 50; out x", "\"timeout_ms\":2000");
      ok (wait_answers (&c, 1, 10000), "%s: answered", cases[i].what);
      fake_engine_set_run_answer (fake (), NULL);
      if (cases[i].refused)
        {
          ok (!c.has_result && c.answers == 1 && fake_engine_stats (fake ()).started == started,
              "%s", cases[i].what);
          run_until (one_final_row, NULL, 2000);
          is_int (rows ("refused"), refused_before + 1, "  its row says refused");
        }
      else
        {
          ok (c.has_result && c.status == cases[i].status && c.exit_code == -1, "%s (%d %d)",
              cases[i].what, c.status, c.exit_code);
          run_until (one_final_row, NULL, 2000);
          is_int (rows ("error") + rows ("engine_lost"), error_rows + 1, "  its row says so");
        }
    }
  is_int (teardown ("run answers"), 0, "nothing left");
}

/* Starts the engine refused at once teach the start gate nothing: they
 * would make starts look nearly free and every real level a ceiling. */
static void
test_fast_refusals_not_sampled (void)
{
  call_t c;

  if (!setup ("{\"pools\":{\"python\":{\"min_ready\":1,\"max_ready\":1}}}"))
    return;
  fake_engine_set_latency (fake (), 20);
  run_until (pools_ready, NULL, 3000);
  submit (&c, "python", "out x", NULL);
  wait_answers (&c, 1, 5000);
  uint64_t samples = NODE->gate.samples;
  uint32_t limit = startgate_limit (&NODE->gate);
  ok (samples == 1 && c.status == SCHED_ST_OK, "a start that worked is a sample (%llu)",
      (unsigned long long) samples);
  for (int i = 0; i < 8; i++)
    {
      run_until (pools_ready, NULL, 3000);
      fake_engine_faults (fake ())->op = op_start ();
      fake_engine_faults (fake ())->fail_call = fake_engine_calls (fake (), op_start ()) + 1;
      submit (&c, "python", "out x", NULL);
      wait_answers (&c, 1, 5000);
    }
  /* On warmbox-oci the start is the run's exchange: a refused connection
   * is a refusal (nothing ran); the Docker engine's start may have. */
  ok (one_request ? !c.has_result && c.answers == 1 : c.status != SCHED_ST_OK,
      "starts refused at once fail the execution");
  ok (NODE->gate.samples == samples && startgate_limit (&NODE->gate) == limit,
      "and are no samples: %llu samples, limit %u", (unsigned long long) NODE->gate.samples,
      startgate_limit (&NODE->gate));
  fake_engine_reset_faults (fake ());
  is_int (teardown ("fast refusals"), 0, "nothing left");
}

/* SIGTERM: executions finish, but the pools stop topping up. */
static void
test_drain_no_topup (void)
{
  call_t c;
  unsigned long creates;

  if (!setup ("{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":2}}}"))
    return;
  run_until (pools_ready, NULL, 3000);
  submit (&c, "python", "sleep 30; out x", NULL);
  sched_ctx_drain (&ctx);
  pool_mgr_set_draining (NODE->pools);
  creates = fake_engine_calls (fake (), FAKE_OP_CREATE);
  ok (wait_answers (&c, 1, 3000) && strcmp (c.out, "x\n") == 0, "the execution in flight finishes");
  run_until (no_execs, NULL, 2000);
  {
    struct timeval tv = {0, 100000};
    event_base_loopexit (ctx.base, &tv);
    event_base_dispatch (ctx.base);
  }
  is_int (fake_engine_calls (fake (), FAKE_OP_CREATE) - creates, 0,
          "no container was created to replace it");
  is_int (teardown ("drain"), 0, "nothing left");
}

/* The orphan reaper's list fails: the next ping tries again. */
static void
test_reaper_retry (void)
{
  if (!setup (NULL))
    return;
  run_until (pools_ready, NULL, 3000);
  ok (NODE->reaped, "the first reap ran at the first answer");
  NODE->reaped = false;
  fake_engine_faults (fake ())->op = FAKE_OP_LIST;
  fake_engine_faults (fake ())->fail_call = fake_engine_calls (fake (), FAKE_OP_LIST) + 1;
  nodes_ping (ctx.nodes);
  run_until (sandbox_idle, NULL, 1000);
  {
    struct timeval tv = {0, 50000};
    event_base_loopexit (ctx.base, &tv);
    event_base_dispatch (ctx.base);
  }
  ok (!NODE->reaped && !NODE->reaping, "a failed list leaves it to be done again");
  nodes_ping (ctx.nodes);
  {
    struct timeval tv = {0, 50000};
    event_base_loopexit (ctx.base, &tv);
    event_base_dispatch (ctx.base);
  }
  ok (NODE->reaped, "the next ping reaps");
  is_int (teardown ("reaper retry"), 0, "nothing left");
}

/* ---- sessions ---------------------------------------------------------- */

/* One client of a session: its call and what it heard. */
typedef struct scall
{
  session_call_t *sc; /* while it may still answer */
  int answers;
  bool refused;
  bool has_result, carried, ended;
  sched_status_t status;
  wb_code_t err_code;
  uint64_t seq, state_bytes;
  char out[256];
  char error[40];
  char warnings[512];
} scall_t;

static void
sdone_cb (void *arg, const sched_result_t *res, const session_outcome_t *so, const wb_err_t *err)
{
  scall_t *c = arg;

  c->answers++;
  c->sc = NULL;
  if (so)
    {
      c->seq = so->seq;
      c->carried = so->carried;
      c->ended = so->ended;
      c->state_bytes = so->state_bytes;
      snprintf (c->error, sizeof c->error, "%s", so->error ? so->error : "");
      for (size_t i = 0; i < so->n_warnings; i++)
        {
          size_t at = strlen (c->warnings);
          snprintf (c->warnings + at, sizeof c->warnings - at, "%s|", so->warnings[i]);
        }
    }
  if (res)
    {
      c->has_result = true;
      c->status = res->status;
      copy_text (c->out, sizeof c->out, res->out.data, res->out.len);
    }
  else
    c->err_code = err->code;
}

static void
ssubmit (scall_t *c, const char *id, const char *code, const char *extra)
{
  wb_buf_t body = WB_BUF_INIT;
  sched_request_t req;
  sched_request_defaults_t d = {.language = "python"};
  wb_err_t err;

  memset (c, 0, sizeof *c);
  if (wb_buf_append_str (&body, "{\"code\":") < 0
      || wb_json_append_string (&body, code, strlen (code)) < 0
      || wb_buf_printf (&body, "%s%s}", extra ? "," : "", extra ? extra : "") < 0
      || sched_request_parse_with (body.data, body.len, ctx.profiles, &d, &req, &err) < 0)
    {
      c->refused = true;
      c->err_code = body.data ? err.code : WB_E_NOMEM;
      wb_buf_free (&body);
      return;
    }
  wb_buf_free (&body);
  c->sc = session_exec_start (ctx.sessions, id, "", &req, sdone_cb, c, &err);
  if (c->sc == NULL)
    {
      c->refused = true;
      c->err_code = err.code;
    }
}

static void
scancel (scall_t *c)
{
  if (c->sc)
    {
      session_exec_cancel (c->sc);
      c->sc = NULL;
    }
}

static bool
sanswered (void *arg)
{
  scall_t *c = arg;
  return c->sc == NULL;
}

static bool
session_running (void *arg)
{
  session_info_t i;
  return session_get (ctx.sessions, arg, "", &i, NULL) == 0 && i.running
         && fake_engine_stats (fake ()).live > 0;
}

static void
new_session (char id[SESSION_ID_LEN + 1], uint32_t idle_ttl_s)
{
  session_spec_t spec = {.owner = "", .language = "python", .idle_ttl_s = idle_ttl_s};
  wb_err_t err;
  if (session_create (ctx.sessions, &spec, id, &err) < 0)
    {
      printf ("# session_create: %s\n", err.msg);
      id[0] = '\0';
    }
}

static void
test_sessions (void)
{
  char id[SESSION_ID_LEN + 1], other[SESSION_ID_LEN + 1];
  scall_t a, b, c;
  session_info_t info;
  wb_err_t err;

  if (!setup ("{\"sessions\": {\"queue_max\": 2, \"state_max_bytes\": 4096, \"idle_ttl_s\": 30}}"))
    {
      ok (false, "sessions: setup");
      return;
    }
  new_session (id, 0);
  ssubmit (&a, id, "state a; out one", NULL);
  run_until (sanswered, &a, 5000);
  ok (a.answers == 1 && a.status == SCHED_ST_OK && a.carried && a.seq == 1 && a.state_bytes == 1,
      "sessions: a call's state is kept (seq 1, 1 byte)");
  ssubmit (&a, id, "showstate; state b", NULL);
  run_until (sanswered, &a, 5000);
  ok (a.answers == 1 && strcmp (a.out, "a") == 0 && a.seq == 2 && a.state_bytes == 2,
      "sessions: the next call gets it (\"%s\") and adds to it", a.out);

  /* One at a time, in order; a third waits too; a fourth is past the bound. */
  ssubmit (&a, id, "sleep 50; state c", NULL);
  ssubmit (&b, id, "showstate", NULL);
  ssubmit (&c, id, "out never", NULL);
  scall_t d;
  ssubmit (&d, id, "out never", NULL);
  ok (session_get (ctx.sessions, id, "", &info, &err) == 0 && info.running && info.waiting == 2
          && d.refused && d.err_code == WB_E_BUSY,
      "sessions: one call runs, two wait, a third is refused busy (queue_max 2)");
  scancel (&c);
  run_until (sanswered, &b, 5000);
  ok (a.answers == 1 && b.answers == 1 && c.answers == 0 && strcmp (b.out, "abc") == 0
          && b.seq == 4,
      "sessions: the waiting call runs after the first and sees its state (\"%s\"); the one "
      "cancelled while waiting never answers",
      b.out);

  /* Cancelled while it runs: nothing of it is carried; the next starts. */
  ssubmit (&a, id, "state lost; hang", NULL);
  ssubmit (&b, id, "showstate", NULL);
  run_until (session_running, id, 5000);
  scancel (&a);
  run_until (sanswered, &b, 5000);
  ok (a.answers == 0 && b.answers == 1 && strcmp (b.out, "abc") == 0,
      "sessions: a call cancelled while it runs carries nothing; the next runs (\"%s\")", b.out);

  /* Killed at its deadline: no report, the state before it kept. */
  ssubmit (&a, id, "state late; hang", "\"timeout_ms\": 100");
  run_until (sanswered, &a, 5000);
  ssubmit (&b, id, "showstate", NULL);
  run_until (sanswered, &b, 5000);
  ok (a.status == SCHED_ST_TIMEOUT && !a.carried && strstr (a.warnings, "status timeout")
          && strcmp (b.out, "abc") == 0,
      "sessions: a call past its deadline: a warning, and the state before it kept (\"%s\")",
      b.out);

  /* A state past the cap: refused, the last good one kept. */
  char big[6000] = "state ";
  memset (big + 6, 'x', 5000);
  big[5006] = '\0';
  ssubmit (&a, id, big, NULL);
  run_until (sanswered, &a, 5000);
  ssubmit (&b, id, "showstate", NULL);
  run_until (sanswered, &b, 5000);
  ok (a.status == SCHED_ST_OK && strcmp (a.error, "session_state_too_large") == 0
          && strcmp (b.out, "abc") == 0,
      "sessions: a state past state_max_bytes: session_state_too_large, the last good one kept");

  /* Deleted while a call runs and another waits. */
  ssubmit (&a, id, "sleep 50; state z", NULL);
  ssubmit (&b, id, "showstate", NULL);
  run_until (session_running, id, 5000);
  ok (session_delete (ctx.sessions, id, "", &err) == 0 && b.answers == 1
          && b.err_code == WB_E_SESSION_EXPIRED,
      "sessions: deleted: the waiting call is answered session_expired at once");
  run_until (sanswered, &a, 5000);
  ok (a.answers == 1 && a.has_result && a.ended && !a.carried,
      "sessions: the running one finishes and is answered, carrying nothing");
  ok (session_get (ctx.sessions, id, "", &info, &err) < 0 && err.code == WB_E_SESSION_EXPIRED
          && strstr (err.msg, "deleted"),
      "sessions: then the id is session_expired (\"%s\")", err.msg);

  /* Ids: another owner, a forged MAC, an id of another instance. */
  new_session (other, 2);
  char forged[SESSION_ID_LEN + 1];
  memcpy (forged, other, sizeof forged);
  size_t last = strlen (forged) - 1;
  forged[last] = forged[last] == '0' ? '1' : '0';
  ok (session_get (ctx.sessions, other, "mallory", &info, &err) < 0 && err.code == WB_E_NOT_FOUND
          && session_get (ctx.sessions, forged, "", &info, &err) < 0 && err.code == WB_E_NOT_FOUND,
      "sessions: another owner's use, or a forged id: 404");

  /* The idle TTL, on the virtual clock. */
  ok (session_get (ctx.sessions, other, "", &info, &err) == 0 && info.idle_ttl_s == 2,
      "sessions: a session asked for a 2 s TTL");
  vclock_advance (3500);
  run_until (sanswered, &a, 1500); /* a is answered: the loop turns once, the sweep runs */
  {
    uint64_t until = now_ms () + 1500;
    while (now_ms () < until)
      {
        struct timeval tick = {0, 100000};
        event_base_loopexit (ctx.base, &tick);
        event_base_loop (ctx.base, EVLOOP_ONCE);
      }
  }
  ok (session_get (ctx.sessions, other, "", &info, &err) < 0 && err.code == WB_E_SESSION_EXPIRED
          && strstr (err.msg, "idle"),
      "sessions: idle past its TTL: ended (\"%s\")", err.msg);

  /* A call waiting when the daemon goes: answered, never lost. */
  new_session (id, 0);
  ssubmit (&a, id, "hang", NULL);
  ssubmit (&b, id, "out x", NULL);
  run_until (session_running, id, 5000);
  is_int (teardown ("sessions") + (a.answers != 1) + (b.answers != 1), 0,
          "sessions: at shutdown the running and the waiting call are answered, nothing left");
}

/* Node names in ids: a load balancer's route (dist/haproxy.cfg). */
/* A call of code in session id of owner (ssubmit's, for an owner). */
static void
ssubmit_as (scall_t *c, const char *id, const char *owner, const char *code)
{
  wb_buf_t body = WB_BUF_INIT;
  sched_request_t req;
  sched_request_defaults_t d = {.language = "python"};
  wb_err_t err;

  memset (c, 0, sizeof *c);
  if (wb_buf_append_str (&body, "{\"code\":") == 0
      && wb_json_append_string (&body, code, strlen (code)) == 0
      && wb_buf_append_str (&body, "}") == 0
      && sched_request_parse_with (body.data, body.len, ctx.profiles, &d, &req, &err) == 0)
    c->sc = session_exec_start (ctx.sessions, id, owner, &req, sdone_cb, c, &err);
  c->refused = c->sc == NULL;
  wb_buf_free (&body);
}

/* A call of owner in session id that adds n bytes to the session's state
 * (the fake init's "state TEXT": what the call got, then TEXT). */
static void
state_call (scall_t *c, const char *id, const char *owner, size_t n)
{
  char *code = malloc (n + 7);
  if (code == NULL)
    {
      memset (c, 0, sizeof *c);
      c->refused = true;
      return;
    }
  memcpy (code, "state ", 6);
  memset (code + 6, 'x', n);
  code[n + 6] = '\0';
  ssubmit_as (c, id, owner, code);
  free (code);
}

static void
new_session_of (char id[SESSION_ID_LEN + 1], const char *owner)
{
  session_spec_t spec = {.owner = owner, .language = "python"};
  wb_err_t err;
  if (session_create (ctx.sessions, &spec, id, &err) < 0)
    {
      printf ("# session_create: %s\n", err.msg);
      id[0] = '\0';
    }
}

static bool
session_alive (const char *id, const char *owner)
{
  session_info_t i;
  return session_get (ctx.sessions, id, owner, &i, NULL) == 0;
}

/* Issue 34, item 3: one owner's calls never end another owner's sessions.
 * Past its quota (sessions.owner_max_bytes), or past the daemon's total,
 * an owner's own least recently used idle session goes; when that is not
 * enough, its call keeps what the session held (session_quota,
 * session_memory_full) and nobody else's session goes. */
static void
test_session_owner_quota (void)
{
  char bob[SESSION_ID_LEN + 1], a[3][SESSION_ID_LEN + 1];
  scall_t c;

  if (!setup ("{\"sessions\": {\"max_bytes\": 4194304, \"owner_max_bytes\": 1048576, "
              "\"state_max_bytes\": 2097152}}"))
    return;
  new_session_of (bob, "token:bob");
  state_call (&c, bob, "token:bob", 300000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && c.carried, "bob's session holds 300 kB");
  for (int i = 0; i < 3; i++)
    {
      new_session_of (a[i], "token:alice");
      state_call (&c, a[i], "token:alice", 400000);
      ok ((!c.refused && run_until (sanswered, &c, 5000)) && c.carried && c.error[0] == '\0',
          "alice's session %d holds 400 kB (%s)", i, c.error);
    }
  ok (!session_alive (a[0], "token:alice") && session_alive (a[1], "token:alice")
          && session_alive (a[2], "token:alice"),
      "past alice's quota of 1 MiB her own least recently used session went");
  ok (session_alive (bob, "token:bob"), "bob's session is still there");
  state_call (&c, a[2], "token:alice", 800000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && !c.carried
          && strcmp (c.error, "session_quota") == 0 && strstr (c.warnings, "quota"),
      "1.2 MB of state, which alice's quota cannot hold even without her others: "
      "session_quota, kept as it was (%s)",
      c.error);
  ok (session_alive (bob, "token:bob") && session_alive (a[1], "token:alice"),
      "and nothing went for it, bob's least of all");
  is_int (teardown ("owner quota"), 0, "nothing left");

  /* The daemon's total (1 MiB, the owner's quota as large): bob holds 500 kB. */
  if (!setup ("{\"sessions\": {\"max_bytes\": 1048576, \"state_max_bytes\": 1048576}}"))
    return;
  new_session_of (bob, "token:bob");
  state_call (&c, bob, "token:bob", 500000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && c.carried,
      "bob's session holds 500 kB of a 1 MiB total");
  new_session_of (a[0], "token:alice");
  new_session_of (a[1], "token:alice");
  state_call (&c, a[0], "token:alice", 400000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && c.carried, "alice's first holds 400 kB");
  state_call (&c, a[1], "token:alice", 400000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && c.carried
          && !session_alive (a[0], "token:alice"),
      "her second's 400 kB pass the total: her own first went for it");
  state_call (&c, a[1], "token:alice", 600000);
  ok ((!c.refused && run_until (sanswered, &c, 5000)) && !c.carried
          && strcmp (c.error, "session_memory_full") == 0,
      "600 kB more would need bob's: session_memory_full, alice's kept as it was (%s)", c.error);
  ok (session_alive (bob, "token:bob"), "bob's session is still there");
  is_int (teardown ("total"), 0, "nothing left");
}

/* The E2B API's use of sessions: files between calls (caps, names,
 * refused while a call runs), access tokens, a session of any language. */
static void
test_session_files (void)
{
  char id[SESSION_ID_LEN + 1], token[33], owner[80];
  const char *data;
  size_t len;
  scall_t a;
  session_info_t info;
  wb_err_t err;

  if (!setup ("{\"sessions\": {\"files_max\": 2, \"files_max_bytes\": 10}}"))
    {
      ok (false, "session files: setup");
      return;
    }
  session_spec_t spec = {.owner = "token:alice",
                         .language = "python",
                         .any_language = true,
                         .attrs = "{\"template\":\"base\"}"};
  if (session_create (ctx.sessions, &spec, id, &err) < 0)
    {
      ok (false, "session files: create (%s)", err.msg);
      return;
    }
  ok (session_file_write (ctx.sessions, id, "token:alice", "a.txt", "hello", 5, &err) == 0
          && session_file_read (ctx.sessions, id, "token:alice", "a.txt", &data, &len, NULL, &err)
                 == 0
          && len == 5 && memcmp (data, "hello", 5) == 0,
      "session files: written, then read back");
  ok (session_file_write (ctx.sessions, id, "token:alice", "a.txt", "hey", 3, &err) == 0
          && session_get (ctx.sessions, id, "token:alice", &info, &err) == 0 && info.files == 1
          && info.files_bytes == 3 && info.attrs && strstr (info.attrs, "base"),
      "session files: a write replaces the file (1 file, 3 bytes), the attributes kept");
  ok (session_file_write (ctx.sessions, id, "token:alice", "b.txt", "12345678", 8, &err) < 0
          && err.code == WB_E_TOO_LARGE,
      "session files: past files_max_bytes: 413, nothing changed");
  ok (session_file_write (ctx.sessions, id, "token:alice", "../x", "1", 1, &err) < 0
          && err.code == WB_E_INVALID
          && session_file_write (ctx.sessions, id, "token:alice", ".warmbox-session", "1", 1, &err)
                 < 0
          && err.code == WB_E_INVALID,
      "session files: a path and the sandbox's own names are refused (400)");
  ok (session_file_write (ctx.sessions, id, "token:bob", "c.txt", "1", 1, &err) < 0
          && err.code == WB_E_NOT_FOUND
          && session_file_read (ctx.sessions, id, "token:bob", "a.txt", &data, &len, NULL, &err) < 0
          && err.code == WB_E_NOT_FOUND,
      "session files: another owner's write and read: 404");
  ok (session_file_rename (ctx.sessions, id, "token:alice", "a.txt", "c.txt", &err) == 0
          && session_file_read (ctx.sessions, id, "token:alice", "a.txt", &data, &len, NULL, &err)
                 < 0
          && session_file_read (ctx.sessions, id, "token:alice", "c.txt", &data, &len, NULL, &err)
                 == 0
          && len == 3,
      "session files: renamed");
  ok (session_file_remove (ctx.sessions, id, "token:alice", "c.txt", &err) == 0
          && session_file_remove (ctx.sessions, id, "token:alice", "c.txt", &err) == 1
          && session_get (ctx.sessions, id, "token:alice", &info, &err) == 0 && info.files == 0
          && info.files_bytes == 0,
      "session files: removed (then: there was none), the bytes given back");

  /* Access tokens: the owner's, by id; never another id's. */
  ok (session_access_token (ctx.sessions, id, "token:alice", token, &err) == 0
          && strlen (token) == 32
          && session_owner_by_token (ctx.sessions, id, token, owner, &err) == 0
          && strcmp (owner, "token:alice") == 0,
      "access tokens: the owner found by the sandbox's id and its token");
  token[0] = token[0] == 'a' ? 'b' : 'a';
  ok (session_owner_by_token (ctx.sessions, id, token, owner, &err) < 0
          && err.code == WB_E_NOT_FOUND
          && session_owner_by_token (ctx.sessions, id, "short", owner, &err) < 0
          && session_owner_by_token (ctx.sessions, id, NULL, owner, &err) < 0,
      "access tokens: a wrong, short or absent token: 404");

  /* While a call runs, the files do not change under it. */
  ok (session_file_write (ctx.sessions, id, "token:alice", "d.txt", "1", 1, &err) == 0,
      "session files: a file before a call");
  ssubmit_as (&a, id, "token:alice", "sleep 50; out done");
  ok (a.sc && session_file_write (ctx.sessions, id, "token:alice", "e.txt", "1", 1, &err) < 0
          && err.code == WB_E_BUSY
          && session_file_remove (ctx.sessions, id, "token:alice", "d.txt", &err) < 0
          && err.code == WB_E_BUSY
          && session_file_read (ctx.sessions, id, "token:alice", "d.txt", &data, &len, NULL, &err)
                 == 0,
      "session files: a write or remove while a call runs: 503; a read still answers");
  run_until (sanswered, &a, 5000);
  ok (a.answers == 1
          && session_file_write (ctx.sessions, id, "token:alice", "e.txt", "1", 1, &err) == 0,
      "session files: once it is answered, writes go through again");
  {
    const char *names[2] = {"f.txt", "g.txt"}, *datas[2] = {"1", "123456789"};
    size_t lens[2] = {1, 9};
    ok (session_files_write (ctx.sessions, id, "token:alice", names, datas, lens, 2, &err) < 0
            && err.code == WB_E_TOO_LARGE
            && session_file_read (ctx.sessions, id, "token:alice", "f.txt", &data, &len, NULL, &err)
                   < 0,
        "session files: several at once past a cap: none of them written");
  }
  /* A file named as the program's own steps aside for the call, and stays. */
  ok (session_file_remove (ctx.sessions, id, "token:alice", "d.txt", &err) == 0
          && session_file_write (ctx.sessions, id, "token:alice", "main.py", "x", 1, &err) == 0,
      "session files: a file named main.py (the program's own name)");
  ssubmit_as (&a, id, "token:alice", "out done");
  run_until (sanswered, &a, 5000);
  ok (a.answers == 1
          && session_file_read (ctx.sessions, id, "token:alice", "main.py", &data, &len, NULL, &err)
                 == 0
          && len == 1,
      "session files: after a call, main.py is still the session's (carried %d: %s)", a.carried,
      a.warnings);
  ok (session_delete (ctx.sessions, id, "token:alice", &err) == 0
          && session_owner_by_token (ctx.sessions, id, token, owner, &err) < 0
          && session_file_read (ctx.sessions, id, "token:alice", "e.txt", &data, &len, NULL, &err)
                 < 0
          && err.code == WB_E_SESSION_EXPIRED,
      "session files: an ended session's files are gone (410)");
  teardown ("session files");
}

static void
test_session_nodes (void)
{
  char id[SESSION_ID_LEN + 1], theirs[SESSION_ID_LEN + 1];
  session_info_t info;
  wb_err_t err;
  scall_t a;

  if (!setup ("{\"sessions\": {\"node\": \"wb-a\"}}"))
    {
      ok (false, "session nodes: setup");
      return;
    }
  new_session (id, 0);
  ok (strncmp (id, "ses_wb-a.", 9) == 0 && strlen (id) == 9 + 56,
      "session nodes: the id names the daemon's node (%s)", id);
  ssubmit (&a, id, "state n; out ok", NULL);
  run_until (sanswered, &a, 5000);
  ok (a.has_result && a.carried, "session nodes: it runs");
  snprintf (theirs, sizeof theirs, "ses_wb-b.%s", id + 9);
  ok (session_get (ctx.sessions, theirs, "", &info, &err) < 0 && err.code == WB_E_SESSION_EXPIRED
          && strstr (err.msg, "\"wb-b\"") && strstr (err.msg, "\"wb-a\""),
      "session nodes: an id of another node: 410, naming both (\"%s\")", err.msg);
  snprintf (theirs, sizeof theirs, "ses_%s", id + 9);
  ok (session_get (ctx.sessions, theirs, "", &info, &err) < 0 && err.code == WB_E_NOT_FOUND,
      "session nodes: the same id without its node: its MAC does not hold (404)");
  is_int (teardown ("session nodes"), 0, "session nodes: nothing left");

  /* The maximum life, whatever the use: a session used every second ends
   * at max_life_s. */
  if (!setup ("{\"sessions\": {\"max_life_s\": 5, \"idle_ttl_s\": 3600}}"))
    {
      ok (false, "session life: setup");
      return;
    }
  new_session (id, 0);
  bool alive_at_4 = false;
  for (int i = 0; i < 8; i++)
    {
      ssubmit (&a, id, "out x", NULL);
      run_until (sanswered, &a, 5000);
      vclock_advance (1000);
      if (i == 3)
        alive_at_4 = session_get (ctx.sessions, id, "", &info, &err) == 0;
      {
        struct timeval tick = {0, 50000};
        event_base_loopexit (ctx.base, &tick);
        event_base_loop (ctx.base, EVLOOP_ONCE);
      }
    }
  ok (alive_at_4 && session_get (ctx.sessions, id, "", &info, &err) < 0
          && err.code == WB_E_SESSION_EXPIRED && strstr (err.msg, "maximum life"),
      "session life: in use every second, alive at 4 s, ended by max_life_s 5 (\"%s\")", err.msg);
  is_int (teardown ("session life"), 0, "session life: nothing left");
  const char *bad = "{\"sessions\": {\"node\": \"Wb A\"}}";
  memset (&ctx, 0, sizeof ctx);
  ctx.base = event_base_new ();
  ok (sched_config_defaults (&ctx.cfg, &err) == 0
          && sched_config_parse (&ctx.cfg, bad, strlen (bad), &err) == 0,
      "session nodes: a bad node name parses as a string");
  snprintf (db_path, sizeof db_path, "%s/history-%d.db", dir, ++db_serial);
  ctx.cfg.store_path = strdup (db_path);
  ctx.profiles = profiles;
  fake_engine_config_reset ();
  ok (sched_ctx_init (&ctx, &err) < 0 && strstr (err.msg, "sessions.node"),
      "session nodes: and the daemon refuses it at start (\"%s\")", err.msg);
  sched_ctx_clear (&ctx, 1000);
  ctx.profiles = NULL;
  sched_config_clear (&ctx.cfg);
  event_base_free (ctx.base);
  ctx.base = NULL;
}

/* Streamed output (req.stream_cb): what the client gets as it comes is the
 * program's bytes exactly, never the init's marks or report, and nothing
 * once the client left. */
static wb_buf_t streamed[3];
static int stream_calls;

static void
collect_stream (void *arg, int stream, const char *data, size_t len)
{
  (void) arg;
  stream_calls++;
  if (stream >= 1 && stream <= 2 && wb_buf_append (&streamed[stream], data, len) < 0)
    abort ();
}

static bool
start_streamed (call_t *c, const char *code)
{
  wb_buf_t body = WB_BUF_INIT;
  sched_request_t req;
  wb_err_t err;

  memset (c, 0, sizeof *c);
  if (wb_buf_append_str (&body, "{\"language\":\"python\",\"code\":") < 0
      || wb_json_append_string (&body, code, strlen (code)) < 0
      || wb_buf_append_str (&body, "}") < 0
      || sched_request_parse (body.data, body.len, ctx.profiles, &req, &err) < 0)
    {
      wb_buf_free (&body);
      return false;
    }
  wb_buf_free (&body);
  req.stream_cb = collect_stream;
  c->ex = sched_exec_start (ctx.execs, &req, done_cb, c, &err);
  return c->ex != NULL;
}

static bool
streamed_something (void *arg)
{
  (void) arg;
  return streamed[1].len > 0;
}

static void
test_streaming (void)
{
  call_t c;

  if (!setup (NULL))
    {
      ok (false, "streaming: setup");
      return;
    }
  ok (start_streamed (&c, "out one; err two; file r.txt hi; out three; err four"),
      "streaming: started");
  wait_answers (&c, 1, 5000);
  ok (c.answers == 1 && c.status == SCHED_ST_OK && streamed[1].len == strlen (c.out)
          && memcmp (streamed[1].data, c.out, streamed[1].len) == 0
          && streamed[2].len == strlen (c.err)
          && memcmp (streamed[2].data, c.err, streamed[2].len) == 0
          && strcmp (c.out, "one\nthree\n") == 0 && strcmp (c.err, "two\nfour\n") == 0,
      "streaming: the chunks are the result's stdout and stderr exactly (no mark, no report)");
  for (int i = 0; i < 3; i++)
    wb_buf_reset (&streamed[i]);

  /* Cancelled mid-run: nothing more reaches the client that left. */
  ok (start_streamed (&c, "out a; sleep 100; out b; flood 100000"), "streaming: started again");
  run_until (streamed_something, NULL, 5000);
  int calls = stream_calls;
  cancel (&c);
  run_until (no_execs, NULL, 5000);
  ok (calls > 0 && stream_calls == calls && c.answers == 0,
      "streaming: after the client left, no chunk and no answer (%d chunks before)", calls);
  for (int i = 0; i < 3; i++)
    wb_buf_free (&streamed[i]);
  is_int (teardown ("streaming"), 0, "streaming: nothing left");
}

static bool rows_written (void *arg);

/* Past max_concurrent executions queue, fair across clients; a full queue
 * refuses at once; a queued one can leave or time out. */
static void
test_admission (void)
{
  call_t a[8], b[3], extra[2], late;
  int b_last = 0, a_after_b = 0;

  if (!setup ("{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":2}},\"max_concurrent\":2,"
              "\"admission\":{\"queue_max\":10}}"))
    return;
  run_until (pools_ready, NULL, 3000);
  ctx.cfg.max_wait_ms = 5000;
  sched_ctx_configure (&ctx);
  /* Client "a" bursts 8, then client "b" sends 3: b must not wait behind
   * all of a's. */
  for (int i = 0; i < 8; i++)
    submit_as (&a[i], "a", "python", "sleep 10; out a", NULL);
  for (int i = 0; i < 3; i++)
    submit_as (&b[i], "b", "python", "sleep 10; out b", NULL);
  is_int (sched_exec_queued (ctx.execs), 9, "2 run, 9 wait in the admission queue");
  submit_as (&extra[0], "a", "python", "out x", NULL);
  ok (!extra[0].refused_at_door, "a tenth waits too");
  submit_as (&extra[1], "b", "python", "out x", NULL);
  ok (extra[1].refused_at_door && extra[1].err_code == WB_E_BUSY,
      "an eleventh is refused at once: the queue is full (busy)");
  /* One queued execution's client leaves, another times out. */
  cancel (&a[7]);
  ok (wait_answers (a, 8, 10000) && wait_answers (b, 3, 10000) && wait_answers (extra, 1, 10000),
      "the others are all answered");
  for (int i = 0; i < 3; i++)
    b_last = b[i].order > b_last ? b[i].order : b_last;
  for (int i = 0; i < 7; i++)
    a_after_b += a[i].order > b_last;
  ok (a_after_b >= 2,
      "b's three are served in turn with a's, not after all of them (%d of a's "
      "finished after b's last)",
      a_after_b);
  for (int i = 0; i < 7; i++)
    if (strcmp (a[i].out, "a\n") != 0)
      ok (false, "a[%d] answered %s", i, a[i].out);
  run_until (no_execs, NULL, 3000);
  run_until (one_final_row, NULL, 1000);
  ok (run_until (rows_written, &(int){11}, 3000) && rows ("cancelled") == 1,
      "eleven ran, the one that left is cancelled (%d rows)", rows (NULL));
  /* A queued execution whose wait passes max_wait_ms. */
  ctx.cfg.max_wait_ms = 50;
  sched_ctx_configure (&ctx);
  submit_as (&a[0], "a", "python", "sleep 300; out a", NULL);
  submit_as (&a[1], "a", "python", "sleep 300; out a", NULL);
  submit_as (&late, "b", "python", "out late", NULL);
  ok (wait_answers (&late, 1, 3000) && !late.has_result && late.err_code == WB_E_BUSY,
      "a queued execution that cannot get room within max_wait_ms: busy");
  run_until (no_execs, NULL, 3000);
  is_int (teardown ("admission"), 0, "nothing left");
}

/* ---- fault loops ----------------------------------------------------- */

#define LOAD 8

/* A small mixed load: hits, a non-default memory limit (transient pool), a
 * pool of size 0, a timeout, a flood, an OOM, a client that leaves.
 * Returns the problems found. */
static int
run_load (const char *what, int *admitted_out)
{
  call_t c[LOAD];
  int bad = 0, admitted = 0;
  /* Short deadlines: a hung engine call holds an execution until its own. */
  submit (&c[0], "python", "out a", "\"timeout_ms\":400");
  submit (&c[1], "python", "out b; exit 1", "\"timeout_ms\":400");
  submit (&c[2], "javascript", "echo", "\"stdin\":\"x\",\"timeout_ms\":400");
  submit (&c[3], "python", "out big", "\"memory_mb\":400,\"timeout_ms\":400");
  submit (&c[4], "python", "hang", "\"timeout_ms\":20");
  submit (&c[5], "python", "flood 300000", "\"timeout_ms\":400");
  submit (&c[6], "python", "oom", "\"timeout_ms\":400");
  submit (&c[7], "python", "sleep 10; out late", "\"timeout_ms\":400");
  for (int i = 0; i < 3; i++)
    event_base_loop (ctx.base, EVLOOP_NONBLOCK);
  cancel (&c[7]);
  if (!wait_answers (c, (int) WB_ARRAY_SIZE (c), 20000))
    {
      bad++;
      printf ("# %s: not every execution answered\n", what);
    }
  for (int i = 0; i < LOAD; i++)
    {
      int want = c[i].refused_at_door || c[i].cancelled ? 0 : 1;
      admitted += !c[i].refused_at_door;
      if (c[i].answers != want)
        {
          bad++;
          printf ("# %s: execution %d answered %d times\n", what, i, c[i].answers);
        }
      /* An answer is a result or a clear error. */
      if (c[i].answers == 1 && !c[i].has_result && c[i].err_code == WB_OK)
        {
          bad++;
          printf ("# %s: execution %d: an error without a code\n", what, i);
        }
    }
  if (!run_until (no_execs, NULL, 20000))
    {
      bad++;
      printf ("# %s: executions never ended\n", what);
    }
  *admitted_out = admitted;
  return bad;
}

static bool
settled (void *arg)
{
  (void) arg;
  return sched_exec_count (ctx.execs) == 0 && sbx_busy (NODE->sbx) == 0
         && fake_engine_stats (fake ()).requests <= 1; /* the reconciler's list may be out */
}

static bool
engine_matches_sandbox (void *arg)
{
  static uint64_t last;
  (void) arg;
  if (!settled (NULL))
    return false;
  if (fake_engine_stats (fake ()).live == sbx_count (NODE->sbx))
    return true;
  if (due (&last, 10))
    sbx_reconcile (NODE->sbx);
  return false;
}

/* After a run: the engine holds exactly what the sandbox knows (ready
 * containers), nothing was started twice. */
static int
check_settled (const char *what)
{
  fake_engine_stats_t st;
  int bad = 0;

  fake_engine_reset_faults (fake ());
  fake_engine_set_down (fake (), false);
  sbx_reconcile (NODE->sbx); /* a garbled create reply may have left one */
  if (!run_until (settled, NULL, 10000))
    {
      bad++;
      printf ("# %s: did not settle (%zu executions, %u engine calls)\n", what,
              sched_exec_count (ctx.execs), sbx_busy (NODE->sbx));
    }
  /* Give reconcile passes the time to find what a lost reply or a
   * dropped removal left, and their removals to finish. */
  run_until (engine_matches_sandbox, NULL, 5000);
  st = fake_engine_stats (fake ());
  if (st.double_starts)
    {
      bad++;
      printf ("# %s: %lu containers started twice\n", what, st.double_starts);
    }
  if (st.live != sbx_count (NODE->sbx))
    {
      static int shown;
      bad++;
      printf ("# %s: the engine holds %zu containers, the sandbox knows %u\n", what, st.live,
              sbx_count (NODE->sbx));
      for (fake_container_t *fc = fake_engine_containers (fake ()); fc && shown < 3;
           fc = fake_container_next (fc))
        printf ("#   %.12s state %d starts %u pool %s\n", fake_container_id (fc),
                (int) fake_container_state (fc), fake_container_starts (fc),
                fake_container_label (fc, "warmbox.pool"));
      shown++;
    }
  return bad;
}

static bool
rows_written (void *arg)
{
  return rows ("final") >= *(int *) arg && rows ("running") == 0;
}

static const char *const pools_cfg
    = "{\"pools\":{\"python\":{\"min_ready\":2,\"max_ready\":3},"
      "\"javascript\":{\"min_ready\":1,\"max_ready\":1}},\"create_concurrency\":2}";

typedef enum knob
{
  KNOB_FAIL,
  KNOB_HANG,
  KNOB_GARBAGE,
  KNOB_LOST,
  KNOB_NULL
} knob_t;

/* The Nth engine call of the load faults, for every N the load reaches.
 * One daemon for the whole loop: what a fault leaves behind must not
 * hurt the next run either. */
static void
test_engine_faults (const char *name, knob_t knob)
{
  int problems = 0, runs = 0, injected = 0, rows_before = 0, rows_want;

  if (!setup (pools_cfg))
    {
      ok (false, "%s: set up", name);
      return;
    }
  run_until (pools_ready, NULL, 5000);
  for (unsigned long n = 1; n < 400; n++)
    {
      fake_engine_faults_t *f = fake_engine_faults (fake ());
      unsigned long base = fake_engine_calls (fake (), FAKE_OP_ANY);
      unsigned long at = base + n;
      char what[64];
      int admitted = 0;
      uint64_t t0 = now_ms ();

      run_until (pools_ready, NULL, 2000);
      if (getenv ("WB_TIMES"))
        printf ("# %s %lu: pools ready in %llu ms\n", name, n,
                (unsigned long long) (now_ms () - t0));
      f->op = FAKE_OP_ANY;
      f->fail_call = knob == KNOB_FAIL ? at : 0;
      f->hang_call = knob == KNOB_HANG ? at : 0;
      f->garbage_call = knob == KNOB_GARBAGE ? at : 0;
      f->lost_call = knob == KNOB_LOST ? at : 0;
      f->null_call = knob == KNOB_NULL ? at : 0;
      snprintf (what, sizeof what, "%s of engine call %lu", name, n);
      t0 = now_ms ();
      problems += run_load (what, &admitted);
      if (getenv ("WB_TIMES"))
        printf ("# %s: load %llu ms\n", what, (unsigned long long) (now_ms () - t0));
      runs++;
      bool reached = fake_engine_calls (fake (), FAKE_OP_ANY) >= at;
      injected += reached;
      t0 = now_ms ();
      problems += check_settled (what);
      if (getenv ("WB_TIMES"))
        printf ("# %s: settle %llu ms\n", what, (unsigned long long) (now_ms () - t0));
      /* Every admitted execution has its row, finished (rows of executions
       * that never started are written without holding up their end). */
      rows_want = rows_before + admitted;
      run_until (rows_written, &rows_want, 3000);
      if (rows ("final") != rows_before + admitted || rows ("running") != 0)
        {
          problems++;
          printf ("# %s: %d admitted, %d new finished rows, %d running\n", what, admitted,
                  rows ("final") - rows_before, rows ("running"));
        }
      rows_before = rows ("final");
      if (!reached)
        break; /* the load made fewer calls than n: every call was tried */
    }
  printf ("# %d engine call faults injected (%s)\n", injected, name);
  is_int (problems, 0, "%s: %d runs, the Nth engine call faulted in each, no problem", name, runs);
  is_int (teardown (name), 0, "%s: nothing left at the end", name);
}

/* The Nth allocation fails, for every N the load reaches (allocations of
 * warmbox's objects, the fake engine, cJSON and libevent). */
static void
test_alloc_faults (void)
{
  int problems = 0, runs = 0, injected = 0;
  long n;

  if (!setup (pools_cfg))
    {
      ok (false, "allocation faults: set up");
      return;
    }
  run_until (pools_ready, NULL, 5000);
  quiet = true;
  for (n = getenv ("WB_ALLOC_FROM") ? atol (getenv ("WB_ALLOC_FROM")) : 1; n < 100000; n++)
    {
      char what[64];
      int admitted = 0;
      bool fired;

      run_until (pools_ready, NULL, 2000);
      snprintf (what, sizeof what, "allocation %ld", n);
      failmalloc_arm (n);
      problems += run_load (what, &admitted);
      fired = failmalloc_fired ();
      injected += fired;
      failmalloc_arm (0);
      problems += check_settled (what);
      runs++;
#ifdef HAVE_LSAN
      /* A heap scan is slow: every 64 runs, and at the end. */
      if ((n % 64 == 0 || !fired) && __lsan_do_recoverable_leak_check ())
        {
          problems++;
          printf ("# a leak in allocations %ld to %ld\n", n - 63 > 1 ? n - 63 : 1, n);
        }
#endif
      if (!fired)
        break;
    }
  quiet = false;
  printf ("# %d allocation faults injected\n", injected);
  ok (runs > 100, "allocation faults: %d runs (the load makes %ld allocations)", runs, n - 1);
  is_int (problems, 0, "allocation faults: every answer given once, nothing left, no leak");
  is_int (teardown ("allocation faults"), 0, "allocation faults: nothing left at the end");
}

/* Reports (never asserts) the virtual time a scenario took and the real
 * time it cost, with the real time the loop spent waiting for the
 * history's writer thread. */
#define TIMED(call)                                                                                \
  do                                                                                               \
    {                                                                                              \
      uint64_t t0_ = now_ms (), r0_ = vclock_real_ms (), w0_ = vclock_waited_ms ();                \
      call;                                                                                        \
      printf ("# %s: %.1f s virtual, %.2f s real (%.2f s waiting for threads)\n", #call,           \
              (double) (now_ms () - t0_) / 1000.0, (double) (vclock_real_ms () - r0_) / 1000.0,    \
              (double) (vclock_waited_ms () - w0_) / 1000.0);                                      \
    }                                                                                              \
  while (0)

/* A wait the engine answers with an error (Podman did, once in a few
 * hundred runs under load): the exit comes from the container's state,
 * and the answer is right. */
static bool
wait_calls_above (void *arg)
{
  return fake_engine_calls (fake (), FAKE_OP_WAIT) > *(unsigned long *) arg;
}

static void
test_wait_fallback (void)
{
  call_t c;
  fake_engine_faults_t *f;

  if (!setup (NULL))
    return;
  run_until (pools_ready, NULL, 3000);
  f = fake_engine_faults (fake ());
  f->op = FAKE_OP_WAIT;
  f->garbage_call = fake_engine_calls (fake (), FAKE_OP_WAIT) + 1;
  submit (&c, "python", "out fine; exit 5", NULL);
  ok (wait_answers (&c, 1, 5000), "answered");
  ok (c.has_result && c.status == SCHED_ST_OK && c.exit_code == 5 && strcmp (c.out, "fine\n") == 0,
      "a garbled wait: the exit code (5) came from the container's state, status ok (%d %d)",
      c.status, c.exit_code);
  /* Garbled while the program still runs: the inspect says running, and
   * the wait that follows (not-running) gets its exit. */
  f->garbage_call = fake_engine_calls (fake (), FAKE_OP_WAIT) + 1;
  submit (&c, "python", "sleep 150; out late; exit 3", NULL);
  ok (wait_answers (&c, 1, 5000), "answered");
  ok (c.has_result && c.status == SCHED_ST_OK && c.exit_code == 3 && strcmp (c.out, "late\n") == 0,
      "a garbled wait while it runs: waited on again, its exit code (3), status ok (%d %d)",
      c.status, c.exit_code);

  /* The engine fails the wait while the program runs, the inspect says
   * running, and the program exits before the second wait reaches the
   * engine: that wait (not-running) meets the exit at once, where a
   * next-exit one would wait for an exit that has been. */
  {
    unsigned long waits;
    fake_container_t *running = NULL;
    submit (&c, "python", "sleep 5000; out never", NULL);
    run_to_state (&c, "running", 2000);
    for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
      if (fake_container_state (fc) == FAKE_RUNNING)
        running = fc;
    fake_engine_set_latency (fake (), 100);
    waits = fake_engine_calls (fake (), FAKE_OP_WAIT);
    fake_engine_fail_waits (fake ());
    ok (running && run_until (wait_calls_above, &waits, 2000),
        "a failed wait while it runs: inspected (running), then waited on again");
    if (running)
      fake_container_exit (running, 7, false); /* before that wait reaches the engine */
    ok (wait_answers (&c, 1, 5000), "answered");
    ok (c.has_result && c.status == SCHED_ST_OK && c.exit_code == 7,
        "an exit between the inspect and the second wait is not missed: exit code 7, status ok (%d "
        "%d)",
        c.status, c.exit_code);
    fake_engine_set_latency (fake (), 0);
  }

  /* The second wait fails too: the program may still run, so it is
   * killed (not left to the grace) and the answer says the sandbox
   * failed. */
  {
    unsigned long waits, kills;
    submit (&c, "python", "sleep 5000; out never", NULL);
    run_to_state (&c, "running", 2000);
    waits = fake_engine_calls (fake (), FAKE_OP_WAIT);
    fake_engine_fail_waits (fake ());
    ok (run_until (wait_calls_above, &waits, 2000),
        "a failed wait: inspected (running), waited on again");
    kills = fake_engine_calls (fake (), FAKE_OP_KILL);
    fake_engine_fail_waits (fake ());
    ok (wait_answers (&c, 1, 5000), "answered");
    ok (fake_engine_calls (fake (), FAKE_OP_KILL) > kills && c.has_result
            && c.status != SCHED_ST_OK,
        "the second wait failing too: the program is killed, status not ok (%d)", c.status);
  }
  is_int (teardown ("wait fallback"), 0, "nothing left");
}

/* ---- how it ended: the program, or something else ------------------- */

/* Rows of the history whose status and exit code are these (exit code -1:
 * NULL). */
static int
rows_ending (const char *status, int exit_code)
{
  char sql[200];

  if (exit_code < 0)
    snprintf (sql, sizeof sql,
              "SELECT count(*) FROM executions WHERE status = '%s' AND exit_code IS NULL", status);
  else
    snprintf (sql, sizeof sql,
              "SELECT count(*) FROM executions WHERE status = '%s' AND exit_code = %d", status,
              exit_code);
  return query_int (sql);
}

static void
test_endings (void)
{
  call_t c[6];

  if (!ok (setup (NULL), "set up"))
    return;
  /* Every profile runs /warmbox/init: a container that exits on its own
   * without its init's whole report was ended by something else. */
  submit (&c[0], "python", "out partial; die 2", NULL);    /* gVisor's sentry dying */
  submit (&c[1], "python", "err half; die 137", NULL);     /* the init SIGKILLed by the program */
  submit (&c[2], "python", "out x; cutreport 0", NULL);    /* the report cut short */
  submit (&c[3], "python", "oomkill", NULL);               /* memory: the kernel, OOMKilled */
  submit (&c[4], "python", "out fine; exit 2", NULL);      /* the program's own 2 */
  submit (&c[5], "c", "compile 0 ; out ran; die 1", NULL); /* after the run mark */
  ok (wait_answers (c, 6, 10000), "answered");
  {
    /* The engine never delivers the end of the output: nobody can tell
     * whether the init reported, so it is the engine's failure, said so. */
    call_t s;
    submit (&s, "python", "out part; stall 0", NULL);
    ok (wait_answers (&s, 1, 10000) && s.status == SCHED_ST_ERROR && s.exit_code == -1
            && s.has_error && strcmp (s.out, "part\n") == 0,
        "an output stream that does not end after the exit: error, no exit code, not sandbox_error "
        "(%d %d)",
        s.status, s.exit_code);
  }
  ok (c[0].status == SCHED_ST_SANDBOX_ERROR && c[0].exit_code == -1 && c[0].has_error
          && !c[0].has_usage && strcmp (c[0].out, "partial\n") == 0,
      "exit 2 with no report of the init: sandbox_error, no exit code, a sentence, the output so "
      "far (%d %d)",
      c[0].status, c[0].exit_code);
  ok (c[1].status == SCHED_ST_SANDBOX_ERROR && c[1].exit_code == -1
          && strcmp (c[1].err, "half\n") == 0,
      "exit 137 without OOMKilled and no report (the init killed): sandbox_error (%d %d)",
      c[1].status, c[1].exit_code);
  ok (c[2].status == SCHED_ST_SANDBOX_ERROR && c[2].exit_code == -1 && strcmp (c[2].out, "x\n") == 0
          && c[2].err[0] == '\0' && !c[2].has_usage,
      "a report that ends early: sandbox_error, the report's part off stderr (%d \"%s\")",
      c[2].status, c[2].err);
  ok (c[3].status == SCHED_ST_OOM, "exit 137 with OOMKilled and no report: oom first (%d)",
      c[3].status);
  ok (c[4].status == SCHED_ST_OK && c[4].exit_code == 2 && !c[4].has_error,
      "the program's own exit 2, reported: ok, exit code 2");
  ok (c[5].status == SCHED_ST_SANDBOX_ERROR && c[5].exit_code == -1
          && strcmp (c[5].out, "ran\n") == 0 && c[5].err[0] == '\0',
      "a compiled program whose sandbox ends after the run mark: sandbox_error, the mark off "
      "stderr (%d)",
      c[5].status);
  ok (run_until (no_execs, NULL, 2000), "all ended");
  is_int (rows_ending ("sandbox_error", -1), 4,
          "the history agrees: four rows sandbox_error, exit code NULL");
  is_int (rows_ending ("ok", 2), 1, "and the program's own 2 is a row ok, exit code 2");
  is_int (teardown ("endings"), 0, "nothing left");
}

/* Issue 35: a program's timeout counts from its init's run mark, never
 * from the start: a slow start on a loaded engine is not the program's
 * time, and a start past admission.start_bound_ms reads as overload, never
 * as the program's timeout. */
static void
test_start_counts_from_mark (void)
{
  call_t c[3];

  if (!ok (setup ("{\"admission\":{\"start_bound_ms\":500}}"),
           "set up (start bound 500 ms; max wait 400 ms, setup's)"))
    return;
  ok (run_until (pools_ready, NULL, 5000), "pools fill");
  /* Every answer of the engine 150 ms late, the start's too: the program
   * starts 150 ms after its start was sent. */
  fake_engine_set_latency (fake (), 150);
  /* ... within the engine's request bound (60 ms in these tests: a real
   * client's start, and the run's, would time out before that answer). */
  fake_engine_set_request_timeout (fake (), 1000);
  submit (&c[0], "python", "out fine", "\"timeout_ms\":100");
  submit (&c[1], "python", "hang", "\"timeout_ms\":100");
  ok (wait_answers (c, 2, 30000) && c[0].has_result && c[1].has_result, "answered (%s %s)",
      wb_code_name (c[0].err_code), wb_code_name (c[1].err_code));
  ok (c[0].status == SCHED_ST_OK && strcmp (c[0].out, "fine\n") == 0,
      "a start slower than the program's timeout (150 ms against 100 ms): ok, not timeout (%d)",
      c[0].status);
  ok (c[1].status == SCHED_ST_TIMEOUT,
      "a program that runs past its own 100 ms after that start: timeout (%d)", c[1].status);
  /* The init gets going 800 ms after the start (a host too loaded to
   * schedule it): past the start bound. */
  fake_engine_set_latency (fake (), 0);
  submit (&c[2], "python", "slowstart 800; out late", "\"timeout_ms\":100");
  ok (wait_answers (&c[2], 1, 60000) && c[2].has_result, "answered (%s)",
      wb_code_name (c[2].err_code));
  ok (c[2].status == SCHED_ST_ERROR && c[2].exit_code == -1 && c[2].overloaded
          && c[2].out[0] == '\0',
      "a program that had not started within the start bound: error, the engine overloaded, no "
      "exit code, none of it ran (%d %d)",
      c[2].status, c[2].exit_code);
  {
    /* And a slow start within the bound is no one's fault. */
    call_t d;
    submit (&d, "python", "slowstart 300; out late", "\"timeout_ms\":100");
    ok (wait_answers (&d, 1, 10000) && d.status == SCHED_ST_OK && strcmp (d.out, "late\n") == 0,
        "an init 300 ms late, within the 500 ms bound, a 100 ms timeout: ok (%d)", d.status);
  }
  {
    /* The program ends in time and its init reports it, but the engine
     * reports the exit 160 ms later, past the 100 ms timeout and within
     * the kill's grace (100 ms here) after it: ok (the
     * program's own end); an exit never reported within the kill's grace
     * after that is the engine's failure, not a timeout. */
    call_t e[2];
    submit (&e[0], "python", "out done; lateexit 160", "\"timeout_ms\":100");
    submit (&e[1], "python", "out done; lateexit 600000", "\"timeout_ms\":100");
    ok (wait_answers (e, 2, 120000) && e[0].has_result && e[1].has_result, "answered");
    ok (e[0].status == SCHED_ST_OK && e[0].exit_code == 0 && strcmp (e[0].out, "done\n") == 0,
        "its init's report in time, the engine's exit 160 ms late against a 100 ms timeout: ok, "
        "exit 0 (%d %d)",
        e[0].status, e[0].exit_code);
    ok (e[1].status == SCHED_ST_ERROR && e[1].exit_code == -1,
        "an exit the engine never reports after the init's report: error, not timeout (%d)",
        e[1].status);
  }
  ok (run_until (no_execs, NULL, 20000), "all ended");
  is_int (teardown ("start bound"), 0, "nothing left");
}

/* The start bound stretches to what is left of the request's max_wait_ms:
 * a start slower than admission.start_bound_ms is still served when the
 * request may wait that long. */
static void
test_start_within_max_wait (void)
{
  call_t c;

  if (!ok (setup ("{\"admission\":{\"start_bound_ms\":300,\"max_wait_ms\":5000}}"),
           "set up (start bound 300 ms, max wait 5 s)"))
    return;
  ok (run_until (pools_ready, NULL, 5000), "pools fill");
  submit (&c, "python", "slowstart 800; out late", "\"timeout_ms\":100");
  ok (wait_answers (&c, 1, 60000) && c.has_result, "answered");
  ok (c.status == SCHED_ST_OK && strcmp (c.out, "late\n") == 0,
      "an init 800 ms late, past the 300 ms start bound but within the 5 s max wait: ok (%d %d "
      "\"%s\")",
      c.status, c.overloaded, c.err);
  ok (run_until (no_execs, NULL, 20000), "all ended");
  is_int (teardown ("start within max wait"), 0, "nothing left");
}

/* ---- stdout and stderr in the order they came ------------------------ */

static void
test_output_order (void)
{
  call_t c[5];
  wb_buf_t script = WB_BUF_INIT, want = WB_BUF_INIT;

  if (!ok (setup (NULL), "set up"))
    return;
  submit (&c[0], "python", "out 0; err 1; out 2; err 3", NULL);
  /* The init's marks: the run mark before the program's first byte, the
   * trailer's after its last, neither in the order. */
  submit (&c[1], "c", "compile 0 ; err e1; out o1; out o2; err e2", NULL);
  /* Caps: stderr to its cap, interleaved with stdout; stdout past it. */
  submit (&c[2], "python", "err a; flood 3000000; err never", NULL);
  for (int i = 0; i < 100; i++)
    {
      must (wb_buf_printf (&script, "out o%d; err e%d; ", i, i));
      must (wb_buf_printf (&want, "o%d\ne%d\n", i, i));
    }
  submit (&c[3], "python", script.data, NULL);
  submit (&c[4], "python", "err x; out y; cutreport 0", NULL);
  ok (wait_answers (c, 5, 10000), "answered");
  ok (c[0].output_whole && strcmp (c[0].output, "0\n1\n2\n3\n") == 0,
      "out 0, err 1, out 2, err 3: output in that order (\"%s\")", c[0].output);
  ok (c[1].output_whole && strcmp (c[1].output, "e1\no1\no2\ne2\n") == 0
          && strcmp (c[1].err, "e1\ne2\n") == 0,
      "compiled: the run mark and the trailer off stderr and off the order (\"%s\")", c[1].output);
  ok (c[2].status == SCHED_ST_OUTPUT_LIMIT && c[2].output_whole
          && strncmp (c[2].output, "a\nxxx", 5) == 0,
      "past the cap: the output holds what stdout and stderr hold, in order");
  ok (c[3].output_whole && strcmp (c[3].output, want.data) == 0, "100 alternations: in order");
  ok (c[4].status == SCHED_ST_SANDBOX_ERROR && c[4].output_whole
          && strcmp (c[4].output, "x\ny\n") == 0,
      "a report cut short: its bytes off stderr and off the order (\"%s\")", c[4].output);
  wb_buf_free (&script);
  wb_buf_free (&want);
  is_int (teardown ("output order"), 0, "nothing left");
}

/* ---- several engines ------------------------------------------------- */

static fake_engine_t *
fake_of (size_t k)
{
  return fake_engine_of (ctx.nodes->nodes[k].eng);
}

static void
strip_second_engine (void)
{
  fake_engine_set_images (fake_of (1), NULL, 0);
}

static bool
every_engine_holds_every_image (void *arg)
{
  (void) arg;
  for (size_t k = 0; k < ctx.nodes->n_nodes; k++)
    for (size_t i = 0; i < ctx.profiles->n; i++)
      if (ctx.nodes->nodes[k].image_ids[i] == NULL)
        return false;
  return true;
}

static bool
every_pool_ready (void *arg)
{
  (void) arg;
  for (size_t k = 0; k < ctx.nodes->n_nodes; k++)
    if (ctx.nodes->nodes[k].state != NODE_UP || !pool_mgr_ready (ctx.nodes->nodes[k].pools))
      return false;
  return true;
}

static bool
node_state_is (void *arg)
{
  size_t k = *(size_t *) arg;
  sched_node_state_t want = (sched_node_state_t) ((size_t *) arg)[1];
  static uint64_t last;
  if (ctx.nodes->nodes[k].state != want && due (&last, 10))
    nodes_ping (ctx.nodes); /* the daemon's ping timer, sped up */
  return ctx.nodes->nodes[k].state == want;
}

static bool
all_nodes_drained (void *arg)
{
  (void) arg;
  return nodes_busy (ctx.nodes) == 0 && nodes_containers (ctx.nodes) == 0;
}

/* The four rows running (written ahead) name engine a and a container
 * of a's. */
static bool
running_rows_name_a (void *arg)
{
  char sql[1024];
  int n = 0;

  (void) arg;
  for (fake_container_t *fc = fake_engine_containers (fake_engine_of (ctx.nodes->nodes[0].eng)); fc;
       fc = fake_container_next (fc))
    if (fake_container_state (fc) == FAKE_RUNNING)
      {
        snprintf (sql, sizeof sql,
                  "SELECT count(*) FROM executions WHERE status = 'running' AND engine = 'a' "
                  "AND container_id = '%s'",
                  fake_container_id (fc));
        n += query_int (sql) == 1;
      }
  return n == 4 && query_int ("SELECT count(*) FROM executions WHERE status = 'running'") == 4;
}

static unsigned long
started_on (size_t k)
{
  return fake_engine_stats (fake_of (k)).started;
}

/* Issue 12 against two fake engines: the second starts without images and
 * gets them from the first; work spreads over both; the second dies under
 * load (what ran there ends engine_lost, what had not started runs on the
 * first, nothing starts twice), is taken out, and is re-admitted with
 * nothing of the old left. */
static void
test_engines (void)
{
  static const char cfg[] = "{\"engines\":[{\"name\":\"a\"},{\"name\":\"b\"}],"
                            "\"pools\":{\"default\":{\"min_ready\":1,\"max_ready\":2}}}";
  call_t c[12];
  size_t wait_b[2] = {1, NODE_DOWN};
  unsigned long before_a, before_b, long_on_b;
  int lost = 0, ok_n = 0, bad = 0;

  after_init = strip_second_engine;
  bool up = setup (cfg);
  after_init = NULL;
  if (!up)
    return;
  ok (run_until (every_engine_holds_every_image, NULL, 5000),
      "engine b, built without images, holds every profile's image");
  is_int (fake_engine_calls (fake_of (0), FAKE_OP_IMAGE_SAVE), ctx.profiles->n,
          "each came from engine a (image save)");
  is_int (fake_engine_calls (fake_of (1), FAKE_OP_IMAGE_LOAD), ctx.profiles->n,
          "and was loaded into b, then verified by id");
  ok (run_until (every_pool_ready, NULL, 5000), "both engines are up with their pools filled");

  /* Work spreads. */
  before_a = started_on (0), before_b = started_on (1);
  for (int i = 0; i < 12; i++)
    submit (&c[i], "python", "out hi", NULL);
  wait_answers (c, 12, 5000);
  for (int i = 0; i < 12; i++)
    ok_n += c[i].has_result && c[i].status == SCHED_ST_OK && strcmp (c[i].out, "hi\n") == 0;
  is_int (ok_n, 12, "12 executions at once: all ok");
  ok (started_on (0) > before_a && started_on (1) > before_b,
      "both engines ran some (a %lu, b %lu)", started_on (0) - before_a, started_on (1) - before_b);
  is_int ((int) (started_on (0) - before_a + started_on (1) - before_b), 12, "each started once");

  /* Engine b dies under load. */
  before_b = started_on (1);
  for (int i = 0; i < 6; i++)
    submit (&c[i], "python", "sleep 300; out done", NULL);
  for (int i = 0; i < 6; i++)
    run_to_state (&c[i], "running", 2000);
  long_on_b = started_on (1) - before_b;
  before_a = started_on (0);
  fake_engine_lose (fake_of (1));
  for (int i = 6; i < 12; i++)
    submit (&c[i], "python", "out after", NULL);
  ok (run_until (node_state_is, wait_b, 3000), "engine b is taken out");
  wait_answers (c, 12, 5000);
  ok_n = 0;
  for (int i = 0; i < 6; i++)
    {
      lost += c[i].has_result && c[i].status == SCHED_ST_ENGINE_LOST;
      ok_n += c[i].has_result && c[i].status == SCHED_ST_OK && strcmp (c[i].out, "done\n") == 0;
    }
  ok (long_on_b > 0 && long_on_b < 6, "the six long ones ran on both engines (%lu on b)",
      long_on_b);
  is_int (lost, (int) long_on_b, "those that ran on b end engine_lost");
  is_int (ok_n, 6 - (int) long_on_b, "those on a finish ok");
  for (int i = 6; i < 12; i++)
    bad += !(c[i].has_result && c[i].status == SCHED_ST_OK && strcmp (c[i].out, "after\n") == 0);
  is_int (bad, 0, "the six sent as b died all ran, on a");
  is_int ((int) (started_on (0) - before_a), 6, "a started each of them once");
  is_int ((int) fake_engine_stats (fake_of (1)).double_starts
              + (int) fake_engine_stats (fake_of (0)).double_starts,
          0, "no container started twice on either engine");

  /* While b is out, a serves. */
  before_a = started_on (0);
  for (int i = 0; i < 3; i++)
    submit (&c[i], "python", "out x", NULL);
  wait_answers (c, 3, 3000);
  ok (c[0].status == SCHED_ST_OK && c[1].status == SCHED_ST_OK && c[2].status == SCHED_ST_OK
          && started_on (0) - before_a == 3,
      "with b out, a runs everything");

  /* b comes back: re-admitted once nothing of its old containers is left. */
  fake_engine_set_down (fake_of (1), false);
  wait_b[1] = NODE_UP;
  ok (run_until (node_state_is, wait_b, 5000), "engine b is re-admitted");
  {
    bool clean = true;
    for (fake_container_t *fc = fake_engine_containers (fake_of (1)); fc;
         fc = fake_container_next (fc))
      clean &= fake_container_state (fc) == FAKE_CREATED;
    ok (clean, "nothing it ran is left on it (only new, never-started containers)");
  }
  before_b = started_on (1);
  for (int i = 0; i < 12; i++)
    submit (&c[i], "python", "out again", NULL);
  wait_answers (c, 12, 5000);
  ok (started_on (1) > before_b, "b takes work again");

  /* b stops answering, not yet noticed by a ping: executions handed its
   * ready containers fail at the attach and move to a before their start.
   * Their rows, written ahead naming b and its container, are rewritten
   * naming a and a's container (a crash now leaves rows that point at
   * what ran). */
  {
    unsigned long attaches_b = fake_engine_calls (fake_of (1), op_attach ());
    wait_answers (c, 12, 5000);
    before_a = started_on (0);
    fake_engine_set_down (fake_of (1), true);
    for (int i = 0; i < 4; i++)
      submit (&c[i], "python", "sleep 2000; out moved", NULL);
    for (int i = 0; i < 4; i++)
      run_to_state (&c[i], "running", 3000);
    ok (fake_engine_calls (fake_of (1), op_attach ()) > attaches_b,
        "some were handed b's ready containers first (%lu attaches or runs on b)",
        fake_engine_calls (fake_of (1), op_attach ()) - attaches_b);
    is_int ((int) (started_on (0) - before_a), 4, "all four started on a");
    ok (run_until (running_rows_name_a, NULL, 3000),
        "their rows name engine a and the container each runs in (%d running rows name b)",
        query_int ("SELECT count(*) FROM executions WHERE status = 'running' AND engine = 'b'"));
    wait_answers (c, 4, 6000);
    ok (c[0].status == SCHED_ST_OK && c[3].status == SCHED_ST_OK, "and they finish ok");
    fake_engine_set_down (fake_of (1), false);
  }

  /* b is restarted in another version between two pings (nothing failed
   * to answer): what it was verified as is no more, so it is taken out,
   * admitted again and verified again before it takes work. */
  {
    unsigned long inspected = fake_engine_calls (fake_of (1), FAKE_OP_INSPECT);
    ctx.cfg.engine_recheck_ms = 0; /* /info at every ping */
    sched_ctx_configure (&ctx);
    wait_b[1] = NODE_DOWN;
    ok (!run_until (node_state_is, wait_b, 300), "b stays up while /info says the same");
    {
      fake_engine_faults_t *f = fake_engine_faults (fake_of (1));
      unsigned long infos = fake_engine_calls (fake_of (1), FAKE_OP_INFO);
      f->op = FAKE_OP_INFO;
      f->fail_call = infos + 1;
      f->garbage_call = infos + 2;
      ok (!run_until (node_state_is, wait_b, 300)
              && fake_engine_calls (fake_of (1), FAKE_OP_INFO) > infos + 2,
          "a failed and a garbled /info, pings answered: b stays up (%s)",
          ctx.nodes->nodes[1].last_error);
      /* An engine that keeps failing to say what it is cannot stay
       * verified. */
      f->fail_call = f->garbage_call = 0;
      f->fail_from = fake_engine_calls (fake_of (1), FAKE_OP_INFO) + 1;
      ok (run_until (node_state_is, wait_b, 3000)
              && strstr (ctx.nodes->nodes[1].last_error, "3 times in a row"),
          "/info failing 3 times in a row takes b out (%s)", ctx.nodes->nodes[1].last_error);
      fake_engine_reset_faults (fake_of (1));
      wait_b[1] = NODE_UP;
      ok (run_until (node_state_is, wait_b, 5000)
              && run_until (every_engine_holds_every_image, NULL, 5000),
          "answering again, b is admitted and verified again");
      wait_b[1] = NODE_DOWN;
      inspected = fake_engine_calls (fake_of (1), FAKE_OP_INSPECT);
    }
    fake_engine_set_version (fake_of (1), "fake-2");
    ok (run_until (node_state_is, wait_b, 3000), "b, answering in another version, is taken out");
    ok (strstr (ctx.nodes->nodes[1].last_error,
                "version: \"fake\" when it was verified, \"fake-2\" now")
            != NULL,
        "and why is said (%s)", ctx.nodes->nodes[1].last_error);
    wait_b[1] = NODE_UP;
    ok (run_until (node_state_is, wait_b, 5000), "b is admitted again");
    ok (run_until (every_engine_holds_every_image, NULL, 5000)
            && fake_engine_calls (fake_of (1), FAKE_OP_INSPECT) >= inspected + ctx.profiles->n,
        "every profile verified on it again (a container of each created and inspected)");
    ok (strcmp (ctx.nodes->nodes[1].facts.server_version, "fake-2") == 0, "its new facts are kept");

    /* Podman now answers at b's address: the containers verified there
     * were Docker's.  Out at its next ping (no /info re-read meanwhile),
     * and admitted as Podman: refused here, since b has no seccomp_dir
     * for Podman's allowlist files. */
    ctx.cfg.engine_recheck_ms = 30000;
    sched_ctx_configure (&ctx);
    uint64_t outs = ctx.nodes->nodes[1].taken_out;
    fake_engine_set_podman (fake_of (1), true);
    wait_b[1] = NODE_REFUSED;
    ok (run_until (node_state_is, wait_b, 5000) && ctx.nodes->nodes[1].taken_out == outs + 1,
        "b, answering as Podman, is taken out, then refused as Podman (%s)",
        ctx.nodes->nodes[1].refused);
    ok (strstr (ctx.nodes->nodes[1].refused, "seccomp_dir") != NULL,
        "(no seccomp_dir for its allowlists)");
    ok (ctx.nodes->nodes[0].state == NODE_UP && ctx.nodes->nodes[0].taken_out == 0,
        "a, unchanged, stayed up throughout");
    ctx.cfg.engine_recheck_ms = 30000;
    sched_ctx_configure (&ctx);
  }

  /* Drain both. */
  sched_ctx_drain (&ctx);
  for (size_t k = 0; k < ctx.nodes->n_nodes; k++)
    pool_mgr_drain_all (ctx.nodes->nodes[k].pools);
  ok (run_until (all_nodes_drained, NULL, 5000), "both engines drain");
  is_int ((int) (fake_engine_stats (fake_of (0)).live + fake_engine_stats (fake_of (1)).live), 0,
          "no container is left on either");
  ok (run_until (store_idle, NULL, 5000),
      "every row written, every history reservation given back (%u)", store_backlog ());
  sched_ctx_clear (&ctx, 1000);
  sched_config_clear (&ctx.cfg);
  event_base_free (ctx.base);
  ctx.base = NULL;
}

/* A create the engine performed but whose answer was lost (the
 * connection to the engine dropped: a proxy in front of it died) leaves a
 * container whose id the daemon never heard.  It must still be removed
 * before the daemon says it holds nothing: a drain (SIGTERM) waits for
 * exactly that, and so does an engine's re-admission.  (tests/integration/
 * test_pool.py's engine-loss check once found one left after the stop.) */
static bool
create_failed (void *arg)
{
  const pool_stats_t *st;
  size_t n = pool_mgr_stats (NODE->pools, &st);
  uint64_t failures = 0;

  for (size_t i = 0; i < n; i++)
    failures += st[i].create_failures;
  return failures >= *(uint64_t *) arg;
}

/* SIGTERM's drain: the pools emptied, then every container counted gone
 * and no engine call pending (daemon/shutdown.c); true when the engine is
 * left with nothing of this daemon. */
static bool
drain_leaves_nothing (const char *what)
{
  sched_ctx_drain (&ctx);
  pool_mgr_drain_all (NODE->pools);
  if (!run_until (drained, NULL, 20000))
    {
      printf ("# %s: not drained (%u containers, %u engine calls)\n", what, sbx_count (NODE->sbx),
              sbx_busy (NODE->sbx));
      return false;
    }
  for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
    printf ("# %s: left on the engine: %.12s (%s), state %d\n", what, fake_container_id (fc),
            fake_container_label (fc, "warmbox.pool"), (int) fake_container_state (fc));
  return fake_engine_stats (fake ()).live == 0;
}

/* What one sbx_create answered. */
typedef struct created
{
  bool answered;
  wb_code_t code;
  char id[80];
} created_t;

static void
record_created (void *arg, const char *id, const wb_err_t *err)
{
  created_t *c = arg;

  c->answered = true;
  c->code = id ? WB_OK : err->code;
  snprintf (c->id, sizeof c->id, "%s", id ? id : "");
}

static bool
created_answered (void *arg)
{
  return ((created_t *) arg)->answered;
}

/* The create call after *arg has gone out. */
static bool
create_sent (void *arg)
{
  return fake_engine_calls (fake (), FAKE_OP_CREATE) > *(unsigned long *) arg;
}

/* The id of the container the engine made last. */
static void
last_created (char id[65])
{
  id[0] = '\0';
  for (fake_container_t *fc = fake_engine_containers (fake ()); fc; fc = fake_container_next (fc))
    snprintf (id, 65, "%s", fake_container_id (fc));
}

static void
test_lost_create_answer (void)
{
  uint64_t one = 1;
  unsigned long k;
  wb_err_t err;
  call_t c;

  /* The cold path: the request's create is made, its answer lost; the
   * daemon is told to stop at once. */
  if (setup ("{\"pools\":{\"default\":{\"min_ready\":0,\"max_ready\":0},"
             "\"python\":{\"min_ready\":0,\"max_ready\":0}}}"))
    {
      unsigned long made = fake_engine_stats (fake ()).created;
      fake_engine_faults (fake ())->op = FAKE_OP_CREATE;
      fake_engine_faults (fake ())->lost_call = fake_engine_calls (fake (), FAKE_OP_CREATE) + 1;
      submit (&c, "python", "out x", NULL);
      ok (run_until (create_failed, &one, 3000), "lost create: the pool hears a failed create");
      is_int ((int) (fake_engine_stats (fake ()).created - made), 1,
              "lost create: the engine made it anyway");
      ok (fake_engine_stats (fake ()).live <= sbx_count (NODE->sbx),
          "lost create: every container on the engine is counted (%zu on the engine, %u counted)",
          fake_engine_stats (fake ()).live, sbx_count (NODE->sbx));
      ok (wait_answers (&c, 1, 3000) && !c.has_result, "lost create: the request is refused");
      ok (drain_leaves_nothing ("lost create, then SIGTERM"),
          "lost create, then SIGTERM: the drain removes the container nobody heard of");
      is_int (teardown ("lost create, then SIGTERM"), 0, "nothing left");
    }

  /* The reconciler's pass that would find it runs while another create is
   * out: the pass cannot tell an orphan from that create's container and
   * leaves it (a suspect, removed if still there SUSPECT_AGE_MS later); the
   * daemon is stopped before. */
  if (setup ("{\"pools\":{\"default\":{\"min_ready\":0,\"max_ready\":0},"
             "\"python\":{\"min_ready\":0,\"max_ready\":0}}}"))
    {
      const prof_t *py = prof_find (ctx.profiles, "python");
      sbx_tmpl_t *t = sbx_tmpl_new (py, &py->def, fake_shipped_images[0].id, NULL, &err);
      created_t lost = {0}, other = {0};
      if (!ok (t != NULL, "pass: a template"))
        return;
      fake_engine_faults (fake ())->op = FAKE_OP_CREATE;
      fake_engine_faults (fake ())->lost_call = fake_engine_calls (fake (), FAKE_OP_CREATE) + 1;
      ok (sbx_create (NODE->sbx, t, record_created, &lost, &err) != NULL,
          "pass: a create goes out");
      run_until (created_answered, &lost, 3000);
      ok (lost.answered && lost.code == WB_E_ENGINE_DOWN, "pass: its answer is lost (%s)",
          wb_code_name (lost.code));
      sbx_reconcile (NODE->sbx);
      ok (sbx_create (NODE->sbx, t, record_created, &other, &err) != NULL,
          "pass: another create goes out as the reconciler lists the engine");
      ok (run_until (created_answered, &other, 3000) && other.id[0], "pass: that one is made");
      sbx_remove (NODE->sbx, other.id, "python", sbx_tmpl_key (t));
      run_until (sandbox_idle, NULL, 3000);
      ok (fake_engine_stats (fake ()).live <= sbx_count (NODE->sbx),
          "pass: every container on the engine is counted (%zu on the engine, %u counted)",
          fake_engine_stats (fake ()).live, sbx_count (NODE->sbx));
      ok (drain_leaves_nothing ("a pass with a create out, then SIGTERM"),
          "a pass with a create out, then SIGTERM: nothing left");
      sbx_tmpl_free (t);
      is_int (teardown ("a pass with a create out"), 0, "nothing left");
    }

  /* As test_pool.py's engine loss: the engine goes away (a proxy in
   * front of it dies) while a refill's create is out; the engine made the
   * container, its answer is lost.  The engine is taken out, comes back,
   * and takes work again: by then the container must be gone. */
  if (setup ("{\"pools\":{\"default\":{\"min_ready\":0,\"max_ready\":0},"
             "\"python\":{\"min_ready\":2,\"max_ready\":2}}}"))
    {
      size_t want[2] = {0, NODE_DOWN};
      char orphan[65];
      ok (run_until (pools_ready, NULL, 5000), "engine lost: the pool is full");
      k = fake_engine_calls (fake (), FAKE_OP_CREATE);
      fake_engine_set_latency (fake (), 20);
      fake_engine_faults (fake ())->op = FAKE_OP_CREATE;
      fake_engine_faults (fake ())->lost_call = k + 1;
      submit (&c, "python", "sleep 300; out x", NULL);
      ok (run_until (create_sent, &k, 3000), "engine lost: a refill's create is out");
      fake_engine_set_down (fake (), true);
      ok (run_until (create_failed, &one, 3000), "engine lost: the create's answer is lost");
      last_created (orphan);
      ok (fake_engine_container (fake (), orphan) != NULL,
          "engine lost: the engine made it anyway");
      ok (run_until (node_state_is, want, 5000), "engine lost: it is taken out");
      wait_answers (&c, 1, 5000);
      fake_engine_set_down (fake (), false);
      want[1] = NODE_UP;
      ok (run_until (node_state_is, want, 5000), "engine back: it is admitted again");
      ok (fake_engine_container (fake (), orphan) == NULL,
          "engine back: the container whose answer was lost is gone before it takes work");
      fake_engine_set_latency (fake (), 0);
      ok (run_until (pools_ready, NULL, 5000), "engine back: the pool refills");
      ok (drain_leaves_nothing ("engine lost and back, then SIGTERM"),
          "engine lost and back, then SIGTERM: nothing left");
      is_int (teardown ("engine lost and back"), 0, "nothing left");
    }
}

/* The transition table as code (exec.c's exec_transitions) is the table
 * of its file comment: every pair of states either is one of these moves
 * or is refused by set_state.  (That no path takes a move outside it is
 * shown by the scenarios: sched_exec_check_all counts refused transitions
 * and runs after every turn of the loop.) */
static void
test_state_table (void)
{
  static const char *const moves[] = {
      "queued for room to run -> waiting for a container",
      "waiting for a container -> preparing",
      "waiting for a container -> queued for room to run", /* moved to another engine */
      "preparing -> waiting for a start slot",
      "preparing -> queued for room to run",
      "waiting for a start slot -> starting",
      "waiting for a start slot -> queued for room to run",
      "starting -> running",
      "starting -> waiting for a start slot", /* never reached: to be moved (start_undo) */
      "running -> killing",
      "running -> inspecting",
      "running -> recording",
      "killing -> recording",
      "inspecting -> recording",
  };
  int n = sched_exec_n_states (), wrong = 0, allowed = 0;

  is_str (sched_exec_state_name (n - 1), "ended", "the last state is ended");
  for (int from = 0; from < n; from++)
    for (int to = 0; to < n; to++)
      {
        char move[128];
        bool listed = false;
        snprintf (move, sizeof move, "%s -> %s", sched_exec_state_name (from),
                  sched_exec_state_name (to));
        for (size_t i = 0; i < WB_ARRAY_SIZE (moves); i++)
          listed |= strcmp (moves[i], move) == 0;
        /* Every state but ended itself may end. */
        listed |= to == n - 1 && from != n - 1;
        allowed += sched_exec_transition_allowed (from, to);
        if (listed != sched_exec_transition_allowed (from, to))
          {
            printf ("# %s: %s by the code, %s by the table\n", move,
                    sched_exec_transition_allowed (from, to) ? "allowed" : "refused",
                    listed ? "listed" : "not listed");
            wrong++;
          }
      }
  is_int (wrong, 0,
          "every one of the %d (state, next state) pairs is allowed or refused as the table says "
          "(%d allowed)",
          n * n, allowed);
  ok (!sched_exec_transition_allowed (-1, 0) && !sched_exec_transition_allowed (0, n),
      "states out of range are refused");
}

/* The daemon exits (second signal) while rows of executions are still on
 * their way to the history: sched_ctx_clear abandons them (each client
 * hears once), then closes the store, whose last callbacks look the
 * executions up in their set (so the set must outlive the store: under
 * ASan a set freed first is a use after free). */
static void
test_clear_in_flight (void)
{
  call_t c[4], running;

  if (!setup (NULL))
    {
      ok (false, "setup");
      return;
    }
  run_until (pools_ready, NULL, 5000);
  submit (&running, "python", "sleep 5000; out never", NULL);
  ok (run_to_state (&running, "running", 3000), "one program runs");
  for (int i = 0; i < 4; i++)
    submit (&c[i], "python", "print(1)", NULL);
  /* No turn of the loop: the hits' rows written ahead are queued. */
  sched_ctx_clear (&ctx, 1000);
  int answered = 0;
  for (int i = 0; i < 4; i++)
    answered += c[i].answers == 1 && !c[i].has_result;
  is_int (answered, 4,
          "exiting with rows in flight: each of the 4 clients hears once that it was abandoned");
  ok (running.answers == 1 && running.has_result && running.status == SCHED_ST_ERROR
          && running.exit_code == -1,
      "the one that ran hears a result (status error), never that it did not start (%d %d %d)",
      running.answers, running.has_result, (int) running.status);
  ctx.profiles = NULL;
  sched_config_clear (&ctx.cfg);
  event_base_free (ctx.base);
  ctx.base = NULL;
}

/* Where the histories go: $TMPDIR, else /dev/shm when it is a memory file
 * system with room, else /tmp.  The loop waits for each commit (the
 * virtual clock stands still meanwhile, tests/unit/vclock.h); in memory a
 * commit is cheaper and a checkpoint never waits for a disk, which under
 * load can outlast the clock's grace and make one run differ from the
 * next.  The alloc loop's history alone grows to about 25 MB. */
static const char *
scratch_parent (void)
{
  const char *t = getenv ("TMPDIR");
  struct statfs fs;

  if (t && *t)
    return t;
  if (statfs ("/dev/shm", &fs) == 0 && fs.f_type == TMPFS_MAGIC
      && (uint64_t) fs.f_bavail * (uint64_t) fs.f_bsize >= 512ull << 20
      && access ("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return "/tmp";
}

static void
only (const char *name)
{
  const char *o = getenv ("WB_ONLY");

  if (o == NULL || strcmp (o, name) != 0)
    return;
  if (strcmp (name, "alloc") == 0)
    TIMED (test_alloc_faults ());
  else if (strcmp (name, "engines") == 0)
    TIMED (test_engines ());
  else if (strcmp (name, "fail") == 0)
    TIMED (test_engine_faults ("failure", KNOB_FAIL));
  else if (strcmp (name, "hang") == 0)
    TIMED (test_engine_faults ("hang", KNOB_HANG));
  else if (strcmp (name, "refusals") == 0)
    TIMED (test_fast_refusals_not_sampled ());
  else if (strcmp (name, "clear") == 0)
    TIMED (test_clear_in_flight ());
  else if (strcmp (name, "lost") == 0)
    TIMED (test_lost_create_answer ());
}

/* Everything but the state table, on the engine kind one_request says. */
static void
test_all (void)
{
  TIMED (test_happy_path ());
  TIMED (test_transient_pool ());
  TIMED (test_reaper ());
  TIMED (test_readiness ());
  TIMED (test_cancel_everywhere ());
  TIMED (test_deadline_everywhere ());
  TIMED (test_engine_loss_everywhere ());
  TIMED (test_cap_eviction ());
  TIMED (test_start_may_have_run ());
  TIMED (test_run_answers ());
  TIMED (test_fast_refusals_not_sampled ());
  TIMED (test_drain_no_topup ());
  TIMED (test_reaper_retry ());
  TIMED (test_lost_create_answer ());
  TIMED (test_admission ());
  TIMED (test_engine_faults ("failure", KNOB_FAIL));
  TIMED (test_engine_faults ("hang", KNOB_HANG));
  TIMED (test_engine_faults ("garbage", KNOB_GARBAGE));
  TIMED (test_engine_faults ("answer lost", KNOB_LOST));
  TIMED (test_engine_faults ("no memory to send", KNOB_NULL));
  TIMED (test_engines ());
  /* The Docker Engine API's: warmbox-oci's run reports the exit itself. */
  if (!one_request)
    TIMED (test_wait_fallback ());
  TIMED (test_endings ());
  TIMED (test_start_counts_from_mark ());
  TIMED (test_start_within_max_wait ());
  TIMED (test_output_order ());
  TIMED (test_alloc_faults ());
  TIMED (test_clear_in_flight ());
  TIMED (test_sessions ());
  TIMED (test_session_nodes ());
  TIMED (test_session_files ());
  TIMED (test_session_owner_quota ());
  TIMED (test_streaming ());
}

int
main (void)
{
  wb_err_t err;
  const char *o = getenv ("WB_ONLY");

  failmalloc_install ();
  wb_log_set_level (WB_LOG_WARN);
  snprintf (dir, sizeof dir, "%s/warmbox-test-exec-XXXXXX", scratch_parent ());
  if (mkdtemp (dir) == NULL || prof_load_dir (WB_DEFAULT_PROFILES_DIR, &profiles, &err) < 0)
    {
      ok (false, "temporary folder and profiles");
      return tap_done ();
    }
  wb_log_set_level (getenv ("WB_LOG") ? WB_LOG_DEBUG : WB_LOG_ERROR + 1);
  one_request = getenv ("WB_ONE_REQUEST") != NULL;
  if (o)
    {
      /* One scenario (WB_ONLY=alloc, engines, fail, hang or clear). */
      only ("alloc");
      only ("engines");
      only ("fail");
      only ("hang");
      only ("clear");
      only ("refusals");
      only ("lost");
    }
  else
    {
      test_state_table ();
      /* Every scenario twice: the Docker Engine API's four exchanges per
       * run, then warmbox-oci's one (WB_ONE_REQUEST: only that). */
      if (!one_request)
        test_all ();
      printf ("# again, with the engines warmbox-oci: one exchange per run\n");
      one_request = true;
      test_all ();
    }
  is_int (invariant_breaks, 0,
          "every execution's invariants held after each of %llu turns of the loop, and no "
          "transition was refused",
          (unsigned long long) invariant_checks);
  is_int ((int) vclock_spins (), 0, "the loop never spun at one instant of the virtual clock");
  prof_set_free (profiles);
  {
    char cmd[300];
    snprintf (cmd, sizeof cmd, "rm -rf %s", dir);
    if (system (cmd) != 0)
      printf ("# could not remove %s\n", dir);
  }
  return tap_done ();
}
