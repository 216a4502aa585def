/* malloc/calloc/realloc/free of large blocks (served by mmap), and many small ones. */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *m) { fprintf(stderr, "%s\n", m); exit(1); }

int main(void) {
    /* a 40 MB block, touched */
    size_t big = 40u << 20;
    unsigned char *p = malloc(big);
    if (!p) fail("malloc 40MB");
    memset(p, 0xAB, big);
    uint64_t sum = 0;
    for (size_t i = 0; i < big; i += 4096) sum += p[i];
    if (sum != (uint64_t)0xAB * (big / 4096)) fail("sum");
    free(p);

    /* calloc'd 32 MB is zero */
    uint32_t *z = calloc(8u << 20, sizeof *z);
    if (!z) fail("calloc");
    for (size_t i = 0; i < (8u << 20); i += 1024) if (z[i]) fail("calloc not zero");
    free(z);

    /* grow a buffer by doubling to 64 MB with realloc, keeping its content */
    size_t cap = 1024, len = 0;
    uint32_t *buf = malloc(cap * sizeof *buf);
    while (len < (16u << 20)) {
        if (len == cap) {
            cap *= 2;
            uint32_t *nb = realloc(buf, cap * sizeof *buf);
            if (!nb) fail("realloc");
            buf = nb;
        }
        buf[len] = (uint32_t)len * 2654435761u;
        len++;
    }
    for (size_t i = 0; i < len; i += 9973) if (buf[i] != (uint32_t)i * 2654435761u) fail("realloc lost data");
    buf = realloc(buf, 1000 * sizeof *buf); /* shrink */
    if (!buf || buf[999] != 999u * 2654435761u) fail("shrink");
    free(buf);

    /* aligned allocations */
    void *al = NULL;
    if (posix_memalign(&al, 4096, 1 << 20) || ((uintptr_t)al & 4095)) fail("posix_memalign");
    free(al);
    al = aligned_alloc(64, 6400);
    if (!al || ((uintptr_t)al & 63)) fail("aligned_alloc");
    free(al);

    /* many small allocations: a linked list of 500k nodes */
    struct node { struct node *next; int v; } *head = NULL;
    for (int i = 0; i < 500000; i++) {
        struct node *nd = malloc(sizeof *nd);
        if (!nd) fail("small malloc");
        nd->v = i; nd->next = head; head = nd;
    }
    long long total = 0;
    while (head) { struct node *nx = head->next; total += head->v; free(head); head = nx; }
    if (total != 500000LL * 499999 / 2) fail("list sum");

    /* an allocation too large to ever succeed fails cleanly */
    void *huge = malloc(SIZE_MAX / 2);
    if (huge) fail("SIZE_MAX/2 malloc succeeded");
    malloc_trim(0);
    puts("OK");
    return 0;
}
