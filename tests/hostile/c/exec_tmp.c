/* Hostile: copy this program into the working directory (/tmp, mounted noexec) as "x" and execute
 * the copy. Prints "exec EACCES" when execve fails with EACCES, "exec <errno name>" for another
 * error, or "EXECUTED" (from the copy) when it runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *errname(int e) { const char *n = strerrorname_np(e); return n ? n : strerror(e); }

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--copied") == 0) { puts("EXECUTED"); return 0; }
    char dir[4096], path[4200];
    if (!getcwd(dir, sizeof dir)) { printf("getcwd %s\n", errname(errno)); return 1; }
    snprintf(path, sizeof path, "%s/x", dir);
    int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (in < 0) { printf("open /proc/self/exe %s\n", errname(errno)); return 1; }
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (out < 0) { printf("create %s %s\n", path, errname(errno)); return 1; }
    char buf[65536]; ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        if (write(out, buf, (size_t)n) != n) { printf("copy %s\n", errname(errno)); return 1; }
    close(in); close(out);
    chmod(path, 0755);
    char *args[] = {path, "--copied", NULL};
    char *envp[] = {"PATH=/usr/bin:/bin", NULL};
    fflush(stdout);
    execve(path, args, envp);
    printf("exec %s\n", errname(errno));
    return 0;
}
