/* Random numbers: rand/srand and rand_r (deterministic sequences), the 48-bit family, random_r,
 * getrandom, /dev/urandom, arc4random-free shuffling. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d): %s\n", #c, __LINE__, strerror(errno)); exit(1); } } while (0)

int main(void) {
    /* glibc's sequences are fixed for a seed */
    srand(1);
    int a = rand(), b = rand();
    CHECK(a == 1804289383 && b == 846930886);
    unsigned seed = 42; int r1 = rand_r(&seed), r2 = rand_r(&seed);
    unsigned seed2 = 42; CHECK(rand_r(&seed2) == r1 && rand_r(&seed2) == r2);
    srand48(7); double d = drand48(); long l = lrand48();
    srand48(7); CHECK(drand48() == d && lrand48() == l && d >= 0 && d < 1);
    unsigned short xs[3] = {1, 2, 3}; long j = jrand48(xs); unsigned short ys[3] = {1, 2, 3}; CHECK(jrand48(ys) == j);
    struct random_data rd; char state[64]; memset(&rd, 0, sizeof rd);
    CHECK(initstate_r(5, state, sizeof state, &rd) == 0);
    int32_t q; CHECK(random_r(&rd, &q) == 0 && q >= 0);

    /* a roughly uniform histogram from rand_r */
    int hist[10] = {0}; seed = 2024;
    for (int i = 0; i < 1000000; i++) hist[rand_r(&seed) % 10]++;
    for (int i = 0; i < 10; i++) CHECK(hist[i] > 95000 && hist[i] < 105000);

    /* kernel randomness: getrandom and /dev/urandom */
    unsigned char k1[32], k2[32];
    CHECK(getrandom(k1, sizeof k1, 0) == sizeof k1);
    CHECK(getrandom(k2, sizeof k2, GRND_NONBLOCK) == sizeof k2);
    CHECK(memcmp(k1, k2, sizeof k1) != 0);
    CHECK(getentropy(k2, sizeof k2) == 0 && memcmp(k1, k2, sizeof k1) != 0);
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {                      /* /dev/urandom is optional in a minimal image */
        unsigned char u[4096]; CHECK(read(fd, u, sizeof u) == (ssize_t)sizeof u); close(fd);
        int ones = 0; for (size_t i = 0; i < sizeof u; i++) ones += __builtin_popcount(u[i]);
        CHECK(ones > 15000 && ones < 17800);
    }

    /* Fisher-Yates with a seeded xorshift: a permutation */
    uint64_t x = 88172645463325252ull; int perm[1000];
    for (int i = 0; i < 1000; i++) perm[i] = i;
    for (int i = 999; i > 0; i--) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; int k = (int)(x % (uint64_t)(i + 1)); int t = perm[i]; perm[i] = perm[k]; perm[k] = t; }
    char seen[1000] = {0}; for (int i = 0; i < 1000; i++) { CHECK(!seen[perm[i]]); seen[perm[i]] = 1; }
    printf("rand %d %d, first key byte %02x\n", a, b, k1[0]);
    puts("OK");
    return 0;
}
