// <random>: standard engines with their specified outputs, distributions (uniform, normal, poisson,
// bernoulli, discrete), seed_seq, shuffle/sample, and std::random_device.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <iterator>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

int main() {
    // the standard fixes the 10000th output of a default-constructed engine
    std::mt19937 mt; mt.discard(9999); CHECK(mt() == 4123659995u);
    std::mt19937_64 mt64; mt64.discard(9999); CHECK(mt64() == 9981545732273789042ull);
    std::minstd_rand0 lcg; lcg.discard(9999); CHECK(lcg() == 1043618065u);
    std::ranlux24 rl; rl.discard(9999); CHECK(rl() == 9901578u);

    // same seed, same sequence
    std::mt19937 a(12345), b(12345);
    for (int i = 0; i < 1000; i++) CHECK(a() == b());
    std::seed_seq seq{1, 2, 3}; std::mt19937 c(seq); std::seed_seq seq2{1, 2, 3}; std::mt19937 d(seq2); CHECK(c() == d());

    // distributions: check moments over many samples
    std::mt19937 g(42);
    std::uniform_int_distribution<int> die(1, 6); std::map<int, int> counts;
    for (int i = 0; i < 600000; i++) counts[die(g)]++;
    CHECK(counts.size() == 6); for (auto &[face, n] : counts) CHECK(n > 97000 && n < 103000);
    std::uniform_real_distribution<double> unif(0.0, 1.0); double us = 0;
    for (int i = 0; i < 200000; i++) { double u = unif(g); CHECK(u >= 0 && u < 1); us += u; }
    CHECK(std::fabs(us / 200000 - 0.5) < 0.01);
    std::normal_distribution<double> normal(10.0, 2.0); double ns = 0, nss = 0;
    for (int i = 0; i < 200000; i++) { double v = normal(g); ns += v; nss += v * v; }
    double mean = ns / 200000, var = nss / 200000 - mean * mean;
    CHECK(std::fabs(mean - 10.0) < 0.05 && std::fabs(var - 4.0) < 0.1);
    std::poisson_distribution<int> pois(3.0); long ps = 0; for (int i = 0; i < 100000; i++) ps += pois(g);
    CHECK(std::fabs(ps / 100000.0 - 3.0) < 0.05);
    std::bernoulli_distribution coin(0.25); int heads = 0; for (int i = 0; i < 100000; i++) heads += coin(g);
    CHECK(heads > 24000 && heads < 26000);
    std::discrete_distribution<int> disc({1, 0, 3}); int dc[3] = {0, 0, 0}; for (int i = 0; i < 40000; i++) dc[disc(g)]++;
    CHECK(dc[1] == 0 && dc[2] > dc[0] * 2);
    std::exponential_distribution<double> expo(2.0); double es = 0; for (int i = 0; i < 100000; i++) es += expo(g);
    CHECK(std::fabs(es / 100000 - 0.5) < 0.01);

    // shuffle and sample
    std::vector<int> v(1000); std::iota(v.begin(), v.end(), 0);
    std::shuffle(v.begin(), v.end(), g);
    CHECK(!std::is_sorted(v.begin(), v.end()));
    std::vector<int> sorted = v; std::sort(sorted.begin(), sorted.end()); for (int i = 0; i < 1000; i++) CHECK(sorted[i] == i);
    std::vector<int> picked; std::sample(sorted.begin(), sorted.end(), std::back_inserter(picked), 10, g);
    CHECK(picked.size() == 10 && std::is_sorted(picked.begin(), picked.end()));

    // nondeterministic seeding
    std::random_device rd; std::set<unsigned> seen; for (int i = 0; i < 16; i++) seen.insert(rd());
    CHECK(seen.size() > 10);
    std::mt19937 seeded(rd()); (void)seeded();
    std::cout << "OK\n";
    return 0;
}
