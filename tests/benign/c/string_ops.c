/* string.h and ctype.h: lengths, comparisons, searching, tokenizing, copying. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); abort(); } } while (0)

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(void) {
    char s[128] = "The quick brown fox jumps over the lazy dog";
    CHECK(strlen(s) == 43);
    CHECK(strchr(s, 'q') - s == 4 && strrchr(s, 'o') - s == 41);
    CHECK(strstr(s, "fox") - s == 16 && strstr(s, "cat") == NULL);
    CHECK(strcasestr(s, "LAZY") - s == 35);
    CHECK(strcmp("abc", "abd") < 0 && strncmp("abcX", "abcY", 3) == 0 && strcasecmp("HeLLo", "hello") == 0);
    CHECK(strspn("12345abc", "0123456789") == 5 && strcspn("hello, world", ", ") == 5);
    const char *kv = "key=value";
    CHECK(strpbrk(kv, "=:") - kv == 3);

    /* tokenizing */
    char *words[16]; int n = 0; char *save = NULL;
    char copy[128]; strcpy(copy, s);
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) words[n++] = t;
    CHECK(n == 9 && strcmp(words[8], "dog") == 0);
    qsort(words, n, sizeof *words, cmpstr);
    CHECK(strcmp(words[0], "The") == 0 && strcmp(words[1], "brown") == 0);

    char line[] = "a,b,,c";
    char *p = line, *tok; int fields = 0;
    while ((tok = strsep(&p, ",")) != NULL) fields++;
    CHECK(fields == 4);

    /* copies and memory functions */
    char buf[64];
    memset(buf, 'x', sizeof buf);
    CHECK(memchr(buf, 'y', sizeof buf) == NULL);
    strncpy(buf, "abc", sizeof buf);
    CHECK(buf[3] == 0 && buf[63] == 0);
    memcpy(buf, "0123456789", 11);
    memmove(buf + 2, buf, 8);
    CHECK(memcmp(buf, "0101234567", 10) == 0);
    char *d = strdup("duplicate"), *nd = strndup("duplicate", 3);
    CHECK(strcmp(d, "duplicate") == 0 && strcmp(nd, "dup") == 0);
    free(d); free(nd);
    CHECK(stpcpy(buf, "end") - buf == 3);
    snprintf(buf, sizeof buf, "%s", "cat");
    strncat(buf, "alogue", sizeof buf - strlen(buf) - 1);
    CHECK(strcmp(buf, "catalogue") == 0);

    /* ctype and conversions */
    int up = 0, dig = 0, sp = 0;
    for (const char *q = "Hello World 2024!"; *q; q++) { up += isupper((unsigned char)*q) != 0; dig += isdigit((unsigned char)*q) != 0; sp += isspace((unsigned char)*q) != 0; }
    CHECK(up == 2 && dig == 4 && sp == 2);
    for (char *q = s; *q; q++) *q = (char)toupper((unsigned char)*q);
    CHECK(strncmp(s, "THE QUICK", 9) == 0);
    char *end;
    CHECK(strtol("  -1234xyz", &end, 10) == -1234 && strcmp(end, "xyz") == 0);
    CHECK(strtoul("ff", NULL, 16) == 255 && strtoll("0x7fffffffffffffff", NULL, 0) == 0x7fffffffffffffffLL);
    CHECK(atoi("42") == 42 && strtod("2.5e3", NULL) == 2500.0);

    /* a big string: build, reverse, search */
    size_t big = 1 << 20;
    char *bs = malloc(big + 1);
    for (size_t i = 0; i < big; i++) bs[i] = (char)('a' + i % 26);
    bs[big] = 0;
    CHECK(strlen(bs) == big);
    for (size_t i = 0, j = big - 1; i < j; i++, j--) { char t = bs[i]; bs[i] = bs[j]; bs[j] = t; }
    CHECK(bs[0] == 'a' + (big - 1) % 26);
    CHECK(strstr(bs, "zyxw") != NULL);
    free(bs);
    puts("OK");
    return 0;
}
