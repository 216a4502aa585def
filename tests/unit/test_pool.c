/* Pool sizing, the adaptive start gate, and pool configuration: the parts
 * that need no engine. */
#include "config.h"
#include "startgate.h"
#include "warmbox/pool.h"
#include "tap.h"

#include <math.h>
#include <string.h>

static int opened;

static void
on_open (void *arg)
{
  (void) arg;
  opened++;
}

static void
test_target (void)
{
  is_int (pool_target (0, 100, 2, 8), 2, "no arrivals: min_ready");
  is_int (pool_target (10, 300, 2, 8), 6, "10/s x 0.3 s x 2 headroom = 6");
  is_int (pool_target (100, 300, 2, 8), 8, "clamped to max_ready");
  is_int (pool_target (1, 10, 0, 0), 0, "a pool of size 0 stays empty (cold path)");
  is_int (pool_target (0.5, 500, 0, 4), 1, "a trickle still keeps one ready");
  is_int (pool_target (1.0 / 0.0, 100, 1, 5), 1, "a nonsense rate falls back to min_ready");
}

static void
test_gate_queue (void)
{
  startgate_t g;
  start_waiter_t *w[4] = {NULL};
  startgate_config_t cfg = {2, 1, 64};

  startgate_init (&g, &cfg);
  ok (startgate_enter (&g, on_open, NULL, &w[0]) == 1, "first start admitted");
  ok (startgate_enter (&g, on_open, NULL, &w[0]) == 1, "second start admitted");
  ok (startgate_enter (&g, on_open, NULL, &w[0]) == 0 && g.queued == 1, "third queued at limit 2");
  ok (startgate_enter (&g, on_open, NULL, &w[1]) == 0 && g.queued == 2, "fourth queued");
  ok (startgate_enter (&g, on_open, NULL, &w[2]) == 0, "fifth queued");
  startgate_cancel (&g, w[1]);
  is_int (g.queued, 2, "a cancelled waiter leaves the queue");
  startgate_leave (&g);
  is_int (opened, 1, "a finished start admits the oldest waiter (FIFO)");
  is_int (g.in_flight, 2, "in flight stays at the limit");
  startgate_leave (&g);
  startgate_leave (&g);
  is_int (opened, 2, "the queue drains");
  is_int (g.queued, 0, "nothing queued");
  startgate_clear (&g);
  startgate_init (&g, &(startgate_config_t){0, 0, 0});
  is_int (startgate_limit (&g), 16, "by default the limit starts at 16: a burst starts at once");
}

/* ---- the limiter against simulated engines ----------------------------

   A backlog of starts meets an engine whose start latency depends on how
   many starts are in flight when one is sent.  Simulated time: the gate
   only ever sees latencies. */

typedef double (*latency_fn) (unsigned n);

static double
scaling_engine (unsigned n)
{
  /* Throughput rises up to 16 in flight, then holds (CPU saturated). */
  return n <= 16 ? 600.0 : 600.0 * n / 16.0;
}

static double
degrading_engine (unsigned n)
{
  /* Best near 4 in flight; beyond, each start slows the others down more
   * than it adds (the older machine of DESIGN.md, and the test proxy). */
  return 100.0 + (n > 4 ? 40.0 * (n - 4) * (n - 4) : 0.0);
}

typedef struct sim
{
  startgate_t g;
  latency_fn lat;
  double now;
  double finish[256];
  unsigned sent_with[256];
  unsigned gen[256];
  double rtt[256];
  double (*noise) (struct sim *s);
  unsigned long long rng;
  unsigned n_flight;
  unsigned pending; /* starts not yet admitted */
  unsigned done;
} sim_t;

static sim_t *sim_now;

/* Log-uniform noise of +-30% (xorshift, fixed seed: the test repeats). */
static double
noise30 (sim_t *s)
{
  s->rng ^= s->rng << 13;
  s->rng ^= s->rng >> 7;
  s->rng ^= s->rng << 17;
  double u = (double) (s->rng % 1000000) / 1000000.0; /* [0, 1) */
  return exp ((u * 2 - 1) * log (1.3));
}

static void
sim_send (sim_t *s)
{
  unsigned n = s->g.in_flight; /* this one included */
  s->rtt[s->n_flight] = s->lat (n) * (s->noise ? s->noise (s) : 1.0);
  s->finish[s->n_flight] = s->now + s->rtt[s->n_flight];
  s->sent_with[s->n_flight] = n;
  s->gen[s->n_flight] = s->g.generation;
  s->n_flight++;
}

static void
sim_open (void *arg)
{
  (void) arg;
  sim_send (sim_now);
}

/* Run a backlog of `starts`; the time it took, in simulated ms. */
static double
sim_run (sim_t *s, unsigned starts, double *limit_at_end)
{
  start_waiter_t *w;

  sim_now = s;
  s->pending = starts;
  s->n_flight = 0;
  s->done = 0;
  s->now = 0;
  while (s->pending > 0)
    {
      int r = startgate_enter (&s->g, sim_open, NULL, &w);
      s->pending--;
      if (r == 1)
        sim_send (s);
    }
  while (s->n_flight > 0)
    {
      unsigned k = 0;
      for (unsigned i = 1; i < s->n_flight; i++)
        if (s->finish[i] < s->finish[k])
          k = i;
      s->now = s->finish[k];
      double rtt = s->rtt[k];
      unsigned with = s->sent_with[k], gen = s->gen[k];
      s->finish[k] = s->finish[s->n_flight - 1];
      s->sent_with[k] = s->sent_with[s->n_flight - 1];
      s->gen[k] = s->gen[s->n_flight - 1];
      s->rtt[k] = s->rtt[s->n_flight - 1];
      s->n_flight--;
      s->done++;
      startgate_sample (&s->g, rtt, with, gen);
      startgate_leave (&s->g); /* may send queued ones */
    }
  if (limit_at_end)
    *limit_at_end = startgate_limit (&s->g);
  return s->now;
}

