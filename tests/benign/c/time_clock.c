/* time.h and clocks: clock_gettime on every usual clock, sleeps, calendar conversions, strftime. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

static double now(clockid_t id) {
    struct timespec ts;
    CHECK(clock_gettime(id, &ts) == 0);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void) {
    clockid_t ids[] = {CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_BOOTTIME,
                       CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID, CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        struct timespec res;
        CHECK(clock_getres(ids[i], &res) == 0);
        CHECK(now(ids[i]) >= 0);
    }
    /* the wall clock is after 2020 */
    time_t t = time(NULL);
    CHECK(t > 1577836800);
    struct timeval tv; CHECK(gettimeofday(&tv, NULL) == 0 && tv.tv_sec >= t - 1);

    /* sleeps advance the monotonic clock */
    double m0 = now(CLOCK_MONOTONIC);
    struct timespec req = {0, 20 * 1000 * 1000};
    CHECK(nanosleep(&req, NULL) == 0);
    CHECK(usleep(10000) == 0);
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &req, NULL) == 0);
    struct timespec abs; clock_gettime(CLOCK_MONOTONIC, &abs);
    abs.tv_nsec += 10 * 1000 * 1000; if (abs.tv_nsec >= 1000000000) { abs.tv_sec++; abs.tv_nsec -= 1000000000; }
    CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &abs, NULL) == 0);
    double m1 = now(CLOCK_MONOTONIC);
    CHECK(m1 - m0 >= 0.059 && m1 - m0 < 2.0);

    /* CPU time grows with work */
    clock_t c0 = clock();
    double cpu0 = now(CLOCK_PROCESS_CPUTIME_ID);
    volatile double x = 0;
    for (long i = 0; i < 30000000; i++) x += i * 0.5;
    CHECK(clock() > c0 && now(CLOCK_PROCESS_CPUTIME_ID) > cpu0);
    struct tms tm_; CHECK(times(&tm_) != (clock_t)-1);

    /* calendar conversions, in UTC */
    time_t epoch = 1700000000; /* 2023-11-14 22:13:20 UTC */
    struct tm g; CHECK(gmtime_r(&epoch, &g) != NULL);
    CHECK(g.tm_year == 123 && g.tm_mon == 10 && g.tm_mday == 14 && g.tm_hour == 22 && g.tm_min == 13 && g.tm_wday == 2 && g.tm_yday == 317);
    char buf[128];
    CHECK(strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ %a %b %j", &g) > 0);
    CHECK(strcmp(buf, "2023-11-14T22:13:20Z Tue Nov 318") == 0);
    CHECK(timegm(&g) == epoch);
    struct tm parsed; memset(&parsed, 0, sizeof parsed);
    CHECK(strptime("2000-02-29 12:00:00", "%Y-%m-%d %H:%M:%S", &parsed) != NULL);
    CHECK(timegm(&parsed) == 951825600);
    /* localtime with whatever zone the system has, then with TZ=UTC */
    struct tm l; CHECK(localtime_r(&epoch, &l) != NULL);
    setenv("TZ", "UTC", 1); tzset();
    CHECK(localtime_r(&epoch, &l) != NULL && l.tm_hour == 22 && mktime(&l) == epoch);
    /* normalisation: 31 January + 1 month -> 3 March (2023) */
    struct tm n = {.tm_year = 123, .tm_mon = 1, .tm_mday = 31, .tm_hour = 12};
    time_t nt = timegm(&n); struct tm back; gmtime_r(&nt, &back);
    CHECK(back.tm_mon == 2 && back.tm_mday == 3);
    CHECK(difftime(epoch + 90, epoch) == 90.0);
    ctime_r(&epoch, buf);
    CHECK(strcmp(buf, "Tue Nov 14 22:13:20 2023\n") == 0);
    printf("slept %.3f s\n", m1 - m0);
    puts("OK");
    return 0;
}
