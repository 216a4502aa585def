/* Hostile: a fork bomb. Every process forks forever; the first time any of them sees fork fail
 * with EAGAIN (the process limit), "fork EAGAIN" is written once (a flag in shared memory makes it
 * once for the whole bomb), and everybody keeps trying. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void) {
    volatile int *said = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    static int dummy[2];
    if (said == MAP_FAILED) said = dummy;   /* fall back to once per process */
    for (;;) {
        pid_t p = fork();
        if (p < 0) {
            if (errno == EAGAIN) {
                if (!__atomic_exchange_n(&said[0], 1, __ATOMIC_SEQ_CST)) { ssize_t r = write(1, "fork EAGAIN\n", 12); (void)r; }
            } else if (!__atomic_exchange_n(&said[1], 1, __ATOMIC_SEQ_CST)) {
                const char *name = strerrorname_np(errno);
                ssize_t r = write(1, "fork other ", 11); r = write(1, name ? name : "?", strlen(name ? name : "?")); r = write(1, "\n", 1); (void)r;
            }
        }
    }
}
