/* Competitive-programming style: big static arrays, a sieve, DP, deep recursion, BFS on a grid,
 * modular arithmetic with __int128, a large buffered output. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MOD 1000000007ULL
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "check failed: %s (line %d)\n", #c, __LINE__); exit(1); } } while (0)

static char composite[10000001];
static int parent[200001], first_child[200001], next_sibling[200001], subtree[200001];
static int dist[1000][1000];
static int qx[1000 * 1000], qy[1000 * 1000];

static int dfs(int v) {           /* recursion as deep as the tree (200000) */
    int s = 1;
    for (int c = first_child[v]; c; c = next_sibling[c]) s += dfs(c);
    return subtree[v] = s;
}

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t m) { return (uint64_t)((unsigned __int128)a * b % m); }
static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) { uint64_t r = 1; b %= m; while (e) { if (e & 1) r = mulmod(r, b, m); b = mulmod(b, b, m); e >>= 1; } return r; }
static void fib_pair(uint64_t n, uint64_t *f, uint64_t *g) {      /* fast doubling: F(n), F(n+1) */
    if (n == 0) { *f = 0; *g = 1; return; }
    uint64_t a, b; fib_pair(n / 2, &a, &b);
    uint64_t c = mulmod(a, (2 * b + MOD - a) % MOD, MOD), d = (mulmod(a, a, MOD) + mulmod(b, b, MOD)) % MOD;
    if (n & 1) { *f = d; *g = (c + d) % MOD; } else { *f = c; *g = d; }
}

int main(void) {
    /* sieve of Eratosthenes to 1e7 */
    int count = 0; long long sum2m = 0;
    for (long long i = 2; i <= 10000000; i++) {
        if (composite[i]) continue;
        count++; if (i < 2000000) sum2m += i;
        for (long long j = i * i; j <= 10000000; j += i) composite[j] = 1;
    }
    CHECK(count == 664579 && sum2m == 142913828922LL);

    /* Fibonacci modulo 1e9+7: iterative DP against fast doubling; Fermat inverse */
    uint64_t a = 0, b = 1;
    for (int i = 0; i < 1000000; i++) { uint64_t t = (a + b) % MOD; a = b; b = t; }
    uint64_t f, g; fib_pair(1000000, &f, &g);
    CHECK(a == f && b == g);
    CHECK(mulmod(123456789, powmod(123456789, MOD - 2, MOD), MOD) == 1);

    /* a 200000-deep chain with side leaves; subtree sizes by recursion */
    int n = 200000;
    for (int v = 2; v <= n; v++) {
        parent[v] = (v % 2 == 0) ? v - 2 > 0 ? v - 2 : 1 : v - 1;
        next_sibling[v] = first_child[parent[v]]; first_child[parent[v]] = v;
    }
    CHECK(dfs(1) == n && subtree[2] == n - 1);

    /* BFS on a 1000x1000 grid with walls */
    for (int i = 0; i < 1000; i++) for (int j = 0; j < 1000; j++) dist[i][j] = -1;
    for (int i = 0; i < 999; i++) dist[i][500] = -2;   /* a wall with a gap at the bottom */
    int h = 0, t = 0; qx[t] = 0; qy[t] = 0; t++; dist[0][0] = 0;
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    while (h < t) {
        int x = qx[h], y = qy[h]; h++;
        for (int k = 0; k < 4; k++) {
            int nx = x + dx[k], ny = y + dy[k];
            if (nx < 0 || ny < 0 || nx >= 1000 || ny >= 1000 || dist[nx][ny] != -1) continue;
            dist[nx][ny] = dist[x][y] + 1; qx[t] = nx; qy[t] = ny; t++;
        }
    }
    CHECK(dist[0][999] == 999 + 999 + 999 && dist[999][999] == 1998);

    /* subset-sum DP over a bitset: every sum up to min(total, 5000) is reachable with these weights */
    int w[100]; for (int i = 0; i < 100; i++) w[i] = (i * 37 + 11) % 97 + 1;
    static unsigned reach[5001 / 32 + 1]; reach[0] = 1;
    for (int i = 0; i < 100; i++)
        for (int s = 5000; s >= w[i]; s--)
            if (reach[(s - w[i]) / 32] >> ((s - w[i]) % 32) & 1) reach[s / 32] |= 1u << (s % 32);
    int reachable = 0; for (int s = 0; s <= 5000; s++) reachable += reach[s / 32] >> (s % 32) & 1;
    int total = 0; for (int i = 0; i < 100; i++) total += w[i];
    CHECK(reachable == (total < 5000 ? total : 5000) + 1);

    /* big buffered output, like printing an answer per test case */
    static char out[1 << 20]; setvbuf(stdout, out, _IOFBF, sizeof out);
    long long chk = 0;
    for (int i = 1; i <= 5000; i++) { printf("%d %d\n", i, subtree[i]); chk += subtree[i]; }
    CHECK(chk > 0);
    puts("OK");
    return 0;
}
