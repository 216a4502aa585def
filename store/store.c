/* store/store.c: the execution history (see include/warmbox/store.h).
 *
 * Threads: the event loop calls store_submit_* (a short mutex hold to link a
 * record); the writer thread does every SQLite call on the write
 * connection.  Committed executions go back to the loop through `done`,
 * signalled by a byte on a pipe that the loop's base watches. */
#define _GNU_SOURCE
#include "warmbox/store.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BATCH_MAX 256
#define DEFAULT_BACKLOG 10000
#define PRUNE_EVERY_S 60
#define PRUNE_BATCH 500
#define RETRY_MIN_MS 50
#define RETRY_MAX_MS 1000

/* ---- schema ---------------------------------------------------------- */

/* Each entry moves the file from version i to i+1; never edit a shipped one,
 * add the next.  v1 is the first shipped layout; v2 added the operators'
 * views and the indexes they need. */
static const char *const migrations[] = {
    /* 0 -> 1 */
    "CREATE TABLE executions ("
    "  id TEXT PRIMARY KEY,"
    "  received_at REAL NOT NULL,"
    "  started_at REAL,"
    "  finished_at REAL NOT NULL,"
    "  client TEXT NOT NULL DEFAULT '',"
    "  language TEXT NOT NULL,"
    "  image_id TEXT NOT NULL DEFAULT '',"
    "  profile_hash TEXT NOT NULL DEFAULT '',"
    "  code_sha256 TEXT NOT NULL,"
    "  code_bytes INTEGER NOT NULL,"
    "  stdin_sha256 TEXT NOT NULL,"
    "  stdin_bytes INTEGER NOT NULL,"
    "  arg_count INTEGER NOT NULL DEFAULT 0,"
    "  status TEXT NOT NULL,"
    "  exit_code INTEGER,"
    "  timed_out INTEGER NOT NULL DEFAULT 0,"
    "  oom_killed INTEGER NOT NULL DEFAULT 0,"
    "  stdout_truncated INTEGER NOT NULL DEFAULT 0,"
    "  stderr_truncated INTEGER NOT NULL DEFAULT 0,"
    "  stdout_bytes INTEGER NOT NULL DEFAULT 0,"
    "  stderr_bytes INTEGER NOT NULL DEFAULT 0,"
    "  queue_ms REAL,"
    "  start_ms REAL,"
    "  run_ms REAL,"
    "  total_ms REAL,"
    "  pool_hit INTEGER NOT NULL DEFAULT 0,"
    "  container_id TEXT NOT NULL DEFAULT ''"
    ");"
    "CREATE INDEX executions_received_at ON executions (received_at);"
    "CREATE INDEX executions_code_sha256 ON executions (code_sha256);"
    "CREATE TABLE pool_events ("
    "  id INTEGER PRIMARY KEY,"
    "  at REAL NOT NULL,"
    "  event TEXT NOT NULL,"
    "  language TEXT NOT NULL,"
    "  pool_key TEXT NOT NULL,"
    "  container_id TEXT NOT NULL DEFAULT '',"
    "  duration_ms REAL"
    ");"
    "CREATE INDEX pool_events_at ON pool_events (at);",

    /* 1 -> 2 */
    "ALTER TABLE executions ADD COLUMN engine TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE executions ADD COLUMN error TEXT NOT NULL DEFAULT '';"
    "ALTER TABLE pool_events ADD COLUMN detail TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX executions_stdin_sha256 ON executions (stdin_sha256);"
    "CREATE INDEX executions_language_received_at ON executions (language, received_at);"
    "CREATE INDEX pool_events_language_at ON pool_events (language, event, at);"
    "CREATE VIEW executions_per_hour AS"
    "  SELECT strftime('%Y-%m-%d %H:00', received_at, 'unixepoch') AS hour, language, status,"
    "         count(*) AS executions"
    "  FROM executions GROUP BY hour, language, status;"
    "CREATE VIEW pool_hit_rate AS"
    "  SELECT strftime('%Y-%m-%d %H:00', received_at, 'unixepoch') AS hour, language,"
    "         count(*) AS executions, sum(pool_hit) AS hits,"
    "         round(1.0 * sum(pool_hit) / count(*), 4) AS hit_rate"
    "  FROM executions WHERE status != 'refused' GROUP BY hour, language;"
    "CREATE VIEW latency_per_hour AS"
    "  WITH ranked AS ("
    "    SELECT strftime('%Y-%m-%d %H:00', received_at, 'unixepoch') AS hour, language, total_ms,"
    "           row_number () OVER (PARTITION BY strftime('%Y-%m-%d %H', received_at, 'unixepoch'),"
    "                                            language ORDER BY total_ms) AS r,"
    "           count(*) OVER (PARTITION BY strftime('%Y-%m-%d %H', received_at, 'unixepoch'),"
    "                                       language) AS n"
    "    FROM executions WHERE total_ms IS NOT NULL AND status != 'refused')"
    "  SELECT hour, language, max(n) AS executions,"
    "         min(CASE WHEN r >= 0.50 * n THEN total_ms END) AS p50_ms,"
    "         min(CASE WHEN r >= 0.95 * n THEN total_ms END) AS p95_ms,"
    "         min(CASE WHEN r >= 0.99 * n THEN total_ms END) AS p99_ms,"
    "         max(total_ms) AS max_ms"
    "  FROM ranked GROUP BY hour, language;"
    "CREATE VIEW recent_failures AS"
    "  SELECT datetime(received_at, 'unixepoch') AS received, id, client, language, status,"
    "         exit_code, error, code_sha256, total_ms"
    "  FROM executions WHERE status != 'ok' OR exit_code != 0"
    "  ORDER BY received_at DESC LIMIT 100;",

    /* 2 -> 3: rows written ahead ("running") name their daemon, so a later
     * start-up can tell which ones a dead daemon left behind.  The views skip
     * rows still in flight. */
    "ALTER TABLE executions ADD COLUMN daemon TEXT NOT NULL DEFAULT '';"
    "CREATE INDEX executions_running ON executions (daemon) WHERE status = 'running';"
    "DROP VIEW pool_hit_rate;"
    "CREATE VIEW pool_hit_rate AS"
    "  SELECT strftime('%Y-%m-%d %H:00', received_at, 'unixepoch') AS hour, language,"
    "         count(*) AS executions, sum(pool_hit) AS hits,"
    "         round(1.0 * sum(pool_hit) / count(*), 4) AS hit_rate"
    "  FROM executions WHERE status NOT IN ('refused', 'running') GROUP BY hour, language;"
    "DROP VIEW recent_failures;"
    "CREATE VIEW recent_failures AS"
    "  SELECT datetime(received_at, 'unixepoch') AS received, id, client, language, status,"
    "         exit_code, error, code_sha256, total_ms"
    "  FROM executions WHERE status != 'running' AND (status != 'ok' OR exit_code != 0)"
    "  ORDER BY received_at DESC LIMIT 100;"
    "CREATE VIEW in_flight AS"
    "  SELECT datetime(received_at, 'unixepoch') AS received, id, client, language, pool_hit,"
    "         daemon"
    "  FROM executions WHERE status = 'running' ORDER BY received_at;",

    /* 3 -> 4: the pool each execution was served from (a key ending in
     * /m<MB> is a request's own), so a replay of the warm pools can leave
     * the others out. */
    "ALTER TABLE executions ADD COLUMN pool TEXT NOT NULL DEFAULT '';",

    /* 4 -> 5: files given to the program: how many, their bytes, one hash
     * over them all (names and contents; never stored themselves); what the
     * program used; the heaviest executions of the last day. */
    "ALTER TABLE executions ADD COLUMN files_in INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE executions ADD COLUMN files_in_bytes INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE executions ADD COLUMN files_in_sha256 TEXT NOT NULL DEFAULT '';"
    /* ... and what the program used, as the sandbox's init measured it
     * (NULL when it was stopped, or older rows). */
    "ALTER TABLE executions ADD COLUMN peak_memory_kib INTEGER;"
    "ALTER TABLE executions ADD COLUMN cpu_user_ms REAL;"
    "ALTER TABLE executions ADD COLUMN cpu_system_ms REAL;"
    "CREATE VIEW heaviest_executions AS"
    "  SELECT datetime(received_at, 'unixepoch') AS received, id, client, language, status,"
    "         peak_memory_kib, cpu_user_ms, cpu_system_ms, cpu_user_ms + cpu_system_ms AS cpu_ms,"
    "         total_ms, code_sha256"
    "  FROM executions"
    "  WHERE received_at >= CAST(strftime('%s', 'now') AS REAL) - 86400 AND peak_memory_kib IS NOT "
    "NULL"
    "  ORDER BY peak_memory_kib DESC LIMIT 100;",

    /* 5 -> 6: files the program left in its working directory and got
     * back: how many, their bytes, one hash over them (as files_in). */
    "ALTER TABLE executions ADD COLUMN files_out INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE executions ADD COLUMN files_out_bytes INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE executions ADD COLUMN files_out_sha256 TEXT NOT NULL DEFAULT '';",

    /* 6 -> 7: a compiled language's compile stage: how it ended and how long
     * it took (NULL for the other languages). */
    ("ALTER TABLE executions ADD COLUMN compile_status TEXT;"
     "ALTER TABLE executions ADD COLUMN compile_ms REAL;"), /* one step: clang asks for the
                                                               parentheses */

    /* 7 -> 8: a session's execution names its session and its place in it
     * (NULL for the others; the state itself is never here); the keys the
     * daemon signs its session ids with (store_secret). */
    ("ALTER TABLE executions ADD COLUMN session_id TEXT;"
     "ALTER TABLE executions ADD COLUMN session_seq INTEGER;"
     "CREATE INDEX executions_session ON executions (session_id) WHERE session_id IS NOT NULL;"
     "CREATE TABLE secrets (name TEXT PRIMARY KEY, value BLOB NOT NULL);"),

    /* 8 -> 9: input hashes keyed (store_keyed_hex, with the key of a file
     * beside the history): renamed, and every older row's rewritten
     * (secure_delete zeroes what they held; the views follow the names). */
    ("ALTER TABLE executions RENAME COLUMN code_sha256 TO code_hmac;"
     "ALTER TABLE executions RENAME COLUMN stdin_sha256 TO stdin_hmac;"
     "ALTER TABLE executions RENAME COLUMN files_in_sha256 TO files_in_hmac;"
     "ALTER TABLE executions RENAME COLUMN files_out_sha256 TO files_out_hmac;"
     "DROP INDEX executions_code_sha256;"
     "DROP INDEX executions_stdin_sha256;"
     "CREATE INDEX executions_code_hmac ON executions (code_hmac);"
     "CREATE INDEX executions_stdin_hmac ON executions (stdin_hmac);"
     "UPDATE executions SET code_hmac = wb_keyed (code_hmac), stdin_hmac = wb_keyed (stdin_hmac),"
     " files_in_hmac = wb_keyed (files_in_hmac), files_out_hmac = wb_keyed (files_out_hmac);"),
};

