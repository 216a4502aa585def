/* scheduler/startgate.c: how many container starts are in flight.
 *
 * The engine completes starts fastest at a small concurrency (about 2 on a
 * 2-core machine; 16 at once loses about 40% of throughput).  The gate
 * admits at most `limit` starts, queues the rest FIFO, and tunes the limit
 * by hill climbing on measured throughput: while a backlog exists, each
 * window of completions is compared with the previous one; an improvement
 * keeps the direction of the last change, a loss reverses it.  Without a
 * backlog throughput measures demand, not the engine, so nothing moves. */
#define _GNU_SOURCE
#include "startgate.h"

#include <string.h>

#define GATE_MIN 1
#define GATE_MAX 8
#define WINDOW_MIN_US 1000000u

struct start_waiter
{
  startgate_cb cb;
  void *arg;
  start_waiter_t *next;
};

void
startgate_init (startgate_t *g, uint32_t initial)
{
  memset (g, 0, sizeof *g);
  g->limit = initial < GATE_MIN ? GATE_MIN : initial > GATE_MAX ? GATE_MAX : initial;
  g->direction = 1;
  g->window_start_us = wb_now_us ();
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

  if (g->in_flight < g->limit && g->head == NULL)
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
  g->saw_backlog = true;
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
adapt (startgate_t *g)
{
  uint64_t now = wb_now_us ();
  uint64_t elapsed = now - g->window_start_us;
  double tput;

  if (g->window_done < 2 * g->limit || elapsed < WINDOW_MIN_US)
    return;
  tput = (double) g->window_done * 1e6 / (double) elapsed;
  if (g->saw_backlog)
    {
      if (g->last_tput > 0 && tput < g->last_tput * 0.95)
        g->direction = -g->direction;
      if (g->last_tput == 0 || tput > g->last_tput * 1.05 || tput < g->last_tput * 0.95)
        {
          int next = (int) g->limit + g->direction;
          if (next < GATE_MIN || next > GATE_MAX)
            {
              g->direction = -g->direction;
              next = (int) g->limit + g->direction;
            }
          if (next != (int) g->limit)
            wb_debug ("start gate: %.2f starts/s at %u in flight; trying %d", tput, g->limit, next);
          g->limit = (uint32_t) next;
        }
      g->last_tput = tput;
    }
  g->window_done = 0;
  g->window_start_us = now;
  g->saw_backlog = g->queued > 0;
}

void
startgate_leave (startgate_t *g)
{
  g->in_flight--;
  g->completed++;
  g->window_done++;
  adapt (g);
  /* Admit from the queue up to the (possibly new) limit.  Callbacks may
   * enter or leave the gate themselves. */
  while (g->head && g->in_flight < g->limit)
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
