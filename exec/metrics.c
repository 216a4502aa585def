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

int
metrics_render (const metrics_t *m, const metrics_engine_t *engines, size_t n_engines,
                size_t running, size_t queued, wb_buf_t *out)
{
  int bad = 0;

  for (int h = 0; h < METRICS_N_HIST; h++)
    {
      bad |= wb_buf_printf (out, "# HELP %s %s\n# TYPE %s histogram\n", hist_names[h], hist_help[h],
                            hist_names[h]);
      for (size_t i = 0; i < m->n_langs; i++)
        {
          const metrics_lang_t *l = &m->langs[i];
          for (int b = 0; b < METRICS_BUCKETS; b++)
            bad |= wb_buf_printf (out, "%s_bucket{language=\"%s\",le=\"%g\"} %llu\n", hist_names[h],
                                  l->language, bucket_le[b],
                                  (unsigned long long) l->hist[h].bucket[b]);
          bad |= wb_buf_printf (out, "%s_bucket{language=\"%s\",le=\"+Inf\"} %llu\n", hist_names[h],
                                l->language, (unsigned long long) l->hist[h].count);
          bad |= wb_buf_printf (out, "%s_sum{language=\"%s\"} %.6f\n%s_count{language=\"%s\"} %llu\n",
                                hist_names[h], l->language, l->hist[h].sum, hist_names[h],
                                l->language, (unsigned long long) l->hist[h].count);
        }
    }
  bad |= wb_buf_append_str (out, "# HELP warmbox_executions_total Executions by final status.\n"
                                 "# TYPE warmbox_executions_total counter\n");
  for (size_t i = 0; i < m->n_langs; i++)
    for (size_t k = 0; k < WB_ARRAY_SIZE (m->langs[i].status_name) && m->langs[i].status_name[k]; k++)
      bad |= wb_buf_printf (out, "warmbox_executions_total{language=\"%s\",status=\"%s\"} %llu\n",
                            m->langs[i].language, m->langs[i].status_name[k],
                            (unsigned long long) m->langs[i].status_count[k]);

#define POOL_METRIC(mname, type, help, fmt, expr)                                             \
  bad |= wb_buf_printf (out, "# HELP " mname " " help "\n# TYPE " mname " " type "\n");      \
  for (size_t e = 0; e < n_engines; e++)                                                    \
    for (size_t i = 0; i < engines[e].n_pools; i++)                                         \
      if (!engines[e].pools[i].transient)                                                   \
        bad |= wb_buf_printf (out, mname "{engine=\"%s\",language=\"%s\",pool=\"%s\",draining=\"%s\"} " \
                              fmt "\n", engines[e].name, engines[e].pools[i].language,          \
                              engines[e].pools[i].key,                                      \
                              engines[e].pools[i].draining ? "true" : "false", expr);
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
#define ENGINE_METRIC(mname, type, help, fmt, expr)                                           \
  bad |= wb_buf_printf (out, "# HELP " mname " " help "\n# TYPE " mname " " type "\n");      \
  for (size_t e = 0; e < n_engines; e++)                                                    \
    bad |= wb_buf_printf (out, mname "{engine=\"%s\"} " fmt "\n", engines[e].name, expr);
#define G engines[e].gate
  ENGINE_METRIC ("warmbox_engine_up", "gauge", "1 while the engine takes work (answers its pings).",
                 "%d", engines[e].up ? 1 : 0)
  ENGINE_METRIC ("warmbox_engine_executions", "gauge", "Executions placed on the engine now.",
                 "%u", engines[e].executions)
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
