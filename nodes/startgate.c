/* nodes/startgate.c: the start limiter.  See startgate.h.
 *
 * Every start is a sample: its latency R and the mean number of starts in
 * flight over its life n (the integral of in_flight over time between its
 * ticket and its answer, divided by R).  R / n, the time the engine spent
 * per start, goes into the level of n (levels 25% apart: 1, 1.25, 1.56 ...).
 * Every DECIDE_EVERY samples the limit is decided from the levels known
 * (at least MIN_SAMPLES samples, the last less than FORGET_AFTER samples
 * ago):
 *
 *   best     the cheapest level
 *   ceiling  the first level above best costing more than SHRINK_TOLERANCE
 *            times best: the engine degrades there
 *   top      the highest level between best and the ceiling costing within
 *            GROW_TOLERANCE of best
 *
 *   a ceiling:   the limit is top's level (its mean in flight), or one step
 *                above when the level there is not known yet and the gate
 *                is full (so unknown ground is tried, a step at a time)
 *   no ceiling:  while the gate is full and the level the traffic runs at
 *                costs within GROW_TOLERANCE of best, the limit grows by
 *                GROW_STEP; otherwise it holds
 *
 * A level is only known if traffic ran there: probes (startgate.h says
 * when) admit no more than PROBE_FACTOR of the current concurrency until
 * their level is known (bounded), and descents go on down while levels
 * keep paying.  Best is taken among the levels the traffic reaches (at or
 * below its own) and higher ones only while sampled in the last
 * STALE_ABOVE starts.  Nothing here lowers the limit without a measured
 * level that costs more than a lower one: app-limited traffic, few in
 * flight, only adds cheap-looking or expensive-looking low levels, and low
 * levels never make a ceiling.
 *
 * The cost is per start's own life, not per window of time: a window that
 * spans a change of concurrency (a probe draining, a burst's tail) bills
 * starts that ran at one level to another (tried: its levels came out up
 * to 2x wrong on the simulated engines).  It assumes the engine slows all
 * starts in flight alike; one that served them strictly in arrival order
 * would make a burst's first starts look cheap at the burst's level. */
#define _GNU_SOURCE
#include "nodes/startgate.h"

#include <math.h>
#include <string.h>

#define LEVEL_STEP 1.25
#define MIN_SAMPLES 6
#define FORGET_AFTER 400
#define STALE_ABOVE (FORGET_AFTER / 4)
#define SMOOTHING 0.1 /* per sample, once a level has 1/SMOOTHING samples */
#define DECIDE_EVERY 4
#define GROW_TOLERANCE 1.15
#define SHRINK_TOLERANCE 1.3
#define GROW_STEP 1.25
#define PROBE_EVERY 64 /* samples */
#define PROBE_FACTOR 0.6

struct start_waiter
{
  startgate_cb cb;
  void *arg;
  start_waiter_t *next;
};

void
startgate_init (startgate_t *g, const startgate_config_t *cfg)
{
  memset (g, 0, sizeof *g);
  g->cfg = *cfg;
  if (g->cfg.min == 0)
    g->cfg.min = 1;
  if (g->cfg.max == 0)
    g->cfg.max = 64;
  if (g->cfg.max < g->cfg.min)
    g->cfg.max = g->cfg.min;
  if (g->cfg.initial == 0)
    g->cfg.initial = g->cfg.max;
  g->limit = g->cfg.initial < g->cfg.min   ? g->cfg.min
             : g->cfg.initial > g->cfg.max ? g->cfg.max
                                           : g->cfg.initial;
  g->probe_level = -1;
}

uint32_t
startgate_limit (const startgate_t *g)
{
  double l = floor (g->limit);
  if (g->probe_limit > 0 && g->probe_limit < l)
    l = g->probe_limit;
  return l < g->cfg.min ? g->cfg.min : (uint32_t) l;
}

/* The integral of in_flight up to now. */
static double
area_now (const startgate_t *g, double now_ms)
{
  double dt = now_ms - g->area_at_ms;
  return g->area + (dt > 0 ? dt * g->in_flight : 0);
}

