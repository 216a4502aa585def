/* Hostile: privileged or dangerous system calls through syscall(2). For each, prints
 * "<name> EPERM" when refused with EPERM, "<name> <strerror>" for another error, or
 * "<name> SUCCEEDED". Arguments are chosen to be harmless if a call did get through
 * (reboot gets invalid magic numbers; mount is not attempted as root, to spare a host /tmp). */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char *name, long r) {
    if (r != -1) printf("%s SUCCEEDED\n", name);
    else if (errno == EPERM) printf("%s EPERM\n", name);
    else printf("%s %s\n", name, strerror(errno));
    fflush(stdout);
}

int main(void) {
    static unsigned char zeros[512];          /* zeroed attribute/parameter blocks */

    report("keyctl", syscall(250, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL, 0, 0, 0));
    report("bpf", syscall(321, 0 /* BPF_MAP_CREATE */, zeros, 72));
    report("unshare", syscall(272, CLONE_NEWUSER));
    if (geteuid() == 0) printf("mount skipped (running as root)\n");
    else report("mount", syscall(165, "none", "/tmp", "tmpfs", 0, NULL));
    unsigned char perf_attr[128] = {0};
    perf_attr[0] = 1;                          /* type = PERF_TYPE_SOFTWARE, config 0 = CPU clock */
    perf_attr[4] = 128;                        /* size */
    report("perf_event_open", syscall(298, perf_attr, 0, -1, -1, 0));
    report("io_uring_setup", syscall(425, 1, zeros));
    report("reboot", syscall(169, 0, 0, 0, NULL));  /* bad magic: EINVAL even if it were allowed */
    return 0;
}
