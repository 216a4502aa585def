/* store/replay.c: a recorded day through the pool model, deterministic.
 *
 * The model is the daemon's own pool policy (pool/pool.c), per language:
 *   - a pool holds `ready` never-started containers; an arrival takes one
 *     (a hit) or waits for the next one made (a miss);
 *   - the target is clamp(ceil(rate x create time x 2), min, max), where
 *     rate is the arrivals per second smoothed every second (10 s horizon)
 *     and create time the creates' smoothed duration;
 *   - the pool creates while its deficit (waiters not covered by creates
 *     in flight, or target - ready - creating) is positive, at most
 *     create_concurrency at once;
 *   - a container made when nobody waits and the pool already holds
 *     max_ready is removed.
 * Create durations are the recorded ones, taken in turn.  Not modelled:
 * the global cap, backoff after failed creates, top-ups yielding to starts
 * (rare, or short, on a healthy engine). */
#define _GNU_SOURCE
#include "warmbox/pool.h"
#include "warmbox/store.h"

#include <math.h>
#include <string.h>

#define RATE_TAU_S 10.0
#define TICK_S 1.0
#define MAX_CREATING 256

int
store_replay (const double *arrivals, size_t n, const double *create_ms, size_t n_create,
              const store_replay_sizes_t *sizes, store_replay_result_t *out)
{
  static const double default_create_ms = 500.0;
  uint32_t conc = sizes->create_concurrency ? sizes->create_concurrency : 2;
  uint32_t max_ready = sizes->max_ready < sizes->min_ready ? sizes->min_ready : sizes->max_ready;
  double done_at[MAX_CREATING], dur_ms[MAX_CREATING];
  uint32_t creating = 0, ready = sizes->min_ready, tick_count = 0;
  double rate = 0, smooth_create_ms = n_create ? create_ms[0] : default_create_ms;
  double alpha = 1.0 - exp (-TICK_S / RATE_TAU_S);
  double now, prev, next_tick, idle_area = 0, wait_sum = 0;
  size_t next_create = 0, i = 0, w_head = 0, w_tail = 0;
  double *waiting; /* arrival times of the misses still waiting, FIFO */
  uint64_t hits = 0, served_misses = 0;

  memset (out, 0, sizeof *out);
  if (conc > MAX_CREATING)
    conc = MAX_CREATING;
  if (n == 0)
    return 0;
  waiting = malloc (n * sizeof *waiting);
  if (waiting == NULL)
    return -1;
  now = prev = arrivals[0];
  next_tick = now + TICK_S;
  for (;;)
    {
      /* The next event: an arrival, a create done, or the tick. */
      double t_arr = i < n ? arrivals[i] : INFINITY;
      double t_done = INFINITY;
      uint32_t k_done = 0;
      for (uint32_t k = 0; k < creating; k++)
        if (done_at[k] < t_done)
          t_done = done_at[k], k_done = k;
      if (i >= n && w_head == w_tail)
        break; /* every arrival seen, every miss served */
      if (i >= n && t_done == INFINITY)
        break; /* misses nobody will serve (max 0): they stay misses */
      now = fmin (t_arr, fmin (t_done, next_tick));
      idle_area += (double) ready * (now - prev);
      prev = now;
      if (now == next_tick)
        {
          rate += alpha * ((double) tick_count / TICK_S - rate);
          tick_count = 0;
          next_tick += TICK_S;
        }
      else if (now == t_done)
        {
          smooth_create_ms = 0.8 * smooth_create_ms + 0.2 * dur_ms[k_done];
          creating--;
          done_at[k_done] = done_at[creating];
          dur_ms[k_done] = dur_ms[creating];
          if (w_head < w_tail)
            {
              wait_sum += now - waiting[w_head++];
              served_misses++;
            }
          else if (ready < max_ready)
            ready++;
        }
      else
        {
          tick_count++;
          i++;
          if (ready > 0)
            {
              ready--;
              hits++;
            }
          else
            waiting[w_tail++] = now;
        }
      /* fill () */
      for (;;)
        {
          uint32_t t = pool_target (rate, smooth_create_ms, sizes->min_ready,
                                    max_ready); /* the pool's own rule */
          uint32_t waiters = (uint32_t) (w_tail - w_head);
          uint32_t need_w = waiters > creating ? waiters - creating : 0;
          uint32_t have = ready + creating;
          uint32_t need_t = t > have ? t - have : 0;
          double d;
          if (creating >= conc || (need_w == 0 && need_t == 0))
            break;
          d = n_create ? create_ms[next_create++ % n_create] : default_create_ms;
          dur_ms[creating] = d;
          done_at[creating++] = now + d / 1000.0;
        }
    }
  out->arrivals = n;
  out->hits = hits;
  out->hit_rate = (double) hits / (double) n;
  out->idle_mean = now > arrivals[0] ? idle_area / (now - arrivals[0]) : ready;
  out->miss_wait_ms = served_misses ? wait_sum / (double) served_misses * 1000.0 : 0;
  free (waiting);
  return 0;
}
