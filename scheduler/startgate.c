/* scheduler/startgate.c: the start limiter.  See startgate.h.
 *
 * Per window of completions (at least 4, or half the limit):
 *   cost = mean of (start latency / starts in flight when it was sent)
 *   best = the lowest cost seen, and at how many in flight, forgotten by
 *          1% per window so that a slower engine (other load, a bigger
 *          image) is learned again
 *   cost <= best * GROW_TOLERANCE    the limit grows by 10% (at least 1):
 *                                    more in flight still pays
 *   cost >  best * SHRINK_TOLERANCE  the cost curve is U-shaped (too few in
 *                                    flight waste the engine, too many
 *                                    overload it), so the side decides:
 *                                    above the best's level the limit
 *                                    shrinks by 20% to 50% (the further
 *                                    past, the harder), never below that
 *                                    level; below it, it climbs back to it
 *   in between                       it holds
 * A level is only known once tried, so every PROBE_EVERY windows one runs
 * at 60% of the limit: if it is cheaper it becomes the best (and the next
 * window probes lower still), else the rules above bring the limit back.
 * The limit starts high, so a burst starts at once; an engine that
 * degrades under many starts is found by the probes in a few windows.
 * Windows in which the gate was far from full (fewer in flight than half
 * the limit) say nothing about the engine's capacity and are dropped. */
#define _GNU_SOURCE
#include "startgate.h"

#include <math.h>
#include <string.h>

#define GROW_TOLERANCE 1.15
#define SHRINK_TOLERANCE 1.4
#define FORGET 1.01
#define PROBE_EVERY 6
#define PROBE_FACTOR 0.6
#define PROBE_PAYS 0.9   /* a probe "pays" (and another follows) below 90% of the best */
#define STALE_WINDOWS 3  /* windows in a row past the shrink tolerance: the best is stale */

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
    g->cfg.initial = 16;
  g->limit = g->cfg.initial < g->cfg.min   ? g->cfg.min
             : g->cfg.initial > g->cfg.max ? g->cfg.max
                                            : g->cfg.initial;
}

uint32_t
startgate_limit (const startgate_t *g)
{
  uint32_t l = (uint32_t) floor (g->limit);
  return l < g->cfg.min ? g->cfg.min : l;
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
startgate_enter (startgate_t *g, startgate_cb cb, void *arg, start_waiter_t **out)
{
  start_waiter_t *w;

  if (g->in_flight < startgate_limit (g) && g->head == NULL)
    {
      g->in_flight++;
      return 1;
    }
  w = calloc (1, sizeof *w);
  if (w == NULL)
    return -1;
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

static void
adapt (startgate_t *g, double cost, double flight)
{
  double limit = g->limit;
  bool pays = g->best_cost_ms <= 0 || cost < g->best_cost_ms * PROBE_PAYS;

  if (g->best_cost_ms <= 0 || cost < g->best_cost_ms)
    {
      g->best_cost_ms = cost;
      g->best_flight = flight;
    }
  /* An engine that got slower (other load, a bigger image) makes the best
   * unreachable: after a few windows past it, start again from here. */
  g->over = cost > g->best_cost_ms * SHRINK_TOLERANCE ? g->over + 1 : 0;
  if (g->over >= STALE_WINDOWS)
    {
      wb_debug ("start gate: %u windows past the best (%.1f ms at %.1f); learning again from %.1f "
                "ms at %.1f",
                g->over, g->best_cost_ms, g->best_flight, cost, flight);
      g->best_cost_ms = cost;
      g->best_flight = flight;
      g->over = 0;
      g->windows = PROBE_EVERY; /* and look lower at once */
    }
  if (cost <= g->best_cost_ms * GROW_TOLERANCE)
    limit += fmax (1.0, limit * 0.1);
  else if (cost > g->best_cost_ms * SHRINK_TOLERANCE && flight >= g->best_flight)
    /* Overloaded.  The further past the best, the harder (gradient
     * style): at twice the tolerated cost the limit halves. */
    limit = fmax (g->best_flight,
                  limit * fmax (0.5, fmin (0.8, g->best_cost_ms * SHRINK_TOLERANCE / cost)));
  else if (cost > g->best_cost_ms * SHRINK_TOLERANCE)
    limit = fmax (limit, ceil (g->best_flight)); /* under-used: back to the best's level */
  if (limit < g->cfg.min)
    limit = g->cfg.min;
  if (limit > g->cfg.max)
    limit = g->cfg.max;
  /* Probe lower: again at once after a probe that paid, else now and
   * then. */
  if ((g->probing && pays) || ++g->windows >= PROBE_EVERY)
    {
      g->windows = 0;
      g->probing = limit * PROBE_FACTOR >= g->cfg.min;
      if (g->probing)
        limit *= PROBE_FACTOR;
    }
  else
    g->probing = false;
  if ((uint32_t) floor (limit) != (uint32_t) floor (g->limit))
    wb_debug ("start gate: %.1f ms per start at %.1f in flight (best %.1f at %.1f, mean latency "
              "%.0f ms): limit %u -> %u%s",
              cost, flight, g->best_cost_ms, g->best_flight, g->last_rtt_ms,
              (uint32_t) floor (g->limit), (uint32_t) floor (limit), g->probing ? " (probe)" : "");
  if ((uint32_t) floor (limit) != (uint32_t) floor (g->limit))
    g->generation++; /* samples sent under the old limit say nothing of the new */
  g->limit = limit;
  g->best_cost_ms *= FORGET;
}

void
startgate_sample (startgate_t *g, double rtt_ms, uint32_t in_flight, uint32_t generation)
{
  uint32_t window = startgate_limit (g) / 2 < 4 ? 4 : startgate_limit (g) / 2;

  g->samples++;
  if (rtt_ms <= 0 || in_flight == 0 || generation != g->generation)
    return;
  if ((double) in_flight * 2 < g->limit)
    {
      /* App-limited: nothing learned about the engine's capacity. */
      g->window_n = 0;
      g->window_cost_ms = g->window_rtt_ms = g->window_flight = 0;
      return;
    }
  g->window_n++;
  g->window_cost_ms += rtt_ms / in_flight;
  g->window_rtt_ms += rtt_ms;
  g->window_flight += in_flight;
  if (g->window_n < window)
    return;
  g->last_cost_ms = g->window_cost_ms / g->window_n;
  g->last_rtt_ms = g->window_rtt_ms / g->window_n;
  double flight = g->window_flight / g->window_n;
  g->window_n = 0;
  g->window_cost_ms = g->window_rtt_ms = g->window_flight = 0;
  adapt (g, g->last_cost_ms, flight);
}

void
startgate_leave (startgate_t *g)
{
  g->in_flight--;
  g->completed++;
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