int
store_schema_version (void)
{
  return (int) WB_ARRAY_SIZE (migrations);
}

static int
exec_sql (sqlite3 *db, const char *sql, wb_err_t *err)
{
  char *msg = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "sqlite: %s", msg ? msg : sqlite3_errmsg (db));
      sqlite3_free (msg);
      return -1;
    }
  return 0;
}

static int
user_version (sqlite3 *db, int *out, wb_err_t *err)
{
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &st, NULL);
  if (rc == SQLITE_OK && sqlite3_step (st) == SQLITE_ROW)
    {
      *out = sqlite3_column_int (st, 0);
      sqlite3_finalize (st);
      return 0;
    }
  sqlite3_finalize (st);
  return wb_error (err, WB_E_IO, "sqlite: reading user_version: %s", sqlite3_errmsg (db));
}

/* wb_keyed (TEXT): store_keyed_hex under the migration's key. */
static void
keyed_fn (sqlite3_context *c, int argc, sqlite3_value **argv)
{
  const unsigned char *in = argc == 1 ? sqlite3_value_text (argv[0]) : NULL;
  char out[65];

  store_keyed_hex (sqlite3_user_data (c), in ? (const char *) in : "", out);
  sqlite3_result_text (c, out, -1, SQLITE_TRANSIENT);
}

