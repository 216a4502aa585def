// <chrono>: clocks (system, steady, high_resolution), durations and casts, sleeps, time_points,
// conversion to time_t and calendar formatting, a simple stopwatch.
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <ratio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)
using namespace std::chrono;
using namespace std::chrono_literals;

int main() {
    static_assert(steady_clock::is_steady);
    auto s0 = steady_clock::now();
    std::this_thread::sleep_for(30ms);
    auto s1 = steady_clock::now();
    auto waited = duration_cast<milliseconds>(s1 - s0);
    CHECK(waited >= 30ms && waited < 2s);
    std::this_thread::sleep_until(steady_clock::now() + 5ms);
    CHECK(steady_clock::now() - s1 >= 5ms);

    auto h0 = high_resolution_clock::now(); volatile double x = 0; for (int i = 0; i < 1000000; i++) x += i;
    CHECK(high_resolution_clock::now() >= h0);

    auto now = system_clock::now();
    std::time_t tt = system_clock::to_time_t(now);
    CHECK(tt > 1577836800);                    // after 2020
    CHECK(duration_cast<seconds>(now.time_since_epoch()).count() == tt || duration_cast<seconds>(now.time_since_epoch()).count() == tt + 1 || duration_cast<seconds>(now.time_since_epoch()).count() == tt - 1);

    // a fixed instant, formatted in UTC
    system_clock::time_point fixed{seconds{1700000000}};
    std::time_t ft = system_clock::to_time_t(fixed);
    std::tm utc{}; gmtime_r(&ft, &utc);
    std::ostringstream os; os << std::put_time(&utc, "%F %T");
    CHECK(os.str() == "2023-11-14 22:13:20");
    CHECK(system_clock::from_time_t(ft) == fixed);

    // durations and arithmetic
    auto d = 1h + 30min + 15s + 500ms;
    CHECK(duration_cast<seconds>(d).count() == 5415 && duration_cast<minutes>(d).count() == 90);
    CHECK(duration<double>(d).count() == 5415.5);
    CHECK(floor<minutes>(d) == 90min && ceil<minutes>(d) == 91min && round<seconds>(1500ms) == 2s);
    using days = duration<int, std::ratio<86400>>;
    CHECK(duration_cast<hours>(days(2)).count() == 48);
    CHECK((microseconds(1) + nanoseconds(1)).count() == 1001);
    CHECK(abs(-5s) == 5s && (10s / 3) == 3s && (10s % 3s) == 1s);
    auto tp = time_point_cast<seconds>(fixed + 1500ms);
    CHECK(tp.time_since_epoch().count() == 1700000001);

    // a stopwatch over some work
    auto t0 = steady_clock::now();
    long long acc = 0; for (int i = 0; i < 5000000; i++) acc += i % 7;
    auto elapsed = duration_cast<microseconds>(steady_clock::now() - t0);
    CHECK(acc > 0 && elapsed.count() >= 0);
    std::cout << "slept " << waited.count() << " ms\nOK\n";
    return 0;
}
