// Heavy map workloads: half a million inserts/lookups/erases in unordered_map and map, word counting,
// a custom hash for a struct key, rehashing, ordered range queries.
#include <cstdint>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

struct Key { int x, y; bool operator==(const Key &o) const { return x == o.x && y == o.y; } };
struct KeyHash { size_t operator()(const Key &k) const { return std::hash<long long>()(((long long)k.x << 32) ^ (unsigned)k.y); } };

int main() {
    const int N = 500000;
    std::unordered_map<uint64_t, uint32_t> um;
    um.reserve(N);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    std::vector<uint64_t> keys(N);
    for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; keys[i] = x; um[x] = (uint32_t)i; }
    CHECK(um.size() == (size_t)N);
    long long hits = 0;
    for (int i = 0; i < N; i += 3) { auto it = um.find(keys[i]); CHECK(it != um.end() && it->second == (uint32_t)i); hits++; }
    for (int i = 0; i < N; i += 2) um.erase(keys[i]);
    CHECK(um.size() == (size_t)N / 2 && um.count(keys[1]) && !um.count(keys[0]));

    std::map<int, int> om;
    for (int i = 0; i < 200000; i++) om[(int)((i * 7919LL) % 200003)] = i;
    CHECK(om.size() == 200000 && om.begin()->first == 0);
    auto lo = om.lower_bound(1000), hi = om.upper_bound(2000);
    int in_range = 0; for (auto it = lo; it != hi; ++it) in_range++;
    CHECK(in_range > 990 && in_range <= 1001);
    for (auto it = om.begin(); it != om.end();) it = (it->first % 2) ? om.erase(it) : std::next(it);
    CHECK(om.size() > 99000 && om.size() < 101000);

    // word counting over generated text
    std::unordered_map<std::string, int> wc;
    const char *vocab[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"};
    for (int i = 0; i < 400000; i++) wc[vocab[(i * i + 3 * i) % 8]]++;
    int sum = 0; for (auto &[w, c] : wc) sum += c; CHECK(sum == 400000 && wc.size() <= 8);

    // a struct key with a custom hash
    std::unordered_map<Key, int, KeyHash> grid;
    for (int i = 0; i < 400; i++) for (int j = 0; j < 400; j++) grid[{i, j}] = i * j;
    CHECK(grid.size() == 160000 && grid.at({399, 399}) == 159201);
    std::unordered_set<std::string> strs; for (int i = 0; i < 200000; i++) strs.insert("key-" + std::to_string(i % 150000));
    CHECK(strs.size() == 150000);
    um.rehash(0); CHECK(um.load_factor() <= um.max_load_factor());
    std::cout << "lookups " << hits << "\nOK\n";
    return 0;
}