int
store_migrate (sqlite3 *db, const unsigned char key[32], wb_err_t *err)
{
  int v = 0;
  char pragma[64];

  if (user_version (db, &v, err) < 0)
    return -1;
  if (sqlite3_create_function (db, "wb_keyed", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, (void *) key,
                               keyed_fn, NULL, NULL)
      != SQLITE_OK)
    return wb_error (err, WB_E_IO, "sqlite: %s", sqlite3_errmsg (db));
  if (v > store_schema_version ())
    return wb_error (err, WB_E_INVALID,
                     "the history file has schema version %d, newer than this build's %d", v,
                     store_schema_version ());
  while (v < store_schema_version ())
    {
      /* Each step in its own transaction: a crash leaves a whole version. */
      snprintf (pragma, sizeof pragma, "PRAGMA user_version = %d;", v + 1);
      if (exec_sql (db, "BEGIN IMMEDIATE;", err) < 0)
        return -1;
      if (exec_sql (db, migrations[v], err) < 0 || exec_sql (db, pragma, err) < 0)
        {
          exec_sql (db, "ROLLBACK;", NULL);
          return wb_err_wrap (err, "migrating history from version %d", v);
        }
      if (exec_sql (db, "COMMIT;", err) < 0)
        return -1;
      wb_info ("history schema migrated to version %d", v + 1);
      v++;
    }
  return 0;
}

const char *
store_default_path (char *buf, size_t len)
{
  const char *xdg = getenv ("XDG_STATE_HOME"), *home = getenv ("HOME");

  if (geteuid () == 0)
    snprintf (buf, len, "/var/lib/warmbox/history.db");
  else if (xdg && *xdg)
    snprintf (buf, len, "%s/warmbox/history.db", xdg);
  else if (home && *home)
    snprintf (buf, len, "%s/.local/state/warmbox/history.db", home);
  else
    snprintf (buf, len, "warmbox-history.db");
  return buf;
}

/* ---- the hash key ------------------------------------------------------ */

const char *
store_key_path (const char *db_path, char *buf, size_t len)
{
  snprintf (buf, len, "%s.key", db_path);
  return buf;
}

/* Make the key file at path, whole or not at all: written under a name
 * of its own, then linked to path (a process that made it first wins: its
 * file is the key).  0, or -1 with err. */
static int
key_make (const char *path, wb_err_t *err)
{
  unsigned char fresh[32];
  char hex[66], tmp[4200];
  int w;

  if (snprintf (tmp, sizeof tmp, "%s.%ld.new", path, (long) getpid ()) >= (int) sizeof tmp)
    return wb_error (err, WB_E_INVALID, "history key %s: the name is too long", path);
  if (RAND_bytes (fresh, sizeof fresh) != 1)
    return wb_error (err, WB_E_INTERNAL, "history key %s: no random source", path);
  for (size_t i = 0; i < sizeof fresh; i++)
    snprintf (hex + 2 * i, 3, "%02x", fresh[i]);
  hex[64] = '\n';
  OPENSSL_cleanse (fresh, sizeof fresh);
  unlink (tmp);
  w = open (tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (w < 0)
    {
      OPENSSL_cleanse (hex, sizeof hex);
      return wb_error_errno (err, WB_E_IO, errno, "history key: creating %s", tmp);
    }
  bool whole = write (w, hex, 65) == 65 && fsync (w) == 0;
  int e = errno;
  close (w);
  OPENSSL_cleanse (hex, sizeof hex);
  if (!whole || (link (tmp, path) < 0 && errno != EEXIST))
    {
      e = whole ? errno : e;
      unlink (tmp);
      return wb_error_errno (err, WB_E_IO, e, "history key: writing %s", path);
    }
  unlink (tmp);
  wb_info ("history key %s made (keep it with the history, readable by warmboxd only)", path);
  return 0;
}

int
store_key_load (const char *path, bool create, unsigned char key[32], wb_err_t *err)
{
  cleanup_buf wb_buf_t raw = WB_BUF_INIT;
  char text[130];
  struct stat sb;
  ssize_t n;
  int fd;

  fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT && create)
    {
      if (key_make (path, err) < 0)
        return -1;
      fd = open (path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    }
  if (fd < 0)
    return wb_error_errno (err, WB_E_IO, errno, "history key %s", path);
  /* The daemon's user's own, nobody else's; root may read it (an
   * operator's warmbox history --sha256), never make it. */
  if (fstat (fd, &sb) < 0 || !S_ISREG (sb.st_mode)
      || (sb.st_uid != geteuid () && !(geteuid () == 0 && !create)) || (sb.st_mode & 077) != 0)
    {
      close (fd);
      return wb_error (err, WB_E_INVALID,
                       "history key %s must be a regular file of this user's that nobody else "
                       "may read or write (chmod 600)",
                       path);
    }
  n = read (fd, text, sizeof text - 1);
  close (fd);
  if (n < 64)
    return wb_error (err, WB_E_INVALID, "history key %s: not 64 hex digits", path);
  int bad = wb_hex_decode (&raw, text, 64) < 0 || raw.len != 32
            || (n > 64 && !(n == 65 && text[64] == '\n'));
  OPENSSL_cleanse (text, sizeof text);
  if (bad)
    {
      if (raw.data)
        OPENSSL_cleanse (raw.data, raw.len);
      return wb_error (err, WB_E_INVALID, "history key %s: not 64 hex digits", path);
    }
  memcpy (key, raw.data, 32);
  OPENSSL_cleanse (raw.data, raw.len);
  return 0;
}

void
store_keyed_hex (const unsigned char key[32], const char *hex, char out[65])
{
  unsigned char mac[32];
  unsigned int len = 0;

  out[0] = '\0';
  if (hex == NULL || hex[0] == '\0'
      || HMAC (EVP_sha256 (), key, 32, (const unsigned char *) hex, strlen (hex), mac, &len) == NULL
      || len != 32)
    return;
  for (size_t i = 0; i < 32; i++)
    snprintf (out + 2 * i, 3, "%02x", mac[i]);
}

/* The key's fingerprint in the history: HMAC of a fixed text under it. */
static void
key_fingerprint (const unsigned char key[32], unsigned char out[32])
{
  static const char what[] = "warmbox history key check";
  unsigned int len = 0;

  if (HMAC (EVP_sha256 (), key, 32, (const unsigned char *) what, sizeof what - 1, out, &len)
          == NULL
      || len != 32)
    memset (out, 0, 32);
}

/* Does the history hold a key fingerprint (it has keyed rows)?  False on
 * a file older than the secrets table. */
static bool
key_fingerprint_held (sqlite3 *db, unsigned char out[32])
{
  sqlite3_stmt *q = NULL;
  bool found = false;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM secrets WHERE name = 'hash_key_check'", -1, &q,
                          NULL)
      != SQLITE_OK)
    return false;
  if (sqlite3_step (q) == SQLITE_ROW && sqlite3_column_bytes (q, 0) == 32)
    {
      memcpy (out, sqlite3_column_blob (q, 0), 32);
      found = true;
    }
  sqlite3_finalize (q);
  return found;
}

