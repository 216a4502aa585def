/* The history store: sizing rule, migration of an old file, the threaded
 * write path, and the backlog when the file is locked.  Uses real SQLite
 * files in a temporary folder and a real event base. */
#include "tap.h"
#include "warmbox/store.h"

#include <event2/event.h>
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static int committed, failed;

static void
on_done (void *arg, uint64_t tag, int rc)
{
  (void) arg;
  (void) tag;
  if (rc == 0)
    committed++;
  else
    failed++;
}

static int
count (const char *path, const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  int n = -1;
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step (s) == SQLITE_ROW)
    n = sqlite3_column_int (s, 0);
  sqlite3_finalize (s);
  sqlite3_close (db);
  return n;
}

/* Run the loop until *counter reaches want, for at most rounds x 10 ms. */
static void
run_until (struct event_base *base, int *counter, int want, int rounds)
{
  for (int i = 0; i < rounds && *counter < want; i++)
    {
      struct timeval tv = {0, 10000};
      event_base_loopexit (base, &tv);
      event_base_dispatch (base);
    }
}

/* The first column of the first row sql gives, as text, into out ("" when
 * there is none). */
static const char *
text (const char *path, const char *sql, char *out, size_t size)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;

  out[0] = '\0';
  if (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
      && sqlite3_prepare_v2 (db, sql, -1, &s, NULL) == SQLITE_OK && sqlite3_step (s) == SQLITE_ROW
      && sqlite3_column_text (s, 0))
    snprintf (out, size, "%s", (const char *) sqlite3_column_text (s, 0));
  sqlite3_finalize (s);
  sqlite3_close (db);
  return out;
}

static store_execution_t
sample (const char *id)
{
  store_execution_t e;
  memset (&e, 0, sizeof e);
  e.id = id;
  e.received_at = 1800000000.0;
  e.finished_at = 1800000000.3;
  e.client = "tests";
  e.language = "python";
  e.image_id = "sha256:abc";
  e.profile_hash = "ff";
  wb_sha256_hex ("print(1)", 8, e.code_sha256);
  e.code_bytes = 8;
  wb_sha256_hex ("", 0, e.stdin_sha256);
  e.status = "ok";
  e.exit_code = 0;
  e.total_ms = 300;
  e.pool_hit = true;
  e.container_id = "c0ffee";
  e.engine = "unix:///var/run/docker.sock";
  e.error = "";
  return e;
}

static void
test_plan_size (void)
{
  is_int (store_plan_size (2.0, 0.5, 0.99), 5, "2/s x 0.5 s at 99%%: 5 (P(X<=4) = 0.996)");
  is_int (store_plan_size (2.0, 0.5, 0.95), 4, "at 95%%: 4 (P(X<=3) = 0.981)");
  is_int (store_plan_size (0, 0.5, 0.99), 0, "no traffic: 0");
  uint32_t big = store_plan_size (1000, 1, 0.99);
  ok (big > 1050 && big < 1090, "1000 in flight at 99%%: about 1000 + 2.33 sd (%u)", big);
}

