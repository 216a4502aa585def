/* tests/unit/vclock.c: see vclock.h.
 *
 * The clock is piecewise: frozen at v_at while nothing lets it run; while
 * `flowing` > 0 (a pthread_join, a wait for a thread busy past the grace)
 * it reads v_at + (real now - r_at); a jump sets v_at to the loop's next
 * timer.  Everything is under
 * one mutex (a leaf: nothing else is locked while it is held, apart from
 * the caller's own mutex around a condition wait).  Nothing here allocates
 * (the fault loops count allocations: the clock must not add any). */
#define _GNU_SOURCE
#include "vclock.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* A thread busy this long (real time) lets the clock run meanwhile. */
#define GRACE_NS (200 * 1000000LL)
/* How long the loop waits for real at a time while a thread is busy. */
#define SLICE_MS 1
#define MAX_THREADS 64
/* Loop passes at one instant before the loop counts as spinning (a busy
 * loop that only real time would have ended): from then on each pass
 * costs SPIN_NS, so the program still reaches its deadlines. */
#define SPIN_PASSES 1000000
#define SPIN_NS 1000

typedef int (*clock_gettime_fn) (clockid_t, struct timespec *);
typedef int (*epoll_wait_fn) (int, struct epoll_event *, int, int);

static clock_gettime_fn real_clock_gettime;
static epoll_wait_fn real_epoll_wait;
static bool inited, real_mode;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t parked_cv = PTHREAD_COND_INITIALIZER; /* a thread parked or ended */
static int64_t v_at, r_at;                                  /* ns */
static int flowing;
static int64_t busy_since; /* real ns when a thread was first seen busy; 0: none */
static unsigned long jumps, polls, spins;
static int64_t skipped, waited;
static unsigned long slices;
static int64_t last_poll_at;       /* the clock at the last poll */
static unsigned long same_instant; /* polls in a row at that instant */

typedef enum slot_state
{
  SLOT_FREE,
  SLOT_RUNNING,
  SLOT_PARKED,
} slot_state_t;

typedef struct slot
{
  slot_state_t state;
  const pthread_cond_t *cv; /* while parked */
  void *(*start) (void *);
  void *arg;
} slot_t;

static slot_t slots[MAX_THREADS];
static int untracked; /* threads started when every slot was taken: always busy */
static __thread slot_t *self;

int __real_pthread_create (pthread_t *t, const pthread_attr_t *attr, void *(*start) (void *),
                           void *arg);
int __real_pthread_join (pthread_t t, void **ret);
int __real_pthread_cond_wait (pthread_cond_t *cv, pthread_mutex_t *m);
int __real_pthread_cond_timedwait (pthread_cond_t *cv, pthread_mutex_t *m,
                                   const struct timespec *abstime);
int __real_pthread_cond_signal (pthread_cond_t *cv);
int __real_pthread_cond_broadcast (pthread_cond_t *cv);
int __wrap_pthread_create (pthread_t *t, const pthread_attr_t *attr, void *(*start) (void *),
                           void *arg);
int __wrap_pthread_join (pthread_t t, void **ret);
int __wrap_pthread_cond_wait (pthread_cond_t *cv, pthread_mutex_t *m);
int __wrap_pthread_cond_timedwait (pthread_cond_t *cv, pthread_mutex_t *m,
                                   const struct timespec *abstime);
int __wrap_pthread_cond_signal (pthread_cond_t *cv);
int __wrap_pthread_cond_broadcast (pthread_cond_t *cv);

/* ---- the real clock ------------------------------------------------- */

static int
sys_clock_gettime (clockid_t clk, struct timespec *ts)
{
  if (real_clock_gettime)
    return real_clock_gettime (clk, ts);
  return (int) syscall (SYS_clock_gettime, clk, ts);
}

