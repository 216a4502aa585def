// <iomanip>: widths, fills, alignment, precision, fixed/scientific/hexfloat, bases, showpos,
// quoted, put_time/get_time, and restoring stream flags.
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

template <class F> static std::string fmt(F f) { std::ostringstream o; f(o); return o.str(); }

int main() {
    CHECK(fmt([](auto &o) { o << std::setw(6) << 42; }) == "    42");
    CHECK(fmt([](auto &o) { o << std::left << std::setw(6) << 42 << '|'; }) == "42    |");
    CHECK(fmt([](auto &o) { o << std::setfill('0') << std::setw(5) << 7; }) == "00007");
    CHECK(fmt([](auto &o) { o << std::internal << std::showpos << std::setw(6) << 5; }) == "+    5");
    CHECK(fmt([](auto &o) { o << std::fixed << std::setprecision(3) << 3.14159; }) == "3.142");
    CHECK(fmt([](auto &o) { o << std::scientific << std::setprecision(2) << 12345.678; }) == "1.23e+04");
    CHECK(fmt([](auto &o) { o << std::setprecision(4) << 2.0 / 3; }) == "0.6667");
    CHECK(fmt([](auto &o) { o << std::hexfloat << 1.0; }) == "0x1p+0");
    CHECK(fmt([](auto &o) { o << std::hex << 255 << ' ' << std::uppercase << 255 << ' ' << std::oct << 8 << ' ' << std::dec << 10; }) == "ff FF 10 10");
    CHECK(fmt([](auto &o) { o << std::showbase << std::hex << 255; }) == "0xff");
    CHECK(fmt([](auto &o) { o << std::quoted("say \"hi\""); }) == "\"say \\\"hi\\\"\"");
    std::istringstream qi("\"two words\" rest"); std::string q; qi >> std::quoted(q); CHECK(q == "two words");

    // a table
    std::ostringstream table;
    const char *names[] = {"apple", "kiwi", "watermelon"}; double prices[] = {1.5, 0.25, 12};
    for (int i = 0; i < 3; i++) table << std::left << std::setw(12) << names[i] << std::right << std::setw(8) << std::fixed << std::setprecision(2) << prices[i] << '\n';
    CHECK(table.str() == "apple           1.50\nkiwi            0.25\nwatermelon     12.00\n");

    // flags restored
    std::ostringstream o2; auto saved = o2.flags(); o2 << std::hex << 16; o2.flags(saved); o2 << ' ' << 16;
    CHECK(o2.str() == "10 16");

    // time formatting and parsing
    std::tm t{}; std::istringstream ti("2024-02-29 13:45:00");
    ti >> std::get_time(&t, "%Y-%m-%d %H:%M:%S");
    CHECK(!ti.fail() && t.tm_year == 124 && t.tm_mon == 1 && t.tm_mday == 29 && t.tm_hour == 13);
    std::ostringstream to; to << std::put_time(&t, "%d/%m/%Y %H:%M"); CHECK(to.str() == "29/02/2024 13:45");
    std::cout << table.str() << "OK" << std::endl;
    return 0;
}
