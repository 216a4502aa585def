/* Signals: sigaction (with SA_SIGINFO), raise, kill to self, alarm, setitimer, POSIX timers,
 * SIGCHLD from a child, blocking and sigsuspend, sigtimedwait, signalfd, an ignored SIGPIPE. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

static volatile sig_atomic_t usr1, usr1_code, alarms, chld, timer_ticks, itimer_ticks;
static volatile pid_t usr1_pid;

static void on_usr1(int sig, siginfo_t *si, void *ctx) { (void)sig; (void)ctx; usr1++; usr1_code = si->si_code; usr1_pid = si->si_pid; }
static void on_alarm(int sig) { (void)sig; alarms++; }
static void on_chld(int sig) { (void)sig; int saved = errno; while (waitpid(-1, NULL, WNOHANG) > 0) chld++; errno = saved; }
static void on_timer(int sig, siginfo_t *si, void *ctx) { (void)sig; (void)ctx; if (si->si_value.sival_int == 77) timer_ticks++; }
static void on_vtalrm(int sig) { (void)sig; itimer_ticks++; }

int main(void) {
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr1; sa.sa_flags = SA_SIGINFO | SA_RESTART; sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
    CHECK(raise(SIGUSR1) == 0 && usr1 == 1 && usr1_code == SI_TKILL);
    CHECK(kill(getpid(), SIGUSR1) == 0 && usr1 == 2 && usr1_code == SI_USER && usr1_pid == getpid());
    union sigval sv = {.sival_int = 5};
    CHECK(sigqueue(getpid(), SIGUSR1, sv) == 0 && usr1 == 3 && usr1_code == SI_QUEUE);
    struct sigaction old; CHECK(sigaction(SIGUSR1, NULL, &old) == 0 && old.sa_sigaction == on_usr1);

    /* alarm, waited for with sigsuspend while SIGALRM is blocked */
    signal(SIGALRM, on_alarm);
    sigset_t block, prev; sigemptyset(&block); sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &prev);
    alarm(1);
    CHECK(alarm(1) == 1); /* re-arm; returns the seconds that were left */
    while (!alarms) sigsuspend(&prev);
    sigprocmask(SIG_SETMASK, &prev, NULL);
    CHECK(alarms == 1);

    /* a pending blocked signal, then sigtimedwait */
    sigset_t u2; sigemptyset(&u2); sigaddset(&u2, SIGUSR2);
    sigprocmask(SIG_BLOCK, &u2, NULL);
    raise(SIGUSR2);
    sigset_t pend; sigpending(&pend); CHECK(sigismember(&pend, SIGUSR2));
    struct timespec to = {1, 0}; siginfo_t si;
    CHECK(sigtimedwait(&u2, &si, &to) == SIGUSR2);
    to.tv_sec = 0; to.tv_nsec = 10000000;
    CHECK(sigtimedwait(&u2, &si, &to) == -1 && errno == EAGAIN);

    /* signalfd */
    int sfd = signalfd(-1, &u2, SFD_CLOEXEC); CHECK(sfd >= 0);
    kill(getpid(), SIGUSR2);
    struct signalfd_siginfo ssi; CHECK(read(sfd, &ssi, sizeof ssi) == sizeof ssi && ssi.ssi_signo == SIGUSR2);
    close(sfd);
    sigprocmask(SIG_UNBLOCK, &u2, NULL);

    /* SIGCHLD from exiting children */
    struct sigaction sc; memset(&sc, 0, sizeof sc);
    sc.sa_handler = on_chld; sc.sa_flags = SA_RESTART | SA_NOCLDSTOP; sigemptyset(&sc.sa_mask);
    CHECK(sigaction(SIGCHLD, &sc, NULL) == 0);
    fflush(stdout);
    for (int i = 0; i < 3; i++) { pid_t p = fork(); CHECK(p >= 0); if (p == 0) _exit(0); }
    for (int i = 0; i < 200 && chld < 3; i++) usleep(5000);
    CHECK(chld == 3);
    signal(SIGCHLD, SIG_DFL);

    /* a POSIX timer delivering a queued signal */
    struct sigaction st; memset(&st, 0, sizeof st);
    st.sa_sigaction = on_timer; st.sa_flags = SA_SIGINFO; sigemptyset(&st.sa_mask);
    sigaction(SIGRTMIN, &st, NULL);
    struct sigevent sev; memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL; sev.sigev_signo = SIGRTMIN; sev.sigev_value.sival_int = 77;
    timer_t tid; CHECK(timer_create(CLOCK_MONOTONIC, &sev, &tid) == 0);
    struct itimerspec its = {{0, 10000000}, {0, 10000000}};
    CHECK(timer_settime(tid, 0, &its, NULL) == 0);
    while (timer_ticks < 3) pause();
    timer_delete(tid);

    /* setitimer on CPU time */
    signal(SIGVTALRM, on_vtalrm);
    struct itimerval itv = {{0, 5000}, {0, 5000}};
    CHECK(setitimer(ITIMER_VIRTUAL, &itv, NULL) == 0);
    volatile unsigned long spin = 0;
    while (itimer_ticks < 2) spin++;
    memset(&itv, 0, sizeof itv); setitimer(ITIMER_VIRTUAL, &itv, NULL);

    /* SIGPIPE ignored: writing to a pipe without a reader gives EPIPE */
    signal(SIGPIPE, SIG_IGN);
    int pp[2]; CHECK(pipe(pp) == 0); close(pp[0]);
    CHECK(write(pp[1], "x", 1) == -1 && errno == EPIPE);
    close(pp[1]);
    printf("%s %s\n", strsignal(SIGUSR1), strsignal(SIGKILL));
    puts("OK");
    return 0;
}