/* The key at key_path, the one the history's rows were keyed with: made
 * only for a history that has none yet; a key file that is missing, or
 * another one, while the history holds keyed rows is refused (its rows
 * would never be found again, or two keys would mix in one file). */
static int
key_open (sqlite3 *db, const char *key_path, unsigned char key[32], wb_err_t *err)
{
  unsigned char held[32], mine[32];
  bool had = key_fingerprint_held (db, held);

  if (store_key_load (key_path, !had, key, err) < 0)
    return had && access (key_path, F_OK) != 0
               ? wb_error (err, WB_E_INVALID,
                           "history key %s is missing, and the history's rows were keyed with it: "
                           "put it back (or move the history aside to start a new one)",
                           key_path)
               : -1;
  key_fingerprint (key, mine);
  if (had && CRYPTO_memcmp (held, mine, 32) != 0)
    return wb_error (err, WB_E_INVALID,
                     "history key %s is not the key the history's rows were keyed with", key_path);
  return 0;
}

/* After the migrations: the fingerprint is the history's (kept once). */
static int
key_remember (sqlite3 *db, const unsigned char key[32], wb_err_t *err)
{
  unsigned char held[32], mine[32];
  sqlite3_stmt *q = NULL;
  int rc;

  if (key_fingerprint_held (db, held))
    return 0;
  key_fingerprint (key, mine);
  if (sqlite3_prepare_v2 (db, "INSERT INTO secrets (name, value) VALUES ('hash_key_check', ?)", -1,
                          &q, NULL)
      != SQLITE_OK)
    return wb_error (err, WB_E_IO, "writing its secrets: %s", sqlite3_errmsg (db));
  sqlite3_bind_blob (q, 1, mine, 32, SQLITE_STATIC);
  rc = sqlite3_step (q);
  sqlite3_finalize (q);
  return rc == SQLITE_DONE
             ? 0
             : wb_error (err, WB_E_IO, "writing its secrets: %s", sqlite3_errmsg (db));
}

/* ---- records --------------------------------------------------------- */

enum
{
  ITEM_EXEC,
  ITEM_EVENT
};

typedef struct item
{
  int kind;
  struct item *next;
  store_done_cb cb;
  void *arg;
  int rc;
  /* Execution */
  store_execution_t e;
  uint64_t tag;
  /* Pool event */
  char *event, *language, *pool_key, *container_id, *detail;
  double at, duration_ms;
  /* All strings of `e` live in this one allocation. */
  char *strings;
} item_t;

struct store
{
  struct event_base *base;
  sqlite3 *db;
  sqlite3_stmt *ins_exec, *ins_event;
  char *path;
  unsigned char session_key[32]; /* load_secret's "session_ids" */
  unsigned char hash_key[32];    /* store_key_load's: the input hashes' */
  uint32_t retention_days, max_backlog;

  pthread_t thread;
  bool thread_started;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  item_t *q_head, *q_tail;
  item_t *done_head, *done_tail;
  uint32_t backlog; /* execution reservations + their records not yet written */
  uint32_t events;  /* pool events not yet written */
  bool stop;
  uint64_t stop_deadline_ms;

  int pipe_rd, pipe_wr;
  struct event *done_ev;

  store_stats_t stats; /* under mu */
  time_t last_prune;
};

static void
item_free (item_t *it)
{
  free (it->strings);
  free (it->event);
  free (it->language);
  free (it->pool_key);
  free (it->container_id);
  free (it->detail);
  free (it);
}

