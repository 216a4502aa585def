// Concurrency: std::thread, mutex/lock_guard/unique_lock/scoped_lock, condition_variable (a work
// queue), shared_mutex, async/future/promise/packaged_task, atomics, call_once, thread_local.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <iostream>
#include <mutex>
#include <numeric>
#include <queue>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)
using namespace std::chrono_literals;

class WorkQueue {
    std::mutex m; std::condition_variable cv; std::queue<int> q; bool closed = false;
public:
    void push(int v) { { std::lock_guard<std::mutex> g(m); q.push(v); } cv.notify_one(); }
    void close() { { std::lock_guard<std::mutex> g(m); closed = true; } cv.notify_all(); }
    bool pop(int &v) {
        std::unique_lock<std::mutex> lk(m);
        cv.wait(lk, [&] { return !q.empty() || closed; });
        if (q.empty()) return false;
        v = q.front(); q.pop(); return true;
    }
};

thread_local int tls_id = -1;
static std::once_flag once; static std::atomic<int> once_count{0};

int main() {
    unsigned hc = std::thread::hardware_concurrency(); CHECK(hc >= 1);

    // a mutex-protected counter
    long counter = 0; std::mutex m;
    std::vector<std::thread> ts;
    for (int i = 0; i < 8; i++) ts.emplace_back([&, i] {
        tls_id = i;
        std::call_once(once, [] { once_count++; });
        for (int k = 0; k < 50000; k++) { std::lock_guard<std::mutex> g(m); counter++; }
        if (tls_id != i) throw std::logic_error("thread_local");
    });
    for (auto &t : ts) t.join();
    CHECK(counter == 400000 && once_count == 1 && tls_id == -1);

    // atomics
    std::atomic<long> acount{0}; std::atomic<bool> go{false};
    ts.clear();
    for (int i = 0; i < 4; i++) ts.emplace_back([&] { while (!go.load(std::memory_order_acquire)) std::this_thread::yield(); for (int k = 0; k < 100000; k++) acount.fetch_add(1, std::memory_order_relaxed); });
    go.store(true, std::memory_order_release);
    for (auto &t : ts) t.join();
    CHECK(acount == 400000);
    std::atomic<int> cas{5}; int expected = 5; CHECK(cas.compare_exchange_strong(expected, 6) && cas == 6);

    // producer/consumer over a condition variable
    WorkQueue wq; std::atomic<long> consumed{0};
    std::vector<std::thread> consumers;
    for (int i = 0; i < 3; i++) consumers.emplace_back([&] { int v; while (wq.pop(v)) consumed += v; });
    for (int i = 1; i <= 10000; i++) wq.push(i);
    wq.close();
    for (auto &t : consumers) t.join();
    CHECK(consumed == 50005000);

    // shared_mutex: many readers, one writer
    std::shared_mutex sm; std::vector<int> table(100, 0); std::atomic<int> consistent{0};
    ts.clear();
    for (int i = 0; i < 4; i++) ts.emplace_back([&, i] {
        for (int r = 0; r < 500; r++) {
            if (i == 0 && r % 5 == 0) { std::unique_lock lk(sm); for (auto &x : table) x++; }
            else { std::shared_lock lk(sm); bool ok = true; for (int x : table) ok &= x == table[0]; if (ok) consistent++; }
        }
    });
    for (auto &t : ts) t.join();
    CHECK(table[99] == 100 && consistent == 2000 - 100);

    // scoped_lock over two mutexes (no deadlock regardless of order)
    std::mutex a, b; int transfers = 0;
    std::thread t1([&] { for (int i = 0; i < 10000; i++) { std::scoped_lock lk(a, b); transfers++; } });
    std::thread t2([&] { for (int i = 0; i < 10000; i++) { std::scoped_lock lk(b, a); transfers++; } });
    t1.join(); t2.join(); CHECK(transfers == 20000);

    // futures
    std::vector<long> data(1000000); std::iota(data.begin(), data.end(), 0);
    auto half = data.begin() + data.size() / 2;
    auto f1 = std::async(std::launch::async, [&] { return std::accumulate(data.begin(), half, 0L); });
    auto f2 = std::async(std::launch::deferred, [&] { return std::accumulate(half, data.end(), 0L); });
    CHECK(f1.get() + f2.get() == 499999500000L);
    std::promise<std::string> pr; auto fut = pr.get_future();
    std::thread setter([&] { std::this_thread::sleep_for(10ms); pr.set_value("delivered"); });
    CHECK(fut.wait_for(5s) == std::future_status::ready && fut.get() == "delivered");
    setter.join();
    std::packaged_task<int(int)> task([](int x) { return x * 3; }); auto tf = task.get_future();
    std::thread tt(std::move(task), 14); tt.join(); CHECK(tf.get() == 42);
    auto failing = std::async(std::launch::async, [] { throw std::runtime_error("from task"); return 0; });
    bool threw = false; try { failing.get(); } catch (const std::runtime_error &) { threw = true; } CHECK(threw);
    std::shared_future<int> sf = std::async(std::launch::async, [] { return 7; }).share();
    auto w1 = std::async(std::launch::async, [sf] { return sf.get() + 1; }), w2 = std::async(std::launch::async, [sf] { return sf.get() + 2; });
    CHECK(w1.get() + w2.get() == 17);

    // timed waits
    std::timed_mutex tm; tm.lock();
    std::thread waiter([&] { CHECK(!tm.try_lock_for(20ms)); });
    waiter.join(); tm.unlock();
    std::condition_variable cv; std::mutex cm; std::unique_lock<std::mutex> lk(cm);
    CHECK(cv.wait_for(lk, 10ms) == std::cv_status::timeout);
    std::cout << "OK" << std::endl;
    return 0;
}
