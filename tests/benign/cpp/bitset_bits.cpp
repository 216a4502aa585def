// Bit manipulation: std::bitset (sieve, set operations, string conversion), vector<bool>,
// builtin popcount/ctz/clz, bit tricks.
#include <bitset>
#include <cstdint>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

static std::bitset<2000001> composite;

int main() {
    composite[0] = composite[1] = true;
    for (size_t i = 2; i * i <= 2000000; i++) if (!composite[i]) for (size_t j = i * i; j <= 2000000; j += i) composite[j] = true;
    CHECK(2000001 - composite.count() == 148933);

    std::bitset<8> b("10110010");
    CHECK(b.count() == 4 && b[1] && !b[0] && b.to_ulong() == 0xB2 && b.to_string() == "10110010");
    CHECK((b << 1).to_ulong() == 0x64 && (~b).to_ulong() == 0x4D && (b & std::bitset<8>(0x0F)).to_ulong() == 2);
    b.flip(0).set(2).reset(7); CHECK(b.to_string() == "00110111");
    CHECK(b.any() && !b.none() && !b.all() && std::bitset<4>(15).all());
    bool threw = false; try { (void)b.test(8); } catch (const std::out_of_range &) { threw = true; } CHECK(threw);
    std::bitset<64> big(0xDEADBEEFCAFEBABEull); CHECK(big.to_ullong() == 0xDEADBEEFCAFEBABEull && big.count() == 46);

    // subset enumeration with bitmasks: count subsets of 20 items with even popcount
    int even = 0; for (uint32_t m = 0; m < (1u << 20); m++) even += (__builtin_popcount(m) % 2 == 0);
    CHECK(even == 1 << 19);
    CHECK(__builtin_ctz(40) == 3 && __builtin_clz(1u) == 31 && __builtin_popcountll(~0ull) == 64 && __builtin_parity(7) == 1);
    uint32_t v = 0b101100; CHECK((v & -v) == 0b100 && (v & (v - 1)) == 0b101000);
    uint64_t r = 0x0123456789ABCDEFull; CHECK(__builtin_bswap64(r) == 0xEFCDAB8967452301ull);

    std::vector<bool> vb(1000000); for (size_t i = 0; i < vb.size(); i += 3) vb[i] = true;
    size_t ones = 0; for (bool x : vb) ones += x; CHECK(ones == 333334);
    vb.flip(); CHECK(!vb[0] && vb[1]);

    // bitset-based reachability closure on a small graph (Floyd-Warshall on bitsets)
    const int n = 200; std::vector<std::bitset<200>> reach(n);
    for (int i = 0; i < n; i++) { reach[i][i] = true; reach[i][(i + 1) % n] = (i % 50 != 49); }
    for (int k = 0; k < n; k++) for (int i = 0; i < n; i++) if (reach[i][k]) reach[i] |= reach[k];
    CHECK(reach[0].count() == 50 && reach[0][49] && !reach[0][50]);
    std::cout << "OK\n";
    return 0;
}
