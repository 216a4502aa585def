/* store/query.c: reading the history: `warmbox history` and `warmbox plan`.
 * Opens the file read-only with its own connection: a reader never blocks
 * the daemon's writer (WAL). */
#define _GNU_SOURCE
#include "warmbox/store.h"

#include <math.h>
#include <openssl/crypto.h>
#include <sqlite3.h>
#include <string.h>

#define DEFAULT_REPLENISH_MS 500.0

static int
open_ro (const char *path, sqlite3 **db, wb_err_t *err)
{
  if (sqlite3_open_v2 (path, db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history %s: %s", path, *db ? sqlite3_errmsg (*db) : "out of memory");
      sqlite3_close (*db);
      *db = NULL;
      return -1;
    }
  sqlite3_busy_timeout (*db, 2000);
  return 0;
}

static const char *
col_text (sqlite3_stmt *s, int i)
{
  const unsigned char *t = sqlite3_column_text (s, i);
  return t ? (const char *) t : "";
}

int
store_history (const char *path, const store_history_filter_t *f, store_row_cb cb, void *arg,
               wb_err_t *err)
{
  static const char sql[]
      = "SELECT id, received_at, coalesce(started_at, 0), finished_at, client, language, image_id,"
        " profile_hash, code_hmac, code_bytes, stdin_hmac, stdin_bytes, arg_count, status,"
        " coalesce(exit_code, -1), timed_out, oom_killed, stdout_truncated, stderr_truncated,"
        " stdout_bytes, stderr_bytes, coalesce(queue_ms, -1), coalesce(start_ms, -1),"
        " coalesce(run_ms, -1), coalesce(total_ms, -1), pool_hit, container_id, engine, error,"
        " files_in, files_in_bytes, files_in_hmac, coalesce(peak_memory_kib, -1),"
        " coalesce(cpu_user_ms, -1), coalesce(cpu_system_ms, -1), files_out, files_out_bytes,"
        " files_out_hmac, coalesce(compile_status, ''), coalesce(compile_ms, -1)"
        " FROM executions"
        " WHERE received_at >= ?1 AND (?2 IS NULL OR language = ?2) AND (?3 IS NULL OR status = ?3)"
        " AND (?4 IS NULL OR code_hmac = ?4 OR stdin_hmac = ?4 OR files_in_hmac = ?4"
        "      OR files_out_hmac = ?4)"
        " ORDER BY received_at DESC LIMIT ?5";
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  char keyed[65], keybuf[4096 + 8];
  unsigned char key[32];
  int rc;

  /* The file holds keyed hashes only: a plain one is looked for keyed. */
  if (f->sha256)
    {
      bool hex = strlen (f->sha256) == 64;
      for (const char *c = f->sha256; hex && *c; c++)
        hex = (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f');
      if (!hex)
        return wb_error (err, WB_E_INVALID, "a SHA-256 is 64 lower-case hex digits");
      if (store_key_load (f->key_path ? f->key_path : store_key_path (path, keybuf, sizeof keybuf),
                          false, key, err)
          < 0)
        return wb_err_wrap (err, "looking for a hash needs the history's key");
      store_keyed_hex (key, f->sha256, keyed);
      OPENSSL_cleanse (key, sizeof key);
    }
  if (open_ro (path, &db, err) < 0)
    return -1;
  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history %s: %s", path, sqlite3_errmsg (db));
      sqlite3_close (db);
      return -1;
    }
  sqlite3_bind_double (s, 1, f->since);
  if (f->language)
    sqlite3_bind_text (s, 2, f->language, -1, SQLITE_STATIC);
  if (f->status)
    sqlite3_bind_text (s, 3, f->status, -1, SQLITE_STATIC);
  if (f->sha256)
    sqlite3_bind_text (s, 4, keyed, -1, SQLITE_STATIC);
  sqlite3_bind_int (s, 5, (int) (f->limit ? f->limit : 50));
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      store_execution_t e;
      int i = 0;
      memset (&e, 0, sizeof e);
      e.id = col_text (s, i++);
      e.received_at = sqlite3_column_double (s, i++);
      e.started_at = sqlite3_column_double (s, i++);
      e.finished_at = sqlite3_column_double (s, i++);
      e.client = col_text (s, i++);
      e.language = col_text (s, i++);
      e.image_id = col_text (s, i++);
      e.profile_hash = col_text (s, i++);
      snprintf (e.code_sha256, sizeof e.code_sha256, "%s", col_text (s, i++));
      e.code_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      snprintf (e.stdin_sha256, sizeof e.stdin_sha256, "%s", col_text (s, i++));
      e.stdin_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      e.arg_count = (uint32_t) sqlite3_column_int (s, i++);
      e.status = col_text (s, i++);
      e.exit_code = sqlite3_column_int (s, i++);
      e.timed_out = sqlite3_column_int (s, i++);
      e.oom_killed = sqlite3_column_int (s, i++);
      e.stdout_truncated = sqlite3_column_int (s, i++);
      e.stderr_truncated = sqlite3_column_int (s, i++);
      e.stdout_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      e.stderr_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      e.queue_ms = sqlite3_column_double (s, i++);
      e.start_ms = sqlite3_column_double (s, i++);
      e.run_ms = sqlite3_column_double (s, i++);
      e.total_ms = sqlite3_column_double (s, i++);
      e.pool_hit = sqlite3_column_int (s, i++);
      e.container_id = col_text (s, i++);
      e.engine = col_text (s, i++);
      e.error = col_text (s, i++);
      e.files_in = (uint32_t) sqlite3_column_int (s, i++);
      e.files_in_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      snprintf (e.files_in_sha256, sizeof e.files_in_sha256, "%s", col_text (s, i++));
      {
        sqlite3_int64 peak = sqlite3_column_int64 (s, i++);
        e.has_usage = peak >= 0;
        e.peak_memory_kib = peak >= 0 ? (uint64_t) peak : 0;
        e.cpu_user_ms = sqlite3_column_double (s, i++);
        e.cpu_system_ms = sqlite3_column_double (s, i++);
      }
      e.files_out = (uint32_t) sqlite3_column_int (s, i++);
      e.files_out_bytes = (uint64_t) sqlite3_column_int64 (s, i++);
      snprintf (e.files_out_sha256, sizeof e.files_out_sha256, "%s", col_text (s, i++));
      snprintf (e.compile_status, sizeof e.compile_status, "%s", col_text (s, i++));
      e.compile_ms = sqlite3_column_double (s, i++);
      if (cb (arg, &e) != 0)
        break;
    }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    wb_error (err, WB_E_IO, "history %s: %s", path, sqlite3_errmsg (db));
  sqlite3_finalize (s);
  sqlite3_close (db);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

uint32_t
store_plan_size (double rate_per_s, double replenish_s, double target)
{
  double m = rate_per_s * replenish_s;
  double term, cdf;

  if (!(m > 0) || !isfinite (m))
    return 0;
  if (target >= 1)
    target = 0.999999;
  /* P(X <= k) for X ~ Poisson(m), summed term by term; in log space for
   * large m so exp(-m) does not underflow. */
  term = exp (-m);
  if (term == 0)
    {
      /* Normal approximation with continuity correction. */
      for (uint32_t n = 1; n <= 10000; n++)
        {
          double z = ((double) n - 0.5 - m) / sqrt (m);
          if (0.5 * erfc (-z / sqrt (2)) >= target)
            return n;
        }
      return 10000;
    }
  cdf = term;
  for (uint32_t n = 1; n <= 10000; n++)
    {
      /* cdf = P(X <= n - 1) */
      if (cdf >= target)
        return n;
      term *= m / (double) n;
      cdf += term;
    }
  return 10000;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
percentile (double *v, size_t n, double p)
{
  size_t k;
  if (n == 0)
    return 0;
  qsort (v, n, sizeof *v, cmp_double);
  k = (size_t) ceil (p * (double) n);
  return v[k == 0 ? 0 : k - 1];
}

/* Growable arrays of doubles for the queries below. */
typedef struct dvec
{
  double *v;
  size_t n, cap;
} dvec_t;

static int
dvec_push (dvec_t *d, double x)
{
  if (d->n == d->cap)
    {
      size_t cap = d->cap ? d->cap * 2 : 1024;
      double *g = realloc (d->v, cap * sizeof *g);
      if (g == NULL)
        return -1;
      d->v = g;
      d->cap = cap;
    }
  d->v[d->n++] = x;
  return 0;
}

/* Collect column 0 of a query bound with (?1 language, ?2 since). */
static int
collect (sqlite3 *db, const char *sql, const char *language, double since, dvec_t *out,
         wb_err_t *err)
{
  sqlite3_stmt *s = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &s, NULL) != SQLITE_OK)
    return wb_error (err, WB_E_IO, "history: %s", sqlite3_errmsg (db));
  sqlite3_bind_text (s, 1, language, -1, SQLITE_STATIC);
  sqlite3_bind_double (s, 2, since);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    if (dvec_push (out, sqlite3_column_double (s, 0)) < 0)
      {
        sqlite3_finalize (s);
        return wb_error (err, WB_E_NOMEM, "out of memory");
      }
  sqlite3_finalize (s);
  return rc == SQLITE_DONE ? 0 : wb_error (err, WB_E_IO, "history: %s", sqlite3_errmsg (db));
}

