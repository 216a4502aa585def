/* scheduler/startgate.h: how many container starts are in flight
 * (startgate.c).  No I/O; callbacks run from startgate_leave. */
#ifndef WARMBOX_SCHED_STARTGATE_H
#define WARMBOX_SCHED_STARTGATE_H

#include "warmbox/wb.h"

typedef struct start_waiter start_waiter_t;
typedef void (*startgate_cb) (void *arg);

typedef struct startgate
{
  uint32_t limit, in_flight, queued;
  start_waiter_t *head, *tail;
  int direction;
  uint64_t window_start_us;
  uint32_t window_done;
  double last_tput;
  bool saw_backlog;
  uint64_t completed;
} startgate_t;

void startgate_init (startgate_t *g, uint32_t initial);
/* Admit now (returns 1), or queue (returns 0, *w set, cb runs when a slot
 * frees: the slot is then the waiter's), or -1 on allocation failure. */
int startgate_enter (startgate_t *g, startgate_cb cb, void *arg, start_waiter_t **w);
/* Leave the queue (no callback).  Can't fail. */
void startgate_cancel (startgate_t *g, start_waiter_t *w);
/* A start finished (either way); may admit queued ones. */
void startgate_leave (startgate_t *g);
void startgate_clear (startgate_t *g);

#endif
