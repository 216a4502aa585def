/* The unit tests' virtual clock (tests/unit/vclock.h) does what the other
 * tests rely on: the program's clock (wb_now_ms) and libevent's are the
 * virtual one, a loop with nothing to do jumps to its next timer, and a
 * thread doing real work is waited for, never overtaken.  No check here
 * reads the real clock: a test that the clock failed to take over would
 * only be slow (a 10 s timer sleeps 10 s), or fail an order check. */
#define _GNU_SOURCE
#include "tap.h"
#include "vclock.h"
#include "warmbox/wb.h"

#include <event2/event.h>
#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

static int seq;

typedef struct mark
{
  int order; /* 0: not yet */
  uint64_t at_ms;
} mark_t;

static void
mark_cb (evutil_socket_t fd, short what, void *arg)
{
  mark_t *m = arg;
  char b[16];

  (void)what;
  if (fd >= 0)
    while (read (fd, b, sizeof b) > 0)
      ;
  m->order = ++seq;
  m->at_ms = wb_now_ms ();
}

/* A worker: real work (a real sleep), a byte for the loop, then parked on
 * its condition until told to stop, as the history's writer is. */
typedef struct worker
{
  pthread_mutex_t mu;
  pthread_cond_t cv;
  bool go, stop;
  int fd;
} worker_t;

static void *
worker_main (void *arg)
{
  worker_t *w = arg;

  pthread_mutex_lock (&w->mu);
  for (;;)
    {
      while (!w->go && !w->stop)
        pthread_cond_wait (&w->cv, &w->mu);
      if (w->stop)
        break;
      w->go = false;
      pthread_mutex_unlock (&w->mu);
      struct timespec ts = { 0, 30 * 1000000L };
      nanosleep (&ts, NULL);
      if (write (w->fd, "x", 1) != 1)
        return NULL;
      pthread_mutex_lock (&w->mu);
    }
  pthread_mutex_unlock (&w->mu);
  return NULL;
}

static void
worker_tell (worker_t *w, bool stop)
{
  pthread_mutex_lock (&w->mu);
  if (stop)
    w->stop = true;
  else
    w->go = true;
  pthread_cond_signal (&w->cv);
  pthread_mutex_unlock (&w->mu);
}

int
main (void)
{
  struct event_base *base;
  struct event *hour, *ten, *pipe_ev;
  mark_t h = { 0 }, t = { 0 }, p = { 0 }, t2 = { 0 };
  struct timeval one_hour = { 3600, 0 }, ten_s = { 10, 0 };
  worker_t w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false, false, -1 };
  pthread_t th;
  int fds[2];
  uint64_t t0, jumps;

  if (!vclock_virtual ())
    {
      printf ("1..0 # SKIP WB_REAL_CLOCK is set: the real clock\n");
      return 0;
    }
  base = event_base_new ();
  if (base == NULL || pipe2 (fds, O_NONBLOCK | O_CLOEXEC) < 0)
    return 99;
  is_str (event_base_get_method (base), "epoll",
          "libevent's backend is epoll (the clock stands in for epoll_wait)");

  /* The clock stands still while the program computes. */
  t0 = wb_now_ms ();
  for (volatile int i = 0; i < 1000000; i++)
    ;
  is_int (wb_now_ms () - t0, 0, "the program's clock does not move while it computes");
  vclock_advance (1000);
  is_int (wb_now_ms () - t0, 1000, "and moves by what the clock is told");

  /* libevent reads the same clock. */
  hour = evtimer_new (base, mark_cb, &h);
  evtimer_add (hour, &one_hour);
  event_base_loop (base, EVLOOP_NONBLOCK);
  ok (h.order == 0, "a timer of an hour is not due yet");
  vclock_advance (3600 * 1000);
  event_base_loop (base, EVLOOP_NONBLOCK);
  ok (h.order == 1, "an hour on the virtual clock later it is, without a wait (libevent reads it)");

  /* Nothing to do: the loop jumps to its next timer. */
  ten = evtimer_new (base, mark_cb, &t);
  jumps = vclock_jumps ();
  t0 = wb_now_ms ();
  evtimer_add (ten, &ten_s);
  event_base_loop (base, EVLOOP_ONCE);
  ok (t.order == 2 && t.at_ms - t0 >= 10000, "a 10 s timer fires 10 s later on the clock (%llu ms)",
      (unsigned long long)(t.at_ms - t0));
  ok (vclock_jumps () > jumps, "the clock jumped there instead of sleeping");

  /* A thread at work is waited for: its byte comes before a timer the
   * jump would have reached first. */
  w.fd = fds[1];
  pipe_ev = event_new (base, fds[0], EV_READ | EV_PERSIST, mark_cb, &p);
  event_add (pipe_ev, NULL);
  if (!ok (pthread_create (&th, NULL, worker_main, &w) == 0, "a worker thread"))
    return tap_done ();
  t2 = (mark_t){ 0 };
  evtimer_assign (ten, base, mark_cb, &t2);
  t0 = wb_now_ms ();
  evtimer_add (ten, &ten_s);
  worker_tell (&w, false);
  event_base_loop (base, EVLOOP_ONCE);
  ok (p.order == 3 && t2.order == 0,
      "the busy thread's byte comes first, the 10 s timer has not fired");
  /* Parked again (once the byte is read): nothing holds the jump back. */
  event_base_loop (base, EVLOOP_ONCE);
  ok (t2.order == 4 && t2.at_ms - t0 >= 10000, "then, the worker parked, the timer fires (%llu ms)",
      (unsigned long long)(t2.at_ms - t0));
  worker_tell (&w, true);
  pthread_join (th, NULL);
  is_int ((int)vclock_spins (), 0, "the loop never spun at one instant");

  event_free (pipe_ev);
  event_free (ten);
  event_free (hour);
  event_base_free (base);
  close (fds[0]);
  close (fds[1]);
  return tap_done ();
}