/* The busiest span of `span` seconds: the most arrivals in any window of
 * that length (two pointers over the sorted times). */
static size_t
busiest (const double *t, size_t n, double span)
{
  size_t best = 0;
  for (size_t i = 0, j = 0; j < n; j++)
    {
      while (t[j] - t[i] >= span)
        i++;
      if (j - i + 1 > best)
        best = j - i + 1;
    }
  return best;
}

/* The sizes in force for the language: its last "sized" event at or
 * before the window's end. */
static bool
recorded_sizes (sqlite3 *db, const char *language, uint32_t *min, uint32_t *max, uint32_t *conc)
{
  sqlite3_stmt *s = NULL;
  bool found = false;

  if (sqlite3_prepare_v2 (db,
                          "SELECT detail FROM pool_events WHERE language = ?1 AND event = 'sized'"
                          " AND pool_key NOT LIKE '%/m%' ORDER BY at DESC LIMIT 1",
                          -1, &s, NULL)
      != SQLITE_OK)
    return false;
  sqlite3_bind_text (s, 1, language, -1, SQLITE_STATIC);
  if (sqlite3_step (s) == SQLITE_ROW)
    {
      unsigned a = 0, b = 0, c = 0;
      int got
          = sscanf (col_text (s, 0), "min_ready=%u max_ready=%u create_concurrency=%u", &a, &b, &c);
      if (got >= 2)
        {
          *min = a;
          *max = b;
          *conc = got == 3 ? c : 2;
          found = true;
        }
    }
  sqlite3_finalize (s);
  return found;
}

