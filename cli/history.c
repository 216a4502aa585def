/* cli/history.c: `warmbox history` and `warmbox plan`, read straight from
 * the history file (no daemon needed).  The queries live in store/. */
#define _GNU_SOURCE
#include "history.h"

#include "warmbox/store.h"

#include <cjson/cJSON.h>
#include <string.h>
#include <time.h>

/* --db, else $WARMBOX_DB, else store.path of --config FILE, else the
 * daemon's default path. */
static const char *
db_path (const char *db, const char *config, char *buf, size_t len)
{
  const char *env = getenv ("WARMBOX_DB");

  if (db)
    return db;
  if (env && *env)
    return env;
  if (config)
    {
      FILE *f = fopen (config, "re");
      char text[65536];
      size_t n = f ? fread (text, 1, sizeof text - 1, f) : 0;
      if (f)
        fclose (f);
      text[n] = '\0';
      cJSON *root = cJSON_Parse (text);
      const char *p = cJSON_GetStringValue (
          cJSON_GetObjectItemCaseSensitive (cJSON_GetObjectItemCaseSensitive (root, "store"), "path"));
      if (p)
        snprintf (buf, len, "%s", p);
      cJSON_Delete (root);
      if (p)
        return buf;
    }
  return store_default_path (buf, len);
}

/* "90s", "30m", "1h", "2d", "1w" or plain seconds -> seconds; -1 if bad. */
static double
parse_duration (const char *s)
{
  char *end;
  double v = strtod (s, &end);
  if (end == s || v < 0)
    return -1;
  switch (*end)
    {
    case '\0':
    case 's': return v;
    case 'm': return v * 60;
    case 'h': return v * 3600;
    case 'd': return v * 86400;
    case 'w': return v * 7 * 86400;
    default: return -1;
    }
}

typedef struct print_ctx
{
  bool json;
  cJSON *array;
  size_t rows;
} print_ctx_t;

static int
print_row (void *arg, const store_execution_t *e)
{
  print_ctx_t *pc = arg;
  char when[32];
  time_t t = (time_t) e->received_at;
  struct tm tm;

  pc->rows++;
  if (pc->json)
    {
      cJSON *o = cJSON_CreateObject ();
      cJSON_AddStringToObject (o, "id", e->id);
      cJSON_AddNumberToObject (o, "received_at", e->received_at);
      cJSON_AddStringToObject (o, "client", e->client);
      cJSON_AddStringToObject (o, "language", e->language);
      cJSON_AddStringToObject (o, "status", e->status);
      if (e->exit_code >= 0)
        cJSON_AddNumberToObject (o, "exit_code", e->exit_code);
      else
        cJSON_AddNullToObject (o, "exit_code");
      cJSON_AddNumberToObject (o, "total_ms", e->total_ms);
      cJSON_AddNumberToObject (o, "queue_ms", e->queue_ms);
      cJSON_AddNumberToObject (o, "run_ms", e->run_ms);
      cJSON_AddBoolToObject (o, "pool_hit", e->pool_hit);
      cJSON_AddStringToObject (o, "code_sha256", e->code_sha256);
      cJSON_AddNumberToObject (o, "code_bytes", (double) e->code_bytes);
      cJSON_AddStringToObject (o, "stdin_sha256", e->stdin_sha256);
      cJSON_AddNumberToObject (o, "stdin_bytes", (double) e->stdin_bytes);
      cJSON_AddNumberToObject (o, "stdout_bytes", (double) e->stdout_bytes);
      cJSON_AddNumberToObject (o, "stderr_bytes", (double) e->stderr_bytes);
      cJSON_AddStringToObject (o, "image_id", e->image_id);
      cJSON_AddStringToObject (o, "container_id", e->container_id);
      cJSON_AddStringToObject (o, "error", e->error);
      cJSON_AddItemToArray (pc->array, o);
      return 0;
    }
  gmtime_r (&t, &tm);
  strftime (when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
  char exit_code[16] = "-";
  if (e->exit_code >= 0)
    snprintf (exit_code, sizeof exit_code, "%d", e->exit_code);
  printf ("%-19s  %-8.8s  %-10.10s  %-12.12s  %4s  %8.0f  %-3s  %-12.12s  %9llu\n", when, e->id,
          e->language, e->status, exit_code, e->total_ms, e->pool_hit ? "yes" : "no",
          e->code_sha256, (unsigned long long) e->stdin_bytes);
  return 0;
}

int
cli_history (int argc, char **argv)
{
  store_history_filter_t f;
  print_ctx_t pc = {false, NULL, 0};
  const char *db = NULL, *config = NULL;
  char buf[1024];
  wb_err_t err;
  int rc;

  memset (&f, 0, sizeof f);
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      bool v = i + 1 < argc;
      if (strcmp (a, "--since") == 0 && v)
        {
          double secs = parse_duration (argv[++i]);
          if (secs < 0)
            {
              fprintf (stderr, "warmbox history: --since takes 90s, 30m, 1h, 2d or 1w\n");
              return 2;
            }
          f.since = (double) time (NULL) - secs;
        }
      else if (strcmp (a, "--language") == 0 && v)
        f.language = argv[++i];
      else if (strcmp (a, "--status") == 0 && v)
        f.status = argv[++i];
      else if (strcmp (a, "--sha256") == 0 && v)
        f.sha256 = argv[++i];
      else if (strcmp (a, "--limit") == 0 && v)
        f.limit = (uint32_t) strtoul (argv[++i], NULL, 10);
      else if (strcmp (a, "--db") == 0 && v)
        db = argv[++i];
      else if (strcmp (a, "--config") == 0 && v)
        config = argv[++i];
      else if (strcmp (a, "--json") == 0)
        pc.json = true;
      else
        {
          fprintf (stderr, "warmbox history: unknown or incomplete option %s\n", a);
          return 2;
        }
    }
  db = db_path (db, config, buf, sizeof buf);
  if (pc.json)
    pc.array = cJSON_CreateArray ();
  else
    printf ("%-19s  %-8s  %-10s  %-12s  %4s  %8s  %-3s  %-12s  %9s\n", "RECEIVED (UTC)", "ID",
            "LANGUAGE", "STATUS", "EXIT", "TOTAL_MS", "HIT", "CODE_SHA256", "STDIN_B");
  rc = store_history (db, &f, print_row, &pc, &err);
  if (rc < 0)
    {
      fprintf (stderr, "warmbox history: %s\n", err.msg);
      cJSON_Delete (pc.array);
      return 1;
    }
  if (pc.json)
    {
      char *text = cJSON_Print (pc.array);
      printf ("%s\n", text ? text : "[]");
      cJSON_free (text);
      cJSON_Delete (pc.array);
    }
  return 0;
}

