// <regex>: match, search, iterate, capture groups, replace, icase, multiline-ish parsing of a log,
// grammar options (ECMAScript, extended), regex_error.
#include <iostream>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#define CHECK(c) do { if (!(c)) throw std::runtime_error(std::string("check failed: ") + #c + " line " + std::to_string(__LINE__)); } while (0)

int main() {
    std::regex date(R"((\d{4})-(\d{2})-(\d{2}))");
    std::smatch m;
    std::string s = "released on 2023-11-14, patched 2024-01-02";
    CHECK(std::regex_search(s, m, date) && m[1] == "2023" && m[3] == "14" && m.position(0) == 12);
    CHECK(std::regex_match("2024-02-29", date) && !std::regex_match("2024-2-29", date));

    std::vector<std::string> years;
    for (std::sregex_iterator it(s.begin(), s.end(), date), end; it != end; ++it) years.push_back((*it)[1]);
    CHECK((years == std::vector<std::string>{"2023", "2024"}));

    CHECK(std::regex_replace(s, date, "$3/$2/$1") == "released on 14/11/2023, patched 02/01/2024");
    CHECK(std::regex_replace("a  b   c", std::regex("\\s+"), " ") == "a b c");

    std::regex email(R"(([\w.+-]+)@([\w-]+(\.[\w-]+)+))", std::regex::icase);
    std::smatch em; std::string addr = "Contact: Jane.Doe+tag@Example.CO.uk now";
    CHECK(std::regex_search(addr, em, email) && em[1] == "Jane.Doe+tag" && em[2] == "Example.CO.uk");
    CHECK(std::regex_match("HELLO", std::regex("hello", std::regex::icase)));

    // parse a log with named-ish groups
    std::string log =
        "2024-01-01 10:00:01 INFO  started pid=12\n"
        "2024-01-01 10:00:02 WARN  disk 91%\n"
        "2024-01-01 10:00:03 ERROR failed code=7\n"
        "2024-01-01 10:00:04 INFO  request id=1\n"
        "2024-01-01 10:00:05 ERROR failed code=9\n";
    std::regex line(R"((\S+) (\S+) (INFO|WARN|ERROR)\s+(.*))");
    std::map<std::string, int> levels; int code_sum = 0;
    std::regex code(R"(code=(\d+))");
    for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) {
        levels[(*it)[3]]++;
        std::string msg = (*it)[4]; std::smatch cm;
        if (std::regex_search(msg, cm, code)) code_sum += std::stoi(cm[1]);
    }
    CHECK(levels["INFO"] == 2 && levels["WARN"] == 1 && levels["ERROR"] == 2 && code_sum == 16);

    // tokenizing with a token iterator (splitting on commas, keeping fields)
    std::string csv = "a,bb,,ccc";
    std::regex comma(",");
    std::vector<std::string> fields(std::sregex_token_iterator(csv.begin(), csv.end(), comma, -1), std::sregex_token_iterator());
    CHECK(fields.size() == 4 && fields[1] == "bb" && fields[2].empty());

    CHECK(std::regex_match("aaa", std::regex("a+", std::regex::extended)));
    CHECK(std::regex_search("x=1;y=22", std::regex("y=([0-9]+)")));
    std::wregex wr(L"\\d+"); CHECK(std::regex_search(std::wstring(L"abc123"), wr));
    bool threw = false; try { std::regex bad("(unclosed"); } catch (const std::regex_error &) { threw = true; }
    CHECK(threw);
    std::cout << "OK\n";
    return 0;
}
