// Exceptions: standard hierarchy, custom types, rethrow, nested exceptions, exception_ptr across
// threads, noexcept, RAII unwinding, function-try-blocks, and library errors (bad_alloc-free).
#include <cstdint>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <typeinfo>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::logic_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

struct ParseError : std::runtime_error {
    int line;
    ParseError(const std::string &m, int l) : std::runtime_error(m), line(l) {}
};
static int unwound = 0;
struct Guard { ~Guard() { unwound++; } };

static int parse(int depth) {
    Guard g;
    if (depth == 20) throw ParseError("unexpected token", 42);
    return parse(depth + 1);
}
static void wrap() {
    try { parse(0); }
    catch (...) { std::throw_with_nested(std::runtime_error("while loading config")); }
}
static std::string describe(const std::exception &e, int level = 0) {
    std::string s = std::string(level, ' ') + e.what() + "\n";
    try { std::rethrow_if_nested(e); } catch (const std::exception &inner) { s += describe(inner, level + 1); }
    return s;
}
static int noexcept_fn() noexcept { return 1; }
struct Widget {
    std::vector<int> data;
    explicit Widget(int n) try : data(n > 0 ? n : throw std::invalid_argument("n")) {}
    catch (const std::invalid_argument &) { throw std::domain_error("Widget needs n > 0"); }
};

int main() {
    try { parse(0); CHECK(false); }
    catch (const ParseError &e) { CHECK(e.line == 42 && std::string(e.what()) == "unexpected token"); }
    CHECK(unwound == 21);

    try { wrap(); }
    catch (const std::exception &e) { CHECK(describe(e) == "while loading config\n unexpected token\n"); }

    int caught = 0;
    try { try { throw std::out_of_range("inner"); } catch (const std::logic_error &) { caught++; throw; } }
    catch (const std::out_of_range &e) { caught++; CHECK(std::string(e.what()) == "inner"); }
    CHECK(caught == 2);

    std::exception_ptr ep;
    std::thread t([&] { try { throw std::system_error(std::make_error_code(std::errc::permission_denied), "thread op"); } catch (...) { ep = std::current_exception(); } });
    t.join();
    try { if (ep) std::rethrow_exception(ep); CHECK(false); }
    catch (const std::system_error &e) { CHECK(e.code() == std::errc::permission_denied); }

    try { std::vector<int> v; v.at(3); } catch (const std::out_of_range &) { caught++; }
    try { std::map<int, int> m; (void)m.at(1); } catch (const std::out_of_range &) { caught++; }
    try { std::vector<int> huge(SIZE_MAX / 2); } catch (const std::length_error &) { caught++; }
    try { std::string s("abc"); (void)s.substr(10); } catch (const std::out_of_range &) { caught++; }
    struct Base { virtual ~Base() = default; } b; struct Other : Base {};
    try { (void)dynamic_cast<Other &>(b); } catch (const std::bad_cast &) { caught++; }
    try { std::shared_ptr<int> sp; std::weak_ptr<int> wp = sp; std::shared_ptr<int> locked(wp); } catch (const std::bad_weak_ptr &) { caught++; }
    try { Widget w(0); } catch (const std::domain_error &) { caught++; }
    try { throw 17; } catch (int v) { caught += v == 17; }
    try { throw std::string("str"); } catch (const std::string &s) { caught += s == "str"; }
    CHECK(caught == 11);
    static_assert(noexcept(noexcept_fn()), "noexcept");
    CHECK(noexcept_fn() == 1 && std::uncaught_exceptions() == 0);
    std::cout << "OK" << std::endl;
    return 0;
}
