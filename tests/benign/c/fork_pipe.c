/* Processes: fork, pipe, dup2, waitpid/waitid/wait4, exit statuses, a child killed by a signal,
 * re-executing this program (execv of /proc/self/exe) and posix_spawn. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

static ssize_t read_all(int fd, char *buf, size_t cap) {
    size_t n = 0; ssize_t r;
    while (n < cap && (r = read(fd, buf + n, cap - n)) != 0) {
        if (r < 0) { if (errno == EINTR) continue; return -1; }
        n += (size_t)r;
    }
    return (ssize_t)n;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--child") == 0) {   /* the re-executed copy */
        printf("child says %s\n", argv[2]);
        return 3;
    }
    fflush(stdout);

    /* 8 workers, each computes a partial sum and writes it to its pipe */
    enum { W = 8 };
    int fds[W][2]; pid_t pids[W];
    for (int w = 0; w < W; w++) {
        CHECK(pipe(fds[w]) == 0);
        pids[w] = fork();
        CHECK(pids[w] >= 0);
        if (pids[w] == 0) {
            close(fds[w][0]);
            long long s = 0;
            for (long long i = w; i < 1000000; i += W) s += i;
            if (write(fds[w][1], &s, sizeof s) != sizeof s) _exit(99);
            _exit(w);
        }
        close(fds[w][1]);
    }
    long long total = 0;
    for (int w = 0; w < W; w++) {
        long long s; CHECK(read_all(fds[w][0], (char *)&s, sizeof s) == sizeof s);
        total += s; close(fds[w][0]);
        int st; CHECK(waitpid(pids[w], &st, 0) == pids[w]);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == w);
    }
    CHECK(total == 1000000LL * 999999 / 2);

    /* a child whose stdout is a pipe (dup2), and a bidirectional exchange */
    int to_child[2], from_child[2];
    CHECK(pipe2(to_child, O_CLOEXEC) == 0 && pipe2(from_child, O_CLOEXEC) == 0);
    pid_t p = fork(); CHECK(p >= 0);
    if (p == 0) {
        dup2(to_child[0], 0); dup2(from_child[1], 1);
        char line[64];
        if (fgets(line, sizeof line, stdin)) { for (char *c = line; *c; c++) if (*c >= 'a' && *c <= 'z') *c -= 32; fputs(line, stdout); }
        fflush(stdout);
        _exit(0);
    }
    close(to_child[0]); close(from_child[1]);
    CHECK(write(to_child[1], "shout this\n", 11) == 11); close(to_child[1]);
    char out[64] = {0}; CHECK(read_all(from_child[0], out, sizeof out - 1) == 11); close(from_child[0]);
    CHECK(strcmp(out, "SHOUT THIS\n") == 0);
    siginfo_t si; memset(&si, 0, sizeof si);
    CHECK(waitid(P_PID, (id_t)p, &si, WEXITED) == 0 && si.si_code == CLD_EXITED && si.si_status == 0);

    /* a child killed by a signal, reaped with wait4 */
    p = fork(); CHECK(p >= 0);
    if (p == 0) { for (;;) pause(); }
    CHECK(kill(p, SIGTERM) == 0);
    int st; struct rusage ru;
    CHECK(wait4(p, &st, 0, &ru) == p && WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM);
    CHECK(waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD);

    /* re-execute this program in a child */
    int pp[2]; CHECK(pipe(pp) == 0);
    p = fork(); CHECK(p >= 0);
    if (p == 0) {
        dup2(pp[1], 1); close(pp[0]); close(pp[1]);
        char *args[] = {argv[0], "--child", "exec", NULL};
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(pp[1]);
    memset(out, 0, sizeof out);
    CHECK(read_all(pp[0], out, sizeof out - 1) > 0); close(pp[0]);
    CHECK(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 3);
    CHECK(strcmp(out, "child says exec\n") == 0);

    /* posix_spawn with file actions */
    CHECK(pipe(pp) == 0);
    posix_spawn_file_actions_t fa; posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, pp[1], 1);
    posix_spawn_file_actions_addclose(&fa, pp[0]);
    char *sargs[] = {argv[0], "--child", "spawn", NULL};
    CHECK(posix_spawn(&p, "/proc/self/exe", &fa, NULL, sargs, environ) == 0);
    posix_spawn_file_actions_destroy(&fa);
    close(pp[1]);
    memset(out, 0, sizeof out);
    CHECK(read_all(pp[0], out, sizeof out - 1) > 0); close(pp[0]);
    CHECK(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 3);
    CHECK(strcmp(out, "child says spawn\n") == 0);
    CHECK(getppid() > 0);
    puts("OK");
    return 0;
}