/* Naive parallelism: all at once. */
static double
naive_time (latency_fn lat, unsigned starts)
{
  return lat (starts);
}

static void
test_limiter (void)
{
  sim_t s;
  double limit, t, naive;
  startgate_config_t dflt = {0, 0, 0};

  memset (&s, 0, sizeof s);
  s.lat = scaling_engine;
  startgate_init (&s.g, &dflt);
  t = sim_run (&s, 16, &limit);
  naive = naive_time (scaling_engine, 16);
  ok (t <= naive * 1.001, "a burst of 16 on an engine that scales to 16: as fast as naive (%.0f vs %.0f ms)",
      t, naive);
  t = sim_run (&s, 32, &limit);
  naive = naive_time (scaling_engine, 32);
  ok (t <= naive * 1.05, "a burst of 32 there: within 5%% of naive (%.0f vs %.0f ms), limit %.0f", t,
      naive, limit);
  for (int i = 0; i < 10; i++)
    sim_run (&s, 64, &limit);
  ok (limit >= 16, "sustained, the limit does not sink below where that engine still scales (%.0f)",
      limit);

  memset (&s, 0, sizeof s);
  s.lat = degrading_engine;
  startgate_init (&s.g, &dflt);
  double total = 0;
  int rounds = 0;
  /* A few seconds of sustained backlog: 200 starts per round. */
  for (; rounds < 20 && total < 5000; rounds++)
    total += sim_run (&s, 200, &limit);
  ok (limit >= 2 && limit <= 10, "on an engine that degrades past 4 in flight the limit settles near "
                                 "its best (%.0f, after %.1f simulated s)",
      limit, total / 1000.0);
  t = sim_run (&s, 64, &limit);
  naive = naive_time (degrading_engine, 64);
  ok (naive / t >= 1.3, "and a backlog of 64 there finishes %.1fx faster than naive parallelism",
      naive / t);
  startgate_clear (&s.g);

  /* The other way: from a degraded engine back to one that scales. */
  s.lat = scaling_engine;
  for (int i = 0; i < 30; i++)
    sim_run (&s, 64, &limit);
  ok (limit >= 16, "once the engine scales again the limit climbs back (%.0f)", limit);

  /* Noise must not sink it on an engine that scales: +-30% per start. */
  memset (&s, 0, sizeof s);
  s.lat = scaling_engine;
  s.noise = noise30;
  s.rng = 88172645463325252ULL;
  startgate_init (&s.g, &dflt);
  double lowest = 1e9;
  for (int i = 0; i < 40; i++)
    {
      sim_run (&s, 64, &limit);
      if (i >= 5 && limit < lowest)
        lowest = limit;
    }
  ok (lowest >= 12, "with +-30%% noise per start it stays where that engine scales (lowest %.0f)",
      lowest);
  /* The engine gets slower (say, other load): the limit must follow down
   * soon, not wait for the best to be forgotten. */
  s.lat = degrading_engine;
  double took = 0;
  for (int i = 0; i < 40 && limit > 10; i++)
    took += sim_run (&s, 64, &limit);
  ok (limit <= 10, "when that engine starts degrading past 4 in flight, the limit follows (%.0f after "
                   "%.1f simulated s)",
      limit, took / 1000.0);
}

static void
test_pool_config (void)
{
  sched_config_t cfg;
  wb_err_t err;
  const char *j = "{\"pools\":{\"default\":{\"min_ready\":1,\"max_ready\":3},"
                  "\"python\":{\"min_ready\":4,\"max_ready\":16}},\"max_containers\":10}";
  sched_config_defaults (&cfg, &err);
  ok (sched_config_parse (&cfg, j, strlen (j), &err) == 0, "pools config parses");
  is_int (sched_config_pool (&cfg, "python")->max_ready, 16, "per-language sizes");
  is_int (sched_config_pool (&cfg, "javascript")->min_ready, 1, "others take the default");
  is_int (cfg.max_containers, 10, "global cap");
  const char *bad = "{\"pools\":{\"python\":{\"min_ready\":5,\"max_ready\":2}}}";
  ok (sched_config_parse (&cfg, bad, strlen (bad), &err) < 0 && strstr (err.msg, "below"),
      "max_ready below min_ready is refused");
  const char *typo = "{\"pools\":{\"python\":{\"min_redy\":5}}}";
  ok (sched_config_parse (&cfg, typo, strlen (typo), &err) < 0 && strstr (err.msg, "min_redy"),
      "a misspelt pool key is named");
  sched_config_clear (&cfg);
}

int
main (void)
{
  test_target ();
  test_gate_queue ();
  test_limiter ();
  test_pool_config ();
  return tap_done ();
}