static double
now_unix (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_REALTIME, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Copy the record's strings into one block owned by the item. */
/* The secret called name (32 random bytes, made and kept the first time
 * it is asked for): for what must outlive a restart but never leave the
 * host (the key session ids are signed with).  Blocking (store_open). */
static int
load_secret (sqlite3 *db, const char *name, unsigned char out[32], wb_err_t *err)
{
  sqlite3_stmt *q = NULL;
  int rc;
  bool found = false;

  if (sqlite3_prepare_v2 (db, "SELECT value FROM secrets WHERE name = ?", -1, &q, NULL)
      != SQLITE_OK)
    return wb_error (err, WB_E_IO, "reading its secrets: %s", sqlite3_errmsg (db));
  sqlite3_bind_text (q, 1, name, -1, SQLITE_STATIC);
  rc = sqlite3_step (q);
  if (rc == SQLITE_ROW && sqlite3_column_bytes (q, 0) == 32)
    {
      memcpy (out, sqlite3_column_blob (q, 0), 32);
      found = true;
    }
  sqlite3_finalize (q);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return wb_error (err, WB_E_IO, "reading its secrets: %s", sqlite3_errmsg (db));
  if (found)
    return 0;
  if (RAND_bytes (out, 32) != 1)
    return wb_error (err, WB_E_INTERNAL, "no random bytes for its secret %s", name);
  if (sqlite3_prepare_v2 (db, "INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", -1, &q,
                          NULL)
      != SQLITE_OK)
    return wb_error (err, WB_E_IO, "writing its secrets: %s", sqlite3_errmsg (db));
  sqlite3_bind_text (q, 1, name, -1, SQLITE_STATIC);
  sqlite3_bind_blob (q, 2, out, 32, SQLITE_STATIC);
  rc = sqlite3_step (q);
  sqlite3_finalize (q);
  if (rc != SQLITE_DONE)
    return wb_error (err, WB_E_IO, "writing its secrets: %s", sqlite3_errmsg (db));
  return 0;
}

const unsigned char *
store_session_key (const store_t *st)
{
  return st->session_key;
}

static int
copy_execution (item_t *it, const store_execution_t *rec)
{
  const char **fields[]
      = {&it->e.id,           &it->e.client, &it->e.language,     &it->e.image_id,
         &it->e.profile_hash, &it->e.status, &it->e.container_id, &it->e.engine,
         &it->e.error,        &it->e.daemon, &it->e.pool,         &it->e.session_id};
  size_t total = 0, off = 0;

  it->e = *rec;
  for (size_t i = 0; i < WB_ARRAY_SIZE (fields); i++)
    total += strlen (*fields[i] ? *fields[i] : "") + 1;
  it->strings = malloc (total);
  if (it->strings == NULL)
    return -1;
  for (size_t i = 0; i < WB_ARRAY_SIZE (fields); i++)
    {
      const char *s = *fields[i] ? *fields[i] : "";
      size_t l = strlen (s) + 1;
      memcpy (it->strings + off, s, l);
      *fields[i] = it->strings + off;
      off += l;
    }
  return 0;
}

static void
enqueue (store_t *st, item_t *it)
{
  if (st->q_tail)
    st->q_tail->next = it;
  else
    st->q_head = it;
  st->q_tail = it;
  if (it->kind == ITEM_EVENT)
    st->events++;
  pthread_cond_signal (&st->cv);
}

bool
store_accepting (const store_t *st, uint32_t n)
{
  store_t *s = (store_t *) st;
  bool ok;

  pthread_mutex_lock (&s->mu);
  ok = s->backlog + n <= s->max_backlog && !s->stop && !s->stats.failing;
  pthread_mutex_unlock (&s->mu);
  return ok;
}

bool
store_reserve (store_t *st, uint32_t n)
{
  bool ok;

  pthread_mutex_lock (&st->mu);
  /* While writes fail, new work is refused at once rather than left to
   * wait out its deadline before its start. */
  ok = st->backlog + n <= st->max_backlog && !st->stop && !st->stats.failing;
  if (ok)
    st->backlog += n;
  pthread_mutex_unlock (&st->mu);
  return ok;
}

void
store_unreserve (store_t *st, uint32_t n)
{
  pthread_mutex_lock (&st->mu);
  st->backlog -= n;
  pthread_mutex_unlock (&st->mu);
}

int
store_submit_execution (store_t *st, const store_execution_t *rec, store_done_cb cb, void *arg,
                        uint64_t tag, wb_err_t *err)
{
  item_t *it = calloc (1, sizeof *it);

  if (it == NULL || copy_execution (it, rec) < 0)
    {
      free (it);
      store_unreserve (st, 1);
      return wb_error (err, WB_E_NOMEM, "out of memory queueing the %s row of %s", rec->status,
                       rec->id);
    }
  it->kind = ITEM_EXEC;
  it->cb = cb;
  it->arg = arg;
  it->tag = tag;
  pthread_mutex_lock (&st->mu);
  enqueue (st, it); /* its room was reserved at admission */
  pthread_mutex_unlock (&st->mu);
  return 0;
}

static char *
dup0 (const char *s)
{
  return strdup (s ? s : "");
}

void
store_submit_pool_event (store_t *st, const char *event, const char *language, const char *pool_key,
                         const char *container_id, double duration_ms, const char *detail)
{
  item_t *it = calloc (1, sizeof *it);

  if (it)
    {
      it->kind = ITEM_EVENT;
      it->at = now_unix ();
      it->duration_ms = duration_ms;
      it->event = dup0 (event);
      it->language = dup0 (language);
      it->pool_key = dup0 (pool_key);
      it->container_id = dup0 (container_id);
      it->detail = dup0 (detail);
    }
  pthread_mutex_lock (&st->mu);
  if (it == NULL || !it->event || !it->language || !it->pool_key || !it->container_id || !it->detail
      || st->events >= st->max_backlog || st->stop)
    {
      st->stats.dropped_events++;
      pthread_mutex_unlock (&st->mu);
      if (it)
        item_free (it);
      return;
    }
  enqueue (st, it);
  pthread_mutex_unlock (&st->mu);
}

void
store_get_stats (store_t *st, store_stats_t *out)
{
  pthread_mutex_lock (&st->mu);
  *out = st->stats;
  out->backlog = st->backlog;
  pthread_mutex_unlock (&st->mu);
}

/* ---- the writer thread ------------------------------------------------ */

static void
bind_ms (sqlite3_stmt *s, int i, double ms)
{
  if (ms >= 0)
    sqlite3_bind_double (s, i, ms);
  else
    sqlite3_bind_null (s, i);
}

static int
bind_exec (sqlite3_stmt *s, const store_execution_t *plain, const unsigned char key[32])
{
  store_execution_t keyed = *plain, *e = &keyed;
  int i = 1;

  /* What reaches the file is keyed, never the plain hash. */
  store_keyed_hex (key, plain->code_sha256, keyed.code_sha256);
  store_keyed_hex (key, plain->stdin_sha256, keyed.stdin_sha256);
  store_keyed_hex (key, plain->files_in_sha256, keyed.files_in_sha256);
  store_keyed_hex (key, plain->files_out_sha256, keyed.files_out_sha256);
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  sqlite3_bind_text (s, i++, e->id, -1, SQLITE_STATIC);
  sqlite3_bind_double (s, i++, e->received_at);
  if (e->started_at > 0)
    sqlite3_bind_double (s, i++, e->started_at);
  else
    sqlite3_bind_null (s, i++);
  sqlite3_bind_double (s, i++, e->finished_at);
  sqlite3_bind_text (s, i++, e->client, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->language, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->image_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->profile_hash, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->code_sha256, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->code_bytes);
  sqlite3_bind_text (s, i++, e->stdin_sha256, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->stdin_bytes);
  sqlite3_bind_int (s, i++, (int) e->arg_count);
  sqlite3_bind_text (s, i++, e->status, -1, SQLITE_STATIC);
  if (e->exit_code >= 0)
    sqlite3_bind_int (s, i++, e->exit_code);
  else
    sqlite3_bind_null (s, i++);
  sqlite3_bind_int (s, i++, e->timed_out);
  sqlite3_bind_int (s, i++, e->oom_killed);
  sqlite3_bind_int (s, i++, e->stdout_truncated);
  sqlite3_bind_int (s, i++, e->stderr_truncated);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->stdout_bytes);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->stderr_bytes);
  bind_ms (s, i++, e->queue_ms);
  bind_ms (s, i++, e->start_ms);
  bind_ms (s, i++, e->run_ms);
  bind_ms (s, i++, e->total_ms);
  sqlite3_bind_int (s, i++, e->pool_hit);
  sqlite3_bind_text (s, i++, e->container_id, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->engine, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->error, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->daemon, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, i++, e->pool, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, i++, (int) e->files_in);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->files_in_bytes);
  sqlite3_bind_text (s, i++, e->files_in_sha256, -1, SQLITE_STATIC);
  if (e->has_usage)
    {
      sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->peak_memory_kib);
      sqlite3_bind_double (s, i++, e->cpu_user_ms);
      sqlite3_bind_double (s, i++, e->cpu_system_ms);
    }
  else
    {
      sqlite3_bind_null (s, i++);
      sqlite3_bind_null (s, i++);
      sqlite3_bind_null (s, i++);
    }
  sqlite3_bind_int (s, i++, (int) e->files_out);
  sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->files_out_bytes);
  sqlite3_bind_text (s, i++, e->files_out_sha256, -1, SQLITE_STATIC);
  if (e->compile_status[0])
    {
      sqlite3_bind_text (s, i++, e->compile_status, -1, SQLITE_STATIC);
      sqlite3_bind_double (s, i++, e->compile_ms);
    }
  else
    {
      sqlite3_bind_null (s, i++);
      sqlite3_bind_null (s, i++);
    }
  if (e->session_id && e->session_id[0])
    {
      sqlite3_bind_text (s, i++, e->session_id, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (s, i++, (sqlite3_int64) e->session_seq);
    }
  else
    {
      sqlite3_bind_null (s, i++);
      sqlite3_bind_null (s, i++);
    }
  return sqlite3_step (s);
}

