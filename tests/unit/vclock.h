/* tests/unit/vclock.h: a virtual clock for the unit tests.
 *
 * tests/unit/vclock.c is linked into the unit test programs (both test
 * rules of the Makefile).  It gives the program, and libevent inside it, a monotonic
 * clock that stands still while the program computes and jumps forward
 * when the loop would sleep:
 *   - clock_gettime on CLOCK_MONOTONIC (and _COARSE, _RAW, CLOCK_BOOTTIME)
 *     reads the virtual clock.  The program's own calls (wb_now_us, through
 *     common/wb.c) bind to it when the program is linked; libevent's calls
 *     bind to it at run time (the program's definition comes first in the
 *     dynamic linker's search).  CLOCK_REALTIME, gettimeofday and time()
 *     stay real: calendar stamps in the history are not virtual.
 *   - epoll_wait (libevent's backend) polls the real descriptors without
 *     waiting; when none is ready and the call would wait T ms, the clock
 *     jumps T ms ahead and the call returns 0 at once: the next timer is
 *     due.  A timer of 10 s in a test costs nothing.
 *   - Real work in other threads (the history's SQLite writer) is never
 *     overtaken: before each loop pass, and before any jump, the loop
 *     waits for real until every thread the program started is parked on
 *     a condition variable that nobody has signalled; the clock stands
 *     still meanwhile (a commit takes no virtual time), and what the thread
 *     wrote to a descriptor for the loop (the store's pipe) is there at the
 *     pass.  A thread busy past a grace of 200 ms (a writer retrying a
 *     locked file) is not waited for any more, and while the loop then
 *     waits for it the clock runs with the real one.  Threads are followed
 *     through the link's --wrap of pthread_create, pthread_cond_wait,
 *     pthread_cond_timedwait, pthread_cond_signal and
 *     pthread_cond_broadcast (our objects' calls only: a thread a library
 *     starts on its own is not seen).
 *   - pthread_join lets the clock run with the real one while it blocks
 *     (store_close's deadline for a writer that cannot write).
 *   - A loop that spins at one instant (a million passes that never wait:
 *     something re-arms itself at once, and only real time ended it
 *     before) gets 1 us of virtual time a pass from then on, so it still
 *     reaches its deadlines, and vclock_spins() counts it.
 * With the program computing in zero virtual time, a run is the same run
 * however loaded the machine is: timers fire in the same order, the fault
 * loops inject the same faults (as long as no thread outlasts the grace).
 *
 * WB_REAL_CLOCK=1 in the environment turns it all off (the real clock, real
 * sleeps), to compare or to debug.
 *
 * Assumes one thread runs event loops (the test's main thread). */
#ifndef WARMBOX_VCLOCK_H
#define WARMBOX_VCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* False when WB_REAL_CLOCK=1: the real clock, timers sleep. */
bool vclock_virtual (void);
/* Moves the virtual clock ms forward now, as if that much time had passed
 * (nothing with WB_REAL_CLOCK=1). */
void vclock_advance (uint64_t ms);
/* How often, and by how much in all, the clock jumped instead of sleeping;
 * how many times epoll_wait was called through it. */
unsigned long vclock_jumps (void);
uint64_t vclock_skipped_ms (void);
unsigned long vclock_polls (void);
/* Loop passes that found the loop spinning: a million passes or more at
 * one instant, never waiting (something re-arms itself at once and only
 * real time ended it before).  Each such pass moves the clock 1 us, so the
 * program still reaches its deadlines; a test expects none. */
unsigned long vclock_spins (void);
/* Real time the loop waited for a busy thread (in slices of 1 ms at most)
 * instead of jumping, and how many such waits. */
uint64_t vclock_waited_ms (void);
unsigned long vclock_slices (void);
/* Real (wall) milliseconds on CLOCK_MONOTONIC, for reports only: a test
 * never asserts on them. */
uint64_t vclock_real_ms (void);

#endif
