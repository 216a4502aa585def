/* Pool sizing, the adaptive start gate, and pool configuration: the parts
 * that need no engine. */
#include "config.h"
#include "startgate.h"
#include "warmbox/pool.h"
#include "tap.h"

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
test_gate (void)
{
  startgate_t g;
  start_waiter_t *w[4] = {NULL};

  startgate_init (&g, 2);
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

  /* Hill climbing: throughput that keeps improving as the limit rises
   * moves it up; the limit never leaves [1, 8]. */
  startgate_init (&g, 1);
  for (int round = 0; round < 40; round++)
    {
      start_waiter_t *x;
      g.saw_backlog = true;
      g.window_start_us -= 2000000; /* pretend the window lasted 2 s */
      g.window_done = 20 * g.limit;  /* throughput proportional to the limit */
      startgate_enter (&g, on_open, NULL, &x);
      startgate_leave (&g);
      ok (g.limit >= 1 && g.limit <= 8, "round %d: limit %u within [1, 8]", round, g.limit);
    }
  startgate_clear (&g);
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
  test_gate ();
  test_pool_config ();
  return tap_done ();
}
