// Templates and compile-time code: function/class templates, specialization, variadic templates and
// fold expressions, constexpr functions and if constexpr, type traits, SFINAE, CRTP, static_assert.
#include <array>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

constexpr uint64_t fact(unsigned n) { return n <= 1 ? 1 : n * fact(n - 1); }
constexpr bool is_prime(unsigned n) { if (n < 2) return false; for (unsigned d = 2; d * d <= n; d++) if (n % d == 0) return false; return true; }
template <size_t N> constexpr std::array<unsigned, N> first_primes() {
    std::array<unsigned, N> a{}; size_t k = 0;
    for (unsigned n = 2; k < N; n++) if (is_prime(n)) a[k++] = n;
    return a;
}
constexpr auto primes = first_primes<20>();
static_assert(fact(20) == 2432902008176640000ULL && primes[19] == 71, "compile-time evaluation");

template <class... Ts> constexpr auto sum(Ts... xs) { return (xs + ... + 0); }
template <class... Ts> std::string join(const Ts &...xs) { std::string s; ((s += std::to_string(xs) + ","), ...); return s; }
template <class T> std::string kind(const T &) {
    if constexpr (std::is_integral_v<T>) return "integral";
    else if constexpr (std::is_floating_point_v<T>) return "floating";
    else return "other";
}

template <class T> struct Stack {
    std::vector<T> items;
    void push(T v) { items.push_back(std::move(v)); }
    T pop() { T v = items.back(); items.pop_back(); return v; }
    bool empty() const { return items.empty(); }
};
template <> struct Stack<bool> { int n = 0; void push(bool) { n++; } };   // a full specialization

template <class T, class = void> struct has_size : std::false_type {};
template <class T> struct has_size<T, std::void_t<decltype(std::declval<T>().size())>> : std::true_type {};
template <class T> std::enable_if_t<has_size<T>::value, size_t> length(const T &t) { return t.size(); }
template <class T> std::enable_if_t<!has_size<T>::value, size_t> length(const T &) { return 1; }

template <class Derived> struct Shape { double area() const { return static_cast<const Derived *>(this)->area_impl(); } };
struct Square : Shape<Square> { double s; explicit Square(double x) : s(x) {} double area_impl() const { return s * s; } };

template <int N> struct Fib { static constexpr long value = Fib<N - 1>::value + Fib<N - 2>::value; };
template <> struct Fib<0> { static constexpr long value = 0; };
template <> struct Fib<1> { static constexpr long value = 1; };

template <class Tuple, size_t... I> auto tuple_sum(const Tuple &t, std::index_sequence<I...>) { return (std::get<I>(t) + ...); }

template <class T, size_t N> constexpr size_t count_of(const T (&)[N]) { return N; }

int main() {
    CHECK(sum(1, 2, 3, 4) == 10 && sum() == 0 && sum(1.5, 2.5) == 4.0);
    CHECK(join(1, 2, 3) == "1,2,3,");
    CHECK(kind(1) == "integral" && kind(1.0) == "floating" && kind(std::string()) == "other");
    Stack<std::string> st; st.push("a"); st.push("b"); CHECK(st.pop() == "b" && !st.empty());
    Stack<bool> sb; sb.push(true); sb.push(false); CHECK(sb.n == 2);
    CHECK(length(std::vector<int>(5)) == 5 && length(42) == 1);
    CHECK(Square(3).area() == 9.0);
    static_assert(Fib<50>::value == 12586269025L);
    auto t = std::make_tuple(1, 2L, 3.5);
    CHECK(tuple_sum(t, std::make_index_sequence<3>{}) == 6.5);
    auto [x, y, z] = t; CHECK(x == 1 && y == 2 && z == 3.5);
    CHECK(std::apply([](auto... a) { return sizeof...(a); }, t) == 3);
    int arr[7]; static_assert(count_of(arr) == 7);
    static_assert(std::is_same_v<std::decay_t<const int &>, int> && std::is_base_of_v<Shape<Square>, Square>);
    static_assert(std::is_trivially_copyable_v<std::array<int, 3>> && !std::is_copy_constructible_v<std::unique_ptr<int>>);
    constexpr auto sq = [](int v) constexpr { return v * v; }; static_assert(sq(12) == 144);
    unsigned runtime_n = static_cast<unsigned>(primes.size());
    CHECK(fact(runtime_n) == 2432902008176640000ULL);
    std::cout << "OK\n";
    return 0;
}