static int
bind_event (sqlite3_stmt *s, const item_t *it)
{
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  sqlite3_bind_double (s, 1, it->at);
  sqlite3_bind_text (s, 2, it->event, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, 3, it->language, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, 4, it->pool_key, -1, SQLITE_STATIC);
  sqlite3_bind_text (s, 5, it->container_id, -1, SQLITE_STATIC);
  if (it->duration_ms >= 0)
    sqlite3_bind_double (s, 6, it->duration_ms);
  else
    sqlite3_bind_null (s, 6);
  sqlite3_bind_text (s, 7, it->detail, -1, SQLITE_STATIC);
  return sqlite3_step (s);
}

/* One transaction for the whole batch.  0, or -1 with the error in msg. */
static int
write_batch (store_t *st, item_t *batch, char *msg, size_t msglen)
{
  int rc = sqlite3_exec (st->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

  for (item_t *it = batch; rc == SQLITE_OK && it; it = it->next)
    {
      int step = it->kind == ITEM_EXEC ? bind_exec (st->ins_exec, &it->e, st->hash_key)
                                       : bind_event (st->ins_event, it);
      /* A duplicate id would be our bug; keep the first row, lose nothing. */
      if (step != SQLITE_DONE && sqlite3_extended_errcode (st->db) != SQLITE_CONSTRAINT_PRIMARYKEY)
        rc = step;
    }
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (st->db, "COMMIT", NULL, NULL, NULL);
  sqlite3_reset (st->ins_exec);
  sqlite3_reset (st->ins_event);
  if (rc != SQLITE_OK)
    {
      snprintf (msg, msglen, "%s", sqlite3_errmsg (st->db));
      sqlite3_exec (st->db, "ROLLBACK", NULL, NULL, NULL);
      return -1;
    }
  return 0;
}

/* Delete old rows in small transactions, so writes never wait long. */
static void
prune (store_t *st)
{
  static const char *const sqls[] = {
      "DELETE FROM executions WHERE rowid IN (SELECT rowid FROM executions WHERE received_at < ?1 "
      "LIMIT 500)",
      "DELETE FROM pool_events WHERE rowid IN (SELECT rowid FROM pool_events WHERE at < ?1 LIMIT "
      "500)",
  };
  double cutoff = now_unix () - (double) st->retention_days * 86400.0;
  uint64_t n = 0;

  for (size_t k = 0; k < WB_ARRAY_SIZE (sqls); k++)
    {
      sqlite3_stmt *s = NULL;
      if (sqlite3_prepare_v2 (st->db, sqls[k], -1, &s, NULL) != SQLITE_OK)
        continue;
      for (int rounds = 0; rounds < 1000; rounds++)
        {
          sqlite3_reset (s);
          sqlite3_bind_double (s, 1, cutoff);
          if (sqlite3_step (s) != SQLITE_DONE)
            break;
          n += (uint64_t) sqlite3_changes (st->db);
          if (sqlite3_changes (st->db) < PRUNE_BATCH)
            break;
          pthread_mutex_lock (&st->mu);
          bool waiting = st->q_head != NULL;
          pthread_mutex_unlock (&st->mu);
          if (waiting)
            break; /* new records first; the rest next time */
        }
      sqlite3_finalize (s);
    }
  if (n)
    {
      pthread_mutex_lock (&st->mu);
      st->stats.pruned += n;
      pthread_mutex_unlock (&st->mu);
      wb_info ("history: pruned %llu rows older than %u days", (unsigned long long) n,
               st->retention_days);
    }
}

static void
signal_loop (store_t *st)
{
  char b = 1;
  if (write (st->pipe_wr, &b, 1) < 0 && errno != EAGAIN)
    wb_log_error ("history: cannot wake the loop: %s", strerror (errno));
}

static void
deliver (store_t *st, item_t *batch, int rc)
{
  /* Caller holds mu. */
  while (batch)
    {
      item_t *it = batch;
      batch = it->next;
      it->next = NULL;
      if (it->kind != ITEM_EXEC)
        {
          st->events--;
          item_free (it);
          continue;
        }
      st->backlog--;
      if (rc == 0)
        st->stats.committed++;
      it->rc = rc;
      if (st->done_tail)
        st->done_tail->next = it;
      else
        st->done_head = it;
      st->done_tail = it;
    }
}

static void *
writer_main (void *arg)
{
  store_t *st = arg;
  uint32_t retry_ms = 0;
  char msg[256];

  for (;;)
    {
      item_t *batch, *last;
      int n = 0;

      pthread_mutex_lock (&st->mu);
      while (st->q_head == NULL && !st->stop)
        {
          struct timespec ts;
          clock_gettime (CLOCK_REALTIME, &ts);
          ts.tv_sec += 1;
          pthread_cond_timedwait (&st->cv, &st->mu, &ts);
          if (st->q_head == NULL && st->retention_days
              && time (NULL) - st->last_prune >= PRUNE_EVERY_S)
            break;
        }
      if (st->q_head == NULL && st->stop)
        {
          pthread_mutex_unlock (&st->mu);
          break;
        }
      batch = st->q_head;
      last = batch;
      while (last && ++n < BATCH_MAX && last->next)
        last = last->next;
      if (last)
        {
          st->q_head = last->next;
          if (st->q_head == NULL)
            st->q_tail = NULL;
          last->next = NULL;
        }
      pthread_mutex_unlock (&st->mu);

      if (batch == NULL)
        {
          st->last_prune = time (NULL);
          prune (st);
          continue;
        }
      while (write_batch (st, batch, msg, sizeof msg) < 0)
        {
          bool give_up;
          pthread_mutex_lock (&st->mu);
          st->stats.write_errors++;
          if (!st->stats.failing)
            wb_log_error ("history: cannot write (%s); holding %u records and retrying", msg,
                          st->backlog);
          st->stats.failing = true;
          snprintf (st->stats.last_error, sizeof st->stats.last_error, "%s", msg);
          give_up = st->stop && wb_now_ms () >= st->stop_deadline_ms;
          if (give_up)
            {
              deliver (st, batch, -1);
              batch = NULL;
            }
          pthread_mutex_unlock (&st->mu);
          if (give_up)
            {
              wb_log_error ("history: giving up on unwritten records at shutdown");
              signal_loop (st);
              break;
            }
          retry_ms = retry_ms ? (retry_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : retry_ms * 2)
                              : RETRY_MIN_MS;
          struct timespec ts = {retry_ms / 1000, (long) (retry_ms % 1000) * 1000000L};
          nanosleep (&ts, NULL);
        }
      if (batch == NULL)
        continue;
      retry_ms = 0;
      pthread_mutex_lock (&st->mu);
      if (st->stats.failing)
        wb_info ("history: writable again; backlog %u", st->backlog);
      st->stats.failing = false;
      deliver (st, batch, 0);
      pthread_mutex_unlock (&st->mu);
      signal_loop (st);
    }
  return NULL;
}

/* ---- the loop side ---------------------------------------------------- */

static void
done_cb (evutil_socket_t fd, short what, void *arg)
{
  store_t *st = arg;
  char drain[256];
  item_t *list;

  (void) what;
  while (read (fd, drain, sizeof drain) > 0)
    ;
  pthread_mutex_lock (&st->mu);
  list = st->done_head;
  st->done_head = st->done_tail = NULL;
  pthread_mutex_unlock (&st->mu);
  while (list)
    {
      item_t *it = list;
      list = it->next;
      if (it->cb)
        it->cb (it->arg, it->tag, it->rc);
      item_free (it);
    }
}

static const char insert_exec_sql[]
    = "INSERT INTO executions (id, received_at, started_at, finished_at, client, language, "
      "image_id, profile_hash, code_hmac, code_bytes, stdin_hmac, stdin_bytes, arg_count, "
      "status, exit_code, timed_out, oom_killed, stdout_truncated, stderr_truncated, "
      "stdout_bytes, stderr_bytes, queue_ms, start_ms, run_ms, total_ms, pool_hit, "
      "container_id, engine, error, daemon, pool, files_in, files_in_bytes, files_in_hmac, "
      "peak_memory_kib, cpu_user_ms, cpu_system_ms, files_out, files_out_bytes, files_out_hmac, "
      "compile_status, compile_ms, session_id, session_seq) "
      "VALUES "
      "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
      /* The finished row replaces the one written ahead. */
      "ON CONFLICT (id) DO UPDATE SET started_at = excluded.started_at, "
      "finished_at = excluded.finished_at, image_id = excluded.image_id, status = excluded.status, "
      "exit_code = excluded.exit_code, timed_out = excluded.timed_out, "
      "oom_killed = excluded.oom_killed, stdout_truncated = excluded.stdout_truncated, "
      "stderr_truncated = excluded.stderr_truncated, stdout_bytes = excluded.stdout_bytes, "
      "stderr_bytes = excluded.stderr_bytes, queue_ms = excluded.queue_ms, "
      "start_ms = excluded.start_ms, run_ms = excluded.run_ms, total_ms = excluded.total_ms, "
      "pool_hit = excluded.pool_hit, container_id = excluded.container_id, "
      "engine = excluded.engine, error = excluded.error, pool = excluded.pool, "
      "peak_memory_kib = excluded.peak_memory_kib, cpu_user_ms = excluded.cpu_user_ms, "
      "cpu_system_ms = excluded.cpu_system_ms, files_out = excluded.files_out, "
      "files_out_bytes = excluded.files_out_bytes, files_out_hmac = excluded.files_out_hmac, "
      "compile_status = excluded.compile_status, compile_ms = excluded.compile_ms";
static const char insert_event_sql[]
    = "INSERT INTO pool_events (at, event, language, pool_key, container_id, duration_ms, detail) "
      "VALUES (?,?,?,?,?,?,?)";

/* Rows left "running" by daemons that are gone: their code may have run,
 * and nobody will finish their rows now. */
static int
mark_interrupted (store_t *st, const store_config_t *cfg, wb_err_t *err)
{
  sqlite3_stmt *sel = NULL, *upd = NULL;
  int rc;

  if (cfg->daemon_alive == NULL)
    return 0;
  if (sqlite3_prepare_v2 (st->db, "SELECT DISTINCT daemon FROM executions WHERE status = 'running'",
                          -1, &sel, NULL)
          != SQLITE_OK
      || sqlite3_prepare_v2 (st->db,
                             "UPDATE executions SET status = 'interrupted', error = 'the daemon "
                             "stopped while this execution was in flight' "
                             "WHERE status = 'running' AND daemon = ?1",
                             -1, &upd, NULL)
             != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "sqlite: %s", sqlite3_errmsg (st->db));
      goto out;
    }
  while ((rc = sqlite3_step (sel)) == SQLITE_ROW)
    {
      const char *daemon = (const char *) sqlite3_column_text (sel, 0);
      if (daemon == NULL || cfg->daemon_alive (daemon, cfg->daemon_alive_arg))
        continue;
      sqlite3_reset (upd);
      sqlite3_bind_text (upd, 1, daemon, -1, SQLITE_TRANSIENT);
      if (sqlite3_step (upd) != SQLITE_DONE)
        {
          wb_error (err, WB_E_IO, "sqlite: marking interrupted rows: %s", sqlite3_errmsg (st->db));
          goto out;
        }
      st->stats.interrupted += (uint64_t) sqlite3_changes (st->db);
    }
  if (rc != SQLITE_DONE)
    {
      wb_error (err, WB_E_IO, "sqlite: %s", sqlite3_errmsg (st->db));
      goto out;
    }
  if (st->stats.interrupted)
    wb_warn ("history: %llu executions were in flight when their daemon stopped; marked "
             "interrupted",
             (unsigned long long) st->stats.interrupted);
  sqlite3_finalize (sel);
  sqlite3_finalize (upd);
  return 0;

out:
  sqlite3_finalize (sel);
  sqlite3_finalize (upd);
  return -1;
}

