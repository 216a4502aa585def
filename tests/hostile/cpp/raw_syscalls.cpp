// Hostile: privileged or dangerous system calls through syscall(2). For each, prints
// "<name> EPERM" when refused with EPERM, "<name> <strerror>" for another error, or
// "<name> SUCCEEDED". Arguments are chosen to be harmless if a call did get through
// (reboot gets invalid magic numbers; mount is not attempted as root, to spare a host /tmp).
#include <cerrno>
#include <cstring>
#include <iostream>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char *name, long r) {
    int e = errno;
    if (r != -1) std::cout << name << " SUCCEEDED" << std::endl;
    else if (e == EPERM) std::cout << name << " EPERM" << std::endl;
    else std::cout << name << ' ' << std::strerror(e) << std::endl;
}

int main() {
    static unsigned char zeros[512] = {};
    report("keyctl", syscall(250, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, nullptr, 0, 0, 0));
    report("bpf", syscall(321, 0 /* BPF_MAP_CREATE */, zeros, 72));
    report("unshare", syscall(272, CLONE_NEWUSER));
    if (geteuid() == 0) std::cout << "mount skipped (running as root)" << std::endl;
    else report("mount", syscall(165, "none", "/tmp", "tmpfs", 0, nullptr));
    unsigned char perf_attr[128] = {};
    perf_attr[0] = 1;                         // type = PERF_TYPE_SOFTWARE, config 0 = CPU clock
    perf_attr[4] = 128;                       // size
    report("perf_event_open", syscall(298, perf_attr, 0, -1, -1, 0));
    report("io_uring_setup", syscall(425, 1, zeros));
    report("reboot", syscall(169, 0, 0, 0, nullptr));   // bad magic: EINVAL even if it were allowed
    return 0;
}