static int64_t
real_ns (void)
{
  struct timespec ts;
  sys_clock_gettime (CLOCK_MONOTONIC, &ts);
  return (int64_t) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int
sys_epoll_wait (int epfd, struct epoll_event *ev, int n, int timeout)
{
  if (real_epoll_wait)
    return real_epoll_wait (epfd, ev, n, timeout);
  return (int) syscall (SYS_epoll_wait, epfd, ev, n, timeout);
}

/* Runs before main, before any thread: the program's first clock reads
 * (ASan's start-up, say) go to the kernel directly. */
__attribute__ ((constructor)) static void
vclock_init (void)
{
  const char *e = getenv ("WB_REAL_CLOCK");

  real_clock_gettime = (clock_gettime_fn) dlsym (RTLD_NEXT, "clock_gettime");
  real_epoll_wait = (epoll_wait_fn) dlsym (RTLD_NEXT, "epoll_wait");
  real_mode = e && *e && strcmp (e, "0") != 0;
  v_at = real_ns ();
  inited = true;
}

/* ---- the virtual clock ---------------------------------------------- */

/* Caller holds mu. */
static int64_t
now_locked (void)
{
  return flowing ? v_at + (real_ns () - r_at) : v_at;
}

static int64_t
virtual_ns (void)
{
  int64_t v;
  pthread_mutex_lock (&mu);
  v = now_locked ();
  pthread_mutex_unlock (&mu);
  return v;
}

static void
flow_begin (void)
{
  pthread_mutex_lock (&mu);
  if (flowing++ == 0)
    r_at = real_ns ();
  pthread_mutex_unlock (&mu);
}

static void
flow_end (void)
{
  pthread_mutex_lock (&mu);
  if (--flowing == 0)
    v_at += real_ns () - r_at;
  pthread_mutex_unlock (&mu);
}

static void
jump_to (int64_t deadline)
{
  pthread_mutex_lock (&mu);
  if (!flowing && v_at < deadline)
    {
      skipped += deadline - v_at;
      v_at = deadline;
      jumps++;
    }
  pthread_mutex_unlock (&mu);
}

static bool
is_virtual (clockid_t clk)
{
  return clk == CLOCK_MONOTONIC || clk == CLOCK_MONOTONIC_COARSE || clk == CLOCK_MONOTONIC_RAW
         || clk == CLOCK_BOOTTIME;
}

int
clock_gettime (clockid_t clk, struct timespec *ts)
{
  int64_t v;

  if (!inited || real_mode || !is_virtual (clk))
    return sys_clock_gettime (clk, ts);
  v = virtual_ns ();
  ts->tv_sec = (time_t) (v / 1000000000LL);
  ts->tv_nsec = (long) (v % 1000000000LL);
  return 0;
}

/* Every thread we started is parked on a condition nobody signalled.
 * Otherwise the start of the busy spell is noted. */
static bool
threads_idle_locked (void)
{
  if (untracked)
    return false;
  for (int i = 0; i < MAX_THREADS; i++)
    if (slots[i].state == SLOT_RUNNING)
      return false;
  return true;
}

static bool
threads_idle (void)
{
  bool idle;

  pthread_mutex_lock (&mu);
  idle = threads_idle_locked ();
  if (idle)
    busy_since = 0;
  else if (busy_since == 0)
    busy_since = real_ns ();
  pthread_mutex_unlock (&mu);
  return idle;
}

/* Wait for real until a thread parks, a slice at most, then look at the
 * descriptors again (a thread that has work for the loop writes to one
 * before it parks).  The clock stands still, unless the busy spell has
 * outlasted the grace. */
static int
wait_real (int epfd, struct epoll_event *ev, int n)
{
  struct timespec until;
  int64_t t0, now;
  bool flow;

  pthread_mutex_lock (&mu);
  t0 = real_ns ();
  flow = busy_since && t0 - busy_since > GRACE_NS;
  if (flow && flowing++ == 0)
    r_at = t0;
  if (!threads_idle_locked ())
    {
      sys_clock_gettime (CLOCK_REALTIME, &until);
      until.tv_nsec += SLICE_MS * 1000000L;
      if (until.tv_nsec >= 1000000000L)
        {
          until.tv_sec++;
          until.tv_nsec -= 1000000000L;
        }
      __real_pthread_cond_timedwait (&parked_cv, &mu, &until);
    }
  now = real_ns ();
  if (flow && --flowing == 0)
    v_at += now - r_at;
  waited += now - t0;
  slices++;
  pthread_mutex_unlock (&mu);
  return sys_epoll_wait (epfd, ev, n, 0);
}

/* Counts a loop pass; notices (and ends) a spin at one instant. */
static void
count_poll (void)
{
  static const char msg[] = "# vclock: the loop spins: 1000000 passes at one instant of the "
                            "virtual clock without a wait; from now each pass takes 1 us\n";
  bool first = false;

  pthread_mutex_lock (&mu);
  polls++;
  if (now_locked () != last_poll_at)
    same_instant = 0;
  else if (++same_instant >= SPIN_PASSES)
    {
      first = spins++ == 0;
      v_at += SPIN_NS;
    }
  last_poll_at = now_locked ();
  pthread_mutex_unlock (&mu);
  if (first && write (2, msg, sizeof msg - 1) < 0)
    return;
}

/* Before each loop pass: wait (for real, the clock standing still) until
 * every thread we started has parked, so that what they did for the loop
 * (a commit, and the byte on the pipe that says so) is there at the pass,
 * whatever the speed of the machine.  A thread busy past the grace is not
 * waited for any more (a writer retrying a locked file). */
static void
settle (void)
{
  pthread_mutex_lock (&mu);
  while (!threads_idle_locked ())
    {
      struct timespec until;
      int64_t t0 = real_ns ();

      if (busy_since == 0)
        busy_since = t0;
      else if (t0 - busy_since > GRACE_NS)
        break;
      sys_clock_gettime (CLOCK_REALTIME, &until);
      until.tv_nsec += SLICE_MS * 1000000L;
      if (until.tv_nsec >= 1000000000L)
        {
          until.tv_sec++;
          until.tv_nsec -= 1000000000L;
        }
      __real_pthread_cond_timedwait (&parked_cv, &mu, &until);
      waited += real_ns () - t0;
    }
  if (threads_idle_locked ())
    busy_since = 0;
  pthread_mutex_unlock (&mu);
}

int
epoll_wait (int epfd, struct epoll_event *ev, int n, int timeout)
{
  int64_t deadline;
  int r;

  if (!inited || real_mode)
    return sys_epoll_wait (epfd, ev, n, timeout);
  count_poll ();
  settle ();
  r = sys_epoll_wait (epfd, ev, n, 0);
  if (r != 0 || timeout == 0)
    return r;
  deadline = timeout < 0 ? -1 : virtual_ns () + (int64_t) timeout * 1000000LL;
  for (;;)
    {
      if (threads_idle ())
        {
          if (deadline < 0)
            return sys_epoll_wait (epfd, ev, n, -1); /* no timer: only a descriptor can wake us */
          jump_to (deadline);
          return 0;
        }
      r = wait_real (epfd, ev, n);
      if (r != 0)
        return r;
      if (deadline >= 0 && virtual_ns () >= deadline)
        return 0;
    }
}

/* ---- threads --------------------------------------------------------- */

static void *
trampoline (void *arg)
{
  slot_t *s = arg;
  void *ret;

  self = s;
  ret = s->start (s->arg);
  pthread_mutex_lock (&mu);
  s->state = SLOT_FREE;
  __real_pthread_cond_broadcast (&parked_cv);
  pthread_mutex_unlock (&mu);
  return ret;
}

int
__wrap_pthread_create (pthread_t *t, const pthread_attr_t *attr, void *(*start) (void *), void *arg)
{
  slot_t *s = NULL;
  int r;

  pthread_mutex_lock (&mu);
  for (int i = 0; i < MAX_THREADS && s == NULL; i++)
    if (slots[i].state == SLOT_FREE)
      s = &slots[i];
  if (s)
    {
      s->state = SLOT_RUNNING; /* busy from its start */
      s->start = start;
      s->arg = arg;
    }
  else
    untracked++;
  pthread_mutex_unlock (&mu);
  r = s ? __real_pthread_create (t, attr, trampoline, s)
        : __real_pthread_create (t, attr, start, arg);
  if (r != 0)
    {
      pthread_mutex_lock (&mu);
      if (s)
        s->state = SLOT_FREE;
      else
        untracked--;
      pthread_mutex_unlock (&mu);
    }
  return r;
}

int
__wrap_pthread_join (pthread_t t, void **ret)
{
  int r;

  flow_begin ();
  r = __real_pthread_join (t, ret);
  flow_end ();
  return r;
}

static void
park (const pthread_cond_t *cv)
{
  if (self == NULL)
    return;
  pthread_mutex_lock (&mu);
  self->state = SLOT_PARKED;
  self->cv = cv;
  __real_pthread_cond_broadcast (&parked_cv);
  pthread_mutex_unlock (&mu);
}

static void
unpark (void)
{
  if (self == NULL)
    return;
  pthread_mutex_lock (&mu);
  self->state = SLOT_RUNNING;
  self->cv = NULL;
  pthread_mutex_unlock (&mu);
}

/* Every thread parked on cv counts as running from now: the one a signal
 * wakes is not known, and a thread counted busy for nothing only makes the
 * loop wait for real. */
static void
wake (const pthread_cond_t *cv)
{
  pthread_mutex_lock (&mu);
  for (int i = 0; i < MAX_THREADS; i++)
    if (slots[i].state == SLOT_PARKED && slots[i].cv == cv)
      {
        slots[i].state = SLOT_RUNNING;
        slots[i].cv = NULL;
      }
  pthread_mutex_unlock (&mu);
}

int
__wrap_pthread_cond_wait (pthread_cond_t *cv, pthread_mutex_t *m)
{
  int r;

  park (cv);
  r = __real_pthread_cond_wait (cv, m);
  unpark ();
  return r;
}

int
__wrap_pthread_cond_timedwait (pthread_cond_t *cv, pthread_mutex_t *m,
                               const struct timespec *abstime)
{
  int r;

  park (cv);
  r = __real_pthread_cond_timedwait (cv, m, abstime);
  unpark ();
  return r;
}

int
__wrap_pthread_cond_signal (pthread_cond_t *cv)
{
  wake (cv);
  return __real_pthread_cond_signal (cv);
}

int
__wrap_pthread_cond_broadcast (pthread_cond_t *cv)
{
  wake (cv);
  return __real_pthread_cond_broadcast (cv);
}

/* ---- for the tests ---------------------------------------------------- */

bool
vclock_virtual (void)
{
  return inited && !real_mode;
}

void
vclock_advance (uint64_t ms)
{
  pthread_mutex_lock (&mu);
  v_at += (int64_t) ms * 1000000LL;
  pthread_mutex_unlock (&mu);
}

unsigned long
vclock_jumps (void)
{
  unsigned long n;
  pthread_mutex_lock (&mu);
  n = jumps;
  pthread_mutex_unlock (&mu);
  return n;
}

uint64_t
vclock_skipped_ms (void)
{
  int64_t s;
  pthread_mutex_lock (&mu);
  s = skipped;
  pthread_mutex_unlock (&mu);
  return (uint64_t) (s / 1000000LL);
}

unsigned long
vclock_polls (void)
{
  unsigned long n;
  pthread_mutex_lock (&mu);
  n = polls;
  pthread_mutex_unlock (&mu);
  return n;
}

unsigned long
vclock_spins (void)
{
  unsigned long n;
  pthread_mutex_lock (&mu);
  n = spins;
  pthread_mutex_unlock (&mu);
  return n;
}

uint64_t
vclock_waited_ms (void)
{
  int64_t w;
  pthread_mutex_lock (&mu);
  w = waited;
  pthread_mutex_unlock (&mu);
  return (uint64_t) (w / 1000000LL);
}

unsigned long
vclock_slices (void)
{
  unsigned long n;
  pthread_mutex_lock (&mu);
  n = slices;
  pthread_mutex_unlock (&mu);
  return n;
}

uint64_t
vclock_real_ms (void)
{
  return (uint64_t) (real_ns () / 1000000LL);
}