static int
mkdir_parents (const char *path)
{
  char buf[1024];
  snprintf (buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/')
      {
        *p = '\0';
        if (mkdir (buf, 0750) < 0 && errno != EEXIST)
          return -1;
        *p = '/';
      }
  return 0;
}

/* The history file exists with mode 0640 before SQLite opens it: created
 * with that mode (never first with the umask's, then changed), or an
 * existing one changed to it.  Its -wal and -shm files, which SQLite
 * makes later, copy the database's mode. */
static int
history_file_mode (const char *path, wb_err_t *err)
{
  struct stat sb;
  int fd = open (path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0640);

  if (fd >= 0)
    close (fd);
  else if (errno != EEXIST)
    return wb_error_errno (err, WB_E_IO, errno, "history: creating %s", path);
  if (stat (path, &sb) < 0)
    return wb_error_errno (err, WB_E_IO, errno, "history: %s", path);
  if ((sb.st_mode & 07777) != 0640 && chmod (path, 0640) < 0)
    return wb_error_errno (err, WB_E_IO, errno, "history: giving %s mode 0640 (it has %04o)", path,
                           (unsigned) (sb.st_mode & 07777));
  return 0;
}

int
store_open (struct event_base *base, const store_config_t *cfg, store_t **out, wb_err_t *err)
{
  store_t *st = calloc (1, sizeof *st);
  char keybuf[4096 + 8];
  int fds[2];

  if (st == NULL)
    return wb_error (err, WB_E_NOMEM, "history: out of memory");
  st->base = base;
  st->pipe_rd = st->pipe_wr = -1;
  st->retention_days = cfg->retention_days;
  st->max_backlog = cfg->max_backlog ? cfg->max_backlog : DEFAULT_BACKLOG;
  st->last_prune = 0;
  pthread_mutex_init (&st->mu, NULL);
  pthread_cond_init (&st->cv, NULL);
  st->path = strdup (cfg->path);
  if (st->path == NULL)
    goto oom;
  if (mkdir_parents (st->path) < 0)
    {
      wb_error_errno (err, WB_E_IO, errno, "history: creating the folder of %s", st->path);
      goto fail;
    }
  if (history_file_mode (st->path, err) < 0)
    goto fail;
  if (sqlite3_open_v2 (st->path, &st->db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL)
      != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history: opening %s: %s", st->path,
                st->db ? sqlite3_errmsg (st->db) : "out of memory");
      goto fail;
    }
  sqlite3_busy_timeout (st->db, 2000);
  if (exec_sql (st->db,
                "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
                "PRAGMA foreign_keys = ON; PRAGMA secure_delete = ON;",
                err)
          < 0
      || key_open (st->db,
                   cfg->key_path ? cfg->key_path : store_key_path (st->path, keybuf, sizeof keybuf),
                   st->hash_key, err)
             < 0
      || store_migrate (st->db, st->hash_key, err) < 0
      || key_remember (st->db, st->hash_key, err) < 0
      /* What a migration rewrote (plain hashes) leaves the file now. */
      || exec_sql (st->db, "PRAGMA wal_checkpoint(TRUNCATE);", err) < 0
      || mark_interrupted (st, cfg, err) < 0
      || load_secret (st->db, "session_ids", st->session_key, err) < 0)
    {
      wb_err_wrap (err, "history %s", st->path);
      goto fail;
    }
  if (sqlite3_prepare_v3 (st->db, insert_exec_sql, -1, SQLITE_PREPARE_PERSISTENT, &st->ins_exec,
                          NULL)
          != SQLITE_OK
      || sqlite3_prepare_v3 (st->db, insert_event_sql, -1, SQLITE_PREPARE_PERSISTENT,
                             &st->ins_event, NULL)
             != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history: %s", sqlite3_errmsg (st->db));
      goto fail;
    }
  if (pipe2 (fds, O_CLOEXEC | O_NONBLOCK) < 0)
    {
      wb_error_errno (err, WB_E_IO, errno, "history: pipe");
      goto fail;
    }
  st->pipe_rd = fds[0];
  st->pipe_wr = fds[1];
  st->done_ev = event_new (base, st->pipe_rd, EV_READ | EV_PERSIST, done_cb, st);
  if (st->done_ev == NULL || event_add (st->done_ev, NULL) < 0)
    goto oom;
  if (pthread_create (&st->thread, NULL, writer_main, st) != 0)
    {
      wb_error (err, WB_E_INTERNAL, "history: cannot start the writer thread");
      goto fail;
    }
  st->thread_started = true;
  *out = st;
  return 0;

oom:
  wb_error (err, WB_E_NOMEM, "history: out of memory");
fail:
  store_close (st, 0);
  return -1;
}