/* The candidate sizes: for each min_ready a few max_ready, the kind an
 * operator would write. */
static size_t
max_choices (uint32_t min, uint32_t out[8])
{
  uint32_t c[] = {min, min + 1, min + 2, min + 4, min * 2, min * 3, min * 4, min ? 0 : 4};
  size_t n = 0;

  for (size_t i = 0; i < WB_ARRAY_SIZE (c); i++)
    {
      bool dup = c[i] < min || c[i] > 64;
      for (size_t k = 0; k < n && !dup; k++)
        dup = out[k] == c[i];
      if (!dup)
        out[n++] = c[i];
    }
  return n;
}

static int
plan_language (store_plan_row_t *r, const dvec_t *arr, const dvec_t *created, double target,
               wb_err_t *err)
{
  store_replay_sizes_t sz;
  store_replay_result_t res;
  store_plan_candidate_t best_for_min[33];
  bool have_best = false;
  store_plan_candidate_t best = {0, 0, 0, 0, false};
  uint32_t conc = r->create_concurrency ? r->create_concurrency : 2;

  if (r->sizes_known)
    {
      sz = (store_replay_sizes_t){r->actual_min, r->actual_max, conc};
      if (store_replay (arr->v, arr->n, created->v, created->n, &sz, &res) < 0)
        return wb_error (err, WB_E_NOMEM, "out of memory");
      r->replayed_hit_rate = res.hit_rate;
      r->replayed_idle = res.idle_mean;
    }
  memset (best_for_min, 0, sizeof best_for_min);
  for (uint32_t min = 0; min <= 32; min++)
    {
      uint32_t maxes[8];
      size_t nm = max_choices (min, maxes);
      store_plan_candidate_t *b = &best_for_min[min];
      for (size_t k = 0; k < nm; k++)
        {
          sz = (store_replay_sizes_t){min, maxes[k], conc};
          if (store_replay (arr->v, arr->n, created->v, created->n, &sz, &res) < 0)
            return wb_error (err, WB_E_NOMEM, "out of memory");
          store_plan_candidate_t c
              = {min, maxes[k], res.hit_rate, res.idle_mean, res.hit_rate >= target};
          /* For this min: the cheapest that meets the target, else the
           * best hit rate. */
          if (k == 0 || (c.meets_target && (!b->meets_target || c.idle_mean < b->idle_mean))
              || (!c.meets_target && !b->meets_target && c.hit_rate > b->hit_rate))
            *b = c;
        }
      if (b->meets_target && (!have_best || b->idle_mean < best.idle_mean))
        best = *b, have_best = true;
      else if (!have_best && !best.meets_target && b->hit_rate > best.hit_rate)
        best = *b;
      /* More ready containers only cost more past the best by a margin. */
      if (have_best && min >= best.min_ready + 4)
        break;
    }
  r->target_met = best.meets_target;
  r->min_ready = best.min_ready;
  r->max_ready = best.max_ready;
  r->recommended_hit_rate = best.hit_rate;
  r->recommended_idle = best.idle_mean;
  /* The table: min_ready around the recommendation. */
  {
    uint32_t from = best.min_ready > 4 ? best.min_ready - 4 : 0;
    for (uint32_t m = from; m <= 32 && r->n_candidates < STORE_PLAN_CANDIDATES; m++)
      {
        if (best_for_min[m].max_ready == 0 && m > 0 && best_for_min[m].hit_rate == 0
            && best_for_min[m].idle_mean == 0)
          break; /* not computed (the search stopped) */
        r->candidates[r->n_candidates++] = best_for_min[m];
      }
  }
  snprintf (r->reason, sizeof r->reason,
            "%s: replaying the window's %llu arrivals (busiest 10 s: %.1f/s) with %zu recorded "
            "replenish times (p95 %.0f ms%s), min_ready %u / max_ready %u give %.2f%% hits with "
            "%.1f containers idle on average%s",
            r->target_met ? "the fewest idle containers that reach the target"
                          : "no candidate reached the target; the best hit rate",
            (unsigned long long) arr->n, r->peak_per_10s, created->n, r->replenish_p95_ms,
            r->replenish_measured ? "" : ", assumed", r->min_ready, r->max_ready,
            100.0 * r->recommended_hit_rate, r->recommended_idle,
            r->sizes_known ? "" : " (sizes in force unknown: no \"sized\" events)");
  return 0;
}

