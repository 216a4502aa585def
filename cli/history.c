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
      const char *p = cJSON_GetStringValue (cJSON_GetObjectItemCaseSensitive (
          cJSON_GetObjectItemCaseSensitive (root, "store"), "path"));
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
    case 's':
      return v;
    case 'm':
      return v * 60;
    case 'h':
      return v * 3600;
    case 'd':
      return v * 86400;
    case 'w':
      return v * 7 * 86400;
    default:
      return -1;
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
      cJSON_AddStringToObject (o, "code_hmac", e->code_sha256);
      cJSON_AddNumberToObject (o, "code_bytes", (double) e->code_bytes);
      cJSON_AddStringToObject (o, "stdin_hmac", e->stdin_sha256);
      cJSON_AddNumberToObject (o, "stdin_bytes", (double) e->stdin_bytes);
      cJSON_AddNumberToObject (o, "files_in", e->files_in);
      cJSON_AddNumberToObject (o, "files_in_bytes", (double) e->files_in_bytes);
      cJSON_AddStringToObject (o, "files_in_hmac", e->files_in_sha256);
      cJSON_AddNumberToObject (o, "files_out", e->files_out);
      cJSON_AddNumberToObject (o, "files_out_bytes", (double) e->files_out_bytes);
      cJSON_AddStringToObject (o, "files_out_hmac", e->files_out_sha256);
      if (e->compile_status[0])
        {
          cJSON_AddStringToObject (o, "compile_status", e->compile_status);
          cJSON_AddNumberToObject (o, "compile_ms", e->compile_ms);
        }
      if (e->has_usage)
        {
          cJSON_AddNumberToObject (o, "peak_memory_bytes", (double) e->peak_memory_kib * 1024);
          cJSON_AddNumberToObject (o, "cpu_user_ms", e->cpu_user_ms);
          cJSON_AddNumberToObject (o, "cpu_system_ms", e->cpu_system_ms);
        }
      else
        {
          cJSON_AddNullToObject (o, "peak_memory_bytes");
          cJSON_AddNullToObject (o, "cpu_user_ms");
          cJSON_AddNullToObject (o, "cpu_system_ms");
        }
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
  char peak[24] = "-", cpu[24] = "-";
  if (e->has_usage)
    {
      snprintf (peak, sizeof peak, "%.1f", (double) e->peak_memory_kib / 1024.0);
      snprintf (cpu, sizeof cpu, "%.0f", e->cpu_user_ms + e->cpu_system_ms);
    }
  printf ("%-19s  %-8.8s  %-10.10s  %-13.13s  %4s  %8.0f  %-3s  %-12.12s  %9llu  %8s  %8s\n", when,
          e->id, e->language, e->status, exit_code, e->total_ms, e->pool_hit ? "yes" : "no",
          e->code_sha256, (unsigned long long) e->stdin_bytes, peak, cpu);
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
      else if (strcmp (a, "--key") == 0 && v)
        f.key_path = argv[++i];
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
    printf ("%-19s  %-8s  %-10s  %-13s  %4s  %8s  %-3s  %-12s  %9s  %8s  %8s\n", "RECEIVED (UTC)",
            "ID", "LANGUAGE", "STATUS", "EXIT", "TOTAL_MS", "HIT", "CODE_HMAC", "STDIN_B",
            "PEAK_MB", "CPU_MS");
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

