/* qsort and bsearch on a million ints and on structs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000000

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

struct rec { char name[16]; int score; };
static int cmp_rec(const void *a, const void *b) {
    const struct rec *x = a, *y = b;
    if (x->score != y->score) return y->score - x->score; /* descending */
    return strcmp(x->name, y->name);
}

static int v[N];

int main(void) {
    unsigned s = 12345;
    for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; v[i] = (int)(s >> 1) % 10000000; }
    qsort(v, N, sizeof v[0], cmp_int);
    for (int i = 1; i < N; i++) if (v[i - 1] > v[i]) { fprintf(stderr, "not sorted at %d\n", i); return 1; }
    int found = 0;
    for (int i = 0; i < N; i += 1000) {
        int *p = bsearch(&v[i], v, N, sizeof v[0], cmp_int);
        if (!p || *p != v[i]) { fprintf(stderr, "bsearch lost %d\n", v[i]); return 1; }
        found++;
    }
    int missing = -1;
    if (bsearch(&missing, v, N, sizeof v[0], cmp_int)) { fprintf(stderr, "found -1\n"); return 1; }

    struct rec r[] = {{"carol", 70}, {"alice", 90}, {"bob", 90}, {"dave", 10}, {"eve", 70}};
    size_t nr = sizeof r / sizeof r[0];
    qsort(r, nr, sizeof r[0], cmp_rec);
    const char *want[] = {"alice", "bob", "carol", "eve", "dave"};
    for (size_t i = 0; i < nr; i++)
        if (strcmp(r[i].name, want[i])) { fprintf(stderr, "order %zu: %s\n", i, r[i].name); return 1; }
    printf("min %d max %d probes %d\n", v[0], v[N - 1], found);
    puts("OK");
    return 0;
}
