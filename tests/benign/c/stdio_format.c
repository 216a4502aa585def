/* stdio: printf/snprintf/sscanf formats, a memory stream, stderr, buffering. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(int ok, const char *what) {
    if (!ok) { fprintf(stderr, "mismatch: %s\n", what); exit(1); }
}

int main(void) {
    char buf[256];
    snprintf(buf, sizeof buf, "%d|%5d|%-5d|%05d|%+d|%x|%X|%#o|%u", 42, 42, 42, 42, 42, 255, 255, 8, 7u);
    check(strcmp(buf, "42|   42|42   |00042|+42|ff|FF|010|7") == 0, buf);
    snprintf(buf, sizeof buf, "%.3f|%10.2f|%e|%g|%g|%a", 3.14159, 2.5, 12345.678, 0.0001, 1e20, 1.0);
    check(strcmp(buf, "3.142|      2.50|1.234568e+04|0.0001|1e+20|0x1p+0") == 0, buf);
    snprintf(buf, sizeof buf, "%s|%10s|%-10s|%.2s|%c|%%", "abc", "right", "left", "trunc", 'Z');
    check(strcmp(buf, "abc|     right|left      |tr|Z|%") == 0, buf);
    snprintf(buf, sizeof buf, "%" PRId64 " %" PRIu64 " %zu %lld %hhd", INT64_MIN, UINT64_MAX, (size_t)123, -5LL, (signed char)-1);
    check(strcmp(buf, "-9223372036854775808 18446744073709551615 123 -5 -1") == 0, buf);
    snprintf(buf, sizeof buf, "%*d|%-*.*f", 6, 7, 8, 3, 1.5);
    check(strcmp(buf, "     7|1.500   ") == 0, buf);
    const char *longer = getenv("WARMBOX_NO_SUCH_VAR") ? "x" : "overflowing";
    int n = snprintf(buf, 4, "%s", longer);
    check(n == 11 && strcmp(buf, "ove") == 0, "snprintf truncation");

    int a, b; char word[32]; double d; unsigned x;
    int got = sscanf("17 -3 hello 2.75 1f", "%d %d %31s %lf %x", &a, &b, word, &d, &x);
    check(got == 5 && a == 17 && b == -3 && strcmp(word, "hello") == 0 && d == 2.75 && x == 0x1f, "sscanf");
    check(sscanf("nothing", "%d", &a) == 0, "sscanf failure");

    /* a memory stream, as a string builder */
    char *mem = NULL; size_t len = 0;
    FILE *m = open_memstream(&mem, &len);
    check(m != NULL, "open_memstream");
    for (int i = 0; i < 1000; i++) fprintf(m, "%d,", i);
    fclose(m);
    check(len == 3890 && strncmp(mem, "0,1,2,", 6) == 0, "open_memstream content");
    free(mem);

    /* fmemopen, for reading */
    char src[] = "10 20 30";
    FILE *r = fmemopen(src, strlen(src), "r");
    int s = 0, v;
    while (fscanf(r, "%d", &v) == 1) s += v;
    fclose(r);
    check(s == 60, "fmemopen");

    char *as = NULL;
    check(asprintf(&as, "%s-%d", "x", 9) == 3 && strcmp(as, "x-9") == 0, "asprintf");
    free(as);

    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    for (int i = 0; i < 100; i++) printf("line %03d %s\n", i, i % 2 ? "odd" : "even");
    fputs("to stderr\n", stderr);
    puts("OK");
    return 0;
}