static cJSON *
plan_json_row (const store_plan_row_t *r)
{
  cJSON *o = cJSON_CreateObject ();
  cJSON *cands = cJSON_AddArrayToObject (o, "candidates");

  cJSON_AddStringToObject (o, "language", r->language);
  cJSON_AddNumberToObject (o, "executions", (double) r->executions);
  cJSON_AddNumberToObject (o, "mean_per_min", r->mean_per_min);
  cJSON_AddNumberToObject (o, "peak_per_min", r->peak_per_min);
  cJSON_AddNumberToObject (o, "peak_per_s_10s", r->peak_per_10s);
  cJSON_AddNumberToObject (o, "replenish_p50_ms", r->replenish_p50_ms);
  cJSON_AddNumberToObject (o, "replenish_p95_ms", r->replenish_p95_ms);
  cJSON_AddBoolToObject (o, "replenish_measured", r->replenish_measured);
  cJSON_AddNumberToObject (o, "hit_rate", r->hit_rate);
  if (r->sizes_known)
    {
      cJSON_AddNumberToObject (o, "actual_min_ready", r->actual_min);
      cJSON_AddNumberToObject (o, "actual_max_ready", r->actual_max);
      cJSON_AddNumberToObject (o, "replayed_hit_rate", r->replayed_hit_rate);
      cJSON_AddNumberToObject (o, "replayed_idle", r->replayed_idle);
    }
  cJSON_AddNumberToObject (o, "min_ready", r->min_ready);
  cJSON_AddNumberToObject (o, "max_ready", r->max_ready);
  cJSON_AddNumberToObject (o, "recommended_hit_rate", r->recommended_hit_rate);
  cJSON_AddNumberToObject (o, "recommended_idle", r->recommended_idle);
  cJSON_AddBoolToObject (o, "target_met", r->target_met);
  for (size_t k = 0; cands && k < r->n_candidates; k++)
    {
      cJSON *c = cJSON_CreateObject ();
      cJSON_AddNumberToObject (c, "min_ready", r->candidates[k].min_ready);
      cJSON_AddNumberToObject (c, "max_ready", r->candidates[k].max_ready);
      cJSON_AddNumberToObject (c, "hit_rate", r->candidates[k].hit_rate);
      cJSON_AddNumberToObject (c, "idle_mean", r->candidates[k].idle_mean);
      cJSON_AddItemToArray (cands, c);
    }
  cJSON *engines = cJSON_AddArrayToObject (o, "engines");
  for (size_t k = 0; engines && k < r->n_engines; k++)
    {
      cJSON *e = cJSON_CreateObject ();
      cJSON_AddStringToObject (e, "engine", r->engines[k].engine);
      cJSON_AddNumberToObject (e, "executions", (double) r->engines[k].executions);
      cJSON_AddNumberToObject (e, "hits", (double) r->engines[k].hits);
      cJSON_AddNumberToObject (e, "share", r->engines[k].share);
      cJSON_AddNumberToObject (e, "min_ready", r->engines[k].min_ready);
      cJSON_AddNumberToObject (e, "max_ready", r->engines[k].max_ready);
      cJSON_AddItemToArray (engines, e);
    }
  cJSON_AddStringToObject (o, "reason", r->reason);
  return o;
}

