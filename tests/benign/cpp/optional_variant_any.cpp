// Vocabulary types: std::optional, std::variant (visit, a tiny expression evaluator), std::any,
// std::pair/tuple with structured bindings, std::byte.
#include <any>
#include <cstddef>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

template <class... Ts> struct overloaded : Ts... { using Ts::operator()...; };
template <class... Ts> overloaded(Ts...) -> overloaded<Ts...>;

static std::optional<int> parse_int(const std::string &s) {
    try { size_t used; int v = std::stoi(s, &used); if (used != s.size()) return std::nullopt; return v; }
    catch (...) { return std::nullopt; }
}

struct Expr;
using ExprPtr = std::shared_ptr<Expr>;
struct Add { ExprPtr l, r; };
struct Mul { ExprPtr l, r; };
struct Expr { std::variant<double, Add, Mul> v; };
static double eval(const ExprPtr &e) {
    return std::visit(overloaded{
        [](double d) { return d; },
        [](const Add &a) { return eval(a.l) + eval(a.r); },
        [](const Mul &m) { return eval(m.l) * eval(m.r); }}, e->v);
}
static ExprPtr num(double d) { return std::make_shared<Expr>(Expr{d}); }

int main() {
    CHECK(parse_int("42") == 42 && !parse_int("4x2") && !parse_int(""));
    std::optional<std::string> name;
    CHECK(!name.has_value() && name.value_or("anon") == "anon");
    name = "bob"; CHECK(name && *name == "bob" && name->size() == 3);
    name.reset(); bool threw = false; try { (void)name.value(); } catch (const std::bad_optional_access &) { threw = true; } CHECK(threw);
    std::optional<std::vector<int>> ov(std::in_place, 3, 7); CHECK(ov->size() == 3 && (*ov)[2] == 7);

    using Value = std::variant<int, double, std::string>;
    std::vector<Value> values{1, 2.5, std::string("three"), 4};
    double total = 0; std::string text;
    for (auto &v : values) std::visit(overloaded{[&](int i) { total += i; }, [&](double d) { total += d; }, [&](const std::string &s) { text += s; }}, v);
    CHECK(total == 7.5 && text == "three");
    Value v = 10; CHECK(std::holds_alternative<int>(v) && std::get<int>(v) == 10 && v.index() == 0);
    v = "str"; CHECK(v.index() == 2 && std::get_if<int>(&v) == nullptr);
    threw = false; try { (void)std::get<double>(v); } catch (const std::bad_variant_access &) { threw = true; } CHECK(threw);
    std::variant<std::monostate, int> mono; CHECK(mono.index() == 0);

    auto e = std::make_shared<Expr>(Expr{Add{num(2), std::make_shared<Expr>(Expr{Mul{num(3), num(4)}})}});
    CHECK(eval(e) == 14.0);

    std::any a = 5; CHECK(a.type() == typeid(int) && std::any_cast<int>(a) == 5);
    a = std::string("any string"); CHECK(std::any_cast<std::string &>(a).size() == 10);
    threw = false; try { (void)std::any_cast<int>(a); } catch (const std::bad_any_cast &) { threw = true; } CHECK(threw);
    CHECK(std::any_cast<double>(&a) == nullptr);
    std::map<std::string, std::any> props{{"w", 3}, {"label", std::string("box")}, {"ratio", 0.5}};
    CHECK(std::any_cast<int>(props["w"]) == 3 && std::any_cast<double>(props["ratio"]) == 0.5);
    a.reset(); CHECK(!a.has_value());

    std::map<std::string, std::pair<int, double>> m{{"x", {1, 1.5}}, {"y", {2, 2.5}}};
    double acc = 0; for (const auto &[key, pr] : m) { auto [i, d] = pr; acc += i * d; } CHECK(acc == 6.5);
    auto tup = std::tuple<int, std::string, char>(1, "two", '3');
    auto &[ti, ts, tc] = tup; ts += "!"; CHECK(std::get<1>(tup) == "two!" && ti == 1 && tc == '3');
    std::byte bt{0x0F}; bt <<= 4; CHECK(std::to_integer<int>(bt) == 0xF0 && std::to_integer<int>(bt | std::byte{1}) == 0xF1);
    std::cout << "OK\n";
    return 0;
}
