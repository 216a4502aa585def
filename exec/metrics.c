/* exec/metrics.c: counters and histograms in Prometheus text format.
 * Histograms are fixed-bucket, per language; nothing here allocates after
 * a language's first observation. */
#define _GNU_SOURCE
#include "exec/metrics.h"

#include <string.h>

static const double bucket_le[METRICS_BUCKETS]
    = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

static const char *const hist_names[METRICS_N_HIST] = {
    [M_QUEUE_WAIT] = "warmbox_queue_wait_seconds",
    [M_ADMIT_WAIT] = "warmbox_admission_wait_seconds",
    [M_START] = "warmbox_start_seconds",
    [M_RUN] = "warmbox_run_seconds",
    [M_TOTAL] = "warmbox_execution_seconds",
};
static const char *const hist_help[METRICS_N_HIST] = {
    [M_QUEUE_WAIT] = "Time from admission to a container in hand (admission queue and pool).",
    [M_ADMIT_WAIT] = "Time queued executions waited for room to run.",
    [M_START] = "Time from sending start to the engine's answer.",
    [M_RUN] = "Time from start to exit.",
    [M_TOTAL] = "Time from admission to reply.",
};

static metrics_lang_t *
lang_slot (metrics_t *m, const char *language)
{
  for (size_t i = 0; i < m->n_langs; i++)
    if (strcmp (m->langs[i].language, language) == 0)
      return &m->langs[i];
  if (m->n_langs == METRICS_MAX_LANGS)
    return NULL;
  metrics_lang_t *l = &m->langs[m->n_langs++];
  memset (l, 0, sizeof *l);
  snprintf (l->language, sizeof l->language, "%s", language);
  return l;
}

void
metrics_observe (metrics_t *m, const char *language, metrics_hist_t h, double seconds)
{
  metrics_lang_t *l = lang_slot (m, language);
  if (l == NULL || seconds < 0)
    return;
  for (int b = 0; b < METRICS_BUCKETS; b++)
    if (seconds <= bucket_le[b])
      l->hist[h].bucket[b]++;
  l->hist[h].count++;
  l->hist[h].sum += seconds;
}

void
metrics_count_status (metrics_t *m, const char *language, const char *status)
{
  metrics_lang_t *l = lang_slot (m, language);
  if (l == NULL)
    return;
  for (size_t i = 0; i < WB_ARRAY_SIZE (l->status_name); i++)
    {
      if (l->status_name[i] == NULL)
        l->status_name[i] = status; /* static strings only */
      if (strcmp (l->status_name[i], status) == 0)
        {
          l->status_count[i]++;
          return;
        }
    }
}

/* One label of a series; its value is escaped when written. */
typedef struct label
{
  const char *name, *value;
} label_t;

/* A label value as the text format asks: backslash, double quote and line
 * feed escaped (\\, \", \n); everything else as it is. */
static int
put_label_value (wb_buf_t *out, const char *v)
{
  int bad = 0;
  const char *run = v;

  for (; *v; v++)
    if (*v == '\\' || *v == '"' || *v == '\n')
      {
        bad |= wb_buf_append (out, run, (size_t) (v - run));
        bad |= wb_buf_append_str (out, *v == '\\' ? "\\\\" : *v == '"' ? "\\\"" : "\\n");
        run = v + 1;
      }
  return bad | wb_buf_append (out, run, (size_t) (v - run));
}

/* "name{l1="v1",...} " (the series and the space before its value). */
static int
put_series (wb_buf_t *out, const char *name, const label_t *labels, size_t n)
{
  int bad = wb_buf_append_str (out, name);

  for (size_t i = 0; i < n; i++)
    {
      bad |= wb_buf_printf (out, "%c%s=\"", i ? ',' : '{', labels[i].name);
      bad |= put_label_value (out, labels[i].value);
      bad |= wb_buf_append_str (out, "\"");
    }
  return bad | wb_buf_append_str (out, n ? "} " : " ");
}

