// STL containers: vector, deque, list, forward_list, array, set/multiset, map/multimap,
// unordered_set, priority_queue, stack, queue, and their iterators.
#include <array>
#include <deque>
#include <forward_list>
#include <iostream>
#include <list>
#include <map>
#include <queue>
#include <set>
#include <stack>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

int main() {
    std::vector<int> v;
    for (int i = 0; i < 100000; i++) v.push_back(i * 3 % 1000);
    CHECK(v.size() == 100000 && v.front() == 0 && v.back() == 99999 * 3 % 1000);
    v.erase(v.begin(), v.begin() + 50000);
    v.insert(v.begin(), {7, 8, 9});
    CHECK(v.size() == 50003 && v[0] == 7 && v.at(2) == 9);
    bool threw = false; try { (void)v.at(1000000); } catch (const std::out_of_range &) { threw = true; }
    CHECK(threw);
    v.resize(10); v.shrink_to_fit(); CHECK(v.capacity() >= 10);
    std::vector<std::vector<int>> grid(100, std::vector<int>(100, 1));
    long gs = 0; for (auto &row : grid) for (int x : row) gs += x; CHECK(gs == 10000);

    std::deque<int> dq; for (int i = 0; i < 1000; i++) { dq.push_back(i); dq.push_front(-i); }
    CHECK(dq.size() == 2000 && dq.front() == -999 && dq.back() == 999);
    dq.pop_front(); dq.pop_back(); CHECK(dq[0] == -998);

    std::list<int> l{5, 1, 4, 2, 3};
    l.sort(); CHECK((l == std::list<int>{1, 2, 3, 4, 5}));
    l.remove_if([](int x) { return x % 2 == 0; }); l.reverse(); CHECK((l == std::list<int>{5, 3, 1}));
    std::list<int> other{9, 10}; l.splice(l.begin(), other); CHECK(l.size() == 5 && other.empty() && l.front() == 9);
    std::forward_list<int> fl{3, 1, 2}; fl.sort(); fl.push_front(0); CHECK(*fl.begin() == 0);

    std::array<int, 5> arr{{5, 4, 3, 2, 1}}; CHECK(arr.size() == 5 && arr[4] == 1);

    std::set<std::string> s{"pear", "apple", "fig", "apple"};
    CHECK(s.size() == 3 && *s.begin() == "apple" && s.count("fig") == 1);
    auto it = s.lower_bound("b"); CHECK(*it == "fig");
    std::multiset<int> ms{1, 1, 2, 3, 3, 3}; CHECK(ms.count(3) == 3); ms.erase(ms.find(3)); CHECK(ms.count(3) == 2);

    std::map<std::string, int> m;
    for (const char *w : {"a", "b", "a", "c", "a", "b"}) m[w]++;
    CHECK(m["a"] == 3 && m.at("b") == 2 && m.size() == 3);
    auto [pos, inserted] = m.insert({"a", 100}); CHECK(!inserted && pos->second == 3);
    m.insert_or_assign("a", 100); CHECK(m["a"] == 100);
    CHECK(m.find("z") == m.end() && m.rbegin()->first == "c");
    std::multimap<int, std::string> mm{{1, "x"}, {1, "y"}, {2, "z"}};
    auto range = mm.equal_range(1); CHECK(std::distance(range.first, range.second) == 2);

    std::unordered_set<long> us; for (long i = 0; i < 100000; i++) us.insert(i * i);
    CHECK(us.size() == 100000 && us.count(99999L * 99999) && !us.count(3));
    us.reserve(200000); CHECK(us.bucket_count() >= 200000 / us.max_load_factor() - 1);

    std::priority_queue<int> pq; for (int x : {5, 1, 9, 3}) pq.push(x);
    CHECK(pq.top() == 9); pq.pop(); CHECK(pq.top() == 5);
    std::priority_queue<std::pair<int, int>, std::vector<std::pair<int, int>>, std::greater<>> minpq;
    minpq.emplace(3, 1); minpq.emplace(1, 2); minpq.emplace(2, 3); CHECK(minpq.top().second == 2);
    std::stack<int> st; st.push(1); st.push(2); CHECK(st.top() == 2 && st.size() == 2);
    std::queue<int> q; q.push(1); q.push(2); q.pop(); CHECK(q.front() == 2);

    std::cout << "containers fine\n" << "OK" << std::endl;
    return 0;
}
