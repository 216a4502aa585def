/* store/query.c: reading the history: `warmbox history` and `warmbox plan`.
 * Opens the file read-only with its own connection: a reader never blocks
 * the daemon's writer (WAL). */
#define _GNU_SOURCE
#include "warmbox/store.h"

#include <math.h>
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
        " profile_hash, code_sha256, code_bytes, stdin_sha256, stdin_bytes, arg_count, status,"
        " coalesce(exit_code, -1), timed_out, oom_killed, stdout_truncated, stderr_truncated,"
        " stdout_bytes, stderr_bytes, coalesce(queue_ms, -1), coalesce(start_ms, -1),"
        " coalesce(run_ms, -1), coalesce(total_ms, -1), pool_hit, container_id, engine, error"
        " FROM executions"
        " WHERE received_at >= ?1 AND (?2 IS NULL OR language = ?2) AND (?3 IS NULL OR status = ?3)"
        " AND (?4 IS NULL OR code_sha256 = ?4 OR stdin_sha256 = ?4)"
        " ORDER BY received_at DESC LIMIT ?5";
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  int rc;

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
    sqlite3_bind_text (s, 4, f->sha256, -1, SQLITE_STATIC);
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

int
store_plan (const char *path, double window_s, double target, store_plan_row_t **rows, size_t *n,
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
  start = end - window_s;

  /* Per language: executions, hits, and arrivals per minute bucket. */
  if (sqlite3_prepare_v2 (db,
                          "SELECT language, count(*), sum(pool_hit),"
                          " (SELECT max(c) FROM (SELECT count(*) AS c FROM executions e2"
                          "   WHERE e2.language = e.language AND e2.received_at > ?1"
                          "   AND e2.status NOT IN ('refused', 'running')"
                          "   GROUP BY CAST(e2.received_at / 60 AS INTEGER)))"
                          " FROM executions e WHERE received_at > ?1 AND status NOT IN ('refused', 'running')"
                          " GROUP BY language ORDER BY language",
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
      r->hit_rate = r->executions ? (double) sqlite3_column_int64 (s, 2) / (double) r->executions : 0;
      r->peak_per_min = sqlite3_column_double (s, 3);
      r->mean_per_min = (double) r->executions / (window_s / 60.0);
    }
  sqlite3_finalize (s);
  s = NULL;

  for (size_t i = 0; i < count; i++)
    {
      store_plan_row_t *r = &out[i];
      double *d = NULL;
      size_t nd = 0, cap = 0;
      double lambda, peak, repl_s;

      if (sqlite3_prepare_v2 (db,
                              "SELECT duration_ms FROM pool_events WHERE language = ?1 AND"
                              " event = 'created' AND at > ?2 AND duration_ms IS NOT NULL",
                              -1, &s, NULL)
          == SQLITE_OK)
        {
          sqlite3_bind_text (s, 1, r->language, -1, SQLITE_STATIC);
          sqlite3_bind_double (s, 2, start);
          while (sqlite3_step (s) == SQLITE_ROW)
            {
              if (nd == cap)
                {
                  double *g = realloc (d, (cap = cap ? cap * 2 : 256) * sizeof *d);
                  if (g == NULL)
                    break;
                  d = g;
                }
              d[nd++] = sqlite3_column_double (s, 0);
            }
          sqlite3_finalize (s);
          s = NULL;
        }
      r->replenish_measured = nd > 0;
      r->replenish_p50_ms = nd ? percentile (d, nd, 0.50) : DEFAULT_REPLENISH_MS;
      r->replenish_p95_ms = nd ? percentile (d, nd, 0.95) : DEFAULT_REPLENISH_MS;
      free (d);

      lambda = r->mean_per_min / 60.0;
      peak = r->peak_per_min / 60.0;
      repl_s = r->replenish_p95_ms / 1000.0;
      r->min_ready = store_plan_size (lambda, repl_s, target);
      r->max_ready = store_plan_size (peak, repl_s, target);
      if (r->min_ready == 0 && r->executions > 0)
        r->min_ready = 1;
      if (r->max_ready < r->min_ready)
        r->max_ready = r->min_ready;
      snprintf (r->reason, sizeof r->reason,
                "%.2f/s on average (%.2f/s in the busiest minute) x %.2f s to replenish (p95%s) "
                "= %.2f containers in flight; %u ready keep P(miss) <= %.2g%% at the mean, %u at "
                "the peak",
                lambda, peak, repl_s, r->replenish_measured ? "" : ", assumed", lambda * repl_s,
                r->min_ready, 100.0 * (1.0 - target), r->max_ready);
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