int
store_plan (const char *path, const store_plan_opts_t *opts, store_plan_row_t **rows, size_t *n,
            wb_err_t *err)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  double end = 0, start;
  store_plan_row_t *out = NULL;
  size_t count = 0;
  int rc = -1;

  *rows = NULL;
  *n = 0;
  if (open_ro (path, &db, err) < 0)
    return -1;
  if (sqlite3_prepare_v2 (db, "SELECT max(received_at) FROM executions", -1, &s, NULL) != SQLITE_OK
      || sqlite3_step (s) != SQLITE_ROW)
    {
      wb_error (err, WB_E_IO, "history %s: %s", path, sqlite3_errmsg (db));
      goto out;
    }
  end = sqlite3_column_double (s, 0);
  sqlite3_finalize (s);
  s = NULL;
  start = end - opts->window_s;

  /* Languages served from warm pools in the window (a request's own pool,
   * key ending in /m<MB>, is never a hit and stays out). */
  if (sqlite3_prepare_v2 (
          db,
          "SELECT language, count(*), sum(pool_hit) FROM executions"
          " WHERE received_at > ?1 AND status NOT IN ('refused', 'running')"
          " AND pool <> '' AND pool NOT LIKE '%/m%' GROUP BY language ORDER BY language",
          -1, &s, NULL)
      != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history %s: %s", path, sqlite3_errmsg (db));
      goto out;
    }
  sqlite3_bind_double (s, 1, start);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      store_plan_row_t *r, *grown = realloc (out, (count + 1) * sizeof *out);
      if (grown == NULL)
        {
          wb_error (err, WB_E_NOMEM, "out of memory");
          goto out;
        }
      out = grown;
      r = &out[count++];
      memset (r, 0, sizeof *r);
      snprintf (r->language, sizeof r->language, "%s", col_text (s, 0));
      r->executions = (uint64_t) sqlite3_column_int64 (s, 1);
      r->hit_rate
          = r->executions ? (double) sqlite3_column_int64 (s, 2) / (double) r->executions : 0;
      r->mean_per_min = (double) r->executions / (opts->window_s / 60.0);
    }
  sqlite3_finalize (s);
  s = NULL;

  /* Each language's executions by engine. */
  if (sqlite3_prepare_v2 (
          db,
          "SELECT engine, count(*), sum(pool_hit) FROM executions"
          " WHERE language = ?1 AND received_at > ?2 AND status NOT IN ('refused', 'running')"
          " AND pool <> '' AND pool NOT LIKE '%/m%' GROUP BY engine ORDER BY count(*) DESC, engine",
          -1, &s, NULL)
      != SQLITE_OK)
    {
      wb_error (err, WB_E_IO, "history %s: %s", path, sqlite3_errmsg (db));
      goto out;
    }
  for (size_t i = 0; i < count; i++)
    {
      store_plan_row_t *r = &out[i];
      sqlite3_reset (s);
      sqlite3_bind_text (s, 1, r->language, -1, SQLITE_STATIC);
      sqlite3_bind_double (s, 2, start);
      while (sqlite3_step (s) == SQLITE_ROW && r->n_engines < STORE_PLAN_ENGINES)
        {
          size_t k = r->n_engines++;
          snprintf (r->engines[k].engine, sizeof r->engines[k].engine, "%s", col_text (s, 0));
          r->engines[k].executions = (uint64_t) sqlite3_column_int64 (s, 1);
          r->engines[k].hits = (uint64_t) sqlite3_column_int64 (s, 2);
          r->engines[k].share
              = r->executions ? (double) r->engines[k].executions / (double) r->executions : 0;
        }
    }
  sqlite3_finalize (s);
  s = NULL;

  for (size_t i = 0; i < count; i++)
    {
      store_plan_row_t *r = &out[i];
      dvec_t arr = {NULL, 0, 0}, created = {NULL, 0, 0}, sorted = {NULL, 0, 0};
      int bad;

      bad = collect (
                db,
                "SELECT received_at FROM executions WHERE language = ?1 AND received_at > ?2"
                " AND status NOT IN ('refused', 'running') AND pool <> '' AND pool NOT LIKE '%/m%'"
                " ORDER BY received_at",
                r->language, start, &arr, err)
            < 0;
      bad = bad
            || collect (db,
                        "SELECT duration_ms FROM pool_events WHERE language = ?1 AND at > ?2"
                        " AND event = 'created' AND duration_ms IS NOT NULL"
                        " AND pool_key NOT LIKE '%/m%' ORDER BY at",
                        r->language, start, &created, err)
                   < 0;
      if (!bad && created.n)
        {
          for (size_t k = 0; k < created.n && !bad; k++)
            bad = dvec_push (&sorted, created.v[k]) < 0;
          if (bad)
            wb_error (err, WB_E_NOMEM, "out of memory");
        }
      if (!bad)
        {
          r->replenish_measured = created.n > 0;
          r->replenish_p50_ms
              = created.n ? percentile (sorted.v, sorted.n, 0.50) : DEFAULT_REPLENISH_MS;
          r->replenish_p95_ms
              = created.n ? percentile (sorted.v, sorted.n, 0.95) : DEFAULT_REPLENISH_MS;
          r->peak_per_min = (double) busiest (arr.v, arr.n, 60.0);
          r->peak_per_10s = (double) busiest (arr.v, arr.n, 10.0) / 10.0;
          if (opts->sizes_given)
            {
              r->sizes_known = true;
              r->actual_min = opts->min_ready;
              r->actual_max = opts->max_ready;
              r->create_concurrency = 2;
              uint32_t mn, mx, cc;
              if (recorded_sizes (db, r->language, &mn, &mx, &cc))
                r->create_concurrency = cc;
            }
          else
            r->sizes_known = recorded_sizes (db, r->language, &r->actual_min, &r->actual_max,
                                             &r->create_concurrency);
          bad = plan_language (r, &arr, &created, opts->target_hit_rate, err) < 0;
        }
      free (arr.v);
      free (created.v);
      free (sorted.v);
      if (bad)
        goto out;
      /* The recommendation spread by where the executions ran (rounded
       * up, as warmboxd spreads by weight). */
      for (size_t k = 0; k < r->n_engines; k++)
        {
          r->engines[k].min_ready = (uint32_t) ceil (r->min_ready * r->engines[k].share);
          r->engines[k].max_ready = (uint32_t) ceil (r->max_ready * r->engines[k].share);
          if (r->engines[k].max_ready < r->engines[k].min_ready)
            r->engines[k].max_ready = r->engines[k].min_ready;
        }
    }
  *rows = out;
  *n = count;
  out = NULL;
  rc = 0;

out:
  free (out);
  sqlite3_finalize (s);
  sqlite3_close (db);
  return rc;
}