void
store_close (store_t *st, uint32_t timeout_ms)
{
  if (st == NULL)
    return;
  if (st->thread_started)
    {
      pthread_mutex_lock (&st->mu);
      st->stop = true;
      st->stop_deadline_ms = wb_now_ms () + timeout_ms;
      pthread_cond_signal (&st->cv);
      pthread_mutex_unlock (&st->mu);
      pthread_join (st->thread, NULL);
    }
  /* Whatever the writer left: fail it back to its owners. */
  pthread_mutex_lock (&st->mu);
  deliver (st, st->q_head, -1);
  st->q_head = st->q_tail = NULL;
  pthread_mutex_unlock (&st->mu);
  if (st->done_ev)
    {
      done_cb (st->pipe_rd, EV_READ, st);
      event_free (st->done_ev);
    }
  sqlite3_finalize (st->ins_exec);
  sqlite3_finalize (st->ins_event);
  if (st->db)
    sqlite3_close (st->db);
  if (st->pipe_rd >= 0)
    close (st->pipe_rd);
  if (st->pipe_wr >= 0)
    close (st->pipe_wr);
  pthread_mutex_destroy (&st->mu);
  pthread_cond_destroy (&st->cv);
  OPENSSL_cleanse (st->hash_key, sizeof st->hash_key);
  OPENSSL_cleanse (st->session_key, sizeof st->session_key);
  free (st->path);
  free (st);
}
