// Competitive-programming style: <bits/stdc++.h>, fast I/O settings, Dijkstra with a priority_queue,
// a segment tree, DSU, DP with long long, memoized recursion, large static arrays.
#include <bits/stdc++.h>
using namespace std;
using ll = long long;
#define CHECK(c) do { if (!(c)) { cerr << "check failed: " #c " line " << __LINE__ << '\n'; exit(1); } } while (0)

static const ll INF = LLONG_MAX / 4;
static int parent_[200005], rnk[200005];
static int find_(int x) { while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]]; return x; }
static bool unite(int a, int b) { a = find_(a); b = find_(b); if (a == b) return false; if (rnk[a] < rnk[b]) swap(a, b); parent_[b] = a; if (rnk[a] == rnk[b]) rnk[a]++; return true; }

struct SegTree {
    int n; vector<ll> t;
    explicit SegTree(int n_) : n(n_), t(2 * n_, 0) {}
    void update(int i, ll v) { for (t[i += n] = v; i > 1; i >>= 1) t[i >> 1] = t[i] + t[i ^ 1]; }
    ll query(int l, int r) { ll s = 0; for (l += n, r += n; l < r; l >>= 1, r >>= 1) { if (l & 1) s += t[l++]; if (r & 1) s += t[--r]; } return s; }
};

static map<pair<int, int>, ll> memo;
static ll paths(int r, int c) {             // lattice paths, memoized
    if (r == 0 || c == 0) return 1;
    auto it = memo.find({r, c}); if (it != memo.end()) return it->second;
    return memo[{r, c}] = paths(r - 1, c) + paths(r, c - 1);
}

static ll dp_[5001];

int main() {
    ios::sync_with_stdio(false); cin.tie(nullptr);

    // Dijkstra on a grid-like graph of 100k nodes, checked against BFS distance on unit weights
    int n = 100000; vector<vector<pair<int, int>>> g(n);
    for (int i = 0; i + 1 < n; i++) { g[i].push_back({i + 1, 1}); g[i + 1].push_back({i, 1}); }
    for (int i = 0; i + 1000 < n; i += 7) { g[i].push_back({i + 1000, 1}); g[i + 1000].push_back({i, 1}); }
    vector<ll> dist(n, INF); priority_queue<pair<ll, int>, vector<pair<ll, int>>, greater<>> pq;
    dist[0] = 0; pq.push({0, 0});
    while (!pq.empty()) {
        auto [d, u] = pq.top(); pq.pop();
        if (d != dist[u]) continue;
        for (auto [v, w] : g[u]) if (dist[v] > d + w) { dist[v] = d + w; pq.push({dist[v], v}); }
    }
    vector<int> bfs(n, -1); deque<int> q{0}; bfs[0] = 0;
    while (!q.empty()) { int u = q.front(); q.pop_front(); for (auto [v, w] : g[u]) if (bfs[v] < 0) { bfs[v] = bfs[u] + 1; q.push_back(v); } }
    for (int i = 0; i < n; i += 997) CHECK(dist[i] == bfs[i]);
    CHECK(dist[n - 1] < n - 1);

    // segment tree vs prefix sums
    SegTree st(n); vector<ll> a(n);
    mt19937 rng(7);
    for (int i = 0; i < n; i++) { a[i] = rng() % 1000; st.update(i, a[i]); }
    vector<ll> pre(n + 1, 0); partial_sum(a.begin(), a.end(), pre.begin() + 1);
    for (int k = 0; k < 10000; k++) { int l = rng() % n, r = rng() % n; if (l > r) swap(l, r); CHECK(st.query(l, r + 1) == pre[r + 1] - pre[l]); }

    // DSU: Kruskal on random edges
    iota(parent_, parent_ + n, 0);
    vector<tuple<int, int, int>> edges;
    for (int i = 1; i < n; i++) edges.emplace_back(rng() % 100 + 1, i, rng() % i);
    sort(edges.begin(), edges.end());
    int used = 0; ll mst = 0; for (auto &[w, u, v] : edges) if (unite(u, v)) { used++; mst += w; }
    CHECK(used == n - 1 && mst > 0);

    // coin change DP and memoized recursion
    int coins[] = {1, 2, 5, 10, 20, 50, 100, 200}; dp_[0] = 1;
    for (int c : coins) for (int s = c; s <= 200; s++) dp_[s] += dp_[s - c];
    CHECK(dp_[200] == 73682);
    CHECK(paths(16, 16) == 601080390LL);

    ll answer = accumulate(dist.begin(), dist.begin() + 100, 0LL);
    cout << answer << '\n' << "OK\n";
    return 0;
}
