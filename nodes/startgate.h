/* nodes/startgate.h: how many container starts are in flight
 * (startgate.c): a concurrency limiter that follows the engine.
 *
 * What a start costs the engine is measured, not assumed: with n starts in
 * flight each taking R, the engine completes about n / R starts per second
 * (Little's law), so R / n is the time one start costs.  n is the mean
 * number in flight over that start's own life (time-weighted), so a start
 * sent first in a burst is billed for the burst it ran in.  The gate keeps
 * that cost per level of concurrency (levels 25% apart), learnt from every
 * start at whatever level the traffic ran it, and limits only where it has
 * seen the engine degrade:
 *
 *   - the limit starts at its maximum: until a level is seen to cost more
 *     than a lower one, a burst starts at once, as naive parallelism would;
 *   - a level seen to cost 30% more than the cheapest level below it is a
 *     ceiling: the limit drops to the highest level under it that costs
 *     within 15% of the cheapest;
 *   - while the gate is full and the level the traffic runs at costs within
 *     15% of the cheapest, the limit grows 25% (a ceiling forgotten is tried again
 *     this way, one level at a time);
 *   - a level is forgotten after 400 starts without a sample in it, so
 *     quiet traffic (few in flight) never lowers the limit, and an engine
 *     that changed is learnt again;
 *   - lower levels are only seen if something runs there: a probe admits
 *     no more than 60% of the starts in flight until that level is known.
 *     One runs at once when nothing below the traffic's level is known, or
 *     when that level costs 30% more than a higher one the traffic left (the
 *     engine may have changed), and then goes on down, level by level, until
 *     two levels in a row cost more than the cheapest (the engine scales
 *     there); otherwise one every 64 starts, if its level is not known, and
 *     it stops at the first dearer level.  A probe ends when the gate
 *     empties: it only holds back starts that arrive while it runs, so
 *     bursts that arrive all at once from idle teach the gate nothing
 *     below themselves.
 *
 * No I/O, no clock of its own: the caller passes the time (ms, any
 * monotonic origin).  Callbacks run from startgate_leave.  One per engine. */
#ifndef WARMBOX_SCHED_STARTGATE_H
#define WARMBOX_SCHED_STARTGATE_H

#include "warmbox/wb.h"

typedef struct start_waiter start_waiter_t;
typedef void (*startgate_cb) (void *arg);

typedef struct startgate_config
{
  uint32_t initial; /* 0: max */
  uint32_t min;     /* 0: 1 */
  uint32_t max;     /* 0: 64 */
} startgate_config_t;

#define STARTGATE_LEVELS 48 /* 1.25^47 > 4096, the largest max allowed */

/* What the gate knows of one level of concurrency. */
typedef struct startgate_level
{
  double cost_ms; /* smoothed start latency / starts in flight */
  double flight;  /* smoothed starts in flight of its samples */
  uint32_t n;     /* samples since it was (re)learnt */
  uint64_t seen;  /* the gate's sample count at its last sample */
} startgate_level_t;

typedef struct startgate
{
  startgate_config_t cfg;
  double limit; /* the estimate; starts admitted while in_flight < floor (limit) */
  uint32_t in_flight, queued;
  start_waiter_t *head, *tail;
  /* The integral of in_flight over time (ms x starts), up to area_at_ms. */
  double area;
  double area_at_ms;
  startgate_level_t level[STARTGATE_LEVELS];
  double probe_limit;    /* > 0 while a probe runs: admit no more than this */
  int probe_level;       /* the level it looks at, or -1 */
  uint64_t probe_until;  /* the sample count it ends at, known or not */
  uint64_t probe_after;  /* no periodic probe before this sample count */
  double chain_next;     /* > 0: the next probe, at once (a descent) */
  uint32_t probe_misses; /* levels in a row the descent found dearer */
  double recent_flight;  /* smoothed starts in flight of recent samples */
  double last_rtt_ms;    /* smoothed start latency (metrics) */
  double last_cost_ms;   /* smoothed start cost (metrics) */
  double best_cost_ms;   /* the cheapest level known now, or 0 (metrics) */
  uint64_t completed, samples, probes;
} startgate_t;

void startgate_init (startgate_t *g, const startgate_config_t *cfg);
/* The limit now (>= cfg.min; lower while a probe runs).  Can't fail. */
uint32_t startgate_limit (const startgate_t *g);
/* Admit now (returns 1), or queue (returns 0, *w set, cb runs when a slot
 * frees: the slot is then the waiter's), or -1 with err (WB_E_NOMEM) when
 * memory for the waiter runs out: nothing is queued then. */
WB_MUST_CHECK int startgate_enter (startgate_t *g, double now_ms, startgate_cb cb, void *arg,
                                   start_waiter_t **w, wb_err_t *err);
/* Leave the queue (no callback).  Can't fail. */
void startgate_cancel (startgate_t *g, start_waiter_t *w);
/* Taken when a start is sent (its slot already held); handed back with
 * its sample.  Can't fail. */
double startgate_ticket (const startgate_t *g, double now_ms);
/* A start sent with `ticket` finished now (the engine's answer, or its
 * failure), rtt_ms after it was sent; call before startgate_leave.  Learns
 * and may move the limit.  Can't fail. */
void startgate_sample (startgate_t *g, double rtt_ms, double ticket, double now_ms);
/* A start finished (either way): its slot frees, and queued ones may be
 * admitted up to the (possibly new) limit. */
void startgate_leave (startgate_t *g, double now_ms);
void startgate_clear (startgate_t *g);

#endif
