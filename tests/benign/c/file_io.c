/* File I/O in the working directory: stdio and POSIX calls, stat, directories, rename, links, unlink. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void) {
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);

    /* stdio: write records, seek, read back */
    FILE *f = fopen("data.bin", "w+b");
    CHECK(f != NULL);
    for (int i = 0; i < 100000; i++) CHECK(fwrite(&i, sizeof i, 1, f) == 1);
    CHECK(fflush(f) == 0);
    CHECK(fseek(f, 0, SEEK_END) == 0 && ftell(f) == 400000);
    CHECK(fseek(f, 4 * 5000, SEEK_SET) == 0);
    int v; CHECK(fread(&v, sizeof v, 1, f) == 1 && v == 5000);
    CHECK(fseeko(f, -4, SEEK_END) == 0 && fread(&v, sizeof v, 1, f) == 1 && v == 99999);
    rewind(f);
    long long sum = 0; int buf[1024]; size_t got;
    while ((got = fread(buf, sizeof buf[0], 1024, f)) > 0) for (size_t i = 0; i < got; i++) sum += buf[i];
    CHECK(feof(f) && !ferror(f) && sum == 100000LL * 99999 / 2);
    CHECK(fclose(f) == 0);

    /* a text file, line by line */
    f = fopen("notes.txt", "w");
    CHECK(f != NULL);
    for (int i = 0; i < 500; i++) fprintf(f, "line %d: %s\n", i, i % 3 ? "x" : "fizz");
    fclose(f);
    f = fopen("notes.txt", "a"); fputs("appended\n", f); fclose(f);
    f = fopen("notes.txt", "r");
    char *line = NULL; size_t cap = 0; ssize_t n; int lines = 0, fizz = 0;
    while ((n = getline(&line, &cap, f)) > 0) { lines++; fizz += strstr(line, "fizz") != NULL; }
    free(line); fclose(f);
    CHECK(lines == 501 && fizz == 167);

    /* POSIX descriptors: open, pwrite, pread, lseek, ftruncate, fsync, fstat */
    int fd = open("raw.dat", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    CHECK(write(fd, "hello world", 11) == 11);
    CHECK(pwrite(fd, "W", 1, 6) == 1);
    char rb[16] = {0};
    CHECK(pread(fd, rb, 11, 0) == 11 && strcmp(rb, "hello World") == 0);
    CHECK(lseek(fd, 0, SEEK_END) == 11);
    CHECK(ftruncate(fd, 5) == 0 && fsync(fd) == 0 && fdatasync(fd) == 0);
    struct stat st; CHECK(fstat(fd, &st) == 0 && st.st_size == 5 && S_ISREG(st.st_mode));
    CHECK(fchmod(fd, 0600) == 0);
    int fd2 = dup(fd); CHECK(fd2 > fd);
    CHECK(fcntl(fd2, F_GETFD) == 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
    CHECK(fcntl(fd, F_GETFL) & O_RDWR);
    close(fd2); close(fd);
    CHECK(stat("raw.dat", &st) == 0 && (st.st_mode & 0777) == 0600 && st.st_uid == getuid());
    CHECK(access("raw.dat", R_OK | W_OK) == 0 && access("missing", F_OK) == -1 && errno == ENOENT);
    struct statx stx; CHECK(statx(AT_FDCWD, "raw.dat", 0, STATX_SIZE, &stx) == 0 && stx.stx_size == 5);

    /* directories */
    CHECK(mkdir("dir", 0755) == 0 && mkdir("dir/sub", 0755) == 0);
    CHECK(mkdir("dir", 0755) == -1 && errno == EEXIST);
    const char *names[] = {"dir/c.txt", "dir/a.txt", "dir/b.txt"};
    for (int i = 0; i < 3; i++) { FILE *g = fopen(names[i], "w"); CHECK(g != NULL); fputs(names[i], g); fclose(g); }
    DIR *dp = opendir("dir"); CHECK(dp != NULL);
    char *seen[8]; int ns = 0; struct dirent *de;
    while ((de = readdir(dp)) != NULL) if (de->d_name[0] != '.') seen[ns++] = strdup(de->d_name);
    closedir(dp);
    qsort(seen, ns, sizeof seen[0], cmpstr);
    CHECK(ns == 4 && !strcmp(seen[0], "a.txt") && !strcmp(seen[1], "b.txt") && !strcmp(seen[2], "c.txt") && !strcmp(seen[3], "sub"));
    for (int i = 0; i < ns; i++) free(seen[i]);
    struct dirent **list; int nl = scandir("dir", &list, NULL, alphasort);
    CHECK(nl == 6); for (int i = 0; i < nl; i++) free(list[i]); free(list);

    /* rename, links, *at calls */
    CHECK(rename("dir/a.txt", "dir/sub/moved.txt") == 0);
    CHECK(link("dir/b.txt", "dir/b.hard") == 0 && stat("dir/b.txt", &st) == 0 && st.st_nlink == 2);
    CHECK(symlink("b.txt", "dir/b.link") == 0);
    char target[64]; ssize_t tl = readlink("dir/b.link", target, sizeof target - 1);
    CHECK(tl == 5); target[tl] = 0; CHECK(strcmp(target, "b.txt") == 0);
    CHECK(lstat("dir/b.link", &st) == 0 && S_ISLNK(st.st_mode));
    char *rp = realpath("dir/b.link", NULL); CHECK(rp && strstr(rp, "/dir/b.txt")); free(rp);
    int dfd = open("dir", O_RDONLY | O_DIRECTORY); CHECK(dfd >= 0);
    int af = openat(dfd, "at.txt", O_WRONLY | O_CREAT, 0644); CHECK(af >= 0); close(af);
    CHECK(fstatat(dfd, "at.txt", &st, 0) == 0 && unlinkat(dfd, "at.txt", 0) == 0);
    close(dfd);
    CHECK(chdir("dir/sub") == 0 && access("moved.txt", F_OK) == 0 && chdir(cwd) == 0);

    /* a temporary file */
    char tmpl[] = "tmpXXXXXX"; int tf = mkstemp(tmpl); CHECK(tf >= 0);
    CHECK(write(tf, "t", 1) == 1); close(tf); CHECK(unlink(tmpl) == 0);
    FILE *tfile = tmpfile(); CHECK(tfile != NULL); fputs("anon", tfile); fclose(tfile);

    /* clean up */
    const char *rm[] = {"dir/sub/moved.txt", "dir/b.txt", "dir/b.hard", "dir/b.link", "dir/c.txt", "data.bin", "notes.txt", "raw.dat"};
    for (size_t i = 0; i < sizeof rm / sizeof rm[0]; i++) CHECK(unlink(rm[i]) == 0);
    CHECK(rmdir("dir/sub") == 0 && rmdir("dir") == 0);
    CHECK(stat("dir", &st) == -1 && errno == ENOENT);
    puts("OK");
    return 0;
}