static void
advance (startgate_t *g, double now_ms)
{
  if (!isfinite (now_ms))
    return;
  g->area = area_now (g, now_ms);
  g->area_at_ms = now_ms; /* a clock that went back: the integral goes on from here */
}

void
startgate_clear (startgate_t *g)
{
  start_waiter_t *w;

  while ((w = g->head))
    {
      g->head = w->next;
      free (w);
    }
  g->tail = NULL;
  g->queued = 0;
}

int
startgate_enter (startgate_t *g, double now_ms, startgate_cb cb, void *arg, start_waiter_t **out,
                 wb_err_t *err)
{
  start_waiter_t *w;

  if (g->in_flight < startgate_limit (g) && g->head == NULL)
    {
      advance (g, now_ms);
      g->in_flight++;
      return 1;
    }
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return wb_error (err, WB_E_NOMEM, "out of memory queueing for a start slot (%u queued)",
                     g->queued);
  w->cb = cb;
  w->arg = arg;
  if (g->tail)
    g->tail->next = w;
  else
    g->head = w;
  g->tail = w;
  g->queued++;
  *out = w;
  return 0;
}

void
startgate_cancel (startgate_t *g, start_waiter_t *w)
{
  start_waiter_t **pp, *prev = NULL;

  for (pp = &g->head; *pp; prev = *pp, pp = &(*pp)->next)
    if (*pp == w)
      {
        *pp = w->next;
        if (g->tail == w)
          g->tail = prev;
        g->queued--;
        free (w);
        return;
      }
}

static int
level_of (double flight)
{
  if (!(flight > 1))
    return 0;
  if (!(flight < 1e12))
    return STARTGATE_LEVELS - 1; /* and infinity */
  int k = (int) floor (log (flight) / log (LEVEL_STEP) + 0.5);
  return k >= STARTGATE_LEVELS ? STARTGATE_LEVELS - 1 : k;
}

static bool
known (const startgate_t *g, int k)
{
  const startgate_level_t *l = &g->level[k];
  return l->n >= MIN_SAMPLES && g->samples - l->seen <= FORGET_AFTER;
}

static double
clamp_limit (const startgate_t *g, double limit)
{
  return limit < g->cfg.min ? g->cfg.min : limit > g->cfg.max ? g->cfg.max : limit;
}

/* The cheapest level known, or -1.  `current`: only levels that speak of
 * the engine as it is now: those the traffic reaches (at or below the level
 * it runs at), and higher ones only while recently sampled (a level the
 * traffic left long ago may be from another engine's day: cheap there, it
 * would hide a degradation below it until forgotten). */
static int
cheapest_level (const startgate_t *g, bool current)
{
  int best = -1, at = level_of (g->recent_flight);

  for (int k = 0; k < STARTGATE_LEVELS; k++)
    if (known (g, k) && (!current || k <= at || g->samples - g->level[k].seen <= STALE_ABOVE)
        && (best < 0 || g->level[k].cost_ms < g->level[best].cost_ms))
      best = k;
  return best;
}

/* Whether a level below `k` is known: something to compare k with. */
static bool
known_below (const startgate_t *g, int k)
{
  for (int j = 0; j < k; j++)
    if (known (g, j))
      return true;
  return false;
}

/* The levels known, in the debug log: in flight:ms per start. */
static void
debug_map (const startgate_t *g, const char *why)
{
  char map[STARTGATE_LEVELS * 24] = "";
  size_t off = 0;

  if (wb_log_get_level () > WB_LOG_DEBUG)
    return;
  for (int k = 0; k < STARTGATE_LEVELS && off < sizeof map - 24; k++)
    if (known (g, k))
      off += (size_t) snprintf (map + off, sizeof map - off, " %.1f:%.1f", g->level[k].flight,
                                g->level[k].cost_ms);
  wb_debug ("start gate: %s (limit %.0f, probe %.0f); levels%s", why, g->limit, g->probe_limit,
            map);
}

/* A descent's verdict on level k, probed or already known: it goes on down
 * unless two levels in a row cost more than SHRINK_TOLERANCE times the
 * cheapest other level (the engine scales there: lower only costs more);
 * a level cheaper than all others starts the count again. */
