/* Memory mappings: a file mapped shared and written through, msync, a private read-only mapping,
 * anonymous memory shared with a child, mremap, madvise, mprotect, memfd_create. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

int main(void) {
    const size_t size = 8u << 20;
    int fd = open("mapped.bin", O_RDWR | O_CREAT | O_TRUNC, 0644); CHECK(fd >= 0);
    CHECK(ftruncate(fd, (off_t)size) == 0);
    uint32_t *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0); CHECK(m != MAP_FAILED);
    for (size_t i = 0; i < size / 4; i++) m[i] = (uint32_t)(i * 2654435761u);
    CHECK(msync(m, size, MS_SYNC) == 0);
    CHECK(munmap(m, size) == 0);

    /* read it back with read() at an offset */
    uint32_t v;
    CHECK(pread(fd, &v, 4, 4 * 123456) == 4 && v == (uint32_t)(123456u * 2654435761u));
    close(fd);

    /* a private read-only mapping of the file, with an offset */
    fd = open("mapped.bin", O_RDONLY); CHECK(fd >= 0);
    struct stat st; CHECK(fstat(fd, &st) == 0 && (size_t)st.st_size == size);
    long pg = sysconf(_SC_PAGESIZE);
    const uint32_t *r = mmap(NULL, (size_t)pg * 4, PROT_READ, MAP_PRIVATE, fd, pg * 16); CHECK(r != MAP_FAILED);
    size_t base = (size_t)pg * 16 / 4;
    for (size_t i = 0; i < (size_t)pg; i++) CHECK(r[i] == (uint32_t)((base + i) * 2654435761u));
    CHECK(madvise((void *)r, (size_t)pg * 4, MADV_SEQUENTIAL) == 0);
    munmap((void *)r, (size_t)pg * 4);
    close(fd);

    /* a private writable mapping does not change the file */
    fd = open("mapped.bin", O_RDWR); CHECK(fd >= 0);
    uint32_t *pv = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0); CHECK(pv != MAP_FAILED);
    pv[0] = 0xdeadbeef;
    CHECK(pread(fd, &v, 4, 0) == 4 && v == 0);
    munmap(pv, (size_t)pg); close(fd);
    CHECK(unlink("mapped.bin") == 0);

    /* anonymous shared memory seen by a child */
    volatile long *shared = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(shared != MAP_FAILED);
    fflush(stdout);
    pid_t pid = fork(); CHECK(pid >= 0);
    if (pid == 0) { for (int i = 0; i < 1000; i++) shared[1] += i; shared[0] = 1; _exit(0); }
    int status; CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status));
    CHECK(shared[0] == 1 && shared[1] == 499500);
    munmap((void *)shared, (size_t)pg);

    /* a large anonymous region, grown with mremap, partly released */
    size_t a = 16u << 20;
    char *big = mmap(NULL, a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0); CHECK(big != MAP_FAILED);
    memset(big, 7, a);
    char *grown = mremap(big, a, a * 2, MREMAP_MAYMOVE); CHECK(grown != MAP_FAILED);
    CHECK(grown[a - 1] == 7 && grown[a] == 0);
    CHECK(madvise(grown, a, MADV_DONTNEED) == 0 && grown[0] == 0);
    CHECK(mprotect(grown + a, a, PROT_READ) == 0);
    CHECK(munmap(grown, a * 2) == 0);

    /* memfd: an anonymous file, mapped */
    int mfd = memfd_create("scratch", MFD_CLOEXEC); CHECK(mfd >= 0);
    CHECK(write(mfd, "memfd contents", 14) == 14);
    char *mm = mmap(NULL, 14, PROT_READ, MAP_SHARED, mfd, 0); CHECK(mm != MAP_FAILED);
    CHECK(memcmp(mm, "memfd contents", 14) == 0);
    munmap(mm, 14); close(mfd);
    puts("OK");
    return 0;
}
