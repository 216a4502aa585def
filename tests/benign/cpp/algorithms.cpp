// <algorithm>: sorting variants, searching, partitioning, permutations, set operations, heaps,
// transformations, min/max, ranges of iterators.
#include <algorithm>
#include <functional>
#include <iostream>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

int main() {
    std::vector<int> v{5, 3, 8, 1, 9, 2, 7, 4, 6, 0};
    std::vector<int> s = v; std::sort(s.begin(), s.end());
    CHECK(std::is_sorted(s.begin(), s.end()) && s.front() == 0 && s.back() == 9);
    std::sort(s.begin(), s.end(), std::greater<int>()); CHECK(s[0] == 9);
    std::vector<int> p = v; std::partial_sort(p.begin(), p.begin() + 3, p.end()); CHECK(p[0] == 0 && p[2] == 2);
    std::vector<int> n = v; std::nth_element(n.begin(), n.begin() + 5, n.end()); CHECK(n[5] == 5);

    std::vector<std::pair<int, char>> pairs{{2, 'a'}, {1, 'b'}, {2, 'c'}, {1, 'd'}};
    std::stable_sort(pairs.begin(), pairs.end(), [](auto &a, auto &b) { return a.first < b.first; });
    CHECK(pairs[0].second == 'b' && pairs[1].second == 'd' && pairs[2].second == 'a');

    std::sort(v.begin(), v.end());
    CHECK(std::binary_search(v.begin(), v.end(), 7) && !std::binary_search(v.begin(), v.end(), 10));
    CHECK(std::lower_bound(v.begin(), v.end(), 4) - v.begin() == 4 && std::upper_bound(v.begin(), v.end(), 4) - v.begin() == 5);
    CHECK(std::find(v.begin(), v.end(), 6) - v.begin() == 6 && std::count_if(v.begin(), v.end(), [](int x) { return x % 3 == 0; }) == 4);
    CHECK(std::all_of(v.begin(), v.end(), [](int x) { return x >= 0; }) && std::any_of(v.begin(), v.end(), [](int x) { return x == 9; }) && std::none_of(v.begin(), v.end(), [](int x) { return x > 9; }));
    auto [mn, mx] = std::minmax_element(v.begin(), v.end()); CHECK(*mn == 0 && *mx == 9);
    CHECK(std::max({3, 7, 2}) == 7 && std::clamp(15, 0, 10) == 10);

    std::vector<int> e = v;
    auto mid = std::partition(e.begin(), e.end(), [](int x) { return x % 2 == 0; });
    CHECK(mid - e.begin() == 5 && std::all_of(e.begin(), mid, [](int x) { return x % 2 == 0; }));
    std::vector<int> d{1, 1, 2, 2, 2, 3, 1};
    d.erase(std::unique(d.begin(), d.end()), d.end()); CHECK((d == std::vector<int>{1, 2, 3, 1}));
    d.erase(std::remove(d.begin(), d.end(), 1), d.end()); CHECK((d == std::vector<int>{2, 3}));
    std::reverse(v.begin(), v.end()); CHECK(v[0] == 9);
    std::rotate(v.begin(), v.begin() + 3, v.end()); CHECK(v[0] == 6);

    std::string word = "abc"; int perms = 0;
    do perms++; while (std::next_permutation(word.begin(), word.end()));
    CHECK(perms == 6 && word == "abc");

    std::vector<int> a{1, 2, 3, 4, 5}, b{4, 5, 6, 7}, out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out)); CHECK((out == std::vector<int>{4, 5}));
    out.clear(); std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out)); CHECK(out.size() == 7);
    out.clear(); std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out)); CHECK((out == std::vector<int>{1, 2, 3}));
    std::vector<int> merged; std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(merged)); CHECK(std::is_sorted(merged.begin(), merged.end()));
    CHECK(std::includes(a.begin(), a.end(), b.begin(), b.begin() + 2));

    std::vector<int> h{3, 1, 4, 1, 5, 9, 2, 6};
    std::make_heap(h.begin(), h.end()); CHECK(h.front() == 9);
    std::pop_heap(h.begin(), h.end()); h.pop_back(); CHECK(h.front() == 6);
    std::sort_heap(h.begin(), h.end()); CHECK(std::is_sorted(h.begin(), h.end()));

    std::vector<int> sq(10); std::transform(a.begin(), a.end(), sq.begin(), [](int x) { return x * x; });
    CHECK(sq[4] == 25);
    std::vector<int> filled(5); std::fill(filled.begin(), filled.end(), 7); std::generate(filled.begin(), filled.begin() + 2, [k = 0]() mutable { return k++; });
    CHECK((filled == std::vector<int>{0, 1, 7, 7, 7}));
    std::vector<int> copied; std::copy_if(a.begin(), a.end(), std::back_inserter(copied), [](int x) { return x > 2; }); CHECK(copied.size() == 3);
    CHECK(std::equal(a.begin(), a.begin() + 2, std::vector<int>{1, 2}.begin()));
    auto mm = std::mismatch(a.begin(), a.end(), b.begin()); CHECK(*mm.first == 1);
    std::string text = "the cat sat on the mat"; std::string needle = "the";
    auto found = std::search(text.begin(), text.end(), std::boyer_moore_searcher(needle.begin(), needle.end()));
    CHECK(found == text.begin());
    CHECK(std::adjacent_find(h.begin(), h.end()) != h.end());
    std::cout << "OK\n";
    return 0;
}
