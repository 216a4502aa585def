/* Process and system information: ids, getrusage, getrlimit, uname, hostname, sysconf, CPU affinity,
 * sysinfo, priority, umask, /proc/self/status. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

int main(void) {
    pid_t pid = getpid();
    CHECK(pid > 0 && getppid() >= 0 && gettid() == pid);
    CHECK(getuid() == geteuid() && getgid() == getegid());
    uid_t ru, eu, su; CHECK(getresuid(&ru, &eu, &su) == 0 && ru == getuid());
    gid_t groups[64]; CHECK(getgroups(64, groups) >= 0);
    CHECK(getpgrp() > 0 && getsid(0) > 0);

    struct utsname u; CHECK(uname(&u) == 0);
    CHECK(strcmp(u.sysname, "Linux") == 0 && u.release[0] && strcmp(u.machine, "x86_64") == 0);
    char host[256]; CHECK(gethostname(host, sizeof host) == 0 && host[0]);

    long ncpu = sysconf(_SC_NPROCESSORS_ONLN), pg = sysconf(_SC_PAGESIZE), tck = sysconf(_SC_CLK_TCK);
    CHECK(ncpu >= 1 && pg == 4096 && tck == 100 && get_nprocs() >= 1);
    CHECK(sysconf(_SC_OPEN_MAX) >= 64 && sysconf(_SC_PHYS_PAGES) > 0);
    cpu_set_t set; CHECK(sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) >= 1);
    CHECK(sched_getcpu() >= 0);

    struct rlimit rl;
    CHECK(getrlimit(RLIMIT_NOFILE, &rl) == 0 && (long)rl.rlim_cur == sysconf(_SC_OPEN_MAX));
    CHECK(getrlimit(RLIMIT_STACK, &rl) == 0 && getrlimit(RLIMIT_NPROC, &rl) == 0 && getrlimit(RLIMIT_AS, &rl) == 0);
    CHECK(getrlimit(RLIMIT_CORE, &rl) == 0);
    rl.rlim_cur = 0; CHECK(setrlimit(RLIMIT_CORE, &rl) == 0);      /* lowering a soft limit is allowed */

    /* some CPU and memory work shows up in getrusage */
    size_t n = 8u << 20; char *mem = malloc(n); memset(mem, 1, n);
    volatile double x = 0; for (long i = 0; i < 20000000; i++) x += (double)i;
    struct rusage us; CHECK(getrusage(RUSAGE_SELF, &us) == 0);
    CHECK(us.ru_utime.tv_sec * 1000000 + us.ru_utime.tv_usec > 0 && us.ru_maxrss >= 8192);
    CHECK(getrusage(RUSAGE_CHILDREN, &us) == 0 && getrusage(RUSAGE_THREAD, &us) == 0);
    free(mem);

    struct sysinfo si; CHECK(sysinfo(&si) == 0 && si.totalram > 0 && si.procs > 0);
    errno = 0; int prio = getpriority(PRIO_PROCESS, 0); CHECK(errno == 0);
    CHECK(setpriority(PRIO_PROCESS, 0, prio + 1) == 0 && getpriority(PRIO_PROCESS, 0) == prio + 1);
    mode_t old = umask(077); CHECK(umask(old) == 077);

    FILE *f = fopen("/proc/self/status", "r"); CHECK(f != NULL);
    char line[256]; long spid = -1;
    while (fgets(line, sizeof line, f)) if (strncmp(line, "Pid:", 4) == 0) spid = strtol(line + 4, NULL, 10);
    fclose(f);
    CHECK(spid == pid);
    printf("%s %s %s, %ld cpus, uid %d\n", u.sysname, u.release, u.machine, ncpu, (int)getuid());
    puts("OK");
    return 0;
}