int
cli_plan (int argc, char **argv)
{
  double window = 86400, target = 0.99;
  const char *db = NULL, *config = NULL;
  bool json = false;
  store_plan_row_t *rows = NULL;
  size_t n = 0;
  char buf[1024];
  wb_err_t err;

  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      bool v = i + 1 < argc;
      if (strcmp (a, "--window") == 0 && v)
        {
          window = parse_duration (argv[++i]);
          if (window <= 0)
            {
              fprintf (stderr, "warmbox plan: --window takes 30m, 1h, 24h, 7d ...\n");
              return 2;
            }
        }
      else if (strcmp (a, "--target-hit-rate") == 0 && v)
        {
          target = strtod (argv[++i], NULL);
          if (!(target > 0 && target < 1))
            {
              fprintf (stderr, "warmbox plan: --target-hit-rate takes a number in (0, 1)\n");
              return 2;
            }
        }
      else if (strcmp (a, "--db") == 0 && v)
        db = argv[++i];
      else if (strcmp (a, "--config") == 0 && v)
        config = argv[++i];
      else if (strcmp (a, "--json") == 0)
        json = true;
      else
        {
          fprintf (stderr, "warmbox plan: unknown or incomplete option %s\n", a);
          return 2;
        }
    }
  db = db_path (db, config, buf, sizeof buf);
  if (store_plan (db, window, target, &rows, &n, &err) < 0)
    {
      fprintf (stderr, "warmbox plan: %s\n", err.msg);
      return 1;
    }
  if (json)
    {
      cJSON *arr = cJSON_CreateArray ();
      for (size_t i = 0; i < n; i++)
        {
          cJSON *o = cJSON_CreateObject ();
          cJSON_AddStringToObject (o, "language", rows[i].language);
          cJSON_AddNumberToObject (o, "executions", (double) rows[i].executions);
          cJSON_AddNumberToObject (o, "mean_per_min", rows[i].mean_per_min);
          cJSON_AddNumberToObject (o, "peak_per_min", rows[i].peak_per_min);
          cJSON_AddNumberToObject (o, "replenish_p50_ms", rows[i].replenish_p50_ms);
          cJSON_AddNumberToObject (o, "replenish_p95_ms", rows[i].replenish_p95_ms);
          cJSON_AddBoolToObject (o, "replenish_measured", rows[i].replenish_measured);
          cJSON_AddNumberToObject (o, "hit_rate", rows[i].hit_rate);
          cJSON_AddNumberToObject (o, "min_ready", rows[i].min_ready);
          cJSON_AddNumberToObject (o, "max_ready", rows[i].max_ready);
          cJSON_AddStringToObject (o, "reason", rows[i].reason);
          cJSON_AddItemToArray (arr, o);
        }
      char *text = cJSON_Print (arr);
      printf ("%s\n", text ? text : "[]");
      cJSON_free (text);
      cJSON_Delete (arr);
      free (rows);
      return 0;
    }
  if (n == 0)
    {
      printf ("no executions in the last %.0f s of %s\n", window, db);
      free (rows);
      return 0;
    }
  printf ("%-12s %9s %9s %9s %15s %9s %9s %9s\n", "LANGUAGE", "EXECS", "MEAN/MIN", "PEAK/MIN",
          "REPLENISH ms", "HIT RATE", "MIN_READY", "MAX_READY");
  for (size_t i = 0; i < n; i++)
    {
      char repl[32];
      snprintf (repl, sizeof repl, "%.0f/%.0f%s", rows[i].replenish_p50_ms, rows[i].replenish_p95_ms,
                rows[i].replenish_measured ? "" : "*");
      printf ("%-12s %9llu %9.2f %9.0f %15s %9.3f %9u %9u\n", rows[i].language,
              (unsigned long long) rows[i].executions, rows[i].mean_per_min, rows[i].peak_per_min,
              repl, rows[i].hit_rate, rows[i].min_ready, rows[i].max_ready);
    }
  printf ("\nWhy (target hit rate %.3g, window %.0f s; replenish p50/p95%s):\n", target, window,
          "; * = no pool events, assumed");
  for (size_t i = 0; i < n; i++)
    printf ("  %s: %s\n", rows[i].language, rows[i].reason);
  printf ("\nConfig snippet for warmboxd:\n{\"pools\": {");
  for (size_t i = 0; i < n; i++)
    printf ("%s\"%s\": {\"min_ready\": %u, \"max_ready\": %u}", i ? ", " : "", rows[i].language,
            rows[i].min_ready, rows[i].max_ready);
  printf ("}}\n");
  free (rows);
  return 0;
}
