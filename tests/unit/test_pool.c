/* Pool sizing, the adaptive start gate, and pool configuration: the parts
 * that need no engine. */
#include "api/agent.h"
#include "daemon/config.h"
#include "nodes/startgate.h"
#include "tap.h"
#include "warmbox/pool.h"

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
  ok (startgate_enter (&g, 0, on_open, NULL, &w[0], NULL) == 1, "first start admitted");
  ok (startgate_enter (&g, 0, on_open, NULL, &w[0], NULL) == 1, "second start admitted");
  ok (startgate_enter (&g, 0, on_open, NULL, &w[0], NULL) == 0 && g.queued == 1,
      "third queued at limit 2");
  ok (startgate_enter (&g, 0, on_open, NULL, &w[1], NULL) == 0 && g.queued == 2, "fourth queued");
  ok (startgate_enter (&g, 0, on_open, NULL, &w[2], NULL) == 0, "fifth queued");
  startgate_cancel (&g, w[1]);
  is_int (g.queued, 2, "a cancelled waiter leaves the queue");
  startgate_leave (&g, 0);
  is_int (opened, 1, "a finished start admits the oldest waiter (FIFO)");
  is_int (g.in_flight, 2, "in flight stays at the limit");
  startgate_leave (&g, 0);
  startgate_leave (&g, 0);
  is_int (opened, 2, "the queue drains");
  is_int (g.queued, 0, "nothing queued");
  startgate_clear (&g);
  startgate_init (&g, &(startgate_config_t){0, 0, 0});
  is_int (startgate_limit (&g), 64,
          "by default the limit starts at its maximum, 64: a burst starts at once");
}

/* ---- the limiter against simulated engines ----------------------------

   Starts meet an engine that shares its capacity among the starts in
   flight (processor sharing): with n in flight it completes rate(n) starts
   per ms, each progressing at rate(n) / n.  Each start is one unit of work
   (times noise, if any).  Clients send a start, wait for it, send the
   next; a backlog is as many clients as starts.  Simulated time: the gate
   only ever sees latencies. */

typedef double (*rate_fn) (unsigned n);

static double
scaling_engine (unsigned n)
{
  /* Throughput rises up to 16 in flight, then holds (CPU saturated). */
  return (n < 16 ? n : 16) / 600.0;
}

static double
degrading_engine (unsigned n)
{
  /* Best at 4 in flight; beyond, each start slows the others down more
   * than it adds (the older machine of DESIGN.md, and the test proxy). */
  return n / (100.0 + (n > 4 ? 40.0 * (n - 4) * (n - 4) : 0.0));
}

#define SIM_MAX 512

typedef struct sim
{
  startgate_t g;
  bool gated; /* false: naive parallelism, every start sent at once */
  rate_fn rate;
  double now;
  double work[SIM_MAX], sent[SIM_MAX], ticket[SIM_MAX];
  unsigned n_flight;
  unsigned pending; /* starts the clients have still to send */
  double (*noise) (struct sim *s);
  unsigned long long rng;
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
  unsigned i = s->n_flight++;
  if (i >= SIM_MAX)
    abort ();
  s->work[i] = s->noise ? s->noise (s) : 1.0;
  s->sent[i] = s->now;
  s->ticket[i] = s->gated ? startgate_ticket (&s->g, s->now) : 0;
}

static void
sim_open (void *arg)
{
  (void) arg;
  sim_send (sim_now);
}

/* A client sends its next start. */
static void
sim_request (sim_t *s)
{
  start_waiter_t *w;

  s->pending--;
  if (!s->gated || startgate_enter (&s->g, s->now, sim_open, NULL, &w, NULL) == 1)
    sim_send (s);
}

