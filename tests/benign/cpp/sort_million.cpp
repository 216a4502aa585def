// Sorting a million elements: std::sort (ints, doubles, strings-by-key, structs), stable_sort,
// sort with a custom comparator, partial_sort/nth_element on large data, verified against
// counting sort and checksums.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

struct Rec { uint32_t key; uint32_t seq; };

int main() {
    const size_t N = 1000000;
    uint64_t s = 88172645463325252ull;
    auto next = [&] { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; };

    std::vector<uint32_t> v(N);
    for (auto &x : v) x = (uint32_t)(next() % 100000);
    uint64_t sum_before = std::accumulate(v.begin(), v.end(), uint64_t{0});
    std::vector<uint32_t> counts(100000, 0); for (auto x : v) counts[x]++;
    std::sort(v.begin(), v.end());
    CHECK(std::is_sorted(v.begin(), v.end()) && std::accumulate(v.begin(), v.end(), uint64_t{0}) == sum_before);
    size_t pos = 0; for (uint32_t k = 0; k < 100000; k++) for (uint32_t c = 0; c < counts[k]; c++) CHECK(v[pos++] == k);

    std::sort(v.begin(), v.end(), std::greater<uint32_t>());
    CHECK(std::is_sorted(v.rbegin(), v.rend()));

    std::vector<double> d(N); for (auto &x : d) x = (double)(next() % 1000000007) / 7.0 - 1e7;
    std::sort(d.begin(), d.end()); CHECK(std::is_sorted(d.begin(), d.end()) && d.front() < 0);

    // stability: equal keys keep their original order
    std::vector<Rec> r(N); for (uint32_t i = 0; i < N; i++) r[i] = {(uint32_t)(next() % 1000), i};
    std::stable_sort(r.begin(), r.end(), [](const Rec &a, const Rec &b) { return a.key < b.key; });
    for (size_t i = 1; i < N; i++) CHECK(r[i - 1].key < r[i].key || (r[i - 1].key == r[i].key && r[i - 1].seq < r[i].seq));

    // sorting indices by a key, then top-k
    std::vector<uint32_t> idx(N); std::iota(idx.begin(), idx.end(), 0u);
    std::vector<uint32_t> score(N); for (auto &x : score) x = (uint32_t)next();
    std::partial_sort(idx.begin(), idx.begin() + 100, idx.end(), [&](uint32_t a, uint32_t b) { return score[a] > score[b]; });
    uint32_t mx = *std::max_element(score.begin(), score.end()); CHECK(score[idx[0]] == mx);
    std::vector<uint32_t> sc = score; std::nth_element(sc.begin(), sc.begin() + N / 2, sc.end());
    uint32_t median = sc[N / 2];
    CHECK((size_t)std::count_if(score.begin(), score.end(), [&](uint32_t x) { return x < median; }) <= N / 2);

    // strings
    std::vector<std::string> words(200000);
    for (auto &w : words) { uint64_t z = next(); w.resize(1 + z % 8); for (auto &c : w) { c = (char)('a' + z % 26); z /= 26; } }
    std::sort(words.begin(), words.end());
    CHECK(std::is_sorted(words.begin(), words.end()));
    words.erase(std::unique(words.begin(), words.end()), words.end());
    CHECK(std::adjacent_find(words.begin(), words.end()) == words.end());
    std::cout << "median " << median << "\nOK\n";
    return 0;
}
