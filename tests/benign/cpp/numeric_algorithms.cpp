// <numeric> and <cmath>: accumulate, reduce, transform_reduce, inner_product, partial_sum,
// inclusive/exclusive scans, adjacent_difference, iota, gcd/lcm, complex numbers, valarray,
// numeric_limits, a small linear solver.
#include <cmath>
#include <complex>
#include <functional>
#include <iostream>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <valarray>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

int main() {
    std::vector<long> v(1000); std::iota(v.begin(), v.end(), 1);
    CHECK(std::accumulate(v.begin(), v.end(), 0L) == 500500);
    CHECK(std::reduce(v.begin(), v.end()) == 500500 && std::reduce(v.begin(), v.begin() + 10, 1L, std::multiplies<>()) == 3628800);
    CHECK(std::inner_product(v.begin(), v.begin() + 3, v.begin(), 0L) == 14);
    CHECK(std::transform_reduce(v.begin(), v.end(), 0L, std::plus<>(), [](long x) { return x * x; }) == 333833500L);
    std::vector<long> ps(10); std::partial_sum(v.begin(), v.begin() + 10, ps.begin()); CHECK(ps[9] == 55);
    std::vector<long> inc(5), exc(5);
    std::inclusive_scan(v.begin(), v.begin() + 5, inc.begin()); std::exclusive_scan(v.begin(), v.begin() + 5, exc.begin(), 0L);
    CHECK(inc[4] == 15 && exc[4] == 10 && exc[0] == 0);
    std::vector<long> diff(10); std::adjacent_difference(ps.begin(), ps.end(), diff.begin());
    CHECK(diff[0] == 1 && diff[9] == 10);
    CHECK(std::gcd(84, 36) == 12 && std::lcm(4, 6) == 12 && std::gcd(0, 5) == 5);

    std::complex<double> z(3, 4);
    CHECK(std::abs(z) == 5.0 && std::norm(z) == 25.0 && std::conj(z) == std::complex<double>(3, -4));
    auto e = std::exp(std::complex<double>(0, M_PI)); CHECK(std::abs(e.real() + 1) < 1e-15 && std::abs(e.imag()) < 1e-15);
    auto root = std::sqrt(std::complex<double>(-4, 0)); CHECK(std::abs(root - std::complex<double>(0, 2)) < 1e-15);

    std::valarray<double> va{1, 2, 3, 4}; std::valarray<double> vb = va * 2.0 + 1.0;
    CHECK(vb.sum() == 24 && vb.max() == 9 && (va * va).sum() == 30 && std::sqrt(va)[3] == 2.0);
    std::valarray<double> sl = va[std::slice(0, 2, 2)]; CHECK(sl[0] == 1 && sl[1] == 3);

    static_assert(std::numeric_limits<int>::max() == 2147483647 && std::numeric_limits<unsigned char>::digits == 8);
    CHECK(std::numeric_limits<double>::epsilon() == std::nextafter(1.0, 2.0) - 1.0 && std::isinf(std::numeric_limits<double>::infinity()));
    CHECK(std::isnan(std::numeric_limits<double>::quiet_NaN()));
    CHECK(std::hypot(3.0, 4.0, 12.0) == 13.0 && std::fabs(std::tgamma(6.0) - 120) < 1e-9 && std::cbrt(-27.0) == -3.0);
    CHECK(std::fabs(std::riemann_zeta(2.0) - M_PI * M_PI / 6) < 1e-12 && std::fabs(std::beta(2.0, 3.0) - 1.0 / 12) < 1e-12);

    // Gaussian elimination on a 200x200 diagonally dominant system with a known solution
    const int n = 200; std::vector<std::vector<double>> A(n, std::vector<double>(n + 1));
    std::vector<double> want(n); for (int i = 0; i < n; i++) want[i] = std::sin(i + 1.0);
    for (int i = 0; i < n; i++) { double row = 0; for (int j = 0; j < n; j++) { A[i][j] = (i == j) ? n * 2.0 : 1.0 / (1 + i + j); row += A[i][j] * want[j]; } A[i][n] = row; }
    for (int c = 0; c < n; c++) for (int r = c + 1; r < n; r++) { double f = A[r][c] / A[c][c]; for (int k = c; k <= n; k++) A[r][k] -= f * A[c][k]; }
    std::vector<double> x(n);
    for (int i = n - 1; i >= 0; i--) { double s = A[i][n]; for (int j = i + 1; j < n; j++) s -= A[i][j] * x[j]; x[i] = s / A[i][i]; }
    for (int i = 0; i < n; i++) CHECK(std::fabs(x[i] - want[i]) < 1e-10);
    std::cout << "OK\n";
    return 0;
}