/* `starts` by `clients` clients; the simulated ms it took. */
static double
sim_run (sim_t *s, unsigned starts, unsigned clients, double *limit_at_end)
{
  double t0 = s->now; /* the gate's clock never goes back */

  sim_now = s;
  s->pending = starts;
  for (unsigned c = 0; c < clients && s->pending > 0; c++)
    sim_request (s);
  while (s->n_flight > 0)
    {
      unsigned n = s->n_flight, k = 0;
      double per = s->rate (n) / n;
      for (unsigned i = 1; i < n; i++)
        if (s->work[i] < s->work[k])
          k = i;
      double dt = s->work[k] / per;
      s->now += dt;
      for (unsigned i = 0; i < n; i++)
        s->work[i] -= per * dt;
      double rtt = s->now - s->sent[k], ticket = s->ticket[k];
      s->n_flight--;
      s->work[k] = s->work[s->n_flight];
      s->sent[k] = s->sent[s->n_flight];
      s->ticket[k] = s->ticket[s->n_flight];
      if (s->gated)
        {
          startgate_sample (&s->g, rtt, ticket, s->now);
          startgate_leave (&s->g, s->now); /* may send queued ones */
        }
      if (s->pending > 0)
        sim_request (s);
    }
  if (limit_at_end)
    *limit_at_end = s->gated ? startgate_limit (&s->g) : 0;
  return s->now - t0;
}

static void
sim_start (sim_t *s, rate_fn rate, bool gated)
{
  startgate_config_t dflt = {0, 0, 0};

  memset (s, 0, sizeof *s);
  s->rate = rate;
  s->gated = gated;
  s->rng = 88172645463325252ULL;
  startgate_init (&s->g, &dflt);
}

/* Naive parallelism: every client's start sent at once. */
static double
naive_time (rate_fn rate, unsigned starts, unsigned clients)
{
  sim_t n;
  sim_start (&n, rate, false);
  return sim_run (&n, starts, clients, NULL);
}

static void
test_limiter (void)
{
  static sim_t s;
  double limit, t, naive, total;

  sim_start (&s, scaling_engine, true);
  t = sim_run (&s, 16, 16, &limit);
  naive = naive_time (scaling_engine, 16, 16);
  ok (t <= naive * 1.001,
      "a burst of 16 on an engine that scales to 16: as fast as naive (%.0f vs %.0f ms)", t, naive);
  t = sim_run (&s, 32, 32, &limit);
  naive = naive_time (scaling_engine, 32, 32);
  ok (t <= naive * 1.001, "a burst of 32 there: as fast as naive (%.0f vs %.0f ms), limit %.0f", t,
      naive, limit);
  for (int i = 0; i < 10; i++)
    sim_run (&s, 64, 64, &limit);
  ok (limit >= 16, "sustained, the limit does not sink below where that engine still scales (%.0f)",
      limit);
  /* Clients that keep it busy: probes run, and cost that engine little. */
  double gated_ms = 0;
  for (int i = 0; i < 20; i++)
    gated_ms += sim_run (&s, 64, 24, &limit);
  naive = 20 * naive_time (scaling_engine, 64, 24);
  ok (gated_ms <= naive * 1.05 && limit >= 16,
      "24 clients, 20 rounds of 64 there: within 5%% of naive (%.0f vs %.0f ms; probes %llu, limit "
      "%.0f)",
      gated_ms, naive, (unsigned long long) s.g.probes, limit);
  sim_run (&s, 2000, 1, &limit);
  ok (limit >= 16, "2000 starts one at a time (quiet traffic) do not lower it (%.0f)", limit);
  t = sim_run (&s, 64, 64, &limit);
  naive = naive_time (scaling_engine, 64, 64);
  ok (t <= naive * 1.05, "and a burst of 64 after them is within 5%% of naive (%.0f vs %.0f ms)", t,
      naive);

  /* An engine that degrades: the first burst is naive's; then it learns. */
  sim_start (&s, degrading_engine, true);
  total = 0;
  int rounds = 0;
  for (; rounds < 20 && (rounds < 2 || limit > 10); rounds++)
    total += sim_run (&s, 200, 200, &limit);
  ok (limit >= 2 && limit <= 10,
      "on an engine that degrades past 4 in flight the limit settles near "
      "its best (%.0f, after %d backlogs of 200, %.0f simulated s)",
      limit, rounds, total / 1000.0);
  t = sim_run (&s, 64, 64, &limit);
  naive = naive_time (degrading_engine, 64, 64);
  ok (naive / t >= 1.3, "and a backlog of 64 there finishes %.1fx faster than naive parallelism",
      naive / t);
  sim_run (&s, 2000, 1, &limit);
  t = sim_run (&s, 64, 64, &limit);
  ok (naive / t >= 1.3,
      "after 2000 starts one at a time, still %.1fx faster: quiet traffic did not "
      "make it forget into a flood",
      naive / t);

  /* The other way: from a degraded engine back to one that scales. */
  s.rate = scaling_engine;
  for (int i = 0; i < 30; i++)
    sim_run (&s, 64, 64, &limit);
  ok (limit >= 16, "once the engine scales again the limit climbs back (%.0f)", limit);

  /* Clients fewer than the limit: it must learn all the same. */
  sim_start (&s, degrading_engine, true);
  double warm_rate = 0, naive_rate;
  int learnt_in = 0;
  for (int i = 0; i < 20; i++)
    {
      warm_rate = 64 / sim_run (&s, 64, 32, &limit);
      if (limit > 10)
        learnt_in = i + 1;
    }
  naive_rate = 64 / naive_time (degrading_engine, 64, 32);
  ok (limit <= 10 && warm_rate / naive_rate >= 1.3 && learnt_in <= 2,
      "32 clients, limit starting at 64 on the degrading engine: learns within two rounds of 64 "
      "(%d; limit %.0f, %.1fx naive's rate)",
      learnt_in, limit, warm_rate / naive_rate);

  /* Noise must not sink it on an engine that scales: +-30% per start. */
  sim_start (&s, scaling_engine, true);
  s.noise = noise30;
  double lowest = 1e9;
  for (int i = 0; i < 40; i++)
    {
      sim_run (&s, 64, 64, &limit);
      if (i >= 5 && limit < lowest)
        lowest = limit;
    }
  ok (lowest >= 12, "with +-30%% noise per start it stays where that engine scales (lowest %.0f)",
      lowest);
  /* The engine gets slower (say, other load): the limit must follow down
   * soon, not wait for anything to be forgotten.  Clients that keep the
   * gate busy (32 clients, 64 starts a round): a probe only holds back
   * starts that arrive while it runs, and it ends when the gate empties,
   * so bursts that all arrive at once teach it nothing below themselves
   * (docs/architecture.md says so). */
  s.rate = degrading_engine;
  double took = 0;
  int n = 0;
  for (; n < 40 && limit > 10; n++)
    took += sim_run (&s, 64, 32, &limit);
  ok (limit <= 10 && n <= 3,
      "when that engine starts degrading past 4 in flight, the limit follows "
      "(%.0f after %d rounds of 64 by 32 clients, %.0f simulated s)",
      limit, n, took / 1000.0);
  for (int i = 0; i < 3; i++)
    sim_run (&s, 64, 64, &limit);
  ok (limit <= 10, "and bursts of 64 after that start in waves at that limit (%.0f)", limit);
  startgate_clear (&s.g);
}

