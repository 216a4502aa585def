/* scheduler/startgate.h: how many container starts are in flight
 * (startgate.c): a concurrency limiter that follows the engine.
 *
 * The limit starts high (a burst starts at once, as naive parallelism
 * would) and then follows the engine's measured start latency, Vegas
 * style, on the time per start: with n starts in flight each taking R, the
 * engine completes about n / R starts per second (Little's law), so R / n
 * is what a start costs.  While that cost holds near the best seen, the
 * limit grows (more in flight still pays); when it climbs, the engine is
 * being overloaded and the limit shrinks multiplicatively.  Samples from a
 * gate that is far from full ("app-limited") move nothing.
 *
 * No I/O; callbacks run from startgate_leave.  One per engine. */
#ifndef WARMBOX_SCHED_STARTGATE_H
#define WARMBOX_SCHED_STARTGATE_H

#include "warmbox/wb.h"

typedef struct start_waiter start_waiter_t;
typedef void (*startgate_cb) (void *arg);

typedef struct startgate_config
{
  uint32_t initial; /* 0: 16 */
  uint32_t min;     /* 0: 1 */
  uint32_t max;     /* 0: 64 */
} startgate_config_t;

typedef struct startgate
{
  startgate_config_t cfg;
  double limit;          /* the estimate; starts admitted while in_flight < floor (limit) */
  uint32_t in_flight, queued;
  start_waiter_t *head, *tail;
  /* The current window of samples. */
  uint32_t window_n;
  double window_cost_ms; /* sum of latency / in flight */
  double window_rtt_ms;  /* sum of latency */
  double window_flight;  /* sum of starts in flight */
  double best_cost_ms;   /* the lowest window cost seen, slowly forgotten */
  double best_flight;    /* ... and the mean starts in flight it was seen at */
  uint32_t windows;      /* windows since the last probe */
  uint32_t over;         /* windows in a row past the shrink tolerance */
  uint32_t generation;   /* counts the limit's changes: a sample belongs to one */
  bool probing;          /* this window runs below the limit, to look for a better level */
  double last_rtt_ms;    /* the last window's mean start latency */
  double last_cost_ms;
  uint64_t completed, samples;
} startgate_t;

void startgate_init (startgate_t *g, const startgate_config_t *cfg);
/* The limit now (>= cfg.min).  Can't fail. */
uint32_t startgate_limit (const startgate_t *g);
/* Admit now (returns 1), or queue (returns 0, *w set, cb runs when a slot
 * frees: the slot is then the waiter's), or -1 on allocation failure. */
int startgate_enter (startgate_t *g, startgate_cb cb, void *arg, start_waiter_t **w);
/* Leave the queue (no callback).  Can't fail. */
void startgate_cancel (startgate_t *g, start_waiter_t *w);
/* A start took rtt_ms (till the engine's answer, or its failure) with
 * in_flight starts (this one included) in flight when it was sent, under
 * the limit's `generation` then (g->generation): samples of an older limit
 * are dropped.  Adapts the limit.  Can't fail. */
void startgate_sample (startgate_t *g, double rtt_ms, uint32_t in_flight, uint32_t generation);
/* A start finished (either way): its slot frees, and queued ones may be
 * admitted up to the (possibly new) limit. */
void startgate_leave (startgate_t *g);
void startgate_clear (startgate_t *g);

#endif