static int
put_help (wb_buf_t *out, const char *name, const char *type, const char *help)
{
  return wb_buf_printf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

int
metrics_render (const metrics_t *m, const metrics_engine_t *engines, size_t n_engines,
                size_t running, size_t queued, wb_buf_t *out)
{
  int bad = 0;
  char series[96], le[32];

  for (int h = 0; h < METRICS_N_HIST; h++)
    {
      bad |= put_help (out, hist_names[h], "histogram", hist_help[h]);
      for (size_t i = 0; i < m->n_langs; i++)
        {
          const metrics_lang_t *l = &m->langs[i];
          label_t lab[2] = {{"language", l->language}, {"le", le}};
          snprintf (series, sizeof series, "%s_bucket", hist_names[h]);
          for (int b = 0; b < METRICS_BUCKETS; b++)
            {
              snprintf (le, sizeof le, "%g", bucket_le[b]);
              bad |= put_series (out, series, lab, 2);
              bad |= wb_buf_printf (out, "%llu\n", (unsigned long long) l->hist[h].bucket[b]);
            }
          snprintf (le, sizeof le, "+Inf");
          bad |= put_series (out, series, lab, 2);
          bad |= wb_buf_printf (out, "%llu\n", (unsigned long long) l->hist[h].count);
          snprintf (series, sizeof series, "%s_sum", hist_names[h]);
          bad |= put_series (out, series, lab, 1);
          bad |= wb_buf_printf (out, "%.6f\n", l->hist[h].sum);
          snprintf (series, sizeof series, "%s_count", hist_names[h]);
          bad |= put_series (out, series, lab, 1);
          bad |= wb_buf_printf (out, "%llu\n", (unsigned long long) l->hist[h].count);
        }
    }
  bad |= put_help (out, "warmbox_executions_total", "counter", "Executions by final status.");
  for (size_t i = 0; i < m->n_langs; i++)
    for (size_t k = 0; k < WB_ARRAY_SIZE (m->langs[i].status_name) && m->langs[i].status_name[k];
         k++)
      {
        label_t lab[2]
            = {{"language", m->langs[i].language}, {"status", m->langs[i].status_name[k]}};
        bad |= put_series (out, "warmbox_executions_total", lab, 2);
        bad |= wb_buf_printf (out, "%llu\n", (unsigned long long) m->langs[i].status_count[k]);
      }

      /* Pools (not the transient ones: each lives for one request), labelled
       * with their engine. */
#define POOL_METRIC(mname, type, help, fmt, expr)                                                  \
  bad |= put_help (out, mname, type, help);                                                        \
  for (size_t e = 0; e < n_engines; e++)                                                           \
    for (size_t i = 0; i < engines[e].n_pools; i++)                                                \
      if (!P.transient)                                                                            \
        {                                                                                          \
          label_t lab[4] = {{"engine", engines[e].name},                                           \
                            {"language", P.language},                                              \
                            {"pool", P.key},                                                       \
                            {"draining", P.draining ? "true" : "false"}};                          \
          bad |= put_series (out, mname, lab, 4);                                                  \
          bad |= wb_buf_printf (out, fmt "\n", expr);                                              \
        }
#define P engines[e].pools[i]
  POOL_METRIC ("warmbox_pool_ready", "gauge", "Never-started containers ready.", "%u", P.ready)
  POOL_METRIC ("warmbox_pool_creating", "gauge", "Creates in flight.", "%u", P.creating)
  POOL_METRIC ("warmbox_pool_in_use", "gauge", "Containers handed out.", "%u", P.in_use)
  POOL_METRIC ("warmbox_pool_waiting", "gauge", "Requests waiting for a container.", "%u",
               P.waiting)
  POOL_METRIC ("warmbox_pool_target", "gauge", "Ready target.", "%u", P.target)
  POOL_METRIC ("warmbox_pool_hits_total", "counter", "Requests served from ready containers.",
               "%llu", (unsigned long long) P.hits)
  POOL_METRIC ("warmbox_pool_misses_total", "counter", "Requests that had to wait.", "%llu",
               (unsigned long long) P.misses)
  POOL_METRIC ("warmbox_pool_created_total", "counter", "Containers created.", "%llu",
               (unsigned long long) P.created)
  POOL_METRIC ("warmbox_pool_create_failures_total", "counter", "Creates that failed.", "%llu",
               (unsigned long long) P.create_failures)
  POOL_METRIC ("warmbox_pool_replenish_seconds", "gauge", "Smoothed time to create a container.",
               "%.4f", P.create_ms / 1000.0)
  POOL_METRIC ("warmbox_pool_arrival_rate", "gauge", "Smoothed requests per second.", "%.4f",
               P.arrival_rate)
#undef P
#undef POOL_METRIC
#define ENGINE_METRIC(mname, type, help, fmt, expr)                                                \
  bad |= put_help (out, mname, type, help);                                                        \
  for (size_t e = 0; e < n_engines; e++)                                                           \
    {                                                                                              \
      label_t lab[1] = {{"engine", engines[e].name}};                                              \
      bad |= put_series (out, mname, lab, 1);                                                      \
      bad |= wb_buf_printf (out, fmt "\n", expr);                                                  \
    }
#define G engines[e].gate
  ENGINE_METRIC ("warmbox_engine_up", "gauge", "1 while the engine takes work (answers its pings).",
                 "%d", engines[e].up ? 1 : 0)
  ENGINE_METRIC ("warmbox_engine_executions", "gauge", "Executions placed on the engine now.", "%u",
                 engines[e].executions)
  ENGINE_METRIC ("warmbox_start_limit", "gauge", "Starts allowed in flight (adaptive).", "%u",
                 startgate_limit (G))
  ENGINE_METRIC ("warmbox_starts_in_flight", "gauge", "Starts sent and not answered.", "%u",
                 G->in_flight)
  ENGINE_METRIC ("warmbox_starts_queued", "gauge", "Starts waiting for the gate.", "%u", G->queued)
  ENGINE_METRIC ("warmbox_start_latency_seconds", "gauge",
                 "Start latency, smoothed over recent starts.", "%.4f", G->last_rtt_ms / 1000.0)
  ENGINE_METRIC ("warmbox_start_cost_seconds", "gauge",
                 "Start latency per start in flight over its life, smoothed (1 / throughput).",
                 "%.4f", G->last_cost_ms / 1000.0)
  ENGINE_METRIC ("warmbox_start_cost_best_seconds", "gauge",
                 "The start cost at the cheapest level of concurrency known.", "%.4f",
                 G->best_cost_ms / 1000.0)
#undef G
#undef ENGINE_METRIC
  bad |= wb_buf_printf (
      out,
      "# HELP warmbox_executions_running Executions admitted and not queued.\n"
      "# TYPE warmbox_executions_running gauge\nwarmbox_executions_running %zu\n"
      "# HELP warmbox_executions_queued Executions waiting for room to run (admission queue).\n"
      "# TYPE warmbox_executions_queued gauge\nwarmbox_executions_queued %zu\n",
      running, queued);
  return bad ? -1 : 0;
}