int
cli_plan (int argc, char **argv)
{
  store_plan_opts_t opts = {86400, 0.99, false, 0, 0};
  const char *db = NULL, *config = NULL;
  bool json = false, replay = false, have_min = false, have_max = false;
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
          opts.window_s = parse_duration (argv[++i]);
          if (opts.window_s <= 0)
            {
              fprintf (stderr, "warmbox plan: --window takes 30m, 1h, 24h, 7d ...\n");
              return 2;
            }
        }
      else if (strcmp (a, "--target-hit-rate") == 0 && v)
        {
          opts.target_hit_rate = strtod (argv[++i], NULL);
          if (!(opts.target_hit_rate > 0 && opts.target_hit_rate < 1))
            {
              fprintf (stderr, "warmbox plan: --target-hit-rate takes a number in (0, 1)\n");
              return 2;
            }
        }
      else if ((strcmp (a, "--min-ready") == 0 || strcmp (a, "--max-ready") == 0) && v)
        {
          char *end;
          unsigned long x = strtoul (argv[++i], &end, 10);
          if (*end || x > 4096)
            {
              fprintf (stderr, "warmbox plan: %s takes a whole number\n", a);
              return 2;
            }
          if (a[2] == 'm' && a[3] == 'i')
            opts.min_ready = (uint32_t) x, have_min = true;
          else
            opts.max_ready = (uint32_t) x, have_max = true;
        }
      else if (strcmp (a, "--replay") == 0)
        replay = true;
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
  if (have_min != have_max)
    {
      fprintf (stderr, "warmbox plan: give --min-ready and --max-ready together\n");
      return 2;
    }
  opts.sizes_given = have_min;
  db = db_path (db, config, buf, sizeof buf);
  if (store_plan (db, &opts, &rows, &n, &err) < 0)
    {
      fprintf (stderr, "warmbox plan: %s\n", err.msg);
      return 1;
    }
  if (json)
    {
      cJSON *arr = cJSON_CreateArray ();
      for (size_t i = 0; arr && i < n; i++)
        cJSON_AddItemToArray (arr, plan_json_row (&rows[i]));
      char *text = arr ? cJSON_Print (arr) : NULL;
      printf ("%s\n", text ? text : "[]");
      cJSON_free (text);
      cJSON_Delete (arr);
      free (rows);
      return text ? 0 : 1;
    }
  if (n == 0)
    {
      printf ("no executions from warm pools in the last %.0f s of %s\n", opts.window_s, db);
      free (rows);
      return 0;
    }
  if (replay)
    {
      /* The model against what happened. */
      printf ("%-12s %9s %10s %10s %12s %12s %10s\n", "LANGUAGE", "EXECS", "MIN_READY", "MAX_READY",
              "OBSERVED", "REPLAYED", "IDLE");
      for (size_t i = 0; i < n; i++)
        {
          const store_plan_row_t *r = &rows[i];
          if (!r->sizes_known)
            printf ("%-12s %9llu %10s %10s %11.2f%% %12s %10s\n", r->language,
                    (unsigned long long) r->executions, "?", "?", 100.0 * r->hit_rate, "-", "-");
          else
            printf ("%-12s %9llu %10u %10u %11.2f%% %11.2f%% %10.2f\n", r->language,
                    (unsigned long long) r->executions, r->actual_min, r->actual_max,
                    100.0 * r->hit_rate, 100.0 * r->replayed_hit_rate, r->replayed_idle);
        }
      printf ("\n(replayed: the window's arrivals and replenish times through the pool model with "
              "the sizes %s)\n",
              opts.sizes_given ? "given" : "in force, from the \"sized\" events");
      free (rows);
      return 0;
    }
  printf ("%-12s %7s %9s %9s %10s %13s %9s %10s %10s\n", "LANGUAGE", "EXECS", "MEAN/MIN",
          "PEAK/MIN", "PEAK/S 10s", "REPLENISH ms", "HIT RATE", "MIN_READY", "MAX_READY");
  for (size_t i = 0; i < n; i++)
    {
      char repl[32];
      snprintf (repl, sizeof repl, "%.0f/%.0f%s", rows[i].replenish_p50_ms,
                rows[i].replenish_p95_ms, rows[i].replenish_measured ? "" : "*");
      printf ("%-12s %7llu %9.2f %9.0f %10.1f %13s %8.1f%% %10u %10u\n", rows[i].language,
              (unsigned long long) rows[i].executions, rows[i].mean_per_min, rows[i].peak_per_min,
              rows[i].peak_per_10s, repl, 100.0 * rows[i].hit_rate, rows[i].min_ready,
              rows[i].max_ready);
    }
  for (size_t i = 0; i < n; i++)
    {
      const store_plan_row_t *r = &rows[i];
      printf ("\n%s, replayed (target %.3g%%):\n  %9s %9s %9s %9s\n", r->language,
              100.0 * opts.target_hit_rate, "MIN_READY", "MAX_READY", "HITS", "IDLE");
      for (size_t k = 0; k < r->n_candidates; k++)
        printf (
            "  %9u %9u %8.2f%% %9.2f%s\n", r->candidates[k].min_ready, r->candidates[k].max_ready,
            100.0 * r->candidates[k].hit_rate, r->candidates[k].idle_mean,
            r->candidates[k].min_ready == r->min_ready && r->candidates[k].max_ready == r->max_ready
                ? "   <- recommended"
                : "");
      if (r->sizes_known)
        printf ("  in force: %u / %u, observed %.2f%% hits, replayed %.2f%%\n", r->actual_min,
                r->actual_max, 100.0 * r->hit_rate, 100.0 * r->replayed_hit_rate);
    }
  /* Several engines: where each language's executions ran, and the
   * recommendation spread accordingly (warmboxd spreads by weight). */
  bool several = false;
  for (size_t i = 0; i < n; i++)
    several |= rows[i].n_engines > 1;
  if (several)
    {
      printf ("\nBy engine (the recommendation spread by each engine's share of the executions; "
              "warmboxd spreads by the engines' weights):\n  %-12s %-16s %7s %7s %9s %10s %10s\n",
              "LANGUAGE", "ENGINE", "EXECS", "SHARE", "HIT RATE", "MIN_READY", "MAX_READY");
      for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < rows[i].n_engines; k++)
          printf ("  %-12s %-16s %7llu %6.1f%% %8.1f%% %10u %10u\n", rows[i].language,
                  rows[i].engines[k].engine[0] ? rows[i].engines[k].engine : "(none)",
                  (unsigned long long) rows[i].engines[k].executions,
                  100.0 * rows[i].engines[k].share,
                  rows[i].engines[k].executions ? 100.0 * (double) rows[i].engines[k].hits
                                                      / (double) rows[i].engines[k].executions
                                                : 0.0,
                  rows[i].engines[k].min_ready, rows[i].engines[k].max_ready);
    }
  printf ("\nWhy (window %.0f s; replenish p50/p95; * = no pool events, assumed):\n",
          opts.window_s);
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
