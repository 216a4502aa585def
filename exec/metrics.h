/* exec/metrics.h: counters and histograms in Prometheus text format
 * (metrics.c).  Fixed size: nothing allocates after a language's first
 * observation. */
#ifndef WARMBOX_SCHED_METRICS_H
#define WARMBOX_SCHED_METRICS_H

#include "nodes/startgate.h"
#include "warmbox/pool.h"

#define METRICS_BUCKETS 13
#define METRICS_MAX_LANGS 32
#define METRICS_MAX_STATUSES 12

typedef enum metrics_hist
{
  M_QUEUE_WAIT, /* admission -> container in hand (queue and pool) */
  M_ADMIT_WAIT, /* admission -> room to run (the admission queue alone) */
  M_START,
  M_RUN,
  M_TOTAL,
  METRICS_N_HIST
} metrics_hist_t;

typedef struct metrics_lang
{
  char language[33];
  struct
  {
    uint64_t bucket[METRICS_BUCKETS];
    uint64_t count;
    double sum;
  } hist[METRICS_N_HIST];
  const char *status_name[METRICS_MAX_STATUSES];
  uint64_t status_count[METRICS_MAX_STATUSES];
} metrics_lang_t;

typedef struct metrics
{
  metrics_lang_t langs[METRICS_MAX_LANGS];
  size_t n_langs;
} metrics_t;

void metrics_observe (metrics_t *m, const char *language, metrics_hist_t h, double seconds);
/* status must be a static string. */
void metrics_count_status (metrics_t *m, const char *language, const char *status);
/* What /metrics says of one engine (its pools and start gate are labelled
 * with its name). */
typedef struct metrics_engine
{
  const char *name;
  bool up;
  const startgate_t *gate;
  const pool_stats_t *pools;
  size_t n_pools;
  uint32_t executions; /* placed on it now */
} metrics_engine_t;

WB_MUST_CHECK int metrics_render (const metrics_t *m, const metrics_engine_t *engines,
                                  size_t n_engines, size_t running, size_t queued, wb_buf_t *out);

#endif
