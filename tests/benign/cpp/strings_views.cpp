// std::string and std::string_view: building, searching, slicing, conversions, splitting,
// case and trimming, char_traits, u8/u16/u32 strings.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)
using namespace std::literals;

static std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); i++)
        if (i == s.size() || s[i] == sep) { out.push_back(s.substr(start, i - start)); start = i + 1; }
    return out;
}
static std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace((unsigned char)s.front())) s.remove_prefix(1);
    while (!s.empty() && std::isspace((unsigned char)s.back())) s.remove_suffix(1);
    return s;
}

int main() {
    std::string s = "Hello";
    s += ", "; s.append("world"); s.push_back('!');
    CHECK(s == "Hello, world!" && s.size() == 13 && s.length() == 13);
    CHECK(s.find("world") == 7 && s.find('z') == std::string::npos && s.rfind('o') == 8 && s.find_first_of(",!") == 5);
    CHECK(s.substr(7, 5) == "world" && s.compare(0, 5, "Hello") == 0);
    s.replace(7, 5, "there"); CHECK(s == "Hello, there!");
    s.insert(0, ">> "); s.erase(s.size() - 1); CHECK(s == ">> Hello, there");
    std::string up = s; std::transform(up.begin(), up.end(), up.begin(), [](unsigned char c) { return std::toupper(c); });
    CHECK(up == ">> HELLO, THERE");

    CHECK(std::to_string(42) == "42" && std::to_string(-1.5) == "-1.500000");
    CHECK(std::stoi("  123abc") == 123 && std::stol("-99") == -99 && std::stoull("ff", nullptr, 16) == 255 && std::stod("2.5e2") == 250.0);
    bool threw = false; try { (void)std::stoi("nope"); } catch (const std::invalid_argument &) { threw = true; } CHECK(threw);
    threw = false; try { (void)std::stoi("99999999999999"); } catch (const std::out_of_range &) { threw = true; } CHECK(threw);

    char buf[32]; auto [end, ec] = std::to_chars(buf, buf + sizeof buf, 123456789);
    CHECK(ec == std::errc() && std::string_view(buf, end - buf) == "123456789");
    int parsed = 0; auto r = std::from_chars("4711xyz", "4711xyz" + 7, parsed); CHECK(parsed == 4711 && *r.ptr == 'x');

    std::string_view csv = "alpha, beta ,gamma,, delta";
    auto parts = split(csv, ',');
    CHECK(parts.size() == 5 && trim(parts[1]) == "beta" && parts[3].empty() && trim(parts[4]) == "delta");
    std::string_view sv = "prefix.body.suffix"sv;
    CHECK(sv.substr(0, 6) == "prefix" && sv.find('.') == 6 && sv.rfind('.') == 11);
    CHECK(sv.compare(0, 6, "prefix") == 0 && sv.size() == 18);

    std::string big; big.reserve(1 << 20);
    for (int i = 0; i < 100000; i++) big += std::to_string(i % 10);
    CHECK(big.size() == 100000 && std::count(big.begin(), big.end(), '7') == 10000);
    std::string rep(5, 'x'); CHECK(rep == "xxxxx");
    auto joined = [&] { std::string j; for (auto p : parts) { if (!j.empty()) j += '|'; j += trim(p); } return j; }();
    CHECK(joined == "alpha|beta|gamma||delta");

    std::u32string u32 = U"h\u00e9\u65e5"; CHECK(u32.size() == 3 && u32[2] == 0x65E5);
    std::u16string u16 = u"\u00e9"; CHECK(u16.size() == 1);
    std::string utf8 = "h\xc3\xa9\xe6\x97\xa5"; CHECK(utf8.size() == 6);
    std::wstring ws = L"wide"; CHECK(ws.size() == 4);
    CHECK("abc"s < "abd"s && std::string("b") > "a");
    std::cout << s << "\nOK" << std::endl;
    return 0;
}
