// Streams: std::cout/cerr/clog, ofstream/ifstream (text, binary, append, seek), fstream,
// stringstream parsing, getline, stream states, a custom operator<<.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

struct Point { int x, y; };
std::ostream &operator<<(std::ostream &os, const Point &p) { return os << '(' << p.x << ',' << p.y << ')'; }
std::istream &operator>>(std::istream &is, Point &p) { char a, b, c; return is >> a >> p.x >> b >> p.y >> c; }

int main() {
    std::ios::sync_with_stdio(false);
    {
        std::ofstream out("table.txt");
        CHECK(out.is_open());
        for (int i = 0; i < 1000; i++) out << i << ' ' << i * i << ' ' << "row" << i << '\n';
    }
    {
        std::ofstream app("table.txt", std::ios::app);
        app << "tail line\n";
    }
    std::ifstream in("table.txt");
    CHECK(in.good());
    long long sum = 0; int a; long long b; std::string w; int rows = 0;
    while (in >> a >> b >> w) { sum += b; rows++; }
    CHECK(rows == 1000 && sum == 332833500LL);
    in.clear(); in.seekg(0);
    std::string line; int lines = 0, last_len = 0;
    while (std::getline(in, line)) { lines++; last_len = (int)line.size(); }
    CHECK(lines == 1001 && last_len == 9 && in.eof());
    in.close();

    // binary data with seeking
    {
        std::ofstream bin("values.bin", std::ios::binary);
        for (int i = 0; i < 10000; i++) bin.write(reinterpret_cast<const char *>(&i), sizeof i);
    }
    std::fstream fs("values.bin", std::ios::in | std::ios::out | std::ios::binary);
    fs.seekg(0, std::ios::end); CHECK(fs.tellg() == 40000);
    fs.seekp(4 * 100); int neg = -100; fs.write(reinterpret_cast<const char *>(&neg), sizeof neg);
    fs.seekg(4 * 100); int got = 0; fs.read(reinterpret_cast<char *>(&got), sizeof got);
    CHECK(got == -100 && fs.gcount() == 4);
    fs.close();
    std::ifstream whole("values.bin", std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(whole)), std::istreambuf_iterator<char>());
    CHECK(bytes.size() == 40000);

    std::ifstream missing("does_not_exist.txt"); CHECK(!missing && !missing.is_open());

    // string streams
    std::istringstream iss("3 4.5 word (7,8)\nnext line");
    int i; double d; std::string s; Point p;
    iss >> i >> d >> s >> p;
    CHECK(i == 3 && d == 4.5 && s == "word" && p.x == 7 && p.y == 8);
    iss.ignore(1); std::getline(iss, s); CHECK(s == "next line");
    std::istringstream bad("notanumber"); int x = 5; bad >> x; CHECK(bad.fail() && x == 0);
    std::ostringstream oss; oss << Point{1, 2} << " and " << 3.25 << ' ' << true << ' ' << std::boolalpha << true;
    CHECK(oss.str() == "(1,2) and 3.25 1 true");
    std::stringstream ss; ss << "a,b,c"; std::string tok; std::vector<std::string> toks;
    while (std::getline(ss, tok, ',')) toks.push_back(tok);
    CHECK(toks.size() == 3 && toks[2] == "c");

    std::clog << "clog works\n";
    std::cerr << "cerr works" << std::endl;
    CHECK(std::remove("table.txt") == 0 && std::remove("values.bin") == 0);
    std::cout << "rows " << rows << '\n' << "OK" << std::endl;
    return 0;
}
