/* The command line and the environment: argc/argv, getenv, setenv/unsetenv, environ, getopt,
 * the user database. */
#define _GNU_SOURCE
#include <getopt.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

int main(int argc, char **argv) {
    CHECK(argc == 1 && argv[0] && argv[0][0] && argv[1] == NULL);
    const char *home = getenv("HOME"), *lang = getenv("LANG"), *path = getenv("PATH"), *tmp = getenv("TMPDIR");
    CHECK(home && strcmp(home, "/tmp") == 0);
    CHECK(lang && strcmp(lang, "C.UTF-8") == 0);
    CHECK(path && strcmp(path, "/usr/bin:/bin") == 0);
    char cwd[4096]; CHECK(getcwd(cwd, sizeof cwd));
    CHECK(tmp && strcmp(tmp, cwd) == 0);          /* the working directory is TMPDIR */
    CHECK(getenv("WARMBOX_SURELY_UNSET") == NULL);

    int n = 0;
    for (char **e = environ; *e; e++) { CHECK(strchr(*e, '=') != NULL); n++; }
    CHECK(n >= 4);
    CHECK(setenv("GREETING", "hello", 1) == 0 && strcmp(getenv("GREETING"), "hello") == 0);
    CHECK(setenv("GREETING", "ignored", 0) == 0 && strcmp(getenv("GREETING"), "hello") == 0);
    static char pe[] = "OTHER=1"; CHECK(putenv(pe) == 0 && strcmp(getenv("OTHER"), "1") == 0);
    CHECK(unsetenv("GREETING") == 0 && getenv("GREETING") == NULL);
    CHECK(secure_getenv("HOME") != NULL);

    /* getopt on a made-up command line */
    char *args[] = {"prog", "-v", "-n", "5", "--name=abc", "rest", NULL};
    static struct option longopts[] = {{"name", required_argument, 0, 'N'}, {0, 0, 0, 0}};
    int c, verbose = 0, num = 0; const char *name = NULL;
    optind = 1;
    while ((c = getopt_long(6, args, "vn:", longopts, NULL)) != -1) {
        if (c == 'v') verbose = 1; else if (c == 'n') num = atoi(optarg); else if (c == 'N') name = optarg;
    }
    CHECK(verbose && num == 5 && name && strcmp(name, "abc") == 0 && optind == 5 && strcmp(args[optind], "rest") == 0);

    CHECK(getauxval(AT_PAGESZ) == (unsigned long)sysconf(_SC_PAGESIZE));
    struct passwd *pw = getpwuid(getuid());       /* the image may or may not list this uid */
    if (pw) CHECK(pw->pw_uid == getuid());
    printf("argv0=%s uid=%d\n", argv[0], (int)getuid());
    puts("OK");
    return 0;
}
