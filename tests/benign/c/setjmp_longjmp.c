/* Non-local exits: setjmp/longjmp as error handling, sigsetjmp/siglongjmp out of SIGFPE and SIGSEGV
 * handlers (with an alternate signal stack), recovering from a guarded page. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

static jmp_buf env;
static int depth_reached;

static void parse(int depth) {
    depth_reached = depth;
    if (depth == 50) longjmp(env, 42);
    if (depth < 1000) parse(depth + 1);
}

static int try_parse(void) {
    volatile int attempts = 0;
    int code = setjmp(env);
    attempts++;
    if (code == 0) { parse(0); return -1; }
    return code * 100 + attempts;
}

static sigjmp_buf recover;
static volatile sig_atomic_t caught;
static void on_fault(int sig, siginfo_t *si, void *ctx) {
    (void)si; (void)ctx;
    caught = sig;
    siglongjmp(recover, sig);
}

int main(void) {
    CHECK(try_parse() == 4202 && depth_reached == 50);

    /* an alternate signal stack for the fault handlers */
    stack_t ss; ss.ss_sp = malloc(SIGSTKSZ * 4); ss.ss_size = SIGSTKSZ * 4; ss.ss_flags = 0;
    CHECK(sigaltstack(&ss, NULL) == 0);
    struct sigaction sa; memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault; sa.sa_flags = SA_SIGINFO | SA_ONSTACK; sigemptyset(&sa.sa_mask);
    CHECK(sigaction(SIGFPE, &sa, NULL) == 0 && sigaction(SIGSEGV, &sa, NULL) == 0);

    /* integer division by zero */
    volatile int zero = 0, r = 0;
    if (sigsetjmp(recover, 1) == 0) { r = 10 / zero; CHECK(!"division did not trap"); }
    CHECK(caught == SIGFPE && r == 0);

    /* writing to a read-only page, then making it writable */
    long pg = sysconf(_SC_PAGESIZE);
    char *page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(page != MAP_FAILED);
    caught = 0;
    if (sigsetjmp(recover, 1) == 0) { *(volatile char *)page = 1; CHECK(!"write did not fault"); }
    CHECK(caught == SIGSEGV);
    CHECK(mprotect(page, pg, PROT_READ | PROT_WRITE) == 0);
    caught = 0;
    if (sigsetjmp(recover, 1) == 0) { *(volatile char *)page = 1; }
    CHECK(caught == 0 && page[0] == 1);
    munmap(page, pg);

    /* the signal mask was restored by siglongjmp: SIGFPE can be caught again */
    caught = 0;
    if (sigsetjmp(recover, 1) == 0) { r = 1 % zero; }
    CHECK(caught == SIGFPE);
    sigset_t cur; sigprocmask(SIG_SETMASK, NULL, &cur);
    CHECK(!sigismember(&cur, SIGFPE) && !sigismember(&cur, SIGSEGV));
    puts("OK");
    return 0;
}