static bool
descent_goes_on (startgate_t *g, int k)
{
  double cheapest = 0;

  for (int j = 0; j < STARTGATE_LEVELS; j++)
    if (j != k && known (g, j) && (cheapest == 0 || g->level[j].cost_ms < cheapest))
      cheapest = g->level[j].cost_ms;
  if (!known (g, k))
    g->probe_misses = 2; /* the traffic did not stay there: stop */
  else if (cheapest > 0 && g->level[k].cost_ms > cheapest * SHRINK_TOLERANCE)
    g->probe_misses++;
  else if (cheapest == 0 || g->level[k].cost_ms < cheapest)
    g->probe_misses = 0;
  return g->probe_misses < 2;
}

/* Probe at `probe` in flight.  A descent (`descent`) passes over levels
 * known already, judging each as if probed; a periodic probe whose level
 * is known has nothing to learn and does not run. */
static void
start_probe (startgate_t *g, double probe, bool descent)
{
  int k = level_of (probe);

  g->chain_next = 0;
  while (descent && probe >= 1 && known (g, k))
    {
      if (!descent_goes_on (g, k))
        return;
      probe = floor (probe * PROBE_FACTOR);
      k = level_of (probe);
    }
  if (probe < g->cfg.min || probe < 1 || known (g, k))
    return;
  g->probe_limit = probe;
  g->probe_level = k;
  /* Long enough for the starts in flight to drain to the probe's level
   * and MIN_SAMPLES more to run there. */
  g->probe_until = g->samples + (uint64_t) ceil (g->recent_flight) + 4 * MIN_SAMPLES;
  g->probes++;
  wb_debug ("start gate: probing at %.0f in flight (now %.1f)", probe, g->recent_flight);
}

static void
maybe_probe (startgate_t *g)
{
  if (g->probe_limit > 0)
    return;
  if (g->chain_next > 0)
    {
      start_probe (g, g->chain_next, true);
      return;
    }
  /* Every PROBE_EVERY samples, or at once when nothing below the level
   * the traffic runs at is known (nothing to compare it with), or when
   * that level costs well over the cheapest known, which the traffic left
   * (the engine may have changed: what is below now?). */
  int at = level_of (g->recent_flight), cheapest = cheapest_level (g, false);
  bool now = !known_below (g, at)
             || (cheapest > at && known (g, at)
                 && g->level[at].cost_ms > g->level[cheapest].cost_ms * SHRINK_TOLERANCE);
  if (g->samples < g->probe_after && !now)
    return;
  if (g->recent_flight < 3 || !known (g, at))
    return;
  g->probe_after = g->samples + PROBE_EVERY;
  /* A periodic probe that finds its level dearer ends there; a first
   * look, or one after a change, goes on past one dear level (an engine
   * can have a plateau: a level below that is no better, and one further
   * down that is). */
  g->probe_misses = now ? 0 : 1;
  start_probe (g, floor (g->recent_flight * PROBE_FACTOR), now);
}

/* A probe ended (its level known, or its time up, or the traffic gone). */
static void
end_probe (startgate_t *g)
{
  bool goes_on = descent_goes_on (g, g->probe_level);

  debug_map (g, goes_on ? "probe ended, going on down" : "probe ended");

  g->chain_next = goes_on ? floor (g->probe_limit * PROBE_FACTOR) : 0;
  g->probe_limit = 0;
  g->probe_level = -1;
  g->probe_after = g->samples + PROBE_EVERY;
}

