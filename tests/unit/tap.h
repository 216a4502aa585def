/* tests/unit/tap.h: the smallest TAP producer that serves.  A test file
 * calls ok()/is_int()/is_str() and ends with `return tap_done ();`, which
 * prints the plan and exits non-zero when anything failed. */
#ifndef WARMBOX_TAP_H
#define WARMBOX_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

__attribute__ ((format (printf, 2, 3))) static int
ok (int cond, const char *fmt, ...)
{
  va_list ap;
  printf ("%sok %d - ", cond ? "" : "not ", ++tap_n);
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  printf ("\n");
  if (!cond)
    tap_failed++;
  fflush (stdout);
  return cond;
}

#define is_int(got, want, ...)                                                                     \
  do                                                                                               \
    {                                                                                              \
      long long g_ = (long long) (got), w_ = (long long) (want);                                   \
      if (!ok (g_ == w_, __VA_ARGS__))                                                             \
        printf ("#   got %lld, want %lld\n", g_, w_);                                              \
    }                                                                                              \
  while (0)

#define is_str(got, want, ...)                                                                     \
  do                                                                                               \
    {                                                                                              \
      const char *g_ = (got), *w_ = (want);                                                        \
      if (!ok (g_ && w_ && strcmp (g_, w_) == 0, __VA_ARGS__))                                     \
        printf ("#   got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)", w_);                          \
    }                                                                                              \
  while (0)

/* A set-up step of the test's own (building an input, say) that returns
 * < 0 on failure: a failure is a failed test, never ignored. */
#define must(expr)                                                                                 \
  do                                                                                               \
    {                                                                                              \
      if ((expr) < 0)                                                                              \
        ok (0, "set-up step failed: %s", #expr);                                                   \
    }                                                                                              \
  while (0)

static inline int
tap_done (void)
{
  printf ("1..%d\n", tap_n);
  return tap_failed ? 1 : 0;
}

#endif
