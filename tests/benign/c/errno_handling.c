/* errno: failing calls report the right error, strerror/perror, strtol range errors, EINTR, EBADF. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define EXPECT_ERR(call, want) do { errno = 0; long r_ = (long)(call); \
    if (r_ != -1 || errno != (want)) { fprintf(stderr, "%s: got %ld errno %d (%s), want %s\n", #call, r_, errno, strerror(errno), #want); exit(1); } } while (0)
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

static void on_alarm(int s) { (void)s; }

int main(void) {
    EXPECT_ERR(open("no/such/file", O_RDONLY), ENOENT);
    EXPECT_ERR(close(-1), EBADF);
    EXPECT_ERR(read(12345, NULL, 0), EBADF);
    EXPECT_ERR(mkdir(".", 0755), EEXIST);
    EXPECT_ERR(rmdir("no_such_dir"), ENOENT);
    EXPECT_ERR(open(".", O_WRONLY), EISDIR);
    int fd = open("plain", O_WRONLY | O_CREAT, 0644); CHECK(fd >= 0); close(fd);
    EXPECT_ERR(open("plain/child", O_RDONLY), ENOTDIR);
    EXPECT_ERR(open("plain", O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST);
    EXPECT_ERR(lseek(0 + 1000, 0, SEEK_SET), EBADF);
    int p[2]; CHECK(pipe(p) == 0);
    EXPECT_ERR(lseek(p[0], 0, SEEK_SET), ESPIPE);
    close(p[0]); close(p[1]);
    EXPECT_ERR(unlink("no_such_file"), ENOENT);
    EXPECT_ERR(chdir("plain"), ENOTDIR);
    CHECK(unlink("plain") == 0);

    /* NULL stdio results with errno */
    errno = 0;
    CHECK(fopen("missing.txt", "r") == NULL && errno == ENOENT);
    CHECK(strcmp(strerror(ENOENT), "No such file or directory") == 0);
    CHECK(strcmp(strerror(EACCES), "Permission denied") == 0);
    char eb[128]; CHECK(strerror_r(EINVAL, eb, sizeof eb) != NULL);
    errno = ENOENT; perror("perror goes to stderr");
    CHECK(strcmp(strerrorname_np(EAGAIN), "EAGAIN") == 0);

    /* conversions */
    errno = 0; long l = strtol("99999999999999999999999", NULL, 10);
    CHECK(l == LONG_MAX && errno == ERANGE);
    errno = 0; double d = strtod("1e999", NULL); CHECK(isinf(d) && errno == ERANGE);
    errno = 0; CHECK(strtol("123", NULL, 10) == 123 && errno == 0);
    errno = 0; double s = sqrt(-1.0); CHECK(isnan(s));
    errno = 0; double lg = log(0.0); CHECK(isinf(lg) && errno == ERANGE);

    /* a blocking read interrupted by a signal without SA_RESTART */
    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_handler = on_alarm; sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    CHECK(pipe(p) == 0);
    struct itimerval it = {{0, 0}, {0, 20000}};
    setitimer(ITIMER_REAL, &it, NULL);
    char c; EXPECT_ERR(read(p[0], &c, 1), EINTR);
    close(p[0]); close(p[1]);

    EXPECT_ERR(kill(999999, 0), ESRCH);
    EXPECT_ERR(sysconf(-12345), EINVAL);
    puts("OK");
    return 0;
}