static void
decide (startgate_t *g, bool full)
{
  int best = cheapest_level (g, true), ceiling = -1, top;
  double limit = g->limit;

  g->best_cost_ms = best >= 0 ? g->level[best].cost_ms : 0;
  if (best < 0)
    return; /* nothing known: hold */
  double cheapest = g->level[best].cost_ms;
  for (int k = best + 1; k < STARTGATE_LEVELS && ceiling < 0; k++)
    if (known (g, k) && g->level[k].cost_ms > cheapest * SHRINK_TOLERANCE)
      ceiling = k;
  if (ceiling >= 0)
    {
      top = best;
      for (int k = best + 1; k < ceiling; k++)
        if (known (g, k) && g->level[k].cost_ms <= cheapest * GROW_TOLERANCE)
          top = k;
      limit = fmax (1.0, floor (g->level[top].flight + 0.5));
      /* Unknown ground between top and the ceiling: a step at a time. */
      if (full && top + 1 < ceiling && !known (g, top + 1))
        limit = fmax (limit + 1, floor (limit * GROW_STEP));
    }
  else if (full)
    {
      int at = level_of (g->recent_flight);
      if (known (g, at) && g->level[at].cost_ms <= cheapest * GROW_TOLERANCE)
        limit = fmax (limit + 1, floor (limit * GROW_STEP));
    }
  limit = clamp_limit (g, limit);
  if ((uint32_t) limit != (uint32_t) floor (g->limit))
    {
      debug_map (g, "deciding");
      wb_debug ("start gate: limit %u -> %u (cheapest %.1f ms per start at %.1f in flight%s%s)",
                (uint32_t) floor (g->limit), (uint32_t) limit, cheapest, g->level[best].flight,
                ceiling >= 0 ? ", degrading from " : "", ceiling >= 0 ? "a higher level" : "");
    }
  g->limit = limit;
  maybe_probe (g);
}

double
startgate_ticket (const startgate_t *g, double now_ms)
{
  return area_now (g, now_ms);
}

void
startgate_sample (startgate_t *g, double rtt_ms, double ticket, double now_ms)
{
  /* Full: the limit (not a probe's) held starts back, or could have. */
  bool probing = g->probe_limit > 0 && g->probe_limit < floor (g->limit);
  bool full = g->in_flight >= (uint32_t) floor (g->limit) || (g->queued > 0 && !probing);
  double flight, cost, a;
  startgate_level_t *l;

  g->samples++;
  if (!(rtt_ms > 0) || !isfinite (rtt_ms) || !isfinite (now_ms) || !isfinite (ticket))
    return;
  flight = (area_now (g, now_ms) - ticket) / rtt_ms;
  if (!(flight >= 1))
    flight = 1; /* itself at least; also rounding, and a clock that went back */
  if (flight > g->cfg.max)
    flight = g->cfg.max; /* no more were ever in flight (a caller's clock aside) */
  cost = rtt_ms / flight;
  l = &g->level[level_of (flight)];
  if (g->samples - l->seen > FORGET_AFTER)
    l->n = 0; /* forgotten: learn it again from here */
  l->n++;
  a = l->n * SMOOTHING < 1 ? 1.0 / l->n : SMOOTHING;
  l->cost_ms += a * (cost - l->cost_ms);
  l->flight += a * (flight - l->flight);
  l->seen = g->samples;

  a = g->samples == 1 ? 1.0 : SMOOTHING;
  g->last_rtt_ms += a * (rtt_ms - g->last_rtt_ms);
  g->last_cost_ms += a * (cost - g->last_cost_ms);
  g->recent_flight += a * (flight - g->recent_flight);

  if (g->probe_limit > 0 && (known (g, g->probe_level) || g->samples >= g->probe_until))
    end_probe (g);
  if (g->samples % DECIDE_EVERY == 0)
    decide (g, full);
}

void
startgate_leave (startgate_t *g, double now_ms)
{
  advance (g, now_ms);
  if (g->in_flight == 0)
    {
      wb_warn ("start gate: a start left that was never admitted");
      return;
    }
  g->in_flight--;
  g->completed++;
  if (g->in_flight == 0 && g->head == NULL)
    {
      /* The traffic went: a probe would outlive it and hold back the
       * next burst.  It ends unfinished, and its descent with it. */
      if (g->probe_limit > 0)
        end_probe (g);
      g->chain_next = 0;
    }
  /* Admit from the queue up to the (possibly new) limit.  Callbacks may
   * enter or leave the gate themselves. */
  while (g->head && g->in_flight < startgate_limit (g))
    {
      start_waiter_t *w = g->head;
      g->head = w->next;
      if (g->head == NULL)
        g->tail = NULL;
      g->queued--;
      g->in_flight++;
      w->cb (w->arg);
      free (w);
    }
}
