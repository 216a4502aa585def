/* Waiting on descriptors: poll, ppoll, select, pselect, epoll, eventfd, timerfd, non-blocking pipes,
 * a writer thread and a writer process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

static int wpipe;
static void *late_writer(void *arg) {
    (void)arg;
    usleep(30000);
    if (write(wpipe, "late", 4) != 4) abort();
    return NULL;
}

int main(void) {
    int p[2]; CHECK(pipe2(p, O_NONBLOCK | O_CLOEXEC) == 0);
    char buf[64];
    CHECK(read(p[0], buf, sizeof buf) == -1 && errno == EAGAIN);

    /* poll: timeout with nothing, then readable */
    struct pollfd pfd = {.fd = p[0], .events = POLLIN};
    CHECK(poll(&pfd, 1, 20) == 0);
    CHECK(write(p[1], "abc", 3) == 3);
    CHECK(poll(&pfd, 1, 1000) == 1 && (pfd.revents & POLLIN));
    CHECK(read(p[0], buf, sizeof buf) == 3);
    struct pollfd wfd = {.fd = p[1], .events = POLLOUT};
    CHECK(poll(&wfd, 1, 0) == 1 && (wfd.revents & POLLOUT));

    /* a thread writes later; poll blocks until then */
    wpipe = p[1];
    pthread_t th; pthread_create(&th, NULL, late_writer, NULL);
    pfd.revents = 0;
    CHECK(poll(&pfd, 1, 5000) == 1);
    CHECK(read(p[0], buf, sizeof buf) == 4 && memcmp(buf, "late", 4) == 0);
    pthread_join(th, NULL);

    /* ppoll with a signal mask */
    struct timespec ts = {0, 10000000}; sigset_t mask; sigemptyset(&mask);
    CHECK(ppoll(&pfd, 1, &ts, &mask) == 0);

    /* select and pselect */
    fd_set rd; FD_ZERO(&rd); FD_SET(p[0], &rd);
    struct timeval tv = {0, 10000};
    CHECK(select(p[0] + 1, &rd, NULL, NULL, &tv) == 0 && !FD_ISSET(p[0], &rd));
    CHECK(write(p[1], "x", 1) == 1);
    FD_ZERO(&rd); FD_SET(p[0], &rd); tv.tv_sec = 1; tv.tv_usec = 0;
    CHECK(select(p[0] + 1, &rd, NULL, NULL, &tv) == 1 && FD_ISSET(p[0], &rd));
    CHECK(read(p[0], buf, 1) == 1);
    FD_ZERO(&rd); FD_SET(p[0], &rd); ts.tv_nsec = 5000000;
    CHECK(pselect(p[0] + 1, &rd, NULL, NULL, &ts, &mask) == 0);

    /* a pipe's write end closing: POLLHUP / EOF, from a child process */
    int cp[2]; CHECK(pipe(cp) == 0);
    fflush(stdout);
    pid_t pid = fork(); CHECK(pid >= 0);
    if (pid == 0) { close(cp[0]); for (int i = 0; i < 5; i++) { if (write(cp[1], "chunk", 5) != 5) _exit(1); usleep(2000); } _exit(0); }
    close(cp[1]);
    int total = 0, hup = 0;
    struct pollfd cpf = {.fd = cp[0], .events = POLLIN};
    while (!hup) {
        CHECK(poll(&cpf, 1, 5000) == 1);
        if (cpf.revents & POLLIN) { ssize_t r = read(cp[0], buf, sizeof buf); CHECK(r >= 0); if (r == 0) hup = 1; total += (int)r; }
        else if (cpf.revents & POLLHUP) hup = 1;
    }
    CHECK(total == 25);
    close(cp[0]); waitpid(pid, NULL, 0);

    /* epoll over a pipe, an eventfd and a timerfd */
    int ep = epoll_create1(EPOLL_CLOEXEC); CHECK(ep >= 0);
    int efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); CHECK(efd >= 0);
    int tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); CHECK(tfd >= 0);
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.fd = p[0]; CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0);
    ev.data.fd = efd; CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, efd, &ev) == 0);
    ev.data.fd = tfd; CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, tfd, &ev) == 0);
    struct itimerspec its = {{0, 0}, {0, 20000000}};
    CHECK(timerfd_settime(tfd, 0, &its, NULL) == 0);
    uint64_t one = 3; CHECK(write(efd, &one, 8) == 8);
    CHECK(write(p[1], "e", 1) == 1);
    int seen_pipe = 0, seen_event = 0, seen_timer = 0;
    while (!(seen_pipe && seen_event && seen_timer)) {
        struct epoll_event evs[4];
        int n = epoll_wait(ep, evs, 4, 2000); CHECK(n > 0);
        for (int i = 0; i < n; i++) {
            uint64_t v;
            if (evs[i].data.fd == p[0]) { CHECK(read(p[0], buf, sizeof buf) == 1); seen_pipe = 1; }
            else if (evs[i].data.fd == efd) { CHECK(read(efd, &v, 8) == 8 && v == 3); seen_event = 1; }
            else if (evs[i].data.fd == tfd) { CHECK(read(tfd, &v, 8) == 8 && v == 1); seen_timer = 1; }
        }
    }
    struct epoll_event evs[4];
    CHECK(epoll_wait(ep, evs, 4, 10) == 0);
    CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL) == 0);
    close(ep); close(efd); close(tfd); close(p[0]); close(p[1]);
    puts("OK");
    return 0;
}
