/* Hostile: ask to be traced. Prints "ptrace EPERM" when refused with EPERM, "ptrace OK" when it
 * succeeds, else "ptrace <errno name>". */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>

int main(void) {
    long r = ptrace(PTRACE_TRACEME, 0, 0, 0);
    if (r == 0) puts("ptrace OK");
    else if (errno == EPERM) puts("ptrace EPERM");
    else { const char *name = strerrorname_np(errno); printf("ptrace %s\n", name ? name : strerror(errno)); }
    return 0;
}