static void
test_pool_config (void)
{
  sched_config_t cfg;
  wb_err_t err;
  const char *j = "{\"pools\":{\"default\":{\"min_ready\":1,\"max_ready\":3},"
                  "\"python\":{\"min_ready\":4,\"max_ready\":16}},\"max_containers\":10}";
  must (sched_config_defaults (&cfg, &err));
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

/* HAProxy's agent weight: warm slots count fully, cold ones a quarter. */
static void
test_agent_weight (void)
{
  is_int (sched_agent_weight (64, 0, 64), 100, "idle with every slot warm: 100%%");
  is_int (sched_agent_weight (64, 0, 0), 25, "idle, nothing warm: 25%%");
  is_int (sched_agent_weight (64, 32, 8), 22, "half busy, 8 warm: (8 + 24 / 4) / 64 = 22%%");
  is_int (sched_agent_weight (64, 64, 10), 1, "full: 1%% (a trickle, for the admission queue)");
  is_int (sched_agent_weight (64, 80, 10), 1, "queued past full: 1%%");
  is_int (sched_agent_weight (4, 2, 100), 50,
          "more warm containers than free slots count as the slots");
  ok (sched_agent_weight (64, 10, 20) > sched_agent_weight (64, 10, 2),
      "more warm containers, more weight at the same load");
}

int
main (void)
{
  if (getenv ("GATE_DEBUG"))
    wb_log_set_level (WB_LOG_DEBUG);
  test_target ();
  test_gate_queue ();
  test_limiter ();
  test_pool_config ();
  test_agent_weight ();
  return tap_done ();
}
