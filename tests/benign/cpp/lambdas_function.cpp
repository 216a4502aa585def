// Lambdas and callables: captures (value, reference, init, this), mutable, generic lambdas,
// std::function (recursion, containers of callbacks), std::bind, std::invoke, member pointers.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

struct Counter {
    int count = 0;
    auto incrementer() { return [this](int by) { count += by; }; }
    int twice(int v) const { return 2 * v; }
};

static std::function<int(int)> make_adder(int n) { return [n](int x) { return x + n; }; }

int main() {
    int base = 10;
    auto by_value = [base](int x) { return x + base; };
    auto by_ref = [&base](int x) { base += x; };
    base = 20;
    CHECK(by_value(1) == 11);
    by_ref(5); CHECK(base == 25);
    auto counter = [n = 0]() mutable { return ++n; };
    counter(); counter(); CHECK(counter() == 3);
    auto owned = [p = std::make_unique<int>(7)] { return *p; }; CHECK(owned() == 7);
    auto generic = [](auto a, auto b) { return a + b; };
    CHECK(generic(1, 2) == 3 && generic(std::string("a"), std::string("b")) == "ab");

    std::function<long(int)> fib = [&](int n) -> long { return n < 2 ? n : fib(n - 1) + fib(n - 2); };
    CHECK(fib(25) == 75025);
    auto add5 = make_adder(5); CHECK(add5(10) == 15);

    std::map<std::string, std::function<double(double, double)>> ops{
        {"+", std::plus<double>()}, {"-", std::minus<>()}, {"*", [](double a, double b) { return a * b; }},
        {"/", [](double a, double b) { if (b == 0) throw std::domain_error("div by zero"); return a / b; }}};
    CHECK(ops["+"](2, 3) == 5 && ops["-"](2, 3) == -1 && ops["*"](2, 3) == 6 && ops["/"](3, 2) == 1.5);
    bool threw = false; try { ops["/"](1, 0); } catch (const std::domain_error &) { threw = true; } CHECK(threw);

    std::vector<std::function<void()>> callbacks; std::vector<int> fired;
    for (int i = 0; i < 5; i++) callbacks.emplace_back([i, &fired] { fired.push_back(i * i); });
    for (auto &cb : callbacks) cb();
    CHECK((fired == std::vector<int>{0, 1, 4, 9, 16}));

    using namespace std::placeholders;
    auto sub = [](int a, int b) { return a - b; };
    auto flipped = std::bind(sub, _2, _1); CHECK(flipped(1, 10) == 9);
    auto minus3 = std::bind(sub, _1, 3); CHECK(minus3(10) == 7);

    Counter c; auto inc = c.incrementer(); inc(3); inc(4); CHECK(c.count == 7);
    int (Counter::*mf)(int) const = &Counter::twice; CHECK((c.*mf)(21) == 42 && std::invoke(mf, c, 5) == 10);
    CHECK(std::invoke(&Counter::count, c) == 7);
    auto mfn = std::mem_fn(&Counter::twice); CHECK(mfn(c, 4) == 8);

    std::vector<int> v(100); std::iota(v.begin(), v.end(), 1);
    int threshold = 50;
    auto n = std::count_if(v.begin(), v.end(), [threshold](int x) { return x > threshold; }); CHECK(n == 50);
    std::sort(v.begin(), v.end(), [](int a, int b) { return (a % 10) != (b % 10) ? (a % 10) < (b % 10) : a < b; });
    CHECK(v[0] == 10 && v[1] == 20 && v[10] == 1);
    auto compose = [](auto f, auto g) { return [=](auto x) { return f(g(x)); }; };
    auto inc_then_double = compose([](int x) { return x * 2; }, [](int x) { return x + 1; });
    CHECK(inc_then_double(4) == 10);
    std::function<void()> empty; CHECK(!empty);
    threw = false; try { empty(); } catch (const std::bad_function_call &) { threw = true; } CHECK(threw);
    std::cout << "OK\n";
    return 0;
}