static void
test_migrate (const char *dir)
{
  char path[512], *sql = NULL;
  sqlite3 *db = NULL;
  wb_err_t err;
  FILE *f = fopen ("tests/fixtures/history-v1.sql", "r");
  long len;

  snprintf (path, sizeof path, "%s/v1.db", dir);
  if (!ok (f != NULL, "v1 fixture found"))
    return;
  fseek (f, 0, SEEK_END);
  len = ftell (f);
  rewind (f);
  sql = calloc (1, (size_t) len + 1);
  if (fread (sql, 1, (size_t) len, f) != (size_t) len)
    len = 0;
  fclose (f);
  sqlite3_open (path, &db);
  ok (sqlite3_exec (db, sql, NULL, NULL, NULL) == SQLITE_OK, "a version 1 file is made");
  free (sql);
  unsigned char key[32];
  char keyed[65], want[160];
  memset (key, 7, sizeof key);
  ok (store_migrate (db, key, &err) == 0, "it migrates: %s", err.msg);
  sqlite3_close (db);
  is_int (count (path, "PRAGMA user_version"), store_schema_version (),
          "now at the current version");
  is_int (count (path, "SELECT count(*) FROM executions WHERE id = 'old-row-1' AND engine = ''"), 1,
          "the old row is kept, new columns defaulted");
  /* Its plain SHA-256 of "abc" is gone: keyed under the key, as new rows are. */
  store_keyed_hex (key, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", keyed);
  snprintf (want, sizeof want, "SELECT count(*) FROM executions WHERE code_hmac = '%s'", keyed);
  is_int (count (path, want), 1, "the old row's code hash is keyed now");
  is_int (count (path, "SELECT count(*) FROM executions WHERE code_hmac LIKE 'ba7816bf%' "
                       "OR stdin_hmac LIKE 'e3b0c442%'"),
          0, "its plain hashes are nowhere in the table");
  is_int (count (path, "SELECT count(*) FROM pool_hit_rate"), 1, "views answer on migrated data");
  sqlite3_open (path, &db);
  sqlite3_exec (db, "PRAGMA user_version = 99", NULL, NULL, NULL);
  ok (store_migrate (db, key, &err) < 0 && strstr (err.msg, "newer"),
      "a file from a newer build is refused");
  sqlite3_close (db);
}

static int history_rows;

static int
count_row (void *arg, const store_execution_t *row)
{
  (void) arg;
  (void) row;
  history_rows++;
  return 0;
}

static void
test_write_path (const char *dir, struct event_base *base)
{
  char path[512], ids[120][16], mode[16];
  store_t *st = NULL;
  wb_err_t err;
  store_config_t cfg = {path, 30, 1000, NULL, NULL, NULL};

  snprintf (path, sizeof path, "%s/sub/dir/history.db", dir);
  ok (store_open (base, &cfg, &st, &err) == 0, "open creates folders and the file");
  if (st == NULL)
    return;
  committed = failed = 0;
  for (int i = 0; i < 100; i++)
    {
      store_execution_t e;
      snprintf (ids[i], sizeof ids[i], "id-%d", i);
      e = sample (ids[i]);
      if (store_reserve (st, 1))
        must (store_submit_execution (st, &e, on_done, NULL, 0, NULL));
    }
  store_submit_pool_event (st, "created", "python", "python/x/y", "c1", 12.5, "");
  run_until (base, &committed, 100, 1000);
  is_int (committed, 100, "100 commits reported back on the loop");
  is_int (count (path, "SELECT count(*) FROM executions"), 100, "100 rows on disk");
  /* A new reader asks, without setting it: a WAL file says so itself. */
  is_str (text (path, "PRAGMA journal_mode", mode, sizeof mode), "wal",
          "the journal is WAL, readable while open");
  store_close (st, 1000);
  is_int (count (path, "SELECT count(*) FROM pool_events WHERE event = 'created'"), 1,
          "the pool event is written");
  {
    /* The file holds the code's hash keyed, never plain; the key is the
     * file beside it, 0600; store_history finds a row by the plain one. */
    char plain[65], keyed[65], q[200], keypath[600];
    unsigned char key[32];
    struct stat ks;
    wb_sha256_hex ("print(1)", 8, plain);
    snprintf (q, sizeof q, "SELECT count(*) FROM executions WHERE code_hmac = '%s'", plain);
    is_int (count (path, q), 0, "no row holds the plain SHA-256 of its code");
    store_key_path (path, keypath, sizeof keypath);
    ok (stat (keypath, &ks) == 0 && S_ISREG (ks.st_mode) && (ks.st_mode & 0777) == 0600,
        "the key was made beside the history, mode 0600");
    ok (store_key_load (keypath, false, key, &err) == 0, "and loads");
    store_keyed_hex (key, plain, keyed);
    snprintf (q, sizeof q, "SELECT count(*) FROM executions WHERE code_hmac = '%s'", keyed);
    is_int (count (path, q), 100, "every row holds it keyed");
    store_history_filter_t hf = {.sha256 = plain, .limit = 200};
    history_rows = 0;
    ok (store_history (path, &hf, count_row, NULL, &err) == 0 && history_rows == 100,
        "warmbox history's lookup by the plain hash finds them (%d)", history_rows);
    chmod (keypath, 0640);
    ok (store_key_load (keypath, false, key, &err) < 0 && strstr (err.msg, "chmod 600")
            && store_history (path, &hf, count_row, NULL, &err) < 0,
        "a key others may read is refused: %s", err.msg);
    chmod (keypath, 0600);
    FILE *kf = fopen (keypath, "w");
    if (kf)
      {
        fputs ("not a key\n", kf);
        fclose (kf);
      }
    ok (store_key_load (keypath, false, key, &err) < 0 && strstr (err.msg, "64 hex"),
        "a key file that is no key is refused");
    unlink (keypath);
    ok (store_key_load (keypath, false, key, &err) < 0 && store_open (base, &cfg, &st, &err) < 0
            && strstr (err.msg, "missing") && access (keypath, F_OK) != 0,
        "missing: refused, by a reader and by the daemon, which makes no new one for keyed rows "
        "(%s)",
        err.msg);
    st = NULL;
    kf = fopen (keypath, "w");
    if (kf)
      {
        fputs ("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n", kf);
        fclose (kf);
      }
    chmod (keypath, 0600);
    ok (store_open (base, &cfg, &st, &err) < 0 && strstr (err.msg, "not the key"),
        "another key: refused (%s)", err.msg);
    st = NULL;
    store_history_filter_t bad = {.sha256 = "ABC", .limit = 1};
    ok (store_history (path, &bad, count_row, NULL, &err) < 0 && strstr (err.msg, "hex"),
        "a hash that is no lower-case SHA-256 is refused");
  }
  struct stat sb;
  stat (path, &sb);
  is_int (sb.st_mode & 0777, 0640, "the file is 0640");
}

static void
test_locked_backlog (const char *dir, struct event_base *base)
{
  char path[512], ids[8][16];
  store_t *st = NULL;
  sqlite3 *locker = NULL;
  wb_err_t err;
  store_config_t cfg = {path, 0, 3, NULL, NULL, NULL};
  store_stats_t ss;

  snprintf (path, sizeof path, "%s/locked.db", dir);
  if (!ok (store_open (base, &cfg, &st, &err) == 0, "open a store with a backlog of 3"))
    return;
  sqlite3_open (path, &locker);
  ok (sqlite3_exec (locker, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK,
      "another process locks the file");
  committed = failed = 0;
  for (int i = 0; i < 3; i++)
    {
      store_execution_t e;
      snprintf (ids[i], sizeof ids[i], "lk-%d", i);
      e = sample (ids[i]);
      ok (store_reserve (st, 1) && store_submit_execution (st, &e, on_done, NULL, 0, NULL) == 0,
          "record %d waits in the backlog", i);
    }
  ok (!store_accepting (st, 1), "with the backlog full the store refuses new work");
  ok (!store_reserve (st, 1), "a fourth execution cannot reserve room");
  for (int i = 0; i < 5; i++)
    store_submit_pool_event (st, "created", "python", "k", "c", 1, "");
  store_get_stats (st, &ss);
  is_int (ss.backlog, 3, "pool events do not take execution room");
  run_until (base, &failed, 1, 100); /* nothing should arrive: wait a second */
  is_int (committed, 0, "nothing is acknowledged while the file is locked");
  store_get_stats (st, &ss);
  ok (ss.failing || ss.backlog == 3, "the store knows it is failing or still trying");
  sqlite3_exec (locker, "COMMIT", NULL, NULL, NULL);
  sqlite3_close (locker);
  run_until (base, &committed, 3, 1500);
  is_int (committed, 3, "once unlocked the held records commit");
  ok (store_accepting (st, 1), "and new work is accepted again");
  store_close (st, 1000);
  is_int (count (path, "SELECT count(*) FROM executions"), 3, "3 rows, none lost");
}

static void
test_retention (const char *dir, struct event_base *base)
{
  char path[512], ids[20][16];
  store_t *st = NULL;
  wb_err_t err;
  store_config_t cfg = {path, 1, 100, NULL, NULL, NULL};
  store_stats_t ss;

  snprintf (path, sizeof path, "%s/retention.db", dir);
  if (!ok (store_open (base, &cfg, &st, &err) == 0, "open with a retention of 1 day"))
    return;
  committed = 0;
  for (int i = 0; i < 20; i++)
    {
      store_execution_t e;
      snprintf (ids[i], sizeof ids[i], "r-%d", i);
      e = sample (ids[i]);
      /* Half are ten days old. */
      e.received_at = (double) time (NULL) - (i % 2 ? 10 * 86400.0 : 60.0);
      e.finished_at = e.received_at + 0.3;
      if (store_reserve (st, 1))
        must (store_submit_execution (st, &e, on_done, NULL, 0, NULL));
    }
  run_until (base, &committed, 20, 1000);
  for (int i = 0; i < 300; i++)
    {
      store_get_stats (st, &ss);
      if (ss.pruned >= 10)
        break;
      struct timespec ts = {0, 10 * 1000000L};
      nanosleep (&ts, NULL);
    }
  is_int (ss.pruned, 10, "the writer pruned the 10 old rows when idle");
  store_close (st, 1000);
  is_int (count (path, "SELECT count(*) FROM executions"), 10, "the 10 recent rows stay");
}

/* The replay's pool model on traces with known answers. */
static void
test_replay (void)
{
  double arr[400], create[1] = {500};
  store_replay_result_t r;
  store_replay_sizes_t sz;

  /* One arrival a second, replenished in 0.5 s: a pool of 1 always has a
   * container ready. */
  for (int i = 0; i < 100; i++)
    arr[i] = 1000.0 + i;
  sz = (store_replay_sizes_t){1, 1, 2};
  ok (store_replay (arr, 100, create, 1, &sz, &r) == 0, "replay runs");
  is_int (r.hits, 100, "1/s, replenish 0.5 s, min 1: every arrival a hit");
  sz = (store_replay_sizes_t){0, 0, 2};
  must (store_replay (arr, 100, create, 1, &sz, &r));
  is_int (r.hits, 0, "min = max = 0 (the cold path): no hit");
  ok (r.miss_wait_ms > 499 && r.miss_wait_ms < 501, "each miss waits one create (%.1f ms)",
      r.miss_wait_ms);

  /* A burst of 10 at one instant against 4 ready: 4 hits, 6 misses. */
  for (int i = 0; i < 10; i++)
    arr[i] = 2000.0;
  sz = (store_replay_sizes_t){4, 4, 2};
  must (store_replay (arr, 10, create, 1, &sz, &r));
  is_int (r.hits, 4, "a burst of 10 against 4 ready: 4 hits");
  /* Five such bursts 5 s apart: the pool is full again each time. */
  for (int b = 0; b < 5; b++)
    for (int i = 0; i < 10; i++)
      arr[b * 10 + i] = 3000.0 + 5.0 * b;
  must (store_replay (arr, 50, create, 1, &sz, &r));
  is_int (r.hits, 20, "five bursts 5 s apart: 4 hits each");
  sz = (store_replay_sizes_t){10, 10, 2};
  must (store_replay (arr, 50, create, 1, &sz, &r));
  is_int (r.hits, 50, "with 10 ready every burst is served from the pool");
  /* Each burst empties it; 10 creates two at a time (2 every 0.5 s) take
   * 2.5 s of each 5 s: (2.5 x (0+2+4+6+8)/5 + 2.5 x 10) / 5 = 7 idle. */
  ok (fabs (r.idle_mean - 7.0) < 1e-9, "and idle: 7 on average, exactly (%.4f)", r.idle_mean);

  /* The adaptive target: 4/s with 1 s creates and min 0 / max 8 keeps
   * about rate x create x 2 = 8 ready once the rate is learned. */
  for (int i = 0; i < 400; i++)
    arr[i] = 5000.0 + i * 0.25;
  create[0] = 1000;
  sz = (store_replay_sizes_t){0, 8, 8};
  must (store_replay (arr, 400, create, 1, &sz, &r));
  ok (r.hit_rate > 0.8, "a steady 4/s with min 0 / max 8: the target follows the rate (%.2f hits)",
      r.hit_rate);
  sz = (store_replay_sizes_t){0, 8, 4};
  must (store_replay (arr, 400, create, 1, &sz, &r));
  ok (r.hit_rate < 0.05,
      "but with 4 creates of 1 s at once, 4/s is all they can make: misses "
      "take every one (%.2f hits)",
      r.hit_rate);
}

int
main (void)
{
  char tmpl[] = "/tmp/warmbox-store-test.XXXXXX";
  char *dir = mkdtemp (tmpl);
  struct event_base *base = event_base_new ();
  char cmd[600];

  test_plan_size ();
  test_replay ();
  test_migrate (dir);
  test_write_path (dir, base);
  test_locked_backlog (dir, base);
  test_retention (dir, base);
  event_base_free (base);
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system (cmd) != 0)
    printf ("# could not remove %s\n", dir);
  return tap_done ();
}
